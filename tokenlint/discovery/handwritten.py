"""Servers that answer MCP's JSON-RPC themselves, with no SDK.

A server may read JSON-RPC messages from stdin and dispatch on their ``method`` by hand
(``if method == "tools/call":``, ``{"tools/call": handle_call}``, ``case "tools/call":``). Its
tools are whatever that code looks up at run time; tokenlint lists the tools of the SDKs only, so
such a module is reported as an unresolved registration (TL002) rather than passing as a module
with no tools. A ``"tools/call"`` sent as a value (``{"method": "tools/call"}``, a client) is not
a dispatch; nor is one compared alone (a middleware or a log reader testing ``context.method ==
"tools/call"``): a server answers ``"tools/list"`` or ``"initialize"`` too.

The low-level SDK's own table is the same case: ``server.request_handlers[types.CallToolRequest]
= handler`` (what ``@server.call_tool()`` does under the hood, written out by proxies that forward
every call to another server) answers every tool with code that reads the request itself, so the
tools it serves are known only at run time.
"""

from __future__ import annotations

import libcst as cst

from tokenlint.source.imports import dotted_name
from tokenlint.source.parsing import TOOLS_CALL
from tokenlint.source.project import ParsedModule
from tokenlint.source.walk import literal_string


#: Other JSON-RPC methods a server answers (MCP specification, "Lifecycle" and "Listing Tools").
_SERVER_METHODS = frozenset({"tools/list", "initialize"})


def request_handler_registration(mod: ParsedModule) -> cst.CSTNode | None:
    """The first assignment in ``mod`` of a handler for the MCP SDK's ``CallToolRequest`` into a
    low-level server's request table (``app.request_handlers[types.CallToolRequest] = _call``,
    the mcp 1.x ``Server.request_handlers`` dict); None when there is none, and for the SDK's own
    ``self.request_handlers[...]`` (its ``call_tool`` decorator, not a server)."""
    for node, _ in mod.nodes():
        if not isinstance(node, cst.Assign):
            continue
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Attribute) and \
                    t.value.attr.value == "request_handlers" and dotted_name(t.value.value) != "self" and \
                    len(t.slice) == 1 and \
                    isinstance(index := t.slice[0].slice, cst.Index) and \
                    (dotted_name(index.value) or "").rsplit(".", 1)[-1] == "CallToolRequest":
                return node
    return None


def tools_call_dispatch(mod: ParsedModule) -> cst.CSTNode | None:
    """The first place ``mod`` dispatches on the JSON-RPC method ``"tools/call"`` (MCP
    specification, "Calling Tools"): a comparison with it, a dict entry keyed by it, or a
    ``case`` matching it, in a module that dispatches on ``"tools/list"`` or ``"initialize"``
    the same way; None when there is none."""
    found: cst.CSTNode | None = None
    others = False
    for node, _ in mod.nodes():
        keys: list[str | None] = []
        if isinstance(node, cst.Comparison):
            keys = [literal_string(node.left), *(literal_string(t.comparator) for t in node.comparisons)]
        elif isinstance(node, cst.DictElement):
            keys = [literal_string(node.key)]
        elif isinstance(node, cst.MatchCase) and isinstance(node.pattern, cst.MatchValue):
            keys = [literal_string(node.pattern.value)]
        if TOOLS_CALL in keys and found is None:
            found = node
        others = others or any(k in _SERVER_METHODS for k in keys)
        if found is not None and others:
            return found
    return None
