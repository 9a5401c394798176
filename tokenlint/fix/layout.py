"""Lay out a statement ``fix`` changed the way black and ``ruff format`` would.

Only the statements holding a rewritten call are laid out again (``FitToBudget``); every other
line keeps its bytes. The layout is the part of black's algorithm (its "right-hand split" and
"delimiter split", https://black.readthedocs.io/en/stable/the_black_code_style/current_style.html)
that the calls ``fix`` writes need, on calls, lists, tuples, sets, dicts and comprehensions (a
comprehension is a bracket holding one item, its ``for`` clauses kept on that item's line; where
that line is too long, its element and each ``for`` and ``if`` clause get a line of their own,
as for a generator that is a call's only argument):

1. the whole statement on one line, when it fits in the line length and no bracket in it ends
   with a magic trailing comma;
2. else the last bracket's contents on one indented line between the opening and closing lines
   (a call's arguments, or a literal's only item);
3. else, a bracket holding one item: that item laid out the same way one level deeper, without a
   trailing comma; holding several: one item per line, each laid out the same way, with a
   trailing comma.

A statement holding anything this cannot flatten exactly (a comment, a string spanning lines, a
backslash continuation, a parenthesized sub-expression split over lines) is left as the codemod
wrote it: ``layout_statement`` returns None.
"""

from __future__ import annotations

import re

import libcst as cst

from tokenlint.source.walk import node_code

INDENT = "    "

#: A bracketed node's ``(opener, [(item prefix, item)], closer, magic trailing comma)``.
Brackets = tuple[str, list[tuple[str, cst.BaseExpression]], str, bool]


def layout_statement(stmt: cst.SimpleStatementLine, width: int) -> cst.SimpleStatementLine | None:
    """``stmt`` laid out for lines of at most ``width`` chars (its own indentation excluded), or
    None when it is not one ``return``, assignment or expression statement this can flatten."""
    if len(stmt.body) != 1 or _has_comment(stmt):
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Return) and small.value is not None:
        prefix, value = "return ", small.value
    elif isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = _flat(small.targets[0].target)
        if target is None:
            return None
        prefix, value = f"{target} = ", small.value
    elif isinstance(small, cst.Expr):
        prefix, value = "", small.value
    else:
        return None
    lines = _layout(value, prefix, "", 0, width)
    if lines is None:
        return None
    try:
        new = cst.parse_statement("\n".join(lines) + "\n")
    except cst.ParserSyntaxError:
        return None
    if not isinstance(new, cst.SimpleStatementLine):
        return None
    return new.with_changes(leading_lines=stmt.leading_lines, trailing_whitespace=stmt.trailing_whitespace)


def _layout(node: cst.BaseExpression, prefix: str, suffix: str, depth: int, width: int) -> list[str] | None:
    """The lines of ``prefix`` + ``node`` + ``suffix`` at ``depth`` levels of indentation, for
    lines of ``width`` chars (see the module's docstring); None when it cannot be flattened."""
    flat = _flat(node)
    if flat is None:
        return None
    pad = INDENT * depth
    line = f"{pad}{prefix}{flat}{suffix}"
    if len(line) <= width and not _has_magic_comma(node):
        return [line]
    if isinstance(node, cst.Await) and not node.lpar:
        return _layout(node.expression, f"{prefix}await ", suffix, depth, width)
    if isinstance(node, cst.Call) and not node.args and not node.lpar \
            and isinstance(node.func, cst.Attribute) and not node.func.lpar \
            and _brackets(node.func.value) is not None:
        # an empty trailing call (``x.execute(...).fetchall()``) is not split: black and ruff
        # split the bracket before it and write the call after its closing bracket
        return _layout(node.func.value, prefix, f".{node.func.attr.value}(){suffix}", depth, width)
    body = _comprehension_body(node)
    if body is not None:
        # ``[x for x in xs]`` too long: its contents on one indented line, as a one-item bracket
        opener, closer = _COMPREHENSIONS[type(node)]
        inner = INDENT * (depth + 1) + body
        if len(inner) <= width:
            return [f"{pad}{prefix}{opener}", inner, f"{pad}{closer}{suffix}"]
        clauses = _clauses(node, depth + 1, width)
        return None if clauses is None else [f"{pad}{prefix}{opener}", *clauses, f"{pad}{closer}{suffix}"]
    if isinstance(node, cst.GeneratorExp) and not node.lpar and not prefix and not suffix:
        # ``"\n".join(f"{r['id']}" for r in rows)`` too long: the call's only argument, a
        # generator sharing the call's parentheses, split at its clauses
        return _clauses(node, depth, width)
    split = _brackets(node)
    if split is None or not split[1]:
        return [line]
    opener, items, closer, magic = split
    head, tail = f"{pad}{prefix}{opener}", f"{pad}{closer}{suffix}"
    inner = INDENT * (depth + 1)
    flats: list[str] = []
    for _, value in items:
        flat_item = _flat(value)
        if flat_item is None:
            return None
        flats.append(flat_item)
    # the contents on one line: for a call's arguments, or one item of a literal (black splits a
    # list, dict or set literal of several items one per line: its ``should_split_line``)
    if not magic and not any(_has_magic_comma(v) for _, v in items) \
            and (isinstance(node, cst.Call) or len(items) == 1):
        body = ", ".join(p + f for (p, _), f in zip(items, flats))
        if len(inner) + len(body) <= width:
            return [head, inner + body, tail]
    if len(items) == 1 and not magic:
        chain = _call_chain(items[0][1]) if node.lpar and not items[0][0] else None
        lines = _fluent(chain, depth + 1, width) if chain else _layout(items[0][1], items[0][0], "", depth + 1, width)
        return None if lines is None else [head, *lines, tail]
    out = [head]
    for item_prefix, value in items:
        lines = _layout(value, item_prefix, ",", depth + 1, width)
        if lines is None:
            return None
        out += lines
    return [*out, tail]


