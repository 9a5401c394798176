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
            group = _xdist_group(item)
            if group is not None:
                item.add_marker(pytest.mark.xdist_group(group))


#: Fixtures wider than a test that every worker may set up for itself: cheap, so a test that
#: needs no other shared fixture is distributed on its own (``_xdist_group``).
PER_WORKER_FIXTURES = frozenset({"_cache_outside_the_checkout", "cl100k", "redis_url"})
#: The prefix of the groups ``_Scheduling`` hands out first.
EARLY = "e2e:"


def _shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a module-, package- or session-scoped fixture of the suite's own (a
    conftest's or its module's, ``PER_WORKER_FIXTURES`` aside) that is computed once for the
    tests sharing it (``test_fixtures.fixture_run``, ``test_fix.fixed_fixtures``,
    ``fixtures_report``...). True when pytest does not say."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return True
    for name, defs in info.name2fixturedefs.items():
        if not defs or name in PER_WORKER_FIXTURES:
            continue
        definition = defs[-1]
        if definition.scope != "function" and str(definition.baseid).startswith("tests"):
            return True
    return False


def _xdist_group(item: pytest.Item) -> str | None:
    """The pytest-xdist group of a test: the e2e tests of one test package together (they share
    the session's driver runs over the SDK venvs: ``tests/runtime/conftest.py``,
    ``tests/fix/conftest.py``), any other test that shares a fixture (``_shares_a_fixture``)
    with the tests of its module (module-scoped fixtures such as ``test_fixtures.fixture_run``),
    and none for a test that shares nothing: it is a unit of its own, so that the few long tests
    of a module (test_fix_style.py, test_fuzz.py, test_determinism.py) run on both workers
    instead of one. E2E groups start with ``EARLY``: ``_Scheduling`` hands them out first, so
    that the SDK drivers and pip runs they wait on overlap the rest of the suite instead of
    trailing it (an e2e test of its own is ``e2e:`` and its node id)."""
    try:
        relative = item.path.resolve().relative_to(REPO / "tests")
    except ValueError:  # (a test outside tests/, named on the command line)
        return item.path.as_posix()
    e2e = item.get_closest_marker("e2e") is not None
    if e2e and len(relative.parts) > 1:
        return f"{EARLY}{relative.parts[0]}"
    if _shares_a_fixture(item):
        return f"{EARLY if e2e else ''}{relative.as_posix()}"
    if e2e:  # ("[" and "]" would hide the group from pytest-xdist's loadgroup)
        return EARLY + item.nodeid.translate(str.maketrans("[]", "()"))
    return None


try:
    from xdist.scheduler import LoadGroupScheduling
except ImportError:  # (pytest-xdist not installed: the suite runs in one process)
    LoadGroupScheduling = None

if LoadGroupScheduling is not None:

    class _Scheduling(LoadGroupScheduling):
        """``--dist loadgroup`` with the e2e groups (``EARLY``) handed out first; the other
        units follow in pytest-xdist's order (the largest groups first, then single tests)."""

        _ordered = False

        def _assign_work_unit(self, node) -> None:
            if not self._ordered:
                self._ordered = True
                for scope in [s for s in self.workqueue if s.startswith(EARLY)][::-1]:
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    def pytest_xdist_make_scheduler(config: pytest.Config, log):
        """``_Scheduling`` for ``--dist loadgroup`` (pyproject.toml's addopts)."""
        if config.getvalue("dist") == "loadgroup":
            return _Scheduling(config, log)
        return None


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
