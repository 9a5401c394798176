"""The rule API: metadata, documentation, examples, and a check over one tool's facts.

A rule subclasses ``Rule``, sets ``code``/``name``/``summary``, writes its documentation as the
class docstring with ruff's sections (``## What it does``, ``## Why is this bad?``,
``## Example``, ``## Fix``, ``## References``), lists ``VALID``/``INVALID`` examples, and
implements ``check``. Subclassing registers the rule (``REGISTRY``, keyed by code); the package
``tokenlint.rules`` imports every module so that adding a file adds a rule.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, ClassVar, Iterable, cast

from tokenlint.analysis.facts import ToolFacts
from tokenlint.analysis.taints import Site
from tokenlint.model import Finding, Invalid, Risk, ToolId, Valid

if TYPE_CHECKING:
    from tokenlint.config import Settings
    from tokenlint.source.project import ParsedModule

REGISTRY: dict[str, type[Rule]] = {}


class RuleContext:
    """What a rule may use while checking one tool: the settings (budgets in tokens) and the
    identity of the tool its findings belong to (None outside a tool)."""

    def __init__(self, settings: Settings, tool_id: ToolId | None = None) -> None:
        self.settings = settings
        self.tool_id = tool_id

    def finding(self, rule: Rule, site: Site, message: str, tool: str | None, risk: Risk) -> Finding:
        """A finding at ``site`` (1-based line and column) in the site's own module, for the
        tool named ``tool`` (the context's tool: it carries the context's ``tool_id``)."""
        module = cast("ParsedModule", site.module)  # typed ``object`` in taints (an import cycle)
        line, col, end_line, end_col = module.position(site.node)
        return Finding(
            code=rule.code,
            name=rule.name,
            path=module.display_path,
            line=line,
            column=col,
            message=message,
            tool=tool,
            risk=risk,
            fixable=rule.fixable,
            end_line=end_line,
            end_column=end_col,
            tool_id=self.tool_id if tool is not None else None,
        )


#: The ``## Fix safety`` section of every fixable rule: what ``tokenlint fix`` changes (ruff's
#: terms: the fix is *unsafe* because over-budget responses change shape).
FIX_SAFETY = """## Fix safety
`tokenlint fix` routes the tool's response through `tokenlint.runtime` (`fit_response`, or
`fit_json_text` in place of `json.dumps`). Within the token budget the tool returns exactly what
it returned before. Over it, the tool returns the largest page of whole records (or of text) that
fits, with a `next_action` holding a `cursor`; following it yields every item exactly once. That
changes what a client receives for large results, so review the diff (`tokenlint fix --diff`).
The tool gains a `cursor: str | None = None` parameter (a low-level server: a `cursor` property
in its `inputSchema`) and a return annotation `T` becomes `Paged[T]`, so the SDK's `outputSchema`
accepts both shapes. An unclamped limit (TL107) gets a maximum of 250 items; a constant slice
that silently cut the response (TL301) is dropped, since pages now carry the rest."""


class Rule:
    """Base class of every rule. Class attributes:

    ``code`` (``"TL101"``), ``name`` (kebab-case, names the pattern), ``summary`` (one line),
    ``fixable`` (True when ``tokenlint fix`` rewrites the tools it reports; the docs then end
    with ``FIX_SAFETY``; a finding is marked fixable only if its tool can be rewritten), ``cwe``
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
        """The rule's documentation (its docstring, dedented; ``FIX_SAFETY`` for fixable rules)."""
        text = inspect.cleandoc(cls.__doc__ or "")
        return f"{text}\n\n{FIX_SAFETY}" if cls.fixable else text

    def check(self, facts: ToolFacts, ctx: RuleContext) -> Iterable[Finding]:
        """The findings of this rule for one tool, from its ``facts``, each made with
        ``ctx.finding``; the base class reports none."""
        return ()
