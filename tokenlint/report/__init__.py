"""Report formats, one module each; ``render(fmt, result)`` returns the text for stdout."""

from __future__ import annotations

from tokenlint.model import CheckResult

FORMATS = ("text", "json")


def render(fmt: str, result: CheckResult) -> str:
    if fmt == "json":
        from tokenlint.report.json import render_json

        return render_json(result)
    from tokenlint.report.text import render_text

    return render_text(result)
