"""The result store: full results kept between pages, bounded in entries and bytes (LRU + TTL).

``ResultStore`` lives in memory (one server process). It is thread-safe. Bounds:

* ``max_entries`` (default 256) stored results;
* ``max_bytes`` (default 64 MiB) of their UTF-8 rendered size (the size a client would receive);
* ``ttl_seconds`` (default 600, design.md's 10 minutes) after the last page was served.

Putting a result evicts expired entries, then least-recently-used ones until both bounds hold; a
result larger than ``max_bytes`` on its own is not stored (``put`` returns False).

Several server processes can serve one cursor with a shared store: ``redis_store.RedisResultStore``
(``pip install 'mcp-tokenlint-runtime[redis]'``), turned on for ``default_store()`` by the
environment variable ``TOKENLINT_STORE_URL=redis://host:6379/0``. Other shared stores subclass
``ResultStore`` and override ``put``/``get``/``touch``/``save``, and give every process the same
``secret`` so their cursors verify everywhere.
"""

from __future__ import annotations

import enum
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from .limits import DEFAULT_CURSOR_TTL_SECONDS

__all__ = ["ResultKind", "ResultStore", "StoredResult", "default_store", "set_default_store"]


class ResultKind(str, enum.Enum):
    """What a stored result holds, and so how it is paged (``response``). A str, equal to its
    value (``ResultKind.TEXT == "text"``), which is what a shared store writes."""

    #: a list of records (``items``), maybe held in a dict (``container`` under ``list_key``):
    #: pages of whole records, a record too large for a page in ``item_json`` pieces
    RECORDS = "records"
    #: a str (``text``): text pages with a footer (``text_pages``)
    TEXT = "text"
    #: any other value, as its compact JSON (``text``): ``value_json`` pieces
    VALUE = "value"


@dataclass
class StoredResult:
    """One full result kept for paging.

    ``kind`` (a ``ResultKind``; its str value is accepted and converted) is ``RECORDS``
    (``items`` holds the list; ``container`` the dict around it, if any, and ``list_key`` its
    key), ``TEXT`` (``text`` holds the str and ``pages`` its precomputed text pages) or ``VALUE``
    (``text`` holds the value's compact JSON; its pieces are cached in ``cache``). ``size_bytes``
    is the UTF-8 size of the rendered result, in bytes. ``tool``, ``fingerprint`` and
    ``session_id`` bind the entry to the call that made it. ``expires_at`` is Unix time, in
    seconds. ``replay`` (set inside a ``computed_once`` tool) says how to serve its later pages
    without running the tool. ``full_bytes``/``full_tokens`` size the whole result for its
    resource link (``links``). Raises ``ValueError`` for an unknown ``kind``.
    """

    entry_id: str
    kind: ResultKind
    tool: str
    fingerprint: str
    session_id: str | None
    size_bytes: int
    expires_at: float
    items: list[Any] | None = None
    container: dict[str, Any] | None = None
    list_key: str | None = None
    text: str | None = None
    pages: list[Any] | None = None
    total_tokens: int = 0
    cache: dict[Any, Any] = field(default_factory=dict)  # e.g. text pages of one huge record
    #: how to serve the later pages without running the tool (``once.computed_once``), or None
    replay: dict[str, Any] | None = None
    #: UTF-8 bytes and cl100k tokens (exact, or a proven upper bound) of the whole result as
    #: ``resources/read`` returns it; 0 until a page is served with a resource link (``links``)
    full_bytes: int = 0
    full_tokens: int = 0
    full_tokens_exact: bool = False

    def __post_init__(self) -> None:
        self.kind = ResultKind(self.kind)

    def records_in_container(self, items: list[Any] | None) -> dict[str, Any]:
        """A copy of ``container`` (the dict that held the records) with ``items`` in place of
        the records. Raises ``ValueError`` for an entry whose records were not in a dict."""
        if self.container is None or self.list_key is None:
            raise ValueError(f"stored result {self.entry_id} holds no dict around its records")
        out = dict(self.container)
        out[self.list_key] = items
        return out


