"""Calls into code tokenlint cannot read (an SDK client, a library): what they return.

Unknown size until shown small (the "Analysis" direction of the design): SQL text or a caller's
query through any receiver is rows (TL101); otherwise ``shapes.call_shape`` judges the call's
name. One record read whole is of open-ended contents; a cap set on a request builder travels
with it; the SDK's request-context parameter is an object whose notifications are small.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Iterable, cast

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis import graphql
from tokenlint.analysis.constants import (SAME_TEXT_METHODS, class_constant, fixed_in_source, literal_table, module_constant,
                                          string_literal)
from tokenlint.analysis.shapes import (COLLECTION_VERBS, MASS_NOUNS, REDUCTIONS, TEXT_NOUNS, WRITE_VERBS, Shape, call_shape, call_verb, credential_class, is_plural,
                                       configuration_collection, configuration_object, data_name,
                                       open_field, singular, words)
from tokenlint.analysis.records import fixed_model
from tokenlint.analysis.state import InterpreterState
from tokenlint.analysis.taints import EMPTY, Bound, Flow, Marker, Measure, Param, Site, Src, Taint, markers, params, union
from tokenlint.analysis.values import (BUILTINS, VALUE_METHODS, annotated_class, annotation_class, chain_root, is_stdlib,
                                       run_class_named)
from tokenlint.source.walk import node_code, walk_own
from tokenlint.source.functions import gathering_parameters, parameters
from tokenlint.source.imports import dotted_name

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule


class ExternalCalls(InterpreterState):
    """Mixin of ``FunctionInterpreter``: calls whose code is not in the run."""

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
        scalar_family = next((f for f in (qn, *(m.family for m in markers(recv, "object") if method is not None))
                              if f and f.split(".")[0] in cat.SCALAR_MODULES), None)
        if scalar_family is not None:
            # ``dateutil.parser.parse(text)``, ``arrow.get(ts).humanize()``: a date, however the
            # library names its parser, and what its methods make of it
            self._args_flow(node)
            return frozenset({Marker("object", site, fixed=True, family=scalar_family.split(".")[0])})
        if qn in REQUEST_CONTEXT_ACCESSORS:
            # ``get_http_headers()``, ``get_context()``: the current MCP request's own context
            self._args_flow(node)
            return frozenset({Marker("object", site,
                                     family=HEADERS_FAMILY if qn.endswith(".get_http_headers") else CONTEXT_FAMILY)})
        if method == "execute" and not node.args and isinstance(func, cst.Attribute) and \
                _executes_write(func.value):
            # ``sheets.spreadsheets().values().update(spreadsheetId=s, body=b).execute()``: a
            # request object (Google API client, query builders) executed; a write's request
            # sends back its acknowledgement (updatedCells, the new id), not data
            self.summary.untraced.append(f"{dotted_name(func) or '….execute'}()")
            return frozenset({Marker("object", site, fixed=True, family=ACK_FAMILY)})
        if method == "execute" and not node.args and isinstance(func, cst.Attribute) and \
                _executes_record_get(func.value):
            # ``drive.files().get(fileId=f, fields="id, name, size").execute()``: one resource's
            # metadata, a record of fixed fields
            self._args_flow(node)
            self.summary.untraced.append(f"{dotted_name(func) or '….execute'}()")
            return frozenset({Marker("object", site, family="googleapiclient")})
        made = name if method is None else (dotted_name(func.value) or "").split(".")[-1] \
            if isinstance(func, cst.Attribute) else ""
        if credential_class(made):
            # ``Credentials.new_from_json(f.read())``, ``DefaultAzureCredential()``: a credential
            # made of a stored secret, which requests are signed with and no response holds
            self.summary.untraced.append(f"{dotted_name(func) or name}()")
            return frozenset({Marker("object", site, family=qn)})
        if method is not None:
            assert isinstance(func, cst.Attribute)
            if method in VALUE_METHODS and isinstance(func.value, cst.Name) and func.value.value in self.built_dicts():
                return None  # ``result.items()`` of a dict this function builds: its own entries
            objects = markers(recv, "object")
            if not objects and recv and method not in VALUE_METHODS and method not in SERIALIZERS and \
                    words(method)[:1] != ["to"] and \
                    all(isinstance(t, Src) and t.what.endswith(SIZE_UNKNOWN) for t in recv):
                # ``Query(q).sort_by("score").paging(0, k)``: a value of unknown shape that gets
                # methods called on it was an object (a builder), not data
                objects = [Marker("object", site)]
            if objects and method in SERIALIZERS and not node.args and all(
                    m.family != CONTEXT_FAMILY for m in objects):
                # ``res.model_dump()``, ``widget.to_dict()``: a typed SDK model's declared fields
                # as a dict or JSON, nothing fetched: one fixed-shape record; a model made of data
                # (``model.model_validate(data).model_dump()``) gives that data back
                data: Flow = frozenset(t for t in recv if isinstance(t, Src) or isinstance(t, Param) and t.site is None)
                return union(frozenset(replace(m, whole=False) for m in objects), data)
            if objects and all(m.whole for m in objects) and method in ("copy", "items", "values"):
                # ``task_store[task_id].copy()``: a record held as a dict is its own data
                return recv
            config = self._configuration_root(func.value) if not any(
                isinstance(t, (Src, Measure)) or (isinstance(t, Marker) and t.kind != "object") for t in recv) else None
            if config is not None:
                # ``self._config.connections.items()``: a part of the process's configuration
                # object (a ``…Config`` / ``…Settings`` model read from the environment, the
                # command line or a config file), what the operator set up, not data
                self._args_flow(node)
                self.summary.untraced.append(f"{dotted_name(func) or '….' + name}()")
                return frozenset({Marker("object", site, family=config)})
            if objects and method in _STR_ONLY_METHODS and all(m.fixed for m in objects):
                return None  # ``rec["arn"].split(":")``: a field's value, cut or cased by str
            if objects and method in SAME_TEXT_METHODS | {"split", "rsplit", "splitlines"} and \
                    all(m.whole for m in objects):
                # ``base64.b64encode(blob).decode()``: the same value as text, as large as it was
                # (``.splitlines()``: in pieces, as many as it holds)
                self._args_flow(node)
                return recv
            if objects:
                family = objects[0].family
            elif any(isinstance(t, (Src, Measure)) for t in recv):
                if method in REDUCTIONS and not node.args:
                    return EMPTY  # ``returns.std()``: a statistic of the data the tool holds
                return None  # a method of data the tool holds: a transformation (rows.to_dict())
            elif not recv and method in VALUE_METHODS and isinstance(func.value, cst.Call):
                return None  # ``headers.get("authorization", "").removeprefix(...)``: a str of a small value
            elif params(recv):
                # a helper's parameter may hold a client (``def list_tables(db): db.query()``);
                # a value the model supplies is text or a number (``query.strip()``), and so is
                # what the standard library makes of it (``datetime.strptime(s, f).date()``)
                if (method in VALUE_METHODS and not _no_builtin_call(node, method)) or \
                        any(p.site is not None for p in params(recv)):
                    return None
                if method in SERIALIZERS or words(method)[:1] in (["to"], ["as"]) or \
                        all(data_name(p.name) for p in params(recv)):
                    # ``model.model_dump()``, ``x.to_dict(orient="records")`` (a client has no
                    # ``to_…``), any method of a parameter named for data (``dataframe.
                    # reset_index()``, ``rows.sort(...)``): the data each caller gives, reshaped
                    return None
                root = chain_root(func.value)
                if root in self.mod.imports.names and is_stdlib(self.mod.imports.names[root]):
                    return None
                if root is not None and root in self.env and root not in self.param_defaults \
                        and root not in self.assigned_from_call:
                    return None  # a local the standard library made of an argument (``p = Path(a)``)
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
            if qn is None and isinstance(func, cst.Name) and func.value in self.bound_methods and \
                    (bound_to := self.env.get(func.value, EMPTY)) and any(isinstance(t, Marker) for t in bound_to) and all(
                        isinstance(t, Param) or isinstance(t, Marker) and t.kind == "object" and
                        t.family not in (CONTEXT_FAMILY, ACK_FAMILY) and
                        not (t.family and self.a.project.resolve_class(t.family)) for t in bound_to):
                # ``fetch = client.list_papers; fetch(q)``, ``method = getattr(client, "list_papers")``:
                # a call of that method of an object of unreadable code (which may hold the
                # arguments it was made with: ``client = acme.Client(api_key=key)``)
                taken = self.bound_methods[func.value]
                family = next((t.family for t in bound_to if isinstance(t, Marker) and t.family), None)
                return self.dispatched_call(
                    node, taken or "method", site,
                    f"{family or func.value + '() (…'}.{taken}{'()' if family else ')'}" if taken
                    else f"{func.value}() (a method named at run time)")
            if qn is None and isinstance(func, cst.Name) and func.value in self.env and not self.env[func.value]:
                # a class or factory held in a local (``cls = Redis if x else Cluster; cls(...)``)
                self.summary.untraced.append(f"{func.value}()")
                return made_object(site, None, args)
            if qn is None and isinstance(func, cst.Name) and func.value in self.env:
                # a callable held in a local (``query = functools.partial(run, sql)``; a partial
                # is evaluated where it is made): calling it gives back what it holds
                held: Flow = frozenset(t for t in self.env[func.value] if not isinstance(t, Marker))
                if held:
                    return union(held, frozenset(t for t in args if not isinstance(t, Marker)))
            if qn is None or is_stdlib(qn):
                return None
            if any(isinstance(t, Src) for t in args):
                return None  # a function of data the tool holds: a formatter (tabulate(rows))
            family = qn
        if family == CONTEXT_FAMILY and method == "sample":
            # ``await ctx.sample(prompt, max_tokens=500)``: the completion the client sampled,
            # capped by its own ``max_tokens``; its ``.text`` is a field of it, not an HTTP body
            return frozenset({Marker("object", site, family=CONTEXT_FAMILY)})
        if family == CONTEXT_FAMILY and method in VALUE_METHODS and method not in _CONTEXT_SMALL:
            return frozenset(markers(recv, "object"))  # ``completion.strip()``: the same small value
        if family == CONTEXT_FAMILY and method is not None and (
                method in _CONTEXT_SMALL or method.startswith(("send_", "report_", "log"))):
            return EMPTY  # ``ctx.info(...)``, ``ctx.report_progress(...)``: a notification
        if family == HEADERS_FAMILY:
            return EMPTY  # ``headers.get("authorization")``: one header of the request
        if method == "get" and node.args and (written := markers(recv, "object")) and \
                all(_write_named(m.site.node) for m in written) and \
                (key := string_literal(node.args[0].value)) is not None and \
                (id_list_key(key) or key.lower().endswith("ids")):
            # ``api.host.create(**params).get("hostids", [])``: the identifiers of what a write
            # made or removed, one per entity the caller sent (labelling rule 6: an echo; Zabbix
            # names them in one word: ``hostids``, ``groupids``)
            self._args_flow(node)
            return frozenset({Marker("object", site, fixed=True, family=ACK_FAMILY)})
        if method == "get" and node.args and markers(recv, "object") and \
                (key := string_literal(node.args[0].value)) is not None and key.isidentifier() and record_key(key):
            # ``info.get("regularMarketPrice")`` of what an SDK object holds: one field picked by
            # name, as ``info["regularMarketPrice"]`` is (a plural, payload or text key stays the
            # collection or text it names)
            self._args_flow(node)
            return frozenset({Marker("object", site, fixed=True, family=family)})
        callee = f"{dotted_name(func) or '….' + name}()"
        shape = Shape.SCALAR if method in REDUCTIONS and not node.args else call_shape(name)
        sql = self._external_sql(node, name, shape, site)
        if sql is not None:
            return sql
        owner_node = func.value if isinstance(func, cst.Attribute) else None
        if isinstance(owner_node, cst.Subscript):  # a generic class: ``Wrapper[list[str]].model_validate(r)``
            owner_node = owner_node.value
        owner = (dotted_name(owner_node) or "").split(".")[-1] if owner_node is not None else ""
        if not owner and isinstance(owner_node, cst.Attribute):
            owner = owner_node.attr.value  # (``_client(ctx).containers.get(id)``)
        if _CONSTRUCTOR_NAME.search(name) or (owner[:1].isupper() and _ALT_CONSTRUCTOR.match(name)) or \
                _MODEL_CONSTRUCTOR.match(name):
            # ``spec.fetcher_class(...)``, ``Model.model_validate(data)``, ``Cfg.from_env()``
            model = run_class_named(self.a.project, self.mod, owner_node) if _MODEL_CONSTRUCTOR.match(name) else None
            if model is not None and fixed_model(self.a.project, model):
                # ``Team.model_validate(body)`` of a model of the run declaring only small fields:
                # it keeps those and drops every other key (``records.fixed_model``)
                return frozenset({Marker("object", site, fixed=True, family=model)})
            self.summary.untraced.append(callee)
            return self._constructed(node, site, family, args)
        if shape is Shape.UNKNOWN and (method is None or _module_function(func, self.mod)):
            shape = Shape.RECORD  # a library function of scalars (``humanize.naturaldelta(d)``)
        if method is not None and shape is not Shape.SCALAR and name in _ELEMENT_VERBS and is_plural(owner.lower()):
            # ``client.containers.get(id)``, ``.run(...)``: one element of a plural collection
            shape = Shape.RECORD
        if method is not None and shape is Shape.UNKNOWN and len(words(name)) == 1 and \
                words(name) not in (["stats"], ["statistics"]) and fixed_record(name):
            # ``jira.user(account_id)``, ``client.account()``, ``api.myself()``: a method named
            # for one entity of fixed shape reads that entity (its fields, not a collection)
            shape = Shape.RECORD
        if method is not None and shape is Shape.UNKNOWN and words(name) in (["stats"], ["statistics"]) and \
                not is_plural(owner.lower()):
            # ``mc.stats()``, ``container.stats()``: the counters of the server (or the object) the
            # handle is, a field set the platform fixes (memcached ``STATS``, as Redis ``INFO``,
            # labelling rule 6); ``client.indices.stats()`` has a member's counters per member
            shape = Shape.RECORD
        if shape is Shape.SCALAR:
            self.summary.untraced.append(callee)
            return EMPTY
        # a request builder capped on the way (``Query(q).paging(0, k).dialect(2)``,
        # ``client.limit(20)``): the cap travels with the object to the call that fetches
        carried = [m.sql_bound for m in markers(recv, "object") if m.sql_bound is not None]
        if method in _LIMIT_METHODS and node.args:
            # (``.paging(0, k)``: the last of its positional arguments; ``pull.top(name, limit,
            # time=t)`` with a keyword: the limit-like one)
            cap = self.bound_from(node.args[-1].value, node) if all(a.keyword is None for a in node.args) \
                else self._argument_bound(node)
            if cap is not None:
                return frozenset({Marker("object", site, family=family, sql_bound=cap)})
        if carried and not (shape is Shape.COLLECTION and words(name)[:1] and words(name)[0] in COLLECTION_VERBS):
            # (``.return_fields("id", "score")`` configures the builder; ``.search()`` fetches)
            return frozenset({Marker("object", site, family=family, sql_bound=max(carried, key=Bound.rank))})
        if shape is Shape.RECORD and method is not None and library_write(name):
            # ``issue = repo.create_issue(title=title, body=body)``: the entity the write made,
            # its text fields (``issue.body``) the caller's own
            self.summary.untraced.append(callee)
            return frozenset({Marker("object", site, fixed=True, family=ACK_FAMILY)})
        if shape is Shape.RECORD:
            self.summary.untraced.append(callee)
            if name[:1].isupper():  # a constructor keeps what it is given: Model(items=rows)
                # ``api_module.Client(...)``: the object's family is the class, not its module
                return self._constructed(node, site, qn if method is not None and qn else family, args)
            ws = words(name)
            # a status-like record has the platform's fixed fields (``get_cluster_health()``)
            read = _record_read(name)
            if read and node.args and not args and not any(
                    isinstance(a.value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))
                    for a in node.args):
                # given only numbers computed here (``get_column_letter(ws.max_column)``): a
                # value computed from them, not a record read by a key the model chose
                read = False
            held = frozenset(t for t in args if isinstance(t, Src) or (isinstance(t, Param) and t.site is None))
            if held and ws and ws[0] in _CONVERSIONS:
                # ``Message.to_dict(msg)``, ``json_format.MessageToDict(m)``: the data converted
                return union(frozenset({Marker("object", site, family=family)}), held)
            return frozenset({Marker("object", site, family=family, whole=read)})
        held = frozenset(t for t in args if isinstance(t, Src) or (isinstance(t, Marker) and t.whole))
        if held and words(name)[:1] and words(name)[0] in _CONVERSIONS:
            # ``self._to_json(result)``: the data it is given, converted (not a new source)
            return union(frozenset({Marker("object", site, family=family)}), held)
        if shape is Shape.UNKNOWN and (ran := self._callables_handed(node)) is not None:
            # ``self.adapter.request(symbol, operation, cache_key=k)``, ``pool.call(lambda t:
            # t.info)``: code that runs the callable it is handed (retries, a worker thread, a
            # cache) gives back what the callable returns; a callable parameter is what each
            # caller passes (a lambda's body: ``FollowedCalls._bind_args``)
            self.summary.untraced.append(callee)
            return ran
        src = _unread_source(callee, shape, site)
        bound = self._argument_bound(node)
        for b in carried:
            bound = b if bound is None or b.rank() > bound.rank() else bound
        page = self.cursor_bound(node)
        if page is None and method is not None and shape is Shape.COLLECTION and _listing_name(name) and \
                any(_rest_api_class(m.family) for m in markers(recv, "object")):
            # ``dag_api.get_dags(**kwargs)`` with ``kwargs["offset"] = offset``: one page
            page = self.offset_bound(node)
        if page is None and configuration_collection(name):
            # ``jira.get_issue_link_types()``: as many as the instance is configured with, a
            # handful fixed by its setup, not by the user's data (labelling rule 6)
            self.summary.untraced.append(callee)
            page = Bound(site, configured=True)
        if page is not None and (bound is None or page.rank() > bound.rank()):
            bound = page
        return frozenset({src.with_bound(bound) if bound else src})

    def dispatched_call(self, node: cst.Call, name: str, site: Site, callee: str | None = None) -> Flow:
        """What a method of unreadable code gives when a helper calls it by the name ``name``
        this call passes (``call("batch_get_papers", ids=ids)``, the helper running
        ``getattr(client, method_name)(**kwargs)``), at ``site``: judged by that name like any
        call tokenlint cannot read (``shapes.call_shape``: a collection or an unknown shape is a
        TL108 source bounded by a limit-like argument this call forwards, one record an
        ``object`` marker, a number nothing). ``callee`` names the call in messages (by default
        the helper with the name it is given: ``call('batch_get_papers')``)."""
        callee = callee or f"{dotted_name(node.func) or '…'}({name!r})"
        shape = call_shape(name)
        if shape is Shape.SCALAR:
            self.summary.untraced.append(callee)
            return EMPTY
        if shape is Shape.RECORD:
            self.summary.untraced.append(callee)
            return frozenset({Marker("object", site, whole=_record_read(name))})
        src = _unread_source(callee, shape, site)
        bound = self._argument_bound(node)
        return frozenset({src.with_bound(bound) if bound else src})

    def _callables_handed(self, node: cst.Call) -> Flow | None:
        """What the callables a call hands to code tokenlint cannot read return, when it hands
        any: a lambda's body, or a parameter of this function annotated ``Callable[...]`` (what
        each caller passes); None when it hands none. Only the one result of a runner comes back
        so (``request(symbol, operation)``); a call named for many (``pool.map(fn, ids)``) is a
        collection by its name and never gets here."""
        callable_params = self._callable_params
        if callable_params is None:  # (read once per function, not at every call)
            callable_params = self._callable_params = callable_parameters(self.fn) \
                if isinstance(self.fn, cst.FunctionDef) else frozenset()
        flows = []
        for a in node.args:
            if isinstance(a.value, cst.Lambda):
                flows.append(self.lambda_result(a.value))
            elif isinstance(a.value, cst.Name) and a.value.value in callable_params:
                flows.append(self.expr(a.value))
        return union(*flows) if flows else None

    def _constructed(self, node: cst.Call, site: Site, family: str | None, args: Flow) -> Flow:
        """An object made by a constructor of unreadable code: it holds the data it is given, and
        a limit-like keyword caps what it later fetches (``arxiv.Search(q, max_results=10)``
        passed to ``client.results(search)``)."""
        out = made_object(site, family, args)
        if family:
            out = union(out, self.init_data(family))  # a class of the run: what its __init__ stores
        cap = self._argument_bound(node)
        if cap is None:
            return out
        return frozenset(replace(t, sql_bound=cap) if isinstance(t, Marker) and t.site is site else t for t in out)

    def _chain_class(self, expr: cst.BaseExpression, depth: int = 0) -> str | None:
        """The qualified project class of the object ``expr`` names, when the code says it:
        ``self`` in a method, a module-level ``name = Cls(...)`` or ``name = factory()`` of a
        function of the run annotated ``-> Cls``, or ``<object>.attr`` where a
        method of the object's class (or a base) sets ``self.attr = Cls(...)``; else None."""
        if depth > 4:
            return None
        if isinstance(expr, cst.Name):
            n = expr.value
            if n == "self" and self.class_name:
                return f"{self.mod.module_name}.{self.class_name}"
            if n in self.env:
                return None
            if isinstance(self.fn, cst.FunctionDef):
                held = self._closure_parameter_class(n)
                if held is not None:
                    return held
            value = module_constant(self.mod, n)
            if isinstance(value, cst.Call):
                callee = dotted_name(value.func)
                if callee in self.mod.classes:
                    return f"{self.mod.module_name}.{callee}"
                qn = self.mod.imports.qualify(value.func)
                factory = self.mod.functions.get(callee) if callee else None
                maker = (self.mod, factory) if factory is not None else \
                    self.a.project.find_function(qn) if qn else None
                made = annotated_class(*maker) if maker is not None else None
                if made is not None and self.a.project.resolve_class(made) is not None:
                    # ``db_client = get_db_client()`` with ``def get_db_client() -> DBClient``
                    return made
                return qn
            return None
        if isinstance(expr, cst.Attribute):
            owner = self._chain_class(expr.value, depth + 1)
            found = self.a.project.resolve(owner) if owner else None
            if found is None or found[1] not in found[0].classes:
                return None
            return self.a.instance_attribute_family(found[0], found[1], expr.attr.value)
        return None

    def _closure_parameter_class(self, name: str) -> str | None:
        """The run's class a parameter ``name`` of a function enclosing this one is annotated
        with (``def _register_handlers(server, db_client: DuckDBClient): def _handle(...):
        db_client.run(q)``), the innermost such parameter deciding; None when no enclosing
        function has one, its annotation names no class of the run, or a function between
        rebinds the name."""
        outer = self.a.enclosing_function(self.mod, self.fn)
        while outer is not None:
            for p in parameters(outer):
                if p.name.value == name:
                    qn = annotation_class(self.mod, p.annotation.annotation) if p.annotation is not None else None
                    return qn if qn is not None and self.a.project.resolve_class(qn) is not None else None
            if any(isinstance(n, cst.Assign) and any(dotted_name(t.target) == name for t in n.targets)
                   for n in walk_own(outer.body)):
                return None  # (bound in that function's body: ``_chain_class`` cannot say)
            outer = self.a.enclosing_function(self.mod, outer)
        return None

    def _configuration_root(self, expr: cst.BaseExpression) -> str | None:
        """The configuration class (``shapes.configuration_object``) of the object ``expr``
        names or is a part of (``self._config.connections``, ``settings.profiles["x"]``) when
        the code says it (``_chain_class``), else None."""
        node: cst.BaseExpression = expr
        while True:
            if isinstance(node, (cst.Name, cst.Attribute)):
                cls = self._chain_class(node)
                if configuration_object(cls):
                    return cls
            if isinstance(node, (cst.Attribute, cst.Subscript)):
                node = node.value
            else:
                return None

    def _duck_class(self, expr: cst.BaseExpression, method: str) -> str | None:
        """The qualified project class of a parameter with no declared type, read from the
        method called on it: ``async def handle(arguments, db): db.execute_query(q)`` where this
        module imports exactly one class of the run (``from .db_client import SnowflakeDB``)
        that defines (or inherits) ``execute_query``. Only many-word method names count
        (``execute_query``, not ``get``), which a library object is unlikely to share; else None."""
        if not isinstance(expr, cst.Name) or len(words(method)) < 2:
            return None
        if not any(p.name.value == expr.value and p.annotation is None for p in parameters(self.fn)):
            return None
        found = []
        for qualified in set(self.mod.imports.names.values()):
            if not qualified.rsplit(".", 1)[-1][:1].isupper():
                continue
            if self.a.project.resolve_class(qualified) is not None and \
                    self.a.family_method(qualified, method) is not None:
                found.append(qualified)
        return found[0] if len(found) == 1 else None

    def _external_root(self, expr: cst.BaseExpression, method: str | None = None) -> str | None:
        """Whether the object a method is called on comes from outside the tool's own values:
        returns its family (a qualified name, or ``""`` when unknown) or None when it is a
        local value, a literal, or a standard-library module."""
        node = expr
        first: str | None = None  # the attribute read off the root (``TABLE`` of ``cls.TABLE``)
        while isinstance(node, (cst.Attribute, cst.Call, cst.Subscript, cst.Await)):
            if isinstance(node, cst.Call):
                node = node.func
            elif isinstance(node, cst.Await):
                node = node.expression
            else:
                first = node.attr.value if isinstance(node, cst.Attribute) else first
                node = node.value
        if not isinstance(node, cst.Name):
            return None  # a literal: "sep".join(...), [..].count()
        n = node.value
        if first is not None and self._constant_table(n, first):
            return None  # ``cls.EXT_TO_LANG.get(ext)``: a lookup table fixed in the source
        if n in self.env:
            objs = markers(self.env[n], "object")
            if objs:
                return objs[0].family or ""
            # a local we could not trace to a value (``r = Manager.get_connection()``) is an
            # object when a method other than a str/list/dict one is called on it
            # (``client.get(key)`` on a connection from a factory is the store's get, not dict.get)
            handle = _HANDLE_NAME.search(n) is not None
            if self.env[n] or (method in VALUE_METHODS and not handle) or n not in self.assigned_from_call:
                return None
            return ""
        if n in ("self", "cls"):
            return ""
        if n in self.mod.imports.names:
            qn = self.mod.imports.names[n]
            if not is_stdlib(qn) and fixed_in_source(self.a.project.find_constant(qn)):
                # ``from .lsp import COMPLETION_KIND``: a lookup table of the run (``ALL_SCOPES =
                # " ".join([...])``: a string the source fixes)
                return None
            return None if is_stdlib(qn) else qn
        value = module_constant(self.mod, n)
        if value is None:
            # a builtin, or a global bound elsewhere (``_client: Client`` set in ``main()``)
            return None if n in BUILTINS else ""
        value = made_unless_none(value)
        while isinstance(value, (cst.Subscript, cst.Attribute)) and not isinstance(value, cst.Call):
            # ``coll = MongoClient(uri)["db"]["orders"]``: a part of what a call made
            value = value.value
        made_by: str | None  # (what made a module-level value: an import, a call's callee)
        if isinstance(value, cst.Name) and value.value in self.mod.imports.names:
            made_by = self.mod.imports.names[value.value]
            return None if is_stdlib(made_by) else made_by
        if isinstance(value, cst.Call):
            if fixed_in_source(value):
                return None  # ``SCOPES = " ".join(["user-read", ...])``: a constant
            made_by = self.mod.imports.qualify(value.func)
            if made_by is not None and is_stdlib(made_by):
                return None  # a value of the standard library (``_ID = re.compile(...)``)
            return made_by or dotted_name(value.func) or ""
        return None  # a module-level literal (a constant table)

    def _constant_table(self, root: str, attr: str) -> bool:
        """Whether ``root.attr`` is a class attribute of the class being read that its body binds
        to a lookup table fixed in the source (``constants.literal_table``): ``cls.EXT_TO_LANG``,
        ``self.KINDS``."""
        if root not in ("self", "cls") or not self.class_name:
            return False
        cls = self.mod.classes.get(self.class_name)
        return cls is not None and literal_table(class_constant(cls, attr))

    def _external_sql(self, node: cst.Call, name: str, shape: Shape, site: Site) -> Flow | None:
        """SQL (or Cypher) through any receiver: ``client.query("SELECT ...")`` returns rows;
        a caller-supplied query returns whatever it selects; a write statement a counter."""
        sql_node = next((a.value for a in node.args if a.keyword is None or a.keyword.value in QUERY_KEYWORDS), None)
        if sql_node is None:
            return None
        text = self.string_value(sql_node)
        if text is None:
            # ``client.execute(database, f"{table} | take 10")``: query text in a later argument
            later = self.query_argument(node)
            later_text = self.string_value(later)
            if later_text is not None and cat.looks_like_sql(later_text):
                sql_node, text = later, later_text
        if text is not None and graphql.is_document(text):
            # ``client.execute_graphql("query { me { name } }")``: its selection decides
            bound = self.sql_bound(sql_node, EMPTY, site)
            if bound == "aggregate":
                return EMPTY
            return frozenset({Src("TL101", site, f".{name}() of GraphQL `{' '.join(text.split())[:40]}`", bound)})
        if text is not None:
            if cat.no_rows_statement(text):
                return EMPTY  # ``client.command("INSERT INTO ...")``: a counter
            if not cat.looks_like_sql(text):
                return None
            if cat.SQL_WRITE.match(text):
                return EMPTY
            argflow = self._args_flow(node)
            bound = self.sql_bound(sql_node, argflow, site)
            if bound == "aggregate":
                return EMPTY
            return frozenset({Src("TL101", site, f".{name}() of `{text.strip()[:40]}`{cat.gathered_note(text)}", bound)})
        ps = params(self.expr(sql_node))
        if ps and any(p.name.lower() in QUERY_KEYWORDS for p in ps) and shape not in (Shape.RECORD, Shape.SCALAR) \
                and not {"search", "find", "lookup", "match"} & set(words(name)):
            # (``client.query(query, num_results)``, ``db.run(query, limit=limit)``: the rows the
            # call is told to return at most)
            bound = self._argument_bound(node)
            if bound is None and isinstance(given := self.sql_bound(sql_node, EMPTY, site), Bound):
                # ``def run(query): return client.query(query)`` in a helper: the text each caller
                # passes decides (``LIMIT 10``, ``COUNT(*)``, ``USE db``: ``FollowedCalls``), as
                # for a DB-API cursor (``LibraryCalls.sql_bound``)
                bound = given
            src = Src("TL101", site, f".{name}() of a caller-supplied query")
            return frozenset({src.with_bound(bound) if bound is not None else src})
        return None

    def _argument_bound(self, node: cst.Call) -> Bound | None:
        """The strongest count cap among a call's arguments: a limit-like keyword
        (``max_results=50``, ``limit=limit``) or a limit-like parameter passed positionally."""
        best: Bound | None = None
        pairs = self._argument_pairs(node)
        # a request body nested one level down (``client.search(index=i, body=query)`` with
        # ``query["size"] = n``; ``search(**{"index": i, "body": {"size": n}})``)
        pairs += [(key, value, True) for _, outer, named in list(pairs) if named
                  for key, value in self._dict_pairs(outer)]
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
                if ps and all(limit_like(p.name) for p in ps):
                    b = self.bound_from(value, node)
            if b is not None and (best is None or b.rank() > best.rank()):
                best = b
        return best

    def built_dicts(self) -> frozenset[str]:
        """The locals this function binds to a dict it builds (``result = {...}``, ``result:
        dict[str, Any] = {}``, a dict comprehension, ``dict(...)``, ``defaultdict(list)``): their
        ``.items()`` / ``.get()`` are the dict's own, not a client's. Read once from the body."""
        found = self.__dict__.get("_built_dicts")
        if found is None:
            names: set[str] = set()
            for n in walk_own(self.fn.body):
                if isinstance(n, cst.Assign):
                    value: cst.BaseExpression | None = n.value
                    targets = [t.target for t in n.targets]
                elif isinstance(n, cst.AnnAssign):
                    value, targets = n.value, [n.target]
                else:
                    continue
                made = isinstance(value, (cst.Dict, cst.DictComp)) or (
                    isinstance(value, cst.Call) and (dotted_name(value.func) or "").split(".")[-1]
                    in ("dict", "defaultdict", "OrderedDict", "Counter"))
                if made:
                    names |= {t.value for t in targets if isinstance(t, cst.Name)}
            found = frozenset(names)
            self.__dict__["_built_dicts"] = found
        return found

    def _argument_pairs(self, node: cst.Call) -> list[tuple[str | None, cst.BaseExpression, bool]]:
        """A call's arguments as ``(key, value, named)``: each argument (its keyword, or None and
        not named when positional), the entries of a ``**dict`` it spreads, and the entries of a
        dict it is given (``search_posts(params={"q": q, "limit": n})``, ``_call(method,
        params)``), these named by their keys."""
        pairs: list[tuple[str | None, cst.BaseExpression, bool]] = []
        for a in node.args:
            if a.star == "**":
                for key, value in self.dict_entries.get(dotted_name(a.value) or "", []):
                    pairs.append((key, value, True))
            elif a.star == "":
                pairs.append((a.keyword.value if a.keyword is not None else None, a.value, a.keyword is not None))
                pairs += [(key, value, True) for key, value in self._dict_pairs(a.value)]
        return pairs

    def offset_bound(self, node: cst.Call) -> Bound | None:
        """The page a REST API returns when a listing call of its client is handed a page offset
        the tool was given (an ``offset``/``page``/``startAt`` keyword, or such a key of a dict
        it spreads or is given, whose value is a parameter): an API that takes an offset pages
        the listing itself and applies its own page size when the caller names none (Airflow's
        ``limit`` defaults to 100, Jira's ``maxResults`` to 50, GitHub's ``per_page`` to 30), so
        one response is one page of a size tokenlint cannot see (``Bound.upstream``, labelling
        rule 8). Only for calls named for a collection (``get_dags``, ``list_task_instances``) on
        an object of a REST client class (``_rest_api_class``): a database's client given an
        offset and no limit returns the rest (chromadb's ``list_collections``), and a file read
        from an offset (``read(path, offset=n)``) the rest of the file. None when there is no
        such argument."""
        return self._page_bound(node, _OFFSET_KEYWORDS)

    def cursor_bound(self, node: cst.Call) -> Bound | None:
        """The page a remote API returns when this call hands it a page cursor it was given (a
        ``cursor``/``page_token``/``starting_after`` keyword, or such a key of a dict it is given,
        ``params=`` or positional, whose value is a parameter of the tool or helper): the
        API pages the result itself (cursor-paginated APIs always do: Stripe, Slack, Notion,
        Todoist, Google APIs' ``pageToken``), so one response is one page of a size tokenlint
        cannot see (``Bound.upstream``). A cursor taken from the previous response (a loop over
        every page) is no parameter and gives nothing. None when there is no such argument."""
        return self._page_bound(node, _CURSOR_KEYWORDS)

    def _page_bound(self, node: cst.Call, keywords: frozenset[str]) -> Bound | None:
        """``Bound.upstream`` at ``node`` when one of its named arguments (``_argument_pairs``:
        a keyword, a key of a dict it spreads or is given) is one of ``keywords`` (compared lower
        case, without ``_``/``-``) and holds a parameter of the tool or helper; else None."""
        for key, value, named in self._argument_pairs(node):
            if named and key is not None and key.replace("_", "").replace("-", "").lower() in keywords \
                    and params(self.expr(value)):
                return Bound(self.a.site(self.mod, node), upstream=True)
        return None

    def _passed_dict(self, given: cst.Name) -> str | None:
        """The helper parameter whose dict the local or parameter ``given`` is, or a copy of
        (``params``, or ``merged`` built from ``params`` and a ``**kwargs`` gatherer): the one
        parameter (not a ``**kwargs``) the caller fills it from; None when it is none or two."""
        held = {t.name for t in self.env.get(given.value, EMPTY) if isinstance(t, Param) and t.site is None}
        if given.value in held:
            return given.value
        named = {p.name.value for p in parameters(self.fn)} if isinstance(self.fn, cst.FunctionDef) else set()
        held &= named
        return held.pop() if len(held) == 1 else None

    def request_bound(self, node: cst.Call) -> Bound | None:
        """The page size an HTTP request asks for, as a cap on the response it returns: a
        limit-like key (``limit``, ``per_page``, ``pageSize``, ``max_results``…) of the query
        parameters or body given as ``params=`` / ``json=`` / ``data=`` (a dict literal or a local
        dict, also built key by key; also as entries of a ``**kwargs`` dict the request is given),
        or of the URL's query string (``f"...?limit={n}"``); None
        when the request names no page size. The same cap an SDK call's limit keyword gives
        (``_argument_bound``): the API returns at most that many items. A page cursor the caller
        gave, in the URL's query string or the request's arguments (``cursor_bound``), makes the
        response one page of the API's own size."""
        best: Bound | None = None
        passed: list[str] = []  # (the helper's parameters whose dict the request sends)
        arguments: list[tuple[str | None, cst.BaseExpression]] = []
        for a in node.args:
            if a.star == "**" and isinstance(a.value, cst.Name):
                # ``kwargs["json"] = json_body; client.request(method, url, **kwargs)``
                arguments += [(k, v) for k, v in self.dict_entries.get(a.value.value, []) if k is not None]
                if self.helper and a.value.value == gathering_parameters(self.fn)[1] and \
                        a.value.value not in self.dict_entries:
                    # ``async def _make_request(self, method, url, **kwargs): return await
                    # self.http_client.post(url, **kwargs)``: the page size is in the ``json=``,
                    # ``params=`` or ``data=`` each caller passes (``_from_helper`` reads it)
                    passed += ["params", "json", "data"]
            elif not a.star:
                arguments.append((a.keyword.value if a.keyword is not None else None, a.value))
        for keyword, value in arguments:
            pairs: list[tuple[str | None, cst.BaseExpression]] = []
            url_cursor = False
            if keyword in ("params", "json", "data", "content"):
                pairs = self._dict_pairs(value)
                given = _or_empty(value)
                held = self._passed_dict(given) if self.helper and given is not None else None
                if held is not None and self.pairs_bound(pairs, node) is None:
                    # ``def _get(path, params): httpx.get(url, params=params)``: the page size
                    # is in the dict each caller passes (``_from_helper`` reads it there), also
                    # when the helper fills in keys of its own (``if params is None: params = {}``,
                    # ``params["api-version"] = v``) or copies it (``merged = {**(params or {}),
                    # **extra}``, then drops the None values)
                    passed.append(held)
                    continue
                q = self._query_text_bound(value, pairs, node)
                if q is not None and (best is None or q.rank() > best.rank()):
                    best = q
            elif keyword is None or keyword == "url":
                pairs = _query_string_pairs(self.url_parts(value))
                # ``f"{base}/tasks?cursor={cursor}"``: one page of the API's own size
                url_cursor = any(k is not None and k.replace("_", "").lower() in _CURSOR_KEYWORDS
                                 and params(self.expr(v)) for k, v in pairs)
            b = self.pairs_bound(pairs, node)
            if b is not None and (best is None or b.rank() > best.rank()):
                best = b
            if url_cursor and (best is None or best.rank() < 3):
                best = Bound(self.a.site(self.mod, node), upstream=True)
        if passed:  # (several: whichever the caller gives, ``json_body=`` or ``data=``)
            return Bound(self.a.site(self.mod, node), sql_param=",".join(dict.fromkeys(passed)))
        page = self.cursor_bound(node)
        if page is not None and (best is None or page.rank() > best.rank()):
            best = page
        url = request_url(node)
        if best is None and self.helper and isinstance(url, cst.Name) and any(
                isinstance(t, Param) and t.site is None and t.name == url.value for t in self.env.get(url.value, EMPTY)):
            # ``def _get(client, url): return await client.get(url)``: the page size is in the
            # query string of the URL each caller passes (``_from_helper`` reads it there)
            return Bound(self.a.site(self.mod, node), sql_param=url.value)
        return best

    def url_parts(self, node: cst.BaseExpression, depth: int = 0) -> list[str | cst.BaseExpression | None]:
        """The pieces of a URL built from strings: its text and the values interpolated into it,
        through f-strings, implicit concatenation (``f"start={start}" f"&max_results={n}"``) and
        locals bound to such strings (``url = f"{base}?limit={n}"``; ``f"{api}?q={q}&{paging}"``
        with ``paging`` another), and a URL a helper of the run returns (``url = build_url(q,
        max_results=n)``: ``returned_url_parts``); ``[]`` for anything else, ``None`` for a value
        interpolated that is not known here. Gives up beyond 3 levels."""
        if depth > 3:
            return []
        if isinstance(node, cst.Name) and node.value in self.string_nodes:
            return self.url_parts(self.string_nodes[node.value], depth + 1)
        if isinstance(node, cst.Call):
            formatted = _formatted_parts(node)
            if formatted is not None:
                return formatted
            return self.returned_url_parts(node, depth + 1)
        if isinstance(node, cst.BinaryOperation):
            return _formatted_parts(node) or []
        if isinstance(node, cst.ConcatenatedString):
            return self.url_parts(node.left, depth + 1) + self.url_parts(node.right, depth + 1)
        if isinstance(node, cst.SimpleString):
            v = node.evaluated_value
            return [v] if isinstance(v, str) else []
        if not isinstance(node, cst.FormattedString):
            return []
        out: list[str | cst.BaseExpression | None] = []
        for p in node.parts:
            if isinstance(p, cst.FormattedStringText):
                out.append(p.value)
            elif isinstance(p, cst.FormattedStringExpression):
                inner = p.expression
                nested = self.url_parts(inner, depth + 1) if isinstance(inner, cst.Name) else []
                out += nested or [inner]
        return out

    def _query_text_bound(self, body: cst.BaseExpression, pairs: list[tuple[str | None, cst.BaseExpression]],
                          node: cst.Call) -> Bound | None:
        """The row cap of query text a request sends (``data=dql.encode()``, ``json={"sql":
        "... LIMIT 20"}``: a query language over HTTP), read as a database query's
        (``sql_bound``: ``LIMIT n``, ``LIMIT {limit}`` bound to a limit-like parameter); None
        when the body holds no query text with a cap."""
        texts = [v for k, v in pairs if k is not None and k.lower() in QUERY_KEYWORDS] if pairs else [body]
        best: Bound | None = None
        for text in texts:
            b = self.sql_bound(text, self.expr(text), self.a.site(self.mod, node))
            if isinstance(b, Bound) and not b.sql_param and not b.command_param and (best is None or b.rank() > best.rank()):
                best = b  # (a write statement's counter is left to the request: ``http_ack``)
        return best

    def pairs_bound(self, pairs: list[tuple[str | None, cst.BaseExpression]], node: cst.CSTNode) -> Bound | None:
        """The strongest cap among a request's ``(key, value)`` parameters whose key is
        limit-like (``limit``, ``per_page``, ``pageSize``, ``max_results``, ``n_chunks``:
        ``limit_like``), or whose value is named as one (SonarQube's ``"ps": page_size``); a
        page size that is the length of a list (``max_results=len(ids)``) and a list of the
        identifiers of the records asked for (``"ids": ",".join(ids)``) are capped as that list
        is (``list_bound``)."""
        best: Bound | None = None
        for key, value in pairs:
            named = dotted_name(value)
            if key is not None and id_list_key(key):
                b = self.list_bound(value, node)
            elif key is None or not (key.replace("_", "").replace("-", "").lower() in _LIMIT_KEYWORDS
                                     or limit_like(key) or (named is not None and limit_like(named.split(".")[-1]))):
                continue
            elif _len_call(value) is not None:
                b = self.list_bound(value, node)
            else:
                b = self.bound_from(value, node)
            if b is not None and (best is None or b.rank() > best.rank()):
                best = b
        return best

    def list_bound(self, expr: cst.BaseExpression, node: cst.CSTNode) -> Bound | None:
        """The cap on records fetched one per element of a list (``ids=",".join(ids)``, ``WHERE
        name IN ({names})``, ``max_results=len(ids)``): the bound of the list (``flow_list_bound``);
        None when the list is not bounded or not known."""
        if isinstance(expr, cst.Name) and isinstance(self.string_nodes.get(expr.value), cst.Call):
            expr = self.string_nodes[expr.value]  # ``marks = ", ".join("?" for _ in page)``
        return self.flow_list_bound(self.expr(_list_of(expr)), node)

    def flow_list_bound(self, flow: Flow, node: cst.CSTNode) -> Bound | None:
        """The bound of a list given as a flow: the weakest bound of the data it was made of
        (``[i["id"] for i in items[:top]]``; None if any of it is unbounded), else the caller's own
        list (a tool parameter: its length is the caller's to choose, with any maximum enforced on
        it), or in a helper the list each caller passes (``Bound.ids_param``) unless a cap was
        applied to it here; None for anything else."""
        srcs = [t for t in flow if isinstance(t, Src)]
        if srcs:
            bounds = [s.bound for s in srcs]
            if any(b is None for b in bounds):
                return None
            return min(cast("list[Bound]", bounds), key=Bound.rank)
        held = sorted((t for t in flow if isinstance(t, Param)), key=lambda p: p.name)
        if not held or any(isinstance(t, Marker) for t in flow):
            return None
        p = held[0]
        site = self.a.site(self.mod, node)
        if p.site is None:
            if p.cap is not None:
                return p.cap
            return Bound(site, ids_param=p.name) if self.helper else None
        known = self.param_defaults.get(p.name, p)
        return Bound(site, param=p.name, clamp=p.clamp if p.clamp is not None else known.clamp,
                     default_none=known.default_none, param_site=known.site)

    def _dict_pairs(self, value: cst.BaseExpression, depth: int = 0) -> list[tuple[str | None, cst.BaseExpression]]:
        """The ``(key, value)`` entries of a dict literal, or of a local dict built in this
        function (``params = {...}``, ``params["limit"] = n``), also serialized as JSON text for
        the body (``data=json.dumps({...})``, ``payload = orjson.dumps(body)`` then
        ``Request(url, data=payload)``, ``.encode()`` of such text: the keys the API reads are the
        same); ``[]`` for anything else."""
        if isinstance(value, cst.Dict):
            return [(string_literal(e.key), e.value) for e in value.elements if isinstance(e, cst.DictElement)]
        if depth > 3:
            return []
        if isinstance(value, cst.Name):
            if value.value in self.dict_entries:
                return list(self.dict_entries[value.value])
            text = self.string_nodes.get(value.value)
            return self._dict_pairs(text, depth + 1) if isinstance(text, cst.Call) else []
        if not isinstance(value, cst.Call):
            return []
        if isinstance(value.func, cst.Attribute) and value.func.attr.value == "encode":
            return self._dict_pairs(value.func.value, depth + 1)  # (``json.dumps(body).encode()``)
        module, _, name = (self.mod.imports.qualify(value.func) or "").rpartition(".")
        if module in JSON_MODULES and name == "dumps" and value.args and not value.args[0].star:
            return self._dict_pairs(value.args[0].value, depth + 1)
        return []

    def request_response(self, node: cst.Call, site: Site) -> Flow:
        """The ``http_response`` marker of an HTTP request, carrying the page size it asks for
        (``request_bound``) to the body read from it; for a write (``PUT``, ``PATCH``,
        ``DELETE``: RFC 9110 §9.3) an ``http_ack`` marker instead, whose body is one record (the
        resource written, or nothing)."""
        self._args_flow(node)
        # (a request object built apart, ``req = Request(url, data=body); urlopen(req)``: its
        # URL, method and body are the request's)
        node = self.request_object(node.args[0].value if node.args and not node.args[0].star else None) or node
        if http_write(node, self.action_name):
            return frozenset({Marker("http_ack", site)})
        url = request_url(node)
        text = self.string_value(url) if url is not None else None
        one, fixed = url_resource(text)
        keys = self.identifier_request(node) if not record_path(text) else None
        if keys is not None:  # the records of the identifiers the caller named (``?ids=1,2``)
            return frozenset({Marker("http_response", site, sql_bound=self.request_bound(node), whole=True,
                                     family=ID_RECORDS_FAMILY, keys=keys)})
        url_param = url.value if self.helper and isinstance(url, cst.Name) and any(
            isinstance(t, Param) and t.site is None and t.name == url.value for t in self.env.get(url.value, EMPTY)) \
            else None  # (the caller's URL decides: ``_from_helper``)
        tail = re.search(r"/\{(\w+)\}$", text) if url_param is None and self.helper and text else None
        if tail is not None and any(isinstance(t, Param) and t.site is None and t.name == tail.group(1)
                                    for t in self.env.get(tail.group(1), EMPTY)):
            url_param = tail.group(1)  # ``f"{self.base_url}/{endpoint}"``: the caller's path decides
        return frozenset({Marker("http_response", site, sql_bound=self.request_bound(node) or api_record_bound(text, site),
                                 whole=one, fixed=fixed, url_param=url_param, posted=request_method(node) == "post")})

    def request_object(self, first: cst.BaseExpression | None) -> cst.Call | None:
        """The ``Request(...)`` construction (``urllib.request``, ``httpx``, ``requests``) an
        expression is, directly (``urlopen(Request(...))``), through a local (``req =
        Request(...)``, up to 3 hops) or ``.prepare()`` (``session.send(requests.Request(...)
        .prepare())``): a request built apart from the call that sends it, whose URL, method and
        body are read there. None for anything else."""
        for _ in range(3):
            if isinstance(first, cst.Name):
                first = self.string_nodes.get(first.value)
            elif isinstance(first, cst.Call) and isinstance(first.func, cst.Attribute) and first.func.attr.value == "prepare":
                first = first.func.value
            else:
                break
        if isinstance(first, cst.Call) and (self.mod.imports.qualify(first.func) or "").endswith(".Request") \
                and first.args:
            return first
        return None

    def identifier_request(self, node: cst.Call) -> tuple[str, ...] | None:
        """Whether a request is a ``GET`` that names the records it wants by identifiers the caller
        gave: a query parameter (``params=`` / a dict passed positionally / the URL's query string)
        keyed by a bare identifier word (``id``, ``ids``, ``slug``, ``symbol``: ``identifier_key``)
        whose value is a parameter, nothing the tool read (``params={"ids": ",".join(ids)}``), and
        no search key beside it. Such a batch read returns one record per identifier (the REST
        convention of ``GET /items?ids=1,2``: the Azure DevOps, CoinMarketCap, Stripe, JSON:API
        ``filter[id]`` APIs), so its size follows the caller's own input (labelling rule 6). Gives
        the helper's parameters that held the identifiers (``Marker.keys``; ``()`` when they are
        the tool's own), or None when the request is not one. A key naming another entity's
        identifier (``project_id``, ``post_id``: a filter listing that entity's children) is no
        identifier of the records."""
        if http_write(node, self.action_name) or any(
                w in ("post", "put", "patch", "delete") for w in words(_callee_name(node))):
            return None
        pairs: list[tuple[str | None, cst.BaseExpression]] = []
        for a in node.args:
            literal = string_literal(a.value)
            if literal is not None and literal.upper() in _NOT_GET_METHODS:
                return None  # ``_request("POST", ...)`` (``_request("GET", "loans", ...)``: a path)
            if a.keyword is not None and a.keyword.value == "params":
                pairs += self._dict_pairs(a.value)
            elif a.keyword is None or a.keyword.value == "url":
                pairs += self._dict_pairs(a.value) + _query_string_pairs(self.url_parts(a.value))
        named = [v for k, v in pairs if k is not None and identifier_key(k)]
        if not named or any(k is not None and k.lower() in _SEARCH_KEYS for k, _ in pairs):
            return None
        keys: set[str] = set()
        for value in named:
            flow = self.expr(value)
            ps = params(flow)
            if not ps or any(isinstance(t, Src) or (isinstance(t, Marker) and t.whole) for t in flow):
                return None
            keys |= {p.name for p in ps if p.site is None}
        return tuple(sorted(keys))

    def records_of_identifiers(self, flow: Flow, node: cst.Call) -> Flow:
        """What a project helper that sends a request returns when this call passes it a ``GET``
        naming its records by the caller's identifiers (``identifier_request``:
        ``self._request("GET", "/v2/items/info", params=params)`` with ``params["id"] = id``):
        the JSON body, one record per identifier (an ``ID_RECORDS_FAMILY`` marker, read whole);
        other sources pass unchanged."""
        if not any(json_body(t) for t in flow):
            return flow
        keys = self.identifier_request(node)
        if keys is None:
            return flow
        return frozenset(Marker("object", t.site, t.bound, whole=True, rule="TL105", family=ID_RECORDS_FAMILY,
                                keys=keys) if isinstance(t, Src) and json_body(t) else t for t in flow)


