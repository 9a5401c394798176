"""``fix_paths``: the one-shot codemod behind ``tokenlint fix``.

Pipeline: the same ``check`` analysis → ``fix.planner.plan_module`` per file with HIGH or
MEDIUM tools → ``libcst.codemod.transform_module`` with ``FitToBudget`` → the new text must parse
(LibCST) and compile (CPython) → the whole run is checked again on the new texts, and a tool the
rewrite did not make LOW is left out and its file rewritten without it (so every rewritten tool
is LOW afterwards) → files are written atomically (temp file in the same directory, fsync,
``os.replace``), only when changed, keeping their encoding, BOM and line endings
(``fix.write``; ``fix_paths`` itself writes nothing).

Running ``fix`` twice changes nothing the second time: rewritten tools are LOW, and only HIGH and
MEDIUM tools are planned.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import libcst as cst
from libcst.codemod import CodemodContext, TransformFailure, TransformSkip, TransformSuccess, transform_module

from tokenlint.analysis.facts import ToolFacts
from tokenlint.config import Settings
from tokenlint.fix.codemod import FitToBudget
from tokenlint.fix.edits import NOT_LOW_REASON, FilePlan, ToolOutcome
from tokenlint.fix.planner import plan_module
from tokenlint.fix.requirement import declare_runtime
from tokenlint.fix.runtime_import import RUNTIME_IMPORT, fit_runtime_import, place_runtime_import
from tokenlint.fix.style import style_for
from tokenlint.fix.write import FileChange
from tokenlint.model import Risk
from tokenlint.run.pipeline import check_files
from tokenlint.run.results import RunResult
from tokenlint.source.decoding import SourceError, read_source
from tokenlint.source.files import context_files, expand_paths
from tokenlint.source.project import ParsedModule

#: How many times a file is re-planned without the tools a rewrite did not make LOW.
MAX_ATTEMPTS = 3


@dataclass
class FixResult:
    """What a fix run found and did: changed files, one ``ToolOutcome`` per HIGH/MEDIUM tool
    (sorted by path, line), the check result before fixing, and errors (one line each)."""

    changes: list[FileChange] = field(default_factory=list)
    outcomes: list[ToolOutcome] = field(default_factory=list)
    before: RunResult | None = None
    errors: list[str] = field(default_factory=list)
    #: What the user must still do by hand (one line each), e.g. declare the runtime requirement.
    advice: list[str] = field(default_factory=list)

    @property
    def fixed(self) -> list[ToolOutcome]:
        """The outcomes of the tools that are rewritten."""
        return [o for o in self.outcomes if o.fixed]

    @property
    def unfixed(self) -> list[ToolOutcome]:
        """The outcomes of the HIGH and MEDIUM tools left alone (each with its reason)."""
        return [o for o in self.outcomes if not o.fixed]


def fix_paths(paths: list[str], settings: Settings) -> FixResult:
    """Plan and verify the rewrite of every HIGH or MEDIUM tool under ``paths``; write nothing.

    ``paths``: files and directories as given on the command line; ``settings``: the run's
    settings (budget in tokens, client profile, paging hint, manifest declaration). Returns a
    ``FixResult`` whose ``changes`` hold the new texts (sorted by displayed path; manifests
    declaring the runtime among them); ``fix.write.write_changes`` writes them. Never raises for
    a file: a rewrite that fails, does not parse or does not compile becomes an error line naming
    the file (and the file is left alone); raises only on tokenlint's own failure.
    """
    files = expand_paths(paths, settings)
    # named files are understood with their package's other modules (a tool module whose server
    # is created in server.py); only the named files are rewritten
    context = context_files(paths, files, settings)
    before = check_files(files, settings, context=context)
    result = FixResult(before=before)
    by_module: dict[int, tuple[ParsedModule, list[ToolFacts]]] = {}
    for facts in before.facts:
        if facts.risk is not None and facts.risk >= Risk.MEDIUM:
            by_module.setdefault(id(facts.tool.module), (facts.tool.module, []))[1].append(facts)
    sources, refused = _sources(mod for mod, _ in by_module.values())
    excluded: dict[Path, set[str]] = {}
    for attempt in range(MAX_ATTEMPTS):
        errors: list[str] = []
        plans: dict[Path, tuple[ParsedModule, FilePlan]] = {}
        #: Each file's tool outcomes as this attempt leaves them (a refused file, a failed
        #: rewrite or the re-check turns a planned fix into a new, unfixed outcome).
        outcomes: dict[Path, list[ToolOutcome]] = {}
        overrides: dict[Path, str] = {}
        for mod, facts_list in by_module.values():
            plan = plan_module(mod, facts_list, settings.max_response_tokens,
                               frozenset(excluded.get(mod.path, ())), client=settings.client)
            plans[mod.path] = (mod, plan)
            outcomes[mod.path] = list(plan.outcomes)
            if mod.path in refused:
                outcomes[mod.path] = [replace(o, fixed=False, reason=refused[mod.path], notes=())
                                      for o in plan.outcomes]
                continue
            if not plan:
                continue
            code, text = mod.tree.code, sources[mod.path]
            new = _transform(mod, code, plan, errors, settings.paging_hint)
            if new is not None and code != text:
                new = _restore_tail(new, code, text)
            if new is None:
                outcomes[mod.path] = [replace(o, fixed=False, reason="the rewrite failed (see the error above)")
                                      if o.fixed else o for o in outcomes[mod.path]]
            elif new != text:
                overrides[mod.path] = new
        if not overrides:
            break
        after = check_files(files, settings, overrides=overrides, context=context)
        still = {(f.tool.module.path, f.tool.name) for f in after.facts
                 if f.risk is not None and f.risk >= Risk.MEDIUM}
        failed = [(path, o) for path, listed in outcomes.items() for o in listed
                  if o.fixed and (path, o.name) in still]
        for path, o in failed:
            excluded.setdefault(path, set()).add(o.name)
        if not failed:
            break
        if attempt == MAX_ATTEMPTS - 1:  # did not converge: leave those files alone
            for path, o in failed:
                overrides.pop(path, None)
                outcomes[path] = [replace(other, fixed=False, reason=NOT_LOW_REASON) if other.fixed else other
                                  for other in outcomes[path]]
    result.errors.extend(errors)
    for mod, plan in plans.values():
        result.outcomes.extend(outcomes[mod.path])
        if mod.path in overrides:
            result.changes.append(FileChange(mod.path, mod.display_path, sources[mod.path], overrides[mod.path]))
    if settings.declare_dependency:
        _declare_runtime(result)
    result.outcomes.sort(key=lambda o: (o.path, o.line, o.name))
    result.changes.sort(key=lambda c: c.display)
    return result


def _declare_runtime(result: FixResult) -> None:
    """Add the manifest edits declaring the runtime requirement (``fix.requirement``) for
    the projects of the rewritten files to ``result.changes``, or advice where none can be made."""
    seen: set[Path] = set()
    for change in list(result.changes):
        declaration = declare_runtime(change.path)
        if declaration.path is None:
            if declaration.advice not in result.advice:
                result.advice.append(declaration.advice)
        elif declaration.changed and declaration.path not in seen:
            seen.add(declaration.path)
            result.changes.append(FileChange(declaration.path, _display(declaration.path),
                                             declaration.old_text, declaration.new_text, manifest=True))


def _display(path: Path) -> str:
    """``path`` relative to the working directory when it is below it, else absolute."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _sources(mods: Iterable[ParsedModule]) -> tuple[dict[Path, str], dict[Path, str]]:
    """The text of each module as on disk, and the modules ``fix`` must refuse (path → reason):
    LibCST recursing too deep to print the tree, or a tree that does not print back to the file
    (LibCST drops blank lines before a final whitespace-only line; only that tail is tolerated,
    and restored by ``_restore_tail``)."""
    sources: dict[Path, str] = {}
    refused: dict[Path, str] = {}
    for mod in mods:
        try:
            text = read_source(mod.path)
            code = mod.tree.code
        except SourceError as exc:
            refused[mod.path] = f"cannot read it again: {exc}"
            continue
        except RecursionError:
            refused[mod.path] = "its module is too deeply nested for LibCST to rewrite"
            continue
        if code != text and code.rstrip() != text.rstrip():
            refused[mod.path] = "LibCST does not print its module back exactly, so it is not rewritten"
            continue
        sources[mod.path] = text
    return sources, refused


