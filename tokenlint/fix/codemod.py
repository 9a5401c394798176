"""``FitToBudget``: the LibCST codemod that routes tool responses through ``tokenlint.runtime``.

One ``VisitorBasedCodemodCommand`` applies the whole ``FilePlan`` of a file in a single pass:
pre-estimation, progressive reduction (50→40→30→20→10 records) and continuation hints are one
runtime call (``fit_response``/``fit_json_text``), so they are one edit, and every target is keyed
by its source range in the text the analysis parsed (several passes would move those ranges).

Edits are minimal: the wrapped expression's own text (comments, line breaks) is kept inside the
new call; ``def`` lines change only by the added ``cursor`` parameter and ``Paged[...]``; imports
go through ``AddImportsVisitor`` (merged into an existing ``from tokenlint.runtime import``,
placed after the module's leading imports, never above the docstring).
"""

from __future__ import annotations

from typing import TypeGuard, cast

import libcst as cst
from libcst.codemod import CodemodContext, SkipFile, VisitorBasedCodemodCommand
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import PositionProvider

from tokenlint.fix.cst_helpers import variable_names
from tokenlint.fix.edits import FilePlan, FunctionEdit, NodeKey, Wrap
from tokenlint.fix.layout import layout_statement
from tokenlint.fix.style import Style
from tokenlint.source.functions import NAMED_PARAMETER_FIELDS, parameters
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import node_code, walk

#: ``context.scratch`` key holding the ``FilePlan`` of the file being transformed.
PLAN_KEY = "tokenlint.plan"
RUNTIME_MODULE = "tokenlint.runtime"
#: The sentence ``fix`` adds to a paged tool's description (its docstring, or a low-level
#: ``Tool(description="...")`` literal) so the model knows a response may come in pages.
PAGING_HINT = "Long results are paged: follow next_action for the rest."


