"""Analysing one group of candidates: parse → tools → analysis → rules → suppressions → risk.

``pipeline.GroupAnalysis`` holds what every group of a run shares (the settings, and which
tools ``fix`` could rewrite) and calls ``analyse_group`` once per group, in this process or in a
worker process; this module imports LibCST and the analysis, so it is imported only then. A group's result depends only on its members and the modules it
looked up, so the order, process or cache it comes from cannot change the report.

Every file's problem (unreadable, not UTF-8, binary, a syntax error, too large) becomes a TL001
finding and the run goes on. An exception inside tokenlint's own analysis of a file is not
swallowed silently: it is recorded in ``GroupResult.internal`` (the CLI prints it and exits 2)
while the other files are still checked.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tokenlint.analysis.facts import analyse_tool
from tokenlint.analysis.interpreter import Analyzer
from tokenlint.analysis.knowledge import Knowledge
from tokenlint.config import Settings
from tokenlint.discovery import ToolDef
from tokenlint.discovery.run import discover_module, scan_servers
from tokenlint.discovery.values import Values
from tokenlint.model import Finding, ToolId, ToolReport
from tokenlint.risk import tool_risk
from tokenlint.rules import RuleContext, all_rules
from tokenlint.run.inputs import Candidate, RunPlan
from tokenlint.run.results import GroupResult, file_finding, file_ignored
from tokenlint.source.decoding import SourceError, decode_source
from tokenlint.source.parsing import Parsed, parse_source
from tokenlint.source.project import ParsedModule, Project
from tokenlint.suppress import suppressions

if TYPE_CHECKING:
    from tokenlint.analysis.facts import ToolFacts
    from tokenlint.run.pipeline import GroupAnalysis

__all__ = ["analyse_group"]


def analyse_group(job: GroupAnalysis, members: list[Candidate], plan: RunPlan, keep_facts: bool) -> GroupResult:
    """``GroupAnalysis.__call__``: parse, discover and analyse ``members`` (see there)."""
    settings = job.settings
    findings: list[Finding] = []
    tools: list[ToolReport] = []
    internal: list[str] = []
    kept: list[ToolFacts] = []
    project = Project(plan.module_files, job.overrides, plan.aliases())
    project.members = frozenset(c.module_name for c in members)
    parsed: list[tuple[ParsedModule, str]] = []
    for cand in members:
        sp = cand.source
        parsed_source: Parsed | None
        if cand.text is not None:
            text = cand.text
            parsed_source = parse_source(text, sp.display)
        else:
            try:
                text = decode_source(cand.load())
                parsed_source = parse_source(text, sp.display, candidate=True)
            except OSError as exc:
                findings.append(file_finding(sp.display, 1, 1, f"cannot read file: {exc.strerror or exc}"))
                continue
            except SourceError as exc:
                line, col = _error_position(str(exc))
                findings.append(file_finding(sp.display, line, col, str(exc)))
                continue
            if parsed_source is None:
                continue
        mod = ParsedModule.build(sp.path, sp.display, parsed_source.tree, cand.module_name, parsed_source.stmt_lines,
                                 parsed_source.member_lines)
        project.add(mod)
        parsed.append((mod, text))
    own = {mod.module_name for mod, _ in parsed}

    servers = scan_servers([mod for mod, _ in parsed], project.aliases)

    analyzer = Analyzer(project, Knowledge.from_settings(settings.extra_sources, settings.extra_bounds))
    rules = [r() for r in all_rules() if r.code != "TL001" and settings.selects(r.code)]
    suppress_cache: dict[str, dict[int, frozenset[str]]] = {}
    values = Values(project)
    reported: set[ToolId] = set()
    for mod, text in parsed:
        suppress_cache[mod.display_path] = suppressions(text)
        try:
            discovered, unresolved = discover_module(mod, project, servers, values)
            findings.extend(_unresolved_findings(unresolved, suppress_cache, project, settings))
        except RecursionError:
            findings.append(file_finding(mod.display_path, 1, 1, "too deeply nested to analyse"))
            continue
        except Exception as exc:  # tokenlint's own bug: report it, keep going
            internal.append(f"{mod.display_path}: internal error during tool discovery: {type(exc).__name__}: {exc}")
            continue
        for tool in discovered:
            try:  # positions and the fix dry run walk the CST too: all inside the guard
                line = tool.module.line_of(tool.anchor)
                tool_id = ToolId(tool.module.display_path, line, tool.name)
                if tool_id in reported:
                    # the same tool found through a second server of the run (a stdio and an
                    # HTTP entry point dispatching over one registry): one tool, reported once
                    continue
                reported.add(tool_id)
                ctx = RuleContext(settings, tool_id)
                facts = analyse_tool(analyzer, tool)
                tool_findings = [f for rule in rules for f in rule.check(facts, ctx)]
                tool_findings = _unsuppressed(tool, tool_findings, suppress_cache, project, settings)
                risk = tool_risk(tool_findings, bool(facts.flows))
                facts = replace(facts, risk=risk)
                if (job.unfixable_reason is not None and any(f.fixable for f in tool_findings)
                        and job.unfixable_reason(facts) is not None):
                    tool_findings = [replace(f, fixable=False) for f in tool_findings]
            except RecursionError:  # pathological input (e.g. `a + a + ...` 900 times), not a bug
                findings.append(file_finding(mod.display_path, 1, 1,
                                             f"tool `{tool.name}` is too deeply nested to analyse"))
                continue
            except Exception as exc:
                internal.append(
                    f"{mod.display_path}: internal error analysing tool `{tool.name}`: {type(exc).__name__}: {exc}"
                )
                continue
            tools.append(ToolReport(
                name=tool.name,
                function=tool.function,
                path=tool.module.display_path,
                line=line,
                framework=tool.framework,
                risk=risk,
                findings=tuple(sorted({f.code for f in tool_findings})),
                untraced=facts.untraced,
            ))
            if keep_facts:
                kept.append(facts)
            findings.extend(tool_findings)
    return GroupResult(
        findings=tuple(findings),
        tools=tuple(tools),
        internal=tuple(internal),
        parsed=len(parsed),
        looked_up={name: plan.digest_of_module(name) for name in sorted(project.looked_up - own)},
        facts=tuple(kept),
        matched_knowledge=tuple(sorted(analyzer.knowledge.matched)),
    )


def _unresolved_findings(unresolved, cache, project: Project, settings: Settings) -> list[Finding]:
    """TL002 for each registration discovery could not resolve (unless suppressed or ignored)."""
    from tokenlint.rules.tl002_unresolved_registration import UnresolvedRegistration

    out = []
    for u in unresolved:
        line, col = u.module.position(u.node)[:2]
        f = UnresolvedRegistration.finding(u.module.display_path, line, col, u.reason)
        table = cache.get(f.path)
        if table is None:
            table = cache[f.path] = _suppressions_for(f.path, project)
        if f.code in table.get(f.line, frozenset()) or file_ignored(f, settings) or not settings.selects(f.code):
            continue
        out.append(f)
    return out


def _error_position(reason: str) -> tuple[int, int]:
    """``(line, col)`` of a "syntax error at L:C: ..." (or "unsupported syntax at") reason, else (1, 1)."""
    m = re.match(r"(?:syntax error|unsupported syntax) at (\d+):(\d+)", reason)
    return (int(m.group(1)), int(m.group(2))) if m else (1, 1)


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
        if file_ignored(f, settings):
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

