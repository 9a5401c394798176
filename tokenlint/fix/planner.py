"""What ``tokenlint fix`` will change in one file, decided from the same analysis as ``check``.

``plan_module`` turns the ``ToolFacts`` of the HIGH and MEDIUM tools of one module into a
``FilePlan``: edits keyed by the source range of the node they apply to (``NodeKey``), so that the
codemod (``tokenlint.fix.codemod``), which re-parses the file, finds the very nodes the
analysis saw. A tool that cannot be rewritten safely gets a ``ToolOutcome`` with the reason and
no edit at all: a tool is rewritten whole or not touched.

Edits per tool (design.md, "What a rewritten tool returns"):

- FastMCP-style tools (``args_style == "signature"``): every ``return`` that carries data goes
  through ``fit_response`` (``json.dumps(x, **kw)`` becomes ``fit_json_text(x, **kw)``, a
  ``TextContent(text=...)`` gets its text fitted); a ``cursor: str | None = None`` parameter is
  added; a return annotation ``T`` becomes ``Paged[T]`` so the SDK's ``outputSchema`` accepts
  both the unchanged value and a page. When every such ``return`` is the runtime call itself,
  ``@computed_once`` goes under the tool decorator: continuations are served from the result
  store without running the body (a page inside a content block cannot be rebuilt, so there
  the body still runs per page). An mcp 2.x ``MCPServer`` tool with no ``Context`` parameter
  gets ``ctx: Context | None = None`` (the SDK injects it; it is not in the input schema) and
  passes ``session_id_from_context(ctx)``, so its cursors bind to the client session.
- Low-level dispatch branches (``args_style == "mapping"``): the ``text=`` of each returned
  ``TextContent`` is fitted (``fit_json_text`` pages the records *before* ``json.dumps``), and the
  tool's ``inputSchema`` in the list-tools handler becomes ``with_cursor_parameter(...)``.
- TL107: a caller limit gets an enforced maximum (``limit = min(limit, 1000)``).
- TL301: a constant slice ``[:N]`` that silently cut the response is dropped, since the page
  and its ``next_action`` now carry the rest; other caps (SQL ``LIMIT 50``) stay and are listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import libcst as cst

from tokenlint.analysis.facts import HUGE_CHARS, HUGE_ITEMS, FlowKind, ToolFacts
from tokenlint.discovery import SERVER_CLASSES
from tokenlint.discovery.lowlevel import literal_names
from tokenlint.source.imports import dotted_name
from tokenlint.model import Risk
from tokenlint.source.project import ParsedModule
from tokenlint.source.walk import code_children, walk  # skip whitespace; ~10x faster than .children

#: Enforced maximum given to an unclamped item limit (TL107), in items: the largest cap the
#: analysis still counts as a bound (``facts.HUGE_ITEMS``); pages keep each response in budget.
CLAMP_MAX_ITEMS = HUGE_ITEMS
#: Enforced maximum given to an unclamped text limit (TL107 on a file or command output), in chars.
CLAMP_MAX_CHARS = HUGE_CHARS

#: A parameter ``min(p, N)`` may rebind: an int (possibly ``Annotated[int, ...]``).
_INT_ANNOTATION = re.compile(r"^((typing\.)?Annotated\[\s*)?int\b")
_TEXT_CODES = ("TL102", "TL104")  # file and command output: limits count chars
_CONTEXT_ANNOTATIONS = re.compile(r"\b(Context|RequestContext|ServerSession)\b")
#: Return annotations whose values ``fit_response`` can page as they are (JSON-able containers).
_PAGEABLE_ANNOTATION = re.compile(
    r"^(typing\.)?(list|List|dict|Dict|Sequence|Mapping|MutableMapping|Any|tuple|Tuple|Iterable|object)\b"
)
_TEXT_ANNOTATION = re.compile(r"^(builtins\.)?str$")
#: Open dict annotations: a page envelope validates against them as it is, and wrapping them in
#: ``Paged[...]`` (a Union) would make the SDKs nest even small results under ``"result"``.
_OPEN_DICT_ANNOTATION = re.compile(
    r"^(typing\.)?(dict|Dict|Mapping|MutableMapping)(\[\s*str\s*,\s*(typing\.)?(Any|object)\s*\])?$"
)
_ARGUMENT_PARAMS = ("arguments", "args", "tool_args", "tool_arguments", "arguments_", "input", "params")


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
        line, col, end_line, end_col = mod.position(node)
        return cls(type(node).__name__, line, col - 1, end_line, end_col - 1)


@dataclass(frozen=True)
class Wrap:
    """Route one expression through the runtime.

    ``call`` is ``"fit_response"`` (wrap the value) or ``"fit_json_text"`` (the node is a
    ``json.dumps(value, **kw)`` call; its arguments are kept). ``arguments``/``cursor``/
    ``session_id`` are source text; ``max_tokens`` is the budget in tokens.
    """

    call: str
    tool: str
    arguments: str
    cursor: str
    max_tokens: int
    session_id: str | None = None
    #: a client profile name written as ``client="..."`` (``--client``), or None
    client: str | None = None


@dataclass
class FunctionEdit:
    """Edits on a tool's ``def``: the ``cursor`` parameter, ``Paged[...]``, a local named
    ``cursor`` renamed (it would shadow the parameter), clamp statements (param, max), and an
    arguments snapshot when a parameter is reassigned in the body."""

    add_cursor: bool = False
    paged: bool = False
    rename_cursor_to: str | None = None
    clamps: list[tuple[str, int]] = field(default_factory=list)
    #: ``(name, dict source)``: bind the arguments as called at the top of the body.
    snapshot: tuple[str, str] | None = None
    #: ``ctx``: the name of a ``Context`` parameter to add (mcp 2.x ``MCPServer``, whose request
    #: context the runtime cannot reach otherwise), so cursors bind to the client session
    add_context: str | None = None
    #: add ``@computed_once`` under the tool decorator: every data ``return`` is the runtime
    #: call itself, so a continuation is served from the store without running the body
    computed_once: bool = False


@dataclass
class ToolOutcome:
    """What ``fix`` did with one HIGH or MEDIUM tool: ``fixed`` or not, and why not (or notes)."""

    name: str
    path: str
    line: int
    risk: Risk
    fixed: bool
    reason: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass
class FilePlan:
    """Every edit of one file, keyed by ``NodeKey``, plus the runtime names to import."""

    wraps: dict[NodeKey, Wrap] = field(default_factory=dict)
    functions: dict[NodeKey, FunctionEdit] = field(default_factory=dict)
    clamp_exprs: dict[NodeKey, int] = field(default_factory=dict)
    drop_slices: set[NodeKey] = field(default_factory=set)
    schemas: set[NodeKey] = field(default_factory=set)
    #: ``description=`` string literals of low-level ``Tool(...)`` definitions of paged tools,
    #: which gain the paging sentence (``PAGING_HINT``).
    descriptions: set[NodeKey] = field(default_factory=set)
    #: Values returned by the server's ``list_tools`` handler, to route through
    #: ``declare_cursor(value, names)``: the tools whose schemas are built out of reach.
    tool_lists: dict[NodeKey, set[str]] = field(default_factory=dict)
    imports: set[str] = field(default_factory=set)
    #: ``(module, name)`` imports from the SDK (``("mcp.server.mcpserver", "Context")``)
    sdk_imports: set[tuple[str, str]] = field(default_factory=set)
    #: ``register_result_resource(<server>)`` to add after a top-level statement: the key of
    #: that statement → the server's name (``result_resources``)
    resources: dict[NodeKey, str] = field(default_factory=dict)
    outcomes: list[ToolOutcome] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.wraps)


def annotation_kind(ann: str) -> str:
    """How a return annotation must change for a paged tool: ``"keep"`` (every arm is text, an open
    dict, None or already ``Paged``: a page validates as it is), ``"paged"`` (``T`` becomes
    ``Paged[T]``) or ``"refuse"`` (an arm the runtime cannot page, such as a model class)."""
    kinds = set()
    for arm in _union_arms(ann):
        if arm in ("None", "NoneType") or _TEXT_ANNOTATION.match(arm) or _OPEN_DICT_ANNOTATION.match(arm) \
                or arm.startswith(("Paged[", "tokenlint.runtime.Paged[")):
            kinds.add("keep")
        elif _PAGEABLE_ANNOTATION.match(arm) and "Content" not in arm:
            kinds.add("paged")
        elif re.search(r"TextContent|Content\b", arm):
            kinds.add("keep")  # content blocks: their text is fitted, the list stays
        else:
            kinds.add("refuse")
    return "refuse" if "refuse" in kinds else "paged" if "paged" in kinds else "keep"


def _union_arms(ann: str) -> list[str]:
    """``Optional[X]`` → [X, None]; ``Union[A, B]`` and ``A | B`` → [A, B] (top level only)."""
    ann = ann.strip()
    m = re.match(r"^(typing\.)?(Optional|Union)\[(.*)\]$", ann, re.S)
    if m:
        arms = _split_top(m.group(3), ",")
        return [a for arm in arms for a in _union_arms(arm)] + (["None"] if m.group(2) == "Optional" else [])
    arms = _split_top(ann, "|")
    return [a.strip() for a in arms] if len(arms) > 1 else [ann]


def _split_top(text: str, sep: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


class Unfixable(Exception):
    """A tool cannot be rewritten safely; the message says why (shown to the user)."""


def plan_module(mod: ParsedModule, facts_list: list[ToolFacts], max_tokens: int,
                exclude: frozenset[str] = frozenset(), client: str | None = None) -> FilePlan:
    """Plan the rewrite of every HIGH or MEDIUM tool defined in ``mod``.

    ``facts_list``: the facts of the module's tools (``ToolFacts.risk`` set by the engine);
    ``max_tokens``: the budget written into each call (tokens); ``exclude``: tool names not to
    rewrite (a first attempt did not make them LOW); ``client``: the client profile each call
    names (``client="codex"``), None for none. Never raises for a tool: ``Unfixable``
    becomes a ``ToolOutcome`` with ``fixed=False``.
    """
    plan = FilePlan()
    for facts in facts_list:
        if facts.risk is None or facts.risk < Risk.MEDIUM:
            continue
        tool = facts.tool
        outcome = ToolOutcome(tool.name, mod.display_path, mod.line_of(tool.anchor), facts.risk, False)
        plan.outcomes.append(outcome)
        if tool.name in exclude:
            outcome.reason = NOT_LOW_REASON
            continue
        sub = FilePlan()
        try:
            _plan_tool(sub, mod, facts, max_tokens, outcome)
        except Unfixable as exc:
            outcome.reason = str(exc)
            continue
        _merge(plan, sub)
        outcome.fixed = True
    if client:
        plan.wraps = {k: replace(w, client=client) for k, w in plan.wraps.items()}
    _plan_result_resources(plan, mod, [f.tool for f in facts_list
                                       if any(o.fixed and o.name == f.tool.name for o in plan.outcomes)])
    return plan


def unfixable_reason(facts: ToolFacts) -> str | None:
    """Why ``tokenlint fix`` would leave this tool alone (None: it would rewrite it). A dry run of
    the planner; used by ``check`` to mark only findings ``fix`` can act on as fixable."""
    if facts.risk is None or facts.risk < Risk.MEDIUM:
        return "only HIGH and MEDIUM tools are rewritten"
    outcome = ToolOutcome(facts.tool.name, "", 0, facts.risk, False)
    try:
        _plan_tool(FilePlan(), facts.tool.module, facts, 10_000, outcome)
    except Unfixable as exc:
        return str(exc)
    return None


#: Why a tool is left out after the re-check found the rewrite would not make it LOW.
NOT_LOW_REASON = "the rewrite would not make it LOW (some data reaches the response another way)"


def _merge(plan: FilePlan, sub: FilePlan) -> None:
    plan.wraps.update(sub.wraps)
    for key, names in sub.tool_lists.items():
        plan.tool_lists.setdefault(key, set()).update(names)
    for key, edit in sub.functions.items():
        have = plan.functions.setdefault(key, FunctionEdit())
        have.add_cursor |= edit.add_cursor
        have.paged |= edit.paged
        have.rename_cursor_to = have.rename_cursor_to or edit.rename_cursor_to
        have.clamps.extend(c for c in edit.clamps if c not in have.clamps)
        have.snapshot = have.snapshot or edit.snapshot
        have.computed_once |= edit.computed_once
        have.add_context = have.add_context or edit.add_context
    plan.clamp_exprs.update(sub.clamp_exprs)
    plan.drop_slices |= sub.drop_slices
    plan.schemas |= sub.schemas
    plan.descriptions |= sub.descriptions
    plan.imports |= sub.imports
    plan.sdk_imports |= sub.sdk_imports
    plan.resources.update(sub.resources)


def _plan_tool(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, max_tokens: int,
               outcome: ToolOutcome) -> None:
    tool = facts.tool
    if not facts.data_returns:
        raise Unfixable("no `return` carries the data (it reaches the response another way)")
    returns = [site.node for site in facts.data_returns]
    if any(site.module is not mod for site in facts.data_returns):
        raise Unfixable("its data is returned from another module")
    if tool.args_style == "signature":
        wrap_for = _signature_tool(plan, mod, facts, max_tokens)
    else:
        wrap_for = _mapping_tool(plan, mod, facts, max_tokens)
    for ret in returns:
        assert isinstance(ret, cst.Return) and ret.value is not None
        _refuse_resource_copies(ret.value, tool.body)
        _plan_return(plan, mod, ret.value, wrap_for, tool.args_style == "mapping")
    if tool.args_style == "signature" and all(
            NodeKey.of(mod, ret.value) in plan.wraps for ret in returns):
        # the page is the tool's value (not wrapped in a content block): the runtime can serve
        # a continuation from the store without the body (``tokenlint.runtime.once``)
        plan.functions[NodeKey.of(mod, tool.func)].computed_once = True
        plan.imports.add("computed_once")
    _plan_clamps(plan, mod, facts, outcome)
    _plan_truncations(plan, mod, facts, outcome)


# -- FastMCP-style tools ----------------------------------------------------------------------

def _signature_tool(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, max_tokens: int):
    fn = facts.tool.func
    params = [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]
    names = [p.name.value for p in params]
    if "cursor" in names:
        raise Unfixable("it already has a `cursor` parameter of its own; tokenlint.runtime needs that argument name")
    clamped = {fl.param for fl in facts.flows if fl.kind is FlowKind.CALLER and fl.param}
    arg_names: list[str] = []
    session = None
    for p in params:
        name = p.name.value
        ann = node_code(p.annotation.annotation) if p.annotation else ""
        if name in ("self", "cls"):
            continue
        if _CONTEXT_ANNOTATIONS.search(ann) or (not ann and name in ("ctx", "context")):
            session = f"session_id_from_context({name})"
            continue
        arg_names.append(name)
    edit = FunctionEdit(add_cursor=True)
    plan.imports.add("Cursor")
    args = "{" + ", ".join(f'"{n}": {n}' for n in arg_names) + "}"
    if _rebound_names(fn, set(arg_names) - clamped):
        # a parameter is reassigned before the return (``end = end or now()``): take the
        # arguments as called, at the top, so ``next_action`` repeats the client's own call
        edit.snapshot = (_free_name(fn, "call_arguments"), args)
        args = edit.snapshot[0]
    if fn.returns is not None:
        ann = node_code(fn.returns.annotation).strip()
        kind = annotation_kind(ann)
        if kind == "paged":
            edit.paged = True
            plan.imports.add("Paged")
        elif kind == "refuse":
            raise Unfixable(f"it returns `{ann}`, which tokenlint.runtime cannot page "
                            "(lists, dicts holding a list, and text can be paged)")
    if _binds_name(fn, "cursor"):
        # as long as ``cursor``: the renamed lines keep their length, so their layout stays
        # what the project's formatter made it
        edit.rename_cursor_to = _free_name(fn, "db_cur")
    if session is None and facts.tool.framework == "mcp-mcpserver" and _context_name_free(mod):
        # mcp 2.x MCPServer keeps no request context the runtime can reach: without a Context
        # parameter a cursor would be accepted from any client session (over HTTP)
        edit.add_context = _free_name(fn, "ctx")
        session = f"session_id_from_context({edit.add_context})"
        plan.sdk_imports.add((MCPSERVER_CONTEXT_MODULE, "Context"))
    plan.functions[NodeKey.of(mod, fn)] = edit
    if session:
        plan.imports.add("session_id_from_context")

    def wrap_for(call: str) -> Wrap:
        return Wrap(call, facts.tool.name, args, "cursor", max_tokens, session)

    return wrap_for


#: Where mcp 2.x exports the ``Context`` its ``MCPServer`` injects into a tool.
MCPSERVER_CONTEXT_MODULE = "mcp.server.mcpserver"


def _context_name_free(mod: ParsedModule) -> bool:
    """Whether ``Context`` in ``mod`` is mcp 2.x's or unbound (so ``from mcp.server.mcpserver
    import Context`` can be added without shadowing a name of the module's own)."""
    bound = mod.imports.qualify_dotted("Context")
    if bound is not None:
        return bound in (f"{MCPSERVER_CONTEXT_MODULE}.Context", "mcp.server.mcpserver.context.Context")
    return not any(isinstance(n, (cst.ClassDef, cst.FunctionDef)) and n.name.value == "Context"
                   for n in mod.tree.body) and not any(
        isinstance(n, cst.Name) and n.value == "Context" for n in walk(mod.tree))


