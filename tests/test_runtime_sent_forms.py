"""A text page fits in every form the SDK sends it in (issue 13, item 7).

mcp 2.x ``MCPServer`` (and mcp 1.x ``FastMCP``) send a ``-> str`` tool's result twice: as text
content and, JSON-escaped, as structured content ``{"result": "..."}``. Escaping doubles every
newline, quote and backslash, so a page measured on its text alone overflows there.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tokenlint.runtime import fit_response
from tokenlint.runtime.estimator import TokenEstimator

BUDGET_TOKENS = 2_000


def _escaped_text(lines: int) -> str:
    """Diff-like text, dense in quotes, backslashes and newlines (what escaping inflates)."""
    return "\n".join(f'+    "k{i}": "{"abc"[i % 3] * (i % 4 + 1)}",  # "quoted" \\ path\\to\\x{i}'
                     for i in range(lines))


def _follow(text: str) -> list[str]:
    pages, arguments = [], {}
    while True:
        page = fit_response(text, tool="t", arguments=arguments, max_tokens=BUDGET_TOKENS)
        pages.append(page)
        head, sep, action = page.rpartition("next_action: ")
        if not sep:
            return pages
        arguments = json.loads(action)["arguments"]


def test_every_text_page_fits_as_text_and_as_structured_content():
    est = TokenEstimator()
    text = _escaped_text(3_000)
    pages = _follow(text)
    assert len(pages) > 10
    for page in pages:
        assert est.count_text_tokens(page) <= BUDGET_TOKENS
        structured = json.dumps({"result": page}, ensure_ascii=False)
        assert est.count_text_tokens(structured) <= BUDGET_TOKENS, est.count_text_tokens(structured)


def test_a_text_within_budget_only_as_text_is_paged():
    """A result that fits as text but not escaped is paged too (else the structured form overflows)."""
    est = TokenEstimator()
    text = _escaped_text(60)
    while est.count_text_tokens(json.dumps({"result": text}, ensure_ascii=False)) <= BUDGET_TOKENS:
        text += "\n" + _escaped_text(5)
    assert est.count_text_tokens(text) <= BUDGET_TOKENS
    assert fit_response(text, tool="t", arguments={}, max_tokens=BUDGET_TOKENS) != text


SERVER = textwrap.dedent('''\
    from mcp.server.mcpserver import MCPServer
    from tokenlint.runtime import fit_response

    {generator}
    mcp = MCPServer("forms", log_level="WARNING")


    @mcp.tool()
    def diff(cursor: str | None = None) -> str:
        return fit_response(_escaped_text(3_000), tool="diff", arguments={{"cursor": cursor}},
                            cursor=cursor, max_tokens={budget})


    mcp.run()
''')

CLIENT = textwrap.dedent('''\
    import asyncio, json, os, sys
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client


    async def main():
        params = StdioServerParameters(command=sys.executable, args=[sys.argv[1]], env=dict(os.environ))
        out, args = [], {}
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                while True:
                    result = await session.call_tool("diff", args)
                    structured = getattr(result, "structuredContent", None) or getattr(result, "structured_content", None)
                    text = result.content[0].text
                    out.append({"text": text, "structured": json.dumps(structured, ensure_ascii=False)})
                    head, sep, action = text.rpartition("next_action: ")
                    if not sep:
                        break
                    args = json.loads(action)["arguments"]
        print(json.dumps(out))


    asyncio.run(main())
''')


@pytest.mark.e2e
def test_mcpserver_sends_every_page_within_budget_in_both_forms(tmp_path):
    """With the real mcp 2.x MCPServer and client: the text and the structured content of every
    page of a `-> str` tool are each within the budget."""
    sys.path.insert(0, str(Path(__file__).parent / "runtime"))
    import runtime_sdk_envs as sdk_envs

    python = sdk_envs.ensure_venv("mcp2")
    server = tmp_path / "server.py"
    server.write_text(SERVER.format(generator=inspect.getsource(_escaped_text), budget=BUDGET_TOKENS))
    client = tmp_path / "client.py"
    client.write_text(CLIENT)
    done = subprocess.run([str(python), str(client), str(server)], capture_output=True, text=True,
                          env=sdk_envs.driver_env(), timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    pages = json.loads(done.stdout)
    assert len(pages) > 10
    est = TokenEstimator()
    assert all(p["structured"] != "null" for p in pages)  # the SDK did send both forms
    assert max(est.count_text_tokens(p["text"]) for p in pages) <= BUDGET_TOKENS
    assert max(est.count_text_tokens(p["structured"]) for p in pages) <= BUDGET_TOKENS
    assert "".join(p["text"].split("\n--- Page")[0] for p in pages).count('"k2999"') == 1
