"""Name resolution through a module's own import statements (the "import table").

design.md, Performance notes: LibCST's ``QualifiedNameProvider`` costs about 10x the parse over a
whole module. Tool discovery only needs the qualified names of a handful of expressions
(``FastMCP``, ``fm.FastMCP``, ``subprocess.run``), and a table built from the module's import
statements answers those exactly as the provider would for names bound by imports, at the cost of
one pass over the module's statements.

Scope: imports anywhere in the module (top level, inside functions, inside ``try``) go into one
table; a name imported inside one function and shadowed by an unrelated local elsewhere is the
only case this merges that ``ScopeProvider`` would not.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from tokenlint.source.files import importable_name
from tokenlint.source.walk import code_children


def dotted_name(node: cst.BaseExpression | None) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def module_name_for(path: Path) -> str:
    """The dotted module name of a file, found by walking up through ``__init__.py`` packages.

    ``src/pkg/sub/mod.py`` with ``__init__.py`` in ``pkg`` and ``sub`` → ``pkg.sub.mod``;
    a package's ``__init__.py`` is the package itself; a loose script is its stem. A directory
    without ``__init__.py`` inside a package (a PEP 420 namespace subpackage:
    ``pkg/tools/cache.py`` under ``pkg/__init__.py``) is part of the name too, when a package
    lies at most two levels above it. A directory whose name is no identifier (``pkg-1.2``)
    is never part of the name, whatever it holds.
    """
    try:
        path = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop (its read fails later, as a TL001)
        path = path.absolute()
    parts = [] if path.name == "__init__.py" else [path.stem]
    parent = path.parent
    while parent.parent != parent:
        if not importable_name(parent.name):
            break  # no import can name it (``mcp_server-1.0/__init__.py`` at an sdist's root)
        if not (parent / "__init__.py").is_file() and not _inside_package(parent):
            break
        parts.append(parent.name)
        parent = parent.parent
    return ".".join(reversed(parts)) or path.stem


def _inside_package(directory: Path, levels: int = 2) -> bool:
    """Whether a regular package (a directory with ``__init__.py``) encloses ``directory``
    within ``levels`` levels above it."""
    probe = directory.parent
    for _ in range(levels):
        if (probe / "__init__.py").is_file():
            return True
        if probe.parent == probe:
            return False
        probe = probe.parent
    return False


def _attr_to_str(node: cst.BaseExpression) -> str:
    name = dotted_name(node)
    return name or ""


class ImportTable:
    """Maps local names to the qualified names they were imported as.

    ``from mcp.server.fastmcp import FastMCP as App`` → ``App`` ↦ ``mcp.server.fastmcp.FastMCP``;
    ``import mcp.server.fastmcp as fm`` → ``fm`` ↦ ``mcp.server.fastmcp``;
    ``import os.path`` → ``os`` ↦ ``os``; ``from .server import mcp`` in package ``pkg`` →
    ``mcp`` ↦ ``pkg.server.mcp``.
    """

    def __init__(self, module: cst.Module, module_name: str, is_package: bool = False) -> None:
        self.module_name = module_name
        package = module_name if is_package else module_name.rpartition(".")[0]
        self.package = package
        self.names: dict[str, str] = {}
        #: Modules outside the run this module star-imports at top level (``from acme_sdk import
        #: *``), in source order; set by ``Project`` (``_import_star_names``), whose names are
        #: unknown here.
        self.foreign_stars: list[str] = []
        for node in _iter_imports(module):
            if isinstance(node, cst.Import):
                for alias in node.names:
                    full = _attr_to_str(alias.name)
                    if alias.asname is not None:
                        local = _attr_to_str(alias.asname.name)
                        self.names[local] = full
                    else:
                        top = full.split(".")[0]
                        self.names.setdefault(top, top)
            else:
                base = self._from_base(node)
                if base is None or isinstance(node.names, cst.ImportStar):
                    continue
                for alias in node.names:
                    name = _attr_to_str(alias.name)
                    local = _attr_to_str(alias.asname.name) if alias.asname else name
                    self.names[local] = f"{base}.{name}" if base else name

    def _from_base(self, node: cst.ImportFrom) -> str | None:
        mod = _attr_to_str(node.module) if node.module is not None else ""
        level = len(node.relative)
        if level == 0:
            return mod
        pkg_parts = self.package.split(".") if self.package else []
        if level - 1 > len(pkg_parts):
            return None
        base_parts = pkg_parts[: len(pkg_parts) - (level - 1)]
        if mod:
            base_parts.append(mod)
        return ".".join(base_parts)

    def qualify(self, node: cst.BaseExpression | None) -> str | None:
        """The qualified name of a Name/Attribute chain whose head was imported, else None."""
        name = dotted_name(node)
        if name is None:
            return None
        return self.qualify_dotted(name)

    def qualify_dotted(self, name: str) -> str | None:
        """``name`` (a dotted name as written: ``np.linalg.norm``) with its first part replaced by
        what that part was imported as (``numpy.linalg.norm``); None when the first part was not
        imported."""
        head, _, rest = name.partition(".")
        target = self.names.get(head)
        if target is None:
            return None
        return f"{target}.{rest}" if rest else target


def _iter_imports(module: cst.Module):
    """Every Import/ImportFrom statement in the module, at any depth (iterative walk)."""
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            yield node
            continue
        if isinstance(node, (cst.BaseExpression,)):
            continue
        stack.extend(reversed(code_children(node)))
