"""The pre-commit hooks for real: ``pre-commit try-repo`` installs this checkout into its own
environment (from the package registry, as any user's pre-commit does) and runs the
``tokenlint`` hook in a throwaway git repository.

try-repo is pointed at a one-commit copy of this checkout's working tree (tracked files and
untracked ones git does not ignore, as they are on disk), so the hook tested is the code under
test, in a clean CI clone and in a working tree with changes alike (try-repo on the checkout
itself would ignore new untracked modules). ``PRE_COMMIT_HOME`` points into the test's tmp dir,
so nothing is left in the user's cache; the one environment it builds (about 30 s with a warm
pip cache) serves every run below.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from helpers import FIXTURES, REPO, RISKY_SERVER, build_runtime_wheel, write

pytest.importorskip("pre_commit", reason="pre-commit is in the test extra")
pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (REPO / ".git").exists(),
    reason="needs git and a git checkout of tokenlint",
)

# The cure by hand: the same rows, paged through the runtime with a cursor.
FIXED = """\
import sqlite3
from typing import Optional
from mcp.server.fastmcp import FastMCP
from tokenlint.runtime import fit_response

mcp = FastMCP("db")


@mcp.tool()
def list_orders(cursor: Optional[str] = None) -> list:
    conn = sqlite3.connect("shop.db")
    rows = conn.execute("SELECT * FROM orders").fetchall()
    return fit_response(rows, tool="list_orders", arguments={"cursor": cursor}, cursor=cursor)
"""


SPLIT_TOOL = """\
\"\"\"Export tools, registered on the inventory server created in ../server.py.\"\"\"

from pathlib import Path

from ..server import mcp


@mcp.tool()
def dump_exports() -> list:
    \"\"\"Every export file.\"\"\"
    return [p.name for p in Path("/var/exports").iterdir()]
"""

SPLIT_SAFE_TOOL = """\
from ..server import mcp


@mcp.tool()
def version() -> str:
    return "1.0"
"""


def test_hooks_file_declares_both_hooks():
    import yaml  # pre-commit depends on PyYAML

    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"tokenlint", "tokenlint-fix"}
    assert hooks["tokenlint"]["entry"] == "tokenlint check --force-exclude"
    assert hooks["tokenlint-fix"]["entry"] == "tokenlint fix --force-exclude"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "pyi"]
        assert hook["require_serial"] is True
        assert hook["minimum_pre_commit_version"]


def _git(*args, cwd, env) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True).stdout.decode()


def _copy_of_working_tree(dest, env) -> None:
    """``dest``: a git repository with one commit holding this checkout's files as on disk."""
    names = _git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=REPO, env=env)
    for name in filter(None, names.split("\0")):
        source = REPO / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    _git("init", "-q", cwd=dest, env=env)
    _git("add", "-A", cwd=dest, env=env)
    _git("-c", "user.name=tokenlint tests", "-c", "user.email=tests@tokenlint.invalid",
         "commit", "-q", "-m", "working tree under test", cwd=dest, env=env)


def _hook_env(tmp_path) -> dict[str, str]:
    """The environment of pre-commit: its own home in ``tmp_path``, and the runtime distribution
    (``mcp-tokenlint-runtime``, which the linter requires) as a wheel built from this checkout,
    offered to pip by ``PIP_FIND_LINKS`` as the package index offers a published release."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    env["PRE_COMMIT_COLOR"] = "never"
    wheels = tmp_path / "wheels"
    build_runtime_wheel(wheels)
    env["PIP_FIND_LINKS"] = str(wheels)
    return env


def test_tokenlint_hook_fails_on_a_risky_tool_and_passes_once_fixed(tmp_path):
    project = tmp_path / "project"
    checkout = tmp_path / "tokenlint"
    env = _hook_env(tmp_path)
    checkout.mkdir()
    _copy_of_working_tree(checkout, env)
    subprocess.run(["git", "init", "-q", str(project)], check=True, env=env)
    write(project, "pyproject.toml", "[tool.tokenlint]\nextend-exclude = ['vendor/']\n")
    write(project, "server.py", RISKY_SERVER)
    write(project, "vendor/server.py", RISKY_SERVER)
    write(project, "notes.md", "not python\n")

    def hook(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(checkout), "tokenlint", "--files", *files],
            cwd=project, env=env, capture_output=True, text=True, timeout=900,
        )

    failed = hook("server.py", "notes.md")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "server.py:10:12: TL101" in failed.stdout
    assert "HIGH  list_orders" in failed.stdout

    # pre-commit passes file names one by one: --force-exclude keeps `exclude` working.
    excluded = hook("vendor/server.py")
    assert excluded.returncode == 0, excluded.stdout + excluded.stderr

    write(project, "server.py", FIXED)
    passed = hook("server.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "tokenlint" in passed.stdout and "Passed" in passed.stdout

    # A split-module server (fixtures/split_server/server.py creates `mcp`; tools/x.py registers
    # on it): only the staged tool module is passed, its server is read from disk.
    shutil.copytree(FIXTURES / "split_server", project / "inventory")
    write(project, "inventory/tools/__init__.py", "")
    write(project, "inventory/tools/x.py", SPLIT_TOOL)
    write(project, "inventory/tools/safe.py", SPLIT_SAFE_TOOL)
    _git("add", "inventory/tools/x.py", cwd=project, env=env)
    staged = subprocess.run(  # no --files: what pre-commit runs at `git commit`
        [sys.executable, "-m", "pre_commit", "try-repo", str(checkout), "tokenlint"],
        cwd=project, env=env, capture_output=True, text=True, timeout=900)
    assert staged.returncode == 1, staged.stdout + staged.stderr
    assert "inventory/tools/x.py:11:29: TL103" in staged.stdout
    assert "HIGH  dump_exports" in staged.stdout
    assert "inventory/tools_db.py" not in staged.stdout  # findings of the named files only
    safe = hook("inventory/tools/safe.py", "--verbose")  # --verbose: a passing hook's output too
    assert safe.returncode == 0, safe.stdout + safe.stderr
    assert "1 tools (0 HIGH, 0 MEDIUM, 0 LOW, 1 NONE)" in safe.stdout + safe.stderr