# -- low-level dispatch branches -------------------------------------------------------------

def _mapping_tool(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, max_tokens: int):
    tool = facts.tool
    args = _arguments_expression(tool.func)
    if args is None:
        raise Unfixable(f"cannot tell which parameter of `{tool.func.name.value}` holds the tool's arguments")
    schema = _input_schema(mod, tool.name)
    if schema is None:
        # the schema is built where no literal says it (a registry, a class attribute, a model):
        # declare the cursor when the list is sent, in the list_tools handler of this file
        returns = _list_tools_returns(mod)
        if not returns:
            raise Unfixable(f"neither its `Tool(name={tool.name!r}, inputSchema=...)` nor a `list_tools` "
                            f"handler was found in {mod.display_path}, so the `cursor` argument cannot be declared")
        for value in returns:
            plan.tool_lists.setdefault(NodeKey.of(mod, value), set()).add(tool.name)
        plan.imports.add("declare_cursor")
    elif not (isinstance(schema, cst.Call) and dotted_name(schema.func) in ("with_cursor_parameter",)):
        plan.schemas.add(NodeKey.of(mod, schema))
        plan.imports.add("with_cursor_parameter")
    description = _tool_description(mod, tool.name)
    if description is not None:
        plan.descriptions.add(NodeKey.of(mod, description))
    optional = args.endswith(".arguments")
    cursor = f'({args} or {{}}).get("cursor")' if optional else f'{args}.get("cursor")'

    def wrap_for(call: str) -> Wrap:
        return Wrap(call, tool.name, args, cursor, max_tokens)

    return wrap_for


