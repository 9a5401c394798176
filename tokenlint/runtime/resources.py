"""Full results as MCP resources, ResourceLink blocks, and the client session of a request.

``register_result_resource(server)`` adds a resource template ``tokenlint://results/{result_id}``
to a FastMCP-style server, so the ``resource_uri`` of every page can be read with
``resources/read``. It works with:

* mcp 1.x ``mcp.server.fastmcp.FastMCP``,
* mcp 2.x ``mcp.server.mcpserver.MCPServer``,
* standalone ``fastmcp.FastMCP`` (3.x on mcp 1.x, 4.x on mcp 2.x).

A low-level ``Server`` has no templates helper: answer ``resources/read`` for URIs that start with
``RESULT_URI_PREFIX`` with ``read_stored_result(uri, store=..., session_id=...)`` in its read
handler, and set ``store.resource_uri_prefix = RESULT_URI_PREFIX``.

Access control: result ids are 128-bit random (unguessable), and a result stored for one client
session is never served to another: the reader's session (``session_id_from_context``) must equal
the one the result was stored with. Transports without sessions (stdio: one client per process)
bind to "no session".
"""

from __future__ import annotations

import json
import sys
from typing import Any, Mapping

from .estimator import render_json
from .sdk_errors import flavoured
from .store import ResultStore, StoredResult, default_store

__all__ = ["ResultNotFoundError", "RESULT_URI_PREFIX", "register_result_resource", "read_stored_result",
           "resource_link", "as_content_blocks", "session_id_from_context", "current_session_id"]

#: Scheme and path of stored-result URIs; the entry id follows.
RESULT_URI_PREFIX = "tokenlint://results/"


