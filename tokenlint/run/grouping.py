"""Which candidate files must be analysed together: groups closed under cross-module lookups.

Tool discovery is cross-module: a server created in ``server.py`` gets its tools in
``tools.py`` (``from .server import mcp``), a subclass or a ``mount`` prefix lives in a third
module, and a name may be re-exported through modules that mention no MCP word at all
(``from .compat import app``). Everything a module's discovery can consult is reached through
its import statements, in at most four steps (the import itself, then up to three re-exports:
``ServerRegistry._reexports``), through modules of the candidates' own top-level packages. So
candidates that can reach one another that way are put in one group, and each group is analysed on its own — in one process or another, cached or not, with
the same result, because a group's result depends only on its members and the modules it reads.

Imports are found by a byte regex, not a parse (the groups are needed before anything is
parsed, and again on a warm run that parses nothing). It over-approximates: an ``import`` in a
string or comment adds an edge, ``from pkg import x`` reaches ``pkg``, its parents and every
module below ``pkg.x``, a plain ``import pkg.sub`` every module below ``pkg``. Extra edges only
make groups larger, never wrong.
"""

from __future__ import annotations

import bisect
import os
import re
from pathlib import Path
from typing import Callable, Iterable, Mapping

#: Whitespace inside an import statement, including backslash continuations.
_WS = rb"(?:[ \t]|\\\r?\n)"
_DOTTED = rb"(?:[\w.]|[\x80-\xff])+"
#: What may stand between the start of a statement (line start, ``;`` or ``:``) and ``import``.
_FROM = re.compile(rb"[ \t]*from" + _WS + rb"+(\.*)" + _WS + rb"*(" + _DOTTED + rb")?" + _WS + rb"+$")
#: What follows ``from ... import``: a parenthesized list, or the rest of the logical line.
_FROM_NAMES = re.compile(_WS + rb"*(\([^)]*\)|(?:[^\n\\;#]|\\\r?\n)*)")
#: What follows a plain ``import``: dotted names with optional aliases, comma-separated.
_PLAIN = re.compile(_WS + rb"+(" + _DOTTED + rb"(?:" + _WS + rb"+as" + _WS + rb"+" + _DOTTED + rb")?(?:" + _WS
                    + rb"*," + _WS + rb"*" + _DOTTED + rb"(?:" + _WS + rb"+as" + _WS + rb"+" + _DOTTED + rb")?)*)")
_AS = re.compile(rb"(?:[ \t]|\\\r?\n)+as(?:[ \t]|\\\r?\n)+")
_COMMENT = re.compile(rb"#[^\n]*")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")

#: Steps an import chain may take: the import, then ``_reexports``' three re-exports.
MAX_HOPS = 4

#: ``(level, module, names)`` of an import: ``from ..pkg import x, y`` → (2, "pkg", ("x", "y")),
#: ``import a.b`` → (0, "a.b", None) (a plain import binds ``a``: every ``a.*`` is reachable).
Import = tuple[int, str, "tuple[str, ...] | None"]


def scan_imports(data: bytes) -> list[Import]:
    """Every import statement of a source file, found without parsing (see the module
    docstring): each word ``import`` is found with ``bytes.find``, then the statement around
    it is read with small anchored patterns."""
    out: list[Import] = []
    i = data.find(b"import")
    while i != -1:
        end = i + 6
        if (i == 0 or data[i - 1] not in _WORD) and (end == len(data) or data[end] not in _WORD):
            _statement(data, i, end, out)
        i = data.find(b"import", end)
    return out


def _statement(data: bytes, i: int, end: int, out: list[Import]) -> None:
    start = data.rfind(b"\n", 0, i) + 1
    while (start >= 2 and data[start - 2:start] == b"\\\n") or (start >= 3 and data[start - 3:start] == b"\\\r\n"):
        start = data.rfind(b"\n", 0, start - 2) + 1  # a backslash-continued line: its start
    head = data[start:i]
    cut = max(head.rfind(b";"), head.rfind(b":"))
    if cut != -1:
        head = head[cut + 1:]
    if not head.strip(b" \t"):
        m = _PLAIN.match(data, end)
        if m is None:
            return
        for part in m.group(1).split(b","):
            name = _AS.split(part.strip(b" \t\\\r\n"))[0].strip()
            if name:
                out.append((0, _text(name), None))
        return
    m = _FROM.match(head)
    if m is None:
        return
    names = _FROM_NAMES.match(data, end)
    listed = _COMMENT.sub(b"", names.group(1) if names else b"").strip().strip(b"()")
    imported = []
    for part in listed.replace(b"\\", b" ").split(b","):
        name = _AS.split(part.strip())[0].strip()
        if name:
            imported.append(_text(name))
    out.append((len(m.group(1) or b""), _text(m.group(2) or b""), tuple(imported)))


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").strip(". \t\r\n")


