"""Full results as MCP resources, ResourceLink blocks, and the client session of a request.

``register_result_resource(server)`` (which ``tokenlint fix`` adds once per server it rewrites
tools of) makes the ``resource_uri`` of every page readable with ``resources/read`` at
``tokenlint://results/{result_id}``, and makes every paged response carry a ``resource_link``
content block to it, sized in bytes and tokens (``links``). It works with:

* mcp 1.x ``mcp.server.fastmcp.FastMCP`` and mcp 2.x ``mcp.server.mcpserver.MCPServer``: a
  resource template, and a wrapper of the low-level ``tools/call`` handler under it;
* standalone ``fastmcp.FastMCP`` (3.x on mcp 1.x, 4.x on mcp 2.x): a resource template, and a
  fastmcp ``Middleware`` (``on_call_tool``);
* the low-level ``mcp.server.lowlevel.Server`` of mcp 1.x and 2.x: ``resources/read``,
  ``resources/templates/list`` (and an empty ``resources/list`` when the server has none, so the
  ``resources`` capability is declared) that answer for ``tokenlint://results/`` URIs and hand
  every other URI to the server's own handlers, and a wrapper of its ``tools/call`` handler.
  Call it after the server's handlers are registered (mcp 1.x registers them with decorators).

The ``tools/call`` wrapper also serves a continuation of a low-level tool from the store without
running the handler (``once.serve_call``: computed once), and on mcp 2.x tells the runtime the
client session (``current_session_id``), which mcp 2.x keeps in no context variable.

Access control: result ids are 128-bit random (unguessable), and a result stored for one client
session is never served to another: the reader's session (``session_id_from_context``) must equal
the one the result was stored with. Transports without sessions (stdio: one client per process)
bind to "no session".
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Mapping

from .rendering import render_json
from .links import LINKS_ENV, full_result_text, links_enabled
from .sdk_errors import flavoured
from .sdk_hooks import sdk_module
from .store import ResultKind, ResultStore, default_store

__all__ = ["ResultNotFoundError", "RESULT_URI_PREFIX", "register_result_resource", "read_stored_result",
           "resource_link", "as_content_blocks", "session_id_from_context", "current_session_id",
           "LINKS_ENV"]

#: Scheme and path of stored-result URIs; the entry id follows.
RESULT_URI_PREFIX = "tokenlint://results/"

#: The client session of the ``tools/call`` running now, set by the mcp 2.x hook (``sdk_hooks``).
_SESSION: ContextVar[str | None] = ContextVar("tokenlint_session", default=None)


@contextmanager
def session_of_call(session_id: str | None) -> Iterator[None]:
    """Publish ``session_id`` as the client session of the ``tools/call`` running inside the
    ``with`` block (``current_session_id`` reads it): the mcp 2.x hook (``sdk_hooks``) sets it,
    since mcp 2.x keeps no request context variable of its own."""
    token = _SESSION.set(session_id)
    try:
        yield
    finally:
        _SESSION.reset(token)


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
    * mcp 2.x low-level ``ServerRequestContext``: ``ctx.request.headers["mcp-session-id"]``;
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
    if headers is None:
        headers = getattr(getattr(ctx, "request", None), "headers", None)
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
    * mcp 2.x ``MCPServer``/low-level ``Server``: keep no context variable; the ``tools/call``
      hook ``register_result_resource`` installs sets one of the runtime's (else pass
      ``session_id_from_context(ctx)`` from a ``Context`` parameter there).

    Only looks into SDK modules already imported: it never imports one.
    """
    sid = _SESSION.get()
    if sid:
        return sid
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


