"""Baselines: accept today's findings, fail only on new ones (``--write-baseline``/``--baseline``).

A baseline file records, for each ``(path, tool, code)``, how many findings there were, with no
line numbers, so editing a file above a known finding does not make it new (bandit's identity
without lines). A finding is new when its key's count now exceeds the recorded count: a second
``fetchall()`` added to a tool that already had one is reported (bandit's membership test would
hide it). Which of the equal findings is reported as new is the last ones in file order.

Paths are stored relative to the baseline file's directory, in POSIX form, so a baseline works
whatever directory tokenlint runs from. The file is JSON with sorted entries and a trailing
newline, so a diff of it reviews well::

    {
      "tokenlint-baseline": 1,
      "findings": [
        {"path": "src/app/server.py", "tool": "list_users", "code": "TL101", "count": 1}
      ]
    }
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from tokenlint.model import CheckResult, Finding

FORMAT_VERSION = 1

Key = tuple[str, str, str]  # (path relative to the baseline's directory, tool or "", code)


class BaselineError(Exception):
    """A baseline file that cannot be read or is not a tokenlint baseline (exit code 2)."""


@dataclass(frozen=True)
class Filtered:
    """``result`` with only the new findings, and how many known findings were left out."""

    result: CheckResult
    known: int


def _key(f: Finding, base: Path) -> Key:
    path = os.path.relpath(os.path.abspath(f.path), base).replace(os.sep, "/")
    return (path, f.tool or "", f.code)


def _base(baseline_file: str | os.PathLike) -> Path:
    return Path(os.path.abspath(baseline_file)).parent


def counts(findings: tuple[Finding, ...] | list[Finding], baseline_file: str | os.PathLike) -> Counter[Key]:
    """How many findings there are per key, paths relative to ``baseline_file``'s directory."""
    base = _base(baseline_file)
    return Counter(_key(f, base) for f in findings)


def dumps(findings, baseline_file: str | os.PathLike) -> str:
    """The baseline file's text for ``findings`` (sorted, stable, newline-terminated)."""
    entries = [
        {"path": path, "tool": tool or None, "code": code, "count": n}
        for (path, tool, code), n in sorted(counts(findings, baseline_file).items())
    ]
    return json.dumps({"tokenlint-baseline": FORMAT_VERSION, "findings": entries}, indent=2) + "\n"


def write(findings, baseline_file: str | os.PathLike) -> None:
    """Write the baseline of ``findings`` to ``baseline_file`` (parents created). Raises
    ``BaselineError`` when it cannot be written."""
    path = Path(baseline_file)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(findings, path), encoding="utf-8")
    except OSError as exc:
        raise BaselineError(f"{path}: cannot write baseline: {exc.strerror or exc}") from None


def load(baseline_file: str | os.PathLike) -> Counter[Key]:
    """The recorded counts of ``baseline_file``. Raises ``BaselineError`` naming the file when
    it is missing, not JSON, or not a tokenlint baseline."""
    path = Path(baseline_file)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read baseline: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path}: not a tokenlint baseline (invalid JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("tokenlint-baseline") != FORMAT_VERSION:
        raise BaselineError(
            f"{path}: not a tokenlint baseline (expected \"tokenlint-baseline\": {FORMAT_VERSION}); "
            "write one with --write-baseline"
        )
    known: Counter[Key] = Counter()
    for entry in data.get("findings", []):
        try:
            key = (str(entry["path"]), str(entry["tool"] or ""), str(entry["code"]))
            n = int(entry["count"])
        except (KeyError, TypeError, ValueError):
            raise BaselineError(f"{path}: malformed entry {entry!r}") from None
        known[key] += n
    return known


def filter_new(result: CheckResult, known: Counter[Key], baseline_file: str | os.PathLike) -> Filtered:
    """``result`` keeping, per key, only the findings beyond the recorded count (the last ones
    in path/line/column order). Tools are kept as they are: the risk table stays complete."""
    base = _base(baseline_file)
    seen: Counter[Key] = Counter()
    new: list[Finding] = []
    for f in result.findings:
        key = _key(f, base)
        seen[key] += 1
        if seen[key] > known.get(key, 0):
            new.append(f)
    return Filtered(replace(result, findings=tuple(new)), len(result.findings) - len(new))
