"""Resource links to the full result of a paged tool call, and its size.

A page of a stored result can be read whole at ``resource_uri`` once a result resource is
registered (``resources.register_result_resource``). The hook that registration installs on the
server's ``tools/call`` path (``sdk_hooks``) also appends one ``resource_link`` content block per
stored result a call served a page of (MCP 2025-06-18, server/tools "Resource Links"; the block
is a ``Resource``: ``uri``, ``name``, ``description``, ``mimeType``, ``size``):

* ``size``: the UTF-8 length in **bytes** of the text ``resources/read`` returns for that URI
  (the spec's ``Resource.size``: "the size of the raw resource content, in bytes ... to estimate
  context window usage");
* the estimated **tokens** of that text (cl100k), in the description and in ``_meta``
  (``"tokenlint/tokens"``): exact with tiktoken for texts up to ``EXACT_TOKENS_MAX_CHARS``,
  else the proven upper bound (``bounds.text_tokens_upper_bound``; the description then says
  "at most").

The rewritten tool's code does not change: ``fit_response``/``fit_json_text`` note every stored
result they serve a page of (``note_served``) while a call is being collected (``collecting``).
Turn the links off, keeping the resource, with ``TOKENLINT_RESULT_LINKS=off`` (``LINKS_ENV``) or
``register_result_resource(server, links=False)``.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Iterator

from .bounds import text_tokens_upper_bound
from .estimator import TokenEstimator
from .rendering import render_json
from .store import ResultKind, ResultStore, StoredResult

__all__ = ["LINKS_ENV", "EXACT_TOKENS_MAX_CHARS", "FullResultLink", "collecting", "full_result_text",
           "link_allowance", "links_enabled", "note_served"]

#: Environment variable that turns the ``resource_link`` blocks off (``0``, ``off``, ``false``,
#: ``no``); the result resource stays readable at each page's ``resource_uri``.
LINKS_ENV = "TOKENLINT_RESULT_LINKS"
#: Longest full result (in chars) whose tokens are counted exactly; longer ones get the proven
#: upper bound (linear, milliseconds per MB), so a 60 MB result does not stall its first page.
EXACT_TOKENS_MAX_CHARS = 2_000_000

_COLLECTOR: ContextVar[list[FullResultLink] | None] = ContextVar("tokenlint_result_links", default=None)
_ESTIMATOR: TokenEstimator | None = None


def links_enabled() -> bool:
    """False when ``TOKENLINT_RESULT_LINKS`` is ``0``, ``off``, ``false`` or ``no``."""
    return os.environ.get(LINKS_ENV, "").strip().lower() not in ("0", "off", "false", "no")


@dataclass(frozen=True)
class FullResultLink:
    """Where the whole result of a paged call is, and how big it is.

    ``size_bytes``: UTF-8 bytes of the text ``resources/read`` returns; ``tokens``: its cl100k
    tokens, exact when ``exact`` else a proven upper bound; ``mime_type``: ``application/json``
    for records and values, ``text/plain`` for text.
    """

    uri: str
    name: str
    mime_type: str
    size_bytes: int
    tokens: int
    exact: bool

    @property
    def description(self) -> str:
        """One sentence for the model: what the link is and what reading it costs."""
        tokens = f"~{self.tokens:,}" if self.exact else f"at most {self.tokens:,}"
        return (f"The whole result, unpaged: {self.size_bytes:,} bytes, {tokens} tokens; "
                "read it only if you need it all at once.")

    def as_wire(self) -> dict[str, Any]:
        """The block as MCP JSON (camelCase keys), for results already in wire form."""
        return {"type": "resource_link", "uri": self.uri, "name": self.name,
                "description": self.description, "mimeType": self.mime_type,
                "size": self.size_bytes, "_meta": {"tokenlint/tokens": self.tokens}}

    def as_block(self) -> Any:
        """The block as the loaded SDK's ``ResourceLink`` (``type="resource_link"`` spelled out:
        mcp 1.x requires it, field.md section 3). Needs the ``mcp`` package."""
        from mcp import types  # lazy: only servers have mcp

        return types.ResourceLink.model_validate(self.as_wire())


@contextmanager
def collecting(active: bool = True) -> Iterator[list[FullResultLink]]:
    """Collect, for the duration of one tool call, a link per stored result served a page of
    (nothing when not ``active``: links are off)."""
    noted: list[FullResultLink] = []
    token = _COLLECTOR.set(noted if active else None)
    try:
        yield noted
    finally:
        _COLLECTOR.reset(token)


def link_allowance(tool: str, store: ResultStore) -> tuple[int, int] | None:
    """``(tokens, bytes)`` the link to a stored result of ``tool`` costs at most, sent as MCP
    JSON (how Codex shows it; Claude Code shows less: name, URI, description), when the call
    being collected will carry one; else None. ``fit_response`` takes it off the page's budget,
    so a page and its link fit together."""
    if _COLLECTOR.get() is None or not store.resource_uri_prefix:
        return None
    worst = FullResultLink(uri=store.resource_uri_prefix + "f" * 32, name=f"{tool} (full result)",
                           mime_type="application/json", size_bytes=10**15, tokens=10**15,
                           exact=False)
    text = json.dumps(worst.as_wire(), ensure_ascii=False)
    return _count(text)[0], len(text.encode("utf-8", "surrogatepass"))


def full_result_text(entry: StoredResult) -> str:
    """The whole stored result as ``resources/read`` returns it: the text itself, or the records
    (in the dict that held them) and values as compact JSON (``json.dumps`` defaults)."""
    if entry.kind is ResultKind.TEXT:
        return entry.text or ""
    if entry.kind is ResultKind.VALUE:
        return entry.text or "null"
    value: Any = entry.items
    if entry.container is not None:
        value = entry.records_in_container(entry.items)
    return render_json(value, indent=None)


def _count(text: str) -> tuple[int, bool]:
    global _ESTIMATOR
    if len(text) <= EXACT_TOKENS_MAX_CHARS:
        if _ESTIMATOR is None:
            _ESTIMATOR = TokenEstimator()
        if _ESTIMATOR.exact_available:
            return _ESTIMATOR.exact_text_tokens(text), True
    return text_tokens_upper_bound(text), False


def note_served(entry: StoredResult, store: ResultStore) -> bool:
    """Record that a page of ``entry`` was served, when a call is being collected and ``store``
    has a result resource; returns True when the entry's size fields were computed now (the
    caller saves the entry to a shared store). Sizes are computed once per entry."""
    noted = _COLLECTOR.get()
    if noted is None or not store.resource_uri_prefix:
        return False
    uri = store.resource_uri_prefix + entry.entry_id
    if any(link.uri == uri for link in noted):
        return False
    computed = False
    if not entry.full_bytes:
        text = full_result_text(entry)
        entry.full_bytes = len(text.encode("utf-8", "surrogatepass"))
        entry.full_tokens, entry.full_tokens_exact = _count(text)
        computed = True
    mime = "text/plain" if entry.kind is ResultKind.TEXT else "application/json"
    noted.append(FullResultLink(uri=uri, name=f"{entry.tool} (full result)", mime_type=mime,
                                size_bytes=entry.full_bytes, tokens=entry.full_tokens,
                                exact=entry.full_tokens_exact))
    return computed
