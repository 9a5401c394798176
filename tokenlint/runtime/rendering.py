"""A tool result as the MCP SDK serving the call renders it for the model: the text that is measured.

``render_json`` renders a non-str tool result the way the SDK serving the call does: with
``pydantic_core.to_json(value, fallback=str, indent=2)`` (mcp ``FastMCP`` / ``MCPServer``) or
compact (standalone fastmcp) when ``pydantic_core`` is already imported (every SDK imports it; the
runtime never imports it itself), else with ``json.dumps`` giving the same text as the indented
one for JSON-native data (floats may be spelled differently, ``1e-05``/``1e-5``).

``json_fallback`` is the ``default=`` function of every ``json.dumps`` of the runtime: objects that
are not JSON-native as the SDKs dump them.
"""

from __future__ import annotations

import enum
import json
import sys
from typing import Any

__all__ = ["render_json", "sdk_json", "json_fallback"]


def _sdk_to_json() -> Any | None:
    """``pydantic_core.to_json`` if an SDK already imported it; the runtime never imports it."""
    module = sys.modules.get("pydantic_core")
    return getattr(module, "to_json", None) if module is not None else None


def _in_fastmcp_request() -> bool:
    """Whether standalone fastmcp is serving the current call (``get_context()`` answers)."""
    module = sys.modules.get("fastmcp.server.dependencies")
    get_context = getattr(module, "get_context", None) if module is not None else None
    if get_context is None:
        return False
    try:
        get_context()
    except Exception:  # RuntimeError outside a request
        return False
    return True


def sdk_json(value: Any) -> bytes | None:
    """``value`` as the SDK serving this call renders a non-str result, as UTF-8 bytes, or None
    when no SDK has imported ``pydantic_core`` (or it cannot serialize ``value``). Raises nothing."""
    to_json = _sdk_to_json()
    if to_json is None:
        return None
    try:
        if _in_fastmcp_request():  # fastmcp 3.x/4.x: default_serializer, compact
            return to_json(value, fallback=str)
        return to_json(value, fallback=str, indent=2)
    except Exception:
        return None


def render_json(value: Any, *, indent: int | None = 2) -> str:
    """Render ``value`` the way the MCP SDKs show a non-text tool result to the model.

    ``indent=2`` (the default) means "as the SDK serving this call renders it", when an SDK has
    imported ``pydantic_core`` (the runtime never imports it itself): mcp 1.x ``FastMCP`` and
    mcp 2.x ``MCPServer`` send ``pydantic_core.to_json(result, fallback=str, indent=2)``;
    standalone fastmcp 3.x/4.x, detected by its ``get_context()`` answering, sends the compact
    ``pydantic_core.to_json(result, fallback=str)``. Without ``pydantic_core``, and for other
    ``indent`` values, ``json.dumps`` (two-space indentation, non-ASCII kept, unknown objects as
    ``json_fallback`` gives them: the same text as FastMCP for JSON-native data; floats may be
    spelled differently). ``indent=None`` gives ``json.dumps``'s default rendering (what a
    low-level Server usually sends). Raises ``ValueError`` for a circular reference (``json.dumps``).
    """
    if indent == 2:
        data = sdk_json(value)
        if data is not None:
            return data.decode("utf-8")
    return json.dumps(value, indent=indent, ensure_ascii=False, default=json_fallback)


def json_fallback(obj: Any) -> Any:
    """The ``default=`` of ``json.dumps`` for what is not JSON-native, as the SDKs dump it: an
    enum as its value, a pydantic model as ``model_dump(mode="json")``, a dataclass as its fields,
    a set, frozenset or tuple as a list, anything else as ``str(obj)``."""
    if isinstance(obj, enum.Enum):
        return obj.value
    if hasattr(obj, "model_dump"):
        try:
            return obj.model_dump(mode="json")
        except Exception:  # pragma: no cover - defensive
            pass
    if hasattr(obj, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(obj)
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return str(obj)
