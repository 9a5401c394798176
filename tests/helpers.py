"""Helpers shared by the linter's tests (import as ``from helpers import ...``)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    """Create ``tmp/name`` (parents included) holding ``text`` (str as UTF-8, or raw bytes)."""
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


#: One FastMCP tool returning a whole query (TL101 at 10:12, TL201 at 10:5; HIGH).
RISKY_SERVER = """\
import sqlite3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("db")


@mcp.tool()
def list_orders() -> list:
    conn = sqlite3.connect("shop.db")
    return conn.execute("SELECT * FROM orders").fetchall()
"""
