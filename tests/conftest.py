"""Fixtures shared by the linter's tests."""

from __future__ import annotations

import pytest

from helpers import REPO


@pytest.fixture
def in_repo(monkeypatch):
    """Run with the repository root as the working directory (paths print as `fixtures/...`)."""
    monkeypatch.chdir(REPO)
    return REPO
