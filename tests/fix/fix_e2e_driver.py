"""Drive an original fixture server and its ``tokenlint fix`` rewrite with the real ``mcp`` client.

Run with an SDK venv's python (``PYTHONPATH=<repo>`` so the rewrite imports ``tokenlint.runtime``)::

    python fix_e2e_driver.py SPEC.json OUT.json

SPEC: ``{"servers": {"original": PATH, "rewritten": PATH}, "env": {...}, "calls": [{"tool": ...,
"args": {...}}, ...]}``. Both servers are started over stdio, concurrently; on each, ``tools/list``
is recorded and every call is made, then its ``next_action`` is followed, as the model would,
from the text the model sees (a text page's ``next_action:`` footer line, or the JSON text's
``next_action`` key), until there is none; then every ``resource_link`` of the call's pages is
read with ``resources/read`` in the same session. The client validates ``structuredContent`` against the
tool's ``outputSchema``; an exception of a call is recorded, never swallowed. OUT gets, per
server: ``tools`` (name, input/output schema) and per call the raw pages (content block types and
texts, resource links, structured content, isError), the reads of the links (text or error),
or the exception. pytest asserts on them.
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

from tokenlint.runtime import parse_text_page

#: Pages followed at most per call (the largest call of the tests needs about 15).
MAX_PAGES = 100


def _attr(obj: Any, *names: str) -> Any:
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return None


def raw_page(result: Any) -> dict[str, Any]:
    return {
        "types": [b.type for b in result.content],
        "texts": [getattr(b, "text", None) for b in result.content],
        "links": [b.model_dump(mode="json", by_alias=True, exclude_none=True)
                  for b in result.content if b.type == "resource_link"],
        "structured": _attr(result, "structuredContent", "structured_content"),
        "is_error": bool(_attr(result, "isError", "is_error")),
    }


def model_next_action(page: dict[str, Any]) -> dict[str, Any] | None:
    """The ``next_action`` in the text the model reads (not in structuredContent)."""
    texts = [t for t in page["texts"] if t is not None]
    if len(texts) != 1:
        return None
    parsed = parse_text_page(texts[0])
    if parsed is not None:
        return parsed["next_action"]
    try:
        value = json.loads(texts[0])
    except ValueError:
        return None
    action = value.get("next_action") if isinstance(value, dict) else None
    return action if isinstance(action, dict) else None


async def read_links(session: ClientSession, pages: list[dict[str, Any]]) -> dict[str, Any]:
    """URI -> ``{"text", "mime"}`` of ``resources/read`` of every linked URI, or ``{"error"}``."""
    reads: dict[str, Any] = {}
    for uri in dict.fromkeys(link["uri"] for page in pages for link in page["links"]):
        try:
            contents = (await session.read_resource(uri)).contents
            reads[uri] = {"text": "".join(c.text for c in contents),
                          "mime": _attr(contents[0], "mimeType", "mime_type")}
        except Exception as exc:  # noqa: BLE001 - recorded; the test fails on it
            reads[uri] = {"error": f"{type(exc).__name__}: {exc}"}
    return reads


async def drive(script: str, env: dict[str, str], calls: list[dict[str, Any]]) -> dict[str, Any]:
    params = StdioServerParameters(command=sys.executable, args=[script], env=env,
                                   cwd=os.path.dirname(script))
    out: dict[str, Any] = {"calls": []}
    t0 = time.perf_counter()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            out["tools"] = [
                {"name": t.name,
                 "description": t.description,
                 "input_schema": _attr(t, "inputSchema", "input_schema"),
                 "output_schema": _attr(t, "outputSchema", "output_schema")}
                for t in (await session.list_tools()).tools]
            for call in calls:
                record: dict[str, Any] = {"tool": call["tool"], "args": call["args"], "pages": [],
                                          "exception": None}
                name, args = call["tool"], dict(call["args"])
                try:
                    for _ in range(MAX_PAGES):
                        page = raw_page(await session.call_tool(name, args))
                        record["pages"].append(page)
                        action = None if page["is_error"] else model_next_action(page)
                        if action is None:
                            break
                        name, args = action["tool"], action["arguments"]
                except Exception as exc:  # noqa: BLE001 - recorded; the test fails on it
                    record["exception"] = f"{type(exc).__name__}: {exc}"
                record["reads"] = await read_links(session, record["pages"])
                out["calls"].append(record)
    out["seconds"] = time.perf_counter() - t0
    return out


async def main(spec_path: str, out_path: str) -> None:
    with open(spec_path, encoding="utf-8") as fh:
        spec = json.load(fh)
    env = {**os.environ, **spec["env"]}
    results: dict[str, Any] = {}

    async def run(key: str, script: str) -> None:
        results[key] = await drive(script, env, spec["calls"])

    async with anyio.create_task_group() as tg:
        for key, script in spec["servers"].items():
            tg.start_soon(run, key, script)
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(results, fh, ensure_ascii=False, default=str)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
