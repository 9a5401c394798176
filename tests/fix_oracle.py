"""What every `tokenlint fix` rewrite must satisfy, as functions returning problems (strings).

Used by the property tests (``test_fuzz.py``) and by ``benchmarks/scan_tree.py``:

- ``rewrite_problems``: each changed file's new text parses (LibCST) and compiles (CPython), and
  differs from the old text only inside the rewritten tools (their ``def`` ranges, decorators
  included, plus the other nodes the plan edits: a low-level tool's ``inputSchema``, a clamped
  limit read outside the tool, and the whole statement holding each, which fix lays out again)
  and by added or merged ``from tokenlint.runtime import ...`` lines and added
  ``register_result_resource(<server>)`` lines.
- ``roundtrip_problems``: the above on a file on disk, then the rewrite written, and ``fix`` run
  again must change nothing (fix∘fix = fix) and leave no rewritten tool above LOW.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

import libcst as cst

from tokenlint.fix.planner import plan_module
from tokenlint.config import Settings
from tokenlint.fix.driver import FixResult, fix_paths
from tokenlint.fix.write import FileChange, write_changes
from tokenlint.model import Risk

_RUNTIME_IMPORT = re.compile(r"^\s*from tokenlint\.runtime import .*$|^\s*import tokenlint\.runtime")
_RESULT_RESOURCE = re.compile(r"^register_result_resource\(\w+\)\r?\n?$")


def allowed_lines(result: FixResult, change: FileChange, max_tokens: int) -> set[int]:
    """1-based line numbers of ``change.old_text`` that ``fix`` may change."""
    fixed = {o.name for o in result.fixed if o.path == change.display}
    facts = [f for f in result.before.facts if f.tool.module.path == change.path]
    if not facts:
        return set()
    mod = facts[0].tool.module
    lines: set[int] = set()
    for f in facts:
        if f.tool.name in fixed:
            fn = f.tool.func
            start = mod.position(fn.decorators[0])[0] if fn.decorators else mod.position(fn)[0]
            lines.update(range(start, mod.position(fn)[2] + 1))
    unfixed = frozenset(f.tool.name for f in facts if f.tool.name not in fixed)
    plan = plan_module(mod, [f for f in facts if f.risk is not None and f.risk >= Risk.MEDIUM],
                       max_tokens, unfixed)
    keys = [*plan.schemas, *plan.clamp_exprs, *plan.drop_slices, *plan.wraps, *plan.functions,
            *plan.tool_lists, *plan.descriptions]
    # a statement holding an edit is laid out again as the project's formatter would
    # (fix/layout.py): all of its lines may change
    statements = [mod.position(n) for n in _statements(mod.tree)]
    for key in keys:
        lines.update(range(key.line, key.end_line + 1))
        around = [(s[0], s[2]) for s in statements if s[0] <= key.line and key.end_line <= s[2]]
        if around:
            start, end = min(around, key=lambda r: r[1] - r[0])
            lines.update(range(start, end + 1))
    return lines


def _statements(tree: cst.Module) -> list[cst.SimpleStatementLine]:
    found: list[cst.SimpleStatementLine] = []

    class Statements(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            found.append(node)

    tree.visit(Statements())
    return found


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def source_lines(text: str) -> list[str]:
    """Lines as Python and LibCST count them (ends kept): only ``\\n``, ``\\r\\n`` and ``\\r``
    end a line; ``str.splitlines`` would also split at form feeds and other separators."""
    return _LINE.findall(text)


def outside_changes(old: str, new: str, allowed: set[int]) -> list[str]:
    """The runs of old lines outside ``allowed`` (1-based) that do not reappear, byte for byte
    (line endings included) and in order, in ``new``; what ``new`` has between them is the
    rewritten tools' new text. Added ``from tokenlint.runtime import ...`` lines (and the empty
    line LibCST may put after one) do not count; an old one may be merged into."""
    a = source_lines(old)
    allowed = allowed | {n for n, line in enumerate(a, 1) if _RUNTIME_IMPORT.match(line)}
    segments: list[tuple[int, list[str]]] = []
    for n, line in enumerate(a, 1):
        if n in allowed:
            continue
        if segments and segments[-1][0] + len(segments[-1][1]) == n:
            segments[-1][1].append(line)
        else:
            segments.append((n, [line]))
    if not segments:
        return []
    first_outside, last_outside = 1 not in allowed, len(a) not in allowed
    missing = None
    for b in _without_added_imports(source_lines(new)):
        missing = _first_unmatched(segments, b, first_outside, last_outside)
        if missing is None:
            return []
    line, seg = segments[missing]
    return [f"lines {line}-{line + len(seg) - 1} changed outside the rewritten tools: {seg!r} is not "
            "in the rewrite where it belongs"]


def _without_added_imports(b: list[str]):
    """``b`` without its runtime import lines, with and without the empty line after each, and
    without the ``register_result_resource(<server>)`` lines ``fix`` adds, with and without the
    two empty lines before each."""
    registered = {i for i, line in enumerate(b) if _RESULT_RESOURCE.match(line)}
    blank = {i - k for i in registered for k in (1, 2) if i - k >= 0 and not b[i - k].strip("\r\n")}
    for variant in _imports_dropped([line for i, line in enumerate(b) if i not in registered]):
        yield variant
        if blank:
            yield from _imports_dropped([line for i, line in enumerate(b) if i not in registered | blank])


def _imports_dropped(b: list[str]):
    """``b`` without its runtime import lines, with and without the empty line after each."""
    idx = [i for i, line in enumerate(b) if _RUNTIME_IMPORT.match(line)][:3]
    for i in list(idx):  # ``from tokenlint.runtime import (`` split one name per line
        if b[i].rstrip().endswith("("):
            j = i + 1
            while j < len(b) and not b[j].strip().startswith(")"):
                idx.append(j)
                j += 1
            idx.append(j)
    idx = sorted(set(idx))
    optional = [i + 1 for i in idx if i + 1 < len(b) and not b[i + 1].strip("\r\n")]
    for mask in range(1 << len(optional)):
        drop = set(idx) | {i for k, i in enumerate(optional) if mask >> k & 1}
        yield [line for i, line in enumerate(b) if i not in drop]


def _first_unmatched(segments, b: list[str], anchored_start: bool, anchored_end: bool) -> int | None:
    """Index of the first segment that cannot be found in ``b`` after the previous one (the first
    pinned to the start of ``b`` and the last to its end when they touch the file's ends)."""
    j = 0
    for k, (_, seg) in enumerate(segments):
        n = len(seg)
        if k == len(segments) - 1 and anchored_end:
            if b[len(b) - n:] != seg or len(b) - n < j or (k == 0 and anchored_start and len(b) != n):
                return k
            return None
        if k == 0 and anchored_start:
            if b[:n] != seg:
                return k
            j = n
            continue
        pos = next((i for i in range(j, len(b) - n + 1) if b[i:i + n] == seg), -1)
        if pos < 0:
            return k
        j = pos + n
    return None


def rewrite_problems(result: FixResult, max_tokens: int, old_compiles: bool = True) -> list[str]:
    """Every problem with the changes of one ``fix_paths`` result (empty: all sound)."""
    problems = [f"fix error: {e}" for e in result.errors] if old_compiles else []
    for change in result.changes:
        where = change.display
        try:
            cst.parse_module(change.new_text)
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            problems.append(f"{where}: rewrite does not parse with LibCST: {exc}")
            continue
        try:
            compile(change.new_text, where, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            problems.append(f"{where}: rewrite does not compile: {exc}")
        allowed = allowed_lines(result, change, max_tokens)
        problems += [f"{where}: {p}" for p in outside_changes(change.old_text, change.new_text, allowed)]
    return problems


def compiles(data: bytes) -> bool:
    try:
        compile(data, "<fuzz>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def roundtrip_problems(path: Path, settings: Settings) -> list[str]:
    """Check, fix, write, fix again on ``path`` (a file or directory this caller owns)."""
    problems: list[str] = []
    try:
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        ok = all(compiles(f.read_bytes()) for f in files)
        first = fix_paths([str(path)], settings)  # its `before` is the `check` run
        problems += [f"check internal error: {e}" for e in first.before.internal_errors]
        problems += rewrite_problems(first, settings.max_response_tokens, ok)
        if problems:
            return problems
        problems += [f"write: {e}" for e in write_changes(first.changes)]
        second = fix_paths([str(path)], settings)
        problems += [f"second fix error: {e}" for e in second.errors]
        problems += [f"not a fixpoint: second fix changes {c.display}:\n{c.diff()}" for c in second.changes]
        fixed = {(o.path, o.name) for o in first.fixed}
        problems += [f"rewritten tool {o.name} is still {o.risk.name}" for o in second.outcomes
                     if (o.path, o.name) in fixed]
    except Exception:  # noqa: BLE001 - a crash is the finding
        problems.append("crash:\n" + traceback.format_exc())
    return problems