def _arguments_expression(fn: cst.FunctionDef) -> str | None:
    names = [p.name.value for p in fn.params.params if p.name.value not in ("self", "cls")]
    for n in names:
        if n in ("params", "request"):
            return f"{n}.arguments" if n == "params" else f"{n}.params.arguments"
    for n in names:
        if n in _ARGUMENT_PARAMS or "arg" in n.lower():
            return n
    return None


def _list_tools_returns(mod: ParsedModule) -> list[cst.BaseExpression]:
    """The values returned by the low-level server's tools/list handler defined in ``mod``: a
    function decorated ``@server.list_tools()`` (mcp 1.x) or passed as ``on_list_tools=`` (mcp
    2.x). Returns already routed through ``declare_cursor`` count as the value they wrap."""
    handlers: list[cst.FunctionDef] = []
    named: set[str] = set()
    for node in walk(mod.tree):
        if isinstance(node, cst.Call):
            for a in node.args:
                if a.keyword is not None and a.keyword.value == "on_list_tools":
                    name = dotted_name(a.value)
                    if name:
                        named.add(name.split(".")[-1])
        elif isinstance(node, cst.FunctionDef):
            for d in node.decorators:
                target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
                if isinstance(target, cst.Attribute) and target.attr.value == "list_tools":
                    handlers.append(node)
    handlers += [fn for fn in (mod.functions.get(n) for n in named) if fn is not None and fn not in handlers]
    out: list[cst.BaseExpression] = []
    for fn in handlers:
        stack: list[cst.CSTNode] = list(code_children(fn.body))
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            if isinstance(node, cst.Return) and node.value is not None:
                value = node.value
                if isinstance(value, cst.Call) and dotted_name(value.func) == "declare_cursor" and value.args:
                    value = value.args[0].value
                out.append(value)
                continue
            stack.extend(code_children(node))
    return out


