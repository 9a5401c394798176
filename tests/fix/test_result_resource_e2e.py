"""End-to-end: the full result behind a page, across client sessions; low-level computed once.

``tokenlint fix`` adds ``register_result_resource(<server>)`` to each server it rewrites tools of.
Over stdio, every paged response of fixtures/runnable links its full result, read back whole
(test_fix_e2e.py::test_paged_response_links_its_whole_result). Here:

* over streamable HTTP, two real ``mcp`` clients against one rewritten server per SDK (mcp 1.x
  ``FastMCP``, mcp 2.x ``MCPServer``, standalone fastmcp 3.x and 4.x, the mcp 2.x low-level
  ``Server``; tests/fix/session_http_driver.py): client B's ``resources/read`` of client A's
  link, and B's replay of A's cursor, are refused; A reads its own result whole;
* over stdio, low-level servers of mcp 1.x and 2.x (whose tools are branches of one handler, so
  no ``@computed_once``) run their data source once for all the pages of a call: the
  ``tools/call`` hook serves continuations from the store.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fix_e2e_servers import (
    EXECUTED,
    FASTMCP_HTTP_MAIN,
    FASTMCP_V1_HTTP_MAIN,
    LOWLEVEL_STDIO_MAIN,
    MCPSERVER_HTTP_MAIN,
    NOTES,
    READ_NOTES_TOOL,
    assert_fix_is_idempotent,
    drive_rewritten,
    drive_two_sessions,
    script_name,
    server_header,
    write_and_fix,
)

HTTP_SERVERS = {
    # id: (venv, source)
    "fastmcp-v1": ("mcp1", server_header("fastmcp-v1", "notes") + READ_NOTES_TOOL + FASTMCP_V1_HTTP_MAIN),
    "mcpserver-v2": ("mcp2", server_header("mcpserver-v2", "notes") + READ_NOTES_TOOL + MCPSERVER_HTTP_MAIN),
    "standalone-fastmcp3": ("mcp1", server_header("fastmcp", "notes") + READ_NOTES_TOOL + FASTMCP_HTTP_MAIN),
    "standalone-fastmcp4": ("mcp2", server_header("fastmcp", "notes") + READ_NOTES_TOOL + FASTMCP_HTTP_MAIN),
    "lowlevel-v2": ("mcp2", '''import uvicorn
from mcp import types
from mcp.server import Server, ServerRequestContext

NO_ARGS = {"type": "object", "properties": {}}


async def handle_list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[
        types.Tool(name="read_notes", description="The whole notes file.", input_schema=NO_ARGS),
    ])


async def handle_call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "read_notes":
        text = Path(os.environ["ONCE_NOTES"]).read_text(encoding="utf-8")
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])
    raise ValueError(f"unknown tool: {params.name}")


server = Server("notes", on_list_tools=handle_list_tools, on_call_tool=handle_call_tool)

if __name__ == "__main__":
    uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=int(os.environ["TL_HTTP_PORT"]))
'''),
}

def _header(source: str) -> str:
    return '"""A server with one tool returning a whole file."""\n\nimport os\nfrom pathlib import Path\n\n' + source


@pytest.fixture(scope="module")
def http_servers(tmp_path_factory) -> Path:
    """The servers of HTTP_SERVERS, rewritten by ``tokenlint fix``, and the notes file."""
    root = tmp_path_factory.mktemp("result-resource")
    write_and_fix(root, {server_id: _header(source) for server_id, (_, source) in HTTP_SERVERS.items()})
    (root / "notes.txt").write_text(NOTES, encoding="utf-8")
    return root


def test_fix_registers_the_result_resource_once_per_server(http_servers):
    for server_id in HTTP_SERVERS:
        code = (http_servers / script_name(server_id)).read_text(encoding="utf-8")
        name = "server" if server_id.startswith("lowlevel") else "mcp"
        assert code.count(f"\nregister_result_resource({name})\n") == 1, code
        assert "    register_result_resource,\n" in code or "register_result_resource\n" in code, code
    assert_fix_is_idempotent(http_servers)


@pytest.mark.parametrize("server_id", list(HTTP_SERVERS))
def test_another_session_cannot_read_the_linked_result(http_servers, server_id, tmp_path):
    if os.environ.get("TOKENLINT_SKIP_E2E"):
        pytest.skip("TOKENLINT_SKIP_E2E is set")
    venv, _ = HTTP_SERVERS[server_id]
    seen = drive_two_sessions(venv, http_servers / script_name(server_id), http_servers / "notes.txt", tmp_path)
    assert seen["first_paged"]
    link = seen["link"]
    assert link is not None and link["uri"].startswith("tokenlint://results/"), seen
    assert link["size"] == len(NOTES.encode("utf-8"))
    assert not seen["foreign_read"]["ok"], seen
    assert "no stored result at this URI" in seen["foreign_read"]["text"]
    assert seen["own_read"] == {"ok": True, "text": NOTES}
    # the cursor is bound to the session too, on every SDK (low-level mcp 2.x: through the hook)
    assert seen["foreign"]["is_error"], seen
    assert "cursor belongs to another client session" in seen["foreign"]["text"]
    assert not seen["own"]["is_error"], seen


# -- low-level servers: one execution of the data source for all pages -------------------------

LOWLEVEL = {
    "lowlevel-v1": ("mcp1", '''import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

server = Server("once")
NO_ARGS = {"type": "object", "properties": {}}
''' + EXECUTED + '''

@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="read_notes", description="The whole notes file.", inputSchema=NO_ARGS),
        types.Tool(name="list_rows", description="Rows as JSON.", inputSchema=NO_ARGS),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "read_notes":
        _executed("read_notes")
        text = Path(os.environ["ONCE_NOTES"]).read_text(encoding="utf-8")
        return [types.TextContent(type="text", text=text)]
    elif name == "list_rows":
        _executed("list_rows")
        rows = json.loads(Path(os.environ["ONCE_ROWS"]).read_text(encoding="utf-8"))
        return [types.TextContent(type="text", text=json.dumps(rows))]
    raise ValueError(f"unknown tool: {name}")
''' + LOWLEVEL_STDIO_MAIN),
    "lowlevel-v2": ("mcp2", '''import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

NO_ARGS = {"type": "object", "properties": {}}
''' + EXECUTED + '''

async def handle_list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[
        types.Tool(name="read_notes", description="The whole notes file.", input_schema=NO_ARGS),
        types.Tool(name="list_rows", description="Rows as JSON.", input_schema=NO_ARGS),
    ])


async def handle_call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    match params.name:
        case "read_notes":
            _executed("read_notes")
            text = Path(os.environ["ONCE_NOTES"]).read_text(encoding="utf-8")
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)])
        case "list_rows":
            _executed("list_rows")
            rows = json.loads(Path(os.environ["ONCE_ROWS"]).read_text(encoding="utf-8"))
            return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(rows))])
    raise ValueError(f"unknown tool: {params.name}")


server = Server("once", on_list_tools=handle_list_tools, on_call_tool=handle_call_tool)
''' + LOWLEVEL_STDIO_MAIN),
}

ROWS = [{"id": i, "body": f"row {i} " + "lorem ipsum " * 8} for i in range(300)]


@pytest.fixture(scope="module")
def lowlevel_servers(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lowlevel-once")
    header = ('"""A low-level server whose data sources count their executions."""\n\nimport json\n'
              "import os\nfrom pathlib import Path\n\n")
    fix = write_and_fix(root, {server_id: header + source for server_id, (_, source) in LOWLEVEL.items()})
    assert "Fixed 4 tools in 2 files." in fix.stderr, fix.stderr
    (root / "notes.txt").write_text(NOTES, encoding="utf-8")
    (root / "rows.json").write_text(json.dumps(ROWS), encoding="utf-8")
    return root


@pytest.mark.parametrize("server_id", list(LOWLEVEL))
def test_lowlevel_tool_runs_once_for_all_its_pages(lowlevel_servers, server_id, tmp_path):
    if os.environ.get("TOKENLINT_SKIP_E2E"):
        pytest.skip("TOKENLINT_SKIP_E2E is set")
    venv, _ = LOWLEVEL[server_id]
    counts = tmp_path / "counts.txt"
    env = {"ONCE_NOTES": str(lowlevel_servers / "notes.txt"),
           "ONCE_ROWS": str(lowlevel_servers / "rows.json"), "ONCE_COUNTS": str(counts)}
    calls = drive_rewritten(venv, lowlevel_servers / script_name(server_id), env,
                            [{"tool": "read_notes", "args": {}}, {"tool": "list_rows", "args": {}},
                             {"tool": "read_notes", "args": {}}], tmp_path)
    for call in calls:
        assert call["exception"] is None, call
        assert not any(p["is_error"] for p in call["pages"]), call
        assert len(call["pages"]) >= 3, len(call["pages"])  # paged: several pages each
        link = call["pages"][0]["links"][0]
        read = call["reads"][link["uri"]]["text"]
        assert read == NOTES if call["tool"] == "read_notes" else json.loads(read) == ROWS
    # one execution per call, whatever its number of pages (read_notes called twice)
    executed = counts.read_text(encoding="utf-8").splitlines()
    assert sorted(executed) == ["list_rows", "read_notes", "read_notes"], executed
