"""Per-tool facts: each data flow that reaches the response, classified, plus estimation and hints.

This is the boundary between analysis and rules: rules read ``ToolFacts`` and decide; they never
walk the CST themselves (ruff's single Checker, Fixit's batched visit).

Classification of one source reaching a return (design.md "Risk levels"):

- ``UNBOUNDED``: no bound at all → its source rule (TL101–TL106), HIGH.
- ``DEFAULT_ALL``: bounded by a caller limit whose default returns everything → HIGH.
- ``CALLER``: bounded by a caller limit with no enforced maximum → TL107, MEDIUM.
- ``CAPPED``: an enforced count or char cap (a constant, a clamped limit).
- ``HUGE``: an enforced cap far above any token budget (``HUGE_CHARS``/``HUGE_ITEMS``), or one
  of unknown size (a remote API's own page: ``Bound.upstream``).
- ``ESTIMATED``: checked against a token or size budget before it is returned.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, AbstractSet, Callable, Iterator, Sequence, cast

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis.external import drained, whole_record_sources, writes_by_name
from tokenlint.analysis.interpreter import Analyzer, FunctionInterpreter, SizeCheck, Summary
from tokenlint.analysis.shapes import words
from tokenlint.analysis.taints import Flow, Marker, Site, Src, sources
from tokenlint.analysis.values import is_arguments_name
from tokenlint.discovery import ToolDef, function_body
from tokenlint.source.imports import dotted_name
from tokenlint.model import Risk
from tokenlint.source.walk import code_children, literal_string, node_code

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule, Project

#: An enforced character cap above this is no budget: Claude Code persists results above
#: 50,000 chars and refuses above 25,000 tokens (~100,000 chars of prose) — field.md §2.
HUGE_CHARS = 100_000
#: An item cap above this cannot fit the 10,000-token default budget unless items are under 40
#: tokens each; a record of a few short fields (id, name, status, URL) is 30-50 tokens, so 500
#: such items (SonarQube's ``ps`` maximum) are twice the budget (labelling rule 3).
HUGE_ITEMS = 250
#: A token budget above the 25,000-token refusal limit of Claude Code bounds nothing useful.
HUGE_TOKENS = 25_000

_TEXT_SOURCE_CODES = ("TL102", "TL104", "TL105")  # files, command output, HTTP bodies

#: A text cut to at most this many characters is tiny whatever it was cut from (~250 tokens at
#: the ~4 chars per token of English prose): an error body's preview (``resp.text[:200]``), a
#: command's first line; design.md "Risk levels": NONE is "constant or tiny regardless of data".
TINY_CHARS = 1_000

#: What a source of text is called (``Src.what``): an HTTP body's text, a command's output, a
#: file read as one string; not parsed JSON, nor lines (``.readlines()``), which a slice counts
#: in items.
_TEXT_WHATS = re.compile(r"(HTTP response \.text(\(\))?|process \.std(out|err)|\.communicate\(\)|"
                         r"\.read(_text)?\(\)|output \(GitPython\))$")


class FlowKind(enum.Enum):
    """How one source that reaches a tool's response is bounded (``DataFlow.kind``); the module
    docstring says what each kind means and the risk it leads to, ``_classify`` decides it."""
    UNBOUNDED = "unbounded"
    DEFAULT_ALL = "default-all"
    CALLER = "caller"
    CAPPED = "capped"
    HUGE = "huge"
    ESTIMATED = "estimated"


@dataclass(frozen=True)
class DataFlow:
    """One source reaching the response, how it is bounded, and where."""

    src: Src
    kind: FlowKind
    bound_site: Site | None
    param: str | None
    param_site: Site | None
    return_site: Site


@dataclass
class ToolFacts:
    """Everything the rules need to know about one tool."""

    tool: ToolDef
    flows: list[DataFlow] = field(default_factory=list)
    data_returns: list[Site] = field(default_factory=list)
    checks: list[SizeCheck] = field(default_factory=list)
    estimates: bool = False
    continuation: bool = False
    hint_site: Site | None = None
    definition_text: str = ""
    #: Calls whose code tokenlint could not read and whose result it judged small by name
    #: (``client.get_user()``): what a NONE or LOW verdict rests on, sorted and deduplicated.
    untraced: tuple[str, ...] = ()
    #: The tool's risk level once rules have run (set by the engine; ``fix`` targets HIGH/MEDIUM).
    risk: Risk | None = None


def analyse_tool(analyzer: Analyzer, tool: ToolDef) -> ToolFacts:
    """Run the interpreter over a tool's body and classify what reaches its response."""
    class_name = tool.class_name or _enclosing_class(tool.module, tool.func)
    interp = FunctionInterpreter(
        analyzer, tool.module, tool.func, args_style=tool.args_style, class_name=class_name
    )
    # a tool defined inside a server factory reads the factory's locals (``reg``, ``client``)
    # (its own parameters, already in ``env``, shadow the factory's names)
    interp.env = {**analyzer.closure_env(tool.module, tool.func, class_name), **interp.env}
    interp.switches_off = analyzer.closure_switches_off(tool.module, tool.func) - set(interp.env)
    interp.switches_on = {k: v for k, v in analyzer.closure_switches_on(tool.module, tool.func).items()
                          if k not in interp.env}
    if tool.name != interp.function_name and writes_by_name(tool.name):
        interp.action_name = tool.name  # a dispatch branch (``elif name == "create_issue":``)
    summary = interp.run(tool.body)
    if interp.falls_through:
        _shared_returns(tool, interp)
    facts = ToolFacts(tool, checks=list(summary.checks))
    checked: dict[Site, SizeCheck] = {}
    for check in summary.checks:
        for s in check.measured:
            checked.setdefault(s, check)
    facts.estimates = summary.runtime_fit or any(c.tokens for c in summary.checks)
    seen: set = set()
    # (a tool named for a write gets back the entity a POST created: ``Src.posted``)
    writer = writes_by_name(tool.name) or writes_by_name(tool.func.name.value)
    for ret_site, flow in summary.returns:
        # (a collection the platform's configuration sizes is no data: ``Bound.configured``)
        srcs = [s for s in sources(flow) + whole_record_sources(flow)
                if (s.bound is None or not s.bound.configured) and not (s.posted and writer)]
        if not srcs and not summary.runtime_fit:  # (a cursor handed to the runtime's fitter is fitted)
            srcs = _returned_cursors(flow, ret_site)
        if srcs:
            facts.data_returns.append(ret_site)
        for src in srcs:
            key = (src.site, src.bound)
            if key in seen:
                continue
            seen.add(key)
            data_flow = _classify(src, checked, ret_site)
            if data_flow.kind is FlowKind.CAPPED and _tiny_text(src):
                continue  # ``resp.text[:200]``: a preview, tiny whatever the body was
            facts.flows.append(data_flow)
    # deterministic order, worst first (set iteration order varies between runs)
    facts.flows.sort(key=lambda f: (_KIND_ORDER.index(f.kind), f.src.code, f.src.what, f.param or "",
                                    _line(f.src.site), _line(f.bound_site), _line(f.param_site), _line(f.return_site)))
    if any(f.kind is FlowKind.ESTIMATED for f in facts.flows):
        facts.estimates = True
    facts.untraced = tuple(sorted(set(summary.untraced)))
    facts.continuation, facts.hint_site = _continuation(tool, interp, summary)
    facts.definition_text = _definition_text(tool)
    return facts


