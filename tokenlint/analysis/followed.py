"""Calls into the project's own code: helpers of this module and of other modules of the
run, methods of project classes, nested functions (closures), and callables run elsewhere
(``anyio.to_thread.run_sync``, ``asyncio.to_thread``, ``loop.run_in_executor``,
``executor.submit``, ``functools.partial``).

Each helper is summarised once (``Analyzer.helper_summary``) with its parameters as
placeholders; ``call_helper`` substitutes what each call passes: the flows, the SQL text (its
``LIMIT``), a size check's budget and measured data, a callable's result, tuple parts.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Iterator, Sequence, cast

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis.constants import string_literal
from tokenlint.analysis.entry_points import Literal, literal_value, member_token
from tokenlint.analysis.external import (CONTEXT_FAMILY, ID_RECORDS_FAMILY, SIZE_UNKNOWN, _query_string_pairs, ack_of_write, drained,
                                         body_of_json, posted_through,
                                         listing_key, part_of, record_of_body, record_of_get, url_resource, whole_record_sources,
                                         api_record_bound, callable_parameters, parsed_file)
from tokenlint.analysis.records import object_class
from tokenlint.analysis.shapes import CONFIG_WORDS, Shape, call_shape, configuration_collection, words
from tokenlint.analysis.state import InterpreterState, SqlBound
from tokenlint.analysis.taints import (EMPTY, SELF_DATA, WRAPPED, Bound, Flow, Marker, Measure, Param, Site, Src, Taint, apply_bound, markers,
                                      params, scalar_of, union)
from tokenlint.analysis.values import (ACCUMULATORS, EMPTY_FACTORIES, MAX_HELPER_DEPTH, annotated_class, is_stub,
                                       annotation_class, body_of, chain_root, defs_in, empty_collection, is_stdlib,
                                       method_class, optional_inner, run_class_named)
from tokenlint.source.functions import ELSEWHERE, gathering_parameters, parameters
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children, node_code, walk, walk_own

if TYPE_CHECKING:
    from tokenlint.analysis.interpreter import Summary
    from tokenlint.source.project import ParsedModule, Project


class FollowedCalls(InterpreterState):
    """Mixin of ``FunctionInterpreter``: calls into code of the run."""

    def run_elsewhere(self, node: cst.Call, qn: str | None, method: str | None) -> Flow | None:
        """``anyio.to_thread.run_sync(fn, *a)``, ``asyncio.to_thread(fn, *a)``,
        ``loop.run_in_executor(None, fn, *a)``, ``executor.submit(fn, *a)``,
        ``functools.partial(fn, *a)``: the result is what ``fn`` returns (a lambda's body, a
        nested def over this function's locals, or a helper)."""
        tail = (qn or "").split(".")[-1] if qn else method
        runner = False
        if tail not in ELSEWHERE:
            # ``await LIMITER.run_async(request)``, ``retrier.call(fetch)``: a function of this
            # run handed to a method named for running it (a rate limiter, a retry policy, a
            # scheduler) comes back as what it returns; only a nested def, a lambda or a function
            # of the run, never a local value (``cursor.execute(query)``)
            ws = words(tail or "")
            if not (ws and ws[0] in _RUNNER_VERBS and node.args and node.args[0].keyword is None):
                return None
            runner = True
        index = 1 if tail == "run_in_executor" else 0
        if len(node.args) <= index:
            return None
        target = node.args[index].value
        rest = node.args[index + 1:]
        if runner and not (isinstance(target, cst.Lambda) or (
                isinstance(target, cst.Name) and target.value not in self.env and
                (self.nested(target.value) is not None or target.value in self.mod.functions))):
            return None
        return self.run_callable(node, target, rest)

    def run_callable(self, node: cst.Call, target: cst.BaseExpression, rest: Sequence[cst.Arg]) -> Flow | None:
        """What calling ``target`` with the arguments ``rest`` returns, for a call ``node`` that
        hands ``target`` to code running it (a thread, a partial, a project's forwarding
        wrapper): a lambda's body, a nested def over this function's locals, a helper, or any
        other call; None when ``target`` is no callable expression."""
        if isinstance(target, cst.Lambda):
            return self.lambda_result(target)
        if isinstance(target, cst.Name) and target.value not in self.env:
            nested = self.nested(target.value)
            if nested is not None:
                call = cst.Call(func=target, args=rest)
                return self.call_nested(nested, self._bind_args(call, nested))
        helper = self.resolve_helper(target) if isinstance(target, (cst.Name, cst.Attribute)) else None
        if helper is not None:
            call = node.with_changes(func=target, args=rest)
            self._synthetic.append(call)
            self._synthetic_origin[id(call)] = self._synthetic_origin.get(id(node), node)
            out = self.call_helper(call, *helper)
            if id(call) in self._dict_results:
                # (``source = await asyncio.to_thread(load, paper_id)``: the helper's fields and
                # keys, read one by one, as for a direct call)
                self._dict_results[id(node)] = self._dict_results[id(call)]
            return out
        if isinstance(target, (cst.Name, cst.Attribute, cst.Subscript)):
            # (``asyncio.to_thread(registry[name], **arguments)``: an entry of a table)
            call = node.with_changes(func=target, args=rest)
            self._synthetic.append(call)
            self._synthetic_origin[id(call)] = self._synthetic_origin.get(id(node), node)
            return self.call(call)
        return None

    def _library_object(self, held: Flow) -> bool:
        """Whether ``held`` is an object of a library, never of a class of the run: what a lambda
        handed to unreadable code is called with, or an object a class imported from a library
        made (``fund = acme.Fund(s)``): its methods are the library's, whatever their names."""
        imported = {q.split(".")[0] for q in self.mod.imports.names.values()}
        return any(isinstance(t, Marker) and t.kind == "object" and t.family and (
            t.family == LAMBDA_ARGUMENT_FAMILY or (
                not t.family.startswith("mcp.") and t.family.split(".")[0] in imported
                and not self.a.project.resolve_class(t.family))) for t in held)

    def lambda_result(self, fn: cst.Lambda) -> Flow:
        """What the lambda ``fn`` returns when code that runs it calls it: its body over this
        function's locals, each of its own parameters an object of that code, which tokenlint
        cannot read (``lambda stock: stock.dividends``: the collection the object holds)."""
        own = [p.name.value for p in parameters(fn)]
        saved = {n: self.env[n] for n in own if n in self.env}
        for n in own:
            # (of a family no class of the run has: ``stock.get_news()`` is the SDK's method, not
            # a method of the same name on a class of the run)
            self.env[n] = frozenset({Marker("object", self.a.site(self.mod, fn), family=LAMBDA_ARGUMENT_FAMILY)})
        try:
            return self.expr(fn.body)
        finally:
            for n in own:
                self.env.pop(n, None)
            self.env.update(saved)

    def nested(self, name: str) -> cst.FunctionDef | None:
        """The function named ``name`` defined inside this interpreter's function (a table built
        once per interpreter: calls of builtins and imports ask for it at every call site)."""
        table = self.__dict__.get("_nested_table")
        if table is None:
            table = {}
            for n in defs_in(self.fn):
                table.setdefault(n.name.value, n)
            self.__dict__["_nested_table"] = table
        return table.get(name)

    def call_nested(self, fn: cst.FunctionDef, arg_flows: dict[str, Flow]) -> Flow:
        """Interpret a function defined inside this one, over this function's current locals
        (a closure), with its parameters bound to ``arg_flows``."""
        if self.depth > MAX_HELPER_DEPTH or id(fn) in self._active:
            return union(*arg_flows.values())
        sub = type(self)(self.a, self.mod, fn, depth=self.depth + 1, helper=self.helper,
                                  args_style=self.args_style, class_name=self.class_name)
        sub.env = {**self.env, **{k: v for k, v in sub.env.items() if k not in self.env}}
        for k in sub.param_defaults:
            sub.env[k] = arg_flows.get(k, EMPTY)
        for p in parameters(fn):
            name = p.name.value
            qn = object_class(self.a.project, self.mod, p.annotation.annotation) if p.annotation is not None and \
                not arg_flows.get(name) else None
            if qn is not None:
                # ``async def _call(client: RabbitMQClient)`` handed to a helper that calls it with
                # the client it opens: an object of that class of the run (its methods followed)
                sub.env[name] = frozenset({Marker("object", self.a.site(self.mod, p), family=qn)})
        sub.strings = dict(self.strings)
        sub.dict_entries = {**self.dict_entries, **sub.dict_entries}
        sub.param_defaults = {**self.param_defaults, **sub.param_defaults}
        sub._active = self._active | {id(fn)}
        summary = sub.run(body_of(fn))
        self._merge(summary)
        return summary.returned()

    def _checked_returns(self, node: cst.Call, fn: cst.FunctionDef, summary: Summary, arg_flows: dict[str, Flow],
                         per_element: frozenset[str], returned: Flow) -> frozenset[Site]:
        """The sites of the sources this call passes to parameters the helper's size checks
        measure (``def clip(text): if len(text) > N``) that the helper also returns (``returned``,
        as this call binds it), cut or whole: checked at this call only (``_relocated``). Not an
        argument the call's result is assigned back to (``text = clip(text)``)."""
        names: set[str] = set()
        for check in summary.checks:
            if check.measured_params and not check.measured_params <= per_element:
                names |= check.measured_params
        if self.rebinding is not None and self.rebinding[0] is node:
            # ``text = clip(text)``: the cut copy takes the place of what was passed (on every
            # path the check decides), so the check keeps covering that source wherever it goes
            names = {n for n in names if (given := arg_node(node, fn, n)) is None
                     or node_code(given) not in self.rebinding[1]}
        passed = {t.site for n in names for t in arg_flows.get(n, EMPTY) if isinstance(t, Src)}
        return frozenset(passed & {t.site for t in returned if isinstance(t, Src)})

    def _merge(self, summary: Summary, arg_flows: dict[str, Flow] | None = None,
               per_element: frozenset[str] = frozenset(),
               relocated: tuple[frozenset[Site], Site] | None = None) -> None:
        """Join a helper's size checks, run-time fits and untraced calls to this function's; a
        check measuring only parameters in ``per_element`` (given one element of a collection)
        caps that element, not the collection, and is dropped. A check of a source in
        ``relocated``'s sites measures the copy this call returns, at its site (``_relocated``)."""
        passed: Flow | list[Param]  # (what the call passes: the flows measured, the budget's parameters)
        leaving = _leaving_sites(summary) if arg_flows is not None and summary.checks else None
        for check in summary.checks:
            if check.measured_params and check.measured_params <= per_element:
                continue
            if leaving is not None and check.measured and not check.measured_params:
                # a check of data the helper keeps to itself (``if len(batch) < 50: break`` while
                # it pages labels into a lookup table) caps nothing this call gives back, and must
                # not cap other data read at the same place (another request through the same
                # ``client.get``)
                if not check.measured & leaving:
                    continue
                check = replace(check, measured=check.measured & leaving)
            if check.measured_params and arg_flows is not None:
                # ``def fit(text, max_chars): if len(text) > max_chars`` measures what is passed
                passed = union(*(arg_flows.get(n, EMPTY) for n in check.measured_params))
                sites = frozenset(t.site for t in passed if isinstance(t, Src))
                if relocated is not None:
                    sites = frozenset(relocated[1] if s in relocated[0] else s for s in sites)
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

    # -- helpers ------------------------------------------------------------------------------
    def resolve_helper(self, func: cst.BaseExpression) -> tuple[ParsedModule, cst.FunctionDef] | None:
        """The (module, def) a call reaches: a function of this module, a method of this class
        (``self.m``) or of the one class here defining it (``db.m``), or an imported function."""
        mod = self.mod
        if isinstance(func, cst.Name):
            fn = mod.functions.get(func.value)
            if fn is not None:
                return mod, fn
            if isinstance(self.fn, cst.FunctionDef) and func.value not in self.env:
                # ``_all_notes()`` defined beside the tool in the server factory, or in the tool
                nested = self.a.nested_def(mod, self.fn, func.value)
                if nested is not None:
                    return mod, nested
        elif isinstance(func, cst.Attribute):
            base = dotted_name(func.value)
            meth = func.attr.value
            if base in ("self", "cls") and self.class_name:
                found = self.a.method_of(mod, self.class_name, meth)  # also inherited from a base
                if found is not None:
                    return found
            if base is not None and base.split(".")[0] not in mod.imports.names and \
                    base.split(".")[0] not in ("self", "cls"):
                # (``self.client.search()`` is another object's method: ``_chain_class`` knows it)
                # ``db.run_query(...)`` on an instance of a class of this module: the method is
                # unambiguous when exactly one class here defines it
                # (not the function being read itself: ``def get_documents(self, uid): index =
                # self.client.index(uid); return index.get_documents()`` wraps the library's
                # method of the same name, it does not call itself on another object)
                # (nor a method every dict, list and set has: ``state.get("status")`` of a dict
                # parameter is no call of the one class here that defines ``get``; nor a stub
                # that only declares it, a ``Protocol``'s ``...``: what implements it is code
                # tokenlint cannot see)
                owners = [k for k in mod.functions if k.endswith(f".{meth}") and k.count(".") == 1
                          and not is_stub(mod.functions[k])] if meth not in _CONTAINER_METHODS else []
                if len(owners) == 1 and not self._library_object(self.env.get(base, EMPTY)) and \
                        mod.functions[owners[0]] is not self.fn:
                    return mod, mod.functions[owners[0]]
        else:
            return None
        qn = mod.imports.qualify(func)
        if qn is None and isinstance(func, cst.Name) and func.value in mod.constants:
            qn = f"{mod.module_name}.{func.value}"  # a module-level alias (``_impl = list_nodes``)
        return self.a.project.find_function(qn) if qn else None

    def call_helper(self, node: cst.Call, module: ParsedModule, fn: cst.FunctionDef,
                    self_data: Flow | None = None) -> Flow:
        """The flow of a call of the run's function ``fn`` (defined in ``module``): its summary
        (``Analyzer.helper_summary``) as this call binds it (``_from_helper``: parameters replaced
        by the arguments, bounds named by a parameter rebound, SQL text passed deciding a query's
        bound). Its size checks join this function's; what it puts into collections the call passes
        goes into them; its tuple parts and dict entries are kept for ``a, b = helper()`` and
        ``r["key"]``; the acknowledgement of a write and a GET of one resource read as one record; a
        return annotation naming a library class, or a class of the run (whose methods are then
        followed, not guessed from their names), makes the result an object of it. While the helper
        is being summarised (recursion): what the arguments hold. ``self_data``: for a method
        called on an object made from data, what the object was made of (its fields in the
        method are ``Param(SELF_DATA)``, filled in with it)."""
        index = forwarded_parameter(fn, self.a.forwarders)
        if index is not None and len(node.args) > index and \
                all(a.keyword is None and a.star == "" for a in node.args[:index + 1]):
            # ``run_fetcher_call(jira.search_issues, jql=jql, limit=limit)`` where the helper runs
            # ``partial(func, *args, **kwargs)`` in a thread: the call the helper makes
            flow = self.run_callable(node, node.args[index].value, node.args[index + 1:])
            if flow is not None:
                return flow
        arg_flows = self._bind_args(node, fn)
        summary = self.a.helper_summary(module, fn, self.depth, self._argument_classes(fn, arg_flows),
                                        self._branches_chosen(node, fn), self_data=self_data is not None)
        if summary is None:
            return union(*arg_flows.values(), self_data or EMPTY)
        if self_data is not None:
            arg_flows[SELF_DATA] = self_data
        for name in summary.iterated:
            # (what the helper iterates or slices as it is, a collection: ``_used_as_collection``)
            arg_flows[name] = self._used_as_collection(arg_flows.get(name, EMPTY))
        # a parameter given one element of a collection this function walks (``[clean(el) for el
        # in records]``): the helper's size check of it checks that element, not the collection
        per_element = frozenset(
            name for name in arg_flows
            if (given := arg_node(node, fn, name)) is not None and chain_root(given) in self.element_names)
        # what this call passes a helper that measures it and gives it back (``def clip(text): if
        # len(text) > N: ...; return text``) is checked here, at this call: the same source reaching
        # the response another way (``data = read(); {"head": clip(data.log), "rows": data.rows}``)
        # is not
        here = self.a.site(self.mod, node)
        returned = self._from_helper(summary.returned(), node, fn, arg_flows)
        kept = self._checked_returns(node, fn, summary, arg_flows, per_element, returned)
        self._merge(summary, arg_flows, per_element, (kept, here))
        for name, filled in summary.filled.items():
            # ``collect(matches, symbols)`` appending into ``symbols``: the caller's collection
            given = arg_node(node, fn, name)
            if given is not None:
                self.accumulate(given, self._from_helper(filled, node, fn, arg_flows))
        parts = summary.tuple_parts()
        if parts is not None:  # ``a, b = helper()``: each target gets its own part
            self._tuple_results[id(node)] = [_relocated(self._from_helper(p, node, fn, arg_flows), kept, here)
                                             for p in parts]
        entries = summary.dict_parts()
        bound_entries = {k: _relocated(self._from_helper(f, node, fn, arg_flows), kept, here)
                         for k, f in entries.items()} if entries is not None else {}
        # (the sources a write helper puts under a key naming a collection, ``{"columns":
        # df.columns.tolist()}``: a listing beside the write, not its acknowledgement)
        listed = frozenset(t.site for k, f in bound_entries.items() if listing_key(k)
                           for t in f if isinstance(t, Src))
        if entries is not None:  # ``r = helper(); r["message"]``: each key its own flow
            self._dict_results[id(node)] = {
                k: record_of_get(ack_of_write(f, node, self.action_name, self.string_value, listed),
                                 node, self.string_value)
                for k, f in bound_entries.items()}
        returned = _relocated(returned, kept, here)
        for wmod, wrapper, switches, wrapped_name in self.a.decorator_wrappers(module, fn) if fn.decorators else ():
            # ``@parsed(kind="sql")``: the caller gets what the decorator's wrapper returns, made
            # of what the helper itself returns (``raw = await func(...)``: ``Param(WRAPPED)``)
            wrapped = self.a.helper_summary(wmod, wrapper, self.depth, (), switches, wrapped_name)
            if wrapped is not None:
                self._merge(wrapped, {WRAPPED: returned}, frozenset())
                returned = self._from_helper(wrapped.returned(), node, wrapper, {WRAPPED: returned})
        out = posted_through(ack_of_write(returned, node, self.action_name, self.string_value, listed), node)
        out = record_of_get(self.records_of_identifiers(out, node), node, self.string_value)
        if configuration_collection(fn.name.value) and (
                any(isinstance(t, Src) for t in out) or whole_record_sources(out)):
            # ``client.get_work_item_types(project)``: a helper named for what the instance is
            # configured with returns a handful, whatever request it makes (labelling rule 6)
            self.summary.untraced.append(f"{dotted_name(node.func) or fn.name.value}()")
            out = apply_bound(out, Bound(self.a.site(self.mod, node), configured=True))
        if CONFIG_WORDS & set(words(fn.name.value)) and any(parsed_file(t) for t in out):
            # ``def load_config(): return json.load(open(config_path))``: the settings file the
            # operator wrote, a handful of values (labelling rule 6), not data
            self.summary.untraced.append(f"{dotted_name(node.func) or fn.name.value}()")
            out = frozenset(t for t in out if not parsed_file(t))
        for name in dispatch_parameters(fn, self.a.dispatchers):
            method = string_literal(given) if (given := arg_node(node, fn, name)) is not None else None
            if method is not None and method.isidentifier():
                # ``call("batch_get_papers", ids=ids)`` where ``call`` looks the method up by the
                # name it is given (``getattr(client, method_name)(**kwargs)``): what that method
                # gives, judged as a call by that name with the arguments this call forwards
                out = union(out, self.dispatched_call(node, method, here))
        page = self.cursor_bound(node)
        if page is not None:  # ``api.get_tasks(cursor=cursor)``: one page of the API's own size
            out = frozenset(t.with_bound(page) if isinstance(t, Src) else t for t in out)
        if _returns_number(fn) or _returns_small_field(fn) or self._returns_enum(module, fn):
            # ``def expunge_tag(self, guid) -> int: return self.store.expungeTag(guid)``: the
            # helper declares a number (a count, an update sequence, a flag), whatever it calls;
            # ``def get_page_title(page) -> str``: one small field of what it is given
            return scalar_of(out)
        handle, run_class = self._annotated_classes(module, fn)
        instance_of = self._generic_instance(node, module, fn)
        if instance_of is not None:
            # ``def get_tool(self, tool_class: type[T]) -> T`` called as ``agent.get_tool(ReadMemoryTool)``:
            # an object of the class passed (its methods are followed), whatever the helper
            # looked it up in
            run_class, out = instance_of, frozenset(t for t in out if not isinstance(t, Src))
        if run_class is not None and not any(isinstance(t, Src) for t in out):
            # ``def _get_client(ctx) -> GitLabClient``: an object of that class of the run (its
            # methods are followed), not of the objects the helper drew it from
            out = frozenset(t for t in out if not (isinstance(t, Marker) and t.kind == "object" and not t.whole))
            return union(out, frozenset({Marker("object", self.a.site(self.mod, node), family=run_class)}))
        if handle is not None and not any(isinstance(t, Src) for t in out):
            # ``def get_collection(...) -> Collection``: what it returns is an object of that
            # library class (its methods are the library's: ``collection.find(q)``)
            out = union(out, frozenset({Marker("object", self.a.site(self.mod, node), family=handle)}))
        return out

    def _called_with(self, passed: Flow, node: cst.Call, fn: cst.FunctionDef, called: Param) -> Flow:
        """What the helper ``fn`` gets by calling its parameter ``called`` (``called.called``:
        ``items = method(**kwargs)``), given ``passed``, what this call ``node`` passes for it. A
        method of code tokenlint cannot read (``_request(client.api.traces.list)``; one a helper
        took with ``getattr(ns, "get_many")``, ``method_name``), or an object of it, is called:
        what it returns is judged by the method's name as any call of unreadable code
        (``dispatched_call``: a collection, or an unknown name, a TL108 source bounded by a
        limit-like argument this call forwards; ``get_one`` one record). A parameter of this
        function passed on is called in its turn, with the name if known here; a lambda or
        function handed over is already what it returns (``_bind_args``); an object of a class
        of the run, or a record, is kept as it is."""
        given = arg_node(node, fn, called.name)
        if given is None or isinstance(given, cst.Lambda) or (
                isinstance(given, cst.Name) and given.value not in self.env and self.nested(given.value) is not None):
            return passed
        name = called.method or method_name(given, self.mod, self.fn, self.a.project)
        # (with no method name written anywhere, or one that says nothing of what it returns
        # (``self.model``), only a parameter declared a callable is taken for a method: ``def
        # run(model, text): return model(text)`` given a spaCy pipeline is that object called on
        # the text)
        declared = _named_method(name) or called.name in callable_parameters(fn)
        here = self.a.site(self.mod, node)
        out: set = set()
        for x in passed:
            if isinstance(x, Param) and x.site is None:
                out.add(replace(x, called=True, method=name))
            elif declared and self._unread_callable(x):
                out |= self.dispatched_call(node, name or "", here,
                                            callee=f"{cast(Marker, x).family or node_code(given)}.{name or '<method>'}()")
            else:
                out.add(x)
        return frozenset(out)

    def _returns_enum(self, module: ParsedModule, fn: cst.FunctionDef) -> bool:
        """Whether ``fn`` is annotated to return a class of the run derived from a scalar type
        (``catalogue.SCALAR_TYPES``: an ``Enum`` member, ``def from_seconds(cls, s) ->
        "Seasonality"``): a constant of the code, a scalar whatever it was picked from."""
        qn = annotated_class(module, fn)
        hit = self.a.project.resolve_class(qn) if qn else None
        if hit is None:
            return False
        return any(hit[0].imports.qualify(b.value) in cat.SCALAR_TYPES for b in hit[0].classes[hit[1]].bases)

    def _unread_callable(self, x: Taint) -> bool:
        """Whether ``x``, called, is a call into code tokenlint cannot read: an object of a
        library (or of unknown code) that is no record read whole (``whole``) and no object of a
        class of the run or of the MCP SDK (``ctx``); a method taken from such an object is one
        (``client.api.traces.list`` holds the client's marker)."""
        return isinstance(x, Marker) and x.kind == "object" and not x.whole and not (
            x.family and (x.family.startswith("mcp.") or self.a.project.resolve_class(x.family)))

    def called_local(self, node: cst.Call) -> Flow | None:
        """What calling a local that holds a method of code tokenlint cannot read returns
        (``method = get_list_method(client); page = method(limit=50)``, the method taken with
        ``getattr`` in a helper): a call of that method judged by its name (``method_name``,
        ``dispatched_call``); None when the local holds no such method."""
        func = node.func
        if not isinstance(func, cst.Name) or func.value not in self.env:
            return None
        held = self.env[func.value]
        callables = [x for x in held if self._unread_callable(x)]
        if not callables or not all(isinstance(x, Marker) and x.kind == "object" for x in held):
            # (beside the method, an object of a class of the run may be held too: ``client =
            # state.clients.get(key) or default``, ``state: "AppState"``; calling the local may
            # call the method)
            return None
        name = method_name(func, self.mod, self.fn, self.a.project)
        if name is None or not _named_method(name):
            # (``nlp = spacy.load(...); doc = nlp(text)``, ``model = self.model``: an object
            # called, no method named for what it returns)
            return None
        family = next((cast(Marker, x).family for x in callables if cast(Marker, x).family), None) or func.value
        self._args_flow(node)
        return self.dispatched_call(node, name, self.a.site(self.mod, node), callee=f"{family}.{name}()")

    def _branches_chosen(self, node: cst.Call, fn: cst.FunctionDef) -> tuple[tuple[str, Literal], ...]:
        """The parameters of ``fn`` that its ``if``/``match`` branch on (``branch_parameters``)
        with the literal or class member this call passes for each (sorted pairs): a dispatcher
        ``execute_tool(tool_name, **kwargs)`` testing ``if tool_name == ToolName.GET_TABLES:``,
        called with ``ToolName.GET_TABLES``, runs that branch alone for this call
        (``Analyzer.helper_summary``'s ``switches``)."""
        chosen: dict[str, Literal] = {}
        for name in branch_parameters(fn, self.a.branchers):
            given = arg_node(node, fn, name)
            if given is None:
                continue
            value: Literal | None = member_token(given)
            if value is None:
                value = literal_value(self.mod, given)
            if value is not None:
                chosen[name] = value
        return tuple(sorted(chosen.items()))

    def _argument_classes(self, fn: cst.FunctionDef, arg_flows: dict[str, Flow]) -> tuple[tuple[str, str], ...]:
        """The run's classes of the objects this call passes to parameters ``fn`` calls methods
        on (``execute_query(sql, db_client)``, ``db_client = DatabaseClient(...)``, the helper
        calling ``db_client.query(sql)``): sorted (parameter, qualified class) pairs. An argument
        counts when it is nothing but objects of one class that defines one of those methods (not
        a dict or record that merely holds such an object)."""
        out: list[tuple[str, str]] = []
        if not any(isinstance(t, Marker) and t.kind == "object" and t.family for f in arg_flows.values() for t in f):
            return ()  # (no object of a named class passed: the helper's body need not be read)
        for name, methods in self.a.method_receivers(fn).items():
            given = arg_flows.get(name, EMPTY)
            families = {t.family for t in given if isinstance(t, Marker) and t.kind == "object" and not t.whole}
            if len(families) != 1 or None in families or \
                    any(not (isinstance(t, Marker) and t.kind == "object") for t in given):
                continue
            family = cast(str, next(iter(families)))
            if self.a.project.resolve_class(family) is not None and \
                    any(self.a.family_method(family, m) is not None for m in methods):
                out.append((name, family))
        return tuple(sorted(out))

    def _used_as_collection(self, passed: Flow) -> Flow:
        """``passed``, what a call gives a helper's parameter that the helper iterates or slices
        as it is (``def keep(todos): return [t for t in todos if ...]``, ``items[offset:end]``),
        with each object a call of a library gave (``things.upcoming()``, read as one small
        value by its name) taken for what that use shows: a collection of unknown size (TL108),
        as iterating it in the tool itself is; bounds the helper applies then apply to it."""
        out: set[Taint] = set()
        for t in passed:
            call = t.site.node if isinstance(t, Marker) else None
            if not isinstance(t, Marker) or t.kind != "object" or t.whole or t.fixed or t.posted or \
                    not isinstance(call, cst.Call) or t.family in (None, CONTEXT_FAMILY) or is_stdlib(t.family) or \
                    self.a.project.resolve_class(t.family) is not None or \
                    call_shape((dotted_name(call.func) or "").split(".")[-1]) is Shape.SCALAR:
                out.add(t)
                continue
            out.add(Src("TL108", t.site, f"iterating what `{dotted_name(call.func) or '…'}()` returns {SIZE_UNKNOWN}",
                        t.sql_bound))
        return frozenset(out)

    def _generic_instance(self, node: cst.Call, module: ParsedModule, fn: cst.FunctionDef) -> str | None:
        """The class of the run an instance of which a generic accessor returns (PEP 484
        generics: ``def get_tool(self, tool_class: type[T]) -> T``, also ``Type[T]`` and a PEP 695
        ``def get[T](...)``): the class this call ``node`` passes for the parameter annotated
        ``type[T]`` when the return annotation is that bare ``T``; None for any other helper, or
        a class passed that is not the run's."""
        ann = optional_inner(fn.returns.annotation) if fn.returns is not None else None
        if not isinstance(ann, cst.Name):
            return None
        for p in parameters(fn):
            pann = p.annotation.annotation if p.annotation is not None else None
            if isinstance(pann, cst.Subscript) and dotted_name(pann.value) in ("type", "Type", "typing.Type") and \
                    len(pann.slice) == 1 and isinstance(pann.slice[0].slice, cst.Index) and \
                    isinstance(pann.slice[0].slice.value, cst.Name) and pann.slice[0].slice.value.value == ann.value:
                return run_class_named(self.a.project, self.mod, arg_node(node, fn, p.name.value))
        return None

    def _annotated_classes(self, module: ParsedModule, fn: cst.FunctionDef) -> tuple[str | None, str | None]:
        """``(library class, class of the run)`` a helper's return annotation names, at most one
        of them set: a library class imported from outside the standard library and the run
        (``-> Collection``, ``-> Optional[redis.Redis]``, ``-> MongoClient | None``), or a class
        the run defines (``def _get_client(ctx) -> GitLabClient``: its own methods are followed).
        A name of the run that is no class gives neither."""
        qn = annotated_class(module, fn)
        if qn is None or is_stdlib(qn):
            return None, None
        if self.a.project.resolve_class(qn) is not None:
            return None, qn
        if self.a.project.resolve(qn) is not None:
            return None, None
        return qn, None

    def _from_helper(self, returned: Flow, node: cst.Call, fn: cst.FunctionDef,
                     arg_flows: dict[str, Flow]) -> Flow:
        """A helper's returned flow as seen by this call: its parameters replaced by the
        arguments, bounds named by a parameter rebound to what the caller passes."""
        out: set = set()
        for t in returned:
            if isinstance(t, Param) and t.site is None:
                passed = arg_flows.get(t.name, EMPTY)
                if t.called:
                    passed = self._called_with(passed, node, fn, t)
                if t.cap is not None:
                    cap: Bound | None = t.cap
                    if t.cap.param and t.cap.param_site is None:  # a cap named by another parameter
                        # (None when that parameter defaults to None and the call passes none:
                        # no cap on what this call passes)
                        cap = self._rebound(Src("", t.cap.site, "", t.cap), fn, arg_flows, node).bound
                    if cap is not None:
                        passed = apply_bound(passed, cap)
                if t.clamp is not None:
                    # the helper clamps what it is given and returns it (``def bounded(v): return
                    # max(1, min(int(v), MAX))``): the caller's value, with that maximum
                    passed = frozenset(_clamped(x, t.clamp) if isinstance(x, Param) else x for x in passed)
                if t.items and passed and all(isinstance(x, Marker) and x.kind == "object" and x.whole for x in passed) \
                        and (given := arg_node(node, fn, t.name)) is not None and not self._dict_pairs(given):
                    # ``_parse_topic(raw)`` iterating ``raw.get("partitions", [])``, given one whole
                    # record (``describe_topics([name])[0]``): the collection that record holds
                    out.add(Src("TL108", self.a.site(self.mod, node),
                                f"the items of a field of a record given to {fn.name.value}() {SIZE_UNKNOWN}"))
                    continue
                if t.payload and passed and all(isinstance(x, Marker) and x.kind == "object" for x in passed) \
                        and not all(cast(Marker, x).fixed and cast(Marker, x).family and not cast(Marker, x).whole
                                    for x in passed) \
                        and (given := arg_node(node, fn, t.name)) is not None and not self._dict_pairs(given):
                    # ``format_event(event)`` iterating ``event.get("entries")``: the payload of the
                    # one record passed, as large as the service made it (a dict the caller built
                    # of fields it picked, ``{"id": p.id, ...}``, holds no payload, nor does an
                    # object of a library's fixed fields, ``embeddings.create(...).data[0]``)
                    out.add(Src("TL108", self.a.site(self.mod, node),
                                f"the payload of a record given to {fn.name.value}() {SIZE_UNKNOWN}"))
                    continue
                if t.element:
                    # ``def find_root(roots, p): for r in roots: if ...: return r``: one element
                    # of what this call passes
                    out |= self.one_of(passed, node)
                    continue
                if t.scalar:
                    # ``def digest(text): return sha256(text.encode()).hexdigest()``: a scalar of
                    # what this call passes (its limits, measures), not the data
                    out |= scalar_of(passed)
                    continue
                if t.record:
                    # ``def norm(raw): return Project(classifier=raw.get("classifier"), ...)`` given
                    # a whole JSON body: one record of it (``Param.record``), as in the tool
                    out |= frozenset(record_of_body(x, self.a.site(self.mod, node)) for x in passed)
                else:
                    out |= frozenset(part_of(x) for x in passed) if t.part else passed
                if t.part:
                    # what a helper made of the elements of a cursor it was given
                    # (``def to_docs(cursor): return [clean(d) for d in cursor]``): every row
                    out |= drained(markers(passed), self.a.site(self.mod, node), f"{fn.name.value}()")
            elif isinstance(t, Marker) and t.family == ID_RECORDS_FAMILY and t.keys:
                out.add(self._identifiers_passed(t, node, fn, arg_flows))
            elif isinstance(t, Src) and t.bound is not None and t.bound.response_param:
                # the helper read the body of the response it was given (``self._handle(response)``):
                # what that body is, this call's response decides
                passed = arg_flows.get(t.bound.response_param, EMPTY)
                placeholders = [p for p in passed if isinstance(p, Param) and p.site is None]
                if markers(passed, "http_response") or markers(passed, "http_ack"):
                    out |= body_of_json(passed, t.site)
                elif placeholders and len(placeholders) == len(passed):
                    # a helper handing on the response it was given (``parse(response=raw)`` in a
                    # wrapper or another helper): its own caller's request decides
                    out.add(replace(t, bound=replace(t.bound, response_param=placeholders[0].name)))
                else:
                    out.add(replace(t, bound=None))
            elif isinstance(t, Src) and t.bound is not None and t.bound.command_param:
                # the helper ran the command line it was given: a program's usage text is its own
                # (``catalogue.help_command``), any other command's output as large as it is
                arg = arg_node(node, fn, given_parameter(node, fn, t.bound.command_param))
                text = self.string_value(arg) if arg is not None else None
                if text is not None and cat.help_command(text):
                    continue
                lines = self.command_lines(arg) if arg is not None else []
                if lines and all(cat.acknowledging_command([None, *line]) for line in lines):
                    continue  # (``run_kubectl(["patch", kind, name, ...])``: one line per object)
                placeholders = [p for p in arg_flows.get(t.bound.command_param, EMPTY)
                                if isinstance(p, Param) and p.site is None]
                rest = replace(t.bound, command_param=placeholders[0].name
                               if len(placeholders) == 1 and self.helper else None)
                # (what else capped it, ``out[:100_000]``, still does)
                out.add(replace(t, bound=rest if rest.command_param or rest.enforced or rest.param else None))
            elif isinstance(t, Src) and t.bound is not None and t.bound.sql_param:
                # the helper ran the SQL it was given: the bound is the one of the text passed
                arg = arg_node(node, fn, given_parameter(node, fn, t.bound.sql_param))
                if arg is None and self._forwards_keywords(node):
                    # ``def get(self, path, **kwargs): return self._request("GET", path, **kwargs)``:
                    # the ``params=`` is in what this helper's own callers pass
                    out.add(t)
                    continue
                bound = self._given_bound(t.bound, node, fn, arg_flows)
                if bound == "aggregate":
                    continue
                text = self.string_value(arg) if arg is not None else None
                if text is not None and cat.SQL_OPEN_ENDED_OBJECT.match(text):
                    # (``data[0]["Create Table"]``: its one row is still every column)
                    t = replace(t, what=f"{t.what} of `{text.strip()[:40]}`")
                out.add(replace(t, bound=bound))
            elif isinstance(t, Src) and t.bound is not None and t.bound.ids_param:
                # one record per element of the list the helper was given: as many as are passed
                out.add(replace(t, bound=self.flow_list_bound(arg_flows.get(t.bound.ids_param, EMPTY), node)))
            elif isinstance(t, Src) and t.bound is not None and t.bound.param and t.bound.param_site is None:
                out.add(self._rebound(t, fn, arg_flows, node))
            elif isinstance(t, Marker) and (t.url_param or (t.sql_bound is not None and (
                    t.sql_bound.sql_param or t.sql_bound.ids_param or
                    (t.sql_bound.param and t.sql_bound.param_site is None)))):
                # a handle the helper returns unread (``return await client.get(url, params=params)``,
                # a cursor that ran the caller's SQL): what it yields is capped by what was passed
                if not t.url_param and t.sql_bound is not None and t.sql_bound.sql_param and \
                        arg_node(node, fn, given_parameter(node, fn, t.sql_bound.sql_param)) is None and \
                        self._forwards_keywords(node):
                    out.add(t)  # (``**kwargs`` handed on: this helper's callers pass the ``params=``)
                    continue
                given = arg_node(node, fn, t.url_param) if t.url_param else None
                url: str | None = None
                if t.url_param:  # the caller's URL names one resource (``GET /papers/{id}``) or not
                    url = self.string_value(given) if given is not None else None
                    one, fixed = url_resource(url)
                    t = replace(t, url_param=None, whole=one, fixed=fixed,
                                sql_bound=t.sql_bound or api_record_bound(url, t.site))
                if t.sql_bound is not None and t.sql_bound.sql_param:
                    bound = self._given_bound(t.sql_bound, node, fn, arg_flows)
                    if bound == "aggregate":
                        continue
                    if bound is None and given is not None:
                        # (no page size in the parameters passed, if any: the URL's query string)
                        bound = self.pairs_bound(_query_string_pairs(self.url_parts(given)), node)
                    if bound is None and t.whole:
                        # (a body the caller does not pass, ``json=data``: the one resource its URL
                        # names, capped by the remote API's field limits)
                        bound = api_record_bound(url, t.site)
                    t = replace(t, sql_bound=bound)
                elif t.sql_bound is not None and t.sql_bound.ids_param:
                    t = replace(t, sql_bound=self.flow_list_bound(arg_flows.get(t.sql_bound.ids_param, EMPTY), node))
                elif t.sql_bound is not None and t.sql_bound.param and t.sql_bound.param_site is None:
                    # (a handle capped by the helper's own limit parameter: the caller's value)
                    t = replace(t, sql_bound=self._rebound(Src("", t.site, "", t.sql_bound), fn, arg_flows, node).bound)
                out.add(t)
            else:
                out.add(t)
        return frozenset(out)

    def returned_url_parts(self, call: cst.Call, depth: int = 0) -> list[str | cst.BaseExpression | None]:
        """The pieces of the URL a helper of the run builds and returns (``url = build_url(q,
        max_results=n)`` with ``return f"{API}?q={q}&{paging}"``), as this call fills them in: a
        hole holding one of the helper's parameters becomes what the call passes for it (or the
        parameter's literal default), one holding a string local of the helper assigned once
        (``paging = f"start={start}" f"&max_results={max_results}"``) its pieces, any other hole
        ``None`` (unknown); ``[]`` when the helper does not return one string it builds."""
        found = self.resolve_helper(call.func)
        if found is None or depth > 3:
            return []
        fn = found[1]
        returns: list[cst.BaseExpression] = []
        assigned: dict[str, list[cst.BaseExpression]] = {}
        stack: list[cst.CSTNode] = list(body_of(fn))
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            if isinstance(node, cst.Return):
                returns.append(node.value) if node.value is not None else None
            elif isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                assigned.setdefault(node.targets[0].target.value, []).append(node.value)
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign)) and isinstance(node.target, cst.Name):
                assigned.setdefault(node.target.value, []).append(node.value or node.target)
            stack.extend(code_children(node))
        if len(returns) != 1:
            return []
        names = {p.name.value: p for p in [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]}

        def parts(node: cst.BaseExpression, level: int) -> list[str | cst.BaseExpression | None]:
            if level > 8:
                return [None]
            if isinstance(node, cst.SimpleString):
                v = node.evaluated_value
                return [v] if isinstance(v, str) else [None]
            if isinstance(node, cst.ConcatenatedString):
                return parts(node.left, level + 1) + parts(node.right, level + 1)
            if isinstance(node, cst.FormattedString):
                out: list[str | cst.BaseExpression | None] = []
                for p in node.parts:
                    if isinstance(p, cst.FormattedStringText):
                        out.append(p.value)
                    elif isinstance(p, cst.FormattedStringExpression):
                        out += parts(p.expression, level + 1) if isinstance(p.expression, cst.Name) else [None]
                return out
            if isinstance(node, cst.Name):
                values = assigned.get(node.value, [])
                if node.value in names and not values:
                    given = arg_node(call, fn, node.value)
                    default = names[node.value].default
                    if given is not None:
                        return [given]
                    return [default] if isinstance(default, cst.Integer) else [None]
                if len(values) == 1 and node.value not in names and \
                        isinstance(values[0], (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                    return parts(values[0], level + 1)
            return [None]

        return parts(returns[0], 0)

    def _forwards_keywords(self, node: cst.Call) -> bool:
        """Whether ``node``, a call in a helper, hands on the keyword arguments the helper
        gathers (``**kwargs``, its own ``**`` parameter, not a dict it built)."""
        gathered = gathering_parameters(self.fn)[1] if self.helper else None
        return gathered is not None and gathered not in self.dict_entries and any(
            a.star == "**" and isinstance(a.value, cst.Name) and a.value.value == gathered for a in node.args)

    def _given_bound(self, bound: Bound, node: cst.Call, fn: cst.FunctionDef, arg_flows: dict[str, Flow]) -> SqlBound:
        """The cap of what a helper ran or requested with a parameter it was given
        (``Bound.sql_param``), as this call fills it: the page size of a request's parameters
        passed as a dict (``_get(path, {"limit": n})``), else the row cap of the SQL text passed
        (``"aggregate"`` for a count or a write); None when what is passed names no cap."""
        assert bound.sql_param is not None  # (callers pass a bound naming the parameter)
        name = given_parameter(node, fn, bound.sql_param)
        arg = arg_node(node, fn, name)
        built = self.request_object(arg) if arg is not None else None
        if built is not None:  # (``_urlopen_json(req)`` given ``req = Request(url, data=body)``)
            return self.request_bound(built)
        pairs = self._dict_pairs(arg) if arg is not None else []
        if pairs:  # a request's parameters the helper sends (``_get(path, {"limit": n})``)
            return self.pairs_bound(pairs, node)
        query = _query_string_pairs(self.url_parts(arg)) if arg is not None else []
        if query:  # the URL of a request the helper sends (``_get(client, f"{api}?limit={n}")``)
            return self.pairs_bound(query, node)
        return self.sql_bound(arg, arg_flows.get(name, EMPTY), bound.site) if arg is not None else None

    def _identifiers_passed(self, m: Marker, node: cst.Call, fn: cst.FunctionDef, arg_flows: dict[str, Flow]) -> Taint:
        """The records a helper's request named by the identifiers its parameters held
        (``Marker.keys``), as this call binds them: still one record per identifier when what
        the call passes for each is its own parameter (the tool's, or this helper's, which its
        callers show in turn); else (identifiers the tool read: ``ids = [w["id"] for w in
        found]``, or a constant) the JSON body of a request tokenlint cannot size (TL105). A
        parameter the call leaves at its default names nothing."""
        keys: set[str] = set()
        for name in m.keys:
            if arg_node(node, fn, name) is None:
                continue  # (``get_info(id=x)`` leaving ``slug=None``)
            flow = arg_flows.get(name, EMPTY)
            ps = params(flow)
            if not ps or any(isinstance(t, Src) or (isinstance(t, Marker) and t.whole) for t in flow):
                if m.kind == "http_response":
                    return replace(m, whole=False, family=None, keys=())
                # identifiers read from a list cut to a count (``[w["id"] for w in found[:top]]``):
                # one record per identifier, as many as that cut lets through
                cut = self.flow_list_bound(flow, node) if any(isinstance(t, Src) for t in flow) and not any(
                    isinstance(t, Marker) and t.whole for t in flow) else None
                return Src("TL105", m.site, "HTTP response .json()", cut or m.sql_bound)
            keys |= {p.name for p in ps if p.site is None}
        return replace(m, keys=tuple(sorted(keys)))

    def _rebound(self, src: Src, fn: cst.FunctionDef, arg_flows: dict[str, Flow], node: cst.Call | None = None) -> Src:
        """``src`` bounded by a helper's parameter, as this call binds it: the caller's value, or
        the helper's own constant default when the call passes none (``def top(rows, n=10)``).
        A helper's cut of everything when its limit is unset (``Bound.unset_all``) holds for the
        caller's own values (a parameter, the tool's arguments, a dict of them), not for what
        another call made of them (``_bounded(arguments)`` may fill the default in)."""
        assert src.bound is not None and src.bound.param is not None  # (callers pass a bound named by a parameter)
        name = src.bound.param
        if name not in arg_flows:
            default = next((p.default for p in [*fn.params.params, *fn.params.kwonly_params]
                            if p.name.value == name and p.default is not None), None)
            if isinstance(default, cst.Name) and default.value == "None":
                return Src(src.code, src.site, src.what, None)  # ``lines[start:end]``, end=None: all
            value = self.const_int(default) if default is not None else None
            if value is not None:
                return Src(src.code, src.site, src.what, Bound(src.bound.site, fixed=value))
        given = arg_node(node, fn, name) if node is not None else None
        return self._rebind(src, arg_flows.get(name, EMPTY), unset_all=src.bound.unset_all and not isinstance(given, cst.Call))

    def _rebind(self, src: Src, arg: Flow, unset_all: bool = False) -> Src:
        ps = params(arg)
        b = src.bound
        assert b is not None  # (see _rebound)
        if ps:
            p = ps[0]
            known = self.param_defaults.get(p.name, p)
            clamp = p.clamp if p.clamp is not None else known.clamp
            if b.clamp is not None:
                # a maximum the helper enforces itself (``min(int(arguments.get("n", 10)),
                # settings.MAX)`` in a handler given the arguments) holds whatever the caller passes
                clamp = _tighter(clamp, b.clamp)
            # (a helper's cut of everything when its limit is unset: so for the caller's value,
            # unless that declares a default of its own)
            unset_all = unset_all and (known.default_none or not known.has_default) and not b.filled
            return Src(src.code, src.site, src.what, Bound(b.site, param=p.name, clamp=clamp,
                                                           # (a None the helper fills in is no "all")
                                                           default_none=(known.default_none and not b.filled) or unset_all,
                                                           # (a helper's own placeholder is rebound at each of its calls)
                                                           param_site=None if self.helper and p.site is None else known.site,
                                                           unset_all=unset_all,
                                                           filled=self.helper and p.site is None and p.name in self.filled_params))
        return Src(src.code, src.site, src.what, Bound(b.site, fixed=-1))

    def _bind_args(self, node: cst.Call, fn: cst.FunctionDef) -> dict[str, Flow]:
        names = [p.name.value for p in [*fn.params.posonly_params, *fn.params.params] if p.name.value not in ("self", "cls")]
        kw_names = {p.name.value for p in fn.params.kwonly_params} | set(names)
        star_args, star_kwargs = gathering_parameters(fn)
        out: dict[str, Flow] = {}
        pos = 0
        for a in node.args:
            if isinstance(a.value, cst.Lambda):
                # a callable the helper may call (``retry(lambda: fetch(x))``): what it returns
                flow = self.lambda_result(a.value)
            elif isinstance(a.value, cst.Name) and a.value.value not in self.env and \
                    self.nested(a.value.value) is not None:
                nested = self.nested(a.value.value)
                assert nested is not None  # (the test above)
                flow = self.call_nested(nested, {})
            else:
                flow = self.expr(a.value)
            if a.keyword is not None and a.keyword.value in kw_names:
                out[a.keyword.value] = flow
            elif a.keyword is None and a.star == "" and pos < len(names):
                out[names[pos]] = flow
                pos += 1
            elif (gathered := star_kwargs if a.keyword is not None or a.star == "**" else star_args) is not None:
                # beyond the named parameters: gathered by ``**kwargs`` (a keyword, ``**d``) or
                # ``*args`` (a positional, ``*xs``)
                out[gathered] = union(out.get(gathered, EMPTY), flow)
            else:
                for n in names[pos:]:
                    out[n] = union(out.get(n, EMPTY), flow)
        return out


def dispatch_parameters(fn: cst.FunctionDef, cache: dict[int, frozenset[str]]) -> frozenset[str]:
    """The parameters of ``fn`` that name a method it looks up on an object and calls
    (``getattr(client, method_name)``, in its body or a function nested in it: a dispatcher such
    as ``async def call(method_name, **kwargs): return await getattr(client, method_name)
    (**kwargs)``, a retry loop around a Slack call). Computed once per def (``cache``: the
    analyzer's table, by ``id``)."""
    key = id(fn)
    found = cache.get(key)
    if found is None:
        names = {p.name.value for p in [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]}
        found = cache[key] = frozenset(
            n.args[1].value.value for n in walk(fn.body)
            if isinstance(n, cst.Call) and dotted_name(n.func) == "getattr" and len(n.args) >= 2
            and isinstance(n.args[1].value, cst.Name) and n.args[1].value.value in names)
    return found


def branch_parameters(fn: cst.FunctionDef, cache: dict[int, frozenset[str]]) -> frozenset[str]:
    """The parameters of ``fn`` that an ``if`` or ``elif`` of its own body compares with a literal
    or a class's member (``if tool_name == ToolName.GET_SCHEMAS:``, ``elif action == "list":``)
    or that a ``match`` takes as its subject, and that ``fn`` never rebinds: the ones a caller
    passing a literal decides branches with. Computed once per def (``cache``: the analyzer's
    table, by ``id``)."""
    key = id(fn)
    found = cache.get(key)
    if found is not None:
        return found
    names = {p.name.value for p in [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]}
    tested: set[str] = set()
    rebound: set[str] = set()
    for n in walk_own(fn.body):
        if isinstance(n, cst.If):
            for c in walk(n.test):
                if isinstance(c, cst.Comparison) and len(c.comparisons) == 1 and \
                        isinstance(c.comparisons[0].operator, (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)):
                    sides = (c.left, c.comparisons[0].comparator)
                    for a, b in (sides, sides[::-1]):
                        if isinstance(a, cst.Name) and a.value in names and \
                                (member_token(b) is not None or literal_value(None, b) is not None):
                            tested.add(a.value)
        elif isinstance(n, cst.Match) and isinstance(n.subject, cst.Name) and n.subject.value in names:
            tested.add(n.subject.value)
        elif isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
            target = n.target
            if isinstance(target, cst.Name):
                rebound.add(target.value)
    found = cache[key] = frozenset(tested - rebound)
    return found


def forwarded_parameter(fn: cst.FunctionDef, cache: dict[int, int | None]) -> int | None:
    """The position of the parameter a forwarding wrapper calls with the rest of its arguments
    (``def run_call(func, /, *args, **kwargs)`` whose body calls ``func(*args, **kwargs)``, or
    hands it to ``partial``, ``to_thread``, ``run_sync``, ``run_in_executor``... with them:
    retry, timeout and worker-thread wrappers), not counting ``self``/``cls``; None for any other
    function. Computed once per def (``cache``: the analyzer's table, by ``id``)."""
    key = id(fn)
    if key in cache:
        return cache[key]
    found: int | None = None
    rest = {n for n in gathering_parameters(fn) if n is not None}
    names = [p.name.value for p in [*fn.params.posonly_params, *fn.params.params] if p.name.value not in ("self", "cls")]
    if rest and names:
        for n in walk(fn.body):
            if not isinstance(n, cst.Call):
                continue
            starred = {a.value.value for a in n.args if a.star and isinstance(a.value, cst.Name)}
            if not starred & rest:
                continue
            callee = dotted_name(n.func) or ""
            called = [callee] if callee in names else []
            if callee.split(".")[-1] in ELSEWHERE:
                called += [a.value.value for a in n.args if not a.star and isinstance(a.value, cst.Name)
                           and a.value.value in names]
            if called:
                found = names.index(called[0])
                break
    cache[key] = found
    return found


#: First words of a method that runs the function it is given and returns its result
#: (``limiter.run_async(fn)``, ``policy.call(fn)``, ``retry.execute(fn)``): ``run_elsewhere``.
_RUNNER_VERBS = frozenset({"run", "call", "execute", "retry", "invoke"})

#: Family of the object a lambda handed to code tokenlint cannot read is called with.
LAMBDA_ARGUMENT_FAMILY = "<lambda argument>"



def nested_def(fn: cst.FunctionDef, name: str) -> cst.FunctionDef | None:
    """A function named ``name`` defined inside ``fn``'s body (``values.defs_in``), or None."""
    return next((n for n in defs_in(fn) if n.name.value == name), None)


def _tighter(clamp: int | None, other: int) -> int:
    """The maximum that holds when both ``clamp`` (None: none yet) and ``other`` are enforced:
    the smaller of the two known ones (-1, a maximum of unknown value, gives way to a known one)."""
    return other if clamp is None or clamp < 0 or 0 <= other < clamp else clamp


def _clamped(p: Param, clamp: int) -> Param:
    """``p`` with the maximum ``clamp`` enforced on it too (``_tighter``)."""
    tighter = _tighter(p.clamp, clamp)
    return p if tighter == p.clamp else replace(p, clamp=tighter)


def given_parameter(call: cst.Call, fn: cst.FunctionDef, names: str) -> str:
    """Of the comma-separated parameter names ``names`` (``Bound.sql_param``), the first one
    ``call`` passes an argument for (the first name when it passes none)."""
    options = names.split(",")
    return next((n for n in options if arg_node(call, fn, n) is not None), options[0])


def method_name(expr: cst.BaseExpression, mod: ParsedModule, scope: cst.FunctionDef | cst.Lambda | None,
                project: Project, depth: int = 0) -> str | None:
    """The name of the method ``expr`` (an expression of ``mod``, inside ``scope``) holds when it
    is handed over to be called: ``client.api.traces.list`` -> ``list``; ``getattr(ns,
    "get_many", None)`` -> ``get_many``; a local assigned one of those in ``scope``
    (``method = getattr(...) if ns else None``); a helper of the run that returns one (followed
    up to ``MAX_HELPER_DEPTH`` deep, its own locals read). None when no name is written (a name
    looked up at run time, ``getattr(api, part)``)."""
    if depth > MAX_HELPER_DEPTH:
        return None
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    if isinstance(expr, cst.IfExp):
        return method_name(expr.body, mod, scope, project, depth + 1) or \
            method_name(expr.orelse, mod, scope, project, depth + 1)
    if isinstance(expr, cst.BooleanOperation):
        return method_name(expr.left, mod, scope, project, depth + 1) or \
            method_name(expr.right, mod, scope, project, depth + 1)
    if isinstance(expr, cst.Name):
        if isinstance(scope, cst.FunctionDef):
            for n in walk(scope.body):
                if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == expr.value
                                                     for t in n.targets):
                    found = method_name(n.value, mod, scope, project, depth + 1)
                    if found is not None:
                        return found
        return None
    if not isinstance(expr, cst.Call):
        return None
    if dotted_name(expr.func) == "getattr" and len(expr.args) >= 2:
        literal = string_literal(expr.args[1].value)
        return literal if literal is not None and literal.isidentifier() else None
    helper = project.function_called(mod, expr.func)
    if helper is None:
        return None
    hmod, hfn = helper
    for n in walk(hfn.body):
        if isinstance(n, cst.Return) and n.value is not None:
            found = method_name(n.value, hmod, hfn, project, depth + 1)
            if found is not None:
                return found
    # ``_legacy_route(client, "trace.list")`` whose helper walks ``getattr(node, part)`` along the
    # dotted path it is given: the last name of that path
    paths = [text for a in expr.args if (text := string_literal(a.value)) is not None
             and _DOTTED_NAME.fullmatch(text)]
    if len(paths) == 1 and _looks_up_by_name(hmod, hfn, project, depth):
        return paths[0].rsplit(".", 1)[-1]
    return None


def _named_method(name: str | None) -> bool:
    """Whether ``name`` says what a method returns (``shapes.call_shape``: ``get_many`` a
    collection, ``get_by_id`` a record, ``count`` a number), not only what an object is
    (``model``, ``pipeline``)."""
    return name is not None and call_shape(name) is not Shape.UNKNOWN


#: A name or a dotted path of names (``list``, ``trace.list``).
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _looks_up_by_name(mod: ParsedModule, fn: cst.FunctionDef, project: Project, depth: int) -> bool:
    """Whether ``fn`` (or a helper of the run it calls, ``MAX_HELPER_DEPTH`` deep) takes an
    attribute by a name computed at run time (``getattr(node, part)``)."""
    for n in walk(fn.body):
        if not isinstance(n, cst.Call):
            continue
        if dotted_name(n.func) == "getattr":
            if len(n.args) >= 2 and string_literal(n.args[1].value) is None:
                return True
            continue
        if depth >= MAX_HELPER_DEPTH:
            continue
        helper = project.function_called(mod, n.func)
        if helper is not None and helper[1] is not fn and _looks_up_by_name(*helper, project, depth + 1):
            return True
    return False


def arg_node(call: cst.Call, fn: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
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


#: The methods of Python's built-in containers (``dict.get``, ``list.append``, ``set.add``...): a
#: call of one on an object of unknown type is no evidence of a class of the run defining it.
_CONTAINER_METHODS = frozenset(m for t in (dict, list, set) for m in dir(t) if not m.startswith("_"))


def find_instance_attribute_classes(mod: ParsedModule, class_name: str) -> dict[str, str]:
    """``{attr: qualified class}`` for each ``self.attr = Cls(...)`` in ``class_name``'s methods,
    or ``self.attr = param`` where the method's parameter is annotated with a class
    (``def __init__(self, connector: QdrantConnector)``, ``Optional[Connector]``), or a field the
    class body declares with a class (``client: AcmeClient`` of a dataclass), the class
    imported or defined in ``mod`` (the first assignment wins). A collaborator given with a
    default (``self.links = registry if registry is not None else links``, ``self.store = store
    or Store()``) is of the class either side names, a module-level ``links = LinkRegistry()``
    naming its class."""
    out: dict[str, str] = {}
    cls = mod.classes.get(class_name)
    if cls is None:
        return out

    def qualified(node: cst.BaseExpression) -> str | None:
        callee = dotted_name(node)
        return mod.imports.qualify(node) or (f"{mod.module_name}.{callee}" if callee in mod.classes else None)

    annotations: dict[str, str] = {}
    for n in _walk(cls.body):
        if isinstance(n, cst.Param) and n.annotation is not None:
            qn = annotation_class(mod, n.annotation.annotation)  # (``Connector | None`` too)
            if qn:
                annotations.setdefault(n.name.value, qn)

    def value_class(value: cst.BaseExpression) -> str | None:
        if isinstance(value, cst.Call):
            return qualified(value.func)
        if isinstance(value, cst.Name):
            if value.value in annotations:
                return annotations[value.value]
            made = mod.constants.get(value.value)  # a shared module-level instance
            return annotation_class(mod, made.func) if isinstance(made, cst.Call) else None
        if isinstance(value, cst.IfExp):
            return value_class(value.body) or value_class(value.orelse)
        if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
            return value_class(value.left) or value_class(value.right)
        return None

    stack: list[cst.CSTNode] = [cls.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Assign, cst.AnnAssign)) and n.value is not None:
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            qn = value_class(n.value)
            for t in targets:
                dn = dotted_name(t)
                if qn and dn and dn.startswith("self.") and dn.count(".") == 1:
                    out.setdefault(dn[5:], qn)
        stack.extend(code_children(n))
    for line in cls.body.body:
        # a field the class body declares with its type (a dataclass's, a pydantic model's, any
        # class's ``client: AcmeClient``, PEP 526), when no method assigns it
        for st in line.body if isinstance(line, cst.SimpleStatementLine) else ():
            if isinstance(st, cst.AnnAssign) and isinstance(st.target, cst.Name):
                qn = annotation_class(mod, st.annotation.annotation)
                if qn:
                    out.setdefault(st.target.value, qn)
    return out


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(code_children(n))


#: Keywords of a field declaration that make each instance a new empty collection:
#: ``dataclasses.field(default_factory=list)``, ``attrs.field(factory=list)``,
#: ``pydantic.Field(default_factory=dict)``.
_FACTORY_KEYWORDS = frozenset({"default_factory", "factory"})


def find_instance_collections(mod: ParsedModule, class_name: str) -> frozenset[str]:
    """Attributes of ``class_name`` in ``mod`` that hold run-time data: those its methods set to
    an empty collection (``self.notes = {}``), and fields declared empty for each instance
    (``errors: list[str] = field(default_factory=list)``) that its own methods fill
    (``self.errors.append(line)``, ``self.seen[key] = v``, ``self.lines += more``). A field
    declared so but only ever filled from outside is a record's field, not the object's data."""
    names: set[str] = set()
    cls = mod.classes.get(class_name)
    if cls is not None:
        declared = {n for n, value in _class_fields(cls) if _empty_factory(value)}
        if declared:
            names |= declared & _self_filled(cls)
        stack: list[cst.CSTNode] = [cls.body]
        while stack:
            n = stack.pop()
            if isinstance(n, (cst.Assign, cst.AnnAssign)) and n.value is not None:
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                for t in targets:
                    dn = dotted_name(t)
                    if dn and dn.startswith("self.") and dn.count(".") == 1 and empty_collection(n.value):
                        names.add(dn[5:])
            stack.extend(code_children(n))
    return frozenset(names)


def _class_fields(cls: cst.ClassDef) -> Iterator[tuple[str, cst.BaseExpression]]:
    """``(name, value)`` of each field a class body declares with a value (``x: T = v``)."""
    for stmt in cls.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
                    yield small.target.value, small.value


def _empty_factory(value: cst.BaseExpression) -> bool:
    """Whether a field's declared value makes a new empty collection per instance
    (``field(default_factory=list)``, ``Field(default_factory=lambda: [])``)."""
    if not isinstance(value, cst.Call):
        return False
    for arg in value.args:
        if arg.keyword is not None and arg.keyword.value in _FACTORY_KEYWORDS:
            factory = arg.value
            if isinstance(factory, cst.Lambda):
                return empty_collection(factory.body)
            return (dotted_name(factory) or "").split(".")[-1] in EMPTY_FACTORIES | {"defaultdict"}
    return False


def _self_filled(cls: cst.ClassDef) -> frozenset[str]:
    """Attributes of ``self`` the methods of ``cls`` add to in place: ``self.x.append(v)`` (any
    of ``values.ACCUMULATORS``), ``self.x[k] = v`` and ``self.x += more``."""
    out: set[str] = set()
    for n in walk(cls.body):
        target: cst.BaseExpression | None = None
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in ACCUMULATORS:
            target = n.func.value
        elif isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Subscript):
                    target = t.target.value
        elif isinstance(n, cst.AugAssign):
            target = n.target
        dn = dotted_name(target) if target is not None else None
        if dn and dn.startswith("self.") and dn.count(".") == 1:
            out.add(dn[5:])
    return frozenset(out)


