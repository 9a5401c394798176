"""A small abstract interpreter over a tool's statements: what each returned value is built from.

Flow-sensitive within a function (``text = text[:1000]`` replaces the unbounded value), joins at
branches, runs loop bodies twice so values appended in a loop reach the code after it, and
follows calls into helper functions of the same module and of other modules of the run (each
helper summarised once, with its parameters as placeholders substituted at each call).
"""

from __future__ import annotations

import builtins
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis.shapes import COLLECTION_VERBS, Shape, call_shape, is_plural, words
from tokenlint.analysis.taints import (
    EMPTY,
    Bound,
    Flow,
    Marker,
    Measure,
    Param,
    Site,
    Src,
    apply_bound,
    markers,
    measure_of,
    params,
    scalar_of,
    sources,
    union,
)
from tokenlint.imports import dotted_name
from tokenlint.walk import code_children

MAX_HELPER_DEPTH = 4

#: How a TL108 source made from a run-time collection ends its description (an element of such
#: a collection is one record; ``_one_element``).
RUNTIME_COLLECTION = "(filled at run time)"

#: Methods of database wrappers that run a query and return all of its rows.
SQL_RUNNERS = frozenset({"execute_query", "run_query", "fetch_all", "execute_sql", "run_sql",
                         "query_df", "read_sql", "fetch_query", "select_all"})

#: Functions that read a whole file object they are given.
LOADERS = frozenset({"load", "safe_load", "full_load", "unsafe_load", "reader", "DictReader",
                     "read_csv", "read_json", "parse", "loads"})

#: Methods that add their arguments to the receiver (``out.append(row)``).
ACCUMULATORS = frozenset({"append", "extend", "add", "update", "insert", "write", "writelines",
                          "appendleft", "put", "put_nowait", "setdefault"})


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

    def tuple_parts(self) -> tuple[Flow, ...] | None:
        """The flow of each position when every return is a tuple literal of one arity."""
        if self.mixed_returns or not self.tuple_returns:
            return None
        arity = len(self.tuple_returns[0])
        if any(len(t) != arity for t in self.tuple_returns):
            return None
        return tuple(union(*(t[i] for t in self.tuple_returns)) for i in range(arity))

    def returned(self) -> Flow:
        return union(*(f for _, f in self.returns))


class Analyzer:
    """Shared state of one run's analysis: interned sites, helper summaries, the project."""

    def __init__(self, project) -> None:
        self.project = project
        self._sites: dict[int, Site] = {}
        self._helpers: dict[int, Summary | None] = {}
        self._instance_collections: dict[tuple[str, str], frozenset[str]] = {}
        self._instance_attributes: dict[tuple[str, str], dict[str, str]] = {}

    def instance_collections(self, module, class_name: str) -> frozenset[str]:
        """Attributes a class's methods set to an empty collection (``self.notes = {}``): instance
        data filled at run time. Computed once per (module, class) in a run."""
        key = (module.module_name, class_name)
        if key not in self._instance_collections:
            self._instance_collections[key] = _instance_collections(module, class_name)
        return self._instance_collections[key]

    def instance_attribute_family(self, module, class_name: str, attr: str) -> str | None:
        """The qualified class of the object a method of ``class_name`` assigns to
        ``self.<attr>`` (``self.editor = TextEditor()``), or None. Computed once per class."""
        for _ in range(4):  # the class, then its bases (``self.editor`` set in ``BaseHandler``)
            key = (module.module_name, class_name)
            table = self._instance_attributes.get(key)
            if table is None:
                table = self._instance_attributes[key] = _instance_attribute_classes(module, class_name)
            if attr in table:
                return table[attr]
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

    def site(self, module, node: cst.CSTNode) -> Site:
        key = id(node)
        s = self._sites.get(key)
        if s is None or s.node is not node:
            s = Site(module, node)
            self._sites[key] = s
        return s

    def helper_summary(self, module, fn: cst.FunctionDef, depth: int) -> Summary | None:
        key = id(fn)
        if key in self._helpers:
            return self._helpers[key]
        self._helpers[key] = None  # recursion guard
        owner = next((k.split(".")[0] for k, v in module.functions.items() if v is fn and "." in k), None)
        # depth 1 whoever asks first: a summary is cached per function, so it must not depend on
        # how deep its first caller was (each function is summarised once: the work is bounded)
        interp = FunctionInterpreter(self, module, fn, depth=1, helper=True, class_name=owner)
        summary = interp.run(_body(fn))
        self._helpers[key] = summary
        return summary


def _body(fn: cst.FunctionDef) -> Sequence[cst.BaseStatement]:
    return fn.body.body if isinstance(fn.body, cst.IndentedBlock) else [fn.body]  # type: ignore[list-item]


def _block(node) -> list:
    if node is None:
        return []
    if isinstance(node, cst.IndentedBlock):
        return list(node.body)
    if isinstance(node, (cst.Else, cst.Finally)):
        return _block(node.body)
    return [node]


class _Return(Exception):
    pass


