"""`tokenlint fix`: codemod output (syrupy snapshots), no-ops, fixpoint, re-check, file safety."""

from __future__ import annotations

import os
import shutil
import textwrap

import pytest

from helpers import FIXTURES, undocumented, write
from tokenlint.config import load_settings
from tokenlint.fix.driver import fix_paths
from tokenlint.fix.result_resource import NO_RESOURCE_NOTE
from tokenlint.fix.write import write_changes
from tokenlint.model import Risk

SETTINGS = load_settings(None, {})


def _fixture_files() -> list[str]:
    return sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*.py"))


@pytest.fixture(scope="module")
def fixed_fixtures(tmp_path_factory):
    """A copy of fixtures/ with `fix` applied: (root, FixResult, before bytes by relative path)."""
    root = tmp_path_factory.mktemp("fx") / "fixtures"
    shutil.copytree(FIXTURES, root)
    before = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    cwd = os.getcwd()
    os.chdir(root.parent)
    try:
        result = fix_paths(["fixtures"], SETTINGS)
        assert write_changes(result.changes) == []
    finally:
        os.chdir(cwd)
    return root, result, before


@pytest.mark.parametrize("name", _fixture_files())
def test_fix_output_per_fixture(fixed_fixtures, name, snapshot):
    """Before/after of every fixture file (each framework form, each registration form)."""
    root, result, before = fixed_fixtures
    change = next((c for c in result.changes if c.display == f"fixtures/{name}"), None)
    after = (root / name).read_bytes()
    if change is None:
        assert after == before[name], "a file fix did not change was touched"
    assert (change.diff() if change else "(unchanged)") == snapshot


def test_fix_outcomes(fixed_fixtures, snapshot):
    """Every HIGH/MEDIUM tool is either fixed (with notes) or listed with the reason."""
    _, result, _ = fixed_fixtures
    rows = [f"{o.path}:{o.line} {o.name} {o.risk.name} "
            + ("fixed" + "".join(f"; {n}" for n in o.notes) if o.fixed else f"NOT FIXED: {o.reason}")
            for o in result.outcomes]
    assert rows == snapshot
    assert result.errors == []


def test_fixed_tools_are_low_and_the_rest_unchanged(fixed_fixtures):
    root, result, _ = fixed_fixtures
    cwd = os.getcwd()
    os.chdir(root.parent)
    try:
        from helpers import check

        after = {(t.path, t.name): t.risk for t in check(["fixtures"], SETTINGS).result.tools}
    finally:
        os.chdir(cwd)
    fixed = {(o.path, o.name) for o in result.outcomes if o.fixed}
    unfixed = {(o.path, o.name): o.risk for o in result.outcomes if not o.fixed}
    assert len(fixed) >= 60
    for key, risk in after.items():
        if key in fixed:
            assert risk == Risk.LOW, (key, risk)
        elif key in unfixed:
            assert risk == unfixed[key], key


def test_fix_twice_is_a_fixpoint(fixed_fixtures):
    root, _, _ = fixed_fixtures
    cwd = os.getcwd()
    os.chdir(root.parent)
    try:
        again = fix_paths(["fixtures"], SETTINGS)
    finally:
        os.chdir(cwd)
    assert again.changes == []
    assert all(not o.fixed for o in again.outcomes)  # only the unfixable ones are left


def _fix_source(tmp_path, source: str, name: str = "server.py", settings=SETTINGS) -> tuple[str, list]:
    path = write(tmp_path, name, textwrap.dedent(source))
    result = fix_paths([str(path)], settings)
    assert result.errors == []
    return (result.changes[0].new_text if result.changes else path.read_text()), result.outcomes


HEADER = "import sqlite3\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP('db')\ndb = sqlite3.connect('x.db')\n"


