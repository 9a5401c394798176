"""Parsing a decoded source text into a LibCST module, safely and only when it can matter.

LibCST's native parser crashes the whole process (a stack overflow, not an exception) on deeply
nested code: 3,000 nested brackets or a 10,000-term expression. CPython's own parser turns the
same input into a catchable ``RecursionError`` or "too many nested parentheses", so ``ast.parse``
runs first as a guard: it costs about a tenth of the LibCST parse. A plain ``SyntaxError`` from
``ast`` is not final (LibCST may know newer syntax than the running Python); LibCST decides.

The guard's tree is used once more before the expensive parse: ``parse_source(candidate=True)``
returns None
for a module whose *code* (names, attributes, imports — not strings or comments) matches none of
the byte prefilter's words (``tokenlint.source.files.PREFILTER``), so a file that only mentions
``json.tool`` or "mcp" in a docstring is never parsed by LibCST.
"""

from __future__ import annotations

import ast
import re
import warnings
from typing import TYPE_CHECKING, Literal, NamedTuple, overload

from tokenlint.source.decoding import SourceError

if TYPE_CHECKING:  # libcst is imported when a file is parsed, not when tokenlint starts
    import libcst as cst

_TOO_DEEP = ("too many nested", "too many levels of indentation", "too complex", "maximum recursion")

#: The prefilter's words as they appear in identifiers: server classes and SDK packages
#: (``FastMCP``, ``MCPServer``, ``fastmcp``) and the registration methods (``add_tool``,
#: ``call_tool``, ``on_call_tool``). ``mcp`` alone and ``.tool`` are matched exactly below.
_IDENTIFIER = re.compile(r"FastMCP|MCPServer|fastmcp|add_tool|call_tool")
#: Attributes that register tools or change their names: ``x.tool``, ``x.mount``, ``x.import_server``.
_ATTRIBUTES = frozenset({"tool", "mount", "import_server"})


