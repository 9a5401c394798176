"""Codemods of ``tokenlint fix`` (LibCST ``VisitorBasedCodemodCommand``s).

``plan`` decides, from the analysis ``check`` runs, what changes in a file (and which tools
cannot be changed safely, and why); ``budget.FitToBudget`` applies that plan in one pass.
``tokenlint.fixer`` runs them over paths, verifies and writes.
"""

from tokenlint.codemods.budget import FitToBudget
from tokenlint.codemods.plan import FilePlan, ToolOutcome, plan_module

__all__ = ["FitToBudget", "FilePlan", "ToolOutcome", "plan_module"]
