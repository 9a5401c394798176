"""--write-baseline / --baseline: counts per (path, tool, code), no lines; only new findings
are reported and decide the exit code."""

from __future__ import annotations

import json

import pytest

from helpers import RISKY_SERVER, write

TWO_QUERIES = RISKY_SERVER.replace(
    '    return conn.execute("SELECT * FROM orders").fetchall()\n',
    '    rows = conn.execute("SELECT * FROM orders").fetchall()\n'
    '    rows += conn.execute("SELECT * FROM old_orders").fetchall()\n'
    "    return rows\n",
)

CAPPED_TOOL = """

@mcp.tool()
def recent_orders() -> list:
    conn = sqlite3.connect("shop.db")
    return conn.execute("SELECT * FROM orders LIMIT 20").fetchall()
"""




@pytest.fixture
def project(tmp_path, monkeypatch):
    write(tmp_path, "app/server.py", RISKY_SERVER)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_written_baseline_is_sorted_counted_and_lineless(project, cli):
    result = cli("check", "--write-baseline", "baseline.json", "app")
    assert result.exit_code == 0
    assert "Wrote 2 findings to the baseline baseline.json." in result.stderr
    text = (project / "baseline.json").read_text()
    assert json.loads(text) == {
        "tokenlint-baseline": 1,
        "findings": [
            {"path": "app/server.py", "tool": "list_orders", "code": "TL101", "count": 1},
            {"path": "app/server.py", "tool": "list_orders", "code": "TL201", "count": 1},
        ],
    }
    cli("check", "--write-baseline", "baseline.json", "app")
    assert (project / "baseline.json").read_text() == text  # stable: rewriting changes nothing


def test_known_findings_pass_even_when_lines_move(project, cli):
    cli("check", "--write-baseline", "baseline.json", "app")
    write(project, "app/server.py", "# a new comment\n\n" + RISKY_SERVER)
    result = cli("check", "--baseline", "baseline.json", "app")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split() == ["RISK", "TOOL", "LOCATION", "FRAMEWORK", "FINDINGS"]
    assert "No findings" in result.stderr and "(2 more in the baseline baseline.json)" in result.stderr


def test_a_second_identical_finding_in_the_same_tool_is_new(project, cli):
    cli("check", "--write-baseline", "baseline.json", "app")
    write(project, "app/server.py", TWO_QUERIES)
    result = cli("check", "--format", "json", "--baseline", "baseline.json", "app")
    assert result.exit_code == 1
    new = json.loads(result.stdout)["findings"]
    assert [(f["code"], f["line"]) for f in new] == [("TL101", 11)]  # the later of the two


def test_a_new_tool_is_new_and_fail_on_counts_only_new_findings(project, cli):
    cli("check", "--write-baseline", "baseline.json", "app")
    write(project, "app/server.py", RISKY_SERVER + CAPPED_TOOL)
    result = cli("check", "--format", "json", "--baseline", "baseline.json", "app")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert sorted({f["tool"] for f in data["findings"]}) == ["recent_orders"]
    assert {t["name"] for t in data["tools"]} == {"list_orders", "recent_orders"}  # the audit is complete
    # list_orders is HIGH but baselined; the new findings are in a MEDIUM tool.
    assert cli("check", "--baseline", "baseline.json", "--fail-on", "high", "app").exit_code == 0
    assert cli("check", "--baseline", "baseline.json", "--fail-on", "medium", "app").exit_code == 1
    # Without the baseline, the HIGH tool fails the run as before.
    assert cli("check", "--fail-on", "high", "app").exit_code == 1


def test_baseline_paths_do_not_depend_on_the_working_directory(project, monkeypatch, cli):
    cli("check", "--write-baseline", "ci/baseline.json", "app")
    assert json.loads((project / "ci/baseline.json").read_text())["findings"][0]["path"] == "../app/server.py"
    monkeypatch.chdir(project / "app")
    assert cli("check", "--baseline", "../ci/baseline.json", ".").exit_code == 0
    assert cli("check", "--baseline", project / "ci/baseline.json", project / "app/server.py").exit_code == 0


def test_fixed_findings_are_not_reported(project, cli):
    cli("check", "--write-baseline", "baseline.json", "app")
    write(project, "app/server.py", RISKY_SERVER.replace("SELECT * FROM orders", "SELECT * FROM orders LIMIT 20"))
    data = json.loads(cli("check", "--format", "json", "--baseline", "baseline.json", "app").stdout)
    assert [f["code"] for f in data["findings"]] == ["TL301"]  # a cap without continuation is new


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read baseline"),
        ("{not json", "invalid JSON"),
        ('{"version": "0.1.0", "tools": [], "findings": []}', "not a tokenlint baseline"),
        ('{"tokenlint-baseline": 1, "findings": [{"path": "a.py"}]}', "malformed entry"),
    ],
)
def test_bad_baseline_exits_2(project, content, message, cli):
    if content is not None:
        write(project, "baseline.json", content)
    result = cli("check", "--baseline", "baseline.json", "app")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""
