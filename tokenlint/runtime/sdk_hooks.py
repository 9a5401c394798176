"""What ``register_result_resource`` installs on each SDK's server (``resources`` says what for).

One ``tools/call`` hook, ``_handle``, adapted to each SDK's call path:

* mcp 1.x low-level ``Server`` (also under mcp 1.x ``FastMCP``, as ``server._mcp_server``): the
  handler in ``server.request_handlers[types.CallToolRequest]`` is wrapped (the SDK has no
  middleware); it returns a ``ServerResult`` around a ``CallToolResult``;
* mcp 2.x low-level ``Server`` (also under ``MCPServer``, as ``server._lowlevel_server``): the
  ``"tools/call"`` entry of ``Server.get_request_handler`` is replaced through
  ``Server.add_request_handler`` by a wrapper (after the SDK validated the params); it returns a
  ``CallToolResult`` model or its dict;
* standalone fastmcp 3.x/4.x: a ``fastmcp.server.middleware.Middleware`` with ``on_call_tool``
  (fastmcp's documented hook), around a ``ToolResult``.

Per call, the hook (1) serves a continuation from the result store without running the tool when
an earlier call recorded how (``once.serve_call``; computed once for low-level tools, whose
branches cannot carry ``@computed_once``), (2) collects the stored results the call served pages
of (``links.collecting``) and appends one ``resource_link`` block per result to the content of a
successful result, (3) on mcp 2.x, publishes the client session to the runtime
(``resources._SESSION``) and answers a ``CursorError`` (expired, foreign, edited cursor) with an
``isError`` result carrying its message, as mcp 1.x does for any exception of a tool.

For low-level servers, ``resources/read``, ``resources/templates/list`` and (when missing)
``resources/list`` handlers answer for ``RESULT_URI_PREFIX`` and delegate everything else to the
server's own handlers.

Imports the SDK lazily: only the functions of the server's SDK run.
"""

from __future__ import annotations

import importlib
from typing import Any, Awaitable, Callable, Mapping

from .cursors import CursorError
from .links import FullResultLink, collecting
from .once import RUN_TOOL, calling, serve_call

__all__ = ["server_kind", "hook_tools_call", "serve_lowlevel_resources", "sdk_module"]


def sdk_module(name: str) -> Any:
    """The SDK module ``name`` (``"mcp.types"``, ``"fastmcp"``, ...), imported, typed ``Any``.

    This code serves mcp 1.x and 2.x and fastmcp 3.x and 4.x, whose types differ (``isError`` /
    ``is_error``, ``uriTemplate`` / ``uri_template``, result unions): no one major's annotations
    can check it, so the type checker sees the SDK as ``Any``. Raises ``ImportError`` when the
    SDK is not installed (only a server of that SDK calls it).
    """
    return importlib.import_module(name)


def server_kind(server: Any) -> str:
    """``"fastmcp"`` (standalone), ``"mcpserver"`` (mcp 2.x), ``"mcp-fastmcp"`` (mcp 1.x),
    ``"lowlevel-v1"``, ``"lowlevel-v2"``; raises ``TypeError`` for anything else."""
    modules = [c.__module__ or "" for c in type(server).__mro__]
    if any(m.startswith("fastmcp") for m in modules):
        return "fastmcp"
    if any(m.startswith("mcp.server.mcpserver") for m in modules):
        return "mcpserver"
    if any(m.startswith("mcp.server.fastmcp") for m in modules):
        return "mcp-fastmcp"
    if any(m.startswith("mcp.server.lowlevel") for m in modules):
        if isinstance(getattr(server, "request_handlers", None), dict):
            return "lowlevel-v1"
        if hasattr(server, "add_request_handler"):
            return "lowlevel-v2"
    raise TypeError(
        f"register_result_resource needs an MCP server (FastMCP, MCPServer, fastmcp's FastMCP "
        f"or a low-level Server), not {type(server).__name__}")


async def _handle(call_next: Callable[[], Awaitable[Any]], *, marker: str, tool: str,
                  arguments: Mapping[str, Any], session_id: str | None,
                  single_text: Callable[[Any], str | None], text_result: Callable[[str], Any],
                  add_links: Callable[[Any, list[FullResultLink]], Any], links: bool) -> Any:
    """One ``tools/call`` through the hook (module docstring). ``single_text(result)``: the
    text of a successful result made of one text block and nothing else (None otherwise);
    ``text_result(text)``: such a result; ``add_links``: the result with link blocks added."""
    with collecting(links) as noted:
        page = serve_call(marker, tool, arguments, session_id)
        if page is not RUN_TOOL:
            result = text_result(page)
        else:
            with calling(marker, arguments) as settle:
                result = await call_next()
                text = single_text(result)
                settle(lambda returned: isinstance(returned, str) and returned == text)
    return add_links(result, noted) if noted else result


