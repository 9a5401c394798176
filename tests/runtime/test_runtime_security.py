"""Cursor secrecy and binding, and the result store's bounds under concurrent load (in process).

The same properties over the real transport (several ``mcp`` clients over streamable HTTP against
one server, each with its own session) are in ``test_runtime_http.py``.
"""

from __future__ import annotations

import base64
import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenlint.runtime import (
    RESULT_URI_PREFIX,
    CursorError,
    ResultStore,
    TokenEstimator,
    fit_response,
    read_stored_result,
)
from tokenlint.runtime import cursors, response
from tokenlint.runtime.resources import ResultNotFoundError

FAST = TokenEstimator("fast")
RECS = [{"i": i, "pad": "x" * 50} for i in range(200)]
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def first_page(store, *, tool="list_users", arguments=None, session_id=None, value=RECS):
    return fit_response(value, tool=tool, arguments=arguments or {"role": "admin"},
                        max_tokens=500, store=store, estimator=FAST, session_id=session_id)


def next_page(store, cursor, *, tool="list_users", arguments=None, session_id=None):
    args = dict(arguments or {"role": "admin"}, cursor=cursor)
    return fit_response(None, tool=tool, arguments=args, cursor=cursor, max_tokens=500,
                        store=store, estimator=FAST, session_id=session_id)


def token_of(cursor: str) -> bytes:
    return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))


# -- randomness and secrecy ----------------------------------------------------------------------

def test_every_cursor_carries_128_random_bits_from_secrets(monkeypatch):
    drawn = []
    real = cursors.secrets.token_hex

    def spy(n):
        drawn.append(real(n))
        return drawn[-1]

    monkeypatch.setattr(cursors.secrets, "token_hex", spy)
    store = ResultStore(max_entries=5000, max_bytes=10 ** 9)
    ids = []
    for _ in range(600):
        cursor = first_page(store, value=RECS[:12])["next_cursor"]
        entry_id = token_of(cursor)[1:17]
        assert entry_id.hex() == drawn[-1]  # the id in the cursor is the 16 bytes secrets drew
        ids.append(int.from_bytes(entry_id, "big"))
    assert len(set(ids)) == 600
    # each of the 128 bits is set in about half of the ids (binomial, sd 2 %: a 10 sd margin)
    for bit in range(128):
        ones = sum(1 for v in ids if v >> bit & 1)
        assert 180 <= ones <= 420, bit


def test_a_cursor_reveals_nothing_of_the_arguments(monkeypatch):
    """Everything but the MAC is independent of the arguments; the MAC is keyed with a secret."""
    monkeypatch.setattr(response, "new_entry_id", lambda: "ab" * 16)
    secret = b"s" * 32
    cursors_by_args = {}
    for args in ({"role": "admin"}, {"role": "viewer-with-a-long-SECRET-value" * 3},
                 {"role": "admin", "extra": 1}):
        store = ResultStore(secret=secret, clock=lambda: 1_800_000_000.0)
        page = fit_response(RECS, tool="list_users", arguments=args, max_tokens=2000,
                            store=store, estimator=FAST, page_sizes=(5,))
        assert len(page["items"]) == 5
        cursors_by_args[str(args)] = page["next_cursor"]
    tokens = [token_of(c) for c in cursors_by_args.values()]
    assert len({len(c) for c in cursors_by_args.values()}) == 1  # length independent of args
    assert len({t[:-16] for t in tokens}) == 1  # same id, expiry and position for all
    assert len({t[-16:] for t in tokens}) == 3  # only the MAC differs
    for cursor, token in zip(cursors_by_args.values(), tokens):
        for secret_text in (b"admin", b"viewer", b"SECRET", b"role"):
            assert secret_text not in token and secret_text.decode() not in cursor


# -- rejection -------------------------------------------------------------------------------------

@pytest.mark.parametrize("other,needle", [
    ({"tool": "export_users"}, "cursor belongs to tool list_users"),
    ({"arguments": {"role": "viewer"}}, "different arguments"),
    ({"session_id": "s2"}, "another client session"),
    ({"session_id": None}, "another client session"),
])
def test_cursor_bound_to_tool_arguments_and_session(other, needle):
    store = ResultStore()
    cursor = first_page(store, session_id="s1")["next_cursor"]
    opts = {"session_id": "s1", **other}
    with pytest.raises(CursorError) as err:
        next_page(store, cursor, **opts)
    assert err.value.reason == "foreign" and needle in str(err.value)
    assert next_page(store, cursor, session_id="s1")["items"][0] == RECS[len(first_page(
        ResultStore(), session_id="s1")["items"])]


def test_a_session_bound_cursor_tells_another_session_nothing_about_its_call():
    store = ResultStore()
    cursor = first_page(store, session_id="alice")["next_cursor"]
    with pytest.raises(CursorError) as err:
        next_page(store, cursor, tool="other_tool", arguments={"x": 1}, session_id="mallory")
    message = str(err.value)
    assert "another client session" in message
    assert "list_users" not in message and "admin" not in message


def test_a_stdio_cursor_does_not_work_in_a_session_and_back():
    store = ResultStore()
    for minted, used in ((None, "s1"), ("s1", None)):
        cursor = first_page(store, session_id=minted)["next_cursor"]
        with pytest.raises(CursorError):
            next_page(store, cursor, session_id=used)


