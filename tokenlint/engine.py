"""The check pipeline: files → prefilter → parse → tools → analysis → rules → risk.

``check_paths`` is the API behind ``tokenlint check``. Data flows one way; every file's problem
(unreadable, not UTF-8, binary, a syntax error, too large) becomes a TL001 finding and the run
goes on. An exception inside tokenlint's own analysis of a file is not swallowed silently: it is
recorded in ``CheckResult``'s ``internal_errors`` (the CLI prints them and exits 2) while the
other files are still checked.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from tokenlint.analysis.facts import ToolFacts, analyse_tool
from tokenlint.codemods.plan import unfixable_reason
from tokenlint.analysis.interpreter import Analyzer
from tokenlint.config import Settings
from tokenlint.discovery import ToolDef
from tokenlint.discovery.fastmcp import find_fastmcp_tools
from tokenlint.discovery.lowlevel import find_lowlevel_tools
from tokenlint.discovery.servers import ServerRegistry
from tokenlint.files import SourcePath, expand_paths, may_define_tools
from tokenlint.imports import module_name_for
from tokenlint.model import CheckResult, Finding, Risk, ToolReport
from tokenlint.project import ParsedModule, Project
from tokenlint.risk import tool_risk
from tokenlint.rules import RuleContext, all_rules
from tokenlint.rules.tl001_parse_error import ParseError
from tokenlint.parsing import parse_module
from tokenlint.sourcefile import MAX_FILE_BYTES, SourceError, decode_source
from tokenlint.suppress import suppressions


@dataclass
class RunResult:
    """A ``CheckResult`` plus what the CLI needs besides: internal errors and per-tool facts."""

    result: CheckResult
    internal_errors: list[str] = field(default_factory=list)
    facts: list[ToolFacts] = field(default_factory=list)


def check_paths(paths: list[str], settings: Settings, progress: Callable[[int, int], None] | None = None) -> RunResult:
    """Check every Python file under ``paths``. Returns findings and tools sorted by path, line."""
    files = expand_paths(paths, settings)
    return check_files(files, settings, progress)


def check_files(files: list[SourcePath], settings: Settings, progress=None,
                overrides: dict[Path, str] | None = None) -> RunResult:
    """Check ``files`` in this process. ``overrides`` maps a file's path to source text used
    instead of its content on disk (``tokenlint fix`` re-checks its rewrites before writing)."""
    overrides = overrides or {}
    findings: list[Finding] = []
    internal: list[str] = []
    module_files: dict[str, tuple[Path, str]] = {}
    for sp in files:
        if sp.path.suffix == ".py":
            module_files.setdefault(module_name_for(sp.path), (sp.path, sp.display))
    project = Project(module_files, overrides)
    parsed: list[tuple[ParsedModule, str]] = []
    parse_error = ParseError()
    for i, sp in enumerate(files):
        if progress:
            progress(i, len(files))
        if sp.path in overrides:
            text = overrides[sp.path]
            mod = ParsedModule.build(sp.path, sp.display, parse_module(text, sp.display))
            project.add(mod)
            parsed.append((mod, text))
            continue
        try:
            size = sp.path.stat().st_size
            if size == 0:
                continue
            if size > MAX_FILE_BYTES:
                with sp.path.open("rb") as fh:
                    head = fh.read(1 << 16)
                if may_define_tools(head):
                    raise SourceError(f"file too large to analyse ({size:,} bytes; limit {MAX_FILE_BYTES:,} bytes)")
                continue
            data = sp.path.read_bytes()
        except SourceError as exc:
            findings.append(_file_finding(parse_error, sp.display, 1, 1, str(exc)))
            continue
        except OSError as exc:
            findings.append(_file_finding(parse_error, sp.display, 1, 1, f"cannot read file: {exc.strerror or exc}"))
            continue
        if not may_define_tools(data):
            continue
        try:
            text = decode_source(data)
            tree = parse_module(text, sp.display)
        except SourceError as exc:
            line, col = _error_position(str(exc))
            findings.append(_file_finding(parse_error, sp.display, line, col, str(exc)))
            continue
        mod = ParsedModule.build(sp.path, sp.display, tree)
        project.add(mod)
        parsed.append((mod, text))

    servers = ServerRegistry()
    for _ in range(3):
        if not any([servers.scan_classes(mod) for mod, _ in parsed]):
            break
    for mod, _ in parsed:
        servers.scan(mod)
    for mod, _ in parsed:
        servers.scan_mounts(mod)

    analyzer = Analyzer(project)
    analyzer.settings = settings  # type: ignore[attr-defined]
    ctx = RuleContext(settings)
    rules = [r() for r in all_rules() if r.code != "TL001" and settings.selects(r.code)]
    suppress_cache: dict[str, dict[int, frozenset[str]]] = {}
    tools: list[ToolReport] = []
    all_facts: list[ToolFacts] = []
    for mod, text in parsed:
        suppress_cache[mod.display_path] = suppressions(text)
        try:
            discovered = find_fastmcp_tools(mod, project, servers) + find_lowlevel_tools(mod, project, servers)
        except RecursionError:
            findings.append(_file_finding(parse_error, mod.display_path, 1, 1, "too deeply nested to analyse"))
            continue
        except Exception as exc:  # tokenlint's own bug: report it, keep going
            internal.append(f"{mod.display_path}: internal error during tool discovery: {type(exc).__name__}: {exc}")
            continue
        for tool in discovered:
            try:
                facts = analyse_tool(analyzer, tool)
                tool_findings = [f for rule in rules for f in rule.check(facts, ctx)]
            except RecursionError:
                internal.append(f"{mod.display_path}: tool `{tool.name}` too deeply nested to analyse")
                continue
            except Exception as exc:
                internal.append(
                    f"{mod.display_path}: internal error analysing tool `{tool.name}`: {type(exc).__name__}: {exc}"
                )
                continue
            tool_findings = _unsuppressed(tool, tool_findings, suppress_cache, project, settings)
            line = tool.module.line_of(tool.anchor)
            report = ToolReport(
                name=tool.name,
                function=tool.function,
                path=tool.module.display_path,
                line=line,
                framework=tool.framework,
                risk=tool_risk(tool_findings, bool(facts.flows)),
                findings=tuple(sorted({f.code for f in tool_findings})),
            )
            tools.append(report)
            facts.risk = report.risk
            if any(f.fixable for f in tool_findings) and unfixable_reason(facts) is not None:
                tool_findings = [replace(f, fixable=False) for f in tool_findings]
            all_facts.append(facts)
            findings.extend(tool_findings)

    findings = [f for f in findings if settings.selects(f.code) and not _file_ignored(f, settings)]
    unique = {(f.code, f.path, f.line, f.column, f.tool): f for f in findings}
    result = CheckResult(
        tools=tuple(sorted(tools, key=lambda t: (t.path, t.line, t.name))),
        findings=tuple(sorted(unique.values(), key=Finding.sort_key)),
        files_checked=len(files),
        files_parsed=len(parsed),
    )
    return RunResult(result, internal, all_facts)


def _error_position(reason: str) -> tuple[int, int]:
    """``(line, col)`` of a "syntax error at L:C: ..." reason, else (1, 1)."""
    m = re.match(r"syntax error at (\d+):(\d+)", reason)
    return (int(m.group(1)), int(m.group(2))) if m else (1, 1)


def _file_finding(rule: ParseError, path: str, line: int, col: int, reason: str) -> Finding:
    return Finding(rule.code, rule.name, path, line, col, f"cannot analyse {path}: {reason}", None, Risk.HIGH)


def _unsuppressed(tool: ToolDef, findings: list[Finding], cache, project: Project, settings: Settings) -> list[Finding]:
    tool_lines = {tool.module.line_of(n) for n in tool.suppress_nodes}
    tool_codes: set[str] = set()
    own = cache.get(tool.module.display_path) or {}
    for line in tool_lines:
        tool_codes |= own.get(line, frozenset())
    kept = []
    for f in findings:
        if f.code in tool_codes:
            continue
        table = cache.get(f.path)
        if table is None:
            table = _suppressions_for(f.path, project)
            cache[f.path] = table
        if f.code in table.get(f.line, frozenset()):
            continue
        if _file_ignored(f, settings):
            continue
        kept.append(f)
    return kept


def _suppressions_for(display_path: str, project: Project) -> dict[int, frozenset[str]]:
    for mod in project.parsed.values():
        if mod is not None and mod.display_path == display_path:
            try:
                return suppressions(mod.path.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                return {}
    return {}


def _file_ignored(f: Finding, settings: Settings) -> bool:
    for pattern, codes in settings.per_file_ignores:
        if fnmatch.fnmatch(f.path, pattern) or fnmatch.fnmatch(Path(f.path).name, pattern):
            if any(f.code.startswith(c) for c in codes):
                return True
    return False