def _new_links(content: list[Any], noted: list[FullResultLink]) -> list[FullResultLink]:
    """The links whose URI is not in ``content`` already (a tool that built its own, e.g. with
    ``as_content_blocks``)."""
    have = {str(_get(block, "uri")) for block in content if _get(block, "type") == "resource_link"}
    return [link for link in noted if link.uri not in have]


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)


def _single_text(result: Any, error_keys: tuple[str, ...], structured_keys: tuple[str, ...]) -> str | None:
    if result is None or any(_get(result, k) for k in error_keys) \
            or any(_get(result, k) is not None for k in structured_keys):
        return None
    content = _get(result, "content")
    if not isinstance(content, list) or len(content) != 1 or _get(content[0], "type") != "text":
        return None
    text = _get(content[0], "text")
    return text if isinstance(text, str) else None


def _with_links(result: Any, noted: list[FullResultLink], error_keys: tuple[str, ...]) -> Any:
    """``result`` (a ``CallToolResult``, ``ToolResult`` or their dict) with a link block per new
    link appended to its content; an error result is left alone."""
    content = _get(result, "content")
    if not isinstance(content, list) or any(_get(result, k) for k in error_keys):
        return result
    new = _new_links(content, noted)
    if not new:
        return result
    if isinstance(result, dict):
        result["content"] = [*content, *(link.as_wire() for link in new)]
    else:
        result.content = [*content, *(link.as_block() for link in new)]
    return result


def hook_tools_call(server: Any, kind: str, *, marker: str, links: bool) -> None:
    """Install the ``tools/call`` hook on ``server`` of SDK ``kind`` (``server_kind``).

    Raises ``ValueError`` for a low-level mcp 1.x server with no ``call_tool`` handler yet (its
    decorators must run first)."""
    if kind == "fastmcp":
        server.add_middleware(_fastmcp_middleware(marker, links))
    elif kind in ("mcp-fastmcp", "lowlevel-v1"):
        _hook_v1(server._mcp_server if kind == "mcp-fastmcp" else server, marker, links)
    else:
        _hook_v2(server._lowlevel_server if kind == "mcpserver" else server, marker, links)


def _hook_v1(lowlevel: Any, marker: str, links: bool) -> None:
    types = sdk_module("mcp.types")

    from .resources import current_session_id

    original = lowlevel.request_handlers.get(types.CallToolRequest)
    if original is None:
        raise ValueError("register_result_resource(server) must come after the server's "
                         "@server.call_tool() handler (mcp 1.x registers handlers with decorators)")
    errors = ("isError",)

    def single_text(result: Any) -> str | None:
        return _single_text(getattr(result, "root", result), errors, ("structuredContent",))

    def text_result(text: str) -> Any:
        return types.ServerResult(types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], isError=False))

    def add_links(result: Any, noted: list[FullResultLink]) -> Any:
        _with_links(getattr(result, "root", result), noted, errors)
        return result

    async def call_tool(req: Any) -> Any:
        return await _handle(lambda: original(req), marker=marker, tool=req.params.name,
                             arguments=req.params.arguments or {},
                             session_id=current_session_id(), single_text=single_text,
                             text_result=text_result, add_links=add_links, links=links)

    lowlevel.request_handlers[types.CallToolRequest] = call_tool


def _hook_v2(lowlevel: Any, marker: str, links: bool) -> None:
    types = sdk_module("mcp.types")

    from .resources import session_id_from_context, session_of_call

    entry = lowlevel.get_request_handler("tools/call")
    if entry is None:
        raise ValueError("register_result_resource(server) needs the server's on_call_tool handler")
    errors, structured = ("is_error", "isError"), ("structured_content", "structuredContent")

    def text_result(text: str) -> Any:
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    async def call_tool(ctx: Any, params: Any) -> Any:
        session_id = session_id_from_context(ctx)
        with session_of_call(session_id):
            try:
                return await _handle(lambda: entry.handler(ctx, params), marker=marker,
                                     tool=params.name, arguments=params.arguments or {},
                                     session_id=session_id,
                                     single_text=lambda r: _single_text(r, errors, structured),
                                     text_result=text_result,
                                     add_links=lambda r, noted: _with_links(r, noted, errors),
                                     links=links)
            except CursorError as err:
                # a tool execution error the model must read (MCP server/tools, "Error
                # Handling"); the mcp 2.x low-level Server would send any exception as a
                # JSON-RPC error
                return types.CallToolResult(
                    content=[types.TextContent(type="text", text=str(err))], is_error=True)

    lowlevel.add_request_handler("tools/call", entry.params_type, call_tool)


