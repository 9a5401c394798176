"""Discovery of one module: every tool it registers, and the registrations it could not resolve.

``discover_module`` runs both families (``fastmcp``, ``lowlevel``) with one ``Values`` resolver
per group of modules; an ``Unresolved`` is a place where a server is seen registering something
tokenlint cannot follow (``x.tool(make())``, a ``call_tool`` handler dispatching to objects
nobody lists, a write into a server's tool table from an unknown iterable). ``run.analyse`` turns
each into a TL002 finding, so a server tokenlint does not understand is never reported as
having no tools and nothing to say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import libcst as cst

from tokenlint.discovery import ToolDef
from tokenlint.discovery.fastmcp import find_fastmcp_tools
from tokenlint.discovery.handwritten import request_handler_registration, tools_call_dispatch
from tokenlint.discovery.lowlevel import find_lowlevel_tools
from tokenlint.discovery.servers import ServerRegistry
from tokenlint.discovery.values import Values
from tokenlint.source.project import ParsedModule, Project


def scan_servers(modules: Sequence[ParsedModule], aliases: dict[str, str]) -> ServerRegistry:
    """The servers of a group of modules, for ``discover_module``: server classes first
    (subclasses of subclasses, up to three rounds), then functions returning a server, then
    server objects (and names re-bound to them), then mounts of one
    server on another. ``aliases``: ``Project.aliases``."""
    servers = ServerRegistry(aliases=aliases)
    for _ in range(3):
        if not any([servers.scan_classes(mod) for mod in modules]):
            break
    for mod in modules:
        servers.scan_factories(mod)
    for mod in modules:
        servers.scan(mod)
    servers.resolve_aliases()
    for mod in modules:
        servers.scan_mounts(mod)
    return servers


@dataclass(frozen=True, eq=False)
class Unresolved:
    """A registration site (``node`` in ``module``) whose tools could not be resolved, and why."""

    module: ParsedModule
    node: cst.CSTNode
    reason: str


def discover_module(mod: ParsedModule, project: Project, servers: ServerRegistry,
                    values: Values | None = None) -> tuple[list[ToolDef], list[Unresolved]]:
    """``(tools, unresolved registrations)`` of ``mod``. ``values`` may be shared by the
    modules of a group (it caches per-function assignment tables). Raises what LibCST or a
    pathological input raises (``RecursionError``); ``run.analyse`` reports those."""
    values = values or Values(project)
    raw: list = []
    tools = find_fastmcp_tools(mod, project, servers, values, raw)
    tools += find_lowlevel_tools(mod, project, servers, values, raw)
    if not tools:
        dispatch = tools_call_dispatch(mod)
        if dispatch is not None:
            raw.append((mod, dispatch, 'this module answers the JSON-RPC method "tools/call" itself, with no MCP SDK; '
                        "tokenlint cannot list the tools it dispatches to"))
        table = request_handler_registration(mod)
        if table is not None:
            raw.append((mod, table, "a handler for CallToolRequest is put in the server's request_handlers table; "
                        "it answers every tool name itself (a proxy forwards them), so tokenlint cannot list them"))
    seen: set[tuple[int, str]] = set()
    unresolved = []
    for m, node, reason in raw:
        if (id(node), reason) not in seen:
            seen.add((id(node), reason))
            unresolved.append(Unresolved(m, node, reason))
    return tools, unresolved
