"""The default human format: one line per finding, then a per-tool risk table.

``path:line:col: CODE [*] message`` (1-based columns; ``[*]`` when ``tokenlint fix`` can fix
it), like ruff's concise output. In the table a NONE or LOW verdict that rests on calls judged small
by name alone is marked `?` (``unverified``), with a one-line legend. The summary line goes to
stderr (see ``summary``).
"""

from __future__ import annotations

import re

from tokenlint.model import CheckResult, Risk
from tokenlint.report.base import Renderer


class TextRenderer(Renderer):
    """``--format text`` (the default): ``render_text``; a format people read (``HUMAN``)."""
    FORMAT = "text"
    HELP = "diagnostics then the per-tool risk table (default)"
    HUMAN = True

    def render(self, result: CheckResult) -> str:
        """``render_text(result)``."""
        return render_text(result)


def render_text(result: CheckResult) -> str:
    """The text report: one ``path:line:col: CODE [*] message`` line per finding (line and column
    1-based, in ``result.findings`` order), a blank line, then the table of tools (risk, with ``?``
    when ``unverified``; name; ``path:line``; framework; finding codes) sorted worst risk first,
    then by path, line and name, and the ``?`` legend when one is marked. Ends with a newline; empty
    when there are neither findings nor tools."""
    lines = []
    for f in result.findings:
        mark = " [*]" if f.fixable else ""
        lines.append(f"{f.path}:{f.line}:{f.column}: {f.code}{mark} {f.message}")
    if result.tools:
        if lines:
            lines.append("")
        tools = sorted(result.tools, key=lambda t: (-t.risk, t.path, t.line, t.name))
        rows = [("RISK", "TOOL", "LOCATION", "FRAMEWORK", "FINDINGS")]
        rows += [
            (t.risk.name + ("?" if unverified(t) else ""), t.name, f"{t.path}:{t.line}", t.framework,
             " ".join(t.findings) or "-")
            for t in tools
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            lines.append("  ".join(c.ljust(widths[i]) for i, c in enumerate(r[:4])) + "  " + r[4])
        if any(unverified(t) for t in tools):
            lines.append("")
            lines.append("?  the verdict rests on calls into code tokenlint cannot read, judged small by their name "
                         "alone; `--output-format json` lists them (untraced_calls)")
    return "\n".join(lines) + ("\n" if lines else "")


#: Untraced calls that cannot carry data into a response: logging, exceptions, content blocks.
_HARMLESS = re.compile(r"^(log|logger|logging|_?log\w*)\.|(Error|Exception|Warning)\(\)$|"
                       r"(^|\.)(TextContent|ImageContent|AudioContent|EmbeddedResource|ResourceLink|"
                       r"TextResourceContents|BlobResourceContents|CallToolResult|ToolAnnotations)\(\)$")


def unverified(tool) -> bool:
    """Whether a NONE or LOW verdict rests on calls tokenlint could not read and judged small by
    their name alone (``ToolReport.untraced``, logging and exceptions left out)."""
    return tool.risk <= Risk.LOW and any(not _HARMLESS.search(c) for c in tool.untraced)


def summary(result: CheckResult) -> str:
    """One line for stderr: counts of findings, fixable ones, tools by risk, registrations
    that could not be resolved (TL002, only when there are some), and files."""
    n = len(result.findings)
    fixable = sum(1 for f in result.findings if f.fixable)
    by_risk = {r: sum(1 for t in result.tools if t.risk is r) for r in Risk}
    risk_text = ", ".join(f"{by_risk[r]} {r.name}" for r in sorted(Risk, reverse=True))
    head = f"Found {n} finding{'s' if n != 1 else ''}" if n else "No findings"
    fix = f" ({fixable} fixable with `tokenlint fix`)" if fixable else ""
    unresolved = sum(1 for f in result.findings if f.code == "TL002")
    unresolved_text = (f"{unresolved} unresolved registration{'s' if unresolved != 1 else ''} "
                       "(tools not checked); ") if unresolved else ""
    return (f"{head}{fix}; {len(result.tools)} tools ({risk_text}); {unresolved_text}"
            f"{result.files_checked} files checked, {result.files_parsed} parsed.")
