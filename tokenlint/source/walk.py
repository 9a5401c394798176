"""Fast walks over LibCST trees that skip whitespace and punctuation.

``CSTNode.children`` builds its list by running a visitor over the node, which reconstructs the
node on the way (``_visit_and_replace_children``): about 7 µs a node, and about 60 % of a
module's nodes are whitespace, newlines, comments, commas, dots and brackets that no analysis
looks at. Walking whole modules that way was most of a run's time.

``code_children(node)`` returns ``[c for c in node.children if not trivia]`` — the same objects in
the same order — by reading only the fields that can hold code (decided once per class from its
dataclass field types), so a walk never enters whitespace at all. ``TRIVIA`` lists the node
classes left out; nothing in tokenlint's discovery or analysis matches on them.

The order in which LibCST visits a class's fields is not always the order they are declared
(``FunctionDef`` visits its decorators before its name), so it is learned, not assumed: the
first time a class is seen with a given set of non-empty code fields, ``node.children`` is
called once and each child is mapped back, by identity, to the field holding it; that order is
then reused for every node of the class with the same non-empty fields. Exact by construction,
and it follows the installed LibCST version.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Iterable, Iterator, cast

import libcst as cst

#: Node classes that are layout, not code: whitespace, comments, newlines and punctuation.
TRIVIA: frozenset[type] = frozenset({
    cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.Newline,
    cst.EmptyLine, cst.Comment, cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual,
    cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket,
    cst.LeftCurlyBrace, cst.RightCurlyBrace,
})
_TRIVIA_BASES = (cst.BaseParenthesizableWhitespace, *TRIVIA)
_CSTNode = cst.CSTNode

#: class → names of the fields whose declared type admits a code node.
_CODE_FIELDS: dict[type, tuple[str, ...]] = {}
#: (class, non-empty code fields in declaration order) → the same fields in LibCST's visit order.
_ORDER: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


def _admits_code(tp: object) -> bool:
    """Whether a field annotation admits a non-trivia node (unknown annotations count as yes)."""
    if isinstance(tp, type):
        if issubclass(tp, _CSTNode):
            return not issubclass(tp, _TRIVIA_BASES)
        return False  # str, bool, int, MaybeSentinel, NoneType
    args = typing.get_args(tp)
    if args:
        return any(_admits_code(a) for a in args)
    return True  # a forward reference or anything unexpected: keep it


def _code_fields(cls: type) -> tuple[str, ...]:
    names = tuple(f.name for f in dataclasses.fields(cls) if _admits_code(f.type))
    _CODE_FIELDS[cls] = names
    return names


def code_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's children that are code (not ``TRIVIA``), in LibCST's order."""
    cls = type(node)
    names = _CODE_FIELDS.get(cls)
    if names is None:
        names = _code_fields(cls)
    if not names:
        return []
    present: list[str] = []
    values: list[object] = []
    for name in names:
        value = getattr(node, name)
        if value is None:
            continue
        if isinstance(value, _CSTNode) or (isinstance(value, (tuple, list)) and value):
            present.append(name)
            values.append(value)
    if not present:
        return []
    if len(present) == 1:
        order: tuple[str, ...] | None = (present[0],)
    else:
        order = _ORDER.get((cls, tuple(present)))
        if order is None:
            return _learn(node, cls, present, values)
        if order != tuple(present):
            by_name = dict(zip(present, values))
            values = [by_name[n] for n in order]
    out: list[cst.CSTNode] = []
    for value in values:
        if isinstance(value, _CSTNode):
            if type(value) not in TRIVIA:
                out.append(value)
        else:
            out.extend(v for v in cast("Iterable[object]", value) if isinstance(v, _CSTNode) and type(v) not in TRIVIA)
    return out


def _learn(node: cst.CSTNode, cls: type, present: list[str], values: list[object]) -> list[cst.CSTNode]:
    """Ask LibCST once, map each child to its field, and remember the field order."""
    real = [c for c in node.children if type(c) not in TRIVIA]
    owner: dict[int, str] = {}
    for name, value in zip(present, values):
        for v in (value,) if isinstance(value, _CSTNode) else cast("Iterable[object]", value):
            owner[id(v)] = name
    order: list[str] = []
    for child in real:
        field_name = owner.get(id(child))
        if field_name is None:  # a child no code field holds: never cache a guess
            return real
        if not order or order[-1] != field_name:
            if field_name in order:  # one field visited in two separate runs: no field order
                return real
            order.append(field_name)
    if len(order) == len(present):  # every non-empty field seen: the order is complete
        _ORDER[(cls, tuple(present))] = tuple(order)
    return real


def node_code(node: cst.CSTNode) -> str:
    """The source text of ``node`` as LibCST prints it (continuation lines relative to its
    statement's indentation)."""
    return cst.Module([]).code_for_node(node)


def walk(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``root`` and every code node below it, depth-first in source order (iterative: deep
    nesting cannot overflow the stack). Whitespace and punctuation (``TRIVIA``) are skipped."""
    stack: list[cst.CSTNode] = [root]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        kids = code_children(node)
        if kids:
            kids.reverse()
            extend(kids)


#: Nodes that open a scope of their own: the code of a function or class defined in a body.
SCOPES: tuple[type[cst.CSTNode], ...] = (cst.FunctionDef, cst.ClassDef)


def walk_own(root: cst.CSTNode, skip: tuple[type[cst.CSTNode], ...] = SCOPES,
             exclude: cst.CSTNode | None = None) -> Iterator[cst.CSTNode]:
    """``root`` and every code node below it that is its own code (``walk`` otherwise): nothing
    of a node whose type is in ``skip`` (the functions and classes defined in it; add
    ``cst.Lambda`` for lambdas too) nor of ``exclude`` (one node left out with all below it, an
    inner loop say). Pass a function's ``body``, not the ``FunctionDef``, whose own type is
    skipped."""
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        if node is exclude or isinstance(node, skip):
            continue
        yield node
        kids = code_children(node)
        if kids:
            kids.reverse()
            stack.extend(kids)


def walk_with_class(root: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, str | None]]:
    """Every code node with the name of the innermost enclosing class (None outside classes)."""
    stack: list[tuple[cst.CSTNode, str | None]] = [(root, None)]
    while stack:
        node, cls = stack.pop()
        yield node, cls
        inner = node.name.value if isinstance(node, cst.ClassDef) else cls
        kids = code_children(node)
        if kids:
            stack.extend((child, inner) for child in reversed(kids))


#: Evaluated string literals by their source text: ``SimpleString.evaluated_value`` runs
#: ``ast.literal_eval`` on every call, and discovery and the analysis ask for the same literals
#: (docstrings, tool names, dict keys) many times. Cleared past ``_LITERALS_MAX`` entries.
_LITERALS: dict[str, str | None] = {}
_LITERALS_MAX = 50_000


def literal_string(node: cst.CSTNode) -> str | None:
    """The ``str`` a ``SimpleString`` or ``ConcatenatedString`` node evaluates to (None for bytes
    or any other node); memoised on the literal's source text."""
    if isinstance(node, cst.SimpleString):
        raw = node.value
        if raw not in _LITERALS:
            if len(_LITERALS) > _LITERALS_MAX:
                _LITERALS.clear()
            v = node.evaluated_value
            _LITERALS[raw] = v if isinstance(v, str) else None
        return _LITERALS[raw]
    if isinstance(node, cst.ConcatenatedString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None
