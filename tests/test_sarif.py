"""``--format sarif``: valid against the official SARIF 2.1.0 schema, levels from tool risk,
rules with their docs and CWE tags, relative URIs, stable output.

The schema is not in the repository: it ships in the npm package ``@microsoft/jest-sarif``
(``lib/schemas/sarif-2.1.0-rtm.5.json``), fetched once with ``npm pack`` into
``~/.cache/tokenlint-tests/sarif-schema/`` (``helpers.USER_CACHE``) and reused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import tempfile

import jsonschema
import pytest

from helpers import USER_CACHE, run_cli, write
from report_project import make_project
from tokenlint._version import __version__
from tokenlint.rules import REGISTRY, all_rules

SCHEMA_PACKAGE = "@microsoft/jest-sarif@1.0.0-beta.0"
SCHEMA_MEMBER = "package/lib/schemas/sarif-2.1.0-rtm.5.json"
SCHEMA_CACHE = USER_CACHE / "sarif-schema" / "sarif-2.1.0-rtm.5.json"


def _unavailable(reason: str):
    # In CI a missing schema is a failure, not a silent skip of the validation.
    if os.environ.get("CI"):
        pytest.fail(f"cannot fetch the SARIF schema: {reason}")
    pytest.skip(f"cannot fetch the SARIF schema: {reason}")


def _fetch_schema() -> None:
    npm = shutil.which("npm")
    if npm is None:
        _unavailable("npm is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            proc = subprocess.run([npm, "pack", SCHEMA_PACKAGE, "--silent"], cwd=tmp, capture_output=True,
                                  text=True, timeout=300)
        except subprocess.TimeoutExpired:
            _unavailable("npm pack timed out")
        tarballs = sorted(p for p in os.listdir(tmp) if p.endswith(".tgz"))
        if proc.returncode != 0 or not tarballs:
            _unavailable(f"npm pack {SCHEMA_PACKAGE} failed: {proc.stderr.strip()[-500:]}")
        with tarfile.open(os.path.join(tmp, tarballs[0])) as tar:
            member = tar.extractfile(SCHEMA_MEMBER)
            assert member is not None, f"{SCHEMA_MEMBER} not in {tarballs[0]}"
            data = member.read()
    SCHEMA_CACHE.parent.mkdir(parents=True, exist_ok=True)
    partial = SCHEMA_CACHE.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(SCHEMA_CACHE)


@pytest.fixture(scope="session")
def sarif_validator():
    if not SCHEMA_CACHE.is_file():
        _fetch_schema()
    schema = json.loads(SCHEMA_CACHE.read_text(encoding="utf-8"))
    assert "2.1.0" in schema["title"]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def sarif_of(*args) -> tuple[int, dict]:
    result = run_cli("check", "--format", "sarif", *args)
    assert result.stderr == ""
    return result.exit_code, json.loads(result.stdout)


def errors(validator, doc) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)]


def test_schema_rejects_a_broken_log(sarif_validator):
    """The validator is real: a log missing its runs, or with a bad level, is rejected."""
    assert errors(sarif_validator, {"version": "2.1.0"})
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
                                         "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}
    assert errors(sarif_validator, bad)


def test_project_log_is_valid(sarif_validator, tmp_path, monkeypatch):
    monkeypatch.chdir(make_project(tmp_path))
    code, doc = sarif_of(".")
    assert code == 1
    assert errors(sarif_validator, doc) == []
    assert doc["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    assert run["tool"]["driver"]["name"] == "tokenlint"
    assert run["tool"]["driver"]["version"] == __version__
    assert run["columnKind"] == "unicodeCodePoints"


@pytest.mark.usefixtures("in_repo")
def test_fixture_corpus_log_is_valid(sarif_validator):
    code, doc = sarif_of("fixtures/")
    assert code == 1
    assert errors(sarif_validator, doc) == []
    assert len(doc["runs"][0]["results"]) > 100


def test_clean_run_is_valid_and_empty(sarif_validator, tmp_path, monkeypatch):
    write(tmp_path, "server.py", "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n")
    monkeypatch.chdir(tmp_path)
    code, doc = sarif_of(".")
    assert code == 0
    assert errors(sarif_validator, doc) == []
    assert doc["runs"][0]["results"] == []


def test_levels_follow_the_tools_risk(tmp_path, monkeypatch):
    monkeypatch.chdir(make_project(tmp_path))
    _, doc = sarif_of(".")
    got = sorted(
        (r["ruleId"], r["properties"].get("tool"), r["properties"]["toolRisk"], r["level"])
        for r in doc["runs"][0]["results"]
    )
    assert got == [
        ("TL001", None, "HIGH", "error"),
        ("TL101", "list_orders", "HIGH", "error"),
        ("TL201", "list_orders", "HIGH", "error"),
        ("TL201", "recent_orders", "MEDIUM", "warning"),
        ("TL301", "recent_orders", "MEDIUM", "warning"),
        ("TL401", "ping", "NONE", "note"),
    ]
    tools = {t["name"]: t["risk"] for t in doc["runs"][0]["properties"]["tools"]}
    assert tools == {"list_orders": "HIGH", "recent_orders": "MEDIUM", "ping": "NONE"}


def test_rules_carry_full_docs_and_cwe(tmp_path, monkeypatch):
    monkeypatch.chdir(make_project(tmp_path))
    _, doc = sarif_of(".")
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in all_rules()]
    for descriptor in rules:
        rule = REGISTRY[descriptor["id"]]
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"] == rule.docs()
        assert descriptor["help"]["markdown"].startswith(f"# {rule.name} ({rule.code})\n")
        assert ("CWE-400" in descriptor["properties"]["tags"]) == (rule.cwe is not None)
    for result in doc["runs"][0]["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_uris_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    project = make_project(tmp_path / "my project")
    monkeypatch.chdir(tmp_path)
    for arg in ("my project", project):  # relative or absolute on the command line
        _, doc = sarif_of(arg)
        locations = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                     for r in doc["runs"][0]["results"]}
        assert locations == {"my%20project/broken.py", "my%20project/server.py"}
        bases = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
                 for r in doc["runs"][0]["results"]}
        assert bases == {"%SRCROOT%"}
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    _, doc = sarif_of(project / "server.py")
    location = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": (project / "server.py").resolve().as_uri()}


def test_regions_are_one_based_with_exclusive_end(tmp_path, monkeypatch):
    monkeypatch.chdir(make_project(tmp_path))
    _, doc = sarif_of(".")
    lines = (tmp_path / "server.py").read_text().splitlines()
    [fetch] = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "TL101"]
    region = fetch["locations"][0]["physicalLocation"]["region"]
    line = lines[region["startLine"] - 1]
    assert line[region["startColumn"] - 1:region["endColumn"] - 1] == (
        'conn.execute("SELECT * FROM orders").fetchall()'
    )


def test_output_is_stable(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(make_project(tmp_path))
    first = cli("check", "-f", "sarif", ".").stdout
    second = cli("check", "-f", "sarif", ".").stdout
    assert first == second
    assert str(tmp_path) not in first
