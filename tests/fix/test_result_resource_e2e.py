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
import subprocess
from pathlib import Path

import pytest

import runtime_sdk_envs as sdk_envs  # tests/runtime/, on sys.path through tests/fix/conftest.py
from test_computed_once_e2e import _tokenlint

HERE = Path(__file__).resolve().parent

BUDGET_TOKENS = 1000

TOOL = '''

@mcp.tool()
def read_notes() -> str:
    """The whole notes file."""
    return Path(os.environ["ONCE_NOTES"]).read_text(encoding="utf-8")
'''

HTTP_SERVERS = {
    # id: (venv, source)
    "fastmcp-v1": ("mcp1", 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("notes")\n' + TOOL + '''

if __name__ == "__main__":
    mcp.settings.host, mcp.settings.port = "127.0.0.1", int(os.environ["TL_HTTP_PORT"])
    mcp.run(transport="streamable-http")
'''),
    "mcpserver-v2": ("mcp2", 'from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer("notes")\n' + TOOL + '''

if __name__ == "__main__":
    mcp.run(transport="streamable-http", host="127.0.0.1", port=int(os.environ["TL_HTTP_PORT"]))
'''),
    "standalone-fastmcp3": ("mcp1", 'from fastmcp import FastMCP\n\nmcp = FastMCP("notes")\n' + TOOL + '''

if __name__ == "__main__":
    mcp.run(transport="http", host="127.0.0.1", port=int(os.environ["TL_HTTP_PORT"]), show_banner=False)
'''),
    "standalone-fastmcp4": ("mcp2", 'from fastmcp import FastMCP\n\nmcp = FastMCP("notes")\n' + TOOL + '''

if __name__ == "__main__":
    mcp.run(transport="http", host="127.0.0.1", port=int(os.environ["TL_HTTP_PORT"]), show_banner=False)
'''),
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

NOTES = "".join(f"note {i}: the quick brown fox jumps over the lazy dog\n" for i in range(600))


def _header(source: str) -> str:
    return '"""A server with one tool returning a whole file."""\n\nimport os\nfrom pathlib import Path\n\n' + source


@pytest.fixture(scope="module")
def http_servers(tmp_path_factory) -> Path:
    """The servers of HTTP_SERVERS, rewritten by ``tokenlint fix``, and the notes file."""
    root = tmp_path_factory.mktemp("result-resource")
    for server_id, (_, source) in HTTP_SERVERS.items():
        (root / f"{server_id.replace('-', '_')}.py").write_text(_header(source), encoding="utf-8")
    fix = _tokenlint(["fix", "--max-response-tokens", str(BUDGET_TOKENS), "."], cwd=root)
    assert fix.returncode == 0, fix.stderr
    (root / "notes.txt").write_text(NOTES, encoding="utf-8")
    return root


def test_fix_registers_the_result_resource_once_per_server(http_servers):
    for server_id in HTTP_SERVERS:
        code = (http_servers / f"{server_id.replace('-', '_')}.py").read_text(encoding="utf-8")
        name = "server" if server_id.startswith("lowlevel") else "mcp"
        assert code.count(f"\nregister_result_resource({name})\n") == 1, code
        assert "    register_result_resource,\n" in code or "register_result_resource\n" in code, code
    again = _tokenlint(["fix", "--diff", "--max-response-tokens", str(BUDGET_TOKENS), "."], cwd=http_servers)
    assert (again.returncode, again.stdout) == (0, ""), again.stderr


@pytest.mark.parametrize("server_id", list(HTTP_SERVERS))
def test_another_session_cannot_read_the_linked_result(http_servers, server_id, tmp_path):
    if os.environ.get("TOKENLINT_SKIP_E2E"):
        pytest.skip("TOKENLINT_SKIP_E2E is set")
    venv, _ = HTTP_SERVERS[server_id]
    script = http_servers / f"{server_id.replace('-', '_')}.py"
    out = tmp_path / "out.json"
    env = dict(sdk_envs.driver_env(), ONCE_NOTES=str(http_servers / "notes.txt"))
    proc = subprocess.run([str(sdk_envs.ensure_venv(venv)), str(HERE / "session_http_driver.py"),
                           str(script), "read_notes", "{}", str(out)], cwd=str(HERE), env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    seen = json.loads(out.read_text(encoding="utf-8"))
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


def _executed(source: str) -> None:
    """One line per execution of a data source: what the test counts."""
    with Path(os.environ["ONCE_COUNTS"]).open("a", encoding="utf-8") as fh:
        fh.write(source + "\\n")


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


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
'''),
    "lowlevel-v2": ("mcp2", '''import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

NO_ARGS = {"type": "object", "properties": {}}


def _executed(source: str) -> None:
    """One line per execution of a data source: what the test counts."""
    with Path(os.environ["ONCE_COUNTS"]).open("a", encoding="utf-8") as fh:
        fh.write(source + "\\n")


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


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
'''),
}

ROWS = [{"id": i, "body": f"row {i} " + "lorem ipsum " * 8} for i in range(300)]


@pytest.fixture(scope="module")
def lowlevel_servers(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lowlevel-once")
    for server_id, (_, source) in LOWLEVEL.items():
        text = '"""A low-level server whose data sources count their executions."""\n\nimport json\n' \
               "import os\nfrom pathlib import Path\n\n" + source
        (root / f"{server_id.replace('-', '_')}.py").write_text(text, encoding="utf-8")
    fix = _tokenlint(["fix", "--max-response-tokens", str(BUDGET_TOKENS), "."], cwd=root)
    assert fix.returncode == 0, fix.stderr
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
    spec = {"servers": {"rewritten": str(lowlevel_servers / f"{server_id.replace('-', '_')}.py")},
            "env": {"ONCE_NOTES": str(lowlevel_servers / "notes.txt"),
                    "ONCE_ROWS": str(lowlevel_servers / "rows.json"), "ONCE_COUNTS": str(counts)},
            "calls": [{"tool": "read_notes", "args": {}}, {"tool": "list_rows", "args": {}},
                      {"tool": "read_notes", "args": {}}]}
    spec_path, out = tmp_path / "spec.json", tmp_path / "out.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    proc = subprocess.run([str(sdk_envs.ensure_venv(venv)), str(HERE / "fix_e2e_driver.py"),
                           str(spec_path), str(out)], cwd=str(HERE), env=sdk_envs.driver_env(),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    calls = json.loads(out.read_text(encoding="utf-8"))["rewritten"]["calls"]
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