class FunctionInterpreter:
    """Interprets one function body (or a dispatch branch) into a ``Summary``.

    ``args_style`` ``"mapping"`` makes ``arguments["k"]`` / ``arguments.get("k", d)`` read as
    model-supplied parameters (low-level servers).
    """

    def __init__(
        self,
        analyzer: Analyzer,
        module,
        fn: cst.FunctionDef,
        *,
        depth: int = 0,
        helper: bool = False,
        args_style: str = "signature",
        class_name: str | None = None,
    ) -> None:
        self.a = analyzer
        self.mod = module
        self.fn = fn
        self.depth = depth
        self.helper = helper
        self.args_style = args_style
        self.class_name = class_name
        self.summary = Summary()
        self.env: dict[str, Flow] = {}
        self.strings: dict[str, str] = {}
        self.sql_of: dict[str, Bound | None] = {}
        self.param_defaults: dict[str, Param] = {}
        self.disabled_params: set[str] = set()
        self.loop_accumulators: list[set[str]] = []
        self.loop_breaks: list[list[tuple[cst.CSTNode, str]]] = []
        #: Nested defs being interpreted (recursion guard) and calls built for them (kept alive
        #: so their interned sites stay valid).
        self._active: frozenset[int] = frozenset()
        #: Locals last bound from a call's result, and the keys/values of local dicts (for
        #: ``api.list_items(**params)`` with ``params = {"maxResults": n}``).
        self.assigned_from_call: set[str] = set()
        self.dict_entries: dict[str, list[tuple[str | None, cst.BaseExpression]]] = {}
        self._synthetic: list[cst.Call] = []
        #: Per-position flows of helper calls that return tuple literals (keyed by call node id).
        self._tuple_results: dict[int, list[Flow]] = {}
        self._init_params()

    # -- parameters --------------------------------------------------------------------------
    def _init_params(self) -> None:
        ps = self.fn.params
        for p in [*ps.posonly_params, *ps.params, *ps.kwonly_params]:
            name = p.name.value
            if name in ("self", "cls"):
                continue
            default = p.default
            default_none = isinstance(default, cst.Name) and default.value in ("None",)
            clamp = None
            ann = p.annotation.annotation if p.annotation else None
            if isinstance(default, cst.Call):
                clamp = _le_of_call(default)
                dflt = _kwarg(default, "default")
                if dflt is not None:
                    default_none = isinstance(dflt, cst.Name) and dflt.value == "None"
            if ann is not None:
                clamp = clamp if clamp is not None else _le_in_annotation(ann, self)
            falsy_default = isinstance(default, cst.Name) and default.value in ("None", "False") or (
                isinstance(default, cst.Integer) and default.value == "0"
            )
            if falsy_default:
                self.disabled_params.add(name)
            if _context_param(name, ann):
                # the SDK's request context: an object (its lifespan state holds clients), not a
                # value the model supplies
                self.env[name] = frozenset({Marker("object", self.a.site(self.mod, p), family=CONTEXT_FAMILY)})
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
            else:
                self.env[name] = frozenset({param})

    # -- driver -----------------------------------------------------------------------------
    def run(self, stmts: Iterable[cst.CSTNode]) -> Summary:
        """Interpret ``stmts``; ``falls_through`` tells whether their end is reachable."""
        self.falls_through = True
        try:
            self.falls_through = self.block(stmts)
        except RecursionError:
            pass
        return self.summary

    def block(self, stmts: Iterable[cst.CSTNode]) -> bool:
        """Interpret statements; returns False when the block always leaves (return/raise)."""
        for stmt in stmts:
            if not self.stmt(stmt):
                return False
        return True

    def stmt(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.SimpleStatementLine):
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
            return self.block(_block(node.body))
        if isinstance(node, cst.Match):
            self.expr(node.subject)
            base = dict(self.env)
            envs = []
            for case in node.cases:
                self.env = dict(base)
                if self.block(_block(case.body)):
                    envs.append(self.env)
            self.env = _join(envs or [base], base)
            return True
        return True  # nested defs and classes: not part of this function's flow

    def small(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Return):
            value = node.value
            if isinstance(value, cst.Tuple) and value.elements and \
                    not any(isinstance(e, cst.StarredElement) for e in value.elements):
                parts = tuple(self.expr(e.value) for e in value.elements)
                self.summary.tuple_returns.append(parts)
                flow = union(*parts)
            else:
                flow = self.expr(value) if value is not None else EMPTY
                self.summary.mixed_returns = True
            self.summary.returns.append((self.a.site(self.mod, node), flow))
            return False
        if isinstance(node, cst.Raise):
            if node.exc is not None:
                self.expr(node.exc)
            return False
        if isinstance(node, cst.Assign):
            flow = self.expr(node.value)
            for t in node.targets:
                self.assign(t.target, flow, node.value)
        elif isinstance(node, cst.AnnAssign):
            if node.value is not None:
                self.assign(node.target, self.expr(node.value), node.value)
        elif isinstance(node, cst.AugAssign):
            flow = self.expr(node.value)
            name = dotted_name(node.target)
            if name:
                self.env[name] = union(self.env.get(name, EMPTY), flow)
                self._note_accumulation(name)
        elif isinstance(node, cst.Expr):
            self.expr(node.value)
        return True

    def assign(self, target: cst.BaseExpression, flow: Flow, value: cst.BaseExpression | None) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            call = value.expression if isinstance(value, cst.Await) else value
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
                self.dict_entries.setdefault(name, []).append((_string_lit(target.slice[0].slice.value), value))
            if name:
                self.env[name] = union(self.env.get(name, EMPTY), flow)
                self._note_accumulation(name)
            return
        name = dotted_name(target)
        if name is None:
            return
        self.env[name] = flow
        if isinstance(value, cst.Await):
            value = value.expression
        callee = self.mod.imports.qualify(value.func) if isinstance(value, cst.Call) else None
        if isinstance(value, cst.Call) and not (callee and _stdlib(callee)) and \
                not (callee is None and dotted_name(value.func) in _BUILTINS):
            self.assigned_from_call.add(name)  # a value of the standard library is no client
        else:
            self.assigned_from_call.discard(name)
        if isinstance(value, cst.Dict):
            self.dict_entries[name] = [
                (_string_lit(e.key), e.value) for e in value.elements if isinstance(e, cst.DictElement)
            ]
        text = self.string_value(value) if value is not None else None
        if text is not None:
            self.strings[name] = text
        elif name in self.strings:
            del self.strings[name]

    # -- control flow ------------------------------------------------------------------------
    def if_(self, node: cst.If) -> bool:
        self.condition(node.test)
        base = dict(self.env)
        envs = []
        if self.block(_block(node.body)):
            envs.append(self.env)
        self.env = dict(base)
        if isinstance(node.orelse, cst.If):
            falls = self.if_(node.orelse)
        elif node.orelse is not None:
            falls = self.block(_block(node.orelse))
        else:
            falls = True
        if falls:
            envs.append(self.env)
        self._clamp_statement(node)
        if not envs:
            self.env = base
            return False
        self.env = _join(envs, base)
        return True

    def for_(self, node: cst.For) -> None:
        it = self.expr(node.iter)
        elem = self.iteration(it, node)
        self.loop_accumulators.append(set())
        self.loop_breaks.append([])
        for _ in range(2):
            self.assign(node.target, elem, None)
            self.block(_block(node.body))
        accs = self.loop_accumulators.pop()
        breaks = self.loop_breaks.pop()
        self._apply_loop_breaks(accs, breaks, node, enumerate_target=node.target)
        if node.orelse is not None:
            self.block(_block(node.orelse))

    def while_(self, node: cst.While) -> None:
        self.condition(node.test)
        self.loop_accumulators.append(set())
        self.loop_breaks.append([])
        before_sources = {id(t) for f in self.env.values() for t in f}
        inner: list[Flow] = []
        for _ in range(2):
            snapshot = dict(self.env)
            self.block(_block(node.body))
            inner.extend(v for k, v in self.env.items() if snapshot.get(k) is not v)
        accs = self.loop_accumulators.pop()
        breaks = self.loop_breaks.pop()
        fetched = any(
            t for f in inner for t in f if isinstance(t, (Src, Marker)) and id(t) not in before_sources
        ) or _pages_through(node)
        if fetched and accs:
            src = Src("TL106", self.a.site(self.mod, node), "a while loop that collects every page")
            for name in accs:
                self.env[name] = union(self.env.get(name, EMPTY), frozenset({src}))
        self._apply_loop_breaks(accs, breaks, node, enumerate_target=None)

    def try_(self, node) -> bool:
        base = dict(self.env)
        envs = []
        if self.block(_block(node.body)):
            if node.orelse is not None:
                if self.block(_block(node.orelse)):
                    envs.append(self.env)
            else:
                envs.append(self.env)
        after_body = self.env
        for h in node.handlers:
            self.env = _join([base, after_body], base)
            if h.name is not None:
                self.assign(h.name.name, EMPTY, None)
            if self.block(_block(h.body)):
                envs.append(self.env)
        self.env = _join(envs, base) if envs else base
        if node.finalbody is not None:
            self.block(_block(node.finalbody))
        return bool(envs)

    def condition(self, test: cst.BaseExpression) -> None:
        """Evaluate a test for its size checks (``len(x) > LIMIT``) and its side effects."""
        disabled = self._disabled_guard(test)
        for comp in _comparisons(test):
            left = self.expr(comp.left)
            for target in comp.comparisons:
                right = self.expr(target.comparator)
                if disabled:
                    continue
                self._size_check(comp, left, right, target.comparator)
                self._size_check(comp, right, left, comp.left)
        if not list(_comparisons(test)):
            self.expr(test)

    def _disabled_guard(self, test: cst.BaseExpression) -> bool:
        """``if max_tokens and ...`` where ``max_tokens`` defaults to None/False/0: off by default."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            for side in (test.left, test.right):
                dn = dotted_name(side)
                if dn in self.disabled_params:
                    return True
        return False

    def _size_check(self, comp, measured: Flow, budget_flow: Flow, budget_node) -> None:
        ms = [t for t in measured if isinstance(t, Measure)]
        if not ms:
            return
        budget = self.const_int(budget_node)
        if budget is None:
            ps = params(budget_flow)
            if not ps:
                return
            p = self.param_defaults.get(ps[0].name)
            if p is None or ps[0].name in self.disabled_params:
                return
            if not (_limit_like(p.name) or {"budget", "chars", "tokens", "length", "bytes"} & set(words(p.name))):
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

    def _note_accumulation(self, name: str) -> None:
        for accs in self.loop_accumulators:
            accs.add(name)

    def _apply_loop_breaks(self, accs, breaks, node, enumerate_target) -> None:
        for test, _ in breaks:
            bound = self._count_break_bound(test, accs, enumerate_target)
            if bound is None:
                continue
            for name in accs:
                self.env[name] = apply_bound(self.env.get(name, EMPTY), bound)

    def _count_break_bound(self, test, accs, enumerate_target) -> Bound | None:
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
            return self.bound_from(right, comp)
        return None

    # -- expressions -------------------------------------------------------------------------
    def expr(self, node: cst.BaseExpression | None) -> Flow:
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
            self.condition(node.test)
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
        if isinstance(node, cst.Lambda):
            return EMPTY
        if isinstance(node, cst.StarredElement):
            return self.expr(node.value)
        return EMPTY

    def comprehension(self, for_in: cst.CompFor, elts, node) -> Flow:
        saved = dict(self.env)
        clause: cst.CompFor | None = for_in
        while clause is not None:
            it = self.expr(clause.iter)
            self.assign(clause.target, self.iteration(it, clause), None)
            for cond in clause.ifs:
                self.condition(cond.test)
            clause = clause.inner_for_in
        flow = union(*(self.expr(e) for e in elts))
        self.env = saved
        return flow

    def iteration(self, it: Flow, node) -> Flow:
        """The flow of one element when iterating ``it`` (a cursor or file drains a source)."""
        extra: list = []
        for m in markers(it):
            site = self.a.site(self.mod, node)
            if m.kind in ("cursor", "query", "paginator", "line_iter"):
                extra.append(Src("TL106", site, f"iterating a {m.kind.replace('_', ' ')}", m.sql_bound))
            elif m.kind == "file":
                extra.append(Src("TL102", site, "iterating every line of a file"))
            elif m.kind == "process":
                extra.append(Src("TL104", site, "iterating process output"))
        kept = frozenset(t for t in it if not isinstance(t, Marker))
        return union(kept, frozenset(extra))

    def attribute(self, node: cst.Attribute) -> Flow:
        dn = dotted_name(node)
        if dn is not None and dn in self.env:
            return self.env[dn]
        if dn is not None and dn.count(".") == 1 and dn.startswith("self.") and self.class_name:
            if node.attr.value in self.a.instance_collections(self.mod, self.class_name):
                return frozenset({Src("TL108", self.a.site(self.mod, node),
                                      f"instance collection `{dn}` {RUNTIME_COLLECTION}")})
        base = self.expr(node.value)
        attr = node.attr.value
        if attr in ("stdout", "stderr", "output"):
            procs = markers(base, "process")
            if procs:
                if procs[0].capture is False and attr != "output":
                    # Popen().stdout: a stream, read later (``.read()``, iteration)
                    return frozenset({Marker("process", procs[0].site)})
                return frozenset({Src("TL104", self.a.site(self.mod, node), f"process .{attr}")})
        if attr in ("text", "content", "body", "data") and (
            markers(base, "http_response")
            or (attr in ("text", "content") and _response_like(dotted_name(node.value))
                and not any(isinstance(t, Param) and t.site is None for t in base))
        ):
            # (a helper's ``response`` parameter is whatever each caller passes: not a body here)
            return frozenset({Src("TL105", self.a.site(self.mod, node), f"HTTP response .{attr}")})
        if attr == "objects":
            return frozenset({Marker("query", self.a.site(self.mod, node))})
        if attr in cat.SCALAR_ATTRIBUTES:
            return scalar_of(base)
        return frozenset(_part(t) for t in base if not isinstance(t, Marker) or t.kind == "object")

    def subscript(self, node: cst.Subscript) -> Flow:
        base = self.expr(node.value)
        base_name = dotted_name(node.value)
        if len(node.slice) != 1:
            return base
        sl = node.slice[0].slice
        if isinstance(sl, cst.Index):
            key = sl.value
            lit = _string_lit(key)
            if self.args_style == "mapping" and lit is not None and _is_arguments_name(base_name):
                return self.mapping_param(lit, None, node, required=True)
            self.expr(key)
            base = _one_element(base)
            # an element or field keeps its source: rows iterate into ``r``, and ``r[0]`` is data;
            # an element of a table of clients is a client
            return frozenset(_part(t) for t in base if not isinstance(t, Marker) or t.kind == "object")
        if isinstance(sl, cst.Slice):
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

    def slice_bound(self, sl: cst.Slice, node) -> Bound | None:
        upper = sl.upper
        if isinstance(upper, cst.UnaryOperation) and isinstance(upper.operator, cst.Minus) and sl.lower is None:
            return None  # x[:-1]: drops the tail, bounds nothing
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

    def bound_from(self, expr: cst.BaseExpression, node) -> Bound | None:
        """A bound from an expression used as a count or size cap."""
        site = self.a.site(self.mod, node)
        value = self.const_int(expr)
        if value is not None:
            return Bound(site, fixed=value)
        flow = self.expr(expr)
        ps = params(flow)
        limit_ps = [p for p in ps if p.name.lower() not in cat.CONTINUATION_PARAMS] or ps
        if limit_ps:
            p = limit_ps[0]
            known = self.param_defaults.get(p.name, p)
            clamp = p.clamp if p.clamp is not None else known.clamp
            return Bound(
                site,
                param=p.name,
                clamp=clamp,
                default_none=known.default_none,
                param_site=known.site,
            )
        if isinstance(expr, (cst.Name, cst.Attribute)):
            # a named setting we cannot evaluate (``MAX_ROWS`` from config): treat as enforced
            return Bound(site, fixed=-1)
        return None

    # -- calls --------------------------------------------------------------------------------
    def call(self, node: cst.Call) -> Flow:
        func = node.func
        qn = self.mod.imports.qualify(func)
        dn = dotted_name(func)
        method = func.attr.value if isinstance(func, cst.Attribute) else None
        site = self.a.site(self.mod, node)
        # configured sources and bounds come first (user knowledge wins)
        cfg = getattr(self.a, "settings", None)
        if cfg is not None and qn is not None:
            if qn in cfg.extra_sources:
                self._args_flow(node)
                return frozenset({Src(cfg.extra_sources[qn], site, f"{qn}()")})
            if qn in cfg.extra_bounds:
                flow = self._args_flow(node)
                return apply_bound(flow, Bound(site, fixed=-1))

        recv = self.expr(func.value) if isinstance(func, cst.Attribute) else EMPTY
        name = (qn or dn or "").split(".")[-1]

        # tokenlint.runtime fitters: pre-estimated and continued
        if name in cat.RUNTIME_FITTERS and (qn or "").startswith("tokenlint.runtime") or (
            name in cat.RUNTIME_FITTERS and qn is None and dn in cat.RUNTIME_FITTERS
        ):
            flow = self._args_flow(node)
            flow = union(frozenset(_part(t) for t in flow), frozenset(whole_record_sources(flow)))
            self.summary.runtime_fit = True
            return apply_bound(flow, Bound(site, fixed=None, tokens=True))

        if qn in cat.SOURCE_FUNCTIONS:
            code, what = cat.SOURCE_FUNCTIONS[qn]
            args = self._args_flow(node)
            bound = None
            if code == "TL101":
                bound = self.sql_bound(node.args[0].value if node.args else None, args, site)
                if bound == "aggregate":
                    return EMPTY
            return frozenset({Src(code, site, what, bound)})
        if qn in cat.HANDLE_FUNCTIONS or (qn is None and dn in ("open",)):
            kind = cat.HANDLE_FUNCTIONS.get(qn or "open", "file")
            self._args_flow(node)
            capture = True
            if kind == "process":
                # run() returns text in .stdout; Popen/create_subprocess_* give streams
                capture = qn == "subprocess.run"
            return frozenset({Marker(kind, site, capture=capture)})

        if dn in ("list", "tuple", "sorted", "set") and qn is None and node.args:
            inner = self._args_flow(node)
            drained = []
            for m in markers(inner):
                if m.kind in ("query", "cursor"):
                    drained.append(Src("TL101", site, f"{dn}() of a query result", m.sql_bound))
                elif m.kind == "paginator":
                    drained.append(Src("TL101", site, f"{dn}() of a paginated API listing"))
                elif m.kind == "line_iter":
                    drained.append(Src("TL106", site, f"{dn}() of a line stream"))
                elif m.kind == "file":
                    drained.append(Src("TL102", site, f"{dn}() of every line of a file"))
            return union(frozenset(t for t in inner if not isinstance(t, Marker)), frozenset(drained))
        if qn in ("sqlalchemy.select", "sqlalchemy.sql.select", "sqlmodel.select"):
            self._args_flow(node)
            return frozenset({Marker("query", site)})
        if name == "len" and qn in (None, "len"):
            flow = self._args_flow(node)
            return measure_of(flow, tokens=any(isinstance(t, Measure) and t.tokens for t in flow))
        if cat.TOKEN_COUNTER.search(name or ""):
            return measure_of(self._args_flow(node), tokens=True)
        if method in ("encode", "decode") and re.search(r"(enc|token)", (dotted_name(func.value) or ""), re.I):
            # tokenizer.encode(text): the tokens still carry the text (decode gives it back), and
            # their count is a token measure
            flow = self._args_flow(node)
            return union(flow, measure_of(flow, tokens=True)) if method == "encode" else flow
        if qn in (None, "min") and dn == "min":
            return self.min_call(node)
        if dn in cat.SCALAR_BUILTINS and qn is None:
            return scalar_of(self._args_flow(node))
        if qn in ("itertools.islice",) and node.args:
            flow = self.expr(node.args[0].value)
            stop = node.args[-1].value if len(node.args) >= 2 else None
            bound = self.bound_from(stop, node) if stop is not None else None
            return apply_bound(flow, bound) if bound else flow

        if method is not None:
            out = self.method_call(node, method, recv, site, dn)
            if out is not None:
                return out

        # code run elsewhere: a thread, an executor, a partial (the callable's result comes back)
        elsewhere = self.run_elsewhere(node, qn, method)
        if elsewhere is not None:
            return elsewhere

        # a callable a helper was given (``await operation()``): it returns what the caller's
        # lambda or function returns (``call_helper`` puts it in place of the parameter)
        if isinstance(func, cst.Name) and func.value in self.env:
            given = frozenset(t for t in self.env[func.value] if isinstance(t, Param) and t.site is None)
            if given:
                self._args_flow(node)
                return given

        # a function defined inside this one (a closure over its locals)
        if isinstance(func, cst.Name) and func.value not in self.env:
            nested = _nested_def(self.fn, func.value)
            if nested is not None:
                return self.call_nested(nested, self._bind_args(node, nested))

        # helpers of this module / the run
        helper = self.resolve_helper(func)
        if helper is None and method is not None:
            # a method of an object whose class is in the run (``ci = get_ci(); ci.list_jobs()``,
            # a module-level instance ``handler = CreateFileHandler()``)
            families = [obj.family for obj in markers(recv, "object") if obj.family]
            if not families:
                # a module-level instance (``handler = FileHandler()``), ``self.editor`` set in
                # the class or a base, or a chain of them (``service.attachments.names()``)
                family = self._chain_class(func.value)
                families = [family] if family else []
            for family in families:
                helper = self.a.project.find_function(f"{family}.{method}")
                if helper is not None:
                    break
        if helper is not None:
            out = self.call_helper(node, *helper)
            if method is not None and dotted_name(func.value) not in ("self", "cls"):
                # a method of an object made from data (``TextStepper(text).lines()``) may give
                # that data back: the object's own fields are not traced
                held = frozenset(t for t in recv if isinstance(t, Src)
                                 or (isinstance(t, Param) and t.site is None))
                if held and call_shape(method) is not Shape.SCALAR:
                    out = union(out, held)
            return out

        # unknown call: its result is made of its receiver and arguments (str(), json.dumps(),
        # text.strip(), pydantic models...); a file handle passed to a loader is a whole read
        args = self._args_flow(node)
        if markers(args, "file") and (qn or dn or "").split(".")[-1] in LOADERS:
            return frozenset({Src("TL102", site, f"{qn or dn}() of a whole file")})
        external = self.external_call(node, qn, name, method, recv, args, site)
        if external is not None:
            return external
        flow = union(recv, args)
        return frozenset(t for t in flow if not isinstance(t, Marker))

    # -- code tokenlint cannot see into ---------------------------------------------------------
    def external_call(self, node: cst.Call, qn: str | None, name: str, method: str | None,
                      recv: Flow, args: Flow, site: Site) -> Flow | None:
        """The result of a call into code tokenlint cannot read (an SDK client, a library), or
        None when the call is not one (a builtin, the standard library, a transformation of data
        the tool already holds, a method of a local value).

        Unknown size until shown small (the "Analysis" direction): SQL text or a caller's query
        makes rows (TL101); otherwise ``shapes.call_shape`` judges the name: a collection or an
        unknown shape is a TL108 source (bounded by a limit-like argument, if any); one record or
        a handle becomes an ``object`` marker (its methods are external calls too) and is noted
        in ``Summary.untraced``; a scalar is nothing.
        """
        func = node.func
        name = method or name
        if method is not None:
            assert isinstance(func, cst.Attribute)
            objects = markers(recv, "object")
            if not objects and recv and all(isinstance(t, Src) and t.what.endswith(_SIZE_UNKNOWN) for t in recv):
                # ``Query(q).sort_by("score").paging(0, k)``: a value of unknown shape that gets
                # methods called on it was an object (a builder), not data
                objects = [Marker("object", site)]
            if objects:
                family = objects[0].family
            elif any(isinstance(t, (Src, Measure)) for t in recv):
                return None  # a method of data the tool holds: a transformation (rows.to_dict())
            elif params(recv):
                # a helper's parameter may hold a client (``def list_tables(db): db.query()``);
                # a value the model supplies is text or a number (``query.strip()``), and so is
                # what the standard library makes of it (``datetime.strptime(s, f).date()``)
                if method in _VALUE_METHODS or any(p.site is not None for p in params(recv)):
                    return None
                root = _chain_root(func.value)
                if root in self.mod.imports.names and _stdlib(self.mod.imports.names[root]):
                    return None
                family = None
            else:
                root_family = self._external_root(func.value, method)
                if root_family is None:
                    return None
                if root_family and any(isinstance(t, Src) for t in args) and \
                        (dotted_name(func.value) or "").split(".")[0] in self.mod.imports.names:
                    return None  # a utility of a library applied to data the tool holds
                family = root_family or None
        else:
            if qn is None and isinstance(func, cst.Name) and func.value in self.env and not self.env[func.value]:
                # a class or factory held in a local (``cls = Redis if x else Cluster; cls(...)``)
                self.summary.untraced.append(f"{func.value}()")
                return _made_object(site, None, args)
            if qn is None or _stdlib(qn):
                return None
            if any(isinstance(t, Src) for t in args):
                return None  # a function of data the tool holds: a formatter (tabulate(rows))
            family = qn
        if family == CONTEXT_FAMILY and method is not None and (
                method in _CONTEXT_SMALL or method.startswith(("send_", "report_", "log"))):
            return EMPTY  # ``ctx.info(...)``, ``ctx.report_progress(...)``: a notification
        callee = f"{dotted_name(func) or '….' + name}()"
        shape = call_shape(name)
        sql = self._external_sql(node, name, shape, site)
        if sql is not None:
            return sql
        owner = (dotted_name(func.value) or "").split(".")[-1] if isinstance(func, cst.Attribute) else ""
        if _CONSTRUCTOR_NAME.search(name) or (owner[:1].isupper() and _ALT_CONSTRUCTOR.match(name)):
            # ``spec.fetcher_class(...)``, ``Model.model_validate(data)``, ``Cfg.from_env()``
            self.summary.untraced.append(callee)
            return _made_object(site, family, args)
        if shape is Shape.UNKNOWN and (method is None or _module_function(func, self.mod)):
            shape = Shape.RECORD  # a library function of scalars (``humanize.naturaldelta(d)``)
        if method is not None and shape is not Shape.SCALAR and name in _ELEMENT_VERBS and is_plural(owner.lower()):
            # ``client.containers.get(id)``, ``.run(...)``: one element of a plural collection
            shape = Shape.RECORD
        if shape is Shape.SCALAR:
            self.summary.untraced.append(callee)
            return EMPTY
        # a request builder capped on the way (``Query(q).paging(0, k).dialect(2)``,
        # ``client.limit(20)``): the cap travels with the object to the call that fetches
        carried = [m.sql_bound for m in markers(recv, "object") if m.sql_bound is not None]
        if method in _LIMIT_METHODS and node.args:
            cap = self.bound_from(node.args[-1].value, node)
            if cap is not None:
                return frozenset({Marker("object", site, family=family, sql_bound=cap)})
        if carried and not (shape is Shape.COLLECTION and words(name)[:1] and words(name)[0] in COLLECTION_VERBS):
            # (``.return_fields("id", "score")`` configures the builder; ``.search()`` fetches)
            return frozenset({Marker("object", site, family=family, sql_bound=max(carried, key=Bound.rank))})
        if shape is Shape.RECORD:
            self.summary.untraced.append(callee)
            if name[:1].isupper():  # a constructor keeps what it is given: Model(items=rows)
                return _made_object(site, family, args)
            read = bool(words(name)) and words(name)[0] in _RECORD_READS
            return frozenset({Marker("object", site, family=family, whole=read)})
        what = f"{callee} {_SIZE_UNKNOWN if shape is Shape.UNKNOWN else '(a collection or text)'}"
        src = Src("TL108", site, what)
        bound = self._argument_bound(node)
        for b in carried:
            bound = b if bound is None or b.rank() > bound.rank() else bound
        return frozenset({src.with_bound(bound) if bound else src})

    def _chain_class(self, expr: cst.BaseExpression, depth: int = 0) -> str | None:
        """The qualified project class of the object ``expr`` names, when the code says it:
        ``self`` in a method, a module-level ``name = Cls(...)``, or ``<object>.attr`` where a
        method of the object's class (or a base) sets ``self.attr = Cls(...)``; else None."""
        if depth > 4:
            return None
        if isinstance(expr, cst.Name):
            n = expr.value
            if n == "self" and self.class_name:
                return f"{self.mod.module_name}.{self.class_name}"
            if n in self.env:
                return None
            value = _module_constant(self.mod, n)
            if isinstance(value, cst.Call):
                callee = dotted_name(value.func)
                if callee in self.mod.classes:
                    return f"{self.mod.module_name}.{callee}"
                return self.mod.imports.qualify(value.func)
            return None
        if isinstance(expr, cst.Attribute):
            owner = self._chain_class(expr.value, depth + 1)
            found = self.a.project.resolve(owner) if owner else None
            if found is None or found[1] not in found[0].classes:
                return None
            return self.a.instance_attribute_family(found[0], found[1], expr.attr.value)
        return None

    def _external_root(self, expr: cst.BaseExpression, method: str | None = None) -> str | None:
        """Whether the object a method is called on comes from outside the tool's own values:
        returns its family (a qualified name, or ``""`` when unknown) or None when it is a
        local value, a literal, or a standard-library module."""
        node = expr
        while isinstance(node, (cst.Attribute, cst.Call, cst.Subscript, cst.Await)):
            if isinstance(node, cst.Call):
                node = node.func
            elif isinstance(node, cst.Await):
                node = node.expression
            else:
                node = node.value
        if not isinstance(node, cst.Name):
            return None  # a literal: "sep".join(...), [..].count()
        n = node.value
        if n in self.env:
            objs = markers(self.env[n], "object")
            if objs:
                return objs[0].family or ""
            # a local we could not trace to a value (``r = Manager.get_connection()``) is an
            # object when a method other than a str/list/dict one is called on it
            if self.env[n] or method in _VALUE_METHODS or n not in self.assigned_from_call:
                return None
            return ""
        if n in ("self", "cls"):
            return ""
        if n in self.mod.imports.names:
            qn = self.mod.imports.names[n]
            return None if _stdlib(qn) else qn
        value = _module_constant(self.mod, n)
        if value is None:
            # a builtin, or a global bound elsewhere (``_client: Client`` set in ``main()``)
            return None if n in _BUILTINS else ""
        if isinstance(value, cst.Call):
            return self.mod.imports.qualify(value.func) or dotted_name(value.func) or ""
        return None  # a module-level literal (a constant table)

    def _external_sql(self, node: cst.Call, name: str, shape: Shape, site: Site) -> Flow | None:
        """SQL (or Cypher) through any receiver: ``client.query("SELECT ...")`` returns rows;
        a caller-supplied query returns whatever it selects; a write statement a counter."""
        sql_node = None
        for a in node.args:
            if a.keyword is None or a.keyword.value in _QUERY_KEYWORDS:
                sql_node = a.value
                break
        if sql_node is None:
            return None
        text = self.string_value(sql_node)
        if text is not None:
            if not cat.looks_like_sql(text):
                return None
            if cat.SQL_WRITE.match(text):
                return EMPTY
            argflow = self._args_flow(node)
            bound = self.sql_bound(sql_node, argflow, site)
            if bound == "aggregate":
                return EMPTY
            return frozenset({Src("TL101", site, f".{name}() of `{text.strip()[:40]}`", bound)})
        ps = params(self.expr(sql_node))
        if ps and any(p.name.lower() in _QUERY_KEYWORDS for p in ps) and shape is not Shape.RECORD \
                and not {"search", "find", "lookup", "match"} & set(words(name)):
            return frozenset({Src("TL101", site, f".{name}() of a caller-supplied query")})
        return None

    def _argument_bound(self, node: cst.Call) -> Bound | None:
        """The strongest count cap among a call's arguments: a limit-like keyword
        (``max_results=50``, ``limit=limit``) or a limit-like parameter passed positionally."""
        best: Bound | None = None
        pairs: list[tuple[str | None, cst.BaseExpression, bool]] = []
        for a in node.args:
            if a.star == "**":
                for key, value in self.dict_entries.get(dotted_name(a.value) or "", []):
                    pairs.append((key, value, True))
            elif a.star == "":
                pairs.append((a.keyword.value if a.keyword is not None else None, a.value, a.keyword is not None))
        for kw, value, named in pairs:
            b = None
            built = [m.sql_bound for m in markers(self.expr(value), "object") if m.sql_bound is not None]
            if built:  # a capped request object passed in (``index.search(query)``)
                b = max(built, key=Bound.rank)
            elif named:
                if kw is not None and kw.replace("_", "").lower() in _LIMIT_KEYWORDS:
                    b = self.bound_from(value, node)
            else:
                ps = params(self.expr(value))
                if ps and all(_limit_like(p.name) for p in ps):
                    b = self.bound_from(value, node)
            if b is not None and (best is None or b.rank() > best.rank()):
                best = b
        return best

    def module_collection(self, node: cst.Name) -> Flow:
        """A module-level collection read by the tool: empty at import, filled at run time (a
        dict of notes, a list loaded at start-up), so its size depends on data (TL108)."""
        value = _module_constant(self.mod, node.value)
        if value is not None and _empty_collection(value):
            return frozenset({Src("TL108", self.a.site(self.mod, node),
                                  f"module-level collection `{node.value}` {RUNTIME_COLLECTION}")})
        return EMPTY

    def run_elsewhere(self, node: cst.Call, qn: str | None, method: str | None) -> Flow | None:
        """``anyio.to_thread.run_sync(fn, *a)``, ``asyncio.to_thread(fn, *a)``,
        ``loop.run_in_executor(None, fn, *a)``, ``executor.submit(fn, *a)``,
        ``functools.partial(fn, *a)``: the result is what ``fn`` returns (a lambda's body, a
        nested def over this function's locals, or a helper)."""
        tail = (qn or "").split(".")[-1] if qn else method
        if tail not in _ELSEWHERE:
            return None
        index = 1 if tail == "run_in_executor" else 0
        if len(node.args) <= index:
            return None
        target = node.args[index].value
        rest = node.args[index + 1:]
        if isinstance(target, cst.Lambda):
            return self.expr(target.body)
        if isinstance(target, cst.Name) and target.value not in self.env:
            nested = _nested_def(self.fn, target.value)
            if nested is not None:
                call = cst.Call(func=target, args=rest)
                return self.call_nested(nested, self._bind_args(call, nested))
        helper = self.resolve_helper(target) if isinstance(target, (cst.Name, cst.Attribute)) else None
        if helper is not None:
            call = node.with_changes(func=target, args=rest)
            self._synthetic.append(call)
            return self.call_helper(call, *helper)
        if isinstance(target, (cst.Name, cst.Attribute)):
            call = node.with_changes(func=target, args=rest)
            self._synthetic.append(call)
            return self.call(call)
        return None

    def call_nested(self, fn: cst.FunctionDef, arg_flows: dict[str, Flow]) -> Flow:
        """Interpret a function defined inside this one, over this function's current locals
        (a closure), with its parameters bound to ``arg_flows``."""
        if self.depth > MAX_HELPER_DEPTH or id(fn) in self._active:
            return union(*arg_flows.values())
        sub = FunctionInterpreter(self.a, self.mod, fn, depth=self.depth + 1, helper=self.helper,
                                  args_style=self.args_style, class_name=self.class_name)
        sub.env = {**self.env, **{k: v for k, v in sub.env.items() if k not in self.env}}
        for k in sub.param_defaults:
            sub.env[k] = arg_flows.get(k, EMPTY)
        sub.strings = dict(self.strings)
        sub.param_defaults = {**self.param_defaults, **sub.param_defaults}
        sub._active = self._active | {id(fn)}
        summary = sub.run(_body(fn))
        self._merge(summary)
        return summary.returned()

    def _merge(self, summary: Summary, arg_flows: dict[str, Flow] | None = None) -> None:
        for check in summary.checks:
            if check.measured_params and arg_flows is not None:
                # ``def fit(text, max_chars): if len(text) > max_chars`` measures what is passed
                passed = union(*(arg_flows.get(n, EMPTY) for n in check.measured_params))
                sites = frozenset(t.site for t in passed if isinstance(t, Src))
                sites |= frozenset(s for t in passed if isinstance(t, Measure) for s in t.sites)
                names = frozenset(t.name for t in passed if isinstance(t, Param) and t.site is None)
                check = replace(check, measured=check.measured | sites, measured_params=names)
            p = check.caller_param
            if p is not None and p.site is None and arg_flows is not None:
                # a helper's size check against its parameter: the budget is what this call
                # passes; a tool parameter stays the model's choice unless it was clamped
                passed = params(arg_flows.get(p.name, EMPTY))
                known = self.param_defaults.get(passed[0].name, passed[0]) if passed else None
                if known is None:
                    check = replace(check, caller_param=None)  # a constant or configured budget
                elif known.clamp is not None or passed[0].clamp is not None:
                    check = replace(check, caller_param=None, budget=known.clamp or passed[0].clamp)
                else:
                    check = replace(check, caller_param=known if not self.helper else Param(known.name, None))
            self.summary.checks.append(check)
        self.summary.runtime_fit |= summary.runtime_fit
        self.summary.untraced.extend(summary.untraced)

    def _args_flow(self, node: cst.Call) -> Flow:
        return union(*(self.expr(a.value) for a in node.args))

    def mapping_param(self, key: str, default: cst.BaseExpression | None, node, required=False) -> Flow:
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
        flows = [self.expr(a.value) for a in node.args]
        consts = [self.const_int(a.value) for a in node.args]
        known = [c for c in consts if c is not None]
        out = union(*flows)
        if known and params(out):
            cap = min(known)
            out = frozenset(Param(t.name, t.site, t.default_none, t.has_default, cap) if isinstance(t, Param) else t for t in out)
        return out

    def method_call(self, node: cst.Call, method: str, recv: Flow, site: Site, dn: str | None) -> Flow | None:
        args = node.args
        recv_name = dotted_name(node.func.value) if isinstance(node.func, cst.Attribute) else None

        if self.args_style == "mapping" and method == "get" and args and _is_arguments_name(recv_name):
            key = _string_lit(args[0].value)
            if key is not None:
                default = args[1].value if len(args) > 1 else None
                return self.mapping_param(key, default, node)

        if recv_name is not None and recv_name.split(".")[-1] == "git" and method not in cat.SCALAR_METHODS:
            # GitPython: ``repo.git.log(...)`` runs the git command and returns its whole stdout
            self._args_flow(node)
            return frozenset({Src("TL104", site, f"git {method} output (GitPython)")})
        if method in SQL_RUNNERS and args:
            first = args[0].value
            text = self.string_value(first)
            argflow = self._args_flow(node)
            user_sql = text is None and any(p.name.lower() in ("query", "sql", "statement") for p in params(self.expr(first)))
            if (text is not None and cat.looks_like_sql(text)) or user_sql:
                bound = self.sql_bound(first, argflow, site) if text is not None else None
                if bound == "aggregate":
                    return EMPTY
                return frozenset({Src("TL101", site, f".{method}()", bound)})
        if method in ("read_text", "read_bytes"):
            return frozenset({Src("TL102", site, f".{method}()")})
        if method in ("iterdir", "rglob") or (method in ("glob", "walk") and not markers(recv)):
            self._args_flow(node)
            return frozenset({Src("TL103", site, f".{method}()")})
        if method == "readlines":
            code = "TL104" if markers(recv, "process") else "TL102"
            return frozenset({Src(code, site, ".readlines()")})
        if method == "read":
            kinds = {m.kind for m in markers(recv)}
            if kinds & {"file", "http_response", "process"} or not recv:
                code = "TL105" if "http_response" in kinds else "TL104" if "process" in kinds else "TL102"
                if not kinds and not _file_like(recv_name):
                    return None
                bound = self.bound_from(args[0].value, node) if args else None
                if bound is not None and bound.fixed == -1 and isinstance(args[0].value, cst.UnaryOperation):
                    bound = None
                src = Src(code, site, ".read()")
                return frozenset({src.with_bound(bound) if bound else src})
        if method == "communicate":
            return frozenset({Src("TL104", site, ".communicate()")})
        if method in ("json",) and not args:
            return frozenset({Src("TL105", site, "HTTP response .json()")})
        if method in ("text",) and markers(recv, "http_response"):
            return frozenset({Src("TL105", site, "HTTP response .text()")})
        if method in ("iter_lines", "iter_content", "aiter_lines", "aiter_bytes", "iter_text"):
            return frozenset({Marker("line_iter", site)})
        if method in cat.HTTP_METHODS and (markers(recv, "http_client") or _client_like(recv_name)):
            self._args_flow(node)
            return frozenset({Marker("http_response", site)})
        if method in ACCUMULATORS and recv_name is not None:
            flow = self._args_flow(node)
            self.env[recv_name] = union(self.env.get(recv_name, EMPTY), frozenset(t for t in flow if not isinstance(t, Marker)))
            self._note_accumulation(recv_name)
            return EMPTY
        if method == "fetchall":
            bound = None
            curs = markers(recv, "cursor")
            if curs:
                bound = curs[0].sql_bound
            if bound is None and recv_name in self.sql_of:
                bound = self.sql_of[recv_name]  # ``cur = conn.cursor(); cur.execute(sql)``
            if bound == "aggregate":
                return EMPTY
            return frozenset({Src("TL101", site, ".fetchall()", bound)})
        if method == "fetchmany":
            bound = self.bound_from(args[0].value, node) if args else Bound(site, fixed=1)
            return frozenset({Src("TL101", site, ".fetchmany()", bound)})
        if method in ("execute", "exec_driver_sql", "executescript") and args and (
                args[0].keyword is None or args[0].keyword.value in _QUERY_KEYWORDS):
            # (``ExecuteCellTool().execute(mode=..., cell_index=...)`` is no SQL statement)
            sql_node = args[0].value
            argflow = self._args_flow(node)
            stmt_q = markers(argflow, "query")
            bound = stmt_q[0].sql_bound if stmt_q else self.sql_bound(sql_node, argflow, site)
            if recv_name:
                self.sql_of[recv_name] = bound
            if bound == "aggregate":
                return EMPTY
            return frozenset({Marker("cursor", site, bound)})
        if method in ("fetch",) and args:
            text = self.string_value(args[0].value)
            if text is not None and cat.looks_like_sql(text):
                argflow = self._args_flow(node)
                bound = self.sql_bound(args[0].value, argflow, site)
                if bound == "aggregate":
                    return EMPTY
                return frozenset({Src("TL101", site, ".fetch()", bound)})
        if method == "cursor":
            return frozenset({Marker("cursor", site)})
        if method in ("query", "scalars") and not markers(recv, "query"):
            # SQL text or a caller's query through any client (``client.query(sql)``) is rows;
            # an ORM query (``session.query(User)``) is a builder drained later
            sql = self._external_sql(node, method, Shape.COLLECTION, site) if args else None
            if sql is not None:
                return sql
            inner = self._args_flow(node)
            curs = markers(inner, "query") or markers(recv, "cursor")
            bound = curs[0].sql_bound if curs else None
            return union(frozenset({Marker("query", site, bound)}), scalar_of(inner))
        if method in ("find", "aggregate") and (not args or isinstance(args[0].value, (cst.Dict, cst.List))):
            self._args_flow(node)
            return frozenset({Marker("query", site)})
        if method == "limit" and args:
            b = self.bound_from(args[0].value, node)
            qs = markers(recv, "query")
            if qs:
                return frozenset({Marker("query", site, b)})
            return apply_bound(recv, b) if b else recv
        if method in ("all", "to_list") and markers(recv, "query", "cursor"):
            q = markers(recv, "query", "cursor")[0]
            bound = q.sql_bound
            if method == "to_list":
                length = _kwarg(node, "length") or (args[0].value if args else None)
                if length is not None and not (isinstance(length, cst.Name) and length.value == "None"):
                    bound = self.bound_from(length, node)
            return frozenset({Src("TL101", site, f".{method}()", bound)})
        if method in ("paginate", "get_paginator", "iterate_pages", "iter_pages", "auto_paging_iter"):
            self._args_flow(node)
            return frozenset({Marker("paginator", site)})
        if method in ("head", "tail", "nlargest", "nsmallest") and args and sources(recv):
            b = self.bound_from(args[0].value, node)
            return apply_bound(recv, b) if b else recv
        if method in cat.SCALAR_METHODS:
            self._args_flow(node)
            return scalar_of(recv)
        if method in ("get", "pop") and args and any(_is_collection_src(t) for t in recv):
            # ``NOTES.get(name)``: one element of a run-time collection, not all of it
            self._args_flow(node)
            return _one_element(recv)
        chain = markers(recv, "query", "cursor")
        if chain and method not in ("join", "format"):
            # builder chains (``.filter().order_by().offset()``) keep the query and its bound
            self._args_flow(node)
            return frozenset(chain)
        if method == "join":
            return union(self._args_flow(node), EMPTY)
        return None

    def sql_bound(self, sql_node, argflow: Flow, site: Site):
        """The bound a query's text puts on its rows: ``LIMIT 50`` fixed, ``LIMIT ?`` bound to a
        limit-like parameter, ``"aggregate"`` for a lone ``COUNT(*)``, None when unbounded."""
        text = self.string_value(sql_node) if sql_node is not None else None
        if text is None:
            if self.helper and isinstance(sql_node, cst.Name) and any(
                    isinstance(t, Param) and t.site is None and t.name == sql_node.value
                    for t in self.env.get(sql_node.value, EMPTY)):
                return Bound(site, sql_param=sql_node.value)  # the caller's SQL decides
            return None
        if cat.SQL_AGGREGATE_ONLY.search(text):
            return "aggregate"
        m = cat.SQL_LIMIT_FIXED.search(text)
        if m:
            return Bound(site, fixed=int(m.group(2)))
        m = cat.SQL_LIMIT_PARAM.search(text)
        if m:
            ps = [p for p in params(union(argflow, self._fstring_params(sql_node))) if cat.LIMIT_PARAM.search(p.name)]
            if ps:
                p = ps[0]
                known = self.param_defaults.get(p.name, p)
                clamp = p.clamp if p.clamp is not None else known.clamp
                return Bound(site, param=p.name, clamp=clamp, default_none=known.default_none, param_site=known.site)
            return Bound(site, fixed=-1)
        return None

    def _fstring_params(self, node) -> Flow:
        if isinstance(node, cst.Name) and node.value in self.env:
            return self.env[node.value]
        return self.expr(node) if isinstance(node, cst.FormattedString) else EMPTY

    # -- helpers ------------------------------------------------------------------------------
    def resolve_helper(self, func: cst.BaseExpression):
        """The (module, def) a call reaches: a function of this module, a method of this class
        (``self.m``) or of the one class here defining it (``db.m``), or an imported function."""
        mod = self.mod
        if isinstance(func, cst.Name):
            fn = mod.functions.get(func.value)
            if fn is not None:
                return mod, fn
        elif isinstance(func, cst.Attribute):
            base = dotted_name(func.value)
            meth = func.attr.value
            if base in ("self", "cls") and self.class_name:
                fn = mod.functions.get(f"{self.class_name}.{meth}")
                if fn is not None:
                    return mod, fn
            if base is not None and base.split(".")[0] not in mod.imports.names:
                # ``db.run_query(...)`` on an instance of a class of this module: the method is
                # unambiguous when exactly one class here defines it
                owners = [k for k in mod.functions if k.endswith(f".{meth}") and k.count(".") == 1]
                if len(owners) == 1:
                    return mod, mod.functions[owners[0]]
        else:
            return None
        qn = mod.imports.qualify(func)
        return self.a.project.find_function(qn) if qn else None

    def call_helper(self, node: cst.Call, module, fn: cst.FunctionDef) -> Flow:
        summary = self.a.helper_summary(module, fn, self.depth)
        arg_flows = self._bind_args(node, fn)
        if summary is None:
            return union(*arg_flows.values())
        self._merge(summary, arg_flows)
        parts = summary.tuple_parts()
        if parts is not None:  # ``a, b = helper()``: each target gets its own part
            self._tuple_results[id(node)] = [self._from_helper(p, node, fn, arg_flows) for p in parts]
        return self._from_helper(summary.returned(), node, fn, arg_flows)

    def _from_helper(self, returned: Flow, node: cst.Call, fn: cst.FunctionDef,
                     arg_flows: dict[str, Flow]) -> Flow:
        """A helper's returned flow as seen by this call: its parameters replaced by the
        arguments, bounds named by a parameter rebound to what the caller passes."""
        out: set = set()
        for t in returned:
            if isinstance(t, Param) and t.site is None:
                passed = arg_flows.get(t.name, EMPTY)
                out |= frozenset(_part(x) for x in passed) if t.part else passed
            elif isinstance(t, Src) and t.bound is not None and t.bound.sql_param:
                # the helper ran the SQL it was given: the bound is the one of the text passed
                arg = _arg_node(node, fn, t.bound.sql_param)
                bound = self.sql_bound(arg, arg_flows.get(t.bound.sql_param, EMPTY), t.bound.site) \
                    if arg is not None else None
                if bound == "aggregate":
                    continue
                out.add(replace(t, bound=bound))
            elif isinstance(t, Src) and t.bound is not None and t.bound.param and t.bound.param_site is None:
                out.add(self._rebind(t, arg_flows.get(t.bound.param, EMPTY)))
            else:
                out.add(t)
        return frozenset(out)

    def _rebind(self, src: Src, arg: Flow) -> Src:
        ps = params(arg)
        b = src.bound
        if ps:
            p = ps[0]
            known = self.param_defaults.get(p.name, p)
            clamp = p.clamp if p.clamp is not None else known.clamp
            return Src(src.code, src.site, src.what, Bound(b.site, param=p.name, clamp=clamp, default_none=known.default_none, param_site=known.site))
        return Src(src.code, src.site, src.what, Bound(b.site, fixed=-1))

    def _bind_args(self, node: cst.Call, fn: cst.FunctionDef) -> dict[str, Flow]:
        names = [p.name.value for p in [*fn.params.posonly_params, *fn.params.params] if p.name.value not in ("self", "cls")]
        kw_names = {p.name.value for p in fn.params.kwonly_params} | set(names)
        out: dict[str, Flow] = {}
        pos = 0
        for a in node.args:
            if isinstance(a.value, cst.Lambda):
                # a callable the helper may call (``retry(lambda: fetch(x))``): what it returns
                flow = self.expr(a.value.body)
            elif isinstance(a.value, cst.Name) and a.value.value not in self.env and \
                    _nested_def(self.fn, a.value.value) is not None:
                nested = _nested_def(self.fn, a.value.value)
                flow = self.call_nested(nested, {})
            else:
                flow = self.expr(a.value)
            if a.keyword is not None and a.keyword.value in kw_names:
                out[a.keyword.value] = flow
            elif a.keyword is None and a.star == "" and pos < len(names):
                out[names[pos]] = flow
                pos += 1
            else:
                for n in names[pos:]:
                    out[n] = union(out.get(n, EMPTY), flow)
        return out

    # -- constants ---------------------------------------------------------------------------
    def const_int(self, node: cst.BaseExpression | None, depth: int = 0) -> int | None:
        if node is None or depth > 4:
            return None
        if isinstance(node, cst.Integer):
            try:
                return int(node.value.replace("_", ""), 0)
            except ValueError:
                return None
        if isinstance(node, cst.BinaryOperation):
            l, r = self.const_int(node.left, depth + 1), self.const_int(node.right, depth + 1)
            if l is None or r is None:
                return None
            op = node.operator
            if isinstance(op, cst.Multiply):
                return l * r
            if isinstance(op, cst.Add):
                return l + r
            if isinstance(op, cst.Subtract):
                return l - r
            if isinstance(op, (cst.FloorDivide, cst.Divide)) and r:
                return l // r
            if isinstance(op, cst.Power):
                return l**r if r < 64 else None
            return None
        if isinstance(node, cst.Call) and node.args:
            callee = (dotted_name(node.func) or "").split(".")[-1]
            if callee == "int" and len(node.args) == 1:
                inner = node.args[0].value
                if isinstance(inner, cst.SimpleString):
                    text = inner.evaluated_value
                    return int(text) if isinstance(text, str) and text.strip().isdigit() else None
                return self.const_int(inner, depth + 1)
            if callee in ("get", "getenv") and len(node.args) == 2:
                # a setting read from the environment with its default: ``os.environ.get(K, "100")``
                default = node.args[1].value
                if isinstance(default, cst.SimpleString):
                    text = default.evaluated_value
                    return int(text) if isinstance(text, str) and text.strip().isdigit() else None
                return self.const_int(default, depth + 1)
        if isinstance(node, (cst.Name, cst.Attribute)):
            dn = dotted_name(node)
            value = _module_constant(self.mod, dn.split(".")[-1]) if dn else None
            if value is not None:
                return self.const_int(value, depth + 1)
            qn = self.mod.imports.names.get(dn) if dn and "." not in dn else None
            found = self.a.project.resolve(qn) if qn else None
            if found is not None:  # ``from .config import MAX_OUTPUT_SIZE``
                value = _module_constant(found[0], found[1])
                if value is not None:
                    return _ConstantsOf(self, found[0]).const_int(value, depth + 1)
        return None

    def string_value(self, node: cst.BaseExpression | None) -> str | None:
        """The text of a string expression (f-string holes kept as ``{expr}``), following locals
        and module constants; None when it is not a string we can see."""
        if node is None:
            return None
        if isinstance(node, cst.SimpleString):
            v = node.evaluated_value
            return v if isinstance(v, str) else None
        if isinstance(node, cst.ConcatenatedString):
            left, right = self.string_value(node.left), self.string_value(node.right)
            if left is None or right is None:
                return None
            return left + right
        if isinstance(node, cst.FormattedString):
            parts = []
            for p in node.parts:
                if isinstance(p, cst.FormattedStringText):
                    parts.append(p.value)
                else:
                    parts.append("{" + (dotted_name(p.expression) or "expr") + "}")
            return "".join(parts)
        if isinstance(node, cst.Name):
            if node.value in self.strings:
                return self.strings[node.value]
            value = _module_constant(self.mod, node.value)
            if value is not None and value is not node:
                return self.string_value(value)
        if isinstance(node, cst.Call):
            # text("SELECT ..."), sql.SQL("..."), "...".format(...)
            if isinstance(node.func, cst.Attribute) and node.func.attr.value == "format":
                return self.string_value(node.func.value)
            if node.args:
                return self.string_value(node.args[0].value)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)):
            left = self.string_value(node.left)
            right = self.string_value(node.right) if isinstance(node.operator, cst.Add) else ""
            if left is not None:
                return left + (right or "")
        return None

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
                for s in _block(node.body) if isinstance(s, cst.SimpleStatementLine) for x in s.body
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
            body = _block(node.body)
            enforces = any(
                isinstance(s, cst.SimpleStatementLine)
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

def whole_record_sources(flow: Flow) -> list[Src]:
    """One record read whole from code tokenlint cannot see (``client.get_build_info(n)``,
    returned as-is) is of open-ended contents: every field the service sends, however many
    (labelling rule 5, "Single objects"): a TL108 source per such ``object`` marker in ``flow``.
    A field picked from it (``info["title"]``) or the acknowledgement of a write
    (``create_index(...)``) is not marked ``whole``."""
    out = []
    for m in markers(flow, "object"):
        if m.whole:
            callee = dotted_name(m.site.node.func) if isinstance(m.site.node, cst.Call) else None
            out.append(Src("TL108", m.site, f"{callee or '…'}() (one record returned whole, every field)"))
    return out


def _part(t):
    """A field or attribute of a whole record is one part of it (``info["title"]``); so is a
    field of a helper's parameter (``project.root``), whatever each caller passes."""
    if isinstance(t, Marker) and t.whole:
        return replace(t, whole=False)
    if isinstance(t, Param) and t.site is None and not t.part:
        return replace(t, part=True)
    return t


#: First words of a call that reads one thing (its result is the thing, whole).
_RECORD_READS = frozenset({"get", "read", "fetch", "describe", "show", "inspect", "info", "load", "retrieve"})


def _chain_root(expr: cst.BaseExpression) -> str | None:
    """The name an attribute/call chain starts from (``datetime`` in ``datetime.now().date``)."""
    node = expr
    while isinstance(node, (cst.Attribute, cst.Call, cst.Subscript, cst.Await)):
        node = node.func if isinstance(node, cst.Call) else (
            node.expression if isinstance(node, cst.Await) else node.value)
    return node.value if isinstance(node, cst.Name) else None


def _module_function(func: cst.BaseExpression, mod) -> bool:
    """``humanize.naturaldelta`` / ``np.array``: a function of an imported module (a lower-case
    import called directly), not a method of an object or a class."""
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
        func.value.value in mod.imports.names and func.value.value[:1].islower()


def _arg_node(call: cst.Call, fn: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
    """The argument expression ``call`` passes for ``fn``'s parameter ``param``, if given."""
    names = [p.name.value for p in [*fn.params.posonly_params, *fn.params.params]
             if p.name.value not in ("self", "cls")]
    for i, a in enumerate(call.args):
        if a.keyword is not None:
            if a.keyword.value == param:
                return a.value
        elif a.star == "" and i < len(names) and names[i] == param:
            return a.value
    return None


class _ConstantsOf:
    """``const_int`` over another module's constants (a cap imported from a config module)."""

    def __init__(self, interp: FunctionInterpreter, mod) -> None:
        self.a, self.mod = interp.a, mod

    const_int = FunctionInterpreter.const_int


def _join(envs: list[dict], base: dict) -> dict:
    if len(envs) == 1:
        return envs[0]
    keys = set().union(*envs)
    return {k: union(*(e.get(k, base.get(k, EMPTY)) for e in envs)) for k in keys}


_PAGE_KEYWORD = re.compile(r"(page|token|cursor|offset|after|marker|next|start)", re.I)


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


def _subexpressions(node: cst.CSTNode):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in code_children(n) if isinstance(c, cst.BaseExpression))


def _comparisons(test: cst.BaseExpression):
    stack = [test]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Comparison):
            yield n
        elif isinstance(n, cst.BooleanOperation):
            stack.extend([n.left, n.right])
        elif isinstance(n, cst.UnaryOperation):
            stack.append(n.expression)


