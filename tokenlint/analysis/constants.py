"""Values known before run time: integer constants (``PAGE_MAX = 100``, a cap read from an
imported config module or an environment default) and string values (SQL text built in
f-strings and locals), and the caps written in parameter declarations (``Field(le=100)``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from tokenlint.analysis.state import InterpreterState
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children, literal_string, walk_own

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule


class Constants(InterpreterState):
    """Mixin of ``FunctionInterpreter``: constant integers and strings."""

    # -- constants ---------------------------------------------------------------------------
    def const_int(self, node: cst.BaseExpression | None, depth: int = 0) -> int | None:
        """The integer value of ``node`` known before run time, or None. Reads a literal
        (``10_000``, ``0x100``), arithmetic of known values (``+``, ``-``, ``*``, ``/`` and ``//``
        both floored, ``**`` with an exponent below 64), ``int("100")``, a two-argument
        ``get``/``getenv`` call as its default (``os.environ.get("MAX", "100")``; any mapping's
        ``get(k, default)`` alike), and a module-level constant of this module or one imported from
        a module of the run. Gives up beyond 4 levels of nesting (``depth``); never raises."""
        if node is None or depth > 4:
            return None
        if isinstance(node, cst.Integer):
            return int_literal(node)
        if isinstance(node, cst.BinaryOperation):
            l, r = self.const_int(node.left, depth + 1), self.const_int(node.right, depth + 1)
            if l is None or r is None:
                return None
            op = node.operator
            if isinstance(op, cst.Multiply):
                return l * r
            if isinstance(op, cst.Add):
                return l + r
            if isinstance(op, cst.Subtract):
                return l - r
            if isinstance(op, (cst.FloorDivide, cst.Divide)) and r:
                return l // r
            if isinstance(op, cst.Power):
                return l**r if r < 64 else None
            return None
        if isinstance(node, cst.Call) and node.args:
            callee = (dotted_name(node.func) or "").split(".")[-1]
            if callee == "int" and len(node.args) == 1:
                inner = node.args[0].value
                if isinstance(inner, cst.SimpleString):
                    text = inner.evaluated_value
                    return int(text) if isinstance(text, str) and text.strip().isdigit() else None
                return self.const_int(inner, depth + 1)
            if callee in ("get", "getenv") and len(node.args) == 2:
                # a setting read from the environment with its default: ``os.environ.get(K, "100")``
                default = node.args[1].value
                if isinstance(default, cst.SimpleString):
                    text = default.evaluated_value
                    return int(text) if isinstance(text, str) and text.strip().isdigit() else None
                return self.const_int(default, depth + 1)
        if isinstance(node, cst.Name) and node.value in self.switches_on and \
                node.value not in getattr(self, "env", {}):
            switch = self.switches_on[node.value]  # a switch the project's entry point turns on
            return switch if type(switch) is int else None
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and \
                node.value.value not in getattr(self, "env", {}):
            setting = self._instance_setting(node.value.value, node.attr.value)
            if setting is not None:  # ``config.max_keys`` of a module-level ``config = Config()``
                return ConstantsOf(self, setting[0]).const_int(setting[1], depth + 1)
        if isinstance(node, (cst.Name, cst.Attribute)):
            dn = dotted_name(node)
            value = module_constant(self.mod, dn.split(".")[-1]) if dn else None
            if value is not None:
                return self.const_int(value, depth + 1)
            qn = self.mod.imports.names.get(dn) if dn and "." not in dn else None
            found = self.a.project.resolve(qn) if qn else None
            if found is not None:  # ``from .config import MAX_OUTPUT_SIZE``
                value = module_constant(found[0], found[1])
                if value is not None:
                    return ConstantsOf(self, found[0]).const_int(value, depth + 1)
        return None

    def _instance_setting(self, name: str, attr: str) -> tuple[ParsedModule, cst.BaseExpression] | None:
        """The value a setting of a module-level instance of a class of the run starts with
        (``config = S3Config()`` here or imported, ``config.max_keys``): the class's own default
        (``max_keys: int = 1000``, pydantic ``BaseSettings`` and dataclasses alike) or the one
        assignment its ``__init__`` makes (``self.max_keys = int(os.getenv("MAX_KEYS", "1000"))``),
        with the module it is written in; None when the instance or the setting is not seen."""
        mod, made = self.mod, module_constant(self.mod, name)
        if made is None:
            qn = self.mod.imports.names.get(name)
            found = self.a.project.resolve(qn) if qn else None
            if found is None:
                return None
            mod, made = found[0], module_constant(found[0], found[1])
        if not isinstance(made, cst.Call) or (cls_name := dotted_name(made.func)) is None:
            return None
        if cls_name in mod.classes:
            cls_mod, cls = mod, mod.classes[cls_name]
        else:
            qn = mod.imports.names.get(cls_name)
            hit = self.a.project.resolve_class(qn) if qn else None
            if hit is None:
                return None
            cls_mod, cls = hit[0], hit[0].classes[hit[1]]
        if any(a.keyword is not None and a.keyword.value == attr for a in made.args):
            return None  # (set by the call that made it)
        values: list[cst.BaseExpression] = []
        for stmt in cls.body.body:
            for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and \
                        small.target.value == attr and small.value is not None:
                    values.append(small.value)
                elif isinstance(small, cst.Assign) and any(
                        isinstance(t.target, cst.Name) and t.target.value == attr for t in small.targets):
                    values.append(small.value)
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
                for node in walk_own(stmt.body):
                    if isinstance(node, cst.Assign) and any(dotted_name(t.target) == f"self.{attr}" for t in node.targets):
                        values.append(node.value)
        if len(values) != 1:
            return None
        value: cst.BaseExpression | None = values[0]
        if isinstance(value, cst.Call) and (dotted_name(value.func) or "").split(".")[-1] == "Field":
            value = keyword_arg(value, "default") or (value.args[0].value if value.args and value.args[0].keyword is None else None)
        return (cls_mod, value) if value is not None else None

    def string_value(self, node: cst.BaseExpression | None) -> str | None:
        """The text of a string expression (f-string holes kept as ``{expr}``), following locals
        and module constants; None when it is not a string we can see."""
        if node is None:
            return None
        if isinstance(node, cst.SimpleString):
            v = node.evaluated_value
            return v if isinstance(v, str) else None
        if isinstance(node, cst.ConcatenatedString):
            left, right = self.string_value(node.left), self.string_value(node.right)
            if left is None or right is None:
                return None
            return left + right
        if isinstance(node, cst.FormattedString):
            parts = []
            for p in node.parts:
                if isinstance(p, cst.FormattedStringText):
                    parts.append(p.value)
                elif isinstance(p, cst.FormattedStringExpression):  # (the only other part)
                    parts.append("{" + hole_name(p.expression) + "}")
            return "".join(parts)
        if isinstance(node, cst.Name):
            if node.value in self.strings:
                return self.strings[node.value]
            value = module_constant(self.mod, node.value)
            if value is not None and value is not node:
                return self.string_value(value)
            qn = self.mod.imports.names.get(node.value)
            found = self.a.project.resolve(qn) if qn else None
            if found is not None:  # ``from .utils import ACCOUNT_PATH``
                value = module_constant(found[0], found[1])
                if value is not None:
                    return ConstantsOf(self, found[0]).string_value(value)
        if isinstance(node, cst.Call):
            # text("SELECT ..."), sql.SQL("..."), "...".format(...)
            method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
            if method == "join" and len(node.args) == 1 and isinstance(node.func, cst.Attribute):
                # ``"\n".join(query_lines)``: the pieces, unknown ones kept as holes
                sep, items = self.string_value(node.func.value), self.string_items_of(node.args[0].value)
                return sep.join(items) if sep is not None and items is not None else None
            if method in SAME_TEXT_METHODS and isinstance(node.func, cst.Attribute):
                return self.string_value(node.func.value)  # ``query.encode("utf-8")``, ``sql.strip()``
            if node.args:
                return self.string_value(node.args[0].value)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)):
            left = self.string_value(node.left)
            right = self.string_value(node.right) if isinstance(node.operator, cst.Add) else ""
            if left is not None:
                return left + (right or "")
        return None


    def string_items_of(self, node: cst.BaseExpression) -> list[str] | None:
        """The texts of a list or tuple of strings: a literal, or a local assigned one and
        ``append``-ed to (``string_items``). An unknown piece is kept as a hole (``{expr}``, as
        in an f-string); None when no piece is a string we can see."""
        if isinstance(node, cst.Name):
            return self.string_items.get(node.value)
        if not isinstance(node, (cst.List, cst.Tuple)):
            return None
        items = [self.string_value(e.value) if isinstance(e, cst.Element) else None for e in node.elements]
        if all(t is None for t in items):
            return None
        return [t if t is not None else "{" + (dotted_name(e.value) or "expr") + "}"
                for t, e in zip(items, node.elements)]


def hole_name(expr: cst.BaseExpression) -> str:
    """How an f-string hole is written in the text ``string_value`` gives: its dotted name
    (``{item_id}``), a call of one on a dotted name as that call (``{quote(item_id)}``,
    ``{str(item_id)}``: the value quoted or converted), else ``{expr}``."""
    name = dotted_name(expr)
    if name:
        return name
    if isinstance(expr, cst.Call) and expr.args and expr.args[0].keyword is None and \
            (func := dotted_name(expr.func)) and (arg := dotted_name(expr.args[0].value)):
        return f"{func}({arg})"
    return "expr"


#: ``str``/``bytes`` methods whose result holds the same words as the receiver (a query's row
#: cap survives ``query.strip().encode("utf-8")``).
SAME_TEXT_METHODS = frozenset({"encode", "decode", "strip", "lstrip", "rstrip", "lower", "upper",
                                "casefold", "format", "format_map", "expandtabs"})


class ConstantsOf(Constants):
    """``const_int`` and ``string_value`` over another module's constants (a cap or a URL path
    imported from a config module); no locals."""

    def __init__(self, interp: Constants, mod: ParsedModule) -> None:
        self.a, self.mod = interp.a, mod
        self.switches_on = {}  # (a tool's switches are no names of another module)
        self.strings = {}
        self.string_items = {}


def int_literal(node: cst.Integer) -> int | None:
    """The value of an integer literal (``10_000``, ``0x100``), None when Python would not read it."""
    try:
        return int(node.value.replace("_", ""), 0)
    except ValueError:
        return None


def module_constant(mod: ParsedModule, name: str) -> cst.BaseExpression | None:
    """The value bound to ``name`` at module level in ``mod`` (``ParsedModule.constants``), or None."""
    return mod.constants.get(name)


def literal_table(node: cst.BaseExpression | None) -> bool:
    """Whether ``node`` is a non-empty dict, list, tuple or set display whose every key and value
    is a literal (a string, a number, ``True``/``False``/``None``, or such a display again): a
    lookup table fixed in the source (``EXT_TO_LANG = {".py": "Python"}``, LSP's
    ``COMPLETION_KIND = {1: "text", ...}``). An empty display is not one: code fills it at run
    time."""
    if isinstance(node, cst.Dict):
        return bool(node.elements) and all(
            isinstance(e, cst.DictElement) and _literal(e.key) and _literal(e.value) for e in node.elements)
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return bool(node.elements) and all(isinstance(e, cst.Element) and _literal(e.value) for e in node.elements)
    return False


def fixed_in_source(node: cst.BaseExpression | None) -> bool:
    """Whether ``node`` is a value the source fixes, with nothing read at run time: a literal
    or a lookup table (``literal_table``), or a string method or a pure builtin applied to such
    values (``" ".join(["user-read", "user-modify"])``, ``"a b c".split()``,
    ``sorted({"b", "a"})``, ``frozenset([...])``)."""
    if node is None:
        return False
    if isinstance(node, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
        return literal_table(node)  # (an empty display is filled at run time)
    if _literal(node):
        return True
    if not isinstance(node, cst.Call) or not all(a.keyword is None and not a.star and fixed_in_source(a.value)
                                                 for a in node.args):
        return False
    func = node.func
    if isinstance(func, cst.Attribute):
        return isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString))
    return isinstance(func, cst.Name) and func.value in _PURE_BUILTINS


#: Builtins that make a value only of what they are given.
_PURE_BUILTINS = frozenset({"sorted", "tuple", "list", "set", "frozenset", "dict", "str", "reversed"})


def _literal(node: cst.BaseExpression) -> bool:
    """A literal leaf of a table (``literal_table``) or a display of them (empty allowed)."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, (cst.Integer, cst.Float))
    if isinstance(node, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
        return not node.elements or literal_table(node)
    return False


def class_constant(cls: cst.ClassDef, name: str) -> cst.BaseExpression | None:
    """The value the body of ``cls`` binds to the class attribute ``name`` (``EXT_TO_LANG =
    {...}`` or annotated), or None."""
    for stmt in cls.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets):
                return small.value
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and \
                    small.target.value == name:
                return small.value
    return None


