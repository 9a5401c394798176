"""TL301 silent-truncation."""

from __future__ import annotations

from typing import Iterable

from tokenlint.analysis.facts import FlowKind, ToolFacts
from tokenlint.model import Finding, Invalid, Risk, Valid
from tokenlint.rules.base import Rule, RuleContext


class SilentTruncation(Rule):
    """## What it does
    Reports a cap, slice or size check that cuts a response without telling the model how to get
    the rest: no `next_cursor`, no `offset`/`page` parameter it can pass, no resource URI.

    ## Why is this bad?
    The model cannot tell a cut list from a complete one: it answers "there are 50 orders"
    when there are 5,000. Data is lost silently.

    A text sliced to at most 1,000 characters (`resp.text[:200]`, an error body's preview) is
    tiny whatever it came from and is not reported; a cap the request asks for
    (`params={"limit": 10}`) counts entries, whatever their text, and is.

    ## Example
    ```python
    @mcp.tool()
    def list_orders() -> list[dict]:
        return db.execute("SELECT * FROM orders LIMIT 50").fetchall()
    ```

    Use instead:
    ```python
    @mcp.tool()
    def list_orders(offset: int = 0) -> dict:
        rows = db.execute("SELECT * FROM orders LIMIT 50 OFFSET ?", (offset,)).fetchall()
        return {"orders": rows, "next_offset": offset + 50}
    ```

    ## Fix
    Add a continuation (a `cursor` parameter and `next_action`) through
    `tokenlint.runtime.fit_response`.

    ## References
    - [MCP specification: pagination](https://modelcontextprotocol.io/specification/2025-06-18/server/utilities/pagination)
    """

    code = "TL301"
    fixable = True
    name = "silent-truncation"
    summary = "A fixed cap, slice or size check with no cursor, offset or resource URI in the response"
    VALID = [
        Valid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def orders(offset: int = 0) -> dict:\n"
            "    rows = db.execute('SELECT * FROM orders LIMIT 50 OFFSET ?', (offset,)).fetchall()\n"
            "    return {'orders': rows, 'next_offset': offset + 50}\n"
        ),
    ]
    INVALID = [
        Invalid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def orders() -> list:\n"
            "    return db.execute('SELECT * FROM orders LIMIT 50').fetchall()\n",
            ("TL201@5", "TL301@5"),
        ),
    ]

    def check(self, facts: ToolFacts, ctx: RuleContext) -> Iterable[Finding]:
        """For a tool whose response gives no continuation: one MEDIUM finding per place it cuts the
        response (a ``CAPPED``, ``ESTIMATED`` or ``HUGE`` flow), at the bound's site (else the
        source's), once per site; not for a remote API's own page (``Bound.upstream``), which the
        tool does not cut."""
        if facts.continuation:
            return
        seen: set = set()
        for flow in facts.flows:
            if flow.kind not in (FlowKind.CAPPED, FlowKind.ESTIMATED, FlowKind.HUGE):
                continue
            if flow.src.bound is not None and flow.src.bound.upstream:
                # the remote API's own page (the caller's cursor goes to it, its next cursor comes
                # back): nothing is cut here
                continue
            site = flow.bound_site or flow.src.site
            if site in seen:
                continue
            seen.add(site)
            yield ctx.finding(
                self,
                site,
                f"tool `{facts.tool.name}` cuts its response here but never tells the model how to get "
                "the rest; add a cursor/offset continuation or a resource URI",
                facts.tool.name,
                Risk.MEDIUM,
            )
