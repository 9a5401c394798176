"""Fixture server for the client-profile test: tools paged by ``fit_response`` exactly as
``tokenlint fix`` writes them (``max_tokens=10_000``, no profile in the code); the profile comes
from the operator's ``TOKENLINT_CLIENT``. Structured output on, so every page is sent twice: as
text and as ``structuredContent``. mcp 1.x ``FastMCP`` or mcp 2.x ``MCPServer``; stdio.
"""

from __future__ import annotations

from typing import Optional

try:
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

import runtime_fixture_data as common
from tokenlint.runtime import Paged, fit_response

mcp = Server("tokenlint-fixture-profiles", log_level="WARNING")


@mcp.tool()
def list_users(n: int = 600, cursor: Optional[str] = None) -> Paged[list]:
    return fit_response(common.users(n), tool="list_users", arguments={"n": n}, cursor=cursor,
                        max_tokens=10_000)


@mcp.tool()
def read_doc(cursor: Optional[str] = None) -> str:
    return fit_response(common.document(), tool="read_doc", arguments={}, cursor=cursor,
                        max_tokens=10_000)


if __name__ == "__main__":
    mcp.run()