def string_literal(node: cst.CSTNode | None) -> str | None:
    """The ``str`` of a plain string literal node, else None (memoised: ``walk.literal_string``)."""
    return literal_string(node) if isinstance(node, cst.SimpleString) else None


def keyword_arg(call: cst.Call, name: str) -> cst.BaseExpression | None:
    """The expression ``call`` passes as keyword argument ``name``, or None when it passes none."""
    for a in call.args:
        if a.keyword is not None and a.keyword.value == name:
            return a.value
    return None


def le_of_call(call: cst.Call) -> int | None:
    """The maximum a constraint call declares with an integer literal: the first of ``le``, ``lt``
    (pydantic's ``Field``/``conint``), ``max_value`` or ``maximum`` (the JSON Schema keyword) given
    as a literal (``Field(le=100)`` gives 100; ``lt=100`` also gives 100, one above the largest
    value allowed); None when there is none or the literal does not parse."""
    for key in ("le", "lt", "max_value", "maximum"):
        v = keyword_arg(call, key)
        if isinstance(v, cst.Integer):
            try:
                return int(v.value.replace("_", ""), 0)
            except ValueError:
                return None
    return None


def le_in_annotation(ann: cst.BaseExpression, interp: Constants) -> int | None:
    """The maximum a parameter's annotation declares anywhere inside it
    (``Annotated[int, Field(le=100)]``, ``conint(le=MAX)``): a literal (``le_of_call``), else an
    ``le``/``lt`` keyword whose value ``interp.const_int`` knows; None when there is none."""
    stack: list[cst.CSTNode] = [ann]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call):
            v = le_of_call(n)
            if v is not None:
                return v
            for a in n.args:
                if a.keyword is not None and a.keyword.value in ("le", "lt"):
                    c = interp.const_int(a.value)
                    if c is not None:
                        return c
        stack.extend(code_children(n))
    return None
