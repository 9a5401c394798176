"""Low-level ``Server`` tools: each tool is one branch of the ``call_tool`` handler's dispatch.

Handlers: mcp 1.x ``@server.call_tool()`` decorated functions, mcp 2.x
``Server(..., on_call_tool=handler)``. The dispatch subject is the handler's ``name`` parameter,
``params.name`` / ``request.params.name``, or a local assigned from one of those. Branches:

- ``if name == "x":`` / ``elif name == Tools.X:`` / ``if name in ("x", "y"):``;
- ``match name:`` with ``case "x":``, ``case Tools.X:`` (an Enum member whose value is a
  string literal), ``case "x" | "y":``;
- a dict ``{"x": handle_x, Tools.Y: handle_y}`` subscripted or ``.get``-ed with the name;
- a list of handler objects iterated and compared by ``.name`` (``for t in TOOLS: if t.name ==
  name: return await t.run(arguments)``), each a class with a literal ``name`` attribute.

A handler with no recognisable dispatch is reported as one tool named after the handler.
"""

from __future__ import annotations

from typing import cast

import libcst as cst

from tokenlint.discovery import ArgsStyle, ToolDef, function_body
from tokenlint.discovery.servers import ServerRegistry, _string, _walk
from tokenlint.discovery.values import (
    Val,
    Values,
    ancestors,
    arguments_env,
    bind_args,
    class_string_constant,
    class_of,
    context_of,
    find_method,
    instance_attr,
    string_value,
)
from tokenlint.source.functions import runner_target
from tokenlint.source.imports import dotted_name
from tokenlint.source.project import ParsedModule, Project

FRAMEWORK = "mcp-lowlevel"


def find_lowlevel_tools(mod: ParsedModule, project: Project, servers: ServerRegistry,
                        values: Values | None = None, unresolved: list | None = None) -> list[ToolDef]:
    """Every tool of the low-level ``call_tool`` handlers in ``mod`` (one per dispatch branch,
    registry entry or handler object; see the module docstring). A handler dispatching to
    objects tokenlint cannot list is appended to ``unresolved`` as ``(module, node, reason)``."""
    values = values or Values(project)
    # handlers and list_tools functions, paired by server: the decorated server expression in
    # its enclosing function (``server`` of one factory is not ``server`` of another), or the
    # ``Server(on_list_tools=..., on_call_tool=...)`` call
    handlers: list[tuple[ParsedModule, cst.FunctionDef, object]] = []
    listers: dict[object, list[tuple[ParsedModule, cst.FunctionDef]]] = {}

    def registered_by_call(call: cst.Call, server: cst.BaseExpression, given: cst.BaseExpression,
                           cls: str | None, calls: bool) -> None:
        """Record the functions ``given`` may be, registered by ``call`` on ``server`` as its
        ``call_tool`` handler (``calls``) or its ``list_tools`` function."""
        srv = servers.server_of(mod, server, project)
        if srv is None or srv[1] != FRAMEWORK:
            return
        scope = context_of(mod, call)[0]
        key = (srv[0], id(scope[-1]) if scope else None)
        for fn, _wrapper in values.callables(Val(mod, given, scope, cls)):
            registered = cast(cst.FunctionDef, fn.node)
            if calls:
                handlers.append((fn.mod, registered, key))
            else:
                listers.setdefault(key, []).append((fn.mod, registered))

    for node, _cls in mod.nodes():
        if isinstance(node, cst.FunctionDef):
            for dec in node.decorators:
                expr = dec.decorator
                target = expr.func if isinstance(expr, cst.Call) else expr
                if isinstance(target, cst.Attribute) and target.attr.value in ("call_tool", "list_tools"):
                    srv = servers.server_of(mod, target.value, project)
                    if srv is not None and srv[1] == FRAMEWORK:
                        scope = context_of(mod, node)[0]
                        key: object = (srv[0], id(scope[-1]) if scope else None)
                        if target.attr.value == "call_tool":
                            handlers.append((mod, node, key))
                        else:
                            listers.setdefault(key, []).append((mod, node))
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Call) and node.args and \
                isinstance(node.func.func, cst.Attribute) and node.func.func.attr.value in ("call_tool", "list_tools"):
            # the call form ``server.call_tool()(handler)``, the handler maybe bound by
            # ``functools.partial(call_tool_impl, server)`` or imported
            registered_by_call(node, node.func.func.value, node.args[0].value, _cls,
                               node.func.func.attr.value == "call_tool")
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                node.func.attr.value == "add_request_handler" and len(node.args) >= 2 and \
                _string(node.args[0].value) in ("tools/call", "tools/list"):
            # ``server.add_request_handler("tools/call", types.CallToolRequestParams, on_call)``:
            # a handler registered by its JSON-RPC method name (the MCP spec's ``tools/call``,
            # ``tools/list``), the low-level server of mcp 2.x
            given_arg = next((a for a in node.args if a.keyword is not None and a.keyword.value == "handler"),
                             node.args[-1])
            registered_by_call(node, node.func.value, given_arg.value, _cls,
                               _string(node.args[0].value) == "tools/call")
        elif isinstance(node, cst.Call):
            if servers.class_framework(mod, node.func) != FRAMEWORK:
                continue
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in ("on_call_tool", "on_list_tools"):
                    fn = _function_named(mod, dotted_name(arg.value))
                    if fn is not None:
                        if arg.keyword.value == "on_call_tool":
                            handlers.append((mod, fn, id(node)))
                        else:
                            listers.setdefault(id(node), []).append((mod, fn))
    tools: list[ToolDef] = []
    for hmod, handler, key in handlers:
        listed: list[str] = []
        for lmod, lister in listers.get(key, ()):
            for name in _listed_names(lmod, values, lister):
                if name not in listed:
                    listed.append(name)
        tools.extend(_dispatch_tools(hmod, handler, values, listed, unresolved))
    return tools


