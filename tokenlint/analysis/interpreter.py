"""A small abstract interpreter over a tool's statements: what each returned value is built from.

Flow-sensitive within a function (``text = text[:1000]`` replaces the unbounded value), joins at
branches, runs loop bodies twice so values appended in a loop reach the code after it, and
follows calls into helper functions of the same module and of other modules of the run (each
helper summarised once, with its parameters as placeholders substituted at each call).

This module keeps Python's semantics: statements, control flow, expressions, assignment and the
dispatch of a call. What a call returns is decided by its mixins, one module per kind of callee:
``library_calls`` (libraries known by their method names, tables in ``catalogue``), ``followed``
(the project's own helpers, methods, closures and code run elsewhere), ``external`` (code that is
not in the run: unknown size until shown small, judged by ``shapes``), ``constants`` (integer and
string values known before run time); ``values`` holds the small predicates they share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence, cast, overload

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis.caches import cache_hit, read_through_stores
from tokenlint.analysis.registries import session_registry
from tokenlint.analysis.configured import filled_from_configuration
from tokenlint.analysis.entry_points import (Literal, factory_module_names, factory_settings, is_member_token, literal_value,
                                              member_token)
from tokenlint.analysis.constants import (Constants, keyword_arg, le_in_annotation, module_constant,
                                          string_literal)
from tokenlint.analysis.external import (ACK_FAMILY, CONTEXT_FAMILY, DECLARATION_FAMILY, HEADERS_FAMILY, ID_RECORDS_FAMILY,
                                         SERIALIZERS, SIZE_UNKNOWN,
                                         ExternalCalls, drained, http_body_bound, is_context_param, limit_like,
                                         made_object, part_of, field_keeper, field_of_body, fixed_record, picked_whole, json_record,
                                         listing_key, listing_of, named_object, parsed_json_body, whole_file_read,
                                         whole_record_sources)
from tokenlint.analysis.followed import (FollowedCalls, annotation_class, find_instance_attribute_classes,
                                         find_instance_collections, returns_object_data)
from tokenlint.analysis.knowledge import Knowledge
from tokenlint.analysis.library_calls import LibraryCalls
from tokenlint.analysis.packaged import packaged_path, written_paths
from tokenlint.analysis.records import dataclass_fields, fixed_model, object_class, record_kind, scalar_class, service_class
from tokenlint.analysis.shapes import (CONFIG_WORDS, Shape, call_shape, call_verb, configuration_object, is_plural,
                                      open_field, small_field, words)
from tokenlint.analysis.state import SqlBound
from tokenlint.analysis.taints import (EMPTY, SELF_DATA, WRAPPED, Bound, Flow, Marker, Measure, Param, Site, Src, Taint, apply_bound, markers,
                                       measure_of, params, scalar_of, union)
from tokenlint.analysis.values import (ACCUMULATORS, BUILTINS, RUNTIME_COLLECTION, VALUE_METHODS, body_of, chain_root, defs_in, empty_collection,
                                       is_protocol, is_stub, method_class, registry_element,
                                       is_arguments_name, is_stdlib, response_like, run_class_named,
                                       statements_of)
from tokenlint.source.functions import gathering_parameters, injected_provider, parameters
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import SCOPES, code_children, node_code, walk, walk_own

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule, Project


#: Last words of a module-level name that holds one short value of the set-up, not data
#: (``API_TOKEN = open(p).read().strip()``, ``BASE_URL``, ``DATA_DIR``): ``module_data``. Only the
#: last word counts: ``ROOT_FILES = os.listdir(ROOT)`` is data.
SETUP_HEAD_WORDS = frozenset({"token", "key", "secret", "password", "passwd", "url", "uri", "host", "hostname",
                              "endpoint", "base", "dsn", "path", "dir", "directory", "root", "prefix", "auth",
                              "name", "id", "version", "user", "username", "email", "region", "port", "mode"})

#: Methods a class of the run inherits from a library base that copy the object, with the
#: values they are given put in (pydantic's ``model_copy(update=...)``, v1 ``copy(update=...)``).
COPIERS = frozenset({"model_copy", "copy", "__copy__"})

#: Methods that build a request on a resource of an API client, the resource named by an
#: argument-less call before them (``service.files().list(...)``: ``_resource_accessor``).
_REQUEST_BUILDERS = frozenset({"list", "get", "search", "query", "insert", "create", "update", "patch",
                               "delete", "batchGet", "values", "messages", "threads", "events"})

#: Functions that read a whole file object they are given.
LOADERS = frozenset({"load", "safe_load", "full_load", "unsafe_load", "reader", "DictReader",
                     "read_csv", "read_json", "parse", "loads"})


@dataclass
class SizeCheck:
    """A comparison of a measure against a budget (``len(text) > LIMIT``)."""

    site: Site
    measured: frozenset
    budget: int | None
    tokens: bool
    #: The tool parameter the budget is, when the model chooses it and nothing caps it
    #: (``if len(text) > max_chars``): a bound of the caller's choosing, not an enforced one.
    caller_param: Param | None = None
    #: In a helper: the parameters whose data is measured (see ``Measure.params``).
    measured_params: frozenset = frozenset()


def _literal_entries(node: cst.Dict) -> list[tuple[str, cst.BaseExpression]] | None:
    """``(key, value)`` of a dict literal whose keys are all string literals (no ``**``)."""
    out = []
    for e in node.elements:
        key = string_literal(e.key) if isinstance(e, cst.DictElement) else None
        if key is None:
            return None
        out.append((key, e.value))
    return out


@dataclass
class Summary:
    """What a function (tool body or helper) contributes: returned flows and size checks."""

    returns: list[tuple[Site, Flow]] = field(default_factory=list)
    checks: list[SizeCheck] = field(default_factory=list)
    runtime_fit: bool = False
    #: Calls tokenlint could not see into whose result it judged small (one record, a handle,
    #: a scalar) by their name alone: what a NONE verdict rests on (``callee()`` strings).
    untraced: list[str] = field(default_factory=list)
    #: Per-position flows of each ``return a, b, c`` (a tuple literal); ``mixed_returns`` when
    #: some return gives something else. Lets ``x, y = helper()`` keep the parts apart.
    tuple_returns: list[tuple[Flow, ...]] = field(default_factory=list)
    mixed_returns: bool = False
    #: Per-key flows of each ``return {"message": ..., "cell": ...}`` (a dict literal with string
    #: keys); ``other_returns`` when some return gives something else. Lets ``r = helper();
    #: r["message"]`` read the one entry.
    dict_returns: list[dict[str, Flow]] = field(default_factory=list)
    other_returns: bool = False
    #: What the function puts into the collections its parameters hold, by parameter name
    #: (``def collect(matches, out): out[kind].append(...)``): the caller's argument gets it.
    filled: dict[str, Flow] = field(default_factory=dict)
    #: In an ``__init__``: the data it stores on ``self`` (``self.text = f.read()``), which the
    #: object it makes then holds (``Raw(p).text``, ``Doc(p).cells()``).
    stored: Flow = EMPTY
    #: In an ``__init__``: the flow stored on each ``self.<attr>`` (by ``attr``), joined over its
    #: assignments (``Analyzer.instance_data``).
    stored_attrs: dict[str, Flow] = field(default_factory=dict)
    #: What the function assigns to each name it declares ``global`` (``global CACHE; CACHE =
    #: load_all()``), joined over its assignments (``Analyzer.module_data``).
    globals_written: dict[str, Flow] = field(default_factory=dict)
    #: The function's own parameters it iterates or slices as they are (``for todo in todos``,
    #: ``[t for t in enumerate(todos)]``, ``todos[offset:end]``): what a caller passes for one
    #: is used as a collection (``FollowedCalls._used_as_collection``).
    iterated: set[str] = field(default_factory=set)

    def tuple_parts(self) -> tuple[Flow, ...] | None:
        """The flow of each position when every return is a tuple literal of one arity."""
        if self.mixed_returns or not self.tuple_returns:
            return None
        arity = len(self.tuple_returns[0])
        if any(len(t) != arity for t in self.tuple_returns):
            return None
        return tuple(union(*(t[i] for t in self.tuple_returns)) for i in range(arity))

    def dict_parts(self) -> dict[str, Flow] | None:
        """The flow of each key when every return is a dict literal with string keys (a key
        missing from some returns holds what the others put there; one no return has, nothing)."""
        if self.other_returns or not self.dict_returns:
            return None
        keys = {k for d in self.dict_returns for k in d}
        return {k: union(*(d.get(k, EMPTY) for d in self.dict_returns)) for k in keys}

    def returned(self) -> Flow:
        """Every taint the function may return: the union of the flows of all its ``return``
        statements."""
        return union(*(f for _, f in self.returns))


class Analyzer:
    """Shared state of one run's analysis: interned sites, helper summaries, the project."""

    def __init__(self, project: Project, knowledge: Knowledge | None = None) -> None:
        self.project = project
        #: ``extra-sources`` / ``extra-bounds`` of the run (empty: nothing configured).
        self.knowledge = knowledge if knowledge is not None else Knowledge()
        self._sites: dict[int, Site] = {}
        self._helpers: dict[tuple[int, tuple[tuple[str, str], ...], tuple[tuple[str, Literal], ...], str | None, bool],
                            Summary | None] = {}
        self._wrappers: dict[int, list[tuple[ParsedModule, cst.FunctionDef, tuple[tuple[str, Literal], ...], str]]] = {}
        self._own_uses: dict[int, tuple[dict[str, frozenset[str]], frozenset[str]]] = {}
        self._instance_collections: dict[tuple[str, str], frozenset[str]] = {}
        self._written_files: dict[str, frozenset[Path]] = {}
        self._defs_by_name: dict[int, dict[str, cst.FunctionDef]] = {}
        self._instance_attributes: dict[tuple[str, str], dict[str, str]] = {}
        #: ``lifespan_class``'s answer once computed (False: not yet).
        self._lifespan_class: str | None | bool = False
        self._enclosing: dict[str, dict[int, cst.FunctionDef]] = {}
        self._stored_entries: dict[str, dict[str, list[cst.BaseExpression]]] = {}
        self._read_through: dict[str, dict[str, frozenset[str]]] = {}
        self._cache_hits: dict[tuple[str, int, str], bool] = {}
        self._closures: dict[int, dict[str, Flow]] = {}
        self._switches: dict[int, tuple[frozenset[str], dict[str, Literal]]] = {}
        #: ``followed.forwarded_parameter`` of each def asked about, by ``id`` (the run's trees
        #: outlive the Analyzer, so ids are not reused meanwhile).
        self.forwarders: dict[int, int | None] = {}
        #: ``followed.dispatch_parameters`` of each def asked about, by ``id``.
        self.dispatchers: dict[int, frozenset[str]] = {}
        #: ``followed.branch_parameters`` of each def asked about, by ``id``.
        self.branchers: dict[int, frozenset[str]] = {}
        self._configured: dict[tuple[str, str], bool] = {}
        self._module_data: dict[str, dict[str, Flow]] = {}
        self._globals: dict[str, frozenset[str]] = {}
        self._implementations: dict[tuple[str, str], list[tuple[ParsedModule, cst.FunctionDef]]] = {}
        self._subclasses: dict[str, list[tuple[ParsedModule, str]]] = {}
        self._writers: dict[str, dict[str, list[cst.FunctionDef]]] = {}
        self._module_globals: dict[str, frozenset[str]] = {}
        self._registries: dict[tuple[str, str], str | None] = {}
        self._loading: set[tuple[str, str, str]] = set()
        self._setters: dict[tuple[str, str], dict[str, list[cst.FunctionDef]]] = {}
        #: ``followed.returns_object_data`` of each method asked about, by ``id``.
        self.object_data_methods: dict[int, bool] = {}

    def scalar_entries(self, module: ParsedModule, container: str) -> bool:
        """Whether every value the module stores into the run-time collection ``container`` is
        one short value: a literal string, number or constant (``JOBS[job_id] = "queued"``,
        ``self.state[k] = 0``), or a variable or attribute named for a number or an identifier
        (``self._urls[key] = url``, ``paths[alias] = self.path``, ``shapes.small_field``), so
        one entry is a scalar, not a record; False when nothing is stored by item assignment.
        The module's item assignments are read once, for every container."""
        stored = self._stored_entries.get(module.module_name)
        if stored is None:
            stored = {}
            for node, _ in module.nodes():
                if isinstance(node, cst.Assign):
                    for target in node.targets:
                        t = target.target
                        name = dotted_name(t.value) if isinstance(t, cst.Subscript) else None
                        if name is not None:
                            stored.setdefault(name, []).append(node.value)
            self._stored_entries[module.module_name] = stored
        values = stored.get(container, [])
        return bool(values) and all(_literal_scalar(v) or _small_named(v) for v in values)

    def entry_class(self, module: ParsedModule, container: str) -> str | None:
        """The qualified class of every value the module stores into the run-time collection
        ``container`` when each is an object made there by calling it (``self._managers[name] =
        KafkaManager(cfg)``, ``presentations[pid] = Presentation()``): a registry of objects, one
        entry an object of that class, not a record of data. None when any stored value is
        something else, or nothing is stored by item assignment."""
        self.scalar_entries(module, container)  # (reads the module's item assignments once)
        values = self._stored_entries[module.module_name].get(container, [])
        # (``annotation_class`` of the callee: the qualified CapWords class it names)
        classes = {annotation_class(module, v.func) if isinstance(v, cst.Call) else None for v in values}
        return classes.pop() if len(classes) == 1 and None not in classes else None

    def cache_hit(self, module: ParsedModule, fn: cst.FunctionDef | None, container: str) -> bool:
        """Whether ``fn`` reading an entry of the run-time collection ``container`` reads a
        read-through cache back (``caches.cache_hit``); the module's caches are found once, and
        each (function, collection) judged once."""
        if fn is None or not isinstance(fn, cst.FunctionDef):
            return False
        key = (module.module_name, id(fn), container)
        hit = self._cache_hits.get(key)
        if hit is None:
            stores = self._read_through.get(module.module_name)
            if stores is None:
                stores = self._read_through[module.module_name] = read_through_stores(module)
            hit = self._cache_hits[key] = cache_hit(module, fn, container, stores)
        return hit

    def enclosing_function(self, module: ParsedModule, fn: cst.FunctionDef) -> cst.FunctionDef | None:
        """The function ``fn`` is defined in (a tool nested in ``def create_server(config)``),
        or None for a module-level function or a method. One table per module, built once."""
        if any(f is fn for f in module.functions.values()):
            return None  # a module-level function or a method: nothing encloses it
        table = self._enclosing.get(module.module_name)
        if table is None:
            table = {}
            outers = list(module.functions.values())
            while outers:
                outer = outers.pop()
                for inner in defs_in(outer):
                    table.setdefault(id(inner), outer)  # its own encloser, at any depth
                    outers.append(inner)
            self._enclosing[module.module_name] = table
        return table.get(id(fn))

    def nested_def(self, module: ParsedModule, fn: cst.FunctionDef, name: str) -> cst.FunctionDef | None:
        """The function ``name`` that code in ``fn`` calls by its bare name when it is defined
        inside ``fn`` or inside a function enclosing ``fn`` (a helper ``def _all_notes()`` beside
        the tools of ``def make_app(db_path)``), the innermost first; None when no such def."""
        scope: cst.FunctionDef | None = fn
        while scope is not None:
            table = self._defs_by_name.get(id(scope))
            if table is None:
                table = self._defs_by_name[id(scope)] = {}
                for inner in defs_in(scope):  # (last-written first: it is what the name holds)
                    table.setdefault(inner.name.value, inner)
            found = table.get(name)
            if found is not None and found is not fn:
                return found
            scope = self.enclosing_function(module, scope)
        return None

    def closure_env(self, module: ParsedModule, fn: cst.FunctionDef, class_name: str | None) -> dict[str, Flow]:
        """The locals a nested function reads from the function that defines it (a server
        factory's ``reg = Registry(cfg)`` read by each tool it registers): the enclosing body
        interpreted once, as a closure sees it (its final values). The enclosing function's own
        parameters are configuration, not the model's arguments, so they carry no ``Param``.
        Empty for a function that is not nested."""
        outer = self.enclosing_function(module, fn)
        if outer is None:
            return {}
        key = id(outer)
        if key not in self._closures:
            self._closures[key] = {}  # recursion guard
            interp = FunctionInterpreter(self, module, outer, depth=1, class_name=class_name)
            interp.env = {**self.closure_env(module, outer, class_name), **interp.env}
            interp.run(body_of(outer))
            own = {p.name.value for p in parameters(outer)}
            self._closures[key] = {
                name: frozenset(t for t in flow if not isinstance(t, Param))
                for name, flow in interp.env.items() if name not in own and "." not in name
            }
            self._closures[key].update(self._passed_collections(module, outer, own))
        return self._closures[key]

    def _passed_collections(self, module: ParsedModule, outer: cst.FunctionDef,
                            own: set[str]) -> dict[str, Flow]:
        """The parameters of a module-level factory that its callers hand a module-level
        collection of their own, filled at run time (``register_deck_tools(app, decks)`` with
        ``decks = {}`` in the server module): each read as that collection is where it was made
        (TL108), not as configuration. ``entry_points.factory_module_names`` finds the calls."""
        if module.functions.get(outer.name.value) is not outer:
            return {}
        out: dict[str, Flow] = {}
        for name, passed in factory_module_names(self.project, module, outer, own - {"self", "cls"}).items():
            flows = [self.runtime_collection(cmod, arg) for cmod, arg in passed]
            if all(flows):
                out[name] = union(*cast("list[Flow]", flows))
        return out

    def runtime_collection(self, module: ParsedModule, node: cst.Name) -> Flow | None:
        """What the module-level name ``node`` of ``module`` holds when it is bound to an empty
        collection: filled at run time, so its size depends on data (a TL108 source); ``EMPTY``
        when only the process's start-up configuration fills it (``filled_from_configuration``:
        ``ALLOWED_DIRS[:] = dirs`` from ``sys.argv``, the operator's handful). None when the
        name is bound to anything else."""
        value = module_constant(module, node.value)
        if value is None or not empty_collection(value):
            return None
        if self.filled_from_configuration(module, node.value):
            return EMPTY
        return self.collection_src(module, node, f"module-level collection `{node.value}`", node.value)

    def collection_src(self, module: ParsedModule, node: cst.CSTNode, what: str, name: str,
                       at: ParsedModule | None = None) -> Flow:
        """What the run-time collection ``name`` of ``module`` (a module-level name, or an
        attribute of a class there), read at ``node`` of module ``at`` (default ``module``),
        holds: a TL108 source of unknown size (``what`` describes it), or, for a session
        registry that only tools fill one entry per call (``registries.session_registry``), a
        ``registry`` marker: its entries, each one record, as many as the model's own calls
        stored (``values.registry_element``)."""
        site = self.site(at or module, node)
        key = (module.module_name, name)
        if key not in self._registries:
            self._registries[key] = session_registry(self.project, module.module_name, name)
        registry = self._registries[key]
        if registry is not None:
            return frozenset({Marker("registry", site, keys=("keyed",) if registry == "keyed" else ())})
        return frozenset({Src("TL108", site, f"{what} {RUNTIME_COLLECTION}")})

    def closure_switches_off(self, module: ParsedModule, fn: cst.FunctionDef) -> frozenset[str]:
        """Names a nested function reads from the parameters of the functions that define it
        whose default is None, False or 0 (``def create_server(driver, token_limit=None)``): a
        switch of the server's configuration that is off by default, so a guard testing it
        (``if token_limit: text = truncate(text, token_limit)``) cuts nothing on the default
        configuration (design.md: "a budget check that is present but off by default does not
        bound anything"). A name the enclosing body rebinds is no longer the parameter; one the
        project's entry point turns on (``closure_switches_on``) is not off."""
        return frozenset(n for outer in self._factories_of(module, fn) for n in self._factory_switches(*outer)[0])

    def closure_switches_on(self, module: ParsedModule, fn: cst.FunctionDef) -> dict[str, Literal]:
        """Of the switches off by the factory's own defaults (``closure_switches_off``), those
        every call of the factory in the project turns on, with the value it passes
        (``entry_points.factory_settings``: ``@click.option("--response-limit", default=50000)``
        then ``server(response_limit)``): on the default configuration (labelling rule 1) a cap
        under one cuts, at that value (``if len(res) + len(line) > response_limit: break``)."""
        out: dict[str, Literal] = {}
        for outer in self._factories_of(module, fn):
            for name, value in self._factory_switches(*outer)[1].items():
                out.setdefault(name, value)
        return out

    def _factories_of(self, module: ParsedModule, fn: cst.FunctionDef) -> list[tuple[ParsedModule, cst.FunctionDef]]:
        """The functions that define ``fn``, innermost first (empty for a module-level one)."""
        out = []
        outer = self.enclosing_function(module, fn)
        while outer is not None:
            out.append((module, outer))
            outer = self.enclosing_function(module, outer)
        return out

    def _factory_switches(self, module: ParsedModule, outer: cst.FunctionDef) -> tuple[frozenset[str], dict[str, Literal]]:
        """``(off, on)`` switches of one server factory (``closure_switches_off`` / ``_on``),
        computed once per factory, not once per tool it defines."""
        found = self._switches.get(id(outer))
        if found is None:
            rebound = {dotted_name(t.target) for n in walk_own(outer.body) if isinstance(n, cst.Assign)
                       for t in n.targets}
            off = frozenset(p.name.value for p in parameters(outer)
                            if p.name.value not in rebound and _falsy_default(p.default))
            on: dict[str, Literal] = {}
            if off and module.functions.get(outer.name.value) is outer:
                # (only a module-level factory is called from elsewhere: a nested one's own
                # callers are in its encloser)
                on = {k: v for k, v in factory_settings(self.project, module, outer, off).items() if v}
            found = self._switches[id(outer)] = (off - set(on), on)
        return found

    def packaged_file(self, module: ParsedModule, fn: cst.CSTNode | None, expr: cst.BaseExpression) -> Path | None:
        """The file shipped beside the code that ``expr`` names in ``fn`` of ``module``
        (``packaged.packaged_path``: its authors' text, no data source), or None."""
        return packaged_path(module, fn, expr, self._module_writes)

    def _module_writes(self, module: ParsedModule) -> frozenset[Path]:
        """The files ``module`` writes (``packaged.written_paths``), once per module in a run."""
        found = self._written_files.get(module.module_name)
        if found is None:
            found = self._written_files[module.module_name] = written_paths(module)
        return found

    def instance_collections(self, module: ParsedModule, class_name: str) -> frozenset[str]:
        """Attributes a class's methods set to an empty collection (``self.notes = {}``): instance
        data filled at run time. Computed once per (module, class) in a run."""
        key = (module.module_name, class_name)
        if key not in self._instance_collections:
            self._instance_collections[key] = find_instance_collections(module, class_name)
        return self._instance_collections[key]

    def filled_from_configuration(self, module: ParsedModule, name: str) -> bool:
        """Whether the module-level collection ``name`` holds only what the process was started
        with (``configured.filled_from_configuration``: ``sys.argv``, the environment). Computed
        once per (module, name) in a run."""
        key = (module.module_name, name)
        if key not in self._configured:
            self._configured[key] = filled_from_configuration(module, name)
        return self._configured[key]

    def module_data(self, module: ParsedModule, name: str) -> Flow:
        """The data sources the module-level name ``name`` of ``module`` holds once the module is
        imported and the server started: what its top-level statements bind it to
        (``DOCS = [dict(r) for r in conn.execute(q).fetchall()]``, ``INDEX = json.load(open(p))``,
        ``FILES = os.listdir(root)``), interpreted as a function body is, joined with what each
        top-level function declaring ``global name`` assigns it (``CACHE = load_all()`` in a
        ``lifespan``: its summary's ``globals_written``). Only ``Src`` taints are kept (a client
        or a cursor made at import is read where the tool calls it). The module's body is
        interpreted once per run, on first use, without its defs, classes and ``if __name__ ==
        "__main__":`` block; a function being summarised (the tool reached the name through it)
        adds nothing.
        """
        flows = [EMPTY]
        value = module.constants.get(name)
        if value is None or _may_hold_data(value):
            # (a name bound only to literals, None or a new object is not interpreted for)
            flows.append(self._module_table(module).get(name, EMPTY))
        writers = self.global_writers(module).get(name, ()) if name in self.module_globals(module) else ()
        for fn in writers:
            summary = self.helper_summary(module, fn, 1)
            if summary is not None:
                flows.append(summary.globals_written.get(name, EMPTY))
        return frozenset(t for t in union(*flows) if isinstance(t, Src))

    def _module_table(self, module: ParsedModule) -> dict[str, Flow]:
        """``_module_data`` of ``module``, interpreted once per run."""
        table = self._module_data.get(module.module_name)
        if table is None:
            self._module_data[module.module_name] = {}  # recursion guard
            table = self._module_data[module.module_name] = _module_data(self, module)
        return table

    def module_object_data(self, module: ParsedModule, name: str) -> Flow:
        """The data sources a module-level object of a class of the run was made of (``catalogue =
        Catalogue(conn.execute(q).fetchall())``: every row), at import or in a top-level function
        declaring ``global name`` (``global store; store = Store(rows)`` in a start-up function):
        what its methods may give back where a tool calls them (``FunctionInterpreter.call``,
        ``followed.returns_object_data``). Nothing for an object made of configuration or of
        nothing read."""
        key = f"<object>{name}"
        flows = [self._module_table(module).get(key, EMPTY)]
        for fn in self.global_writers(module).get(name, ()) if name in self.module_globals(module) else ():
            summary = self.helper_summary(module, fn, 1)
            if summary is not None:
                flows.append(summary.globals_written.get(key, EMPTY))
        return frozenset(t for t in union(*flows) if isinstance(t, Src))

    def global_writers(self, module: ParsedModule) -> dict[str, list[cst.FunctionDef]]:
        """The top-level functions of ``module`` declaring each name ``global``. Once per module."""
        found = self._writers.get(module.module_name)
        if found is None:
            found = self._writers[module.module_name] = {}
            for key, fn in module.functions.items():
                if "." in key:
                    continue  # a method
                for g in self.declared_globals(fn):
                    found.setdefault(g, []).append(fn)
        return found

    def module_globals(self, module: ParsedModule) -> frozenset[str]:
        """Every name some ``global`` statement of ``module`` declares (from the module's node list,
        which discovery walked already): most modules have none, and then no function of theirs
        need be read for one. Once per module."""
        found = self._module_globals.get(module.module_name)
        if found is None:
            found = self._module_globals[module.module_name] = frozenset(
                g.name.value for node, _ in module.nodes() if isinstance(node, cst.Global) for g in node.names)
        return found

    def declared_globals(self, fn: cst.FunctionDef) -> frozenset[str]:
        """The names ``fn``'s own body declares ``global`` (``global CACHE``)."""
        return self._own_uses_of(fn)[1]

    def top_level_names(self, module: ParsedModule) -> frozenset[str]:
        """Names ``module`` binds outside its functions and classes (``DOCS = ...``, ``with open(p)
        as f: INDEX = json.load(f)`` at top level) or that its top-level functions declare
        ``global`` (a name first bound in a start-up function: ``global CACHE; CACHE =
        load_all()``): the names ``module_data`` may know. Computed once per module."""
        found = self._globals.get(module.module_name)
        if found is None:
            names = set(self.module_globals(module))
            for stmt in module.tree.body:
                if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                    continue
                for node in walk(stmt):
                    if isinstance(node, (cst.AssignTarget, cst.AnnAssign, cst.AsName, cst.For)):
                        target = node.name if isinstance(node, cst.AsName) else node.target
                        names.update(n.value for n in walk(target) if isinstance(n, cst.Name))
            found = self._globals[module.module_name] = frozenset(names)
        return found

    def instance_data(self, module: ParsedModule, class_name: str, attr: str) -> Flow:
        """The data sources the class ``class_name`` of ``module`` (or a base) stores on
        ``self.<attr>`` in its ``__init__`` (``self.items = json.load(open(path))``), or in another
        method of its own that sets it (``def load(self): self.docs = json.load(f)``, a cache
        filled on first use): what every method reading ``self.<attr>`` gets. EMPTY for an
        attribute no method sets from a source, and while ``__init__`` or the setting method is
        being summarised."""
        return self._stored_data(module, class_name, attr, attr)

    def instance_object_data(self, module: ParsedModule, class_name: str, attr: str) -> Flow:
        """The data sources the object a method of ``class_name`` stores on ``self.<attr>`` was
        made of (``self.store = Store(conn.execute(q).fetchall())``: every row): what its methods
        may give back where a method of the class calls them (``self.store.everything()``), as
        ``module_object_data`` for a module-level object. EMPTY for an object made of
        configuration or of nothing read."""
        return self._stored_data(module, class_name, attr, f"<object>{attr}")

    def _stored_data(self, module: ParsedModule, class_name: str, attr: str, key: str) -> Flow:
        """The ``Src`` taints of ``Summary.stored_attrs[key]`` over ``__init__`` and the other
        methods of ``class_name`` setting ``self.<attr>`` (``instance_data``)."""
        flows = []
        found = self.method_of(module, class_name, "__init__")
        summary = self.helper_summary(found[0], found[1], 1) if found is not None else None
        if summary is not None:
            flows.append(summary.stored_attrs.get(key, EMPTY))
        loading = (module.module_name, class_name, key)
        if loading not in self._loading:
            self._loading.add(loading)
            try:
                for fn in self._attribute_setters(module, class_name).get(attr, ()):
                    summary = self.helper_summary(module, fn, 1)
                    if summary is not None:
                        flows.append(summary.stored_attrs.get(key, EMPTY))
            finally:
                self._loading.discard(loading)
        return frozenset(t for t in union(EMPTY, *flows) if isinstance(t, Src))

    def _attribute_setters(self, module: ParsedModule, class_name: str) -> dict[str, list[cst.FunctionDef]]:
        """``{attr: methods}``: the methods of ``class_name`` other than ``__init__`` that assign
        ``self.<attr> = ...``. Once per class."""
        key = (module.module_name, class_name)
        found = self._setters.get(key)
        if found is None:
            found = self._setters[key] = {}
            for qualname, fn in module.functions.items():
                owner, _, method = qualname.partition(".")
                if owner != class_name or not method or method == "__init__":
                    continue
                for node in walk_own(fn.body):
                    if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
                        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                        for t in targets:
                            dn = dotted_name(t)
                            if dn and dn.startswith("self.") and dn.count(".") == 1 and fn not in found.get(dn[5:], []):
                                found.setdefault(dn[5:], []).append(fn)
        return found

    def lifespan_class(self) -> str | None:
        """The class of the run of the object the server's lifespan gives its tools
        (``ctx.request_context.lifespan_context``): the function a server is constructed with
        (``FastMCP("x", lifespan=app_lifespan)``), an ``@asynccontextmanager`` generator, yields
        it; its class is the one the return annotation names (``-> AsyncIterator[AppContext]``,
        the MCP Python SDK's documented form) or the one the yielded value is made by (``yield
        AppContext(db=db)``, ``ctx = AppContext(...); yield ctx``). None when no lifespan of the
        run says (or two disagree). Computed once per run."""
        if self._lifespan_class is not False:
            return cast("str | None", self._lifespan_class)
        found: set[str] = set()
        for name in sorted(self.project.module_files):
            if not self.project.mentions(name, "lifespan"):
                continue
            mod = self.project.get(name)
            if mod is None:
                continue
            for node, _ in mod.nodes():
                if not isinstance(node, cst.Call):
                    continue
                for arg in node.args:
                    if arg.keyword is None or arg.keyword.value != "lifespan":
                        continue
                    hit = self.project.function_called(mod, arg.value)
                    made = _lifespan_yield_class(self.project, *hit) if hit is not None else None
                    if made is not None:
                        found.add(made)
        self._lifespan_class = next(iter(found)) if len(found) == 1 else None
        return self._lifespan_class

    def instance_attribute_family(self, module: ParsedModule, class_name: str, attr: str) -> str | None:
        """The qualified class of the object a method of ``class_name`` assigns to
        ``self.<attr>`` (``self.editor = TextEditor()``) or its body declares (``editor:
        TextEditor``), or None (also for a scalar class, an ``Enum``). Computed once per class."""
        for _ in range(4):  # the class, then its bases (``self.editor`` set in ``BaseHandler``)
            key = (module.module_name, class_name)
            table = self._instance_attributes.get(key)
            if table is None:
                table = self._instance_attributes[key] = find_instance_attribute_classes(module, class_name)
            if attr in table:
                # (an attribute holding an ``Enum`` member is a constant, not an object whose
                # methods are followed: ``records.scalar_class``)
                return None if scalar_class(self.project, table[attr]) else table[attr]
            cls = module.classes.get(class_name)
            base = next((b.value for b in cls.bases if b.keyword is None), None) if cls is not None else None
            qn = module.imports.qualify(base) if base is not None else None
            if qn is None and base is not None and dotted_name(base) in module.classes:
                qn = f"{module.module_name}.{dotted_name(base)}"
            found = self.project.resolve(qn) if qn else None
            if found is None or found[1] not in found[0].classes:
                return None
            module, class_name = found
        return None

    def site(self, module: ParsedModule, node: cst.CSTNode) -> Site:
        """The one ``Site`` of ``node`` in ``module``, interned by node identity so the same node
        always gives the same (hashable) site; a node reusing a freed node's ``id`` gets a new
        one."""
        key = id(node)
        s = self._sites.get(key)
        if s is None or s.node is not node:
            s = Site(module, node)
            self._sites[key] = s
        return s

    def method_of(self, module: ParsedModule, class_name: str, method: str,
                  depth: int = 0) -> tuple[ParsedModule, cst.FunctionDef] | None:
        """``(module, def)`` of ``method`` of the run's class ``class_name`` of ``module``, looked
        up in the class and then its bases (defined in the run, depth-first, 6 levels), or None.
        A stub (``values.is_stub``: a protocol or abstract method's ``...``) is skipped for an
        implementation in another base (a mixin), and is no definition when there is none."""
        fn = module.functions.get(f"{class_name}.{method}")
        if fn is not None and not is_stub(fn):
            return module, fn
        cls = module.classes.get(class_name)
        if cls is None or depth > 5:
            return None
        for base in cls.bases:
            hit = self.base_class(module, base)
            if hit is None:
                continue
            found = self.method_of(hit[0], hit[1], method, depth + 1)
            if found is not None:
                return found
        return None

    def base_class(self, module: ParsedModule, base: cst.Arg) -> tuple[ParsedModule, str] | None:
        """``(module, class name)`` of the run's class a base of a class of ``module`` names
        (``Base``, ``pkg.Base``, a subscripted generic ``Base[T]``), or None."""
        node = base.value.value if isinstance(base.value, cst.Subscript) else base.value
        name = dotted_name(node)
        if name in module.classes:
            return module, name
        qn = module.imports.qualify(node)
        return self.project.resolve_class(qn) if qn else None

    def implementations(self, family: str, method: str) -> list[tuple[ParsedModule, cst.FunctionDef]]:
        """The ``(module, def)`` of ``method`` in each subclass of the run's class ``family`` that
        implements it where ``family`` declares it ``@abstractmethod`` with a stub body: the
        classes chosen at run time behind an abstract base (an adapter per API version), at most
        4 (``subclasses``). ``[]`` when the method is no abstract stub of ``family`` or nothing
        implements it. A protocol's members are not followed: its implementations need not
        name it as a base, but those that do (``class PipelineResource(PipelineResourceProtocol)``)
        are followed as an abstract base's are."""
        key = (family, method)
        hit = self._implementations.get(key)
        if hit is not None:
            return hit
        out: list[tuple[ParsedModule, cst.FunctionDef]] = []
        self._implementations[key] = out
        stub = self.project.find_function(f"{family}.{method}")
        if stub is None or not is_stub(stub[1]):
            return out
        owner = self.project.resolve_class(family)
        protocol = owner is not None and is_protocol(owner[0].classes[owner[1]])
        if not protocol and not any(
                (dotted_name(d.decorator) or "").rpartition(".")[2] == "abstractmethod" for d in stub[1].decorators):
            return out
        for mod, cname in self.subclasses(family):
            impl = mod.functions.get(f"{cname}.{method}")
            if impl is not None and not is_stub(impl) and len(out) < 4:
                out.append((mod, impl))
        return out

    def subclasses(self, family: str) -> list[tuple[ParsedModule, str]]:
        """The classes of the run that derive from the run's class ``family``, directly or through
        each other (3 levels), as ``(module, class name)``: looked for in the modules that spell
        its name in the package two levels above its module (``app.adapters.base`` → ``app``;
        the top-level package for a shallower one). Once per class."""
        hit = self._subclasses.get(family)
        if hit is not None:
            return hit
        out: list[tuple[ParsedModule, str]] = []
        self._subclasses[family] = out
        base = self.project.resolve_class(family)
        if base is None:
            return out
        qualified = {f"{base[0].module_name}.{base[1]}"}
        parts = base[0].module_name.split(".")
        package = ".".join(parts[:max(1, len(parts) - 2)]) + "."
        names = {base[1]}
        candidates = sorted(m for m in set(self.project.module_files) | set(self.project.parsed)
                            if f"{m}.".startswith(package))
        for _ in range(3):
            found = False
            for module_name in candidates:
                if not any(self.project.mentions(module_name, n) for n in names):
                    continue
                mod = self.project.get(module_name)
                if mod is None:
                    continue
                for cname, cdef in mod.classes.items():
                    qn = f"{mod.module_name}.{cname}"
                    if qn in qualified:
                        continue
                    for b in cdef.bases:
                        target = self.base_class(mod, b)
                        if target is not None and f"{target[0].module_name}.{target[1]}" in qualified:
                            qualified.add(qn)
                            names.add(cname)
                            out.append((mod, cname))
                            found = True
                            break
            if not found:
                break
        return out

    def family_method(self, family: str, method: str) -> tuple[ParsedModule, cst.FunctionDef] | None:
        """``(module, def)`` of ``method`` on an object of the run's class ``family`` (a qualified
        name), inherited methods included; None when the class or the method is not in the run."""
        found = self.project.find_function(f"{family}.{method}")
        if found is not None and not is_stub(found[1]):
            return found
        hit = self.project.resolve_class(family)
        if hit is None:
            return None
        return self.method_of(hit[0], hit[1], method)

    def helper_summary(self, module: ParsedModule, fn: cst.FunctionDef, depth: int,
                       families: tuple[tuple[str, str], ...] = (),
                       switches: tuple[tuple[str, Literal], ...] = (), wrapped_call: str | None = None,
                       self_data: bool = False) -> Summary | None:
        """The ``Summary`` of the run's function ``fn`` (defined in ``module``) called as a helper:
        interpreted once per run with its parameters as placeholders (``Param`` with no site) and
        cached. ``families`` ((parameter, qualified class) pairs, sorted) names the run's classes
        of the objects some callers pass (``execute_query(sql, db_client)`` with ``db_client =
        DatabaseClient(...)``): the methods called on such a parameter are that class's, so the
        helper is summarised once per such binding. None while it is being summarised (a
        recursive call). ``depth`` (the caller's) is not used: a cached summary must not depend on
        how deep its first caller was. ``switches`` (sorted (name, literal) pairs) are closure
        names with the values one caller fixes (a decorator factory's ``kind="sql"`` for its
        wrapper, ``decorator_wrappers``): an ``if`` or ``match`` they decide runs one branch.
        ``wrapped_call`` (a wrapper's): the name of the function it wraps, whose calls give
        ``Param(WRAPPED)``, the decorated helper's result as each caller fills it in.
        ``self_data`` (a method called on an object made from data): each ``self.<field>`` it
        reads is ``Param(SELF_DATA)``, what the object was made of as each caller fills it in."""
        key = (id(fn), families, switches, wrapped_call, self_data)
        if key in self._helpers:
            return self._helpers[key]
        self._helpers[key] = None  # recursion guard
        top = fn
        while (outer := self.enclosing_function(module, top)) is not None:
            top = outer  # (a wrapper nested in a method reads ``self`` of that method's class)
        owner = method_class(module, top)
        # depth 1 whoever asks first: a summary is cached per function, so it must not depend on
        # how deep its first caller was (each function is summarised once: the work is bounded)
        interp = FunctionInterpreter(self, module, fn, depth=1, helper=True, class_name=owner,
                                     param_families=dict(families))
        if switches:
            interp.switches_on = {**interp.switches_on, **dict(switches)}
        interp.wrapped_call = wrapped_call
        interp.self_data = self_data
        try:
            summary = interp.run(body_of(fn))
        except BaseException:
            # (the tool being analysed reports the error; the guard must not stay behind as a
            # summary of nothing for the other tools calling this helper)
            del self._helpers[key]
            raise
        self._helpers[key] = summary
        return summary

    def decorator_wrappers(self, module: ParsedModule, fn: cst.FunctionDef
                           ) -> list[tuple[ParsedModule, cst.FunctionDef, tuple[tuple[str, Literal], ...], str]]:
        """The wrappers that decorators of the run put around ``fn`` (defined in ``module``), as
        ``(module, wrapper def)``: ``@parsed(kind="sql")`` where ``def parsed(kind)`` returns
        ``deco``, which returns ``wrapper``, or ``@logged`` where ``def logged(func)`` returns
        ``wrapper``; a wrapper counts when it calls the function it wraps. What a call of ``fn``
        gives is then what the wrapper returns (``raw = await func(...); return
        run_sql(raw.json()["sql"])``). Library decorators, markers that return the function
        itself and registrations give none. Each comes with the literal arguments the decoration
        gives the factory's parameters (``api="search"``: ``(("api", "search"),)``), which decide
        the wrapper's ``if``/``match`` on them, and the name the wrapper calls the wrapped function
        by. Computed once per function."""
        found = self._wrappers.get(id(fn))
        if found is not None:
            return found
        out: list[tuple[ParsedModule, cst.FunctionDef, tuple[tuple[str, Literal], ...], str]] = []
        for dec in fn.decorators:
            expr = dec.decorator
            target = expr.func if isinstance(expr, cst.Call) else expr
            hit: tuple[ParsedModule, cst.FunctionDef] | None = None
            if isinstance(target, (cst.Name, cst.Attribute)):
                hit = self.project.function_called(module, target)
                if hit is None and isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                    hit = self._instance_method(module, target.value.value, target.attr.value)
            if hit is None:
                continue
            decorator: cst.FunctionDef | None = hit[1]
            if isinstance(expr, cst.Call):  # a factory: the decorator is what it returns
                decorator = _returned_def(hit[1])
            wrapper = _returned_def(decorator) if decorator is not None else None
            if decorator is None or wrapper is None:
                continue
            wrapped = [p.name.value for p in parameters(decorator)][:1]
            if wrapped and any(isinstance(n, cst.Call) and dotted_name(n.func) == wrapped[0] for n in walk_own(wrapper.body)):
                switches: dict[str, Literal] = {}
                if isinstance(expr, cst.Call):
                    names = [p.name.value for p in parameters(hit[1]) if p.name.value not in ("self", "cls")]
                    for i, arg in enumerate(a for a in expr.args if a.keyword is None and not a.star):
                        if i < len(names) and (value := literal_value(module, arg.value)) is not None:
                            switches[names[i]] = value
                    for arg in expr.args:
                        if arg.keyword is not None and (value := literal_value(module, arg.value)) is not None:
                            switches[arg.keyword.value] = value
                out.append((hit[0], wrapper, tuple(sorted(switches.items())), wrapped[0]))
        self._wrappers[id(fn)] = out
        return out

    def _instance_method(self, module: ParsedModule, name: str, method: str) -> tuple[ParsedModule, cst.FunctionDef] | None:
        """``(module, def)`` of ``method`` of the module-level instance ``name`` of ``module``
        (``sfse = ResponseParsers()`` then ``@sfse.parsed(api="search")``): the run's class the
        name is made of, found here or imported; None otherwise."""
        made = module.constants.get(name)
        if not isinstance(made, cst.Call) or not isinstance(made.func, (cst.Name, cst.Attribute)):
            return None
        class_name = dotted_name(made.func)
        family = f"{module.module_name}.{class_name}" if class_name in module.classes else module.imports.qualify(made.func)
        return self.family_method(family, method) if family else None

    def method_receivers(self, fn: cst.FunctionDef) -> dict[str, frozenset[str]]:
        """The parameters of ``fn`` a method is called on in its own body, with the methods
        (``db.query(sql)``, ``await client.fetch()``: ``{"db": {"query"}, "client": {"fetch"}}``):
        those whose class a caller's argument can tell."""
        return self._own_uses_of(fn)[0]

    def _own_uses_of(self, fn: cst.FunctionDef) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
        """``(method_receivers, declared_globals)`` of ``fn``: one walk of its own body, once."""
        key = id(fn)
        found = self._own_uses.get(key)
        if found is None:
            names = {p.name.value for p in parameters(fn)} - {"self", "cls"}
            calls: dict[str, set[str]] = {}
            declared: set[str] = set()
            for n in walk_own(fn.body):
                if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and \
                        isinstance(n.func.value, cst.Name) and n.func.value.value in names:
                    calls.setdefault(n.func.value.value, set()).add(n.func.attr.value)
                elif isinstance(n, cst.Global):
                    declared.update(g.name.value for g in n.names)
            found = self._own_uses[key] = ({k: frozenset(v) for k, v in calls.items()}, frozenset(declared))
        return found


