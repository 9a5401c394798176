"""Fixture server of every high-level SDK, using tokenlint.runtime by hand: ``python sdk_server.py SDK``.

``SDK`` is ``mcp-fastmcp`` (mcp 1.x ``mcp.server.fastmcp.FastMCP``), ``mcpserver`` (mcp 2.x
``mcp.server.mcpserver.MCPServer``) or ``fastmcp`` (standalone ``fastmcp.FastMCP``: 3.x on mcp 1.x,
4.x on mcp 2.x). Every SDK serves the same tools; only the server class, its name and how a tool
turns structured output off differ. The low-level servers are ``lowlevel_sdk1.py`` and
``lowlevel_sdk2.py``.
"""

from __future__ import annotations

import sys
from typing import Any, Optional

from typing_extensions import TypedDict

import runtime_fixture_data as common
from tokenlint.runtime import (
    Paged,
    as_content_blocks,
    register_result_resource,
    session_id_from_context,
)

SDK = sys.argv[1] if len(sys.argv) > 1 else ""
if SDK == "mcp-fastmcp":
    from mcp.server.fastmcp import Context, FastMCP

    mcp: Any = FastMCP("tokenlint-fixture-fastmcp-sdk1", log_level="WARNING")
    FLAVOUR = "sdk1"
    UNSTRUCTURED: dict[str, Any] = {"structured_output": False}
elif SDK == "mcpserver":
    from mcp.server.mcpserver import Context, MCPServer

    mcp = MCPServer("tokenlint-fixture-mcpserver-sdk2", log_level="WARNING")
    FLAVOUR = "sdk2"
    UNSTRUCTURED = {"structured_output": False}
elif SDK == "fastmcp":
    from fastmcp import Context, FastMCP

    mcp = FastMCP("tokenlint-fixture-standalone-fastmcp")
    FLAVOUR = "fastmcp"
    UNSTRUCTURED = {"output_schema": None}
else:
    sys.exit(f"usage: {sys.argv[0]} mcp-fastmcp|mcpserver|fastmcp")

register_result_resource(mcp, store=common.STORE)


class User(TypedDict):
    id: int
    name: str
    email: str
    role: str
    active: bool
    bio: str


@mcp.tool()
def list_users(ctx: Context, n: int = 300, role: Optional[str] = None,
               cursor: Optional[str] = None) -> Paged[list]:
    return common.page_list_users(n, role, cursor, session_id_from_context(ctx))


@mcp.tool()
def list_users_noctx(n: int = 300, cursor: Optional[str] = None) -> Paged[list]:
    """No Context parameter: the runtime finds the session itself (current_session_id)."""
    return common.page_list_users(n, None, cursor, None, tool="list_users_noctx")


@mcp.tool()
def list_users_raw(n: int = 300, role: Optional[str] = None) -> Paged[list]:
    return common.users(n, role)


@mcp.tool(**UNSTRUCTURED)
def list_users_plain(ctx: Context, n: int = 300, cursor: Optional[str] = None):
    return common.page_list_users(n, None, cursor, session_id_from_context(ctx),
                                  tool="list_users_plain")


@mcp.tool(**UNSTRUCTURED)
def list_users_plain_raw(n: int = 300):
    return common.users(n)


@mcp.tool(**UNSTRUCTURED)
def list_users_linked(ctx: Context, n: int = 300, cursor: Optional[str] = None):
    page = common.page_list_users(n, None, cursor, session_id_from_context(ctx),
                                  tool="list_users_linked")
    return as_content_blocks(page)


@mcp.tool()
def typed_users(ctx: Context, n: int = 300, cursor: Optional[str] = None) -> Paged[list[User]]:
    return common.page_list_users(n, None, cursor, session_id_from_context(ctx),
                                  tool="typed_users")


@mcp.tool()
def get_report(ctx: Context, n: int = 300, cursor: Optional[str] = None) -> Paged[dict]:
    return common.page_get_report(n, cursor, session_id_from_context(ctx))


@mcp.tool()
def read_doc(ctx: Context, cursor: Optional[str] = None) -> str:
    return common.page_read_doc(cursor, session_id_from_context(ctx))


@mcp.tool()
def big_records(ctx: Context, cursor: Optional[str] = None) -> Paged[list[dict]]:
    return common.page_big_records(cursor, session_id_from_context(ctx))


@mcp.tool()
def expiring(ctx: Context, cursor: Optional[str] = None) -> Paged[dict]:
    return common.page_expiring(cursor, session_id_from_context(ctx))


@mcp.tool()
def many(ctx: Context, i: int, rows: int = 40, cursor: Optional[str] = None) -> Paged[dict]:
    return common.page_many(i, cursor, session_id_from_context(ctx), rows=min(rows, 2000))


@mcp.tool()
def store_stats() -> dict:
    return common.store_stats()


if __name__ == "__main__":
    common.serve(mcp, FLAVOUR)
