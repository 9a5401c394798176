"""What a run produces: each group's result, merged into one deterministic ``RunResult``.

``GroupResult`` is what analysing one group yields (built once, picklable, cacheable);
``merge`` sorts every group's result and the files' own TL001 findings into one ``RunResult``,
whatever order, process or cache the groups came from. ``named_only`` keeps what belongs to the
files named on the command line when others were read for context only.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tokenlint.model import CheckResult, Finding, Risk, ToolReport

if TYPE_CHECKING:
    from tokenlint.analysis.facts import ToolFacts
    from tokenlint.config import Settings

#: TL001's code and name (``tokenlint.rules.tl001_parse_error`` documents the rule).
PARSE_ERROR = ("TL001", "parse-error")


def file_finding(path: str, line: int, col: int, reason: str) -> Finding:
    """The TL001 finding for a file (or a tool) tokenlint cannot analyse: ``path`` as displayed,
    ``line`` and ``col`` 1-based, ``reason`` one line."""
    return Finding(PARSE_ERROR[0], PARSE_ERROR[1], path, line, col, f"cannot analyse {path}: {reason}", None, Risk.HIGH)


@dataclass(frozen=True)
class RunResult:
    """A ``CheckResult`` plus what the CLI needs besides: internal errors (one line each) and
    per-tool facts (live LibCST nodes; filled only by the in-process executor)."""

    result: CheckResult
    internal_errors: tuple[str, ...] = ()
    facts: tuple[ToolFacts, ...] = ()
    #: ``extra-sources`` / ``extra-bounds`` paths that matched a call somewhere in the run.
    matched_knowledge: frozenset[str] = frozenset()


@dataclass(frozen=True)
class GroupResult:
    """What one group of candidates produced. Picklable; ``facts`` only in process.

    ``looked_up`` maps every module name the analysis looked up outside the group to the file
    it found, as ``(display, digest)``, or None when no module of the run has that name: the
    group's result depends on those files too (the cache checks them before reusing it).
    ``parsed`` counts the group's files that were parsed.
    """

    findings: tuple[Finding, ...] = ()
    tools: tuple[ToolReport, ...] = ()
    internal: tuple[str, ...] = ()
    parsed: int = 0
    looked_up: dict[str, tuple[str, str] | None] = field(default_factory=dict)
    facts: tuple[ToolFacts, ...] = ()
    #: ``extra-sources`` / ``extra-bounds`` paths that matched a call in this group, sorted.
    matched_knowledge: tuple[str, ...] = ()


def merge(files_checked: int, file_findings: list[Finding], results: list[GroupResult],
          settings: Settings) -> RunResult:
    """One ``RunResult`` from the files' own findings (unreadable, too large) and every group's
    result: findings filtered by selection and per-file ignores, de-duplicated, sorted; tools
    sorted. ``files_checked`` counts the files of the run (without context files)."""
    findings = list(file_findings)
    tools: list[ToolReport] = []
    internal: list[str] = []
    facts: list[ToolFacts] = []
    matched: set[str] = set()
    parsed = 0
    for r in results:
        matched.update(r.matched_knowledge)
        findings.extend(r.findings)
        tools.extend(r.tools)
        internal.extend(r.internal)
        facts.extend(r.facts)
        parsed += r.parsed
    findings = [f for f in findings if settings.selects(f.code) and not file_ignored(f, settings)]
    unique = {(f.code, f.path, f.line, f.column, f.tool): f for f in sorted(findings, key=_full_key)}
    result = CheckResult(
        tools=tuple(sorted(tools, key=lambda t: (t.path, t.line, t.name, t.function, t.risk))),
        findings=tuple(sorted(unique.values(), key=Finding.sort_key)),
        files_checked=files_checked,
        files_parsed=parsed,
    )
    return RunResult(result, tuple(internal), tuple(facts), frozenset(matched))


def named_only(run: RunResult, named: set[str]) -> RunResult:
    """``run`` with the tools defined in the ``named`` files (display paths) and their findings
    (also those located in a helper module they call), and the named files' own findings; facts
    of the named files' tools only. For runs that read other files for context only."""
    result = run.result
    tools = tuple(t for t in result.tools if t.path in named)
    ids = {t.id for t in tools}
    findings = tuple(f for f in result.findings if f.path in named or (f.tool_id is not None and f.tool_id in ids))
    facts = tuple(f for f in run.facts if f.tool.module.display_path in named)
    return replace(run, result=replace(result, tools=tools, findings=findings), facts=facts)


def _full_key(f: Finding) -> tuple:
    return (f.sort_key(), f.risk, f.fixable, f.end_line or 0, f.end_column or 0, f.name, f.tool_id or ())


def file_ignored(f: Finding, settings: Settings) -> bool:
    """Whether ``per-file-ignores`` drops finding ``f`` (glob on its path or file name). A TL001
    is never dropped: a file that cannot be analysed always fails (``exclude`` it instead)."""
    if f.code == PARSE_ERROR[0]:
        return False
    for pattern, codes in settings.per_file_ignores:
        if fnmatch.fnmatch(f.path, pattern) or fnmatch.fnmatch(Path(f.path).name, pattern):
            if any(f.code.startswith(c) for c in codes):
                return True
    return False