class ResultNotFoundError(ValueError):
    """No stored result at a URI (unknown, expired, or another session's). A ``ValueError``;
    also the loaded SDK's ``ResourceError`` so its message reaches the client."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "ResultNotFoundError":
        return super().__new__(flavoured(cls, "resource") if cls is ResultNotFoundError else cls,
                               *args)


def session_id_from_context(ctx: Any) -> str | None:
    """The client session id of the current request, or None where the transport has none.

    * standalone fastmcp: ``ctx.session_id`` (the ``mcp-session-id`` header on HTTP, else an id
      fastmcp keeps on the session object);
    * mcp 2.x ``MCPServer``: ``ctx.headers["mcp-session-id"]`` (None on stdio);
    * mcp 1.x ``FastMCP``: ``ctx.request_context.request.headers["mcp-session-id"]`` on HTTP.

    The 2026-07-28 MCP spec drops protocol sessions; cursors work without one (field.md section 3).
    """
    if ctx is None:
        return None
    module = type(ctx).__module__ or ""
    if module.startswith("fastmcp"):
        try:
            sid = ctx.session_id
            if sid:
                return str(sid)
        except Exception:
            pass
    headers = None
    try:
        headers = getattr(ctx, "headers", None)
    except Exception:
        headers = None
    if headers is None:
        try:
            request = ctx.request_context.request
            headers = getattr(request, "headers", None)
        except Exception:
            headers = None
    if headers is not None:
        try:
            sid = headers.get("mcp-session-id")
        except Exception:
            sid = None
        if sid:
            return str(sid)
    return None


def current_session_id() -> str | None:
    """The client session of the tool call running now, found without a ``Context`` parameter
    (so a tool that has none still binds its cursors to its client's session); None outside a
    call or where the SDK keeps no reachable request context.

    * standalone fastmcp (3.x, 4.x): ``fastmcp.server.dependencies.get_context()``, then as
      ``session_id_from_context``;
    * mcp 1.x (``FastMCP`` and the low-level ``Server``): the ``request_ctx`` context variable
      of ``mcp.server.lowlevel.server``: its HTTP request's ``mcp-session-id`` header;
    * mcp 2.x ``MCPServer``/low-level ``Server``: keep no context variable: None (pass
      ``session_id_from_context(ctx)`` from a ``Context`` parameter there).

    Only looks into SDK modules already imported: it never imports one.
    """
    deps = sys.modules.get("fastmcp.server.dependencies")
    if deps is not None:
        try:
            sid = session_id_from_context(deps.get_context())
        except Exception:  # no fastmcp call running
            sid = None
        if sid:
            return sid
    lowlevel = sys.modules.get("mcp.server.lowlevel.server")
    var = getattr(lowlevel, "request_ctx", None)
    if var is not None:
        try:
            request_context = var.get(None)
            headers = getattr(getattr(request_context, "request", None), "headers", None)
            sid = headers.get("mcp-session-id") if headers is not None else None
        except Exception:
            sid = None
        if sid:
            return str(sid)
    return None


def _full_text(entry: StoredResult) -> str:
    if entry.kind == "text":
        return entry.text or ""
    if entry.kind == "value":
        return json.dumps(json.loads(entry.text or "null"), indent=2, ensure_ascii=False)
    value: Any = entry.items
    if entry.container is not None:
        value = dict(entry.container)
        value[entry.list_key] = entry.items  # type: ignore[index]
    return render_json(value, indent=2)


def read_stored_result(uri_or_id: str, *, store: ResultStore | None = None,
                       session_id: str | None = None) -> str:
    """The full stored result behind ``uri_or_id`` as text (JSON for records, the str for text).

    Raises ``ResultNotFoundError`` (a ``ValueError``) with the same message whether the result is unknown, expired, or stored
    for another session (so a foreign reader learns nothing).
    """
    store = store if store is not None else default_store()
    entry_id = uri_or_id[len(RESULT_URI_PREFIX):] if uri_or_id.startswith(RESULT_URI_PREFIX) \
        else uri_or_id
    entry = store.get(entry_id)
    if entry is None or (entry.session_id or None) != (session_id or None):
        raise ResultNotFoundError(
            "no stored result at this URI: results expire after some minutes and belong to the "
            "client session that created them; call the tool again")
    return _full_text(entry)


def _context_class(server: Any) -> Any:
    modules = [c.__module__ for c in type(server).__mro__]
    if any(m.startswith("fastmcp") for m in modules):
        from fastmcp import Context  # type: ignore[import-not-found]

        return Context
    if any(m.startswith("mcp.server.mcpserver") for m in modules):
        from mcp.server.mcpserver import Context  # type: ignore[import-not-found]

        return Context
    if any(m.startswith("mcp.server.fastmcp") for m in modules):
        from mcp.server.fastmcp import Context  # type: ignore[import-not-found]

        return Context
    raise TypeError(
        f"register_result_resource needs a FastMCP, MCPServer or fastmcp server, not "
        f"{type(server).__name__}; for a low-level Server call read_stored_result in its "
        "resources/read handler")


def register_result_resource(
    server: Any,
    *,
    store: ResultStore | None = None,
    name: str = "tokenlint_result",
    description: str = "Full result of a paged tool call (see resource_uri in the tool result).",
) -> str:
    """Register the template ``tokenlint://results/{result_id}`` on ``server``; return it.

    ``store`` (default ``default_store()``) is the store ``fit_response`` uses for this server;
    from now on its pages carry ``resource_uri``. Raises ``TypeError`` for an unsupported server.
    """
    store = store if store is not None else default_store()
    context_cls = _context_class(server)
    template = RESULT_URI_PREFIX + "{result_id}"

    def tokenlint_result(result_id: str, ctx: Any) -> str:
        return read_stored_result(result_id, store=store, session_id=session_id_from_context(ctx))

    tokenlint_result.__annotations__ = {"result_id": str, "ctx": context_cls, "return": str}
    server.resource(template, name=name, description=description)(tokenlint_result)
    store.resource_uri_prefix = RESULT_URI_PREFIX
    return template


def resource_link(uri: str, *, name: str = "full result", description: str | None = None,
                  mime_type: str | None = "application/json", size_bytes: int | None = None) -> Any:
    """An MCP ``ResourceLink`` content block for ``uri`` (needs the ``mcp`` package).

    ``type="resource_link"`` is spelled out: mcp 1.x requires it, 2.x accepts it (field.md
    section 3). ``size_bytes`` fills ``Resource.size`` (bytes).
    """
    from mcp import types  # type: ignore[import-not-found]  # lazy: only servers have mcp

    kwargs: dict[str, Any] = {"type": "resource_link", "uri": uri, "name": name}
    if description is not None:
        kwargs["description"] = description
    if mime_type is not None:
        kwargs["mimeType"] = mime_type
    if size_bytes is not None:
        kwargs["size"] = size_bytes
    return types.ResourceLink(**kwargs)


def as_content_blocks(page: Any, *, indent: int | None = 2) -> Any:
    """A page from ``fit_response`` as content blocks: its text, plus a ``ResourceLink`` to the
    full result when it has ``resource_uri``. Anything else is returned unchanged.

    Use it in tools *without* an ``outputSchema`` (content blocks do not validate against one)
    and in low-level servers, which return content blocks anyway.
    """
    if not (isinstance(page, Mapping) and page.get("resource_uri") and "next_action" in page):
        return page
    from mcp import types  # type: ignore[import-not-found]

    text = render_json(dict(page), indent=indent)
    return [types.TextContent(type="text", text=text),
            resource_link(str(page["resource_uri"]),
                          description="the whole result, unpaged (can be large)")]
