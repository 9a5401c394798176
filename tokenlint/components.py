"""Which candidate files must be analysed together: groups closed under cross-module lookups.

Tool discovery is cross-module: a server created in ``server.py`` gets its tools in
``tools.py`` (``from .server import mcp``), a subclass or a ``mount`` prefix lives in a third
module, and a name may be re-exported through modules that mention no MCP word at all
(``from .compat import app``). Everything a module's discovery can consult is reached through
its import statements, in at most four steps (the import itself, then up to three re-exports:
``ServerRegistry._reexports``). So candidates that can reach one another that way are put in one
group, and each group is analysed on its own — in one process or another, cached or not, with
the same result, because a group's result depends only on its members and the modules it reads.

Imports are found by a byte regex, not a parse (the groups are needed before anything is
parsed, and again on a warm run that parses nothing). It over-approximates: an ``import`` in a
string or comment adds an edge, ``from pkg import x`` reaches every module of ``pkg``, a plain
``import pkg`` every module below it. Extra edges only make groups larger, never wrong.
"""

from __future__ import annotations

import bisect
import re
from typing import Callable, Iterable

#: Whitespace inside an import statement, including backslash continuations.
_WS = rb"(?:[ \t]|\\\r?\n)"
_DOTTED = rb"(?:[\w.]|[\x80-\xff])+"
_IMPORT = re.compile(
    rb"(?:^|[;:])" + _WS + rb"*(?:from" + _WS + rb"+(\.*)" + _WS + rb"*(" + _DOTTED + rb")?" + _WS
    + rb"+import\b|import" + _WS + rb"+(" + _DOTTED + rb"(?:" + _WS + rb"+as" + _WS + rb"+" + _DOTTED
    + rb")?(?:" + _WS + rb"*," + _WS + rb"*" + _DOTTED + rb"(?:" + _WS + rb"+as" + _WS + rb"+" + _DOTTED
    + rb")?)*))",
    re.M,
)
_AS = re.compile(rb"(?:[ \t]|\\\r?\n)+as(?:[ \t]|\\\r?\n)+")

#: Steps an import chain may take: the import, then ``_reexports``' three re-exports.
MAX_HOPS = 4

#: ``(level, module)`` of an import: ``from ..pkg import x`` → (2, "pkg"), ``import a.b`` →
#: (0, "a.b"); ``level`` -1 marks a plain ``import`` (every submodule is reachable through it).
Import = tuple[int, str]


def scan_imports(data: bytes) -> list[Import]:
    """Every import statement of a source file, found by regex (see the module docstring)."""
    out: list[Import] = []
    for m in _IMPORT.finditer(data):
        dots, module, names = m.group(1), m.group(2), m.group(3)
        if names is None:
            out.append((len(dots or b""), _text(module or b"")))
            continue
        for part in names.split(b","):
            name = _AS.split(part.strip(b" \t\\\r\n"))[0].strip()
            if name:
                out.append((-1, _text(name)))
    return out


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").strip(".")


class ModuleIndex:
    """The run's module names, sorted, answering "which run modules can this import reach"."""

    def __init__(self, names: Iterable[str], packages: set[str]) -> None:
        self.names = sorted(set(names))
        self.known = set(self.names)
        self.packages = packages  # module names that are packages (``__init__.py``)

    def below(self, prefix: str) -> list[str]:
        """Run modules named ``prefix.<something>``."""
        start = bisect.bisect_left(self.names, prefix + ".")
        end = bisect.bisect_left(self.names, prefix + "/")  # "/" sorts right after "."
        return self.names[start:end]

    def reached(self, importer: str, imp: Import) -> list[str]:
        """The run modules a name bound by ``imp`` in module ``importer`` can resolve into."""
        level, module = imp
        if level > 0:
            package = importer if importer in self.packages else importer.rpartition(".")[0]
            parts = package.split(".") if package else []
            if level - 1 > len(parts):
                return []
            base = ".".join([*parts[: len(parts) - (level - 1)], *([module] if module else [])])
        elif level < 0:  # ``import a.b [as x]``: ``a.<anything>`` is reachable through the name
            base = module.partition(".")[0] if module else ""
        else:
            base = module
        if not base:
            return []
        out = [p for p in _prefixes(base) if p in self.known]
        out.extend(self.below(base))
        return out


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def group(
    candidates: list[str],
    index: ModuleIndex,
    imports_of: Callable[[str], list[Import]],
) -> list[list[int]]:
    """Partition ``candidates`` (module names, one per candidate file, in run order) into groups
    of indices: two candidates share a group when one can reach the other through at most
    ``MAX_HOPS`` import steps over any modules of the run. Groups come in the order of their
    first member, members in run order. ``imports_of(name)`` scans one run module's imports."""
    parent = list(range(len(candidates)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_name: dict[str, list[int]] = {}
    for i, name in enumerate(candidates):
        by_name.setdefault(name, []).append(i)
    for same in by_name.values():  # files with one module name (two `tests` packages) stay together
        for j in same[1:]:
            parent[find(j)] = find(same[0])
    edges: dict[str, set[str]] = {}

    def targets(name: str) -> set[str]:
        hit = edges.get(name)
        if hit is None:
            hit = set()
            for imp in imports_of(name):
                hit.update(index.reached(name, imp))
            edges[name] = hit
        return hit

    for i, name in enumerate(candidates):
        seen = {name}
        frontier = [name]
        for _ in range(MAX_HOPS):
            nxt = []
            for m in frontier:
                for t in targets(m):
                    if t not in seen:
                        seen.add(t)
                        nxt.append(t)
            frontier = nxt
            if not frontier:
                break
        for t in seen:
            for j in by_name.get(t, ()):
                a, b = find(i), find(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(candidates)):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])