def _returned_def(fn: cst.FunctionDef) -> cst.FunctionDef | None:
    """The function defined in ``fn``'s body that ``fn`` returns by name (``def deco(func): def
    wrapper(...): ...; return wrapper``), or None."""
    nested = {d.name.value: d for d in defs_in(fn)}
    if not nested:
        return None
    for node in walk_own(fn.body):
        if isinstance(node, cst.Return) and isinstance(node.value, cst.Name) and node.value.value in nested:
            return nested[node.value.value]
    return None


#: Comparison operators that order sizes (a size check compares with one of these).
_ORDERINGS = (cst.GreaterThan, cst.GreaterThanEqual, cst.LessThan, cst.LessThanEqual)


def _rest_record(t: Taint) -> bool:
    """Whether ``t`` is a REST resource read whole as one record of the remote API (``GET
    /hosts/{id}``: an ``object`` marker, ``whole``, of TL105, capped only by the API's field
    limits, ``external.api_record_bound``), not the payload of a fixed one."""
    return isinstance(t, Marker) and t.kind == "object" and t.whole and t.rule == "TL105" and \
        t.family is None and t.sql_bound is not None and t.sql_bound.upstream


def _record_as_body(t: Taint) -> Taint:
    """A REST resource read whole (``_rest_record``) as the JSON body it is, so that a listing it
    holds (``host["software"]``, a list default) is every item of it the service sends, with the
    record's own bound (one record of the remote API: ``external.api_record_bound``, labelling
    rule 5's one Jira issue with its comments); other taints unchanged."""
    if _rest_record(t):
        assert isinstance(t, Marker)
        return Src("TL105", t.site, "HTTP response .json()", t.sql_bound)
    return t


def _list_default(node: cst.Call) -> bool:
    """Whether ``x.get(key, default)`` gives a list when the key is missing (``[]``, ``list()``):
    the field is a listing."""
    if len(node.args) < 2:
        return False
    default = node.args[1].value
    return isinstance(default, (cst.List, cst.ListComp)) or (
        isinstance(default, cst.Call) and dotted_name(default.func) == "list")


def _dict_default(node: cst.Call) -> bool:
    """Whether ``x.get(key, default)`` gives a mapping when the key is missing (``{}``,
    ``dict()``): the field is a nested record."""
    if len(node.args) < 2:
        return False
    default = node.args[1].value
    return (isinstance(default, cst.Dict) and not default.elements) or (
        isinstance(default, cst.Call) and dotted_name(default.func) == "dict" and not default.args)


def _record_like(t: Taint) -> bool:
    """A record read whole from unreadable code (``Marker.whole``), the record a write sent back
    (``Marker.fixed``) or a helper's own parameter (``Param`` with no call site): a value whose
    ``.get("field")`` is one field of it."""
    return (isinstance(t, Marker) and t.kind == "object" and (t.whole or t.fixed)) or \
        (isinstance(t, Param) and t.site is None and not t.part)


def _open_ended_row(src: Src) -> bool:
    """Whether a query source ran a statement whose single row is an open-ended object
    (``SHOW CREATE TABLE``, ``EXPLAIN``, ``DESCRIBE``: its ``what`` quotes the statement), or
    gathers every matched row into one (``collect()``, ``array_agg``: ``cat.GATHERED_ROWS``)."""
    if src.what.endswith(cat.GATHERED_ROWS):
        return True
    quoted = src.what.partition("`")[2]
    return bool(quoted) and cat.SQL_OPEN_ENDED_OBJECT.match(quoted) is not None


#: What lets a regular expression match across lines: an inline DOTALL flag, a newline, and the
#: classes that match one (``\s``, ``\W``, ``\D``, a negated set ``[^...]``).
_SPANS_LINES = re.compile(r"\(\?[a-zA-Z]*s|\\[nsWD]|\[\^")
# the ``re`` flags under which ``.`` still stops at a newline (all but ``S`` / ``DOTALL``)
_ONE_LINE_FLAGS = frozenset({"re", "I", "IGNORECASE", "M", "MULTILINE", "X", "VERBOSE", "A", "ASCII",
                             "U", "UNICODE", "L", "LOCALE", "NOFLAG", "RegexFlag"})


