"""Following what is passed to a registration, wherever it comes from.

A registration call names its tool with an expression: ``fn``, ``find_foo`` (reassigned from
``wrap_filters(find, ...)``), ``func`` bound by ``for func, name, desc in get_all_functions():``,
``self.describe`` or ``tool.handler``. This module answers, statically and conservatively, what
such an expression may evaluate to:

- ``Values.expand``: the expressions a name may hold (loop bindings, local assignments in the
  enclosing functions, tuple unpacking and ``for`` targets, module assignments, imports across
  the run's modules, dict subscripts, pass-through comprehensions, ``a + b`` of sequences, both
  branches of ``x if c else y``, optionally the ``return`` values of project functions called);
- ``Values.elements``: the items a loop iterates over (list/tuple/set literals, dict keys,
  ``d.items()`` pairs, ``list()``/``sorted()``/``tuple()`` of those, results of project
  functions returning them);
- ``Values.loop_envs``: the bindings of the ``for`` loops and comprehensions enclosing a node,
  one environment per combination of items (at most ``MAX_ENVS``);
- ``Values.callables``: the function definitions behind a callable expression, through wrapper
  calls (``functools.partial(fn)``, ``wrap(fn, ...)``, ``Tool.from_function(fn)``) and factories
  (a project function returning a nested ``def``).

Everything is bounded (``MAX_DEPTH`` steps, a visited set), never raises on odd code, and costs
nothing for modules without a registration that needs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import libcst as cst

from tokenlint.source.imports import dotted_name
from tokenlint.source.project import ParsedModule, Project, star_imports
from tokenlint.source.walk import code_children, literal_string, walk

MAX_DEPTH = 12
MAX_ENVS = 256


@dataclass(frozen=True, eq=False)
class Val:
    """An expression with what is needed to read it: its module, the functions enclosing it
    (innermost last, for local names) and the class holding it (for ``self``)."""

    mod: ParsedModule
    node: cst.CSTNode
    scope: tuple[cst.FunctionDef, ...] = ()
    cls: str | None = None


Env = dict  # name -> Val


def ancestors(mod: ParsedModule, node: cst.CSTNode) -> list[tuple[cst.CSTNode, str | None]]:
    """The nodes enclosing ``node`` in ``mod`` (outermost first, ``node`` excluded), each with
    the class it is in. Empty when ``node`` is not in ``mod``."""
    mod.nodes()
    index = mod._statement_of.get(id(node))
    if index is None:
        return []
    root = mod.tree.body[index]
    parent: dict[int, cst.CSTNode | None] = {id(root): None}
    stack: list[cst.CSTNode] = [root]
    while stack:
        current = stack.pop()
        if current is node:
            chain: list[cst.CSTNode] = []
            up = parent[id(current)]
            while up is not None:
                chain.append(up)
                up = parent[id(up)]
            chain.reverse()
            out: list[tuple[cst.CSTNode, str | None]] = []
            cls: str | None = None
            for anc in chain:
                out.append((anc, cls))
                if isinstance(anc, cst.ClassDef):
                    cls = anc.name.value
            return out
        for child in code_children(current):
            parent[id(child)] = current
            stack.append(child)
    return []


def context_of(mod: ParsedModule, node: cst.CSTNode) -> tuple[tuple[cst.FunctionDef, ...], str | None, list]:
    """(enclosing functions innermost last, enclosing class, the ancestor chain) of ``node``."""
    chain = ancestors(mod, node)
    scope = tuple(a for a, _ in chain if isinstance(a, cst.FunctionDef))
    cls = None
    for anc, _ in chain:
        if isinstance(anc, cst.ClassDef):
            cls = anc.name.value
    return scope, cls, chain


@dataclass
class Values:
    """The resolver over one run's modules (``project``), see the module docstring."""

    project: Project
    _assigns: dict[int, dict[str, list[cst.BaseExpression]]] = field(default_factory=dict)
    #: ``callables`` results for expressions read with no loop bindings (the common case; the
    #: same registration arguments are resolved again and again while following wrappers).
    _callables: dict[tuple, list] = field(default_factory=dict)
    #: ``call_envs`` by (module, function) identity.
    _call_envs: dict[tuple, list] = field(default_factory=dict)
    #: ``decorator_grown`` by (module identity, name); ``_grown_in_functions`` by module identity.
    _decorator_grown: dict[tuple, list] = field(default_factory=dict)
    _grown: dict[int, dict] = field(default_factory=dict)
    #: Set while ``_key_string`` reads a key (no key is read within another).
    _reading_key: bool = False

    # -- names ---------------------------------------------------------------------------------
    def assignments(self, holder: cst.CSTNode) -> dict[str, list[cst.BaseExpression]]:
        """``name -> [values assigned]`` for simple assignments in a function body or module
        (nested functions and classes excluded; targets of tuple unpacking are skipped)."""
        key = id(holder)
        hit = self._assigns.get(key)
        if hit is not None:
            return hit
        table: dict[str, list[cst.BaseExpression]] = {}
        grown: list[tuple[str, cst.BaseExpression]] = []
        stack = list(code_children(holder.body if isinstance(holder, cst.FunctionDef) else holder))
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                if isinstance(node, cst.FunctionDef) and not isinstance(holder, cst.Module):
                    table.setdefault(node.name.value, []).append(node)  # type: ignore[arg-type]
                continue
            if isinstance(node, cst.For):
                # ``for tool in TOOLS: final.append(tool)``: the loop name holds an item of
                # what the loop walks (``x[...]``: any element of ``x``, read by ``expand``)
                item = _element_of(node.iter, None)
                for bound, position in _unpacked(node.target):
                    table.setdefault(bound, []).append(_element_of(item, position) if position is not None else item)
            if isinstance(node, cst.Assign):
                for t in node.targets:
                    dn = dotted_name(t.target)
                    if dn:
                        table.setdefault(dn, []).append(node.value)
                    elif isinstance(t.target, (cst.Tuple, cst.List)):
                        # ``tools, skipped = prepare(...)``: each name holds its part
                        for bound, position in _unpacked(t.target):
                            if position is not None:
                                table.setdefault(bound, []).append(_element_of(node.value, position))
                    elif isinstance(t.target, cst.Subscript) and len(t.target.slice) == 1:
                        dn = dotted_name(t.target.value)
                        index = t.target.slice[0].slice
                        if dn and isinstance(index, cst.Index):
                            grown.append((dn, cst.Dict([cst.DictElement(index.value, node.value)])))
            elif isinstance(node, cst.AnnAssign) and node.value is not None:
                dn = dotted_name(node.target)
                if dn:
                    table.setdefault(dn, []).append(node.value)
            elif isinstance(node, cst.AugAssign) and isinstance(node.operator, (cst.AddAssign, cst.BitOrAssign)):
                dn = dotted_name(node.target)
                if dn:
                    grown.append((dn, node.value))
            elif isinstance(node, cst.Call):
                grown.extend(_growth(node))
            if isinstance(node, cst.BaseExpression):
                continue
            stack.extend(code_children(node))
        # A collection grown in place where it is made (``tools = list(base)``, then
        # ``tools.extend(extra)`` / ``.append(t)`` / ``+= more`` / ``d[k] = v``, also under an
        # ``if``) may hold what was added too.
        for dn, value in grown:
            if dn in table:
                table[dn].append(value)
        for values in table.values():
            values.reverse()
        self._assigns[key] = table
        return table

    def expand(self, v: Val, env: Env | None = None, *, calls: bool = False, depth: int = 0,
               seen: set | None = None) -> list[Val]:
        """The leaf expressions ``v`` may evaluate to (see the module docstring); a node that
        cannot be followed is its own leaf. Function and class definitions are leaves too."""
        env = env or {}
        seen = set() if seen is None else seen
        if depth > MAX_DEPTH or id(v.node) in seen:
            return []
        node = v.node
        if isinstance(node, cst.Name):
            seen = seen | {id(node)}
            name = node.value
            if name in env:
                return self.expand(env[name], {}, calls=calls, depth=depth + 1, seen=seen)
            for i in range(len(v.scope) - 1, -1, -1):
                fn = v.scope[i]
                values = self.assignments(fn).get(name)
                if values:
                    out: list[Val] = []
                    for value in values:
                        if isinstance(value, cst.FunctionDef):
                            out.append(Val(v.mod, value, v.scope[: i + 1] + (value,), v.cls))
                        else:
                            out.extend(self.expand(Val(v.mod, value, v.scope[: i + 1], v.cls), env,
                                                   calls=calls, depth=depth + 1, seen=seen))
                    return out
            return self.module_name(v.mod, name, calls=calls, depth=depth, seen=seen, cls=v.cls)
        if isinstance(node, cst.Attribute):
            dn = dotted_name(node)
            if dn is not None:
                head, _, rest = dn.partition(".")
                if head in ("self", "cls") and v.cls and "." not in rest:
                    method = v.mod.functions.get(f"{v.cls}.{rest}")
                    if method is not None:
                        return [Val(v.mod, method, (method,), v.cls)]
                    return [v]
                qn = v.mod.imports.qualify_dotted(dn) if head not in env else None
                if qn:
                    whole = self._module(qn)
                    if whole is not None:  # ``pkg.tools``: a module of the run
                        return [whole]
                    hit = self.project.resolve(qn)
                    if hit is not None:
                        return self.module_name(hit[0], hit[1], calls=calls, depth=depth + 1, seen=seen)
            if dn is None or dn.partition(".")[0] not in ("self", "cls"):
                # ``warehouse.dump_table`` of ``warehouse = Warehouse(path)``: the method of the
                # class of the run that made the object
                methods = []
                made_by = self.expand(Val(v.mod, node.value, v.scope, v.cls), env, depth=depth + 1, seen=seen)
                if isinstance(node.value, cst.Name) and len(v.scope) == 1 and node.value.value not in env and \
                        node.value.value in {p.name.value for p in v.scope[0].params.params}:
                    # ``getattr(yf, name)`` in ``def register_tools(yf)``: the object each call
                    # of the module-level function passes (``register_tools(YahooFinance())``)
                    for call_env in self.call_envs(v.mod, v.scope[0]):
                        made_by += self.expand(Val(v.mod, node.value, v.scope, v.cls), call_env, depth=depth + 1,
                                               seen=seen)
                for made in made_by:
                    if isinstance(made.node, cst.Call):
                        hit_class = class_of(self, Val(made.mod, made.node.func, made.scope, made.cls))
                        found = find_method(self, hit_class[0], hit_class[1], node.attr.value) if hit_class else None
                        if found is not None:
                            methods.append(Val(found[0], found[1], (found[1],), found[2]))
                if methods:
                    return methods
            return [v]
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(index := node.slice[0].slice, cst.Index) \
                and isinstance(index.value, (cst.Ellipsis, cst.Integer)):
            # an element of a sequence (``_element_of``): any (``x[...]``), or at a position
            out = []
            if isinstance(index.value, cst.Ellipsis):
                for item in self.elements(Val(v.mod, node.value, v.scope, v.cls), env, depth + 1):
                    out.extend(self.expand(item, {}, calls=calls, depth=depth + 1, seen=seen))
                return out
            position = int(index.value.value)
            for table in self.expand(Val(v.mod, node.value, v.scope, v.cls), env, calls=True, depth=depth + 1, seen=seen):
                if isinstance(table.node, (cst.Tuple, cst.List)) and position < len(table.node.elements) and \
                        not any(isinstance(e, cst.StarredElement) for e in table.node.elements[:position + 1]):
                    out.extend(self.expand(Val(table.mod, table.node.elements[position].value, table.scope, table.cls),
                                           _same_scope(env, table, v), calls=calls, depth=depth + 1, seen=seen))
            return out or [v]
        if isinstance(node, cst.Subscript):
            out = []
            key = None
            if len(node.slice) == 1 and isinstance(index := node.slice[0].slice, cst.Index) and \
                    isinstance(index.value, cst.SimpleString):
                key = index.value.evaluated_value
            elif len(node.slice) == 1 and isinstance(index, cst.Index) and isinstance(index.value, cst.Name) and \
                    env and index.value.value in env:
                # ``TOOL_REGISTRY[tool_name]`` with ``tool_name`` bound to one key (a loop over
                # the keys of a literal table): that entry only
                key = self._key_string(env[index.value.value])
            for table in self.expand(Val(v.mod, node.value, v.scope, v.cls), env, calls=calls, depth=depth + 1, seen=seen):
                if isinstance(table.node, cst.Dict):
                    entries = [el for el in table.node.elements if isinstance(el, cst.DictElement)]
                    if isinstance(key, str):
                        keyed = [el for el in entries
                                 if self._key_string(Val(table.mod, el.key, table.scope, table.cls)) == key]
                        entries = keyed or entries
                    for el in entries:
                        if isinstance(el, cst.DictElement):
                            out.extend(self.expand(Val(table.mod, el.value, table.scope, table.cls), _same_scope(env, table, v),
                                                   calls=calls, depth=depth + 1, seen=seen))
            return out or [v]
        if isinstance(node, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            comp = node.for_in
            if comp.inner_for_in is None and _same_target(node.elt, comp.target):
                return self.expand(Val(v.mod, comp.iter, v.scope, v.cls), env, calls=calls, depth=depth + 1, seen=seen)
            return [v]
        if isinstance(node, cst.IfExp):  # ``READ if read_only else READ + WRITE``: either
            return (self.expand(Val(v.mod, node.body, v.scope, v.cls), env, calls=calls, depth=depth + 1, seen=seen)
                    + self.expand(Val(v.mod, node.orelse, v.scope, v.cls), env, calls=calls, depth=depth + 1, seen=seen))
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            return (self.expand(Val(v.mod, node.left, v.scope, v.cls), env, calls=calls, depth=depth + 1, seen=seen)
                    + self.expand(Val(v.mod, node.right, v.scope, v.cls), env, calls=calls, depth=depth + 1, seen=seen))
        if isinstance(node, cst.Call) and dotted_name(node.func) == "getattr" and len(node.args) in (2, 3) \
                and all(a.keyword is None and not a.star for a in node.args):
            # ``getattr(warehouse, name)`` with ``name`` one string of a table (a loop's binding,
            # a constant): the attribute it names, ``warehouse.dump_table``
            attr = string_value(self, Val(v.mod, node.args[1].value, v.scope, v.cls), env)
            if attr is not None and attr.isidentifier():
                named = cst.Attribute(value=node.args[0].value, attr=cst.Name(attr))
                leaves = self.expand(Val(v.mod, named, v.scope, v.cls), env, calls=calls, depth=depth + 1, seen=seen)
                if any(leaf.node is not named for leaf in leaves):
                    return leaves
                # (an attribute that cannot be followed, a tag ``getattr(fn, TAG, None)``: the
                # call itself stays the leaf, for what reads it)
        if isinstance(node, cst.Call) and calls:
            results = self.call_results(v, env, depth=depth, seen=seen)
            if results:
                return results
        return [v]

    def _key_string(self, v: Val) -> str | None:
        """The string a table key or a loop binding over table keys is: a literal, or a constant
        name (``DOCS_SEARCH_TOOL_NAME``) read by ``string_value``, never re-entered (a key read
        while reading a key is unknown)."""
        if isinstance(v.node, cst.SimpleString):
            text = v.node.evaluated_value
            return text if isinstance(text, str) else None
        if self._reading_key or not isinstance(v.node, (cst.Name, cst.Attribute)):
            return None
        self._reading_key = True
        try:
            return string_value(self, v)
        finally:
            self._reading_key = False

    def module_name(self, mod: ParsedModule, name: str, *, calls: bool, depth: int, seen: set,
                    cls: str | None = None) -> list[Val]:
        """What a module-level name (``name`` may be ``Class.method``) of ``mod`` holds: its
        def, class, assigned values, or what it was imported as."""
        fn = mod.functions.get(name)
        if fn is not None:
            owner = name.rpartition(".")[0] or None
            return [Val(mod, fn, (fn,), owner)]
        if name in mod.classes:
            return [Val(mod, mod.classes[name], (), None)]
        values = self.assignments(mod.tree).get(name)
        if values:
            out: list[Val] = []
            for value in values:
                out.extend(self.expand(Val(mod, value, (), None), {}, calls=calls, depth=depth + 1, seen=seen))
            if "." not in name:
                out.extend(self.decorator_grown(mod, name))
            return out
        qn = mod.imports.qualify_dotted(name)
        if qn:
            whole = self._module(qn)
            if whole is not None:  # ``from pkg import tools``: a module of the run
                return [whole]
            hit = self.project.resolve(qn)
            if hit is not None and hit[0] is not mod:
                return self.module_name(hit[0], hit[1], calls=calls, depth=depth + 1, seen=seen)
            return []
        if depth < MAX_DEPTH and "." not in name:
            for star in star_imports(mod):  # ``from .tools_base import *``
                target = self.project.get(star)
                if target is not None and target is not mod:
                    found = self.module_name(target, name, calls=calls, depth=depth + 2, seen=seen)
                    if found:
                        return found
        return []

    def decorator_grown(self, mod: ParsedModule, name: str) -> list[Val]:
        """What home-made decorators of ``mod`` add to its module-level collection ``name``, one
        leaf per decorated function: a one-item list (``TOOLS.append((fn, title))``, read
        ``[(find_notes, "Find notes")]``) or a one-entry dict (``TOOLS[fn.__name__] = fn``). A
        decorator here is a function whose first parameter the added value uses, applied as
        ``@decorator`` or, when a factory returns it, as ``@factory(args)`` (the factory's
        parameters then read as the arguments given); the decorated functions are found in every
        module of the run that spells the decorator's name. Only module-level decorated
        functions count (the added value names them in their own module). Empty when no function
        of ``mod`` grows ``name``."""
        key = (id(mod), name)
        hit = self._decorator_grown.get(key)
        if hit is not None:
            return list(hit)
        self._decorator_grown[key] = []
        out: list[Val] = []
        for value, scope in self._grown_in_functions(mod).get(name, ()):
            if name in self.assignments(scope[-1]):
                continue  # (a local of the same name)
            decorator = scope[-1]
            params = [p.name.value for p in (*decorator.params.posonly_params, *decorator.params.params)]
            if not params or params[0] not in {n.value for n in walk(value) if isinstance(n, cst.Name)}:
                continue
            for fn_mod, fn, env in self._decorated(mod, scope):
                bound = {params[0]: cst.Name(fn.name.value), **env}
                out.append(Val(fn_mod, cast(cst.BaseExpression, value.visit(_Substitute(bound))), (), None))
        self._decorator_grown[key] = out
        return list(out)

    def _grown_in_functions(self, mod: ParsedModule) -> dict[str, list[tuple[cst.BaseExpression, tuple]]]:
        """``name -> [(what is added, enclosing functions)]`` for every collection a function of
        ``mod`` grows in place (``x.append(v)``, ``x.extend(vs)``, ``x[k] = v`` read as ``{k:
        v}``), once per module."""
        hit = self._grown.get(id(mod))
        if hit is not None:
            return hit
        table: dict[str, list[tuple[cst.BaseExpression, tuple]]] = {}
        for node, _ in mod.nodes():
            grown: list[tuple[str, cst.BaseExpression]] = []
            if isinstance(node, cst.Call):
                grown = _growth(node)
            elif isinstance(node, cst.Assign) and len(node.targets) == 1 and \
                    isinstance(target := node.targets[0].target, cst.Subscript) and len(target.slice) == 1 and \
                    isinstance(index := target.slice[0].slice, cst.Index) and dotted_name(target.value):
                grown = [(dotted_name(target.value) or "", cst.Dict([cst.DictElement(index.value, node.value)]))]
            for dn, value in grown:
                scope = context_of(mod, node)[0] if "." not in dn else ()
                if scope:
                    table.setdefault(dn, []).append((value, scope))
        self._grown[id(mod)] = table
        return table

    def _decorated(self, mod: ParsedModule, scope: tuple[cst.FunctionDef, ...]
                   ) -> list[tuple[ParsedModule, cst.FunctionDef, dict[str, cst.BaseExpression]]]:
        """``(module, def, {factory parameter: argument})`` for each module-level function of the
        run decorated by ``scope[-1]`` (or by a call of the factory ``scope[-2]`` returning it),
        see ``decorator_grown``."""
        decorator = scope[-1]
        factory = decorator_factory(scope)
        applied = factory or decorator
        if len(scope) > (2 if factory else 1) or mod.functions.get(applied.name.value) is not applied:
            return []
        word = applied.name.value
        out = []
        for module_name in sorted(self.project.module_files):
            if not self.project.mentions(module_name, word):
                continue
            other = self.project.get(module_name)
            if other is None:
                continue
            for fn in other.tree.body:
                if not isinstance(fn, cst.FunctionDef):
                    continue
                for dec in fn.decorators:
                    expr = dec.decorator
                    called = isinstance(expr, cst.Call)
                    head = expr.func if isinstance(expr, cst.Call) else expr
                    if called != (factory is not None) or (dotted_name(head) or "").rpartition(".")[2] != word:
                        continue
                    if not any(leaf.node is applied for leaf in self.expand(Val(other, head, (), None))):
                        continue
                    env: dict[str, cst.BaseExpression] = {}
                    if factory is not None:
                        given = arguments_env(Val(other, expr, (), None), [p.name.value for p in factory.params.params])
                        env = {k: cast(cst.BaseExpression, v.node) for k, v in given.items()}
                    out.append((other, fn, env))
                    break
        return out

    def _module(self, qualified: str) -> Val | None:
        """The run's module named ``qualified`` as a value (its ``cst.Module`` tree), or None
        when no module of the run has that name."""
        project = self.project
        if qualified not in project.module_files and qualified not in project.parsed and qualified not in project.aliases:
            return None
        mod = project.get(qualified)
        return Val(mod, mod.tree, (), None) if mod is not None else None

    def call_results(self, v: Val, env: Env, *, depth: int = 0, seen: set | None = None) -> list[Val]:
        """The values a call of a project function may return (its ``return`` expressions,
        expanded), or [] when the callee is not a project function."""
        seen = seen or set()
        call = v.node
        assert isinstance(call, cst.Call)
        out: list[Val] = []
        for callee in self.expand(Val(v.mod, call.func, v.scope, v.cls), env, depth=depth + 1, seen=seen):
            if not isinstance(callee.node, cst.FunctionDef):
                continue
            fn = callee.node
            for ret in _returns(fn):
                out.extend(self.expand(Val(callee.mod, ret, callee.scope or (fn,), callee.cls), {},
                                       calls=True, depth=depth + 1, seen=seen | {id(call)}))
        return out

    # -- iteration -----------------------------------------------------------------------------
    def elements(self, v: Val, env: Env | None = None, depth: int = 0) -> list[Val]:
        """The items iterating ``v`` yields, when they can be listed; [] otherwise."""
        out: list[Val] = []
        for leaf in self.expand(v, env, calls=True, depth=depth):
            node = leaf.node
            if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
                for el in node.elements:
                    if isinstance(el, cst.StarredElement):
                        out.extend(self.elements(Val(leaf.mod, el.value, leaf.scope, leaf.cls), {}, depth + 1))
                    else:
                        out.append(Val(leaf.mod, el.value, leaf.scope, leaf.cls))
            elif isinstance(node, cst.Dict):
                for entry in node.elements:
                    if isinstance(entry, cst.DictElement):
                        out.append(Val(leaf.mod, entry.key, leaf.scope, leaf.cls))
            elif isinstance(node, cst.Call) and depth < MAX_DEPTH and (namespace := _namespace_walk(node)) is not None:
                # ``vars(module).values()``, ``module.__dict__.items()``, ``inspect.getmembers(module)``
                source, form = namespace
                coroutines = any((dotted_name(a.value) or "").endswith("iscoroutinefunction") for a in node.args[1:])
                for whole in self.expand(Val(leaf.mod, source, leaf.scope, leaf.cls), env if leaf.scope == v.scope else {},
                                         calls=True, depth=depth + 1):
                    if isinstance(whole.node, cst.Module):
                        out.extend(_namespace_items(self.project, whole.mod, form))
                    elif isinstance(whole.node, cst.Call) and \
                            (made := class_of(self, Val(whole.mod, whole.node.func, whole.scope, whole.cls))) is not None:
                        out.extend(_instance_items(self, made[0], made[1], form, coroutines))
            elif isinstance(node, cst.Call) and depth < MAX_DEPTH:
                func = node.func
                if isinstance(func, cst.Attribute) and func.attr.value in ("items", "values", "keys") and not node.args:
                    for table in self.expand(Val(leaf.mod, func.value, leaf.scope, leaf.cls), {}, calls=True, depth=depth + 1):
                        if not isinstance(table.node, cst.Dict):
                            continue
                        for entry in table.node.elements:
                            if not isinstance(entry, cst.DictElement):
                                continue
                            if func.attr.value == "keys":
                                out.append(Val(table.mod, entry.key, table.scope, table.cls))
                            elif func.attr.value == "values":
                                out.append(Val(table.mod, entry.value, table.scope, table.cls))
                            else:
                                pair = cst.Tuple([cst.Element(entry.key), cst.Element(entry.value)])
                                out.append(Val(table.mod, pair, table.scope, table.cls))
                elif dotted_name(func) in ("list", "tuple", "sorted", "reversed", "set", "iter") and node.args:
                    out.extend(self.elements(Val(leaf.mod, node.args[0].value, leaf.scope, leaf.cls), {}, depth + 1))
        return out

    def loop_envs(self, chain: list[tuple[cst.CSTNode, str | None]], mod: ParsedModule,
                  node: cst.CSTNode, initial: list[Env] | None = None) -> list[Env]:
        """One environment per combination of the items of the ``for`` loops (statements and
        comprehensions) enclosing ``node`` that iterate over something listable; ``[{}]`` when
        there is none. ``chain`` is ``ancestors(mod, node)``; ``initial`` (default ``[{}]``)
        are the bindings the loops start from (``call_envs``)."""
        envs: list[Env] = [dict(e) for e in initial] if initial else [{}]
        scope: tuple[cst.FunctionDef, ...] = ()
        cls = None
        for anc, anc_cls in chain:
            if isinstance(anc, cst.FunctionDef):
                scope = scope + (anc,)
            cls = anc_cls
            loops: list[tuple[cst.BaseAssignTargetExpression, cst.BaseExpression]] = []
            if isinstance(anc, cst.For):
                loops.append((anc.target, anc.iter))
            elif isinstance(anc, (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)):
                comp: cst.CompFor | None = anc.for_in
                while comp is not None:
                    loops.append((comp.target, comp.iter))
                    comp = comp.inner_for_in
            for target, it in loops:
                nxt: list[Env] = []
                for env in envs:
                    items = self.elements(Val(mod, it, scope, cls), env)
                    if not items:
                        nxt.append(env)
                        continue
                    for item in items:
                        bound = dict(env)
                        bind(target, item, bound, self)
                        nxt.append(bound)
                envs = nxt[:MAX_ENVS]
        return envs

    def call_envs(self, mod: ParsedModule, fn: cst.FunctionDef) -> list[Env]:
        """One environment per call of the module-level function ``fn`` of ``mod`` in the run's
        modules, binding its parameters to that call's arguments (read where the call is):
        ``register_all(mcp, (notes_tools,))`` binds ``modules`` to the tuple. Empty when ``fn``
        is not a module-level function or is never called; at most ``MAX_ENVS``. Only modules
        whose text spells ``fn``'s name are parsed."""
        if mod.functions.get(fn.name.value) is not fn:
            return []
        key = (id(mod), id(fn))
        hit = self._call_envs.get(key)
        if hit is not None:
            return hit
        self._call_envs[key] = []
        name = fn.name.value
        params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
        envs: list[Env] = []
        for module_name in sorted(self.project.module_files):
            if len(envs) >= MAX_ENVS or not self.project.mentions(module_name, name):
                continue
            other = self.project.get(module_name)
            if other is None:
                continue
            for node, cls in other.nodes():
                if not isinstance(node, cst.Call) or (dotted_name(node.func) or "").rpartition(".")[2] != name:
                    continue
                scope = context_of(other, node)[0]
                if not any(c.node is fn for c in self.expand(Val(other, node.func, scope, cls))):
                    continue
                envs.append(arguments_env(Val(other, node, scope, cls), params))
        self._call_envs[key] = envs[:MAX_ENVS]
        return self._call_envs[key]

    # -- callables -----------------------------------------------------------------------------
    def callables(self, v: Val, env: Env | None = None, depth: int = 0) -> list[tuple[Val, Val | None]]:
        """The function definitions a callable expression may be, each with the wrapper call it
        came through (``Tool.from_function(fn, name=...)``, ``partial(fn)``) or None."""
        out: list[tuple[Val, Val | None]] = []
        if depth > MAX_DEPTH:
            return out
        key = (id(v.mod), id(v.node), tuple(id(f) for f in v.scope), v.cls, depth) if not env else None
        if key is not None:
            hit = self._callables.get(key)
            if hit is not None:
                return list(hit)
            self._callables[key] = []  # a cycle through this expression finds nothing more
        self._callables_into(v, env, depth, out)
        if key is not None:
            self._callables[key] = list(out)
        return out

    def _callables_into(self, v: Val, env: Env | None, depth: int, out: list) -> None:
        for leaf in self.expand(v, env, depth=depth):
            node = leaf.node
            if isinstance(node, cst.FunctionDef):
                out.append((leaf, None))
            elif isinstance(node, cst.Call):
                positional = [a for a in node.args if a.keyword is None and not a.star]
                wrapped: list[tuple[Val, Val | None]] = []
                # (the loop bindings in ``env`` are the registration's: a wrapper call reached in
                # another function, ``kept.append(wrap(tool))`` in a helper, reads its own names)
                inner = env if leaf.scope == v.scope else None
                if positional:
                    wrapped = self.callables(Val(leaf.mod, positional[0].value, leaf.scope, leaf.cls), inner, depth + 1)
                if not wrapped:
                    for arg in node.args:
                        if arg.keyword is not None and (arg.keyword.value in ("fn", "func", "function", "handler") or
                                                        arg.keyword.value.endswith(("_fn", "_func", "_function"))):
                            # (``build_tool(base_func=fn, config=...)``, ``wrap(target_fn=fn)``)
                            wrapped = self.callables(Val(leaf.mod, arg.value, leaf.scope, leaf.cls), inner, depth + 1)
                if wrapped:
                    out.extend((w, call or leaf) for w, call in wrapped)
                    continue
                for res in self.call_results(leaf, env or {}, depth=depth + 1):  # a factory
                    if isinstance(res.node, cst.FunctionDef) and not _wraps_another(res.node):
                        # (a ``@functools.wraps(fn)`` wrapper stands for the ``fn`` it was given,
                        # which could not be followed here: no tool of its own)
                        out.append((res, None))


class _Substitute(cst.CSTTransformer):
    """Replaces the names ``bound`` maps (as read, not attribute or keyword names) by the
    expressions given."""

    def __init__(self, bound: dict[str, cst.BaseExpression]) -> None:
        super().__init__()
        self.bound = bound

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self.bound.get(original_node.value, updated_node)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.Attribute:
        return updated_node.with_changes(attr=original_node.attr)

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        return updated_node.with_changes(keyword=original_node.keyword)


def arguments_env(call: Val, params: list[str]) -> Env:
    """The parameters ``params`` (in order) bound to the arguments of the call ``call``:
    positional ones by position (up to a ``*args``), keywords by name; each read where the call
    is."""
    node = cast(cst.Call, call.node)
    env: Env = {}
    positional = [a for a in node.args if a.keyword is None and not a.star]
    for pname, arg in zip(params, positional):
        env[pname] = Val(call.mod, arg.value, call.scope, call.cls)
    for arg in node.args:
        if arg.keyword is not None:
            env[arg.keyword.value] = Val(call.mod, arg.value, call.scope, call.cls)
    return env


def bind(target: cst.CSTNode, item: Val, env: Env, values: Values | None = None) -> None:
    """Bind a loop target to an item: a name to the item, a tuple target to the items of a
    tuple/list literal, position by position (a starred target takes nothing)."""
    if isinstance(target, cst.Name):
        env[target.value] = item
        return
    if isinstance(target, (cst.Tuple, cst.List)):
        node = item.node
        if isinstance(node, cst.Name) and values is not None:  # an item that names a tuple constant
            leaves = values.expand(item)
            if len(leaves) == 1:
                item, node = leaves[0], leaves[0].node
        if not isinstance(node, (cst.Tuple, cst.List)):
            return
        for i, el in enumerate(target.elements):
            if isinstance(el, cst.StarredElement) or i >= len(node.elements):
                break
            sub = node.elements[i]
            if isinstance(sub, cst.StarredElement):
                break
            bind(el.value, Val(item.mod, sub.value, item.scope, item.cls), env, values)


def _same_scope(env: Env | None, where: Val, reader: Val) -> Env:
    """``env`` when ``where`` is read in the same functions as ``reader`` (its names are the
    ones ``env`` binds), else no bindings."""
    return (env or {}) if where.scope == reader.scope and where.mod is reader.mod else {}


def _namespace_walk(call: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """``(module expression, "values" | "keys" | "items")`` for a call walking a module's
    namespace: ``vars(m).values()`` / ``.items()`` / ``.keys()``, ``m.__dict__.values()`` (and
    the other two), ``inspect.getmembers(m[, predicate])`` (pairs, as ``items``); None for any
    other call."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in ("items", "values", "keys") and not call.args:
        inner = func.value
        if isinstance(inner, cst.Call) and dotted_name(inner.func) == "vars" and len(inner.args) == 1:
            return inner.args[0].value, func.attr.value
        if isinstance(inner, cst.Attribute) and inner.attr.value == "__dict__":
            return inner.value, func.attr.value
        return None
    if (dotted_name(func) or "").rpartition(".")[2] == "getmembers" and call.args and call.args[0].keyword is None:
        return call.args[0].value, "items"
    if dotted_name(func) == "dir" and len(call.args) == 1 and call.args[0].keyword is None:
        return call.args[0].value, "keys"
    return None


def _instance_items(values: Values, mod: ParsedModule, cdef: cst.ClassDef, form: str, coroutines: bool) -> list[Val]:
    """The methods a walk of an instance of the run's class ``cdef`` may yield
    (``inspect.getmembers(provider, predicate=inspect.iscoroutinefunction)``, ``dir(provider)``;
    ``form`` as ``_namespace_walk`` gives it), each read as ``self.<method>`` of its class: the
    public methods of the class and its bases (no leading ``_``), only ``async def`` ones when
    ``coroutines``, and only those a decorator of the run marks when some are marked."""
    seen: set[str] = set()
    found: list[tuple[ParsedModule, cst.FunctionDef, str]] = []
    for m, c in bases(values, mod, cdef):
        body = c.body.body if isinstance(c.body, cst.IndentedBlock) else ()
        for fn in body:
            if isinstance(fn, cst.FunctionDef) and not fn.name.value.startswith("_") and fn.name.value not in seen \
                    and (fn.asynchronous is not None or not coroutines):
                seen.add(fn.name.value)
                found.append((m, fn, c.name.value))
    marked = [f for f in found if any(_project_decorator(values.project, f[0], d) for d in f[1].decorators)]
    out: list[Val] = []
    for m, fn, owner in marked or found:
        method = cst.Attribute(value=cst.Name("self"), attr=cst.Name(fn.name.value))
        text = cst.SimpleString(repr(fn.name.value))
        node: cst.BaseExpression = method if form == "values" else text if form == "keys" else \
            cst.Tuple([cst.Element(text), cst.Element(method)])
        out.append(Val(m, node, (fn,), owner))
    return out


def _namespace_items(project: Project, mod: ParsedModule, form: str) -> list[Val]:
    """The functions a walk of ``mod``'s namespace may yield (``form`` as ``_namespace_walk``
    gives it): its module-level defs, each read as a name of ``mod`` (``("name", fn)`` pairs for
    ``items``, the name string for ``keys``). Imported names are left out.

    A namespace walk registers the functions that carry a marker, which is a decorator of the
    run setting an attribute the walk tests (``@tool("name")`` then ``getattr(fn, ATTR)``).
    When the module has functions decorated by a decorator of the run, only those are taken;
    otherwise every public function (a name without a leading ``_``)."""
    defs = [n for n in mod.tree.body if isinstance(n, cst.FunctionDef)]
    marked = [fn for fn in defs if any(_project_decorator(project, mod, d) for d in fn.decorators)]
    chosen = marked or [fn for fn in defs if not fn.name.value.startswith("_")]
    out: list[Val] = []
    for fn in chosen:
        name = cst.Name(fn.name.value)
        text = cst.SimpleString(repr(fn.name.value))
        node: cst.BaseExpression = name if form == "values" else text if form == "keys" else \
            cst.Tuple([cst.Element(text), cst.Element(name)])
        out.append(Val(mod, node, (), None))
    return out


def _project_decorator(project: Project, mod: ParsedModule, dec: cst.Decorator) -> bool:
    """Whether ``dec`` names a function of ``mod`` or one imported from a module of the run
    (``@tool("name")`` from ``pkg.registry``), not a library's."""
    expr = dec.decorator
    target = expr.func if isinstance(expr, cst.Call) else expr
    dn = dotted_name(target)
    if dn is None or "." in dn:
        return False
    if dn in mod.functions:
        return True
    qn = mod.imports.qualify_dotted(dn)
    return qn is not None and project.find_function(qn) is not None


def _wraps_another(fn: cst.FunctionDef) -> bool:
    """Whether ``fn`` is decorated ``@functools.wraps(...)`` / ``@wraps(...)``: a wrapper that
    presents itself as the function it wraps."""
    return any(isinstance(d.decorator, cst.Call) and (dotted_name(d.decorator.func) or "").rpartition(".")[2] == "wraps"
               for d in fn.decorators)


def _unpacked(target: cst.BaseExpression) -> list[tuple[str, int | None]]:
    """The names an assignment or loop target binds, each with its position in a tuple target
    (``a, b = ...``: ``[("a", 0), ("b", 1)]``; a plain name: ``[(name, None)]``); names after a
    starred one, and nested targets, are left out."""
    if isinstance(target, cst.Name):
        return [(target.value, None)]
    out: list[tuple[str, int | None]] = []
    if isinstance(target, (cst.Tuple, cst.List)):
        for i, el in enumerate(target.elements):
            if isinstance(el, cst.StarredElement):
                break
            if isinstance(el.value, cst.Name):
                out.append((el.value.value, i))
    return out


def _element_of(seq: cst.BaseExpression, position: int | None) -> cst.Subscript:
    """A synthetic ``seq[position]`` (``seq[...]`` for any element), which ``Values.expand``
    reads as the element(s) of the sequence ``seq`` evaluates to."""
    index: cst.BaseExpression = cst.Ellipsis() if position is None else cst.Integer(str(position))
    return cst.Subscript(seq, [cst.SubscriptElement(cst.Index(index))])


def _growth(call: cst.Call) -> list[tuple[str, cst.BaseExpression]]:
    """``(name, what it may now also hold)`` for a call growing a collection in place:
    ``x.extend(more)`` and ``x.update(table)`` hold ``more`` / ``table`` too, ``x.append(item)``
    and ``x.insert(i, item)`` a one-item list."""
    func = call.func
    if not isinstance(func, cst.Attribute) or not call.args or call.args[-1].keyword is not None:
        return []
    dn = dotted_name(func.value)
    if not dn:
        return []
    method, arg = func.attr.value, call.args[-1]
    if arg.star:
        return []
    if method in ("extend", "update") and len(call.args) == 1:
        return [(dn, arg.value)]
    if (method == "append" and len(call.args) == 1) or (method == "insert" and len(call.args) == 2):
        return [(dn, cst.List([cst.Element(arg.value)]))]
    return []


def _same_target(elt: cst.BaseExpression, target: cst.BaseExpression) -> bool:
    if isinstance(elt, cst.Name) and isinstance(target, cst.Name):
        return elt.value == target.value
    if isinstance(elt, (cst.Tuple, cst.List)) and isinstance(target, (cst.Tuple, cst.List)):
        return len(elt.elements) == len(target.elements) and all(
            _same_target(a.value, b.value) for a, b in zip(elt.elements, target.elements))
    return False


def decorator_factory(scope: tuple[cst.FunctionDef, ...]) -> cst.FunctionDef | None:
    """The factory that makes the home-made decorator ``scope[-1]``: the function enclosing it
    when that function returns it by name (``def tool(title): def register(fn): ...; return
    register``, applied as ``@tool("...")``); None when the decorator is applied as it is."""
    if len(scope) < 2:
        return None
    name = scope[-1].name.value
    return scope[-2] if any(isinstance(n, cst.Return) and isinstance(n.value, cst.Name) and n.value.value == name
                            for n in walk(scope[-2].body)) else None


def returns_nested_def(fn: cst.FunctionDef) -> bool:
    """Whether ``fn`` is a factory: it returns, and every ``return`` names a function it
    defines (``def create_search(explorer): async def search(...): ...; return search``)."""
    nested = {n.name.value for n in code_children(fn.body) if isinstance(n, cst.FunctionDef)}
    nested |= {n.name.value for st in code_children(fn.body) if isinstance(st, (cst.If, cst.Try, cst.With))
               for n in walk(st) if isinstance(n, cst.FunctionDef)}
    rets = _returns(fn)
    return bool(rets) and all(isinstance(r, cst.Name) and r.value in nested for r in rets)


def _returns(fn: cst.FunctionDef) -> list[cst.BaseExpression]:
    """The values of ``return`` statements of ``fn`` (not of nested functions)."""
    out: list[cst.BaseExpression] = []
    stack = list(code_children(fn.body))
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(node, cst.Return) and node.value is not None:
            out.append(node.value)
            continue
        if isinstance(node, cst.BaseExpression):
            continue
        stack.extend(code_children(node))
    out.reverse()
    return out


def string_value(values: Values, v: Val, env: Env | None = None) -> str | None:
    """The one string literal an expression may evaluate to (through names, loop bindings and
    constants), else None."""
    found: set[str] = set()
    leaves = values.expand(v, env)
    if not leaves and isinstance(v.node, cst.Attribute):
        leaves = [v]  # (``Tools.SEARCH`` of a class ``expand`` does not read: ``member_string``)
    for leaf in leaves:
        if isinstance(leaf.node, cst.Attribute) and isinstance(leaf.node.value, cst.Name) and \
                (bound := (env or {}).get(leaf.node.value.value)) is not None and isinstance(bound.node, cst.Attribute):
            # ``k.value`` of a loop over ``{Tools.SEARCH: ..., ...}``: through the loop's binding
            leaf = Val(bound.mod, cst.Attribute(value=bound.node, attr=leaf.node.attr), bound.scope, bound.cls)
        node = leaf.node
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            s = node.evaluated_value
            if isinstance(s, str):
                found.add(s)
                continue
        if isinstance(node, cst.Attribute) and (member := member_string(values.project, leaf.mod, node)) is not None:
            found.add(member)
            continue
        if isinstance(node, cst.Attribute) and node.attr.value == "__name__":
            # ``fn.__name__`` of a function of the run: its name
            defs = {d.node.name.value for d in values.expand(Val(leaf.mod, node.value, leaf.scope, leaf.cls), env)
                    if isinstance(d.node, cst.FunctionDef)}
            if len(defs) == 1:
                found.add(defs.pop())
                continue
        if isinstance(node, cst.FormattedString) and (text := _prefixed_name(values, leaf, env)) is not None:
            found.add(text)
            continue
        return None
    return found.pop() if len(found) == 1 else None


def _prefixed_name(values: Values, v: Val, env: Env | None) -> str | None:
    """The text of an f-string name whose every interpolated value is a string known here or a
    configurable name prefix that is not (``f"{prefix}sqlite_execute"``, ``f"{self.tool_prefix}
    search"``): a prefix set at start-up, empty by default, is left out, as a client sees the
    tools of a server run without one. None for any other f-string."""
    node = cast(cst.FormattedString, v.node)
    out = ""
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            out += part.value
            continue
        if not isinstance(part, cst.FormattedStringExpression) or part.format_spec is not None:
            return None
        known = string_value(values, Val(v.mod, part.expression, v.scope, v.cls), env) \
            if isinstance(part.expression, (cst.Name, cst.Attribute)) else None
        if known is not None:
            out += known
        elif "prefix" not in (dotted_name(part.expression) or "").rsplit(".", 1)[-1].lower():
            return None
    return out or None


def member_string(project: Project, mod: ParsedModule, node: cst.Attribute) -> str | None:
    """The string an Enum member (or a class's string constant) of a class of the run has, as
    ``mod`` names it: ``SerperTools.WEBPAGE_SCRAPE`` or ``….value``, the class defined in ``mod``
    or imported (``from .enums import SerperTools``); None otherwise."""
    dn = dotted_name(node.value if node.attr.value == "value" else node)
    if dn is None or "." not in dn:
        return None
    cls_name, _, member = dn.rpartition(".")
    if cls_name in mod.classes:
        cls = mod.classes[cls_name]
    else:
        qn = mod.imports.qualify_dotted(cls_name)
        hit = project.resolve_class(qn) if qn else None
        if hit is None:
            return None
        cls = hit[0].classes[hit[1]]
    return class_string_constant(cls, member)


def class_string_constant(cls: cst.ClassDef, attr: str) -> str | None:
    """The string literal the body of ``cls`` binds to the class attribute ``attr`` (``name =
    "x"``, annotated or not, an Enum member), or None."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    for stmt in cls.body.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and any(dotted_name(t.target) == attr for t in small.targets) or \
                    isinstance(small, cst.AnnAssign) and dotted_name(small.target) == attr:
                return literal_string(small.value) if small.value is not None else None
    return None




# -- classes and instances ---------------------------------------------------------------------
def class_of(values: Values, v: Val) -> tuple[ParsedModule, cst.ClassDef] | None:
    """The project class an expression denotes (``C``, ``mod.C``, an imported ``C``)."""
    for leaf in values.expand(v):
        if isinstance(leaf.node, cst.ClassDef):
            return leaf.mod, leaf.node
    return None


def bases(values: Values, mod: ParsedModule, cdef: cst.ClassDef) -> list[tuple[ParsedModule, cst.ClassDef]]:
    """The class and its project base classes, depth first (a simple MRO)."""
    out: list[tuple[ParsedModule, cst.ClassDef]] = []
    stack = [(mod, cdef)]
    while stack and len(out) < 16:
        m, c = stack.pop(0)
        if any(c is o for _, o in out):
            continue
        out.append((m, c))
        for base in c.bases:
            node = base.value.value if isinstance(base.value, cst.Subscript) else base.value
            hit = class_of(values, Val(m, node))
            if hit is not None:
                stack.append(hit)
    return out


def find_method(values: Values, mod: ParsedModule, cdef: cst.ClassDef,
                name: str) -> tuple[ParsedModule, cst.FunctionDef, str] | None:
    """``(module, def, owning class name)`` of method ``name`` looked up through the MRO."""
    for m, c in bases(values, mod, cdef):
        fn = m.functions.get(f"{c.name.value}.{name}")
        if fn is not None:
            return m, fn, c.name.value
    return None


def instance_attr(values: Values, mod: ParsedModule, cdef: cst.ClassDef, attr: str,
                  args: dict[str, Val] | None = None, depth: int = 0) -> str | None:
    """The string an instance's attribute ``attr`` holds: a class attribute literal, or
    ``self.attr = ...`` in ``__init__`` (a literal, a constant, or a constructor argument,
    followed through ``super().__init__(...)``). ``args`` binds ``__init__`` parameters."""
    if depth > 6:
        return None
    body = cdef.body.body if isinstance(cdef.body, cst.IndentedBlock) else ()
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    targets, value = [t.target for t in small.targets], small.value
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    targets, value = [small.target], small.value
                else:
                    continue
                if any(dotted_name(t) == attr for t in targets):
                    return string_value(values, Val(mod, value))
    init = mod.functions.get(f"{cdef.name.value}.__init__")
    if init is None:
        for base in cdef.bases:
            hit = class_of(values, Val(mod, base.value.value if isinstance(base.value, cst.Subscript) else base.value))
            if hit is not None:
                found = instance_attr(values, hit[0], hit[1], attr, args, depth + 1)
                if found is not None:
                    return found
        return None
    env: Env = dict(args or {})
    for node in walk(init):
        if isinstance(node, cst.Assign) and any(dotted_name(t.target) == f"self.{attr}" for t in node.targets):
            return string_value(values, Val(mod, node.value, (init,)), env)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "__init__":
            owner = node.func.value
            call_args = list(node.args)
            if isinstance(owner, cst.Call) and dotted_name(owner.func) == "super":
                base_nodes = [b.value for b in cdef.bases]
            else:
                base_nodes = [owner]
                call_args = call_args[1:]  # Base.__init__(self, ...)
            for b in base_nodes:
                hit = class_of(values, Val(mod, b.value if isinstance(b, cst.Subscript) else b))
                if hit is None:
                    continue
                bound = bind_args(values, hit[0], hit[1], call_args, Val(mod, node, (init,)), env)
                found = instance_attr(values, hit[0], hit[1], attr, bound, depth + 1)
                if found is not None:
                    return found
    return None


def bind_args(values: Values, mod: ParsedModule, cdef: cst.ClassDef, call_args: list[cst.Arg],
              where: Val, env: Env | None = None) -> dict[str, Val]:
    """Bind a constructor call's arguments to the parameters of the class's ``__init__``
    (found through the MRO): parameter name → the argument, readable where the call is."""
    hit = find_method(values, mod, cdef, "__init__")
    if hit is None:
        return {}
    params = [p.name.value for p in hit[1].params.params][1:]
    out: dict[str, Val] = {}
    for i, arg in enumerate(a for a in call_args if a.keyword is None and not a.star):
        if i < len(params):
            out[params[i]] = _resolved(Val(where.mod, arg.value, where.scope, where.cls), env)
    for arg in call_args:
        if arg.keyword is not None:
            out[arg.keyword.value] = _resolved(Val(where.mod, arg.value, where.scope, where.cls), env)
    return out


def _resolved(v: Val, env: Env | None) -> Val:
    if env and isinstance(v.node, cst.Name) and v.node.value in env:
        return env[v.node.value]
    return v


def subclasses(values: Values, mod: ParsedModule, cdef: cst.ClassDef) -> list[tuple[ParsedModule, cst.ClassDef]]:
    """Project classes deriving from ``cdef`` (directly or not) in the modules of its package
    (the package of the module defining it, and below): where plugin classes live."""
    package = mod.module_name.rpartition(".")[0] or mod.module_name
    names = [n for n in values.project.module_files if n == package or n.startswith(package + ".")]
    out = []
    for name in sorted(names):
        m = values.project.get(name)
        if m is None:
            continue
        for c in m.classes.values():
            if c is cdef:
                continue
            if any(b is cdef for _, b in bases(values, m, c)[1:]):
                out.append((m, c))
    return out


def class_derived_name(values: Values, mod: ParsedModule, cdef: cst.ClassDef, fn: cst.FunctionDef,
                       depth: int = 0) -> str | None:
    """The name a method computes from the class name (``cls.__name__`` / ``type(self).__name__``,
    minus a suffix string it strips, snake-cased when it lowercases), or a literal it returns.
    None when the method does neither."""
    if depth > 3:
        return None
    for ret in _returns(fn):
        s = string_value(values, Val(mod, ret, (fn,)))
        if s is not None:
            return s
    code = mod.tree.code_for_node(fn)
    if "__name__" in code:
        name = cdef.name.value
        for node in walk(fn):
            if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
                suffix = node.evaluated_value
                if suffix and name.endswith(suffix) and suffix != name:
                    name = name[: -len(suffix)]
                    break
        if ".lower" in code:
            name = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
        return name
    for node in walk(fn):  # ``return self.get_name_from_cls()``
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and dotted_name(node.func.value) in ("self", "cls"):
            owner = [m for m, c in bases(values, mod, cdef)]
            hit = find_method(values, mod, cdef, node.func.attr.value)
            if hit is not None and hit[1] is not fn and owner:
                found = class_derived_name(values, hit[0], cdef, hit[1], depth + 1)
                if found is not None:
                    return found
    return None
