"""What ``tokenlint fix`` will change in one file, decided from the same analysis as ``check``.

``plan_module`` turns the ``ToolFacts`` of the HIGH and MEDIUM tools of one module into a
``FilePlan`` (``fix.edits``: edits keyed by the source range of the node they apply to, which
the codemod, ``fix.codemod``, finds again in its own parse). A tool that cannot be rewritten
safely gets a ``ToolOutcome`` with the reason and no edit at all: a tool is rewritten whole or
not touched. ``unfixable_reason`` is the same planning as a dry run on one tool, for ``check``.

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

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeGuard

import libcst as cst

from tokenlint.analysis.facts import HUGE_CHARS, HUGE_ITEMS, FlowKind, ToolFacts
from tokenlint.discovery import ArgsStyle
from tokenlint.discovery.lowlevel import literal_names
from tokenlint.fix.annotations import AnnotationChange, annotation_change, is_context_annotation, is_int_annotation
from tokenlint.fix.cst_helpers import free_name, is_inside, rebound_names, uses_variable
from tokenlint.fix.edits import NOT_LOW_REASON, FilePlan, FunctionEdit, NodeKey, ToolOutcome, Wrap
from tokenlint.fix.result_resource import plan_result_resources
from tokenlint.model import Risk
from tokenlint.source.functions import injected_provider, parameters
from tokenlint.source.imports import dotted_name
from tokenlint.source.project import ParsedModule
from tokenlint.source.walk import code_children, node_code, walk  # skip whitespace; ~10x faster than .children

#: Enforced maximum given to an unclamped item limit (TL107), in items: the largest cap the
#: analysis still counts as a bound (``facts.HUGE_ITEMS``); pages keep each response in budget.
CLAMP_MAX_ITEMS = HUGE_ITEMS
#: Enforced maximum given to an unclamped text limit (TL107 on a file or command output), in chars.
CLAMP_MAX_CHARS = HUGE_CHARS

#: Rules whose caller limit counts chars (file and command output), not items.
_CHAR_LIMIT_CODES = ("TL102", "TL104")
#: Parameter names under which a low-level handler may receive the tool's arguments.
_ARGUMENT_PARAMS = ("arguments", "args", "tool_args", "tool_arguments", "arguments_", "input", "params")

#: ``wrap_for(call)``: the ``Wrap`` of one returned value of a tool through the runtime function
#: ``call`` (``"fit_response"`` or ``"fit_json_text"``), with the tool's arguments and cursor.
WrapFor = Callable[[str], Wrap]


class Unfixable(Exception):
    """A tool cannot be rewritten safely; the message says why (shown to the user)."""


def plan_module(mod: ParsedModule, facts_list: list[ToolFacts], max_tokens: int,
                exclude: frozenset[str] = frozenset(), client: str | None = None) -> FilePlan:
    """Plan the rewrite of every HIGH or MEDIUM tool defined in ``mod``.

    ``facts_list``: the facts of the module's tools (``ToolFacts.risk`` set by the check
    pipeline; tools below MEDIUM are skipped); ``max_tokens``: the budget written into each call
    (tokens); ``exclude``: tool names not to rewrite (a first attempt did not make them LOW);
    ``client``: the client profile each call names (``client="codex"``), None for none.
    Returns the file's plan with one ``ToolOutcome`` per HIGH or MEDIUM tool, in the order of
    ``facts_list``; the plan is false when nothing is to be rewritten. Never raises for a tool:
    ``Unfixable`` becomes a ``ToolOutcome`` with ``fixed=False``.
    """
    plan = FilePlan()
    for facts in facts_list:
        if facts.risk is None or facts.risk < Risk.MEDIUM:
            continue
        tool = facts.tool
        where = (tool.name, mod.display_path, mod.line_of(tool.anchor), facts.risk)
        if tool.name in exclude:
            plan.outcomes.append(ToolOutcome(*where, False, NOT_LOW_REASON))
            continue
        sub = FilePlan()
        notes: list[str] = []
        try:
            _plan_tool(sub, mod, facts, max_tokens, notes)
        except Unfixable as exc:
            plan.outcomes.append(ToolOutcome(*where, False, str(exc), tuple(notes)))
            continue
        plan.merge(sub)
        plan.outcomes.append(ToolOutcome(*where, True, notes=tuple(notes)))
    if client:
        plan.wraps = {k: replace(w, client=client) for k, w in plan.wraps.items()}
    plan_result_resources(plan, mod, [f.tool for f in facts_list
                                       if any(o.fixed and o.name == f.tool.name for o in plan.outcomes)])
    return plan


def unfixable_reason(facts: ToolFacts) -> str | None:
    """Why ``tokenlint fix`` would leave this tool alone (one line; None: it would rewrite it). A
    dry run of the planner on the tool's own module, with a budget of 10,000 tokens; used by
    ``check`` (passed in by the CLI) to mark only findings ``fix`` can act on as fixable. Raises
    nothing for a tool ``fix`` cannot rewrite."""
    if facts.risk is None or facts.risk < Risk.MEDIUM:
        return "only HIGH and MEDIUM tools are rewritten"
    try:
        _plan_tool(FilePlan(), facts.tool.module, facts, 10_000, [])
    except Unfixable as exc:
        return str(exc)
    return None


def _plan_tool(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, max_tokens: int,
               notes: list[str]) -> None:
    """Add the edits of one tool to ``plan`` and its notes (one line each) to ``notes``; raises ``Unfixable``
    (with ``plan`` possibly half filled: plan into a fresh ``FilePlan`` and merge it)."""
    tool = facts.tool
    if not facts.data_returns:
        raise Unfixable("no `return` carries the data (it reaches the response another way)")
    returns = [site.node for site in facts.data_returns]
    if any(site.module is not mod for site in facts.data_returns):
        raise Unfixable("its data is returned from another module")
    if tool.args_style == ArgsStyle.SIGNATURE:
        wrap_for = _signature_tool(plan, mod, facts, max_tokens)
    else:
        wrap_for = _mapping_tool(plan, mod, facts, max_tokens)
    values: list[cst.BaseExpression] = []
    for ret in returns:
        assert isinstance(ret, cst.Return) and ret.value is not None
        _refuse_resource_copies(ret.value, tool.body)
        _plan_return(plan, mod, ret.value, wrap_for, tool.args_style == ArgsStyle.MAPPING)
        values.append(ret.value)
    if tool.args_style == ArgsStyle.SIGNATURE and all(
            NodeKey.of(mod, value) in plan.wraps for value in values):
        # the page is the tool's value (not wrapped in a content block): the runtime can serve
        # a continuation from the store without the body (``tokenlint.runtime.once``)
        plan.functions[NodeKey.of(mod, tool.func)].computed_once = True
        plan.imports.add("computed_once")
    _plan_clamps(plan, mod, facts, notes)
    _plan_truncations(plan, mod, facts, notes)


# -- FastMCP-style tools ----------------------------------------------------------------------

def _signature_tool(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, max_tokens: int) -> WrapFor:
    """Plan the edits of a FastMCP-style tool's ``def`` (``cursor``, ``Paged[...]``, context,
    snapshot); returns how its returned values are wrapped. Raises ``Unfixable``."""
    fn = facts.tool.func
    params = parameters(fn)
    names = [p.name.value for p in params]
    if "cursor" in names:
        raise Unfixable("it already has a `cursor` parameter of its own; tokenlint.runtime needs that argument name")
    clamped = {flow.param for flow in facts.flows if flow.kind is FlowKind.CALLER and flow.param}
    arg_names: list[str] = []
    session = None
    for p in params:
        name = p.name.value
        annotation = node_code(p.annotation.annotation) if p.annotation else ""
        if name in ("self", "cls"):
            continue
        if is_context_annotation(annotation) or (not annotation and name in ("ctx", "context")):
            session = f"session_id_from_context({name})"
            continue
        if injected_provider(p) is not None:
            continue  # (``client = Depends(get_client)``: the framework's, not the model's argument)
        arg_names.append(name)
    edit = FunctionEdit(add_cursor=True)
    plan.imports.add("Cursor")
    args = "{" + ", ".join(f'"{n}": {n}' for n in arg_names) + "}"
    if rebound_names(fn, set(arg_names) - clamped):
        # a parameter is reassigned before the return (``end = end or now()``): take the
        # arguments as called, at the top, so ``next_action`` repeats the client's own call
        edit.snapshot = (free_name(fn, "call_arguments"), args)
        args = edit.snapshot[0]
    if fn.returns is not None:
        annotation = node_code(fn.returns.annotation).strip()
        change = annotation_change(annotation)
        if change is AnnotationChange.PAGED:
            edit.paged = True
            plan.imports.add("Paged")
        elif change is AnnotationChange.REFUSE:
            raise Unfixable(f"it returns `{annotation}`, which tokenlint.runtime cannot page "
                            "(lists, dicts holding a list, and text can be paged)")
    if uses_variable(fn, "cursor"):
        # as long as ``cursor``: the renamed lines keep their length, so their layout stays
        # what the project's formatter made it
        edit.rename_cursor_to = free_name(fn, "db_cur")
    if session is None and facts.tool.framework == "mcp-mcpserver" and _context_name_free(mod):
        # mcp 2.x MCPServer keeps no request context the runtime can reach: without a Context
        # parameter a cursor would be accepted from any client session (over HTTP)
        edit.add_context = free_name(fn, "ctx")
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

def _mapping_tool(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, max_tokens: int) -> WrapFor:
    """Plan the schema and description edits of a low-level dispatch branch; returns how its
    returned texts are wrapped. Raises ``Unfixable``."""
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
    name, is_expression = tool.name, False
    if tool.shared_body or (
            isinstance(tool.anchor, cst.If) and isinstance(tool.anchor.test, cst.Comparison) and
            isinstance(tool.anchor.test.comparisons[0].comparator, cst.FormattedString)):
        # a generic path after the branches serves every tool they do not select
        # (``discovery.lowlevel._generic_tools``), and ``if name == f"{prefix}search":`` selects
        # a name set at start-up: the runtime is told the name called
        subject = _name_expression(tool.func)
        if subject is None:
            raise Unfixable(f"its code serves several tools and the parameter of `{tool.func.name.value}` "
                            "holding the tool's name was not found")
        name, is_expression = subject, True

    def wrap_for(call: str) -> Wrap:
        return Wrap(call, name, args, cursor, max_tokens, tool_is_expression=is_expression)

    return wrap_for


def _name_expression(fn: cst.FunctionDef) -> str | None:
    """The source text of the tool name a low-level handler ``fn`` receives (``name``,
    ``tool_name``, ``params.name``, ``request.params.name``), None if not found."""
    names = [p.name.value for p in fn.params.params if p.name.value not in ("self", "cls")]
    for n in names:
        if n in ("params", "request"):
            return f"{n}.name" if n == "params" else f"{n}.params.name"
    return next((n for n in names if "name" in n.lower()), None)


def _arguments_expression(fn: cst.FunctionDef) -> str | None:
    """The source text of the tool arguments a low-level handler ``fn`` receives
    (``arguments``, ``params.arguments``, ``request.params.arguments``), None if not found."""
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

def _plan_return(plan: FilePlan, mod: ParsedModule, value: cst.BaseExpression, wrap_for: WrapFor,
                 mapping: bool) -> None:
    """Plan the wraps of one returned ``value``: the ``text=`` of each ``TextContent`` in it; for
    a low-level branch (``mapping``) each ``json.dumps`` text; else the value itself. Raises
    ``Unfixable`` when nothing in it can be paged."""
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
        dumps: list[cst.BaseExpression] = [node for node in walk(value) if _is_json_dumps(node, mod)]
        dumps += [arg for node in walk(value) if isinstance(node, cst.Call)
                  for arg in _text_helper_args(mod, node) if not any(arg in walk(d) for d in dumps)]
        if not dumps:
            raise Unfixable("its branch returns no `TextContent` or `json.dumps(...)` text that could be paged")
        for text in dumps:
            _wrap_value(plan, mod, text, wrap_for)
        return
    if isinstance(value, cst.Call) and not _is_json_dumps(value, mod):
        callee = (dotted_name(value.func) or "").split(".")[-1]
        if callee[:1].isupper():
            raise Unfixable(f"it returns a `{callee}(...)` object, which tokenlint.runtime cannot page")
    _wrap_value(plan, mod, value, wrap_for)


#: Content blocks that carry data beside the text ``fix`` pages (an embedded resource's contents).
_RESOURCE_BLOCKS = frozenset({"EmbeddedResource", "TextResourceContents", "BlobResourceContents"})


def _refuse_resource_copies(value: cst.BaseExpression, body: Sequence[cst.BaseStatement]) -> None:
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


def _wrap_value(plan: FilePlan, mod: ParsedModule, value: cst.BaseExpression, wrap_for: WrapFor) -> None:
    """Wrap ``value`` in ``fit_json_text`` (a ``json.dumps(x, ...)`` call) or ``fit_response``,
    unless it is a runtime call already."""
    if isinstance(value, cst.Call) and dotted_name(value.func) in RUNTIME_CALLS:
        return
    if _is_json_dumps(value, mod) and value.args and value.args[0].keyword is None \
            and value.args[0].star == "":
        plan.wraps[NodeKey.of(mod, value)] = wrap_for("fit_json_text")
        plan.imports.add("fit_json_text")
    else:
        plan.wraps[NodeKey.of(mod, value)] = wrap_for("fit_response")
        plan.imports.add("fit_response")


RUNTIME_CALLS = frozenset({"fit_response", "fit_json_text"})


def _is_json_dumps(node: cst.CSTNode, mod: ParsedModule) -> TypeGuard[cst.Call]:
    """Whether ``node`` is a call of ``json.dumps`` (resolved through ``mod``'s imports)."""
    return isinstance(node, cst.Call) and mod.imports.qualify(node.func) == "json.dumps"


# -- TL107 clamps and TL301 truncations --------------------------------------------------------

def _plan_clamps(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, notes: list[str]) -> None:
    """TL107: each caller limit of the tool gets an enforced maximum (``CLAMP_MAX_ITEMS`` items,
    or ``CLAMP_MAX_CHARS`` chars for file and command output), at the top of the body or where
    it is read; a note says which were clamped and which could not be."""
    done: set[str] = set()
    for flow in facts.flows:
        if flow.kind is not FlowKind.CALLER or not flow.param or flow.param in done or flow.param_site is None:
            continue
        done.add(flow.param)
        maximum = CLAMP_MAX_CHARS if flow.src.code in _CHAR_LIMIT_CODES else CLAMP_MAX_ITEMS
        node = flow.param_site.node
        if isinstance(node, cst.Param) and facts.tool.args_style == ArgsStyle.SIGNATURE:
            annotation = node_code(node.annotation.annotation) if node.annotation else ""
            own = any(node is p for p in parameters(facts.tool.func))
            if not own or node.name.value != flow.param or not is_int_annotation(annotation or "int"):
                # ``params.max`` of a model parameter, or a helper's own ``max`` parameter:
                # nothing of the tool's to rebind at the top of its body
                notes.append(f"`{flow.param}` could not be clamped where it is read")
                continue
            if "None" in annotation or "Optional" in annotation:
                notes.append(f"`{flow.param}` may be None, so it was not clamped")
                continue
            plan.functions[NodeKey.of(mod, facts.tool.func)].clamps.append((flow.param, maximum))
        elif isinstance(node, (cst.Call, cst.Subscript)) and flow.param_site.module is mod:
            plan.clamp_exprs[NodeKey.of(mod, node)] = maximum
        else:
            notes.append(f"`{flow.param}` could not be clamped where it is read")
            continue
        notes.append(f"`{flow.param}` is clamped to at most {maximum:,}")


def _plan_truncations(plan: FilePlan, mod: ParsedModule, facts: ToolFacts, notes: list[str]) -> None:
    """TL301: a constant head slice (``x[:30]``) in the tool's body that silently cut the
    response is dropped (the pages carry the rest); other caps are kept, with a note."""
    if facts.continuation:
        return
    for flow in facts.flows:
        if flow.kind is not FlowKind.CAPPED or flow.bound_site is None:
            continue
        node = flow.bound_site.node
        if not flow.param and flow.bound_site.module is mod and _constant_head_slice(node) \
                and is_inside(node, facts.tool.body):
            plan.drop_slices.add(NodeKey.of(mod, node))
            notes.append(f"the silent cap `{node_code(node.slice[0].slice)}` was dropped: pages carry the rest")
        elif not flow.param:
            note = f"the cap in `{_first_line(node_code(node))}` is kept: what it leaves out is still not reachable"
            if note not in notes:  # (one cap of several sources: ``if pages >= 5: break``)
                notes.append(note)


def _constant_head_slice(node: cst.CSTNode) -> TypeGuard[cst.Subscript]:
    """``x[:N]`` with N an integer literal or an UPPER_CASE constant."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1):
        return False
    s = node.slice[0].slice
    if not isinstance(s, cst.Slice) or s.lower is not None or s.step is not None or s.upper is None:
        return False
    return isinstance(s.upper, cst.Integer) or (isinstance(s.upper, cst.Name) and s.upper.value.isupper())


# -- helpers ----------------------------------------------------------------------------------

def _first_line(text: str) -> str:
    """The first line of ``text``, shortened to 60 chars with ``...``."""
    line = text.strip().splitlines()[0] if text.strip() else text
    return line if len(line) <= 60 else line[:57] + "..."


