"""What makes `tokenlint check` fast must not change what it reports (issue 7).

No timing is asserted here (benchmarks/speed.py measures speed). These tests hold the fast paths
to their slow references — the walk to ``CSTNode.children``, positions to LibCST's
``PositionProvider``, the byte prefilter to its regex, the import scan to ``ast`` — and the
runs to each other: with and without the cache, cold and warm, for any ``-j``, and in process.
"""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner
from libcst.metadata import MetadataWrapper, PositionProvider

from helpers import FIXTURES, REPO, check, write
from tokenlint.cli import main
from tokenlint.run.grouping import ModuleIndex, group, scan_imports
from tokenlint.config import Settings, rule_codes
from tokenlint.source.files import PREFILTER, may_define_tools
from tokenlint.source.parsing import parse_source
from tokenlint.source.project import ParsedModule
from tokenlint.source.walk import TRIVIA, code_children, walk

FIXTURE_FILES = sorted(FIXTURES.rglob("*.py"))
SOURCES = [p for p in FIXTURE_FILES if "bad_input" not in p.parts] + sorted((REPO / "tokenlint").rglob("*.py"))


def _parsed(path: Path) -> ParsedModule:
    source = parse_source(path.read_text(encoding="utf-8"), str(path))
    return ParsedModule.build(path, str(path), source.tree, None, source.stmt_lines)


# -- the fast paths equal their references --------------------------------------------------------
@pytest.mark.parametrize("path", SOURCES[:40], ids=lambda p: p.name)
def test_code_children_are_children_without_trivia(path):
    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    stack: list[cst.CSTNode] = [tree]
    while stack:
        node = stack.pop()
        expected = [c for c in node.children if type(c) not in TRIVIA]
        assert code_children(node) == expected, type(node).__name__
        stack.extend(node.children)
    assert [id(n) for n in walk(tree)] == [id(n) for n in _slow_walk(tree) if type(n) not in TRIVIA]


def _slow_walk(root):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


@pytest.mark.parametrize("path", SOURCES[:40], ids=lambda p: p.name)
def test_positions_per_statement_equal_the_position_provider(path):
    mod = _parsed(path)
    full = MetadataWrapper(mod.tree, unsafe_skip_copy=True).resolve(PositionProvider)
    for node, _ in mod.nodes()[1:]:
        r = full[node]
        assert mod.position(node) == (r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)


def test_positions_without_ast_lines_fall_back_to_the_whole_module():
    path = FIXTURES / "split_server" / "tools_db.py"
    source = parse_source(path.read_text(encoding="utf-8"))
    mod = ParsedModule.build(path, "x.py", source.tree, None, None)
    full = MetadataWrapper(mod.tree, unsafe_skip_copy=True).resolve(PositionProvider)
    for node, _ in mod.nodes()[1:]:
        assert mod.position(node)[0] == full[node].start.line


def test_byte_prefilter_is_the_regex():
    rng = random.Random(7)
    alphabet = b"abcmpMCPtol_.:( \n"
    samples = [bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(20_000)]
    samples += [p.read_bytes() for p in FIXTURE_FILES]
    samples += [b"json.tool", b"libcst.toolkit", b"x.tool\n", b"mcp_x", b"on_call_tool=", b"MCPServer", b"xmcp"]
    for data in samples:
        assert may_define_tools(data) == (PREFILTER.search(data) is not None), data[:80]


def test_code_prefilter_drops_modules_that_mention_mcp_only_in_strings(tmp_path):
    doc_only = '"""Run as `python -m json.tool`; not an mcp server."""\nimport json\n# FastMCP\n'
    assert may_define_tools(doc_only.encode())
    assert parse_source(doc_only, candidate=True) is None
    for code in ("from .server import mcp\n", "x.tool()\n", "app.mount(sub, 'p')\n", "class S(FastMCP): pass\n",
                 "def register(mcp): pass\n", "Server(on_call_tool=h)\n", "import json.tool\n"):
        assert parse_source(code, candidate=True) is not None, code


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_import_scan_finds_every_import(path):
    data = path.read_bytes()
    found = scan_imports(data)
    plain = {m for level, m, names in found if names is None}
    froms: dict[tuple[int, str], set[str]] = {}
    for level, module, names in found:
        if names is not None:
            froms.setdefault((level, module), set()).update(names)
    for node in ast.walk(ast.parse(data)):
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= plain
        elif isinstance(node, ast.ImportFrom):
            assert {a.name for a in node.names} <= froms.get((node.level, node.module or ""), set())


def test_import_scan_odd_forms():
    src = (b"import os, sys as s\nfrom . import x\nfrom ..a.b import (c,  # note\n d as e)\n"
           b"if x: import json.tool as jt\nx = 1; from q import w\nfrom \\\n  z import y, \\\n  yy\nfrom m import *\n")
    assert scan_imports(src) == [
        (0, "os", None), (0, "sys", None), (1, "", ("x",)), (2, "a.b", ("c", "d")), (0, "json.tool", None),
        (0, "q", ("w",)), (0, "z", ("y", "yy")), (0, "m", ("*",)),
    ]