#: The sentence ``fix`` adds to a paged tool's description (its docstring, or a low-level
#: ``Tool(description="...")`` literal) so the model knows a response may come in pages.
PAGING_HINT = "Long results are paged: follow next_action for the rest."


def _tool_description(mod: ParsedModule, tool_name: str) -> cst.SimpleString | None:
    """The ``description=`` of ``Tool(name=<tool_name>, ...)`` when it is a plain one-line string
    literal the paging sentence can be appended to."""
    for node in walk(mod.tree):
        if not (isinstance(node, cst.Call) and (dotted_name(node.func) or "").split(".")[-1] == "Tool"):
            continue
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if "name" in kw and tool_name in [*literal_names(mod, kw["name"]), *_constant_string(mod, kw["name"])]:
            value = kw.get("description")
            if isinstance(value, cst.SimpleString) and value.prefix == "" and value.quote in ('"', "'"):
                return value
            return None
    return None


def _constant_string(mod: ParsedModule, node: cst.BaseExpression) -> list[str]:
    """``[value]`` for a name bound once at module level to a string literal (``TOOL = "x"``)."""
    if not isinstance(node, cst.Name):
        return []
    found = [stmt.body[0].value for stmt in mod.tree.body
             if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
             and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1
             and isinstance(stmt.body[0].targets[0].target, cst.Name)
             and stmt.body[0].targets[0].target.value == node.value]
    if len(found) == 1 and isinstance(found[0], cst.SimpleString) and isinstance(found[0].evaluated_value, str):
        return [found[0].evaluated_value]
    return []


