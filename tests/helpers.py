"""Helpers shared by the linter's tests (import as ``from helpers import ...``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from click.testing import Result

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
#: Where the suite keeps what it fetches or learns between runs (the SARIF schema, hypothesis's
#: examples): the user's cache directory, never the checkout.
USER_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tokenlint-tests"


def build_runtime_wheel(wheels: Path, env: dict[str, str] | None = None) -> None:
    """Build the runtime distribution (``tokenlint/runtime``) as a wheel into ``wheels``, from a
    private copy of its source next to it: setuptools builds in the source tree's ``build/``,
    which two builds at once (tests on other xdist workers) would share and pull from under each
    other. Raises AssertionError with pip's output when the build fails."""
    source = wheels.parent / "runtime-source"
    shutil.copytree(REPO / "tokenlint" / "runtime", source,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    """Create ``tmp/name`` (parents included) holding ``text`` (str as UTF-8, or raw bytes)."""
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


#: One FastMCP tool returning a whole query (TL101 at 10:12, TL201 at 10:5; HIGH).
RISKY_SERVER = """\
import sqlite3
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("db")


@mcp.tool()
def list_orders() -> list:
    conn = sqlite3.connect("shop.db")
    return conn.execute("SELECT * FROM orders").fetchall()
"""


def run_cli(*args: object, catch_exceptions: bool = False) -> Result:
    """``tokenlint *args`` run in this process (click's ``CliRunner``; arguments turned into
    strings) from the current directory, returning click's ``Result``: the one way the suite
    invokes the command (tests take the ``cli`` fixture, which can also change directory)."""
    from click.testing import CliRunner

    from tokenlint.cli import main

    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch_exceptions)


def undocumented(package: str) -> list[str]:
    """``module.name`` (and ``module.Class.method``) of every public function, class and method
    defined in the modules of ``package`` (its own, not imported ones) without a docstring of its
    own; a dataclass's or NamedTuple's generated ``Name(field, ...)`` does not count. ``package``
    may also name a single module (``tokenlint.model``): then only that module is looked at."""
    import importlib
    import inspect
    import pkgutil

    def documented(obj: object, name: str) -> bool:
        doc = vars(obj).get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
        return bool(doc and doc.strip()) and not (inspect.isclass(obj) and doc.startswith(name + "("))

    missing = []
    root = importlib.import_module(package)
    names = [package]
    if hasattr(root, "__path__"):
        names += [info.name for info in pkgutil.walk_packages(root.__path__, package + ".")]
    for module_name in names:
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)) \
                    or obj.__module__ != module.__name__:
                continue
            if not documented(obj, name):
                missing.append(f"{module.__name__}.{name}")
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    func = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                    if not attr.startswith("_") and inspect.isfunction(func) and not documented(func, attr):
                        missing.append(f"{module.__name__}.{name}.{attr}")
    return missing


def check(paths: list[str], settings, *, jobs: int | None = None, cache_dir: Path | None = None,
          pooled: bool = False):
    """Run the check pipeline as ``tokenlint check`` does (``[*]`` marks from fix's planner):
    in this process with live facts, or with ``pooled`` (also implied by ``jobs`` or
    ``cache_dir``) through ``jobs`` workers and the cache in ``cache_dir``. A ``RunResult``."""
    from tokenlint.cli import fix_unfixable_reason as unfixable_reason
    from tokenlint.run.cache import Cache
    from tokenlint.run.pipeline import InProcess, Pooled, check_paths

    if pooled or jobs is not None or cache_dir is not None:
        cache = Cache(cache_dir, settings, unfixable_reason) if cache_dir is not None else None
        executor = Pooled(jobs, cache)
    else:
        executor = InProcess()
    return check_paths(paths, settings, unfixable_reason=unfixable_reason, executor=executor)
