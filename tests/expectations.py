"""Reads the ``# expect:`` annotations of ``fixtures/`` (see fixtures/README.md).

``# expect: RISK [CODE ...] [name=NAME]`` sits directly above a tool's first decorator, its
``def``, or its dispatch branch; it gives the tool's risk and the exact set of its codes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

EXPECT = re.compile(r"^\s*# expect: (HIGH|MEDIUM|LOW|NONE)((?:\s+TL\d{3})*)(?:\s+name=(\S+))?\s*$")


@dataclass(frozen=True)
class Expected:
    path: str
    line: int  # line of the tool's anchor candidates start here (the line after the comment)
    risk: str
    codes: tuple[str, ...]
    name: str | None


def read_expectations(root: Path, display_root: str) -> list[Expected]:
    out = []
    for path in sorted(root.rglob("*.py")):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            lines = path.read_text(encoding="latin-1").splitlines()
        display = f"{display_root}/{path.relative_to(root).as_posix()}"
        for i, line in enumerate(lines, start=1):
            m = EXPECT.match(line)
            if m:
                codes = tuple(sorted(m.group(2).split()))
                out.append(Expected(display, i + 1, m.group(1), codes, m.group(3)))
    return out


def match_tool(expected: Expected, tools) -> object | None:
    """The reported tool this annotation describes: same file, its line within the decorator
    block that follows the comment (the first tool at or after the comment, within 8 lines)."""
    candidates = [t for t in tools if t.path == expected.path and expected.line <= t.line <= expected.line + 8]
    if expected.name:
        named = [t for t in candidates if t.name == expected.name]
        if named:
            return named[0]
    return min(candidates, key=lambda t: t.line) if candidates else None
