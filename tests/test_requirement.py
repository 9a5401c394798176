"""``fix`` declares the runtime requirement in the rewritten project (tokenlint/fix/requirement.py)."""

from __future__ import annotations

import sys

import pytest

from helpers import RISKY_SERVER
from tokenlint._version import RUNTIME_DISTRIBUTION, RUNTIME_REQUIREMENT
from tokenlint.fix.requirement import declare_runtime, requirement_name

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def _project(tmp_path, files: dict[str, str]):
    (tmp_path / ".git").mkdir()
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    return tmp_path / "src" / "server.py"


def test_pep621_multiline_array_keeps_comments_and_layout(tmp_path):
    pyproject = '[project]\nname = "a"\ndependencies = [\n    "mcp>=1.2",  # the SDK\n]\n\n[tool.x]\ny = 1\n'
    d = declare_runtime(_project(tmp_path, {"pyproject.toml": pyproject, "src/server.py": ""}))
    assert d.path == tmp_path / "pyproject.toml"
    assert d.new_text == pyproject.replace('  # the SDK\n', f'  # the SDK\n    "{RUNTIME_REQUIREMENT}",\n')


@pytest.mark.parametrize("project", ['name = "a"\n', 'name = "a"\ndependencies = []\n'])
def test_pep621_without_dependencies_gains_the_field(tmp_path, project):
    d = declare_runtime(_project(tmp_path, {"pyproject.toml": f"[project]\n{project}", "src/server.py": ""}))
    assert tomllib.loads(d.new_text)["project"]["dependencies"] == [RUNTIME_REQUIREMENT]


@pytest.mark.parametrize("spelled", ["MCP_Tokenlint.Runtime>=0.1", "mcp-tokenlint-runtime", "mcp-tokenlint-runtime[exact]~=0.1"])
def test_already_declared_under_any_spelling_is_left_alone(tmp_path, spelled):
    text = f'[project]\nname = "a"\ndependencies = ["{spelled}"]\n'
    d = declare_runtime(_project(tmp_path, {"pyproject.toml": text, "src/server.py": ""}))
    assert d.path is not None and not d.changed


def test_poetry_table(tmp_path):
    text = '[tool.poetry]\nname = "a"\n\n[tool.poetry.dependencies]\npython = "^3.10"\nmcp = "^1.2"\n'
    d = declare_runtime(_project(tmp_path, {"pyproject.toml": text, "src/server.py": ""}))
    assert d.new_text == text + f'{RUNTIME_DISTRIBUTION} = "^0.1.0"\n'


def test_setuptools_dynamic_dependencies_go_into_their_file(tmp_path):
    text = ('[project]\nname = "a"\ndynamic = ["dependencies"]\n\n'
            '[tool.setuptools.dynamic]\ndependencies = {file = ["requirements.in"]}\n')
    d = declare_runtime(_project(tmp_path, {"pyproject.toml": text, "requirements.in": "mcp\n",
                                            "src/server.py": ""}))
    assert d.path == tmp_path / "requirements.in"
    assert d.new_text == f"mcp\n{RUNTIME_REQUIREMENT}\n"


def test_other_dynamic_dependencies_get_advice(tmp_path):
    text = '[project]\nname = "a"\ndynamic = ["dependencies"]\n'
    d = declare_runtime(_project(tmp_path, {"pyproject.toml": text, "src/server.py": ""}))
    assert d.path is None and RUNTIME_REQUIREMENT in d.advice and "dynamic" in d.advice


def test_requirements_txt_keeps_crlf_and_a_missing_final_newline(tmp_path):
    d = declare_runtime(_project(tmp_path, {"requirements.txt": "mcp>=1\r\nhttpx", "src/server.py": ""}))
    assert d.new_text == f"mcp>=1\r\nhttpx\r\n{RUNTIME_REQUIREMENT}\r\n"