def test_layout_of_multiline_parameters_with_trailing_comma(tmp_path):
    new, _ = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        @mcp.tool()
        def orders(
            customer: str,
            status: str = "open",
        ) -> list[dict]:
            """Orders of a customer."""
            return db.execute("SELECT * FROM orders WHERE c = ? AND s = ?", (customer, status)).fetchall()
    '''))
    assert textwrap.dedent('''
        def orders(
            customer: str,
            status: str = "open",
            cursor: Cursor = None,
        ) -> Paged[list[dict]]:
            """Orders of a customer.

            Long results are paged: follow next_action for the rest.
            """
            return fit_response(
                db.execute(
                    "SELECT * FROM orders WHERE c = ? AND s = ?", (customer, status)
                ).fetchall(),
                tool="orders",
                arguments={"customer": customer, "status": status},
                cursor=cursor,
                max_tokens=10_000,
            )
    ''') in new
    assert ("from tokenlint.runtime import (\n    Cursor,\n    Paged,\n    computed_once,\n"
            "    fit_response,\n    register_result_resource,\n)\n") in new
    assert new.endswith("\n\n\nregister_result_resource(mcp)\n")  # after the last tool
    assert "@mcp.tool()\n@computed_once\ndef orders(" in new


def test_keyword_only_and_kwargs_get_a_keyword_only_cursor(tmp_path):
    new, _ = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        @mcp.tool()
        async def a(*, q: str) -> list:
            return db.execute("SELECT * FROM t WHERE q = ?", (q,)).fetchall()
        @mcp.tool()
        def b(q: str, **extra) -> list:
            return db.execute("SELECT * FROM t WHERE q = ?", (q,)).fetchall()
    '''))
    assert "async def a(*, q: str, cursor: Cursor = None) -> Paged[list]:" in new
    assert "def b(q: str, *, cursor: Cursor = None, **extra) -> Paged[list]:" in new
    compile(new, "server.py", "exec")


def test_local_named_cursor_is_renamed_not_shadowed(tmp_path):
    new, _ = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        @mcp.tool()
        def tags():
            cursor = db.cursor()
            cursor.execute("SELECT name FROM tags")
            return cursor.fetchall()
    '''))
    # renamed to a name of the same length: the renamed lines keep their layout
    assert "    db_cur = db.cursor()\n    db_cur.execute(" in new
    assert ('    return fit_response(\n'
            '        db_cur.fetchall(), tool="tags", arguments={}, cursor=cursor, max_tokens=10_000\n'
            '    )\n') in new
    assert "def tags(cursor: Cursor = None):" in new


def test_clamp_json_dumps_and_context_session(tmp_path):
    new, outcomes = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        import json
        from mcp.server.fastmcp import Context
        @mcp.tool()
        def top(ctx: Context, limit: int = 20) -> str:
            """Top rows."""
            rows = db.execute("SELECT * FROM t LIMIT ?", (limit,)).fetchall()
            return json.dumps(rows, indent=2)
    '''))
    # the docstring (the tool's description) gains one sentence on paging
    assert '    """Top rows.\n\n    Long results are paged: follow next_action for the rest.\n    """\n' \
        '    limit = min(limit, 250)\n' in new
    assert ('fit_json_text(\n        rows,\n        tool="top",\n        arguments={"limit": limit},\n'
            '        cursor=cursor,\n        session_id=session_id_from_context(ctx),\n        max_tokens=10_000,\n'
            '        indent=2,\n    )') in new
    assert outcomes[0].notes == ("`limit` is clamped to at most 250",)


