"""Value types that cross module boundaries: frozen, picklable dataclasses and enums.

Positions are 1-based lines and 1-based columns (as ruff and SARIF print them); LibCST's
0-based columns are converted once, where a finding is made.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple


class Risk(enum.IntEnum):
    """One risk level per tool (design.md "Risk levels"); ordered so ``max()`` gives the worst.

    NONE: constant or tiny response. LOW: bounded against a budget *and* the response says how
    to continue. MEDIUM: bounded only by a fixed cap, a caller limit with no maximum, or
    truncated with no continuation. HIGH: grows with external data with no bound at all.
    """

    NONE = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3

    @classmethod
    def parse(cls, text: str) -> Risk:
        """``"high"`` → ``Risk.HIGH``; raises ``ValueError`` naming the valid levels."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown risk level {text!r}; expected one of high, medium, low, none"
            ) from None


class ToolId(NamedTuple):
    """Which tool a finding belongs to: the display ``path`` and 1-based ``line`` of its
    definition (``ToolReport.path``/``line``) and its client-visible ``name``. A finding may sit
    in a helper module; this still names the tool it was reported for."""

    path: str
    line: int
    name: str


@dataclass(frozen=True)
class Finding:
    """One diagnostic: a rule code at a place, optionally inside a tool.

    ``risk`` is what this finding alone implies for its tool (HIGH for an unbounded source,
    MEDIUM for a capped one); the tool's level is the worst of its findings' (risk.py).
    ``tool`` is the tool's client-visible name as reports print it, ``tool_id`` the tool's
    identity (None for findings outside any tool: TL001, TL002).
    """

    code: str
    name: str
    path: str
    line: int
    column: int
    message: str
    tool: str | None = None
    risk: Risk = Risk.MEDIUM
    fixable: bool = False
    end_line: int | None = None
    end_column: int | None = None
    tool_id: ToolId | None = None

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """The report order: path, line, column, code, message."""
        return (self.path, self.line, self.column, self.code, self.message)


@dataclass(frozen=True)
class ToolReport:
    """A discovered tool and its verdict.

    ``name`` is the client-visible tool name (after mount prefixes); ``function`` the Python
    function that implements it (``"<dispatch>"`` handlers keep their own name); ``line`` the
    line of its ``def`` or, for low-level servers, of its dispatch branch. ``untraced`` lists
    the calls into code tokenlint could not read whose results it judged small by name alone
    (empty: the verdict rests on code it followed).
    """

    name: str
    function: str
    path: str
    line: int
    framework: str
    risk: Risk
    findings: tuple[str, ...] = ()
    untraced: tuple[str, ...] = ()

    @property
    def id(self) -> ToolId:
        """This tool's identity, as its findings carry it (``Finding.tool_id``)."""
        return ToolId(self.path, self.line, self.name)


@dataclass(frozen=True)
class CheckResult:
    """The result of a whole run, sorted deterministically (path, line, column, code)."""

    tools: tuple[ToolReport, ...]
    findings: tuple[Finding, ...]
    files_checked: int
    files_parsed: int


@dataclass(frozen=True)
class Valid:
    """A rule example that must produce no finding of that rule (dedented source)."""

    code: str


@dataclass(frozen=True)
class Invalid:
    """A rule example and the exact findings it must produce, as ``"TL101@4"`` strings
    (code and 1-based line), compared as a multiset."""

    code: str
    expect: tuple[str, ...] = field(default_factory=tuple)