def test_every_single_character_edit_is_rejected():
    store = ResultStore()
    cursor = first_page(store)["next_cursor"]
    assert next_page(store, cursor)["items"]
    for i in range(len(cursor)):
        for ch in ALPHABET + "=.+/ é":
            if ch == cursor[i]:
                continue
            edited = cursor[:i] + ch + cursor[i + 1:]
            with pytest.raises(CursorError) as err:
                next_page(store, edited)
            assert err.value.reason in ("malformed", "tampered"), (i, ch)


def test_other_spellings_of_the_same_bytes_are_rejected():
    store = ResultStore()
    cursor = first_page(store)["next_cursor"]
    raw = token_of(cursor)
    # the last character carries 2 unused bits; padding, spaces and foreign characters are
    # skipped by a lenient decoder: each spelling decodes to the same 43 bytes
    last = ALPHABET.index(cursor[-1])
    variants = [cursor[:-1] + ALPHABET[(last & ~3) | b] for b in range(4) if (last & ~3) | b != last]
    variants += [cursor + "=", cursor[:20] + "." + cursor[20:], " " + cursor, cursor + "\n"]
    for variant in variants:
        assert token_of(variant.strip().replace(".", "")) == raw
        with pytest.raises(CursorError):
            next_page(store, variant)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(garbage=st.one_of(st.text(max_size=120), st.binary(max_size=43).map(
    lambda b: base64.urlsafe_b64encode(b).decode().rstrip("="))))
def test_garbage_cursors_raise_cursor_error_only(garbage):
    with pytest.raises(CursorError):
        next_page(GARBAGE_STORE, garbage or "x")


GARBAGE_STORE = ResultStore()
first_page(GARBAGE_STORE)


def test_expiry_is_the_cursors_own_even_while_its_result_lives_on():
    now = [1_800_000_000.0]
    store = ResultStore(ttl_seconds=600, clock=lambda: now[0])
    c1 = first_page(store)["next_cursor"]
    now[0] += 500
    c2 = next_page(store, c1)["next_cursor"]  # serving page 2 extends the stored result
    now[0] += 200  # c1 is now 700 s old, c2 200 s old
    with pytest.raises(CursorError) as err:
        next_page(store, c1)
    assert err.value.reason == "expired"
    assert next_page(store, c2)["items"]
    now[0] += 601
    with pytest.raises(CursorError) as err:
        next_page(store, c2)
    assert err.value.reason == "expired"


# -- the resource URI ----------------------------------------------------------------------------

def test_the_resource_uri_is_unguessable_and_session_bound():
    store = ResultStore()
    store.resource_uri_prefix = RESULT_URI_PREFIX
    uri = first_page(store, session_id="alice")["resource_uri"]
    entry_id = uri[len(RESULT_URI_PREFIX):]
    assert len(entry_id) == 32 and int(entry_id, 16) >= 0  # 128 bits, hex
    assert read_stored_result(uri, store=store, session_id="alice")
    messages = set()
    other_id = uri[:-1] + ("1" if uri.endswith("0") else "0")
    for who, target in (("mallory", uri), (None, uri), ("alice", other_id),
                        ("alice", RESULT_URI_PREFIX + "../" + entry_id), ("alice", "")):
        with pytest.raises(ResultNotFoundError) as err:
            read_stored_result(target, store=store, session_id=who)
        messages.add(str(err.value))
    assert len(messages) == 1  # foreign, unknown and malformed look the same


# -- bounds under concurrent load ------------------------------------------------------------------

def test_store_bounds_hold_under_concurrent_clients():
    """Eight threads page results of mixed sizes through one store while an observer samples it."""
    store = ResultStore(max_entries=25, max_bytes=400_000)
    stop = threading.Event()
    violations, samples, errors = [], [], []

    def observe():
        while not stop.is_set():
            s = store.stats()
            samples.append(s)
            if s["entries"] > s["max_entries"] or s["bytes"] > s["max_bytes"]:
                violations.append(s)
            with store._lock:  # recount what is really held
                held = sum(e.size_bytes for e in store._entries.values())
                if held != store._bytes or held > store.max_bytes:
                    violations.append({"held": held})

    def client(k: int):
        rnd = random.Random(k)
        deadline = time.monotonic() + 20
        for i in range(60):
            if time.monotonic() > deadline:
                break
            rows = rnd.choice([30, 30, 30, 400])  # ~3 KB or ~40 KB
            value = [{"c": k, "i": i, "r": j, "t": "lorem ipsum " * 6} for j in range(rows)]
            args = {"client": k, "i": i}
            try:
                page = fit_response(value, tool="t", arguments=args, max_tokens=600,
                                    store=store, estimator=FAST, session_id=f"s{k}")
                cursor = page["next_cursor"]
                if cursor and rnd.random() < 0.5:
                    nxt = fit_response(None, tool="t", arguments={**args, "cursor": cursor},
                                       cursor=cursor, max_tokens=600, store=store,
                                       estimator=FAST, session_id=f"s{k}")
                    assert nxt["items"][0] == value[len(page["items"])]
            except CursorError as err:
                if err.reason != "evicted":  # another client's load may evict a result
                    errors.append(err)
            except Exception as err:  # noqa: BLE001 - collected and reported below
                errors.append(err)

    watcher = threading.Thread(target=observe)
    watcher.start()
    clients = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in clients:
        t.start()
    for t in clients:
        t.join(timeout=60)
    stop.set()
    watcher.join()
    assert not errors, errors[:3]
    assert not violations, violations[:3]
    stats = store.stats()
    assert stats["peak_entries"] <= 25 and stats["peak_bytes"] <= 400_000
    assert stats["peak_entries"] == 25 or stats["peak_bytes"] > 300_000  # the bounds were hit
    assert len(samples) > 10