def test_reassigned_parameter_gets_the_arguments_as_called(tmp_path):
    new, outcomes = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        @mcp.tool()
        def t(q: str, since: str | None = None) -> Optional[list]:
            since = since or "1970-01-01"
            return db.execute("SELECT * FROM t WHERE q = ? AND at > ?", (q, since)).fetchall()
    '''))
    assert ('def t(q: str, since: str | None = None, cursor: Cursor = None) -> Paged[Optional[list]]:\n'
            '    """Long results are paged: follow next_action for the rest."""\n'
            '    call_arguments = {"q": q, "since": since}\n    since = since or "1970-01-01"\n') in new
    assert "        arguments=call_arguments,\n        cursor=cursor,\n" in new
    assert outcomes[0].fixed


def test_a_limit_inside_a_model_parameter_is_not_rebound(tmp_path):
    """fix-trials-2 N1: ``params.max`` is a field of a model; ``max = min(max, ...)`` would break."""
    new, outcomes = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        import os
        from pydantic import BaseModel, Field
        class Params(BaseModel):
            path: str
            max: int = Field(200, le=2000)
        @mcp.tool()
        def list_dir(params: Params) -> str:
            return "\\n".join(sorted(os.listdir(params.path))[: params.max])
    '''))
    assert "min(" not in new
    assert outcomes[0].fixed and outcomes[0].notes == ("`params` could not be clamped where it is read",)


def test_a_limit_of_a_helper_is_not_rebound_in_the_tool(tmp_path):
    """fix-trials-2 N1 as seen on better-mcps-filesystem: the unclamped ``max`` is the helper's."""
    new, outcomes = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        import os
        from pydantic import BaseModel
        class Params(BaseModel):
            path: str
            max: int = 200
        def _list(path: str, *, max: int = 200) -> str:
            max_allowed = 2000
            max_n = int(max)
            max_n = min(max_n, max_allowed)
            return "\\n".join(sorted(os.listdir(path))[:max_n])
        @mcp.tool()
        def list_dir(params: Params) -> str:
            return _list(params.path, max=params.max)
    '''))
    assert "max = min(max" not in new
    assert outcomes[0].fixed


def test_long_signature_is_laid_out_one_parameter_per_line(tmp_path):
    new, _ = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        @mcp.tool()
        def rows(table_name: str, order_by_column: str = "id", descending_order: bool = False) -> list:
            return db.execute("SELECT * FROM t").fetchall()
    '''))
    assert textwrap.dedent('''
        def rows(
            table_name: str,
            order_by_column: str = "id",
            descending_order: bool = False,
            cursor: Cursor = None,
        ) -> Paged[list]:
    ''') in new


def test_parenthesized_value_with_a_comment_is_reindented(tmp_path):
    """Found by the fuzz: a parenthesized value's position starts inside its parentheses."""
    new, _ = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        @mcp.tool()
        def t():
            rows = db.execute("SELECT * FROM orders").fetchall()
            return (
                rows  # the data
            )
    '''))
    assert ("    return fit_response(\n        (\n            rows  # the data\n        ),\n"
            '        tool="t",\n        arguments={},\n        cursor=cursor,\n        max_tokens=10_000,\n'
            '    )\n') in new


def test_silent_slice_is_dropped_and_sql_cap_kept(tmp_path):
    new, outcomes = _fix_source(tmp_path, HEADER + textwrap.dedent('''
        @mcp.tool()
        def names() -> list:
            return [r[0] for r in db.execute("SELECT name FROM t").fetchall()][:50]
        @mcp.tool()
        def recent() -> list:
            return db.execute("SELECT * FROM t ORDER BY at DESC LIMIT 50").fetchall()
    '''))
    assert 'fit_response(\n        [r[0] for r in db.execute("SELECT name FROM t").fetchall()],\n' in new
    assert 'LIMIT 50").fetchall(),\n        tool="recent"' in new
    assert outcomes[0].notes == ("the silent cap `:50` was dropped: pages carry the rest",)
    assert outcomes[1].notes[0].startswith("the cap in `db.execute(")


@pytest.mark.parametrize("body, reason", [
    ("def t(cursor: str = '') -> list:\n    return db.execute('SELECT * FROM t').fetchall()",
     "already has a `cursor` parameter"),
    ("def t(q: str) -> Report:\n    return Report(rows=db.execute('SELECT * FROM t').fetchall())",
     "it returns `Report`"),
    ("def t(q: str) -> DirectoryListing | None:\n    return DirectoryListing(db.execute('SELECT * FROM t').fetchall())",
     "it returns `DirectoryListing | None`"),
])
def test_unsafe_rewrites_are_refused_with_a_reason(tmp_path, body, reason, cli):
    path = write(tmp_path, "server.py", HEADER + "@mcp.tool()\n" + body + "\n")
    before = path.read_bytes()
    result = cli("fix", path)
    assert result.exit_code == 1
    assert f"{path}:6: tool `t` (HIGH) not fixed: " in result.stderr
    assert reason in result.stderr
    assert path.read_bytes() == before


LOWLEVEL = '''\
import json
import sqlite3
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("db")
db = sqlite3.connect("x.db")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="dump", description="All rows.", inputSchema={"type": "object"})]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "dump":
        rows = db.execute("SELECT * FROM t").fetchall()
        return [types.TextContent(type="text", text=json.dumps(rows))]
    raise ValueError(name)