def _enclosing_class(mod: ParsedModule, fn: cst.FunctionDef) -> str | None:
    """The class whose method defines ``fn`` (a tool nested in ``def setup_tools(self)``), so
    ``self`` in the tool's body is that class's instance; None for a module-level function."""
    for name, cls in mod.classes.items():
        stack: list[cst.CSTNode] = [cls.body]
        while stack:
            node = stack.pop()
            if node is fn:
                return name
            stack.extend(code_children(node))
    return None


def _shared_returns(tool: ToolDef, interp: FunctionInterpreter) -> None:
    """A dispatch branch that falls through (``result = handle_x(arguments)``) reaches the
    handler's shared ``return`` after the dispatch (``return [TextContent(text=dumps(result))]``):
    evaluate each such return that reads a local the branch bound, in the branch's final state."""
    whole = function_body(tool.func)
    if tool.body is whole:
        return
    inside = {id(n) for n in _walk_body(tool.body)}
    bound = set(interp.env) - set(interp.param_defaults)
    for node in _walk_body(whole):
        if isinstance(node, cst.Return) and node.value is not None and id(node) not in inside:
            names = {n.value for n in _walk_body([node.value]) if isinstance(n, cst.Name)}
            if names & bound:
                interp.small(node)


_KIND_ORDER = [FlowKind.UNBOUNDED, FlowKind.DEFAULT_ALL, FlowKind.CALLER, FlowKind.HUGE,
               FlowKind.CAPPED, FlowKind.ESTIMATED]


