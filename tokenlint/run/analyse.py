"""The check pipeline: files → prefilter → groups → parse → tools → analysis → rules → risk.

``check_files``/``check_paths`` run it in this process and return per-tool facts with live LibCST
nodes (``tokenlint fix`` uses them); ``tokenlint.runner.run_check`` runs the same groups through
a cache and a process pool for ``tokenlint check``. Either way a run is: ``plan.read_files``
(read, byte prefilter, TL001 for unreadable or too-large files), ``RunPlan.groups`` (candidates
that can see each other through imports, ``tokenlint.components``), ``analyse_group`` for each
group on its own, and ``plan.merge``. A group's result depends only on its members and the
modules it looked up, so the order, process or cache it comes from cannot change the report.

Every file's problem (unreadable, not UTF-8, binary, a syntax error, too large) becomes a TL001
finding and the run goes on. An exception inside tokenlint's own analysis of a file is not
swallowed silently: it is recorded in ``RunResult.internal_errors`` (the CLI prints them and
exits 2) while the other files are still checked.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Callable

from tokenlint.analysis.facts import analyse_tool
from tokenlint.analysis.interpreter import Analyzer
from tokenlint.analysis.knowledge import Knowledge
from tokenlint.codemods.plan import unfixable_reason
from tokenlint.config import Settings
from tokenlint.discovery import ToolDef
from tokenlint.discovery.run import discover_module
from tokenlint.discovery.servers import ServerRegistry
from tokenlint.discovery.values import Values
from tokenlint.source.files import SourcePath, expand_paths
from tokenlint.model import Finding, ToolReport
from tokenlint.source.parsing import parse_source
from tokenlint.run.inputs import (
    Candidate, GroupResult, RunPlan, RunResult, file_finding, file_ignored, merge, named_only, read_files,
)
from tokenlint.source.project import ParsedModule, Project
from tokenlint.risk import tool_risk
from tokenlint.rules import RuleContext, all_rules
from tokenlint.source.decoding import SourceError, decode_source
from tokenlint.suppress import suppressions

__all__ = ["RunResult", "analyse_group", "check_files", "check_paths"]


def check_paths(paths: list[str], settings: Settings, progress: Callable[[int, int], None] | None = None) -> RunResult:
    """Check every Python file under ``paths`` in this process. Returns findings and tools
    sorted by path, line, and each tool's facts."""
    files = expand_paths(paths, settings)
    return check_files(files, settings, progress)


def check_files(files: list[SourcePath], settings: Settings, progress=None,
                overrides: dict[Path, str] | None = None, context: list[SourcePath] = ()) -> RunResult:
    """Check ``files`` in this process, one group after another, keeping every tool's facts
    (live LibCST nodes). ``overrides`` maps a file's path to source text used instead of its
    content on disk (``tokenlint fix`` re-checks its rewrites before writing). ``context``:
    more files read only to understand ``files`` (``files.context_files``); groups of them alone
    are not analysed, and only the tools, findings and facts of ``files`` are returned."""
    plan = read_files([*files, *context], overrides, None)
    named = {s.display for s in files}
    if context:
        plan.files_checked = len(files)
    results = []
    done = len(files) - len(plan.candidates)
    for members in plan.groups():
        if context and not any(c.source.display in named for c in members):
            continue
        if progress:
            progress(done, len(files))
        results.append(analyse_group(members, plan, settings, overrides=overrides, keep_facts=True))
        done += len(members)
    run = merge(plan, results, settings)
    return named_only(run, named) if context else run


