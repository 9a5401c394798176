"""``computed_once``: serve a continuation page from the result store without running the tool.

Without it, a paged tool runs its whole body (the query, the file read, the HTTP call) on every
continuation call, and ``fit_response`` then serves the page from the store and drops the fresh
value. ``tokenlint fix`` puts ``@computed_once`` right under the tool decorator::

    @mcp.tool()
    @computed_once
    def list_users(role: str, cursor: Cursor = None) -> Paged[list[dict]]:
        rows = db.query(role)                        # runs once per result, not once per page
        return fit_response(rows, tool="list_users", arguments={"role": role}, cursor=cursor)

``functools.wraps`` keeps the signature, annotations and docstring, so the SDK builds the same
input schema (the ``cursor`` parameter and its description included); an ``async def`` tool gets
an ``async def`` wrapper.

How it decides, on each call:

* **first call** (no ``cursor``): the body runs. When ``fit_response``/``fit_json_text`` stores
  a result, it records in the stored entry how to serve its later pages (the ``replay``: this
  function, the tool name, the argument names, ``max_tokens``, ``client``, ``page_sizes``, and for
  ``fit_json_text`` its ``json.dumps`` options). The recipe is kept only when the body returned
  the runtime call's value itself (``return fit_response(...)``): a page wrapped in something else
  (``[TextContent(text=fit_json_text(...))]``) cannot be rebuilt, so those continuations run
  the body as before.
* **continuation** (a ``cursor`` argument): when the store holds the cursor's entry with a recipe
  of *this* function, and the call's arguments (without ``cursor``) and client session are those
  the entry is bound to, the page is served straight from the store: the body does not run.
  ``fit_response`` still verifies the cursor (its MAC and expiry) and raises ``CursorError``
  as before (an expired cursor: ``cursor expired: call <tool> again without cursor``).
* a function defined inside another (a closure, which may be made again with other captured
  values) or a method (several instances may be tools) is served from the store only for the
  tool, and the instance, whose page that very wrapper returned in this process; elsewhere its
  body runs as before. A module-level function is served on any replica.
* **anything else** (an unknown, evicted or malformed cursor, another tool's or another call's
  cursor, another session's): the body runs, exactly as without the decorator, and its
  ``fit_response`` gives today's answer or error. The decorator itself never raises and never
  decides what the runtime would not: it only skips work whose result is already stored.

Works with the in-memory store and the shared Redis store alike (``default_store()``: the recipe is
stored in the entry, so a continuation on another replica is served without running the body
there either; a recipe that is not JSON, e.g. a ``default=`` function given to ``fit_json_text``,
is kept in memory only). A runtime call given its own ``store=`` or ``estimator=`` records no
recipe (the decorator could not find them again).
"""

from __future__ import annotations

import enum
import functools
import inspect
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator, Mapping, TypeVar

from .cursors import CURSOR_ARGUMENT, fingerprint_arguments, peek_entry_id

__all__ = ["computed_once", "serve_call", "calling", "RUN_TOOL", "RunTool"]

F = TypeVar("F", bound=Callable[..., Any])