def _line(site: Site | None) -> tuple[str, int]:
    """A deterministic sort key of a site: its file and its place in source order."""
    if site is None:
        return ("", 0)
    module = cast("ParsedModule", site.module)  # typed ``object`` in taints (an import cycle)
    return (module.display_path, module.source_order(site.node))


def _tiny_text(src: Src) -> bool:
    """Whether ``src`` is a text (``_TEXT_WHATS``) sliced to a fixed count of at most ``TINY_CHARS``
    characters (``resp.text[:200]``, ``proc.stdout[-500:]``); not a cap the request asked for
    (``max_results=10``), which counts items."""
    b = src.bound
    return b is not None and b.enforced and b.value is not None and 0 < b.value <= TINY_CHARS and \
        isinstance(b.site.node, cst.Subscript) and _text_expression(b.site.node.value) and \
        _TEXT_WHATS.search(src.what) is not None


#: Attributes and methods that give a text whole (an HTTP body's, a command's output, a file's).
_TEXT_ATTRIBUTES = frozenset({"text", "stdout", "stderr"})
_TEXT_METHODS = frozenset({"read", "read_text", "decode", "text"})
#: Last words of a variable named for one text (a body, an error's detail, a command's output).
_TEXT_NAME_WORDS = frozenset({"text", "body", "detail", "details", "output", "stdout", "stderr", "content", "message",
                              "msg", "error", "err", "raw", "response", "resp", "html", "snippet", "preview"})


def _text_expression(node: cst.BaseExpression) -> bool:
    """Whether ``node``, the value a slice cuts, is a text as read (``resp.text``, ``(resp.text or
    "")``, ``proc.stdout``, ``f.read()``, or a variable named for one text: ``resp_body``,
    ``detail``), not something made of it (``source.splitlines()``, ``lines``, a list of
    names): a slice of the latter counts items."""
    if isinstance(node, cst.BooleanOperation):  # ``(resp.text or "")``
        node = node.left
    if isinstance(node, cst.Name):
        # ``resp_body[:500]``, ``detail[:300]``: a name for one text (not ``lines``, ``rows``)
        ws = words(node.value)
        return bool(ws) and ws[-1] in _TEXT_NAME_WORDS
    if isinstance(node, cst.Attribute):
        return node.attr.value in _TEXT_ATTRIBUTES
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.func.attr.value in _TEXT_METHODS
    return False


def _classify(src: Src, checked: dict, ret_site: Site) -> DataFlow:
    b = src.bound
    check = checked.get(src.site)
    if b is not None and b.tokens:
        return DataFlow(src, FlowKind.ESTIMATED, b.site, None, None, ret_site)
    if check is not None and check.caller_param is not None:
        # ``if len(text) > max_chars`` with ``max_chars`` the model's to choose, uncapped
        p = check.caller_param
        kind = FlowKind.DEFAULT_ALL if p.default_none else FlowKind.CALLER
        return DataFlow(src, kind, check.site, p.name, p.site, ret_site)
    if check is not None:
        huge = check.budget is not None and (
            check.budget > (HUGE_TOKENS if check.tokens else HUGE_CHARS)
        )
        if not (huge and b is not None and b.enforced):
            kind = FlowKind.HUGE if huge else FlowKind.ESTIMATED
            return DataFlow(src, kind, check.site, None, None, ret_site)
        # (a guard far above any budget, ``len(content) > 5_000_000``, then a cut that holds
        # whatever the model passes, ``sections[:200]``: the cut decides)
    if b is None or ((b.sql_param or b.ids_param or b.command_param) and not b.enforced and not b.param):
        return DataFlow(src, FlowKind.UNBOUNDED, None, None, None, ret_site)
    if b.upstream and b.fixed is None and b.clamp is None:
        # one page of a remote API's own size: a count cap whose value tokenlint cannot see
        return DataFlow(src, FlowKind.HUGE, b.site, b.param, b.param_site, ret_site)
    if b.enforced:
        value = b.value
        # a cap above 5,000 is read as chars, unless a parameter named for items sets it
        # (``limit: int = Field(le=10_000)`` log events is an item count far above any budget)
        # (an HTTP body capped by the page size its request asked for counts items: ``ps=page_size``)
        as_chars = (src.code in _TEXT_SOURCE_CODES or (value or 0) > 5_000) and not _counts_items(b.param)
        limit = HUGE_CHARS if as_chars else HUGE_ITEMS
        kind = FlowKind.HUGE if value is not None and value > limit else FlowKind.CAPPED
        return DataFlow(src, kind, b.site, b.param, b.param_site, ret_site)
    if b.default_none:
        return DataFlow(src, FlowKind.DEFAULT_ALL, b.site, b.param, b.param_site, ret_site)
    return DataFlow(src, FlowKind.CALLER, b.site, b.param, b.param_site, ret_site)


