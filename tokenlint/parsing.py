"""Parsing a decoded source text into a LibCST module, safely.

LibCST's native parser crashes the whole process (a stack overflow, not an exception) on deeply
nested code: 3,000 nested brackets or a 10,000-term expression. CPython's own parser turns the
same input into a catchable ``RecursionError`` or "too many nested parentheses", so ``ast.parse``
runs first as a guard: it costs about a tenth of the LibCST parse. A plain ``SyntaxError`` from
``ast`` is not final (LibCST may know newer syntax than the running Python); LibCST decides.
"""

from __future__ import annotations

import ast
import warnings

import libcst as cst

from tokenlint.sourcefile import SourceError

_TOO_DEEP = ("too many nested", "too many levels of indentation", "too complex", "maximum recursion")


def parse_module(text: str, filename: str = "<unknown>") -> cst.Module:
    """Parse ``text``; raises ``SourceError`` with a one-line reason (syntax error with its
    1-based ``line:col``, or nesting too deep to parse)."""
    cpython_error: SyntaxError | None = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text, filename)
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested to parse") from None
    except SyntaxError as err:
        if any(s in str(err.msg) for s in _TOO_DEEP):
            raise SourceError(f"too deeply nested to parse ({err.msg})") from None
        cpython_error = err
    except ValueError as err:  # e.g. source with NUL bytes that slipped through
        raise SourceError(f"cannot parse: {err}") from None
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        if cpython_error is not None:
            line, col = cpython_error.lineno or 1, cpython_error.offset or 1
            raise SourceError(f"syntax error at {line}:{col}: {cpython_error.msg}") from None
        first = str(exc.message).splitlines()[0] if exc.message else "invalid syntax"
        raise SourceError(f"syntax error at {exc.raw_line}:{exc.raw_column + 1}: {first}") from None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None
