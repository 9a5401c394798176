"""Inline suppressions (``tokenlint.suppress``): parsing the comments, and what they hide."""

from __future__ import annotations

from helpers import check, write
from tokenlint.config import Settings
from tokenlint.suppress import suppressions


def test_codes_per_line():
    text = "a = 1\nb = f()  # tokenlint: ignore[TL101, tl201]\nc = 3  # tokenlint: ignore[TL301]\n"
    assert suppressions(text) == {2: frozenset({"TL101", "TL201"}), 3: frozenset({"TL301"})}


def test_a_bare_ignore_suppresses_nothing():
    assert suppressions("x = f()  # tokenlint: ignore\n") == {}


def test_spacing_and_several_comments_on_a_line():
    text = "x = 1  #tokenlint:ignore[TL101]  # tokenlint: ignore[ TL102 ]\n"
    assert suppressions(text) == {1: frozenset({"TL101", "TL102"})}


def test_text_without_the_marker_is_not_scanned():
    assert suppressions("ignore[TL101]\n" * 3) == {}


SERVER = """\
import sqlite3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("db")


@mcp.tool(){def_comment}
def list_orders() -> list:
    conn = sqlite3.connect("shop.db")
    return conn.execute("SELECT * FROM orders").fetchall(){line_comment}
"""


def _codes(tmp_path, **comments) -> set[str]:
    text = SERVER.format(**{"def_comment": "", "line_comment": "", **comments})
    path = write(tmp_path, "server.py", text)
    return {f.code for f in check([str(path)], Settings()).result.findings}


def test_matching_on_the_finding_line_and_on_the_tool(tmp_path):
    assert _codes(tmp_path) == {"TL101", "TL201"}
    assert _codes(tmp_path, line_comment="  # tokenlint: ignore[TL101]") == {"TL201"}
    assert _codes(tmp_path, def_comment="  # tokenlint: ignore[TL101, TL201]") == set()
    assert _codes(tmp_path, line_comment="  # tokenlint: ignore[TL301]") == {"TL101", "TL201"}