class FunctionInterpreter(ExternalCalls, LibraryCalls, FollowedCalls, Constants):
    """Interprets one function body (or a dispatch branch) into a ``Summary``.

    ``args_style`` ``"mapping"`` makes ``arguments["k"]`` / ``arguments.get("k", d)`` read as
    model-supplied parameters (low-level servers).
    """

    def __init__(
        self,
        analyzer: Analyzer,
        module: ParsedModule,
        fn: cst.FunctionDef,
        *,
        depth: int = 0,
        helper: bool = False,
        args_style: str = "signature",
        class_name: str | None = None,
        param_families: dict[str, str] | None = None,
    ) -> None:
        self.a = analyzer
        self.mod = module
        self.fn = fn
        #: The name of the function interpreted (``""`` for a lambda).
        self.function_name = fn.name.value if isinstance(fn, cst.FunctionDef) else ""
        #: A generator function (a ``yield`` in its own body): its caller gets what it yields.
        self.generator = isinstance(fn, cst.FunctionDef) and is_generator(fn)
        #: The name that says what the code interpreted does, for telling a write
        #: (``external.http_write``): the function's, or the tool's when a dispatcher serves it
        #: (``case "remember_this":`` in ``call_tool``; set by ``facts.analyse_tool``).
        self.action_name = self.function_name
        self.depth = depth
        self.helper = helper
        self.args_style = args_style
        self.class_name = class_name
        self.summary = Summary()
        self.env: dict[str, Flow] = {}
        self.strings: dict[str, str] = {}
        #: Locals bound to an f-string or a concatenation of strings (``url = f"{base}?limit={n}"``):
        #: the expression, whose holes a request's query string is read from (``url_pairs``).
        self.string_nodes: dict[str, cst.BaseExpression] = {}
        #: Locals holding a list of strings (``query_lines = ["TABLE ...", f"LIMIT {n}"]``):
        #: their texts, unknown pieces as ``{expr}`` (``Constants.string_items_of``).
        self.string_items: dict[str, list[str]] = {}
        self.sql_of: dict[str, SqlBound] = {}
        #: a cursor name -> the columns of the ``SELECT`` it executed (``cur.execute(sql)``)
        self.columns_of: dict[str, tuple[str, ...]] = {}
        self.param_defaults: dict[str, Param] = {}
        self.disabled_params: set[str] = set()
        #: Switches of the server's configuration a nested tool reads, off by default
        #: (``Analyzer.closure_switches_off``): the body of an ``if`` testing one does not run.
        self.switches_off: frozenset[str] = frozenset()
        #: Switches of the server's configuration a nested tool reads that the project's entry
        #: point turns on, with their values (``Analyzer.closure_switches_on``): an ``if`` whose
        #: test they decide runs one branch only (``_switch_truth``).
        self.switches_on: dict[str, Literal] = {}
        #: The HTTP responses (dotted names) an enclosing ``if`` found failed (``_failed_response``:
        #: ``if resp.status_code >= 400:``): their body there is the service's error message.
        self.failed_responses: set[str] = set()
        #: In a decorator's wrapper summarised as a helper: the name of the function it wraps, whose
        #: call stands for what the decorated helper returns (``Param(WRAPPED)``).
        self.wrapped_call: str | None = None
        #: In a method summarised for a call on an object made from data: its fields are that
        #: data (``Param(SELF_DATA)``, ``Analyzer.helper_summary``).
        self.self_data = False
        self.loop_accumulators: list[set[str]] = []
        self.loop_breaks: list[list[tuple[cst.BaseExpression, str]]] = []
        #: Per enclosing ``for``: its target names, the sources it iterates (a ``return`` of the
        #: element inside the loop returns one item, not the collection) and the sources one
        #: element holds (what the body puts into a collection makes it as long as the iterable,
        #: ``out.append(r["id"])``: ``_per_element``).
        self.loop_elements: list[tuple[set[str], frozenset, frozenset]] = []
        #: Per enclosing ``for``: the names of the helper's parameters its iterable holds.
        self.loop_params: list[frozenset[str]] = []
        #: Per enclosing ``for`` or comprehension clause, innermost last: its target names, how
        #: many rounds it runs at most (``_rounds_bound``: ``for idx in order[:k]``, ``range(k)``;
        #: None when nothing caps them) and the name of what it iterates. ``x[idx]`` in its body
        #: takes one element of ``x`` a round (``_index_rounds``).
        self.index_loops: list[tuple[set[str], Bound | None, str | None]] = []
        #: Locals bound to a sequence cut at a count (``order = np.argsort(sims)[::-1][:k]``): that
        #: cap (``_count_of``), however opaque the sequence's items.
        self.sliced: dict[str, Bound] = {}
        #: Generator expressions consumed for one element (``next(g)``, ``max(g)``, ``min(g)``).
        self._one_element_generators: set[int] = set()
        #: The parameters annotated as callables (``Callable[...]``), read on first use
        #: (``ExternalCalls._callables_handed``).
        self._callable_params: frozenset[str] | None = None
        #: ``_buffer_names``, read on first use.
        self._buffers: frozenset[str] | None = None
        #: Names bound to elements by a ``for`` or a comprehension (``r`` in ``for r in rows``):
        #: ``r[0]`` is a field of an element, still part of the collection being built.
        self.element_names: set[str] = set()
        #: Comprehensions being evaluated (their elements are made once per element iterated).
        self.comprehension_depth = 0
        #: Nested defs being interpreted (recursion guard) and calls built for them (kept alive
        #: so their interned sites stay valid).
        self._active: frozenset[int] = frozenset()
        #: Locals last bound from a call's result, and the keys/values of local dicts (for
        #: ``api.list_items(**params)`` with ``params = {"maxResults": n}``).
        self.assigned_from_call: set[str] = set()
        #: Locals last bound from an attribute (``kvstore = service.kvstore``): iterated, what
        #: an object of unreadable code holds (``iteration``).
        self.assigned_from_attribute: set[str] = set()
        #: Locals holding a method of an object, by the method's name (``fetch =
        #: client.list_papers``, ``method = getattr(client, "list_papers")``): calling one calls
        #: that method (``ExternalCalls.external_call``).
        self.bound_methods: dict[str, str] = {}
        #: While an assignment's value is evaluated: that value (an ``await`` unwrapped) and the
        #: code of its targets (``text = clip(text)`` rebinds what it passes).
        self.rebinding: tuple[cst.BaseExpression, frozenset[str]] | None = None
        #: Locals holding a position found in data (``end = text.find("\n\n")``): a slice up to
        #: one is a span of the data, not a cap on it.
        self.positions: set[str] = set()
        #: Locals holding pieces of one value (``parts = arn.split(":")``): an element is a piece
        #: of that value, not a record of a collection.
        #: Each maps to whether the value was cut into lines (``lines = content.splitlines()``).
        self.pieces: dict[str, bool] = {}
        #: Locals bound to a subscript or a call (``handler = HANDLERS.get(name)``): a later call
        #: of the local may reach the functions of a dispatch table (``_dispatch_table``).
        self.dispatch_of: dict[str, cst.BaseExpression] = {}
        #: Locals holding records this function builds itself (``out = []`` then only
        #: ``out.append({"id": ..., "name": ...})``, or a list of dict literals): an element is one
        #: record of fixed fields (``best = out[0]``), not a record of unknown fields.
        self.built_records: set[str] = set()
        #: How many ``while`` loops enclose the statement interpreted (``LibraryCalls``: a cursor
        #: read one row per round reads every row).
        self.while_depth = 0
        #: The ``for``/``while`` statements enclosing the one interpreted, innermost last.
        self.loop_nodes: list[cst.CSTNode] = []
        #: Sites of those reads (their rows are the query's, not pages the loop collects: TL106).
        self.row_reads: set[Site] = set()
        #: Locals that are the whole length of data on one branch of a conditional and a cap on
        #: the other (``end = n if limit is None else min(n, limit)``): ``Bound.unset_all``.
        self.unset_all: set[str] = set()
        self.dict_entries: dict[str, list[tuple[str | None, cst.BaseExpression]]] = {}
        self._synthetic: list[cst.Call] = []
        #: id of a made-up call (``run_callable``) -> the call in the source that runs it
        self._synthetic_origin: dict[int, cst.Call] = {}
        #: Per-position flows of helper calls that return tuple literals (keyed by call node id).
        self._tuple_results: dict[int, list[Flow]] = {}
        #: The names of the function's own parameters.
        self.parameter_names = frozenset(p.name.value for p in parameters(fn))
        #: Parameters of a helper bound to an object of one of the run's classes by its caller
        #: (``Analyzer.helper_summary``): name -> qualified class.
        self.param_families = param_families or {}
        #: Per-key flows of helper calls that return dict literals (keyed by call node id), and
        #: the locals bound to such a call: name -> (the flow bound, the per-key flows).
        self._dict_results: dict[int, dict[str, Flow]] = {}
        self.dict_results_of: dict[str, tuple[Flow, dict[str, Flow]]] = {}
        #: parameters given a value of the server's when unset (``_filled_default``)
        self.filled_params: set[str] = set()
        #: Names an ``except ... as e`` binds: the exception caught (``EXCEPTION_FAMILY``).
        self.exception_names: set[str] = set()
        #: A writer object → the buffer it writes into (``writer = csv.writer(out)``: what
        #: ``writer.writerows(rows)`` writes, ``out.getvalue()`` reads).
        self.writes_into: dict[str, str] = {}
        self._init_params()

    # -- parameters --------------------------------------------------------------------------
    def _init_params(self) -> None:
        for p in parameters(self.fn):
            name = p.name.value
            if name in ("self", "cls"):
                continue
            default = p.default
            default_none = isinstance(default, cst.Name) and default.value in ("None",)
            clamp = None
            ann = p.annotation.annotation if p.annotation else None
            if isinstance(default, cst.Call):
                # ``limit: int = Field(10, le=MAX_LIMIT)``: a literal or a named maximum
                clamp = le_in_annotation(default, self)
                dflt = keyword_arg(default, "default")
                if dflt is not None:
                    default_none = isinstance(dflt, cst.Name) and dflt.value == "None"
            if ann is not None:
                clamp = clamp if clamp is not None else le_in_annotation(ann, self)
            if _falsy_default(default):
                self.disabled_params.add(name)
            injected = _injected_family(self.mod, p, ann)
            if injected is not None:
                # ``client: MattermostClient = Depends(get_client)``: an object the framework
                # hands the tool (FastAPI-style dependency injection, fastmcp 3), never a value
                # the model supplies; its calls are followed like any object's
                self.env[name] = frozenset({Marker("object", self.a.site(self.mod, p), family=injected)})
                continue
            if is_context_param(name, ann):
                # the SDK's request context: an object (its lifespan state holds clients), not a
                # value the model supplies
                self.env[name] = frozenset({Marker("object", self.a.site(self.mod, p), family=CONTEXT_FAMILY)})
                continue
            service = service_class(self.a.project, self.mod, ann) if not self.helper else None
            if service is not None:
                # ``client: AsyncClientProtocol`` of a tool a wrapper hands its client: an object,
                # its calls followed like any object's
                self.env[name] = frozenset({Marker("object", self.a.site(self.mod, p), family=service)})
                continue
            param = Param(
                name,
                self.a.site(self.mod, p),
                default_none=default_none,
                has_default=default is not None,
                clamp=clamp,
            )
            self.param_defaults[name] = param
            if self.helper:
                self.env[name] = frozenset({Param(name, None)})
                family = self.param_families.get(name)
                if family is None:
                    # ``def _execute(client: ProxmoxClient, ...)``: an object of that class of the run
                    family = object_class(self.a.project, self.mod, ann)
                if family is not None:
                    # an object of a class of the run (its caller's, whatever the annotation says)
                    self.env[name] |= {Marker("object", self.a.site(self.mod, p), family=family)}
            else:
                self.env[name] = frozenset({param})
        if self.helper:
            # ``def to_dict(self, **kwargs)``: ``kwargs.get("fields")`` is what each caller passes
            # beyond the named parameters (``_bind_args`` gathers it), not a record of a service
            for gathers in gathering_parameters(self.fn):
                if gathers is not None:
                    self.env[gathers] = frozenset({Param(gathers, None)})

    # -- driver -----------------------------------------------------------------------------
    def run(self, stmts: Iterable[cst.CSTNode]) -> Summary:
        """Interpret ``stmts``; ``falls_through`` tells whether their end is reachable."""
        self.falls_through = True
        try:
            self.falls_through = self.block(stmts)
        except RecursionError:
            pass
        if self.generator and self.falls_through:
            # (the end of a generator's body: its caller gets every value it yielded)
            self.summary.returns.append((self.a.site(self.mod, self.fn), self.env.get(YIELDED, EMPTY)))
            self.summary.other_returns = True
        return self.summary

    def block(self, stmts: Iterable[cst.CSTNode]) -> bool:
        """Interpret statements; returns False when the block always leaves (return/raise). In a
        loop, a name set from the loop's element in a block that then ``break``s holds that one
        element (``for p in doc.paragraphs: if x in p.text: para = p; break``), as the first
        match a loop returns does (``small``)."""
        stmts = list(stmts)
        picked = self._picked_before_break(stmts)
        for stmt in stmts:
            if not self.stmt(stmt):
                return False
        if picked:
            _, collection, held = self.loop_elements[-1]
            for name in picked:
                if name in self.env:
                    self.env[name] = self.env[name] - collection - held
        return True

    def _picked_before_break(self, stmts: list[cst.CSTNode]) -> set[str]:
        """The names a block inside a loop sets from the loop's element (``para = p``, ``hit =
        row["id"]``) before it ``break``s, none of them an accumulator of the loop."""
        if not self.loop_elements or not stmts or not self.loop_accumulators:
            return set()
        last = stmts[-1]
        if not (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Break)):
            return set()
        targets = self.loop_elements[-1][0]
        out = {name for name, value in _name_assignments(stmts)
               if {n.value for n in _subexpressions(value) if isinstance(n, cst.Name)} & targets}
        return out - self.loop_accumulators[-1]

    def stmt(self, node: cst.CSTNode) -> bool:
        """Interpret one statement (a line of simple statements, ``if``, ``for``, ``while``,
        ``try``, ``with``, ``match``); False when it always leaves the function (``return``,
        ``raise``). Any other node is skipped: nested ``def``s and classes (read where they are
        called). A one-line suite (``def f(): return x``, ``if c: return x``, a
        ``SimpleStatementSuite``) holds the same small statements as a line."""
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in node.body:
                if not self.small(small):
                    return False
            return True
        if isinstance(node, cst.If):
            return self.if_(node)
        if isinstance(node, (cst.For,)):
            self.for_(node)
            return True
        if isinstance(node, cst.While):
            self.while_(node)
            return True
        if isinstance(node, (cst.Try, cst.TryStar)):
            return self.try_(node)
        if isinstance(node, cst.With):
            for item in node.items:
                flow = self.expr(item.item)
                if item.asname is not None:
                    self.assign(item.asname.name, flow, item.item)
            return self.block(statements_of(node.body))
        if isinstance(node, cst.Match):
            self.expr(node.subject)
            base = dict(self.env)
            envs = []
            cases: Sequence[cst.MatchCase] = node.cases
            if isinstance(node.subject, cst.Name) and node.subject.value in self.switches_on:
                # ``match api: case "search": ...`` with ``api`` fixed: that case alone
                chosen = _matching_case(node.cases, self.switches_on[node.subject.value])
                cases = [chosen] if chosen is not None else cases
            for case in cases:
                self.env = dict(base)
                if self.block(statements_of(case.body)):
                    envs.append(self.env)
            self.env = _join(envs or [base], base)
            return True
        return True  # nested defs and classes: not part of this function's flow

    def small(self, node: cst.CSTNode) -> bool:
        """Interpret one small statement of a line; False for ``return`` and ``raise`` (the rest of
        the block is unreachable). A ``return`` records its flow in the summary (per position for a
        tuple literal, per key for a dict literal with string keys); inside a ``for``, a return of
        the loop's element without what the loop accumulated is one item, not the collection.
        ``x += text`` inside a loop makes ``x`` as long as the iterable."""
        if isinstance(node, cst.Return) and self.generator:
            # (a generator's ``return`` ends the iteration: its caller gets what was yielded; in
            # a ``for`` loop it is the loop's ``break``, whose cap the loop applies to what the
            # body's end gives back)
            if not any(isinstance(loop, cst.For) for loop in self.loop_nodes):
                self.summary.returns.append((self.a.site(self.mod, node), self.env.get(YIELDED, EMPTY)))
                self.summary.other_returns = True
            return False
        if isinstance(node, cst.Return):
            value = node.value
            drop: Flow = EMPTY
            given: frozenset[str] = frozenset()
            if self.loop_elements and value is not None:
                # ``for w in widgets: if w.name == n: return w``: the first match is one item (also
                # in a tuple or dict returned: ``return candidate, root``)
                targets, collection, held = self.loop_elements[-1]
                used = {n.value for n in walk(value) if isinstance(n, cst.Name)}  # (also in dict entries)
                if used & (targets | self._set_per_round()) and not used & self.loop_accumulators[-1]:
                    # (the element's own sources too: an item of an API listing is one item; of
                    # what a caller passes, one element of it: ``Param.element``)
                    drop, given = collection | held, self.loop_params[-1]

            def first_match(flow: Flow) -> Flow:
                flow = flow - drop
                if not given:
                    return flow
                return frozenset(replace(t, element=True, part=False, each=False) if isinstance(t, Param) and t.site is None
                                 and t.name in given else t for t in flow)
            if isinstance(value, cst.Tuple) and value.elements and \
                    not any(isinstance(e, cst.StarredElement) for e in value.elements):
                parts = tuple(first_match(self.expr(e.value)) for e in value.elements)
                self.summary.tuple_returns.append(parts)
                flow = union(*parts)
                self.summary.other_returns = True
            elif isinstance(value, cst.Dict) and (entries := _literal_entries(value)) is not None:
                by_key = {key: first_match(self.expr(item)) for key, item in entries}
                self.summary.dict_returns.append(by_key)
                flow = union(*by_key.values())
                self.summary.mixed_returns = True
            elif value is None or (isinstance(value, cst.Name) and value.value == "None"):
                flow = EMPTY  # (no value: no fields or keys either, whatever the other returns hold)
                self.summary.mixed_returns = True
            elif isinstance(_awaited(value), (cst.Call, cst.Name)) and not self.loop_elements:
                # ``return Source(content=text, main_file=name)``, ``return source`` bound to one,
                # ``return helper()`` of a helper returning a dict literal: the value, and each
                # field's or key's own flow for the caller reading one (``Summary.dict_parts``)
                flow = first_match(self.expr(value))
                fields = self.helper_dict_entries(value)
                if fields is not None:
                    self.summary.dict_returns.append({k: first_match(f) for k, f in fields.items()})
                else:
                    self.summary.other_returns = True
                self.summary.mixed_returns = True
            else:
                flow = first_match(self.expr(value) if value is not None else EMPTY)
                self.summary.mixed_returns = True
                self.summary.other_returns = True
            self.summary.returns.append((self.a.site(self.mod, node), flow))
            return False
        if isinstance(node, cst.Raise):
            if node.exc is not None:
                self.expr(node.exc)
            return False
        if isinstance(node, cst.Assign):
            self.rebinding = (_awaited(node.value), frozenset(node_code(t.target) for t in node.targets))
            flow = self.expr(node.value)
            self.rebinding = None
            for t in node.targets:
                self.assign(t.target, flow, node.value)
        elif isinstance(node, cst.AnnAssign):
            if node.value is not None:
                self.rebinding = (_awaited(node.value), frozenset({node_code(node.target)}))
                flow = self.expr(node.value)
                self.rebinding = None
                self.assign(node.target, flow, node.value)
        elif isinstance(node, cst.AugAssign):
            flow = self.expr(node.value)
            name = dotted_name(node.target)
            if name and name in self.strings and isinstance(node.operator, cst.AddAssign):
                # ``sql += " ORDER BY modified DESC LIMIT ?"``: the text grows (a part that
                # cannot be read is kept as a hole); under an ``if``, the text that may be sent
                added = self.string_value(node.value)
                self.strings[name] += added if added is not None else "{" + (dotted_name(node.value) or "expr") + "}"
            if name:
                if _grows_text(node.value):
                    flow = self._per_element(flow)  # ``text += f"{r['name']}\n"`` per element
                self.env[name] = union(self.env.get(name, EMPTY), flow)
                self._note_accumulation(name)
        elif isinstance(node, cst.Expr):
            self.expr(node.value)
        return True

    def assign(self, target: cst.BaseExpression, flow: Flow, value: cst.BaseExpression | None) -> None:
        """Bind ``flow`` (the value of ``value``, the assigned expression when known; None for an
        element of an unpacking) to ``target``. A tuple or list target is unpacked (per position
        when ``value`` calls a helper that returns tuple literals); a subscript target puts ``flow``
        into the collection it indexes (``accumulate``); a name is bound, with what later reads
        need: a helper's per-key dict result, data an ``__init__`` stores on ``self``, whether the
        value is a call's result (possibly a client), a dict literal's entries, a string value."""
        if isinstance(target, (cst.Tuple, cst.List)):
            call = _awaited(value)
            parts = self._tuple_results.get(id(call)) if isinstance(call, cst.Call) else None
            if parts is not None and len(parts) == len(target.elements) and \
                    not any(isinstance(e, cst.StarredElement) for e in target.elements):
                for el, part in zip(target.elements, parts):
                    self.assign(el.value, part, None)
                return
            for el in target.elements:
                self.assign(el.value, flow, None)
            return
        if isinstance(target, cst.Subscript):
            name = dotted_name(target.value)
            if name and value is not None and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
                self.dict_entries.setdefault(name, []).append((string_literal(target.slice[0].slice.value), value))
            self.accumulate(target.value, flow)
            return
        name = dotted_name(target)
        if name is None:
            return
        self.env[name] = flow
        call = _awaited(value)
        buffer = _csv_buffer(self.mod, call)
        if buffer is not None:  # ``writer = csv.writer(out)``: its rows go into ``out``
            self.writes_into[name] = buffer
        if isinstance(call, cst.Call) and id(call) in self._dict_results:
            self.dict_results_of[name] = (flow, self._dict_results[id(call)])
        else:
            self.dict_results_of.pop(name, None)
        if self.helper and name.startswith("self.") and name.count(".") == 1:
            if self.function_name == "__init__":
                self.summary.stored = union(self.summary.stored, frozenset(
                    t for t in flow if isinstance(t, Src) or (isinstance(t, Marker) and t.whole)))
            attr = name[len("self."):]
            kept = EMPTY if _object(value, flow) else flow  # (a client made of a token is no data)
            self.summary.stored_attrs[attr] = union(self.summary.stored_attrs.get(attr, EMPTY), kept)
            if _constructed(value):
                # ``self.store = Store(rows)``: what the object was made of, for its methods that
                # give it back (``Analyzer.instance_object_data``)
                key = f"<object>{attr}"
                self.summary.stored_attrs[key] = union(self.summary.stored_attrs.get(key, EMPTY), flow)
        if "." not in name and self.helper and name in self.a.module_globals(self.mod) and \
                name in self.a.declared_globals(self.fn) and self.mod.functions.get(self.function_name) is self.fn:
            # (a top-level function's ``global`` name: ``Analyzer.global_writers``; an object it
            # makes, ``global store; store = Store(rows)``, keeps what it was made of under
            # ``"<object>"`` + name for its methods that give it back: ``Analyzer.module_object_data``)
            written = name if not _object(value, flow) else f"<object>{name}" if _constructed(value) else None
            if written is not None:
                self.summary.globals_written[written] = union(self.summary.globals_written.get(written, EMPTY), flow)
        value = call  # (the value, its ``await`` taken off)
        callee = self.mod.imports.qualify(value.func) if isinstance(value, cst.Call) else None
        if callee is None and isinstance(value, cst.Call):  # ``Path(p).expanduser()``: by its root
            root = chain_root(value.func)
            callee = self.mod.imports.names.get(root) if root else None
            if root in self.env and root not in self.assigned_from_call and root not in self.param_defaults:
                callee = "builtins"  # a method of a local value (``path.parent.expanduser()``)
            elif callee is None and root is not None and root not in self.env and \
                    isinstance(made := module_constant(self.mod, root), cst.Call):
                # a method of what a module-level call made: ``_ID_RE.match(raw)`` with
                # ``_ID_RE = re.compile(...)`` is the standard library's
                callee = self.mod.imports.qualify(made.func)
        if isinstance(value, cst.Call) and not (callee and is_stdlib(callee)) and \
                not (callee is None and dotted_name(value.func) in BUILTINS):
            self.assigned_from_call.add(name)  # a value of the standard library is no client
        else:
            self.assigned_from_call.discard(name)
        if isinstance(value, cst.Attribute):
            self.assigned_from_attribute.add(name)
        else:
            self.assigned_from_attribute.discard(name)
        counted = self._count_of(value, value) if isinstance(value, (cst.Subscript, cst.Call)) else None
        if counted is not None:
            self.sliced[name] = counted
        else:
            self.sliced.pop(name, None)
        method = _method_name(value, self.switches_on)
        if method == "" and isinstance(value, cst.Call) and isinstance(given := value.args[1].value, cst.Name) and \
                any(isinstance(t, Param) and t.site is None for t in self.env.get(given.value, EMPTY)):
            method = None  # (named by each caller of this helper: ``FollowedCalls._called_with``)
        if method is not None:
            self.bound_methods[name] = method
        else:
            self.bound_methods.pop(name, None)
        if _position_value(value):
            self.positions.add(name)
        else:
            self.positions.discard(name)
        if _pieces_value(value):
            self.pieces[name] = _lines_value(value)
        else:
            self.pieces.pop(name, None)
        if _built_records_value(value) or (name in self.built_records and _remakes(value, name)):
            self.built_records.add(name)
        else:
            self.built_records.discard(name)
        if isinstance(value, cst.IfExp) and isinstance(value.orelse, cst.Name) \
                and value.orelse.value in _none_tested(value.test):
            # ``limit = DEFAULT if limit is None else limit`` (also into another name: ``cap``)
            self._filled_default(value.orelse.value, value.body)
        elif isinstance(value, cst.IfExp) and isinstance(value.body, cst.Name) \
                and isinstance(value.test, (cst.Name, cst.Comparison)) and value.body.value in _set_tested(value.test):
            # ``cap = limit if limit is not None else self._item_limit``
            self._filled_default(value.body.value, value.orelse)
        elif isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or) \
                and isinstance(value.left, cst.Name) and value.left.value == name:
            self._filled_default(name, value.right)  # ``limit = limit or DEFAULT``
        if isinstance(value, cst.IfExp) and _length_value_of(value.body, self.positions) != _length_value_of(value.orelse, self.positions):
            self.unset_all.add(name)  # ``end = n_chars if limit is None else min(n_chars, limit)``
        else:
            self.unset_all.discard(name)
        if isinstance(value, cst.Dict):
            self.dict_entries[name] = [
                (string_literal(e.key), e.value) for e in value.elements if isinstance(e, cst.DictElement)
            ]
        elif isinstance(value, cst.DictComp):
            self.dict_entries[name] = [(string_literal(value.key), value.value)]
        if isinstance(value, (cst.FormattedString, cst.ConcatenatedString, cst.Call)):
            self.string_nodes[name] = value
        else:
            self.string_nodes.pop(name, None)
        if isinstance(value, (cst.Subscript, cst.Call)):
            self.dispatch_of[name] = value  # (``handler = HANDLERS[name]``: ``_dispatch_table``)
        else:
            self.dispatch_of.pop(name, None)
        text = self.string_value(value) if value is not None else None
        if text is not None:
            self.strings[name] = text
        elif name in self.strings:
            del self.strings[name]
        items = self.string_items_of(value) if value is not None else None
        if items is not None:
            self.string_items[name] = items
        else:
            self.string_items.pop(name, None)

    # -- control flow ------------------------------------------------------------------------
    def if_(self, node: cst.If) -> bool:
        """Interpret an ``if``/``elif``/``else``: the test (size checks; a ``break`` in the body is
        noted as a possible cap of the enclosing loop), each branch from the state before, then the
        join of the branches that fall through; a clamp the statement enforces
        (``if limit > 100: limit = 100``, ``if len(text) > MAX: text = text[:MAX]``) applies after
        it. False when no branch falls through."""
        self.condition(node.test, node.body)
        if self.loop_breaks and any(isinstance(x, cst.Break) or (self.generator and isinstance(x, cst.Return))
                                    for s in statements_of(node.body)
                                    if isinstance(s, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) for x in s.body):
            # ``if count >= 10: break`` may cap what the loop accumulates (``_apply_loop_breaks``;
            # in a generator ``return`` ends what it yields as ``break`` ends a loop)
            self.loop_breaks[-1].append((node.test, "break"))
        base = dict(self.env)
        envs = []
        checks_before = len(self.summary.checks)
        off = _switch_tested(node.test) in self.switches_off
        decided = _switch_truth(node.test, self.switches_on) if self.switches_on else None
        failed, in_body = _failed_response(node.test)
        scalar, scalar_in_body = self._scalar_tested(node.test)
        if scalar is not None and scalar_in_body:
            self.env[scalar] = EMPTY  # (``if isinstance(value, Enum): return value.value``)
        if decided is False:
            pass  # (``if response_limit is None: return everything`` with the switch on: dead code)
        elif self._branch(node.body, failed if in_body else None) and not off:
            envs.append(self.env)
        if off:
            # ``if token_limit: text = truncate(text, token_limit)`` with the server's switch off
            # by default: the body does not run on the default configuration, its cut and its
            # size checks bound nothing
            del self.summary.checks[checks_before:]
        self.env = dict(base)
        if scalar is not None and not scalar_in_body:
            self.env[scalar] = EMPTY  # (``if not isinstance(value, int): raise ...``, then ``value``)
        if decided is True:
            falls = False  # (the ``else`` of a test the switch decides for the body)
        elif node.orelse is not None:
            # (an ``elif`` chain after ``if resp.status_code == 200:`` runs where it failed)
            falls = self._branch(node.orelse, None if in_body else failed)
        else:
            # (``if max_results is not None: refs = refs[:max_results]`` with ``max_results=50``:
            # the body runs unless the model unsets the limit, a limit it can raise: TL107)
            falls = not (envs and self._set_unless_unset(node))
        if falls:
            envs.append(self.env)
        self._clamp_statement(node)
        self._fill_default_if(node)
        if not envs:
            self.env = base
            return False
        self.env = _join(envs, base)
        return True

    def _scalar_tested(self, test: cst.BaseExpression) -> tuple[str | None, bool]:
        """The local an ``if`` test finds to be a scalar (``isinstance(value, T)`` with every ``T``
        of ``catalogue.SCALAR_TYPES``: a number, flag, moment or enum member), with True when the
        ``if`` body is where it is one and False when its ``else`` is (``not isinstance(...)``);
        ``(None, True)`` for any other test. Builtin names count unless the module rebinds them."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            name, in_body = self._scalar_tested(test.expression)
            return (name, not in_body) if name is not None else (None, True)
        if not (isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance"
                and len(test.args) == 2 and isinstance(test.args[0].value, cst.Name)
                and "isinstance" not in self.mod.imports.names):
            return None, True
        kinds = test.args[1].value
        types = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]

        def scalar_type(t: cst.BaseExpression) -> bool:
            name = self.mod.imports.qualify(t)
            if name is None and isinstance(t, cst.Name) and t.value not in self.mod.classes:
                name = t.value
            return name in cat.SCALAR_TYPES
        if types and all(scalar_type(t) for t in types):
            return test.args[0].value.value, True
        return None, True

    def _branch(self, body: cst.BaseSuite | cst.Else | cst.If, failed: str | None) -> bool:
        """Interpret one branch of an ``if`` (``block``; an ``elif``: ``if_``) or an ``except``
        body; where ``failed`` names an HTTP response found failed there, its body read there is
        an error message (``failed_responses``)."""
        def run() -> bool:
            return self.if_(body) if isinstance(body, cst.If) else self.block(statements_of(body))
        if failed is None or failed in self.failed_responses:
            return run()
        self.failed_responses.add(failed)
        try:
            return run()
        finally:
            self.failed_responses.discard(failed)

    def _set_unless_unset(self, node: cst.If) -> bool:
        """Whether ``node`` (no ``else``) tests that a limit parameter of the tool is set
        (``if max_results is not None:``, ``if limit:``) whose default sets it (``max_results: int |
        None = 50``), and its body cuts with it and no clamp of its own (``refs =
        refs[:max_results]``). The body then runs on every call but one where the model unsets
        the limit to get everything: a default that is bounded and a caller who can raise it with
        no enforced maximum, which the body's own bound reports (TL107, MEDIUM) as labelling rule 2
        of the dev set reads the design. A limit with a clamp (``Field(le=100)``), a test of
        several names and a helper's parameter (its callers decide) are left to the join."""
        names = _set_tested(node.test)
        if self.helper or len(names) != 1:
            return False
        name = next(iter(names))
        param = self.param_defaults.get(name)
        if param is None or param.default_none or not param.has_default or param.clamp is not None or \
                name in self.filled_params:
            return False
        default = next((p.default for p in parameters(self.fn) if p.name.value == name), None)
        if isinstance(default, cst.Call):  # ``Field(50, description=...)``
            default = keyword_arg(default, "default") or (default.args[0].value if default.args and
                                                           default.args[0].keyword is None else None)
        if isinstance(node.test, cst.Name):
            number = self.const_int(default) if default is not None else None
            if number is None or number <= 0:
                return False  # (``if include_body:`` with ``False``: the body runs only when asked)
        elif default is None or _falsy_default(default):
            return False
        cuts = False
        for n in walk(node.body):
            if isinstance(n, cst.Call) and dotted_name(n.func) in ("min", "max"):
                return False  # (a clamp in the body: left to the join)
            if isinstance(n, cst.Subscript) and any(
                    isinstance(x, cst.Name) and x.value == name for e in n.slice for x in walk(e.slice)):
                cuts = True
        return cuts

    def _fill_default_if(self, node: cst.If) -> None:
        """``if limit is None: limit = DEFAULT_LIMIT`` (also ``if not limit:``, ``if limit is
        None or limit <= 0:``): the parameter's ``None`` default is replaced by a value of the
        server's before it is used, so it no longer returns everything (``_filled_default``)."""
        if node.orelse is not None:
            return
        tested = _none_tested(node.test)
        for name, value in _name_assignments(statements_of(node.body)):
            if name in tested:
                self._filled_default(name, value)

    def _filled_default(self, name: str, value: cst.BaseExpression) -> None:
        """Parameter ``name``, defaulting to None, is given ``value`` when unset: unless that
        value means "everything" too (None, a count of 0 or less, the length of the data:
        ``limit = len(rows)``), its default is that value, no longer everything."""
        known = self.param_defaults.get(name)
        if known is None or (isinstance(value, cst.Name) and value.value == "None"):
            return
        number = self.const_int(value)
        if (number is not None and number <= 0) or _length_value_of(value, self.positions) or any(
                isinstance(n, cst.Name) and n.value in ("inf", "maxsize") or
                isinstance(n, cst.Attribute) and n.attr.value in ("inf", "maxsize")
                for n in _subexpressions(value)):
            return
        self.filled_params.add(name)
        if known.default_none:
            self.param_defaults[name] = replace(known, default_none=False, has_default=True)

    def for_(self, node: cst.For) -> None:
        """Interpret a ``for`` loop: the target bound to one element of the iterable
        (``iteration``), the body run twice so what it accumulates in one round reaches the next,
        then the cap of a counted ``break`` (``if len(out) >= 10: break``, an ``enumerate`` index)
        on what it accumulated, then the ``else`` clause. A loop may run zero times: it always falls
        through."""
        it = self.expr(node.iter)
        elem = self.iteration(it, node)
        self.loop_nodes.append(node)
        self.loop_accumulators.append(set())
        self.loop_breaks.append([])
        targets = bound_names(node.target)
        self.element_names |= targets
        self.loop_elements.append((targets, frozenset(t for t in it if isinstance(t, Src)),
                                   frozenset(t for t in elem if isinstance(t, Src))))
        self.loop_params.append(frozenset(t.name for t in it if isinstance(t, Param) and t.site is None))
        self.index_loops.append((targets, self._rounds_bound(node.iter, it, node), _iterated_name(node.iter)))
        for _ in range(2):
            self._assign_element(node.target, node.iter, elem)
            self.block(statements_of(node.body))
        self.index_loops.pop()
        self.loop_elements.pop()
        self.loop_params.pop()
        self.loop_nodes.pop()
        accs = self.loop_accumulators.pop()
        breaks = self.loop_breaks.pop()
        counted = self._enumerates(node.iter)
        # (the first name of ``for i, row in enumerate(rows)`` counts rounds; of ``for year, rows
        # in by_year`` it is data, and ``if year >= 2020: break`` caps nothing)
        self._apply_loop_breaks(accs, breaks, node, enumerate_target=node.target if counted else None)
        if node.orelse is not None:
            self.block(statements_of(node.orelse))

    def _set_per_round(self) -> set[str]:
        """Names the innermost ``for`` loop's body sets afresh (``x = ...``, also in a nested
        loop) to a field picked from something (``final_text = item["text"]``,
        ``part.get("message")``) or a literal, reading no collection a loop accumulates: one
        round's values, so a ``return`` of one is one item, like a return of the element itself.
        (A call's result, a recursive search's above all, is not a pick.)"""
        loop = self.loop_nodes[-1] if self.loop_nodes else None
        if not isinstance(loop, cst.For):
            return set()
        accumulated = set().union(*self.loop_accumulators)
        out: set[str] = set()
        records: list[tuple[list[str], set[str]]] = []
        for n in walk_own(loop.body):
            if not isinstance(n, cst.Assign):
                continue
            names = {x.value for x in walk(n.value) if isinstance(x, cst.Name)}
            targets = [t.target.value for t in n.targets if isinstance(t.target, cst.Name)]
            if accumulated & names:
                continue
            if _picked(n.value):
                out.update(targets)
            elif _record_of(n.value):
                records.append((targets, names))
        # a record made of those (``AgentResponse(results=final_text)``) is one round's too
        grown = True
        while grown:
            grown = False
            for targets, names in records:
                if names & out and not set(targets) <= out:
                    out.update(targets)
                    grown = True
        return out - accumulated

    def _assign_element(self, target: cst.BaseAssignTargetExpression, iterable: cst.BaseExpression, elem: Flow) -> None:
        """Bind a loop's target to one element: of ``enumerate(x)`` unpacked (``for i, row in
        enumerate(rows)``), the first name is a position, a number of no data; the rest is the
        element of ``x``."""
        if self._enumerates(iterable) and isinstance(target, (cst.Tuple, cst.List)) and \
                len(target.elements) == 2 and isinstance(target.elements[0].value, cst.Name):
            self.assign(target.elements[0].value, EMPTY, None)
            self.assign(cast("cst.BaseAssignTargetExpression", target.elements[1].value), elem, None)
            return
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and \
                iterable.func.attr.value == "items" and isinstance(target, (cst.Tuple, cst.List)) and \
                len(target.elements) == 2 and markers(self.expr(iterable.func.value), "registry"):
            # ``for deck_id, deck in decks.items()`` of a session registry: a key, then an entry
            self.assign(cast("cst.BaseAssignTargetExpression", target.elements[0].value), EMPTY, None)
            self.assign(cast("cst.BaseAssignTargetExpression", target.elements[1].value), elem, None)
            return
        self.assign(target, elem, None)

    def _enumerates(self, iterable: cst.BaseExpression) -> bool:
        """Whether a loop walks ``enumerate(...)``, the builtin (not a name of the module)."""
        return isinstance(iterable, cst.Call) and dotted_name(iterable.func) == "enumerate" and \
            self.mod.imports.qualify(iterable.func) in (None, "enumerate", "builtins.enumerate")

    def while_(self, node: cst.While) -> None:
        """Interpret a ``while`` loop, its body run twice. When the body fetches something new (a
        source or handle, or a call passing a page/token/cursor keyword: ``_pages_through``) and
        accumulates, each accumulator holding more than numbers gets a TL106 source ("a while loop
        that collects every page"), capped by the loop's counter limit when there is one
        (``_while_rounds``); then the caps of counted ``break``s apply."""
        self.while_depth += 1  # (``while row := cur.fetchone()``: a row each round, all of them)
        self.condition(node.test)
        self.loop_nodes.append(node)
        self.loop_accumulators.append(set())
        self.loop_breaks.append([])
        before_sources = {id(t) for f in self.env.values() for t in f}
        inner: list[Flow] = []
        for _ in range(2):
            snapshot = dict(self.env)
            self.block(statements_of(node.body))
            inner.extend(v for k, v in self.env.items() if snapshot.get(k) is not v)
        self.while_depth -= 1
        self.loop_nodes.pop()
        accs = self.loop_accumulators.pop()
        breaks = self.loop_breaks.pop()
        fetched = any(
            t for f in inner for t in f if isinstance(t, (Src, Marker)) and id(t) not in before_sources
            and not (isinstance(t, Src) and t.site in self.row_reads)
        ) or _pages_through(node)
        if fetched and accs:
            src = Src("TL106", self.a.site(self.mod, node), "a while loop that collects every page")
            rounds = self._while_rounds(node)
            if rounds is not None:
                src = src.with_bound(rounds)  # ``while pages < max_pages: ...; pages += 1``
            for name in accs:
                held = self.env.get(name, EMPTY)
                if all(isinstance(t, (Measure, Param)) for t in held) and \
                        not (not held and _grown_as_collection(node.body, name)):
                    # ``count += len(page)``, ``total += page.get("KeyCount", 0)``: a number,
                    # however many pages (but ``out.append({"id": w["id"]})`` per item of each
                    # page, small entries of a capped page, is as long as every page together)
                    continue
                guard = self._length_guard(node.test, name)
                if rounds is None and guard is None:
                    # every page is read: the size each request asked for (``{"limit": 50}``)
                    # caps one page, not what the loop collects (no cut to report)
                    held = frozenset(replace(t, bound=None) if isinstance(t, Src) and t.bound is not None
                                     and id(t) not in before_sources else t for t in held)
                # ``while url and len(items) < max_results:``: the pages stop once it holds that many
                self.env[name] = union(held, frozenset({src.with_bound(guard) if guard is not None else src}))
        self._apply_loop_breaks(accs, breaks, node, enumerate_target=None)

    def try_(self, node: cst.Try | cst.TryStar) -> bool:
        """Interpret a ``try``: the body (then its ``else``), each handler from the join of the
        states before and after the body, then ``finally``; the state after is the join of the paths
        that fall through. False when none does."""
        base = dict(self.env)
        envs = []
        if self.block(statements_of(node.body)):
            if node.orelse is not None:
                if self.block(statements_of(node.orelse)):
                    envs.append(self.env)
            else:
                envs.append(self.env)
        after_body = self.env
        for h in node.handlers:
            self.env = _join([base, after_body], base)
            failed: str | None = None
            if h.name is not None:
                self.assign(h.name.name, EMPTY, None)
                if isinstance(h.name.name, cst.Name):
                    self.exception_names.add(h.name.name.value)
                    # ``except httpx.HTTPStatusError as e: return e.response.text``: the response
                    # an HTTP error carries failed, its body is the service's error message
                    failed = f"{h.name.name.value}.response"
            if self._branch(h.body, failed):
                envs.append(self.env)
        self.env = _join(envs, base) if envs else base
        if node.finalbody is not None:
            self.block(statements_of(node.finalbody))
        return bool(envs)

    def condition(self, test: cst.BaseExpression, guarded: cst.CSTNode | None = None) -> None:
        """Evaluate a test for its size checks (``len(x) > LIMIT``) and its side effects.
        ``guarded`` is the code the test guards (an ``if``'s body, a conditional expression's
        value): ``len(parts) > 3`` guarding ``parts[3]`` asks whether an element is there, it
        caps nothing."""
        disabled = self._disabled_guard(test) or (_notes_only(guarded) and _exceeds_only(test))
        indexed = _indexed_elements(guarded) if guarded is not None and any(
            _len_arg(n) for c in _comparisons(test) for n in (c.left, *(t.comparator for t in c.comparisons))
        ) else frozenset()
        for comp in _comparisons(test):
            left = self.expr(comp.left)
            for target in comp.comparisons:
                right = self.expr(target.comparator)
                if disabled or not isinstance(target.operator, _ORDERINGS):
                    continue  # (``len(result) != 1`` asks what the value is, it caps nothing)
                if _index_guard(comp.left, target.comparator, indexed, self.const_int) or \
                        _index_guard(target.comparator, comp.left, indexed, self.const_int):
                    continue
                if _last_page_guard(comp.left, target.operator, target.comparator, guarded):
                    continue
                if not self._one_element_length(comp.left):
                    self._size_check(comp, left, right, target.comparator)
                if not self._one_element_length(target.comparator):
                    self._size_check(comp, right, left, comp.left)
        if not list(_comparisons(test)):
            self.expr(test)

    def _one_element_length(self, node: cst.BaseExpression) -> bool:
        """A size of one element of an enclosing ``for`` loop, not of what the loop builds:
        ``len(value)`` of the loop's target (``for key, value in d.items(): if len(value) < 128:
        ...``), which caps that element (or drops it), not the collection the loop walks; or a
        sum of such a length and terms the loops never change (``size + len(snippet) + 1 >
        limit`` with ``size`` set once before the loop): a running size that is never updated
        bounds nothing (design.md)."""
        terms = _sum_terms(node)
        if len(terms) == 1:
            return self._element_length(node, derived=False)
        if not any(self._element_length(t, derived=True) for t in terms):
            return False
        changed = set().union(*(_changed_in(loop) for loop in self.loop_nodes))
        return all(self._element_length(t, derived=True) or not any(
            isinstance(n, cst.Name) and n.value in changed for n in walk(t)) for t in terms)

    def _element_length(self, node: cst.BaseExpression, derived: bool) -> bool:
        """``len(x)`` of the target ``x`` of an enclosing ``for`` or comprehension clause, or of a
        field of it (``len(h["text"])``; a comprehension's ``if len(h) < 200`` filters elements
        one by one); with ``derived``, also
        of a local the body of a ``for`` over data binds anew each round from its target alone
        (``snippet = Snippet.of(s)``, never from itself: ``text = text + line`` runs on)."""
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len"
                and len(node.args) == 1):
            return False
        name = chain_root(node.args[0].value)  # (``len(h["text"])``, ``len(doc.body)``: a field of it)
        if name is None:
            return False
        if any(name in targets for targets, _, _ in self.index_loops):
            return True  # (a comprehension's too: ``[h for h in hits if len(h) < 200]`` filters)
        if not derived:
            return False
        loops = [n for n in self.loop_nodes if isinstance(n, cst.For)]
        for loop, (_, _, held) in zip(loops, self.loop_elements):
            targets = bound_names(loop.target)
            if held and _bound_from_each(loop, name, targets):
                return True
        return False

    def _disabled_guard(self, test: cst.BaseExpression) -> bool:
        """``if max_tokens and ...`` where ``max_tokens`` defaults to None/False/0: off by default."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            for side in (test.left, test.right):
                dn = dotted_name(side)
                if dn in self.disabled_params:
                    return True
        return False

    def _size_check(self, comp: cst.Comparison, measured: Flow, budget_flow: Flow, budget_node: cst.BaseExpression) -> None:
        ms = [t for t in measured if isinstance(t, Measure)]
        if not ms:
            return
        budget = self.const_int(budget_node)
        if budget is not None and budget <= 1:
            return  # ``if len(rows) > 0``: whether there is anything, not a budget
        if budget is None:
            ps = params(budget_flow)
            if not ps:
                return
            p = self.param_defaults.get(ps[0].name)
            if p is None or ps[0].name in self.disabled_params:
                return
            if not (limit_like(p.name) or {"budget", "chars", "tokens", "length", "bytes"} & set(words(p.name))):
                return  # ``if start >= len(lines)``: a position checked, not a size budget
            budget = p.clamp if p.clamp is not None else ps[0].clamp
            if budget is not None:
                caller = None
            elif self.helper:
                caller = Param(p.name, None)  # the budget a caller passes (see call_helper)
            else:
                caller = p
        else:
            caller = None
        sites = frozenset(s for m in ms for s in m.sites)
        names = frozenset(n for m in ms for n in m.params)
        self.summary.checks.append(
            SizeCheck(self.a.site(self.mod, comp), sites, budget, any(m.tokens for m in ms), caller, names)
        )

    def accumulate(self, container: cst.BaseExpression, flow: Flow, entry: cst.BaseExpression | None = None) -> str | None:
        """``flow`` put into the collection ``container`` names (``rows.append(r)``,
        ``by_kind[k] = v``, ``by_kind[k].append(v)``: the root ``by_kind``), ``entry`` the
        expression put there when known; returns that name, or None when ``container`` names no
        variable. In a helper, what goes into a collection a parameter holds is kept for the
        caller (``Summary.filled``)."""
        while isinstance(container, cst.Subscript):
            container = container.value
        name = dotted_name(container)
        if name is None:
            return None
        name = self.writes_into.get(name, name)
        flow = self._per_element(flow, entry)  # one entry per element of the enclosing loops
        if name not in self.env and "." in name:
            # ``session.df[name] = value``: an entry added to what the attribute already holds
            # (a table loaded elsewhere), which a later read of ``session.df`` still gives
            self.env[name] = self.expr(container)
        self.env[name] = union(self.env.get(name, EMPTY), flow)
        self.dict_results_of.pop(name, None)
        self._note_accumulation(name)
        root = name.split(".")[0]
        if "." in name and root not in ("self", "cls") and root in self.env:
            # ``catalog.tables[name] = table`` of a local object: the object holds its entries
            # (``catalog.model_dump_json()`` sends them)
            self.env[root] = union(self.env[root], flow)
            self._note_accumulation(root)
            if self.helper and root in self.parameter_names:
                self.summary.filled[root] = union(self.summary.filled.get(root, EMPTY), flow)
        if self.helper and name in self.parameter_names:
            self.summary.filled[name] = union(self.summary.filled.get(name, EMPTY), flow)
        return name

    def _per_element(self, flow: Flow, entry: cst.BaseExpression | None = None) -> Flow:
        """``flow`` put into a collection once per element of the enclosing ``for`` loops (as
        ``entry``, when known): with the sources that make that collection as long as they are
        (``_length_sources``)."""
        if not self.loop_elements:
            return flow
        # (inside a ``while`` loop the page's cap bounds one round, not what the rounds collect:
        # ``_while_rounds`` decides that)
        return union(flow, _length_sources(union(*(held for _, _, held in self.loop_elements)), flow,
                                           records=entry is not None and _record_literal(entry) and not self.while_depth))

    def _note_accumulation(self, name: str) -> None:
        for accs in self.loop_accumulators:
            accs.add(name)

    def _length_guard(self, test: cst.BaseExpression, name: str) -> Bound | None:
        """The cap a ``while`` test puts on the length of the accumulator ``name``: the limit of a
        ``len(name) < limit`` (or ``<=``, or ``limit > len(name)``) that must hold, alone or joined
        by ``and``, for another round to run; None when there is none."""
        parts = [test]
        while parts:
            part = parts.pop()
            if isinstance(part, cst.BooleanOperation) and isinstance(part.operator, cst.And):
                parts.extend((part.left, part.right))
                continue
            below = _below_limit(part) if isinstance(part, cst.Comparison) else None
            if below is not None and _len_arg(below[0]) == name:
                return self.bound_from(below[1], part)
        return None

    def _while_rounds(self, node: cst.While) -> Bound | None:
        """The cap on how many times a ``while`` loop runs when its test compares a counter the
        body increments with a limit (``while pages < max_pages: ... pages += 1``): the limit,
        as a bound on what each round collects (pages of a clamped size stay bounded)."""
        for comp in _comparisons(node.test):
            below = _below_limit(comp)
            counter = dotted_name(below[0]) if below is not None else None
            if below is None or counter is None or not any(
                    isinstance(n, cst.AugAssign) and isinstance(n.operator, cst.AddAssign)
                    and dotted_name(n.target) == counter for n in walk(node.body)):
                continue
            return self.bound_from(below[1], comp)
        return None

    def _apply_loop_breaks(self, accs: set[str], breaks: list[tuple[cst.BaseExpression, str]], node: cst.CSTNode,
                           enumerate_target: cst.BaseExpression | None) -> None:
        outer = self.loop_nodes[-1] if self.loop_nodes else None
        for test, _ in breaks:
            bound = self._count_break_bound(test, accs, enumerate_target, node)
            if bound is None:
                continue
            rounds = outer is not None and not any(_len_arg(c.left) for c in _comparisons(test))
            for name in accs:
                if rounds and outer is not None and not _remade(outer, node, name):
                    # ``for chunk in chunks: ... while req: items.extend(...); if retries > N:
                    # break``: a count of this loop's rounds caps each round of the outer loop,
                    # not what the outer loop keeps adding to
                    continue
                self.env[name] = apply_bound(self.env.get(name, EMPTY), bound)

    def _counts_the_data(self, expr: cst.BaseExpression, loop: cst.CSTNode) -> bool:
        """Whether ``expr`` (what a loop's counter is compared with) is read from the data the
        loop fetched or measured on it: a name holding a source or a whole record, directly or
        through a local the loop assigns (``total = response.get("total", len(values))``), or a
        length of data (``Measure``)."""
        names = {n.value for n in _subexpressions(expr) if isinstance(n, cst.Name)}
        if isinstance(loop, (cst.For, cst.While)):
            for n in walk_own(loop.body):
                if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value in names
                                                     for t in n.targets):
                    names |= {m.value for m in _subexpressions(n.value) if isinstance(m, cst.Name)}
        if any(isinstance(t, Src) or (isinstance(t, Marker) and t.kind == "object" and t.whole)
               for n in names for t in self.env.get(n, EMPTY)):
            return True
        return any(isinstance(t, Measure) for t in self.expr(expr))

    def _count_break_bound(self, test: cst.BaseExpression, accs: set[str],
                           enumerate_target: cst.BaseExpression | None, loop: cst.CSTNode) -> Bound | None:
        for comp in _comparisons(test):
            if len(comp.comparisons) != 1:
                continue
            left, right = comp.left, comp.comparisons[0].comparator
            lname = _len_arg(left) or dotted_name(left)
            if lname is None:
                continue
            counter_ok = lname in accs or _is_enumerate_index(enumerate_target, lname)
            if not counter_ok:
                continue
            if self._counts_the_data(right, loop):
                # ``if start_at >= result.get("total", 0): break``, ``total = response.get(
                # "total", len(values))``: the count of everything the data has, read from the
                # response or measured on it; it stops the paging, it caps nothing
                continue
            return self.bound_from(right, comp)
        return None

    # -- expressions -------------------------------------------------------------------------
    def expr(self, node: cst.BaseExpression | None) -> Flow:
        """The flow of an expression: EMPTY for None, and for one so deeply nested that Python's
        recursion limit is hit. Evaluating it also records what it does: size checks in comparisons,
        accumulation (``rows.append(r)``), ``:=`` bindings."""
        if node is None:
            return EMPTY
        try:
            return self._expr(node)
        except RecursionError:
            return EMPTY

    def _expr(self, node: cst.BaseExpression) -> Flow:
        if isinstance(node, cst.Name):
            if node.value in self.env:
                return self.env[node.value]
            if self.self_data and node.value == "self":
                # (``return self`` from a method of an object made from data: that data)
                return frozenset({Param(SELF_DATA, None)})
            return self.module_collection(node)
        if isinstance(node, cst.Attribute):
            return self.attribute(node)
        if isinstance(node, cst.Call):
            return self.call(node)
        if isinstance(node, cst.Await):
            return self.expr(node.expression)
        if isinstance(node, cst.Subscript):
            return self.subscript(node)
        if isinstance(node, (cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary, cst.Ellipsis)):
            return EMPTY
        if isinstance(node, cst.ConcatenatedString):
            return union(self.expr(node.left), self.expr(node.right))
        if isinstance(node, cst.FormattedString):
            return union(*(self.expr(p.expression) for p in node.parts if isinstance(p, cst.FormattedStringExpression)))
        if isinstance(node, cst.BinaryOperation):
            return union(self.expr(node.left), self.expr(node.right))
        if isinstance(node, cst.UnaryOperation):
            return scalar_of(self.expr(node.expression)) if isinstance(node.operator, cst.Not) else self.expr(node.expression)
        if isinstance(node, cst.BooleanOperation):
            return union(self.expr(node.left), self.expr(node.right))
        if isinstance(node, cst.Comparison):
            self.condition(node)
            return EMPTY
        if isinstance(node, cst.IfExp):
            self.condition(node.test, node.body)
            decided = _switch_truth(node.test, self.switches_on) if self.switches_on else None
            if decided is not None:  # (``text if limit is None else text[:limit]``, the switch on)
                return self.expr(node.body if decided else node.orelse)
            return union(self.expr(node.body), self.expr(node.orelse))
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            return union(*(self.expr(e.value) for e in node.elements))
        if isinstance(node, cst.Dict):
            out = []
            for e in node.elements:
                if isinstance(e, cst.DictElement):
                    out.append(self.expr(e.value))
                else:
                    out.append(self.expr(e.value))
            return union(*out)
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self.comprehension(node.for_in, [node.elt], node)
        if isinstance(node, cst.DictComp):
            return self.comprehension(node.for_in, [node.key, node.value], node)
        if isinstance(node, cst.NamedExpr):
            flow = self.expr(node.value)
            self.assign(node.target, flow, node.value)
            return flow
        if isinstance(node, cst.Yield):
            # a generator gives its caller every value it yields, once per round of the loops
            # around the ``yield`` (``yield from rows``: every element of ``rows``), as a list it
            # appended them to (the send value of ``x = yield v`` is the caller's: nothing here)
            item = node.value.item if isinstance(node.value, cst.From) else node.value
            if item is not None:
                flow = self.expr(item)
                self.env[YIELDED] = union(self.env.get(YIELDED, EMPTY), self._per_element(flow, item))
                self._note_accumulation(YIELDED)
            return EMPTY
        if isinstance(node, cst.Lambda):
            return EMPTY
        if isinstance(node, cst.StarredElement):
            return self.expr(node.value)
        return EMPTY

    def comprehension(self, for_in: cst.CompFor, elts: Sequence[cst.BaseExpression], node: cst.BaseExpression) -> Flow:
        """A comprehension: what its elements hold, and as many of them as the iterables have
        (``[r["total"] for r in rows]`` is one number per row: a collection as long as ``rows``,
        whose sources it keeps). A generator consumed for one element (``next``, ``max``,
        ``min``: ``_one_element_generators``) is that element alone."""
        saved = dict(self.env)
        iterated: set = set()
        clause: cst.CompFor | None = for_in
        self.comprehension_depth += 1
        depth = len(self.index_loops)
        while clause is not None:
            it = self.expr(clause.iter)
            targets = bound_names(clause.target)
            self.element_names |= targets
            self.index_loops.append((targets, self._rounds_bound(clause.iter, it, clause), _iterated_name(clause.iter)))
            elem = self.iteration(it, clause)
            iterated |= {t for t in elem if isinstance(t, Src)}
            self._assign_element(clause.target, clause.iter, elem)
            for cond in clause.ifs:
                self.condition(cond.test)
            clause = clause.inner_for_in
        flow = union(*(self.expr(e) for e in elts))
        del self.index_loops[depth:]
        self.comprehension_depth -= 1
        self.env = saved
        if id(node) in self._one_element_generators:
            return flow
        return union(flow, _length_sources(frozenset(iterated), flow,
                                           records=not self.while_depth and any(_record_literal(e) for e in elts)))

    def _note_used_as_collection(self, expr: cst.BaseExpression | None, flow: Flow) -> None:
        """Record in ``Summary.iterated`` a parameter of this function that ``expr`` names as it
        is (``flow``, its value here, holds that parameter itself, not a part or field of it) and
        that is iterated or sliced: what each caller passes for it is a collection. Not one whose
        type the function tests (a serializer walking whatever it is given, ``if isinstance(obj,
        list): return [walk(i) for i in obj]``)."""
        if isinstance(expr, cst.Name) and any(
                isinstance(t, Param) and t.site is None and t.name == expr.value and not (t.part or t.items or t.payload)
                for t in flow) and not _type_tested(self.fn, expr.value):
            self.summary.iterated.add(expr.value)

    def iteration(self, it: Flow, node: cst.CSTNode) -> Flow:
        """The flow of one element when iterating ``it`` (a cursor or file drains a source)."""
        extra: list = []
        looped = node.iter if isinstance(node, (cst.For, cst.CompFor)) else None
        iterated = _unwrapped_iterable(looped) if looped is not None else None
        self._note_used_as_collection(iterated, it)  # (``for todo in todos``)
        if iterated is not looped and isinstance(iterated, cst.Attribute):
            # (``enumerate(doc.paragraphs)`` keeps no handle: the attribute's own flow has it)
            it = union(it, frozenset(t for t in self.expr(iterated) if isinstance(t, Marker) and t.kind == "object"))
        # (``for r in file_range.ranges``: a field of a model holds other things)
        models = self._model_objects(it) if not isinstance(iterated, (cst.Attribute, cst.Subscript)) else frozenset()
        traced = any(isinstance(t, Src) for t in it)
        for m in markers(it):
            site = self.a.site(self.mod, node)
            if m.kind == "registry":
                extra.extend(registry_element(m, iterated, site))
                continue
            if models and m.kind == "object" and (m.whole or m in models):
                # ``for item in items`` of ``[Item.model_validate(d) for d in bodies]``: a list
                # of objects of a class of the run (a model is not iterated over its fields),
                # each one of those records, its methods the class's own
                extra.append(m)
                continue
            if m.kind in ("cursor", "query", "paginator", "line_iter"):
                extra.append(Src("TL106", site, f"iterating a {m.kind.replace('_', ' ')}", m.sql_bound))
            elif m.kind == "file":
                extra.append(Src("TL102", site, "iterating every line of a file"))
            elif m.kind == "process":
                extra.append(Src("TL104", site, "iterating process output", m.sql_bound))
            elif json_record(m):
                # ``for e in body["query"]``: the items of a JSON body
                extra.append(listing_of(m))
            elif m.kind == "object" and m.rule == "TL105" and m.fixed and not m.whole and m.family is None and \
                    isinstance(iterated, (cst.Name, cst.Await, cst.Call)) and \
                    not (isinstance(iterated, cst.Call) and _called_method(iterated) in ("items", "keys", "values")):
                # ``raw = conn.get("/api/v1/project"); [norm(p) for p in raw]``: a body its URL
                # names as one small record (a singular noun, ``singleton_path``), iterated as it
                # is: the API names its collection in the singular, the body is its listing (a
                # dict's own ``raw.items()`` is not this)
                extra.append(Src("TL105", site, "HTTP response .json()", m.sql_bound))
            elif m.kind == "object" and m.whole and m.family == ID_RECORDS_FAMILY and not m.keys:
                # ``for item in body["value"]`` of ``GET /items?ids=...`` with the caller's ids:
                # one record per identifier it named, each whole (a list of records per
                # identifier too: its items are records again)
                extra.append(replace(m, site=site))
            elif m.kind == "object" and m.whole:
                # ``for frame in event["frames"]``: every item of a record's payload, as many
                # as the service sends
                extra.append(Src(m.rule, site, f"iterating the items of a record {SIZE_UNKNOWN}", m.sql_bound))
            elif m.kind == "object" and m.family != CONTEXT_FAMILY and (
                    isinstance(iterated, cst.Attribute) or
                    (isinstance(iterated, cst.Name) and iterated.value in self.assigned_from_attribute)) and \
                    not (traced and m.family and self.a.project.resolve_class(m.family) is not None) and \
                    not _declared_schema(iterated):
                # ``for guild in client.guilds``, ``for i, p in enumerate(doc.paragraphs)``,
                # ``kvstore = service.kvstore; for c in kvstore``: an attribute of an object
                # tokenlint cannot read, iterated, is a collection it holds (of an object of the
                # run's own class made of data traced here, ``for page in search_result.results``
                # of ``SearchResult.from_api_response(rows)``, that data)
                extra.append(Src("TL108", site, f"iterating `{dotted_name(iterated) or '…'}` {SIZE_UNKNOWN}",
                                 m.sql_bound))
            elif m.kind == "object" and m.family and m.family != CONTEXT_FAMILY and not is_stdlib(m.family) and \
                    not m.posted and isinstance(iterated, cst.Call) and \
                    _called_method(iterated) not in (None, *VALUE_METHODS) and \
                    self.a.project.resolve_class(m.family) is None:
                # ``for subm in client.subreddit.new(name, limit)``: what a method of a library
                # object gives back, iterated, is a collection of it (a handle by the method's
                # name, ``new``/``top``, or not), as many items as the service sends
                extra.append(Src("TL108", site, f"iterating what `{dotted_name(iterated.func) or '…'}()` "
                                 f"returns {SIZE_UNKNOWN}", m.sql_bound or self._argument_bound(iterated)))
            elif m.kind == "object" and not m.whole and not m.fixed and _guessed_function_result(m) and \
                    not (m.family and (is_stdlib(m.family) or self.a.project.resolve_class(m.family))):
                # ``results = box_locate_folder_by_name(client, name); for f in results``: what a
                # library function named for nothing tokenlint knows gave (taken for a small
                # value until used), iterated, is a collection of it
                callee = cast(cst.Name, cast(cst.Call, m.site.node).func).value
                extra.append(Src("TL108", site, f"iterating what `{callee}()` returns {SIZE_UNKNOWN}", m.sql_bound))
        kept = frozenset(_element_of(t) for t in it if not isinstance(t, Marker))
        return union(kept, frozenset(extra))

    def _model_objects(self, flow: Flow) -> frozenset[Marker]:
        """The object markers in ``flow`` of classes of the run that define no ``__iter__`` (data
        models, ``Item.model_validate(body)``): a flow holding them and iterated is a list of
        them."""
        out = set()
        for m in markers(flow, "object"):
            if m.family and not m.whole and self.a.project.resolve_class(m.family) is not None and \
                    self.a.family_method(m.family, "__iter__") is None:
                out.add(m)
        return frozenset(out)

    def attribute(self, node: cst.Attribute) -> Flow:
        """The flow of ``obj.attr`` (``_attribute``), and for ``self.<attr>`` holding an object
        made from data (``self.store = Store(rows)``) what it was made of, for its methods that
        give it back (``Analyzer.instance_object_data``)."""
        if node.attr.value in _DECLARATION_ATTRIBUTES:
            # ``row.__table__``, ``type(m).model_fields``: what the class declares (columns,
            # fields), fixed by its code
            self.expr(node.value)
            return frozenset({Marker("object", self.a.site(self.mod, node), fixed=True, family=DECLARATION_FAMILY)})
        flow = self._attribute(node)
        if self.self_data and self.class_name and isinstance(node.value, cst.Name) and node.value.value == "self" \
                and f"{self.class_name}.{node.attr.value}" not in self.mod.functions:
            # a field of an object made from data, in its method: that data, as each call's
            # receiver was made of it (``self.cells`` of ``Notebook(**content)``), besides what
            # the class says of it (a client ``__init__`` made, a collection its methods fill)
            flow = union(flow, frozenset({Param(SELF_DATA, None)}))
        if self.class_name and isinstance(node.value, cst.Name) and node.value.value == "self" and \
                not (self.helper and self.function_name == "__init__"):
            held = self.a.instance_object_data(self.mod, self.class_name, node.attr.value)
            if held:
                flow = union(flow, held)
        return flow

    def _attribute(self, node: cst.Attribute) -> Flow:
        """The flow of ``obj.attr``: a local bound to the whole dotted name; an instance collection
        of ``self`` (TL108); process output (``.stdout``/``.stderr``/``.output``: TL104, or a stream
        for ``Popen``); an HTTP body (``.text``/``.content``/``.body``/``.data`` of a response:
        TL105; of a write's response: one record); a query manager (``Model.objects``); a scalar
        (``status_code``: ``catalogue.SCALAR_ATTRIBUTES``, ``shapes.small_field``); else a field of
        the base, the whole record for an open-ended payload field (``mr.description``), one part of
        it otherwise (``external.field_keeper``)."""
        dn = dotted_name(node)
        if dn is not None and dn in self.env:
            return self.env[dn]
        if dn is not None and dn.count(".") == 1 and dn.startswith("self.") and self.class_name:
            if node.attr.value in self.a.instance_collections(self.mod, self.class_name):
                return self.a.collection_src(self.mod, node, f"instance collection `{dn}`", node.attr.value)
            if not (self.helper and self.function_name == "__init__"):
                held = self.a.instance_data(self.mod, self.class_name, node.attr.value)
                if held:
                    # ``self.items = json.load(open(path))`` in ``__init__``: every method
                    # reading ``self.items`` reads that file
                    return held  # (where ``__init__`` read it: the finding the object's data gives)
        if isinstance(node.value, cst.Name) and node.value.value not in self.env and node.value.value != "self":
            # ``store.items`` of a module-level ``store = Store(path)`` whose ``__init__`` reads it
            family = self._chain_class(node.value)
            hit = self.a.project.resolve_class(family) if family else None
            held = self.a.instance_data(hit[0], hit[1], node.attr.value) if hit else EMPTY
            if held:
                return held  # (where ``__init__`` read it: the finding the object's data gives)
            if hit and node.attr.value in self.a.instance_collections(hit[0], hit[1]):
                # ``session.history`` of a module-level ``session = Session()`` whose methods
                # fill ``self.history = []``: as on ``self`` inside the class
                return self.a.collection_src(hit[0], node, f"instance collection `{dn}`", node.attr.value,
                                             at=self.mod)
        if self._enum_class(node.value):
            # ``ItemType.tag`` of ``class ItemType(str, Enum)``: a member, a constant of the code
            return EMPTY
        base = self.expr(node.value)
        contexts = markers(base, "object")
        if node.attr.value == "lifespan_context" and contexts and all(m.family == CONTEXT_FAMILY for m in contexts):
            # ``ctx.request_context.lifespan_context``: the object the server's lifespan yields
            # (``yield AppContext(db=db)``), its declared fields and methods followed
            made = self.a.lifespan_class()
            if made is not None:
                return frozenset({Marker("object", self.a.site(self.mod, node), family=made)})
        if isinstance(node.value, (cst.Name, cst.Call, cst.Await)) and \
                (fields := self.helper_dict_entries(node.value)) is not None and node.attr.value in fields:
            # ``s = load(path); s.main_file``, ``outline(path).heading`` of an object of the run's
            # record class (``return Source(content=text, main_file=name)``): what that field
            # was given
            return fields[node.attr.value]
        if self.self_data and isinstance(node.value, cst.Name) and node.value.value == "self":
            base = EMPTY  # (the object's own attributes: as in any method, its data joined by ``attribute``)
        attr = node.attr.value
        for family in sorted({t.family for t in base if isinstance(t, Marker) and t.kind == "object"
                              and t.family and not t.whole}):
            hit = self.a.project.resolve_class(family)
            if hit and attr in self.a.instance_collections(hit[0], hit[1]):
                # ``runner.errors`` of a local ``runner = BuildRunner(target)`` whose methods fill
                # ``self.errors``: what the object collected while the tool ran it
                return self.a.collection_src(hit[0], node, f"instance collection `{dn or attr}`", attr, at=self.mod)
        if not base and isinstance(node.value, (cst.Name, cst.Attribute)) and \
                (held_family := self._chain_class(node)) is not None:
            # ``cluster.api`` of a module-level ``cluster = Cluster()`` whose ``__init__`` sets
            # ``self.api = vmsdk.Api()``: an object of that class
            return frozenset({Marker("object", self.a.site(self.mod, node), family=held_family)})
        held_class = self._attribute_class(base, attr)
        lifespan = [t for t in base if isinstance(t, Marker) and _lifespan_object(t)]
        if lifespan and held_class is None:
            # ``lifespan_context.db_configs``: a field of the lifespan's object that holds no object
            # of the run's classes nor a collection its methods fill is what the server was set
            # up with at start-up, read as the request context's own state is
            base = frozenset(replace(t, family=CONTEXT_FAMILY) if t in lifespan else t for t in base)
        if held_class is not None:
            # ``_get_state().client`` of a ``_State`` whose ``__init__`` sets ``self.client =
            # client`` (``client: DeskClient``): an object of that class, its methods followed
            return frozenset({Marker("object", self.a.site(self.mod, node), family=held_class)})
        if attr in ("stdout", "stderr", "output"):
            procs = markers(base, "process")
            if procs:
                if procs[0].capture is False and attr != "output":
                    # Popen().stdout: a stream, read later (``.read()``, iteration)
                    return frozenset({Marker("process", procs[0].site)})
                return frozenset({Src("TL104", self.a.site(self.mod, node), f"process .{attr}", procs[0].sql_bound)})
        if attr in ("text", "content", "body") and dotted_name(node.value) in self.failed_responses:
            # ``if resp.status_code >= 400: return f"failed: {resp.text}"``: the service's error
            # message, not the data the request asked for
            return EMPTY
        if attr in ("text", "content", "body", "data") and markers(base, "http_ack") and \
                not markers(base, "http_response"):
            # what a write sent back: an acknowledgement, its fields the caller's echo
            return frozenset({Marker("object", self.a.site(self.mod, node), fixed=True, family=ACK_FAMILY)})
        if attr in ("text", "content", "body", "data") and (responses := markers(base, "http_response")) and \
                all(m.whole and m.fixed and not m.posted for m in responses):
            # ``client.get("/api/version").text``: the one small resource its URL names
            # (``external.url_resource``), as its ``.json()`` is (``body_of_json``)
            return frozenset({Marker("object", self.a.site(self.mod, node), fixed=True, rule="TL105")})
        if attr in ("text", "content", "body", "data") and (
            markers(base, "http_response")
            or (attr in ("text", "content") and response_like(dotted_name(node.value))
                and not any(isinstance(t, Param) and t.site is None for t in base)
                and not any(isinstance(t, Marker) and t.family == CONTEXT_FAMILY for t in base))
        ):
            # (a helper's ``response`` parameter is whatever each caller passes: not a body here;
            # nor is the completion ``response = await ctx.sample(...)`` the client sampled)
            return frozenset({Src("TL105", self.a.site(self.mod, node), f"HTTP response .{attr}",
                                  http_body_bound(base))})
        if attr == "objects":
            return frozenset({Marker("query", self.a.site(self.mod, node))})
        if attr in cat.SCALAR_ATTRIBUTES or small_field(attr):
            # (a field of a helper's parameter: never the whole value each caller passes, but a
            # small value of it: ``def class_name(obj): return obj.__class__.__name__``)
            return small_field_of(base)
        # a record's open-ended payload (``mr.description``, ``page.content``) is as large as the
        # record, as ``mr["description"]``; another field is one part of it
        if any(named_object(t) for t in base) and not open_field(attr) and not listing_key(attr) and \
                not attr.startswith("_") and (last := words(attr)) and last[-1] not in _CONTAINER_FIELDS:
            # ``page = wiki.page(title); page.summary``: one field of the object a call named for
            # one document gave (its text, ``page.text``, and its listings, ``page.links``, are
            # the data)
            base = frozenset(Marker("object", t.site, fixed=True) if isinstance(t, Src) and named_object(t) else t
                             for t in base)
        keep = self._field_keeper(attr, base)
        held = frozenset(keep(t) for t in base if not isinstance(t, Marker) or t.kind == "object")
        return self._object_listing(held, base, attr, dn, node)

    def _enum_class(self, expr: cst.BaseExpression) -> bool:
        """Whether ``expr`` names a class of the run whose instances are scalars
        (``records.scalar_class``: ``class ItemType(str, Enum)``): its attributes are its
        members, constants of the code."""
        if not isinstance(expr, (cst.Name, cst.Attribute)) or (dotted_name(expr) or "") in self.env:
            return False
        return scalar_class(self.a.project, run_class_named(self.a.project, self.mod, expr))

    def _field_keeper(self, key: str, flow: Flow) -> Callable[[Taint], Taint]:
        """``external.field_keeper``, except that an object of a record class of the run
        (``_record_class``: a dataclass, ``TypedDict``, ``NamedTuple``, pydantic model) passes a
        field as a part of it (``part_of``), whatever the key: its fields hold what it was made
        of, traced where it was made (``CommandResult(output=text)``: that text), not a record of
        unknown contents. (An object of another class of the run, ``ci.project.mergerequests.
        get(iid)`` through a client wrapper, may be what a library fetched.)"""
        keep = field_keeper(key, flow)
        own = frozenset(t for t in flow if isinstance(t, Marker) and t.kind == "object" and t.family
                        and self._record_class(t.family))
        if not own:
            return keep
        return lambda t: part_of(t) if t in own else keep(t)

    def _record_class(self, family: str) -> bool:
        """Whether ``family`` names a record class of the run (``record_kind``)."""
        hit = self.a.project.resolve_class(family)
        return hit is not None and record_kind(hit[0].classes[hit[1]]) is not None

    def _object_listing(self, held: Flow, base: Flow, key: str, owner: str | None,
                        node: cst.Attribute | cst.Subscript) -> Flow:
        """``held`` (what ``owner.key`` or ``owner["key"]`` of ``base`` gives, at ``node``) with
        each handle of unreadable code in it marked ``whole`` when ``key`` names a collection
        (``external.listing_key``: ``ticker.dividends``, ``info["holders"]``): read whole where the
        tool returns or iterates it, it is that collection (a method called on it,
        ``client.containers.list()``, stays a call of the object's family). Not for an owner named
        for configuration (``self.config.allowed_roots``), nor when ``base`` holds data the tool
        has (``Page.model_validate_json(body).data`` keeps that data's bound), nor for the run's
        own classes, acknowledgements, the request context or configuration objects, nor for what
        a class declares (``row.__table__.columns``: ``_declared_schema``)."""
        if not listing_key(key) or CONFIG_WORDS & set(words(owner or "")) or _declared_schema(node) or \
                any(isinstance(t, (Src, Measure)) or isinstance(t, Param) and t.site is None for t in base):
            # (a tool's own argument the object was made from, ``yf.Ticker(symbol)``, is an echo
            # beside it, no data the tool has: its listings are still the service's)
            return held
        return frozenset(self._listing_of_object(t, node) for t in held)

    def _listing_of_object(self, t: Taint, node: cst.Attribute | cst.Subscript) -> Taint:
        """``t`` when it is no handle of unreadable code (see ``_object_listing``), else the same
        handle marked ``whole``: read whole, it is the collection the key names."""
        if not (isinstance(t, Marker) and t.kind == "object") or t.whole or t.fixed or \
                t.family in (ACK_FAMILY, CONTEXT_FAMILY, ID_RECORDS_FAMILY, HEADERS_FAMILY) or \
                configuration_object(t.family) or (t.family and self.a.project.resolve_class(t.family)):
            return t
        return Marker("object", self.a.site(self.mod, node), t.sql_bound, family=t.family, whole=True)

    def _stub_result_class(self, families: list[str], method: str) -> str | None:
        """The class of the run that ``method`` of one of the run's classes ``families`` declares
        it returns, when the class only declares it (a ``Protocol``'s or abstract base's stub:
        ``values.is_stub``) with a return annotation naming such a class (``-> Access``); else
        None."""
        for family in families:
            hit = self.a.project.resolve_class(family)
            fn = hit[0].functions.get(f"{hit[1]}.{method}") if hit else None
            if hit and fn is not None and is_stub(fn) and fn.returns is not None:
                made = object_class(self.a.project, hit[0], fn.returns.annotation)
                if made is not None:
                    return made
        return None

    def _attribute_class(self, base: Flow, attr: str) -> str | None:
        """The class of the run whose object attribute ``attr`` of ``base`` holds, when ``base`` is
        an object of one class of the run whose methods set ``self.<attr>`` to an object of a
        class (``instance_attribute_family``); else None. A helper's parameter annotated with
        that class (``container: "ServicesContainer"``) is such an object whatever each caller
        passes."""
        families = {t.family for t in base if isinstance(t, Marker) and t.kind == "object" and not t.whole}
        if len(families) != 1 or any(not (isinstance(t, Marker) and t.kind == "object")
                                     and not (isinstance(t, Param) and t.site is None and not t.part) for t in base):
            return None
        family = next(iter(families))
        hit = self.a.project.resolve_class(family) if family else None
        return self.a.instance_attribute_family(hit[0], hit[1], attr) if hit else None

    def one_of(self, base: Flow, node: cst.CSTNode, fixed: bool = False) -> Flow:
        """One element of the collection ``base`` (``rows[0]``, ``next(iter(pages.values()))``,
        at ``node``): one row of a query, one line; of an API listing, a record of unknown fields
        (whole until a field is picked from it), unless ``fixed``: an entity whose fields the API
        fixes (``users[0]``, labelling rule 5's "one user"); one row of a DDL or a plan is the
        whole object (``SHOW CREATE TABLE`` → DDL)."""
        rest = frozenset(part_of(t) for t in base if not isinstance(t, (Src, Measure)) and
                         (not isinstance(t, Marker) or t.kind == "object"))
        if not fixed and any(isinstance(t, Src) and t.code in ("TL105", "TL108") for t in base):
            rest |= {Marker("object", self.a.site(self.mod, node), whole=True)}
        return rest | {t for t in base if isinstance(t, Src) and t.code == "TL101" and _open_ended_row(t)}

    def subscript(self, node: cst.Subscript) -> Flow:
        """The flow of ``x[...]``: a model argument (``arguments["k"]`` in a low-level handler), one
        entry of a helper's dict result, a scalar field (``body["total"]``), one element by integer
        index (``rows[0]``: one row; of an API listing, one whole record), a field of a record (its
        payload as large as the record), or a slice capped by its width (``x[:n]``, ``x[-n:]``,
        ``x[a:a + n]``: ``slice_bound``; ``x[a:]`` keeps everything)."""
        base = self.expr(node.value)
        base_name = dotted_name(node.value)
        if len(node.slice) != 1:
            return base
        sl = node.slice[0].slice
        if isinstance(sl, cst.Index):
            key = sl.value
            lit = string_literal(key)
            if self.args_style == "mapping" and lit is not None and is_arguments_name(base_name):
                return self.mapping_param(lit, None, node, required=True)
            entries = self.helper_dict_entries(node.value)
            if lit is not None and entries is not None:
                # ``result = helper(); return result["message"]``: the one entry the helper put
                # there (a key no return of it has: nothing)
                return entries.get(lit, EMPTY)
            if lit is not None and small_field(lit):
                # ``body["total"]``, ``page["has_more"]``: a number or a flag of the data
                return small_field_of(base)
            self.expr(key)
            # an entry of a run-time collection (``tasks[task_id]``): one record, whole
            base, entry = self.collection_entry(base, node.value, self.a.site(self.mod, node))
            rounds = self._index_rounds(key, node.value)
            if rounds is not None:
                # ``for idx in order[:k]: out.append(docs[int(idx)])``: one element a round, as
                # many as the loop has rounds (``docs[:k]``)
                base = apply_bound(base, rounds)
            root = chain_root(node.value) if isinstance(node.value, cst.Attribute) else None
            if rounds is None and not self.loop_nodes and not self.index_loops and (
                    _lines_value(node.value) or (isinstance(node.value, cst.Name) and self.pieces.get(node.value.value))):
                # ``lines = content.splitlines(); lines[line - 1]``: the one line a position picks
                # (out of any loop, which could take every line), a small value of the text
                return self.one_of(base, node, fixed=True) | entry
            if isinstance(key, cst.Integer) and (
                    _pieces_value(node.value) or (isinstance(node.value, cst.Name) and node.value.value in self.pieces)):
                # ``arn.split(":")[3]``: a piece of the value split, as large as a field of it
                return frozenset(part_of(t) for t in base if not isinstance(t, Marker) or t.kind == "object")
            columns = next((t.columns for t in base if isinstance(t, Marker) and t.kind == "object" and t.columns), ())
            if isinstance(key, cst.Integer) and columns and int(key.value) < len(columns):
                # ``row[2]`` of one row whose ``SELECT`` names its columns: the column ``body``
                keep = self._field_keeper(columns[int(key.value)], base)
                return frozenset(keep(t) for t in base if not isinstance(t, Marker) or t.kind == "object")
            if isinstance(key, cst.Integer) and isinstance(node.value, cst.Name) and \
                    node.value.value in self.built_records:
                # ``matches[0]`` of records this function built with fixed keys: one of them
                return frozenset(part_of(t) for t in base if not isinstance(t, (Src, Measure, Marker)))
            if isinstance(key, cst.Integer) and (
                    isinstance(node.value, cst.Call)
                    or (isinstance(node.value, cst.Name) and node.value.value not in self.element_names)
                    or (root is not None and root not in self.element_names)):
                # ``client.list_widgets()[0]``, ``rows = ...; rows[0]``, ``found.actors[0]``; of a
                # collection named for an entity whose fields are fixed (``users[0]``,
                # ``contacts[0]``: ``external.fixed_record``) one such entity
                named = dotted_name(node.value) if isinstance(node.value, (cst.Name, cst.Attribute)) else None
                ws = words(named.split(".")[-1]) if named else []
                fixed = bool(ws) and is_plural(ws[-1]) and fixed_record(ws[-1])
                return self.one_of(base, node, fixed=fixed) | entry
            if not isinstance(key, cst.Integer) and lit is None and self._keyed_one_value(node.value):
                # ``col_map[name]`` of ``col_map[c[1]] = t`` filled in a loop, ``by_id[i]`` of
                # ``by_id = {r["id"]: r for r in rows}``: the one value stored under that key;
                # one a round of a loop binding the key (``[owner[m] for m in close[:3]]``), as
                # many as its rounds, every value when nothing caps them
                looped = self._key_rounds(key)
                if looped is None:
                    return self.one_of(base, node) | entry
                if looped[0] is not None:
                    return apply_bound(base, looped[0]) | entry
            if lit is None and isinstance(node.value, cst.Name) and node.value.value in self.env and \
                    (literal_entries := self.dict_entries.get(node.value.value)) and \
                    all(k is not None for k, _ in literal_entries):
                # ``holders = {"major": t.major_holders, "insider": t.insider_transactions}``,
                # ``holders[kind]``: whichever value of the dict the tool wrote the key picks, as
                # that value is (not a field of a record)
                return base | entry
            # an element or field keeps its source: rows iterate into ``r``, and ``r[0]`` is data;
            # an element of a table of clients is a client; a record's payload field
            # (``resp["Item"]``, ``page["content"]``) is as large as the record
            keep = self._field_keeper(lit, base) if lit is not None else part_of
            body = field_of_body(lit, self.a.site(self.mod, node)) if lit is not None else (lambda t: t)
            held = frozenset(body(keep(t)) for t in base if not isinstance(t, Marker) or t.kind == "object")
            if lit is not None:  # ``info["holders"]``, as ``ticker.holders``
                held = self._object_listing(held, base, lit, base_name, node)
            return held | entry
        if isinstance(sl, cst.Slice):
            self._note_used_as_collection(node.value, base)  # (``items[offset:end]``)
            lower = self.expr(sl.lower) if sl.lower is not None else EMPTY
            if sl.upper is None:
                low = sl.lower
                if isinstance(low, cst.UnaryOperation) and isinstance(low.operator, cst.Minus):
                    bound = self.bound_from(low.expression, node)  # x[-n:]: the last n
                    return apply_bound(base, bound) if bound else base
                return base
            bound = self.slice_bound(sl, node)
            if bound is None:
                return union(base, lower)
            return apply_bound(base, bound)
        return base

    def slice_bound(self, sl: cst.Slice, node: cst.CSTNode) -> Bound | None:
        """The cap ``x[lower:upper]`` puts on ``x`` (``upper`` given): ``n`` for ``x[a:a + n]``; for
        a window moved by continuation parameters (``x[(page - 1) * SIZE : page * SIZE]``) its
        largest constant above 1 (-1 when there is none); else ``bound_from(upper)``. None for
        ``x[:-n]`` (drops a tail) and for a span the data delimits
        (``src[node.start_byte:node.end_byte]``)."""
        upper = cast(cst.BaseExpression, sl.upper)  # (``subscript`` reads ``x[a:]`` itself)
        if isinstance(upper, cst.UnaryOperation) and isinstance(upper.operator, cst.Minus) and sl.lower is None:
            return None  # x[:-1]: drops the tail, bounds nothing
        if isinstance(sl.lower, cst.Attribute) and isinstance(upper, cst.Attribute):
            # ``source[node.start_byte : node.end_byte]``: a span the data itself delimits (a
            # node's text, a match), as long as that span is, not a size cap
            return None
        if sl.lower is not None and isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add):
            # x[start:start + n] → n bounds the slice
            lo = dotted_name(sl.lower)
            for side, other in ((upper.left, upper.right), (upper.right, upper.left)):
                if lo is not None and dotted_name(side) == lo:
                    return self.bound_from(other, node)
        if sl.lower is not None and self.const_int(upper) is None:
            # x[(page - 1) * SIZE : page * SIZE]: the width is the constant, the page moves it
            ps = params(self.expr(upper))
            if ps and all(p.name.lower() in cat.CONTINUATION_PARAMS for p in ps):
                consts = [c for c in (self.const_int(n) for n in _subexpressions(upper)) if c is not None and c > 1]
                return Bound(self.a.site(self.mod, node), fixed=max(consts) if consts else -1)
        return self.bound_from(upper, node)

    def _keyed_one_value(self, container: cst.BaseExpression) -> bool:
        """Whether ``container`` names a dict this function fills one value per key, by a key
        computed at run time (``d[k] = v``, ``d = {k: v for ...}``: ``dict_entries`` with a
        key that is no literal), each value one item, not a group (no list, set or dict display
        or comprehension stored: ``groups[k] = []`` then ``groups[k].append(r)`` holds many)."""
        if not isinstance(container, cst.Name):
            return False
        entries = self.dict_entries.get(container.value, [])
        return bool(entries) and any(k is None for k, _ in entries) and not any(
            isinstance(v, (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp, cst.Tuple))
            for _, v in entries)

    def _key_rounds(self, key: cst.BaseExpression) -> tuple[Bound | None] | None:
        """The rounds of the innermost enclosing loop (or comprehension) binding a name ``key``
        is made of, else of the innermost enclosing loop (the key computed anew each round:
        ``uid = resolve(name)`` for each name the caller lists), as a 1-tuple of their cap
        (``_rounds_bound``, None when nothing caps them); None outside loops (one lookup)."""
        names = {n.value for n in walk(key) if isinstance(n, cst.Name)}
        for targets, rounds, _ in reversed(self.index_loops):
            if names & targets:
                return (rounds,)
        return (self.index_loops[-1][1],) if self.index_loops else None

    def _index_rounds(self, key: cst.BaseExpression, container: cst.BaseExpression) -> Bound | None:
        """The cap on how many elements ``container[key]`` takes when ``key`` is a position an
        enclosing loop binds (``idx``, ``int(idx)``, ``idx.item()`` with ``for idx in
        np.argsort(scores)[::-1][:k]``; ``i`` of ``for i, score in ranked[:10]``): one element a
        round, so the rounds' cap (``_rounds_bound``). None when the loop iterates ``container``
        itself (``for k in d: d[k]``), when ``container`` is a dict this function fills (its
        entries may be lists: ``groups[k]``), or when nothing caps the rounds: ``range(len(x))``,
        ``enumerate(x)`` and an unsliced ``np.argsort(scores)`` run once per element of the data."""
        name = _index_name(key)
        cname = dotted_name(container)
        if name is None or cname is None or cname in self.dict_entries:
            return None
        for targets, rounds, iterated in reversed(self.index_loops):
            if name in targets:
                if iterated is not None and (iterated == cname or iterated.startswith(cname + ".")):
                    return None
                return rounds
        return None

    def _rounds_bound(self, iterable: cst.BaseExpression, it: Flow, node: cst.CSTNode) -> Bound | None:
        """How many rounds a loop over ``iterable`` (whose flow is ``it``) runs at most, as a cap on
        what it takes one element a round of (``_index_rounds``): ``range(stop)`` /
        ``range(start, stop)`` by ``_count_bound(stop)``; otherwise, when ``it`` holds data (sources,
        or a helper's parameters) and every part of it is capped (``order = np.argsort(sims)[::-1]
        [:k]``), the weakest of those caps (``Bound.rank``). None when any part is uncapped, or
        when ``it`` holds no data (the caller's own list of ids, a number read from data)."""
        counted = self._count_of(iterable, node)
        if counted is not None:
            return counted
        caps = [t.bound for t in it if isinstance(t, Src)] + \
            [t.cap for t in it if isinstance(t, Param) and t.site is None]
        if not caps or any(c is None for c in caps):
            return None
        return min((c for c in caps if c is not None), key=lambda c: (c.rank(), -(c.value or 0)))

    def _count_of(self, iterable: cst.BaseExpression, node: cst.CSTNode) -> Bound | None:
        """The cap on how many items ``iterable`` yields, read from how it is written, whatever
        its items hold (a NumPy result is an object tokenlint cannot read): ``range(stop)``
        (``_count_bound``); a slice ``x[:n]``, ``x[-n:]`` (``slice_bound``), through
        ``x[::-1]``; a local bound to one (``sliced``); ``enumerate``/``reversed``/``sorted``/
        ``list``/``tuple`` of one, its ``.tolist()``; the shortest of a ``zip``. None otherwise."""
        if isinstance(iterable, cst.Name):
            return self.sliced.get(iterable.value)
        if isinstance(iterable, cst.Subscript) and len(iterable.slice) == 1 and \
                isinstance(sl := iterable.slice[0].slice, cst.Slice):
            if sl.upper is not None:
                return self.slice_bound(sl, node)
            low = sl.lower
            if isinstance(low, cst.UnaryOperation) and isinstance(low.operator, cst.Minus):
                return self.bound_from(low.expression, node)  # ``order[-k:]``: the last k
            return self._count_of(iterable.value, node) if low is None else None  # ``order[::-1]``
        if not isinstance(iterable, cst.Call):
            return None
        func = iterable.func
        if isinstance(func, cst.Attribute) and func.attr.value == "tolist" and not iterable.args:
            return self._count_of(func.value, node)
        name = dotted_name(func)
        if name not in ("range", "enumerate", "reversed", "sorted", "list", "tuple", "zip") or \
                self.mod.imports.qualify(func) is not None or not iterable.args or \
                any(a.star for a in iterable.args):
            return None
        positional = [a.value for a in iterable.args if a.keyword is None]
        if name == "range":
            if not 1 <= len(positional) <= 3 or len(positional) != len(iterable.args):
                return None
            return self._count_bound(positional[0] if len(positional) == 1 else positional[1], node)
        if name == "zip":
            found = [b for a in positional if (b := self._count_of(a, node)) is not None]
            return _tightest(found)
        return self._count_of(positional[0], node) if positional else None

    def _count_bound(self, expr: cst.BaseExpression, node: cst.CSTNode) -> Bound | None:
        """The cap on a count used as a number of rounds (``range(count)``): a constant; the
        tightest capped argument of ``min(k, len(rows))``; a model parameter (``bound_from``, its
        clamp if any); a named setting that is no local (``settings.TOP_K``: enforced, value
        unknown, as ``min_call`` reads it). None for a count read from data (``len(rows)``, ``n``
        of ``SELECT COUNT(*)``)."""
        value = self.const_int(expr)
        if value is not None:
            return Bound(self.a.site(self.mod, node), fixed=value)
        if isinstance(expr, cst.Call) and dotted_name(expr.func) == "min" and \
                self.mod.imports.qualify(expr.func) in (None, "min", "builtins.min") and \
                not any(a.star for a in expr.args):
            return _tightest([b for a in expr.args if (b := self._count_bound(a.value, node)) is not None])
        if isinstance(expr, (cst.Name, cst.Attribute)) and dotted_name(expr) not in self.env and \
                chain_root(expr) not in self.env and chain_root(expr) not in self.parameter_names and \
                not _measures_data(module_constant(self.mod, dotted_name(expr) or "")):
            return Bound(self.a.site(self.mod, node), fixed=-1)
        flow = self.expr(expr)
        ps = params(flow)
        if not ps or (any(isinstance(t, (Src, Measure)) for t in flow) and all(p.clamp is None for p in ps)):
            return None
        return self.bound_from(expr, node)

    def bound_from(self, expr: cst.BaseExpression, node: cst.CSTNode) -> Bound | None:
        """A bound from an expression used as a count or size cap."""
        site = self.a.site(self.mod, node)
        value = self.const_int(expr)
        if value is not None:
            return Bound(site, fixed=value)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract)) and \
                self.const_int(expr.right) is not None:
            # ``fetchmany(max_rows + 1)``: one more than the cap, to tell whether more are left
            return self.bound_from(expr.left, node)
        flow = self.expr(expr)
        ps = params(flow)
        limit_ps = [p for p in ps if p.name.lower() not in cat.CONTINUATION_PARAMS] or ps
        if limit_ps:
            p = limit_ps[0]
            known = self.param_defaults.get(p.name, p)
            clamp = p.clamp if p.clamp is not None else known.clamp
            # the whole length when the limit is unset, and nothing declares another default
            unset_all = isinstance(expr, cst.Name) and expr.value in self.unset_all and \
                (known.default_none or not known.has_default)
            return Bound(
                site,
                param=p.name,
                clamp=clamp,
                default_none=known.default_none or unset_all,
                unset_all=unset_all,
                # a helper's placeholder is rebound at each call (``call_helper``)
                param_site=None if self.helper and p.site is None else known.site,
                filled=self.helper and p.site is None and p.name in self.filled_params,
            )
        if isinstance(expr, cst.Name) and expr.value in self.positions:
            return None  # ``text[:end]`` with ``end = text.find(...)``: where the data says
        if isinstance(expr, (cst.Name, cst.Attribute)):
            # a named setting we cannot evaluate (``MAX_ROWS`` from config): treat as enforced
            return Bound(site, fixed=-1)
        return None

    # -- calls --------------------------------------------------------------------------------
    def _line_match(self, value: cst.BaseExpression) -> bool:
        r"""Whether ``value`` is the match of a ``re.search`` / ``re.match`` / ``re.fullmatch``
        (directly or through a local) whose literal pattern cannot span lines: no ``re.S`` /
        ``re.DOTALL`` flag or ``(?s)``, nothing that matches a newline (``\s``, ``\W``, ``\D``,
        a negated class ``[^...]``, ``\n``: ``_SPANS_LINES``; Python Library Reference, ``re``:
        ``.`` matches anything but a newline). Its groups are pieces of one line."""
        if isinstance(value, cst.Name):
            value = self.string_nodes.get(value.value) or value
        if not isinstance(value, cst.Call) or not value.args or \
                self.mod.imports.qualify(value.func) not in ("re.search", "re.match", "re.fullmatch"):
            return False
        pattern = string_literal(value.args[0].value)
        # every name in the flags argument must be a flag that keeps ``.`` on one line: a bare
        # ``DOTALL`` imported from ``re``, or a constant holding flags, may span lines
        # (each Name, the parts of ``re.M`` included, qualified: ``re.M`` -> ``re``, ``M``)
        flags = [(self.mod.imports.qualify(n) or n.value).removeprefix("re.")
                 for a in value.args[2:] for n in walk(a.value) if isinstance(n, cst.Name)]
        return pattern is not None and not _SPANS_LINES.search(pattern) \
            and all(f in _ONE_LINE_FLAGS for f in flags)

    def call(self, node: cst.Call) -> Flow:
        """The flow of a call (``_call``); a memory buffer of the function passed to it
        (``_buffer_names``: ``MediaIoBaseDownload(buf, request)``, ``s3.download_fileobj(b, k,
        buf)``, ``img.save(buf)``, ``ftp.retrbinary(cmd, buf.write)``) then holds what the call
        writes into it: what the call gives, its receiver and its other arguments, as
        ``buf.getvalue()`` reads it."""
        out = self._call(node)
        buffers = self._buffer_names()
        if not buffers or _renders_image(node):
            # (a chart or picture rendered into the buffer, ``fig.savefig(buf, format="png")``:
            # an image of the size its dimensions set, not the data drawn)
            return out
        for arg in node.args:
            held = arg.value
            if isinstance(held, cst.Attribute) and held.attr.value == "write":
                held = held.value
            if not isinstance(held, cst.Name) or held.value not in buffers:
                continue
            written = union(out, *(self.expr(a.value) for a in node.args if a is not arg))
            if isinstance(node.func, cst.Attribute):
                written = union(written, self.expr(node.func.value))
            self.env[held.value] = union(self.env.get(held.value, EMPTY), written)
        return out

    def _buffer_names(self) -> frozenset[str]:
        """The names this function binds to a new empty memory buffer (``buf = io.BytesIO()``,
        ``with io.StringIO() as out:``), read once."""
        if self._buffers is None:
            names = set()
            for n in walk_own(self.fn.body):
                if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name) \
                        and _empty_buffer(n.value):
                    names.add(n.targets[0].target.value)
                elif isinstance(n, cst.WithItem) and n.asname is not None and isinstance(n.asname.name, cst.Name) \
                        and _empty_buffer(n.item):
                    names.add(n.asname.name.value)
            self._buffers = frozenset(names)
        return self._buffers

    def _call(self, node: cst.Call) -> Flow:
        """The flow of a call, decided by the first of these that applies: configured
        ``extra-sources``/``extra-bounds`` (``Knowledge``); the runtime's fitters (a token-budget
        bound); the catalogue's source and handle functions (``subprocess.check_output``, ``open``,
        ``requests.get``); ``list``/``sorted`` of a handle (drained), ``select()`` (a query);
        ``.get``/``.pop`` of a scalar field, of a helper's dict entry or of a record's field, and
        ``getattr``; ``len`` and token counters (a ``Measure``), ``tokenizer.encode``; ``min`` (a
        clamp), scalar builtins, ``itertools.islice``; a class of this module (an object); a library
        method (``method_call``); code run elsewhere (``run_elsewhere``); a callable a helper was
        given; a nested ``def``; a helper or method of the run (``call_helper``); a loader given a
        file (a whole read, TL102); code outside the run (``external_call``); else what the receiver
        and arguments hold."""
        func = node.func
        if self.wrapped_call is not None and isinstance(func, cst.Name) and func.value == self.wrapped_call:
            # a decorator's wrapper calling the function it wraps: what each decorated helper
            # returns (``Analyzer.decorator_wrappers``), filled in by its caller
            return frozenset({Param(WRAPPED, None)})
        qn = self.mod.imports.qualify(func)
        if qn is None and isinstance(func, cst.Name) and func.value not in self.env and self.nested(func.value) is None:
            qn = self.a.project.star_qualified(self.mod, func.value)  # ``from acme_sdk import *``
        dn = dotted_name(func)
        method = func.attr.value if isinstance(func, cst.Attribute) else None
        # (a call made up for a callable handed to a thread or a partial: placed at the real call)
        site = self.a.site(self.mod, self._synthetic_origin.get(id(node), node))
        recv = self.expr(func.value) if isinstance(func, cst.Attribute) else EMPTY
        if isinstance(func, cst.Attribute) and method in _REQUEST_BUILDERS:
            recv = self._resource_accessor(func.value, recv)
        name = (qn or dn or "").split(".")[-1]
        if method in ("json", "text", "read") and isinstance(func, cst.Attribute) and \
                dotted_name(func.value) in self.failed_responses:
            # ``if not resp.ok: return {"error": resp.json()}``: the service's error message
            self._args_flow(node)
            return EMPTY
        if dn in ("next", "max", "min") and qn in (None, dn) and node.args and \
                isinstance(node.args[0].value, cst.GeneratorExp):
            self._one_element_generators.add(id(node.args[0].value))  # one element of the generator
        first = node.args[0].value if dn == "next" and qn in (None, dn) and node.args else None
        if isinstance(first, cst.Call) and dotted_name(first.func) == "iter" and len(first.args) == 1 and \
                chain_root(first.args[0].value) not in self.element_names:
            # ``next(iter(pages.values()))``: the first element, as ``pages[0]`` (of a row, ``r``,
            # its first field is data: as ``r[0]``)
            elements = self.expr(first.args[0].value)
            return union(self.one_of(elements, node), union(*(self.expr(a.value) for a in node.args[1:])))
        if isinstance(first, cst.Call) and (hit := self.a.project.function_called(self.mod, first.func)) and \
                is_generator(hit[1]):
            # ``next(matching_lines(log, word), None)``: the first value a generator of the run yields
            return union(self.one_of(self.expr(first), node), union(*(self.expr(a.value) for a in node.args[1:])))

        # configured sources and bounds come first (user knowledge wins)
        if self.a.knowledge:
            names = [qn, dn]
            if method is not None and isinstance(func, cst.Attribute):
                owners: list[str | None] = [m.family for m in markers(recv, "object") if m.family]
                owners.append(self._chain_class(func.value))
                names += [f"{o}.{method}" for o in owners if o]
            entry = self.a.knowledge.lookup(names)
            if entry is not None and entry.kind == "source":
                self._args_flow(node)
                # (a source entry has its rule code: ``Knowledge.from_settings``)
                return frozenset({Src(cast(str, entry.code), site, f"{qn or dn}()")})
            if entry is not None:
                return apply_bound(self._args_flow(node), Bound(site, fixed=-1))

        # tokenlint.runtime fitters: pre-estimated and continued
        if name in cat.RUNTIME_FITTERS and (qn or "").startswith("tokenlint.runtime") or (
            name in cat.RUNTIME_FITTERS and qn is None and dn in cat.RUNTIME_FITTERS
        ):
            flow = self._args_flow(node)
            # (what a client's ``execute`` answered, fitted as it is: its rows, now fitted)
            flow = union(frozenset(part_of(t) for t in flow), frozenset(whole_record_sources(flow)),
                         drained(markers(flow, "cursor"), site, "fitting"))
            self.summary.runtime_fit = True
            return apply_bound(flow, Bound(site, fixed=None, tokens=True))

        if qn in cat.SOURCE_FUNCTIONS:
            code, what = cat.SOURCE_FUNCTIONS[qn]
            args = self._args_flow(node)
            if code == "TL102" and node.args and self.a.packaged_file(self.mod, self.fn, node.args[0].value):
                return EMPTY  # ``pandas.read_csv(Path(__file__).parent / "codes.csv")``: shipped with the code
            bound: SqlBound
            bound = None
            if code == "TL101":
                bound = self.sql_bound(node.args[0].value if node.args else None, args, site)
                if bound == "aggregate":
                    return EMPTY
            return frozenset({Src(code, site, what, bound)})
        if method == "create_future" or qn in cat.FUTURE_CLASSES:
            # ``future = loop.create_future()`` awaited for what a listener task sets from a worker
            # process's reply (``future.set_result(msg["result"])``): code elsewhere decides it
            self._args_flow(node)
            return frozenset({Src("TL108", site, f"a future's result, set by other code {SIZE_UNKNOWN}")})
        if qn in cat.HANDLE_FUNCTIONS or (qn is None and dn in ("open",)):
            kind = cat.HANDLE_FUNCTIONS.get(qn or "open", "file")
            if kind == "http_response":
                return self.request_response(node, site)
            self._args_flow(node)
            if kind == "file" and node.args and self.a.packaged_file(self.mod, self.fn, node.args[0].value):
                # ``open(os.path.join(os.path.dirname(__file__), "templates.json"))``: a file
                # shipped with the code, its authors' text (labelling rule 6)
                return EMPTY
            capture = True
            command: Bound | None = None
            if kind == "process":
                # run() returns text in .stdout; Popen/create_subprocess_* give streams
                capture = qn == "subprocess.run"
                command = self._command_bound(node, site)
                lines = self._command_lines(node) if command is None else []
                if lines and all(cat.acknowledging_command(line) for line in lines):
                    # ``["kubectl", "argo", "rollouts", "abort", name]``: one line per object named
                    return EMPTY
            return frozenset({Marker(kind, site, capture=capture, sql_bound=command)})

        if dn in ("list", "tuple", "sorted", "set") and qn is None and node.args:
            inner = self._args_flow(node)
            # (an object of a class of the run is no iterable of unreadable code: what it holds
            # is its fields, read where they are set)
            handles = [m for m in markers(inner)
                       if not (m.kind == "object" and m.family and self.a.project.resolve_class(m.family))]
            # (of a session registry keyed by id, ``sorted(decks)`` is its keys, nothing of data;
            # of its entries, ``list(notes.values())``, those entries)
            return union(frozenset(t for t in inner if not isinstance(t, Marker) or t.kind == "registry" and not t.keys),
                         drained(handles, site, f"{dn}()", objects=True))
        if method == "join" and isinstance(func, cst.Attribute) and \
                isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString)) and len(node.args) == 1:
            # ``"".join(fh)``, ``b"".join(proc.stdout)``: every line of the stream joined, as
            # ``list()`` drains it
            inner = self._args_flow(node)
            handles = [m for m in markers(inner) if m.kind != "object"]
            return union(inner, drained(handles, site, "join()"))
        if qn in ("sqlalchemy.select", "sqlalchemy.sql.select", "sqlmodel.select"):
            self._args_flow(node)
            return frozenset({Marker("query", site)})
        if method in ("group", "groups", "groupdict") and isinstance(func, cst.Attribute) and \
                self._line_match(func.value):
            # ``re.search(r"Writing \d+ bytes to (.*)", out).group(1)``: a piece of one line of
            # the text searched (no DOTALL: ``.`` stops at a newline), not the text
            self._args_flow(node)
            return frozenset(part_of(t) for t in scalar_of(recv))
        if method == "get" and isinstance(func, cst.Attribute) and node.args and _literal_table(self._table_of(func.value)):
            # ``REASONS.get(code.lower(), "request failed")``, ``utils.DESCRIPTIONS.get(code, "?")``:
            # one value of a module-level table of literals, whatever the key read from the data
            # (or the default)
            self._args_flow(node)
            return union(*(self.expr(a.value) for a in node.args[1:]))
        # (``conn.get("/api/v1/project", params=p)`` of an object of the run's class defining
        # ``get``: that method, followed below, not a dict's ``get``)
        own_get = method in ("get", "pop") and isinstance(func, cst.Attribute) and \
            self._project_method(func, recv, method)
        if method == "get" and isinstance(func, cst.Attribute) and node.args and not own_get and \
                small_field(string_literal(node.args[0].value) or "") and \
                not (_dict_default(node) or _list_default(node)) \
                and not (self.args_style == "mapping" and is_arguments_name(dotted_name(func.value))):
            # ``data.get("total")``: a number or a flag of the data, as ``data["total"]`` (not
            # ``data.get("host", {})``: a mapping or a list by its default, whatever its name)
            self._args_flow(node)
            return small_field_of(recv)
        key = string_literal(node.args[0].value) if method in ("get", "pop") and node.args and not own_get else None
        if key is not None and isinstance(func, cst.Attribute) and any(_rest_record(t) for t in recv):
            # (by the default's evidence only: a plural key names a number as often, ``minutes``)
            if _list_default(node):
                # ``client.get(f"/hosts/{id}").data.get("host", {}).get("software", [])``: a listing
                # a REST record read whole holds, every item (as of a JSON body)
                return union(frozenset(_record_as_body(t) for t in recv), *(self.expr(a.value) for a in node.args[1:]))
            if _dict_default(node):
                # ``.get("host", {})`` of ``GET /hosts/{id}``: a mapping by its default, the record
                # the envelope wraps or a nested one, as open-ended as the record (a field picked
                # by another singular key is one part of it: ``record["status"]``)
                return union(recv, *(self.expr(a.value) for a in node.args[1:]))
        entries = self.helper_dict_entries(func.value) if key is not None and isinstance(func, cst.Attribute) else None
        if entries is not None and key is not None:
            default = union(*(self.expr(a.value) for a in node.args[1:]))
            return union(entries.get(key, EMPTY), default)
        if key is not None and isinstance(func, cst.Attribute) and \
                any(picked_whole(t) or json_record(t) for t in recv) and not _list_default(node):
            # ``body.get("plan", {})``: one nested record of a JSON body (``field_of_body``);
            # ``body.get("search", [])``, ``.get("data")``: the listing it wraps
            pick = field_of_body(key, site)
            keep = self._field_keeper(key, recv)
            default = union(*(self.expr(a.value) for a in node.args[1:]))
            return union(frozenset(pick(keep(t) if _record_like(t) else t) for t in recv), default)
        if key is not None and isinstance(func, cst.Attribute) and any(json_record(t) for t in recv):
            default = union(*(self.expr(a.value) for a in node.args[1:]))
            return union(frozenset(listing_of(t) for t in recv), default)
        if key is not None and isinstance(func, cst.Attribute) and any(_record_like(t) for t in recv) and not (
                self.args_style == "mapping" and is_arguments_name(dotted_name(func.value))):
            # ``ticker.get("last")`` on a record read whole, or on a helper's parameter: one field,
            # as ``ticker["last"]``; its payload (``resp.get("Item")``) as large as the record (a
            # client's ``get(key)`` is not this: its marker is no record)
            keep = self._field_keeper(key, recv)
            default = union(*(self.expr(a.value) for a in node.args[1:]))
            return union(frozenset(keep(t) if _record_like(t) else t for t in recv), default)
        if key is None and method == "get" and isinstance(func, cst.Attribute) and not own_get and node.args and recv and \
                all(isinstance(t, Marker) and t.kind == "object" and t.fixed and not t.whole for t in recv):
            # ``for key in ("version", "revision"): vi.get(key, "")`` of a record of fixed fields
            # (a singleton resource, an acknowledgement): one of its small fields, whatever the key
            return union(recv, *(self.expr(a.value) for a in node.args))
        if key is None and method == "get" and isinstance(func, cst.Attribute) and not own_get and _dict_default(node) and \
                any(_record_like(t) for t in recv) and not (
                self.args_style == "mapping" and is_arguments_name(dotted_name(func.value))):
            # ``quote.get(currency, {})``: a key chosen at run time whose default is a mapping
            # picks one nested record of a record (of one picked from a JSON body, too), not a
            # call into unreadable code
            self._args_flow(node)
            return frozenset(part_of(t) if _record_like(t) else t for t in recv)
        if dn == "getattr" and qn is None and len(node.args) >= 2:
            # ``getattr(record, "source", None)``: a field of the record, as ``record.source``
            held = self.expr(node.args[0].value)
            rest = union(*(self.expr(a.value) for a in node.args[2:]))
            attr = string_literal(node.args[1].value)
            if attr is not None and (attr in cat.SCALAR_ATTRIBUTES or small_field(attr)) and \
                    not call_verb(words(attr)[0] if words(attr) else ""):
                # ``getattr(draft, "web_link", None)``: a small field, as ``draft.web_link`` (not
                # a method taken by its name: ``getattr(api, "get_by_id")``)
                held = small_field_of(held)
            return union(frozenset(part_of(t) for t in held if not isinstance(t, Marker) or t.kind == "object"), rest)
        if name == "len" and qn in (None, "len"):
            flow = self._args_flow(node)
            return measure_of(flow, tokens=any(isinstance(t, Measure) and t.tokens for t in flow))
        if cat.TOKEN_COUNTER.search(name or ""):
            return measure_of(self._args_flow(node), tokens=True)
        if method in ("encode", "decode") and isinstance(func, cst.Attribute) and \
                re.search(r"(enc|token)", (dotted_name(func.value) or ""), re.I):
            # tokenizer.encode(text): the tokens still carry the text (decode gives it back), and
            # their count is a token measure
            flow = self._args_flow(node)
            return union(flow, measure_of(flow, tokens=True)) if method == "encode" else flow
        if qn in (None, "min") and dn == "min":
            return self.min_call(node)
        if dn in cat.SCALAR_BUILTINS and qn is None:
            return self.value_scalar(self._args_flow(node), [a.value for a in node.args])
        if qn in cat.PATH_FUNCTIONS:
            # ``os.path.join(out_dir, base + ext)``, ``os.path.basename(remote)``: one path, not
            # the data of whatever gave its parts (the caller's arguments stay: an echo)
            return scalar_of(self._args_flow(node))
        if qn in ("itertools.islice",) and node.args:
            # ``islice(it, stop)``, ``islice(it, start, stop[, step])``: the stop caps, a stop of
            # None (``islice(it, start, None)``: from ``start`` on) caps nothing
            flow = self.expr(node.args[0].value)
            for a in node.args[1:]:
                self.expr(a.value)
            stop = node.args[1].value if len(node.args) == 2 else node.args[2].value if len(node.args) >= 3 else None
            if isinstance(stop, cst.Name) and stop.value == "None":
                stop = None
            bound = self.bound_from(stop, node) if stop is not None else None
            return apply_bound(flow, bound) if bound else flow

        if qn in cat.COUNT_PICKERS:
            # ``heapq.nlargest(n, rows)``, ``difflib.get_close_matches(word, names)``: at most
            # the count given, or the function's own default
            position, keyword, preset = cat.COUNT_PICKERS[qn]
            count = keyword_arg(node, keyword)
            positional = [a for a in node.args if a.keyword is None and a.star == ""]
            if count is None and position is not None and position < len(positional):
                count = positional[position].value
            flow = union(*(self.expr(a.value) for a in node.args if a.value is not count))
            bound = self.bound_from(count, node) if count is not None else \
                Bound(site, fixed=preset) if preset is not None else None
            return apply_bound(flow, bound) if bound else flow

        family: str | None  # (the qualified class of the object a call makes or is made on)
        made = self._run_class_called(func, qn)
        if made is not None:
            field_names = self._field_names(node, made)
            if field_names is not None:
                # ``Source(content=text, main_file=name)`` (a dataclass, a pydantic model), or
                # positionally in the order a dataclass or NamedTuple declares its fields: each
                # field holds what it was given, read back one by one (``s.main_file`` is the
                # name, not the text), as a dict literal's keys are
                by_field = {n: self.expr(a.value) for n, a in zip(field_names, node.args)}
                self._dict_results[id(node)] = by_field
                return self._constructed(node, site, made, union(*by_field.values()))
            if node.args and all(a.star == "**" for a in node.args) and fixed_model(self.a.project, made):
                # ``Team(**body)`` of a model of the run declaring only small fields: it keeps
                # those (pydantic drops every other key; a dataclass refuses them)
                self._args_flow(node)
                return frozenset({Marker("object", site, fixed=True, family=made)})
            return self._constructed(node, site, made, self._args_flow(node))

        if method is not None and isinstance(func, cst.Attribute) and not self._project_method(func, recv, method):
            # (a method of a class in the run is read, whatever its name: ``runner.execute(cmd)``
            # is no DB-API statement when ``runner`` is an ``Executor`` of the project)
            out = self.method_call(node, method, recv, site, dn)
            if out is not None:
                return out

        # an entry of a module-level table of the run's functions (``HANDLERS[name](args)``,
        # ``handler = HANDLERS.get(name); handler(args)``): whichever of them the key picks
        lookup = self._table_lookup(func)
        handlers = self._dispatch_table(lookup)
        if handlers:
            return union(*(self.call_helper(node, *h) for h in handlers))
        table = self._looked_up_callable(lookup)
        if table is not None:
            # ``registry[params.name](**arguments)`` of a table built at run time
            # (``{n: getattr(api, n) for n in TOOL_NAMES}``): code tokenlint cannot see, its
            # result of unknown size until shown small
            self._args_flow(node)
            return frozenset({Src("TL108", site, f"a function looked up in `{table}` {SIZE_UNKNOWN}")})

        # code run elsewhere: a thread, an executor, a partial (the callable's result comes back)
        elsewhere = self.run_elsewhere(node, qn, method)
        if elsewhere is not None:
            return elsewhere

        # a callable a helper was given (``await operation()``): it returns what the caller's
        # lambda or function returns (``call_helper`` puts it in place of the parameter)
        if isinstance(func, cst.Name) and func.value in self.env:
            given = frozenset(t for t in self.env[func.value] if isinstance(t, Param) and t.site is None)
            if given:
                # what the helper was given and passes it comes back too, as each caller fills
                # it in: ``items.append(item_constructor(item))`` over a listing the helper was
                # handed is made of each item (a lambda reading ``b["arn"]`` off its argument is
                # read with nothing bound to it), ``resource_class(**{name: items})`` of the items;
                # not an identifier (``fetch(symbol)``) nor an object made here (a handle)
                passed = frozenset(t for t in self._args_flow(node)
                                   if isinstance(t, Param) and t.site is None and not small_field(t.name))
                return union(frozenset(replace(t, called=True) for t in given), passed)

        # a local holding a method of unreadable code (``method = getattr(ns, "get_many")``)
        local_method = self.called_local(node)
        if local_method is not None:
            return local_method

        # a function defined inside this one (a closure over its locals)
        if isinstance(func, cst.Name) and func.value not in self.env:
            nested = self.nested(func.value)
            if nested is not None:
                return self.call_nested(nested, self._bind_args(node, nested))

        # helpers of this module / the run
        helper = self.resolve_helper(func)
        if helper is None and method is not None and isinstance(func, cst.Attribute):
            # a method of an object whose class is in the run (``ci = get_ci(); ci.list_jobs()``,
            # a module-level instance ``handler = CreateFileHandler()``)
            families = [obj.family for obj in markers(recv, "object") if obj.family]
            if not families:
                # a module-level instance (``handler = FileHandler()``), ``self.editor`` set in
                # the class or a base, or a chain of them (``service.attachments.names()``)
                family = self._chain_class(func.value) or self._duck_class(func.value, method)
                families = [family] if family else []
            for family in families:
                helper = self.a.family_method(family, method)
                if helper is not None:
                    break
            if helper is None and families:
                # ``adapter.get_dag_stats()`` on an abstract base (``def _get_adapter() ->
                # AirflowAdapter``): what any subclass of the run that implements it returns
                impls = [h for f in families for h in self.a.implementations(f, method)]
                if impls:
                    return union(*(self.call_helper(node, *h) for h in impls))
                declared = self._stub_result_class(families, method)
                if declared is not None:
                    # ``providers.open(name)`` of a ``Protocol`` declaring ``def open(self, name)
                    # -> Access: ...``, implemented by no class of the run: an object of the class
                    # it declares, whose fields and methods are read in turn
                    self._args_flow(node)
                    return frozenset({Marker("object", site, family=declared)})
            if helper is None and families and method in SERIALIZERS | COPIERS and \
                    all(self.a.project.resolve_class(f) for f in families):
                # a serializer a class of the run inherits from a library base (pydantic's
                # ``model_dump()``, ``json()``): it gives back what the object was made of; a
                # copy (``self.model_copy(update={"text": clean(self.text)})``) that and the
                # values it is given
                args = self._args_flow(node)
                kept = frozenset(t for t in recv if not isinstance(t, Marker) or t.whole)
                return union(kept, args) if method in COPIERS else kept
        if helper is not None:
            if method is not None and isinstance(func, cst.Attribute) and dotted_name(func.value) not in ("self", "cls"):
                # a method of an object made from data (``TextStepper(text).lines()``) may give
                # that data back, cut as the method cuts its fields (``self.cells[start:end]``)
                held = frozenset(t for t in recv if isinstance(t, Src)
                                 or (isinstance(t, Param) and t.site is None))
                if held and call_shape(method) is not Shape.SCALAR and \
                        returns_object_data(helper[0], helper[1], self.a.object_data_methods):
                    # (not a method that only finds one element: ``for root in self.roots: if
                    # ...: return root``)
                    return self.call_helper(node, *helper, self_data=held)
            elif self.self_data and method is not None and dotted_name(func) == f"self.{method}":
                # (another method of the object, called from one summarised for its data: the
                # same data, as this method's caller fills it in)
                return self.call_helper(node, *helper, self_data=frozenset({Param(SELF_DATA, None)}))
            return self.call_helper(node, *helper)

        if qn in cat.AWAITED_RESULTS:
            # ``await asyncio.gather(*(self.get_item(i) for i in ids))``: what the awaitables
            # give back, one per awaitable (objects of the run's classes kept: their methods)
            return self._args_flow(node)
        # unknown call: its result is made of its receiver and arguments (str(), json.dumps(),
        # text.strip(), pydantic models...); a file handle passed to a loader is a whole read
        args = self._args_flow(node)
        if markers(args, "file") and (qn or dn or "").split(".")[-1] in LOADERS:
            return frozenset({whole_file_read(qn or dn or "", site)})
        parsed = parsed_json_body(qn, args, site)
        if parsed is not None:
            return parsed
        external = self.external_call(node, qn, name, method, recv, args, site)
        if external is not None:
            return external
        flow = union(recv, args)
        if (qn or dn or "").rsplit(".", 1)[-1] in ("dumps", "dump", "safe_dump") and markers(args, "cursor"):
            # ``json.dumps(result)`` of what a client's ``execute`` answered (a GraphQL session's
            # data): every row of it, as when it is returned as it is (a database cursor cannot
            # be serialized: its rows are read first)
            flow = union(flow, drained(markers(args, "cursor"), site, f"{qn or dn}()"))
        # a whole record stays whole through a conversion (``str(entry)``, ``json.dumps(entry)``),
        # and so do a session registry's entries (``json.dumps(list(notes.values()))``)
        return frozenset(t for t in flow if not isinstance(t, Marker) or t.whole or t.kind == "registry")

    def _resource_accessor(self, inner: cst.BaseExpression, recv: Flow) -> Flow:
        """The receiver of a request built on a resource of an API client
        (``service.files().list(pageSize=10).execute()``, ``gmail.users().messages().list(...)``,
        the Google API discovery client's pattern): the argument-less call of code tokenlint
        cannot read that names the resource (a collection by its name, TL108) is an object whose
        methods build the request, not data; what the request returns is judged where it is
        made (``list`` capped by its page size). ``recv`` unchanged for any other receiver."""
        if not (isinstance(inner, cst.Call) and not inner.args and isinstance(inner.func, cst.Attribute)):
            return recv
        site = self.a.site(self.mod, inner)
        made = [t for t in recv if isinstance(t, Src) and t.site is site and t.code == "TL108"
                and t.what.endswith("(a collection or text)")]
        if not made or len(made) != len(recv):
            return recv
        return frozenset({Marker("object", site)})

    def _table_of(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """The module-level value a name or a module's attribute names (``REASONS`` of this
        module, ``utils.DESCRIPTIONS`` of an imported module of the run), or None for a local or
        anything else."""
        if isinstance(node, cst.Name):
            return None if node.value in self.env else module_constant(self.mod, node.value)
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value not in self.env:
            qualified = self.mod.imports.qualify(node)
            return self.a.project.find_constant(qualified) if qualified is not None else None
        return None

    def _field_names(self, node: cst.Call, made: str) -> list[str] | None:
        """The field each argument of ``node``, a construction of the run's class ``made``, sets:
        its keyword, or for a positional argument the field a ``@dataclass`` or ``NamedTuple``
        declares at that place (``dataclass_fields``); None when some argument sets no field
        known here (``*args``, ``**kwargs``, a positional one of any other class)."""
        if not node.args or any(a.star for a in node.args):
            return None
        if all(a.keyword is not None for a in node.args):
            return [cast(cst.Name, a.keyword).value for a in node.args]
        hit = self.a.project.resolve_class(made)
        declared = dataclass_fields(hit[0].classes[hit[1]]) if hit is not None else None
        if declared is None:
            return None
        names: list[str] = []
        for i, a in enumerate(node.args):
            if a.keyword is not None:
                names.append(a.keyword.value)
            elif i < len(declared):
                names.append(declared[i])
            else:
                return None
        return names

    def _run_class_called(self, func: cst.BaseExpression, qn: str | None) -> str | None:
        """The qualified class of the run a call of ``func`` constructs, else None: a class of
        this module, ``cls(...)`` in a classmethod (``return cls(total=n, issues=issues)``), or
        a class of the run imported here (``SearchResult(issues=rows)``). Its object's methods
        are read where they are called."""
        name = func.value if isinstance(func, cst.Name) else None
        if name in self.env:
            return None  # (a local holding a class or factory: ``cls = Redis if x else Cluster``)
        if name is not None and name in self.mod.classes:
            return f"{self.mod.module_name}.{name}"
        if name == "cls" and self.class_name:
            return f"{self.mod.module_name}.{self.class_name}"
        if qn is not None and qn.rsplit(".", 1)[-1][:1].isupper() and self.a.project.resolve_class(qn) is not None:
            return qn
        return None

    def _table_lookup(self, func: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression | None] | None:
        """``(table, key)`` of a called function looked up in a table: ``HANDLERS[name]``,
        ``HANDLERS.get(name)``, or a local bound to one of these (``dispatch_of``); the key None
        when it is not one plain index or argument. None when ``func`` is no lookup."""
        for _ in range(3):
            if isinstance(func, cst.Name) and func.value in self.dispatch_of:
                func = self.dispatch_of[func.value]
            else:
                break
        if isinstance(func, cst.Subscript):
            index = func.slice[0].slice if len(func.slice) == 1 else None
            return func.value, index.value if isinstance(index, cst.Index) else None
        if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute) and func.func.attr.value == "get":
            return func.func.value, func.args[0].value if func.args else None
        return None

    def _dispatch_table(self, lookup: tuple[cst.BaseExpression, cst.BaseExpression | None] | None
                        ) -> list[tuple[ParsedModule, cst.FunctionDef]]:
        """The functions of the run a call of an entry of a module-level dict literal may reach
        (``lookup``: ``_table_lookup``), when every value of that dict is a function of the run;
        else ``[]``."""
        table = lookup[0] if lookup is not None else None
        if not isinstance(table, cst.Name) or table.value in self.env:
            return []
        literal = module_constant(self.mod, table.value)
        if not isinstance(literal, cst.Dict) or not literal.elements:
            return []
        found = []
        for e in literal.elements:
            hit = self.resolve_helper(e.value) if isinstance(e, cst.DictElement) else None
            if hit is None:
                return []
            found.append(hit)
        return found

    def _looked_up_callable(self, lookup: tuple[cst.BaseExpression, cst.BaseExpression | None] | None) -> str | None:
        """The table a called function is looked up in by a key known only at run time
        (``lookup``: ``_table_lookup``; ``registry[name]``, ``handlers.get(kind)``), when the
        table is not written out in the code (a dict literal of the module or the function: its
        entries are known, ``_dispatch_table`` follows those of the run): the table's dotted
        name; else None."""
        if lookup is None or lookup[1] is None:
            return None
        table, key = lookup
        if isinstance(key, (cst.SimpleString, cst.ConcatenatedString, cst.Integer)):
            return None
        if isinstance(table, cst.Name) and (table.value in self.dict_entries or (
                table.value not in self.env and isinstance(module_constant(self.mod, table.value), cst.Dict))):
            return None  # a table written out (``{"openai": OpenAIEmbedder, ...}``): its entries are known
        return dotted_name(table)

    def init_data(self, family: str) -> Flow:
        """The data the run's class ``family`` stores on ``self`` in its ``__init__`` (a whole
        file, rows), which every object made of it holds; EMPTY for any other class."""
        found = self.a.family_method(family, "__init__")
        if found is None:
            return EMPTY
        summary = self.a.helper_summary(found[0], found[1], self.depth)
        return summary.stored if summary is not None else EMPTY

    def _project_method(self, func: cst.Attribute, recv: Flow, method: str) -> bool:
        """Whether ``<receiver>.method`` is known to be a method of a class in the run: called on
        ``self``/``cls`` of a class defining it, on an object whose class is in the run, or on a
        module-level instance or ``self.attr`` of such a class (``_chain_class``)."""
        base = dotted_name(func.value)
        if base in ("self", "cls") and self.class_name:
            return self.a.method_of(self.mod, self.class_name, method) is not None
        families = [m.family for m in markers(recv, "object") if m.family]
        if not families:
            family = self._chain_class(func.value) or self._duck_class(func.value, method)
            families = [family] if family else []
        return any(self.a.family_method(f, method) is not None for f in families)

    def helper_dict_entries(self, expr: cst.BaseExpression) -> dict[str, Flow] | None:
        """Per-key flows of the dict a helper returned, when ``expr`` is that call or a local
        still bound to it (no entry assigned since, no other value joined in); else None."""
        call = _awaited(expr)
        if isinstance(call, cst.Call):
            return self._dict_results.get(id(call))
        name = dotted_name(expr)
        bound = self.dict_results_of.get(name) if name else None
        if bound is None or self.env.get(cast(str, name)) != bound[0]:  # (bound only for a name)
            return None
        return bound[1]

    def module_collection(self, node: cst.Name) -> Flow:
        """A module-level collection read by the tool: empty at import, filled at run time (a
        dict of notes, a list loaded at start-up), so its size depends on data (TL108)."""
        held = self.a.runtime_collection(self.mod, node)
        if held is not None:
            return held
        value = module_constant(self.mod, node.value)
        if isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)):
            family = self.mod.imports.qualify(value.func)
            if family is not None and not is_stdlib(family) and family.rsplit(".", 1)[-1][:1].isupper() \
                    and self.a.project.resolve_class(family) is None:
                # ``bot = chatkit.Bot(...)`` read as a value (``bot.guilds``): a library object
                # (an instance of a class of the run is read through ``_chain_class``)
                return frozenset({Marker("object", self.a.site(self.mod, node), family=family)})
        if _constructed(value) and node.value in self.a.top_level_names(self.mod) and \
                self._chain_class(node) is not None:
            # ``catalogue = Catalogue(rows)``: an object of the run's class, with the data it was
            # made of for the methods that give it back
            return self.a.module_object_data(self.mod, node.value)
        return self.module_data(node)

    def module_data(self, node: cst.Name) -> Flow:
        """A module-level name bound at import or start-up to data read from outside
        (``DOCS = conn.execute(q).fetchall()``, ``INDEX = json.load(open(p))``, ``CACHE =
        load_all()`` in a ``lifespan``: ``Analyzer.module_data``): those sources, read where the
        tool reads the name, as if the tool had read them itself. Configuration is no data: a name
        that says so (``CONFIG``, ``settings``, ``cfg``, ``options``, ``env``: ``CONFIG_WORDS``), one
        bound to a ``...Config``/``...Settings`` object, and one short value of the set-up named by
        its last word (``API_TOKEN``, ``BASE_URL``: ``SETUP_HEAD_WORDS``) hold what the operator
        set up."""
        if node.value not in self.a.top_level_names(self.mod):
            return EMPTY
        ws = words(node.value)
        if CONFIG_WORDS & set(ws) or (ws and ws[-1] in SETUP_HEAD_WORDS):
            return EMPTY
        value = module_constant(self.mod, node.value)
        if isinstance(value, cst.Call) and (dotted_name(value.func) or "").endswith(("Config", "Settings")):
            return EMPTY
        return _held(self.a.module_data(self.mod, node.value), self.a.site(self.mod, node),
                     f"module-level `{node.value}`")



    def _command_bound(self, node: cst.Call, site: Site) -> Bound | None:
        """In a helper, the bound naming the parameter that holds the command line a process
        call runs (``create_subprocess_exec(*shlex.split(command))``, ``subprocess.run(cmd,
        shell=True)``; ``Bound.command_param``), for each caller's command to decide; else None."""
        if not self.helper or not node.args:
            return None
        first = node.args[0].value
        held = {p.name for p in params(self.expr(first)) if p.site is None}
        if len(held) > 1:
            # ``cmd = ["kubectl"] + context_args(context) + args`` (or ``[..., *args]``): the one
            # parameter spliced in whole is the command's words; the others fill in options
            held &= self._spliced_names(first)
        return Bound(site, command_param=held.pop()) if len(held) == 1 else None

    def _spliced_names(self, node: cst.BaseExpression) -> set[str]:
        """The names a list expression splices in whole: operands of a ``+`` chain and
        ``*name`` elements of a list literal, through a local of this function bound to such an
        expression (``cmd = [...] + args``)."""
        if isinstance(node, cst.Name):
            bound = self._local_values(node.value)
            return self._spliced_names(bound[0]) if bound else set()
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            out = set()
            for side in (node.left, node.right):
                out |= {side.value} if isinstance(side, cst.Name) else self._spliced_names(side)
            return out
        if isinstance(node, cst.List):
            return {e.value.value for e in node.elements if isinstance(e, cst.StarredElement)
                    and isinstance(e.value, cst.Name)}
        return set()

    def _local_values(self, name: str) -> list[cst.BaseExpression]:
        """The value of every ``name = value`` in this function's body (nested blocks too), in
        order: what a local used once at the end may hold."""
        return [a.value for a in walk(self.fn.body) if isinstance(a, cst.Assign)
                and any(isinstance(t.target, cst.Name) and t.target.value == name for t in a.targets)]

    def _command_lines(self, node: cst.Call) -> list[list[str | None]]:
        """The command lines a process call may run (``command_lines`` of its first argument),
        or the separate arguments of ``create_subprocess_exec("kubectl", "delete", ...)``."""
        if not node.args:
            return []
        lines = self.command_lines(node.args[0].value)
        if not lines and len(node.args) > 1 and all(a.keyword is None and not a.star for a in node.args):
            return [[string_literal(a.value) for a in node.args]]
        return lines

    def command_lines(self, first: cst.BaseExpression) -> list[list[str | None]]:
        """The words of each command line ``first`` may spell, None for a word not known before
        the run: a list literal; a local of this function bound to list literals, one line per
        binding (``args = ["delete", kind, name]`` in one branch, ``["get", kind]`` in another;
        options added later by ``args.extend(...)`` are not read); a string split on spaces.
        ``[]`` when unknown (a local bound to anything else)."""
        if isinstance(first, cst.Name):
            values = self._local_values(first.value)
            if not values or not all(isinstance(v, cst.List) for v in values):
                return []
            return [line for v in values for line in self.command_lines(v)]
        if isinstance(first, cst.List):
            return [[string_literal(e.value) if isinstance(e, cst.Element) else None for e in first.elements]]
        text = self.string_value(first)
        return [list[str | None](text.split())] if text is not None else []

    def _args_flow(self, node: cst.Call) -> Flow:
        return union(*(self.expr(a.value) for a in node.args))

    def value_scalar(self, flow: Flow, exprs: Iterable[cst.BaseExpression]) -> Flow:
        """A number, flag or digest made of ``flow`` (``int(n)``, ``h.hexdigest()``), whose
        operands are ``exprs``: ``scalar_of``, marking a helper's placeholder ``scalar`` (each
        caller gets a scalar of what it passes) unless an operand names an element of a loop
        (``[int(r) for r in rows]`` is one number per row: as many as the caller passes) or it is
        made in a loop (one per round, of whatever the round picked)."""
        whole = self.helper and not self.loop_accumulators and not self.comprehension_depth and not any(
            isinstance(n, cst.Name) and n.value in self.element_names for e in exprs for n in walk(e))
        return scalar_of(flow, whole_value=whole)

    def mapping_param(self, key: str, default: cst.BaseExpression | None, node: cst.CSTNode,
                      required: bool = False) -> Flow:
        """The flow of ``arguments["key"]`` (``required``) or ``arguments.get("key", default)`` in a
        low-level handler: a model-supplied ``Param`` named ``key`` at ``node``, defaulting to
        everything when ``.get`` has no default or a ``None`` one. Also recorded as a parameter
        (``param_defaults``); a None, ``False`` or ``0`` default turns off a guard it enables
        (``disabled_params``)."""
        default_none = default is None and not required or (isinstance(default, cst.Name) and default.value == "None")
        clamp = None
        p = Param(key, self.a.site(self.mod, node), default_none=default_none, has_default=default is not None, clamp=clamp)
        self.param_defaults.setdefault(key, p)
        if default_none or (isinstance(default, cst.Name) and default.value in ("False",)) or (
            isinstance(default, cst.Integer) and default.value == "0"
        ):
            self.disabled_params.add(key)
        return frozenset({p})

    def min_call(self, node: cst.Call) -> Flow:
        """``min(a, b, ...)``: what its arguments hold, every model parameter among them clamped to
        the smallest non-negative constant argument (``min(limit, 100)``: clamp 100). A named
        setting it cannot evaluate (``MAX_LIMIT`` from a config module) counts as a maximum of
        unknown value (-1), as in ``bound_from``."""
        flows = [self.expr(a.value) for a in node.args]
        consts = [self.const_int(a.value) for a in node.args]
        # a named setting we cannot evaluate (``min(limit, MAX_LIMIT)`` with ``MAX_LIMIT =
        # env_int("MAX_LIMIT", 500)``) is a maximum all the same: -1, as in ``bound_from``
        consts = [-1 if c is None and isinstance(a.value, (cst.Name, cst.Attribute)) and not params(f)
                  and dotted_name(a.value) not in self.env else c
                  for c, a, f in zip(consts, node.args, flows)]
        known = [c for c in consts if c is not None]
        out = union(*flows)
        if known and params(out):
            cap = min([c for c in known if c >= 0] or known)
            out = frozenset(Param(t.name, t.site, t.default_none, t.has_default, cap) if isinstance(t, Param) else t for t in out)
        return out


    def _clamp_statement(self, node: cst.If) -> None:
        """``if limit > 100: limit = 100`` / ``raise`` enforces a maximum on ``limit``;
        ``if len(text) > MAX: text = text[:MAX] + notice`` caps the data in ``text``."""
        for comp in _comparisons(node.test):
            if len(comp.comparisons) != 1:
                continue
            op = comp.comparisons[0].operator
            if not isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual)):
                continue
            measured = _len_arg(comp.left)
            if measured is not None and node.orelse is None and measured in self.env and any(
                isinstance(x, cst.Assign) and any(dotted_name(t.target) == measured for t in x.targets)
                for s in statements_of(node.body) if isinstance(s, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) for x in s.body
            ):
                # the branch rebinds the data when it is over the cap: after the ``if`` it is
                # within the cap (plus a notice) whichever way it went
                cap = self.const_int(comp.comparisons[0].comparator)
                bound = Bound(self.a.site(self.mod, comp), fixed=cap if cap is not None else -1)
                self.env[measured] = apply_bound(self.env[measured], bound)
                continue
            name = dotted_name(comp.left)
            cap = self.const_int(comp.comparisons[0].comparator)
            if name is None or cap is None:
                continue
            body = statements_of(node.body)
            enforces = any(
                isinstance(s, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
                and any(
                    isinstance(x, cst.Raise)
                    or (isinstance(x, cst.Assign) and any(dotted_name(t.target) == name for t in x.targets))
                    or isinstance(x, cst.Return)
                    for x in s.body
                )
                for s in body
            )
            if enforces and name in self.env:
                self.env[name] = frozenset(
                    Param(t.name, t.site, t.default_none, t.has_default, cap) if isinstance(t, Param) else t
                    for t in self.env[name]
                )
                if name in self.param_defaults:
                    p = self.param_defaults[name]
                    self.param_defaults[name] = Param(p.name, p.site, p.default_none, p.has_default, cap)


# -- module helpers ------------------------------------------------------------------------------


def _injected_family(mod: ParsedModule, param: cst.Param, ann: cst.BaseExpression | None) -> str | None:
    """The class of a parameter the framework fills in by dependency injection
    (``source.functions.injected_provider``): the class its annotation names, else the
    provider's qualified name ("injected" when it has none); None for any other parameter."""
    provider = injected_provider(param)
    if provider is None:
        return None
    family = annotation_class(mod, ann) if ann is not None else None
    if family is None and isinstance(provider, (cst.Name, cst.Attribute)):
        family = mod.imports.qualify(provider) or (
            f"{mod.module_name}.{provider.value}" if isinstance(provider, cst.Name) else None)
    return family or "injected"


def _falsy_default(default: cst.BaseExpression | None) -> bool:
    """A parameter default that turns a guard off: ``None``, ``False`` or ``0``."""
    return isinstance(default, cst.Name) and default.value in ("None", "False") or (
        isinstance(default, cst.Integer) and default.value == "0")


def _remade(outer: cst.CSTNode, inner: cst.CSTNode, name: str) -> bool:
    """Whether the body of the loop ``outer`` binds ``name`` afresh outside the loop ``inner``
    (``for chunk in chunks: found = []; while ...: found.append(x)``): then what ``inner``
    collects into it starts again each round of ``outer``."""
    if not isinstance(outer, (cst.For, cst.While)):
        return False
    for n in walk_own(outer.body, exclude=inner):
        if isinstance(n, cst.Assign) and any(dotted_name(t.target) == name for t in n.targets):
            return True
        if isinstance(n, cst.AnnAssign) and dotted_name(n.target) == name:
            return True
    return False


#: The attributes of an HTTP response that hold its status code (requests/httpx ``status_code``,
#: aiohttp ``status``) and say it succeeded (``ok``, httpx ``is_success``) or failed (``is_error``).
_STATUS_ATTRIBUTES = frozenset({"status_code", "status"})
_SUCCESS_FLAGS = frozenset({"ok", "is_success"})
_FAILURE_FLAGS = frozenset({"is_error", "is_client_error", "is_server_error"})


def _failed_response(test: cst.BaseExpression) -> tuple[str | None, bool]:
    """The response an ``if`` test checks for an HTTP failure (status 300-599, RFC 9110 section
    15), with True when the ``if`` body is the failure branch and False when its ``else`` is:
    ``resp.status_code >= 400``, ``!= 200``, ``not in (200, 201)``, ``not resp.ok``,
    ``resp.is_error`` (body); ``resp.status_code == 200``, ``< 400``, ``resp.ok`` (else).
    ``(None, True)`` for any other test."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        name, in_body = _failed_response(test.expression)
        return (name, not in_body) if name is not None else (None, True)
    if isinstance(test, cst.Attribute) and isinstance(test.value, (cst.Name, cst.Attribute)):
        if test.attr.value in _SUCCESS_FLAGS | _FAILURE_FLAGS:
            return dotted_name(test.value), test.attr.value in _FAILURE_FLAGS
        return None, True
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Attribute)
            and test.left.attr.value in _STATUS_ATTRIBUTES and isinstance(test.left.value, (cst.Name, cst.Attribute))):
        return None, True
    name = dotted_name(test.left.value)
    op = test.comparisons[0].operator
    right = test.comparisons[0].comparator
    codes = [int(e.value.value) for e in right.elements if isinstance(e.value, cst.Integer)] \
        if isinstance(right, (cst.Tuple, cst.List, cst.Set)) else \
        [int(right.value)] if isinstance(right, cst.Integer) else []
    if not codes:
        return None, True
    code = codes[0]
    success = all(200 <= c < 300 for c in codes)
    if isinstance(op, (cst.GreaterThanEqual, cst.GreaterThan)) and 299 <= code < 600:
        return name, True
    if isinstance(op, cst.LessThan) and 300 <= code <= 600:
        return name, False
    if isinstance(op, (cst.NotEqual, cst.NotIn)) and success:
        return name, True
    if isinstance(op, (cst.Equal, cst.In)) and success:
        return name, False
    if isinstance(op, (cst.Equal, cst.In)) and all(400 <= c < 600 for c in codes):
        return name, True
    return None, True


def _switch_tested(test: cst.BaseExpression) -> str | None:
    """The name an ``if`` tests for being set: ``if x:``, ``if x is not None:``, ``if x > 0:``,
    either side of ``and``; None for any other test."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _switch_tested(test.left) or _switch_tested(test.right)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        if isinstance(op, cst.IsNot) and isinstance(right, cst.Name) and right.value == "None" or \
                isinstance(op, cst.GreaterThan) and isinstance(right, cst.Integer) and right.value == "0":
            return dotted_name(test.left)
        return None
    return dotted_name(test) if isinstance(test, (cst.Name, cst.Attribute)) else None


def _picked(value: cst.BaseExpression) -> bool:
    """Whether ``value`` is a field picked from something (``x["k"]``, ``x.k``, ``x.get("k")``),
    a name or a literal: no call that makes data."""
    if isinstance(value, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float, cst.Name,
                          cst.Subscript, cst.Attribute)):
        return True
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "get"