class ResultStore:
    """In-memory LRU + TTL store of full results, bounded in entries and in bytes.

    ``max_entries`` results, ``max_bytes`` bytes of their UTF-8 rendered size, each kept
    ``ttl_seconds`` seconds after its last page; ``secret`` (32 random bytes by default) signs
    cursors; ``clock`` returns Unix time in seconds. Raises ``ValueError`` when a bound is not
    positive.
    """

    def __init__(
        self,
        *,
        max_entries: int = 256,
        max_bytes: int = 64 * 1024 * 1024,
        ttl_seconds: float = DEFAULT_CURSOR_TTL_SECONDS,
        secret: bytes | None = None,
        clock: Any = time.time,
    ) -> None:
        if max_entries < 1 or max_bytes < 1 or ttl_seconds <= 0:
            raise ValueError("max_entries, max_bytes and ttl_seconds must be positive")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.ttl_seconds = ttl_seconds
        #: HMAC key for cursors (see cursors.py); share it between processes of one shared store.
        self.secret = secret if secret is not None else secrets.token_bytes(32)
        self.clock = clock
        self._entries: OrderedDict[str, StoredResult] = OrderedDict()
        self._bytes = 0
        self._peak_entries = 0
        self._peak_bytes = 0
        self._lock = threading.RLock()
        #: URI template prefix set by ``register_result_resource``; None = no resource registered.
        self.resource_uri_prefix: str | None = None

    # -- public ------------------------------------------------------------------------------
    def put(self, entry: StoredResult) -> bool:
        """Store ``entry`` (evicting as needed). False when it alone exceeds ``max_bytes``."""
        if entry.size_bytes > self.max_bytes:
            return False
        with self._lock:
            self._purge_expired()
            old = self._entries.pop(entry.entry_id, None)
            if old is not None:
                self._bytes -= old.size_bytes
            while self._entries and (
                len(self._entries) >= self.max_entries
                or self._bytes + entry.size_bytes > self.max_bytes
            ):
                _, evicted = self._entries.popitem(last=False)
                self._bytes -= evicted.size_bytes
            self._entries[entry.entry_id] = entry
            self._bytes += entry.size_bytes
            # high-water marks, taken under the lock right after the only growing step
            self._peak_entries = max(self._peak_entries, len(self._entries))
            self._peak_bytes = max(self._peak_bytes, self._bytes)
            return True

    def get(self, entry_id: str) -> StoredResult | None:
        """The live entry ``entry_id`` (marked recently used), or None if unknown or expired."""
        with self._lock:
            entry = self._entries.get(entry_id)
            if entry is None:
                return None
            if entry.expires_at <= self.clock():
                self._remove(entry_id)
                return None
            self._entries.move_to_end(entry_id)
            return entry

    def touch(self, entry_id: str, expires_at: float) -> None:
        """Extend the life of ``entry_id`` to ``expires_at`` (called when a page is served)."""
        with self._lock:
            entry = self._entries.get(entry_id)
            if entry is not None:
                entry.expires_at = max(entry.expires_at, expires_at)
                self._entries.move_to_end(entry_id)

    def save(self, entry: StoredResult) -> None:
        """Persist what paging computed on ``entry`` (its page cuts) after ``put``. Nothing to do
        in memory (the stored object is the one paged); a shared store writes it back so every
        process cuts the same pages."""

    def new_expiry(self) -> float:
        """Unix time at which something created now expires."""
        return self.clock() + self.ttl_seconds

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    @property
    def size_bytes(self) -> int:
        """Sum of ``size_bytes`` of the stored entries."""
        with self._lock:
            return self._bytes

    def stats(self) -> dict[str, int]:
        """``{"entries": n, "bytes": b, "max_entries": ..., "max_bytes": ..., "peak_entries": ...,
        "peak_bytes": ...}``: current and highest-ever entries and bytes (UTF-8 rendered size)."""
        with self._lock:
            return {"entries": len(self._entries), "bytes": self._bytes,
                    "max_entries": self.max_entries, "max_bytes": self.max_bytes,
                    "peak_entries": self._peak_entries, "peak_bytes": self._peak_bytes}

    def clear(self) -> None:
        """Drop every entry (high-water marks included)."""
        with self._lock:
            self._entries.clear()
            self._bytes = self._peak_entries = self._peak_bytes = 0

    # -- internals -----------------------------------------------------------------------------
    def _remove(self, entry_id: str) -> None:
        entry = self._entries.pop(entry_id, None)
        if entry is not None:
            self._bytes -= entry.size_bytes

    def _purge_expired(self) -> None:
        now = self.clock()
        for entry_id in [k for k, e in self._entries.items() if e.expires_at <= now]:
            self._remove(entry_id)


_DEFAULT_STORE: ResultStore | None = None
_DEFAULT_LOCK = threading.Lock()


def default_store() -> ResultStore:
    """The process-wide store ``fit_response`` uses when it is given none.

    In memory, unless the environment variable ``TOKENLINT_STORE_URL`` names a shared store
    (``redis://host:6379/0``: a ``RedisResultStore``, see ``redis_store``), read on first use.
    Raises ``ValueError`` for a URL of another scheme, ``ImportError`` when redis-py is missing.
    """
    global _DEFAULT_STORE
    with _DEFAULT_LOCK:
        if _DEFAULT_STORE is None:
            from .redis_store import store_from_url, store_url_from_environment

            _DEFAULT_STORE = store_from_url(store_url_from_environment())
        return _DEFAULT_STORE


def set_default_store(store: ResultStore | None) -> None:
    """Make ``store`` the one ``default_store()`` returns (None: decide again on next use)."""
    global _DEFAULT_STORE
    with _DEFAULT_LOCK:
        _DEFAULT_STORE = store
