"""A small project that exercises every level of every report format (import from tests).

``server.py`` has one tool per risk level that carries a finding: HIGH (a whole query),
MEDIUM (a fixed LIMIT with no continuation) and NONE with a costly definition (TL401, which
is a notice); ``broken.py`` is a syntax error (TL001, outside any tool).
"""

from __future__ import annotations

from pathlib import Path

from helpers import write

PADDING = "".join(
    f"    Note {i}: this paragraph pads the description far beyond the definition budget.\n" for i in range(60)
)

SERVER = f'''\
import sqlite3

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shop")


@mcp.tool()
def list_orders() -> list:
    """Every order."""
    conn = sqlite3.connect("shop.db")
    return conn.execute("SELECT * FROM orders").fetchall()


@mcp.tool()
def recent_orders() -> list:
    """The 20 latest orders, newest first."""
    conn = sqlite3.connect("shop.db")
    return conn.execute("SELECT * FROM orders ORDER BY id DESC LIMIT 20").fetchall()


@mcp.tool()
def ping() -> str:
    """Answer pong: checks that the shop server is up.

{PADDING}    """
    return "pong"
'''

BROKEN = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\ndef broken(:\n    pass\n"


def make_project(root: Path) -> Path:
    """Write the project under ``root`` and return ``root``."""
    write(root, "server.py", SERVER)
    write(root, "broken.py", BROKEN)
    return root