def _record_of(value: cst.BaseExpression) -> bool:
    """Whether ``value`` makes a record of a class (``AgentResponse(results=text)``: a callee
    named in CapWords) or a dict literal."""
    if isinstance(value, cst.Dict):
        return True
    if isinstance(value, cst.Call):
        name = (dotted_name(value.func) or "").rpartition(".")[2]
        return name[:1].isupper() and not name.isupper()
    return False


def _matching_case(cases: Sequence[cst.MatchCase], value: Literal) -> cst.MatchCase | None:
    """The first case of a ``match`` whose pattern takes ``value``: a literal (or ``|`` of
    literals) equal to it, or a bare capture or ``_``; None when a pattern or guard before it
    cannot be decided (a class pattern, a guard)."""
    for case in cases:
        if case.guard is not None:
            return None
        pattern = case.pattern
        options = [p.pattern for p in pattern.patterns] if isinstance(pattern, cst.MatchOr) else [pattern]
        for option in options:
            if isinstance(option, cst.MatchAs) and option.pattern is None:
                return case
            if not isinstance(option, cst.MatchValue):
                return None
            given: Literal | None = member_token(option.value)
            if given is None:
                given = literal_value(None, option.value)
            if given is None or is_member_token(given) != is_member_token(value):
                return None
            if given == value:
                return case
    return None


