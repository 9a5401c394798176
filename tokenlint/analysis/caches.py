"""Read-through caches: run-time collections that hold what the code itself computed and returns.

::

    def _get_json(self, path):
        hit, value = _cache_get(path)          # def _cache_get(key): entry = _cache.get(key) ...
        if hit:
            return value
        value = (await self._client.get(path)).json()
        _cache[path] = (time.monotonic() + ttl, value)
        return value

An entry read back from such a collection (``_cache.get(key)``, ``self._cache[key]``) is what the
miss path fetched and returned, and that path is traced where it runs: the read adds no source of
its own. Without this rule the entry read is "one record returned whole" (``values.one_element``),
and a tool returning one small cached item is rated as if it returned an open-ended record.

A collection is a read-through cache of a module when every item assignment to it there
(``C[k] = v``, ``C[k] = (stamp, v)``) is in a function that also returns that very value
(``return v``), and there is at least one. A read is a cache hit when the reading function is such
a storing function, or every call of it in the module (``_cache_get(path)``,
``self._lookup(key)``) is made from one. A result store that one tool fills and another reads
(``RESULTS[job_id] = rows`` in ``run_query``, read by ``get_results``) is not a hit: the reader
is called by no storing function, so its entry stays one whole record.

``read_through_stores(module)`` and ``cache_hit(module, fn, stores)`` are the public API; the
analyzer keeps one ``read_through_stores`` table per module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children, walk

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule

__all__ = ["read_through_stores", "cache_hit"]


def read_through_stores(module: ParsedModule) -> dict[str, frozenset[str]]:
    """``{container: names of the module's functions that store into it}`` for each read-through
    cache of ``module`` (see the module docstring). ``container`` is the dotted name the code
    writes (``_cache``, ``self._cache``); function names are keys of ``module.functions``
    (``_get_json``, ``Gateway.request``). A container stored into at module level, or by a
    function that does not return the stored value, is none."""
    stores: dict[str, set[str]] = {}
    spoiled: set[str] = set()
    stored_anywhere: dict[str, int] = {}
    for node, _ in module.nodes():
        for container, _ in _stored_items(node):
            stored_anywhere[container] = stored_anywhere.get(container, 0) + 1
    for qualname, fn in module.functions.items():
        returned = _returned_names(fn)
        for node in walk(fn.body):
            for container, value in _stored_items(node):
                stored_anywhere[container] -= 1
                if _stored_names(value) & returned:
                    stores.setdefault(container, set()).add(qualname)
                else:
                    spoiled.add(container)
    # (a store outside every function, or in a function counted twice through nesting, leaves a
    # count other than zero: not judged)
    return {c: frozenset(fns) for c, fns in stores.items() if c not in spoiled and stored_anywhere.get(c) == 0}


def cache_hit(module: ParsedModule, fn: cst.FunctionDef, container: str,
              stores: dict[str, frozenset[str]]) -> bool:
    """Whether reading an entry of ``container`` in ``fn`` (a function of ``module``) reads a
    read-through cache back: ``fn`` stores into it the value it returns, or every call of
    ``fn`` by name in the module is made from such a function (and there is one)."""
    storing = stores.get(container)
    if not storing:
        return False
    own = _qualname(module, fn)
    if own is None:
        return False
    if own in storing:
        return True
    short = own.rsplit(".", 1)[-1]
    callers = [qn for qn, other in module.functions.items() if other is not fn and _calls(other, short)]
    return bool(callers) and all(qn in storing for qn in callers)


def _stored_items(node: cst.CSTNode) -> list[tuple[str, cst.BaseExpression]]:
    """``(container, value)`` for each item ``node`` stores (``C[k] = v``: ``("C", v)``)."""
    if not isinstance(node, cst.Assign):
        return []
    out = []
    for target in node.targets:
        t = target.target
        name = dotted_name(t.value) if isinstance(t, cst.Subscript) else None
        if name is not None:
            out.append((name, node.value))
    return out


def _stored_names(value: cst.BaseExpression) -> set[str]:
    """The local names a stored value is: ``v`` or the parts of ``(stamp, v)``."""
    if isinstance(value, cst.Name):
        return {value.value}
    if isinstance(value, cst.Tuple):
        return {e.value.value for e in value.elements if isinstance(e.value, cst.Name)}
    return set()


def _returned_names(fn: cst.FunctionDef) -> set[str]:
    """The bare names ``fn``'s own ``return`` statements give back (nested defs excluded)."""
    out = set()
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(node, cst.Return) and isinstance(node.value, cst.Name):
            out.add(node.value.value)
        stack.extend(code_children(node))
    return out


def _calls(fn: cst.FunctionDef, name: str) -> bool:
    """Whether ``fn`` calls a function or method named ``name`` (``name(...)``, ``x.name(...)``)."""
    for node in walk(fn.body):
        if isinstance(node, cst.Call):
            func = node.func
            if (isinstance(func, cst.Name) and func.value == name) or \
                    (isinstance(func, cst.Attribute) and func.attr.value == name):
                return True
    return False


def _qualname(module: ParsedModule, fn: cst.FunctionDef) -> str | None:
    """``fn``'s key in ``module.functions`` (``Gateway.request``), or None (a nested def)."""
    return next((qn for qn, other in module.functions.items() if other is fn), None)
