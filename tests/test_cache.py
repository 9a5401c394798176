"""The cache of ``tokenlint check`` (``tokenlint.run.cache``): a cached run reports what an uncached
one does, cold or warm, for any ``-j``; it is keyed by settings and invalidated by the modules the
analysis followed; its file index trusts no racy entry; it writes nothing with ``--no-cache``
and ignores itself in git; a fully cached run loads no LibCST.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import FIXTURES, REPO, check, write
from tokenlint.config import Settings


@pytest.fixture(scope="module")
def cold_cache(tmp_path_factory):
    """``fixtures/`` checked once into an empty cache (``-j 2``): (the cache, that ``RunResult``).
    The full check is the suite's longest step here; each test takes its own copy of the cache
    (``_copy``), so that what one test writes there no other one sees."""
    cache = tmp_path_factory.mktemp("cold") / "cache"
    return cache, check([str(FIXTURES)], Settings(), jobs=2, cache_dir=cache)


def _copy(cache: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(cache, tmp_path / "cache"))


def test_same_result_cold_and_warm_cache(tmp_path, fixtures_report, cold_cache):
    cache, cold = _copy(cold_cache[0], tmp_path), cold_cache[1]
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert any(cache.rglob("files.json")) and len(list(cache.rglob("groups/*/*.json"))) > 2
    warm = check([str(FIXTURES)], Settings(), jobs=1, cache_dir=cache)
    warm2 = check([str(FIXTURES)], Settings(), jobs=4, cache_dir=cache)
    assert cold.result == warm.result == warm2.result == fixtures_report
    tools = {(t.path.split("fixtures/")[-1], t.name) for t in warm.result.tools}
    assert ("split_server/tools_db.py", "all_orders") in tools  # registered on a server of another module


def test_cache_is_keyed_by_settings(tmp_path, cold_cache):
    cache, everything = _copy(cold_cache[0], tmp_path), cold_cache[1].result
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
def test_no_cache_writes_nothing_and_the_default_cache_is_self_ignoring(tmp_path, cli, monkeypatch):
    monkeypatch.delenv("TOKENLINT_CACHE_DIR", raising=False)  # the suite's own cache directory

    def _check(args, cwd):
        return cli("check", "-f", "json", *args, cwd=cwd, catch_exceptions=True)

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


def test_a_fully_cached_run_does_not_load_libcst(tmp_path, cold_cache):
    """A warm re-run must start fast: it reads the cache and imports no LibCST or analysis."""
    cache = _copy(cold_cache[0], tmp_path)
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


def test_code_fingerprint_covers_every_subpackage():
    """A change to any module of tokenlint (here: the mtime of an analysis module, restored
    after) makes a new cache generation: results of the old analysis are never served."""
    import os

    import tokenlint.analysis.shapes as module
    from tokenlint.run.cache import code_fingerprint

    path = module.__file__
    st = os.stat(path)
    before = code_fingerprint()
    try:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        assert code_fingerprint() != before
    finally:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert code_fingerprint() == before
