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
from typing import Any, Mapping

from .estimator import TokenEstimator
from .limits import DEFAULT_MAX_RESPONSE_TOKENS
from .response import fit_response

__all__ = ["CURSOR_INPUT_SCHEMA", "with_cursor_parameter", "fit_json_text"]

#: JSON Schema of the ``cursor`` tool argument.
CURSOR_INPUT_SCHEMA: dict[str, Any] = {
    "type": ["string", "null"],
    "default": None,
    "description": "Opaque cursor from a previous response's next_action; omit for the first page.",
}

_ESTIMATORS: dict[Any, TokenEstimator] = {}


def with_cursor_parameter(input_schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a tool's ``inputSchema`` with an optional ``cursor`` property added."""
    schema = copy.deepcopy(dict(input_schema))
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})["cursor"] = dict(CURSOR_INPUT_SCHEMA)
    return schema


def fit_json_text(
    value: Any,
    *,
    tool: str,
    arguments: Mapping[str, Any] | None,
    cursor: str | None = None,
    max_tokens: int = DEFAULT_MAX_RESPONSE_TOKENS,
    indent: int | None = None,
    **options: Any,
) -> str:
    """``fit_response`` for a branch that sends text: the value, page or text page as a str.

    Non-str results are rendered with ``json.dumps(..., indent=indent)`` (``indent=None``: what
    ``json.dumps(rows)`` gives) and measured in that rendering. Raises ``CursorError`` like
    ``fit_response``; a low-level server turns it into an ``isError`` result with its message.
    """
    if "estimator" not in options:
        if indent not in _ESTIMATORS:
            _ESTIMATORS[indent] = TokenEstimator(json_indent=indent)
        options["estimator"] = _ESTIMATORS[indent]
    result = fit_response(value, tool=tool, arguments=arguments, cursor=cursor,
                          max_tokens=max_tokens, **options)
    if isinstance(result, str):
        return result
    return json.dumps(result, indent=indent, ensure_ascii=False, default=str)
