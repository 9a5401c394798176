"""Module-level bindings of a parsed file: what each top-level ``NAME = value`` (and each class
attribute) is bound to, read from the syntax alone (``ParsedModule.constants``)."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import walk, walk_own


def module_bindings(tree: cst.Module) -> dict[str, cst.BaseExpression]:
    """``{name: value expression}`` of the module's top-level assignments (``MAX_ROWS = 500``,
    ``client = Client()``; a dotted target such as ``app.state`` keeps its dots) and of its
    classes' attributes (the first binding of a name wins there, a module-level one over them).

    A module-level ``name = None`` that a top-level function sets with ``global name`` at
    start-up is bound to the call that function assigns (``_set_by_global``), since that is the
    object every later use sees. Never raises."""
    table: dict[str, cst.BaseExpression] = {}
    for stmt in tree.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    name = dotted_name(small.targets[0].target)
                    if name:
                        table[name] = small.value
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    name = dotted_name(small.target)
                    if name:
                        table[name] = small.value
        elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
            for inner in stmt.body.body:
                if isinstance(inner, cst.SimpleStatementLine):
                    for small in inner.body:
                        if isinstance(small, (cst.Assign, cst.AnnAssign)):
                            target = small.targets[0].target if isinstance(small, cst.Assign) else small.target
                            name = dotted_name(target)
                            if name and small.value is not None:
                                table.setdefault(name, small.value)
    lazy = {n for n, v in table.items() if isinstance(v, cst.Name) and v.value == "None"}
    if lazy:
        for name, value in {**_set_in_blocks(tree, lazy), **_set_by_global(tree, lazy)}.items():
            if isinstance(value, cst.Name) and isinstance(table.get(value.value), cst.Call):
                value = table[value.value]  # ``client = bot`` with ``bot = Bot(...)`` at module level
            if isinstance(value, cst.Call):
                table[name] = value
            else:
                del table[name]  # set at run time to something unknown: not the ``None`` it starts as
    return table


def _set_in_blocks(tree: cst.Module, names: set[str]) -> dict[str, cst.BaseExpression]:
    """A module-level ``client = None`` set by a top-level block when configured: ``if URL:
    try: client = Remote(URL) except ...: ...`` (also ``with``). The first call assigned to each
    of ``names`` in such a block, by name: the object every tool uses once the server is
    configured (the ``None`` is the unconfigured server, which serves nothing)."""
    out: dict[str, cst.BaseExpression] = {}
    for stmt in tree.body:
        if not isinstance(stmt, (cst.If, cst.Try, cst.With)):
            continue
        for name, value in _assignments(walk_own(stmt)):
            if name in names and isinstance(value, cst.Call):
                out.setdefault(name, value)
    return out


def _assignments(nodes) -> Iterator[tuple[str, cst.BaseExpression]]:
    """``(name, value)`` of each ``name = value`` / ``name: T = value`` among ``nodes``, an
    awaited value unwrapped (``client = await connect()``: the call)."""
    for node in nodes:
        if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            value = node.value.expression if isinstance(node.value, cst.Await) else node.value
            for target in targets:
                if isinstance(target, cst.Name):
                    yield target.value, value


def _set_by_global(tree: cst.Module, names: set[str]) -> dict[str, cst.BaseExpression]:
    """A module-level ``client = None`` made at start-up: ``def init(): global client;
    client = DbClient(...)`` (or ``client = bot``, ``client = ctx.client``). The first value
    assigned to each of ``names`` by a top-level function declaring it ``global`` (the object
    every tool later uses), by name; a call is preferred to another expression."""
    out: dict[str, cst.BaseExpression] = {}
    for fn in tree.body:
        if not isinstance(fn, cst.FunctionDef):
            continue
        declared: set[str] = set()
        for node in walk(fn.body):
            if isinstance(node, cst.Global):
                declared |= {n.name.value for n in node.names} & names
        if not declared:
            continue
        for name, value in _assignments(walk(fn.body)):
            if name not in declared:
                continue
            if isinstance(value, cst.Name) and value.value == "None":
                continue  # ``client = None`` on shutdown
            known = out.get(name)
            if known is None or (isinstance(value, cst.Call) and not isinstance(known, cst.Call)):
                out[name] = value
    return out
