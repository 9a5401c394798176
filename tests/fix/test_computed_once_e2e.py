"""End-to-end: a tool rewritten by ``tokenlint fix`` runs its data source once for all its pages.

A small server per SDK generation (mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer``, standalone fastmcp
3.x and 4.x) has tools whose data source appends one line to a counter file on every execution:
a sync SQLite query (records), an async file read (text) and a ``json.dumps`` of rows
(``fit_json_text``). The server is rewritten with ``python -m tokenlint fix`` (which adds
``@computed_once`` under each tool decorator), started over stdio and driven by the real ``mcp``
client (tests/fix/fix_e2e_driver.py) following ``next_action`` to the last page. Each call must
take several pages and execute its data source exactly once; a second, different call of the
same tool executes it once more (a new result, not a served page).
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from fix_e2e_servers import (
    BUDGET_TOKENS,
    EXECUTED,
    MCPSERVER_HTTP_MAIN,
    NOTES,
    READ_NOTES_TOOL,
    assert_fix_is_idempotent,
    drive_rewritten,
    drive_two_sessions,
    run_tokenlint,
    script_name,
    server_header,
    write_and_fix,
)

BODY = '''
DB = os.environ["ONCE_DB"]
NOTES = Path(os.environ["ONCE_NOTES"])
''' + EXECUTED + '''

@mcp.tool()
def list_rows(kind: str = "a") -> list[dict]:
    """Every row of one kind."""
    _executed("list_rows")
    conn = sqlite3.connect(DB)
    rows = conn.execute("SELECT id, kind, body FROM rows WHERE kind = ? ORDER BY id", (kind,)).fetchall()
    return [{"id": r[0], "kind": r[1], "body": r[2]} for r in rows]


@mcp.tool()
async def read_notes() -> str:
    """The whole notes file."""
    _executed("read_notes")
    return NOTES.read_text(encoding="utf-8")


@mcp.tool()
def export_rows() -> str:
    """Every row, as JSON text."""
    _executed("export_rows")
    conn = sqlite3.connect(DB)
    rows = conn.execute("SELECT id, kind, body FROM rows ORDER BY id").fetchall()
    return json.dumps([list(r) for r in rows])


if __name__ == "__main__":
    mcp.run()
'''

#: (id, venv, SDK generation of fix_e2e_servers.SERVER_CLASSES)
SERVERS = [
    ("fastmcp-v1", "mcp1", "fastmcp-v1"),
    ("mcpserver-v2", "mcp2", "mcpserver-v2"),
    ("standalone-fastmcp3", "mcp1", "fastmcp"),
    ("standalone-fastmcp4", "mcp2", "fastmcp"),
]

CALLS = [
    {"tool": "list_rows", "args": {"kind": "a"}},
    {"tool": "read_notes", "args": {}},
    {"tool": "export_rows", "args": {}},
    {"tool": "list_rows", "args": {"kind": "b"}},
]


def _source(kind: str) -> str:
    return ('"""A server whose data sources count their executions."""\n\nimport json\nimport os\n'
            "import sqlite3\nfrom pathlib import Path\n\n" + server_header(kind, "once") + BODY)


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory) -> Path:
    """The four servers, rewritten by ``tokenlint fix``; and their data."""
    root = tmp_path_factory.mktemp("computed-once")
    write_and_fix(root, {server_id: _source(kind) for server_id, _, kind in SERVERS})
    conn = sqlite3.connect(root / "data.db")
    conn.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, kind TEXT, body TEXT)")
    conn.executemany("INSERT INTO rows VALUES (?, ?, ?)",
                     [(i, "ab"[i % 2], f"row {i} " + "lorem ipsum " * 8) for i in range(400)])
    conn.commit()
    conn.close()
    (root / "notes.txt").write_text(NOTES, encoding="utf-8")
    return root


def test_fix_adds_computed_once_once(rewritten):
    for server_id, _, _ in SERVERS:
        code = (rewritten / script_name(server_id)).read_text(encoding="utf-8")
        assert code.count("@computed_once\n") == 3, code
        assert code.count("@mcp.tool()\n@computed_once\n") == 3, code
    assert_fix_is_idempotent(rewritten)


@pytest.mark.parametrize("server_id,venv", [(s, v) for s, v, _ in SERVERS])
def test_one_execution_for_all_pages(rewritten, server_id, venv, tmp_path):
    if os.environ.get("TOKENLINT_SKIP_E2E"):
        pytest.skip("TOKENLINT_SKIP_E2E is set")
    counts = tmp_path / "counts.txt"
    env = {"ONCE_DB": str(rewritten / "data.db"), "ONCE_NOTES": str(rewritten / "notes.txt"),
           "ONCE_COUNTS": str(counts)}
    calls = drive_rewritten(venv, rewritten / script_name(server_id), env, CALLS, tmp_path)
    pages = {}
    for call in calls:
        assert call["exception"] is None, call
        assert not any(p["is_error"] for p in call["pages"]), call
        pages[(call["tool"], json.dumps(call["args"]))] = len(call["pages"])
    assert all(n >= 3 for n in pages.values()), pages  # every call is paged: several pages each
    executed = counts.read_text(encoding="utf-8").splitlines()
    # one execution per call, whatever its number of pages: list_rows twice (two kinds)
    assert sorted(executed) == ["export_rows", "list_rows", "list_rows", "read_notes"], (executed, pages)


# -- sessions: mcp 2.x MCPServer tools get a Context parameter ---------------------------------

SESSION_SERVER = ('"""An mcp 2.x MCPServer tool with no Context parameter, served over streamable HTTP."""\n\n'
                  "import os\nfrom pathlib import Path\n\n" + server_header("mcpserver-v2", "sessions")
                  + READ_NOTES_TOOL + MCPSERVER_HTTP_MAIN)


def test_mcpserver_cursor_replayed_from_another_session_is_refused(rewritten, tmp_path):
    """``fix`` gives the tool ``ctx: Context | None = None`` and passes its session: over
    streamable HTTP, client B's replay of client A's cursor is refused; A's own call is served."""
    if os.environ.get("TOKENLINT_SKIP_E2E"):
        pytest.skip("TOKENLINT_SKIP_E2E is set")
    script = tmp_path / "sessions_v2.py"
    script.write_text(SESSION_SERVER, encoding="utf-8")
    fix = run_tokenlint(["fix", "--max-response-tokens", str(BUDGET_TOKENS), script.name], cwd=tmp_path)
    assert fix.returncode == 0, fix.stderr
    code = script.read_text(encoding="utf-8")
    assert "from mcp.server.mcpserver import Context, MCPServer" in code
    assert "ctx: Context | None = None" in code and "session_id=session_id_from_context(ctx)" in code
    seen = drive_two_sessions("mcp2", script, rewritten / "notes.txt", tmp_path)
    assert seen["first_paged"]
    assert seen["foreign"]["is_error"], seen
    assert "cursor belongs to another client session" in seen["foreign"]["text"]
    assert not seen["own"]["is_error"], seen