def _len_arg(node) -> str | None:
    if isinstance(node, cst.Call) and dotted_name(node.func) == "len" and node.args:
        return dotted_name(node.args[0].value)
    return None


def _is_enumerate_index(target, name: str) -> bool:
    if isinstance(target, cst.Tuple) and target.elements:
        return dotted_name(target.elements[0].value) == name
    return False


def _string_lit(node) -> str | None:
    if isinstance(node, cst.SimpleString):
        v = node.evaluated_value
        return v if isinstance(v, str) else None
    return None


def _kwarg(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == name:
            return a.value
    return None


def _le_of_call(call: cst.Call) -> int | None:
    for key in ("le", "lt", "max_value", "maximum"):
        v = _kwarg(call, key)
        if isinstance(v, cst.Integer):
            try:
                return int(v.value.replace("_", ""), 0)
            except ValueError:
                return None
    return None


def _le_in_annotation(ann: cst.BaseExpression, interp) -> int | None:
    stack = [ann]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call):
            v = _le_of_call(n)
            if v is not None:
                return v
            for a in n.args:
                if a.keyword is not None and a.keyword.value in ("le", "lt"):
                    c = interp.const_int(a.value)
                    if c is not None:
                        return c
        stack.extend(code_children(n))
    return None


def _module_constant(mod, name: str) -> cst.BaseExpression | None:
    # kept on the module: a process-wide table keyed by id(tree) handed a freed tree's
    # constants to a later tree at the same address (a run analyses groups one after another)
    table = mod.constants
    if table is None:
        table = {}
        for stmt in mod.tree.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1:
                        dn = dotted_name(small.targets[0].target)
                        if dn:
                            table[dn] = small.value
                    elif isinstance(small, cst.AnnAssign) and small.value is not None:
                        dn = dotted_name(small.target)
                        if dn:
                            table[dn] = small.value
            elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
                for inner in stmt.body.body:
                    if isinstance(inner, cst.SimpleStatementLine):
                        for small in inner.body:
                            if isinstance(small, (cst.Assign, cst.AnnAssign)):
                                tg = small.targets[0].target if isinstance(small, cst.Assign) else small.target
                                dn = dotted_name(tg)
                                if dn and small.value is not None:
                                    table.setdefault(dn, small.value)
        mod.constants = table
    return table.get(name)


