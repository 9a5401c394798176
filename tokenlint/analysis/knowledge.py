"""What a user tells tokenlint about libraries it cannot read, as data: ``extra-sources`` and
``extra-bounds`` in ``[tool.tokenlint]``.

An entry names calls by an *access path* and says what their result is:

- ``extra-sources = { "warehouse.fetch_everything" = "TL101" }``: the call's result grows with
  data (a source of that rule: TL101 rows, TL102 a file, ..., TL108 anything else);
- ``extra-bounds = ["warehouse.first_page"]``: the call's result is bounded (a fixed cap).

A path matches a call when it equals, or matches as a glob (``fnmatch``: ``*``, ``?``, ``[..]``),
one of the names the call is known by:

- the qualified name of a function (``warehouse.fetch_everything``, however it was imported);
- ``<class>.<method>`` for a method of an object whose class or factory tokenlint knows
  (``acme_sdk.Client.list_widgets`` for ``client = acme_sdk.Client(); client.list_widgets()``,
  or a project class set on ``self``);
- the call as written (``db.fetch_everything``), so ``*.fetch_everything`` matches that method on
  any receiver.

User knowledge wins over everything tokenlint would infer. An entry that matched no call in a
run is reported by ``tokenlint check`` (a typo, or a library the code no longer calls). The
anchor for the idea is CodeQL's models-as-data for Python (``sourceModel`` rows with access
paths such as ``Member[client].Member[query].ReturnValue``), here reduced to dotted paths.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Iterable

_GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class KnowledgeEntry:
    """One configured access path: ``kind`` is ``"source"`` (with the rule ``code`` of the data it
    returns) or ``"bound"`` (``code`` None)."""

    pattern: str
    kind: str
    code: str | None = None


@dataclass
class Knowledge:
    """The configured entries of a run and which of them matched a call (``matched``, patterns).

    ``lookup(names)`` returns the entry for the first name that matches, sources before bounds;
    exact paths are a dict lookup, globs are tried in configuration order."""

    exact: dict[str, KnowledgeEntry] = field(default_factory=dict)
    globs: list[KnowledgeEntry] = field(default_factory=list)
    matched: set[str] = field(default_factory=set)

    @classmethod
    def from_settings(cls, extra_sources: dict[str, str], extra_bounds: Iterable[str]) -> Knowledge:
        """Entries from ``Settings.extra_sources`` (path → rule code) and ``extra_bounds``."""
        kb = cls()
        entries = [KnowledgeEntry(p, "source", code) for p, code in extra_sources.items()]
        entries += [KnowledgeEntry(p, "bound") for p in sorted(extra_bounds) if p not in extra_sources]
        for entry in entries:
            if _GLOB_CHARS & set(entry.pattern):
                kb.globs.append(entry)
            else:
                kb.exact.setdefault(entry.pattern, entry)
        return kb

    def __bool__(self) -> bool:
        return bool(self.exact or self.globs)

    @property
    def patterns(self) -> list[str]:
        """Every configured path, in configuration order."""
        return [*self.exact, *(e.pattern for e in self.globs)]

    def lookup(self, names: Iterable[str | None]) -> KnowledgeEntry | None:
        """The entry matching one of a call's ``names`` (None entries are skipped), or None;
        a match is recorded in ``matched``."""
        given = [n for n in names if n]
        for n in given:
            entry = self.exact.get(n)
            if entry is not None:
                self.matched.add(entry.pattern)
                return entry
        for entry in self.globs:
            if any(fnmatch.fnmatchcase(n, entry.pattern) for n in given):
                self.matched.add(entry.pattern)
                return entry
        return None


def unmatched_entries(extra_sources: dict[str, str], extra_bounds: Iterable[str],
                      matched: Iterable[str]) -> list[str]:
    """The configured paths that matched no call in a run, as ``"extra-sources `p`"`` /
    ``"extra-bounds `p`"`` labels in configuration order."""
    seen = set(matched)
    out = [f"extra-sources `{p}`" for p in extra_sources if p not in seen]
    out += [f"extra-bounds `{p}`" for p in sorted(extra_bounds) if p not in seen and p not in extra_sources]
    return out
