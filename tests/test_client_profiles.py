"""`--client` / `client = ...`: the client profile sets check's budget message and the limits fix
writes (``client="..."`` in each runtime call, which the runtime enforces: see
tests/runtime/test_runtime_profiles.py)."""

from __future__ import annotations

import re
import textwrap


from helpers import write
from tokenlint.config import CLIENT_NAMES, load_settings
from tokenlint.runtime.limits import PROFILES

SERVER = textwrap.dedent('''\
    import sqlite3
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("orders")


    @mcp.tool()
    def list_orders() -> list:
        return sqlite3.connect("shop.db").execute("SELECT * FROM orders").fetchall()
    ''')


def test_the_cli_names_are_the_runtime_profiles():
    assert CLIENT_NAMES == tuple(PROFILES)


def test_fix_writes_the_client_into_each_call_and_the_tool_is_low_after(tmp_path, monkeypatch, cli):
    path = write(tmp_path, "server.py", SERVER)
    monkeypatch.chdir(tmp_path)
    out = cli("fix", "--client", "codex", "--no-declare-dependency", "server.py")
    assert out.exit_code == 0, out.output
    text = path.read_text()
    # (laid out as the project's formatter would: on one line or one argument per line)
    assert re.search(r'max_tokens=10_000,\s*client="codex"', text), text
    compile(text, "server.py", "exec")
    again = cli("check", "--client", "codex", "server.py")
    assert again.exit_code == 0, again.output


def test_fix_without_a_client_writes_none(tmp_path, monkeypatch, cli):
    path = write(tmp_path, "server.py", SERVER)
    monkeypatch.chdir(tmp_path)
    cli("fix", "--no-declare-dependency", "server.py")
    assert "client=" not in path.read_text() and "fit_response(" in path.read_text()


def test_config_client_sets_the_budget_check_reports(tmp_path, monkeypatch, cli):
    write(tmp_path, "server.py", SERVER)
    write(tmp_path, "pyproject.toml", '[tool.tokenlint]\nclient = "codex"\n')
    monkeypatch.chdir(tmp_path)
    out = cli("check", "server.py")
    assert out.exit_code == 1
    assert "max-response-tokens = 10,000; client codex: 10,000 bytes or 256 lines" in out.output
    # the flag overrides the file
    out = cli("check", "--client", "claude-code", "server.py")
    assert "client claude-code: 10,000 tokens or 50,000 chars" in out.output


def test_a_profile_with_tokens_bounds_max_response_tokens(tmp_path):
    cfg = write(tmp_path, "pyproject.toml",
                '[tool.tokenlint]\nclient = "generic"\nmax-response-tokens = 30000\n')
    assert load_settings(cfg).max_response_tokens == 10_000
    assert load_settings(cfg, {"client": "claude-desktop"}).max_response_tokens == 30_000


def test_an_unknown_client_is_a_usage_error(tmp_path, monkeypatch, cli):
    write(tmp_path, "server.py", SERVER)
    write(tmp_path, "pyproject.toml", '[tool.tokenlint]\nclient = "netscape"\n')
    monkeypatch.chdir(tmp_path)
    out = cli("check", "server.py")
    assert out.exit_code == 2 and "client must be one of claude-code, codex" in out.output
    out = cli("fix", "--client", "netscape", "server.py")
    assert out.exit_code == 2