'''


def test_lowlevel_branch_and_input_schema(tmp_path):
    new, outcomes = _fix_source(tmp_path, LOWLEVEL)
    assert 'inputSchema=with_cursor_parameter({"type": "object"})' in new
    assert ('                text=fit_json_text(\n                    rows,\n                    tool="dump",\n'
            '                    arguments=arguments,\n                    cursor=arguments.get("cursor"),\n'
            '                    max_tokens=10_000,\n                ),\n            )\n        ]\n') in new
    assert outcomes[0].fixed


def test_diff_writes_nothing_and_exits_1(tmp_path, cli):
    path = write(tmp_path, "server.py", LOWLEVEL)
    stat = path.stat()
    result = cli("fix", "--diff", path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"--- {path}\n+++ {path}\n")
    assert "Would fix 1 tool in 1 file." in result.stderr
    assert path.read_text() == LOWLEVEL and path.stat().st_mtime_ns == stat.st_mtime_ns


def test_nothing_to_fix_exits_0_and_touches_nothing(tmp_path, cli):
    path = write(tmp_path, "server.py", HEADER + "@mcp.tool()\ndef ping() -> str:\n    return 'ok'\n")
    stat = path.stat()
    result = cli("fix", path)
    assert result.exit_code == 0, result.stderr
    assert "Fixed 0 tools in 0 files." in result.stderr
    assert path.stat().st_mtime_ns == stat.st_mtime_ns


@pytest.mark.parametrize("encode", [
    pytest.param(lambda s: s.replace("\n", "\r\n").encode(), id="crlf"),
    pytest.param(lambda s: b"\xef\xbb\xbf" + s.encode(), id="utf8-bom"),
    pytest.param(lambda s: ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + s).encode("latin-1"), id="latin1-cookie"),
])
def test_encoding_bom_and_line_endings_are_kept(tmp_path, encode, cli):
    path = write(tmp_path, "server.py", encode(LOWLEVEL))
    result = cli("fix", path)
    assert result.exit_code == 0, result.stderr
    data = path.read_bytes()
    original = encode(LOWLEVEL)
    assert data != original
    assert data.startswith(original[:40])
    if b"\r\n" in original:
        assert data.count(b"\r\n") == data.count(b"\n")
    if b"latin-1" in original:
        assert "# caf\xe9" in data.decode("latin-1")
    compile(data, str(path), "exec")


def test_read_only_file_is_reported_and_left_alone(tmp_path, cli):
    path = write(tmp_path, "server.py", LOWLEVEL)
    path.chmod(0o444)
    try:
        result = cli("fix", path)
    finally:
        path.chmod(0o644)
    assert result.exit_code == 2
    assert f"tokenlint: {path}: not written: file is read-only" in result.stderr
    assert path.read_text() == LOWLEVEL


def test_rewrite_that_does_not_parse_is_dropped(tmp_path, monkeypatch, cli):
    from libcst.codemod import TransformSuccess

    import tokenlint.fix.driver as driver

    monkeypatch.setattr(driver, "transform_module",
                        lambda command, code: TransformSuccess(warning_messages=[], code=code + "\ndef (:\n"))
    path = write(tmp_path, "server.py", LOWLEVEL)
    result = cli("fix", path)
    assert result.exit_code == 2
    assert f"tokenlint: {path}: rewrite of dump dropped: it would not parse" in result.stderr
    assert path.read_text() == LOWLEVEL


def test_fixable_marks_agree_with_what_fix_does(fixed_fixtures, in_repo):
    """`[*]` (fixable, as `check` marks it) is promised for exactly the tools `fix` rewrites: no
    tool is marked and then declined (e.g. "the rewrite would not make it LOW": data also sent
    in an embedded resource), and every rewritten tool had a fixable finding."""
    from helpers import check
    from tokenlint.fix.edits import NOT_LOW_REASON

    _, result, _ = fixed_fixtures
    def unit(path: str) -> str:  # a fixture file or package (findings may be in its helpers)
        return "/".join(path.split("/")[:2])

    promised = {(unit(f.path), f.tool) for f in check(["fixtures"], SETTINGS).result.findings if f.fixable}
    fixed = {(unit(o.path), o.name) for o in result.outcomes if o.fixed}
    assert len(fixed) >= 60
    assert promised == fixed
    assert [o.name for o in result.outcomes if o.reason == NOT_LOW_REASON] == []


PAGING_TOOLS = HEADER + textwrap.dedent('''
    @mcp.tool(description="Every tag.")
    def tags() -> list:
        """Not the description: the decorator's is."""
        return db.execute("SELECT name FROM tags").fetchall()


    @mcp.tool()
    def notes() -> list:
        """Every note.

        Args: none.
        """
        return db.execute("SELECT body FROM notes").fetchall()
