"""Several real ``mcp`` clients over streamable HTTP against one fixture server; JSON observations.

Run with an SDK venv's python (``PYTHONPATH=<repo>``):
``python http_driver.py SERVER.py OUT.json [SERVER_ARGUMENT ...]`` (the arguments go to the server).
The server listens on 127.0.0.1 only (a free port), each client gets its own ``mcp-session-id``.
Bounded in count and time: ``CLIENTS`` clients, ``CALLS`` load calls each, 240 s in all.

Phases, every client at once in each: (1) each client pages ``list_users`` and keeps its cursor
and ``resource_uri``; (2) each client tries its neighbour's cursor and resource URI, then its own;
(3) load: ``CALLS`` calls of ``many`` per client (distinct results: in the first half every third
is ~200 KB, so the byte bound binds, then ~10 KB ones, so the entry bound binds), with the store's
statistics sampled along the way.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from typing import Any

import anyio
from mcp import ClientSession

try:  # mcp 1.x names it streamablehttp_client too; both yield (read, write, ...)
    from mcp.client.streamable_http import streamable_http_client as connect
except ImportError:  # pragma: no cover - older mcp 1.x
    from mcp.client.streamable_http import streamablehttp_client as connect

from tokenlint.runtime.collector import page_next_action, parse_tool_result

CLIENTS = int(os.environ.get("TL_HTTP_CLIENTS", "6"))
CALLS = int(os.environ.get("TL_HTTP_CALLS", "30"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def wait_listening(port: int, proc: subprocess.Popen, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            stream = await anyio.connect_tcp("127.0.0.1", port)
            await stream.aclose()
            return
        except OSError:
            await anyio.sleep(0.2)
    raise TimeoutError("server did not listen")


def stop_server(proc: subprocess.Popen, log) -> None:
    """Stop the server a driver started (terminate, then kill after 10 s) and close its log."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def texts(result: Any) -> str:
    return " ".join(getattr(b, "text", "") or "" for b in result.content)


def is_error(result: Any) -> bool:
    flag = getattr(result, "isError", None)
    return bool(getattr(result, "is_error", False) if flag is None else flag)


def stats_of(result: Any) -> dict[str, int]:
    value = parse_tool_result(result)
    return value.get("result", value) if isinstance(value, dict) else value


async def main(server: str, out_path: str, *server_arguments: str) -> None:
    port = free_port()
    env = dict(os.environ, TL_HTTP_PORT=str(port), FASTMCP_CHECK_FOR_UPDATES="off",
               FASTMCP_LOG_LEVEL="WARNING")
    log = open(out_path + ".server.log", "w")
    proc = subprocess.Popen([sys.executable, server, *server_arguments], cwd=os.path.dirname(server),
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    obs: dict[str, Any] = {"clients": CLIENTS, "calls": CALLS}
    try:
        with anyio.fail_after(480):  # (listening may take 180 s on a loaded machine)
            await wait_listening(port, proc)
            t0 = time.perf_counter()
            await drive(f"http://127.0.0.1:{port}/mcp", obs)
            obs["elapsed_s"] = time.perf_counter() - t0
    finally:
        stop_server(proc, log)
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(obs, fh, ensure_ascii=False, default=str)


async def drive(url: str, obs: dict[str, Any]) -> None:
    async with contextlib.AsyncExitStack() as stack:
        sessions = []
        for _ in range(CLIENTS):
            streams = await stack.enter_async_context(connect(url))
            session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
            await session.initialize()
            sessions.append(session)

        # (1) every client's own paged result
        own: list[dict[str, Any]] = [{} for _ in sessions]

        async def first(k: int) -> None:
            result = await sessions[k].call_tool("list_users", {"n": 300})
            page = parse_tool_result(result)
            own[k] = {"cursor": page_next_action(page)["arguments"]["cursor"],
                      "uri": page.get("resource_uri"), "count": len(page["items"])}

        async with anyio.create_task_group() as tg:
            for k in range(len(sessions)):
                tg.start_soon(first, k)
        obs["distinct_cursors"] = len({o["cursor"] for o in own})

        # (2) each client tries its neighbour's cursor and resource URI, then its own
        cross: list[dict[str, Any]] = [{} for _ in sessions]

        async def swap(k: int) -> None:
            s, mine, theirs = sessions[k], own[k], own[(k + 1) % len(sessions)]
            out = cross[k]
            r = await s.call_tool("list_users", {"n": 300, "cursor": theirs["cursor"]})
            out["foreign_cursor"] = {"is_error": is_error(r), "text": texts(r)}
            r = await s.call_tool("list_users", {"n": 300, "cursor": mine["cursor"]})
            page = parse_tool_result(r) if not is_error(r) else None
            out["own_cursor"] = {"is_error": is_error(r),
                                 "first_id": page["items"][0]["id"] if page else None,
                                 "expected_id": mine["count"]}
            for name, uri in (("foreign_uri", theirs["uri"]), ("own_uri", mine["uri"])):
                try:
                    res = await s.read_resource(uri)
                    out[name] = {"ok": True, "rows": len(json.loads(res.contents[0].text))}
                except Exception as err:  # noqa: BLE001 - the error text is the observation
                    out[name] = {"ok": False, "text": str(err)}

        async with anyio.create_task_group() as tg:
            for k in range(len(sessions)):
                tg.start_soon(swap, k)
        obs["cross"] = cross

        # (2b) the same with a tool that has no Context parameter (list_users_noctx)
        noctx: list[str] = ["" for _ in sessions]
        cross_noctx: list[dict[str, Any]] = [{} for _ in sessions]

        async def first_noctx(k: int) -> None:
            page = parse_tool_result(await sessions[k].call_tool("list_users_noctx", {"n": 300}))
            noctx[k] = page_next_action(page)["arguments"]["cursor"]

        async def swap_noctx(k: int) -> None:
            s, out = sessions[k], cross_noctx[k]
            for name, cur in (("foreign_cursor", noctx[(k + 1) % len(sessions)]),
                              ("own_cursor", noctx[k])):
                r = await s.call_tool("list_users_noctx", {"n": 300, "cursor": cur})
                out[name] = {"is_error": is_error(r), "text": texts(r)[:300]}

        for step in (first_noctx, swap_noctx):
            async with anyio.create_task_group() as tg:
                for k in range(len(sessions)):
                    tg.start_soon(step, k)
        obs["cross_noctx"] = cross_noctx

        # (3) load: distinct results from every client at once; the store is sampled throughout
        samples: list[dict[str, int]] = []
        errors: list[str] = []

        async def load(k: int) -> None:
            s = sessions[k]
            for j in range(CALLS):
                # first half: every third result ~200 KB (the byte bound binds); then ~10 KB ones
                # only (the entry bound binds)
                rows = 800 if j % 3 == 0 and j < CALLS // 2 else 40
                r = await s.call_tool("many", {"i": k * 100_000 + j, "rows": rows})
                if is_error(r):
                    errors.append(texts(r))
                if j % 5 == 4:
                    samples.append(stats_of(await s.call_tool("store_stats", {})))

        async with anyio.create_task_group() as tg:
            for k in range(len(sessions)):
                tg.start_soon(load, k)
        samples.append(stats_of(await sessions[0].call_tool("store_stats", {})))
        obs["samples"] = samples
        obs["load_errors"] = errors


if __name__ == "__main__":
    anyio.run(main, os.path.abspath(sys.argv[1]), *sys.argv[2:])