_RESPONSE_NAME = re.compile(r"(^|[._])(resp|response|res|r|reply|http_response|result_response)$", re.I)
_CLIENT_NAME = re.compile(r"(client|session|http|api)$", re.I)


def _response_like(name: str | None) -> bool:
    return bool(name and _RESPONSE_NAME.search(name))


def _client_like(name: str | None) -> bool:
    return bool(name and _CLIENT_NAME.search(name.split(".")[-1]) and "db" not in name.lower())


def _file_like(name: str | None) -> bool:
    return bool(name and re.search(r"(^|_)(f|fh|fp|file|handle|stream|reader|infile)$", name.split(".")[-1], re.I))


def _is_arguments_name(name: str | None) -> bool:
    return bool(name and name.split(".")[-1] in ("arguments", "args", "params", "tool_args", "input_args", "kwargs", "arguments_dict", "input", "tool_input"))


_BUILTINS = frozenset(dir(builtins))

#: Methods of str, bytes, list, dict and set: on a parameter they transform a value.
_VALUE_METHODS = frozenset(
    m for t in (str, bytes, list, dict, set) for m in dir(t) if not m.startswith("_")
) - {"count", "index"}

_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | {"builtins", "typing", "typing_extensions"}

#: Family of the ``object`` marker of a tool's request-context parameter (mcp ``Context``,
#: fastmcp ``Context``, a low-level ``RequestContext``).
CONTEXT_FAMILY = "mcp.Context"