def module_aliases(module_files: Mapping[str, "tuple[Path, str]"]) -> dict[str, str]:
    """Other dotted names under which the code itself imports a run module: ``{alias: name}``.

    A module's name comes from its ``__init__.py`` packages (``plan.ModuleNamer``), but real
    layouts break that rule both ways: a top-level package without ``__init__.py``
    (``src/excel_mcp/workbook.py`` is named ``workbook``, and imported as
    ``excel_mcp.workbook``), and a source root with a stray ``__init__.py`` (``src/pkg/core.py``
    is named ``src.pkg.core``, and imported as ``pkg.core``). So each module also answers to its
    name with up to two enclosing directories added, and with up to two leading packages
    dropped (at least two parts left). An alias two modules share is dropped; a module's own
    name always wins over an alias (callers look an alias up only when a name is not found).
    """
    out: dict[str, str] = {}
    clash: set[str] = set()
    for name, (path, _display) in module_files.items():
        parts = os.path.abspath(path).split(os.sep)
        stem = parts[-1].rpartition(".")[0] or parts[-1]
        parts = parts[:-1] if stem == "__init__" else [*parts[:-1], stem]
        n = name.count(".") + 1
        if ".".join(parts[-n:]) != name:
            continue  # a name not made from its path (an override): no alias
        aliases = [".".join(parts[-k:]) for k in range(n + 1, min(n + 2, len(parts) - 1) + 1)
                   if all(p.isidentifier() for p in parts[-k:])]
        aliases += [".".join(parts[-k:]) for k in range(max(2, n - 2), n)]
        for alias in aliases:
            if alias in module_files or alias in clash:
                continue
            if out.setdefault(alias, name) != name:
                del out[alias]
                clash.add(alias)
    return out


class ModuleIndex:
    """The run's module names, sorted, answering "which run modules can this import reach"."""

    def __init__(self, names: Iterable[str], packages: set[str], aliases: Mapping[str, str] | None = None) -> None:
        self.names = sorted(set(names))
        self.known = set(self.names)
        self.packages = packages  # module names that are packages (``__init__.py``)
        #: Other names the code imports run modules by (``module_aliases``).
        self.aliases = aliases or {}

    def canonical(self, name: str) -> str | None:
        """The run module ``name`` denotes, directly or through an alias; None if none."""
        return name if name in self.known else self.aliases.get(name)

    def below(self, prefix: str) -> list[str]:
        """Run modules named ``prefix.<something>``."""
        start = bisect.bisect_left(self.names, prefix + ".")
        end = bisect.bisect_left(self.names, prefix + "/")  # "/" sorts right after "."
        return self.names[start:end]

    def reached(self, importer: str, imp: Import) -> list[str]:
        """The run modules a name bound by ``imp`` in module ``importer`` can resolve into:
        the imported module and its parents, each imported name as a module and below it; for a
        plain ``import a.b``, every module below ``a``."""
        level, module, names = imp
        if level > 0:
            package = importer if importer in self.packages else importer.rpartition(".")[0]
            parts = package.split(".") if package else []
            if level - 1 > len(parts):
                return []
            base = ".".join([*parts[: len(parts) - (level - 1)], *([module] if module else [])])
        else:
            base = module
        if not base:
            return []
        out = [c for c in map(self.canonical, _prefixes(base)) if c is not None]
        if names is None:
            out.extend(self.below(base.partition(".")[0]))
        else:
            for name in names:
                if name == "*":
                    continue
                sub = f"{base}.{name}"
                canonical = self.canonical(sub)
                if canonical is not None:
                    out.append(canonical)
                out.extend(self.below(canonical or sub))
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

    # All candidates' walks at once: ``seen[m]`` has bit i set once candidate i reached module
    # m; each round extends only the bits that arrived in the previous one (a later, longer way
    # to a module can reach nothing the first one did not).
    seen: dict[str, int] = {}
    frontier: dict[str, int] = {}
    for i, name in enumerate(candidates):
        bit = 1 << i
        seen[name] = seen.get(name, 0) | bit
        frontier[name] = frontier.get(name, 0) | bit
    # Re-exports are followed through modules of the candidates' own top-level packages only:
    # a chain through a third package without a single candidate (the standard library, say)
    # is not followed, or a few scattered candidates would drag in the walk of a whole tree.
    homes = {name.partition(".")[0] for name in candidates}
    for _ in range(MAX_HOPS):
        nxt: dict[str, int] = {}
        for m, bits in frontier.items():
            if m not in by_name and m.partition(".")[0] not in homes:
                continue
            for t in targets(m):
                new = bits & ~seen.get(t, 0)
                if new:
                    seen[t] = seen.get(t, 0) | new
                    nxt[t] = nxt.get(t, 0) | new
        frontier = nxt
        if not frontier:
            break
    for name, members in by_name.items():
        bits = seen.get(name, 0)
        while bits:
            low = bits & -bits
            i = low.bit_length() - 1
            bits ^= low
            a, b = find(i), find(members[0])
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(candidates)):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])
