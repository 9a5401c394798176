"""The shared result store on a real Redis: a cursor minted by one replica is served by another.

Two ``RedisResultStore`` objects on one Redis stand for two server processes here (each with its
own client and no shared Python state); ``test_runtime_redis_e2e.py`` does the same with two real
server processes and the real ``mcp`` client.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid

import pytest

from tokenlint.runtime import (
    CursorError,
    RedisResultStore,
    ResultStore,
    default_store,
    fit_response,
    join_text_pages,
    parse_text_page,
    set_default_store,
)
from tokenlint.runtime.redis_store import store_from_url

redis = pytest.importorskip("redis", reason="redis-py is not installed (pip install "
                            "'mcp-tokenlint-runtime[redis]')")

RECS = [{"i": i, "name": f"n{i}", "pad": "x" * 60, "tags": ["a", "ü", "数据"]} for i in range(300)]
BIG = [{"id": 0, "note": "small"}, {"id": 1, "blob": " ".join(f"{k:08x}" for k in range(3000))},
       {"id": 2, "note": "small"}]
TEXT = "\n\n".join(f"## part {k}\n" + "lorem ipsum dolor sit amet, página 🙂 " * 30
                   for k in range(60))


@pytest.fixture
def replicas(redis_url):
    """Two stores on one Redis under a prefix of their own, like two replicas of one server."""
    prefix = f"tl-test-{uuid.uuid4().hex[:8]}:"
    a = RedisResultStore(redis_url, prefix=prefix)
    b = RedisResultStore(redis_url, prefix=prefix)
    yield a, b
    a.clear()


def _alternate(value, replicas, **kw):
    """Follow next_action, serving page k from replica k % 2; every page."""
    pages, args = [], {"q": "x"}
    for k in range(500):
        page = fit_response(value, tool="t", arguments=args, max_tokens=700,
                            store=replicas[k % 2], **kw)
        pages.append(page)
        if isinstance(page, str):
            action = parse_text_page(page).get("next_action")
        else:
            action = page.get("next_action")
        if not action:
            return pages
        args = action["arguments"]
    raise AssertionError("did not end")


def test_replicas_share_the_secret_and_serve_each_others_cursors_losslessly(replicas):
    a, b = replicas
    assert a.secret == b.secret and len(a.secret) == 32
    pages = _alternate(RECS, replicas)
    assert len(pages) > 4
    assert [r for p in pages for r in p["items"]] == RECS


def test_text_and_oversized_records_page_the_same_on_every_replica(replicas):
    pages = _alternate(TEXT, replicas)
    assert len(pages) > 4 and join_text_pages([parse_text_page(p) for p in pages]) == TEXT
    big = _alternate(BIG, replicas)
    parts = [p for p in big if "item_json" in p]
    assert len(parts) > 2
    assert json.loads("".join(p["item_json"] for p in parts)) == BIG[1]
    assert [r for p in big for r in p["items"]] == [BIG[0], BIG[2]]


def test_ttl_is_held_by_redis_and_renewed_per_page(replicas, redis_url):
    a, _ = replicas
    store = RedisResultStore(redis_url, prefix=a.prefix, ttl_seconds=30)
    page = fit_response(RECS, tool="t", arguments={}, max_tokens=700, store=store)
    entry_id = page["next_cursor"]  # the entry id is inside; find the key instead
    keys = list(store.redis.scan_iter(match=store.prefix + "result:*"))
    assert len(keys) == 1 and entry_id
    ttl_ms = store.redis.pttl(keys[0])
    assert 0 < ttl_ms <= 30_000
    store.redis.pexpire(keys[0], 5_000)  # as if most of the life had passed
    fit_response(None, tool="t", arguments={"cursor": page["next_cursor"]}, max_tokens=700,
                 store=store)
    assert 5_000 < store.redis.pttl(keys[0]) <= 30_000  # serving a page renewed it
    assert store.redis.pttl(store.prefix + "secret") == -1  # the secret never expires


def test_a_result_redis_dropped_gives_the_clear_error_on_the_other_replica(replicas):
    a, b = replicas
    page = fit_response(RECS, tool="list_users", arguments={}, max_tokens=700, store=a)
    a.clear()  # expired or evicted by Redis (maxmemory): the key is gone
    with pytest.raises(CursorError) as err:
        fit_response(None, tool="list_users", arguments={"cursor": page["next_cursor"]},
                     max_tokens=700, store=b)
    assert err.value.reason == "evicted"
    assert "call list_users again without cursor" in str(err.value)


def test_a_result_over_the_per_result_byte_bound_is_not_stored(replicas, redis_url):
    a, _ = replicas
    store = RedisResultStore(redis_url, prefix=a.prefix, max_bytes=5_000)
    page = fit_response(RECS, tool="t", arguments={}, max_tokens=700, store=store)
    assert page["next_cursor"] is None and "too large" in page["note"]
    assert len(store) == 0


def test_foreign_session_and_arguments_are_refused_across_replicas(replicas):
    a, b = replicas
    page = fit_response(RECS, tool="t", arguments={"q": 1}, max_tokens=700, store=a,
                        session_id="alice")
    cur = page["next_cursor"]
    with pytest.raises(CursorError) as err:
        fit_response(None, tool="t", arguments={"q": 1, "cursor": cur}, max_tokens=700, store=b,
                     session_id="mallory")
    assert err.value.reason == "foreign" and "another client session" in str(err.value)
    with pytest.raises(CursorError):
        fit_response(None, tool="t", arguments={"q": 2, "cursor": cur}, max_tokens=700, store=b,
                     session_id="alice")
    ok = fit_response(None, tool="t", arguments={"q": 1, "cursor": cur}, max_tokens=700, store=b,
                      session_id="alice")
    assert ok["items"][0] == RECS[len(page["items"])]


def test_environment_variable_turns_the_default_store_into_redis(redis_url, monkeypatch):
    monkeypatch.setenv("TOKENLINT_STORE_URL", redis_url)
    set_default_store(None)
    try:
        store = default_store()
        assert isinstance(store, RedisResultStore) and store.url == redis_url
        assert default_store() is store
    finally:
        set_default_store(None)
    monkeypatch.delenv("TOKENLINT_STORE_URL")
    assert type(default_store()) is ResultStore
    set_default_store(None)
    assert type(store_from_url("memory:")) is ResultStore
    with pytest.raises(ValueError, match="TOKENLINT_STORE_URL"):
        store_from_url("memcached://127.0.0.1:11211")


def test_the_runtime_imports_without_redis_py():
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] == 'redis':\n"
            "            raise ImportError('blocked')\n"
            "sys.meta_path.insert(0, Block())\n"
            "import tokenlint.runtime as r\n"
            "assert 'redis' not in sys.modules\n"
            "try:\n"
            "    r.RedisResultStore('redis://127.0.0.1:1/0')\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'mcp-tokenlint-runtime[redis]'" in out.stdout
