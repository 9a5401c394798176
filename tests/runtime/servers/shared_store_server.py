"""Fixture server for the shared-store test: one replica of a server whose tools are paged by
``fit_response`` with no ``store=`` argument, as ``tokenlint fix`` writes them. The store is
chosen by the operator through ``TOKENLINT_STORE_URL`` (the test sets a Redis URL).

mcp 1.x ``FastMCP`` or mcp 2.x ``MCPServer``, whichever the venv has; stdio.
"""

from __future__ import annotations

import os
from typing import Optional

try:
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

import runtime_fixture_data as common
from tokenlint.runtime import default_store, fit_response

mcp = Server("tokenlint-fixture-shared-store", log_level="WARNING")


@mcp.tool(structured_output=False)
def list_users(n: int = 300, cursor: Optional[str] = None):
    return fit_response(common.users(n), tool="list_users", arguments={"n": n},
                        cursor=cursor, max_tokens=common.MAX_TOKENS)


@mcp.tool()
def read_doc(cursor: Optional[str] = None) -> str:
    return fit_response(common.document(), tool="read_doc", arguments={}, cursor=cursor,
                        max_tokens=common.MAX_TOKENS)


@mcp.tool()
def whoami() -> dict:
    """This replica's process id and the class of its store."""
    return {"pid": os.getpid(), "store": type(default_store()).__name__}


if __name__ == "__main__":
    mcp.run()
