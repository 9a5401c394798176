"""A result store shared by several server processes, on Redis: a cursor works on any replica.

Turn it on without touching code: set ``TOKENLINT_STORE_URL=redis://host:6379/0`` (also
``rediss://`` and ``unix://``) in the environment of every replica; ``default_store()`` (what
``fit_response`` and ``register_result_resource`` use when given no store) is then a
``RedisResultStore`` on that URL. Or pass one explicitly: ``store=RedisResultStore(url)``.

Needs redis-py: ``pip install 'mcp-tokenlint-runtime[redis]'``. It is imported when a
``RedisResultStore`` is made, never when ``tokenlint.runtime`` is imported (the runtime keeps
importing with the standard library alone).

What Redis holds, per stored result, is one key ``<prefix>result:<entry id>`` whose value is the
result as JSON (records as their JSON form, as the client receives them; no pickle, so nothing
read back from Redis is ever executed) plus the page cuts computed so far, so every replica serves
the same pages. Bounds:

* time: the key's Redis TTL (``ttl_seconds``, default 600 s, design.md's 10 minutes), renewed each
  time a page is served (``PEXPIREAT``) -- Redis expires it, no replica has to;
* size per result: a result whose JSON is larger than ``max_bytes`` (UTF-8 bytes, default
  64 MiB) is not stored (its first page says the rest cannot be paged), as with ``ResultStore``;
* size in all: Redis's own ``maxmemory`` with ``maxmemory-policy volatile-lru`` (or
  ``volatile-ttl``): every result key has a TTL, so Redis evicts results, least recently used
  first, and never the shared secret (which has none). A cursor whose result was evicted gets
  "cursor no longer available: ... call <tool> again without cursor".

The HMAC secret that signs cursors is shared through Redis too (``<prefix>secret``, written once
with ``SET NX`` by the first replica), unless ``secret=`` is given; so replicas need nothing but
the URL to verify each other's cursors.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from typing import Any

from .rendering import json_fallback
from .limits import DEFAULT_CURSOR_TTL_SECONDS
from .store import ResultKind, ResultStore, StoredResult
from .text_pages import TextPage

__all__ = ["RedisResultStore", "STORE_URL_ENV", "store_from_url"]

#: The environment variable naming the shared store (read by ``default_store()``).
STORE_URL_ENV = "TOKENLINT_STORE_URL"
#: Default key prefix, so the store can share a Redis database with other data.
DEFAULT_PREFIX = "tokenlint:"
_SCHEMES = ("redis://", "rediss://", "unix://")
_FORMAT = 1


def store_from_url(url: str, **options: Any) -> ResultStore:
    """The store a URL names: ``redis://``/``rediss://``/``unix://`` -> ``RedisResultStore``;
    ``memory:`` or an empty string -> an in-memory ``ResultStore``. Raises ``ValueError`` for
    another scheme and ``ImportError`` (with the pip command) when redis-py is missing."""
    url = url.strip()
    if not url or url.startswith("memory:"):
        return ResultStore(**options)
    if url.startswith(_SCHEMES):
        return RedisResultStore(url, **options)
    raise ValueError(f"{STORE_URL_ENV}={url!r}: expected a redis://, rediss:// or unix:// URL "
                     "(or memory:)")


class RedisResultStore(ResultStore):
    """``ResultStore`` whose entries live in Redis, shared by every process that uses ``url``.

    ``url``: a redis-py URL (``redis://[:password@]host:6379/0``, ``rediss://``, ``unix://``);
    or ``client=``, a ready ``redis.Redis``. ``max_bytes``: largest single result stored, UTF-8
    bytes of its JSON (default 64 MiB). ``ttl_seconds``: life of a result after its last page
    (default 600 s). ``prefix``: key prefix (default ``"tokenlint:"``). ``secret``: HMAC key of
    the cursors (default: shared through Redis, see the module docstring).
    ``max_entries`` is accepted for symmetry with ``ResultStore`` and not enforced: the number of
    results is bounded by Redis's ``maxmemory`` (module docstring).

    Raises ``ImportError`` when redis-py is not installed, and redis-py's ``ConnectionError``
    when the server cannot be reached (at creation: the secret is read then).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        client: Any = None,
        max_entries: int = 256,
        max_bytes: int = 64 * 1024 * 1024,
        ttl_seconds: float = DEFAULT_CURSOR_TTL_SECONDS,
        secret: bytes | None = None,
        prefix: str = DEFAULT_PREFIX,
        clock: Any = time.time,
    ) -> None:
        if client is None:
            if url is None:
                raise ValueError("RedisResultStore needs a url or a client")
            try:
                import redis  # lazy: an optional extra
            except ImportError as err:  # pragma: no cover - exercised without redis-py
                raise ImportError(
                    "the Redis result store needs redis-py: "
                    "pip install 'mcp-tokenlint-runtime[redis]'") from err
            client = redis.Redis.from_url(url)
        self.redis = client
        self.prefix = prefix
        self.url = url
        super().__init__(max_entries=max_entries, max_bytes=max_bytes, ttl_seconds=ttl_seconds,
                         secret=secret if secret is not None else self._shared_secret(),
                         clock=clock)

    # -- keys and the shared secret ------------------------------------------------------------
    def _key(self, entry_id: str) -> str:
        return f"{self.prefix}result:{entry_id}"

    def _shared_secret(self) -> bytes:
        key = self.prefix + "secret"
        self.redis.set(key, secrets.token_hex(32), nx=True)  # the first replica's wins
        value = self.redis.get(key)
        return bytes.fromhex(value.decode("ascii") if isinstance(value, bytes) else value)

    # -- ResultStore interface -------------------------------------------------------------------
    def put(self, entry: StoredResult) -> bool:
        """Write ``entry`` with a TTL until ``entry.expires_at``. False when its JSON is larger
        than ``max_bytes`` (then nothing is written)."""
        data = _dump(entry)
        if len(data) > self.max_bytes:
            return False
        ttl_ms = max(int((entry.expires_at - self.clock()) * 1000), 1)
        self.redis.set(self._key(entry.entry_id), data, px=ttl_ms)
        with self._lock:
            self._peak_bytes = max(self._peak_bytes, len(data))
        return True

    def save(self, entry: StoredResult) -> None:
        """Write back the page cuts computed for ``entry`` (keeps its TTL; no-op if it expired)."""
        data = _dump(entry)
        if len(data) <= self.max_bytes:
            self.redis.set(self._key(entry.entry_id), data, xx=True, keepttl=True)

    def get(self, entry_id: str) -> StoredResult | None:
        """The entry, read from Redis, or None when Redis no longer has it (expired, evicted)."""
        pipe = self.redis.pipeline()
        pipe.get(self._key(entry_id))
        pipe.pttl(self._key(entry_id))
        data, ttl_ms = pipe.execute()
        if data is None:
            return None
        entry = _load(entry_id, data)
        if ttl_ms is not None and ttl_ms > 0:
            entry.expires_at = self.clock() + ttl_ms / 1000
        return entry

    def touch(self, entry_id: str, expires_at: float) -> None:
        """Renew the key's TTL to ``expires_at`` (unix seconds; always later: now + ttl)."""
        self.redis.pexpireat(self._key(entry_id), int(expires_at * 1000))

    def __len__(self) -> int:
        return sum(1 for _ in self.redis.scan_iter(match=self._key("*"), count=500))

    @property
    def size_bytes(self) -> int:
        """Redis's ``used_memory`` (bytes, the whole database: Redis holds the bound)."""
        return int(self.redis.info("memory").get("used_memory", 0))

    def stats(self) -> dict[str, int]:
        """``{"entries": n, "bytes": used_memory, "max_bytes": maxmemory (0: none),
        "max_entry_bytes": max_bytes, "peak_entry_bytes": ...}`` (bytes)."""
        info = self.redis.info("memory")
        return {"entries": len(self), "bytes": int(info.get("used_memory", 0)),
                "max_bytes": int(info.get("maxmemory", 0)), "max_entry_bytes": self.max_bytes,
                "peak_entry_bytes": self._peak_bytes}

    def clear(self) -> None:
        """Delete every result of this prefix (the shared secret stays)."""
        keys = list(self.redis.scan_iter(match=self._key("*"), count=500))
        if keys:
            self.redis.delete(*keys)

    def _purge_expired(self) -> None:  # Redis expires keys itself
        return None