def _input_schema(mod: ParsedModule, tool_name: str) -> cst.BaseExpression | None:
    """The ``inputSchema=`` (or ``input_schema=``) value of ``Tool(name=<tool_name>, ...)``."""
    for node in walk(mod.tree):
        if not (isinstance(node, cst.Call) and (dotted_name(node.func) or "").split(".")[-1] == "Tool"):
            continue
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if "name" in kw and tool_name in literal_names(mod, kw["name"]):
            return kw.get("inputSchema") or kw.get("input_schema")
    return None


# -- returns ----------------------------------------------------------------------------------

def _plan_return(plan: FilePlan, mod: ParsedModule, value: cst.BaseExpression, wrap_for, mapping: bool) -> None:
    texts = [node for node in walk(value) if isinstance(node, cst.Call)
             and (dotted_name(node.func) or "").split(".")[-1] == "TextContent"]
    if texts:
        for call in texts:
            text = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "text"), None)
            if text is None:
                raise Unfixable("a returned `TextContent` has no `text=` argument")
            _wrap_value(plan, mod, text, wrap_for)
        return
    if mapping:
        dumps = [node for node in walk(value) if _is_json_dumps(mod, node)]
        dumps += [arg for node in walk(value) if isinstance(node, cst.Call)
                  for arg in _text_helper_args(mod, node) if not any(arg in walk(d) for d in dumps)]
        if not dumps:
            raise Unfixable("its branch returns no `TextContent` or `json.dumps(...)` text that could be paged")
        for call in dumps:
            _wrap_value(plan, mod, call, wrap_for)
        return
    if isinstance(value, cst.Call) and not _is_json_dumps(mod, value):
        callee = (dotted_name(value.func) or "").split(".")[-1]
        if callee[:1].isupper():
            raise Unfixable(f"it returns a `{callee}(...)` object, which tokenlint.runtime cannot page")
    _wrap_value(plan, mod, value, wrap_for)


