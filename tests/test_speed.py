"""What makes `tokenlint check` fast must not change what it reports (issue 7).

No timing is asserted here (benchmarks/speed.py measures speed). These tests hold the fast paths
to their slow references — the walk to ``CSTNode.children``, positions to LibCST's
``PositionProvider``, the byte prefilter to its regex, the import scan to ``ast`` — and the
runs to each other: for any ``-j`` and in process (the cache: test_cache.py).
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from helpers import FIXTURES, REPO, check, write
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
    return ParsedModule.build(path, str(path), source.tree, None, source.stmt_lines, source.member_lines)


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


CLASSES = """\
import os


class Fetcher(Base):
  '''Two-space body.'''
  x = 1; y = [
      2,
  ]

  # a comment before a decorated method
  @property
  def rows(self):
      return [os.listdir(p) for p in self.paths]

  class Inner:
      def f(self): return 1
class Tabs:
\tdef g(self):
\t\tif True:
\t\t\treturn {"a": 1}
\tz = 3  # trailing


if True:
    class Nested:
        def h(self): ...
"""


def test_positions_per_class_statement_equal_the_position_provider(tmp_path):
    """Statements of a top-level class body are placed one at a time, whatever the indentation,
    decorators, comments and small statements sharing a line."""
    path = write(tmp_path, "classes.py", CLASSES)
    mod = _parsed(path)
    assert mod.member_lines is not None and len(mod.member_lines) == 2
    full = MetadataWrapper(mod.tree, unsafe_skip_copy=True).resolve(PositionProvider)
    for node, _ in reversed(mod.nodes()[1:]):  # members first, the class headers last
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
@pytest.mark.parametrize("jobs", [1, 2, 4])
def test_same_result_for_any_jobs_without_cache(jobs, fixtures_report):
    assert check([str(FIXTURES)], Settings(), jobs=jobs).result == fixtures_report


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
