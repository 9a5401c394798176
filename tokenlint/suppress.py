"""Inline suppressions: ``# tokenlint: ignore[TL101, TL201]``.

On a line, the comment suppresses those codes for findings on that line. On a tool's ``def``
line, one of its decorator lines, or its dispatch branch line, it suppresses them for every
finding of that tool. A bare ``# tokenlint: ignore`` without codes suppresses nothing: blanket
suppressions hide the next risk added to the tool.
"""

from __future__ import annotations

import re

SUPPRESSION = re.compile(r"#\s*tokenlint:\s*ignore\[([A-Za-z0-9_,\s]+)\]")


def suppressions(text: str) -> dict[int, frozenset[str]]:
    """Map of 1-based line number → codes suppressed on that line."""
    out: dict[int, frozenset[str]] = {}
    if "tokenlint:" not in text:
        return out
    for lineno, line in enumerate(text.splitlines(), start=1):
        if "tokenlint:" not in line:
            continue
        codes: set[str] = set()
        for m in SUPPRESSION.finditer(line):
            codes.update(c.strip().upper() for c in m.group(1).split(",") if c.strip())
        if codes:
            out[lineno] = frozenset(codes)
    return out