#: Methods of a request context that return nothing of size: notifications, state writes,
#: ids, and sampling (an LLM completion capped by its own ``max_tokens``).
_CONTEXT_SMALL = frozenset({"debug", "info", "warning", "warn", "error", "critical", "elicit",
                              "set_state", "delete_state", "request_id", "client_id", "sample"})


def _context_param(name: str, ann: cst.BaseExpression | None) -> bool:
    """Whether a tool parameter is the SDK's request context: annotated ``Context``,
    ``Context[ServerSession, State]``, ``RequestContext`` or any ``*Context`` class, or an
    unannotated ``ctx`` / ``context``."""
    if ann is None:
        return name in ("ctx", "context")
    node = ann.value if isinstance(ann, cst.Subscript) else ann
    last = (dotted_name(node) or "").split(".")[-1]
    return last.endswith("Context")


#: Callees that run a callable elsewhere and hand back its result (or a future of it).
_ELSEWHERE = frozenset({"run_sync", "to_thread", "run_in_executor", "submit", "partial",
                        "run_in_threadpool", "asyncify", "defer_to_thread", "run_blocking"})

#: Callee names that make an object: a class held in a variable or attribute, a factory.
_CONSTRUCTOR_NAME = re.compile(r"(^|_)(class|cls|factory|constructor|type)$", re.I)
#: Alternative constructors called on a class (``Model.model_validate(d)``, ``Cfg.from_env()``).
_ALT_CONSTRUCTOR = re.compile(r"^(from_\w+|model_validate(_json)?|parse_(obj|raw)|construct|model_construct|validate)$")

