"""A bound made of two of the model's parameters (``count or limit``): which one the analysis
reads must not depend on the order a set happens to iterate in (tests/test_determinism.py)."""

import sqlite3
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("events")
conn = sqlite3.connect("events.db")


@mcp.tool()
def recent(limit: Annotated[int, Field(le=50)] = 20, count: int | None = None) -> list:
    rows = conn.execute("SELECT * FROM events").fetchall()
    return rows[: count or limit]
