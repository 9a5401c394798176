"""Session registries: run-time collections that hold what the model's own calls opened.

::

    decks = {}

    @mcp.tool()
    def open_deck(path: str, deck_id: str) -> dict:
        decks[deck_id] = Presentation(path)      # one entry per call of the tool
        ...

    @mcp.tool()
    def list_decks() -> list[dict]:
        return [{"id": k, "slides": len(d.slides)} for k, d in decks.items()]

A collection that only tools fill, one entry per call, holds as many entries as the model made
calls: how many there are is an echo of the caller's own actions (labelling rule 6; the dev set's
"projects the user registered in this session"), not a size the data sets. Listing its keys, or a
count per entry, is small. An entry's contents are still data: the interpreter reads each entry
of a registry as one record (``values.registry_element``), whole until a field is picked.

``session_registry(project, home, name)`` is the whole public API. It reads the modules that can
reach the collection and spell ``name`` (``_scope``: its own, the candidates analysed with it,
the modules it imports, and those it is handed to), and judges by name, so that a same-named
collection there only adds writes to check (the judgement stays on the safe side). ``name`` is
a registry when

* every store into a collection of that name (``name[k] = v``, ``self.name[k] = v``,
  ``name.append(v)``, ``.add``, ``.insert``, ``.setdefault``) puts one entry: not in a loop or
  comprehension of its function, and never a bulk write (``.update``, ``.extend``, ``+=``, a
  slice assignment) or a rebinding to anything but an empty collection or another name;
* each store is in a tool (a function decorated ``@….tool(…)``), or in a function whose every
  use in the run is a call from a tool outside any loop, or in dead code (a function no code of
  the run names, undecorated and not a method of a class with an outside base: not a callback a
  framework calls per event, such as ``logging.Handler.emit``);
* at least one store is in a tool;
* wherever the collection is handed to a function of the run under another parameter name
  (``Manager(decks)``, ``register_tools(app, decks)``), the stores under that name pass the same
  tests; handed to a call this module cannot resolve inside the run, it is judged no registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, cast

import libcst as cst

from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule, Project

__all__ = ["session_registry"]

#: Methods that put one entry into their receiver.
_SINGLE_STORES = frozenset({"append", "add", "insert", "setdefault", "appendleft", "__setitem__"})
#: Methods that put any number of entries into their receiver.
_BULK_STORES = frozenset({"update", "extend", "extendleft", "__ior__"})
#: Builtins handed a collection that never store into it.
_READING_BUILTINS = frozenset({"len", "list", "dict", "set", "tuple", "sorted", "str", "repr", "print", "bool",
                               "isinstance", "iter", "enumerate", "zip", "any", "all", "sum", "min", "max",
                               "reversed", "frozenset", "id", "hash", "type"})
#: Logging methods: they format what they are handed and store nothing into it.
_LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
#: Loops and comprehensions: a store inside one may put an entry per element.
_LOOPS = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
#: How many (name, module) places one judgement follows the collection to (``Manager(decks)``).
_MAX_NAMES = 32


def session_registry(project: Project, home: str, name: str) -> str | None:
    """Whether the run-time collection ``name`` of module ``home`` (a module-level name, or an
    instance attribute, ``self.name``, of a class there) is a session registry, filled only by
    tools, one entry per call (see the module docstring): ``"keyed"`` when every store puts an
    entry under a key (``decks[deck_id] = d``, ``.setdefault``), ``"listed"`` when some appends
    or adds one; None when it is none, or anything about a store cannot be judged. A store
    counts as filling it only in ``home``, a module importing ``name`` from ``home``, or where
    it was handed on under another name; same-named collections elsewhere only add stores to
    judge."""
    #: modules where a store under each name fills this collection
    homes_of: dict[str, set[str]] = {name: {home} | _importers(project, home, name)}
    if not any(kind != "bulk" for kind, *_ in _events_in(project, home, name)):
        return None  # (nothing stores into it, or hands it on, where it is made: no registry)
    pending: list[tuple[str, frozenset[str]]] = [(name, frozenset(homes_of[name]))]
    in_tool = False
    keyed = True
    while pending:
        current, homes = pending.pop()
        for module_name, mod in _mentioning(project, current, homes):
            if mod is None:
                return None
            for event in _events(mod, current):
                kind, fn, cls, node = event
                if kind == "bulk":
                    return None
                if kind in ("passed", "alias"):
                    if module_name not in homes:
                        continue  # (another collection of that name handed on)
                    handed = _passed_parameter(project, mod, cast(cst.Call, node), current) if kind == "passed" else \
                        (_last_name(cast(cst.Assign, node).targets[0].target), module_name)
                    if handed is None or handed[0] is None:
                        return None
                    param, where = handed
                    if param and where not in homes_of.setdefault(param, set()):
                        if sum(map(len, homes_of.values())) >= _MAX_NAMES:
                            return None
                        homes_of[param].add(where)
                        pending.append((param, frozenset({where})))
                    continue
                # one entry stored, outside any loop of its function
                if isinstance(node, cst.Call) and cast(cst.Attribute, node.func).attr.value != "setdefault":
                    keyed = False
                if fn is None:
                    continue  # at import: a literal entry or so, once
                if _tool_decorated(fn):
                    in_tool = in_tool or module_name in homes
                elif not _called_once_from_tools(project, mod, fn, cls):
                    return None
    return ("keyed" if keyed else "listed") if in_tool else None


def _importers(project: Project, home: str, name: str) -> frozenset[str]:
    """The run's modules that import ``name`` from module ``home`` (``from app import decks``)."""
    return frozenset(module_name for module_name, mod in _mentioning(project, name, frozenset({home}))
                     if mod is not None and module_name != home and mod.imports.names.get(name) == f"{home}.{name}")