def _guard(text: str, filename: str) -> tuple[ast.Module | None, SyntaxError | None]:
    """``ast.parse`` the text: (tree, None), or (None, the SyntaxError LibCST should confirm).
    Raises ``SourceError`` for nesting too deep to parse safely."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename), None
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested to parse") from None
    except SyntaxError as err:
        if any(s in str(err.msg) for s in _TOO_DEEP):
            raise SourceError(f"too deeply nested to parse ({err.msg})") from None
        return None, err
    except ValueError as err:  # e.g. source with NUL bytes that slipped through
        raise SourceError(f"cannot parse: {err}") from None


def parse_module(text: str, filename: str = "<unknown>") -> cst.Module:
    """Parse ``text`` into a ``libcst.Module``; raises ``SourceError`` with a one-line reason
    (syntax error with its 1-based ``line:col``, or nesting too deep to parse)."""
    _, cpython_error = _guard(text, filename)
    return _libcst_parse(text, cpython_error)


@overload
def parse_source(text: str, filename: str = ..., *, candidate: Literal[False] = ...) -> Parsed: ...
@overload
def parse_source(text: str, filename: str = ..., *, candidate: bool) -> Parsed | None: ...


def parse_source(text: str, filename: str = "<unknown>", *, candidate: bool = False) -> Parsed | None:
    """Parse ``text``: the LibCST module and the first line of each top-level statement
    according to ``ast`` (None if only LibCST could parse it), for ``tokenlint.source.positions``.

    With ``candidate``, None (and no LibCST parse) when the module's code cannot define,
    register or rename a tool or create a server: none of its identifiers matches the
    prefilter's words (``code_mentions_tools``). Raises ``SourceError`` like ``parse_module``.
    """
    tree, cpython_error = _guard(text, filename)
    if candidate and tree is not None and not code_mentions_tools(tree):
        return None
    lines = None if tree is None else [_first_line(stmt) for stmt in tree.body]
    members = None if tree is None else {
        i: [_first_line(member) for member in stmt.body]
        for i, stmt in enumerate(tree.body) if isinstance(stmt, ast.ClassDef)
    }
    return Parsed(_libcst_parse(text, cpython_error), lines, members)


class Parsed(NamedTuple):
    """A LibCST module, the ``ast`` first line of each top-level statement (or None), and of
    each statement in the body of a top-level class, by the class's index among the ``ast``
    top-level statements (or None)."""

    tree: cst.Module
    stmt_lines: list[int] | None
    member_lines: dict[int, list[int]] | None = None


def _first_line(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None)
    return decorators[0].lineno if decorators else stmt.lineno


#: The JSON-RPC method of a tool call (MCP specification, "Calling Tools").
TOOLS_CALL = "tools/call"


def code_mentions_tools(tree: ast.Module) -> bool:
    """Whether a module's code (not its strings or comments) uses a word of the prefilter:
    an identifier containing ``FastMCP``, ``MCPServer``, ``fastmcp``, ``add_tool`` or
    ``call_tool``; the name ``mcp`` (also as a part of a dotted import); an attribute ``.tool``,
    ``.mount`` or ``.import_server``; a decorator named ``tool``; or the string ``"tools/call"``
    compared, used as a dict key or matched (a server answering that JSON-RPC method itself:
    ``discovery.handwritten``; a client sending it as a value is no server)."""
    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.Compare:
            if any(type(x) is ast.Constant and x.value == TOOLS_CALL
                   for x in (node.left, *node.comparators)):  # type: ignore[attr-defined]
                return True
            continue
        if kind is ast.Dict:
            if any(type(k) is ast.Constant and k.value == TOOLS_CALL for k in node.keys):  # type: ignore[attr-defined]
                return True
            continue
        if kind is ast.MatchValue:
            if type(node.value) is ast.Constant and node.value.value == TOOLS_CALL:  # type: ignore[attr-defined]
                return True
            continue
        if kind is ast.Name:
            words: tuple[str, ...] = (node.id,)  # type: ignore[attr-defined]
        elif kind is ast.Attribute:
            if node.attr in _ATTRIBUTES:  # type: ignore[attr-defined]
                return True
            words = (node.attr,)  # type: ignore[attr-defined]
        elif kind is ast.alias:
            parts = node.name.split(".")  # type: ignore[attr-defined]
            if "tool" in parts[1:]:
                return True
            words = (*parts, node.asname or "")  # type: ignore[attr-defined]
        elif kind is ast.ImportFrom:
            words = tuple((node.module or "").split("."))  # type: ignore[attr-defined]
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            for dec in node.decorator_list:  # type: ignore[attr-defined]
                target = dec.func if isinstance(dec, ast.Call) else dec
                if isinstance(target, ast.Name) and target.id == "tool":
                    return True  # ``@tool(...)``: a decorator forwarding to a server's ``tool``
            words = (node.name,)  # type: ignore[attr-defined]
        elif kind is ast.arg:
            words = (node.arg,)  # type: ignore[attr-defined]
        elif kind is ast.keyword:
            words = (node.arg or "",)  # type: ignore[attr-defined]
        else:
            continue
        for word in words:
            if word == "mcp" or _IDENTIFIER.search(word):
                return True
    return False


def _libcst_parse(text: str, cpython_error: SyntaxError | None) -> cst.Module:
    import libcst as cst

    try:
        with _unvalidated(cst):
            return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        if cpython_error is not None:
            line, col = cpython_error.lineno or 1, cpython_error.offset or 1
            raise SourceError(f"syntax error at {line}:{col}: {cpython_error.msg}") from None
        # CPython parsed it: valid Python that LibCST's grammar lacks, e.g. `(x): int = 1`
        raise SourceError(f"unsupported syntax at {exc.raw_line}:{exc.raw_column + 1}: CPython accepts "
                          "this line but LibCST, which tokenlint parses with, does not") from None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None


class _unvalidated:
    """Skip LibCST's per-node ``_validate`` while its own parser builds a tree.

    Every node's ``__post_init__`` re-checks invariants (parentheses balanced, whitespace where
    required) that a tree fresh from the parser satisfies by construction — LibCST's source says
    as much ("It might make more sense to move validation work into the visitor, which would
    allow us to avoid validating the tree when parsing a file"). It is about 15 % of the parse.
    Scoped to the parse call: nodes built afterwards (by codemods) are validated as usual.
    """

    def __init__(self, cst_module) -> None:
        self._base = cst_module.CSTNode

    def __enter__(self) -> None:
        self._saved = self._base.__dict__["__post_init__"]
        self._base.__post_init__ = _no_validation

    def __exit__(self, *exc) -> None:
        self._base.__post_init__ = self._saved


def _no_validation(self) -> None:
    return None
