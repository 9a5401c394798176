"""Stored results as resources, session binding, the low-level helpers, SDK error flavouring."""

from __future__ import annotations

import json
import sys
import types

import pytest

from tokenlint.runtime import (
    RESULT_URI_PREFIX,
    CursorError,
    ResultStore,
    TokenEstimator,
    fit_json_text,
    fit_response,
    read_stored_result,
    register_result_resource,
    session_id_from_context,
    with_cursor_parameter,
)
from tokenlint.runtime.estimator import render_json
from tokenlint.runtime.links import LINKS_ENV, collecting, links_enabled
from tokenlint.runtime.once import RUN_TOOL, calling, serve_call
from tokenlint.runtime.resources import ResultNotFoundError

RECS = [{"i": i, "name": f"n{i}", "pad": "x" * 60} for i in range(300)]


def test_resource_uri_reads_the_full_result_for_the_same_session_only():
    store = ResultStore()
    store.resource_uri_prefix = RESULT_URI_PREFIX
    page = fit_response(RECS, tool="t", arguments={}, max_tokens=800, store=store,
                        session_id="alice")
    uri = page["resource_uri"]
    assert uri.startswith(RESULT_URI_PREFIX)
    assert json.loads(read_stored_result(uri, store=store, session_id="alice")) == RECS
    for other in ("mallory", None):
        with pytest.raises(ResultNotFoundError) as err:
            read_stored_result(uri, store=store, session_id=other)
        assert "no stored result" in str(err.value)
    with pytest.raises(ValueError):
        read_stored_result(RESULT_URI_PREFIX + "0" * 32, store=store, session_id="alice")


def test_no_resource_uri_unless_a_resource_is_registered():
    page = fit_response(RECS, tool="t", arguments={}, max_tokens=800, store=ResultStore())
    assert "resource_uri" not in page


def test_text_results_are_served_as_text():
    store = ResultStore()
    text = "line of text\n" * 3000
    page = fit_response(text, tool="t", arguments={}, max_tokens=800, store=store)
    entry_id = next(iter(store._entries))
    assert page.startswith("line of text")
    assert read_stored_result(entry_id, store=store) == text


def test_session_id_from_context_for_each_sdk_shape():
    assert session_id_from_context(None) is None

    class Headers(dict):
        pass

    ctx2 = types.SimpleNamespace(headers=Headers({"mcp-session-id": "s-2"}))
    assert session_id_from_context(ctx2) == "s-2"
    request = types.SimpleNamespace(headers={"mcp-session-id": "s-1"})
    ctx1 = types.SimpleNamespace(request_context=types.SimpleNamespace(request=request))
    assert session_id_from_context(ctx1) == "s-1"
    stdio = types.SimpleNamespace(request_context=types.SimpleNamespace(request=None))
    assert session_id_from_context(stdio) is None


def test_register_result_resource_refuses_unknown_servers():
    with pytest.raises(TypeError):
        register_result_resource(object())


def test_fit_json_text_is_identical_within_budget_and_measures_its_own_rendering(cl100k):
    rows = [{"name": "数据 🚀 naïve", "i": i} for i in range(3)]
    assert fit_json_text(rows, tool="t", arguments={}) == json.dumps(rows)
    big = [{"name": "数据 🚀 naïve " * 5, "i": i} for i in range(400)]
    store = ResultStore()
    text = fit_json_text(big, tool="t", arguments={"a": 1}, max_tokens=1000, store=store)
    assert cl100k(text) <= 1000  # escaped \\uXXXX rendering counted, not the raw one
    page = json.loads(text)
    assert page["next_action"]["arguments"]["a"] == 1
    nxt = fit_json_text(None, tool="t", arguments=page["next_action"]["arguments"],
                        cursor=page["next_cursor"], max_tokens=1000, store=store)
    assert json.loads(nxt)["items"][0] == big[len(page["items"])]
    assert fit_json_text("plain text", tool="t", arguments={}) == "plain text"


def test_with_cursor_parameter_adds_an_optional_cursor():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    out = with_cursor_parameter(schema)
    assert out["properties"]["cursor"]["type"] == ["string", "null"]
    assert out["required"] == ["n"] and "cursor" not in schema["properties"]


def test_cursor_error_becomes_the_loaded_sdks_tool_error(monkeypatch):
    module = types.ModuleType("fastmcp.exceptions")

    class ToolError(Exception):
        def __init__(self, message: str) -> None:
            super().__init__(message)
            self.log_level = "warning"

    module.ToolError = ToolError
    monkeypatch.setitem(sys.modules, "fastmcp.exceptions", module)
    err = CursorError("cursor expired: call t again without cursor", reason="expired", tool="t")
    assert isinstance(err, ToolError) and isinstance(err, ValueError)
    assert err.log_level == "warning" and err.reason == "expired"
    assert str(err) == "cursor expired: call t again without cursor"


