"""Which expressions denote MCP server objects, across the modules of a run.

A server object is any name bound to a call of a server class (``mcp = FastMCP("x")``,
``self.server = MCPServer(...)``, ``app: FastMCP = ...``), a parameter annotated with a server
class (``def register(mcp: FastMCP)``), or a name imported from another module of the run where
it is such an object (``from .server import mcp``), or a name bound to what a server factory of the
run returns (``app = create_server()``). Subclasses of server classes defined in the run
count as server classes. ``mount``/``import_server`` calls record the prefix a sub-server's tools
get on the parent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

import libcst as cst

from tokenlint.discovery import SERVER_CLASSES, UNRESOLVED_FRAMEWORK
from tokenlint.source.imports import dotted_name
from tokenlint.source.project import ParsedModule, Project
from tokenlint.source.walk import literal_string, walk

#: Attributes of a server that hold its tool table and register tools on it, by SDK: fastmcp 3's
#: ``FastMCP.local_provider`` (a ``LocalProvider``: ``mcp.local_provider.add_tool(fn)``, its
#: documented way to add and remove components), mcp 1.x ``FastMCP._tool_manager`` (a
#: ``ToolManager``: ``mcp._tool_manager.add_tool(fn, name=...)``). A registration on one of them is
#: a registration on the server.
_TOOL_TABLES = frozenset({"local_provider", "_tool_manager"})


@dataclass
class ServerRegistry:
    """Project-wide tables: server objects by qualified name, and mount prefixes.

    ``objects`` maps ``module.dotted`` (e.g. ``pkg.server.mcp``, ``pkg.app.App.self.mcp``
    collapsed to ``pkg.app.self.mcp``) to a framework label; ``non_servers`` holds names known to
    be bound to something else (so ``app = MyLocalThing()`` never passes as a server);
    ``mounts`` maps a sub-server id to the prefix its tools get.
    """

    objects: dict[str, str] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=lambda: dict(SERVER_CLASSES))
    non_servers: set[str] = field(default_factory=set)
    mounts: dict[str, str] = field(default_factory=dict)
    sdk_modules: set[str] = field(default_factory=set)
    #: Functions of the run that make and return a server (``def create_server(): return
    #: FastMCP(...)``, ``-> FastMCP``), by qualified name, to a framework label.
    factories: dict[str, str] = field(default_factory=dict)
    #: Functions of the run that return a server class itself (an import fallback between SDK
    #: versions written as a function), by qualified name, to a framework label.
    class_factories: dict[str, str] = field(default_factory=dict)
    #: Other names the code imports run modules by (``run.grouping.module_aliases``).
    aliases: dict[str, str] = field(default_factory=dict)
    #: ``(name, name it is bound to)`` of plain re-bindings not yet known as servers (``scan``).
    _aliases: list[tuple[str, str]] = field(default_factory=list)

    def canonical(self, qn: str) -> str:
        """``qn`` with a module alias replaced by the module's run name (``pkg.core.App`` for
        ``src.pkg.core.App`` when a stray ``src/__init__.py`` named it so); else ``qn``."""
        parts = qn.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module = self.aliases.get(".".join(parts[:i]))
            if module is not None:
                return ".".join([module, *parts[i:]])
        return qn

    # -- building -----------------------------------------------------------------------------
    def scan_classes(self, mod: ParsedModule) -> bool:
        """Record subclasses of server classes defined in a module; True when one was new.
        (Run over all modules until nothing changes: a subclass may live in a later file.)"""
        if any(q.split(".")[0] in ("mcp", "fastmcp") for q in mod.imports.names.values()):
            self.sdk_modules.add(mod.module_name)
        changed = False
        for name, cls in mod.classes.items():
            key = f"{mod.module_name}.{name}"
            if key in self.classes:
                continue
            for base in cls.bases:
                fw = self.class_framework(mod, base.value)
                if fw:
                    self.classes[key] = fw
                    changed = True
        for name, value in _module_level_bindings(mod):
            # ``ServerCls = FastMCP`` (an import fallback between SDK versions): the class itself
            key = f"{mod.module_name}.{name}"
            if key not in self.classes and isinstance(value, (cst.Name, cst.Attribute)):
                fw = self.class_framework(mod, value)
                if fw:
                    self.classes[key] = fw
                    changed = True
        for name, fn in mod.functions.items():
            # ``def server_class(): try: from mcp.server.fastmcp import FastMCP; return FastMCP
            # except ImportError: ...; return MCPServer``: the same fallback in a function
            key = f"{mod.module_name}.{name}"
            if "." in name or key in self.class_factories:
                continue
            returned = [node.value for node in walk(fn.body)
                        if isinstance(node, cst.Return) and node.value is not None]
            fws = [self.class_framework(mod, value) if isinstance(value, (cst.Name, cst.Attribute))
                   else None for value in returned]
            if fws and fws[0] is not None and all(fws):
                self.class_factories[key] = fws[0]
                changed = True
        for node, _ in mod.nodes() if self.class_factories else ():
            # ``server_class = server_class_factory()``: the class the factory returns
            if not (isinstance(node, cst.Assign) and isinstance(node.value, cst.Call)):
                continue
            fw = self._function_entry(self.class_factories, mod, node.value.func)
            for key in (f"{mod.module_name}.{dn}" for dn in map(dotted_name, (t.target for t in node.targets)) if dn):
                if fw and key not in self.classes:
                    self.classes[key] = fw
                    changed = True
        return changed

    def scan_factories(self, mod: ParsedModule) -> None:
        """Record the module-level functions of a module that return a new server object: a
        return annotation naming a server class (``def build() -> FastMCP``), ``return
        FastMCP(...)``, or ``return server`` of a local bound to one, so that ``app =
        create_server()`` is that server."""
        for name, fn in mod.functions.items():
            if "." in name:
                continue  # (a method: ``self.build()`` is resolved by the class, not here)
            fw = self.class_framework(mod, fn.returns.annotation if fn.returns else None)
            if fw is None:
                made: dict[str, str] = {}
                for node in walk(fn.body):
                    if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call):
                        made_fw = self.class_framework(mod, node.value.func)
                        if made_fw:
                            made.update((t, made_fw) for t in (dotted_name(x.target) for x in node.targets) if t)
                    elif isinstance(node, cst.Return) and node.value is not None:
                        value = node.value
                        fw = self.class_framework(mod, value.func) if isinstance(value, cst.Call) else \
                            made.get(dotted_name(value) or "")
                        if fw:
                            break
            if fw:
                self.factories[f"{mod.module_name}.{name}"] = fw

    def factory_framework(self, mod: ParsedModule, func: cst.BaseExpression) -> str | None:
        """The framework of the server a call of ``func`` returns, when ``func`` names a server
        factory of the run (``scan_factories``) in ``mod`` or through its imports; else None."""
        return self._function_entry(self.factories, mod, func)

    def _function_entry(self, table: dict[str, str], mod: ParsedModule, func: cst.BaseExpression) -> str | None:
        """The entry of ``table`` (functions of the run by qualified name) for the function
        ``func`` names in ``mod``: one of ``mod`` itself, or one it imports (through the run's
        module aliases too); None when ``func`` names none of them."""
        dn = dotted_name(func)
        if dn is None:
            return None
        local = table.get(f"{mod.module_name}.{dn}")
        if local:
            return local
        qn = mod.imports.qualify_dotted(dn)
        if qn is None:
            return None
        return table.get(qn) or table.get(self.canonical(qn))

    def scan(self, mod: ParsedModule) -> None:
        """Record the server objects and non-server names bound in a module."""
        for node, _ in mod.nodes():
            if isinstance(node, (cst.Assign, cst.AnnAssign)):
                value = node.value
                targets = (
                    [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                )
                fw = None
                if isinstance(value, cst.Call):
                    fw = self.class_framework(mod, value.func) or self.factory_framework(mod, value.func) or \
                        _other_mcp_server(mod, value.func)
                if fw is None and isinstance(node, cst.AnnAssign):
                    fw = self.class_framework(mod, _unwrap_optional(node.annotation.annotation))
                if fw is None and isinstance(value, (cst.Name, cst.Attribute)):
                    # ``self.app = app`` in ``def __init__(self, app: MCPServer)``, or ``mcp =
                    # self.mcp`` in a method that then decorates ``@mcp.tool()``: the same server
                    # (the parameter, or the attribute set in ``__init__``, is recorded already)
                    source = f"{mod.module_name}.{dotted_name(value)}"
                    fw = self.objects.get(source)
                    if fw is None:  # (a method above ``__init__``: ``resolve_aliases`` decides)
                        self._aliases.extend((f"{mod.module_name}.{dn}", source)
                                             for dn in map(dotted_name, targets) if dn)
                for target in targets:
                    dn = dotted_name(target)
                    if dn is None:
                        continue
                    key = f"{mod.module_name}.{dn}"
                    if fw:
                        self.objects[key] = fw
                    elif value is not None and not (isinstance(value, cst.Name) and dn.startswith("self.")):
                        # (``self.srv = srv`` of an untyped parameter is unknown, not known to be
                        # no server: another module may hand a server in, ``FileTools(app)``)
                        self.non_servers.add(key)
            elif isinstance(node, cst.Param) and node.annotation is not None:
                fw = self.class_framework(mod, _unwrap_optional(node.annotation.annotation))
                if fw:
                    self.objects[f"{mod.module_name}.{node.name.value}"] = fw

    def resolve_aliases(self) -> None:
        """Record the names bound to a server object that was bound later in its module's source
        (``mcp = self.mcp`` in a method written above the ``__init__`` that sets ``self.mcp``),
        after every module was scanned, through chains of such names."""
        changed = True
        while changed and self._aliases:
            changed = False
            for key, source in self._aliases:
                fw = self.objects.get(source)
                if fw and key not in self.objects:
                    self.objects[key] = fw
                    self.non_servers.discard(key)
                    changed = True

    def scan_mounts(self, mod: ParsedModule) -> None:
        """Record ``parent.mount(sub, namespace=/prefix=)`` and ``import_server`` prefixes."""
        for node, _ in mod.nodes():
            if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
                continue
            if node.func.attr.value not in ("mount", "import_server"):
                continue
            if self.server_of(mod, node.func.value) is None:
                continue
            sub = prefix = None
            positional = [a for a in node.args if a.keyword is None]
            for arg in node.args:
                if arg.keyword and arg.keyword.value in ("namespace", "prefix"):
                    prefix = _string(arg.value)
                elif arg.keyword and arg.keyword.value in ("server", "app"):
                    sub = arg.value
            for arg in positional:
                s = _string(arg.value)
                if s is not None and prefix is None:
                    prefix = s
                elif sub is None and s is None:
                    sub = arg.value
            if sub is None or not prefix:
                continue
            found = self.server_of(mod, sub)
            if found:
                self.mounts.setdefault(found[0], prefix)

    # -- queries ------------------------------------------------------------------------------
    def class_framework(self, mod: ParsedModule, node: cst.BaseExpression | None) -> str | None:
        """The framework label (``"mcp-fastmcp"``..., ``SERVER_CLASSES``) of the server class
        ``node`` names (a class reference or a subscripted generic, ``FastMCP[AppContext]``): an SDK
        class or a subclass defined in the run, resolved through ``mod``'s imports and the run's
        module aliases, or a class of ``mod`` itself; None when it names no server class (or
        ``node`` is None)."""
        if node is None:
            return None
        if isinstance(node, cst.Subscript):  # a subscripted generic: ``FastMCP[AppContext]``
            node = node.value
        qn = mod.imports.qualify(node)
        if qn and qn not in self.classes:
            qn = self.canonical(qn)
        if qn and qn in self.classes:
            return self.classes[qn]
        dn = dotted_name(node)
        if dn and f"{mod.module_name}.{dn}" in self.classes:
            return self.classes[f"{mod.module_name}.{dn}"]
        return None

    def server_of(
        self, mod: ParsedModule, node: cst.BaseExpression, project: Project | None = None,
        cls: str | None = None,
    ) -> tuple[str, str] | None:
        """(server id, framework) when ``node`` denotes a server object, else None.

        ``cls`` is the class whose body holds ``node``: ``self`` inside a subclass of a server
        class (``class App(FastMCP): def setup(self): self.tool(fn)``) is that server."""
        if isinstance(node, cst.Attribute) and node.attr.value in _TOOL_TABLES:
            owner = self.server_of(mod, node.value, project, cls)
            if owner is not None:
                return owner
        dn = dotted_name(node)
        if dn is None:
            return None
        if dn == "self" and cls is not None:
            fw = self.classes.get(f"{mod.module_name}.{cls}")
            return (f"{mod.module_name}.{cls}", fw) if fw else None
        local = f"{mod.module_name}.{dn}"
        if local in self.objects:
            return local, self.objects[local]
        qn = mod.imports.qualify_dotted(dn)
        if qn is not None:
            if qn not in self.objects:
                qn = self.canonical(qn)
            for candidate in self._reexports(qn, project):
                if candidate in self.objects:
                    return candidate, self.objects[candidate]
            if qn in self.classes:
                return None
            return None
        if local in self.non_servers:
            return None
        head = dn.split(".")[0]
        if head in ("self", "cls") and dn.count(".") == 1 and mod.module_name in self.sdk_modules:
            # ``self.mcp.tool()`` on an attribute assigned from a factory we cannot see
            return local, UNRESOLVED_FRAMEWORK
        if "." not in dn and (mod.module_name in self.sdk_modules or _SERVERISH.search(dn)):
            # a parameter such as ``def register(mcp): @mcp.tool() ...`` or ``mcp_server: Any``
            return local, UNRESOLVED_FRAMEWORK
        return None

    def _reexports(self, qn: str, project: Project | None):
        yield qn
        if project is None:
            return
        seen = {qn}
        for _ in range(3):
            hit = project.resolve(qn)
            if hit is None:
                return
            mod, name = hit
            target = mod.imports.qualify_dotted(name)
            if target is None or target in seen:
                return
            seen.add(target)
            qn = target
            yield qn

    def prefixed(self, server_id: str | None, name: str) -> str:
        """The client-visible name of a tool registered on ``server_id``: ``{prefix}_{name}``
        as fastmcp composes it when the server is mounted with a prefix (one level; a mount of
        the parent itself is not followed)."""
        prefix = self.mounts.get(server_id) if server_id else None
        return f"{prefix}_{name}" if prefix else name


_SERVERISH = re.compile(r"(mcp|server)", re.I)


def _module_level_bindings(mod: ParsedModule) -> list[tuple[str, cst.BaseExpression]]:
    """``(name, value)`` of each plain ``name = value`` the module runs at import, in source
    order: at top level and in its top-level ``try``/``except``/``else``/``finally`` and
    ``if``/``else`` blocks."""
    out: list[tuple[str, cst.BaseExpression]] = []

    def block(stmts: Sequence[cst.CSTNode]) -> None:
        for stmt in stmts:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Assign):
                        out.extend((t.target.value, small.value) for t in small.targets if isinstance(t.target, cst.Name))
            elif isinstance(stmt, cst.Try):
                block(stmt.body.body)
                for handler in stmt.handlers:
                    block(handler.body.body)
                for tail in (stmt.orelse, stmt.finalbody):
                    if tail is not None:
                        block(tail.body.body)
            elif isinstance(stmt, cst.If):
                block(stmt.body.body)
                if isinstance(stmt.orelse, cst.If):
                    block([stmt.orelse])
                elif stmt.orelse is not None:
                    block(stmt.orelse.body.body)

    block(mod.tree.body)
    return out


def _other_mcp_server(mod: ParsedModule, func: cst.BaseExpression) -> str | None:
    """``UNRESOLVED_FRAMEWORK`` for a call of a server class of an MCP framework tokenlint does
    not know (``zeromcp.McpServer(...)``): an imported class (a CapWords name) whose qualified
    name says MCP and whose own name is no client's; None otherwise. Its ``@x.tool()``
    decorators are then read as FastMCP-style registrations. (A class of the run imported from
    another module counts too: the registry is filled module by module, without the project.)"""
    qn = mod.imports.qualify(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
    if qn is None:
        return None
    last = qn.rsplit(".", 1)[-1]
    if not last[:1].isupper() or "client" in last.lower() or not re.search(r"mcp", qn, re.I):
        return None
    return UNRESOLVED_FRAMEWORK


def _unwrap_optional(node: cst.BaseExpression) -> cst.BaseExpression:
    """The class an annotation names under its qualifiers: ``X`` of ``X | None``,
    ``Optional[X]``, ``Final[X]``, ``ClassVar[X]`` and ``Annotated[X, ...]`` (``mcp:
    Final[FastMCP] = factory.create()``), through nested ones; ``node`` itself otherwise."""
    for _ in range(4):
        if isinstance(node, cst.BinaryOperation):
            node = node.left
        elif isinstance(node, cst.Subscript) and (dotted_name(node.value) or "").split(".")[-1] in _QUALIFIERS and \
                isinstance(node.slice[0].slice, cst.Index):
            node = node.slice[0].slice.value
        else:
            break
    return node


#: ``typing`` qualifiers whose first argument is the annotated class.
_QUALIFIERS = frozenset({"Optional", "Final", "ClassVar", "Annotated"})


def _string(node: cst.BaseExpression) -> str | None:
    return literal_string(node)


_walk = walk
