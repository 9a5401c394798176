"""The dispatch shared by the two low-level fixture servers: tool name -> text to send.

A low-level server ends each branch with ``json.dumps(...)``; here the data goes through
``fit_json_text`` first (the runtime's helper for exactly that).
"""

from __future__ import annotations

import json
from typing import Any

import runtime_fixture_data as common
from tokenlint.runtime import fit_json_text, with_cursor_parameter

_INT = {"type": "integer"}
_STR_OR_NULL = {"type": ["string", "null"], "default": None}

TOOLS: dict[str, dict[str, Any]] = {
    "list_users": with_cursor_parameter(
        {"type": "object", "properties": {"n": _INT, "role": _STR_OR_NULL}}),
    "list_users_raw": {"type": "object", "properties": {"n": _INT, "role": _STR_OR_NULL}},
    "get_report": with_cursor_parameter({"type": "object", "properties": {"n": _INT}}),
    "read_doc": with_cursor_parameter({"type": "object", "properties": {}}),
    "big_records": with_cursor_parameter({"type": "object", "properties": {}}),
    "expiring": with_cursor_parameter({"type": "object", "properties": {}}),
    "many": with_cursor_parameter({"type": "object", "properties": {"i": _INT},
                                   "required": ["i"]}),
    "store_stats": {"type": "object", "properties": {}},
}


def dispatch(name: str, arguments: dict[str, Any] | None) -> str:
    """Text of the one TextContent block the branch returns; raises on a bad cursor."""
    a = dict(arguments or {})
    cursor = a.get("cursor")
    opts = dict(cursor=cursor, max_tokens=common.MAX_TOKENS, store=common.STORE)
    if name == "list_users":
        n, role = a.get("n", 300), a.get("role")
        return fit_json_text(common.users(n, role), tool=name, arguments=a, **opts)
    if name == "list_users_raw":
        return json.dumps(common.users(a.get("n", 300), a.get("role")))
    if name == "get_report":
        return fit_json_text(common.report(a.get("n", 300)), tool=name, arguments=a, **opts)
    if name == "read_doc":
        return fit_json_text(common.document(), tool=name, arguments=a, **opts)
    if name == "big_records":
        return fit_json_text(common.big_records(), tool=name, arguments=a, **opts)
    if name == "expiring":
        opts["store"] = common.SHORT_STORE
        return fit_json_text(common.users(200), tool=name, arguments=a, **opts)
    if name == "many":
        return fit_json_text(common.many_rows(a["i"]), tool=name, arguments=a, **opts)
    if name == "store_stats":
        return json.dumps(common.store_stats())
    raise ValueError(f"unknown tool {name}")