def _leaving_sites(summary: Summary) -> frozenset[Site]:
    """The sites of the data a helper gives its caller: what it returns (or yields), puts into
    the collections it was passed, stores on ``self`` or on a global (``Summary``)."""
    flows = [summary.returned(), summary.stored, *summary.filled.values(), *summary.stored_attrs.values(),
             *summary.globals_written.values()]
    return frozenset(t.site for f in flows for t in f if isinstance(t, (Src, Marker)))


#: Return annotations of a number or a flag (``Optional[...]`` and ``... | None`` unwrapped).
_NUMBER_ANNOTATIONS = frozenset({"int", "float", "bool", "complex", "None"})


#: Last words of a getter's name that name one identifying field of a record (its title, name,
#: identifier, address or version): ``_returns_small_field``.
_NAMING_FIELDS = frozenset({"title", "name", "id", "slug", "url", "uri", "email", "username", "version"})


def _returns_small_field(fn: cst.FunctionDef) -> bool:
    """Whether ``fn`` is a getter annotated to return a string (``-> str``, ``-> Optional[str]``)
    and named for one identifying field of what it is given (``def get_page_title(page) -> str``,
    ``extract_display_name(user) -> str``: first word ``get`` or ``extract``, last one of
    ``_NAMING_FIELDS``)."""
    ann = optional_inner(fn.returns.annotation) if fn.returns is not None else None
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr) and \
            dotted_name(ann.right) == "None":
        ann = ann.left
    ws = words(fn.name.value)
    return ann is not None and dotted_name(ann) == "str" and len(ws) >= 2 and ws[0] in ("get", "extract") \
        and ws[-1] in _NAMING_FIELDS


