"""Line and column of LibCST nodes, computed only for the top-level statements that need them.

LibCST's ``PositionProvider`` generates the code of the whole module, token by token, to learn
where each node starts and ends — and ``MetadataWrapper.resolve`` adds a full no-op visit of the
tree on top. A module reports a handful of nodes, most of them inside a few tool functions. So
``Positions`` generates the code of one top-level statement at a time, starting the position
counter at that statement's first line, which CPython's ``ast`` (already parsed as the guard of
``tokenlint.source.parsing``) gives for free. The ranges are exactly the provider's: the same codegen,
the same state, only started mid-file. Without the statement lines (LibCST parsed syntax the
running Python could not) it falls back to the provider over the whole module.
"""

from __future__ import annotations

from typing import cast

import libcst as cst
from libcst.metadata import CodeRange
from libcst.metadata import PositionProvider

try:  # where LibCST keeps the codegen state that records positions
    from libcst.metadata.position_provider import PositionProvidingCodegenState
except ImportError:  # pragma: no cover - a LibCST without it: whole-module resolution only
    PositionProvidingCodegenState = None  # type: ignore[assignment,misc]


class Positions:
    """``CodeRange`` (lines 1-based, columns 0-based, as LibCST gives them) of the nodes of one
    module. ``stmt_lines`` holds the first line of each top-level statement as ``ast`` reports it
    (a decorated definition: its first decorator), one per ``ast`` statement."""

    def __init__(self, tree: cst.Module, stmt_lines: list[int] | None) -> None:
        self.tree = tree
        self.ranges: dict[cst.CSTNode, CodeRange] = {}
        self._done: set[int] = set()
        self._starts = _statement_starts(tree, stmt_lines) if PositionProvidingCodegenState is not None else None
        self._whole = False

    def get(self, node: cst.CSTNode, statement: int | None) -> CodeRange | None:
        """The range of ``node``, which lies in top-level statement number ``statement`` (None
        if unknown: the whole module is then resolved)."""
        rng = self.ranges.get(node)
        if rng is not None:
            return rng
        if statement is None or self._starts is None:
            self._resolve_whole()
        elif statement not in self._done:
            self._done.add(statement)
            self._resolve_statement(statement)
        return self.ranges.get(node)

    def _resolve_statement(self, index: int) -> None:
        stmt = self.tree.body[index]
        provider = PositionProvider()
        provider._computed = {}
        state = PositionProvidingCodegenState(
            default_indent=self.tree.default_indent,
            default_newline=self.tree.default_newline,
            provider=provider,
        )
        state.line = self._starts[index]  # type: ignore[index]
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


def _statement_starts(tree: cst.Module, stmt_lines: list[int] | None) -> list[int] | None:
    """The line on which the code of each top-level CST statement begins (its leading blank and
    comment lines included), or None when the ``ast`` lines do not line up with the CST."""
    if stmt_lines is None:
        return None
    starts: list[int] = []
    k = 0
    for stmt in tree.body:
        if k >= len(stmt_lines):
            return None
        starts.append(stmt_lines[k] - len(getattr(stmt, "leading_lines", ())))
        k += len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
    return starts if k == len(stmt_lines) else None