def _restore_tail(new: str, code: str, text: str) -> str | None:
    """``new`` with the trailing whitespace of the file (``text``) instead of LibCST's (``code``)."""
    code_tail = code[len(code.rstrip()):]
    if not new.endswith(code_tail):
        return None
    return new[: len(new) - len(code_tail)] + text[len(text.rstrip()):]


def _transform(mod: ParsedModule, code: str, plan: FilePlan, errors: list[str],
               paging_hint: bool = True) -> str | None:
    """``code`` (``mod``'s text as LibCST prints it) rewritten by ``FitToBudget`` with ``plan``,
    with the file's line endings and the runtime import placed and laid out; ``code`` itself
    when the codemod skips the file. None, with a line appended to ``errors``, when the
    codemod fails or its output does not parse or compile."""
    context = CodemodContext(filename=str(mod.path), full_module_name=mod.module_name)
    style = style_for(mod.path)
    outcome = transform_module(FitToBudget(context, plan, style, paging_hint), code)
    if isinstance(outcome, TransformSkip):
        return code
    if isinstance(outcome, TransformFailure):
        if isinstance(outcome.error, RecursionError):
            errors.append(f"{mod.display_path}: not rewritten: too deeply nested for LibCST")
        else:
            errors.append(f"{mod.display_path}: rewrite failed: {type(outcome.error).__name__}: {outcome.error}")
        return None
    assert isinstance(outcome, TransformSuccess)
    new = outcome.code
    if "\r\n" in code and "\n" not in code.replace("\r\n", ""):
        new = new.replace("\r\n", "\n").replace("\n", "\r\n")
    try:
        cst.parse_module(new)
        with warnings.catch_warnings():  # SyntaxWarnings about the user's own code are not ours
            warnings.simplefilter("ignore")
            compile(new, str(mod.path), "exec", dont_inherit=True)
    except (SyntaxError, cst.ParserSyntaxError, ValueError) as exc:
        names = ", ".join(o.name for o in plan.outcomes if o.fixed)
        errors.append(f"{mod.display_path}: rewrite of {names} dropped: it would not parse ({exc})")
        return None
    if RUNTIME_IMPORT not in code:
        new = place_runtime_import(new, mod.module_name)
    return fit_runtime_import(new, style.line_length)
