"""``--format github``: GitHub Actions workflow commands, one annotation per finding.

``::error title=tokenlint (TL101),file=server.py,line=10,col=12,endLine=10,endColumn=23::msg``
(as ruff writes them). The command is the level of the finding's tool risk: HIGH → ``error``,
MEDIUM → ``warning``, LOW or NONE → ``notice``. Property values and the message are escaped
as the Actions toolkit does (``%``, CR, LF; also ``:`` and ``,`` in properties).
"""

from __future__ import annotations

from tokenlint.model import CheckResult, Risk
from tokenlint.report.base import Renderer, finding_risks

LEVELS = {Risk.HIGH: "error", Risk.MEDIUM: "warning", Risk.LOW: "notice", Risk.NONE: "notice"}


class GithubRenderer(Renderer):
    """``--format github``: one GitHub Actions workflow command per finding (see the module
    docstring)."""
    FORMAT = "github"
    HELP = "GitHub Actions annotations (::error/::warning/::notice)"

    def render(self, result: CheckResult) -> str:
        """One ``::level title=tokenlint (CODE),file=...,line=...,col=...::message`` line per
        finding, in ``result.findings`` order (line and column 1-based; ``endLine``/``endColumn``
        when known), the level from its tool's risk (``LEVELS``); empty with no findings."""
        risks = finding_risks(result)
        lines = []
        for f in result.findings:
            props = [("title", f"tokenlint ({f.code})"), ("file", f.path), ("line", f.line), ("col", f.column)]
            if f.end_line is not None and f.end_column is not None:
                props += [("endLine", f.end_line), ("endColumn", f.end_column)]
            head = ",".join(f"{k}={_escape_property(str(v))}" for k, v in props)
            lines.append(f"::{LEVELS[risks[f]]} {head}::{_escape_data(f.message)}")
        return "".join(line + "\n" for line in lines)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
