"""Property tests: `check` never raises and every `fix` rewrite is sound, on generated programs.

Programs come from ``fuzz_programs.servers()`` (the fixtures' tool shapes with generated bodies)
and from hypothesmith (arbitrary Python from the grammar around a risky tool, and statements
built from LibCST's node types inside one). For each: ``check`` reports no internal error;
``fix``'s output parses, compiles, is a fixpoint (fix∘fix = fix), leaves every rewritten tool
LOW and changes nothing outside the rewritten tools but the added import (``fix_oracle``).

Profiles: quick by default (about 400 programs, under a minute); ``TOKENLINT_FUZZ=long`` runs
10,000 tool-shaped programs through check and fix, 10,000 more through check alone, and 1,000
of each hypothesmith kind (about an hour and a half on one core):

    TOKENLINT_FUZZ=long python -m pytest tests/test_fuzz.py -p no:cacheprovider

or in chunks that each report (``--hypothesis-show-statistics``), e.g. 20 × 500 programs:

    for seed in $(seq 1 20); do TOKENLINT_FUZZ_EXAMPLES=500 python -m pytest tests/test_fuzz.py \
        -k fix_is_sound --hypothesis-seed=$seed --hypothesis-show-statistics -p no:cacheprovider; done
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis.utils.conventions import not_set
from hypothesis import strategies as st

from fix_oracle import outside_changes, roundtrip_problems
from fuzz_programs import servers
from tokenlint.config import load_settings
from helpers import check

pytestmark = pytest.mark.slow

LONG = os.environ.get("TOKENLINT_FUZZ") == "long"
SETTINGS = load_settings(None, {})


def fuzz_settings(quick: int, long: int):
    """``TOKENLINT_FUZZ_EXAMPLES=N`` sets every property's count (to run the long profile in
    chunks, each with its own ``--hypothesis-seed``)."""
    chunked = int(os.environ.get("TOKENLINT_FUZZ_EXAMPLES", 0))
    count = chunked or (long if LONG else quick)
    # the quick profile is a CI gate: the same programs every run (derandomized, no example
    # database); the long profile and seeded chunks explore
    quick_profile = not (chunked or LONG)
    return settings(max_examples=count, deadline=None, print_blob=True, derandomize=quick_profile,
                    database=None if quick_profile else not_set,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


HEADER = "import sqlite3\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP('fuzz')\n"
RISKY_TOOL = (
    "\n\n@mcp.tool()\ndef fuzz_rows(q: str) -> list:\n"
    "    rows = sqlite3.connect('f.db').execute('SELECT * FROM t WHERE q = ?', (q,)).fetchall()\n"
    "    return rows\n"
)


def _roundtrip(source: bytes, name: str = "server.py") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(source)
        problems = roundtrip_problems(path, SETTINGS)
    assert not problems, "\n".join(problems) + "\n--- program ---\n" + source.decode("utf-8", "replace")


@fuzz_settings(quick=300, long=10_000)
@given(servers())
def test_check_never_raises_on_tool_shaped_programs(source):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "server.py"
        path.write_bytes(source)
        run = check([str(path)], SETTINGS)
    assert not run.internal_errors, source.decode()
    assert run.result.tools, source.decode()  # every generated server has tools to find


@fuzz_settings(quick=60, long=10_000)
@given(servers())
def test_fix_is_sound_on_tool_shaped_programs(source):
    _roundtrip(source)


@fuzz_settings(quick=25, long=1_000)
@given(hypothesmith.from_grammar(), st.booleans())
def test_grammar_programs_around_a_risky_tool(code, before):
    """Arbitrary module-level code (it may rebind `mcp`, `sqlite3`, anything) before or after a
    HIGH tool: check never raises, fix rewrites soundly, the generated code stays byte-identical."""
    parts = [HEADER, code, RISKY_TOOL] if before else [HEADER, RISKY_TOOL, code]
    _roundtrip("\n".join(parts).encode())


@fuzz_settings(quick=10, long=1_000)
@given(hypothesmith.from_node())
def test_cst_statements_inside_a_risky_tool(code):
    """Arbitrary statements (LibCST node types) as the body of a HIGH tool, before its return."""
    try:
        body = cst.parse_module(code).body
    except cst.ParserSyntaxError:
        assume(False)
    template = cst.parse_module(HEADER + RISKY_TOOL)
    fn = template.body[-1]
    assert isinstance(fn, cst.FunctionDef)
    new_fn = fn.with_changes(body=fn.body.with_changes(body=[*body, *fn.body.body]))
    source = template.with_changes(body=[*template.body[:-1], new_fn]).code
    _roundtrip(source.encode())


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_oracle_catches_a_change_outside_the_tools(tmp_path, monkeypatch, newline):
    """The oracle is not blind: a fix that also edits a line outside the tool is reported."""
    import tokenlint.fix.driver as driver

    real = driver._transform

    def sloppy(mod, code, plan, errors, *rest):
        new = real(mod, code, plan, errors, *rest)
        return None if new is None else new.replace("mcp = FastMCP('fuzz')", "mcp = FastMCP('oops')")

    monkeypatch.setattr(driver, "_transform", sloppy)
    path = tmp_path / "server.py"
    path.write_bytes((HEADER + RISKY_TOOL).replace("\n", newline).encode())
    problems = roundtrip_problems(path, SETTINGS)
    assert any("changed outside the rewritten tools" in p and "FastMCP('fuzz')" in p for p in problems)


OLD = "import x\n\nA = 1\n\n\ndef tool():\n    return rows\n\n\nB = 2\r\n"


@pytest.mark.parametrize(("new", "ok"), [
    (OLD.replace("    return rows", "    return fit(\n        rows,\n    )"), True),
    (OLD.replace("import x\n", "import x\nfrom tokenlint.runtime import fit\n"), True),
    (OLD.replace("A = 1\n", "from tokenlint.runtime import fit\n\nA = 1\n"), True),
    (OLD.replace("A = 1\n\n\n", "A = 1\n\n"), False),  # an empty line outside the tool lost
    (OLD.replace("B = 2\r\n", "B = 2\n"), False),  # a line ending changed
    (OLD.replace("A = 1", "A = 2"), False),
    (OLD + "C = 3\n", False),
])
def test_oracle_outside_changes(new, ok):
    assert (outside_changes(OLD, new, allowed={6, 7}) == []) is ok
