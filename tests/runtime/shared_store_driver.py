"""Two replicas of one server sharing a Redis store, driven with the real ``mcp`` client.

Run with an SDK venv's python (``PYTHONPATH=<repo>``, ``TOKENLINT_STORE_URL`` set):
``python shared_store_driver.py SERVER.py OUT.json``. Starts SERVER.py twice over stdio (two
processes, nothing shared but Redis) and follows every ``next_action``, sending page 1 to
replica A, page 2 to replica B, page 3 to A, ...; records every page's text and structured
content for the test to check.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tokenlint.runtime.collector import page_next_action, parse_tool_result


def is_error(result: Any) -> bool:
    flag = getattr(result, "isError", None)
    return bool(getattr(result, "is_error", False) if flag is None else flag)


async def main(server: str, out_path: str) -> None:
    env = dict(os.environ, FASTMCP_CHECK_FOR_UPDATES="off", FASTMCP_LOG_LEVEL="WARNING")
    params = StdioServerParameters(command=sys.executable, args=[server], env=env,
                                   cwd=os.path.dirname(server))
    obs: dict[str, Any] = {}
    with anyio.fail_after(240):
        async with contextlib.AsyncExitStack() as stack:
            replicas = []
            for _ in range(2):
                read, write = await stack.enter_async_context(stdio_client(params))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                replicas.append(session)
            obs["whoami"] = [parse_tool_result(await s.call_tool("whoami", {}))
                             for s in replicas]
            for tool, args in (("list_users", {"n": 300}), ("read_doc", {})):
                pages = []
                name = tool
                for k in range(400):
                    result = await replicas[k % 2].call_tool(name, args)
                    texts = [getattr(b, "text", None) for b in result.content]
                    pages.append({"replica": k % 2, "is_error": is_error(result),
                                  "texts": texts})
                    if is_error(result):
                        break
                    action = page_next_action(parse_tool_result(result))
                    if action is None:
                        break
                    name, args = action["tool"], action["arguments"]
                obs[tool] = pages
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(obs, fh, ensure_ascii=False, default=str)


if __name__ == "__main__":
    anyio.run(main, os.path.abspath(sys.argv[1]), sys.argv[2])