def _events_in(project: Project, module_name: str, name: str) -> list[tuple[str, cst.FunctionDef | None, str | None, cst.CSTNode]]:
    """``_events`` of ``name`` in the one module ``module_name`` (none when it cannot be read)."""
    mod = project.get(module_name)
    return list(_events(mod, name)) if mod is not None else []


def _scope(project: Project, homes: frozenset[str]) -> list[str]:
    """The modules that can reach what ``homes`` hold: ``homes``, the candidate modules analysed
    with them (``Project.members``: a group closed under imports, ``run.grouping``) and the run's
    modules ``homes`` import (a loader the server calls); every module of the run when the
    project has no members. Code elsewhere reaches a collection only through an import or an
    argument (followed apart), and a large run's other modules cost nothing and are no
    dependency of the result."""
    if not project.members:
        return list(project.module_files)
    out = dict.fromkeys(sorted(project.members | homes))
    for home in sorted(homes):
        mod = project.get(home)
        for target in sorted(set(mod.imports.names.values())) if mod is not None else ():
            for name in (target, target.rsplit(".", 1)[0]):
                if name in project.module_files:
                    out[name] = None
    return list(out)


def _mentioning(project: Project, word: str, homes: frozenset[str]) -> Iterator[tuple[str, ParsedModule | None]]:
    """``(module name, parsed module)`` of each module of ``_scope(homes)`` whose text spells
    ``word`` (``Project.mentions``) and that is one of ``homes`` or spells the last part of
    one's name (it may import from it); the module None when it cannot be parsed."""
    shorts = {h.rsplit(".", 1)[-1] for h in homes}
    for module_name in _scope(project, homes):
        if project.mentions(module_name, word) and (
                module_name in homes or any(project.mentions(module_name, short) for short in shorts)):
            yield module_name, project.get(module_name)