def read_stored_result(uri_or_id: str, *, store: ResultStore | None = None,
                       session_id: str | None = None) -> str:
    """The full stored result behind ``uri_or_id`` as text: the str for text, compact JSON
    (``json.dumps`` defaults) for records and values (``links.full_result_text``; its UTF-8
    length is the ``size`` of the result's resource link).

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
    return full_result_text(entry)


def _context_class(kind: str) -> Any:
    """The ``Context`` class a resource function of a ``kind`` server is given (``sdk_hooks``)."""
    if kind == "fastmcp":
        return sdk_module("fastmcp").Context
    if kind == "mcpserver":
        return sdk_module("mcp.server.mcpserver").Context
    return sdk_module("mcp.server.fastmcp").Context


#: Servers ``register_result_resource`` already equipped (by ``id``; a server lives as long as
#: its process in practice, and ``__tokenlint_result_resource__`` marks those that allow it).
_REGISTERED: set[int] = set()


def register_result_resource(
    server: Any,
    *,
    store: ResultStore | None = None,
    name: str = "tokenlint_result",
    description: str = "Full result of a paged tool call (see resource_uri in the tool result).",
    links: bool | None = None,
) -> str:
    """Make full results of paged tool calls readable on ``server`` and linked from each page;
    return the URI template ``tokenlint://results/{result_id}``.

    ``server``: mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer``, standalone fastmcp ``FastMCP``, or a
    low-level ``Server`` of mcp 1.x or 2.x (after its handlers are registered). ``store`` (default
    ``default_store()``) is the store ``fit_response`` uses for this server; from now on its pages
    carry ``resource_uri``. ``links``: append a ``resource_link`` block (MCP 2025-06-18,
    server/tools) to each paged response, ``size`` in bytes and tokens in its description and
    ``_meta`` (``links``); default: on unless ``TOKENLINT_RESULT_LINKS`` is ``0``/``off``/
    ``false``/``no``. Idempotent: a second call for the same server changes nothing (``fix`` adds
    one per module, and a server may be shared by several modules).

    Raises ``TypeError`` for an unsupported server, ``ValueError`` for an mcp 1.x low-level server
    whose ``@server.call_tool()`` handler is not registered yet.
    """
    from .sdk_hooks import hook_tools_call, serve_lowlevel_resources, server_kind

    template = RESULT_URI_PREFIX + "{result_id}"
    if getattr(server, "__tokenlint_result_resource__", False) or id(server) in _REGISTERED:
        return template
    store = store if store is not None else default_store()
    kind = server_kind(server)
    links = links_enabled() if links is None else links
    if kind.startswith("lowlevel"):
        def read(uri: str, ctx: Any) -> tuple[str, str]:
            session = session_id_from_context(ctx) if ctx is not None else current_session_id()
            text = read_stored_result(uri, store=store, session_id=session)
            entry = store.get(uri[len(RESULT_URI_PREFIX):])
            return text, "text/plain" if entry is not None and entry.kind is ResultKind.TEXT else "application/json"

        serve_lowlevel_resources(server, kind, read, template, name, description)
    else:
        context_cls = _context_class(kind)

        def tokenlint_result(result_id: str, ctx: Any) -> str:
            return read_stored_result(result_id, store=store, session_id=session_id_from_context(ctx))

        tokenlint_result.__annotations__ = {"result_id": str, "ctx": context_cls, "return": str}
        server.resource(template, name=name, description=description)(tokenlint_result)
    # the marker names the server, so a continuation on another replica finds the same recipe
    hook_tools_call(server, kind, marker=f"tokenlint.tools_call:{getattr(server, 'name', '')}",
                    links=links)
    store.resource_uri_prefix = RESULT_URI_PREFIX
    try:
        server.__tokenlint_result_resource__ = True
    except Exception:  # a server class with __slots__
        _REGISTERED.add(id(server))
    return template


def resource_link(uri: str, *, name: str = "full result", description: str | None = None,
                  mime_type: str | None = "application/json", size_bytes: int | None = None) -> Any:
    """An MCP ``ResourceLink`` content block for ``uri`` (needs the ``mcp`` package).

    ``type="resource_link"`` is spelled out: mcp 1.x requires it, 2.x accepts it (field.md
    section 3). ``size_bytes`` fills ``Resource.size`` (bytes).
    """
    types = sdk_module("mcp.types")  # lazy: only servers have mcp

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
    types = sdk_module("mcp.types")

    text = render_json(dict(page), indent=indent)
    return [types.TextContent(type="text", text=text),
            resource_link(str(page["resource_uri"]),
                          description="the whole result, unpaged (can be large)")]
