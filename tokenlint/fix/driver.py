"""``fix_paths``: the one-shot codemod behind ``tokenlint fix``.

Pipeline: the same ``check`` analysis → ``fix.planner.plan_module`` per file with HIGH or
MEDIUM tools → ``libcst.codemod.transform_module`` with ``FitToBudget`` → the new text must parse
(LibCST) and compile (CPython) → the whole run is checked again on the new texts, and a tool the
rewrite did not make LOW is left out and its file rewritten without it (so every rewritten tool
is LOW afterwards) → files are written atomically (temp file in the same directory, fsync,
``os.replace``), only when changed, keeping their encoding, BOM and line endings.

Running ``fix`` twice changes nothing the second time: rewritten tools are LOW, and only HIGH and
MEDIUM tools are planned.
"""

from __future__ import annotations

import difflib
import io
import os
import stat
import sys
import tempfile
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from libcst.codemod import CodemodContext, TransformFailure, TransformSkip, TransformSuccess, transform_module

from tokenlint.fix.codemod import FitToBudget
from tokenlint.fix.requirement import declare_runtime
from tokenlint.fix.style import style_for
from tokenlint.fix.edits import NOT_LOW_REASON, FilePlan, ToolOutcome
from tokenlint.fix.planner import plan_module
from tokenlint.config import Settings
from tokenlint.run.pipeline import check_files
from tokenlint.run.results import RunResult
from tokenlint.source.files import context_files, expand_paths
from tokenlint.source.imports import dotted_name
from tokenlint.model import Risk
from tokenlint.source.project import ParsedModule
from tokenlint.source.decoding import SourceError, read_source

#: How many times a file is re-planned without the tools a rewrite did not make LOW.
MAX_ATTEMPTS = 3


@dataclass
class FileChange:
    """One file ``fix`` rewrites: its path, old and new text (str, newlines as in the file)."""

    path: Path
    display: str
    old_text: str
    new_text: str
    #: A project manifest declaring the runtime requirement, not a rewritten module.
    manifest: bool = False

    def diff(self) -> str:
        """Unified diff; relative paths get ``a/`` and ``b/`` prefixes like ``git diff``."""
        old, new = (self.display, self.display) if os.path.isabs(self.display) else \
            (f"a/{self.display}", f"b/{self.display}")
        return "".join(difflib.unified_diff(
            self.old_text.splitlines(keepends=True), self.new_text.splitlines(keepends=True), old, new))


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
        return [o for o in self.outcomes if o.fixed]

    @property
    def unfixed(self) -> list[ToolOutcome]:
        return [o for o in self.outcomes if not o.fixed]


def fix_paths(paths: list[str], settings: Settings) -> FixResult:
    """Plan and verify the rewrite of every HIGH or MEDIUM tool under ``paths``; write nothing.

    Returns a ``FixResult`` whose ``changes`` hold the new texts; ``write_changes`` writes them.
    Never raises for a file: a rewrite that fails, does not parse or does not compile becomes an
    error line naming the file (and the file is left alone).
    """
    files = expand_paths(paths, settings)
    # named files are understood with their package's other modules (a tool module whose server
    # is created in server.py); only the named files are rewritten
    context = context_files(paths, files, settings)
    before = check_files(files, settings, context=context)
    result = FixResult(before=before)
    by_module: dict[int, tuple[ParsedModule, list]] = {}
    for facts in before.facts:
        if facts.risk is not None and facts.risk >= Risk.MEDIUM:
            by_module.setdefault(id(facts.tool.module), (facts.tool.module, []))[1].append(facts)
    sources, refused = _sources(mod for mod, _ in by_module.values())
    excluded: dict[Path, set[str]] = {}
    for attempt in range(MAX_ATTEMPTS):
        errors: list[str] = []
        plans: dict[Path, tuple[ParsedModule, FilePlan]] = {}
        overrides: dict[Path, str] = {}
        for mod, facts_list in by_module.values():
            plan = plan_module(mod, facts_list, settings.max_response_tokens,
                               frozenset(excluded.get(mod.path, ())), client=settings.client)
            plans[mod.path] = (mod, plan)
            if mod.path in refused:
                for o in plan.outcomes:
                    o.fixed, o.reason, o.notes = False, refused[mod.path], []
                continue
            if not plan:
                continue
            code, text = mod.tree.code, sources[mod.path]
            new = _transform(mod, code, plan, errors, settings.paging_hint)
            if new is not None and code != text:
                new = _restore_tail(new, code, text)
            if new is None:
                for o in plan.outcomes:
                    if o.fixed:
                        o.fixed, o.reason = False, "the rewrite failed (see the error above)"
            elif new != text:
                overrides[mod.path] = new
        if not overrides:
            break
        after = check_files(files, settings, overrides=overrides, context=context)
        still = {(f.tool.module.path, f.tool.name) for f in after.facts
                 if f.risk is not None and f.risk >= Risk.MEDIUM}
        failed = [(path, o) for path, (_, plan) in plans.items() for o in plan.outcomes
                  if o.fixed and (path, o.name) in still]
        for path, o in failed:
            excluded.setdefault(path, set()).add(o.name)
        if not failed:
            break
        if attempt == MAX_ATTEMPTS - 1:  # did not converge: leave those files alone
            for path, o in failed:
                overrides.pop(path, None)
                for other in plans[path][1].outcomes:
                    if other.fixed:
                        other.fixed, other.reason = False, NOT_LOW_REASON
    result.errors.extend(errors)
    for mod, plan in plans.values():
        result.outcomes.extend(plan.outcomes)
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


