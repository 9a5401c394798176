"""Where ``tokenlint fix`` adds ``register_result_resource(<server>)``.

A rewritten tool's pages link the full result as an MCP resource when the tool's server serves
it: ``plan_result_resources`` plans one ``register_result_resource(<server>)`` per server of the
rewritten tools of a module, after the module's last top-level statement that makes the server
or registers on it, or a note (``NO_RESOURCE_NOTE``) where the server has no module-level name.
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from tokenlint.discovery import SERVER_CLASSES, ToolDef
from tokenlint.fix.edits import FilePlan, NodeKey
from tokenlint.source.imports import dotted_name
from tokenlint.source.project import ParsedModule
from tokenlint.source.walk import walk

#: Why a rewritten tool's pages carry no resource link (a ``ToolOutcome`` note).
NO_RESOURCE_NOTE = ("no link to the full result: call `register_result_resource(<server>)` where "
                    "its server is made (not a module-level name here)")


def plan_result_resources(plan: FilePlan, mod: ParsedModule, tools: list[ToolDef]) -> None:
    """One ``register_result_resource(<server>)`` per server of the rewritten ``tools``, after the
    module's last top-level statement that makes the server or registers on it: the low-level
    mcp 1.x ``Server`` takes its handlers from decorators below its construction, and the
    call wraps them (``tokenlint.runtime.sdk_hooks``), so it must come after them; one rule for
    every SDK keeps the place predictable (the tools above it, ``__main__`` below). None when the
    module calls it for that server already (idempotent). Adds to ``plan.resources`` and
    ``plan.imports``; a fixed tool whose server cannot be named gets ``NO_RESOURCE_NOTE`` in its
    outcome's notes. Raises nothing."""
    names: set[str] = set()
    unresolved: list[str] = []
    for tool in tools:
        name = _server_name(mod, tool)
        if name is None:
            unresolved.append(tool.name)
        else:
            names.add(name)
    for name in sorted(names):
        if _registers_resource(mod, name):
            continue
        anchor = _last_statement_on(mod, name)
        if anchor is None:
            unresolved.extend(t.name for t in tools if _server_name(mod, t) == name)
            continue
        plan.resources[NodeKey.of(mod, anchor)] = name
        plan.imports.add("register_result_resource")
    if unresolved and not names:
        plan.outcomes = [replace(o, notes=(*o.notes, NO_RESOURCE_NOTE)) if o.fixed and o.name in unresolved else o
                         for o in plan.outcomes]


def _server_name(mod: ParsedModule, tool: ToolDef) -> str | None:
    """The module-level name of ``tool``'s server in ``mod``, or None (a parameter, an
    attribute, a server this module cannot name)."""
    if tool.args_style == "mapping":  # low-level: the handler's ``@server.call_tool()``, or
        for d in tool.func.decorators:  # ``server = Server(..., on_call_tool=handler)``
            target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                name = target.value.value
                return name if _bound_at_top(mod, name) else None
        for stmt in mod.tree.body:
            assign = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and stmt.body else None
            if isinstance(assign, cst.Assign) and len(assign.targets) == 1 \
                    and isinstance(assign.targets[0].target, cst.Name) and isinstance(assign.value, cst.Call) \
                    and any(a.keyword is not None and a.keyword.value == "on_call_tool"
                            and isinstance(a.value, cst.Name) and a.value.value == tool.func.name.value
                            for a in assign.value.args):
                return assign.targets[0].target.value
        # a handler looked up in a registry: the module's one low-level server
        made = [name for stmt in mod.tree.body for name in _made_servers(mod, stmt, "mcp-lowlevel")]
        return made[0] if len(made) == 1 else None
    server_id = tool.server_id or ""
    prefix = f"{mod.module_name}."
    if server_id.startswith(prefix) and "." not in server_id[len(prefix):]:
        name = server_id[len(prefix):]
        return name if _bound_at_top(mod, name) else None
    imported = sorted(local for local, qualified in mod.imports.names.items()
                      if qualified == server_id and "." not in local)
    return imported[0] if imported and _bound_at_top(mod, imported[0]) else None


def _made_servers(mod: ParsedModule, stmt: cst.CSTNode, framework: str) -> list[str]:
    """The names a top-level statement binds to a new server of ``framework``."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], (cst.Assign, cst.AnnAssign))):
        return []
    assign = stmt.body[0]
    if not isinstance(assign.value, cst.Call) or SERVER_CLASSES.get(mod.imports.qualify(assign.value.func) or "") != framework:
        return []
    targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]
    return [t.value for t in targets if isinstance(t, cst.Name)]


def _bound_at_top(mod: ParsedModule, name: str) -> bool:
    """Whether a top-level statement of ``mod`` assigns or imports ``name``."""
    return any(_binds(stmt, name) for stmt in mod.tree.body)


def _binds(stmt: cst.CSTNode, name: str) -> bool:
    """Whether the top-level ``stmt`` assigns ``name`` or imports it with ``from ... import``."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        if isinstance(small, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets):
            return True
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                and small.target.value == name and small.value is not None:
            return True
        if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar) and any(
                (dotted_name(a.asname.name) if a.asname else dotted_name(a.name)) == name for a in small.names):
            return True
    return False


def _root_name(node: cst.BaseExpression) -> str | None:
    """``mcp`` for ``mcp.tool``, ``mcp.tool()``, ``mcp.tool(name="x")(fn)``."""
    while isinstance(node, (cst.Call, cst.Attribute)):
        node = node.func if isinstance(node, cst.Call) else node.value
    return node.value if isinstance(node, cst.Name) else None


def _registers_on(stmt: cst.CSTNode, name: str) -> bool:
    """Whether a top-level statement registers something on the server ``name``: a decorator
    rooted at it (``@mcp.tool()``, ``@server.call_tool()``), or a call on it or given it
    (``mcp.add_tool(f)``, ``Catalog(db).register(mcp)``), not ``mcp.run()``."""
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return any(_root_name(d.decorator) == name for d in stmt.decorators)
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        call = small.value if isinstance(small, cst.Expr) else None
        if not isinstance(call, cst.Call):
            continue
        method = call.func
        while isinstance(method, cst.Call):
            method = method.func
        if _root_name(call) == name and not (isinstance(method, cst.Attribute)
                                             and method.attr.value.startswith("run")):
            return True
        if any(isinstance(a.value, cst.Name) and a.value.value == name for a in call.args):
            return True
    return False


def _last_statement_on(mod: ParsedModule, name: str) -> cst.CSTNode | None:
    """The last top-level statement of ``mod`` that binds the server ``name`` or registers on
    it, when it comes after the binding (else None)."""
    last = None
    for stmt in mod.tree.body:
        if _binds(stmt, name):
            last = stmt
        elif last is not None and _registers_on(stmt, name):
            last = stmt
    return last


def _registers_resource(mod: ParsedModule, name: str) -> bool:
    """Whether ``mod`` calls ``register_result_resource(<name>, ...)`` anywhere."""
    return any(isinstance(n, cst.Call) and (dotted_name(n.func) or "").split(".")[-1] == "register_result_resource"
               and n.args and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == name
               for n in walk(mod.tree))