def analyse_group(members: list[Candidate], plan: RunPlan, settings: Settings, *,
                  overrides: dict[Path, str] | None = None, keep_facts: bool = False) -> GroupResult:
    """Parse, discover and analyse one group of candidates (see ``RunPlan.groups``).

    Modules outside the group are parsed on demand when an analysis follows a helper or a
    re-export into them; each such lookup is recorded in ``GroupResult.looked_up`` with the
    digest of the file it found, so the cache knows what else the result depends on.
    """
    out = GroupResult()
    project = Project(plan.module_files, overrides, plan.aliases())
    parsed: list[tuple[ParsedModule, str]] = []
    for cand in members:
        sp = cand.source
        if cand.text is not None:
            text = cand.text
            parsed_source = parse_source(text, sp.display)
        else:
            try:
                text = decode_source(cand.load())
                parsed_source = parse_source(text, sp.display, candidate=True)
            except OSError as exc:
                out.findings.append(file_finding(sp.display, 1, 1, f"cannot read file: {exc.strerror or exc}"))
                continue
            except SourceError as exc:
                line, col = _error_position(str(exc))
                out.findings.append(file_finding(sp.display, line, col, str(exc)))
                continue
            if parsed_source is None:
                continue
        mod = ParsedModule.build(sp.path, sp.display, parsed_source.tree, cand.module_name, parsed_source.stmt_lines)
        project.add(mod)
        parsed.append((mod, text))
    out.parsed = len(parsed)
    own = {mod.module_name for mod, _ in parsed}

    servers = ServerRegistry(aliases=project.aliases)
    for _ in range(3):
        if not any([servers.scan_classes(mod) for mod, _ in parsed]):
            break
    for mod, _ in parsed:
        servers.scan(mod)
    for mod, _ in parsed:
        servers.scan_mounts(mod)

    analyzer = Analyzer(project, Knowledge.from_settings(settings.extra_sources, settings.extra_bounds))
    ctx = RuleContext(settings)
    rules = [r() for r in all_rules() if r.code != "TL001" and settings.selects(r.code)]
    suppress_cache: dict[str, dict[int, frozenset[str]]] = {}
    values = Values(project)
    for mod, text in parsed:
        suppress_cache[mod.display_path] = suppressions(text)
        try:
            discovered, unresolved = discover_module(mod, project, servers, values)
            out.findings.extend(_unresolved_findings(unresolved, suppress_cache, project, settings))
        except RecursionError:
            out.findings.append(file_finding(mod.display_path, 1, 1, "too deeply nested to analyse"))
            continue
        except Exception as exc:  # tokenlint's own bug: report it, keep going
            out.internal.append(f"{mod.display_path}: internal error during tool discovery: {type(exc).__name__}: {exc}")
            continue
        for tool in discovered:
            try:  # positions and the fix dry run walk the CST too: all inside the guard
                facts = analyse_tool(analyzer, tool)
                tool_findings = [f for rule in rules for f in rule.check(facts, ctx)]
                tool_findings = _unsuppressed(tool, tool_findings, suppress_cache, project, settings)
                line = tool.module.line_of(tool.anchor)
                facts.risk = tool_risk(tool_findings, bool(facts.flows))
                if any(f.fixable for f in tool_findings) and unfixable_reason(facts) is not None:
                    tool_findings = [replace(f, fixable=False) for f in tool_findings]
            except RecursionError:  # pathological input (e.g. `a + a + ...` 900 times), not a bug
                out.findings.append(file_finding(mod.display_path, 1, 1,
                                                 f"tool `{tool.name}` is too deeply nested to analyse"))
                continue
            except Exception as exc:
                out.internal.append(
                    f"{mod.display_path}: internal error analysing tool `{tool.name}`: {type(exc).__name__}: {exc}"
                )
                continue
            report = ToolReport(
                name=tool.name,
                function=tool.function,
                path=tool.module.display_path,
                line=line,
                framework=tool.framework,
                risk=facts.risk,
                findings=tuple(sorted({f.code for f in tool_findings})),
                untraced=facts.untraced,
            )
            out.tools.append(report)
            if keep_facts:
                out.facts.append(facts)
            out.findings.extend(tool_findings)
    for name in sorted(project.looked_up - own):
        out.looked_up[name] = plan.digest_of_module(name)
    out.matched_knowledge = sorted(analyzer.knowledge.matched)
    return out


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

