"""github annotations, --statistics, -o/--output-file, --show-files, --show-settings, the
progress bar, and what machine formats keep off stderr."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

from helpers import run_cli, write
from report_project import make_project
from tokenlint.model import CheckResult, Finding, Risk, ToolId, ToolReport
from tokenlint.progress import MIN_FILES, ProgressBar, make_progress
from tokenlint.report import FORMATS, is_human, render
from tokenlint.rules import REGISTRY


def check(*args):
    return run_cli("check", *args)


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(make_project(tmp_path))
    return tmp_path


def test_github_annotations(project):
    result = check("--format", "github", ".")
    assert result.exit_code == 1
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "::error title=tokenlint (TL001),file=broken.py,line=3,col=12::cannot analyse broken.py: "
        "syntax error at 3:12: invalid syntax"
    )
    assert lines[2] == (
        "::error title=tokenlint (TL101),file=server.py,line=12,col=12,endLine=12,endColumn=59::"
        "`.fetchall()` puts every row of a query into the response of tool `list_orders` with no bound"
    )
    assert [line.split(" ", 1)[0] for line in lines] == [
        "::error", "::error", "::error", "::warning", "::warning", "::notice",
    ]


def test_github_escapes_properties_and_message():
    finding = Finding("TL101", "unbounded-query-result", "a,b:c%.py", 1, 2, "50%\nof rows, all: here",
                      tool="t", risk=Risk.HIGH, tool_id=ToolId("a,b:c%.py", 1, "t"))
    low = ToolReport("t", "t", "a,b:c%.py", 1, "mcp-fastmcp", Risk.LOW, ("TL101",))
    out = render("github", CheckResult((low,), (finding,), 1, 1))
    assert out == "::notice title=tokenlint (TL101),file=a%2Cb%3Ac%25.py,line=1,col=2::50%25%0Aof rows, all: here\n"


def test_statistics_text_and_json(project):
    result = check("--statistics", ".")
    assert result.exit_code == 1
    def mark(code):
        return "[*] " if REGISTRY[code].fixable else ""

    assert result.stdout.splitlines() == [
        f"2\tTL201\t{mark('TL201')}missing-pre-estimation",
        f"1\tTL001\t{mark('TL001')}parse-error",
        f"1\tTL101\t{mark('TL101')}unbounded-query-result",
        f"1\tTL301\t{mark('TL301')}silent-truncation",
        f"1\tTL401\t{mark('TL401')}costly-tool-definition",
    ]
    assert result.stderr.startswith("Found 6 findings")
    data = json.loads(check("--statistics", "--format", "json", ".").stdout)
    assert data[0] == {"code": "TL201", "name": "missing-pre-estimation", "count": 2,
                       "fixable": REGISTRY["TL201"].fixable}
    assert sum(r["count"] for r in data) == 6
    bad = check("--statistics", "--format", "sarif", ".")
    assert bad.exit_code == 2 and "--statistics prints text or json" in bad.stderr


@pytest.mark.parametrize("fmt", FORMATS)
def test_output_file_holds_exactly_what_stdout_would(project, fmt):
    plain = check("--format", fmt, ".")
    result = check("--format", fmt, "-o", "reports/out.txt", ".")
    assert result.exit_code == plain.exit_code == 1
    assert result.stdout == ""
    assert (project / "reports" / "out.txt").read_text(encoding="utf-8") == plain.stdout
    assert result.stderr == plain.stderr


def test_output_file_that_cannot_be_written_exits_2(project):
    (project / "taken").write_text("a file, not a directory")
    result = check("-o", "taken/out.txt", ".")
    assert result.exit_code == 2
    assert "cannot write taken/out.txt" in result.stderr


def test_machine_formats_print_nothing_on_stderr(project):
    for fmt in FORMATS:
        result = check("--format", fmt, ".")
        assert (result.stderr != "") == is_human(fmt), fmt


def test_show_files(project):
    write(project, "sub/other.py", "x = 1\n")
    write(project, "notes.txt", "not python\n")
    write(project, ".gitignore", "ignored.py\n")
    write(project, "ignored.py", "x = 1\n")
    result = check("--show-files", ".")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["broken.py", "server.py", "sub/other.py"]


def test_show_settings_reflects_config_and_flags(project):
    write(project, "pyproject.toml", (
        "[tool.tokenlint]\nignore = ['TL401']\nmax-response-tokens = 4000\n"
        "per-file-ignores = { 'legacy_*.py' = ['TL1'] }\n"
    ))
    result = check("--show-settings", "--select", "TL1,TL2", "--fail-on", "high", ".")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert 'select = ["TL1", "TL2"]' in lines
    assert 'ignore = ["TL401"]' in lines
    assert "max-response-tokens = 4000" in lines
    assert 'fail-on = "high"' in lines
    assert 'per-file-ignores = { "legacy_*.py" = ["TL1"] }' in lines
    assert f"config-file = {json.dumps(str(project / 'pyproject.toml'))}" in lines


@pytest.mark.parametrize(
    ("args", "codes"),
    [
        (["--select", "TL1"], ["TL001", "TL101"]),
        (["--select", "TL10,TL4"], ["TL001", "TL101", "TL401"]),
        (["--select", "ALL", "--ignore", "TL2,TL3"], ["TL001", "TL101", "TL401"]),
        (["--ignore", "TL"], ["TL001"]),
        (["--select", "TL2", "--extend-select", "TL301"], ["TL001", "TL201", "TL201", "TL301"]),
        (["--select", "TL1", "--ignore", "TL101"], ["TL001"]),
        (["--ignore", "TL1", "--select", "TL101"], ["TL001", "TL101"]),  # the longer prefix wins
    ],
)
def test_select_and_ignore_by_prefix(project, args, codes):
    """Selection picks the rules; a TL001 (a file that cannot be analysed) is always reported."""
    data = json.loads(check("--format", "json", *args, ".").stdout)
    assert sorted(f["code"] for f in data["findings"]) == codes


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal_for_human_formats():
    assert make_progress(True, False, FakeTerminal()) is not None
    assert make_progress(True, False, io.StringIO()) is None  # not a terminal (CI logs, pipes)
    assert make_progress(False, False, FakeTerminal()) is None  # json, sarif, github
    assert make_progress(True, True, FakeTerminal()) is None  # --quiet


def test_progress_bar_draws_only_for_long_runs():
    short = FakeTerminal()
    bar = ProgressBar(short)
    for i in range(MIN_FILES):
        bar(i, MIN_FILES)
    bar.close()
    assert short.getvalue() == ""
    long = FakeTerminal()
    bar = ProgressBar(long)
    total = MIN_FILES + 1
    for i in range(total):
        bar(i, total)
    bar.close()
    out = long.getvalue()
    assert "Checking" in out and f"{total}/{total}" in out
    assert out.endswith("\n")


def test_check_draws_progress_on_a_terminal(tmp_path, monkeypatch):
    """End to end: a run over more than MIN_FILES files on a (fake) terminal draws the bar on
    stderr and leaves stdout alone; the same run in json draws nothing."""
    for i in range(MIN_FILES + 1):
        write(tmp_path, f"pkg/m{i:03}.py", "import mcp\n\nx = 1\n")  # passes the byte prefilter
    monkeypatch.chdir(tmp_path)
    terminal = FakeTerminal()
    # CliRunner swaps sys.stderr for a capture buffer; give the progress module a terminal.
    monkeypatch.setattr("tokenlint.progress.sys", SimpleNamespace(stderr=terminal))
    result = check(".")
    assert result.exit_code == 0
    assert f"{MIN_FILES + 1}/{MIN_FILES + 1}" in terminal.getvalue()
    assert "Checking" not in result.stdout
    terminal.truncate(0)
    json_run = check("--format", "json", ".")
    assert terminal.getvalue() == ""
    assert json.loads(json_run.stdout)["findings"] == []


@pytest.mark.parametrize(
    ("args", "toml", "message"),
    [
        (["--ignore", "TL20l"], None, "unknown rule selector `TL20L` in ignore"),
        (["--select", "E501"], None, "unknown rule selector `E501` in select"),
        ([], "[tool.tokenlint]\nextend-select = ['TL9']\n", "unknown rule selector `TL9` in extend-select"),
        ([], "[tool.tokenlint]\nper-file-ignores = { 'a.py' = ['TL1O1'] }\n", "in per-file-ignores.a.py"),
    ],
)
def test_a_selector_that_matches_no_rule_exits_2(project, args, toml, message):
    if toml:
        write(project, "pyproject.toml", toml)
    result = check(*args, ".")
    assert result.exit_code == 2
    assert message in result.stderr
