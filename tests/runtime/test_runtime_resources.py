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
