"""Fixtures of the ``tokenlint fix`` end-to-end tests (see test_fix_e2e.py).

``fixed_copy`` (no SDK needed): fixtures/runnable copied twice to a temporary directory, one copy
rewritten by ``python -m tokenlint fix``. ``e2e_fix_runs`` (needs the SDK venvs of
tests/runtime/runtime_sdk_envs.py, skipped with ``TOKENLINT_SKIP_E2E=1``): one driver run per
server x SDK, all queued at once in threads, each driving the original and the rewritten server
over stdio with the real ``mcp`` client, as many at a time as ``runtime_sdk_envs.DRIVER_SLOTS``
allows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
RUNNABLE = REPO / "fixtures" / "runnable"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests" / "runtime"))

import runtime_sdk_envs as sdk_envs  # noqa: E402  (owned by the runtime tests; reused as is)
from fix_e2e_calls import BUDGET_TOKENS, CALLS, SERVERS  # noqa: E402
from fix_e2e_data import write_dataset  # noqa: E402
from fix_e2e_servers import run_tokenlint  # noqa: E402


@dataclass
class FixedCopy:
    """The original and the rewritten copy of fixtures/runnable, and what the CLI said."""

    original: Path
    rewritten: Path
    fix: subprocess.CompletedProcess
    env: dict[str, str]

    def tokenlint(self, which: str, *args: str) -> subprocess.CompletedProcess:
        """``python -m tokenlint ARGS`` run in the ``original`` or ``rewritten`` copy."""
        return run_tokenlint(list(args), cwd=getattr(self, which))

    def check_json(self, which: str) -> dict[str, Any]:
        """``tokenlint check --format json .`` run in the original or rewritten copy."""
        proc = self.tokenlint(which, "check", "--format", "json", "--max-response-tokens",
                              str(BUDGET_TOKENS), ".")
        assert proc.returncode in (0, 1), proc.stderr
        return json.loads(proc.stdout)


@pytest.fixture(scope="session")
def fixed_copy(tmp_path_factory) -> FixedCopy:
    root = tmp_path_factory.mktemp("fix-e2e")
    original, rewritten = root / "original", root / "rewritten"
    shutil.copytree(RUNNABLE, original, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(RUNNABLE, rewritten, ignore=shutil.ignore_patterns("__pycache__"))
    fix = run_tokenlint(["fix", "--max-response-tokens", str(BUDGET_TOKENS), "."], cwd=rewritten)
    return FixedCopy(original, rewritten, fix, write_dataset(root / "data"))


_venv_locks = {name: threading.Lock() for name in sdk_envs.REQUIREMENTS}
_venvs: dict[str, Path] = {}


def _venv_python(name: str) -> Path:
    """The SDK venv's python, made ready once per session (the two venvs in parallel)."""
    with _venv_locks[name]:
        if name not in _venvs:
            _venvs[name] = sdk_envs.ensure_venv(name)
        return _venvs[name]


def _drive(fixed: FixedCopy, out_dir: Path, server_id: str, venv: str, script: str) -> dict[str, Any]:
    """Run fix_e2e_driver.py for one server x SDK; its JSON observations."""
    spec = {"servers": {"original": str(fixed.original / script),
                        "rewritten": str(fixed.rewritten / script)},
            "env": fixed.env,
            "calls": [{"tool": c.tool, "args": c.args} for c in CALLS[script]]}
    spec_path, out = out_dir / f"{server_id}.spec.json", out_dir / f"{server_id}.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    python = _venv_python(venv)
    with sdk_envs.driver_slot():
        proc = subprocess.run(
            [str(python), str(HERE / "fix_e2e_driver.py"), str(spec_path), str(out)],
            cwd=str(HERE), env=sdk_envs.driver_env(), capture_output=True, text=True, timeout=600,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"driver failed for {server_id}:\n{proc.stderr[-6000:]}")
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def e2e_fix_runs(fixed_copy, tmp_path_factory) -> dict[str, Future]:
    """Server id -> future of its driver's observations; every run is queued at once and runs
    in a driver slot (``runtime_sdk_envs.driver_slot``)."""
    if os.environ.get("TOKENLINT_SKIP_E2E"):
        pytest.skip("TOKENLINT_SKIP_E2E is set")
    out_dir = tmp_path_factory.mktemp("fix-e2e-runs")
    pool = ThreadPoolExecutor(max_workers=len(SERVERS))
    runs = {server_id: pool.submit(_drive, fixed_copy, out_dir, server_id, venv, script)
            for server_id, venv, script in SERVERS}
    yield runs
    pool.shutdown(wait=False, cancel_futures=True)
