"""`tokenlint fix` keeps the file's style: a file that passed `ruff format --check` still passes
after the rewrite (at the project's line length and quote style), and lines fix does not change
keep their bytes. Runs the real ruff (the ``test`` extra installs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from helpers import FIXTURES, write
from tokenlint.fix.style import Style, style_for
from tokenlint.config import load_settings
from tokenlint.fix.driver import fix_paths
from tokenlint.fix.write import write_changes

pytestmark = pytest.mark.slow

SETTINGS = load_settings(None, {})


def _ruff(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=cwd, capture_output=True, text=True)


def _fix(root) -> list[str]:
    """Run fix on ``root/fixtures`` (cwd ``root``); the displayed paths of the changed files."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        result = fix_paths(["fixtures"], SETTINGS)
        assert write_changes(result.changes) == []
    finally:
        os.chdir(cwd)
    return [c.display for c in result.changes if c.display.endswith(".py")]


def _half(share: int):
    """A ``shutil.copytree`` ignore keeping every other fixture file and package (by sorted
    name, ``share`` 0 or 1) and leaving out ``bad_input``."""
    entries = sorted(p.name for p in FIXTURES.iterdir() if p.name != "bad_input" and (p.is_dir() or p.suffix == ".py"))
    kept = set(entries[share::2])

    def ignore(directory, names):
        if os.path.samefile(directory, FIXTURES):
            return [n for n in names if n == "bad_input" or (n in entries and n not in kept)]
        return []
    return ignore


@pytest.mark.parametrize(("config", "share"), [
    ("", None),  # black's and ruff's defaults: 88 chars, double quotes; every fixture
    ('[tool.ruff]\nline-length = 120\n\n[tool.ruff.format]\nquote-style = "single"\n', 0),
    ("[tool.black]\nline-length = 100\n", 1),
], ids=["defaults", "ruff-120-single", "black-100"])
def test_formatted_fixtures_stay_formatted(tmp_path, config, share):
    """Every fixture, first formatted by ruff at the project's settings, passes
    `ruff format --check` after fix rewrote it. The defaults run over every fixture; the two
    other settings each over one half of them (alternate files by name), so that each fixture is
    rewritten at two settings within the suite's time budget."""
    (tmp_path / ".git").mkdir()  # the project root: style lookups stop here
    if config:
        (tmp_path / "pyproject.toml").write_text(config)
    if "black" in config:  # ruff reads [tool.ruff] only: give it black's line length
        (tmp_path / "ruff.toml").write_text("line-length = 100\n")
    ignore = shutil.ignore_patterns("bad_input") if share is None else _half(share)
    shutil.copytree(FIXTURES, tmp_path / "fixtures", ignore=ignore)
    done = _ruff("format", "--no-cache", "fixtures", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _ruff("format", "--check", "--no-cache", "fixtures", cwd=tmp_path).returncode == 0
    changed = _fix(tmp_path)
    assert len(changed) >= (40 if share is None else 20)
    check = _ruff("format", "--check", "--no-cache", *changed, cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr


def test_style_is_read_from_the_nearest_formatter_config(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, "pyproject.toml", '[tool.ruff]\nline-length = 99\n[tool.ruff.format]\nquote-style = "single"\n')
    write(tmp_path, "a/pyproject.toml", "[project]\nname = 'a'\n")  # no formatter table: skipped
    write(tmp_path, "b/ruff.toml", "line-length = 79\n")
    write(tmp_path, "c/pyproject.toml", "[tool.black]\nline-length = 110\n")
    assert style_for(write(tmp_path, "a/s.py", "")) == Style(99, "'")
    assert style_for(write(tmp_path, "b/s.py", "")) == Style(79, '"')
    assert style_for(write(tmp_path, "c/s.py", "")) == Style(110, '"')
    assert style_for(write(tmp_path / "d", "s.py", "")) == Style(99, "'")
    assert style_for(write(tmp_path.parent / "elsewhere", "s.py", "")) in (Style(), Style(99, "'"))


SOURCE = textwrap.dedent('''\
    import sqlite3
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP( 'db' )
    conn   = sqlite3.connect("shop.db")   # odd spacing, kept


    @mcp.tool()
    def list_orders(region:str) -> list:
        rows = conn.execute( "SELECT * FROM orders WHERE region = ?", (region,) ).fetchall()
        return rows


    @mcp.tool()
    def ping( ) -> str:
        return   'pong'
''')


def test_lines_fix_does_not_change_keep_their_bytes(tmp_path):
    """Only the signature, the return and the import change; odd spacing elsewhere is kept."""
    (tmp_path / ".git").mkdir()
    path = write(tmp_path, "fixtures/server.py", SOURCE)
    _fix(tmp_path)
    new = path.read_text()
    old_lines, new_lines = SOURCE.splitlines(), new.splitlines()
    removed = [line for line in old_lines if line not in new_lines]
    assert removed == ["def list_orders(region:str) -> list:", "    return rows"]
    added = [line for line in new_lines if line not in old_lines]
    assert added == [
        "from tokenlint.runtime import (",
        "    Cursor,",
        "    Paged,",
        "    computed_once,",
        "    fit_response,",
        "    register_result_resource,",
        ")",
        "@computed_once",
        "def list_orders(region:str, cursor: Cursor = None) -> Paged[list]:",
        '    """Long results are paged: follow next_action for the rest."""',
        "    return fit_response(",
        "        rows,",
        '        tool="list_orders",',
        '        arguments={"region": region},',
        "        cursor=cursor,",
        "        max_tokens=10_000,",
        "    )",
        "register_result_resource(mcp)",
    ]