def _counts_items(param: str | None) -> bool:
    """Whether a limit parameter's name counts items (``limit``, ``max_results``, ``top_k``)
    rather than text (``max_chars``, ``max_length``, ``size_bytes``)."""
    if not param:
        return False
    ws = set(re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", param.lower()))
    if ws & {"page", "per"} and not ws & {"chars", "char", "bytes", "tokens", "characters"}:
        return True  # ``page_size``, ``per_page``, ``pageSize``: items per page
    return not ws & {"chars", "char", "length", "len", "bytes", "size", "tokens", "characters"} and \
        bool(ws & {"limit", "count", "results", "rows", "items", "events", "lines", "top", "k", "n", "max", "num"})


def _returned_cursors(flow: Flow, site: Site) -> list[Src]:
    """The result of a query put into the response as it is (``result = await
    session.execute(query)``, then ``json.dumps(result)``): a client whose ``execute`` answers
    with the data (a GraphQL session) sends every row of it (TL101). A database cursor is never
    sent as it is; its rows are read first (``fetchall()``), which is followed on its own."""
    return sources(drained([t for t in flow if isinstance(t, Marker) and t.kind == "cursor"], site, "returning"))


def _continuation(tool: ToolDef, interp: FunctionInterpreter, summary: Summary) -> tuple[bool, Site | None]:
    """Whether the response tells the model how to get the rest, through a parameter that works.

    A hint is a continuation key or instruction in the tool's code (``next_cursor``,
    ``"call again with offset={...}"``, a ``ResourceLink``) or a runtime fitter. It only counts
    when the model can act on it: a resource link needs nothing more; a cursor/offset/page hint
    needs a parameter of that kind that the body actually applies (not one merely echoed back).
    """
    if summary.runtime_fit:
        return True, None
    hint_node: cst.CSTNode | None = None
    resource = False
    own_address = _item_address_test(tool.body)
    for node in _walk_body(tool.body):
        text = None
        if isinstance(node, cst.SimpleString):
            text = literal_string(node)
            if own_address(node, text):
                continue  # ``[{"id": p.id, "resource_uri": f"x://{p.id}"} for p in ranked]``: each item's own
        elif isinstance(node, cst.FormattedStringText):
            text = node.value
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            if isinstance(node.value, cst.Name) and (
                    node.value.value == node.keyword.value or node.value.value in interp.param_defaults):
                # ``fetch(offset=offset)``: the caller's own position passed on to a read, not a
                # next one handed back
                continue
            text = node.keyword.value + "="
        elif isinstance(node, cst.Call) and dotted_name(node.func) in ("ResourceLink", "types.ResourceLink", "mcp.types.ResourceLink"):
            resource = True
            hint_node = node
            continue
        if text and cat.HINT_WORDS.search(text):
            if re.search(r"resource_(uri|link)|resourceUri", text):
                resource = True
            hint_node = hint_node or node
    if hint_node is None:
        # a helper the tool calls may build the hint (``"pagination": pagination.extract(rows)``),
        # also through one more helper of its own
        for node in _walk_body(tool.body):
            if isinstance(node, cst.Call) and isinstance(node.func, (cst.Name, cst.Attribute)):
                helper = interp.resolve_helper(node.func)
                if helper is not None and _hint_in(helper[1], helper[0], interp.a.project):
                    hint_node = node
                    break
    if hint_node is None:
        return False, None
    site = interp.a.site(tool.module, hint_node)
    if resource:
        return True, site
    if tool.args_style == "mapping" and isinstance(hint_node, cst.Call) and any(
            is_arguments_name(dotted_name(n)) for a in hint_node.args for n in _walk_body([a.value])
            if isinstance(n, (cst.Name, cst.Attribute))):
        return True, site  # the helper writing the hint reads the model's arguments (its offset)
    keys = {k for k in _mapping_keys(tool.body) if _is_continuation(k)} if tool.args_style == "mapping" else set()
    for name in _continuation_params(tool, interp):
        if _applied(tool.body, name, keys):
            return True, site
    if keys and _applied(tool.body, "", keys):
        return True, site
    return False, site


#: A key naming a resource URI (``"resource_uri"``, ``"resourceUri"``, ``"resource_link"``).
_RESOURCE_KEY = re.compile(r"^(resource_(uri|link)|resourceUri)$", re.I)


def _item_address_test(body: Sequence[cst.CSTNode]) -> Callable[[cst.SimpleString, str | None], bool]:
    """A test of whether a string of ``body`` (its node and text) is an item's own address key
    (``_item_address_keys``), which reads ``body`` again only once a string naming a resource
    URI is asked about (most bodies have none)."""
    found: list[set[int]] = []

    def own_address(node: cst.SimpleString, text: str | None) -> bool:
        if not text or not _RESOURCE_KEY.match(text):
            return False
        if not found:
            found.append(_item_address_keys(body))
        return id(node) in found[0]
    return own_address


def _item_address_keys(body: Sequence[cst.CSTNode]) -> set[int]:
    """The ``id``s of resource-URI keys of dicts made once per element (a comprehension's
    element, the body of a ``for``: ``[{"id": p.id, "resource_uri": f"arxiv://{p.id}"} for p in
    papers]``): each item's own address, to read that item, not a way to the items left out of
    the response (the runtime's ``resource_uri`` sits beside the ``items``, once)."""
    out: set[int] = set()
    for node in _walk_body(body):
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            parts: list[cst.CSTNode] = [node.elt]
        elif isinstance(node, cst.DictComp):
            parts = [node.value]
        elif isinstance(node, cst.For):
            parts = [node.body]
        else:
            continue
        for inner in _walk_body(parts):
            if isinstance(inner, cst.DictElement) and isinstance(inner.key, cst.SimpleString) and \
                    _RESOURCE_KEY.match(literal_string(inner.key) or ""):
                out.add(id(inner.key))
    return out


def _hint_in(fn: cst.FunctionDef, mod: ParsedModule | None = None, project: Project | None = None, depth: int = 1) -> bool:
    """Whether a helper's body writes a continuation key or instruction (``"has_more"``), itself
    or (``depth`` levels) through the helpers it calls in its own module or by import."""
    calls = []
    own_address = _item_address_test([fn.body])
    for node in _walk_body([fn.body]):
        if isinstance(node, cst.SimpleString):
            v = literal_string(node)
            if v is not None and cat.HINT_WORDS.search(v) and not own_address(node, v):
                return True
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            calls.append(node.func)
    if depth <= 0 or mod is None:
        return False
    for func in calls:
        inner = mod.functions.get(func.value)
        if inner is None and project is not None:
            qn = mod.imports.qualify(func)
            found = project.find_function(qn) if qn else None
            inner_mod, inner = found if found else (None, None)
        else:
            inner_mod = mod
        if inner is not None and inner is not fn and _hint_in(inner, inner_mod, project, depth - 1):
            return True
    return False


def _mapping_keys(body: Sequence[cst.CSTNode]) -> set[str]:
    out = set()
    for node in _walk_body(body):
        if isinstance(node, (cst.Call, cst.Subscript)):
            key = _mapping_key(node)
            if key:
                out.add(key)
    return out


def _continuation_params(tool: ToolDef, interp: FunctionInterpreter) -> list[str]:
    names = [n for n in interp.param_defaults if _is_continuation(n)]
    if tool.args_style == "mapping":
        # ``offset = arguments.get("offset", 0)`` binds a local of the same (or another) name
        for node in _walk_body(tool.body):
            if isinstance(node, cst.Assign) and isinstance(node.value, (cst.Call, cst.Subscript)):
                key = _mapping_key(node.value)
                if key and _is_continuation(key):
                    for t in node.targets:
                        dn = dotted_name(t.target)
                        if dn:
                            names.append(dn)
    return names


def _is_continuation(name: str) -> bool:
    n = name.lower()
    return n in cat.CONTINUATION_PARAMS or n.endswith(("_cursor", "_offset", "_token", "page"))


def _mapping_key(node: cst.CSTNode) -> str | None:
    """The string key a tool reads from its arguments mapping (``arguments.get("offset")``,
    ``int(arguments["limit"])``), or None (a bytes literal, ``b"k"``, names no JSON argument)."""
    inner = node
    if isinstance(inner, cst.Call) and dotted_name(inner.func) in ("int", "str"):
        if inner.args:
            inner = inner.args[0].value
    if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute) and inner.func.attr.value == "get" and inner.args:
        v = inner.args[0].value
        return _str_key(v)
    if isinstance(inner, cst.Subscript) and len(inner.slice) == 1 and isinstance(inner.slice[0].slice, cst.Index):
        return _str_key(inner.slice[0].slice.value)
    return None


