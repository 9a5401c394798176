"""The edit model of ``tokenlint fix``: what the planner decides and the codemod applies.

A ``FilePlan`` holds every edit of one file, each keyed by the source range of the node it
applies to (``NodeKey``), so that the codemod (``fix.codemod``), which re-parses the file, finds
the very nodes the analysis saw; and one ``ToolOutcome`` per HIGH or MEDIUM tool of the file,
saying whether ``fix`` rewrites it and why not. Only plain data here: the planner
(``fix.planner``) fills these, nothing in this module reads source.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from tokenlint.model import Risk
from tokenlint.source.project import ParsedModule


@dataclass(frozen=True)
class NodeKey:
    """A node by its type and source range: lines 1-based, columns 0-based (LibCST's
    ``PositionProvider``), so the same node is found again in a fresh parse of the same text."""

    kind: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def of(cls, mod: ParsedModule, node: cst.CSTNode) -> NodeKey:
        """The key of ``node``, a node of ``mod``'s tree (a node outside it gets the range of
        line 1, column 0, as ``ParsedModule.position`` gives it). Raises nothing."""
        line, column, end_line, end_column = mod.position(node)
        return cls(type(node).__name__, line, column - 1, end_line, end_column - 1)


@dataclass(frozen=True)
class Wrap:
    """Route one expression through the runtime.

    ``call`` is ``"fit_response"`` (wrap the value) or ``"fit_json_text"`` (the node is a
    ``json.dumps(value, **kw)`` call; its arguments are kept). ``tool`` is the client-visible
    tool name; ``arguments``/``cursor``/``session_id`` are source text; ``max_tokens`` is the
    budget in tokens.
    """

    call: str
    tool: str
    arguments: str
    cursor: str
    max_tokens: int
    session_id: str | None = None
    #: a client profile name written as ``client="..."`` (``--client``), or None
    client: str | None = None
    #: ``tool`` is source text (the handler's name variable: ``name``, ``params.name``), for a
    #: path of a low-level handler that serves several tools; else the name as a string literal
    tool_is_expression: bool = False


@dataclass
class FunctionEdit:
    """Edits on a tool's ``def``: the ``cursor`` parameter, ``Paged[...]``, a local named
    ``cursor`` renamed (it would shadow the parameter), clamp statements (param, max), and an
    arguments snapshot when a parameter is reassigned in the body."""

    add_cursor: bool = False
    paged: bool = False
    rename_cursor_to: str | None = None
    #: ``(parameter, maximum)``: ``parameter = min(parameter, maximum)`` at the top of the body
    #: (the maximum in items, or in chars for a text limit)
    clamps: list[tuple[str, int]] = field(default_factory=list)
    #: ``(name, dict source)``: bind the arguments as called at the top of the body.
    snapshot: tuple[str, str] | None = None
    #: ``ctx``: the name of a ``Context`` parameter to add (mcp 2.x ``MCPServer``, whose request
    #: context the runtime cannot reach otherwise), so cursors bind to the client session
    add_context: str | None = None
    #: add ``@computed_once`` under the tool decorator: every data ``return`` is the runtime
    #: call itself, so a continuation is served from the store without running the body
    computed_once: bool = False

    def merge(self, other: FunctionEdit) -> None:
        """Add the edits of ``other`` (another tool's plan of the same ``def``) to these: flags
        are or-ed, the first name set wins, clamps are appended once."""
        self.add_cursor |= other.add_cursor
        self.paged |= other.paged
        self.rename_cursor_to = self.rename_cursor_to or other.rename_cursor_to
        self.clamps.extend(c for c in other.clamps if c not in self.clamps)
        self.snapshot = self.snapshot or other.snapshot
        self.computed_once |= other.computed_once
        self.add_context = self.add_context or other.add_context


@dataclass(frozen=True)
class ToolOutcome:
    """What ``fix`` did with one HIGH or MEDIUM tool: ``fixed`` or not, and why not (or notes).

    ``name`` is the client-visible tool name, ``path`` the file as displayed, ``line`` 1-based;
    ``reason`` (one line) is set when ``fixed`` is False, ``notes`` (one line each) say what
    else a rewrite did or could not do (a clamp, a dropped cap, no resource link). Frozen: a
    later verdict (the re-check, a refused file) is a new outcome (``dataclasses.replace``).
    """

    name: str
    path: str
    line: int
    risk: Risk
    fixed: bool
    reason: str = ""
    notes: tuple[str, ...] = ()


#: Why a tool is left out after the re-check found the rewrite would not make it LOW.
NOT_LOW_REASON = "the rewrite would not make it LOW (some data reaches the response another way)"


@dataclass
class FilePlan:
    """Every edit of one file, keyed by ``NodeKey``, plus the runtime names to import.

    True when it wraps at least one expression (a plan without a wrap changes nothing)."""

    wraps: dict[NodeKey, Wrap] = field(default_factory=dict)
    functions: dict[NodeKey, FunctionEdit] = field(default_factory=dict)
    #: expressions to wrap in ``min(<expression>, maximum)``: key → maximum (items or chars)
    clamp_exprs: dict[NodeKey, int] = field(default_factory=dict)
    #: ``x[:N]`` subscripts that become ``x`` (a silent cap the pages make needless)
    drop_slices: set[NodeKey] = field(default_factory=set)
    #: ``inputSchema=`` values of low-level ``Tool(...)`` definitions, to route through
    #: ``with_cursor_parameter(...)``
    schemas: set[NodeKey] = field(default_factory=set)
    #: ``description=`` string literals of low-level ``Tool(...)`` definitions of paged tools,
    #: which gain the paging sentence (``fix.codemod.PAGING_HINT``).
    descriptions: set[NodeKey] = field(default_factory=set)
    #: Values returned by the server's ``list_tools`` handler, to route through
    #: ``declare_cursor(value, names)``: the tools whose schemas are built out of reach.
    tool_lists: dict[NodeKey, set[str]] = field(default_factory=dict)
    #: names to import from ``tokenlint.runtime``
    imports: set[str] = field(default_factory=set)
    #: ``(module, name)`` imports from the SDK (``("mcp.server.mcpserver", "Context")``)
    sdk_imports: set[tuple[str, str]] = field(default_factory=set)
    #: ``register_result_resource(<server>)`` to add after a top-level statement: the key of
    #: that statement → the server's name (``fix.result_resource``)
    resources: dict[NodeKey, str] = field(default_factory=dict)
    outcomes: list[ToolOutcome] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.wraps)

    def merge(self, other: FilePlan) -> None:
        """Add the edits of ``other`` (the plan of one more tool of the file) to this plan; its
        ``outcomes`` are not copied."""
        self.wraps.update(other.wraps)
        for key, names in other.tool_lists.items():
            self.tool_lists.setdefault(key, set()).update(names)
        for key, edit in other.functions.items():
            self.functions.setdefault(key, FunctionEdit()).merge(edit)
        self.clamp_exprs.update(other.clamp_exprs)
        self.drop_slices |= other.drop_slices
        self.schemas |= other.schemas
        self.descriptions |= other.descriptions
        self.imports |= other.imports
        self.sdk_imports |= other.sdk_imports
        self.resources.update(other.resources)
