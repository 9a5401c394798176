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

import libcst as cst

from tokenlint.discovery import ToolDef, function_body
from tokenlint.discovery.servers import ServerRegistry, _string, _walk
from tokenlint.imports import dotted_name
from tokenlint.project import ParsedModule, Project

FRAMEWORK = "mcp-lowlevel"


def find_lowlevel_tools(mod: ParsedModule, project: Project, servers: ServerRegistry) -> list[ToolDef]:
    handlers: list[cst.FunctionDef] = []
    for node, _cls in mod.nodes():
        if isinstance(node, cst.FunctionDef):
            for dec in node.decorators:
                expr = dec.decorator
                target = expr.func if isinstance(expr, cst.Call) else expr
                if isinstance(target, cst.Attribute) and target.attr.value == "call_tool":
                    srv = servers.server_of(mod, target.value, project)
                    if srv is not None and srv[1] == FRAMEWORK:
                        handlers.append(node)
        elif isinstance(node, cst.Call):
            if servers.class_framework(mod, node.func) != FRAMEWORK:
                continue
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "on_call_tool":
                    fn = _function_named(mod, dotted_name(arg.value))
                    if fn is not None:
                        handlers.append(fn)
    tools: list[ToolDef] = []
    for handler in handlers:
        tools.extend(_dispatch_tools(mod, handler))
    return tools


def _function_named(mod: ParsedModule, name: str | None) -> cst.FunctionDef | None:
    if not name:
        return None
    name = name.split(".")[-1]
    for node, _ in mod.nodes():
        if isinstance(node, cst.FunctionDef) and node.name.value == name:
            return node
    return None


class _Dispatch:
    def __init__(self, mod: ParsedModule, handler: cst.FunctionDef) -> None:
        self.mod = mod
        self.handler = handler
        self.subjects: set[str] = set()
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
        self.tools: list[ToolDef] = []

    def is_subject(self, node: cst.BaseExpression) -> bool:
        dn = dotted_name(node)
        return dn is not None and dn in self.subjects

    def names_of(self, node: cst.BaseExpression) -> list[str]:
        return literal_names(self.mod, node)

    # -- walking ------------------------------------------------------------------------------
    def visit_block(self, stmts) -> None:
        for stmt in stmts:
            self.visit_stmt(stmt)

    def visit_stmt(self, stmt: cst.CSTNode) -> None:
        if isinstance(stmt, cst.If):
            self.visit_if(stmt)
        elif isinstance(stmt, cst.Match) and self.is_subject(stmt.subject):
            for case in stmt.cases:
                names = self.pattern_names(case.pattern)
                for name in names:
                    self.add(name, case, function_body_of(case.body))
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
        names = self.test_names(node.test)
        if names:
            for name in names:
                self.add(name, node, function_body_of(node.body))
        else:
            self.visit_block(function_body_of(node.body))
        if isinstance(node.orelse, cst.If):
            self.visit_if(node.orelse)
        elif isinstance(node.orelse, cst.Else):
            self.visit_block(function_body_of(node.orelse.body))

    def test_names(self, test: cst.BaseExpression) -> list[str]:
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            op = test.comparisons[0].operator
            right = test.comparisons[0].comparator
            if isinstance(op, cst.Equal):
                if self.is_subject(test.left):
                    return self.names_of(right)
                if self.is_subject(right):
                    return self.names_of(test.left)
            if isinstance(op, cst.In) and self.is_subject(test.left):
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
        """``HANDLERS[name]`` / ``HANDLERS.get(name)`` anywhere in a statement."""
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
            mapping = self.dict_literal(dotted_name(table))
            if mapping is None:
                continue
            for el in mapping.elements:
                if not isinstance(el, cst.DictElement):
                    continue
                for name in self.names_of(el.key):
                    fn = self.handler_function(el.value)
                    if fn is not None:
                        self.add(name, el, function_body(fn), func=fn)

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
            name = _class_attr_literal(cls, "name")
            fn = self.mod.functions.get(f"{cls.name.value}.{method}")
            if name and fn is not None:
                self.add(name, el, function_body(fn), func=fn, class_name=cls.name.value)

    def dict_literal(self, name: str | None) -> cst.Dict | None:
        return self._literal(name, cst.Dict)  # type: ignore[return-value]

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

    def add(self, name, anchor, body, func=None, class_name=None) -> None:
        fn = func or self.handler
        self.tools.append(
            ToolDef(
                name=name,
                function=fn.name.value,
                framework=FRAMEWORK,
                module=self.mod,
                func=fn,
                body=list(body),
                anchor=anchor,
                server_id=None,
                args_style="mapping",
                suppress_nodes=[anchor] if func is None else [anchor, fn],
                class_name=class_name,
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
                value = _class_attr_literal(cls, member)
                if value is not None:
                    return [value]
            if member == "value":
                return literal_names(mod, node.value)
    return []


def function_body_of(block) -> list:
    if isinstance(block, cst.IndentedBlock):
        return list(block.body)
    return [block]


def _class_attr_literal(cls: cst.ClassDef, attr: str) -> str | None:
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    for stmt in cls.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    if any(dotted_name(t.target) == attr for t in small.targets):
                        return _string(small.value)
                elif isinstance(small, cst.AnnAssign) and dotted_name(small.target) == attr:
                    return _string(small.value) if small.value is not None else None
    return None


def _dispatch_tools(mod: ParsedModule, handler: cst.FunctionDef) -> list[ToolDef]:
    d = _Dispatch(mod, handler)
    d.visit_block(function_body(handler))
    if not d.tools:
        d.add(handler.name.value, handler, function_body(handler))
    # one entry per client-visible name (first branch wins, as the dispatch does)
    seen: set[str] = set()
    out = []
    for t in d.tools:
        if t.name not in seen:
            seen.add(t.name)
            out.append(t)
    return out