def _switch_truth(test: cst.BaseExpression, values: dict[str, Literal]) -> bool | None:
    """Whether ``test`` holds when the switches ``values`` have their values (``if response_limit
    is None or response_limit <= 0:`` with ``response_limit`` 50000: False): ``not``, ``and``,
    ``or``, one comparison of a switch with a literal (``is``, ``is not``, ``==``, ``!=``, ``<``,
    ``<=``, ``>``, ``>=``), a switch alone; None when the test reads anything else, or no
    switch at all (``if DEBUG:`` is no business of the server's configuration here)."""
    if not any(isinstance(n, cst.Name) and n.value in values for n in walk(test)):
        return None
    return _truth(test, values)


def _truth(test: cst.BaseExpression, values: dict[str, Literal]) -> bool | None:
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _truth(test.expression, values)
        return None if inner is None else not inner
    if isinstance(test, cst.BooleanOperation):
        left, right = _truth(test.left, values), _truth(test.right, values)
        if isinstance(test.operator, cst.And):
            return False if left is False or right is False else (True if left and right else None)
        return True if left is True or right is True else (False if left is False and right is False else None)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        known, a = _operand(test.left, values)
        known_b, b = _operand(test.comparisons[0].comparator, values)
        if not (known and known_b):
            return None
        op = test.comparisons[0].operator
        if isinstance(op, (cst.Is, cst.IsNot)):
            same = a is None and b is None or (a is not None and b is not None and a == b and type(a) is type(b))
            return same if isinstance(op, cst.Is) else not same
        if isinstance(op, (cst.Equal, cst.NotEqual)):
            if is_member_token(a) != is_member_token(b) and a is not None and b is not None:
                return None  # (a ``str`` enum's member may equal a string)
            return (a == b) == isinstance(op, cst.Equal)
        if is_member_token(a) or is_member_token(b):
            return None
        if a is None or b is None or isinstance(a, str) != isinstance(b, str):
            return None
        compare = {cst.LessThan: lambda: a < b, cst.LessThanEqual: lambda: a <= b,  # type: ignore[operator]
                   cst.GreaterThan: lambda: a > b, cst.GreaterThanEqual: lambda: a >= b}  # type: ignore[operator]
        f = compare.get(type(op))
        return f() if f is not None else None
    if isinstance(test, cst.Name) and test.value in values:
        return bool(values[test.value])
    return None