def _clauses(node: cst.BaseExpression, depth: int, width: int) -> list[str] | None:
    """A comprehension's element and then each of its ``for`` and ``if`` clauses on a line of
    its own at ``depth`` (black's delimiter split at ``COMPREHENSION_PRIORITY``); None when a
    part cannot be flattened or a line is still too long."""
    pad = INDENT * depth
    if isinstance(node, cst.DictComp):
        key, value = _flat(node.key), _flat(node.value)
        element = None if key is None or value is None else f"{key}: {value}"
    elif isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        element = _flat(node.elt)
    else:
        return None
    if element is None:
        return None
    lines = [pad + element]
    comp: cst.CompFor | None = node.for_in
    while comp is not None:
        target, iterable = _flat(comp.target), _flat(comp.iter)
        if target is None or iterable is None:
            return None
        lines.append(f"{pad}{'async ' if comp.asynchronous else ''}for {target} in {iterable}")
        for cond in comp.ifs:
            test = _flat(cond.test)
            if test is None:
                return None
            lines.append(f"{pad}if {test}")
        comp = comp.inner_for_in
    return lines if all(len(line) <= width for line in lines) else None


def _call_chain(node: cst.BaseExpression) -> tuple[cst.BaseExpression, list[cst.Call]] | None:
    """``(root, [first call, ..., last call])`` of a method-call chain of three calls or more
    (``sheets.spreadsheets().values().get(...).execute()``), the calls in source order; None for
    anything else. Black and ruff lay such a chain out "fluent" inside parentheses (one call a
    line) where it does not fit on one line: black's ``DOT_PRIORITY`` delimiter split, which
    needs two dots after the first."""
    calls: list[cst.Call] = []
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and not node.lpar \
            and not node.func.lpar:
        calls.append(node)
        node = node.func.value
    return (node, calls[::-1]) if len(calls) >= 3 else None


def _fluent(chain: tuple[cst.BaseExpression, list[cst.Call]], depth: int, width: int) -> list[str] | None:
    """The lines of a call chain laid out one call a line (``_call_chain``): the root with its
    first call, then ``.method(...)`` a line, each split further as a call would be."""
    root, calls = chain
    first = calls[0]
    assert isinstance(first.func, cst.Attribute)  # (``_call_chain`` keeps only attribute calls)
    lines = _layout(first.with_changes(func=first.func.with_changes(value=root)), "", "", depth, width)
    if lines is None:
        return None
    for call in calls[1:]:
        assert isinstance(call.func, cst.Attribute)
        more = _layout(cst.Call(func=cst.Name(call.func.attr.value), args=call.args), ".", "", depth, width)
        if more is None:
            return None
        lines += more
    return lines


