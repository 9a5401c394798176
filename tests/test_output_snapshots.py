"""One snapshot per output format (as ruff keeps ``cli__lint__output_format_*.snap``): the
arguments, the exit code, stdout and stderr of ``tokenlint check`` on a small project whose
findings cover every level (``tests/report_project.py``). Update with
``python -m pytest tests/test_output_snapshots.py --snapshot-update`` and review the diff."""

from __future__ import annotations

import json

import pytest

from report_project import make_project
from tokenlint._version import __version__
from tokenlint.report import FORMATS

CASES = [[f"--format={fmt}", "."] for fmt in FORMATS] + [
    ["--statistics", "."],
    ["--statistics", "--format=json", "."],
    ["--quiet", "."],
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: "_".join(x.lstrip("-").replace("=", "-") for x in a[:-1]))
def test_output_format(args, tmp_path, monkeypatch, snapshot, cli):
    monkeypatch.chdir(make_project(tmp_path))
    result = cli("check", *args)

    stdout = result.stdout
    if "--format=sarif" in args:
        stdout = _without_rule_docs(stdout)
    assert {
        "args": ["check", *args],
        "exit_code": result.exit_code,
        "stdout": _scrub(stdout),
        "stderr": _scrub(result.stderr),
    } == snapshot


def _scrub(text: str) -> str:
    return text.replace(f'"{__version__}"', '"[VERSION]"')


def _without_rule_docs(sarif: str) -> str:
    """The SARIF text with each rule's long texts replaced by a placeholder, so editing a rule's
    docs does not churn this snapshot (test_sarif.py checks them); everything else is verbatim."""
    doc = json.loads(sarif)
    for rule in doc["runs"][0]["tool"]["driver"]["rules"]:
        for key in ("fullDescription", "help"):
            rule[key] = {k: f"[docs of {rule['id']}]" for k in rule[key]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