#: Content blocks that carry data beside the text ``fix`` pages (an embedded resource's contents).
_RESOURCE_BLOCKS = frozenset({"EmbeddedResource", "TextResourceContents", "BlobResourceContents"})


def _refuse_resource_copies(value: cst.BaseExpression, body) -> None:
    """Raise ``Unfixable`` when the returned ``value`` also sends data in an embedded resource,
    written in the return or in a local the return names (assigned in ``body``, the tool's
    statements): only the text would be paged, so the rewrite would not make the tool LOW."""
    names = {n.value for n in walk(value) if isinstance(n, cst.Name)}
    parts = [value]
    for stmt in body:
        for node in walk(stmt):
            if isinstance(node, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value in names for t in node.targets):
                parts.append(node.value)
    for part in parts:
        for node in walk(part):
            if isinstance(node, cst.Call) and (dotted_name(node.func) or "").split(".")[-1] in _RESOURCE_BLOCKS \
                    and not all(isinstance(a.value, (cst.SimpleString, cst.Integer)) for a in node.args
                                if a.keyword is not None and a.keyword.value in ("text", "blob")):
                raise Unfixable("it also sends the data in an embedded resource, which tokenlint.runtime "
                                "cannot page (only the text would be paged)")


def _text_helper_args(mod: ParsedModule, call: cst.Call) -> list[cst.BaseExpression]:
    """For ``text_result(x)`` where ``text_result`` is a function of ``mod`` that puts its
    parameter into ``TextContent(text=param)``: ``[x]``."""
    fn = mod.functions.get(dotted_name(call.func) or "")
    if fn is None:
        return []
    names = [p.name.value for p in fn.params.params]
    out = []
    for node in walk(fn.body):
        if isinstance(node, cst.Call) and (dotted_name(node.func) or "").split(".")[-1] == "TextContent":
            text = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "text"), None)
            if isinstance(text, cst.Name) and text.value in names:
                i = names.index(text.value)
                arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == text.value), None)
                if arg is None and i < len(call.args) and call.args[i].keyword is None:
                    arg = call.args[i]
                if arg is not None:
                    out.append(arg.value)
    return out


def _wrap_value(plan: FilePlan, mod: ParsedModule, value: cst.BaseExpression, wrap_for) -> None:
    if isinstance(value, cst.Call) and dotted_name(value.func) in RUNTIME_CALLS:
        return
    if _is_json_dumps(mod, value) and value.args and value.args[0].keyword is None \
            and value.args[0].star == "":
        plan.wraps[NodeKey.of(mod, value)] = wrap_for("fit_json_text")
        plan.imports.add("fit_json_text")
    else:
        plan.wraps[NodeKey.of(mod, value)] = wrap_for("fit_response")
        plan.imports.add("fit_response")


RUNTIME_CALLS = frozenset({"fit_response", "fit_json_text"})


