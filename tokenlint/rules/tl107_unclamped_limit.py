"""TL107 unclamped-limit."""

from __future__ import annotations

from typing import Iterable

from tokenlint.analysis.facts import FlowKind, ToolFacts
from tokenlint.model import Finding, Invalid, Risk, Valid
from tokenlint.rules.base import Rule, RuleContext


class UnclampedLimit(Rule):
    """## What it does
    Finds a caller-supplied limit (`limit`, `max_results`, `max_length`, `arguments["limit"]`)
    that bounds a response but has no enforced maximum: no `min(limit, N)`, no
    `Field(le=N)`, no `if limit > N: raise`.

    ## Why is this bad?
    The model chooses the value. Asked for "all the logs", it passes `limit=100000`. A limit
    whose default is `None` (meaning "everything") is worse: the default call is the one a model
    makes, so that tool is HIGH risk.

    ## Example
    ```python
    @mcp.tool()
    def search(q: str, limit: int = 20) -> list[dict]:
        return db.search(q)[:limit]
    ```

    Use instead:
    ```python
    @mcp.tool()
    def search(q: str, limit: Annotated[int, Field(ge=1, le=100)] = 20) -> list[dict]:
        return db.search(q)[:limit]
    ```

    ## Fix
    Clamp the value where it is used (`min(limit, 100)`) or in the signature (`Field(le=100)`).

    ## References
    - [PagerDuty MCP server #62: `limit` ignored, 1,000 records returned](https://github.com/PagerDuty/pagerduty-mcp-server/issues/62)
    """

    code = "TL107"
    fixable = True
    name = "unclamped-limit"
    summary = "A caller-supplied `limit` / `max_results` used with no enforced maximum"
    VALID = [
        Valid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def search(q: str, limit: int = 20, offset: int = 0) -> dict:\n"
            "    rows = db.execute('SELECT * FROM t').fetchall()\n"
            "    return {'rows': rows[offset:offset + min(limit, 100)], 'next_offset': offset + limit}\n"
        ),
    ]
    INVALID = [
        Invalid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('db')\n"
            "@mcp.tool()\n"
            "def search(q: str, limit: int = 20) -> list:\n"
            "    rows = db.execute('SELECT * FROM t').fetchall()\n"
            "    return rows[:limit]\n",
            ("TL107@4", "TL201@6"),
        ),
    ]

    def check(self, facts: ToolFacts, ctx: RuleContext) -> Iterable[Finding]:
        """One finding per model-chosen limit parameter that bounds a source with no enforced
        maximum: MEDIUM for a limit with a default (``FlowKind.CALLER``), HIGH for one whose default
        returns everything (``FlowKind.DEFAULT_ALL``); at the parameter's declaration (else where it
        bounds), once per parameter."""
        seen: set = set()
        for flow in facts.flows:
            if flow.kind not in (FlowKind.CALLER, FlowKind.DEFAULT_ALL) or flow.param in seen:
                continue
            seen.add(flow.param)
            site = flow.param_site or flow.bound_site
            if site is None:
                continue
            if flow.kind is FlowKind.DEFAULT_ALL:
                msg = (f"`{flow.param}` bounds the response of tool `{facts.tool.name}` but defaults to "
                       "everything and has no maximum; give it a small default and enforce a maximum")
                risk = Risk.HIGH
            else:
                msg = (f"`{flow.param}` is chosen by the model and bounds the response of tool "
                       f"`{facts.tool.name}` with no enforced maximum; clamp it (`min({flow.param}, N)` or `Field(le=N)`)")
                risk = Risk.MEDIUM
            yield ctx.finding(self, site, msg, facts.tool.name, risk)