class _Run:
    """One body run under ``computed_once``: the function and its bound arguments, and the
    entries the runtime calls stored meanwhile, each with the value its call returned."""

    def __init__(self, function: str, parameters: Mapping[str, Any], owner: Any) -> None:
        self.function = function
        self.parameters = parameters
        #: ``id`` of the method's ``self``/``cls`` (None for a function)
        self.owner = owner
        self.made: list[tuple[Any, Any, Any]] = []  # (entry, store, returned value)

    def recipe(self, base: dict[str, Any], arguments: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """``base`` (how the runtime was called) plus this function and the argument names, or
        None when the arguments are not the function's own parameters (then a continuation could
        not rebuild them from its call)."""
        names = [k for k in (arguments or {}) if k != CURSOR_ARGUMENT]
        if not all(isinstance(k, str) and k in self.parameters for k in names):
            return None
        return {**base, "function": self.function, "names": names}


_RUN: ContextVar[_Run | None] = ContextVar("tokenlint_computed_once", default=None)


def recipe_for(base: dict[str, Any] | None, arguments: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The replay recipe to store with a new entry: None outside a ``computed_once`` body, or
    when ``base`` is None (the runtime call names its own store or estimator)."""
    run = _RUN.get()
    if run is None or base is None:
        return None
    return run.recipe(base, arguments)


def note_stored(entry: Any, store: Any, returned: Any) -> None:
    """Record that the runtime call storing ``entry`` in ``store`` returned ``returned``."""
    run = _RUN.get()
    if run is not None and getattr(entry, "replay", None) is not None:
        run.made.append((entry, store, returned))


def _settle(run: _Run, kept: Callable[[Any], bool], seen: set[tuple[str, Any]]) -> None:
    """Keep the recipes of the entries whose value ``kept`` accepts (the body returned it as it
    is; note their tool, for ``owner``, in ``seen``); drop the others' (their pages were
    wrapped in something the store cannot rebuild)."""
    for entry, store, returned in run.made:
        if kept(returned):
            seen.add((entry.tool, run.owner))
        else:
            entry.replay = None
            try:
                store.save(entry)
            except Exception:  # a shared store that cannot be reached: the page is still right
                pass


def _session_of(values: Any) -> str | None:
    """The client session of the running call: from a ``Context`` argument (as the rewritten
    code passes ``session_id_from_context(ctx)``), else the SDK's request context."""
    from .resources import current_session_id, session_id_from_context

    for value in values:
        if type(value).__name__.endswith("Context"):
            sid = session_id_from_context(value)
            if sid:
                return sid
    return current_session_id()


class RunTool(enum.Enum):
    """The sentinel type of ``RUN_TOOL``: no page can be served from the store, the tool runs."""

    RUN_TOOL = "run the tool"


#: Returned (by ``serve_call`` and the wrappers' store look-up) when the call must run the tool.
RUN_TOOL = RunTool.RUN_TOOL


def _owner(sig: inspect.Signature, params: Mapping[str, Any]) -> Any:
    """``id`` of the ``self``/``cls`` argument of a method call, else None."""
    first = next(iter(sig.parameters), None)
    return id(params[first]) if first in ("self", "cls") and first in params else None


def _serve(function: str, sig: inspect.Signature, args: tuple, kwargs: dict,
           seen: set[tuple[str, Any]] | None) -> Any:
    """The page for a continuation the store can serve, or ``RUN_TOOL``. ``seen``: for a
    function made several times (a closure) or a method, the (tool, owner) pairs whose pages
    this very wrapper returned; None for a module-level function (one per process)."""
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return RUN_TOOL
    bound.apply_defaults()
    params = bound.arguments

    def accept(entry: Any) -> bool:
        # a closure made again, or another instance's method: its tool may page other data
        return seen is None or (entry.tool, _owner(sig, params)) in seen

    return _stored_page(function, params, lambda: _session_of(params.values()), accept)


def _stored_page(function: str, params: Mapping[str, Any], session_of: Callable[[], str | None],
                 accept: Callable[[Any], bool]) -> Any:
    """The page the cursor in ``params`` points at, served from the store with the recipe
    ``function`` recorded, when the entry is ``accept``ed and bound to these arguments and this
    session (``session_of()``); else ``RUN_TOOL``."""
    cursor = params.get(CURSOR_ARGUMENT)
    if not isinstance(cursor, str) or not cursor:
        return RUN_TOOL
    entry_id = peek_entry_id(cursor)
    if entry_id is None:
        return RUN_TOOL
    from .store import default_store

    store = default_store()
    try:
        entry = store.get(entry_id)
    except Exception:
        return RUN_TOOL
    if entry is None:
        return RUN_TOOL
    replay = getattr(entry, "replay", None)
    if not replay or replay.get("function") != function or replay.get("tool") != entry.tool:
        return RUN_TOOL
    if not accept(entry):
        return RUN_TOOL
    names = replay["names"]
    if any(n not in params for n in names):
        return RUN_TOOL
    arguments = {n: params[n] for n in names}
    if fingerprint_arguments(arguments) != entry.fingerprint:
        return RUN_TOOL
    session_id = session_of()
    if (session_id or None) != (entry.session_id or None):
        return RUN_TOOL
    options: dict[str, Any] = dict(tool=replay["tool"], arguments=arguments, cursor=cursor,
                                   max_tokens=replay["max_tokens"], session_id=session_id,
                                   client=replay.get("client"),
                                   page_sizes=tuple(replay["page_sizes"]))
    if replay["call"] == "fit_json_text":
        from .lowlevel import fit_json_text

        return fit_json_text(None, exact=replay.get("exact", True), **options,
                             **replay.get("json_kwargs", {}))
    from .response import fit_response

    return fit_response(None, **options)


def serve_call(function: str, tool: str, arguments: Mapping[str, Any],
               session_id: str | None) -> Any:
    """Computed once for a whole ``tools/call`` (the hook ``sdk_hooks`` installs; low-level
    servers, whose tools are branches of one handler): the text page a continuation call of
    ``tool`` with ``arguments`` (its ``cursor`` included) gets from the store, when an earlier
    call under the same ``function`` marker (``calling``) recorded a recipe for it; else
    ``RUN_TOOL``. Never raises: a page that cannot be served runs the tool, whose own runtime
    call then answers (or raises ``CursorError``) as without the hook."""
    try:
        return _stored_page(function, arguments, lambda: session_id,
                            lambda entry: entry.tool == tool)
    except Exception:
        return RUN_TOOL


@contextmanager
def calling(function: str, arguments: Mapping[str, Any]) -> Iterator[Callable[[Callable[[Any], bool]], None]]:
    """Run one ``tools/call`` under the recipe marker ``function``; yields ``settle(kept)``,
    to call with the tool's result: ``kept(returned)`` says whether the result is exactly the
    value a runtime call returned (then its later pages are served by ``serve_call``). A
    ``computed_once`` tool inside records under its own function instead."""
    run = _Run(function, dict(arguments), None)
    token = _RUN.set(run)
    done = [False]

    def settle(kept: Callable[[Any], bool]) -> None:
        done[0] = True
        _settle(run, kept, set())

    try:
        yield settle
    finally:
        _RUN.reset(token)
        if not done[0]:  # the tool raised: keep no recipe
            _settle(run, lambda returned: False, set())


def computed_once(fn: F) -> F:
    """Decorate a paged tool so that a continuation call is served from the result store without
    running ``fn``'s body (module docstring). ``fn``: a sync or async function (or method) whose
    ``return`` is a ``fit_response``/``fit_json_text`` call and that has a ``cursor`` parameter.

    Returns a wrapper with ``fn``'s signature (``functools.wraps``; an ``async def`` for an
    ``async def``). Idempotent: decorating a wrapper again returns it unchanged. Raises nothing
    of its own: a served page raises ``CursorError`` like ``fit_response`` (expired cursor).
    """
    if getattr(fn, "__tokenlint_computed_once__", False):
        return fn
    sig = inspect.signature(fn)
    qualname = getattr(fn, "__qualname__", repr(fn))
    function = f"{getattr(fn, '__module__', '')}.{qualname}"
    # one per process: a module-level function; else (a closure, which may be made again with
    # other captured values, or a method of several instances) pages are served only for the
    # tool and instance this wrapper itself paged
    seen: set[tuple[str, Any]] | None = None
    if "<locals>" in qualname or next(iter(sig.parameters), None) in ("self", "cls"):
        seen = set()

    def start(args: tuple, kwargs: dict) -> tuple[_Run, Any]:
        try:
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            parameters: Mapping[str, Any] = bound.arguments
        except TypeError:
            parameters = {}
        run = _Run(function, parameters, _owner(sig, parameters))
        return run, _RUN.set(run)

    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            page = _serve(function, sig, args, kwargs, seen)
            if page is not RUN_TOOL:
                return page
            run, token = start(args, kwargs)
            try:
                result = await fn(*args, **kwargs)
            finally:
                _RUN.reset(token)
            _settle(run, lambda returned: returned is result, seen if seen is not None else set())
            return result

        wrapper: Any = async_wrapper
    else:
        @functools.wraps(fn)
        def sync_wrapper(*args: Any, **kwargs: Any) -> Any:
            page = _serve(function, sig, args, kwargs, seen)
            if page is not RUN_TOOL:
                return page
            run, token = start(args, kwargs)
            try:
                result = fn(*args, **kwargs)
            finally:
                _RUN.reset(token)
            _settle(run, lambda returned: returned is result, seen if seen is not None else set())
            return result

        wrapper = sync_wrapper
    wrapper.__tokenlint_computed_once__ = True
    return wrapper
