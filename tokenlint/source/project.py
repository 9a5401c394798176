"""Parsed modules of one run and the lookups across them (functions, classes, server objects).

A ``Project`` is built from the files of a run. Files that pass the byte prefilter are parsed up
front; any other module of the run is parsed on demand, when an analysis follows a helper call
into it (``from .helpers import load_all`` in a tool module). Every module is parsed at most once.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import libcst as cst

from tokenlint.run.grouping import module_aliases
from tokenlint.source.imports import ImportTable, dotted_name, module_name_for
from tokenlint.source.parsing import parse_source
from tokenlint.source.positions import Positions
from tokenlint.source.decoding import SourceError, read_source
from tokenlint.source.files import may_define_tools
from tokenlint.source.bindings import module_bindings
from tokenlint.source.walk import walk_with_class


@dataclass(eq=False)
class ParsedModule:
    """One parsed file: its CST, import table and top-level definitions.

    ``display_path`` is the path as the user gave it joined with the file's path below it (the
    JSON contract's ``path``); ``functions`` maps a function's name to its def, where class methods
    are stored as ``Class.method``.
    """

    path: Path
    display_path: str
    module_name: str
    tree: cst.Module = field(repr=False)
    imports: ImportTable
    functions: dict[str, cst.FunctionDef] = field(default_factory=dict)
    classes: dict[str, cst.ClassDef] = field(default_factory=dict)
    stmt_lines: list[int] | None = field(default=None, repr=False)
    member_lines: dict[int, list[int]] | None = field(default=None, repr=False)
    _positions: Positions | None = field(default=None, repr=False)
    _nodes: list | None = field(default=None, repr=False)
    _statement_of: dict[int, int] = field(default_factory=dict, repr=False)
    _order: dict[int, int] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, path: Path, display_path: str, tree: cst.Module, module_name: str | None = None,
              stmt_lines: list[int] | None = None,
              member_lines: dict[int, list[int]] | None = None) -> ParsedModule:
        """Index a parsed module. ``module_name`` defaults to ``module_name_for(path)``;
        ``stmt_lines`` and ``member_lines`` (``parsing.Parsed``) let positions be computed per
        top-level statement and per statement of a top-level class."""
        name = module_name or module_name_for(path)
        imports = ImportTable(tree, name, is_package=path.name == "__init__.py")
        mod = cls(path, display_path, name, tree, imports, stmt_lines=stmt_lines, member_lines=member_lines)
        for stmt in tree.body:
            if isinstance(stmt, cst.FunctionDef):
                mod.functions[stmt.name.value] = stmt
            elif isinstance(stmt, cst.ClassDef):
                mod.classes[stmt.name.value] = stmt
                for item in stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ():
                    if isinstance(item, cst.FunctionDef):
                        mod.functions[f"{stmt.name.value}.{item.name.value}"] = item
        return mod

    @cached_property
    def constants(self) -> dict[str, cst.BaseExpression]:
        """Module-level ``NAME = value`` bindings (``source.bindings.module_bindings``),
        computed from the tree on first use and kept with the module."""
        return module_bindings(self.tree)

    def nodes(self) -> list[tuple[cst.CSTNode, str | None]]:
        """Every code node of the module (no whitespace or punctuation, see ``tokenlint.source.walk``)
        in source order, each with the name of its innermost enclosing class (None outside
        classes). Walked once, on first use, and shared by every discovery pass."""
        if self._nodes is None:
            nodes: list[tuple[cst.CSTNode, str | None]] = [(self.tree, None)]
            statement_of = self._statement_of
            order = self._order
            for i, stmt in enumerate(self.tree.body):
                for pair in walk_with_class(stmt):
                    order[id(pair[0])] = len(nodes)
                    nodes.append(pair)
                    statement_of[id(pair[0])] = i
            self._nodes = nodes
        return self._nodes

    def position(self, node: cst.CSTNode) -> tuple[int, int, int, int]:
        """(line, column, end_line, end_column) of a node: lines 1-based, columns 1-based.

        Positions are resolved once per top-level statement (or statement of a top-level class)
        holding a reported node (``tokenlint.source.positions``), and only for modules that
        report something.
        """
        if self._positions is None:
            self._positions = Positions(self.tree, self.stmt_lines, self.member_lines)
            self.nodes()
        rng = self._positions.get(node, self._statement_of.get(id(node)))
        if rng is None:
            return (1, 1, 1, 1)
        return (rng.start.line, rng.start.column + 1, rng.end.line, rng.end.column + 1)

    def line_of(self, node: cst.CSTNode) -> int:
        """The 1-based line where ``node`` starts (``position``; 1 when the node cannot be
        placed)."""
        return self.position(node)[0]

    def source_order(self, node: cst.CSTNode) -> int:
        """The node's index in ``nodes()`` (source order), for sorting without computing its
        position (positions cost a code generation of the whole enclosing statement)."""
        self.nodes()
        return self._order.get(id(node), -1)


def star_imports(mod: ParsedModule) -> list[str]:
    """The modules a module star-imports at top level (``from .base import *``)."""
    out = []
    for stmt in mod.tree.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar):
                    base = mod.imports._from_base(small)
                    if base:
                        out.append(base)
    return out


def _all_names(mod: ParsedModule) -> list[str] | None:
    """The names of ``mod``'s ``__all__`` when it is bound to a literal list or tuple of string
    literals, else None."""
    value = mod.constants.get("__all__")
    if not isinstance(value, (cst.List, cst.Tuple)):
        return None
    names = [e.value.evaluated_value for e in value.elements if isinstance(e.value, cst.SimpleString)]
    return [n for n in names if isinstance(n, str)] if len(names) == len(value.elements) else None


def _binds(mod: ParsedModule, name: str) -> bool:
    """Whether ``mod`` binds ``name`` at top level itself: a function, a class, an assignment or
    an import (star imports aside)."""
    return name in mod.functions or name in mod.classes or name in mod.constants or name in mod.imports.names


#: An identifier-like word: ``Project.mentions`` finds one among a file's words, not by a search.
_WORD = re.compile(r"\w+")


class Project:
    """All modules of a run, by dotted module name, parsed lazily.

    ``module_files`` maps module names to files for every Python file of the run (prefiltered
    or not); ``parsed`` holds those parsed so far. Parse failures of modules reached only by
    following a helper are silent here: the file itself gets its TL001 when it is checked.
    """

    def __init__(self, module_files: dict[str, tuple[Path, str]],
                 overrides: dict[Path, str] | None = None, aliases: dict[str, str] | None = None) -> None:
        self.module_files = module_files
        #: Other names the code imports run modules by (``run.grouping.module_aliases``; the run
        #: plan computes them once and hands them to each group's project).
        self.aliases = aliases if aliases is not None else module_aliases(module_files)
        self.overrides = overrides or {}
        self.parsed: dict[str, ParsedModule | None] = {}
        #: Every module name looked up (found or not): what an analysis depended on.
        self.looked_up: set[str] = set()
        #: The candidate modules analysed together with this project (``run.grouping``: closed
        #: under their imports); empty when not set, and then every module of the run is one.
        self.members: frozenset[str] = frozenset()
        self._texts: dict[str, str] = {}
        self._words: dict[str, frozenset[str]] = {}

    def add(self, mod: ParsedModule) -> None:
        """Register a module parsed already under its module name (``get`` then never reads it from
        disk)."""
        self.parsed[mod.module_name] = mod
        self._import_star_names(mod)

    def star_qualified(self, mod: ParsedModule, name: str) -> str | None:
        """``base.name`` for a bare ``name`` that nothing in ``mod`` binds (no definition, import,
        top-level binding or builtin) when ``mod`` star-imports a module outside the run
        (``from acme_sdk import *``): that library's name, the last such import winning as at
        run time; None otherwise. The caller rules out locals and enclosing scopes."""
        if not mod.imports.foreign_stars or _binds(mod, name) or hasattr(builtins, name):
            return None
        return f"{mod.imports.foreign_stars[-1]}.{name}"

    def get(self, module_name: str) -> ParsedModule | None:
        """The parsed module named ``module_name`` (an alias of a run module taken as that module),
        read from disk or ``overrides`` and parsed on first request, then cached; None when it is no
        module of the run or cannot be read or parsed (``SourceError`` is swallowed: the file gets
        its TL001 when it is checked itself). Every name asked is added to ``looked_up``."""
        self.looked_up.add(module_name)
        if module_name not in self.module_files and module_name in self.aliases:
            module_name = self.aliases[module_name]
            self.looked_up.add(module_name)
        if module_name in self.parsed:
            return self.parsed[module_name]
        entry = self.module_files.get(module_name)
        mod = None
        if entry is not None:
            path, display = entry
            try:
                text = self.overrides[path] if path in self.overrides else read_source(path)
                parsed = parse_source(text, display)
                mod = ParsedModule.build(path, display, parsed.tree, module_name, parsed.stmt_lines,
                                         parsed.member_lines)
            except SourceError:
                mod = None
        self.parsed[module_name] = mod
        if mod is not None:
            self._import_star_names(mod)
        return mod

    def _import_star_names(self, mod: ParsedModule) -> None:
        """Bind in ``mod``'s import table the names its top-level ``from base import *`` brings in
        (Python Language Reference, "The import statement": the names of ``base.__all__`` when it
        is a literal list or tuple of strings, else every name of ``base`` that does not start
        with an underscore), as an explicit ``from base import name`` would; a name ``mod``
        defines or imports itself keeps its meaning. ``base`` is read (``get``) when it is a
        module of the run; a chain of star imports is followed, a cycle stops."""
        for base in star_imports(mod):
            source = self.get(base)  # (parsed and given its own star names first)
            if source is None and base not in self.module_files and base not in mod.imports.foreign_stars:
                mod.imports.foreign_stars.append(base)  # (a library's names: ``star_qualified``)
            if source is None or source is mod:
                continue
            exported = _all_names(source)
            if exported is None:
                exported = [n for n in (*source.functions, *source.classes, *source.constants, *source.imports.names)
                            if "." not in n and not n.startswith("_")]
            for name in exported:
                if not _binds(mod, name):
                    mod.imports.names[name] = source.imports.names.get(name) or f"{base}.{name}"

    def mentions(self, module_name: str, word: str) -> bool:
        """Whether the run's file of ``module_name`` holds the identifier ``word`` anywhere (a
        text test before a parse: a module that never spells a function's name cannot call
        it). The name is added to ``looked_up`` whatever the answer, so that a cached result that
        asked stays valid only while the file is unchanged; False for no such module or a file
        that cannot be read."""
        text = self._text(module_name)
        if text is None:
            return False
        if not _WORD.fullmatch(word):
            return re.search(rf"\b{re.escape(word)}\b", text) is not None
        spelled = self._words.get(module_name)
        if spelled is None:  # (the file's identifiers, once: a set lookup per name asked)
            spelled = self._words[module_name] = frozenset(_WORD.findall(text))
        return word in spelled

    def may_define_tools(self, module_name: str) -> bool:
        """Whether the run's file of ``module_name`` passes the byte prefilter
        (``source.files.may_define_tools``), so that its tools are looked for when it is
        checked; False for no such module or a file that cannot be read. Recorded in
        ``looked_up`` like ``mentions``."""
        text = self._text(module_name)
        return text is not None and may_define_tools(text.encode("utf-8", errors="replace"))

    def _text(self, module_name: str) -> str | None:
        """The text of the run's file of ``module_name`` ("" when it cannot be read), each file
        read once; None for no module of the run. Adds the name to ``looked_up``."""
        self.looked_up.add(module_name)
        mod = self.parsed.get(module_name)
        entry = self.module_files.get(module_name)
        if mod is None and entry is None:
            return None
        text = self._texts.get(module_name)
        if text is None:
            try:
                if mod is not None:
                    text = mod.tree.code
                else:
                    assert entry is not None
                    text = self.overrides[entry[0]] if entry[0] in self.overrides else read_source(entry[0])
            except SourceError:
                text = ""
            self._texts[module_name] = text  # (each file read once however many names are asked)
        return text

    def resolve_class(self, qualified: str) -> tuple[ParsedModule, str] | None:
        """``(module, class name)`` of the run's class ``qualified`` names (re-exports followed,
        see ``_follow``); None when it is no class of the run."""
        return self._follow(qualified, lambda mod, name: (mod, name) if name in mod.classes else None)

    def _follow(self, qualified: str, pick):
        """``pick(module, name)`` of what ``qualified`` names, following up to three re-exports
        (``from .search import handle_search`` in a package ``__init__``), also through
        ``from .base import *`` (``serena.tools.Tool`` defined in ``serena.tools.tools_base``);
        None when it names nothing ``pick`` accepts."""
        seen = {qualified}
        for _ in range(4):
            hit = self.resolve(qualified)
            if hit is None:
                return None
            mod, name = hit
            found = pick(mod, name)
            if found is not None:
                return found
            head, _, rest = name.partition(".")
            target = mod.imports.names.get(head)
            alias = mod.constants.get(name) if target is None and not rest else None
            if isinstance(alias, (cst.Name, cst.Attribute)):
                # ``_impl = list_nodes``: a module-level alias of a function (of this module, or
                # imported)
                target = mod.imports.qualify(alias) or f"{mod.module_name}.{dotted_name(alias)}"
            if target is None and not rest:
                target = next((f"{star}.{name}" for star in star_imports(mod)
                               if (inner := self.resolve(f"{star}.{name}")) is not None
                               and pick(*inner) is not None), None)
            if target is None:
                return None
            qualified = f"{target}.{rest}" if rest else target
            if qualified in seen:
                return None
            seen.add(qualified)
        return None

    def resolve(self, qualified: str) -> tuple[ParsedModule, str] | None:
        """Split ``pkg.mod.name`` (or ``pkg.mod.Class.method``) into a parsed module and the
        name inside it, trying the longest module prefix first."""
        parts = qualified.split(".")
        for i in range(len(parts) - 1, 0, -1):
            modname = ".".join(parts[:i])
            self.looked_up.add(modname)
            if modname in self.module_files or modname in self.parsed or modname in self.aliases:
                mod = self.get(modname)
                if mod is not None:
                    return mod, ".".join(parts[i:])
        return None

    def find_constant(self, qualified: str) -> cst.BaseExpression | None:
        """The value a module of the run binds at its top level to the name ``qualified`` names
        (``pkg.lsp.COMPLETION_KIND``; re-exports followed, ``_follow``), or None."""
        return self._follow(qualified, lambda mod, name: mod.constants.get(name))

    def find_function(self, qualified: str) -> tuple[ParsedModule, cst.FunctionDef] | None:
        """The def named by ``pkg.mod.func`` (or ``pkg.mod.Class.method``), re-exports followed
        (``_follow``)."""
        return self._follow(qualified, lambda mod, name: (mod, mod.functions[name]) if name in mod.functions else None)

    def function_called(self, mod: ParsedModule, func: cst.BaseExpression) -> tuple[ParsedModule, cst.FunctionDef] | None:
        """The def of the run a call of ``func`` written in ``mod`` reaches: a function of ``mod``
        by its bare name, else the one ``mod``'s imports name (``find_function``); None for a
        call of anything else (a method, a library)."""
        if isinstance(func, cst.Name) and func.value in mod.functions:
            return mod, mod.functions[func.value]
        qualified = mod.imports.qualify(func)
        return self.find_function(qualified) if qualified else None
