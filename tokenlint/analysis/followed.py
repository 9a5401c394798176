"""Calls into the project's own code: helpers of this module and of other modules of the
run, methods of project classes, nested functions (closures), and callables run elsewhere
(``anyio.to_thread.run_sync``, ``asyncio.to_thread``, ``loop.run_in_executor``,
``executor.submit``, ``functools.partial``).

Each helper is summarised once (``Analyzer.helper_summary``) with its parameters as
placeholders; ``call_helper`` substitutes what each call passes: the flows, the SQL text (its
``LIMIT``), a size check's budget and measured data, a callable's result, tuple parts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterator

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis.external import (SIZE_UNKNOWN, ack_of_write, drained, part_of, record_of_get,
                                         whole_record_sources)
from tokenlint.analysis.shapes import configuration_collection
from tokenlint.analysis.state import InterpreterState, SqlBound
from tokenlint.analysis.taints import (EMPTY, Bound, Flow, Marker, Measure, Param, Src, apply_bound, markers, params,
                                      scalar_of, union)
from tokenlint.analysis.values import MAX_HELPER_DEPTH, body_of, defs_in, empty_collection, is_stdlib
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children

if TYPE_CHECKING:
    from tokenlint.analysis.interpreter import Summary
    from tokenlint.source.project import ParsedModule


class FollowedCalls(InterpreterState):
    """Mixin of ``FunctionInterpreter``: calls into code of the run."""

    def run_elsewhere(self, node: cst.Call, qn: str | None, method: str | None) -> Flow | None:
        """``anyio.to_thread.run_sync(fn, *a)``, ``asyncio.to_thread(fn, *a)``,
        ``loop.run_in_executor(None, fn, *a)``, ``executor.submit(fn, *a)``,
        ``functools.partial(fn, *a)``: the result is what ``fn`` returns (a lambda's body, a
        nested def over this function's locals, or a helper)."""
        tail = (qn or "").split(".")[-1] if qn else method
        if tail not in ELSEWHERE:
            return None
        index = 1 if tail == "run_in_executor" else 0
        if len(node.args) <= index:
            return None
        target = node.args[index].value
        rest = node.args[index + 1:]
        if isinstance(target, cst.Lambda):
            return self.expr(target.body)
        if isinstance(target, cst.Name) and target.value not in self.env:
            nested = self.nested(target.value)
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
        sub.strings = dict(self.strings)
        sub.dict_entries = {**self.dict_entries, **sub.dict_entries}
        sub.param_defaults = {**self.param_defaults, **sub.param_defaults}
        sub._active = self._active | {id(fn)}
        summary = sub.run(body_of(fn))
        self._merge(summary)
        return summary.returned()

    def _merge(self, summary: Summary, arg_flows: dict[str, Flow] | None = None) -> None:
        passed: Flow | list[Param]  # (what the call passes: the flows measured, the budget's parameters)
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

    # -- helpers ------------------------------------------------------------------------------
    def resolve_helper(self, func: cst.BaseExpression) -> tuple[ParsedModule, cst.FunctionDef] | None:
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
                found = self.a.method_of(mod, self.class_name, meth)  # also inherited from a base
                if found is not None:
                    return found
            if base is not None and base.split(".")[0] not in mod.imports.names and \
                    base.split(".")[0] not in ("self", "cls"):
                # (``self.client.search()`` is another object's method: ``_chain_class`` knows it)
                # ``db.run_query(...)`` on an instance of a class of this module: the method is
                # unambiguous when exactly one class here defines it
                owners = [k for k in mod.functions if k.endswith(f".{meth}") and k.count(".") == 1]
                if len(owners) == 1:
                    return mod, mod.functions[owners[0]]
        else:
            return None
        qn = mod.imports.qualify(func)
        return self.a.project.find_function(qn) if qn else None

    def call_helper(self, node: cst.Call, module: ParsedModule, fn: cst.FunctionDef) -> Flow:
        """The flow of a call of the run's function ``fn`` (defined in ``module``): its summary
        (``Analyzer.helper_summary``) as this call binds it (``_from_helper``: parameters replaced
        by the arguments, bounds named by a parameter rebound, SQL text passed deciding a query's
        bound). Its size checks join this function's; what it puts into collections the call passes
        goes into them; its tuple parts and dict entries are kept for ``a, b = helper()`` and
        ``r["key"]``; the acknowledgement of a write and a GET of one resource read as one record; a
        return annotation naming a library class makes the result an object of it. While the helper
        is being summarised (recursion): what the arguments hold."""
        summary = self.a.helper_summary(module, fn, self.depth)
        arg_flows = self._bind_args(node, fn)
        if summary is None:
            return union(*arg_flows.values())
        self._merge(summary, arg_flows)
        for name, filled in summary.filled.items():
            # ``collect(matches, symbols)`` appending into ``symbols``: the caller's collection
            given = arg_node(node, fn, name)
            if given is not None:
                self.accumulate(given, self._from_helper(filled, node, fn, arg_flows))
        parts = summary.tuple_parts()
        if parts is not None:  # ``a, b = helper()``: each target gets its own part
            self._tuple_results[id(node)] = [self._from_helper(p, node, fn, arg_flows) for p in parts]
        entries = summary.dict_parts()
        if entries is not None:  # ``r = helper(); r["message"]``: each key its own flow
            self._dict_results[id(node)] = {
                k: record_of_get(ack_of_write(self._from_helper(f, node, fn, arg_flows), node, self.action_name,
                                              self.string_value),
                                 node, self.string_value)
                for k, f in entries.items()}
        out = ack_of_write(self._from_helper(summary.returned(), node, fn, arg_flows), node, self.action_name,
                           self.string_value)
        out = record_of_get(out, node, self.string_value)
        if configuration_collection(fn.name.value) and (
                any(isinstance(t, Src) for t in out) or whole_record_sources(out)):
            # ``client.get_work_item_types(project)``: a helper named for what the instance is
            # configured with returns a handful, whatever request it makes (labelling rule 6)
            self.summary.untraced.append(f"{dotted_name(node.func) or fn.name.value}()")
            out = apply_bound(out, Bound(self.a.site(self.mod, node), configured=True))
        page = self.cursor_bound(node)
        if page is not None:  # ``api.get_tasks(cursor=cursor)``: one page of the API's own size
            out = frozenset(t.with_bound(page) if isinstance(t, Src) else t for t in out)
        handle = self._annotated_handle(module, fn)
        if handle is not None and not any(isinstance(t, Src) for t in out):
            # ``def get_collection(...) -> Collection``: what it returns is an object of that
            # library class (its methods are the library's: ``collection.find(q)``)
            out = union(out, frozenset({Marker("object", self.a.site(self.mod, node), family=handle)}))
        return out

    def _annotated_handle(self, module: ParsedModule, fn: cst.FunctionDef) -> str | None:
        """The qualified library class a helper's return annotation names (``-> Collection``,
        ``-> Optional[redis.Redis]``, ``-> MongoClient | None``), when it is imported from
        outside the standard library and the run; else None."""
        qn = _annotated_class(module, fn)
        if qn is None or is_stdlib(qn):
            return None
        if self.a.project.resolve(qn) is not None:
            return None  # a class of the run: its own methods are followed
        return qn

    def _from_helper(self, returned: Flow, node: cst.Call, fn: cst.FunctionDef,
                     arg_flows: dict[str, Flow]) -> Flow:
        """A helper's returned flow as seen by this call: its parameters replaced by the
        arguments, bounds named by a parameter rebound to what the caller passes."""
        out: set = set()
        for t in returned:
            if isinstance(t, Param) and t.site is None:
                passed = arg_flows.get(t.name, EMPTY)
                if t.cap is not None:
                    cap: Bound | None = t.cap
                    if t.cap.param and t.cap.param_site is None:  # a cap named by another parameter
                        # (None when that parameter defaults to None and the call passes none:
                        # no cap on what this call passes)
                        cap = self._rebound(Src("", t.cap.site, "", t.cap), fn, arg_flows, node).bound
                    if cap is not None:
                        passed = apply_bound(passed, cap)
                if t.payload and passed and all(isinstance(x, Marker) and x.kind == "object" for x in passed) \
                        and (given := arg_node(node, fn, t.name)) is not None and not self._dict_pairs(given):
                    # ``format_event(event)`` iterating ``event.get("entries")``: the payload of the
                    # one record passed, as large as the service made it (a dict the caller built
                    # of fields it picked, ``{"id": p.id, ...}``, holds no payload)
                    out.add(Src("TL108", self.a.site(self.mod, node),
                                f"the payload of a record given to {fn.name.value}() {SIZE_UNKNOWN}"))
                    continue
                if t.scalar:
                    # ``def digest(text): return sha256(text.encode()).hexdigest()``: a scalar of
                    # what this call passes (its limits, measures), not the data
                    out |= scalar_of(passed)
                    continue
                out |= frozenset(part_of(x) for x in passed) if t.part else passed
                if t.part:
                    # what a helper made of the elements of a cursor it was given
                    # (``def to_docs(cursor): return [clean(d) for d in cursor]``): every row
                    out |= drained(markers(passed), self.a.site(self.mod, node), f"{fn.name.value}()")
            elif isinstance(t, Src) and t.bound is not None and t.bound.sql_param:
                # the helper ran the SQL it was given: the bound is the one of the text passed
                arg = arg_node(node, fn, t.bound.sql_param)
                pairs = self._dict_pairs(arg) if arg is not None else []
                if pairs:  # a request's parameters the helper sends (``_get(path, {"limit": n})``)
                    bound: SqlBound = self.pairs_bound(pairs, node)
                else:
                    bound = self.sql_bound(arg, arg_flows.get(t.bound.sql_param, EMPTY), t.bound.site) \
                        if arg is not None else None
                if bound == "aggregate":
                    continue
                text = self.string_value(arg) if arg is not None else None
                if text is not None and cat.SQL_OPEN_ENDED_OBJECT.match(text):
                    # (``data[0]["Create Table"]``: its one row is still every column)
                    t = replace(t, what=f"{t.what} of `{text.strip()[:40]}`")
                out.add(replace(t, bound=bound))
            elif isinstance(t, Src) and t.bound is not None and t.bound.param and t.bound.param_site is None:
                out.add(self._rebound(t, fn, arg_flows, node))
            else:
                out.add(t)
        return frozenset(out)

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
            # (a helper's cut of everything when its limit is unset: so for the caller's value,
            # unless that declares a default of its own)
            unset_all = unset_all and (known.default_none or not known.has_default)
            return Src(src.code, src.site, src.what, Bound(b.site, param=p.name, clamp=clamp,
                                                           default_none=known.default_none or unset_all,
                                                           # (a helper's own placeholder is rebound at each of its calls)
                                                           param_site=None if self.helper and p.site is None else known.site,
                                                           unset_all=unset_all))
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
            else:
                for n in names[pos:]:
                    out[n] = union(out.get(n, EMPTY), flow)
        return out


#: Callees that run a callable elsewhere and hand back its result (or a future of it).
ELSEWHERE = frozenset({"run_sync", "to_thread", "run_in_executor", "submit", "partial",
                        "run_in_threadpool", "asyncify", "defer_to_thread", "run_blocking"})


def nested_def(fn: cst.FunctionDef, name: str) -> cst.FunctionDef | None:
    """A function named ``name`` defined inside ``fn``'s body (``values.defs_in``), or None."""
    return next((n for n in defs_in(fn) if n.name.value == name), None)


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


def find_instance_attribute_classes(mod: ParsedModule, class_name: str) -> dict[str, str]:
    """``{attr: qualified class}`` for each ``self.attr = Cls(...)`` in ``class_name``'s methods,
    or ``self.attr = param`` where the method's parameter is annotated with a class
    (``def __init__(self, connector: QdrantConnector)``), the class imported or defined in
    ``mod`` (the first assignment wins)."""
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
            ann = n.annotation.annotation
            if isinstance(ann, cst.BinaryOperation):  # ``Connector | None``
                ann = ann.left
            qn = qualified(ann) if isinstance(ann, (cst.Name, cst.Attribute)) else None
            if qn:
                annotations.setdefault(n.name.value, qn)
    stack: list[cst.CSTNode] = [cls.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Assign, cst.AnnAssign)) and n.value is not None:
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            if isinstance(n.value, cst.Call):
                qn = qualified(n.value.func)
            elif isinstance(n.value, cst.Name):
                qn = annotations.get(n.value.value)
            else:
                qn = None
            for t in targets:
                dn = dotted_name(t)
                if qn and dn and dn.startswith("self.") and dn.count(".") == 1:
                    out.setdefault(dn[5:], qn)
        stack.extend(code_children(n))
    return out


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(code_children(n))