def _operand(node: cst.BaseExpression, values: dict[str, Literal]) -> tuple[bool, Literal | None]:
    """``(known, value)`` of one side of a comparison: a switch, a literal, a class's member
    (``ToolName.GET_TABLES``: ``member_token``), or None."""
    if isinstance(node, cst.Name):
        if node.value in values:
            return True, values[node.value]
        if node.value == "None":
            return True, None
    token = member_token(node)
    if token is not None:
        return True, token
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.Name, cst.UnaryOperation)):
        v = literal_value(None, node)
        return v is not None, v
    return False, None


def _join(envs: list[dict], base: dict) -> dict:
    if len(envs) == 1:
        return envs[0]
    keys = set().union(*envs)
    return {k: union(*(e.get(k, base.get(k, EMPTY)) for e in envs)) for k in keys}


_PAGE_KEYWORD = re.compile(r"(page|token|cursor|offset|after|marker|next|start)", re.I)


def _grown_as_collection(body: cst.CSTNode, name: str) -> bool:
    """Whether ``body`` grows the local ``name`` as a collection (``name.append(...)``,
    ``name.extend(...)``, any of ``values.ACCUMULATORS``, ``name[key] = ...``) rather than
    counting with it (``name += 1``)."""
    for n in walk_own(body):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and \
                n.func.attr.value in ACCUMULATORS and dotted_name(n.func.value) == name:
            return True
        if isinstance(n, cst.Assign) and any(
                isinstance(t.target, cst.Subscript) and dotted_name(t.target.value) == name for t in n.targets):
            return True
    return False


