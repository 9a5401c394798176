"""Files shipped with the server's own code: read whole, they are text its authors wrote.

A path built from the module's own location and literal names (``Path(__file__).parent /
"templates.json"``, ``os.path.join(os.path.dirname(__file__), "prompts", "intro.md")``) that
names a file present beside the code is package data: a catalogue of slide templates, a skill's
markdown, a bundled schema. Its size is fixed when the package is built, not by the user's data
(labelling rule 6, "text fixed by the platform rather than the user's data volume"), so reading
it whole is no TL102 source. A path that names no file in the checked tree (a cache, a log or a
database the server writes beside itself at run time) is not package data, and neither is a
directory or a name chosen at run time under one (``SKILLS / f"{name}.md"``): a directory
shipped empty may be where the server keeps what it downloads.

Resolved statically, from the expression and the names it reads: a local bound in the same
function (every binding of it must resolve, a parameter only when its default is ``None``) or a
module-level constant.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence, cast

import libcst as cst

from tokenlint.analysis.constants import keyword_arg, module_constant, string_literal
from tokenlint.source.functions import parameters
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import walk, walk_own

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule

#: Calls that give back the path they are given, normalised (``os.path.abspath(__file__)``).
_SAME_PATH = frozenset({"os.path.abspath", "os.path.realpath", "os.path.normpath", "os.fspath", "str",
                        "pathlib.PurePath"})
#: Calls that join a path with more parts (``os.path.join(here, "data", "x.json")``); given one
#: argument, the path itself (``Path(__file__)``). ``Path`` is the name not imported from pathlib.
_PATH_JOINS = frozenset({"os.path.join", "pathlib.Path", "Path"})
#: Methods of a ``pathlib.Path`` that give back the same path (``Path(__file__).resolve()``).
_SAME_PATH_METHODS = frozenset({"resolve", "absolute", "expanduser"})
#: How deep a path's names are followed (``BASE = ...; DATA = BASE / "data"; p = DATA / name``).
_MAX_DEPTH = 6


def packaged_path(module: ParsedModule, fn: cst.CSTNode | None, expr: cst.BaseExpression,
                  written: Callable[[ParsedModule], frozenset[Path]]) -> Path | None:
    """The file beside ``module``'s code that ``expr`` names (see the module docstring), read in
    function ``fn`` (None at module level); None when ``expr`` is not built from ``__file__`` and
    literals only, names no file present in the checked tree, or names one the module writes
    (``written(module)``: ``written_paths``, memoised by the caller)."""
    resolved = _resolve(module, fn, expr, _MAX_DEPTH)
    if resolved is None:
        return None
    path = Path(os.path.normpath(resolved))
    if not path.is_file() or path == Path(os.path.normpath(module.path)):
        return None
    return None if path in written(module) else path


def written_paths(module: ParsedModule) -> frozenset[Path]:
    """The files beside the code that ``module`` writes (``p.write_text(...)``, ``open(p, "w")``,
    ``p.open("a")``): a shipped ``notes.json`` the server adds to is the user's data, not text
    its authors wrote."""
    out: set[Path] = set()
    scopes: list[tuple[cst.FunctionDef | None, cst.CSTNode]] = [(None, module.tree)]
    scopes += [(n, n.body) for n in walk(module.tree) if isinstance(n, cst.FunctionDef)]
    for fn, body in scopes:
        for n in walk_own(body) if fn is not None else walk_own(body, skip=(cst.FunctionDef, cst.ClassDef)):
            target = _written(n)
            if target is not None:
                resolved = _resolve(module, fn, target, _MAX_DEPTH)
                if resolved is not None:
                    out.add(Path(os.path.normpath(resolved)))
    return frozenset(out)


def _written(node: cst.CSTNode) -> cst.BaseExpression | None:
    """The path a call writes to: the receiver of ``.write_text()``/``.write_bytes()`` or of
    ``.open(mode)``, the first argument of ``open(path, mode)``, for a mode that writes."""
    if not isinstance(node, cst.Call):
        return None
    func = node.func
    positional = [a.value for a in node.args if a.keyword is None]
    if isinstance(func, cst.Attribute) and func.attr.value in ("write_text", "write_bytes"):
        return func.value
    if isinstance(func, cst.Attribute) and func.attr.value == "open":
        target, mode_at = func.value, 0  # ``path.open("w")``
    elif isinstance(func, cst.Name) and func.value == "open" and positional:
        target, mode_at = positional[0], 1  # ``open(path, "w")``
    else:
        return None
    mode = keyword_arg(node, "mode")
    if mode is None and len(positional) > mode_at:
        mode = positional[mode_at]
    text = string_literal(mode) if mode is not None else None
    return target if text is not None and set(text) & set("wax+") else None


def _resolve(module: ParsedModule, fn: cst.CSTNode | None, expr: cst.BaseExpression, depth: int) -> str | None:
    """The path ``expr`` evaluates to, as a string, when only ``__file__``, literals and path
    operations make it; else None."""
    if depth <= 0:
        return None
    if isinstance(expr, cst.Name):
        if expr.value == "__file__":
            return str(module.path)
        return _resolve_name(module, fn, expr.value, depth - 1)
    if isinstance(expr, cst.Attribute) and expr.attr.value == "parent":
        base = _resolve(module, fn, expr.value, depth)
        return os.path.dirname(base) if base is not None else None
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Divide):
        return _joined(module, fn, expr.left, [expr.right], depth)  # ``HERE / "templates.json"``
    if isinstance(expr, cst.Call):
        func = expr.func
        args = [a.value for a in expr.args if a.keyword is None and a.star == ""]
        if isinstance(func, cst.Attribute) and func.attr.value in _SAME_PATH_METHODS and not args:
            return _resolve(module, fn, func.value, depth)
        if isinstance(func, cst.Attribute) and func.attr.value == "joinpath" and args:
            return _joined(module, fn, func.value, args, depth)
        qn = module.imports.qualify(func) or dotted_name(func)
        if qn == "os.path.dirname" and len(args) == 1:
            base = _resolve(module, fn, args[0], depth)
            return os.path.dirname(base) if base is not None else None
        if qn in _SAME_PATH and len(args) == 1:
            return _resolve(module, fn, args[0], depth)
        if qn in _PATH_JOINS and args:
            return _joined(module, fn, args[0], args[1:], depth)
    return None


def _joined(module: ParsedModule, fn: cst.CSTNode | None, base: cst.BaseExpression,
            parts: Sequence[cst.BaseExpression], depth: int) -> str | None:
    """The path ``base`` resolves to joined with the string literals ``parts``; None when
    ``base`` does not resolve or a part is no literal."""
    names = [string_literal(p) for p in parts]
    resolved = _resolve(module, fn, base, depth)
    if resolved is None or any(n is None for n in names):
        return None
    return os.path.join(resolved, *cast("list[str]", names))


def _resolve_name(module: ParsedModule, fn: cst.CSTNode | None, name: str, depth: int) -> str | None:
    """What the name ``name`` holds as a path: every binding of it in ``fn`` (all must agree), or
    the module-level constant."""
    if isinstance(fn, cst.FunctionDef):
        params = {p.name.value: p for p in parameters(fn)}
        values = [n.value for n in walk_own(fn.body) if isinstance(n, cst.Assign)
                  for t in n.targets if isinstance(t.target, cst.Name) and t.target.value == name]
        if values:
            param = params.get(name)
            if param is not None and not (isinstance(param.default, cst.Name) and param.default.value == "None"):
                return None
            found = {_resolve(module, fn, v, depth) for v in values}
            return found.pop() if len(found) == 1 and None not in found else None
        if name in params:
            return None
    value = module_constant(module, name)
    return _resolve(module, None, value, depth) if value is not None else None
