"""``computed_once``: continuations served from the result store without running the tool body.

The SDK-level proof (one execution for N pages through the real client on every SDK) is
tests/fix/test_computed_once_e2e.py; these pin the decisions: when a page is served, when the
body runs as before, and which error a dead cursor gets.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import typing

import pytest

from tokenlint.runtime import (
    CURSOR_DESCRIPTION,
    Cursor,
    CursorError,
    ResultStore,
    computed_once,
    fit_json_text,
    fit_response,
    set_default_store,
)
from tokenlint.runtime.redis_store import _dump, _load

ROWS = [{"id": i, "body": "lorem ipsum dolor " * 6} for i in range(200)]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock():
    clock = Clock()
    set_default_store(ResultStore(clock=clock))
    yield clock
    set_default_store(None)


def _tool(runs: list[str], name: str = "rows"):
    @computed_once
    def rows(kind: str = "a", cursor: Cursor = None):
        """Rows of a kind."""
        runs.append(kind)
        return fit_response([dict(r, kind=kind) for r in ROWS], tool=name,
                            arguments={"kind": kind}, cursor=cursor, max_tokens=500)
    return rows


def _follow(call, first):
    pages = [first]
    while pages[-1].get("next_cursor"):
        pages.append(call(pages[-1]["next_action"]["arguments"]))
    return pages


def test_sync_tool_runs_once_for_every_page_losslessly(clock):
    runs: list[str] = []
    rows = _tool(runs)
    pages = _follow(lambda args: rows(**args), rows(kind="b"))
    assert len(pages) > 3
    assert runs == ["b"]
    assert [r["id"] for p in pages for r in p["items"]] == list(range(200))
    assert all(r["kind"] == "b" for p in pages for r in p["items"])


def test_async_tool_and_fit_json_text_run_once(clock):
    runs: list[int] = []

    @computed_once
    async def export(n: int = 200, cursor: Cursor = None) -> str:
        runs.append(n)
        return fit_json_text(ROWS[:n], tool="export", arguments={"n": n}, cursor=cursor,
                             max_tokens=400, indent=1)

    assert inspect.iscoroutinefunction(export)

    async def follow() -> list[dict]:
        pages = [json.loads(await export())]
        while pages[-1].get("next_cursor"):
            pages.append(json.loads(await export(**pages[-1]["next_action"]["arguments"])))
        return pages

    pages = asyncio.run(follow())
    assert len(pages) > 3 and runs == [200]
    assert [r["id"] for p in pages for r in p["items"]] == list(range(200))


def test_signature_and_cursor_schema_are_the_tools_and_decorating_twice_is_once():
    def tool(kind: str = "a", cursor: Cursor = None) -> list:
        """Doc."""
        return []

    wrapped = computed_once(tool)
    assert inspect.signature(wrapped) == inspect.signature(tool)
    assert wrapped.__doc__ == "Doc." and wrapped.__name__ == "tool"
    hints = typing.get_type_hints(wrapped, include_extras=True)
    assert CURSOR_DESCRIPTION in repr(hints["cursor"])
    assert computed_once(wrapped) is wrapped


def test_expired_cursor_gets_the_clear_error_without_running_the_body(clock):
    runs: list[str] = []
    rows = _tool(runs)
    first = rows()
    clock.now += 599  # the entry lives; the cursor of an older page may not
    second = rows(cursor=first["next_cursor"])
    clock.now += 599
    with pytest.raises(CursorError, match="cursor expired: call rows again without cursor"):
        rows(cursor=first["next_cursor"])  # its entry was renewed by the second page
    assert runs == ["a"]
    assert rows(cursor=second["next_cursor"])["items"]  # the renewed cursor still works


def test_unknown_cursor_runs_the_body_and_gets_todays_error(clock):
    runs: list[str] = []
    rows = _tool(runs)
    first = rows()
    clock.now += 601  # the entry expired and is gone
    with pytest.raises(CursorError, match="cursor expired"):
        rows(cursor=first["next_cursor"])
    with pytest.raises(CursorError, match="invalid cursor: it was not issued by this server"):
        rows(cursor="not-a-cursor")
    assert runs == ["a", "a", "a"]


def test_other_arguments_or_other_tool_run_the_body_and_are_refused(clock):
    runs: list[str] = []
    rows, other = _tool(runs), _tool(runs, name="other")
    first = rows(kind="a")
    with pytest.raises(CursorError, match="a call with different arguments"):
        rows(kind="b", cursor=first["next_cursor"])
    with pytest.raises(CursorError, match="cursor belongs to tool rows"):
        other(kind="a", cursor=first["next_cursor"])
    assert runs == ["a", "b", "a"]  # two closures of one factory: the other one ran its body


def test_a_methods_pages_are_served_only_to_its_own_instance(clock):
    class Repo:
        def __init__(self, name: str) -> None:
            self.name, self.runs = name, 0

        @computed_once
        def rows(self, cursor: Cursor = None):
            self.runs += 1
            return fit_response(ROWS, tool=self.name, arguments={}, cursor=cursor, max_tokens=500)

    a, b = Repo("a"), Repo("b")
    first = a.rows()
    assert a.rows(cursor=first["next_cursor"])["items"] and a.runs == 1
    with pytest.raises(CursorError, match="cursor belongs to tool a"):
        b.rows(cursor=first["next_cursor"])
    assert b.runs == 1


def test_page_wrapped_by_the_body_is_not_served_from_the_store(clock):
    runs: list[str] = []

    @computed_once
    def wrapped(cursor: Cursor = None):
        runs.append("run")
        return {"text": fit_json_text(ROWS, tool="wrapped", arguments={}, cursor=cursor,
                                      max_tokens=400)}

    first = json.loads(wrapped()["text"])
    second = json.loads(wrapped(cursor=first["next_cursor"])["text"])
    assert second["items"][0]["id"] == len(first["items"])
    assert runs == ["run", "run"]  # the decorator could not rebuild the dict: the body ran


def test_runtime_calls_outside_the_decorator_or_with_their_own_store_record_nothing(clock):
    page = fit_response(ROWS, tool="t", arguments={}, max_tokens=500)
    assert page["next_cursor"]
    store = ResultStore()

    @computed_once
    def own(cursor: Cursor = None):
        return fit_response(ROWS, tool="own", arguments={}, cursor=cursor, max_tokens=500,
                            store=store)

    own()
    assert all(e.replay is None for e in store._entries.values())


def test_recipe_crosses_a_shared_store_only_as_json(clock):
    runs: list[str] = []
    rows = _tool(runs)
    first = rows()
    from tokenlint.runtime import default_store
    from tokenlint.runtime.cursors import peek_entry_id

    entry = default_store().get(peek_entry_id(first["next_cursor"]))
    assert entry.replay["names"] == ["kind"] and entry.replay["call"] == "fit_response"
    assert _load(entry.entry_id, _dump(entry)).replay == entry.replay
    entry.replay = dict(entry.replay, json_kwargs={"default": str})  # a function: not JSON
    assert _load(entry.entry_id, _dump(entry)).replay is None
