"""Shared logic of the source rules TL101–TL106: one finding per unbounded source that reaches
a tool's response (HIGH: the response grows with data and nothing caps it)."""

from __future__ import annotations

from typing import Iterable

from tokenlint.analysis.facts import FlowKind, ToolFacts
from tokenlint.model import Finding, Risk
from tokenlint.rules.base import Rule, RuleContext


class SourceRule(Rule):
    """Base of TL101–TL106; subclasses set ``code``, ``name``, ``noun`` ("every row")."""

    noun = "data"
    fixable = True

    def check(self, facts: ToolFacts, ctx: RuleContext) -> Iterable[Finding]:
        """One HIGH finding, at the source, for each source of this rule's ``code`` that reaches the
        tool's response with no bound (``FlowKind.UNBOUNDED``) or bounded only by a limit that
        returns everything by default (``FlowKind.DEFAULT_ALL``); one per source site."""
        seen = set()
        for flow in facts.flows:
            if flow.src.code != self.code or flow.src.site in seen:
                continue
            if flow.kind is FlowKind.UNBOUNDED:
                msg = f"`{flow.src.what}` puts {self.noun} into the response of tool `{facts.tool.name}` with no bound"
            elif flow.kind is FlowKind.DEFAULT_ALL:
                msg = (
                    f"`{flow.src.what}` puts {self.noun} into the response of tool `{facts.tool.name}`: "
                    f"its only bound, `{flow.param}`, returns everything by default"
                )
            else:
                continue
            seen.add(flow.src.site)
            yield ctx.finding(self, flow.src.site, msg, facts.tool.name, Risk.HIGH)
