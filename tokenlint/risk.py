"""A tool's risk level from its findings (design.md, "Risk levels").

Each finding carries the risk it implies on its own (HIGH for an unbounded source or a limit
defaulting to everything, MEDIUM for a cap without continuation or an unclamped limit); the tool
takes the worst. With no finding left, a tool whose response carries data is LOW (bounded and
continued), and one whose response carries none is NONE.
"""

from __future__ import annotations

from typing import Iterable

from tokenlint.model import Finding, Risk


def tool_risk(findings: Iterable[Finding], carries_data: bool) -> Risk:
    """A tool's risk: the worst risk among its ``findings`` when that is above LOW; otherwise LOW
    when its response ``carries_data`` (some source reaches it: ``ToolFacts.flows`` is not empty)
    and NONE when it does not. A LOW or NONE finding (TL401's) leaves the verdict to
    ``carries_data``."""
    worst = max((f.risk for f in findings), default=None)
    if worst is not None and worst > Risk.LOW:
        return worst
    return Risk.LOW if carries_data else Risk.NONE