''')


def test_paging_sentence_goes_where_the_description_comes_from(tmp_path):
    """The description the SDK sends gains one sentence: a decorator's ``description=``, else the
    docstring (its last paragraph); a low-level ``Tool(description=...)`` literal; fix is
    idempotent on it; ``paging-hint = false`` turns it off."""
    from tokenlint.fix.codemod import PAGING_HINT

    new, _ = _fix_source(tmp_path, PAGING_TOOLS)
    # too long for one line once ``@computed_once`` follows: laid out as ruff and black do
    assert f'@mcp.tool(\n    description="Every tag. {PAGING_HINT}"\n)\n@computed_once\n' in new
    assert '    """Not the description: the decorator\'s is."""\n' in new
    assert f'    """Every note.\n\n    Args: none.\n\n    {PAGING_HINT}\n    """\n' in new
    assert new.count(PAGING_HINT) == 2
    (tmp_path / "server.py").write_text(new)
    again = fix_paths([str(tmp_path / "server.py")], SETTINGS)
    assert again.changes == []
    low, _ = _fix_source(tmp_path, LOWLEVEL, name="low.py")
    assert f'description="All rows. {PAGING_HINT}",' in low
    off = load_settings(None, {"paging_hint": False})
    new, _ = _fix_source(tmp_path, PAGING_TOOLS, name="off.py", settings=off)
    assert PAGING_HINT not in new and "cursor: Cursor = None" in new
    low, _ = _fix_source(tmp_path, LOWLEVEL, name="low_off.py", settings=off)
    assert PAGING_HINT not in low


def test_no_paging_hint_flag(tmp_path, cli):
    from tokenlint.fix.codemod import PAGING_HINT

    path = write(tmp_path, "server.py", PAGING_TOOLS)
    shown = cli("fix", "--diff", path)
    assert PAGING_HINT in shown.stdout
    hidden = cli("fix", "--diff", "--no-paging-hint", path)
    assert hidden.exit_code == 1 and "+def tags(cursor: Cursor = None) -> Paged[list]:" in hidden.stdout
    assert PAGING_HINT not in hidden.stdout
    assert "--no-paging-hint" in cli("fix", "--help").stdout


def test_a_named_tool_module_is_fixed_with_its_server_read_from_disk(tmp_path):
    """`fix tools_db.py` (pre-commit's tokenlint-fix names the staged file only): its tools,
    registered on the server created in server.py, are rewritten; no other file is changed."""
    shutil.copytree(FIXTURES / "split_server", tmp_path / "split_server")
    result = fix_paths([str(tmp_path / "split_server" / "tools_db.py")], SETTINGS)
    assert result.errors == []
    assert sorted(o.name for o in result.outcomes if o.fixed) == ["all_orders", "low_stock", "stock_levels"]
    assert [c.display for c in result.changes if not c.manifest] == [f"{tmp_path}/split_server/tools_db.py"]
    assert {t.path for t in result.before.result.tools} == {f"{tmp_path}/split_server/tools_db.py"}


# -- register_result_resource ------------------------------------------------------------------

LOWLEVEL_V1 = '''\
    import json
    import sqlite3

    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server("shop")
    db = sqlite3.connect("shop.db")


    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [types.Tool(name="orders", inputSchema={"type": "object", "properties": {}})]


    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        if name == "orders":
            rows = db.execute("SELECT * FROM orders").fetchall()
            return [types.TextContent(type="text", text=json.dumps(rows))]
        raise ValueError(name)


    async def main() -> None:
        pass