def _relocated(flow: Flow, kept: frozenset[Site], here: Site) -> Flow:
    """``flow`` with each source of a site in ``kept`` moved to ``here``, the call that gave it
    back measured (``FollowedCalls._checked_returns``): a size check made there covers that copy
    and not the same source reaching the response another way."""
    if not kept:
        return flow
    return frozenset(replace(t, site=here) if isinstance(t, Src) and t.site in kept else t for t in flow)


def _returns_number(fn: cst.FunctionDef) -> bool:
    """Whether ``fn`` is annotated to return a number or a flag (``-> int``, ``-> bool``,
    ``-> Optional[int]``, ``-> float | None``)."""
    ann = optional_inner(fn.returns.annotation) if fn.returns is not None else None
    names: list[str | None] = []
    while isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        names.append(dotted_name(ann.right))
        ann = ann.left
    names.append(dotted_name(ann) if ann is not None else None)
    return ann is not None and all(n in _NUMBER_ANNOTATIONS for n in names) and names != ["None"]


def returns_object_data(mod: ParsedModule, fn: cst.FunctionDef, cache: dict[int, bool], depth: int = 0) -> bool:
    """Whether a method ``fn`` of a class of ``mod`` may give back the data its object holds:
    some ``return`` reads an attribute of ``self`` (``self.rows``, ``self.text.splitlines()``,
    ``self.data[key]``) or the object itself (``return asdict(self)``), through locals and what is appended to them, or calls a method of the
    class that does. A loop's element returned from inside that loop (``for root in self.roots:
    if ...: return root``: the first match) reads one element, not the collection; an element
    appended to a list that is returned reads the collection. True when anything cannot be
    judged (a method not found, nesting deeper than ``MAX_HELPER_DEPTH``). Judged once per def
    (``cache``, by ``id``)."""
    if id(fn) in cache:
        return cache[id(fn)]
    cache[id(fn)] = True  # (a method calling itself: judged as giving its data back)
    owner = method_class(mod, fn)
    leaks = owner is None or depth > MAX_HELPER_DEPTH or _leaks(mod, owner, fn, cache, depth)
    cache[id(fn)] = leaks
    return leaks


