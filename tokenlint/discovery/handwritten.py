"""Servers that answer MCP's JSON-RPC themselves, with no SDK.

A server may read JSON-RPC messages from stdin and dispatch on their ``method`` by hand
(``if method == "tools/call":``, ``{"tools/call": handle_call}``, ``case "tools/call":``). Its
tools are whatever that code looks up at run time; tokenlint lists the tools of the SDKs only, so
such a module is reported as an unresolved registration (TL002) rather than passing as a module
with no tools. A ``"tools/call"`` sent as a value (``{"method": "tools/call"}``, a client) is not
a dispatch.
"""

from __future__ import annotations

import libcst as cst

from tokenlint.source.parsing import TOOLS_CALL
from tokenlint.source.project import ParsedModule
from tokenlint.source.walk import literal_string


def tools_call_dispatch(mod: ParsedModule) -> cst.CSTNode | None:
    """The first place ``mod`` dispatches on the JSON-RPC method ``"tools/call"`` (MCP
    specification, "Calling Tools"): a comparison with it, a dict entry keyed by it, or a
    ``case`` matching it; None when there is none."""
    for node, _ in mod.nodes():
        if isinstance(node, cst.Comparison):
            if any(literal_string(t.comparator) == TOOLS_CALL for t in node.comparisons) or \
                    literal_string(node.left) == TOOLS_CALL:
                return node
        elif isinstance(node, cst.DictElement):
            if literal_string(node.key) == TOOLS_CALL:
                return node
        elif isinstance(node, cst.MatchCase):
            pattern = node.pattern
            if isinstance(pattern, cst.MatchValue) and literal_string(pattern.value) == TOOLS_CALL:
                return node
    return None
