"""TL101 unbounded-query-result."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedQueryResult(SourceRule):
    """## What it does
    Finds database results that reach a tool's response whole: `cursor.fetchall()`, ORM
    `.all()`, a `SELECT` without `LIMIT`, `pandas.read_sql()`, asyncpg `fetch()`, a MongoDB
    cursor drained with `list()` or `to_list(None)`.

    A query that selects by a list of keys it interpolates (`WHERE book_id IN ({marks})` with
    `marks = ", ".join("?" for _ in page)`, a column named as an identifier) returns one row per key: as many as that list holds,
    so a page cut from the keys (`keys[offset:offset + size]`) or the caller's own list bounds it
    as a `LIMIT` would. A list of every key read does not, nor does a query whose `OR`, join or
    union lets more rows in.

    A helper that sends the text it is given (`def run(sql): return client.query(sql)`) returns
    what each caller's text selects. A GraphQL document says it by its selection (GraphQL spec
    §6.4.1, "Response shape"): a root field naming one object (`me`, `dataset(urn: $urn)`) is one
    record and a `mutation` gives back what it wrote; a list field is capped by its paging
    argument (`first: 20`, `count: $n`) and is every item without one (`query { datasets { urn } }`).

    ## Why is this bad?
    A table grows after the tool is written. Claude Code warns when a tool result passes 10,000
    tokens and refuses it above 25,000 (`MAX_MCP_OUTPUT_TOKENS`); below that cap the rows still
    crowd out the conversation.

    ## Example
    ```python
    @mcp.tool()
    def list_orders(conn) -> list[dict]:
        return conn.execute("SELECT * FROM orders").fetchall()
    ```

    Use instead:
    ```python
    @mcp.tool()
    def list_orders(cursor: str | None = None) -> dict:
        rows = conn.execute("SELECT * FROM orders").fetchall()
        return fit_response(rows, tool="list_orders", arguments={"cursor": cursor}, cursor=cursor)
    ```

    ## Fix
    Route the result through `tokenlint.runtime.fit_response`, which returns
    it unchanged when it fits the budget and pages it (50→40→30→20→10 records) with a
    `next_cursor` otherwise. A `LIMIT` with an `offset`/`cursor` parameter is the manual fix.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL101"
    name = "unbounded-query-result"
    summary = "`fetchall()`, ORM `.all()`, `SELECT` with no `LIMIT`, `read_sql`, paginated-API lists drained with `list()`"
    noun = "every row of a query"
    VALID = [
        Valid(
            "import sqlite3\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def count_orders() -> int:\n"
            "    rows = sqlite3.connect('a.db').execute('SELECT id FROM orders').fetchall()\n"
            "    return len(rows)\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import sqlite3\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def list_orders() -> list:\n"
            "    conn = sqlite3.connect('a.db')\n"
            "    return conn.execute('SELECT * FROM orders').fetchall()\n",
            ("TL101@7", "TL201@7"),
        ),
    ]
