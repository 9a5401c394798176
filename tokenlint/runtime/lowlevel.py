"""Helpers for a low-level MCP ``Server`` (mcp 1.x ``@server.call_tool()``, 2.x ``on_call_tool``).

A low-level server dispatches on the tool name and usually ends a branch with
``[TextContent(type="text", text=json.dumps(rows))]``. Page the data *before* ``json.dumps``::

    if name == "list_rows":
        text = fit_json_text(rows, tool=name, arguments=arguments)
        return [types.TextContent(type="text", text=text)]

and declare the ``cursor`` argument in the tool's input schema with ``with_cursor_parameter``
(low-level servers validate arguments against it).
"""

from __future__ import annotations

import copy
import json
from typing import Any, Iterable, Mapping

from .estimator import TokenEstimator
from .limits import DEFAULT_MAX_RESPONSE_TOKENS, DEFAULT_PAGE_SIZES
from .once import note_stored
from .response import fit_with_entry
from .structured import CURSOR_DESCRIPTION

__all__ = ["CURSOR_INPUT_SCHEMA", "with_cursor_parameter", "declare_cursor", "fit_json_text"]

#: JSON Schema of the ``cursor`` tool argument.
CURSOR_INPUT_SCHEMA: dict[str, Any] = {
    "type": ["string", "null"],
    "default": None,
    "description": CURSOR_DESCRIPTION,
}

def with_cursor_parameter(input_schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a tool's ``inputSchema`` (a JSON Schema dict) with an optional ``cursor``
    property added (``CURSOR_INPUT_SCHEMA``; ``"type": "object"`` filled in when absent). The
    given schema is not changed."""
    schema = copy.deepcopy(dict(input_schema))
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})["cursor"] = dict(CURSOR_INPUT_SCHEMA)
    return schema


def declare_cursor(tools: Any, names: Iterable[str]) -> Any:
    """What a ``list_tools`` handler returns, with the optional ``cursor`` argument declared in the
    input schema of each tool named in ``names`` (the tools ``tokenlint fix`` pages).

    For servers whose schemas are built where the codemod cannot edit them (a registry of handler
    objects, a class attribute, ``Model.model_json_schema()``): the declaration happens when the
    list is sent. ``tools`` is a list of ``mcp.types.Tool`` objects or dicts (``inputSchema`` /
    ``input_schema``), or an object with a ``tools`` list (mcp 2.x ``ListToolsResult``); it is
    returned itself, its matching tools' schemas replaced by ``with_cursor_parameter`` copies.
    Idempotent. Low-level servers validate arguments against ``inputSchema`` (MCP spec, tools/call),
    so an undeclared ``cursor`` would be rejected.
    """
    wanted = set(names)
    listed = getattr(tools, "tools", tools)
    for tool in listed or ():
        name = tool.get("name") if isinstance(tool, dict) else getattr(tool, "name", None)
        if name not in wanted:
            continue
        for attr in ("inputSchema", "input_schema"):
            if isinstance(tool, dict):
                if attr in tool:
                    tool[attr] = with_cursor_parameter(tool[attr] or {})
                    break
            elif hasattr(tool, attr):
                setattr(tool, attr, with_cursor_parameter(getattr(tool, attr) or {}))
                break
    return tools


def fit_json_text(
    value: Any,
    *,
    tool: str,
    arguments: Mapping[str, Any] | None,
    cursor: str | None = None,
    max_tokens: int = DEFAULT_MAX_RESPONSE_TOKENS,
    store: Any = None,
    session_id: str | None = None,
    page_sizes: Any = None,
    exact: bool = True,
    client: Any = None,
    **json_kwargs: Any,
) -> str:
    """``fit_response`` for a branch that sends ``json.dumps(value, **json_kwargs)``.

    Returns that very text when it fits ``max_tokens`` (tokens), else a page rendered the same way
    (a text page for a str ``value``). Pages are measured in that rendering, so ``ensure_ascii``,
    ``indent`` or ``default`` given here count. ``exact=False`` never loads tiktoken. Raises
    ``CursorError`` like ``fit_response``; a low-level server turns it into an ``isError`` result
    with its message. ``client``: a client profile, as for ``fit_response`` (the one
    ``TOKENLINT_CLIENT`` names applies too). Inside a ``computed_once`` tool that returns this
    call's text, a continuation is served without running the tool (``once``).
    """
    def dumps(v: Any) -> str:
        return json.dumps(v, **json_kwargs)

    estimator = TokenEstimator("auto" if exact else "fast", renderer=dumps)
    options: dict[str, Any] = {}
    if page_sizes is not None:
        options["page_sizes"] = page_sizes
    replay = None
    if store is None:
        replay = {"call": "fit_json_text", "tool": tool, "max_tokens": max_tokens,
                  "client": client, "page_sizes": list(options.get("page_sizes", DEFAULT_PAGE_SIZES)),
                  "exact": exact, "json_kwargs": dict(json_kwargs)}
    result, made = fit_with_entry(value, tool=tool, arguments=arguments, cursor=cursor,
                                  max_tokens=max_tokens, store=store, session_id=session_id,
                                  estimator=estimator, client=client,
                                  page_sizes=options.get("page_sizes", DEFAULT_PAGE_SIZES),
                                  replay=replay)
    if not (isinstance(result, str) and (result is not value or isinstance(value, str))):
        result = dumps(result)
    if made is not None:
        note_stored(made[0], made[1], result)
    return result
