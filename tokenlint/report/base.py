"""The renderer registry: a subclass of ``Renderer`` with a ``FORMAT`` registers itself."""

from __future__ import annotations

from typing import ClassVar

from tokenlint.model import CheckResult, Finding, Risk, ToolReport

#: format name → renderer class, in registration order.
RENDERERS: dict[str, type[Renderer]] = {}


class Renderer:
    """One output format. ``FORMAT`` is its ``--format`` name, ``HELP`` one line for
    ``--help``, ``HUMAN`` whether people read it (summary line and progress on stderr) or
    machines do (the report alone, nothing else on any stream)."""

    FORMAT: ClassVar[str] = ""
    HELP: ClassVar[str] = ""
    HUMAN: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.FORMAT:
            if cls.FORMAT in RENDERERS:
                raise ValueError(f"duplicate report format {cls.FORMAT!r}")
            RENDERERS[cls.FORMAT] = cls

    def render(self, result: CheckResult) -> str:
        """The whole report as text, ending with a newline unless empty."""
        raise NotImplementedError


def finding_risks(result: CheckResult) -> dict[Finding, Risk]:
    """The risk of the tool each finding belongs to, which sets a finding's level in SARIF and
    GitHub annotations (HIGH→error, MEDIUM→warning, LOW→note/notice).

    A finding names its tool; it may sit in a helper module other than the tool's, so the tool
    is matched by name (preferring one in the same file that lists the finding's code). A
    finding outside any tool (TL001) keeps its own risk.
    """
    by_name: dict[str, list[ToolReport]] = {}
    for t in result.tools:
        by_name.setdefault(t.name, []).append(t)
    risks: dict[Finding, Risk] = {}
    for f in result.findings:
        candidates = by_name.get(f.tool or "", [])
        if candidates:
            best = max(candidates, key=lambda t: (f.code in t.findings, t.path == f.path, t.risk))
            risks[f] = best.risk
        else:
            risks[f] = f.risk
    return risks