def _listed_names(mod: ParsedModule, values: Values, lister: cst.FunctionDef) -> list[str]:
    """The literal ``name=`` of every ``Tool(...)`` a ``list_tools`` handler builds."""
    out = []
    scope = context_of(mod, lister)[0] + (lister,)
    for node in _walk(lister):
        if not isinstance(node, cst.Call):
            continue
        dn = dotted_name(node.func) or ""
        qn = mod.imports.qualify(node.func) or dn
        if not (dn == "Tool" or qn.endswith(".Tool")):
            continue
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "name":
                name = _string(arg.value) or string_value(values, Val(mod, arg.value, scope))
                if name is not None:
                    out.append(name)
                    continue
                # ``for k, v in REQUEST_MODELS.items(): Tool(name=k.value, ...)``: one name per
                # item of the loop
                for env in values.loop_envs(ancestors(mod, node), mod, node):
                    name = string_value(values, Val(mod, arg.value, scope), env) if env else None
                    if name is not None and name not in out:
                        out.append(name)
    return out


def _function_named(mod: ParsedModule, name: str | None) -> cst.FunctionDef | None:
    if not name:
        return None
    name = name.split(".")[-1]
    for node, _ in mod.nodes():
        if isinstance(node, cst.FunctionDef) and node.name.value == name:
            return node
    return None


