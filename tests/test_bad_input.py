"""Bad input: every case gives one clear line naming the path, and the run goes on.

`tests/test_cli.py` covers syntax errors, Python 2, NUL bytes, invalid UTF-8, a bad coding
cookie, BOM/CRLF/Latin-1 files that Python accepts, a 5 MB file and nesting too deep to parse;
`tests/test_fix.py` covers encodings kept by `fix` and a read-only file on its own. This module
adds the file-system cases (symlink loops, dangling links, FIFOs, unreadable and vanishing files),
wide encodings, lone surrogates (`"\\ud800"`) in a tool's description or name (every report
format, `fix`), 20 MB files, nesting too deep to analyse, mixed line endings under `fix`, and the
other files of a `fix` run being written when one file cannot be.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tokenlint.cli
from helpers import RISKY_SERVER, write
from tokenlint.config import load_settings
from tokenlint.fix.driver import fix_paths
from tokenlint.fix.write import write_changes

MCP_HEADER = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"






def tl001(stdout: str) -> dict[str, str]:
    """{file name: message} of the TL001 lines of a text report."""
    out = {}
    for line in stdout.splitlines():
        if ": TL001 " in line:
            path = line.split(":", 1)[0]
            out[Path(path).name] = line
    return out


def assert_risky_reported(stdout: str) -> None:
    assert "TL101" in stdout and "list_orders" in stdout


# -- encodings -------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_wide_encodings_with_bom_are_named(tmp_path, encoding, cli):
    """CPython cannot run UTF-16/32 source; the file is named instead of silently skipped."""
    data = RISKY_SERVER.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    write(tmp_path, "wide.py", data)
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    result = cli("check", tmp_path)
    assert result.exit_code == 1
    label = "UTF-32" if "32" in encoding else "UTF-16"
    assert tl001(result.stdout) == {
        "wide.py": f"{tmp_path}/wide.py:1:1: TL001 cannot analyse {tmp_path}/wide.py: {label} encoded "
                   "(byte-order mark); Python source must be UTF-8 or an ASCII-compatible encoding "
                   "declared with a PEP 263 coding comment"}
    assert_risky_reported(result.stdout)


def test_mixed_line_endings_are_kept_by_fix(tmp_path, cli):
    """Lines `fix` does not rewrite keep their own ending, CRLF or LF, byte for byte."""
    lines = RISKY_SERVER.splitlines(keepends=True)
    mixed = [line.replace("\n", "\r\n") if i % 2 else line for i, line in enumerate(lines)]
    trailer = ["\r\n", "X = 1\r\n", "Y = 2\n"]
    path = write(tmp_path, "server.py", "".join(mixed + trailer).encode())
    assert cli("fix", path).exit_code == 0
    new = path.read_bytes().decode().splitlines(keepends=True)
    start = next(i for i, line in enumerate(new) if line.startswith("from tokenlint.runtime import"))
    end = next(i for i in range(start, len(new)) if new[i].startswith(")")) \
        if new[start].rstrip().endswith("(") else start  # one name per line when too long
    kept = new[:start] + new[end + 1:]
    assert kept[:7] == mixed[:7]  # everything above the tool, up to its decorator
    assert kept[7] == "@computed_once\n"  # added by fix, in the file's first line ending
    kept = kept[:7] + kept[8:]
    assert kept[7].startswith("def list_orders(cursor") and mixed[7].endswith("\r\n")
    assert kept[7].endswith("\r\n")  # the rewritten `def` line keeps its ending
    assert new[-3:] == trailer
    assert new[-6:-3] == ["\n", "\n", "register_result_resource(mcp)\n"]  # after the tool
    compile("".join(new), str(path), "exec")


# -- size and depth --------------------------------------------------------------------------

def test_20_mb_files(tmp_path, cli):
    """A 20 MB file that mentions MCP is a TL001 (not parsed); one that does not is skipped;
    `fix` leaves both alone and fixes the rest."""
    big = (MCP_HEADER + "# padding\n" * 2_000_000).encode()
    assert len(big) > 20_000_000
    write(tmp_path, "big_server.py", big)
    write(tmp_path, "big_data.py", b"DATA = 1\n" * 2_300_000)
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    result = cli("check", tmp_path)
    assert result.exit_code == 1
    assert tl001(result.stdout) == {
        "big_server.py": f"{tmp_path}/big_server.py:1:1: TL001 cannot analyse {tmp_path}/big_server.py: "
                         f"file too large to analyse ({len(big):,} bytes; limit 4,194,304 bytes)"}
    assert_risky_reported(result.stdout)
    result = cli("fix", tmp_path)
    assert result.exit_code == 1, result.stderr  # fixed what it could, named the file it could not read
    assert f"{tmp_path}/big_server.py:1:1: TL001" in result.stderr
    assert (tmp_path / "big_server.py").read_bytes() == big
    assert "fit_response" in (tmp_path / "zz_server.py").read_text()


def test_nesting_too_deep_to_analyse_is_tl001_not_a_crash(tmp_path, cli):
    """`rows + rows + ...` 1,500 times parses (CPython and LibCST) but is deeper than the
    analysis can follow: a TL001 at the file, exit 1 (not an internal error), and `fix` leaves
    that file alone."""
    deep = RISKY_SERVER.replace("fetchall()", "fetchall()" + " + []" * 1500)
    write(tmp_path, "deep.py", deep)
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    result = cli("check", tmp_path)
    assert result.exit_code == 1, result.stderr
    assert tl001(result.stdout) == {
        "deep.py": f"{tmp_path}/deep.py:1:1: TL001 cannot analyse {tmp_path}/deep.py: "
                   "tool `list_orders` is too deeply nested to analyse"}
    assert_risky_reported(result.stdout)
    assert "internal error" not in result.stderr
    result = cli("fix", tmp_path)
    assert (tmp_path / "deep.py").read_text() == deep
    assert "fit_response" in (tmp_path / "zz_server.py").read_text()


# -- lone surrogates -------------------------------------------------------------------------

def _surrogate_server(escape: str) -> str:
    """A FastMCP server whose docstring and ``description=`` (600 words: over TL401's budget)
    hold ``escape`` as a Python escape sequence (the file itself is ASCII)."""
    return (MCP_HEADER + "\n"
            "@mcp.tool()\n"
            "def list_things() -> str:\n"
            f'    """List every thing {escape} in the store."""\n'
            "    return 'ok'\n\n"
            f"@mcp.tool(description='Other {escape} tool {'word ' * 600}')\n"
            "def other(x: int) -> str:\n"
            "    return 'ok'\n")


def test_lone_surrogate_in_a_description_is_counted_not_a_crash(tmp_path, cli):
    """`"\\ud800"` in a docstring or description= is counted as U+FFFD (what tiktoken does
    itself): the same verdicts and TL401 cost as the server written with `"\\ufffd"`, no internal
    error."""
    write(tmp_path / "lone", "server.py", _surrogate_server("\\ud800"))
    write(tmp_path / "fffd", "server.py", _surrogate_server("\\ufffd"))
    lone = cli("check", "--no-cache", tmp_path / "lone")
    fffd = cli("check", "--no-cache", tmp_path / "fffd")
    assert "internal error" not in lone.stderr, lone.stderr
    assert lone.exit_code == fffd.exit_code == 1
    assert "TL401" in lone.stdout and "list_things" in lone.stdout
    assert lone.stdout.replace("/lone/", "/fffd/") == fffd.stdout


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
@pytest.mark.parametrize("to_file", [False, True], ids=["stdout", "output-file"])
def test_lone_surrogate_in_a_tool_name_is_reported_in_every_format(tmp_path, cli, fmt, to_file):
    """A tool named `"odd\\udfffname"` is written as the escape `odd\\udfffname` (no UTF-8 form):
    the report is not lost, and JSON and SARIF stay valid and load back to the same name."""
    server = _surrogate_server("\\ud800").replace("@mcp.tool(description=",
                                                   "@mcp.tool(name='odd\\udfffname', description=")
    path = write(tmp_path, "server.py", server)
    out = tmp_path / "report" / f"report.{fmt}"
    result = cli("check", "--no-cache", "-f", fmt, *(["-o", out] if to_file else []), path)
    assert result.exit_code == 1, result.stderr
    report = out.read_text(encoding="utf-8") if to_file else result.stdout
    assert "odd\\udfffname" in report
    if fmt == "json":
        assert "odd\udfffname" in {tool["name"] for tool in json.loads(report)["tools"]}
    if fmt == "sarif":
        assert "odd\udfffname" in {r["properties"]["tool"] for run in json.loads(report)["runs"]
                                    for r in run["results"]}



def test_fix_rewrites_a_tool_named_with_a_lone_surrogate(tmp_path, cli):
    """`fix` writes the name into `tool=` as the escape `\\udfff` (the file stays UTF-8) instead
    of failing the rewrite: the rewritten file compiles and its `tool=` is the client-visible name."""
    server = RISKY_SERVER.replace("@mcp.tool()", "@mcp.tool(name='odd\\udfffname')", 1)
    assert server != RISKY_SERVER
    path = write(tmp_path, "server.py", server)
    result = cli("fix", path)
    assert result.exit_code == 0, result.stderr
    new = path.read_text(encoding="utf-8")
    compile(new, str(path), "exec")
    assert 'tool="odd\\udfffname"' in new
    assert cli("check", "--no-cache", path).exit_code == 0


# -- the file system -------------------------------------------------------------------------

def test_symlink_loops(tmp_path, cli):
    """File links in a loop are TL001 ("Too many levels of symbolic links"), a directory link
    back up the tree is not followed, and SARIF with absolute paths still renders."""
    os.symlink("b.py", tmp_path / "a.py")
    os.symlink("a.py", tmp_path / "b.py")
    os.symlink("self.py", tmp_path / "self.py")
    (tmp_path / "pkg").mkdir()
    os.symlink("..", tmp_path / "pkg" / "up")
    write(tmp_path, "pkg/zz_server.py", RISKY_SERVER)
    result = cli("check", tmp_path)
    assert result.exit_code == 1
    reason = "cannot read file: Too many levels of symbolic links"
    assert tl001(result.stdout) == {
        name: f"{tmp_path}/{name}:1:1: TL001 cannot analyse {tmp_path}/{name}: {reason}"
        for name in ("a.py", "b.py", "self.py")}
    assert result.stdout.count(": TL101 ") == 1  # pkg/up/pkg/... was not walked
    sarif = json.loads(cli("check", "--format", "sarif", tmp_path / "a.py", tmp_path / "pkg").stdout)
    assert len(sarif["runs"][0]["results"]) == 3


def test_dangling_symlink(tmp_path, cli):
    os.symlink("missing.py", tmp_path / "gone.py")
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    result = cli("check", tmp_path)
    assert tl001(result.stdout) == {
        "gone.py": f"{tmp_path}/gone.py:1:1: TL001 cannot analyse {tmp_path}/gone.py: "
                   "cannot read file: No such file or directory"}
    assert_risky_reported(result.stdout)


def _tokenlint(*args: str, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(tokenlint.cli.__file__).parent.parent)}
    return subprocess.run([sys.executable, "-m", "tokenlint", *args], capture_output=True, text=True,
                          timeout=120, env=env, **kw)


def test_fifo_named_like_python_does_not_block(tmp_path):
    """Reading a FIFO would wait forever for a writer; it is not a regular file, so it is skipped."""
    os.mkfifo(tmp_path / "pipe.py")
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    for args in (["check", str(tmp_path)], ["fix", "--diff", str(tmp_path)]):
        result = _tokenlint(*args)
        assert result.returncode == 1, result.stderr
        assert "list_orders" in result.stdout + result.stderr
        assert "pipe.py" not in result.stdout


def _drop_dac_capabilities() -> None:  # runs in the child before exec
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_unreadable_file(tmp_path):
    """chmod 000: a TL001 naming the file. Root reads anything, so as root tokenlint runs with
    the capabilities that let root bypass file permissions dropped from its bounding set."""
    path = write(tmp_path, "secret.py", RISKY_SERVER)
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    path.chmod(0)
    kw = {"preexec_fn": _drop_dac_capabilities} if os.geteuid() == 0 else {}
    try:
        probe = subprocess.run([sys.executable, "-c", f"open({str(path)!r}).read()"], capture_output=True, **kw)
        if probe.returncode == 0:
            pytest.skip("cannot make a file unreadable here (root without CAP_SETPCAP)")
        result = _tokenlint("check", str(tmp_path), **kw)
        fixed = _tokenlint("fix", str(tmp_path), **kw)
    finally:
        path.chmod(0o644)
    assert result.returncode == 1, result.stderr
    assert tl001(result.stdout) == {
        "secret.py": f"{tmp_path}/secret.py:1:1: TL001 cannot analyse {tmp_path}/secret.py: "
                     "cannot read file: Permission denied"}
    assert_risky_reported(result.stdout)
    assert fixed.returncode == 1, fixed.stderr
    assert f"{tmp_path}/secret.py:1:1: TL001" in fixed.stderr
    assert path.read_text() == RISKY_SERVER
    assert "fit_response" in (tmp_path / "zz_server.py").read_text()


def test_file_vanishing_after_it_was_listed(tmp_path, monkeypatch, cli):
    """A file deleted between the directory walk and its read (made deterministic by deleting
    it right after `expand_paths` returns, wherever tokenlint imported that function)."""
    import tokenlint.source.files as files

    write(tmp_path, "gone.py", RISKY_SERVER)
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    real = files.expand_paths

    def expand_then_delete(*args, **kw):
        out = real(*args, **kw)
        (tmp_path / "gone.py").unlink(missing_ok=True)
        return out

    for mod in [m for name, m in sys.modules.items() if name.startswith("tokenlint")]:
        if getattr(mod, "expand_paths", None) is real:
            monkeypatch.setattr(mod, "expand_paths", expand_then_delete)
    result = cli("check", tmp_path)
    assert result.exit_code == 1
    assert tl001(result.stdout) == {
        "gone.py": f"{tmp_path}/gone.py:1:1: TL001 cannot analyse {tmp_path}/gone.py: "
                   "cannot read file: No such file or directory"}
    assert_risky_reported(result.stdout)


def test_file_vanishing_before_fix_writes_it(tmp_path):
    """Deleted after the analysis, before the write: one error line, the other files written."""
    a = write(tmp_path, "a.py", RISKY_SERVER)
    b = write(tmp_path, "b.py", RISKY_SERVER)
    result = fix_paths([str(tmp_path)], load_settings(None, {}))
    assert [c.path.name for c in result.changes] == ["a.py", "b.py"]
    a.unlink()
    assert write_changes(result.changes) == [f"{tmp_path}/a.py: not written: No such file or directory"]
    assert not a.exists()
    assert "fit_response" in b.read_text()


def test_read_only_file_does_not_stop_the_others(tmp_path, cli):
    files = [write(tmp_path, f"s{i}.py", RISKY_SERVER) for i in range(3)]
    files[1].chmod(0o444)
    try:
        result = cli("fix", tmp_path)
    finally:
        files[1].chmod(0o644)
    assert result.exit_code == 2
    assert f"tokenlint: {tmp_path}/s1.py: not written: file is read-only" in result.stderr.splitlines()
    assert files[1].read_text() == RISKY_SERVER
    assert all("fit_response" in f.read_text() for f in (files[0], files[2]))


# -- bad files under `fix` -------------------------------------------------------------------

BAD_FILES = {
    "syntax.py": (MCP_HEADER + "def broken(:\n    pass\n").encode(),
    "py2.py": (MCP_HEADER + "print 'hello'\ntry:\n    pass\nexcept Exception, e:\n    pass\n").encode(),
    "nul.py": MCP_HEADER.encode() + b"\x00\x01",
    "latin.py": MCP_HEADER.encode() + b"NAME = '\xe9t\xe9'\n",
    "wide.py": RISKY_SERVER.encode("utf-16"),
}


def test_fix_leaves_bad_files_alone_and_fixes_the_rest(tmp_path, cli):
    for name, data in BAD_FILES.items():
        write(tmp_path, name, data)
    good = write(tmp_path, "zz_server.py", RISKY_SERVER)
    result = cli("fix", tmp_path)
    assert "Fixed 1 tool in 1 file." in result.stderr
    assert "fit_response" in good.read_text()
    for name, data in BAD_FILES.items():
        assert (tmp_path / name).read_bytes() == data


def test_fix_names_the_files_it_cannot_analyse(tmp_path, cli):
    for name, data in BAD_FILES.items():
        write(tmp_path, name, data)
    result = cli("fix", tmp_path)
    assert all(f"{tmp_path}/{name}" in result.stderr for name in BAD_FILES)
    assert result.exit_code != 0


def test_fix_a_file_ending_in_blank_lines_and_a_whitespace_only_line(tmp_path, cli):
    source = RISKY_SERVER + "\n\n "
    path = write(tmp_path, "server.py", source)
    result = cli("fix", path)
    assert result.exit_code == 0, result.stderr
    assert path.read_text().endswith("\n\n ")


def test_fix_goes_on_past_a_module_too_deep_for_libcst(tmp_path, cli):
    """A 600-term expression outside the tool: `check` analyses the tool, but LibCST's
    recursive code generation cannot rewrite the module; the other files must still be fixed."""
    deep = write(tmp_path, "deep.py", RISKY_SERVER + "X = 1" + " + 1" * 600 + "\n")
    good = write(tmp_path, "zz_server.py", RISKY_SERVER)
    result = cli("fix", tmp_path)
    assert "internal error" not in result.stderr
    assert f"{tmp_path}/deep.py" in result.stderr
    assert "fit_response" in good.read_text()
    assert deep.read_text().endswith(" + 1\n")


def test_fix_rewrites_the_target_of_a_symlink_and_keeps_the_link(tmp_path, cli):
    real = write(tmp_path, "real/server.py", RISKY_SERVER)
    link = tmp_path / "link.py"
    os.symlink(real, link)
    result = cli("fix", link)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "fit_response" in real.read_text()


def test_valid_python_that_libcst_cannot_parse_is_named_as_such(tmp_path, cli):
    """`(x): int = 1` is valid Python (CPython's own test_grammar.py has it) that LibCST 1.x
    cannot parse: a TL001 that does not call it a syntax error."""
    write(tmp_path, "ann.py", MCP_HEADER + "(pars): bool = True\n")
    write(tmp_path, "zz_server.py", RISKY_SERVER)
    compile((tmp_path / "ann.py").read_text(), "ann.py", "exec")
    result = cli("check", tmp_path)
    assert tl001(result.stdout) == {
        "ann.py": f"{tmp_path}/ann.py:3:1: TL001 cannot analyse {tmp_path}/ann.py: unsupported syntax at 3:1: "
                  "CPython accepts this line but LibCST, which tokenlint parses with, does not"}
    assert_risky_reported(result.stdout)


def test_a_helper_that_fails_is_no_small_summary_for_the_next_tool(tmp_path: Path, monkeypatch) -> None:
    """An internal error while a shared helper is summarised is reported for every tool that
    calls it: the helper's recursion guard (a summary of nothing) must not stay behind and rate
    the next tool calling it NONE, with no error."""
    from helpers import check
    from tokenlint.analysis import interpreter

    write(tmp_path, "server.py", MCP_HEADER + (
        "import sqlite3\n"
        "def _rows(sql):\n"
        "    return sqlite3.connect('x.db').execute(sql).fetchall()\n"
        "@mcp.tool()\n"
        "def first() -> list:\n"
        "    return _rows('SELECT * FROM a')\n"
        "@mcp.tool()\n"
        "def second() -> list:\n"
        "    return _rows('SELECT * FROM b')\n"))
    run = interpreter.FunctionInterpreter.run

    def failing(self, stmts):
        if self.helper and self.function_name == "_rows":
            raise RuntimeError("boom")
        return run(self, stmts)

    monkeypatch.setattr(interpreter.FunctionInterpreter, "run", failing)
    result = check([str(tmp_path)], load_settings(None))
    assert sorted(e.split("`")[1] for e in result.internal_errors) == ["first", "second"]
    assert not any(t.risk.name == "NONE" for t in result.result.tools)