def find_instance_collections(mod: ParsedModule, class_name: str) -> frozenset[str]:
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
                    if dn and dn.startswith("self.") and dn.count(".") == 1 and empty_collection(n.value):
                        names.add(dn[5:])
            stack.extend(code_children(n))
    return frozenset(names)


def _annotated_class(module: ParsedModule, fn: cst.FunctionDef) -> str | None:
    """The qualified CapWords class a function's return annotation names, ``Optional[...]`` and
    ``... | None`` unwrapped (``-> Collection``, ``-> Optional[redis.Redis]``), or None. A class
    of the module itself is qualified by the module's name."""
    if fn.returns is None:
        return None
    ann = fn.returns.annotation
    if isinstance(ann, cst.Subscript) and dotted_name(ann.value) in ("Optional", "typing.Optional") \
            and len(ann.slice) == 1 and isinstance(ann.slice[0].slice, cst.Index):
        ann = ann.slice[0].slice.value
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        sides = [x for x in (ann.left, ann.right) if dotted_name(x) != "None"]
        ann = sides[0] if len(sides) == 1 else ann
    if not isinstance(ann, (cst.Name, cst.Attribute)):
        return None
    qn = module.imports.qualify(ann)
    if qn is None and isinstance(ann, cst.Name) and ann.value in module.classes:
        qn = f"{module.module_name}.{ann.value}"
    if qn is None or not qn.rsplit(".", 1)[-1][:1].isupper():
        return None
    return qn