def _brackets(node: cst.BaseExpression) -> Brackets | None:
    """``(opener, [(item prefix, item)], closer, magic trailing comma)`` of a bracketed node; an
    expression in parentheses is a bracket holding it."""
    if node.lpar:
        if len(node.lpar) != 1 or len(node.rpar) != 1 or isinstance(node, cst.Tuple):
            return None
        return "(", [("", node.with_changes(lpar=[], rpar=[]))], ")", False
    if isinstance(node, cst.Call):
        func = _flat(node.func)
        if func is None:
            return None
        items = [(_arg_prefix(a), a.value) for a in node.args]
        magic = bool(node.args) and isinstance(node.args[-1].comma, cst.Comma)
        return f"{func}(", items, ")", magic
    if isinstance(node, (cst.List, cst.Set)):
        items = [("*" if isinstance(e, cst.StarredElement) else "", e.value) for e in node.elements]
        magic = bool(node.elements) and isinstance(node.elements[-1].comma, cst.Comma)
        return ("[", items, "]", magic) if isinstance(node, cst.List) else ("{", items, "}", magic)
    if isinstance(node, cst.Dict):
        items = []
        for e in node.elements:
            if isinstance(e, cst.StarredDictElement):
                items.append(("**", e.value))
            elif isinstance(e, cst.DictElement):
                key = _flat(e.key)
                if key is None:
                    return None
                items.append((f"{key}: ", e.value))
        magic = bool(node.elements) and isinstance(node.elements[-1].comma, cst.Comma)
        return "{", items, "}", magic
    return None


def _arg_prefix(arg: cst.Arg) -> str:
    if arg.keyword is not None:
        return f"{arg.keyword.value}="
    return arg.star if isinstance(arg.star, str) else ""


#: Comprehensions by their brackets: black lays one out like a bracket holding one item.
_COMPREHENSIONS: dict[type, tuple[str, str]] = {cst.ListComp: ("[", "]"), cst.SetComp: ("{", "}"),
                                                cst.DictComp: ("{", "}")}


def _comprehension_body(node: cst.CSTNode) -> str | None:
    """The code between a comprehension's brackets on one line (``x for x in xs``), its line
    breaks and their indentation made single spaces; None for anything else, or when a string in
    it spans lines."""
    brackets = _COMPREHENSIONS.get(type(node))
    if brackets is None or getattr(node, "lpar", None):
        return None
    code = node_code(node)
    if any("\n" in node_code(n) for n in _strings(node)):
        return None
    body = code[len(brackets[0]):-len(brackets[1])]
    return re.sub(r"\s*\n\s*", " ", body).strip()


def _strings(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The string literals inside ``node``."""
    found: list[cst.CSTNode] = []

    class _Collect(cst.CSTVisitor):
        def visit_SimpleString(self, n: cst.SimpleString) -> None:
            found.append(n)

        def visit_FormattedString(self, n: cst.FormattedString) -> None:
            found.append(n)

    node.visit(_Collect())
    return found


def _flat(node: cst.CSTNode) -> str | None:
    """``node``'s code on one line, or None when it cannot be put on one line exactly."""
    body = _comprehension_body(node)
    if body is not None:
        opener, closer = _COMPREHENSIONS[type(node)]
        return f"{opener}{body}{closer}"
    split = _brackets(node) if isinstance(node, cst.BaseExpression) else None
    if split is not None:
        opener, items, closer, _ = split
        parts = []
        for prefix, value in items:
            flat = _flat(value)
            if flat is None:
                return None
            parts.append(prefix + flat)
        return f"{opener}{', '.join(parts)}{closer}"
    if isinstance(node, cst.Await) and not node.lpar:
        inner = _flat(node.expression)
        return None if inner is None else f"await {inner}"
    if isinstance(node, cst.Attribute) and not node.lpar:
        inner = _flat(node.value)
        return None if inner is None else f"{inner}.{node.attr.value}"
    code = node_code(node)
    return None if "\n" in code else code


def _has_magic_comma(node: cst.CSTNode) -> bool:
    """Whether a bracket in ``node`` ends with a trailing comma (black keeps it exploded)."""
    split = _brackets(node) if isinstance(node, cst.BaseExpression) else None
    if split is None:
        return False
    return split[3] or any(_has_magic_comma(v) for _, v in split[1])


def _has_comment(node: cst.CSTNode) -> bool:
    """Whether a comment is written anywhere in ``node`` (a layout must not drop it)."""
    found = []

    class Comments(cst.CSTVisitor):
        def visit_Comment(self, comment: cst.Comment) -> None:
            found.append(comment)

    node.visit(Comments())
    return bool(found)
