"""Codemods of ``tokenlint fix`` (LibCST ``VisitorBasedCodemodCommand``s).

``plan`` decides, from the analysis ``check`` runs, what changes in a file (and which tools
cannot be changed safely, and why); ``budget.FitToBudget`` applies that plan in one pass.
``tokenlint.fixer`` runs them over paths, verifies and writes.
"""

from __future__ import annotations

__all__ = ["FitToBudget", "FilePlan", "ToolOutcome", "plan_module"]


def __getattr__(name: str):
    """Import on first use: ``check`` imports ``codemods.plan`` for every run, and ``budget``
    pulls in ``libcst.codemod`` and ``libcst.matchers`` (most of a pre-commit run's start-up)."""
    if name == "FitToBudget":
        from tokenlint.codemods.budget import FitToBudget

        return FitToBudget
    if name in ("FilePlan", "ToolOutcome", "plan_module"):
        from tokenlint.codemods import plan

        return getattr(plan, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
