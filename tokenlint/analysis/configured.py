"""Module-level collections the process fills from its own configuration (the command line, the
environment) at start-up, not from data.

``ALLOWED_DIRS: list[Path] = []`` filled by ``set_allowed_dirs(sys.argv[1:])`` holds the
directories the operator named when starting the server: a handful, whatever data the server
reads (labelling rule 6). A collection filled from a file, a request or a tool's arguments is data
(TL108 "filled at run time"), and so is one written anywhere this module cannot judge.

``filled_from_configuration(module, name)`` is the whole public API. It reads the module's code
only: every write to the collection must be in a top-level function (or at module level) and
store values built, through locals, loops and a few pure calls (``Path(a).expanduser()``,
``str.split``, ``os.path.abspath``), from ``sys.argv``, ``os.environ`` / ``os.getenv``, literals
or parameters that every caller in the module passes such values for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import libcst as cst

from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import walk

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule

#: Methods that put values into a collection (their arguments are what it holds).
_MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft"})

#: Qualified callables whose result is made only of their arguments (no I/O).
_PURE_FUNCTIONS = frozenset({
    "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "os.getenv", "os.environ.get", "os.fspath",
    "shlex.split", "argparse.ArgumentParser",
})
_PURE_BUILTINS = frozenset({"str", "int", "float", "bool", "list", "tuple", "set", "frozenset", "sorted",
                            "dict", "len", "min", "max", "reversed", "enumerate", "zip"})

#: Methods whose result is made only of their receiver and arguments (paths, strings, parsed
#: command-line arguments).
_PURE_METHODS = frozenset({
    "expanduser", "expandvars", "resolve", "absolute", "as_posix", "strip", "rstrip", "lstrip", "split",
    "rsplit", "lower", "upper", "replace", "removeprefix", "removesuffix", "parse_args", "parse_known_args",
    "add_argument", "copy",
})

_MAX_DEPTH = 30
#: Expressions one check may look at before it gives up (and the collection counts as data).
_MAX_STEPS = 2_000


def filled_from_configuration(module: ParsedModule, name: str) -> bool:
    """Whether every write to the module-level collection ``name`` of ``module`` stores values of
    the process's configuration (``sys.argv``, ``os.environ``, literals), through top-level
    functions whose callers in the module pass them (see the module docstring). False when
    nothing in the module writes to it (it is filled elsewhere) or a write is in a class."""
    writes = list(_writes(module.tree, name))
    if not writes:
        return False
    checker = _Checker(module)
    for fn, value in writes:
        if fn is not None and (isinstance(fn, cst.ClassDef) or module.functions.get(fn.name.value) is not fn):
            return False  # a method's write, or a nested function's
        if not checker.config(value, fn if isinstance(fn, cst.FunctionDef) else None, 0, frozenset()):
            return False
    return True


def _writes(root: cst.CSTNode, name: str) -> Iterator[tuple[cst.FunctionDef | cst.ClassDef | None, cst.BaseExpression]]:
    """``(enclosing top-level def or class, value)`` for each write into ``name`` under ``root``:
    ``name[...] = v``, ``name += v``, ``name.append(v)`` (and the other ``_MUTATORS``), and
    ``name = v`` in a function declaring ``global name``."""
    body = root.body if isinstance(root, cst.Module) else []
    for stmt in body:
        owner: cst.FunctionDef | cst.ClassDef | None = stmt if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) else None
        declared_global = owner is not None and any(
            isinstance(n, cst.Global) and any(g.name.value == name for g in n.names) for n in walk(owner))
        for node in walk(stmt):
            yield from ((owner, v) for v in _written_values(node, name, declared_global))


def _written_values(node: cst.CSTNode, name: str, rebinding: bool) -> Iterator[cst.BaseExpression]:
    """The values ``node`` writes into the collection ``name`` (``rebinding``: a plain
    ``name = v`` counts, as in a function declaring ``global name``)."""
    if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        for t in targets:
            if isinstance(t, cst.Subscript) and dotted_name(t.value) == name:
                yield node.value
            elif rebinding and isinstance(t, cst.Name) and t.value == name:
                yield node.value
    elif isinstance(node, cst.AugAssign) and dotted_name(node.target) == name:
        yield node.value
    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
            node.func.attr.value in _MUTATORS and dotted_name(node.func.value) == name:
        yield from (a.value for a in node.args)


class _Checker:
    """Whether expressions are built of the process's configuration only (``config``)."""

    def __init__(self, module: ParsedModule) -> None:
        self.mod = module
        self.steps = 0

    def config(self, expr: cst.BaseExpression, fn: cst.FunctionDef | None, depth: int,
               seen: frozenset[tuple[int, str]], bound: frozenset[str] = frozenset()) -> bool:
        """Whether ``expr``, evaluated in ``fn`` (None: at module level), is configuration;
        ``bound`` are comprehension targets already known to iterate configuration."""
        self.steps += 1
        if depth > _MAX_DEPTH or self.steps > _MAX_STEPS:
            return False
        if isinstance(expr, (cst.SimpleString, cst.Integer, cst.Float, cst.Ellipsis)):
            return True
        if isinstance(expr, cst.ConcatenatedString):
            return self.config(expr.left, fn, depth + 1, seen, bound) and self.config(expr.right, fn, depth + 1, seen, bound)
        if isinstance(expr, cst.FormattedString):
            return all(self.config(p.expression, fn, depth + 1, seen, bound)
                       for p in expr.parts if isinstance(p, cst.FormattedStringExpression))
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return all(isinstance(e, (cst.Element, cst.StarredElement)) and self.config(e.value, fn, depth + 1, seen, bound)
                       for e in expr.elements)
        if isinstance(expr, cst.Dict):
            return all(isinstance(e, cst.DictElement) and self.config(e.key, fn, depth + 1, seen, bound)
                       and self.config(e.value, fn, depth + 1, seen, bound) for e in expr.elements)
        if isinstance(expr, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self._comprehension(expr.for_in, [expr.elt], fn, depth, seen, bound)
        if isinstance(expr, cst.DictComp):
            return self._comprehension(expr.for_in, [expr.key, expr.value], fn, depth, seen, bound)
        if isinstance(expr, cst.BinaryOperation):
            return self.config(expr.left, fn, depth + 1, seen, bound) and self.config(expr.right, fn, depth + 1, seen, bound)
        if isinstance(expr, cst.UnaryOperation):
            return self.config(expr.expression, fn, depth + 1, seen, bound)
        if isinstance(expr, cst.IfExp):
            return self.config(expr.body, fn, depth + 1, seen, bound) and self.config(expr.orelse, fn, depth + 1, seen, bound)
        if isinstance(expr, cst.Subscript):
            return self.config(expr.value, fn, depth + 1, seen, bound)
        if isinstance(expr, cst.Attribute):
            qn = self.mod.imports.qualify(expr)
            if qn in ("sys.argv", "os.environ"):
                return True
            return self.config(expr.value, fn, depth + 1, seen, bound)
        if isinstance(expr, cst.Call):
            return self._call(expr, fn, depth, seen, bound)
        if isinstance(expr, cst.Name):
            return self._name(expr.value, fn, depth, seen, bound)
        return False

    def _comprehension(self, for_in: cst.CompFor, elts: list[cst.BaseExpression], fn: cst.FunctionDef | None,
                       depth: int, seen: frozenset[tuple[int, str]], bound: frozenset[str]) -> bool:
        clause: cst.CompFor | None = for_in
        while clause is not None:
            if not self.config(clause.iter, fn, depth + 1, seen, bound):
                return False
            bound = bound | {n.value for n in walk(clause.target) if isinstance(n, cst.Name)}
            clause = clause.inner_for_in
        return all(self.config(e, fn, depth + 1, seen, bound) for e in elts)

    def _call(self, call: cst.Call, fn: cst.FunctionDef | None, depth: int,
              seen: frozenset[tuple[int, str]], bound: frozenset[str]) -> bool:
        func = call.func
        qn = self.mod.imports.qualify(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if qn in _PURE_FUNCTIONS or (qn is None and isinstance(func, cst.Name) and func.value in _PURE_BUILTINS):
            pass
        elif isinstance(func, cst.Attribute) and (func.attr.value in _PURE_METHODS or (
                func.attr.value == "get" and self.mod.imports.qualify(func.value) == "os.environ")):
            if not self.config(func.value, fn, depth + 1, seen, bound):
                return False
        else:
            return False
        return all(self.config(a.value, fn, depth + 1, seen, bound) for a in call.args)

    def _name(self, n: str, fn: cst.FunctionDef | None, depth: int, seen: frozenset[tuple[int, str]],
              bound: frozenset[str]) -> bool:
        if n in bound or n in ("True", "False", "None"):
            return True
        key = (id(fn), n)
        if key in seen:
            return True  # (a cycle: the other writes decide)
        seen = seen | {key}
        if fn is not None:
            params = [p for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)]
            for i, p in enumerate(params):
                if p.name.value == n:
                    return self._passed(fn, i, p, depth, seen)
            values = list(self._local_values(fn, n))
            if values:
                return all(self.config(v, fn, depth + 1, seen) for v in values)
        value = self.mod.constants.get(n)
        if value is None:
            return False
        values = [value, *(v for _, v in _writes(self.mod.tree, n))]
        return all(self.config(v, None, depth + 1, seen) for v in values)

    def _local_values(self, fn: cst.FunctionDef, n: str) -> Iterator[cst.BaseExpression]:
        """What ``fn`` binds to or puts into its local ``n``: assignments, loop targets (the
        iterable), and values added with ``_MUTATORS``."""
        for node in walk(fn.body):
            if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                if any(n in {x.value for x in walk(t) if isinstance(x, cst.Name)} and not isinstance(t, cst.Attribute)
                       for t in targets):
                    yield node.value
            elif isinstance(node, cst.For) and n in {x.value for x in walk(node.target) if isinstance(x, cst.Name)}:
                yield node.iter
            elif isinstance(node, (cst.WithItem,)) and node.asname is not None and \
                    n in {x.value for x in walk(node.asname.name) if isinstance(x, cst.Name)}:
                yield node.item
            elif isinstance(node, cst.NamedExpr) and dotted_name(node.target) == n:
                yield node.value
            else:
                yield from _written_values(node, n, rebinding=False)

    def _passed(self, fn: cst.FunctionDef, index: int, param: cst.Param, depth: int,
                seen: frozenset[tuple[int, str]]) -> bool:
        """Whether every call of the top-level function ``fn`` in the module passes configuration
        for its parameter ``param`` (position ``index``), its default counting when a call passes
        none; False when nothing in the module calls it."""
        name = fn.name.value
        if fn.decorators:
            return False  # registered (a tool, a route, a callback): called with others' values
        calls: list[tuple[cst.FunctionDef | None, cst.Call]] = []
        callees: set[int] = set()
        names: list[cst.Name] = []
        for stmt in self.mod.tree.body:
            for node in walk(stmt):
                if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == name:
                    calls.append((stmt if isinstance(stmt, cst.FunctionDef) else None, node))
                    callees.add(id(node.func))
                elif isinstance(node, cst.Name) and node.value == name:
                    names.append(node)
        if not calls or any(id(n) not in callees and n is not fn.name for n in names):
            # (any other mention hands the function to code that calls it with values this
            # module does not show: a callback, a registration)
            return False
        for owner, call in calls:
            if owner is not None and self.mod.functions.get(owner.name.value) is not owner:
                return False
            arg = None
            for i, a in enumerate(call.args):
                if a.star:
                    return False
                if a.keyword is not None and a.keyword.value == param.name.value:
                    arg = a.value
                elif a.keyword is None and i == index:
                    arg = a.value
            if arg is None:
                arg = param.default
            if arg is None or not self.config(arg, owner, depth + 1, seen):
                return False
        return True