def _pages_through(loop: cst.While) -> bool:
    """A loop that calls an API with a page token/offset it updates: it fetches every page."""
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call):
            for a in n.args:
                if a.keyword is not None and _PAGE_KEYWORD.search(a.keyword.value):
                    return True
        if isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            continue
        stack.extend(code_children(n))
    return False


def bound_names(target: cst.BaseExpression) -> set[str]:
    """The local names an assignment or loop target binds: ``x`` for ``x``; every name of a
    tuple or list target, however nested, starred ones too (``i, s`` of ``for i, s in
    enumerate(x)``, ``k, v`` of ``for k, v in d.items()``, ``a, b, rest`` of ``(a, (b, *rest))``).
    An attribute or subscript target (``self.x``, ``d[k]``) binds no local: none."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(bound_names(e.value) for e in target.elements))
    if isinstance(target, cst.StarredElement):
        return bound_names(target.value)
    return set()


def _name_assignments(stmts: Iterable[cst.CSTNode]) -> Iterator[tuple[str, cst.BaseExpression]]:
    """``(name, value)`` of each ``name = value`` among the simple statements of a block (lines
    and one-line suites), in order."""
    for stmt in stmts:
        for small in stmt.body if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                yield small.targets[0].target.value, small.value


def _none_tested(test: cst.BaseExpression) -> set[str]:
    """The names a test is true for when they are unset: ``x is None``, ``x == None``, ``not x``,
    and either side of an ``or`` (``x is None or x <= 0``)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return _none_tested(test.left) | _none_tested(test.right)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and isinstance(test.expression, cst.Name):
        return {test.expression.value}
    name = _compared_with_none(test, (cst.Is, cst.Equal))
    return {name} if name else set()


def _set_tested(test: cst.BaseExpression) -> set[str]:
    """The names a test is true for only when they are set: ``x``, ``x is not None``."""
    if isinstance(test, cst.Name):
        return {test.value}
    name = _compared_with_none(test, (cst.IsNot, cst.NotEqual))
    return {name} if name else set()


def _compared_with_none(test: cst.BaseExpression, operators: tuple[type, ...]) -> str | None:
    """The name ``test`` compares with ``None`` by one of ``operators`` (``x is None``), or None."""
    if isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.operator, operators) and dotted_name(target.comparator) == "None":
            return test.left.value
    return None


def _subexpressions(node: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in code_children(n) if isinstance(c, cst.BaseExpression))


#: Most scalar entries (a number, a flag, a short name) a collection cut at a fixed count may
#: hold and stay small: 100 entries of a few tokens each is well under Claude Code's 10,000-token
#: warning (``[p.status for p in pipelines[:10]]`` is ten words, not a truncated listing).
SMALL_SCALAR_COUNT = 100


def _length_sources(iterated: Flow, entries: Flow, records: bool = False) -> Flow:
    """The sources that make a collection built from ``iterated`` (one entry per element) grow,
    when its ``entries`` hold no data of their own: each iterated source, unless it is cut at a
    fixed count of at most ``SMALL_SCALAR_COUNT`` and the entries are scalars (not ``records``
    written out field by field: ``{"id": db["id"], "title": t, "url": db["url"]}`` for each of
    100 results is a listing cut at a fixed count, design.md's MEDIUM)."""
    scalar_entries = not records and not any(isinstance(t, Src) or (isinstance(t, Marker) and t.whole) for t in entries)
    return frozenset(t for t in iterated if isinstance(t, Src) and not (
        scalar_entries and t.bound is not None and t.bound.fixed is not None
        and 0 <= t.bound.fixed <= SMALL_SCALAR_COUNT))