class _Dispatch:
    def __init__(self, mod: ParsedModule, handler: cst.FunctionDef, values: Values | None = None,
                 subjects: frozenset[str] = frozenset(), env: dict | None = None) -> None:
        self.mod = mod
        self.handler = handler
        self.values = values
        self.scope = context_of(mod, handler)[0] + (handler,) if values is not None else (handler,)
        #: ``if name != "x": raise``: the names a single-tool handler accepts, and the guard
        self.guard: tuple[list[str], cst.CSTNode] | None = None
        self.subjects: set[str] = set(subjects)
        #: What the handler's other parameters hold when the dispatch is in a function the
        #: handler forwards to (``call_registered(registry, params)``: ``registry``), for ``Values``.
        self.env: dict = dict(env or {})
        params = [p.name.value for p in handler.params.params if p.name.value not in ("self", "cls")]
        for p in params:
            if "name" in p.lower():
                self.subjects.add(p)
        for p in params:
            self.subjects.add(f"{p}.name")
            self.subjects.add(f"{p}.params.name")
        # locals assigned from a subject: ``tool_name = params.name``
        for node in _walk(handler):
            if isinstance(node, cst.Assign) and self.is_subject(node.value):
                for t in node.targets:
                    dn = dotted_name(t.target)
                    if dn:
                        self.subjects.add(dn)
            elif isinstance(node, cst.Assign) and isinstance(node.value, cst.Tuple):
                # ``name, args = params.name, params.arguments or {}``: the target in the
                # subject's position
                for t in node.targets:
                    if isinstance(t.target, (cst.Tuple, cst.List)) and len(t.target.elements) == len(node.value.elements):
                        for target, value in zip(t.target.elements, node.value.elements):
                            dn = dotted_name(target.value)
                            if dn and not isinstance(value, cst.StarredElement) and self.is_subject(value.value):
                                self.subjects.add(dn)
        self.tools: list[ToolDef] = []
        #: names found in a literal registry (dict of handlers, list of handler objects)
        self.registry_names: set[str] = set()
        #: The statements after the one being visited in its block (``branch_body``).
        self.tail: list = []
        #: The simple statements that ran before it, in its block and the blocks around it: the
        #: prologue every branch shares (``exchange = arguments.get("exchange")``).
        self.head: list = []
        #: What runs for a name no branch selects: the prologue and the statements after the last
        #: branch that returns (``_generic_tools``).
        self.rest: list = []

    def is_subject(self, node: cst.BaseExpression) -> bool:
        dn = dotted_name(node)
        return dn is not None and dn in self.subjects

    def names_of(self, node: cst.BaseExpression) -> list[str]:
        names = literal_names(self.mod, node)
        if names or self.values is None or \
                not isinstance(node, (cst.Attribute, cst.Name, cst.FormattedString, cst.Subscript)):
            return names
        if isinstance(node, (cst.Name, cst.FormattedString, cst.Subscript)):
            # ``if name == SITES_TOOL_NAME:``: a constant of the module or one it imports;
            # ``if name == f"{prefix}sqlite_execute":`` (``values.string_value``);
            # ``TOOL_NAMES["CREATE_COLLECTION"]``: an entry of a table of names
            value = string_value(self.values, Val(self.mod, node, self.scope))
            return [value] if value is not None else []

        # ``handler.name`` of a handler object: ``handler = SomeHandler()`` (a class attribute
        # ``name = "x"`` or ``self.name = ...`` set in ``__init__``)
        for leaf in self.values.expand(Val(self.mod, node.value, self.scope)):
            if isinstance(leaf.node, cst.Call):
                hit = class_of(self.values, Val(leaf.mod, leaf.node.func, leaf.scope, leaf.cls))
                if hit is not None:
                    args = bind_args(self.values, hit[0], hit[1], list(leaf.node.args), leaf)
                    name = instance_attr(self.values, hit[0], hit[1], node.attr.value, args)
                    if name is not None:
                        return [name]
        value = string_value(self.values, Val(self.mod, node, self.scope))
        return [value] if value is not None else []

    # -- walking ------------------------------------------------------------------------------
    def visit_block(self, stmts) -> None:
        stmts = list(stmts)
        outer = self.head
        for i, stmt in enumerate(stmts):
            self.tail = stmts[i + 1:]
            self.head = outer + [s for s in stmts[:i] if isinstance(s, cst.SimpleStatementLine)]
            self.visit_stmt(stmt)
        self.head = outer

    def branch_body(self, block) -> list:
        """A dispatch branch's statements, after the shared prologue that ran before the dispatch
        (``exchange = await get_exchange(arguments.get("exchange"))``) and followed by those
        after the whole dispatch when the branch falls through to them (``if params.name ==
        "convert": check(args)`` then the shared ``content = await handle(...)``; ``return
        ...``): what runs for that tool."""
        body = list(self.head) + list(function_body_of(block))
        return body if _exits(block) else body + list(self.tail)

    def visit_stmt(self, stmt: cst.CSTNode) -> None:
        if isinstance(stmt, cst.If):
            self.visit_if(stmt)
        elif isinstance(stmt, cst.Match) and self.is_subject(stmt.subject):
            for case in stmt.cases:
                names = self.pattern_names(case.pattern)
                for name in names:
                    self.add(name, case, self.branch_body(case.body))
        elif isinstance(stmt, (cst.Try, cst.TryStar)):
            self.visit_block(function_body_of(stmt.body))
            for h in stmt.handlers:
                self.visit_block(function_body_of(h.body))
        elif isinstance(stmt, (cst.With, cst.For, cst.While)):
            if isinstance(stmt, cst.For):
                self.visit_handler_loop(stmt)
            self.visit_block(function_body_of(stmt.body))
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                self.visit_lookup(small)

    def visit_if(self, node: cst.If) -> None:
        guard = self.guard_names(node.test)
        if guard and self.guard is None and _exits(node.body):
            self.guard = (guard, node)
        names = self.test_names(node.test)
        if names:
            for name in names:
                self.add(name, node, self.branch_body(node.body))
            if _exits(node.body) and self.tail:
                self.rest = list(self.head) + list(self.tail)
        else:
            self.visit_block(function_body_of(node.body))
        if isinstance(node.orelse, cst.If):
            self.visit_if(node.orelse)
        elif isinstance(node.orelse, cst.Else):
            self.visit_block(function_body_of(node.orelse.body))

    def test_names(self, test: cst.BaseExpression) -> list[str]:
        """``name == "x"`` / ``name in ("x", "y")``: the names a branch selects."""
        return self._compared_names(test, cst.Equal, cst.In)

    def guard_names(self, test: cst.BaseExpression) -> list[str]:
        """``name != "x"`` / ``name not in ("x", "y")``: the names a guard lets through."""
        return self._compared_names(test, cst.NotEqual, cst.NotIn)

    def _compared_names(self, test: cst.BaseExpression, equal: type, member: type) -> list[str]:
        """The tool names compared with the dispatch subject by ``equal`` (either side) or
        ``member`` (subject on the left)."""
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            op = test.comparisons[0].operator
            right = test.comparisons[0].comparator
            if isinstance(op, equal):
                if self.is_subject(test.left):
                    return self.names_of(right)
                if self.is_subject(right):
                    return self.names_of(test.left)
            if isinstance(op, member) and self.is_subject(test.left):
                return self.names_of(right)
        return []

    def pattern_names(self, pattern: cst.MatchPattern) -> list[str]:
        if isinstance(pattern, cst.MatchValue):
            return self.names_of(pattern.value)
        if isinstance(pattern, cst.MatchOr):
            out: list[str] = []
            for p in pattern.patterns:
                out.extend(self.pattern_names(p.pattern))
            return out
        if isinstance(pattern, cst.MatchAs) and pattern.pattern is not None:
            return self.pattern_names(pattern.pattern)
        return []

    def visit_lookup(self, small: cst.BaseSmallStatement) -> None:
        """``HANDLERS[name]`` / ``HANDLERS.get(name)`` anywhere in a statement; with a field picked
        from the entry (``TOOLS[name]["handler"]``), each entry is a record whose field of that
        name is the handler (``{"definition": m.get_tool_definition, "handler": m.handle_call}``).
        The table is a dict of this module or of another module of the run (``table_dicts``)."""
        fields: dict[int, str] = {}  # id of a lookup -> the field picked from what it finds
        for node in _walk(small):
            if isinstance(node, cst.Subscript) and len(node.slice) == 1 and \
                    isinstance(idx := node.slice[0].slice, cst.Index) and (key := _string(idx.value)) is not None:
                fields[id(node.value)] = key
        for node in _walk(small):
            table = None
            if isinstance(node, cst.Subscript) and len(node.slice) == 1:
                idx = node.slice[0].slice
                if isinstance(idx, cst.Index) and self.is_subject(idx.value):
                    table = node.value
            elif (
                isinstance(node, cst.Call)
                and isinstance(node.func, cst.Attribute)
                and node.func.attr.value == "get"
                and node.args
                and self.is_subject(node.args[0].value)
            ):
                table = node.func.value
            if table is None:
                continue
            field = fields.get(id(node))
            self.comprehension_entries(table)
            for mod, mapping in self.table_dicts(table):
                for el in mapping.elements:
                    if not isinstance(el, cst.DictElement):
                        continue
                    value: cst.BaseExpression | None = el.value
                    if field is not None and isinstance(value, cst.Dict):
                        value = next((e.value for e in value.elements if isinstance(e, cst.DictElement)
                                      and _string(e.key) == field), None)
                    if value is None:
                        continue
                    fn, fn_mod = self.entry_function(mod, value)
                    if fn is None:
                        continue
                    if mod is self.mod:
                        # an entry written as ``table["name"] = fn`` is anchored at its key; one
                        # whose handler another module defines, at the handler's ``def``
                        anchor: cst.CSTNode = el if self.mod.source_order(el) >= 0 else el.key
                        if fn_mod is not None and fn_mod is not self.mod:
                            anchor = fn
                        for name in self.names_of(el.key):
                            self.add(name, anchor, function_body(fn), func=fn, module=fn_mod)
                            self.registry_names.add(name)
                    elif (key := _string(el.key)) is not None:
                        # (a table of another module: each tool is anchored at its handler's def)
                        self.add(key, fn, function_body(fn), func=fn, module=fn_mod)
                        self.registry_names.add(key)

    def entry_function(self, mod: ParsedModule, value: cst.BaseExpression
                       ) -> tuple[cst.FunctionDef | None, ParsedModule | None]:
        """The handler function an entry of a table of ``mod`` names, with the module defining
        it: a function of this module by its name, else whatever ``Values`` follows the entry to
        (a function ``mod`` imports, ``get_logs.handle_call`` of an imported module)."""
        if mod is self.mod:
            fn = self.handler_function(value)
            if fn is not None:
                return fn, None
        if self.values is None:
            return None, None
        found = self.values.callables(Val(mod, value, ()))
        if found and isinstance(found[0][0].node, cst.FunctionDef):
            return found[0][0].node, found[0][0].mod
        return None, None

    def comprehension_entries(self, table: cst.BaseExpression) -> None:
        """The tools of a registry built by a dict comprehension over a table of names
        (``{name: getattr(api, name) for name in TOOL_NAMES}``, maybe returned by a function of
        the run, or handed in as a parameter: ``env``): one per string of the table, handled by
        the function its value expression gives for that string (a method of the object a class
        of the run made, through ``Values``)."""
        if self.values is None:
            return
        for leaf in self.values.expand(Val(self.mod, table, self.scope), self.env, calls=True):
            comp = leaf.node
            if not (isinstance(comp, cst.DictComp) and isinstance(comp.for_in.target, cst.Name)
                    and isinstance(comp.key, cst.Name) and comp.key.value == comp.for_in.target.value
                    and comp.for_in.inner_for_in is None and not comp.for_in.ifs):
                continue
            target = comp.for_in.target.value
            for item in self.values.elements(Val(leaf.mod, comp.for_in.iter, leaf.scope, leaf.cls)):
                name = string_value(self.values, item)
                if name is None:
                    continue
                found = self.values.callables(Val(leaf.mod, comp.value, leaf.scope, leaf.cls), {target: item})
                if found:
                    fn_val = found[0][0]
                    fn = cast(cst.FunctionDef, fn_val.node)  # callables yields only defs
                    owner = fn_val.cls if fn_val.mod.functions.get(f"{fn_val.cls}.{fn.name.value}") is fn else None
                    self.add(name, fn, function_body(fn), func=fn, class_name=owner, module=fn_val.mod)
                    self.registry_names.add(name)

    def table_dicts(self, table: cst.BaseExpression) -> list[tuple[ParsedModule, cst.Dict]]:
        """``(module, dict literal)`` of each dict ``table`` may hold, followed by ``Values``: of
        this module, what it is assigned, grown by ``.update(...)`` and ``table[key] = value``
        (else the module's first dict literal of that name); of another module of the run, the
        dict it imports (``from .tools import TOOL_HANDLERS``)."""
        leaves = list(self.values.expand(Val(self.mod, table, self.scope), calls=True)) \
            if self.values is not None else []
        own: list[tuple[ParsedModule, cst.Dict]] = [
            (self.mod, leaf.node) for leaf in leaves if leaf.mod is self.mod and isinstance(leaf.node, cst.Dict)]
        if not own and (mapping := self.dict_literal(dotted_name(table))) is not None:
            own = [(self.mod, mapping)]
        return own + [(leaf.mod, leaf.node) for leaf in leaves
                      if leaf.mod is not self.mod and isinstance(leaf.node, cst.Dict)]

    def visit_handler_loop(self, loop: cst.For) -> None:
        """``for tool in TOOLS: if tool.name == name: return await tool.run(arguments)``."""
        var = dotted_name(loop.target)
        seq = self.list_literal(dotted_name(loop.iter))
        if not var or seq is None:
            return
        method = None
        for node in _walk(loop.body):
            if (
                isinstance(node, cst.Call)
                and isinstance(node.func, cst.Attribute)
                and dotted_name(node.func.value) == var
            ):
                method = node.func.attr.value
                break
        compares = any(
            isinstance(n, cst.Comparison)
            and {dotted_name(n.left), dotted_name(n.comparisons[0].comparator)} & {f"{var}.name"}
            for n in _walk(loop.body)
        )
        if not compares or method is None:
            return
        for el in seq.elements:
            value = el.value
            if not isinstance(value, cst.Call):
                continue
            cls_name = dotted_name(value.func)
            cls = self.mod.classes.get((cls_name or "").split(".")[-1])
            if cls is None:
                continue
            name = class_string_constant(cls, "name")
            fn = self.mod.functions.get(f"{cls.name.value}.{method}")
            if name and fn is not None:
                self.add(name, el, function_body(fn), func=fn, class_name=cls.name.value)
                self.registry_names.add(name)

    def dict_literal(self, name: str | None) -> cst.Dict | None:
        return self._literal(name, cst.Dict)

    def list_literal(self, name: str | None):
        return self._literal(name, (cst.List, cst.Tuple))

    def _literal(self, name, kinds):
        if not name:
            return None
        for node, _ in self.mod.nodes():
            if isinstance(node, (cst.Assign, cst.AnnAssign)) and isinstance(node.value, kinds):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                if any(dotted_name(t) == name for t in targets):
                    return node.value
        return None

    def handler_function(self, node: cst.BaseExpression) -> cst.FunctionDef | None:
        dn = dotted_name(node)
        if dn is None and isinstance(node, cst.Call):
            dn = dotted_name(node.func)
        if dn is None:
            return None
        return self.mod.functions.get(dn.split(".")[-1]) or _function_named(self.mod, dn)

    def add(self, name, anchor, body, func=None, class_name=None, module=None, shared_body=False) -> None:
        fn = func or self.handler
        self.tools.append(
            ToolDef(
                name=name,
                function=fn.name.value,
                framework=FRAMEWORK,
                module=module or self.mod,
                func=fn,
                body=list(body),
                anchor=anchor,
                server_id=None,
                args_style=ArgsStyle.MAPPING,
                suppress_nodes=[anchor] if func is None else [anchor, fn],
                class_name=class_name,
                shared_body=shared_body,
            )
        )


