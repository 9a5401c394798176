"""The renderer registry: a subclass of ``Renderer`` with a ``FORMAT`` registers itself."""

from __future__ import annotations

from typing import ClassVar

from tokenlint.model import CheckResult, Finding, Risk

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
    """The risk of the tool each finding belongs to (``Finding.tool_id``), which sets a
    finding's level in SARIF and GitHub annotations (HIGH→error, MEDIUM→warning,
    LOW→note/notice). A finding outside any tool (TL001, TL002) keeps its own risk."""
    by_id = {t.id: t.risk for t in result.tools}
    return {f: by_id.get(f.tool_id, f.risk) if f.tool_id is not None else f.risk for f in result.findings}