def _events(mod: ParsedModule, name: str) -> Iterator[tuple[str, cst.FunctionDef | None, str | None, cst.CSTNode]]:
    """``(kind, function, class, node)`` for each use of a collection named ``name`` in ``mod``
    that may change it: ``"one"`` a single store outside loops, ``"bulk"`` anything that may
    store more (a store in a loop, a bulk method, a rebinding to data), ``"passed"`` the
    collection handed to a call (``node`` the call), ``"alias"`` bound to another name.
    ``function`` is the innermost def (None at module level), ``class`` the innermost class."""
    stack: list[tuple[cst.CSTNode, cst.FunctionDef | None, str | None, bool]] = [(mod.tree, None, None, False)]
    while stack:
        node, fn, cls, looped = stack.pop()
        if isinstance(node, cst.FunctionDef):
            fn, looped = node, False
        elif isinstance(node, cst.ClassDef):
            cls = node.name.value
        if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for t in targets:
                if isinstance(t, cst.Subscript) and _named(t.value, name):
                    single = all(isinstance(e.slice, cst.Index) for e in t.slice)
                    yield ("bulk" if looped or not single else "one"), fn, cls, node
                elif _named(t, name) and not _empty_or_alias(node.value):
                    yield "bulk", fn, cls, node
                elif isinstance(node, cst.Assign) and _named(node.value, name) and not _named(t, name):
                    yield "alias", fn, cls, node  # ``self.store = decks``: the same collection
        elif isinstance(node, cst.AugAssign) and _named(node.target, name):
            yield "bulk", fn, cls, node
        elif isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and _named(func.value, name):
                method = func.attr.value
                if method in _BULK_STORES:
                    yield "bulk", fn, cls, node
                elif method in _SINGLE_STORES:
                    yield ("bulk" if looped else "one"), fn, cls, node
            if any(_named(a.value, name) for a in node.args):
                yield "passed", fn, cls, node
        children = code_children(node)
        inner = looped or isinstance(node, _LOOPS)
        for child in reversed(children):
            stack.append((child, fn, cls, inner))


def _named(node: cst.BaseExpression, name: str) -> bool:
    """Whether ``node`` is the name ``name`` or an attribute chain ending in it (``self.name``)."""
    if isinstance(node, cst.Name):
        return node.value == name
    return isinstance(node, cst.Attribute) and node.attr.value == name


def _empty_or_alias(value: cst.BaseExpression) -> bool:
    """Whether a value bound to the collection's name is an empty collection (``{}``,
    ``dict()``) or another name (``self.decks = decks``: the same collection)."""
    if isinstance(value, (cst.Name, cst.Attribute)):
        return True
    if isinstance(value, (cst.Dict, cst.List, cst.Set, cst.Tuple)):
        return not value.elements
    if isinstance(value, cst.Call) and not value.args:
        return (dotted_name(value.func) or "").rsplit(".", 1)[-1] in ("dict", "list", "set", "OrderedDict", "deque")
    return False


def _tool_decorated(fn: cst.FunctionDef) -> bool:
    """Whether ``fn`` is registered as a tool by a decorator (``@mcp.tool()``, ``@app.tool``,
    ``@server.tool(name=…)``, ``@tool(…)``)."""
    for d in fn.decorators:
        target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
        if (dotted_name(target) or "").rsplit(".", 1)[-1] == "tool":
            return True
    return False


def _called_once_from_tools(project: Project, mod: ParsedModule, fn: cst.FunctionDef, cls: str | None) -> bool:
    """Whether every use of ``fn``'s name in the run is a call made from a tool outside any
    loop, or there is none and ``fn`` is dead code (undecorated, not a dunder but ``__init__``,
    not a method of a class with a base outside the run)."""
    fname = fn.name.value
    if fname == "__init__":
        return True
    if fname.startswith("__") or fn.decorators:
        return False
    uses = 0
    related = list(_mentioning(project, fname, frozenset({mod.module_name})))
    names = {m for m, _ in related}
    if any(m not in names and project.mentions(m, fname) for m in _scope(project, frozenset({mod.module_name}))):
        return False  # (a module that cannot see ``fn``'s module spells its name: not judged)
    for _, other in related:
        if other is None:
            return False
        for kind, caller, _, node in _uses(other, fname):
            if node is fn.name:
                continue
            uses += 1
            if kind != "call" or caller is None or not _tool_decorated(caller):
                return False
    if uses:
        return True
    if cls is not None:
        cdef = mod.classes.get(cls)
        if cdef is None or any(dotted_name(b.value) not in (None, "object") and
                               (dotted_name(b.value) or "") not in mod.classes for b in cdef.bases):
            return False
    return True