def literal_names(mod: ParsedModule, node: cst.BaseExpression) -> list[str]:
    """The tool names an expression spells: a string literal, a tuple/list/set of them, or an Enum
    member of a class in ``mod`` whose value is a string literal (``Tools.X``, ``Tools.X.value``)."""
    s = _string(node)
    if s is not None:
        return [s]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        out: list[str] = []
        for el in node.elements:
            out.extend(literal_names(mod, el.value))
        return out
    if isinstance(node, cst.Attribute):
        dn = dotted_name(node)
        if dn and "." in dn:
            cls_name, _, member = dn.rpartition(".")
            cls = mod.classes.get(cls_name.split(".")[-1])
            if cls is not None:
                value = class_string_constant(cls, member)
                if value is not None:
                    return [value]
            if member == "value":
                return literal_names(mod, node.value)
    return []


def function_body_of(block) -> list:
    """The statements of a block: an ``IndentedBlock``'s statements, or ``[block]`` for anything
    else (a one-line ``SimpleStatementSuite``)."""
    if isinstance(block, cst.IndentedBlock):
        return list(block.body)
    return [block]


def _exits(block) -> bool:
    """Whether a block ends by raising or returning (a guard's body)."""
    body = function_body_of(block)
    if not body:
        return False
    last = body[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return any(isinstance(small, (cst.Raise, cst.Return)) for small in last.body)
    return False


def _name_lookup(d: _Dispatch) -> tuple[str, cst.CSTNode] | None:
    """Where a handler looks the tool name up in a table (``registry[params.name]``,
    ``handlers.get(name)``, ``getattr(api, name)``: the object), when it does: the table's dotted
    name and the lookup; else None."""
    for node in _walk(d.handler):
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and d.is_subject(node.slice[0].slice.value):
            return dotted_name(node.value) or "a table", node
        if not isinstance(node, cst.Call) or not node.args:
            continue
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and d.is_subject(node.args[0].value):
            return dotted_name(node.func.value) or "a table", node
        if dotted_name(node.func) == "getattr" and len(node.args) == 2 and d.is_subject(node.args[1].value):
            return dotted_name(node.args[0].value) or "an object", node
    return None


def _object_dispatch(d: _Dispatch, fallback: bool = True) -> bool:
    """Tools behind a handler that looks the called object up by the tool name:
    ``h = REGISTRY[name]`` / ``REGISTRY.get(name)`` / ``get_handler(name)`` then
    ``h.run_tool(arguments)``; ``handler = next(t.handler for t in TOOLS if t.name == name)``
    then ``handler(...)``; ``for t in TOOLS: if t.name == name: return t.run(arguments)``.

    The objects are the items of the registry when it can be listed (a literal, a list built
    by a function, a filtered comprehension of one), else every instance of a project class
    with that method created in the handler's module. Each object gives a tool named by its
    ``name`` (a keyword of the record, or the instance attribute) whose line is the method's
    (or the handler function's) ``def``. False when the handler dispatches to no object."""
    values = d.values
    if values is None:
        return False
    derived: dict[str, cst.BaseExpression] = {}
    for node in _walk(d.handler):
        if isinstance(node, cst.Assign) and any(
            isinstance(n, (cst.Name, cst.Attribute)) and d.is_subject(n) for n in _walk(node.value)
        ):
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    derived[t.target.value] = node.value
    uses: list[tuple[cst.BaseExpression, str | None, cst.Call]] = []  # (source, method, call)
    for node in _walk(d.handler):
        if not isinstance(node, cst.Call):
            continue
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in derived:
            uses.append((derived[func.value.value], func.attr.value, node))
        elif isinstance(func, cst.Name) and func.value in derived:
            uses.append((derived[func.value], None, node))
        elif isinstance(func, cst.Attribute) and isinstance(func.value, (cst.Subscript, cst.Call)) and any(
            isinstance(n, (cst.Name, cst.Attribute)) and d.is_subject(n) for n in _walk(func.value)
        ):
            uses.append((func.value, func.attr.value, node))
    # ``for t in TOOLS: if t.name == name: t.run(...)``
    for node in _walk(d.handler):
        if isinstance(node, cst.For) and isinstance(node.target, cst.Name):
            var = node.target.value
            key = _compared_attr(d, node.body, var)
            if key is None:
                continue
            for inner in _walk(node.body):
                if (isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute)
                        and dotted_name(inner.func.value) == var):
                    _add_objects(d, values.elements(Val(d.mod, node.iter, d.scope)), inner.func.attr.value, None, key)
                    return bool(d.tools)
    for source, method, _call in uses:
        items, attr, key = _registry_items(d, values, source)
        if method is None and attr is None:
            continue
        if items is None:
            if method is None or not fallback:
                continue
            items = _instances_with(d, values, method)
        if attr is not None:  # ``next(t.handler for t in TOOLS ...)`` then ``handler(...)``
            _add_objects(d, items, None, attr, key)
        else:
            _add_objects(d, items, method, None, key)
        if d.tools:
            return True
    return False


