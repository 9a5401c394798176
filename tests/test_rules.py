"""Every rule's VALID and INVALID examples, run through the whole pipeline.

An INVALID example must produce exactly its listed findings (the multiset of ``CODE@line``),
and a VALID example must produce none of its rule's code.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter

import pytest

from tokenlint.config import Settings
from helpers import check
from tokenlint.rules import REGISTRY, all_rules

CASES = []
for rule in all_rules():
    for i, case in enumerate(rule.VALID):
        CASES.append(pytest.param(rule, case, True, id=f"{rule.code}-valid-{i}"))
    for i, case in enumerate(rule.INVALID):
        CASES.append(pytest.param(rule, case, False, id=f"{rule.code}-invalid-{i}"))


def _findings(tmp_path, code: str) -> list[str]:
    path = tmp_path / "server.py"
    path.write_text(inspect.cleandoc(code) + "\n", encoding="utf-8")
    run = check([str(path)], Settings())
    assert not run.internal_errors
    return [f"{f.code}@{f.line}" for f in run.result.findings]


@pytest.mark.parametrize(("rule", "case", "valid"), CASES)
def test_rule_examples(tmp_path, rule, case, valid):
    found = _findings(tmp_path, case.code)
    if valid:
        assert [f for f in found if f.startswith(rule.code + "@")] == []
    else:
        assert Counter(found) == Counter(case.expect)


def test_every_rule_is_documented_and_exemplified():
    codes, names = set(), set()
    for rule in all_rules():
        assert re.fullmatch(r"TL\d{3}", rule.code)
        assert re.fullmatch(r"[a-z]+(-[a-z]+)+", rule.name), rule.name
        assert rule.code not in codes and rule.name not in names
        codes.add(rule.code)
        names.add(rule.name)
        docs = rule.docs()
        for section in ("## What it does", "## Why is this bad?", "## Example", "## Fix"):
            assert section in docs, f"{rule.code} lacks {section}"
        assert rule.VALID and rule.INVALID, f"{rule.code} needs VALID and INVALID examples"
        assert rule.summary


def test_catalogue_is_complete():
    assert set(REGISTRY) == {
        "TL001", "TL002", "TL101", "TL102", "TL103", "TL104", "TL105", "TL106", "TL107", "TL108", "TL201", "TL301", "TL401",
    }