def _str_key(node: cst.BaseExpression) -> str | None:
    value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    return value if isinstance(value, str) else None


_ECHO_CALLS = frozenset({"dict", "str", "int", "len", "print", "repr", "format", "dumps", "json.dumps",
                         "TextContent", "types.TextContent", "append", "info", "debug", "warning", "log"})


def _applied(body: Sequence[cst.CSTNode], name: str, keys: AbstractSet[str] = frozenset()) -> bool:
    """Whether a parameter is used to select data (slice, call argument, query text, arithmetic
    feeding one of those), not only echoed into the response or a log line."""
    stack: list[tuple[cst.CSTNode, bool]] = [(n, False) for n in body]
    derived = {name}
    # a dict of keyword arguments spread into a call (``api.list(**kwargs)``) applies its values
    spread = {dotted_name(n.value) for n in _walk_body(body) if isinstance(n, cst.Arg) and n.star == "**"}
    # names computed from the parameter (``start = page * size``) also count
    for node in _walk_body(body):
        if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
            targets: list[cst.BaseExpression] = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            if any(isinstance(n, cst.Name) and n.value in derived for n in _walk_body([node.value])):
                if not isinstance(node.value, cst.Dict) or any(dotted_name(t) in spread for t in targets):
                    for target in targets:
                        if isinstance(target, cst.Subscript):
                            target = target.value  # ``params["startingToken"] = next_token``
                        dn = dotted_name(target)
                        if dn and not re.search(r"next|new_|more", dn):
                            derived.add(dn)
    in_return: set[int] = set()
    while stack:
        node, ctx = stack.pop()
        if isinstance(node, cst.Name) and node.value in derived and ctx:
            return True
        if keys and ctx and isinstance(node, (cst.Call, cst.Subscript)) and _mapping_key(node) in keys:
            return True
        child_ctx = ctx
        if isinstance(node, (cst.Slice, cst.Index)):
            child_ctx = True
        if isinstance(node, cst.FormattedString) and id(node) not in in_return:
            child_ctx = True
        if isinstance(node, cst.Call):
            callee = dotted_name(node.func) or ""
            tail = callee.split(".")[-1]
            if callee not in _ECHO_CALLS and tail not in _ECHO_CALLS:
                child_ctx = True
        if isinstance(node, cst.Comparison):
            child_ctx = True
        if isinstance(node, cst.Return):
            # text and dict values in the response are echoes (``offset + limit``), not uses
            child_ctx = False
            in_return.update(id(n) for n in _walk_body([node]) if isinstance(n, cst.FormattedString))
        stack.extend((c, child_ctx) for c in code_children(node))
    return False


def _walk_body(body: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node not in body:
            continue
        stack.extend(code_children(node))


def _definition_text(tool: ToolDef) -> str:
    """The text a client receives in ``tools/list`` for this tool, approximately: description
    (docstring or ``description=``) plus the parameter names and annotations."""
    fn = tool.func
    doc = fn.get_docstring(clean=True) or ""
    if tool.decorator is not None:
        for node in _walk_body([tool.decorator]):
            if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value == "description":
                if isinstance(node.value, (cst.SimpleString, cst.ConcatenatedString)):
                    v = node.value.evaluated_value
                    if isinstance(v, str):
                        doc = v
    parts = [doc]
    if tool.args_style == "signature":
        for p in [*fn.params.params, *fn.params.kwonly_params]:
            if p.name.value in ("self", "cls", "ctx", "context"):
                continue
            ann = node_code(p.annotation.annotation) if p.annotation else ""
            parts.append(f'"{p.name.value}": {{"type": "{ann}"}}')
    return "\n".join(parts)
