"""TL401 costly-tool-definition."""

from __future__ import annotations

from typing import Iterable

from tokenlint.analysis.facts import ToolFacts
from tokenlint.model import Finding, Invalid, Risk, Valid
from tokenlint.rules.base import Rule, RuleContext
from tokenlint.tokens import count_tokens, utf8_length


class CostlyToolDefinition(Rule):
    """## What it does
    Reports a tool whose definition (description plus input schema, as `tools/list` sends it)
    costs more tokens than `max-definition-tokens` (default 500).

    ## Why is this bad?
    Definitions are sent with every request, whether or not the tool is used: Claude Code warns
    about "Large MCP tools context" above 25,000 tokens for all servers together.

    ## Example
    A 3,000-character docstring with usage essays and examples for every parameter.

    ## Fix
    Shorten the description to what the model needs to choose and call the tool; move long
    guidance into a resource or prompt.

    ## References
    - [Claude Code issue 16234: large MCP tools context](https://github.com/anthropics/claude-code/issues/16234)
    """

    code = "TL401"
    name = "costly-tool-definition"
    summary = "A tool's description plus input schema costs more than `max-definition-tokens`"
    VALID = [
        Valid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('x')\n"
            "@mcp.tool()\n"
            "def ping() -> str:\n"
            "    '''Reply pong.'''\n"
            "    return 'pong'\n"
        ),
    ]
    INVALID = [
        Invalid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('x')\n"
            "@mcp.tool()\n"
            "def ping() -> str:\n"
            "    '''" + "Reply pong to the caller, always, in lower case. " * 60 + "'''\n"
            "    return 'pong'\n",
            ("TL401@4",),
        ),
    ]

    def check(self, facts: ToolFacts, ctx: RuleContext) -> Iterable[Finding]:
        """One finding (risk NONE), at the tool's function, when its definition text
        (``ToolFacts.definition_text``: description plus parameters, as ``tools/list`` sends them)
        costs more than ``max-definition-tokens`` tokens (``tokens.count_tokens``: cl100k_base). The
        tokenizer is not loaded when the text's UTF-8 length in bytes is within the budget: a token
        is at least one byte."""
        budget = ctx.settings.max_definition_tokens
        if utf8_length(facts.definition_text) <= budget:
            return  # a token spans at least one byte: no need to load the tokenizer (~0.1 s)
        tokens = count_tokens(facts.definition_text)
        if tokens > budget:
            node = facts.tool.func
            site = _site(facts, node)
            yield ctx.finding(
                self,
                site,
                f"tool `{facts.tool.name}`'s definition costs ~{tokens:,} tokens "
                f"(max-definition-tokens = {budget:,}); every request pays for it",
                facts.tool.name,
                Risk.NONE,
            )


def _site(facts: ToolFacts, node):
    from tokenlint.analysis.taints import Site

    return Site(facts.tool.module, node)