def _or_empty(value: cst.BaseExpression) -> cst.Name | None:
    """The name a request's parameters are given as: ``params``, or ``params or {}`` /
    ``params or None`` (the caller's dict, or nothing); None for anything else."""
    if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or) and (
            (isinstance(value.right, cst.Dict) and not value.right.elements) or dotted_name(value.right) == "None"):
        value = value.left
    return value if isinstance(value, cst.Name) else None


def _query_string_pairs(parts: list[str | cst.BaseExpression | None]) -> list[tuple[str | None, cst.BaseExpression]]:
    """``[".../items?limit=", n, "&q=", q]`` → ``[("limit", n), ("q", q)]``: the query parameters
    of a URL's pieces (its text and its interpolated values, ``url_parts``); a value not known
    here (``None``) gives no pair."""
    out: list[tuple[str | None, cst.BaseExpression]] = []
    text = ""
    for part in parts:
        if isinstance(part, str):
            text += part
            continue
        m = re.search(r"[?&]([A-Za-z_][\w.-]*)=$", text)
        if m and part is not None:
            out.append((m.group(1), part))
        text = ""
    return out


def id_list_key(key: str) -> bool:
    """Whether a request parameter names a list of the identifiers of the records asked for
    (``ids``, ``issue_ids``, ``id_list``, ``workItemIds``): one record comes back per element."""
    ws = words(key)
    return bool(ws) and (ws[-1] == "ids" or ws[-2:] == ["id", "list"])


