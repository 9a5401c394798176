"""What the project's own entry points pass a server factory: the default configuration.

A server factory takes its switches as parameters (``def server(response_limit: int | None =
None) -> FastMCP``), and the package's command line calls it with what the operator gave, or
with the command line's own default when they gave nothing:

- click: ``@click.option("--response-limit", type=int, default=50000) def main(response_limit):
  server(response_limit).run()`` (the option's parameter named as click names it: an explicit
  identifier among the declarations, else the first ``--long`` option, else the first ``-s``
  one, dashes made underscores);
- typer: ``def main(response_limit: int = typer.Option(50000))``, ``Annotated[int,
  typer.Option()] = 50000`` or a plain default in a command of a module that imports typer;
- argparse: ``parser.add_argument("--response-limit", type=int, default=50000)``, then
  ``args = parser.parse_args(); server(args.response_limit)`` (the destination named as argparse
  names it: ``dest=``, else the first ``--long`` option, else the first ``-s`` one);
- a literal: ``server(response_limit=20000)``, or a module-level constant bound to one.

Labelling rule 1 ("worst realistic case under the default configuration", realworld README) takes
that default: a cap under a switch such a call turns on does cut. Anything not known before run
time (an environment variable, a dict of configuration, an argparse default of None, a parameter
passed through from another function) is not a value here, and the switch stays as the factory's
own default leaves it. Calls in test modules are no configuration of the server.

``factory_settings`` is the whole public API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator, Union

import libcst as cst

from tokenlint.analysis.constants import int_literal, keyword_arg, module_constant
from tokenlint.source.functions import parameters
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children, walk

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule, Project

#: A value known before run time (None is never one: an unset switch stays off).
Literal = Union[int, float, str, bool]

#: Roots of the click family whose ``option`` decorator declares a command-line option.
_CLICK_ROOTS = frozenset({"click", "rich_click", "cloup", "asyncclick"})

#: Module-name parts that mark test code (its calls configure a test, not the server).
_TEST_PARTS = frozenset({"test", "tests", "testing", "conftest"})


def factory_settings(project: Project, module: ParsedModule, factory: cst.FunctionDef,
                     names: frozenset[str]) -> dict[str, Literal]:
    """Of the parameters ``names`` of the module-level function ``factory`` of ``module``, the
    value each has on the default configuration: the one every call of ``factory`` in the run's
    modules passes (outside tests; the package of ``module`` and loose scripts are read), when
    each call passes a value known before run time (see the module docstring), agreeing with the
    others (or all positive integers: the largest). A parameter some call leaves out or passes an
    unknown for, or that no call reaches, is absent. Empty when nothing calls ``factory``."""
    calls = list(_factory_calls(project, module, factory))
    if not calls or not names:
        return {}
    out: dict[str, Literal] = {}
    for name in sorted(names):
        values = [_passed(cmod, scope, call, factory, name) for cmod, scope, call in calls]
        known = [v for v in values if v is not None]
        if len(known) != len(values):
            continue
        if all(v == known[0] and type(v) is type(known[0]) for v in known):
            out[name] = known[0]
        elif all(type(v) is int and v > 0 for v in known):
            out[name] = max(known, key=int)
    return out


def factory_module_names(project: Project, module: ParsedModule, factory: cst.FunctionDef,
                         names: Iterable[str]) -> dict[str, list[tuple[ParsedModule, cst.Name]]]:
    """Of the parameters ``names`` of the module-level function ``factory`` of ``module``, those
    that calls of ``factory`` in the run pass a module-level name of their own module for
    (``register_deck_tools(app, decks)`` with ``decks = {}`` at the top of the caller's module):
    parameter -> ``(calling module, the name passed)`` per such call. The caller's name is what the
    factory's nested tools read; a name local to the calling function is left out."""
    out: dict[str, list[tuple[ParsedModule, cst.Name]]] = {}
    wanted = sorted(names)
    if not wanted:
        return out
    for cmod, scope, call in _factory_calls(project, module, factory):
        for name in wanted:
            arg = _argument(call, factory, name)
            if isinstance(arg, cst.Name) and module_constant(cmod, arg.value) is not None and (
                    scope is None or not (_rebinds(scope, arg.value) or
                                          any(p.name.value == arg.value for p in parameters(scope)))):
                out.setdefault(name, []).append((cmod, arg))
    return out


def _is_test(module_name: str) -> bool:
    parts = module_name.split(".")
    return any(p in _TEST_PARTS or p.startswith("test_") or p.endswith("_test") for p in parts)


def _factory_calls(project: Project, module: ParsedModule,
                   factory: cst.FunctionDef) -> Iterator[tuple[ParsedModule, cst.FunctionDef | None, cst.Call]]:
    """``(module, enclosing def or None at module level, call)`` for each call of ``factory`` in
    the modules of ``module``'s top-level package and the run's loose scripts, tests left out."""
    name = factory.name.value
    top = module.module_name.split(".")[0]
    for mname in sorted(project.module_files):
        if _is_test(mname) or not (mname.split(".")[0] == top or "." not in mname):
            continue
        if not project.mentions(mname, name):
            continue
        cmod = project.get(mname)
        if cmod is None:
            continue
        for scope, call in _calls_with_scope(cmod.tree, None):
            if _calls_factory(project, cmod, call.func, module, factory):
                yield cmod, scope, call


def _calls_with_scope(node: cst.CSTNode, scope: cst.FunctionDef | None) -> Iterator[tuple[cst.FunctionDef | None, cst.Call]]:
    stack: list[tuple[cst.CSTNode, cst.FunctionDef | None]] = [(node, scope)]
    while stack:
        n, s = stack.pop()
        if isinstance(n, cst.Call):
            yield s, n
        inner = n if isinstance(n, cst.FunctionDef) else s
        stack.extend((c, inner) for c in code_children(n))


def _calls_factory(project: Project, cmod: ParsedModule, func: cst.BaseExpression,
                   module: ParsedModule, factory: cst.FunctionDef) -> bool:
    if cmod is module and isinstance(func, cst.Name):
        return module.functions.get(func.value) is factory
    qn = cmod.imports.qualify(func)
    found = project.find_function(qn) if qn else None
    return found is not None and found[1] is factory


def _passed(cmod: ParsedModule, scope: cst.FunctionDef | None, call: cst.Call,
            factory: cst.FunctionDef, name: str) -> Literal | None:
    """The value ``call`` passes for ``factory``'s parameter ``name``, when known before run
    time; None when it passes nothing (the factory's default then) or something unknown."""
    arg = _argument(call, factory, name)
    if arg is None:
        return None
    value = literal_value(cmod, arg)
    if value is not None:
        return value
    if isinstance(arg, cst.Name) and scope is not None and not _rebinds(scope, arg.value):
        param = next((p for p in parameters(scope) if p.name.value == arg.value), None)
        if param is not None:
            return _click_default(cmod, scope, arg.value) if _click_command(cmod, scope) else \
                _typer_default(cmod, scope, param)
    if isinstance(arg, cst.Attribute) and isinstance(arg.value, cst.Name) and \
            _parsed_arguments(cmod, scope, arg.value.value) and not _attribute_rebound(cmod, dotted_name(arg)):
        return _argparse_default(cmod, arg.attr.value)
    return None


def _argument(call: cst.Call, fn: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
    """The expression ``call`` passes for ``fn``'s parameter ``param``, None when it passes none
    or spreads ``*args`` / ``**kwargs`` before it (what those hold is not seen)."""
    names = [p.name.value for p in [*fn.params.posonly_params, *fn.params.params]]
    position = 0
    for a in call.args:
        if a.star:
            return None
        if a.keyword is not None:
            if a.keyword.value == param:
                return a.value
        else:
            if position < len(names) and names[position] == param:
                return a.value
            position += 1
    return None


def literal_value(mod: ParsedModule | None, node: cst.BaseExpression | None, depth: int = 0) -> Literal | None:
    """The value of a literal (``50000``, ``-1``, ``2.5``, ``"x"``, ``True``) or of a module-level
    constant of ``mod`` (when given) bound to one (``DEFAULT_LIMIT``); None for anything else,
    None itself included."""
    if node is None or depth > 4:
        return None
    if isinstance(node, cst.Integer):
        return int_literal(node)
    if isinstance(node, cst.Float):
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            return None
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        return text if isinstance(text, str) else None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal_value(mod, node.expression, depth + 1)
        return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else None
    if isinstance(node, cst.Name):
        if node.value in ("True", "False"):
            return node.value == "True"
        bound = mod.constants.get(node.value) if mod is not None else None
        return literal_value(mod, bound, depth + 1) if bound is not None else None
    return None


#: First character of a ``member_token``: no literal string of a server starts with it.
_MEMBER_MARK = "\x00"


def member_token(node: cst.BaseExpression | None) -> str | None:
    """A ``Literal`` standing for a class's member named by ``node`` (``ToolName.GET_TABLES``,
    ``tools.Action.list``: a CapWords class, then the member), so that an ``if``/``match`` that
    compares a parameter with members can be decided for a caller that passes one; two tokens
    are equal when they name the same class and member (the last two parts). None for anything
    else. A token is never equal to a real literal (``is_member_token``)."""
    name = dotted_name(node) if isinstance(node, cst.Attribute) else None
    if name is None:
        return None
    parts = name.split(".")
    if not parts[-2].lstrip("_")[:1].isupper() or parts[-1][:1] == "_":
        return None
    return f"{_MEMBER_MARK}{parts[-2]}.{parts[-1]}"


def is_member_token(value: Literal | None) -> bool:
    """Whether ``value`` is a ``member_token``."""
    return isinstance(value, str) and value.startswith(_MEMBER_MARK)


def _rebinds(scope: cst.FunctionDef, name: str) -> bool:
    """Whether ``scope``'s body assigns ``name`` (the parameter no longer holds what was passed)."""
    for n in walk(scope.body):
        if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) and \
                isinstance(n.target, cst.Name) and n.target.value == name:
            return True
    return False


def _qualified(mod: ParsedModule, node: cst.BaseExpression) -> str:
    return mod.imports.qualify(node) or dotted_name(node) or ""


# -- click ---------------------------------------------------------------------------------
def _click_options(mod: ParsedModule, fn: cst.FunctionDef) -> Iterator[cst.Call]:
    for d in fn.decorators:
        call = d.decorator
        if isinstance(call, cst.Call):
            qn = _qualified(mod, call.func)
            if qn.split(".")[0] in _CLICK_ROOTS and qn.split(".")[-1] == "option":
                yield call


def _click_command(mod: ParsedModule, fn: cst.FunctionDef) -> bool:
    return next(_click_options(mod, fn), None) is not None


def _declarations(call: cst.Call) -> list[str]:
    out = []
    for a in call.args:
        if a.keyword is None and not a.star and isinstance(a.value, cst.SimpleString):
            text = a.value.evaluated_value
            if isinstance(text, str):
                out.append(text)
    return out


def _option_name(decls: list[str]) -> str | None:
    """The Python name click gives an option: an identifier among its declarations, else the
    first of its longest-prefixed options (``--response-limit`` before ``-r``), its dashes made
    underscores and lowercased (``click.Option._parse_decls``)."""
    explicit = next((d for d in decls if d.isidentifier()), None)
    if explicit is not None:
        return explicit
    possible = []
    for d in decls:
        first = d.split("/")[0].strip()
        prefix = len(first) - len(first.lstrip("-"))
        if prefix:
            possible.append((prefix, first[prefix:]))
    if not possible:
        return None
    best = max(p for p, _ in possible)
    return next(n for p, n in possible if p == best).replace("-", "_").lower()


def _click_default(mod: ParsedModule, fn: cst.FunctionDef, param: str) -> Literal | None:
    for call in _click_options(mod, fn):
        if _option_name(_declarations(call)) == param:
            return literal_value(mod, keyword_arg(call, "default"))
    return None


# -- typer ---------------------------------------------------------------------------------
def _typer_default(mod: ParsedModule, fn: cst.FunctionDef, param: cst.Param) -> Literal | None:
    """The default of a parameter of a typer command: ``typer.Option(50000)`` /
    ``typer.Option(default=50000)`` as its default, else its plain default in a command
    (``@app.command()`` / ``@app.callback()``) of a module that imports typer."""
    if not any(q.split(".")[0] == "typer" for q in mod.imports.names.values()):
        return None
    default = param.default
    if isinstance(default, cst.Call) and _qualified(mod, default.func).split(".")[0] == "typer":
        given = keyword_arg(default, "default")
        if given is None:
            given = next((a.value for a in default.args if a.keyword is None and not a.star), None)
        return literal_value(mod, given)
    command = any(isinstance(d.decorator, cst.Call) and isinstance(d.decorator.func, cst.Attribute)
                  and d.decorator.func.attr.value in ("command", "callback") for d in fn.decorators)
    return literal_value(mod, default) if command else None


# -- argparse ------------------------------------------------------------------------------
def _parsed_arguments(mod: ParsedModule, scope: cst.FunctionDef | None, name: str) -> bool:
    """Whether ``name`` holds what an argument parser parsed in ``scope`` (the module when None):
    bound to a ``….parse_args(...)`` call, or a parameter annotated ``argparse.Namespace``."""
    if scope is not None:
        for p in parameters(scope):
            if p.name.value == name and p.annotation is not None and \
                    _qualified(mod, p.annotation.annotation).split(".")[-1] == "Namespace":
                return True
    body: cst.CSTNode = scope.body if scope is not None else mod.tree
    values = []
    for n in walk(body):
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name
                                             for t in n.targets):
            values.append(n.value)
        elif isinstance(n, (cst.AnnAssign, cst.AugAssign)) and isinstance(n.target, cst.Name) and \
                n.target.value == name:
            return False
    return bool(values) and all(isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute)
                                and v.func.attr.value == "parse_args" for v in values)


