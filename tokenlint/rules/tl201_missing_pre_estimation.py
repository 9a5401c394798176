"""TL201 missing-pre-estimation."""

from __future__ import annotations

from typing import Iterable

from tokenlint.analysis.facts import FlowKind, ToolFacts
from tokenlint.model import Finding, Invalid, Risk, Valid
from tokenlint.rules.base import Rule, RuleContext

#: Flow kinds that leave a response's size to the data unless it is estimated.
AT_RISK = (FlowKind.UNBOUNDED, FlowKind.DEFAULT_ALL, FlowKind.CALLER, FlowKind.HUGE)


class MissingPreEstimation(Rule):
    """## What it does
    Reports a tool that returns data-dependent content (a collection or text) without
    estimating its tokens against a budget first, where nothing else keeps it small: no enforced
    page size with a continuation.

    ## Why is this bad?
    A count cap does not bound tokens (one record can hold a whole document), and bytes are not
    tokens: JSON indented the way FastMCP renders it runs at about 2.6 characters per token.
    Only an estimate against the client's budget (Claude Code: 10,000-token warning, 25,000
    refusal) keeps the response inside it.

    ## Example
    ```python
    @mcp.tool()
    def recent_events() -> list[dict]:
        return db.execute("SELECT * FROM events").fetchall()
    ```

    Use instead:
    ```python
    @mcp.tool()
    def recent_events(cursor: str | None = None) -> list[dict] | dict:
        rows = db.execute("SELECT * FROM events").fetchall()
        return fit_response(rows, tool="recent_events", arguments={}, cursor=cursor, max_tokens=10_000)
    ```

    ## Fix
    Call `tokenlint.runtime.fit_response` at the return, with the budget visible at the call site.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL201"
    fixable = True
    name = "missing-pre-estimation"
    summary = "A collection or text returned without a token estimate against a budget"
    VALID = [
        Valid(
            "from mcp.server.fastmcp import FastMCP\n"
            "from tokenlint.runtime import fit_response\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def events(cursor: str | None = None):\n"
            "    rows = db.execute('SELECT * FROM events').fetchall()\n"
            "    return fit_response(rows, tool='events', arguments={}, cursor=cursor)\n"
        ),
    ]
    INVALID = [
        Invalid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def events():\n"
            "    rows = db.execute('SELECT * FROM events').fetchall()\n"
            "    return rows[:200]\n",
            ("TL201@6", "TL301@6"),
        ),
    ]

    def check(self, facts: ToolFacts, ctx: RuleContext) -> Iterable[Finding]:
        """One MEDIUM finding, at the first return of the worst flow, for a tool that returns data
        without estimating its tokens (``ToolFacts.estimates`` False) when some flow is at risk
        (``AT_RISK``: unbounded, bounded by the caller, capped far above any budget) or capped with
        no continuation. The message names ``max-response-tokens`` (tokens) and, with a client
        profile, that client's documented limits (``tokenlint.runtime.limits.PROFILES``)."""
        if facts.estimates or not facts.data_returns:
            return
        at_risk = [
            f for f in facts.flows
            if f.kind in AT_RISK or (f.kind is FlowKind.CAPPED and not facts.continuation)
        ]
        if not at_risk:
            return
        site = at_risk[0].return_site
        yield ctx.finding(
            self,
            site,
            f"tool `{facts.tool.name}` returns data-dependent content without estimating its tokens "
            f"against a budget (max-response-tokens = {ctx.settings.max_response_tokens:,}"
            f"{_client_limits(ctx.settings.client)})",
            facts.tool.name,
            Risk.MEDIUM,
        )


def _client_limits(client: str | None) -> str:
    """``"; client codex: 10,000 bytes or 256 lines"`` for a client profile, else ``""``."""
    if not client:
        return ""
    from tokenlint.runtime.limits import PROFILES

    return f"; client {client}: {PROFILES[client].describe()}"