def _is_json_dumps(mod: ParsedModule, node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and mod.imports.qualify(node.func) == "json.dumps"


# -- the result resource ---------------------------------------------------------------------

#: Why a rewritten tool's pages carry no resource link (a ``ToolOutcome`` note).
NO_RESOURCE_NOTE = ("no link to the full result: call `register_result_resource(<server>)` where "
                    "its server is made (not a module-level name here)")


def _plan_result_resources(plan: FilePlan, mod: ParsedModule, tools: list) -> None:
    """One ``register_result_resource(<server>)`` per server of the rewritten ``tools``, after the
    module's last top-level statement that makes the server or registers on it: the low-level
    mcp 1.x ``Server`` takes its handlers from decorators below its construction, and the
    call wraps them (``tokenlint.runtime.sdk_hooks``), so it must come after them; one rule for
    every SDK keeps the place predictable (the tools above it, ``__main__`` below). None when the
    module calls it for that server already (idempotent)."""
    names: set[str] = set()
    unresolved = []
    for tool in tools:
        name = _server_name(mod, tool)
        if name is None:
            unresolved.append(tool.name)
        else:
            names.add(name)
    for name in sorted(names):
        if _registers_resource(mod, name):
            continue
        anchor = _last_statement_on(mod, name)
        if anchor is None:
            unresolved.extend(t.name for t in tools if _server_name(mod, t) == name)
            continue
        plan.resources[NodeKey.of(mod, anchor)] = name
        plan.imports.add("register_result_resource")
    if unresolved and not names:
        for outcome in plan.outcomes:
            if outcome.fixed and outcome.name in unresolved:
                outcome.notes.append(NO_RESOURCE_NOTE)


def _server_name(mod: ParsedModule, tool) -> str | None:
    """The module-level name of ``tool``'s server in ``mod``, or None (a parameter, an
    attribute, a server this module cannot name)."""
    if tool.args_style == "mapping":  # low-level: the handler's ``@server.call_tool()``, or
        for d in tool.func.decorators:  # ``server = Server(..., on_call_tool=handler)``
            target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                name = target.value.value
                return name if _bound_at_top(mod, name) else None
        for stmt in mod.tree.body:
            assign = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and stmt.body else None
            if isinstance(assign, cst.Assign) and len(assign.targets) == 1 \
                    and isinstance(assign.targets[0].target, cst.Name) and isinstance(assign.value, cst.Call) \
                    and any(a.keyword is not None and a.keyword.value == "on_call_tool"
                            and isinstance(a.value, cst.Name) and a.value.value == tool.func.name.value
                            for a in assign.value.args):
                return assign.targets[0].target.value
        # a handler looked up in a registry: the module's one low-level server
        made = [name for stmt in mod.tree.body for name in _made_servers(mod, stmt, "mcp-lowlevel")]
        return made[0] if len(made) == 1 else None
    server_id = tool.server_id or ""
    prefix = f"{mod.module_name}."
    if server_id.startswith(prefix) and "." not in server_id[len(prefix):]:
        name = server_id[len(prefix):]
        return name if _bound_at_top(mod, name) else None
    imported = sorted(local for local, qualified in mod.imports.names.items()
                      if qualified == server_id and "." not in local)
    return imported[0] if imported and _bound_at_top(mod, imported[0]) else None


def _made_servers(mod: ParsedModule, stmt: cst.CSTNode, framework: str) -> list[str]:
    """The names a top-level statement binds to a new server of ``framework``."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], (cst.Assign, cst.AnnAssign))):
        return []
    assign = stmt.body[0]
    if not isinstance(assign.value, cst.Call) or SERVER_CLASSES.get(mod.imports.qualify(assign.value.func) or "") != framework:
        return []
    targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]
    return [t.value for t in targets if isinstance(t, cst.Name)]


def _bound_at_top(mod: ParsedModule, name: str) -> bool:
    """Whether a top-level statement of ``mod`` assigns or imports ``name``."""
    return any(_binds(stmt, name) for stmt in mod.tree.body)


def _binds(stmt: cst.CSTNode, name: str) -> bool:
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        if isinstance(small, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets):
            return True
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                and small.target.value == name and small.value is not None:
            return True
        if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar) and any(
                (dotted_name(a.asname.name) if a.asname else dotted_name(a.name)) == name for a in small.names):
            return True
    return False


def _root_name(node: cst.BaseExpression) -> str | None:
    """``mcp`` for ``mcp.tool``, ``mcp.tool()``, ``mcp.tool(name="x")(fn)``."""
    while isinstance(node, (cst.Call, cst.Attribute)):
        node = node.func if isinstance(node, cst.Call) else node.value
    return node.value if isinstance(node, cst.Name) else None


def _registers_on(stmt: cst.CSTNode, name: str) -> bool:
    """Whether a top-level statement registers something on the server ``name``: a decorator
    rooted at it (``@mcp.tool()``, ``@server.call_tool()``), or a call on it or given it
    (``mcp.add_tool(f)``, ``Catalog(db).register(mcp)``), not ``mcp.run()``."""
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return any(_root_name(d.decorator) == name for d in stmt.decorators)
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        call = small.value if isinstance(small, cst.Expr) else None
        if not isinstance(call, cst.Call):
            continue
        method = call.func
        while isinstance(method, cst.Call):
            method = method.func
        if _root_name(call) == name and not (isinstance(method, cst.Attribute)
                                             and method.attr.value.startswith("run")):
            return True
        if any(isinstance(a.value, cst.Name) and a.value.value == name for a in call.args):
            return True
    return False


def _last_statement_on(mod: ParsedModule, name: str) -> cst.CSTNode | None:
    """The last top-level statement of ``mod`` that binds the server ``name`` or registers on
    it, when it comes after the binding (else None)."""
    last = None
    for stmt in mod.tree.body:
        if _binds(stmt, name):
            last = stmt
        elif last is not None and _registers_on(stmt, name):
            last = stmt
    return last


def _registers_resource(mod: ParsedModule, name: str) -> bool:
    """Whether ``mod`` calls ``register_result_resource(<name>, ...)`` anywhere."""
    return any(isinstance(n, cst.Call) and (dotted_name(n.func) or "").split(".")[-1] == "register_result_resource"
               and n.args and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == name
               for n in walk(mod.tree))


# -- TL107 clamps and TL301 truncations --------------------------------------------------------

def _plan_clamps(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, outcome: ToolOutcome) -> None:
    done: set[str] = set()
    for fl in facts.flows:
        if fl.kind is not FlowKind.CALLER or not fl.param or fl.param in done or fl.param_site is None:
            continue
        done.add(fl.param)
        maximum = CLAMP_MAX_CHARS if fl.src.code in _TEXT_CODES else CLAMP_MAX_ITEMS
        node = fl.param_site.node
        if isinstance(node, cst.Param) and facts.tool.args_style == "signature":
            ann = node_code(node.annotation.annotation) if node.annotation else ""
            fn = facts.tool.func.params
            own = any(node is p for p in [*fn.posonly_params, *fn.params, *fn.kwonly_params])
            if not own or node.name.value != fl.param or not _INT_ANNOTATION.match(ann or "int"):
                # ``params.max`` of a model parameter, or a helper's own ``max`` parameter:
                # nothing of the tool's to rebind at the top of its body
                outcome.notes.append(f"`{fl.param}` could not be clamped where it is read")
                continue
            if "None" in ann or "Optional" in ann:
                outcome.notes.append(f"`{fl.param}` may be None, so it was not clamped")
                continue
            plan.functions[NodeKey.of(mod, facts.tool.func)].clamps.append((fl.param, maximum))
        elif isinstance(node, (cst.Call, cst.Subscript)) and fl.param_site.module is mod:
            plan.clamp_exprs[NodeKey.of(mod, node)] = maximum
        else:
            outcome.notes.append(f"`{fl.param}` could not be clamped where it is read")
            continue
        outcome.notes.append(f"`{fl.param}` is clamped to at most {maximum:,}")


def _plan_truncations(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, outcome: ToolOutcome) -> None:
    if facts.continuation:
        return
    for fl in facts.flows:
        if fl.kind is not FlowKind.CAPPED or fl.bound_site is None:
            continue
        node = fl.bound_site.node
        if not fl.param and fl.bound_site.module is mod and _constant_head_slice(node) \
                and _inside(node, facts.tool.body):
            plan.drop_slices.add(NodeKey.of(mod, node))
            outcome.notes.append(f"the silent cap `{node_code(node.slice[0].slice)}` was dropped: pages carry the rest")
        elif not fl.param:
            outcome.notes.append(f"the cap in `{_first_line(node_code(node))}` is kept: what it leaves out "
                                 "is still not reachable")


def _constant_head_slice(node: cst.CSTNode) -> bool:
    """``x[:N]`` with N an integer literal or an UPPER_CASE constant."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1):
        return False
    s = node.slice[0].slice
    if not isinstance(s, cst.Slice) or s.lower is not None or s.step is not None or s.upper is None:
        return False
    return isinstance(s.upper, cst.Integer) or (isinstance(s.upper, cst.Name) and s.upper.value.isupper())


# -- helpers ----------------------------------------------------------------------------------

def node_code(node: cst.CSTNode) -> str:
    """The source text of ``node`` as LibCST prints it (continuation lines relative to its
    statement's indentation)."""
    return cst.Module([]).code_for_node(node)


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else text
    return line if len(line) <= 60 else line[:57] + "..."


def _inside(node: cst.CSTNode, body) -> bool:
    return any(n is node for stmt in body for n in walk(stmt))


def _rebound_names(fn: cst.FunctionDef, names: set[str]) -> set[str]:
    found: set[str] = set()
    for node in walk(fn.body):
        targets: list[cst.BaseExpression] = []
        if isinstance(node, cst.Assign):
            if _idempotent(node):
                continue
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, (cst.For, cst.CompFor)):
            targets = [node.target]
        elif isinstance(node, cst.AsName):
            targets = [node.name]
        for t in targets:
            for n in walk(t):
                if isinstance(n, cst.Name) and n.value in names:
                    found.add(n.value)
    return found


