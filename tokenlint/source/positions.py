"""Line and column of LibCST nodes, computed only for the top-level statements that need them.

LibCST's ``PositionProvider`` generates the code of the whole module, token by token, to learn
where each node starts and ends — and ``MetadataWrapper.resolve`` adds a full no-op visit of the
tree on top. A module reports a handful of nodes, most of them inside a few tool functions. So
``Positions`` generates the code of one top-level statement at a time, starting the position
counter at that statement's first line, which CPython's ``ast`` (already parsed as the guard of
``tokenlint.source.parsing``) gives for free. The ranges are exactly the provider's: the same codegen,
the same state, only started mid-file. A top-level class (a client or fetcher class of hundreds
of lines, of which one method reports) is resolved one statement of its body at a time, in the
same way, with the class body's indentation. Without the statement lines (LibCST parsed syntax
the running Python could not) it falls back to the provider over the whole module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import libcst as cst
from libcst.metadata import CodeRange
from libcst.metadata import PositionProvider

from tokenlint.source.walk import walk

try:  # where LibCST keeps the codegen state that records positions
    from libcst.metadata.position_provider import PositionProvidingCodegenState
except ImportError:  # pragma: no cover - a LibCST without it: whole-module resolution only
    PositionProvidingCodegenState = None  # type: ignore[assignment,misc]


class Positions:
    """``CodeRange`` (lines 1-based, columns 0-based, as LibCST gives them) of the nodes of one
    module. ``stmt_lines`` holds the first line of each top-level statement as ``ast`` reports it
    (a decorated definition: its first decorator), one per ``ast`` statement; ``member_lines``
    the same for the body of each top-level class, by the class's index in ``stmt_lines``."""

    def __init__(self, tree: cst.Module, stmt_lines: list[int] | None,
                 member_lines: dict[int, list[int]] | None = None) -> None:
        self.tree = tree
        self.ranges: dict[cst.CSTNode, CodeRange] = {}
        self._done: set[object] = set()
        self._starts: list[int] | None = None
        #: CST index of a top-level class -> the first line of each statement of its body
        self._member_starts: dict[int, list[int]] = {}
        #: CST index of a top-level class -> id of a node in its body -> index of its statement
        self._member_of: dict[int, dict[int, int]] = {}
        if PositionProvidingCodegenState is not None and stmt_lines is not None:
            indices = _ast_indices(tree.body, stmt_lines)
            if indices is not None:
                self._starts = _starts(tree.body, stmt_lines, indices)
                for i, k in enumerate(indices):
                    block = getattr(tree.body[i], "body", None)
                    lines = (member_lines or {}).get(k)
                    if isinstance(tree.body[i], cst.ClassDef) and isinstance(block, cst.IndentedBlock) and lines:
                        member_indices = _ast_indices(block.body, lines)
                        if member_indices is not None:
                            self._member_starts[i] = _starts(block.body, lines, member_indices)
        self._whole = False

    def get(self, node: cst.CSTNode, statement: int | None) -> CodeRange | None:
        """The range of ``node``, which lies in top-level statement number ``statement`` (None
        if unknown: the whole module is then resolved)."""
        rng = self.ranges.get(node)
        if rng is not None:
            return rng
        if statement is None or self._starts is None:
            self._resolve_whole()
            return self.ranges.get(node)
        member = self._member(statement, node)
        key: object = statement if member is None else (statement, member)
        if key not in self._done:
            self._done.add(key)
            if member is None:
                self._resolve(self.tree.body[statement], self._starts[statement], ())
            else:
                cls = cast("cst.ClassDef", self.tree.body[statement])
                block = cast("cst.IndentedBlock", cls.body)
                indent = self.tree.default_indent if block.indent is None else block.indent
                self._resolve(block.body[member], self._member_starts[statement][member], (indent,))
        return self.ranges.get(node)

    def _member(self, statement: int, node: cst.CSTNode) -> int | None:
        """The index of the statement of top-level class ``statement``'s body holding ``node``
        (None when ``statement`` is no such class or ``node`` is the class's own header)."""
        if statement not in self._member_starts:
            return None
        of = self._member_of.get(statement)
        if of is None:
            block = cast("cst.IndentedBlock", cast("cst.ClassDef", self.tree.body[statement]).body)
            of = self._member_of[statement] = {
                id(inner): j for j, member in enumerate(block.body) for inner in walk(member)
            }
        return of.get(id(node))

    def _resolve(self, stmt: cst.CSTNode, line: int, indent: tuple[str, ...]) -> None:
        """Generate ``stmt``'s code from ``line`` with ``indent`` as the enclosing indentation,
        recording the range of each of its nodes."""
        provider = PositionProvider()
        provider._computed = {}
        state = PositionProvidingCodegenState(
            default_indent=self.tree.default_indent,
            default_newline=self.tree.default_newline,
            provider=provider,
        )
        state.line = line
        state.indent_tokens = list(indent)
        stmt._codegen(state)
        self.ranges.update(cast("dict[cst.CSTNode, CodeRange]", provider._computed))

    def _resolve_whole(self) -> None:
        if self._whole:
            return
        self._whole = True
        if PositionProvidingCodegenState is not None:
            provider = PositionProvider()
            provider._computed = {}
            provider._gen_impl(self.tree)  # what MetadataWrapper.resolve does, minus a full visit
            self.ranges.update(cast("dict[cst.CSTNode, CodeRange]", provider._computed))
        else:  # pragma: no cover
            self.ranges.update(cst.MetadataWrapper(self.tree, unsafe_skip_copy=True).resolve(PositionProvider))


def _ast_indices(body: Sequence[cst.CSTNode], lines: list[int]) -> list[int] | None:
    """For each CST statement of ``body``, the index of its first ``ast`` statement in
    ``lines`` (a ``SimpleStatementLine`` holds one ``ast`` statement per small statement), or
    None when the two do not line up."""
    indices: list[int] = []
    k = 0
    for stmt in body:
        if k >= len(lines):
            return None
        indices.append(k)
        k += len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
    return indices if k == len(lines) else None


def _starts(body: Sequence[cst.CSTNode], lines: list[int], indices: list[int]) -> list[int]:
    """The line on which the code of each CST statement of ``body`` begins, its leading blank
    and comment lines included."""
    return [lines[k] - len(getattr(stmt, "leading_lines", ())) for stmt, k in zip(body, indices)]
