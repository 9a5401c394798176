"""A server rewritten by ``tokenlint fix`` deploys with its own declared dependencies only.

fixtures/deployable_app (a project: pyproject.toml + package) is copied, rewritten by
``python -m tokenlint fix`` (which declares ``mcp-tokenlint-runtime`` in its pyproject.toml), and
installed in a fresh venv from the package index plus a wheel of the runtime built from this
repository: no PYTHONPATH to the checkout, no linter. The real ``mcp`` client
(tests/fix/fix_e2e_driver.py, run by that venv's python) then starts the installed server over
stdio and follows ``next_action`` page by page; every order must come back exactly once.

Needs the package index (installing is the point); skipped with ``TOKENLINT_SKIP_E2E=1``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import build_runtime_wheel
from tokenlint._version import RUNTIME_DISTRIBUTION, RUNTIME_REQUIREMENT

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "fixtures" / "deployable_app"
DRIVER = REPO / "tests" / "fix" / "fix_e2e_driver.py"

pytestmark = pytest.mark.skipif(bool(os.environ.get("TOKENLINT_SKIP_E2E")), reason="TOKENLINT_SKIP_E2E is set")


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _clean_env() -> dict[str, str]:
    """The environment of a deployment: nothing of this checkout on the import path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """(venv python, rewritten project, original project, data file) of the installed app."""
    root = tmp_path_factory.mktemp("deploy")
    original, project = root / "original", root / "app"
    for dest in (original, project):
        shutil.copytree(APP, dest, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    fixed = subprocess.run([sys.executable, "-m", "tokenlint", "fix", "."], cwd=project,
                           capture_output=True, text=True, timeout=300)
    assert fixed.returncode == 0, fixed.stderr
    wheels = root / "wheels"
    build_runtime_wheel(wheels, env=_clean_env())
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", "--find-links", str(wheels), str(project)], env=_clean_env())
    data = root / "orders.jsonl"
    with open(data, "w", encoding="utf-8") as fh:
        for i in range(600):
            fh.write(json.dumps({"id": i, "status": "open" if i % 4 else "closed",
                                 "note": f"order {i}: " + "two boxes of assorted widgets " * 6}) + "\n")
    return python, project, original, data, fixed


def test_fix_declares_the_runtime_in_the_project(deployed):
    _, project, original, _, fixed = deployed
    text = (project / "pyproject.toml").read_text()
    assert f'"{RUNTIME_REQUIREMENT}",' in text
    # the rest of the manifest is kept as written, comment included
    assert text.replace(f'    "{RUNTIME_REQUIREMENT}",\n', "") == (original / "pyproject.toml").read_text()
    assert "declared the runtime requirement" in fixed.stderr


def test_installed_with_declared_dependencies_only(deployed):
    python = deployed[0]
    listed = _run([str(python), "-m", "pip", "list", "--format", "json"], env=_clean_env()).stdout
    names = {d["name"].lower() for d in json.loads(listed)}
    assert RUNTIME_DISTRIBUTION in names and "orders-app" in names
    assert not names & {"mcp-tokenlint", "libcst", "tiktoken", "pathspec"}, "the runtime pulled in the linter"
    _run([str(python), "-m", "pip", "check"], env=_clean_env())


def test_installed_server_pages_every_order_through_the_real_client(deployed, tmp_path):
    python, _, _, data, _ = deployed
    site = _run([str(python), "-c", "import orders_app.server as s; print(s.__file__)"], env=_clean_env(),
                cwd=tmp_path).stdout.strip()
    assert str(REPO) not in site  # the installed copy, not the checkout
    spec, out = tmp_path / "spec.json", tmp_path / "out.json"
    spec.write_text(json.dumps({"servers": {"rewritten": site}, "env": {"ORDERS_FILE": str(data)},
                                "calls": [{"tool": "list_orders", "args": {"status": "open"}}]}))
    _run([str(python), str(DRIVER), str(spec), str(out)], env=_clean_env(), cwd=tmp_path)
    call = json.loads(out.read_text())["rewritten"]["calls"][0]
    assert call["exception"] is None
    pages = call["pages"]
    assert len(pages) > 1 and not any(p["is_error"] for p in pages)
    ids = [item["id"] for p in pages for item in p["structured"]["result"]["items"]]
    assert ids == [i for i in range(600) if i % 4]