#: Verbs that, on a plural collection (``containers``, ``Customer.objects``), act on one element.
_ELEMENT_VERBS = frozenset({"get", "run", "retrieve", "fetch", "find_one", "load", "get_one", "one"})

#: Keywords that carry a query's text.
#: Suffix of the ``what`` of a TL108 source whose call name says nothing of its shape.
_SIZE_UNKNOWN = "(size unknown)"

#: Methods of a request builder that cap how many items the request returns.
_LIMIT_METHODS = frozenset({"limit", "paging", "page_size", "per_page", "top", "take", "max_results",
                            "size", "first_n", "set_limit", "with_limit"})

_QUERY_KEYWORDS = frozenset({"query", "sql", "statement", "cypher", "sql_query", "query_string", "stmt"})

#: Keywords (lower case, underscores removed) that cap how many items an API returns.
_LIMIT_KEYWORDS = frozenset({
    "limit", "maxresults", "maxitems", "maxrecords", "maxcount", "topk", "topn", "nresults", "k",
    "n", "count", "size", "pagesize", "perpage", "first", "last", "tail", "num", "numresults",
    "max", "rows", "maxrows", "fetchsize", "maxhits", "hits", "maxkeys", "maxentries", "top",
    "numrows", "rowlimit", "resultlimit", "maxlen", "maxlength", "lines", "nlines", "maxlines",
})


