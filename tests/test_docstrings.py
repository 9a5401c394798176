"""Every public function, class and method of tokenlint has a docstring (issue #14).

The docstrings say what a function takes and returns (a flow is a frozenset of taints; a site a
node in a module; positions are 1-based), the units of any number (tokens, characters, bytes,
items), what it raises, and where a pattern or number comes from (the MCP spec, a client's
documented limit, a library's API). ``tokenlint.runtime`` and ``tokenlint.fix`` have their own
tests (``tests/runtime/test_runtime_docstrings.py``, ``tests/test_fix.py``); this one covers every
other package and top-level module, found on disk so that a new one is covered from the start.
"""

from __future__ import annotations

import pytest

from helpers import REPO, undocumented

#: Covered by their own tests.
OWN_TESTS = frozenset({"runtime", "fix"})


def _parts() -> list[str]:
    """``tokenlint.<name>`` of every package and module directly under ``tokenlint/`` (private
    ones, ``__main__`` and ``_version``, left out: importing ``__main__`` runs the CLI)."""
    names = []
    for path in sorted((REPO / "tokenlint").iterdir()):
        name = path.stem if path.suffix == ".py" else path.name
        if name.startswith("_") or name in OWN_TESTS:
            continue
        if path.suffix == ".py" or (path.is_dir() and any(path.glob("*.py"))):
            names.append(f"tokenlint.{name}")
    return names


PARTS = _parts()


def test_the_parts_are_found():
    # (a namespace package, ``tokenlint.analysis``, has no __init__.py: it must be found all the same)
    assert {"tokenlint.analysis", "tokenlint.discovery", "tokenlint.source", "tokenlint.rules",
            "tokenlint.run", "tokenlint.report", "tokenlint.model", "tokenlint.cli"} <= set(PARTS)


@pytest.mark.parametrize("package", PARTS)
def test_every_public_function_and_class_has_a_docstring(package):
    assert undocumented(package) == []