class FitToBudget(VisitorBasedCodemodCommand):
    """Pre-estimate each risky tool's response against the token budget and page it losslessly.

    Applies one file's ``FilePlan`` in a single pass over a parse of the very text the analysis
    saw (node ranges must match its ``NodeKey``s). Raises ``SkipFile`` for a plan with nothing
    to wrap; ``transform_module`` reports other errors as a ``TransformFailure``.
    """

    DESCRIPTION = ("Route HIGH/MEDIUM MCP tool responses through tokenlint.runtime: token "
                   "pre-estimation, progressive reduction and NextAction continuation.")
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, context: CodemodContext, plan: FilePlan | None = None, style: Style = Style(),
                 paging_hint: bool = True) -> None:
        """``plan``: the file's plan (None: the one in ``context.scratch[PLAN_KEY]``);
        ``style``: the line length (chars) and quote of the added lines; ``paging_hint``: add
        ``PAGING_HINT`` to each paged tool's description."""
        super().__init__(context)
        #: Add ``PAGING_HINT`` to each paged tool's description (``[tool.tokenlint] paging-hint``).
        self.paging_hint = paging_hint
        self.plan: FilePlan = plan if plan is not None else context.scratch[PLAN_KEY]
        #: The project formatter's style the added lines are written in (``fix.style``).
        self.style = style
        self.line_length = style.line_length
        #: The module's lines as parsed (for the indentation of a node's first line).
        self.lines: list[str] = []
        #: ``id`` of an original ``Name`` node of a user's ``cursor`` variable → its new name.
        self.renames: dict[int, str] = {}
        #: Indentation of the simple statement being visited.
        self.stmt_indent = ""
        #: Whether an edit applied inside that statement (it is laid out again on leaving it).
        self.stmt_wrapped = False

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        """``tree`` with the plan applied and the runtime's (and SDK's) names imported; raises
        ``SkipFile`` when the plan wraps nothing."""
        if not self.plan:
            raise SkipFile("no fixable MCP tools")
        self.lines = tree.code.splitlines()
        for name in sorted(self.plan.imports):
            AddImportsVisitor.add_needed_import(self.context, RUNTIME_MODULE, name)
        for module, name in sorted(self.plan.sdk_imports):
            AddImportsVisitor.add_needed_import(self.context, module, name)
        return tree.visit(self)

    # -- keys ---------------------------------------------------------------------------------
    def _key(self, node: cst.CSTNode) -> NodeKey | None:
        """The key of an original node (None for a node the codemod built)."""
        try:
            position = self.get_metadata(PositionProvider, node)
        except KeyError:
            return None
        return NodeKey(type(node).__name__, position.start.line, position.start.column,
                       position.end.line, position.end.column)

    def _indent(self, key: NodeKey) -> str:
        """The indentation of the line the node at ``key`` starts on."""
        line = self.lines[key.line - 1] if key.line - 1 < len(self.lines) else ""
        return line[: len(line) - len(line.lstrip())]

    # -- expressions ----------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        """Collect the ``Name`` nodes of a planned function's ``cursor`` variable to rename."""
        key = self._key(node)
        edit = self.plan.functions.get(key) if key is not None else None
        if edit is not None and edit.rename_cursor_to:
            # the user's own ``cursor`` variable (a DB cursor) is renamed before the runtime's
            # ``cursor`` parameter is added; names are collected from the original nodes only
            self.renames.update({id(n): edit.rename_cursor_to for n in variable_names(node.body)
                                 if n.value == "cursor"})
        return True

    def on_leave(self, original_node: cst.CSTNodeT, updated_node: cst.CSTNodeT,
                 ) -> cst.CSTNodeT | cst.RemovalSentinel:
        """Every node on the way out: a renamed ``cursor`` variable gets its new name, and an
        expression the plan names (by its ``NodeKey``) gets its edits (``_edited``)."""
        left = super().on_leave(original_node, updated_node)
        if isinstance(original_node, cst.Name) and id(original_node) in self.renames and isinstance(left, cst.Name):
            return left.with_changes(value=self.renames[id(original_node)])
        if not isinstance(original_node, cst.BaseExpression) or not isinstance(left, cst.BaseExpression):
            return left
        key = self._key(original_node)
        if key is None:
            return left
        # LibCST types on_leave as returning the type it was given; an edited expression is
        # another expression (a call around it), which LibCST accepts in every expression slot
        return cast(cst.CSTNodeT, self._edited(key, left))

    def _edited(self, key: NodeKey, updated_node: cst.BaseExpression) -> cst.BaseExpression:
        """``updated_node`` (the expression at ``key`` in the original text) with the plan's edits
        applied: a dropped slice, a clamp, the paging hint, a schema, a declared tool list, a
        runtime wrap; sets ``stmt_wrapped`` when one applies."""
        if key in self.plan.drop_slices and isinstance(updated_node, cst.Subscript):
            updated_node = updated_node.value
            self.stmt_wrapped = True
        if key in self.plan.clamp_exprs:
            updated_node = _parse(f"min({node_code(updated_node)}, {self.plan.clamp_exprs[key]:_})")
            self.stmt_wrapped = True
        if key in self.plan.descriptions and self.paging_hint and isinstance(updated_node, cst.SimpleString):
            updated_node = _with_hint(updated_node)
            self.stmt_wrapped = True
        if key in self.plan.schemas:
            updated_node = _parse(f"with_cursor_parameter({node_code(updated_node)})")
            self.stmt_wrapped = True
        if key in self.plan.tool_lists:
            updated_node = _declared(updated_node, self.plan.tool_lists[key], self.style.quote)
            self.stmt_wrapped = True
        wrap = self.plan.wraps.get(key)
        if wrap is not None:
            updated_node = self._wrapped(updated_node, wrap, self._indent(key))
            self.stmt_wrapped = True
        return updated_node

    def _wrapped(self, node: cst.BaseExpression, wrap: Wrap, indent: str) -> cst.BaseExpression:
        """``node`` inside the runtime call of ``wrap``, laid out for the line length: on one line
        after ``return`` when it fits, else as black and ruff split a call; ``indent``: that of
        the line ``node`` starts on."""
        options = [f"tool={wrap.tool if wrap.tool_is_expression else _string_literal(wrap.tool)}",
                   f"arguments={wrap.arguments}",
                   f"cursor={wrap.cursor}"]
        if wrap.session_id:
            options.append(f"session_id={wrap.session_id}")
        options.append(f"max_tokens={wrap.max_tokens:_}")
        if wrap.client:
            options.append(f"client={_string_literal(wrap.client)}")
        if self.style.quote != '"':
            options = [_requote(o, self.style.quote) for o in options]
        if wrap.call == "fit_json_text":
            assert isinstance(node, cst.Call)
            value = node_code(node.args[0].value)
            rest = [node_code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in node.args[1:]]
        else:
            value, rest = node_code(node), []
        width = self.line_length
        single = f"{wrap.call}({value}, {', '.join(options + rest)})"
        if "\n" not in single and len(indent) + len("return ") + len(single) <= width:
            return _parse(single)
        # Continuation lines are written relative to the statement's indentation (LibCST adds
        # it), one level deeper than the line the wrapped value starts on.
        # (a parenthesized value's position starts inside its parentheses, on a later line)
        rel = 0 if getattr(node, "lpar", None) else max(len(indent) - len(self.stmt_indent), 0)
        inner, close = " " * (rel + 4), " " * rel
        if "\n" in value and not _has_multiline_string(node):
            value = value.replace("\n", "\n    ")
        # black's and ruff's layout: everything on one line inside the brackets (no trailing
        # comma), else one argument per line with a trailing comma
        hugged = ", ".join([value, *options, *rest])
        if "\n" not in hugged and len(self.stmt_indent) + len(inner) + len(hugged) <= width:
            return _parse(f"{wrap.call}(\n{inner}{hugged}\n{close})")
        groups = [value] + [_split_dict(o, inner, len(self.stmt_indent), width) for o in options]
        body = "".join(f"\n{inner}{g}," for g in groups + rest)
        return _parse(f"{wrap.call}({body}\n{close})")

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        """Note the statement's indentation; no edit in it yet."""
        key = self._key(node)
        if key is not None:
            self.stmt_indent = self._indent(key)
        self.stmt_wrapped = False
        return True

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """A statement holding a rewritten call is laid out again as black and ruff would
        (``fix.layout``), when it can be; every other statement keeps its text."""
        if not self.stmt_wrapped:
            return updated_node
        self.stmt_wrapped = False
        laid_out = layout_statement(updated_node, self.line_length - len(self.stmt_indent))
        return laid_out if laid_out is not None else updated_node

    # -- the result resource -------------------------------------------------------------------
    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        """``register_result_resource(<server>)`` after each statement the plan names
        (``plan.resources``): below a ``def`` or ``class`` after two blank lines, as black and
        ruff space top-level code after one; right below a simple statement."""
        if not self.plan.resources:
            return updated_node
        body: list[cst.BaseStatement] = []
        for original, updated in zip(original_node.body, updated_node.body):
            body.append(updated)
            key = self._key(original)
            name = self.plan.resources.get(key) if key is not None else None
            if name is None:
                continue
            blank = 2 if isinstance(original, cst.BaseCompoundStatement) else 0
            call = cst.parse_statement(f"register_result_resource({name})\n")
            body.append(call.with_changes(leading_lines=[cst.EmptyLine()] * blank))
        return updated_node.with_changes(body=body)

    # -- function definitions ----------------------------------------------------------------
    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        """Apply the ``FunctionEdit`` of a tool's ``def``: statements at the top of its body,
        ``@computed_once``, the paging hint, the ``cursor`` (and ``ctx``) parameter,
        ``Paged[...]``; a signature grown too long is laid out again."""
        key = self._key(original_node)
        edit = self.plan.functions.get(key) if key is not None else None
        if key is None or edit is None:
            return updated_node
        indent = self._indent(key)
        if edit.clamps or edit.snapshot:
            updated_node = _insert_statements(updated_node, edit, self.style, len(indent) + 4)
        if edit.computed_once:
            updated_node = _with_computed_once(updated_node)
        if edit.add_cursor and self.paging_hint:
            updated_node = _docstring_with_hint(updated_node, indent + "    ", self.line_length)
        if edit.computed_once:
            updated_node = _split_long_decorators(updated_node, self.line_length - len(indent))
        if edit.add_cursor:
            updated_node = updated_node.with_changes(
                params=_add_cursor(updated_node.params, updated_node.whitespace_before_params))
        if edit.add_context:
            updated_node = updated_node.with_changes(
                params=_add_cursor(updated_node.params, updated_node.whitespace_before_params,
                                   name=edit.add_context, annotation="Context | None"))
        if edit.paged and updated_node.returns is not None:
            annotation = updated_node.returns.annotation
            updated_node = updated_node.with_changes(
                returns=updated_node.returns.with_changes(annotation=_parse(f"Paged[{node_code(annotation)}]")))
        if (edit.add_cursor or edit.paged or edit.add_context) and _header_length(updated_node, indent) > self.line_length:
            hugged = _parameters_on_one_line(updated_node)
            updated_node = hugged if _header_length(hugged, indent) <= self.line_length \
                else _one_parameter_per_line(updated_node)
        return updated_node


