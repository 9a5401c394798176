"""Helpers on LibCST nodes shared by the planner and the codemod of ``tokenlint fix``.

The variables below a node (``variable_names``), the names a function binds again
(``rebound_names``) and a name free in it (``free_name``); a node's printed source is
``tokenlint.source.walk.node_code``, shared with the analysis.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children, walk  # skip whitespace; ~10x faster than .children


def is_inside(node: cst.CSTNode, body: Sequence[cst.CSTNode]) -> bool:
    """Whether ``node`` is one of the nodes of ``body`` (statements) or below them, by identity."""
    return any(n is node for stmt in body for n in walk(stmt))


def rebound_names(fn: cst.FunctionDef, names: set[str]) -> set[str]:
    """The ``names`` that ``fn``'s body binds again (assigned, augmented, a loop or ``as``
    target), not counting an idempotent rebinding (``x = min(x, 100)``, see ``is_idempotent``)."""
    found: set[str] = set()
    for node in walk(fn.body):
        targets: list[cst.BaseExpression] = []
        if isinstance(node, cst.Assign):
            if is_idempotent(node):
                continue
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, (cst.For, cst.CompFor)):
            targets = [node.target]
        elif isinstance(node, cst.AsName):
            targets = [node.name]
        for t in targets:
            for n in walk(t):
                if isinstance(n, cst.Name) and n.value in names:
                    found.add(n.value)
    return found


_IDEMPOTENT_CALLS = frozenset({"min", "max", "int", "str", "float", "bool", "abs", "strip", "lower",
                               "upper", "rstrip", "lstrip"})


def is_idempotent(node: cst.Assign) -> bool:
    """``x = min(x, 100)``, ``x = int(x)``, ``x = x.strip()``: applying it twice changes nothing, so
    the value passed back through ``next_action`` reproduces the same call."""
    if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
        return False
    name = node.targets[0].target.value
    value = node.value
    if not isinstance(value, cst.Call):
        return False
    callee = dotted_name(value.func) or ""
    if callee in _IDEMPOTENT_CALLS:
        return any(isinstance(a.value, cst.Name) and a.value.value == name for a in value.args)
    return callee == f"{name}.{callee.split('.')[-1]}" and callee.split(".")[-1] in _IDEMPOTENT_CALLS


def uses_variable(fn: cst.FunctionDef, name: str) -> bool:
    """Whether the body uses ``name`` as a variable (not an attribute or keyword named so)."""
    return any(n.value == name for n in variable_names(fn.body))


def variable_names(root: cst.CSTNode) -> Iterator[cst.Name]:
    """The ``Name`` nodes below ``root`` that are variables: not ``x.attr`` attribute names and
    not ``f(kw=...)`` keywords."""
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            yield node
            continue
        if isinstance(node, cst.Attribute):
            stack.append(node.value)
            continue
        if isinstance(node, cst.Arg):
            stack.append(node.value)
            continue
        stack.extend(code_children(node))


def free_name(fn: cst.FunctionDef, base: str) -> str:
    """``base``, or ``base2``, ``base3``... : the first that no ``Name`` in ``fn`` (its
    decorators, parameters and body) spells."""
    used = {n.value for n in walk(fn) if isinstance(n, cst.Name)}
    name, i = base, 2
    while name in used:
        name, i = f"{base}{i}", i + 1
    return name
