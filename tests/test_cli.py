"""`tokenlint check` end to end through click: exit codes, config, suppression, bad input."""

from __future__ import annotations

import json
import re

import pytest

from helpers import RISKY_SERVER as RISKY
from helpers import write

CAPPED = """\
import sqlite3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("db")


@mcp.tool()
def recent_orders() -> list:
    conn = sqlite3.connect("shop.db")
    return conn.execute("SELECT * FROM orders LIMIT 20").fetchall()
"""

SAFE = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("db")


@mcp.tool()
def ping() -> str:
    return "pong"
"""




def test_text_output_lines_table_and_summary(tmp_path, cli):
    path = write(tmp_path, "server.py", RISKY)
    result = cli("check", path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert re.match(rf"{re.escape(str(path))}:10:5: TL201 \[\*\] tool `list_orders` returns", lines[0])
    assert lines[1] == (
        f"{path}:10:12: TL101 [*] `.fetchall()` puts every row of a query into the response of tool "
        "`list_orders` with no bound"
    )
    assert lines[3].split() == ["RISK", "TOOL", "LOCATION", "FRAMEWORK", "FINDINGS"]
    assert lines[4].split() == ["HIGH", "list_orders", f"{path}:8", "mcp-fastmcp", "TL101", "TL201"]
    assert "Found 2 findings (2 fixable with `tokenlint fix`); 1 tools (1 HIGH, 0 MEDIUM, 0 LOW, 0 NONE)" in result.stderr
    assert "Found" not in result.stdout


def test_json_output_contract(tmp_path, cli):
    path = write(tmp_path, "server.py", RISKY)
    result = cli("check", "--format", "json", path)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert set(data) == {"version", "tools", "findings", "unresolved_registrations"}
    assert data["unresolved_registrations"] == 0
    assert data["tools"] == [{
        "name": "list_orders", "function": "list_orders", "path": str(path), "line": 8,
        "framework": "mcp-fastmcp", "risk": "HIGH", "findings": ["TL101", "TL201"],
        "traced": True, "untraced_calls": [],
    }]
    assert [(f["code"], f["line"], f["column"]) for f in data["findings"]] == [("TL201", 10, 5), ("TL101", 10, 12)]
    assert set(data["findings"][0]) == {"code", "name", "path", "line", "column", "tool", "message", "fixable"}
    assert result.stderr == ""


def test_exit_codes_and_fail_on(tmp_path, cli):
    write(tmp_path, "safe.py", SAFE)
    assert cli("check", tmp_path / "safe.py").exit_code == 0
    capped = write(tmp_path, "capped.py", CAPPED)
    assert cli("check", capped).exit_code == 1
    assert cli("check", "--fail-on", "high", capped).exit_code == 0
    assert cli("check", "--fail-on", "medium", capped).exit_code == 1
    assert cli("check", "--exit-zero", capped).exit_code == 0


def test_output_format_alias(tmp_path, cli):
    path = write(tmp_path, "server.py", RISKY)
    assert json.loads(cli("check", "--output-format", "json", path).stdout)["tools"][0]["risk"] == "HIGH"


def test_unknown_config_key_exits_2_naming_it(tmp_path, cli):
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\nmax-respones-tokens = 5000\n")
    write(tmp_path, "server.py", RISKY)
    result = cli("check", tmp_path)
    assert result.exit_code == 2
    assert "unknown key `max-respones-tokens`" in result.stderr


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[tool.tokenlint]\nselect = 'TL1'\n", "`select` must be a list"),
        ("[tool.tokenlint]\nfail-on = 'severe'\n", "fail-on must be one of"),
        ("[tool.tokenlint]\nextra-sources = { 'app.fetch_all' = 'TL999' }\n", "extra-sources.app.fetch_all"),
        ("[tool.tokenlint\n", "invalid TOML"),
    ],
)
def test_bad_config_exits_2(tmp_path, toml, message, cli):
    write(tmp_path, "pyproject.toml", toml)
    write(tmp_path, "server.py", SAFE)
    result = cli("check", tmp_path)
    assert result.exit_code == 2
    assert message in result.stderr


def test_config_select_ignore_and_budget(tmp_path, cli):
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\nignore = ['TL201']\nmax-response-tokens = 4000\n")
    write(tmp_path, "server.py", RISKY)
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert [f["code"] for f in data["findings"]] == ["TL101"]
    data = json.loads(cli("check", "--format", "json", "--select", "TL2", tmp_path).stdout)
    assert [f["code"] for f in data["findings"]] == []
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\nmax-response-tokens = 4000\n")
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert "max-response-tokens = 4,000" in [f for f in data["findings"] if f["code"] == "TL201"][0]["message"]


def test_nearest_config_wins_and_cli_overrides(tmp_path, cli):
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\nignore = ['TL101']\n")
    write(tmp_path, "sub/pyproject.toml", "[tool.tokenlint]\nignore = ['TL201']\n")
    write(tmp_path, "sub/server.py", RISKY)
    data = json.loads(cli("check", "--format", "json", tmp_path / "sub").stdout)
    assert [f["code"] for f in data["findings"]] == ["TL101"]
    data = json.loads(cli("check", "--format", "json", "--ignore", "TL1", tmp_path / "sub").stdout)
    assert [f["code"] for f in data["findings"]] == ["TL201"]


def test_per_file_ignores(tmp_path, cli):
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\n[tool.tokenlint.per-file-ignores]\n'legacy_*.py' = ['TL1']\n")
    write(tmp_path, "legacy_server.py", RISKY)
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert [f["code"] for f in data["findings"]] == ["TL201"]


def test_extra_sources_and_bounds(tmp_path, cli):
    write(tmp_path, "pyproject.toml", (
        "[tool.tokenlint]\nextra-sources = { 'warehouse.fetch_everything' = 'TL101' }\n"
        "extra-bounds = ['warehouse.first_page']\n"
    ))
    write(tmp_path, "server.py", (
        "from mcp.server.fastmcp import FastMCP\n"
        "from warehouse import fetch_everything, first_page\n"
        "mcp = FastMCP('w')\n"
        "@mcp.tool()\n"
        "def everything() -> list:\n"
        "    return fetch_everything()\n"
        "@mcp.tool()\n"
        "def some(offset: int = 0) -> dict:\n"
        "    rows = first_page(fetch_everything())\n"
        "    return {'rows': rows[offset:], 'next_offset': offset + 50}\n"
    ))
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    risks = {t["name"]: t["risk"] for t in data["tools"]}
    assert risks == {"everything": "HIGH", "some": "LOW"}


def test_extra_sources_and_bounds_by_access_path(tmp_path, cli):
    """Entries name methods of a known class (``acme_sdk.Client.list_widgets``) or of any
    receiver (``*.dump_all``); an entry that matches no call is reported, the run goes on."""
    write(tmp_path, "pyproject.toml", (
        "[tool.tokenlint]\n"
        "extra-sources = { '*.dump_all' = 'TL108', 'acme_sdk.Client.export' = 'TL105', 'acme_sdk.nowhere' = 'TL101' }\n"
        "extra-bounds = ['acme_sdk.Client.list_widgets']\n"
    ))
    write(tmp_path, "server.py", (
        "import acme_sdk\n"
        "from mcp.server.fastmcp import FastMCP\n"
        "mcp = FastMCP('w')\n"
        "client = acme_sdk.Client()\n"
        "@mcp.tool()\n"
        "def dump(store) -> list:\n"
        "    return store.dump_all()\n"
        "@mcp.tool()\n"
        "def export() -> str:\n"
        "    return client.export()\n"
        "@mcp.tool()\n"
        "def widgets() -> list:\n"
        "    return client.list_widgets()\n"
    ))
    result = cli("check", "--format", "json", tmp_path)
    tools = {t["name"]: (t["risk"], tuple(t["findings"])) for t in json.loads(result.stdout)["tools"]}
    assert tools["dump"] == ("HIGH", ("TL108", "TL201"))
    assert tools["export"] == ("HIGH", ("TL105", "TL201"))
    assert tools["widgets"] == ("NONE", ())  # the user vouches the result is bounded
    assert "extra-sources `acme_sdk.nowhere` in the configuration matched no call" in result.stderr
    assert "dump_all" not in result.stderr and "list_widgets" not in result.stderr


def test_text_report_marks_verdicts_resting_on_names(tmp_path, cli):
    """A NONE that rests on an SDK call judged small by its name is marked ``NONE?`` with a legend;
    one resting on code tokenlint followed, or on logging only, is not."""
    write(tmp_path, "server.py", (
        "import logging\n"
        "import acme_sdk\n"
        "from mcp.server.fastmcp import FastMCP\n"
        "mcp = FastMCP('w')\n"
        "log = logging.getLogger(__name__)\n"
        "@mcp.tool()\n"
        "def delete_widget(widget_id: int) -> str:\n"
        "    acme_sdk.Client().delete_widget(widget_id)\n"
        "    return 'deleted'\n"
        "@mcp.tool()\n"
        "def ping() -> str:\n"
        "    log.info('ping')\n"
        "    return 'pong'\n"
        "@mcp.tool()\n"
        "def card() -> list:\n"
        "    text = types.TextResourceContents(uri='card://1', text='hello')\n"
        "    return [types.TextContent(type='text', text='hello'), types.EmbeddedResource(type='resource', resource=text)]\n"
    ).replace("import acme_sdk\n", "import acme_sdk\nimport mcp.types as types\n"))
    lines = cli("check", tmp_path).stdout.splitlines()
    rows = {line.split()[1]: line.split()[0] for line in lines if line.startswith(("NONE", "LOW"))}
    assert rows == {"delete_widget": "NONE?", "ping": "NONE", "card": "NONE"}
    assert lines[-1].startswith("?  the verdict rests on calls into code tokenlint cannot read")


def test_suppression_on_line_and_on_def(tmp_path, cli):
    line = RISKY.replace('.fetchall()\n', '.fetchall()  # tokenlint: ignore[TL101]\n')
    write(tmp_path, "a.py", line)
    data = json.loads(cli("check", "--format", "json", tmp_path / "a.py").stdout)
    assert [f["code"] for f in data["findings"]] == ["TL201"]
    assert data["tools"][0]["risk"] == "MEDIUM"
    whole = RISKY.replace("def list_orders() -> list:", "def list_orders() -> list:  # tokenlint: ignore[TL101, TL201]")
    write(tmp_path, "b.py", whole)
    result = cli("check", "--format", "json", tmp_path / "b.py")
    assert json.loads(result.stdout)["findings"] == []
    assert result.exit_code == 0
    bare = RISKY.replace('.fetchall()\n', '.fetchall()  # tokenlint: ignore\n')
    write(tmp_path, "c.py", bare)
    assert len(json.loads(cli("check", "--format", "json", tmp_path / "c.py").stdout)["findings"]) == 2


MCP_HEADER = b"from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("syntax.py", MCP_HEADER + b"def broken(:\n    pass\n", "syntax error at 3:12"),
        ("nul.py", MCP_HEADER + b"\x00\x01\x02", "binary file"),
        ("latin.py", MCP_HEADER + b"NAME = '\xe9t\xe9'\n", "not valid utf-8"),
        ("badcookie.py", b"# -*- coding: klingon -*-\n" + MCP_HEADER, "encoding"),
        ("py2.py", MCP_HEADER + b"print 'hello'\n", "syntax error"),
    ],
)
def test_bad_input_is_tl001_and_the_run_goes_on(tmp_path, name, content, reason, cli):
    write(tmp_path, name, content)
    write(tmp_path, "zz_server.py", RISKY)
    result = cli("check", "--format", "json", tmp_path)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    tl001 = [f for f in data["findings"] if f["code"] == "TL001"]
    assert len(tl001) == 1 and tl001[0]["path"].endswith(name)
    assert reason in tl001[0]["message"]
    assert [t["name"] for t in data["tools"]] == ["list_orders"]


def test_encodings_that_python_accepts_are_analysed(tmp_path, cli):
    write(tmp_path, "latin.py", b"# -*- coding: latin-1 -*-\n" + RISKY.encode().replace(b'"db"', b'"d\xe9b"'))
    write(tmp_path, "bom.py", b"\xef\xbb\xbf" + RISKY.encode())
    write(tmp_path, "crlf.py", RISKY.replace("\n", "\r\n").encode())
    write(tmp_path, "empty.py", b"")
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert [f for f in data["findings"] if f["code"] == "TL001"] == []
    assert sorted((t["path"].rsplit("/", 1)[-1], t["risk"]) for t in data["tools"]) == [
        ("bom.py", "HIGH"), ("crlf.py", "HIGH"), ("latin.py", "HIGH"),
    ]


def test_huge_file_is_reported_not_parsed(tmp_path, cli):
    big = MCP_HEADER + b"# padding\n" * 500_000
    write(tmp_path, "huge.py", big)
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert [f["message"].split(": ", 1)[1] for f in data["findings"]] == [
        f"file too large to analyse ({len(big):,} bytes; limit 4,194,304 bytes)"
    ]


def test_deep_nesting_does_not_crash(tmp_path, cli):
    deep = MCP_HEADER.decode() + "x = " + "[" * 5000 + "]" * 5000 + "\n"
    write(tmp_path, "deep.py", deep)
    write(tmp_path, "server.py", RISKY)
    result = cli("check", "--format", "json", tmp_path)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [t["name"] for t in data["tools"]] == ["list_orders"]


def test_gitignore_exclude_and_venvs_are_skipped(tmp_path, cli):
    write(tmp_path, ".gitignore", "generated/\n")
    write(tmp_path, "generated/server.py", RISKY)
    write(tmp_path, "env/pyvenv.cfg", "home = /usr\n")
    write(tmp_path, "env/lib/server.py", RISKY)
    write(tmp_path, "build/server.py", RISKY)
    write(tmp_path, "vendor/server.py", RISKY)
    write(tmp_path, "app/server.py", RISKY)
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\nextend-exclude = ['vendor/']\n")
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert [t["path"] for t in data["tools"]] == [f"{tmp_path}/app/server.py"]
    data = json.loads(cli("check", "--format", "json", "--no-respect-gitignore", tmp_path).stdout)
    assert sorted(t["path"].split("/")[-2] for t in data["tools"]) == ["app", "generated"]


def test_force_exclude_applies_to_named_files(tmp_path, cli):
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\nextend-exclude = ['vendor/']\n")
    path = write(tmp_path, "vendor/server.py", RISKY)
    assert cli("check", path).exit_code == 1
    assert cli("check", "--force-exclude", path).exit_code == 0


def test_missing_path_is_a_usage_error(tmp_path, cli):
    """A path named on the command line that does not exist is a usage error (exit 2, as in
    ruff), not a TL001 finding that --exit-zero would hide; for fix too."""
    for args in (["check"], ["check", "--exit-zero"], ["fix"], ["fix", "--diff"]):
        result = cli(*args, str(tmp_path / "nope.py"))
        assert result.exit_code == 2, args
        assert f"Path '{tmp_path / 'nope.py'}' does not exist" in result.stderr
        assert "TL001" not in result.stdout


BROKEN = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\ndef f(:\n    pass\n"


@pytest.mark.parametrize("flags", [[], ["--select", "TL1"], ["--ignore", "TL001"], ["--ignore", "TL0"],
                                   ["--select", "TL201", "--fail-on", "high"]])
def test_a_file_that_cannot_be_parsed_always_fails(tmp_path, flags, cli):
    path = write(tmp_path, "server.py", BROKEN)
    result = cli("check", *flags, path)
    assert result.exit_code == 1
    assert f"{path}:5:7: TL001 cannot analyse {path}: syntax error at 5:7" in result.stdout


def test_a_file_that_cannot_be_parsed_fails_under_per_file_ignores_config(tmp_path, cli):
    write(tmp_path, "pyproject.toml", "[tool.tokenlint]\nignore = ['TL001']\n"
          "per-file-ignores = {'server.py' = ['TL001']}\n")
    result = cli("check", write(tmp_path, "server.py", BROKEN))
    assert result.exit_code == 1
    assert "TL001" in result.stdout


@pytest.mark.parametrize("command", ["check", "fix"])
def test_no_python_files_gives_a_warning(tmp_path, command, cli):
    (tmp_path / "empty").mkdir()
    write(tmp_path, "docs/README.md", "# not Python\n")
    for where in ("empty", "docs"):
        result = cli(command, str(tmp_path / where))
        assert result.exit_code == 0
        assert f"tokenlint: warning: no Python files to check in {tmp_path / where}" in result.stderr
    result = cli(command, str(write(tmp_path, "ok.py", SAFE)))
    assert "warning" not in result.stderr


def test_rule_command_prints_docs(cli):
    result = cli("rule", "TL101")
    assert result.exit_code == 0
    assert result.stdout.startswith("# unbounded-query-result (TL101)")
    assert "## Why is this bad?" in result.stdout
    assert cli("rule", "TL999").exit_code == 2


@pytest.mark.parametrize("expr", ["[" * 5000 + "]" * 5000, "1+" * 20000 + "1"])
def test_pathological_nesting_is_tl001(tmp_path, expr, cli):
    write(tmp_path, "deep.py", MCP_HEADER.decode() + f"x = {expr}\n")
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert [f["message"].split(": ", 1)[1] for f in data["findings"]][0].startswith("too deeply nested")


def test_enum_member_tool_names(tmp_path, cli):
    write(tmp_path, "server.py", (
        "from enum import Enum\n"
        "from mcp.server.mcpserver import MCPServer\n"
        "class GitTools(str, Enum):\n"
        "    STATUS = 'git_status'\n"
        "def create_server():\n"
        "    server = MCPServer('git')\n"
        "    @server.tool(name=GitTools.STATUS.value)\n"
        "    def status(repo_path: str) -> str:\n"
        "        return 'clean'\n"
        "    return server\n"
    ))
    data = json.loads(cli("check", "--format", "json", tmp_path).stdout)
    assert [(t["name"], t["function"], t["framework"]) for t in data["tools"]] == [
        ("git_status", "status", "mcp-mcpserver")
    ]


def test_a_named_tool_module_is_analysed_with_the_server_module_it_imports(cli):
    """fixtures/split_server/tools_db.py registers its tools on the server created in server.py:
    named alone (as pre-commit names a staged file), its tools are found; only its own tools and
    their findings are reported (TL101 of all_orders sits in the helper module it calls)."""
    from helpers import FIXTURES

    data = json.loads(cli("check", "--format", "json", "--no-cache", FIXTURES / "split_server" / "tools_db.py").stdout)
    assert sorted(t["name"] for t in data["tools"]) == [
        "all_orders", "low_stock", "order_detail", "orders_page", "stock_levels"]
    assert {t["path"] for t in data["tools"]} == {f"{FIXTURES}/split_server/tools_db.py"}
    assert {f["tool"] for f in data["findings"]} == {"all_orders", "low_stock", "stock_levels"}
    assert {f["path"].rsplit("/", 1)[1] for f in data["findings"]} == {"tools_db.py", "helpers.py"}


def test_the_readme_first_command_leads_with_a_risky_tool(cli):
    """`tokenlint check fixtures/` (the README's first command) opens with a finding of a risky
    tool, not with a TL001 of the deliberately broken fixtures."""
    from helpers import FIXTURES, REPO

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# tokenlint\n\n```bash\npython -m pip install ./tokenlint/runtime . && "
                             "tokenlint check fixtures/\n")
    result = cli("check", "--no-cache", FIXTURES)
    first = result.stdout.splitlines()[0]
    assert " TL001 " not in first and " [*] " in first
    tool = re.search(r"tool `([^`]+)`", first).group(1)
    risky = [line.split()[1] for line in result.stdout.splitlines() if line.startswith(("HIGH ", "MEDIUM "))]
    assert tool in risky