def _with_computed_once(fn: cst.FunctionDef) -> cst.FunctionDef:
    """``fn`` with ``@computed_once`` as its innermost decorator (right above the ``def``, under
    the tool decorator), unless it has it. Only the body is skipped on a served continuation:
    the decorators above still run."""
    if any((dotted_name(d.decorator) or "").split(".")[-1] == "computed_once" for d in fn.decorators):
        return fn
    return fn.with_changes(decorators=[*fn.decorators, cst.Decorator(decorator=cst.Name("computed_once"))])


def _split_long_decorators(fn: cst.FunctionDef, width: int) -> cst.FunctionDef:
    """Decorator calls of one argument longer than ``width`` chars laid out as black and ruff do
    once another decorator follows them (``@computed_once``): the argument on its own line."""
    decorators = list(fn.decorators)
    for i, d in enumerate(decorators[:-1]):
        call = d.decorator
        if not (isinstance(call, cst.Call) and len(call.args) == 1) or "\n" in node_code(call) \
                or len(node_code(call)) + 1 <= width:
            continue
        arg = call.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        decorators[i] = d.with_changes(decorator=call.with_changes(
            args=[arg],
            whitespace_before_args=cst.ParenthesizedWhitespace(
                indent=True, last_line=cst.SimpleWhitespace("    ")),
            whitespace_after_func=cst.SimpleWhitespace(""),
        ))
        # the closing bracket on its own line, at the decorator's indentation
        decorators[i] = decorators[i].with_changes(decorator=decorators[i].decorator.with_changes(
            args=[arg.with_changes(whitespace_after_arg=cst.ParenthesizedWhitespace(
                indent=True, last_line=cst.SimpleWhitespace("")))]))
    return fn.with_changes(decorators=decorators)