def _leaks(mod: ParsedModule, owner: str, fn: cst.FunctionDef, cache: dict[int, bool], depth: int) -> bool:
    """Whether some ``return`` of ``fn`` reads the object's data (``returns_object_data``)."""
    values: dict[str, list[cst.BaseExpression]] = {}
    loops: dict[str, tuple[cst.For, cst.BaseExpression]] = {}
    returns: list[tuple[cst.Return, list[cst.For]]] = []

    def visit(node: cst.CSTNode, inside: list[cst.For]) -> None:
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and node is not fn:
            return
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and node.value is not None:
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for t in targets:
                root = t.value if isinstance(t, cst.Subscript) else t
                for n in walk(root):
                    if isinstance(n, cst.Name):
                        values.setdefault(n.value, []).append(node.value)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                isinstance(node.func.value, cst.Name) and node.func.attr.value in ACCUMULATORS:
            values.setdefault(node.func.value.value, []).extend(a.value for a in node.args)
        elif isinstance(node, cst.Return) and node.value is not None:
            returns.append((node, list(inside)))
        if isinstance(node, cst.For):
            for n in walk(node.target):
                if isinstance(n, cst.Name):
                    loops[n.value] = (node, node.iter)
            inside = [*inside, node]
        for child in code_children(node):
            visit(child, inside)

    visit(fn.body, [])
    seen: set[tuple[str, tuple[int, ...]]] = set()

    def reads(expr: cst.CSTNode, inside: list[cst.For]) -> bool:
        for n in _walk_expr(expr):
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and dotted_name(n.func.value) == "self":
                method = mod.functions.get(f"{owner}.{n.func.attr.value}")
                if method is None or returns_object_data(mod, method, cache, depth + 1):
                    return True
                if any(reads(a.value, inside) for a in n.args):
                    return True
            elif isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == "self":
                return True  # (``self.x``, not a method called: the object's data)
            elif isinstance(n, cst.Name) and n.value == "self":
                return True  # (the object itself: ``return self``, ``asdict(self)``, ``vars(self)``)
            elif isinstance(n, cst.Name) and (n.value, tuple(map(id, inside))) not in seen:
                seen.add((n.value, tuple(map(id, inside))))
                loop = loops.get(n.value)
                if loop is not None and loop[0] not in inside and reads(loop[1], inside):
                    return True  # (an element used after its loop: accumulated)
                if any(reads(v, inside) for v in values.get(n.value, [])):
                    return True
        return False

    return any(reads(r.value, inside) for r, inside in returns if r.value is not None)


def _walk_expr(expr: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes of an expression, a method call's receiver and name not walked apart from the
    call (``self.find(p)`` is one call, not a read of ``self.find``)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and dotted_name(n.func.value) == "self":
            continue  # (``reads`` judges the method and its arguments)
        stack.extend(code_children(n))