def _list_of(node: cst.BaseExpression) -> cst.BaseExpression:
    """The list a value is made of one element at a time: ``ids`` of ``len(ids)``,
    ``",".join(ids)``, ``",".join(map(str, ids))``, ``", ".join(quote(n) for n in names)``,
    ``list(ids)``; ``node`` itself otherwise."""
    for _ in range(4):
        inner = _len_call(node)
        if inner is None and isinstance(node, cst.Call) and node.args:
            callee = dotted_name(node.func) or ""
            if isinstance(node.func, cst.Attribute) and node.func.attr.value == "join" and len(node.args) == 1:
                inner = node.args[0].value
            elif callee in ("map", "filter") and len(node.args) == 2:
                inner = node.args[1].value
            elif callee in ("list", "tuple", "set", "sorted") and len(node.args) == 1:
                inner = node.args[0].value
        if inner is None and isinstance(node, (cst.GeneratorExp, cst.ListComp, cst.SetComp)):
            inner = node.for_in.iter
        if inner is None:
            return node
        node = inner
    return node


def _len_call(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x`` of ``len(x)``, else None."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len" \
            and len(node.args) == 1 and node.args[0].keyword is None:
        return node.args[0].value
    return None


#: HTTP methods that write one resource (RFC 9110 §9.3.4-9.3.5, RFC 5789): their response is
#: the resource written or an acknowledgement. POST is left out: many APIs search with it.
HTTP_WRITES = frozenset({"put", "patch", "delete"})


#: Words that name an HTTP method or a request, not what a function does with it.
_HTTP_VERB_WORDS = frozenset({"post", "put", "patch", "delete", "send", "request", "get", "head"})


def _callee_name(node: cst.Call) -> str:
    """The last name of what ``node`` calls (``self._request(...)`` → ``_request``), or ``""``."""
    func = node.func
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


def _executes_write(request: cst.BaseExpression) -> bool:
    """Whether ``request``, the receiver of a no-argument ``.execute()``, is a request built by a
    method named for a write (``.update(...)``, ``.batchUpdate(...)``, ``.insert(...)``,
    ``.delete(...)``, ``.copyTo(...)``): the last call of its chain decides."""
    if not (isinstance(request, cst.Call) and isinstance(request.func, cst.Attribute)):
        return False
    ws = words(request.func.attr.value)
    if ws[:1] == ["batch"]:
        ws = ws[1:]  # ``batchUpdate``, ``batch_delete``: a write of several at once
    return bool(ws) and (ws[0] in WRITE_VERBS or ws[0] in ("copy", "clear", "append", "replace"))


def _executes_record_get(request: cst.BaseExpression) -> bool:
    """Whether ``request``, the receiver of a no-argument ``.execute()``, is a ``get`` of one
    resource of a Google API collection whose resources are metadata records of fixed fields
    (``service.files().get(fileId=f, fields="id, name").execute()``: ``cat.GOOGLE_RECORD_RESOURCES``),
    not content (a Docs document, a Gmail message, Sheets values)."""
    if not (isinstance(request, cst.Call) and isinstance(request.func, cst.Attribute) and
            request.func.attr.value == "get" and request.args):
        return False
    owner = request.func.value
    return isinstance(owner, cst.Call) and not owner.args and isinstance(owner.func, cst.Attribute) and \
        owner.func.attr.value in cat.GOOGLE_RECORD_RESOURCES


def writes_by_name(name: str) -> bool:
    """Whether a function or tool named ``name`` is named for a write by its first word
    (``shapes.WRITE_VERBS``: ``add_task``, ``remember_this``), not for the HTTP method or request
    it sends (``post``, ``send_request``: a wrapper's name says nothing)."""
    ws = words(name)
    if len(ws) > 2 and ws[0] not in WRITE_VERBS | COLLECTION_VERBS | _RECORD_READS and ws[1] in WRITE_VERBS:
        ws = ws[1:]  # ``gitlab_create_branch``, ``jira_add_comment``: a namespace, then the verb
    return bool(ws) and ws[0] in WRITE_VERBS - _HTTP_VERB_WORDS


def http_write(node: cst.Call, caller: str = "") -> bool:
    """Whether an HTTP request call is a write: ``requests.delete(...)``, ``client.patch(...)``,
    or ``request("DELETE", ...)`` / ``api_call(path, method="PUT")`` with the method spelled out
    (``request_method``); a ``POST`` too when the function sending it (``caller``) is named for a
    write (``def add_task(...)``, ``update_label``): POST also searches, so its name decides. A
    request helper given an RPC-style method name (``_call("reactions.add")``) from a function
    named for a write is one too (``rpc_write``)."""
    writer = writes_by_name(caller)
    method = request_method(node)
    if method is not None:
        return method in HTTP_WRITES or (writer and method == "post")
    text = _request_helper_text(node)
    return text is not None and writer and rpc_write(text)


#: The HTTP methods (RFC 9110 §9.3), lower case.
_HTTP_METHODS = frozenset({"get", "head", "post", "put", "patch", "delete", "options"})


def _request_helper_text(node: cst.Call) -> str | None:
    """For a call of a request helper (``_request``, ``make_trello_request``, ``api_call``,
    ``_call``, ``send``): the text of the method it is given, as ``method=`` or else its first
    positional argument (``""`` when that is no literal); None for any other call."""
    name = _callee_name(node)
    ws = words(name)
    if not (name.lstrip("_") in ("send", "call_api") or (ws and ws[-1] in ("request", "call", "rpc", "invoke"))):
        return None
    for a in node.args:
        if a.keyword is not None and a.keyword.value == "method":
            return string_literal(a.value) or ""
    positional = [string_literal(a.value) or "" for a in node.args if a.keyword is None]
    verbs = [t for t in positional if t.lower() in _HTTP_METHODS]
    return (verbs or positional or [""])[0]


def request_method(node: cst.Call) -> str | None:
    """The HTTP method (lower case) a request call sends, when the code spells it:
    ``client.post(...)``, ``requests.delete(...)``, ``request("PUT", url)``, ``api_call(path,
    method="POST")``; None when it cannot be read (a wrapper named for the method itself, ``def
    post(self, path)`` or a private ``def _post(self, path, body)``, is read by its name like
    the library's)."""
    name = _callee_name(node).lower().lstrip("_")
    if name in _HTTP_METHODS:
        return name
    text = (_request_helper_text(node) or "").lower()
    return text if text in _HTTP_METHODS else None


def rpc_write(endpoint: str) -> bool:
    """Whether an RPC-style method name a request helper is given names a write, by the first
    word of its last segment (Slack Web API ``reactions.add``, ``conversations.setTopic``,
    ``chat.postMessage``; JSON-RPC ``unlink``): ``shapes.WRITE_VERBS``. A path whose last
    segment is a noun (``conversations.history``, ``/users``) is not."""
    last = re.split(r"[./]", endpoint.strip("/"))[-1] if endpoint else ""
    ws = words(last)
    return bool(ws) and ws[0] in WRITE_VERBS


#: Family of the ``object`` marker an ``except ... as e`` binds: the exception caught. The JSON
#: error payload of its response (``e.response.json()``) is one small record, an API's error
#: object (``{"error": {"message": ...}}``), not data the tool asked for.
EXCEPTION_FAMILY = "exception"

#: Family of the ``object`` marker of the record a write sent back (``ack_of_write``): its fields,
#: open-ended ones included (``issue["description"]``), echo what the caller sent (labelling
#: rule 6, "created entities echoed back").
ACK_FAMILY = "write.ack"

#: Family of what a class declares (``row.__table__``, ``model_fields``): fixed by its code.
DECLARATION_FAMILY = "class.declaration"

#: Family of the ``object`` marker of the JSON body of a ``GET`` that names the records it wants by
#: identifiers the caller gave (``params={"ids": ",".join(ids)}``: ``records_of_identifiers``):
#: one record per identifier, each read whole until a field is picked from it.
ID_RECORDS_FAMILY = "json.id_records"


def graphql_mutation(node: cst.Call, text_of: Callable[[cst.BaseExpression], str | None]) -> bool:
    """Whether a call passes a GraphQL mutation document (``self._execute(mutation, variables)``
    with ``mutation = "mutation CreateIssue(...) {...}"``): the operation type ``mutation`` is a
    write (GraphQL spec §2.3, "Operations"); a ``query`` document reads. ``text_of`` maps an
    argument to its string text."""
    for a in node.args:
        text = text_of(a.value)
        if text and re.match(r"\s*mutation\b", text):
            return True
    return False


def ack_of_write(flow: Flow, node: cst.Call, caller: str = "",
                 text_of: Callable[[cst.BaseExpression], str | None] | None = None,
                 listed: frozenset[Site] = frozenset()) -> Flow:
    """What a project helper returns when this call is a write: it sends a write method
    (``self._request("DELETE", f"labels/{id}")``, see ``http_write``) or a GraphQL mutation
    (``graphql_mutation``, with ``text_of`` mapping an argument to its text) and the HTTP body it
    returns is one record, not a collection; or the helper itself is named for a write
    (``connection.unlink(model, ids)``, ``delete_record(...)``: ``helper_writes``) and what it
    passes back from a remote call (an HTTP body, an RPC result) is the acknowledgement. Other
    sources (a file, rows of a query) pass unchanged, and so does a source at a site of
    ``listed`` (put under a key naming a collection of the dict the helper builds, ``{"columns":
    df.columns.tolist()}``) that is no write itself: a listing read beside the write, not its
    acknowledgement."""
    if http_write(node, caller) or (text_of is not None and graphql_mutation(node, text_of)):
        codes: tuple[str, ...] = ("TL105",)
    elif helper_writes(node):
        codes = ("TL105", "TL108")
    else:
        return flow
    out: set[Taint] = set()
    for t in flow:
        if isinstance(t, Src) and t.site in listed and not _write_named(t.site.node):
            out.add(t)
        elif isinstance(t, Src) and t.code in codes:
            out.add(Marker("object", t.site, fixed=True, family=ACK_FAMILY))
        elif isinstance(t, Marker) and t.kind == "http_response":
            # a response the helper returns unread (``return self._http.request(method, ...)``)
            out.add(Marker("http_ack", t.site))
        elif isinstance(t, Marker) and t.kind == "object" and t.whole and "TL108" in codes:
            out.add(replace(t, whole=False, fixed=True))
        else:
            out.add(t)
    return frozenset(out)


def posted_through(flow: Flow, node: cst.Call) -> Flow:
    """What a project helper returns when this call has it send a ``POST`` (``self._request(
    "POST", path)``, ``api_call(path, method="POST")``: ``request_method``) and is no write by
    name: its HTTP responses and bodies are marked ``posted`` (``Src.posted``), for the tool's
    name to decide."""
    if request_method(node) != "post":
        return flow
    return frozenset(replace(t, posted=True) if (isinstance(t, Marker) and t.kind == "http_response")
                     or (isinstance(t, Src) and t.code == "TL105") else t for t in flow)


#: First words of a function that changes or removes one thing and reports on it: its result is
#: an acknowledgement. Narrower than ``shapes.WRITE_VERBS``: ``send``/``post``/``write``/
#: ``publish`` name transports (``send_request``), ``create`` can make a report.
_ACK_VERBS = frozenset({"delete", "del", "remove", "unlink", "destroy", "purge", "update", "upsert",
                        "insert", "patch", "archive", "unarchive", "rename", "move", "set", "add",
                        "close", "reopen", "cancel", "assign", "unassign", "lock", "unlock", "enable",
                        "disable", "mark", "star", "unstar", "pin", "unpin"})


def _write_named(node: cst.CSTNode) -> bool:
    """Whether ``node`` is a call of something named for a write by its first word
    (``shapes.WRITE_VERBS``: ``api.create_tasks(...)``, ``sheet.append_rows(...)``)."""
    ws = words(_callee_name(node)) if isinstance(node, cst.Call) else []
    return bool(ws) and (ws[0] in WRITE_VERBS or ws[0] == "append")


def helper_writes(node: cst.Call) -> bool:
    """Whether the function a call names is named for a write whose result is an acknowledgement
    (``_ACK_VERBS``, by its first word: ``unlink``, ``delete_record``, ``update_task``), and not
    for a text or a collection it makes (``update_and_list_tasks``, ``set_filters``)."""
    return _writes_one(_callee_name(node), _ACK_VERBS)


def _writes_one(name: str, verbs: frozenset[str], nouns: int = 0) -> bool:
    """Whether ``name``'s first word is one of ``verbs`` and at least ``nouns`` words follow it,
    none of them a text noun or a plural (``update_task``, not ``update_and_list_tasks``)."""
    ws = words(name)
    if len(ws) < 1 + nouns or ws[0] not in verbs:
        return False
    return not any(w in TEXT_NOUNS or is_plural(w) for w in ws[1:]) and "list" not in ws and "all" not in ws


def library_write(name: str) -> bool:
    """Whether a method of a library object named ``name`` writes one entity and gives that
    entity back (``repo.create_issue(title=t, body=b)``, ``issue.add_comment(text)``,
    ``board.update_card(...)``): its first word is ``create`` or an acknowledging verb
    (``_ACK_VERBS``), followed by one singular noun that is no text (``create_report`` makes a
    text, ``add_members`` several things). The entity's fields echo what the caller sent
    (labelling rule 6, "created entities echoed back"); a bare ``create`` (``completions.create``)
    names no entity and is not one. A resource then the verb, as the Slack Web API names its
    methods (``chat_postMessage``, ``reactions_add``, ``chat_delete``), writes to that resource;
    ``post`` counts there, a library method and no HTTP request."""
    ws = words(name)
    if len(ws) > 1 and not call_verb(ws[0]) and ws[1] in _ACK_VERBS | {"create", "post"}:
        return _writes_one("_".join(ws[1:]), _ACK_VERBS | {"create", "post"})
    return _writes_one(name, _ACK_VERBS | {"create"}, nouns=1)


#: Last words of a URL placeholder that names one resource (``{task_id}``, ``{uid}``, ``{slug}``),
#: or of a key column (``WHERE book_id IN (...)``: ``LibraryCalls._in_list_bound``).
ID_WORDS = _ID_WORDS = frozenset({"id", "identifier", "uid", "uuid", "guid", "key", "slug", "number", "num", "sha", "name",
                       "username", "login", "handle", "ref", "code", "symbol"})


#: Bare identifier words of a query parameter that names the records a ``GET`` returns (``?id=``,
#: ``?ids=``, ``?slug=``, ``?symbol=``, ``?id_list=``); ``key`` is left out (Google's API key).
_RECORD_ID_KEYS = frozenset({"id", "ids", "uid", "uids", "uuid", "uuids", "guid", "guids", "slug", "slugs",
                             "symbol", "symbols"})

#: Query parameters of a search: beside them an identifier filters a listing.
_SEARCH_KEYS = frozenset({"q", "query", "search", "filter", "where", "sql", "keyword", "keywords", "text", "term"})


def identifier_key(key: str) -> bool:
    """Whether a query parameter's key is a bare identifier of the records requested
    (``_RECORD_ID_KEYS``: ``id``, ``ids``, ``slug``, ``id_list``), not another entity's
    (``project_id``) nor a credential (``key``)."""
    ws = words(key)
    return bool(ws) and ws[0] in _RECORD_ID_KEYS and (len(ws) == 1 or ws[1:] == ["list"])


def request_url(node: cst.Call) -> cst.BaseExpression | None:
    """The URL argument of an HTTP client's request call: ``url=``, else the first positional
    argument, or the second when the first is the method (``client.request("GET", url)``,
    ``requests.request(method, url)``); None when there is none."""
    url = next((a.value for a in node.args if a.keyword is None or a.keyword.value == "url"), None)
    if url is not None and url is node.args[0].value and (
            string_literal(url) is not None or (isinstance(url, cst.Name) and words(url.value)[-1:] == ["method"])) \
            and len(node.args) > 1 and node.args[1].keyword is None:
        return node.args[1].value
    return url


#: A printf-style conversion (``%d``, ``%s``, ``%(limit)d``: the ``str %`` operator, Python
#: Library Reference "printf-style String Formatting").
_PRINTF = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
#: A ``str.format`` replacement field (``{}``, ``{0}``, ``{limit}``, ``{n:d}``).
_FORMAT_FIELD = re.compile(r"\{(\w*)(?:![rsa])?(?::[^{}]*)?\}")


def _formatted_parts(node: cst.BaseExpression) -> list[str | cst.BaseExpression | None] | None:
    """The pieces of a string built by ``"...?limit=%d" % n`` (a tuple or a dict on the right
    too) or ``"...?limit={}".format(n)``, as ``url_parts`` gives them: literal text, and the
    value put in each field (None when it cannot be told); None when ``node`` is no such
    formatting of a string literal."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        template, pattern = string_literal(node.left), _PRINTF
        right = node.right
        positional = [e.value for e in right.elements] if isinstance(right, cst.Tuple) else [right]
        named = {string_literal(e.key): e.value for e in right.elements
                 if isinstance(e, cst.DictElement)} if isinstance(right, cst.Dict) else {}
    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format":
        template, pattern = string_literal(node.func.value), _FORMAT_FIELD
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        named = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    else:
        return None
    if template is None:
        return None
    out: list[str | cst.BaseExpression | None] = []
    at, index = 0, 0
    for m in pattern.finditer(template):
        out.append(template[at:m.start()])
        field = m.group(1)
        if field and not field.isdigit():
            out.append(named.get(field))
        else:
            i = int(field) if field else index
            index += 1
            out.append(positional[i] if i < len(positional) else None)
        at = m.end()
    out.append(template[at:])
    return out


def record_path(url: str | None) -> bool:
    """Whether a request URL (``string_value`` text, f-string holes as ``{expr}``) names one
    resource: its path ends in a placeholder for an identifier (``{base}/tasks/{task_id}``,
    ``_apis/wit/workitems/{work_item_id}``, ``/datasources/uid/{uid}``), the REST convention for
    an item of a collection (RFC 3986 path segments; e.g. the GitHub, Todoist and Azure DevOps
    REST APIs). A query string (``?q=``), a literal last segment (``/tasks``, ``/log``), a
    whole-URL placeholder (``{endpoint}``) or one named for the entity rather than its identifier
    (``/tags/{tag}`` may list every note with the tag) is not."""
    if not url or "?" in url:
        return False
    segments = url.rstrip("/").split("/")
    if len(segments) < 2:
        return False
    last = re.sub(r"\.(json|xml)$", "", segments[-1])  # Zendesk's ``/users/{user_id}.json``
    # (``{item_id}``, ``{quote(item_id)}``, ``{item_id!s}``, ``{deal_id_str}``: the identifier
    # quoted, converted or named with its type)
    m = re.fullmatch(r"\{(?:[\w.]+\()?([\w.]+)(?:,[^{}]*)?\)?(?:![rsa])?\}", last)
    if m is None:
        return False
    ws = words(m.group(1).split(".")[-1])
    if len(ws) > 1 and ws[-1] in _ID_FORM_WORDS:
        ws = ws[:-1]
    if any(w in _REPORT_WORDS for seg in segments[:-2] if "{" not in seg for w in words(seg)):
        # ``/analytics/v3/contacts/{id}``: a report about one record, not the record (the
        # collection the record is one of, ``/meetings/v1/events/{id}``, names no report)
        return False
    return bool(ws) and ws[-1] in _ID_WORDS


#: Words of a path segment that make what a path names a report over time about the record its
#: identifier names (its analytics, history, events), not that record.
_REPORT_WORDS = frozenset({"analytics", "metrics", "stats", "statistics", "history", "events", "activity",
                           "activities", "logs", "timeline", "reports", "report", "insights", "usage",
                           "audit", "changelog", "timeseries"})


#: Last words of a name that give an identifier's form, not what it names (``deal_id_str``,
#: ``user_id_encoded``).
_ID_FORM_WORDS = frozenset({"str", "string", "text", "encoded", "quoted", "escaped", "safe", "clean",
                            "normalized", "norm", "value", "val", "param", "arg"})


def singleton_path(url: str | None) -> bool:
    """Whether a request URL names a singleton resource of fixed fields: its last path segment is
    a literal, singular noun of ``_FIXED_RECORD_NOUNS`` (``/account/``, ``/api/v1/me``,
    ``/_cluster/health``, ``/version``), the REST convention for the one resource of its kind
    (the caller's account, the service's status), or ``latest``/``current`` after a collection
    of such records (``/quotes/latest``: the newest one; GitHub's ``/releases/latest`` is one
    release, of open-ended notes, and not this). ``/users`` (a collection) is not."""
    if not url or "?" in url:
        return False
    segments = url.rstrip("/").split("/")
    last = segments[-1]
    if not last or "{" in last or not last.replace("_", "").replace("-", "").isalpha():
        return False
    ws = words(last)
    if ws in (["latest"], ["current"]) and len(segments) > 1 and "{" not in segments[-2]:
        # ``/quotes/latest``, ``/prices/current``: the newest of a collection of fixed records
        return fixed_record(segments[-2])
    return bool(ws) and ws[-1] in _FIXED_RECORD_NOUNS


def url_resource(url: str | None) -> tuple[bool, bool]:
    """``(one, fixed)`` for the URL a ``GET`` requests: whether it names one resource
    (``record_path``: ``GET /tasks/{task_id}``, or ``singleton_path``: the one resource of its
    kind, ``GET /account/``), and whether that resource's fields are fixed (``fixed_resource``;
    always for a singleton)."""
    if record_path(url):
        return True, fixed_resource(cast(str, url))  # (record_path holds only for a str)
    if singleton_path(url):
        return True, True
    return False, False


def fixed_resource(url: str) -> bool:
    """Whether a one-resource URL (``record_path``) names an entity whose fields are fixed
    (``fixed_record`` of its collection: the last literal path segment that is not an identifier
    keyword, ``/datasources/uid/{uid}`` → ``datasources``)."""
    collection = _collection_segment(url)
    return collection is not None and fixed_record(collection)


def _collection_segment(url: str) -> str | None:
    """The collection a one-resource URL (``record_path``) names an item of: its last literal
    path segment that is not an identifier keyword (``/datasources/uid/{uid}`` → ``datasources``)."""
    for segment in reversed(url.rstrip("/").split("/")[:-1]):
        if segment and "{" not in segment and segment.lower() not in _ID_WORDS:
            return segment
    return None


def api_record_bound(url: str | None, site: Site) -> Bound | None:
    """The bound on one resource a ``GET`` of ``url`` reads whole, its entity's fields not fixed
    (``record_path`` and not ``fixed_resource``: ``GET /issues/{issue_id}``, ``/contacts/{id}``):
    one record of the remote API, whose free-text fields only the API's own field limits cap
    (Jira's ~32k-char text fields, Todoist's 15k-char comments). That is a cap of the remote
    service, unseen here (``Bound.upstream``: MEDIUM, design.md "Risk levels"; labelling rule 5,
    one record with an open-ended description). A resource of a text collection (``/files/{id}``,
    ``/documents/{doc_id}``, ``/pages/{page_id}``: ``shapes.TEXT_NOUNS``) is its whole text: no
    bound (None), and neither for a URL that names no one resource."""
    if not record_path(url):
        return None
    collection = _collection_segment(cast(str, url))  # (record_path holds only for a str)
    ws = words(collection or "")
    if collection is None or fixed_record(collection) or not ws:
        return None  # (``fixed_resource``: a record of fixed fields is small, no bound needed)
    if ws[-1] in TEXT_NOUNS or singular(ws[-1]) in TEXT_NOUNS:
        return None
    return Bound(site, upstream=True)


def record_of_get(flow: Flow, node: cst.Call, url_text: Callable[[cst.BaseExpression], str | None]) -> Flow:
    """What a project helper that sends a request returns when this call passes it a ``GET`` (or
    no method) of one resource's URL (``self._request("GET", f"tasks/{task_id}")``, see
    ``record_path``): the JSON body, or its text, is one record read whole (an ``object``
    marker, ``whole``), not a listing; of a singleton resource (``singleton_path``: ``client.get("account/")``) one
    small record; other sources pass unchanged. ``url_text`` maps an argument to its text."""
    texts = [url_text(a.value) for a in node.args]
    methods = [t.lower() for t in texts if t and t.isalpha()]
    paths = [t for t in texts if t and "/" in t and (record_path(t) or singleton_path(t))]
    if any(m != "get" for m in methods) or not paths:
        return flow
    # (``/datasources/uid/{uid}``, ``/account/``: a record of an entity whose fields are fixed is
    # not read whole)
    whole = record_path(paths[0]) and not fixed_resource(paths[0])
    return frozenset(Marker("object", t.site, api_record_bound(paths[0], t.site) if whole else t.bound, whole=whole,
                            fixed=not whole, rule="TL105")
                     if isinstance(t, Src) and t.code == "TL105" and
                     t.what.startswith(("HTTP response .json()", "HTTP response .text", "HTTP response .content"))
                     else t for t in flow)


#: An annotation of a callable parameter (``Callable[[Any], Any]``, ``Awaitable``).
_CALLABLE_ANNOTATION = re.compile(r"\bCallable\b|\bAwaitable\b|\bCoroutine\b")


def callable_parameters(fn: cst.FunctionDef) -> frozenset[str]:
    """The parameters of ``fn`` annotated as callables (``Callable[..., Any]``, ``Awaitable``,
    ``Coroutine``: ``_CALLABLE_ANNOTATION``): what each caller passes there is code to run."""
    return frozenset(p.name.value for p in parameters(fn) if p.annotation is not None
                     and _CALLABLE_ANNOTATION.search(node_code(p.annotation.annotation)))

#: Modules whose ``loads`` parses JSON text (``json.loads(resp.text)``, ``orjson.loads(raw)``).
JSON_MODULES = frozenset({"json", "orjson", "ujson", "simplejson", "rapidjson", "ujson5", "json5"})


def parsed_json_body(qualified: str | None, args: Flow, site: Site) -> Flow | None:
    """What a JSON parser called at ``site`` gives back when it is handed an HTTP body: the body
    as ``resp.json()`` gives it (``body_of_json``), so that a field picked from it is told apart
    from the listing the same way; handed a whole file's text (``json.loads(p.read_text())``), the
    document as ``json.load(f)`` reads it (``parsed_file``). ``json.loads(resp.text)``, ``orjson.loads(resp.read())`` parse
    the body's text (a TL105 source); ``json.load(urlopen(req))`` reads the response it is given.
    ``qualified``: the call's qualified name (``json.loads``); None when it is not such a call or
    is given no HTTP body."""
    module, _, name = (qualified or "").rpartition(".")
    if module not in JSON_MODULES or name not in ("loads", "load"):
        return None
    if name == "load" and markers(args, "http_response"):
        return body_of_json(args, site)
    files = [t for t in args if isinstance(t, Src) and t.code == "TL102" and t.what in (".read_text()", ".read()")]
    if name == "loads" and files:
        # ``json.loads(path.read_text())``: a document parsed from a whole file, as ``json.load(f)``
        # gives it (``parsed_file``: a singular field picked from it is one value)
        cap = max((t.bound for t in files if t.bound is not None), key=Bound.rank, default=None)
        return frozenset({whole_file_read(cast(str, qualified), site, cap)}) | frozenset(
            t for t in args if t not in files)
    texts = [t for t in args if isinstance(t, Src) and t.code == "TL105" and not json_body(t)]
    if name != "loads" or not texts:
        return None
    bound = max((t.bound for t in texts if t.bound is not None), key=Bound.rank, default=None)
    return frozenset({Src("TL105", site, "HTTP response .json()", bound)}) | frozenset(
        t for t in args if t not in texts)


def http_body_bound(recv: Flow) -> Bound | None:
    """The page size the request that made a response asked for (``request_bound``), if any."""
    caps = [m.sql_bound for m in markers(recv, "http_response") if m.sql_bound is not None]
    return max(caps, key=Bound.rank) if caps else None


def body_of_json(recv: Flow, site: Site) -> Flow:
    """What ``.json()`` of the responses in ``recv`` gives: the acknowledgement of a write (its
    fields the caller's echo), a record per identifier a request named, one resource read whole
    (``GET /tasks/{id}``; fixed fields for an entity whose fields are fixed), else the whole body
    (TL105), capped by the page size the request asked for (``http_body_bound``)."""
    if markers(recv, "http_ack") and not markers(recv, "http_response"):
        # the resource a write sent back: an acknowledgement, its fields the caller's echo
        return frozenset({Marker("object", site, fixed=True, family=ACK_FAMILY)})
    responses = markers(recv, "http_response")
    if responses and all(m.family == ID_RECORDS_FAMILY for m in responses):
        # ``httpx.get(url, params={"ids": ids}).json()``: a record per identifier named
        return frozenset({Marker("object", site, http_body_bound(recv), whole=True, rule="TL105",
                                 family=ID_RECORDS_FAMILY,
                                 keys=tuple(sorted({k for m in responses for k in m.keys})))})
    if responses and all(m.whole for m in responses):
        # ``client.get(f"{base}/tasks/{task_id}").json()``: one resource (``record_path``),
        # read whole unless its entity has fixed fields (``GET /datasources/{id}``)
        # (a record of a remote API carries the API's own cap: ``api_record_bound``)
        # (of fixed fields, the page size the request asked for is kept for a caller iterating
        # the body after all: ``FunctionInterpreter.iteration``)
        fixed = all(m.fixed for m in responses)
        return frozenset({Marker("object", site, http_body_bound(recv), whole=not fixed,
                                 fixed=fixed, rule="TL105")})
    return frozenset({Src("TL105", site, "HTTP response .json()", http_body_bound(recv),
                          posted=bool(responses) and all(m.posted for m in responses))})


def drained(handles: Iterable[Marker], site: Site, how: str, objects: bool = False) -> Flow:
    """What iterating the handles in ``handles`` to the end gives (``list(cursor)``, a helper's
    loop over the cursor it is given): every row of a query or page of a paginator (TL101),
    every line of a stream (TL106), a file (TL102) or a process's output (TL104), and with ``objects``, every item of an
    iterable that unreadable code returned (``image, logs = client.images.build(...)``;
    ``list(logs)``: TL108, size unknown)."""
    out = []
    for m in handles:
        if m.kind in ("query", "cursor"):
            out.append(Src("TL101", site, f"{how} of a query result", m.sql_bound))
        elif m.kind == "paginator":
            out.append(Src("TL101", site, f"{how} of a paginated API listing"))
        elif m.kind == "line_iter":
            out.append(Src("TL106", site, f"{how} of a line stream"))
        elif m.kind == "file":
            out.append(Src("TL102", site, f"{how} of every line of a file"))
        elif m.kind == "process":
            out.append(Src("TL104", site, f"{how} of a process's output", m.sql_bound))
        elif objects and m.kind == "object" and m.family != CONTEXT_FAMILY:
            out.append(Src("TL108", site, f"{how} of an iterable from code tokenlint cannot read {SIZE_UNKNOWN}",
                           m.sql_bound))
    return frozenset(out)


def whole_record_sources(flow: Flow) -> list[Src]:
    """One record read whole from code tokenlint cannot see (``client.get_build_info(n)``,
    returned as-is) is of open-ended contents: every field the service sends, however many
    (labelling rule 5, "Single objects"): a TL108 source per such ``object`` marker in ``flow``.
    A field picked from it (``info["title"]``) or the acknowledgement of a write
    (``create_index(...)``) is not marked ``whole``. So is a session registry's every entry
    (a ``registry`` marker: ``values.registry_element``), however few."""
    out = []
    for m in markers(flow, "object"):
        if m.whole:
            node = m.site.node
            if m.family == ID_RECORDS_FAMILY:
                what = "the records named by the caller's identifiers (each returned whole, every field)"
            elif isinstance(node, cst.Subscript) and isinstance(node.slice[0].slice, cst.Index) and \
                    (key := string_literal(node.slice[0].slice.value)) is not None and listing_key(key):
                # ``info["holders"]`` of an object of unreadable code: the collection it holds
                what = f"{dotted_name(node.value) or '…'}[{key!r}] (a collection an object tokenlint cannot read holds)"
            elif isinstance(node, cst.Subscript):  # an entry of a run-time collection
                what = f"{dotted_name(node.value) or '…'}[…] (one entry returned whole, every field)"
            elif isinstance(node, cst.Attribute):  # ``ticker.dividends``: a collection it holds
                what = f"{dotted_name(node) or '….' + node.attr.value} (a collection an object tokenlint cannot read holds)"
            else:
                callee = dotted_name(node.func) if isinstance(node, cst.Call) else None
                what = f"{callee or '…'}() (one record returned whole, every field)"
            out.append(Src(m.rule, m.site, what, m.sql_bound))
    for m in markers(flow, "registry"):
        # (a session registry's entries returned, each whole: ``values.registry_element``)
        out.append(Src("TL108", m.site, f"session registry `{dotted_name(cast(cst.BaseExpression, m.site.node)) or '…'}` (every entry the tools "
                                        "stored, each whole)"))
    return out


def payload_of(t: Taint) -> Taint:
    """The open-ended payload field of a value (``resp["Item"]``, ``page["body"]["storage"]
    ["value"]``, ``shapes.open_field``): of a record or a part of one, as large as the record
    (a ``whole`` marker); of a helper's parameter, marked ``payload`` for each caller to judge.
    The counterpart of ``part_of``, for fields that are not one fixed field. The payload of a
    write's acknowledgement (``ACK_FAMILY``) is the echo of what the caller sent, and what a class
    declares (``row.__table__.columns``: ``DECLARATION_FAMILY``) is fixed: neither is whole."""
    if isinstance(t, Param) and t.site is None and not t.part:
        return replace(t, payload=True, each=False)  # (a field of an element: no longer the element)
    if isinstance(t, Param) and t.each:
        return replace(t, each=False)
    if isinstance(t, Marker) and t.kind == "object" and \
            t.family not in (CONTEXT_FAMILY, ACK_FAMILY, EXCEPTION_FAMILY, DECLARATION_FAMILY):
        return replace(t, whole=True)
    return t


#: How the ``what`` of a call of unreadable code named for a collection or text ends
#: (``_unread_source``: ``wiki.page()``, ``client.list_items()``).
COLLECTION_OR_TEXT = "(a collection or text)"


def named_object(t: Taint) -> bool:
    """Whether ``t`` is what a call of unreadable code named for one text or document gave
    (``wiki.page(title)``, ``client.get_document(id)``: ``COLLECTION_OR_TEXT``, its last word a
    singular of ``shapes.TEXT_NOUNS``): an object of the library when a field is read off it by
    name, since neither a list nor a string has fields (``page.summary``; ``page.text`` and
    ``page.sections`` are its text and a listing). Not what a call named for another thing gave
    (``read_custom_resource_definition(name).spec``: a nested record that holds a schema)."""
    if not (isinstance(t, Src) and t.code == "TL108" and t.bound is None and t.what.endswith(COLLECTION_OR_TEXT)):
        return False
    ws = words(t.what[:-len(COLLECTION_OR_TEXT)].strip().removesuffix("()").split(".")[-1])
    return bool(ws) and ws[-1] in TEXT_NOUNS and not is_plural(ws[-1])


def field_keeper(key: str, flow: Flow) -> Callable[[Taint], Taint]:
    """How each taint of ``flow`` passes when the field ``key`` is picked from it: a record's
    open-ended payload field (``shapes.open_field``) by ``payload_of``, another by ``part_of``.
    When ``flow`` already holds the data itself (a source: ``Model.model_validate_json(body)
    .data``), the payload is that data, not a whole record of the object made from it."""
    if any(json_record(t) for t in flow):
        # a field of one record of a JSON body: another record, or the listing it holds
        nested = part_of if record_key(key) else listing_of
        rest = field_keeper(key, frozenset(t for t in flow if not json_record(t)))
        return lambda t: nested(t) if json_record(t) else rest(t)
    if not open_field(key):
        return record_part if record_key(key) else part_of
    if any(isinstance(t, Src) for t in flow):
        return lambda t: part_of(t) if isinstance(t, Marker) else payload_of(t)
    return payload_of


def json_body(t: Taint) -> bool:
    """Whether ``t`` is the JSON body of an HTTP response read whole (``resp.json()``, TL105): a
    listing or one record, which of the two unknown until a field is picked from it."""
    return isinstance(t, Src) and t.code == "TL105" and t.what.startswith("HTTP response .json()")


def unknown_value(t: Taint) -> bool:
    """Whether ``t`` is what a call into code tokenlint cannot read gave back, its shape unknown
    (TL108, ``SIZE_UNKNOWN``): like a JSON body (``json_body``), a listing or one record, which
    of the two the fields the tool picks from it tell."""
    return isinstance(t, Src) and t.code == "TL108" and t.what.endswith(SIZE_UNKNOWN)


#: How the ``what`` of a loader's source ends (``json.load() of a whole file``): what the loader
#: (``interpreter.LOADERS``, ``json.loads(p.read_text())``) is, before it, ``parsed_file`` reads.
WHOLE_FILE = "() of a whole file"


def whole_file_read(loader: str, site: Site, bound: Bound | None = None) -> Src:
    """The TL102 source of a loader (``json.load``, ``yaml.safe_load``, ``pandas.read_csv``) that
    reads a whole file at ``site``, named so ``parsed_file`` can tell which loader it was."""
    return Src("TL102", site, f"{loader}{WHOLE_FILE}", bound)


#: Modules whose ``load``/``loads``/``safe_load`` parse a whole document of nested records (JSON,
#: YAML, TOML): a singular key picked from what they read out of a file is one field of it.
DOCUMENT_MODULES = JSON_MODULES | frozenset({"yaml", "ruamel.yaml", "tomllib", "tomli", "toml", "tomlkit"})


def parsed_file(t: Taint) -> bool:
    """Whether ``t`` is a JSON, YAML or TOML document parsed from a whole file (``json.load(f)``:
    ``whole_file_read``, the loader one of ``DOCUMENT_MODULES``): like a JSON body, a
    listing or one record, which of the two unknown until a field is picked from it
    (``config.get("vault_path")`` is one setting)."""
    if not (isinstance(t, Src) and t.code == "TL102" and t.what.endswith(WHOLE_FILE)):
        return False
    return t.what[: -len(WHOLE_FILE)].rpartition(".")[0] in DOCUMENT_MODULES


def picked_whole(t: Taint) -> bool:
    """Whether a field picked from ``t`` by a singular key is one record of it (``field_of_body``):
    a JSON body (``json_body``), a document parsed from a file (``parsed_file``) or another value
    of unknown shape (``unknown_value``)."""
    return json_body(t) or parsed_file(t) or unknown_value(t)


#: Family of the ``object`` marker of one record picked from a JSON body (``field_of_body``).
JSON_RECORD_FAMILY = "json.record"


#: Singular or irregular nouns that name many things (a collective noun, an irregular plural):
#: under such a key a JSON body holds a listing (``body["people"]``, ``body["series"]``).
COLLECTIVE_NOUNS = MASS_NOUNS | frozenset({
    "catalog", "catalogue", "collection", "queue", "dataset", "archive", "library", "directory",
    "folder", "index", "set", "group", "batch", "bundle", "stream", "window", "range", "matrix", "grid",
    "chart",
})


def collective(word: str) -> bool:
    """Whether a last word of a name names many things: a plural is not this (``is_plural``),
    but a collective noun (``COLLECTIVE_NOUNS``) or a noun glued to ``list``, as APIs spell
    their listings in one lowercase word (Nagios's ``hostlist`` and ``servicelist``,
    ``filelist``, ``whitelist``; ``journalist``, ``specialist`` are people)."""
    return word in COLLECTIVE_NOUNS or (len(word) > 5 and word.endswith("list") and not word.endswith("alist"))


#: Plural attribute names of a library object that are not data it holds: protocol metadata
#: (``response.headers``, ``resp.cookies``), an exception's or a parser's arguments, a handle's
#: own settings.
_NOT_LISTINGS = frozenset({"headers", "cookies", "args", "kwargs", "params", "options", "attrs",
                           "flags", "permissions", "scopes", "capabilities", "features", "labels"})


def listing_key(key: str) -> bool:
    """Whether an attribute or key named ``key`` of an object names a collection it holds: a
    plural or collective last word (``dividends``, ``major_holders``, ``series``) not of
    ``_NOT_LISTINGS``. (Read off an object whose name says it is configuration,
    ``self.config.allowed_roots``, it is what the operator set up: the interpreter's
    ``_object_listing`` skips those.)"""
    ws = words(key)
    return bool(ws) and key not in _NOT_LISTINGS and not key.startswith("_") and \
        (is_plural(ws[-1]) or collective(ws[-1]))


def record_key(key: str) -> bool:
    """Whether a field picked by ``key`` from a JSON body names one nested record or value of it
    (``body["plan"]``, ``data.get("quote")``), not the listing an envelope wraps: a singular word
    that is neither an open-ended payload (``shapes.open_field``: ``data``, ``result``, ``items``,
    ``value``) nor a text noun (``page``, ``feed``) nor a word of a listing (``shapes.
    COLLECTION_VERBS``: MediaWiki's ``query`` and ``search``), nor a plural (``tasks``) or a
    collective noun (``people``, ``series``, ``inventory``, ``hostlist``: ``collective``)."""
    ws = words(key)
    return bool(ws) and not open_field(key) and ws[-1] not in TEXT_NOUNS and not collective(ws[-1]) \
        and ws[-1] not in COLLECTION_VERBS and not is_plural(ws[-1])


def field_of_body(key: str, site: Site) -> Callable[[Taint], Taint]:
    """How a JSON body passes when the field ``key`` is picked from it at ``site``: by a
    ``record_key`` it is one record of the body (an ``object`` marker of ``JSON_RECORD_FAMILY``,
    whose own fields are picked by the same rule and whose items, when iterated, are the body's:
    ``Interpreter.iteration``); by another key (``body["data"]``, ``body["tasks"]``) the body
    itself. A JSON API wraps a listing in an envelope under a payload, listing or plural key (Azure
    and OData ``value``, Prometheus ``result``, MediaWiki ``query``/``search``, Elasticsearch
    ``hits``), so a singular key names a part of one record, not the listing."""
    if not record_key(key):
        return lambda t: t
    return lambda t: Marker("object", site, t.bound, fixed=True, rule=t.code, family=JSON_RECORD_FAMILY) \
        if isinstance(t, Src) and picked_whole(t) else t


def json_record(t: Taint) -> bool:
    """Whether ``t`` is one record picked from a JSON body (``field_of_body``)."""
    return isinstance(t, Marker) and t.kind == "object" and t.family == JSON_RECORD_FAMILY


def listing_of(t: Taint) -> Taint:
    """What a record of a JSON body (``json_record``) holds under a listing key or iterated: the
    body's data, as the body itself (TL105, with the cap its request asked for); another taint
    passes unchanged."""
    if json_record(t):
        assert isinstance(t, Marker)
        if t.rule != "TL105":
            return Src(t.rule, t.site, f"a field of a value from code tokenlint cannot read {SIZE_UNKNOWN}",
                       t.sql_bound)
        return Src("TL105", t.site, "HTTP response .json()", t.sql_bound)
    return t


#: Methods only ``str`` and ``bytes`` have (``split``, ``strip``, ``lower``), not a dict's or a
#: list's: called on a field of a record, they work on its value, they call no service.
_STR_ONLY_METHODS = frozenset(m for t in (str, bytes) for m in dir(t) if not m.startswith("_")) - \
    frozenset(m for t in (dict, list, set) for m in dir(t))


def part_of(t: Taint) -> Taint:
    """A field or attribute of a whole record is one part of it (``info["title"]``), itself a
    record of that one (``fixed``: ``body["owner"].get("name")`` picks a field of the nested
    record, not a call into unreadable code); so is a field of a helper's parameter
    (``project.root``), whatever each caller passes."""
    if isinstance(t, Marker) and t.whole:
        if t.kind == "object":
            return replace(t, whole=False, fixed=True, family=None if t.family == ID_RECORDS_FAMILY else t.family)
        return replace(t, whole=False)
    if isinstance(t, Param) and t.site is None and (not t.part or t.each or t.record):
        # (a field of one element of a loop is no longer the element: ``Param.each`` dropped; a
        # field by a key of no known kind, of no known record: ``Param.record`` dropped)
        return replace(t, part=True, each=False, record=False)
    return t


def record_part(t: Taint) -> Taint:
    """``part_of`` for a field picked by a singular key naming one nested record or value
    (``record_key``): of a helper's parameter or such a field of it, marked ``Param.record``."""
    if isinstance(t, Param) and t.site is None and (not t.part or t.record) and \
            not (t.items or t.payload or t.each or t.scalar or t.element or t.called):
        return replace(t, part=True, record=True)
    return part_of(t)


def record_of_body(t: Taint, site: Site) -> Taint:
    """One record of a JSON body or of another value of unknown shape (``picked_whole``) picked at
    ``site`` by a singular key (``field_of_body``): an ``object`` marker of
    ``JSON_RECORD_FAMILY``, fixed; another taint as ``part_of`` makes it."""
    if isinstance(t, Src) and picked_whole(t):
        return Marker("object", site, t.bound, fixed=True, rule=t.code, family=JSON_RECORD_FAMILY)
    return part_of(t)


#: First words of a call that converts the data it is given (its result is that data).
_CONVERSIONS = frozenset({"to", "as", "message", "serialize", "dump", "dumps", "convert", "format",
                          "render", "encode", "decode", "normalize", "sanitize", "clean", "parse"})

#: Methods that give back an object's own fields as a dict or JSON (pydantic, dataclasses,
#: protobuf and SDK models).
SERIALIZERS = frozenset({"model_dump", "model_dump_json", "dict", "json", "to_dict", "to_json", "as_dict",
                         "asdict", "serialize", "dump", "dumps", "_asdict"})


#: Local names that hold a connection or client, whatever methods are called on them.
_HANDLE_NAME = re.compile(r"(client|conn|connection|session|cache|store|redis|pool|api|collection|coll|db|database|"
                          r"bucket)$", re.I)

#: Last words of a record whose fields the platform fixes, not the user's data: a status, and the
#: entities of an API whose records have a fixed shape (labelling rule 5: "a single small
#: fixed-shape record (a time, one user, one DAG, a status dict) is NONE"). Not here, because one
#: of them holds open-ended contents (rule 5's "one issue's full stack trace", a whole file): an
#: issue, an item or document, an index or its mapping, a build, a page, a comment.
_FIXED_RECORD_NOUNS = frozenset({
    "health", "status", "version", "whoami", "me", "myself", "ping", "stats", "statistics", "config",
    "settings", "usage", "quota",
    "user", "account", "profile", "member", "contact", "team", "organization", "org", "workspace", "project",
    "task", "dag", "label", "tag", "section", "datasource", "property", "channel", "quote", "ticker",
    "price", "balance",
})


def fixed_record(name: str) -> bool:
    """Whether a read named ``name`` (``get_datasource_by_uid``, ``get_task``, a REST collection
    segment ``datasources``, a bare ``info()``) gives a record of fixed shape
    (``_FIXED_RECORD_NOUNS``, by its noun: the last word, or the one before ``by_...``; a plural
    counts as its singular). A client's bare ``info()`` is the server's own fixed record (Redis
    ``INFO``, labelling rule 6)."""
    ws = words(name)
    if "by" in ws[1:]:
        ws = ws[:ws.index("by", 1)]
    if ws == ["info"]:
        return True
    if not ws:
        return False
    noun = ws[-1]
    return noun in _FIXED_RECORD_NOUNS or singular(noun) in _FIXED_RECORD_NOUNS

#: First words of a call that reads one thing (its result is the thing, whole).
_RECORD_READS = frozenset({"get", "read", "fetch", "describe", "show", "inspect", "info", "load", "retrieve"})


def _no_builtin_call(node: cst.Call, method: str) -> bool:
    """Whether ``node``, a call of ``method`` (a name ``dict`` and ``list`` have), cannot be the
    builtin one: ``dict.get``, ``pop``, ``setdefault``, ``items``, ``keys``, ``values`` and
    ``copy`` take no keyword and no ``**`` argument, and ``get`` needs a key
    (``await api_object.get(**filters, limit=limit)`` in a helper is a method of the client
    each caller passes: Zabbix's ``api.host.get``)."""
    if method not in _DICT_METHODS:
        return False
    return any(a.keyword is not None or a.star for a in node.args) or (method == "get" and not node.args)


#: ``dict`` methods that take positional arguments only (``dict.update`` takes keywords).
_DICT_METHODS = frozenset({"get", "pop", "setdefault", "items", "keys", "values", "copy"})


def _record_read(name: str) -> bool:
    """Whether a call named ``name`` that gives one record reads that record whole (``_RECORD_READS``
    by its first word: ``get_build_info``), not a status-like one of fixed fields (``fixed_record``:
    ``get_cluster_health``)."""
    ws = words(name)
    return bool(ws) and ws[0] in _RECORD_READS and not fixed_record(name)


def _unread_source(callee: str, shape: Shape, site: Site) -> Src:
    """The TL108 source a call of unreadable code named for a collection or text, or of unknown
    shape, puts at ``site`` (``callee`` names it in messages)."""
    return Src("TL108", site, f"{callee} {SIZE_UNKNOWN if shape is Shape.UNKNOWN else COLLECTION_OR_TEXT}")


def made_unless_none(value: cst.BaseExpression) -> cst.BaseExpression:
    """What a module-level value is made of when it is made only under a condition, else None
    (``client = WebClient(token=t) if t else None``, ``client = t and WebClient(token=t)``): the
    side that is not ``None``, a literal or a name of the condition; ``value`` itself otherwise."""
    if isinstance(value, cst.IfExp):
        sides = [value.body, value.orelse]
    elif isinstance(value, cst.BooleanOperation):
        sides = [value.left, value.right]
    else:
        return value
    made = [v for v in sides if isinstance(v, (cst.Call, cst.Subscript, cst.Attribute))]
    return made[0] if len(made) == 1 else value


def _module_function(func: cst.BaseExpression, mod: ParsedModule) -> bool:
    """``humanize.naturaldelta`` / ``np.array``: a function of an imported module (a lower-case
    import called directly), not a method of an object or a class."""
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
        func.value.value in mod.imports.names and func.value.value[:1].islower()


#: Family of the ``object`` marker of a tool's request-context parameter (mcp ``Context``,
#: fastmcp ``Context``, a low-level ``RequestContext``).
CONTEXT_FAMILY = "mcp.Context"


#: Functions that return the current MCP request's context or a part of it (its HTTP headers,
#: the HTTP request, the access token): fastmcp's dependency helpers
#: (``fastmcp.server.dependencies``), as ``ctx`` parameters are.
REQUEST_CONTEXT_ACCESSORS = frozenset({
    f"fastmcp.server.dependencies.{f}" for f in ("get_context", "get_http_request", "get_http_headers",
                                                  "get_access_token")
} | {"fastmcp.server.context.get_context", "fastmcp.get_context"})

#: Family of the ``object`` marker of the MCP request's HTTP headers (``get_http_headers()``):
#: a header value (``headers.get("authorization")``) is one short string.
HEADERS_FAMILY = "mcp.RequestHeaders"

#: Methods of a request context that return nothing of size: notifications, state writes,
#: ids, and sampling (an LLM completion capped by its own ``max_tokens``).
_CONTEXT_SMALL = frozenset({"debug", "info", "warning", "warn", "error", "critical", "elicit",
                              "set_state", "delete_state", "request_id", "client_id", "sample"})


def is_context_param(name: str, ann: cst.BaseExpression | None) -> bool:
    """Whether a tool parameter is the SDK's request context: annotated ``Context``,
    ``Context[ServerSession, State]``, ``RequestContext`` or any ``*Context`` class, or an
    unannotated ``ctx`` / ``context``."""
    if ann is None:
        return name in ("ctx", "context")
    node = ann.value if isinstance(ann, cst.Subscript) else ann
    last = (dotted_name(node) or "").split(".")[-1]
    return last.endswith("Context")


#: Callee names that make an object: a class held in a variable or attribute, a factory.
_CONSTRUCTOR_NAME = re.compile(r"(^|_)(class|cls|factory|constructor|type)$", re.I)


#: Alternative constructors called on a class (``Model.model_validate(d)``, ``Cfg.from_env()``).
_ALT_CONSTRUCTOR = re.compile(r"^(from_\w+|model_validate(_json)?|parse_(obj|raw)|construct|model_construct|validate)$")


#: pydantic's constructors, a model made of the data given whatever names the class
#: (``model.model_validate(data)`` with ``model: type[BaseModel]``).
_MODEL_CONSTRUCTOR = re.compile(r"^(model_validate(_json|_strings)?|parse_(obj|raw)|model_construct)$")


#: Verbs that, on a plural collection (``containers``, ``Customer.objects``), act on one element.
_ELEMENT_VERBS = frozenset({"get", "run", "retrieve", "fetch", "find_one", "load", "get_one", "one"})


#: Keywords that carry a query's text.
#: Suffix of the ``what`` of a TL108 source whose call name says nothing of its shape.
SIZE_UNKNOWN = "(size unknown)"


#: HTTP methods other than GET (RFC 9110 §9.3; PATCH: RFC 5789).
_NOT_GET_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


#: Methods of a request builder that cap how many items the request returns.
_LIMIT_METHODS = frozenset({"limit", "paging", "page_size", "per_page", "top", "take", "max_results",
                            "size", "first_n", "set_limit", "with_limit"})


QUERY_KEYWORDS = frozenset({"query", "sql", "statement", "cypher", "sql_query", "query_string", "stmt"})


#: Keywords (lower case, underscores removed) that cap how many items an API returns.
_LIMIT_KEYWORDS = frozenset({
    "limit", "maxresults", "maxitems", "maxrecords", "maxcount", "topk", "topn", "nresults", "k",
    "n", "count", "size", "pagesize", "perpage", "first", "last", "tail", "num", "numresults",
    "max", "rows", "maxrows", "fetchsize", "maxhits", "hits", "maxkeys", "maxentries", "top",
    "numrows", "rowlimit", "resultlimit", "maxlen", "maxlength", "lines", "nlines", "maxlines",
})


#: Keywords (lower case, no ``_``/``-``) of a page cursor an API issued: the opaque token of
#: cursor pagination (Stripe ``starting_after``, Slack and Todoist ``cursor``, Notion
#: ``start_cursor``, Google APIs ``pageToken``, AWS ``NextToken``/``Marker``).
_CURSOR_KEYWORDS = frozenset({
    "cursor", "nextcursor", "startcursor", "pagetoken", "nextpagetoken", "nexttoken",
    "continuationtoken", "continuation", "startingafter", "endingbefore", "after", "before",
})


def _listing_name(name: str) -> bool:
    """Whether a call named ``name`` lists entities of an API (``get_dags``, ``list_task_instances``,
    ``search_issues``): its last word a plural noun, its verb not one that reads one resource's
    content from a position (``read_logs(path, offset=n)``, ``download``, ``tail``)."""
    ws = words(name)
    return len(ws) >= 2 and is_plural(ws[-1]) and ws[0] not in _POSITIONED_READS


def _rest_api_class(family: str | None) -> bool:
    """Whether ``family`` (a qualified class) is a REST API's client class, named ``…Api`` by
    the OpenAPI generator's convention (``airflow_client.client.api.dag_api.DAGApi``, a
    ``PetApi``): its listings are pages the service sizes. A database's client
    (``chromadb.HttpClient``, whose ``list_collections(limit=None, offset=n)`` returns the rest)
    is not one."""
    last = (family or "").split(".")[-1]
    return len(last) > 3 and last.endswith(("Api", "API"))


#: Verbs of a call that reads one resource's content from a position it is given.
_POSITIONED_READS = frozenset({"read", "download", "cat", "tail", "head", "dump", "export", "stream", "seek"})

#: Keywords (lower case, no ``_``/``-``) of a page offset a listing API takes: ``offset``
#: (Airflow, Confluence v1 ``start`` aside), ``startAt`` (Jira), ``page``/``page_number``
#: (GitHub, GitLab). Not ``skip`` (MongoDB's ``find(skip=n)`` with no limit returns the rest)
#: nor ``start`` (a time range's start as often as an offset).
_OFFSET_KEYWORDS = frozenset({"offset", "startat", "startindex", "page", "pagenumber", "pageno", "pagenum",
                              "pageindex"})


def made_object(site: Site, family: str | None, args: Flow) -> Flow:
    """What a constructor returns: an ``object`` handle holding the data it was given
    (``Model(items=rows)``, ``TextContent(text=body)``), a whole record read from unreadable code
    included (``TextContent(text=api.get_note(p))``: the record is sent whole)."""
    return union(frozenset({Marker("object", site, family=family)}),
                 frozenset(t for t in args if not isinstance(t, Marker) or t.whole))


_LIMIT_WORDS = frozenset({"limit", "max", "count", "size", "top", "num", "rows", "results", "lines", "k", "n"})


def limit_like(name: str) -> bool:
    """A parameter name that reads as "how many" (``limit``, ``max_results``, ``top_k``), not a
    position (``start``, ``stop``, ``offset``); also a limit key under a module prefix, as the
    MediaWiki Action API names them (``srlimit`` of ``list=search``, ``cmlimit``, ``rvlimit``),
    but no rate, time or memory limit."""
    flat = name.replace("_", "").replace("-", "").lower()
    return flat in _LIMIT_KEYWORDS or bool(_LIMIT_WORDS & set(words(name))) or (
        flat.endswith("limit") and not flat.endswith(_NOT_COUNT_LIMITS))


#: ``…limit`` keys that cap no item count.
_NOT_COUNT_LIMITS = ("ratelimit", "timelimit", "memorylimit", "cpulimit", "bytelimit", "sizelimit")