def _laid_out(code: str, style: Style, indent: int) -> cst.BaseStatement:
    """The statement ``code`` (written by the codemod, one line) in the project's style, for a
    body indented by ``indent`` chars."""
    if style.quote != '"':
        target, _, value = code.partition(" = ")
        code = f"{target} = {_requote(value, style.quote)}"
    stmt = cst.parse_statement(code + "\n")
    if isinstance(stmt, cst.SimpleStatementLine):
        return layout_statement(stmt, style.line_length - indent) or stmt
    return stmt


def _insert_statements(fn: cst.FunctionDef, edit: FunctionEdit, style: Style, indent: int) -> cst.FunctionDef:
    """Insert, at the top of the body (after the docstring), the arguments snapshot
    (``call_arguments = {...}``, the arguments as called) and then the clamps
    (``limit = min(limit, 250)``)."""
    if not isinstance(fn.body, cst.IndentedBlock):
        return fn
    body = list(fn.body.body)
    at = 1 if body and _is_docstring(body[0]) else 0
    new = [_laid_out(f"{edit.snapshot[0]} = {edit.snapshot[1]}", style, indent)] if edit.snapshot else []
    new += [cst.parse_statement(f"{p} = min({p}, {n:_})\n") for p, n in edit.clamps]
    return fn.with_changes(body=fn.body.with_changes(body=body[:at] + new + body[at:]))


def _header_length(fn: cst.FunctionDef, indent: str) -> int:
    """Length in chars of the ``def`` line(s)' longest line, ``indent`` included."""
    header = node_code(fn.with_changes(body=cst.SimpleStatementSuite([cst.Pass()]), decorators=[],
                                   leading_lines=[])).rstrip()
    header = header[: -len(" pass")]  # the placeholder body is not part of the header
    comment = fn.body.header.comment if isinstance(fn.body, cst.IndentedBlock) else None
    if comment is not None:  # black and ruff count a trailing comment in the line length
        header += "  " + comment.value
    return len(indent) + max(len(line) for line in header.splitlines())


