"""TL106 unbounded-accumulation."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedAccumulation(SourceRule):
    """## What it does
    Finds loops and comprehensions that drain an open-ended stream into the response: iterating
    a database cursor, a paginator or `iter_lines()`, or a `while` loop that fetches every page of
    an API and collects them all.

    ## Why is this bad?
    The loop stops only when the data ends, so the response is as large as the data; following
    an API's pagination to the end defeats the API's own page size.

    ## Example
    ```python
    @mcp.tool()
    def all_tickets() -> list[dict]:
        out, token = [], None
        while True:
            page = client.get("/tickets", params={"page_token": token}).json()
            out.extend(page["items"])
            token = page.get("next")
            if not token:
                return out
    ```

    ## Fix
    Return one page and its `next_page_token` (with a `page_token` parameter), stop at a clamped
    count, or page the collected items with `tokenlint.runtime.fit_response`.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL106"
    name = "unbounded-accumulation"
    summary = "Loops and comprehensions that drain a cursor, paginator or line stream; `while` loops that fetch every page"
    noun = "everything a loop collected"
    VALID = [
        Valid(
            "import sqlite3\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def first_names() -> list:\n"
            "    out = []\n"
            "    for i, row in enumerate(sqlite3.connect('a.db').execute('SELECT name FROM users')):\n"
            "        if i >= 20:\n"
            "            break\n"
            "        out.append(row[0])\n"
            "    return {'names': out, 'next_offset': 20}\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import sqlite3\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def names() -> list:\n"
            "    cur = sqlite3.connect('a.db').execute('SELECT name FROM users')\n"
            "    return [row[0] for row in cur]\n",
            ("TL106@7", "TL201@7"),
        ),
    ]
