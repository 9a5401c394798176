"""Fixtures and markers shared by the linter's tests.

Markers (registered in pyproject.toml): ``e2e`` (real MCP SDKs in their own venvs, pip, the
package index, real pre-commit) and ``slow`` (long property, kill and formatter tests). A fast run:
``python -m pytest -m "not e2e and not slow"``; ``python -m pytest`` runs everything.
``TOKENLINT_SKIP_E2E=1`` still skips the e2e tests (an alias of ``-m "not e2e"``).

The suite writes nothing into the checkout: ``tokenlint check`` caches in a temporary directory
(``TOKENLINT_CACHE_DIR``) and hypothesis keeps its example database in the user's cache
directory (``helpers.USER_CACHE``), as test_sarif.py keeps the SARIF schema.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest
from click.testing import Result

from helpers import FIXTURES, REPO, USER_CACHE, check, run_cli
from tokenlint.config import Settings

#: Test modules of the other test packages whose tests are end-to-end (by file name; a test
#: that uses one of ``E2E_FIXTURES`` is one too).
E2E_FILES = frozenset({"test_runtime_http.py", "test_deploy.py", "test_precommit.py"})
E2E_FIXTURES = frozenset({"e2e_runs", "e2e_fix_runs", "profile_run"})

os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(USER_CACHE / "hypothesis"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark e2e tests found by file or fixture (``e2e`` in the file name, ``E2E_FILES``,
    ``E2E_FIXTURES``), and skip every e2e test when ``TOKENLINT_SKIP_E2E`` is set.

    Under pytest-xdist (``-n auto``, ``--dist loadgroup`` from pyproject.toml) each item gets an
    ``xdist_group`` (``_xdist_group``), so that a worker computes a module's or a session's
    shared results (the fixtures' check, the SDK driver runs) once and no other worker repeats
    them. ``tryfirst``: xdist's worker reads the ``xdist_group`` marks in its own
    ``pytest_collection_modifyitems`` (appending ``@group`` to each node id), which pluggy would
    otherwise call before this one (it was registered later): then no test had a group, every
    test was its own unit, and both workers set up the module fixtures and started every SDK
    driver run."""
    skip = pytest.mark.skip(reason="TOKENLINT_SKIP_E2E is set") if os.environ.get("TOKENLINT_SKIP_E2E") else None
    for item in items:
        name = item.path.name
        if "e2e" in name or name in E2E_FILES or E2E_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)
        if skip is not None and item.get_closest_marker("e2e") is not None:
            item.add_marker(skip)
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(_xdist_group(item)))


def _xdist_group(item: pytest.Item) -> str:
    """The pytest-xdist group of a test: the e2e tests of one test package together (they share
    the session's driver runs over the SDK venvs: ``tests/runtime/conftest.py``,
    ``tests/fix/conftest.py``), any other test with the tests of its module (module-scoped
    fixtures such as ``test_fixtures.fixture_run``)."""
    try:
        relative = item.path.resolve().relative_to(REPO / "tests")
    except ValueError:  # (a test outside tests/, named on the command line)
        return item.path.as_posix()
    if item.get_closest_marker("e2e") is not None and len(relative.parts) > 1:
        return f"e2e:{relative.parts[0]}"
    return relative.as_posix()


@pytest.fixture(scope="session", autouse=True)
def _cache_outside_the_checkout(tmp_path_factory: pytest.TempPathFactory):
    """``tokenlint check`` (in process and in subprocesses) caches in a temporary directory,
    never in the checkout's ``.tokenlint_cache/``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TOKENLINT_CACHE_DIR", str(tmp_path_factory.mktemp("tokenlint-cache")))
        yield


@pytest.fixture
def in_repo(monkeypatch):
    """Run with the repository root as the working directory (paths print as `fixtures/...`)."""
    monkeypatch.chdir(REPO)
    return REPO


@pytest.fixture
def cli(monkeypatch) -> Callable[..., Result]:
    """``cli("check", path, ..., cwd=None, catch_exceptions=False)``: run the ``tokenlint``
    command in process (``helpers.run_cli``) from ``cwd`` (default: the current directory),
    returning click's ``Result``."""

    def run(*args: object, cwd: Path | str | None = None, catch_exceptions: bool = False) -> Result:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        return run_cli(*args, catch_exceptions=catch_exceptions)

    return run


@pytest.fixture(scope="session")
def fixtures_report():
    """The ``CheckResult`` of ``fixtures/`` checked in process (the reference other runs match)."""
    return check([str(FIXTURES)], Settings()).result
