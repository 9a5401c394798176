"""Where the ``from tokenlint.runtime import ...`` line ``fix`` adds goes, and its layout.

LibCST's ``AddImportsVisitor`` appends the import after the module's leading imports;
``place_runtime_import`` moves it among the third-party imports in alphabetical place (isort's
and ruff's ``I001`` order), or into a group of its own; ``fit_runtime_import`` lays it out one
name per line when it is too long, as black and ruff would.
"""

from __future__ import annotations

import sys

import libcst as cst

from tokenlint.source.imports import dotted_name

#: How the import line ``fix`` adds begins.
RUNTIME_IMPORT = "from tokenlint.runtime import"


def fit_runtime_import(code: str, width: int) -> str:
    """``code`` (a module's text) with its one-line runtime import, when longer than ``width``
    chars, laid out as black and ruff lay out an import that does not fit: one name per line in
    brackets, with a trailing comma. Raises nothing."""
    lines = code.splitlines(keepends=True)
    for i, line in enumerate(lines):
        text = line.rstrip("\r\n")
        if text.startswith(f"{RUNTIME_IMPORT} ") and "(" not in text and "#" not in text \
                and not text.endswith("\\") and len(text) > width:
            newline = line[len(text):] or "\n"
            names = [n.strip() for n in text[len(RUNTIME_IMPORT) + 1:].split(",") if n.strip()]
            body = "".join(f"    {n},{newline}" for n in names)
            lines[i] = f"{RUNTIME_IMPORT} ({newline}{body}){line[len(text):]}"
            return "".join(lines)
    return code


def place_runtime_import(code: str, module_name: str) -> str:
    """Move the added ``from tokenlint.runtime import ...`` among the module's third-party
    imports, in alphabetical place (isort's and ruff's ``I001`` order), instead of after its
    first-party ones, where ``AddImportsVisitor`` appends it; with no third-party import in its
    leading block, into a group of its own (``_own_group``). ``code``: the rewritten module's
    text (it must parse: raises ``libcst.ParserSyntaxError`` otherwise); returns the new text,
    ``code`` itself when the import is not one line of the leading block or is in place."""
    tree = cst.parse_module(code)
    body = list(tree.body)
    block: list[int] = []
    for i, stmt in enumerate(body):
        small = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []
        if small and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in small):
            block.append(i)
        elif not (i == 0 and small and isinstance(small[0], cst.Expr)):  # a docstring may come first
            break
    ours = [i for i in block if _import_module(body[i]) == "tokenlint.runtime"]
    if len(ours) != 1:
        return code
    at = ours[0]
    third = [i for i in block if i != at and _section(body[i], module_name) == "third"]
    if not third:
        return _own_group(tree, body, block, at, module_name)
    before = [i for i in third if _import_module(body[i]).lower() <= "tokenlint.runtime"]
    target = (before[-1] + 1) if before else third[0]
    if target in (at, at + 1):
        return code
    stmt = body.pop(at)
    body.insert(target if target < at else target - 1, stmt)
    return tree.with_changes(body=body).code


def _own_group(tree: cst.Module, body: list, block: list[int], at: int, module_name: str) -> str:
    """No third-party import to join: the runtime import becomes its own group, after the
    standard-library imports and before the first-party ones, a blank line on each side."""
    first = [i for i in block if i != at and _section(body[i], module_name) == "first"
             and _import_module(body[i]) != "__future__"]
    stmt = body[at]
    if first and first[0] < at:
        target = body[first[0]]
        body.pop(at)
        body.insert(first[0], stmt.with_changes(leading_lines=target.leading_lines))
        body[first[0] + 1] = target.with_changes(leading_lines=[cst.EmptyLine()])
    elif at > 0 and at - 1 in block and not stmt.leading_lines:
        body[at] = stmt.with_changes(leading_lines=[cst.EmptyLine()])
    else:
        return tree.code
    return tree.with_changes(body=body).code


def _import_module(stmt: cst.CSTNode) -> str:
    """The module an import statement imports from (``"."``s for a relative one), else ``""``."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
    if isinstance(small, cst.ImportFrom):
        if small.relative:
            return "." * len(small.relative)
        return dotted_name(small.module) or ""
    if isinstance(small, cst.Import):
        return dotted_name(small.names[0].name) or ""
    return ""


def _section(stmt: cst.CSTNode, module_name: str) -> str:
    """``"stdlib"``, ``"first"`` (relative, or this module's own top-level package) or ``"third"``."""
    name = _import_module(stmt)
    top = name.split(".")[0]
    if not top or name.startswith(".") or top == module_name.split(".")[0] or top == "__future__":
        return "first" if top != "__future__" else "stdlib"
    return "stdlib" if top in sys.stdlib_module_names else "third"