def _compared_attr(d: _Dispatch, body: cst.CSTNode, var: str) -> str | None:
    """``attr`` when ``body`` compares ``var.attr`` with the dispatch subject."""
    for n in _walk(body):
        if isinstance(n, cst.Comparison) and len(n.comparisons) == 1 and isinstance(n.comparisons[0].operator, cst.Equal):
            left, right = n.left, n.comparisons[0].comparator
            for a, b in ((left, right), (right, left)):
                dn = dotted_name(a)
                if dn and dn.startswith(var + ".") and dn.count(".") == 1 and d.is_subject(b):
                    return dn.split(".")[1]
    return None


def _registry_items(d: _Dispatch, values: Values, source: cst.BaseExpression):
    """(items or None, the attribute called on a matching item or None, the key attribute)."""
    for n in _walk(source):
        if isinstance(n, (cst.GeneratorExp, cst.ListComp)) and isinstance(n.for_in.target, cst.Name):
            var = n.for_in.target.value
            key = None
            for cond in n.for_in.ifs:
                key = key or _compared_attr(d, cond, var)
            if key is None:
                continue
            attr = None
            dn = dotted_name(n.elt)
            if dn and dn.startswith(var + "."):
                attr = dn.split(".", 1)[1]
            return values.elements(Val(d.mod, n.for_in.iter, d.scope)), attr, key
    table = None
    if isinstance(source, cst.Subscript):
        table = source.value
    elif isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute) and source.func.attr.value == "get":
        table = source.func.value
    if table is not None:
        items: list[Val] = []
        for leaf in values.expand(Val(d.mod, table, d.scope), calls=True):
            if isinstance(leaf.node, cst.Dict):
                for el in leaf.node.elements:
                    if isinstance(el, cst.DictElement):
                        items.append(Val(leaf.mod, el.value, leaf.scope, leaf.cls))
            elif isinstance(leaf.node, cst.DictComp) and isinstance(leaf.node.for_in.target, cst.Name) \
                    and dotted_name(leaf.node.value) == leaf.node.for_in.target.value:
                # ``{t.name: t for t in tools}``: the items of ``tools``, keyed by ``t.name``
                items.extend(values.elements(Val(leaf.mod, leaf.node.for_in.iter, leaf.scope, leaf.cls)))
        if items:
            return items, None, "name"
    return None, None, "name"