def _sources(mods) -> tuple[dict[Path, str], dict[Path, str]]:
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
        new = _place_runtime_import(new, mod.module_name)
    return _fit_runtime_import(new, style.line_length)


RUNTIME_IMPORT = "from tokenlint.runtime import"


def _fit_runtime_import(code: str, width: int) -> str:
    """The one-line runtime import, when longer than ``width`` chars, laid out as black and ruff
    lay out an import that does not fit: one name per line in brackets, with a trailing comma."""
    lines = code.splitlines(keepends=True)
    for i, line in enumerate(lines):
        text = line.rstrip("\r\n")
        if text.startswith(f"{RUNTIME_IMPORT} ") and "(" not in text and "#" not in text \
                and not text.endswith("\\") and len(text) > width:
            newline = line[len(text):] or "\n"
            names = [n.strip() for n in text[len(RUNTIME_IMPORT) + 1:].split(",") if n.strip()]
            body = "".join(f"    {n},{newline}" for n in names)
            lines[i] = f"{RUNTIME_IMPORT} ({newline}{body}){line[len(text):]}"
            return "".join(lines)
    return code


def _place_runtime_import(code: str, module_name: str) -> str:
    """Move the added ``from tokenlint.runtime import ...`` among the module's third-party
    imports, in alphabetical place (isort's and ruff's ``I001`` order), instead of after its
    first-party ones, where ``AddImportsVisitor`` appends it. Unchanged when the module has no
    third-party import in its leading block."""
    tree = cst.parse_module(code)
    body = list(tree.body)
    block: list[int] = []
    for i, stmt in enumerate(body):
        small = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []
        if small and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in small):
            block.append(i)
        elif not (i == 0 and small and isinstance(small[0], cst.Expr)):  # a docstring may come first
            break
    ours = [i for i in block if _import_module(body[i]) == "tokenlint.runtime"]
    if len(ours) != 1:
        return code
    at = ours[0]
    third = [i for i in block if i != at and _section(body[i], module_name) == "third"]
    if not third:
        return _own_group(tree, body, block, at, module_name)
    before = [i for i in third if _import_module(body[i]).lower() <= "tokenlint.runtime"]
    target = (before[-1] + 1) if before else third[0]
    if target in (at, at + 1):
        return code
    stmt = body.pop(at)
    body.insert(target if target < at else target - 1, stmt)
    return tree.with_changes(body=body).code


def _own_group(tree: cst.Module, body: list, block: list[int], at: int, module_name: str) -> str:
    """No third-party import to join: the runtime import becomes its own group, after the
    standard-library imports and before the first-party ones, a blank line on each side."""
    first = [i for i in block if i != at and _section(body[i], module_name) == "first"
             and _import_module(body[i]) != "__future__"]
    stmt = body[at]
    if first and first[0] < at:
        target = body[first[0]]
        body.pop(at)
        body.insert(first[0], stmt.with_changes(leading_lines=target.leading_lines))
        body[first[0] + 1] = target.with_changes(leading_lines=[cst.EmptyLine()])
    elif at > 0 and at - 1 in block and not stmt.leading_lines:
        body[at] = stmt.with_changes(leading_lines=[cst.EmptyLine()])
    else:
        return tree.code
    return tree.with_changes(body=body).code


def _import_module(stmt: cst.CSTNode) -> str:
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
    if isinstance(small, cst.ImportFrom):
        if small.relative:
            return "." * len(small.relative)
        return dotted_name(small.module) or ""
    if isinstance(small, cst.Import):
        return dotted_name(small.names[0].name) or ""
    return ""


def _section(stmt: cst.CSTNode, module_name: str) -> str:
    """``"stdlib"``, ``"first"`` (relative, or this module's own top-level package) or ``"third"``."""
    name = _import_module(stmt)
    top = name.split(".")[0]
    if not top or name.startswith(".") or top == module_name.split(".")[0] or top == "__future__":
        return "first" if top != "__future__" else "stdlib"
    return "stdlib" if top in sys.stdlib_module_names else "third"


def write_changes(changes: list[FileChange]) -> list[str]:
    """Write each change atomically; returns one error line per file that could not be written.

    The new text is encoded like the old file (its PEP 263 encoding, its UTF-8 BOM), written to
    a temporary file in the same directory with the old file's permission bits, fsynced, and
    renamed over the old file, so a reader (or a crash) sees the old or the new content, never
    a mix. A file whose content changed on disk since it was read, or that is not writable, is
    left alone.
    """
    errors: list[str] = []
    for change in changes:
        try:
            _write_one(change)
        except (OSError, _Stale) as exc:
            errors.append(f"{change.display}: not written: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}")
    return errors


class _Stale(Exception):
    pass


def _write_one(change: FileChange) -> None:
    path = Path(os.path.realpath(change.path))  # a symlink stays a link; its target is rewritten
    data = path.read_bytes()
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = data.startswith(b"\xef\xbb\xbf")
    old_text = data.decode(encoding)
    if old_text.startswith("\ufeff"):
        old_text = old_text[1:]
    if old_text != change.old_text:
        raise _Stale("the file changed on disk while fix was running")
    mode = stat.S_IMODE(path.stat().st_mode)
    if not os.access(path, os.W_OK) or not mode & 0o222:  # no write bit: read-only even for root
        raise PermissionError(13, "file is read-only")
    new_bytes = change.new_text.encode("utf-8" if encoding == "utf-8-sig" else encoding)
    if bom:
        new_bytes = b"\xef\xbb\xbf" + new_bytes
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tokenlint-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(new_bytes)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
