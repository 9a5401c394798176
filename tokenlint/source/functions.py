"""A function's signature as LibCST spells it: its named parameters, in order.

LibCST keeps a ``def``'s named parameters in three lists of ``cst.Parameters``
(``posonly_params``, ``params``, ``kwonly_params``); ``*args`` and ``**kwargs`` are separate
fields. Discovery, analysis and fix all need "every named parameter", so it is written once here.
"""

from __future__ import annotations

import libcst as cst

#: The fields of ``cst.Parameters`` holding named parameters, in signature order (a rewrite
#: that changes each parameter of a list reads and replaces them by these names).
NAMED_PARAMETER_FIELDS = ("posonly_params", "params", "kwonly_params")


#: Callees that run a callable elsewhere and hand back its result (or a future of it):
#: ``anyio.to_thread.run_sync(fn, *a)``, ``asyncio.to_thread``, ``loop.run_in_executor(None, fn,
#: *a)`` (``runner_target``), ``executor.submit``, ``functools.partial``.
ELSEWHERE = frozenset({"run_sync", "to_thread", "run_in_executor", "submit", "partial",
                       "run_in_threadpool", "asyncify", "defer_to_thread", "run_blocking"})


def runner_target(call: cst.Call, tail: str | None) -> int | None:
    """The index of the callable among the arguments of ``call``, a call of the runner named
    ``tail`` (``ELSEWHERE``): 1 for ``run_in_executor(executor, fn, *a)``, else 0; None when
    ``tail`` runs nothing or the call has no such argument."""
    if tail not in ELSEWHERE:
        return None
    index = 1 if tail == "run_in_executor" else 0
    return index if len(call.args) > index and call.args[index].keyword is None else None


def parameters(fn: cst.FunctionDef | cst.Lambda | cst.Parameters) -> list[cst.Param]:
    """Every named parameter of ``fn`` (a ``def``, a ``lambda`` or their ``Parameters``):
    positional-only, ordinary and keyword-only, in order; not ``*args`` / ``**kwargs``."""
    ps = fn if isinstance(fn, cst.Parameters) else fn.params
    return [*ps.posonly_params, *ps.params, *ps.kwonly_params]


def gathering_parameters(fn: cst.FunctionDef | cst.Lambda | cst.Parameters) -> tuple[str | None, str | None]:
    """The names of ``fn``'s ``*args`` and ``**kwargs`` parameters (each None when absent; a bare
    ``*`` before keyword-only parameters gathers nothing): what they collect is every positional
    and every keyword argument beyond the named parameters."""
    ps = fn if isinstance(fn, cst.Parameters) else fn.params
    star = ps.star_arg
    return (star.name.value if isinstance(star, cst.Param) else None,
            ps.star_kwarg.name.value if ps.star_kwarg is not None else None)


def injected_provider(param: cst.Param) -> cst.BaseExpression | None:
    """The provider of a parameter the framework fills in by dependency injection, its default a
    ``Depends(provider)`` call (FastAPI's idiom; ``fastmcp.dependencies.Depends`` in fastmcp 3,
    whose tools leave such parameters out of their input schema): ``provider`` as written, or the
    ``Depends`` call itself when it names none. None for any other parameter (a value the
    model supplies)."""
    default = param.default
    if not isinstance(default, cst.Call):
        return None
    func = default.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    if name != "Depends":
        return None
    return default.args[0].value if default.args else default
