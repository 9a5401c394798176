"""Fixture server: standalone ``fastmcp.FastMCP`` (3.x on mcp 1.x, 4.x on mcp 2.x)."""

from __future__ import annotations

from typing import Optional

from typing_extensions import TypedDict

from fastmcp import Context, FastMCP

import runtime_fixture_data as common
from tokenlint.runtime import (
    Paged,
    as_content_blocks,
    register_result_resource,
    session_id_from_context,
)

mcp = FastMCP("tokenlint-fixture-standalone-fastmcp")
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


@mcp.tool(output_schema=None)
def list_users_plain(ctx: Context, n: int = 300, cursor: Optional[str] = None):
    return common.page_list_users(n, None, cursor, session_id_from_context(ctx),
                                  tool="list_users_plain")


@mcp.tool(output_schema=None)
def list_users_plain_raw(n: int = 300):
    return common.users(n)


@mcp.tool(output_schema=None)
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
    common.serve(mcp, "fastmcp")
