"""Drive one fixture server over stdio with the real ``mcp`` client; print JSON observations.

Run with an SDK venv's python (``PYTHONPATH=<repo>``):
``python driver.py SERVER.py OUT.json [SERVER_ARGUMENT ...]`` (the arguments go to the server, e.g.
the SDK of ``servers/sdk_server.py``).
pytest (in the main environment) asserts on the observations and measures tokens with tiktoken.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tokenlint.runtime import collect_pages
from tokenlint.runtime.collector import page_next_action, parse_tool_result


def raw(result: Any) -> dict[str, Any]:
    structured = getattr(result, "structuredContent", None)
    if structured is None:
        structured = getattr(result, "structured_content", None)
    is_error = getattr(result, "isError", None)
    if is_error is None:
        is_error = getattr(result, "is_error", False)
    return {
        "types": [b.type for b in result.content],
        "texts": [getattr(b, "text", None) for b in result.content],
        "uris": [str(getattr(b, "uri", "")) for b in result.content if b.type == "resource_link"],
        "structured": structured,
        "is_error": bool(is_error),
    }


async def follow(session: ClientSession, tool: str, args: dict[str, Any],
                 limit: int = 400) -> list[dict[str, Any]]:
    pages = []
    name = tool
    for _ in range(limit):
        result = await session.call_tool(name, args)
        page = raw(result)
        pages.append(page)
        if page["is_error"]:
            break
        action = page_next_action(parse_tool_result(result))
        if action is None:
            break
        name, args = action["tool"], action["arguments"]
    return pages


async def call(session: ClientSession, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return raw(await session.call_tool(tool, args))


def first_cursor(page: dict[str, Any]) -> str:
    class R:  # parse_tool_result wants an object
        pass
    r = R()
    r.content = [type("B", (), {"text": t})() for t in page["texts"] if t is not None]
    r.structuredContent = page["structured"]
    r.isError = page["is_error"]
    action = page_next_action(parse_tool_result(r))
    assert action is not None, page
    return action["arguments"]["cursor"]


async def main(server: str, out_path: str, *server_arguments: str) -> None:
    env = dict(os.environ)
    env["FASTMCP_CHECK_FOR_UPDATES"] = "off"
    env["FASTMCP_LOG_LEVEL"] = "WARNING"
    params = StdioServerParameters(command=sys.executable, args=[server, *server_arguments],
                                   env=env, cwd=os.path.dirname(server))
    obs: dict[str, Any] = {}
    timings: dict[str, float] = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            obs["tools"] = {
                t.name: (getattr(t, "outputSchema", None) or getattr(t, "output_schema", None))
                for t in tools}
            names = set(obs["tools"])
            t0 = time.perf_counter()
            follows = {
                "list_users": {"n": 300},
                "list_users_admin": {"n": 300, "role": "admin"},
                "get_report": {"n": 300},
                "read_doc": {},
                "big_records": {},
                "typed_users": {"n": 300},
                "list_users_plain": {"n": 300},
            }
            obs["follow"] = {}
            for key, args in follows.items():
                tool = "list_users" if key == "list_users_admin" else key
                if tool in names:
                    obs["follow"][key] = await follow(session, tool, args)
            timings["follow"] = time.perf_counter() - t0

            obs["identity"] = {}
            for tool, raw_tool in (("list_users", "list_users_raw"),
                                   ("list_users_plain", "list_users_plain_raw")):
                if tool in names and raw_tool in names:
                    obs["identity"][tool] = [await call(session, tool, {"n": 3}),
                                             await call(session, raw_tool, {"n": 3})]
            if "typed_users" in names:
                obs["identity"]["typed_users"] = [await call(session, "typed_users", {"n": 3})]
            obs["identity"]["get_report"] = [await call(session, "get_report", {"n": 2})]

            obs["collect"] = {
                "list_users": await collect_pages(session, "list_users", {"n": 300}),
                "get_report": await collect_pages(session, "get_report", {"n": 300}),
                "read_doc": await collect_pages(session, "read_doc", {}),
                "big_records": await collect_pages(session, "big_records", {}),
                "small": await collect_pages(session, "list_users", {"n": 3}),
                "first": await collect_pages(session, "list_users", {"n": 300}, strategy="first"),
                "last": await collect_pages(session, "list_users", {"n": 300}, strategy="last"),
                "custom": await collect_pages(session, "list_users", {"n": 300},
                                              strategy=lambda pages: len(pages)),
            }

            first = obs["follow"]["list_users"][0]
            cursor = first_cursor(first)
            tampered = cursor[:20] + ("A" if cursor[20] != "A" else "B") + cursor[21:]
            obs["errors"] = {
                "tampered": await call(session, "list_users", {"n": 300, "cursor": tampered}),
                "garbage": await call(session, "list_users", {"n": 300, "cursor": "not-a-cursor"}),
                "other_tool": await call(session, "get_report", {"n": 300, "cursor": cursor}),
                "other_args": await call(session, "list_users", {"n": 301, "cursor": cursor}),
                "same_args_ok": await call(session, "list_users", {"n": 300, "cursor": cursor}),
            }
            exp_first = await call(session, "expiring", {})
            exp_cursor = first_cursor(exp_first)
            await anyio.sleep(2.2)
            obs["errors"]["expired"] = await call(session, "expiring", {"cursor": exp_cursor})

            # resources: the full result behind resource_uri
            obs["resource"] = None
            parsed = json.loads(first["texts"][0]) if first["structured"] is None \
                else first["structured"]
            if isinstance(parsed, dict) and "result" in parsed and len(parsed) == 1:
                parsed = parsed["result"]
            uri = parsed.get("resource_uri") if isinstance(parsed, dict) else None
            if uri:
                res = await session.read_resource(uri)
                obs["resource"] = {"uri": uri, "text": res.contents[0].text}
                try:
                    await session.read_resource(uri[:-4] + "0000")
                    obs["resource"]["unknown"] = "no error"
                except Exception as err:  # noqa: BLE001 - any error is the expected outcome
                    obs["resource"]["unknown"] = str(err)
            if "list_users_linked" in names:
                obs["linked"] = await call(session, "list_users_linked", {"n": 300})

            # store bounds under 1,000 distinct calls
            t0 = time.perf_counter()
            stats = []
            for i in range(1000):
                r = await call(session, "many", {"i": i})
                assert not r["is_error"], r
                if i % 100 == 99:
                    s = await call(session, "store_stats", {})
                    stats.append(s["structured"] or json.loads(s["texts"][0]))
            timings["many"] = time.perf_counter() - t0
            obs["store_stats"] = [x.get("result", x) if isinstance(x, dict) else x for x in stats]
    obs["timings"] = timings
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(obs, fh, ensure_ascii=False, default=str)


if __name__ == "__main__":
    anyio.run(main, os.path.abspath(sys.argv[1]), *sys.argv[2:])