def test_rule_codes_without_importing_rules_match_the_registry():
    from tokenlint.rules import REGISTRY

    assert rule_codes() == tuple(sorted(REGISTRY))


# -- groups -------------------------------------------------------------------------------------
def test_groups_follow_reexports_through_modules_that_are_not_candidates():
    """tools.py imports `app` from pkg (a re-export in pkg/__init__.py, no MCP word), which
    takes it from pkg/server.py: tools and server must be analysed together; other.py not."""
    imports = {
        "pkg": [(1, "server", ("app",))],
        "pkg.server": [(0, "mcp.server.fastmcp", ("FastMCP",))],
        "pkg.tools": [(0, "pkg", ("app",))],
        "other": [(0, "json", None)],
    }
    index = ModuleIndex(imports, {"pkg"})
    groups = group(["other", "pkg.server", "pkg.tools"], index, lambda name: imports.get(name, []))
    assert groups == [[0], [1, 2]]


def test_split_server_is_one_group():
    from tokenlint.source.files import expand_paths
    from tokenlint.run.inputs import read_files

    plan = read_files(expand_paths([str(FIXTURES)], Settings()))
    groups = plan.groups()
    names = [{c.module_name for c in g} for g in groups]
    split = [g for g in names if any(n.startswith("split_server") for n in g)]
    assert len(split) == 1 and {"split_server.server", "split_server.tools_db", "split_server.tools_imports"} <= split[0]
    assert len(groups) > 2  # the loose fixture servers are groups of their own


# -- runs give the same report ------------------------------------------------------------------
@pytest.fixture(scope="module")
def reference():
    return check([str(FIXTURES)], Settings()).result


@pytest.mark.parametrize("jobs", [1, 2, 4])
def test_same_result_for_any_jobs_without_cache(jobs, reference):
    assert check([str(FIXTURES)], Settings(), jobs=jobs).result == reference


def test_same_result_cold_and_warm_cache(tmp_path, reference):
    cache = tmp_path / "cache"
    cold = check([str(FIXTURES)], Settings(), jobs=2, cache_dir=cache)
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert any(cache.rglob("files.json")) and len(list(cache.rglob("groups/*/*.json"))) > 2
    warm = check([str(FIXTURES)], Settings(), jobs=1, cache_dir=cache)
    warm2 = check([str(FIXTURES)], Settings(), jobs=4, cache_dir=cache)
    assert cold.result == warm.result == warm2.result == reference
    tools = {(t.path.split("fixtures/")[-1], t.name) for t in warm.result.tools}
    assert ("split_server/tools_db.py", "all_orders") in tools  # registered on a server of another module


def test_cache_is_keyed_by_settings(tmp_path):
    cache = tmp_path / "cache"
    everything = check([str(FIXTURES)], Settings(), cache_dir=cache).result
    only = Settings(select=("TL401",))
    assert check([str(FIXTURES)], only, cache_dir=cache).result == check([str(FIXTURES)], only).result
    assert check([str(FIXTURES)], Settings(), cache_dir=cache).result == everything


SERVER = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('shop')\n"
TOOLS = """\
import sqlite3

from .server import mcp
from .queries import orders


@mcp.tool()
def list_orders() -> list:
    return orders(sqlite3.connect("shop.db"))
"""
UNBOUNDED = "def orders(conn):\n    return conn.execute('SELECT * FROM orders').fetchall()\n"
BOUNDED = "def orders(conn):\n    return conn.execute('SELECT * FROM orders').fetchmany(20)\n"


def _shop(tmp_path: Path, queries: str | None) -> Path:
    pkg = tmp_path / "shop"
    write(pkg, "__init__.py", "")
    write(pkg, "server.py", SERVER)
    write(pkg, "tools.py", TOOLS)
    if queries is None:
        (pkg / "queries.py").unlink(missing_ok=True)
    else:
        write(pkg, "queries.py", queries)
    return pkg


def _codes(result) -> set[str]:
    return {f.code for f in result.findings}


def test_changing_a_followed_helper_module_invalidates_the_cache(tmp_path):
    """queries.py passes no prefilter (no MCP word): the tool's group is tools.py + server.py,
    but its result depends on queries.py, which the analysis followed."""
    pkg = _shop(tmp_path, UNBOUNDED)
    cache = tmp_path / "cache"
    first = check([str(pkg)], Settings(), cache_dir=cache).result
    assert "TL101" in _codes(first)
    assert check([str(pkg)], Settings(), cache_dir=cache).result == first
    _shop(tmp_path, BOUNDED)
    second = check([str(pkg)], Settings(), cache_dir=cache).result
    assert second == check([str(pkg)], Settings()).result
    assert "TL101" not in _codes(second)
    _shop(tmp_path, None)  # the helper module removed: the call can no longer be followed
    third = check([str(pkg)], Settings(), cache_dir=cache).result
    assert third == check([str(pkg)], Settings()).result
    _shop(tmp_path, UNBOUNDED)  # and added back
    assert check([str(pkg)], Settings(), cache_dir=cache).result == first