def _parameters_on_one_line(fn: cst.FunctionDef) -> cst.FunctionDef:
    """``def f(a, b, cursor=None) -> T:`` laid out with the parameters on one indented line
    between the brackets (black's first split), for a one-line signature that grew too long."""
    if "\n" in node_code(fn.params):
        return fn
    params = fn.params
    items = [(g, i) for g in NAMED_PARAMETER_FIELDS for i in range(len(getattr(params, g)))]
    changes: dict[str, object] = {}  # ``Parameters`` field → new value
    closing = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(""))
    # black and ruff give a lone parameter split from its ``def`` a trailing comma
    alone = len(items) + (params.star_kwarg is not None) == 1 and not isinstance(params.star_arg, (cst.Param, cst.ParamStar))
    end = cst.Comma() if alone else cst.MaybeSentinel.DEFAULT
    if params.star_kwarg is not None:
        changes["star_kwarg"] = params.star_kwarg.with_changes(comma=end, whitespace_after_param=closing)
    elif items:
        g, i = items[-1]
        group = list(getattr(params, g))
        group[i] = group[i].with_changes(comma=end, whitespace_after_param=closing)
        changes[g] = group
    else:
        return fn
    return fn.with_changes(params=params.with_changes(**changes), whitespace_before_params=cst.ParenthesizedWhitespace(
        indent=True, last_line=cst.SimpleWhitespace("    ")))


def _one_parameter_per_line(fn: cst.FunctionDef) -> cst.FunctionDef:
    """``def f(a, b, cursor=None):`` laid out one parameter per line with a trailing comma (black's
    layout), for a signature on one line, or with its parameters on one line between the
    brackets, that the added ``cursor`` made too long."""
    params_code = node_code(fn.params).strip()
    if "\n" in params_code or params_code.endswith(","):
        return fn

    def ws(extra: str) -> cst.ParenthesizedWhitespace:
        return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(extra))

    params = fn.params
    ordered = [(g, i) for g in NAMED_PARAMETER_FIELDS for i in range(len(getattr(params, g)))]
    last = ordered[-1] if ordered and params.star_kwarg is None else None
    changes: dict[str, object] = {}  # ``Parameters`` field → new value
    for g in NAMED_PARAMETER_FIELDS:
        items = list(getattr(params, g))
        for i, p in enumerate(items):
            after = ws("") if (g, i) == last else ws("    ")
            items[i] = p.with_changes(comma=cst.Comma(whitespace_after=after), whitespace_after_param=cst.SimpleWhitespace(""))
        changes[g] = items
    if isinstance(params.star_arg, (cst.Param, cst.ParamStar)):
        changes["star_arg"] = params.star_arg.with_changes(comma=cst.Comma(whitespace_after=ws("    ")))
    if params.star_kwarg is not None:
        changes["star_kwarg"] = params.star_kwarg.with_changes(comma=cst.Comma(whitespace_after=ws("")))
    if params.posonly_ind is not cst.MaybeSentinel.DEFAULT and params.posonly_ind is not None:
        changes["posonly_ind"] = params.posonly_ind.with_changes(
            comma=cst.Comma(whitespace_after=ws("    ")))
    return fn.with_changes(params=params.with_changes(**changes), whitespace_before_params=ws("    "))


def _declared(node: cst.BaseExpression, names: set[str], quote: str = '"') -> cst.BaseExpression:
    """``declare_cursor(<node>, ("a", "b"))``; a value already declared gets the union of names
    (a later ``fix`` that pages one more tool)."""
    if isinstance(node, cst.Call) and dotted_name(node.func) == "declare_cursor" and len(node.args) == 2:
        have = {s.evaluated_value for s in walk(node.args[1].value) if isinstance(s, cst.SimpleString)}
        names = set(names) | {h for h in have if isinstance(h, str)}
        node = node.args[0].value
    listed = ", ".join(_string_literal(n, quote) for n in sorted(names))
    return _parse(f"declare_cursor({node_code(node)}, ({listed}{',' if len(names) == 1 else ''}))")