def _instances_with(d: _Dispatch, values: Values, method: str) -> list[Val]:
    """Instances of project classes defining ``method`` created in the handler's module."""
    out: list[Val] = []
    seen: set[int] = set()
    for node, cls in d.mod.nodes():
        if not isinstance(node, cst.Call):
            continue
        dn = dotted_name(node.func)
        if not dn or not dn.split(".")[-1][:1].isupper():
            continue
        hit = class_of(values, Val(d.mod, node.func))
        if hit is None or id(hit[1]) in seen or find_method(values, hit[0], hit[1], method) is None:
            continue
        seen.add(id(hit[1]))
        out.append(Val(d.mod, node, context_of(d.mod, node)[0], cls))
    return out


def _add_objects(d: _Dispatch, items: list[Val], method: str | None, attr: str | None, key: str) -> None:
    values = d.values
    assert values is not None
    for item in items:
        for leaf in values.expand(item):
            call = leaf.node
            if not isinstance(call, cst.Call):
                continue
            fn_val = None
            name = None
            kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
            if attr is not None and attr in kw:  # a record: ``Tool(name="x", handler=fn)``
                found = values.callables(Val(leaf.mod, kw[attr], leaf.scope, leaf.cls))
                if found:
                    fn_val = found[0][0]
                if key in kw:
                    name = string_value(values, Val(leaf.mod, kw[key], leaf.scope, leaf.cls))
                if fn_val is not None and name is not None:
                    fn = cast(cst.FunctionDef, fn_val.node)  # callables yields only defs
                    d.add(name, fn, function_body(fn), func=fn, module=fn_val.mod)
                continue
            hit = class_of(values, Val(leaf.mod, call.func, leaf.scope, leaf.cls))
            if hit is None:
                # a library's tool wrapper around a function (``FunctionTool(fn)``,
                # ``Tool.from_function(fn, name=...)``): the function is the tool, named by the
                # wrapper's ``name=`` or its own name
                wrapped = _wrapped_function(values, call, leaf)
                if wrapped is not None:
                    fn_val, name = wrapped
                    d.add(name, fn_val.node, function_body(fn_val.node), func=fn_val.node, module=fn_val.mod)
                continue
            meth = find_method(values, hit[0], hit[1], method or attr or "")
            if meth is None:
                continue
            args = bind_args(values, hit[0], hit[1], list(call.args), leaf)
            name = instance_attr(values, hit[0], hit[1], key, args)
            if name is None:
                continue
            mmod, fn, owner = meth
            d.add(name, fn, function_body(fn), func=fn, class_name=owner, module=mmod)