def _stdlib(qn: str) -> bool:
    return qn.split(".")[0] in _STDLIB


def _made_object(site: Site, family: str | None, args: Flow) -> Flow:
    """What a constructor returns: an ``object`` handle holding the data it was given
    (``Model(items=rows)``, ``TextContent(text=body)``)."""
    return union(frozenset({Marker("object", site, family=family)}),
                 frozenset(t for t in args if not isinstance(t, Marker)))


def _empty_collection(value: cst.BaseExpression) -> bool:
    """``{}``, ``[]``, ``set()``, ``dict()``, ``defaultdict(list)``, ``deque()``: empty now, filled later."""
    if isinstance(value, (cst.Dict, cst.List, cst.Set)) and not value.elements:
        return True
    if isinstance(value, cst.Call):
        name = (dotted_name(value.func) or "").split(".")[-1]
        if name in ("dict", "list", "set", "OrderedDict", "deque", "Counter") and not value.args:
            return True
        if name == "defaultdict":
            return True
    return False


def _nested_def(fn: cst.FunctionDef, name: str) -> cst.FunctionDef | None:
    """A function named ``name`` defined anywhere inside ``fn``'s body (not ``fn`` itself)."""
    stack: list[cst.CSTNode] = list(_body(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, cst.FunctionDef):
            if n.name.value == name:
                return n
            continue
        if isinstance(n, cst.ClassDef):
            continue
        stack.extend(code_children(n))
    return None


def _instance_collections(mod, class_name: str) -> frozenset[str]:
    """Attributes of ``class_name`` in ``mod`` that its methods set to an empty collection."""
    names: set[str] = set()
    cls = mod.classes.get(class_name)
    if cls is not None:
        stack: list[cst.CSTNode] = [cls.body]
        while stack:
            n = stack.pop()
            if isinstance(n, (cst.Assign, cst.AnnAssign)) and n.value is not None:
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                for t in targets:
                    dn = dotted_name(t)
                    if dn and dn.startswith("self.") and dn.count(".") == 1 and _empty_collection(n.value):
                        names.add(dn[5:])
            stack.extend(code_children(n))
    return frozenset(names)


def _instance_attribute_classes(mod, class_name: str) -> dict[str, str]:
    """``{attr: qualified class}`` for each ``self.attr = Cls(...)`` in ``class_name``'s methods,
    where ``Cls`` is imported or defined in ``mod`` (the first assignment wins)."""
    out: dict[str, str] = {}
    cls = mod.classes.get(class_name)
    if cls is None:
        return out
    stack: list[cst.CSTNode] = [cls.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Assign, cst.AnnAssign)) and isinstance(n.value, cst.Call):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            callee = dotted_name(n.value.func)
            qn = mod.imports.qualify(n.value.func) or (
                f"{mod.module_name}.{callee}" if callee in mod.classes else None)
            for t in targets:
                dn = dotted_name(t)
                if qn and dn and dn.startswith("self.") and dn.count(".") == 1:
                    out.setdefault(dn[5:], qn)
        stack.extend(code_children(n))
    return out


_LIMIT_WORDS = frozenset({"limit", "max", "count", "size", "top", "num", "rows", "results", "lines", "k", "n"})


def _limit_like(name: str) -> bool:
    """A parameter name that reads as "how many" (``limit``, ``max_results``, ``top_k``), not a
    position (``start``, ``stop``, ``offset``)."""
    return name.replace("_", "").lower() in _LIMIT_KEYWORDS or bool(_LIMIT_WORDS & set(words(name)))


def _is_collection_src(t) -> bool:
    return isinstance(t, Src) and t.code == "TL108" and t.what.endswith(RUNTIME_COLLECTION)


def _one_element(flow: Flow) -> Flow:
    """An element of a run-time collection (``notes[name]``) is one record: drop the collection."""
    return frozenset(t for t in flow if not _is_collection_src(t))
