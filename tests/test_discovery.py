"""Tool discovery on its own: a server as a string → the tools found (name, function, framework).

No analysis, rules or report: a broken discovery branch fails here, by name, instead of as a
diff in the fixtures' JSON snapshot.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tokenlint.discovery.run import discover_module, scan_servers
from tokenlint.source.parsing import parse_source
from tokenlint.source.project import ParsedModule, Project


def discover(source: str) -> list[tuple[str, str, str]]:
    """``(client-visible name, function, framework)`` of every tool ``source`` (one module,
    ``server.py``) defines, in discovery order."""
    text = textwrap.dedent(source)
    path = Path("server.py")
    parsed = parse_source(text, "server.py")
    mod = ParsedModule.build(path, "server.py", parsed.tree, "server", parsed.stmt_lines)
    project = Project({"server": (path, "server.py")}, {path: text}, {})
    project.add(mod)
    tools, _ = discover_module(mod, project, scan_servers([mod], project.aliases))
    return [(t.name, t.function, t.framework) for t in tools]


@pytest.mark.parametrize("decorator", ["@mcp.tool()", "@mcp.tool"])
def test_fastmcp_decorator(decorator):
    assert discover(f"""
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("x")

        {decorator}
        def ping() -> str:
            return "pong"
    """) == [("ping", "ping", "mcp-fastmcp")]


def test_tool_name_argument_is_the_client_visible_name():
    found = discover("""
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool(name="list-users")
        def users() -> list:
            return []
    """)
    assert [(name, function) for name, function, _ in found] == [("list-users", "users")]


def test_add_tool_registers_a_function():
    found = discover("""
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("x")

        def ping() -> str:
            return "pong"

        mcp.add_tool(ping)
    """)
    assert [name for name, _, _ in found] == ["ping"]


def test_a_home_made_fastmcp_class_is_no_server():
    assert discover("""
        class FastMCP:
            def tool(self):
                return lambda f: f
        mcp = FastMCP()

        @mcp.tool()
        def ping() -> str:
            return "pong"
    """) == []


def test_lowlevel_dispatch_branches_are_tools():
    found = discover("""
        from mcp.server.lowlevel import Server
        server = Server("x")

        @server.call_tool()
        async def call_tool(name: str, arguments: dict):
            if name == "ping":
                return "pong"
            elif name == "echo":
                return arguments["text"]
            raise ValueError(name)
    """)
    assert sorted(name for name, _, _ in found) == ["echo", "ping"]
