"""The rule API: metadata, documentation, examples, and a check over one tool's facts.

A rule subclasses ``Rule``, sets ``code``/``name``/``summary``, writes its documentation as the
class docstring with ruff's sections (``## What it does``, ``## Why is this bad?``,
``## Example``, ``## Fix``, ``## References``), lists ``VALID``/``INVALID`` examples, and
implements ``check``. Subclassing registers the rule (``REGISTRY``, keyed by code); the package
``tokenlint.rules`` imports every module so that adding a file adds a rule.
"""

from __future__ import annotations

import inspect
from typing import ClassVar, Iterable

from tokenlint.analysis.facts import ToolFacts
from tokenlint.analysis.taints import Site
from tokenlint.model import Finding, Invalid, Risk, Valid

REGISTRY: dict[str, type[Rule]] = {}


class RuleContext:
    """What a rule may use while checking: the settings (budgets in tokens)."""

    def __init__(self, settings) -> None:
        self.settings = settings

    def finding(self, rule: Rule, site: Site, message: str, tool: str | None, risk: Risk) -> Finding:
        """A finding at ``site`` (1-based line and column) in the site's own module."""
        line, col, end_line, end_col = site.module.position(site.node)
        return Finding(
            code=rule.code,
            name=rule.name,
            path=site.module.display_path,
            line=line,
            column=col,
            message=message,
            tool=tool,
            risk=risk,
            fixable=rule.fixable,
            end_line=end_line,
            end_column=end_col,
        )


class Rule:
    """Base class of every rule. Class attributes:

    ``code`` (``"TL101"``), ``name`` (kebab-case, names the pattern), ``summary`` (one line),
    ``fixable`` (True only once a codemod of ``tokenlint fix`` rewrites it; none does yet), ``cwe``
    (an int, for SARIF/JSON tags), ``VALID``/``INVALID`` examples.
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    fixable: ClassVar[bool] = False
    #: The CWE a finding of this rule is an instance of (CWE-400, Uncontrolled Resource
    #: Consumption, as bandit tags it); None for rules that are not about resources (TL001).
    cwe: ClassVar[int | None] = 400
    VALID: ClassVar[list[Valid]] = []
    INVALID: ClassVar[list[Invalid]] = []

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.code:
            if cls.code in REGISTRY:
                raise ValueError(f"duplicate rule code {cls.code}")
            REGISTRY[cls.code] = cls

    @classmethod
    def docs(cls) -> str:
        """The rule's documentation (its docstring, dedented)."""
        return inspect.cleandoc(cls.__doc__ or "")

    def check(self, facts: ToolFacts, ctx: RuleContext) -> Iterable[Finding]:
        return ()
