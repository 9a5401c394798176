"""One big result paged under each client profile, through the real ``mcp`` client.

Run with an SDK venv's python (``PYTHONPATH=<repo>``): ``python profile_driver.py SERVER.py
OUT.json``. For each profile name, starts SERVER.py over stdio with ``TOKENLINT_CLIENT=<name>``
and follows every ``next_action`` of ``list_users`` and ``read_doc``, recording each page's text
blocks and ``structuredContent`` as the client received them.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tokenlint.runtime.collector import page_next_action, parse_tool_result
from tokenlint.runtime.limits import PROFILES


def is_error(result: Any) -> bool:
    flag = getattr(result, "isError", None)
    return bool(getattr(result, "is_error", False) if flag is None else flag)


async def main(server: str, out_path: str) -> None:
    obs: dict[str, Any] = {}
    with anyio.fail_after(400):
        for profile in PROFILES:
            env = dict(os.environ, TOKENLINT_CLIENT=profile, FASTMCP_CHECK_FOR_UPDATES="off",
                       FASTMCP_LOG_LEVEL="WARNING")
            params = StdioServerParameters(command=sys.executable, args=[server], env=env,
                                           cwd=os.path.dirname(server))
            obs[profile] = {}
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for tool, args in (("list_users", {"n": 600}), ("read_doc", {})):
                        pages, name = [], tool
                        for _ in range(400):
                            result = await session.call_tool(name, args)
                            structured = getattr(result, "structuredContent", None)
                            if structured is None:
                                structured = getattr(result, "structured_content", None)
                            pages.append({"is_error": is_error(result), "structured": structured,
                                          "texts": [getattr(b, "text", None)
                                                    for b in result.content]})
                            action = None if is_error(result) else \
                                page_next_action(parse_tool_result(result))
                            if action is None:
                                break
                            name, args = action["tool"], action["arguments"]
                        obs[profile][tool] = pages
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(obs, fh, ensure_ascii=False, default=str)


if __name__ == "__main__":
    anyio.run(main, os.path.abspath(sys.argv[1]), sys.argv[2])