def test_exact_estimator_makes_bigger_pages_than_the_fast_one():
    fast = fit_response(RECS, tool="t", arguments={}, max_tokens=2000, store=ResultStore(),
                        estimator=TokenEstimator("fast"))
    exact = fit_response(RECS, tool="t", arguments={}, max_tokens=2000, store=ResultStore(),
                         estimator=TokenEstimator("exact"))
    assert len(exact["items"]) >= len(fast["items"])


# -- resource links (links.py) and the call-level hook (once.serve_call) -------------------------

def _linked_store() -> ResultStore:
    store = ResultStore()
    store.resource_uri_prefix = RESULT_URI_PREFIX
    return store


@pytest.mark.parametrize("value", [RECS, {"rows": RECS, "count": 300}, "line of text\n" * 3000],
                         ids=["records", "dict", "text"])
def test_the_link_states_the_bytes_and_tokens_of_what_resources_read_returns(value, cl100k):
    store = _linked_store()
    with collecting() as noted:
        fit_response(value, tool="t", arguments={}, max_tokens=800, store=store, session_id="s")
    (link,) = noted
    text = read_stored_result(link.uri, store=store, session_id="s")
    assert link.size_bytes == len(text.encode("utf-8"))
    assert link.exact and link.tokens == cl100k(text)
    assert (json.loads(text) if not isinstance(value, str) else text) == value
    assert link.mime_type == ("text/plain" if isinstance(value, str) else "application/json")
    wire = link.as_wire()
    assert wire["size"] == link.size_bytes and wire["_meta"] == {"tokenlint/tokens": link.tokens}
    assert f"{link.size_bytes:,} bytes, ~{link.tokens:,} tokens" in wire["description"]


def test_page_and_link_fit_the_budget_together(cl100k):
    store = _linked_store()
    sizes = tuple(range(60, 0, -1))  # every count: the page is as large as fits
    with collecting() as noted:
        page = fit_response(RECS, tool="t", arguments={}, max_tokens=800, store=store, page_sizes=sizes)
    assert cl100k(render_json(page)) + cl100k(json.dumps(noted[0].as_wire())) <= 800
    without = fit_response(RECS, tool="t", arguments={}, max_tokens=800, store=_linked_store(),
                           page_sizes=sizes)
    assert len(page["items"]) < len(without["items"])  # the link's room came off the page


def test_no_link_within_budget_outside_a_call_or_without_a_resource():
    with collecting() as noted:
        assert fit_response(RECS[:2], tool="t", arguments={}, store=_linked_store()) == RECS[:2]
        fit_response(RECS, tool="t", arguments={}, max_tokens=800, store=ResultStore())
        with collecting(active=False) as off:
            fit_response(RECS, tool="t", arguments={}, max_tokens=800, store=_linked_store())
    assert noted == [] and off == []


def test_links_env_turns_the_links_off(monkeypatch):
    monkeypatch.setenv(LINKS_ENV, "off")
    assert not links_enabled()
    monkeypatch.setenv(LINKS_ENV, "1")
    assert links_enabled()


def test_a_continuation_is_served_from_the_store_for_its_tool_arguments_and_session(monkeypatch):
    """``calling`` records how a ``tools/call`` whose result is the runtime's text was made;
    ``serve_call`` gives the next page without the tool, and only for the same tool, arguments
    and session."""
    store = ResultStore()
    monkeypatch.setattr("tokenlint.runtime.store._DEFAULT_STORE", store)
    rows = [{"i": i, "pad": "x" * 40} for i in range(300)]
    args = {"q": 1}
    with calling("marker", args) as settle:
        text = fit_json_text(rows, tool="t", arguments=args, max_tokens=800, session_id="s")
        settle(lambda returned: returned == text)
    cursor = json.loads(text)["next_cursor"]
    again = {"q": 1, "cursor": cursor}
    page = serve_call("marker", "t", again, "s")
    assert json.loads(page)["items"][0] == rows[len(json.loads(text)["items"])]
    for other in (serve_call("other", "t", again, "s"), serve_call("marker", "u", again, "s"),
                  serve_call("marker", "t", {"q": 2, "cursor": cursor}, "s"),
                  serve_call("marker", "t", again, "mallory"), serve_call("marker", "t", args, "s")):
        assert other is RUN_TOOL


def test_a_result_wrapped_in_something_else_keeps_no_recipe(monkeypatch):
    store = ResultStore()
    monkeypatch.setattr("tokenlint.runtime.store._DEFAULT_STORE", store)
    with calling("marker", {}) as settle:
        text = fit_json_text(RECS, tool="t", arguments={}, max_tokens=800)
        settle(lambda returned: False)  # e.g. the tool sent the page beside other blocks
    assert serve_call("marker", "t", {"cursor": json.loads(text)["next_cursor"]}, None) is RUN_TOOL


def test_current_session_id_reads_the_session_the_v2_hook_publishes():
    from tokenlint.runtime.resources import current_session_id, session_of_call

    with session_of_call("s-9"):
        assert current_session_id() == "s-9"
    assert current_session_id() is None
    ctx = types.SimpleNamespace(request=types.SimpleNamespace(headers={"mcp-session-id": "s-3"}))
    assert session_id_from_context(ctx) == "s-3"  # mcp 2.x low-level ServerRequestContext