def test_an_old_file_index_entry_is_trusted_and_a_racy_one_is_not(tmp_path):
    """The index vouches for a file only if it was modified well before the index was written:
    otherwise a rewrite within the same timestamp tick could go unnoticed."""
    from tokenlint.run.cache import RACY_NS, FileIndexStore

    f = write(tmp_path, "a.py", "x = 1\n")
    st = os.stat(f)
    index = FileIndexStore(tmp_path / "files.json")
    index.record(str(f), st, True, "d1")
    index.save()
    assert FileIndexStore(tmp_path / "files.json").known(str(f), st) is None  # written just now: racy
    old = st.st_mtime_ns - 2 * RACY_NS
    os.utime(f, ns=(old, old))
    st = os.stat(f)
    index.record(str(f), st, True, "d1")
    index.save()
    assert FileIndexStore(tmp_path / "files.json").known(str(f), st) == (True, "d1")
    f.write_text("x = 2  # changed\n")
    assert FileIndexStore(tmp_path / "files.json").known(str(f), os.stat(f)) is None


# -- the command line ---------------------------------------------------------------------------
def _check(args, cwd):
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(main, ["check", "-f", "json", *args])
    finally:
        os.chdir(old)


def test_no_cache_writes_nothing_and_the_default_cache_is_self_ignoring(tmp_path):
    pkg = _shop(tmp_path / "proj", UNBOUNDED)
    proj = tmp_path / "proj"
    before = sorted(p.relative_to(proj) for p in proj.rglob("*"))
    plain = _check(["--no-cache", "shop"], proj)
    assert plain.exit_code == 1, plain.output
    assert sorted(p.relative_to(proj) for p in proj.rglob("*")) == before
    cached = _check(["shop"], proj)
    assert json.loads(cached.stdout) == json.loads(plain.stdout)
    assert (proj / ".tokenlint_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (proj / ".tokenlint_cache" / "CACHEDIR.TAG").exists()
    other = tmp_path / "elsewhere"
    again = _check(["--cache-dir", str(other), "-j", "2", str(pkg)], proj)
    assert [(f["code"], f["line"], f["column"]) for f in json.loads(again.stdout)["findings"]] == [
        (f["code"], f["line"], f["column"]) for f in json.loads(plain.stdout)["findings"]]
    assert (other / "CACHEDIR.TAG").exists()


def test_cache_dir_is_git_ignored_in_this_repository():
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    assert subprocess.run(["git", "check-ignore", "-q", ".tokenlint_cache/x"], cwd=REPO).returncode == 0


def test_a_fully_cached_run_does_not_load_libcst(tmp_path):
    """A warm re-run must start fast: it reads the cache and imports no LibCST or analysis."""
    cache = tmp_path / "cache"
    check([str(FIXTURES)], Settings(), cache_dir=cache)
    time.sleep(0.01)
    code = (
        "import sys\n"
        "from tokenlint.cli import fix_unfixable_reason as fx\nfrom tokenlint.config import Settings\n"
        "from tokenlint.run.cache import Cache\nfrom tokenlint.run.pipeline import Pooled, check_paths\n"
        f"r = check_paths([{str(FIXTURES)!r}], Settings(), unfixable_reason=fx,\n"
        f"                executor=Pooled(None, Cache({str(cache)!r}, Settings(), fx)))\n"
        "print(len(r.result.tools), 'libcst' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    tools, loaded = out.split()
    assert int(tools) > 20
    assert loaded == "False"


QUERY_SERVER = """\
import sqlite3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("db{i}")
QUERY = "SELECT id, total FROM orders{limit}"


@mcp.tool()
def orders_{i}() -> list:
    return sqlite3.connect("shop.db").execute(QUERY).fetchall()
"""


def test_groups_analysed_one_after_another_do_not_share_state(tmp_path):
    """Each loose server is a group of its own; analysed in one process one after another, the
    trees of finished groups are freed and their addresses reused. A module-level cache keyed by
    ``id(tree)`` once handed one module's constants to the next: only the servers whose QUERY
    has no LIMIT may get a TL101, whatever runs before them."""
    for i in range(60):
        write(tmp_path, f"s{i:02d}.py", QUERY_SERVER.format(i=i, limit="" if i % 2 else " LIMIT 20"))
    for jobs in (1, 2):
        result = check([str(tmp_path)], Settings(), jobs=jobs).result
        flagged = {Path(f.path).name for f in result.findings if f.code == "TL101"}
        assert flagged == {f"s{i:02d}.py" for i in range(1, 60, 2)}
