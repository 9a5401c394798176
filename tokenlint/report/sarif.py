"""``--format sarif``: a SARIF 2.1.0 log for code-scanning services (GitHub, Azure DevOps).

One run whose ``tool.driver.rules`` holds every rule with its full documentation (the same
text as ``tokenlint rule CODE``) and its CWE tag (CWE-400, Uncontrolled Resource Consumption);
one result per finding, at the level of its tool's risk (HIGH → ``error``, MEDIUM → ``warning``,
LOW → ``note``, as bandit maps severities), the tool and its risk in the result's
``properties``. URIs are relative to the directory tokenlint ran in (``uriBaseId``
``%SRCROOT%``), so a log stays valid in any checkout; a file outside it gets an absolute
``file://`` URI. Columns count Unicode code points (``columnKind``), 1-based, the end column
exclusive. The output depends only on the findings: no timestamps, no absolute paths of the
run directory, keys and lists in a fixed order.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from tokenlint._version import __version__
from tokenlint.model import CheckResult, Finding, Risk
from tokenlint.report.base import Renderer, finding_risks
from tokenlint.report.json import tools_list

#: The schema URI ruff and bandit write; the schema itself is OASIS SARIF 2.1.0.
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

LEVELS = {Risk.HIGH: "error", Risk.MEDIUM: "warning", Risk.LOW: "note", Risk.NONE: "note"}


class SarifRenderer(Renderer):
    """``--format sarif``: a SARIF 2.1.0 log (``to_sarif``; see the module docstring)."""
    FORMAT = "sarif"
    HELP = "SARIF 2.1.0 for code scanning (GitHub, Azure DevOps)"

    def render(self, result: CheckResult) -> str:
        """``to_sarif(result)`` as JSON text: indented by 2, non-ASCII characters kept as they are,
        ending with a newline."""
        return json.dumps(to_sarif(result), indent=2, ensure_ascii=False) + "\n"


def rule_descriptor(rule) -> dict:
    """A SARIF ``reportingDescriptor`` for a rule class: id, name, summary, full docs, tags."""
    from tokenlint.rules.docs import rule_markdown

    docs = rule_markdown(rule)
    tags = ["mcp", "token-budget"]
    if rule.cwe:
        tags += [f"CWE-{rule.cwe}", f"external/cwe/cwe-{rule.cwe}"]
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.docs(), "markdown": rule.docs()},
        "help": {"text": docs, "markdown": docs},
        "properties": {"tags": tags, "fixable": rule.fixable},
    }


def to_sarif(result: CheckResult, cwd: Path | None = None) -> dict:
    """The SARIF log as a dict. ``cwd`` (default: the current directory) is what relative
    URIs are relative to."""
    from tokenlint.rules import all_rules

    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    risks = finding_risks(result)
    base = (cwd or Path.cwd()).resolve()
    results = []
    for f in result.findings:
        risk = risks[f]
        item: dict = {"ruleId": f.code}
        if f.code in index:
            item["ruleIndex"] = index[f.code]
        item["level"] = LEVELS[risk]
        item["message"] = {"text": f.message}
        item["locations"] = [{"physicalLocation": {"artifactLocation": _artifact(f.path, base),
                                                   "region": _region(f)}}]
        props = {"tool": f.tool} if f.tool else {}
        item["properties"] = {**props, "toolRisk": risk.name, "fixable": f.fixable}
        results.append(item)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "tokenlint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [rule_descriptor(r) for r in rules],
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {
                "tools": tools_list(result),
                "filesChecked": result.files_checked,
                "filesParsed": result.files_parsed,
            },
        }],
    }


def _artifact(path: str, base: Path) -> dict:
    p = Path(path)
    if p.is_absolute():
        real = Path(os.path.realpath(p))  # not resolve(): it raises on a symlink loop
        try:
            rel = real.relative_to(base)
        except ValueError:
            return {"uri": real.as_uri()}
        path = rel.as_posix()
    return {"uri": quote(path.replace(os.sep, "/")), "uriBaseId": SRCROOT}


def _region(f: Finding) -> dict:
    region = {"startLine": f.line, "startColumn": f.column}
    if f.end_line is not None and f.end_column is not None:
        region["endLine"] = f.end_line
        region["endColumn"] = f.end_column
    return region
