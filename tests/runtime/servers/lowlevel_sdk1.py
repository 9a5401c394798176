"""Fixture server: mcp 1.x low-level ``Server`` (``@server.call_tool()`` dispatch on the name)."""

from __future__ import annotations

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

import runtime_fixture_data as common
import runtime_fixture_lowlevel as lowlevel_common
from tokenlint.runtime import RESULT_URI_PREFIX, read_stored_result

server: Server = Server("tokenlint-fixture-lowlevel-sdk1")
common.STORE.resource_uri_prefix = RESULT_URI_PREFIX


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name=name, inputSchema=schema)
            for name, schema in lowlevel_common.TOOLS.items()]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=lowlevel_common.dispatch(name, arguments))]


@server.list_resource_templates()
async def list_resource_templates() -> list[types.ResourceTemplate]:
    return [types.ResourceTemplate(uriTemplate=RESULT_URI_PREFIX + "{result_id}",
                                   name="tokenlint_result")]


@server.read_resource()
async def read_resource(uri) -> str:
    return read_stored_result(str(uri), store=common.STORE)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