def _fastmcp_middleware(marker: str, links: bool) -> Any:
    from fastmcp.server.middleware import Middleware

    from .resources import current_session_id

    errors = ("is_error", "isError")

    class ResultLinks(Middleware):
        """tokenlint: links to full results (and their sizes) on paged tool results."""

        async def on_call_tool(self, context: Any, call_next: Any) -> Any:
            message = context.message
            # fastmcp tools carry ``@computed_once`` where it applies; a ToolResult is not
            # rebuilt here (single_text None: the tool always runs)
            return await _handle(lambda: call_next(context), marker=marker, tool=message.name,
                                 arguments=message.arguments or {},
                                 session_id=current_session_id(),
                                 single_text=lambda r: None, text_result=lambda t: t,
                                 add_links=lambda r, noted: _with_links(r, noted, errors),
                                 links=links)

    return ResultLinks()


# -- resources on low-level servers ------------------------------------------------------------

def serve_lowlevel_resources(server: Any, kind: str, read: Callable[[str, Any], tuple[str, str]],
                             template: str, name: str, description: str) -> None:
    """Answer ``resources/read`` of ``template``'s URIs on a low-level server with ``read(uri,
    ctx)`` -> ``(text, mime_type)``, list the template, and delegate other URIs to the server's
    own handlers. ``ctx``: the SDK's request context (mcp 2.x) or None (mcp 1.x: the runtime
    finds the session through ``current_session_id``)."""
    prefix = template[: template.index("{")]
    if kind == "lowlevel-v1":
        _resources_v1(server, read, prefix, template, name, description)
    else:
        _resources_v2(server, read, prefix, template, name, description)


def _resources_v1(server: Any, read: Any, prefix: str, template: str, name: str,
                  description: str) -> None:
    types = sdk_module("mcp.types")

    handlers = server.request_handlers
    their_read = handlers.get(types.ReadResourceRequest)
    their_templates = handlers.get(types.ListResourceTemplatesRequest)
    ours = types.ResourceTemplate(uriTemplate=template, name=name, description=description)

    async def read_resource(req: Any) -> Any:
        uri = str(req.params.uri)
        if not uri.startswith(prefix) and their_read is not None:
            return await their_read(req)
        text, mime = read(uri, None)
        return types.ServerResult(types.ReadResourceResult(contents=[
            types.TextResourceContents(uri=req.params.uri, text=text, mimeType=mime)]))

    async def list_templates(req: Any) -> Any:
        listed: list[Any] = []
        if their_templates is not None:
            theirs = await their_templates(req)
            listed = list(getattr(theirs, "root", theirs).resourceTemplates)
        return types.ServerResult(types.ListResourceTemplatesResult(resourceTemplates=[*listed, ours]))

    async def list_resources(req: Any) -> Any:
        return types.ServerResult(types.ListResourcesResult(resources=[]))

    handlers[types.ReadResourceRequest] = read_resource
    handlers[types.ListResourceTemplatesRequest] = list_templates
    handlers.setdefault(types.ListResourcesRequest, list_resources)


def _resources_v2(server: Any, read: Any, prefix: str, template: str, name: str,
                  description: str) -> None:
    types = sdk_module("mcp.types")

    their_read = server.get_request_handler("resources/read")
    their_templates = server.get_request_handler("resources/templates/list")
    ours = types.ResourceTemplate(uriTemplate=template, name=name, description=description)

    async def read_resource(ctx: Any, params: Any) -> Any:
        uri = str(params.uri)
        if not uri.startswith(prefix) and their_read is not None:
            return await their_read.handler(ctx, params)
        text, mime = read(uri, ctx)
        return types.ReadResourceResult(contents=[
            types.TextResourceContents(uri=params.uri, text=text, mimeType=mime)])

    async def list_templates(ctx: Any, params: Any) -> Any:
        listed: list[Any] = []
        if their_templates is not None:
            theirs = await their_templates.handler(ctx, params)
            listed = list(_get(theirs, "resource_templates") or _get(theirs, "resourceTemplates") or [])
        return types.ListResourceTemplatesResult(resourceTemplates=[*listed, ours])

    async def list_resources(ctx: Any, params: Any) -> Any:
        return types.ListResourcesResult(resources=[])

    server.add_request_handler("resources/read", types.ReadResourceRequestParams, read_resource)
    server.add_request_handler("resources/templates/list", types.PaginatedRequestParams, list_templates)
    if server.get_request_handler("resources/list") is None:
        server.add_request_handler("resources/list", types.PaginatedRequestParams, list_resources)
