"""The bundled fixture servers: every annotated tool gets its expected risk and codes, and the
whole JSON report is guarded by a snapshot."""

from __future__ import annotations

import json

import pytest

from expectations import match_tool, read_expectations
from tokenlint.config import Settings
from helpers import check

from helpers import FIXTURES

#: Annotations the analysis does not meet yet, each with the reason. Keep this list short and
#: honest: an entry here is a known false negative, not a different opinion.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


#: Tools the analysis rates wrong today, labelled with the correct level; each runs as a strict
#: expected failure (a verdict that comes right fails the test until the tool moves to the fixture
#: of its theme). Each tool's docstring says what the analysis gets wrong.
PENDING = "fixtures/analysis_pending.py"


@pytest.fixture(scope="module")
def fixture_run():
    return check(["fixtures"], Settings())


def _expectations():
    return read_expectations(FIXTURES, "fixtures")


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize("expected", _expectations(), ids=lambda e: f"{e.path}:{e.line}")
def test_fixture_tool_verdicts(expected, fixture_run):
    tool = match_tool(expected, fixture_run.result.tools)
    assert tool is not None, f"no tool discovered below {expected.path}:{expected.line - 1}"
    if expected.name:
        assert tool.name == expected.name
    if expected.path == PENDING:
        got = (tool.risk.name, tuple(tool.findings))
        if got == (expected.risk, expected.codes):
            pytest.fail(f"{tool.name} is now rated right: move it from {PENDING} to its theme's fixture")
        pytest.xfail(f"analysis pending: expected {' '.join((expected.risk, *expected.codes))}, got {got}")
    assert tool.risk.name == expected.risk
    if (tool.path, tool.name) in KNOWN_GAPS:
        pytest.xfail(KNOWN_GAPS[(tool.path, tool.name)])
    assert tuple(tool.findings) == expected.codes


@pytest.mark.usefixtures("in_repo")
def test_no_unexpected_tools(fixture_run):
    """Every discovered tool is annotated: `# expect-not-a-tool` functions are not reported."""
    expectations = _expectations()
    matched = {id(match_tool(e, fixture_run.result.tools)) for e in expectations}
    extra = [f"{t.path}:{t.line} {t.name}" for t in fixture_run.result.tools if id(t) not in matched]
    assert extra == []
    assert len(fixture_run.result.tools) == len(expectations)


@pytest.mark.usefixtures("in_repo")
def test_fixture_report_snapshot(snapshot, cli):
    result = cli("check", "--format", "json", "fixtures/")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report == snapshot


@pytest.mark.usefixtures("in_repo")
def test_bad_input_fixtures_are_findings_not_crashes(fixture_run):
    tl001 = {f.path: f.message for f in fixture_run.result.findings if f.code == "TL001"}
    assert set(tl001) == {
        "fixtures/bad_input/binary_blob.py",
        "fixtures/bad_input/invalid_utf8.py",
        "fixtures/bad_input/syntax_error.py",
    }
    assert "binary file" in tl001["fixtures/bad_input/binary_blob.py"]
    assert "not valid utf-8" in tl001["fixtures/bad_input/invalid_utf8.py"]
    assert "syntax error" in tl001["fixtures/bad_input/syntax_error.py"]
    assert not fixture_run.internal_errors


@pytest.mark.usefixtures("in_repo")
def test_unresolved_registrations_are_reported(fixture_run):
    """TL002 exactly at the lines below each ``# expect-TL002`` of the fixtures."""
    expected = set()
    for path in sorted(FIXTURES.rglob("*.py")):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, ValueError):
            continue
        for i, line in enumerate(lines, start=1):
            if line.strip() == "# expect-TL002":
                expected.add((f"fixtures/{path.relative_to(FIXTURES).as_posix()}", i + 1))
    found = {(f.path, f.line) for f in fixture_run.result.findings if f.code == "TL002"}
    assert expected and found == expected


def test_every_fixture_is_described_in_the_fixtures_readme():
    """``fixtures/README.md`` is the map of the fixtures: each top-level fixture module and package
    has its row (a new fixture without one is a theme nobody can find)."""
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    entries = sorted(p.name + ("/" if p.is_dir() else "") for p in FIXTURES.iterdir()
                     if (p.suffix == ".py" or p.is_dir()) and not p.name.startswith((".", "__")))
    missing = [name for name in entries if f"`{name}" not in readme]
    assert not missing, f"fixtures without a row in fixtures/README.md: {missing}"