def _is_docstring(stmt: cst.BaseStatement) -> TypeGuard[cst.SimpleStatementLine]:
    """Whether ``stmt`` is a docstring: a line holding only a string literal."""
    return (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Expr)
            and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def _add_cursor(params: cst.Parameters, before_params: cst.BaseParenthesizableWhitespace,
                name: str = "cursor", annotation: str = "Cursor") -> cst.Parameters:
    """Append ``cursor: Cursor = None`` (an optional str whose schema property has a description,
    ``tokenlint.runtime.Cursor``; or ``name: annotation = None``, e.g. the ``ctx: Context | None``
    an mcp 2.x tool gets), keeping the list's layout: with a trailing comma (one
    parameter per line) the new parameter takes the last line's comma and the previous last
    parameter gets the comma of the lines before it. Keyword-only when the list has ``*`` or
    ``**kwargs``."""
    new = cst.Param(
        name=cst.Name(name),
        annotation=cst.Annotation(cst.parse_expression(annotation)),
        equal=cst.AssignEqual(cst.SimpleWhitespace(" "), cst.SimpleWhitespace(" ")),
        default=cst.Name("None"),
    )
    keyword_only = bool(params.kwonly_params) or isinstance(params.star_arg, (cst.Param, cst.ParamStar)) \
        or params.star_kwarg is not None
    group = list(params.kwonly_params if keyword_only else params.params)
    everything = parameters(params)
    last_comma = group[-1].comma if group else None
    if group and isinstance(last_comma, cst.Comma) and params.star_kwarg is None:
        last = group[-1]
        between: cst.BaseParenthesizableWhitespace = cst.SimpleWhitespace(" ")
        if "\n" in node_code(last_comma.whitespace_after):
            previous = everything[-2].comma if len(everything) > 1 else None
            if isinstance(previous, cst.Comma) and "\n" in node_code(previous.whitespace_after):
                between = previous.whitespace_after
            elif "\n" in node_code(before_params):
                between = before_params
        new = new.with_changes(comma=last_comma)
        group[-1] = last.with_changes(comma=last_comma.with_changes(whitespace_after=between))
    elif group and "\n" in node_code(group[-1].whitespace_after_param):
        # ``def f(\n    a, b\n)``: the line break before ``)`` moves behind the new parameter
        last = group[-1]
        new = new.with_changes(whitespace_after_param=last.whitespace_after_param)
        group[-1] = last.with_changes(whitespace_after_param=cst.SimpleWhitespace(""))
    if keyword_only:
        star = params.star_arg if isinstance(params.star_arg, (cst.Param, cst.ParamStar)) else cst.ParamStar()
        return params.with_changes(kwonly_params=[*group, new], star_arg=star)
    return params.with_changes(params=[*group, new])


def _with_hint(string: cst.SimpleString) -> cst.SimpleString:
    """A one-line description literal with ``PAGING_HINT`` appended (unchanged if it has it)."""
    value = string.evaluated_value
    if not isinstance(value, str) or PAGING_HINT in value:
        return string
    sep = "" if not value or value.endswith(" ") else " "
    return string.with_changes(value=f"{string.value[:-1]}{sep}{PAGING_HINT}{string.quote}")


