"""``--format json``: the versioned contract of design.md, deterministically sorted."""

from __future__ import annotations

import json

from tokenlint import __version__
from tokenlint.model import CheckResult


def to_dict(result: CheckResult) -> dict:
    """The JSON document as a dict: ``version``, ``tools`` (sorted by path, line, name) and
    ``findings`` (sorted by path, line, column, code)."""
    return {
        "version": __version__,
        "tools": [
            {
                "name": t.name,
                "function": t.function,
                "path": t.path,
                "line": t.line,
                "framework": t.framework,
                "risk": t.risk.name,
                "findings": list(t.findings),
            }
            for t in result.tools
        ],
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
    }


def render_json(result: CheckResult) -> str:
    return json.dumps(to_dict(result), indent=2, ensure_ascii=False) + "\n"
