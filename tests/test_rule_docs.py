"""`tokenlint rule` (text and JSON) and the README's rule table, all from each rule's own text."""

from __future__ import annotations

import json


from helpers import REPO
from tokenlint.rules import REGISTRY, all_rules
from tokenlint.rules.docs import TABLE_BEGIN, TABLE_END, replace_table, rules_table


def test_readme_rule_table_is_generated_from_the_rules():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert replace_table(readme, rules_table(all_rules())) == readme, (
        "README's rule table is stale: run `python -m tokenlint.rules.docs README.md`"
    )
    table = readme[readme.index(TABLE_BEGIN):readme.index(TABLE_END)]
    for rule in all_rules():
        assert f"| {rule.code} | {rule.name} | {rule.summary} |" in table


def test_replace_table_rewrites_only_between_the_markers():
    text = f"intro\n{TABLE_BEGIN}\nold table\n{TABLE_END}\noutro\n"
    assert replace_table(text, "| new |\n") == f"intro\n{TABLE_BEGIN}\n| new |\n{TABLE_END}\noutro\n"


def test_rule_text_has_ruff_layout(cli):
    result = cli("rule", "TL101")
    assert result.exit_code == 0
    rule = REGISTRY["TL101"]
    fix = "Fix is available with `tokenlint fix`." if rule.fixable else "No automatic fix."
    assert result.stdout == f"# unbounded-query-result (TL101)\n\n{rule.summary}\n\n{fix}\n\n{rule.docs()}\n"
    assert "\n\nNo automatic fix.\n\n" in cli("rule", "TL001").stdout
    by_name = cli("rule", "unbounded-query-result")
    assert by_name.stdout == result.stdout


def test_rule_all_prints_every_rule_once(cli):
    out = cli("rule", "--all").stdout
    headings = [line for line in out.splitlines() if line.startswith("# ")]
    assert headings == [f"# {r.name} ({r.code})" for r in all_rules()]


def test_rule_json(cli):
    one = json.loads(cli("rule", "TL102", "--format", "json").stdout)
    assert one["code"] == "TL102" and one["name"] == "whole-file-read" and one["cwe"] == "CWE-400"
    assert one["explanation"] == REGISTRY["TL102"].docs()
    assert set(one) == {"code", "name", "summary", "fixable", "cwe", "explanation"}
    every = json.loads(cli("rule", "--all", "-f", "json").stdout)
    assert [r["code"] for r in every] == sorted(REGISTRY)
    assert every[0]["cwe"] is None  # TL001 is about parsing, not resources


def test_unknown_or_missing_rule_exits_2(cli):
    for args in (["rule", "TL999"], ["rule"]):
        result = cli(*args)
        assert result.exit_code == 2
        assert "tokenlint rule --all" in result.stderr


def test_tl108_docs_explain_unknown_size_and_lexicon_matches_the_analysis(cli):
    """`tokenlint rule TL108` says what is of unknown size and what is evidence of small, and
    every example of its call-name lexicon is judged by ``shapes.call_shape`` as the table says."""
    from tokenlint.analysis.shapes import Shape, call_shape

    text = cli("rule", "TL108").stdout
    for heading in ("### What is of unknown size", "### Evidence of small", "### The call-name lexicon"):
        assert heading in text
    lexicon = text[text.index("### The call-name lexicon"):text.index("## Why is this bad?")]
    expected = {"collection or text": {Shape.COLLECTION}, "an acknowledgement": {Shape.RECORD},
                "one record, a handle": {Shape.RECORD}, "a scalar": {Shape.SCALAR},
                "unknown: a collection": {Shape.UNKNOWN}}
    rows = [line.split("|")[1:4] for line in lexicon.splitlines() if line.startswith("| ") and "`" in line]
    assert {result.strip() for _, result, _ in rows} == set(expected)
    for _, result, examples in rows:
        names = [e.strip().strip("`") for e in examples.split(",")]
        assert len(names) >= 2
        for name in names:
            assert call_shape(name) in expected[result.strip()], (name, result)