def test_development_requirements_are_not_a_deployment_manifest(tmp_path):
    d = declare_runtime(_project(tmp_path, {"requirements-dev.txt": "pytest\n", "src/server.py": ""}))
    assert d.path is None and f"`{RUNTIME_REQUIREMENT}`" in d.advice


def test_a_settings_only_pyproject_is_skipped_for_the_project_above(tmp_path):
    files = {"requirements.txt": "mcp\n", "src/pyproject.toml": "[tool.ruff]\nline-length = 100\n",
             "src/server.py": ""}
    d = declare_runtime(_project(tmp_path, files))
    assert d.path == tmp_path / "requirements.txt"


def test_the_search_stops_at_the_repository_root(tmp_path):
    (tmp_path / "requirements.txt").write_text("mcp\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    d = declare_runtime(_project(repo, {"src/server.py": ""}))
    assert d.path is None


def test_a_pyproject_that_does_not_parse_gets_advice(tmp_path):
    d = declare_runtime(_project(tmp_path, {"pyproject.toml": "[project\n", "src/server.py": ""}))
    assert d.path is None and "does not parse" in d.advice


@pytest.mark.parametrize("line, name", [("Foo_Bar[x]>=1 ; python_version<'3.12'", "foo-bar"), ("# c", None),
                                        ("-r base.txt", None), ("https://x/y.whl", None), ("", None)])
def test_requirement_name(line, name):
    assert requirement_name(line) == name


def _risky_project(tmp_path):
    _project(tmp_path, {"pyproject.toml": '[project]\nname = "a"\ndependencies = ["mcp"]\n',
                        "src/server.py": RISKY_SERVER})


def test_fix_writes_the_declaration_once_and_diff_shows_it(tmp_path, monkeypatch, cli):
    _risky_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    diff = cli("fix", "--diff", "src")
    assert f'+dependencies = ["mcp", "{RUNTIME_REQUIREMENT}"]' in diff.stdout
    assert "--- a/pyproject.toml" in diff.stdout
    assert (tmp_path / "pyproject.toml").read_text() == '[project]\nname = "a"\ndependencies = ["mcp"]\n'
    first = cli("fix", "src")
    assert first.exit_code == 0, first.stderr
    assert "pyproject.toml: declared the runtime requirement" in first.stderr
    written = (tmp_path / "pyproject.toml").read_text()
    second = cli("fix", "src")
    assert second.exit_code == 0 and "declared" not in second.stderr
    assert (tmp_path / "pyproject.toml").read_text() == written


def test_fix_without_declaration(tmp_path, monkeypatch, cli):
    _risky_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = cli("fix", "--no-declare-dependency", "src")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "pyproject.toml").read_text() == '[project]\nname = "a"\ndependencies = ["mcp"]\n'


def test_fix_without_a_manifest_says_what_to_add(tmp_path, monkeypatch, cli):
    (tmp_path / ".git").mkdir()
    (tmp_path / "server.py").write_text(RISKY_SERVER)
    monkeypatch.chdir(tmp_path)
    result = cli("fix", "server.py")
    assert result.exit_code == 0, result.stderr
    assert f"add `{RUNTIME_REQUIREMENT}` to the dependencies" in result.stderr


def test_linter_requires_the_runtime_it_writes_for():
    """pyproject's requirement on the runtime is the one fix writes, and the runtime's version
    satisfies it."""
    from pathlib import Path

    from tokenlint.runtime import __version__ as runtime_version

    root = Path(__file__).resolve().parents[1]
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    assert RUNTIME_REQUIREMENT in deps
    runtime = tomllib.loads((root / "tokenlint" / "runtime" / "pyproject.toml").read_text())["project"]
    assert runtime["name"] == RUNTIME_DISTRIBUTION and runtime["dependencies"] == []
    assert runtime_version.startswith(RUNTIME_REQUIREMENT.split("~=")[1].rsplit(".", 1)[0] + ".")