def _forwarded_dispatch(d: _Dispatch, values: Values, listed: list[str] | None, depth: int) -> list[ToolDef]:
    """The tools of the dispatch in a function of the run the handler hands the tool name to
    (``await self._handle_tool(name, arguments)``, ``return await dispatch(name, args)``): its
    branches on the parameter that receives the name, when it has at least two (or a guard).
    Empty when no such call leads to a dispatch."""
    cls = context_of(d.mod, d.handler)[1]

    def carries_name(arg: cst.BaseExpression) -> bool:
        # the tool name, or the request parameters holding it (``dispatch(registry, params)``)
        return d.is_subject(arg) or f"{dotted_name(arg)}.name" in d.subjects

    for node in _walk(d.handler):
        if not isinstance(node, cst.Call) or not any(carries_name(a.value) for a in node.args if not a.star):
            continue
        index = runner_target(node, (dotted_name(node.func) or "").split(".")[-1])
        if index is not None:
            # ``await anyio.to_thread.run_sync(self.call_tool, name, arguments)``: a call of the
            # function handed to the runner, with the arguments after it
            node = cst.Call(func=node.args[index].value, args=node.args[index + 1:])
        for target, _wrapper in values.callables(Val(d.mod, node.func, d.scope, cls)):
            fn = cast(cst.FunctionDef, target.node)
            if fn is d.handler:
                continue
            params = [p.name.value for p in fn.params.params]
            if params and params[0] in ("self", "cls") and isinstance(node.func, cst.Attribute):
                params = params[1:]
            bound = arguments_env(Val(d.mod, node, d.scope, cls), params)
            received = {p if d.is_subject(cast(cst.BaseExpression, given.node)) else f"{p}.name"
                        for p, given in bound.items() if carries_name(cast(cst.BaseExpression, given.node))}
            if not received:
                continue
            found = _dispatch_tools(target.mod, fn, values, listed, None, frozenset(received), depth + 1, env=bound)
            if len(found) >= 2 or (len(found) == 1 and found[0].name != fn.name.value):
                return found
    return []


def _generic_tools(d: _Dispatch, listed: list[str]) -> None:
    """The listed tools no branch selects, when the handler special-cases some names and runs
    one generic path for the rest (``if name == Tools.SCRAPE.value: return ...`` then ``tool =
    Tools(name); result = await search(tool, Request(**arguments))``): each is a tool whose code
    is that path (``_Dispatch.rest``). Only when the path hands the name to a call (it serves
    the name, not an "unknown tool" error)."""
    named = {t.name for t in d.tools}
    leftover = [n for n in listed if n not in named]
    if not leftover or not d.rest:
        return
    raised = {id(n) for stmt in d.rest for r in _walk(stmt) if isinstance(r, cst.Raise) for n in _walk(r)}
    serves = any(isinstance(n, cst.Call) and id(n) not in raised and any(d.is_subject(a.value) for a in n.args)
                 and (dotted_name(n.func) or "").split(".")[-1] not in _REPORTERS
                 for stmt in d.rest for n in _walk(stmt))
    if not serves:
        return
    anchor = next((s for s in d.rest if s not in d.head), d.rest[0])
    for name in leftover:
        d.add(name, anchor, d.rest, shared_body=True)


#: Calls that only report a name (``logger.warning("unknown tool %s", name)``), not serve it.
_REPORTERS = frozenset({"print", "debug", "info", "warning", "warn", "error", "exception", "critical", "log"})


def _wrapped_function(values: Values, call: cst.Call, leaf: Val):
    """``(function Val, tool name)`` when ``call`` wraps a function of the run as a tool: its first
    positional argument (or ``fn``/``func``/``function``) is a ``def``; the name is the call's
    ``name=`` string or the function's own name. None otherwise."""
    target = next((a.value for a in call.args if a.keyword is None and not a.star), None)
    if target is None:
        target = next((a.value for a in call.args if a.keyword is not None
                       and a.keyword.value in ("fn", "func", "function")), None)
    if target is None:
        return None
    found = values.callables(Val(leaf.mod, target, leaf.scope, leaf.cls))
    if not found:
        return None
    fn_val = found[0][0]
    fn = fn_val.node
    if not isinstance(fn, cst.FunctionDef):
        return None
    name_arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "name"), None)
    name = string_value(values, Val(leaf.mod, name_arg, leaf.scope, leaf.cls)) if name_arg is not None else None
    return fn_val, name or fn.name.value


#: Keys of a tool record that describe a tool to a client (a registry of such records, each with
#: a function, is a table of tools).
_RECORD_SCHEMA_KEYS = frozenset({"description", "input_schema", "inputSchema", "schema", "parameters",
                                 "args_model", "display_name"})
#: Keys naming the tool in a record (the client-visible name), before the record's own key.
_RECORD_NAME_KEYS = ("display_name", "name", "tool_name")