def _docstring_with_hint(fn: cst.FunctionDef, indent: str, width: int) -> cst.FunctionDef:
    """``fn`` with ``PAGING_HINT`` as the last paragraph of its docstring (which becomes the tool's
    description), or as a new one-line docstring, or appended to a ``description="..."`` of its
    decorator (then the SDK does not use the docstring; the decorator is laid out again for lines
    of ``width`` chars, as the formatter would); ``indent``: the body's indentation. A
    docstring that is not a plain triple-quoted string (raw, bytes, f-string, concatenated,
    single-quoted) is left alone, and so is one that has the sentence."""
    decorators = list(fn.decorators)
    for i, d in enumerate(decorators):  # ``@mcp.tool(description="...")``: the docstring is not used
        call = d.decorator
        if isinstance(call, cst.Call):
            for j, arg in enumerate(call.args):
                if arg.keyword is not None and arg.keyword.value == "description":
                    if not (isinstance(arg.value, cst.SimpleString) and not arg.value.prefix
                            and len(arg.value.quote) == 1):
                        return fn
                    args = list(call.args)
                    args[j] = arg.with_changes(value=_with_hint(arg.value))
                    hinted: cst.BaseExpression = call.with_changes(args=args)
                    laid_out = layout_statement(cst.SimpleStatementLine([cst.Expr(hinted)]),
                                                width - (len(indent) - 4) - 1)  # (after the ``@``)
                    if laid_out is not None:
                        hinted = cast(cst.Expr, laid_out.body[0]).value
                    decorators[i] = d.with_changes(decorator=hinted)
                    return fn.with_changes(decorators=decorators)
    body = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else None
    if body is None:
        return fn
    if not (body and _is_docstring(body[0])):
        doc = cst.parse_statement(f'"""{PAGING_HINT}"""\n')
        return fn.with_changes(body=fn.body.with_changes(body=[doc, *body]))
    stmt = body[0]
    expr = stmt.body[0]
    assert isinstance(expr, cst.Expr)  # as ``_is_docstring`` found it
    string = expr.value
    if not isinstance(string, cst.SimpleString) or string.prefix or len(string.quote) != 3 \
            or PAGING_HINT in string.value:
        return fn
    text = string.value[3:-3]
    if text.endswith("\\"):
        return fn
    new = f"{string.quote}{text.rstrip()}\n\n{indent}{PAGING_HINT}\n{indent}{string.quote}"
    stmt = stmt.with_changes(body=[expr.with_changes(value=string.with_changes(value=new))])
    return fn.with_changes(body=fn.body.with_changes(body=[stmt, *body[1:]]))


def _has_multiline_string(node: cst.CSTNode) -> bool:
    """Whether re-indenting ``node``'s lines would change a string's value."""
    return any(isinstance(n, (cst.SimpleString, cst.FormattedString)) and "\n" in node_code(n)
               for n in walk(node))


def _split_dict(option: str, inner: str, base: int, width: int) -> str:
    """``arguments={"a": a, "b": b}`` one key per line when the option (with its comma) is too long
    for a line of ``width`` chars."""
    name, _, value = option.partition("=")
    if not (value.startswith("{") and value.endswith("}")) or base + len(inner) + len(option) + 1 <= width:
        return option
    keys = [k for k in value[1:-1].split(", ") if k]
    return f"{name}={{" + "".join(f"\n{inner}    {k}," for k in keys) + f"\n{inner}}}"


def _requote(code: str, quote: str) -> str:
    """``code`` (an expression or ``name=expression``) with its plain string literals written
    with ``quote``, where that needs no escape (ruff's ``quote-style``)."""
    name, eq, value = code.partition("=") if code[:1].isidentifier() and "=" in code else ("", "", code)
    if name and not name.isidentifier():
        name, eq, value = "", "", code

    class Requote(cst.CSTTransformer):
        def leave_SimpleString(self, original_node: cst.SimpleString,
                               updated_node: cst.SimpleString) -> cst.SimpleString:
            text = updated_node.value
            prefix = text[: len(text) - len(text.lstrip("rRbBuU"))]
            body = text[len(prefix):]
            if body[:3] in ('"""', "'''") or body[0] == quote or quote in body[1:-1] or "\\" in body:
                return updated_node
            return updated_node.with_changes(value=f"{prefix}{quote}{body[1:-1]}{quote}")

    requoted = cst.parse_expression(value).visit(Requote())
    assert isinstance(requoted, cst.BaseExpression)  # Requote removes no node
    return f"{name}{eq}{node_code(requoted)}"


def _parse(code: str) -> cst.BaseExpression:
    """The expression ``code`` (written by the codemod; raises ``ParserSyntaxError`` if bad)."""
    return cst.parse_expression(code)


def _string_literal(value: str, quote: str = '"') -> str:
    """``value`` as a Python string literal in ``quote`` (``"`` or ``'``). Control characters and
    lone surrogates (a tool named ``"odd\\udfffname"``, which no UTF-8 file can hold) are written
    as their escapes (``repr``'s: ``\\n``, ``\\x00``, ``\\udfff``)."""
    escaped = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
    return quote + "".join(repr(c)[1:-1] if c < " " or c == "\x7f" or "\ud800" <= c <= "\udfff" else c
                           for c in escaped) + quote
