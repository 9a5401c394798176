"""Fixture server: mcp 2.x low-level ``Server(on_call_tool=...)`` dispatching on the name."""

from __future__ import annotations

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

import runtime_fixture_data as common
import runtime_fixture_lowlevel as lowlevel_common
from tokenlint.runtime import RESULT_URI_PREFIX, CursorError, read_stored_result

common.STORE.resource_uri_prefix = RESULT_URI_PREFIX


async def on_list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name=name, input_schema=schema)
                                        for name, schema in lowlevel_common.TOOLS.items()])


async def on_call_tool(ctx, params) -> types.CallToolResult:
    try:
        text = lowlevel_common.dispatch(params.name, params.arguments)
    except CursorError as err:
        return types.CallToolResult(content=[types.TextContent(type="text", text=str(err))],
                                    is_error=True)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


async def on_list_resource_templates(ctx, params) -> types.ListResourceTemplatesResult:
    return types.ListResourceTemplatesResult(resource_templates=[
        types.ResourceTemplate(uri_template=RESULT_URI_PREFIX + "{result_id}",
                               name="tokenlint_result")])


async def on_read_resource(ctx, params) -> types.ReadResourceResult:
    text = read_stored_result(str(params.uri), store=common.STORE)
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=params.uri, text=text)])


server = Server(
    "tokenlint-fixture-lowlevel-sdk2",
    on_list_tools=on_list_tools,
    on_call_tool=on_call_tool,
    on_list_resource_templates=on_list_resource_templates,
    on_read_resource=on_read_resource,
)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