def _unwrapped_iterable(node: cst.BaseExpression) -> cst.BaseExpression:
    """What a loop walks through a builtin that keeps every element (``enumerate(x)``,
    ``reversed(x)``, ``sorted(x)``, ``list(x)``, ``tuple(x)``): ``x``; ``node`` otherwise."""
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.args and \
            node.func.value in ("enumerate", "reversed", "sorted", "list", "tuple") and node.args[0].keyword is None:
        node = node.args[0].value
    return node


def _record_literal(entry: cst.BaseExpression) -> bool:
    """Whether an entry put into a collection is a record written out field by field: a dict
    literal or ``dict(...)`` of two fields or more, a tuple of two items or more."""
    if isinstance(entry, cst.Dict):
        return sum(isinstance(e, cst.DictElement) for e in entry.elements) >= 2
    if isinstance(entry, cst.Tuple):
        return len(entry.elements) >= 2
    return isinstance(entry, cst.Call) and dotted_name(entry.func) == "dict" and \
        sum(a.keyword is not None for a in entry.args) >= 2


#: Methods of str, bytes and list that return a position in the data.
_POSITION_METHODS = frozenset({"find", "rfind", "index", "rindex"})


def _length_value_of(value: cst.BaseExpression, positions: set[str]) -> bool:
    """Whether ``value`` is the length of data: ``len(text)``, or a local holding a position
    found in data (``_position_value``)."""
    if isinstance(value, cst.Name):
        return value.value in positions
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "len"


def _indexed_elements(node: cst.CSTNode) -> frozenset[tuple[str, int]]:
    """The ``(name, index)`` of every ``name[<integer>]`` in ``node`` (``parts[3]``)."""
    return frozenset(
        (n.value.value, int(n.slice[0].slice.value.value))
        for n in walk(node)
        if isinstance(n, cst.Subscript) and isinstance(n.value, cst.Name) and len(n.slice) == 1
        and isinstance(n.slice[0].slice, cst.Index) and isinstance(n.slice[0].slice.value, cst.Integer))


def _last_page_guard(left: cst.BaseExpression, operator: cst.BaseCompOp, right: cst.BaseExpression,
                     guarded: cst.CSTNode | None) -> bool:
    """Whether the comparison ends a paging loop when a page comes back short: ``if
    len(batch) < 50: break`` (or ``50 > len(batch)``), a lone ``break`` when the measured value
    is smaller than the number. It says the data ran out; it caps nothing (``if len(rows) >=
    limit: break``, measured at least the number, does cap)."""
    small = _small_statements(guarded)
    if small is None or len(small) != 1 or not isinstance(small[0], cst.Break):
        return False
    if _is_len(left):
        return isinstance(operator, (cst.LessThan, cst.LessThanEqual))
    if _is_len(right):
        return isinstance(operator, (cst.GreaterThan, cst.GreaterThanEqual))
    return False


def _small_statements(block: cst.CSTNode | None) -> list[cst.BaseSmallStatement] | None:
    """The small statements of a block (an ``if`` body) made of simple lines only, in order;
    None for a block holding a compound statement, or for no block at all."""
    if isinstance(block, cst.IndentedBlock):
        lines = list(block.body)
        if not all(isinstance(line, cst.SimpleStatementLine) for line in lines):
            return None
        return [st for line in lines for st in cast(cst.SimpleStatementLine, line).body]
    if isinstance(block, cst.SimpleStatementSuite):
        return list(block.body)
    return None


def _notes_only(guarded: cst.CSTNode | None) -> bool:
    """Whether an ``if`` body only adds a notice to the text being built: every statement
    ``text += "..."`` / ``f"..."`` or ``lines.append(f"... and {n} more")`` (a string put in).
    ``if limit < len(metrics): content += f" (showing first {limit})"`` tells the reader about a
    size; it cuts nothing, so it is no size check. (A log line under such a test is left a check:
    it goes with a cut made beside it, ``rows[:limit]``, often enough.)"""
    small = _small_statements(guarded)
    if small is None:
        return False
    texts = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)

    def note(st: cst.BaseSmallStatement) -> bool:
        if isinstance(st, cst.AugAssign):
            return isinstance(st.operator, cst.AddAssign) and isinstance(st.value, texts)
        if not (isinstance(st, cst.Expr) and isinstance(st.value, cst.Call)):
            return False
        call = st.value
        return isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" and \
            len(call.args) == 1 and isinstance(call.args[0].value, texts)
    return bool(small) and all(note(st) for st in small)


def _exceeds_only(test: cst.BaseExpression) -> bool:
    """Whether every ordering comparison of ``test`` asks whether a length is over a number
    (``len(x) > n``, ``n < len(x)``): the branch runs once there is more than that, where a notice
    of the rest belongs. ``len(log) < max_count`` asks whether there is room left, and a body
    adding to ``log`` under it is the cap itself."""
    found = False
    for comp in _comparisons(test):
        left = comp.left
        for target in comp.comparisons:
            op, right = target.operator, target.comparator
            if not isinstance(op, _ORDERINGS):
                continue
            if not ((_is_len(left) and isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual))) or
                    (_is_len(right) and isinstance(op, (cst.LessThan, cst.LessThanEqual)))):
                return False
            found = True
            left = right
    return found


def _is_len(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and dotted_name(node.func) == "len"


def _index_guard(measured: cst.BaseExpression, bound: cst.BaseExpression,
                 indexed: frozenset[tuple[str, int]], const_int: Callable[[cst.BaseExpression], int | None]) -> bool:
    """Whether ``len(x)`` compared with ``bound`` guards an element the code reads
    (``parts[3] if len(parts) > 3``): the comparison asks whether element ``bound`` (or
    ``bound - 1``) is there."""
    name = _len_arg(measured)
    n = const_int(bound)
    return name is not None and n is not None and ((name, n) in indexed or (name, n - 1) in indexed)


#: Methods of str and bytes that cut one value into pieces.
_SPLITTERS = frozenset({"split", "rsplit", "splitlines", "partition", "rpartition"})


def _pieces_value(value: cst.BaseExpression | None) -> bool:
    """Whether ``value`` cuts a string into pieces (``arn.split(":")``, ``text.splitlines()``)."""
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and \
        value.func.attr.value in _SPLITTERS


def _lines_value(value: cst.BaseExpression | None) -> bool:
    """Whether ``value`` cuts a text into lines (``_pieces_value`` at line breaks):
    ``text.splitlines()``, ``text.split("\\n")``."""
    if not _pieces_value(value):
        return False
    call = cast(cst.Call, value)
    method = cast(cst.Attribute, call.func).attr.value
    return method == "splitlines" or (method in ("split", "rsplit") and len(call.args) >= 1 and
                                      string_literal(call.args[0].value) in ("\n", "\r\n"))


def _built_records_value(value: cst.BaseExpression | None) -> bool:
    """Whether ``value`` is a list of records written out here: ``[]``, a list of dict
    literals, or a list comprehension making one dict literal per element."""
    if isinstance(value, cst.List):
        return all(isinstance(e, cst.Element) and isinstance(e.value, cst.Dict) for e in value.elements)
    return isinstance(value, cst.ListComp) and isinstance(value.elt, cst.Dict)


def _remakes(value: cst.BaseExpression | None, name: str) -> bool:
    """Whether ``value`` remakes the list ``name`` from itself (``out = sorted(out, key=...)``,
    ``out = out[:10]``, ``out = dedupe(out)``, ``out = [m for m in out if ...]``): its elements
    stay the ones it held."""
    value = _awaited(value)
    if isinstance(value, cst.Subscript):
        return isinstance(value.value, cst.Name) and value.value.value == name
    if isinstance(value, cst.ListComp):
        # (``[m for m in out if ...]``: the element kept as it is, of ``out`` itself)
        target, iterated = value.for_in.target, value.for_in.iter
        return isinstance(target, cst.Name) and isinstance(iterated, cst.Name) and iterated.value == name \
            and isinstance(value.elt, cst.Name) and value.elt.value == target.value
    return isinstance(value, cst.Call) and any(
        isinstance(a.value, cst.Name) and a.value.value == name for a in value.args)


def _position_value(value: cst.BaseExpression | None) -> bool:
    """Whether an assigned value is a position found in data: ``text.find(sep)``,
    ``lines.index(marker) + 1``, ``len(text)``, ``len(text) - 1``."""
    if isinstance(value, cst.BinaryOperation):
        return _position_value(value.left) or _position_value(value.right)
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Attribute):
        return func.attr.value in _POSITION_METHODS
    return isinstance(func, cst.Name) and func.value == "len"


def _literal_table(value: cst.BaseExpression | None) -> bool:
    """Whether ``value`` is a non-empty dict display whose every value is a literal scalar (a
    table of messages, codes or labels)."""
    return isinstance(value, cst.Dict) and bool(value.elements) and all(
        isinstance(e, cst.DictElement) and _literal_scalar(e.value) for e in value.elements)


def _literal_scalar(value: cst.BaseExpression) -> bool:
    """A literal string, number or ``True``/``False``/``None`` (a negative number included)."""
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    return isinstance(value, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)) or (
        isinstance(value, cst.Name) and value.value in ("True", "False", "None"))


@overload
def _awaited(value: cst.BaseExpression) -> cst.BaseExpression: ...
@overload
def _awaited(value: None) -> None: ...
@overload
def _awaited(value: cst.BaseExpression | None) -> cst.BaseExpression | None: ...
def _awaited(value: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """``value`` with one ``await`` taken off (None stays None)."""
    return value.expression if isinstance(value, cst.Await) else value


def _method_name(value: cst.BaseExpression | None, switches: dict) -> str | None:
    """The name of the method ``value`` takes off an object without calling it: ``client.
    list_papers``, ``getattr(client, "list_papers")``, ``getattr(client, name)`` with ``name``
    fixed by the caller (``switches``), ``list_x`` for ``getattr(client, f"list_{kind}")``, ``""``
    for a name only known at run time (``getattr(client, method)``); None for anything else."""
    if isinstance(value, cst.Attribute):
        return value.attr.value
    if isinstance(value, cst.Call) and dotted_name(value.func) == "getattr" and len(value.args) == 2:
        given = value.args[1].value
        name = string_literal(given)
        if name is None and isinstance(given, cst.Name) and isinstance(switches.get(given.value), str):
            name = switches[given.value]
        if name is None and isinstance(given, cst.FormattedString) and any(
                isinstance(p, cst.FormattedStringText) and p.value.strip("_") for p in given.parts):
            # ``getattr(client, f"list_{kind}")``: named for what its fixed words say (``list_x``)
            name = "".join(p.value if isinstance(p, cst.FormattedStringText) else "x" for p in given.parts)
        if name is None:
            return ""  # ``getattr(client, method)``: a method named at run time, of unknown shape
        return name if name.isidentifier() else None
    return None


def small_field_of(flow: Flow) -> Flow:
    """What a small field (``shapes.small_field``: ``total``, ``name``, ``created_at``) picked
    from ``flow`` gives (``x.name``, ``x["total"]``, ``x.get("name")``, ``getattr(x, "name")``):
    no data, one part of each record, and of a helper's parameter a scalar of what each caller
    passes (``Param.scalar``: ``def label(raw): return raw.get("name")`` given a whole JSON body
    is one name, not the body); of one element of a loop over the parameter or a field of it
    (``for t in tags: t.title``, ``Param.each``; ``for i in result.get("workItems", []):
    i["id"]``, ``Param.items``) one small value per element, as many as each caller passes."""
    def pick(t: Taint) -> Taint:
        if isinstance(t, Param) and t.site is None and not (t.each or t.items):
            return replace(t, scalar=True)
        # (of an element: a part of it, no longer the element, ``part_of``; a small field picked
        # from what is made of it, ``receipt.affected_count`` of ``submit(docs)``, is a scalar)
        return part_of(t)
    return frozenset(pick(t) for t in scalar_of(flow))


def _element_of(t: Taint) -> Taint:
    """What one element of an iterated ``t`` is, for a helper's placeholder (``Param``): the
    items of a field of the parameter (``for p in raw["partitions"]``: ``Param.items``), or an
    element of the parameter itself or of its payload (``for tag in tags``, ``for e in
    event.get("entries")``: ``Param.each``). Other taints are their own elements."""
    if not isinstance(t, Param) or t.site is not None:
        return t
    if t.part and not t.payload:
        return replace(t, items=True, record=False)  # (a field iterated holds a listing)
    if not (t.scalar or t.element or t.called):
        # (of the parameter itself, of its payload field, of items of a field again)
        return replace(t, each=True)
    return t


def _type_tested(fn: cst.CSTNode | None, name: str) -> bool:
    """Whether ``fn`` tests the type of its local ``name`` (``isinstance(name, ...)``,
    ``type(name)``): what it does with the value depends on what it is."""
    return fn is not None and any(
        isinstance(n, cst.Call) and dotted_name(n.func) in ("isinstance", "type") and n.args and
        isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == name for n in walk(fn))


#: Methods that render a figure or picture (matplotlib ``savefig``/``print_figure``, plotly
#: ``write_image``/``to_image``) and image formats a ``format=`` argument names (PIL ``Image.save``).
_IMAGE_RENDERERS = frozenset({"savefig", "print_figure", "print_png", "write_image", "to_image"})
_IMAGE_FORMATS = frozenset({"png", "jpeg", "jpg", "gif", "webp", "bmp", "tiff", "svg", "ico"})


def _renders_image(node: cst.Call) -> bool:
    """Whether ``node`` renders an image into what it is given: a renderer's method, or any call
    with an image format among its string arguments (``img.save(buf, format="PNG")``)."""
    if isinstance(node.func, cst.Attribute) and node.func.attr.value in _IMAGE_RENDERERS:
        return True
    return any(isinstance(a.value, cst.SimpleString) and isinstance(text := a.value.evaluated_value, str)
               and text.lower().lstrip(".") in _IMAGE_FORMATS for a in node.args)


def _empty_buffer(value: cst.BaseExpression) -> bool:
    """Whether ``value`` makes a new empty memory buffer: ``io.BytesIO()``, ``StringIO("")``."""
    if not isinstance(value, cst.Call) or (dotted_name(value.func) or "").rpartition(".")[2] not in ("BytesIO", "StringIO"):
        return False
    if not value.args:
        return True
    first = value.args[0].value
    return isinstance(first, cst.SimpleString) and first.evaluated_value in ("", b"")


def _guessed_function_result(m: Marker) -> bool:
    """Whether the ``object`` marker ``m`` is what a call of a library function whose name says
    nothing about its shape gave (``shapes.call_shape``: UNKNOWN, read as one small value until its
    use says otherwise): a function imported by name (``from box_toolkit import
    box_locate_folder_by_name``) or called on an imported library module or module-level object
    (``from kaggle import api; api.competition_leaderboard_view(c)``, ``acme_sdk.leaderboard(c)``).
    Not a method of an object, not a constructor, not the standard library's, not a numeric
    module's (``np.argsort(scores)``, whose indices the tool cuts and picks rows by)."""
    node = m.site.node
    if not isinstance(node, cst.Call):
        return False
    if isinstance(node.func, cst.Name):
        return node.func.value[:1].islower() and call_shape(node.func.value) is Shape.UNKNOWN
    if not isinstance(node.func, cst.Attribute) or not isinstance(node.func.value, cst.Name):
        return False
    attr = node.func.attr.value
    if not attr[:1].islower() or call_shape(attr) is not Shape.UNKNOWN:
        return False
    qualified = cast("ParsedModule", m.site.module).imports.qualify(node.func.value)
    return qualified is not None and not is_stdlib(qualified) and \
        qualified.split(".")[0] not in _NUMERIC_MODULES


#: Libraries whose module functions compute on arrays and frames the tool already holds.
_NUMERIC_MODULES = frozenset({"numpy", "pandas", "scipy", "torch", "polars", "sklearn", "jax", "tensorflow",
                              "statsmodels", "networkx"})


#: Last words of a field that holds another container of data rather than one value
#: (``result.page``, ``export.file``), beyond ``shapes.OPEN_FIELDS``: read off an object a call
#: named for one document gave, still that data.
_CONTAINER_FIELDS = frozenset({"page", "file", "doc", "sheet", "workbook", "folder", "directory", "dir"})

#: Attributes of an object or class that give what its class declares, not data it holds
#: (SQLAlchemy's ``__table__`` / ``__mapper__``, pydantic's ``model_fields``).
_DECLARATION_ATTRIBUTES = frozenset({"__table__", "__mapper__", "__class__", "__fields__", "model_fields",
                                     "__annotations__", "__dataclass_fields__"})


def _declared_schema(expr: cst.BaseExpression | None) -> bool:
    """Whether ``expr`` reads the fields an object's class declares, fixed by its code, not data
    it holds: an attribute chain through a dunder (``row.__table__.columns``, SQLAlchemy's
    row-to-dict idiom; ``obj.__dict__``, ``type(x).__mro__``) or pydantic's ``model_fields``."""
    while isinstance(expr, cst.Attribute):
        attr = expr.attr.value
        if (attr.startswith("__") and attr.endswith("__")) or attr in ("model_fields", "__fields__"):
            return True
        expr = expr.value
    return False


def _small_named(value: cst.BaseExpression) -> bool:
    """A variable or attribute named for one number or identifier (``url``, ``self.path``,
    ``created_at``: ``shapes.small_field``), not a call or a display."""
    name = dotted_name(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
    return name is not None and small_field(name.split(".")[-1])


def _grows_text(value: cst.BaseExpression) -> bool:
    """Whether ``x += value`` appends text or items rather than adding a number: a string or
    f-string, a list or tuple display, or a ``+`` of those (``line + "\\n"``)."""
    if isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.List,
                          cst.Tuple, cst.ListComp)):
        return True
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        return _grows_text(value.left) or _grows_text(value.right)
    return False


def _below_limit(comp: cst.Comparison) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """``(value, limit)`` of a single comparison holding while ``value`` is under ``limit``
    (``value < limit``, ``value <= limit``, ``limit > value``, ``limit >= value``); else None."""
    if len(comp.comparisons) != 1:
        return None
    op = comp.comparisons[0].operator
    left, right = comp.left, comp.comparisons[0].comparator
    if isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual)):
        return right, left
    if isinstance(op, (cst.LessThan, cst.LessThanEqual)):
        return left, right
    return None


def _comparisons(test: cst.BaseExpression) -> Iterator[cst.Comparison]:
    stack = [test]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Comparison):
            yield n
        elif isinstance(n, cst.BooleanOperation):
            stack.extend([n.left, n.right])
        elif isinstance(n, cst.UnaryOperation):
            stack.append(n.expression)


def _measures_data(value: cst.BaseExpression | None) -> bool:
    """Whether a module-level value is a size of data (``N_DOCS = len(DOCS)``), not a setting."""
    return value is not None and any(
        isinstance(n, cst.Call) and dotted_name(n.func) == "len" for n in _subexpressions(value))


def _tightest(bounds: list[Bound]) -> Bound | None:
    """The strongest of ``bounds`` (``Bound.rank``, then the smallest known value): what caps a
    count that is the least of several (``min(k, 50)``, a ``zip``)."""
    return max(bounds, key=lambda b: (b.rank(), -(b.value if b.value is not None and b.value >= 0 else 1 << 62)),
               default=None)


def _iterated_name(iterable: cst.BaseExpression) -> str | None:
    """The dotted name a loop iterates, a method call's receiver with its method (``d.keys``
    for ``d.keys()``), None for anything else."""
    return dotted_name(iterable.func if isinstance(iterable, cst.Call) else iterable)


def _index_name(key: cst.BaseExpression) -> str | None:
    """The name a subscript's key is a position of: ``idx``, ``int(idx)``, ``idx.item()``,
    ``int(idx.item())`` (a NumPy integer made a Python one); None for any other key."""
    while True:
        if isinstance(key, cst.Name):
            return key.value
        if isinstance(key, cst.Call) and len(key.args) == 1 and isinstance(key.func, cst.Name) and \
                key.func.value == "int" and key.args[0].keyword is None and not key.args[0].star:
            key = key.args[0].value
        elif isinstance(key, cst.Call) and not key.args and isinstance(key.func, cst.Attribute) and \
                key.func.attr.value == "item":
            key = key.func.value
        else:
            return None


def _sum_terms(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The terms of a sum (``size + len(x) + 1``: three), or ``[node]``."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _sum_terms(node.left) + _sum_terms(node.right)
    return [node]


def _changed_in(loop: cst.CSTNode) -> set[str]:
    """Names a loop's body (not its nested defs) assigns, adds to or mutates (``total += n``,
    ``out.append(x)``, ``for x in ...`` targets)."""
    out: set[str] = set()
    body = loop.body if isinstance(loop, (cst.For, cst.While)) else loop
    for n in walk_own(body, skip=(*SCOPES, cst.Lambda)):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.AssignTarget):
            targets.append(n.target)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            targets.append(n.target)
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute):
            targets.append(n.func.value)  # (``out.append(x)``, ``buf.write(x)``)
        for t in targets:
            root = t
            while isinstance(root, (cst.Attribute, cst.Subscript)):
                root = root.value
            out |= bound_names(root)  # (``for k, v in ...``, ``a, b = ...``: each name)
    return out


def _bound_from_each(loop: cst.For, name: str, targets: set[str]) -> bool:
    """Whether every binding of ``name`` in ``loop``'s body is a plain ``name = value`` whose value
    reads a loop target and not ``name`` itself, and nothing else there changes it."""
    values: list[cst.BaseExpression] = []
    for n in walk_own(loop.body, skip=(*SCOPES, cst.Lambda)):
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name
                                             for t in n.targets):
            if len(n.targets) != 1:
                return False
            values.append(n.value)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr)) and dotted_name(n.target) == name:
            return False
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and dotted_name(n.func.value) == name:
            return False
    if not values:
        return False
    for v in values:
        read = {x.value for x in walk(v) if isinstance(x, cst.Name)}
        if name in read or not read & targets:
            return False
    return True


def _len_arg(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Call) and dotted_name(node.func) == "len" and node.args:
        return dotted_name(node.args[0].value)
    return None


def _is_enumerate_index(target: cst.BaseExpression | None, name: str) -> bool:
    if isinstance(target, cst.Tuple) and target.elements:
        return dotted_name(target.elements[0].value) == name
    return False




def _held(flow: Flow, site: Site, holder: str) -> Flow:
    """The sources of ``flow`` (data read at start-up) as read again at ``site``, where a tool
    reads the name or attribute ``holder`` that keeps them (their findings point at the tool)."""
    return frozenset(replace(t, site=site, what=f"{t.what}, held by {holder}") for t in flow if isinstance(t, Src))


def _constructed(value: cst.BaseExpression | None) -> bool:
    """Whether ``value`` makes an object of a class (``TodoClient(token)``, ``await
    Pool.create(dsn)`` is not, ``Store(path)`` is): a CapWords callee. Such an object holds what
    it was made of (a token read from a file, a path) only to call a service or read data later,
    through its methods, which are followed where a tool calls them: it is no data itself."""
    call = _awaited(value)
    if not isinstance(call, cst.Call):
        return False
    name = dotted_name(call.func) or ""
    last = name.rsplit(".", 1)[-1]
    return last[:1].isupper() and not last.isupper()


def _may_hold_data(value: cst.BaseExpression) -> bool:
    """Whether the module-level binding ``value`` can hold data read at import: it calls something
    other than a class (``json.load(f)``, ``conn.execute(q).fetchall()``), or names, picks from or
    iterates another value (``[dict(r) for r in ROWS]``); not a literal, ``None`` or a new object
    (``_constructed``)."""
    if _constructed(value):
        return False
    for n in walk(value):
        if isinstance(n, (cst.Call, cst.Attribute, cst.Subscript, cst.ListComp, cst.SetComp, cst.DictComp,
                          cst.GeneratorExp, cst.Await)):
            return True
        if isinstance(n, cst.Name) and n.value not in ("None", "True", "False"):
            return True
    return False


def _object(value: cst.BaseExpression | None, flow: Flow) -> bool:
    """Whether a name or attribute bound to ``value`` (of flow ``flow``) holds an object rather
    than data: a new one (``_constructed``) or one of the run's classes a helper made
    (``self.corpus = corpus or get_corpus()``: an object marker), whose data its own methods and
    fields give where they are read."""
    return _constructed(value) or any(isinstance(t, Marker) and t.kind == "object" for t in flow)


def _called_method(node: cst.Call) -> str | None:
    """The name of the method of an object ``node`` calls (``new`` of ``client.feed.new(b)``);
    None for a class or a function called by its name (``Reader(f)``, ``walk(root)``) and a
    CapWords attribute (``mod.Reader(f)``). (A ``str``/``list``/``dict`` method of a value,
    ``body.get("records", [])``, is the caller's to exclude: ``values.VALUE_METHODS``.)"""
    if not isinstance(node.func, cst.Attribute) or node.func.attr.value[:1].isupper():
        return None
    return node.func.attr.value


def _lifespan_object(marker: Marker) -> bool:
    """Whether ``marker`` is the object the server's lifespan yields, as
    ``FunctionInterpreter.attribute`` makes it for ``ctx.request_context.lifespan_context``."""
    node = marker.site.node
    return marker.kind == "object" and isinstance(node, cst.Attribute) and node.attr.value == "lifespan_context"


def _lifespan_yield_class(project: Project, module: ParsedModule, fn: cst.FunctionDef) -> str | None:
    """The class of the run whose object the lifespan generator ``fn`` yields
    (``Analyzer.lifespan_class``): the item type of its return annotation (``AsyncIterator[X]``,
    ``AsyncGenerator[X, None]``, ``Iterator[X]``), else the class the yielded value is made by
    (``yield X(...)``, or a local bound once to ``X(...)``); None otherwise."""
    ann = fn.returns.annotation if fn.returns is not None else None
    if isinstance(ann, cst.Subscript) and ann.slice and isinstance(ann.slice[0].slice, cst.Index):
        made = object_class(project, module, ann.slice[0].slice.value)
        if made is not None:
            return made
    bound = {dotted_name(t.target): n.value for n in walk_own(fn.body) if isinstance(n, cst.Assign)
             for t in n.targets if isinstance(n.value, cst.Call)}
    for node in walk_own(fn.body):
        if isinstance(node, cst.Yield) and node.value is not None and not isinstance(node.value, cst.From):
            value = node.value
            if isinstance(value, cst.Name):
                value = bound.get(value.value, value)
            if isinstance(value, cst.Call):
                made = object_class(project, module, value.func)
                if made is not None:
                    return made
    return None


def is_generator(fn: cst.FunctionDef) -> bool:
    """Whether ``fn`` is a generator function: a ``yield`` (or ``yield from``) in its own body,
    not in a function, class or lambda defined there (Python language reference, "Yield
    expressions")."""
    return any(isinstance(node, cst.Yield) for node in walk_own(fn.body, (*SCOPES, cst.Lambda)))


#: The name a generator's yielded values are kept under while it is interpreted (not an
#: identifier: no local of the code can hold it).
YIELDED = "<yielded>"


def _main_guard(stmt: cst.CSTNode) -> bool:
    """Whether ``stmt`` is ``if __name__ == "__main__":`` (code run as a script, not at import)."""
    if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
        return False
    parts = [stmt.test.left, *(c.comparator for c in stmt.test.comparisons)]
    return any(isinstance(p, cst.Name) and p.value == "__name__" for p in parts)


def _module_data(analyzer: Analyzer, module: ParsedModule) -> dict[str, Flow]:
    """What the module's top-level statements bind each module-level name of ``module`` to
    (``Analyzer.module_data``): they are interpreted as the body of a function with no
    parameters. A name bound to a new object (``_constructed``) holds no data."""
    body = [s for s in module.tree.body if not isinstance(s, (cst.FunctionDef, cst.ClassDef)) and not _main_guard(s)]
    out: dict[str, Flow] = {}
    if any(isinstance(s, (cst.SimpleStatementLine, cst.If, cst.Try, cst.With)) for s in body):
        shell = cst.FunctionDef(name=cst.Name("__module__"), params=cst.Parameters(),
                                body=cst.IndentedBlock(body=cast(Sequence[cst.BaseStatement], body)))
        interp = FunctionInterpreter(analyzer, module, shell, depth=1)
        interp.run(body)
        # (a name bound to a new object keeps what it was made of under ``"<object>"`` + name:
        # ``Analyzer.module_object_data``)
        out = {name if not _object(module.constants.get(name), flow) else f"<object>{name}": flow
               for name, flow in interp.env.items() if "." not in name}
    return {name: frozenset(t for t in flow if isinstance(t, Src)) for name, flow in out.items()}


#: Standard library writers that format what they are given into a file or buffer they wrap
#: (``csv.writer(buf)``, ``csv.DictWriter(buf, fieldnames)``).
_BUFFER_WRITERS = frozenset({"csv.writer", "csv.DictWriter"})


def _csv_buffer(mod: ParsedModule, call: cst.BaseExpression | None) -> str | None:
    """The name of the file or buffer a ``csv.writer(buf)`` / ``csv.DictWriter(buf, ...)`` call
    writes into, when it is given one by name; None for any other expression."""
    if not isinstance(call, cst.Call) or not call.args or call.args[0].keyword is not None:
        return None
    if mod.imports.qualify(call.func) not in _BUFFER_WRITERS:
        return None
    return dotted_name(call.args[0].value)