def _record_registry(d: _Dispatch, values: Values) -> bool:
    """Tools of a handler that finds the called tool in a registry of records: a module-level
    dict, in the handler's module or one it imports by name, whose values are dict literals
    describing a tool (``"description"``, ``"input_schema"``...) with a function among their
    values (``TOOL_REGISTRY = {"ListIndexTool": {"display_name": ..., "function":
    list_indices_tool, ...}, **OTHER_TOOLS}``), looked up by the handler or code it calls
    (``execute_tool(params.name, arguments, registry)``). Each record is a tool named by its
    ``display_name``/``name`` literal, else its key. True when any was added."""
    mod = d.mod
    names = {n.value for n in _walk(mod.tree) if isinstance(n, cst.Name)}
    found = False
    for local, qualified in [(n, f"{mod.module_name}.{n}") for n in _module_dicts(mod)] + \
            list(mod.imports.names.items()):
        if local not in names:
            continue
        hit = values.project.resolve(qualified)
        if hit is None:
            continue
        for name, record, fn_val in _records(values, hit[0], hit[1], depth=0):
            d.add(name, fn_val.node, function_body(fn_val.node), func=fn_val.node, module=fn_val.mod)
            found = True
    return found


def _module_dicts(mod: ParsedModule) -> list[str]:
    """Names bound to dict literals at the top level of ``mod``."""
    out = []
    for stmt in mod.tree.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Assign, cst.AnnAssign)) and isinstance(small.value, cst.Dict):
                    target = small.targets[0].target if isinstance(small, cst.Assign) else small.target
                    if isinstance(target, cst.Name):
                        out.append(target.value)
    return out


def _records(values: Values, mod: ParsedModule, name: str, depth: int):
    """``(tool name, record, function Val)`` of each tool record of the module-level dict
    ``name`` in ``mod`` (``**OTHER`` entries followed, also across imports, 3 levels deep)."""
    if depth > 3 or name not in _module_dicts(mod):
        return
    value = None
    for stmt in mod.tree.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Assign, cst.AnnAssign)) and isinstance(small.value, cst.Dict):
                    target = small.targets[0].target if isinstance(small, cst.Assign) else small.target
                    if isinstance(target, cst.Name) and target.value == name:
                        value = small.value
    if value is None:
        return
    for el in value.elements:
        if isinstance(el, cst.StarredDictElement):
            inner = dotted_name(el.value)
            if inner is None:
                continue
            if inner in _module_dicts(mod):
                yield from _records(values, mod, inner, depth + 1)
            else:
                qn = mod.imports.qualify_dotted(inner)
                hit = values.project.resolve(qn) if qn else None
                if hit is not None:
                    yield from _records(values, hit[0], hit[1], depth + 1)
            continue
        if not isinstance(el, cst.DictElement) or not isinstance(el.value, cst.Dict):
            continue
        entries = {_string(e.key): e.value for e in el.value.elements if isinstance(e, cst.DictElement)}
        if not _RECORD_SCHEMA_KEYS & {k for k in entries if k}:
            continue
        fn_val = None
        for key, entry in entries.items():
            if key in _RECORD_NAME_KEYS or not isinstance(entry, (cst.Name, cst.Attribute)):
                continue
            found = values.callables(Val(mod, entry, ()))
            if found and isinstance(found[0][0].node, cst.FunctionDef):
                fn_val = found[0][0]
                break
        if fn_val is None:
            continue
        tool = next((_string(entries[k]) for k in _RECORD_NAME_KEYS if k in entries and _string(entries[k])), None)
        tool = tool or _string(el.key)
        if tool:
            yield tool, el.value, fn_val


def _dispatch_tools(mod: ParsedModule, handler: cst.FunctionDef, values: Values | None = None,
                    listed: list[str] | None = None, unresolved: list | None = None,
                    subjects: frozenset[str] = frozenset(), depth: int = 0, env: dict | None = None) -> list[ToolDef]:
    d = _Dispatch(mod, handler, values, subjects, env)
    d.visit_block(function_body(handler))
    branches, d.tools = d.tools, []
    # objects looked up by name win over branches that only special-case some names, not
    # over a literal registry's entries
    registry = [t for t in branches if t.name in d.registry_names]
    _object_dispatch(d, fallback=not branches)
    d.tools = registry + d.tools + branches
    if branches and listed:
        _generic_tools(d, listed)
    if not d.tools and d.guard is None and values is not None and depth < 2:
        # ``result = await self._handle_tool(name, arguments)``: the dispatch is in the function
        # the handler hands the tool name to
        forwarded = _forwarded_dispatch(d, values, listed, depth)
        if forwarded:
            return forwarded
    if not d.tools:
        if d.guard is not None:  # a single tool: ``if name != "x": raise``
            for name in d.guard[0]:
                d.add(name, d.guard[1], function_body(handler))
        elif listed and len(listed) == 1:  # a single tool named by ``list_tools``
            d.add(listed[0], handler, function_body(handler))
        elif values is not None and _record_registry(d, values):
            pass  # the tools of a registry of records the handler looks the name up in
        else:
            d.add(handler.name.value, handler, function_body(handler))
            lookup = _name_lookup(d)
            if unresolved is not None and len(listed or ()) > 1:
                unresolved.append((mod, handler, f"`{handler.name.value}` serves {len(listed or ())} listed tools "
                                   "but its dispatch on the tool name could not be resolved"))
            elif unresolved is not None and lookup is not None:
                unresolved.append((mod, lookup[1], f"`{handler.name.value}` looks the tool name up in `{lookup[0]}`, "
                                   "a table built at run time: the tools in it could not be listed "
                                   "(the handler is rated as one tool)"))
    # one entry per client-visible name (first branch wins, as the dispatch does)
    seen: set[str] = set()
    out = []
    for t in d.tools:
        if t.name not in seen:
            seen.add(t.name)
            out.append(t)
    return out