def _attribute_rebound(mod: ParsedModule, dotted: str | None) -> bool:
    """Whether the module assigns the attribute ``args.x`` anywhere, or passes the parser's
    defaults anew (``set_defaults``): then the declared default is not what the factory gets."""
    for n in walk(mod.tree):
        if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) and dotted_name(n.target) == dotted:
            return True
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "set_defaults":
            return True
    return False


def _argparse_dest(call: cst.Call) -> str | None:
    """The attribute ``add_argument`` stores into: ``dest=``, else the first ``--long`` option,
    else the first ``-s`` one, else the positional name (``argparse._get_optional_kwargs``)."""
    dest = keyword_arg(call, "dest")
    if dest is not None:
        text = dest.evaluated_value if isinstance(dest, cst.SimpleString) else None
        return text if isinstance(text, str) else None
    decls = _declarations(call)
    longs = [d for d in decls if d.startswith("--")]
    shorts = [d for d in decls if d.startswith("-") and not d.startswith("--")]
    chosen = longs[0][2:] if longs else shorts[0][1:] if shorts else decls[0] if decls else None
    return chosen.replace("-", "_") if chosen else None


def _argparse_default(mod: ParsedModule, dest: str) -> Literal | None:
    """The default every ``add_argument`` of the module storing into ``dest`` declares, when
    the same literal for all (``action="store_true"`` declares False); None otherwise."""
    values: list[Literal | None] = []
    for n in walk(mod.tree):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "add_argument" \
                and _argparse_dest(n) == dest:
            action = keyword_arg(n, "action")
            kind = action.evaluated_value if isinstance(action, cst.SimpleString) else None
            given = keyword_arg(n, "default")
            if given is None and kind in ("store_true", "store_false"):
                values.append(kind == "store_false")
            else:
                values.append(literal_value(mod, given))
    if not values or any(v is None for v in values) or any(v != values[0] for v in values):
        return None
    return values[0]
