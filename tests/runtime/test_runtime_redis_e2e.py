"""Two server processes sharing one real Redis: page 1 from one, page 2 from the other, lossless.

``shared_store_driver.py`` runs in each SDK venv (mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer``),
starts ``servers/shared_store_server.py`` twice over stdio with ``TOKENLINT_STORE_URL`` pointing
at the test's ``redis-server`` (the servers' code names no store: the environment variable alone
turns the shared store on), and alternates replicas on every ``next_action``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import runtime_fixture_data as data
import runtime_sdk_envs as sdk_envs
from tokenlint.runtime import join_text_pages, parse_text_page

VENVS = {"mcp1": 1, "mcp2": 2}  # venv -> Redis database, so the runs cannot meet

HERE = Path(__file__).resolve().parent


@pytest.fixture(params=sorted(VENVS))
def replicas_run(request, e2e_runs, redis_url, tmp_path):
    python = e2e_runs.venv(request.param).result()
    env = sdk_envs.driver_env()
    env["TOKENLINT_STORE_URL"] = redis_url.rsplit("/", 1)[0] + f"/{VENVS[request.param]}"
    out = tmp_path / "obs.json"
    with sdk_envs.driver_slot():
        proc = subprocess.run(
            [str(python), str(HERE / "shared_store_driver.py"),
             str(HERE / "servers" / "shared_store_server.py"), str(out)],
            cwd=str(HERE), env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-6000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_two_processes_serve_one_cursor_chain_losslessly(replicas_run):
    a, b = replicas_run["whoami"]
    assert a["pid"] != b["pid"]
    assert a["store"] == b["store"] == "RedisResultStore"

    pages = replicas_run["list_users"]
    assert len(pages) >= 4 and not any(p["is_error"] for p in pages)
    assert [p["replica"] for p in pages] == [k % 2 for k in range(len(pages))]
    items = [r for p in pages for r in json.loads(p["texts"][0])["items"]]
    assert items == data.users(300)  # every record once, in order, across both processes

    text_pages = replicas_run["read_doc"]
    assert len(text_pages) >= 4 and not any(p["is_error"] for p in text_pages)
    assert join_text_pages([parse_text_page(p["texts"][0]) for p in text_pages]) == \
        data.document()