_IDEMPOTENT_CALLS = frozenset({"min", "max", "int", "str", "float", "bool", "abs", "strip", "lower",
                               "upper", "rstrip", "lstrip"})


def _idempotent(node: cst.Assign) -> bool:
    """``x = min(x, 100)``, ``x = int(x)``, ``x = x.strip()``: applying it twice changes nothing, so
    the value passed back through ``next_action`` reproduces the same call."""
    if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
        return False
    name = node.targets[0].target.value
    value = node.value
    if not isinstance(value, cst.Call):
        return False
    callee = dotted_name(value.func) or ""
    if callee in _IDEMPOTENT_CALLS:
        return any(isinstance(a.value, cst.Name) and a.value.value == name for a in value.args)
    return callee == f"{name}.{callee.split('.')[-1]}" and callee.split(".")[-1] in _IDEMPOTENT_CALLS


def _binds_name(fn: cst.FunctionDef, name: str) -> bool:
    """Whether the body uses ``name`` as a variable (not an attribute or keyword named so)."""
    return any(n.value == name for n in variable_names(fn.body))


def variable_names(root: cst.CSTNode):
    """The ``Name`` nodes below ``root`` that are variables: not ``x.attr`` attribute names and
    not ``f(kw=...)`` keywords."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            yield node
            continue
        if isinstance(node, cst.Attribute):
            stack.append(node.value)
            continue
        if isinstance(node, cst.Arg):
            stack.append(node.value)
            continue
        stack.extend(code_children(node))


def _free_name(fn: cst.FunctionDef, base: str) -> str:
    used = {n.value for n in walk(fn) if isinstance(n, cst.Name)}
    name, i = base, 2
    while name in used:
        name, i = f"{base}{i}", i + 1
    return name
