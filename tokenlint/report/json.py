"""``--format json``: the versioned contract of design.md, deterministically sorted."""

from __future__ import annotations

import json

from tokenlint._version import __version__
from tokenlint.model import CheckResult
from tokenlint.report.base import Renderer


class JsonRenderer(Renderer):
    """``--format json``: the versioned JSON contract (``to_dict``)."""
    FORMAT = "json"
    HELP = "the versioned JSON contract (tools and findings)"

    def render(self, result: CheckResult) -> str:
        """``render_json(result)``."""
        return render_json(result)


def to_dict(result: CheckResult) -> dict:
    """The JSON document as a dict: ``version``, ``tools`` (sorted by path, line, name),
    ``findings`` (sorted by path, line, column, code) and ``unresolved_registrations`` (how many
    TL002 findings: registrations whose tools could not be resolved, so were not checked)."""
    return {
        "version": __version__,
        "tools": tools_list(result),
        "findings": [
            {
                "code": f.code,
                "name": f.name,
                "path": f.path,
                "line": f.line,
                "column": f.column,
                "tool": f.tool,
                "message": f.message,
                "fixable": f.fixable,
            }
            for f in result.findings
        ],
        "unresolved_registrations": sum(1 for f in result.findings if f.code == "TL002"),
    }


def tools_list(result: CheckResult) -> list[dict]:
    """The ``tools`` array of the contract (also SARIF's run ``properties.tools``)."""
    return [
        {
            "name": t.name,
            "function": t.function,
            "path": t.path,
            "line": t.line,
            "framework": t.framework,
            "risk": t.risk.name,
            "findings": list(t.findings),
            "traced": not t.untraced,
            "untraced_calls": list(t.untraced),
        }
        for t in result.tools
    ]


def render_json(result: CheckResult) -> str:
    """``to_dict(result)`` as JSON text: indented by 2, non-ASCII characters kept as they are,
    ending with a newline."""
    return json.dumps(to_dict(result), indent=2, ensure_ascii=False) + "\n"
