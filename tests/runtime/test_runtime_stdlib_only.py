"""The runtime imports and pages with the standard library alone, on every Python it supports.

``tokenlint/runtime/pyproject.toml`` declares ``requires-python = ">=3.10"`` and no dependency.
Each interpreter (this one and, where installed, Python 3.10) runs a copy of
``tokenlint/runtime`` with ``-I -S``: no site-packages (so no typing_extensions, no tiktoken, no
pydantic), nothing but that copy on ``sys.path``. It imports ``tokenlint.runtime``, checks
``PageEnvelope``'s keys and pages a list over its budget.
"""

from __future__ import annotations

import glob
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tokenlint.runtime
from tokenlint.runtime import PageEnvelope

RUNTIME = Path(tokenlint.runtime.__file__).parent

ENVELOPE_KEYS = ["items", "total", "page", "next_cursor", "next_action", "resource_uri", "omitted",
                 "item_json", "item_index", "item_part", "item_parts", "value_json"]

PROGRAM = r"""
import sys, typing
sys.path.insert(0, sys.argv[1])
import tokenlint.runtime as rt
from tokenlint.runtime import PageEnvelope, fit_response
assert rt.__file__.startswith(sys.argv[1]), rt.__file__
for name in ("typing_extensions", "tiktoken", "pydantic"):
    assert name not in sys.modules, name
assert list(typing.get_type_hints(PageEnvelope)) == sys.argv[2].split(","), \
    list(typing.get_type_hints(PageEnvelope))
assert PageEnvelope.__required_keys__ == frozenset({"next_action"}), PageEnvelope.__required_keys__
rows = [{"id": i, "body": "lorem ipsum dolor " * 6} for i in range(500)]
page = fit_response(rows, tool="list_rows", arguments={}, max_tokens=2000)
assert isinstance(page, dict) and 0 < len(page["items"]) < len(rows), page
assert page["next_action"]["tool"] == "list_rows", page["next_action"]
print("%d.%d ok" % sys.version_info[:2])
"""


def _python310() -> str | None:
    """A Python 3.10 interpreter that runs, or None."""
    candidates = [shutil.which("python3.10"),
                  *sorted(glob.glob("/root/.pyenv/versions/3.10*/bin/python3.10"))]
    for exe in filter(None, candidates):
        try:
            out = subprocess.run([exe, "-I", "-S", "-c", "import sys; print(sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and out.stdout.strip() == "(3, 10)":
            return exe
    return None


def _interpreters():
    yield pytest.param(sys.executable, id=f"python{sys.version_info[0]}.{sys.version_info[1]}")
    if sys.version_info[:2] != (3, 10):
        exe = _python310()
        yield pytest.param(exe, id="python3.10", marks=pytest.mark.skipif(
            exe is None, reason="no Python 3.10 interpreter on this machine"))


@pytest.mark.parametrize("python", list(_interpreters()))
def test_runtime_imports_and_pages_with_the_standard_library_only(tmp_path, python):
    package = tmp_path / "tokenlint" / "runtime"
    shutil.copytree(RUNTIME, package, ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info", "build", "pyproject.toml", "README.md"))
    result = subprocess.run([python, "-I", "-S", "-c", PROGRAM, str(tmp_path), ",".join(ENVELOPE_KEYS)],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith(" ok")


def test_page_envelope_keys_in_this_environment():
    """The same keys in the declared order, ``next_action`` the one required key, extra keys
    allowed (what the SDKs' pydantic reads), whichever TypedDict this environment gives."""
    import typing

    assert list(typing.get_type_hints(PageEnvelope)) == ENVELOPE_KEYS
    assert PageEnvelope.__required_keys__ == frozenset({"next_action"})
    assert PageEnvelope.__optional_keys__ == frozenset(ENVELOPE_KEYS) - {"next_action"}
    assert PageEnvelope.__pydantic_config__ == {"extra": "allow"}  # type: ignore[attr-defined]
