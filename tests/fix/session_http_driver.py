"""Two real ``mcp`` clients over streamable HTTP against one rewritten server: is a cursor
replayed from another session refused, and a read of another session's linked full result?

Run with an SDK venv's python (``PYTHONPATH=<repo>``)::

    python session_http_driver.py SERVER.py TOOL ARGS_JSON OUT.json

The server (started here on a free 127.0.0.1 port, ``TL_HTTP_PORT``) is called by client A for a
paged result; client B then sends A's ``next_action`` (A's cursor), then A sends it itself; then
B and A read the ``resource_link`` of A's first page. OUT: ``{"first_paged": bool, "foreign":
{"is_error", "text"}, "own": {"is_error", "text"}, "link": {uri, size, ...} | None,
"foreign_read": {"ok", "text"}, "own_read": {"ok", "text"}}``.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import ClientSession

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runtime"))
from http_driver import connect, free_port, is_error, stop_server, texts, wait_listening  # noqa: E402

from tokenlint.runtime.collector import page_next_action, parse_tool_result  # noqa: E402


async def main(server: str, tool: str, args: str, out_path: str) -> None:
    port = free_port()
    env = dict(os.environ, TL_HTTP_PORT=str(port))
    log = open(out_path + ".server.log", "w")
    proc = subprocess.Popen([sys.executable, server], cwd=os.path.dirname(server), env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    out: dict = {}
    try:
        with anyio.fail_after(120):
            await wait_listening(port, proc)
            url = f"http://127.0.0.1:{port}/mcp"
            async with contextlib.AsyncExitStack() as stack:
                sessions = []
                for _ in range(2):
                    streams = await stack.enter_async_context(connect(url))
                    session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
                    await session.initialize()
                    sessions.append(session)
                a, b = sessions
                first = await a.call_tool(tool, json.loads(args))
                action = page_next_action(parse_tool_result(first))
                out["first_paged"] = action is not None
                for key, session in (("foreign", b), ("own", a)):
                    result = await session.call_tool(action["tool"], action["arguments"])
                    out[key] = {"is_error": is_error(result), "text": texts(result)[:300]}
                links = [blk.model_dump(mode="json", by_alias=True, exclude_none=True)
                         for blk in first.content if blk.type == "resource_link"]
                out["link"] = links[0] if links else None
                for key, session in (("foreign_read", b), ("own_read", a)):
                    try:
                        read = await session.read_resource(links[0]["uri"])
                        out[key] = {"ok": True, "text": read.contents[0].text}
                    except Exception as err:  # noqa: BLE001 - the refusal is the observation
                        out[key] = {"ok": False, "text": str(err)[:300]}
    finally:
        stop_server(proc, log)
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:5])
