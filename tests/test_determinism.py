"""The report does not depend on the process's hash seed.

Flows are sets whose iteration order follows ``hash``, and ``str`` hashes change with
``PYTHONHASHSEED`` from one process to the next: a verdict or a finding's position picked as
"the first element" of a set made ``tokenlint check`` give a tool LOW in one run and MEDIUM in
the next on a real server. A CI gate needs the same answer every time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _report(seed: str, *paths: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-m", "tokenlint", "check", "--format", "json", "--no-cache",
                           "--exit-zero", *paths], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_fixture_report_is_the_same_under_every_hash_seed():
    reports = {seed: _report(seed, "fixtures") for seed in ("0", "1", "2", "3")}
    assert '"tools"' in reports["0"]
    assert len(set(reports.values())) == 1, "the report changed with PYTHONHASHSEED"


def test_a_bound_of_two_parameters_is_read_the_same_under_every_hash_seed():
    """``rows[: count or limit]``: before, seeds 0 and 5 gave HIGH and seeds 1-4 MEDIUM."""
    reports = {seed: _report(seed, "tests/data/determinism") for seed in ("0", "1", "2", "3", "4", "5")}
    assert '"recent"' in reports["0"]
    assert len(set(reports.values())) == 1, "the verdict changed with PYTHONHASHSEED"