def _uses(mod: ParsedModule, fname: str) -> Iterator[tuple[str, cst.FunctionDef | None, None, cst.CSTNode]]:
    """``(kind, function, None, node)`` for each name or attribute spelling ``fname`` in ``mod``:
    ``"call"`` when it is called outside any loop of its function, ``"other"`` otherwise (a
    call in a loop, a callback handed on, the def's own name)."""
    stack: list[tuple[cst.CSTNode, cst.FunctionDef | None, bool, bool]] = [(mod.tree, None, False, False)]
    while stack:
        node, fn, looped, called = stack.pop()
        if isinstance(node, cst.FunctionDef):
            fn, looped = node, False
            if node.name.value == fname:
                yield "other", fn, None, node.name
        elif isinstance(node, cst.Name) and node.value == fname:
            yield ("call" if called and not looped else "other"), fn, None, node
            continue
        elif isinstance(node, cst.Attribute) and node.attr.value == fname:
            yield ("call" if called and not looped else "other"), fn, None, node
        inner = looped or isinstance(node, _LOOPS)
        children = code_children(node)
        if isinstance(node, cst.FunctionDef):
            children = [c for c in children if c is not node.name]
        for child in reversed(children):
            stack.append((child, fn, inner, isinstance(node, cst.Call) and child is node.func))


def _last_name(node: cst.BaseExpression) -> str | None:
    """The name a Name or attribute chain ends in (``self.store``: ``store``), else None."""
    if isinstance(node, cst.Name):
        return node.value
    return node.attr.value if isinstance(node, cst.Attribute) else None


def _passed_parameter(project: Project, mod: ParsedModule, call: cst.Call, name: str) -> tuple[str | None, str] | None:
    """``(parameter, module)``: the parameter name of the run's function that ``call`` hands the
    collection ``name`` to and that function's module (parameter ``""`` when the callee is a
    builtin, a logging method or lives outside the run, so it does not store into it); None
    when it cannot be resolved."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _LOGGING_METHODS:
        return "", mod.module_name
    callee: tuple[ParsedModule, cst.FunctionDef] | None = None
    if isinstance(func, cst.Name):
        if func.value in _READING_BUILTINS and func.value not in mod.functions:
            return "", mod.module_name
        callee = _function_of(project, mod, func.value)
    else:
        qualified = mod.imports.qualify(func)
        if qualified is not None:
            found = project.find_function(qualified) or _init_of(project, qualified)
            if found is None:
                head = qualified.split(".", 1)[0]
                outside = project.get(head) is None and not any(
                    m == head or m.startswith(head + ".") for m in project.module_files)
                return ("", mod.module_name) if outside else None
            callee = found
    if callee is None:
        return None
    cmod, cdef = callee
    params = [p for p in (*cdef.params.posonly_params, *cdef.params.params)]
    if params and params[0].name.value in ("self", "cls"):
        params = params[1:]
    for i, a in enumerate(call.args):
        if _named(a.value, name):
            if a.keyword is not None:
                return a.keyword.value, cmod.module_name
            if a.star:
                return None
            return (params[i].name.value, cmod.module_name) if i < len(params) else None
    return None


def _function_of(project: Project, mod: ParsedModule, name: str) -> tuple[ParsedModule, cst.FunctionDef] | None:
    """The def or class ``__init__`` a bare name calls in ``mod`` (its own or imported)."""
    if name in mod.functions:
        return mod, mod.functions[name]
    if name in mod.classes:
        init = mod.functions.get(f"{name}.__init__")
        return (mod, init) if init is not None else None
    qualified = mod.imports.qualify_dotted(name)
    if qualified is None:
        return None
    return project.find_function(qualified) or _init_of(project, qualified)


def _init_of(project: Project, qualified: str) -> tuple[ParsedModule, cst.FunctionDef] | None:
    """The ``__init__`` of the run's class named ``qualified``, or None."""
    found = project.resolve_class(qualified)
    if found is None:
        return None
    cmod, cname = found
    init = cmod.functions.get(f"{cname}.__init__")
    return (cmod, init) if init is not None else None