# -- (de)serialization: JSON only ---------------------------------------------------------------
def _key_out(key: Any) -> Any:
    return [_key_out(k) for k in key] if isinstance(key, tuple) else key


def _key_in(key: Any) -> Any:
    return tuple(_key_in(k) for k in key) if isinstance(key, list) else key


def _pages_out(pages: Any) -> Any:
    if isinstance(pages, list):
        return [[p.start, p.end, p.reopen, p.close] for p in pages]
    return pages  # a flag (bool)


def _pages_in(pages: Any) -> Any:
    if isinstance(pages, list):
        return [TextPage(*p) for p in pages]
    return pages


def _dump(entry: StoredResult) -> bytes:
    doc = {
        "format": _FORMAT, "kind": entry.kind.value, "tool": entry.tool,
        "fingerprint": entry.fingerprint, "session_id": entry.session_id,
        "size_bytes": entry.size_bytes, "expires_at": entry.expires_at,
        "items": entry.items, "container": entry.container, "list_key": entry.list_key,
        "text": entry.text, "total_tokens": entry.total_tokens,
        "pages": _pages_out(entry.pages) if entry.pages is not None else None,
        "cache": [[_key_out(k), _pages_out(v)] for k, v in entry.cache.items()],
        "replay": _replay_out(entry.replay),
        "full": [entry.full_bytes, entry.full_tokens, entry.full_tokens_exact],
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"),
                      default=json_fallback).encode("utf-8")


def _load(entry_id: str, data: bytes) -> StoredResult:
    doc = json.loads(data)
    if doc.get("format") != _FORMAT:
        raise ValueError(f"stored result {entry_id} has an unknown format {doc.get('format')!r}")
    return StoredResult(
        entry_id=entry_id, kind=ResultKind(doc["kind"]), tool=doc["tool"], fingerprint=doc["fingerprint"],
        session_id=doc["session_id"], size_bytes=doc["size_bytes"],
        expires_at=doc["expires_at"], items=doc["items"], container=doc["container"],
        list_key=doc["list_key"], text=doc["text"],
        pages=_pages_in(doc["pages"]) if doc["pages"] is not None else None,
        total_tokens=doc["total_tokens"],
        cache={_key_in(k): _pages_in(v) for k, v in doc["cache"]},
        replay=doc.get("replay"),
        **dict(zip(("full_bytes", "full_tokens", "full_tokens_exact"), doc.get("full", ()))),
    )


def _replay_out(replay: Any) -> Any:
    """A ``computed_once`` recipe if it is plain JSON (a ``default=`` function or a
    ``ClientProfile`` object is not: then continuations on any replica run the tool again)."""
    if replay is None:
        return None
    try:
        json.dumps(replay, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return replay


def store_url_from_environment() -> str:
    """``TOKENLINT_STORE_URL`` from the environment, or ``""`` (in-memory)."""
    return os.environ.get(STORE_URL_ENV, "")