'''


def test_result_resource_of_a_lowlevel_v1_server_comes_after_its_handlers(tmp_path):
    """mcp 1.x registers low-level handlers with decorators, and the call wraps them: it goes
    after the last one, not after ``Server(...)``; fix twice adds nothing."""
    new, _ = _fix_source(tmp_path, LOWLEVEL_V1)
    assert new.count("register_result_resource(server)") == 1
    assert "    raise ValueError(name)\n\n\nregister_result_resource(server)\n\n\nasync def main()" in new
    again, _ = _fix_source(tmp_path, new)
    assert again == new


def test_result_resource_of_an_imported_server_goes_in_the_tools_module(tmp_path):
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/server.py", "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n")
    path = write(tmp_path, "pkg/tools.py", textwrap.dedent('''\
        from pathlib import Path

        from .server import mcp


        @mcp.tool()
        def read_log(name: str) -> str:
            return Path(name).read_text()
    '''))
    result = fix_paths([str(path)], SETTINGS)
    assert result.errors == []
    new = result.changes[0].new_text
    assert new.endswith("        max_tokens=10_000,\n    )\n\n\nregister_result_resource(mcp)\n")


def test_a_module_that_registers_the_resource_already_gets_no_second_call(tmp_path):
    new, _ = _fix_source(tmp_path, HEADER + "from tokenlint.runtime import register_result_resource\n"
                         "register_result_resource(mcp)\n" + textwrap.dedent('''

        @mcp.tool()
        def orders() -> list:
            return db.execute("SELECT * FROM orders").fetchall()
    '''))
    assert new.count("register_result_resource(mcp)") == 1 and "fit_response(" in new


def test_a_server_made_in_a_function_gets_a_note_instead(tmp_path):
    new, outcomes = _fix_source(tmp_path, '''\
        import sqlite3
        from mcp.server.fastmcp import FastMCP


        def make(db: sqlite3.Connection) -> FastMCP:
            mcp = FastMCP("x")

            @mcp.tool()
            def orders() -> list:
                return db.execute("SELECT * FROM orders").fetchall()

            return mcp
    ''')
    assert "fit_response(" in new and "register_result_resource" not in new
    assert [o.notes for o in outcomes] == [(NO_RESOURCE_NOTE,)]


def test_every_public_fix_function_and_class_has_a_docstring():
    assert undocumented("tokenlint.fix") == []
