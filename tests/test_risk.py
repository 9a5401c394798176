"""A tool's risk level from its findings (``tokenlint.risk.tool_risk``), on its own."""

from __future__ import annotations

import pytest

from tokenlint.model import Finding, Risk
from tokenlint.risk import tool_risk


def finding(risk: Risk) -> Finding:
    return Finding("TL101", "unbounded-query-result", "s.py", 1, 1, "m", "t", risk)


@pytest.mark.parametrize(("risks", "carries_data", "level"), [
    ([], False, Risk.NONE),               # no data in the response: constant or tiny
    ([], True, Risk.LOW),                 # data, but bounded and continued (no finding left)
    ([Risk.MEDIUM], True, Risk.MEDIUM),
    ([Risk.HIGH, Risk.MEDIUM], True, Risk.HIGH),  # the worst finding wins
    ([Risk.MEDIUM, Risk.HIGH], False, Risk.HIGH),
    ([Risk.LOW], True, Risk.LOW),         # a LOW finding does not raise a data-carrying tool
    ([Risk.LOW], False, Risk.NONE),
])
def test_tool_risk(risks, carries_data, level):
    assert tool_risk([finding(r) for r in risks], carries_data) is level
