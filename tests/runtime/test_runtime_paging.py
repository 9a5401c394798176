"""fit_response, progressive reduction, text pages, cursors, the store, summaries, merging."""

from __future__ import annotations

import json
import random

import pytest

import runtime_corpus as corpus
from tokenlint.runtime import (
    DEFAULT_MAX_RESPONSE_TOKENS,
    CursorError,
    ResultStore,
    TokenEstimator,
    fingerprint_arguments,
    fit_response,
    join_text_pages,
    largest_fitting_count,
    merge_pages,
    parse_text_page,
    render_json,
    summarize_omitted,
)
from tokenlint.runtime.collector import _TextPage, page_next_action
from tokenlint.runtime.text_pages import find_fences, split_text

FAST = TokenEstimator("fast")
EXACT = TokenEstimator("auto")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def follow(value, *, cl100k, max_tokens=1500, estimator=FAST, store=None, tool="t",
           arguments=None, session_id=None):
    """Serve every page; check each against the budget with tiktoken; return (pages, merged)."""
    store = store or ResultStore()
    arguments = dict(arguments or {"q": "x"})
    page = fit_response(value, tool=tool, arguments=arguments, max_tokens=max_tokens,
                        store=store, estimator=estimator, session_id=session_id)
    pages = []
    for _ in range(2000):
        text = page if isinstance(page, str) else render_json(page)
        assert cl100k(text) <= max_tokens
        parsed = parse_text_page(page) if isinstance(page, str) else None
        pages.append(_TextPage(parsed) if parsed else page)
        action = page_next_action(pages[-1])
        if action is None:
            break
        assert action["tool"] == tool
        assert {k: v for k, v in action["arguments"].items() if k != "cursor"} == \
            {k: v for k, v in arguments.items() if k != "cursor"}
        page = fit_response("ignored", tool=tool, arguments=action["arguments"],
                            cursor=action["arguments"]["cursor"], max_tokens=max_tokens,
                            store=store, estimator=estimator, session_id=session_id)
    return pages, merge_pages(pages)


# -- identity ----------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [[{"a": 1}], {"rows": [1, 2], "n": 2}, "short text", 42, None,
                                   {"no": "list"}, []])
def test_within_budget_returns_the_very_same_object(value):
    assert fit_response(value, tool="t", arguments={}) is value


def test_default_budget_is_claude_codes_warning_threshold():
    assert DEFAULT_MAX_RESPONSE_TOKENS == 10_000


# -- records -----------------------------------------------------------------------------------

@pytest.mark.parametrize("estimator", [FAST, EXACT], ids=["fast", "exact"])
def test_record_pages_fit_and_lose_nothing(cl100k, estimator):
    recs = corpus.records(400, seed=2)
    pages, merged = follow(recs, cl100k=cl100k, estimator=estimator, max_tokens=3000)
    assert merged == recs
    sizes = [len(p["items"]) for p in pages]
    assert sizes[0] in (10, 20, 30, 40, 50) or sizes[0] < 10
    assert pages[0]["total"] == 400 and pages[0]["page"].startswith("items 1-")


def test_progressive_reduction_tries_50_40_30_20_10_then_fewer():
    tried = []

    def fits(k):
        tried.append(k)
        return k <= 7

    assert largest_fitting_count(500, fits) == 7
    assert tried[:5] == [50, 40, 30, 20, 10]
    assert largest_fitting_count(500, lambda k: k <= 35) == 30
    assert largest_fitting_count(12, lambda k: True) == 12
    assert largest_fitting_count(500, lambda k: False) == 0
    assert largest_fitting_count(500, lambda k: k <= 60, page_sizes=(100, 60)) == 60


def test_page_of_50_when_records_are_small(cl100k):
    recs = [{"i": i} for i in range(3000)]
    pages, merged = follow(recs, cl100k=cl100k, max_tokens=1000, estimator=EXACT)
    assert merged == recs
    assert {len(p["items"]) for p in pages} == {50}


def test_dict_holding_a_list(cl100k):
    value = {"query": "select", "rows": corpus.records(200, seed=3), "count": 200}
    pages, merged = follow(value, cl100k=cl100k, max_tokens=2500)
    assert all(p["query"] == "select" and p["count"] == 200 for p in pages)
    assert merged["rows"] == value["rows"] and merged["query"] == "select"


def test_a_record_larger_than_the_budget_is_served_as_json_text_pages(cl100k):
    rnd = random.Random(1)
    huge = {"id": 2, "blob": " ".join(f"{rnd.getrandbits(40):x}" for _ in range(4000))}
    recs = [{"id": 0}, {"id": 1}, huge, {"id": 3}]
    pages, merged = follow(recs, cl100k=cl100k, max_tokens=800)
    assert merged == recs
    parts = [p for p in pages if "item_json" in p]
    assert len(parts) > 3 and all(p["items"] == [] for p in parts)
    assert parts[0]["item_index"] == 2 and parts[-1]["item_part"] == parts[-1]["item_parts"]


def test_a_non_list_value_larger_than_the_budget(cl100k):
    value = {"text": "lorem ipsum " * 3000, "n": 1}
    pages, merged = follow(value, cl100k=cl100k, max_tokens=1000)
    assert merged == value and len(pages) > 3


def test_omitted_summary_on_the_first_page_only(cl100k):
    recs = [{"id": i, "role": ["a", "b"][i % 2], "score": i / 3} for i in range(500)]
    pages, _ = follow(recs, cl100k=cl100k, max_tokens=1200)
    first = pages[0]
    n = len(first["items"])
    assert first["omitted"]["count"] == 500 - n
    assert first["omitted"]["fields"] == {"id": "int", "role": "str", "score": "float"}
    rest = recs[n:]
    assert first["omitted"]["value_counts"] == {
        "role": {"a": sum(r["role"] == "a" for r in rest), "b": sum(r["role"] == "b" for r in rest)}}
    assert all("omitted" not in p for p in pages[1:])


def test_summarize_omitted_shapes():
    s = summarize_omitted([{"k": "x", "id": i, "tags": [1]} for i in range(20)])
    assert s == {"count": 20, "fields": {"id": "int", "k": "str", "tags": "list"},
                 "value_counts": {"k": {"x": 20}}}
    assert summarize_omitted([1, "a"]) == {"count": 2, "types": ["int", "str"]}


# -- text --------------------------------------------------------------------------------------

def test_text_pages_fit_join_back_and_have_the_footer(cl100k):
    text = corpus.samples(size_chars=30_000)["english_prose"][0]
    pages, merged = follow(text, cl100k=cl100k, max_tokens=1000, tool="read_file",
                           arguments={"path": "a.txt"})
    assert merged == text
    n = len(pages)
    assert n > 3
    for k, p in enumerate(pages, 1):
        assert (p["page"], p["pages"]) == (k, n)
        assert p["page_tokens"] > 0 and p["total_tokens"] >= p["page_tokens"]
    assert pages[-1]["next_action"] is None
    assert pages[0]["next_action"]["arguments"]["path"] == "a.txt"


def test_footer_format():
    store = ResultStore()
    page = fit_response("word " * 5000, tool="cat", arguments={"f": 1}, max_tokens=1000,
                        store=store, estimator=FAST)
    lines = page.splitlines()
    assert lines[-2].startswith("--- Page 1 of ") and lines[-2].endswith(" ---")
    assert "tokens of ~" in lines[-2]
    assert lines[-1].startswith("next_action: ")
    action = json.loads(lines[-1][len("next_action: "):])
    assert action["tool"] == "cat" and action["arguments"]["f"] == 1 and action["arguments"]["cursor"]


def _split(text, budget_tokens):
    return split_text(text, count_tokens=FAST.fast_text_tokens,
                      fits=lambda body: FAST.fits(body, budget_tokens),
                      body_budget_tokens=budget_tokens)


def test_cuts_fall_on_paragraph_line_or_word_boundaries():
    rnd = random.Random(4)
    words = ["alpha", "beta", "gamma", "delta", "epsilon"]
    paras = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(5, 60))) for _ in range(200)]
    text = "\n\n".join(paras)
    pages = _split(text, 300)
    assert "".join(text[p.start:p.end] for p in pages) == text
    for p in pages[:-1]:
        assert text[p.end - 1].isspace(), repr(text[p.end - 20:p.end + 5])
    one_line = " ".join(rnd.choice(words) for _ in range(3000))
    for p in _split(one_line, 200)[:-1]:
        assert one_line[p.end - 1] == " "
    no_spaces = "x" * 5000
    assert "".join(no_spaces[p.start:p.end] for p in _split(no_spaces, 100)) == no_spaces


def test_cut_never_inside_a_fenced_block_that_fits():
    block = "```python\n" + "".join(f"x_{i} = {i}\n" for i in range(40)) + "```\n"
    text = ("Some prose here. " * 30 + "\n\n" + block + "\n") * 12
    fences = find_fences(text)
    assert len(fences) == 12
    for p in _split(text, 800):
        for f in fences:
            assert not (f.start < p.end < f.end), "cut inside a fenced block"
        assert p.close is None and p.reopen is None


def test_a_block_larger_than_a_page_is_closed_and_reopened(cl100k):
    block = "~~~~sql\n" + "".join(f"SELECT {i} FROM t WHERE x = '{i}';\n" for i in range(600)) \
        + "~~~~\n"
    text = "Intro paragraph.\n\n" + block + "\nAfter the block.\n"
    pages, merged = follow(text, cl100k=cl100k, max_tokens=800)
    assert merged == text
    bodies = [p["body"] for p in pages]
    assert pages[0]["continued_fence"] is None and bodies[0] == "Intro paragraph.\n\n"
    middle = pages[1:-1]
    assert all(p["continued_fence"] == "~~~~sql" for p in middle)
    for b in bodies[1:]:
        assert b.count("~~~~") % 2 == 0
        assert b.startswith("~~~~sql\n")
    for b in bodies[1:-1]:
        assert b.endswith("\n~~~~")


def test_join_text_pages_without_fences():
    parsed = [{"body": "ab", "continued_fence": None}, {"body": "cd", "continued_fence": None}]
    assert join_text_pages(parsed) == "abcd"


# -- cursors -----------------------------------------------------------------------------------

def first_cursor(value, store, **kw):
    opts = dict(tool="list_users", arguments={"role": "admin"}, max_tokens=500, store=store,
                estimator=FAST)
    opts.update(kw)
    page = fit_response(value, **opts)
    return page["next_cursor"], page


def test_cursor_is_opaque_unguessable_and_bound():
    store = ResultStore()
    recs = [{"i": i, "pad": "x" * 50} for i in range(200)]
    c1, page = first_cursor(recs, store)
    c2, _ = first_cursor(recs, store)
    assert c1 != c2 and len(c1) >= 43  # >= 128 random bits plus a MAC, base64url
    assert page["next_action"] == {"tool": "list_users",
                                   "arguments": {"role": "admin", "cursor": c1}}
    nxt = fit_response(None, tool="list_users", arguments={"role": "admin", "cursor": c1},
                       cursor=c1, max_tokens=500, store=store, estimator=FAST)
    assert nxt["items"][0] == recs[len(page["items"])]


def test_fingerprint_ignores_the_cursor_argument():
    assert fingerprint_arguments({"a": 1, "cursor": "x"}) == fingerprint_arguments({"a": 1})
    assert fingerprint_arguments({"a": 1}) != fingerprint_arguments({"a": 2})


@pytest.mark.parametrize("kw,reason,needle", [
    ({"tool": "other"}, "foreign", "cursor belongs to tool list_users"),
    ({"arguments": {"role": "viewer"}}, "foreign", "different arguments"),
    ({"session_id": "s2"}, "foreign", "another client session"),
])
def test_foreign_cursors_are_rejected(kw, reason, needle):
    store = ResultStore()
    c, _ = first_cursor([{"i": i, "pad": "x" * 50} for i in range(200)], store, session_id="s1")
    opts = dict(tool="list_users", arguments={"role": "admin"}, max_tokens=500, store=store,
                session_id="s1")
    opts.update(kw)
    with pytest.raises(CursorError) as err:
        fit_response(None, cursor=c, **opts)
    assert err.value.reason == reason
    assert needle in str(err.value)
    assert f"call {opts['tool']} again without cursor" in str(err.value)


def test_tampered_and_garbage_cursors_are_rejected():
    store = ResultStore()
    c, _ = first_cursor([{"i": i, "pad": "x" * 50} for i in range(200)], store)
    for bad in (c[:10] + ("A" if c[10] != "A" else "B") + c[11:], "garbage", "", c + "AA"):
        with pytest.raises(CursorError) as err:
            fit_response(None, tool="list_users", arguments={"role": "admin"}, cursor=bad or "x",
                         store=store)
        assert "call list_users again without cursor" in str(err.value)
        assert isinstance(err.value, ValueError)


def test_expired_cursor():
    clock = Clock()
    store = ResultStore(ttl_seconds=600, clock=clock)
    c, _ = first_cursor([{"i": i, "pad": "x" * 50} for i in range(200)], store)
    clock.now += 601
    with pytest.raises(CursorError) as err:
        fit_response(None, tool="list_users", arguments={"role": "admin"}, cursor=c, store=store)
    assert str(err.value) == "cursor expired: call list_users again without cursor"
    assert err.value.reason == "expired"


def test_evicted_result():
    store = ResultStore(max_entries=1)
    recs = [{"i": i, "pad": "x" * 50} for i in range(200)]
    c, _ = first_cursor(recs, store)
    first_cursor(recs, store)  # evicts the first result
    with pytest.raises(CursorError) as err:
        fit_response(None, tool="list_users", arguments={"role": "admin"}, cursor=c, store=store)
    assert err.value.reason == "evicted"
    assert "call list_users again without cursor" in str(err.value)


# -- store -------------------------------------------------------------------------------------

def test_store_bounded_in_entries_and_bytes_lru_and_ttl():
    clock = Clock()
    store = ResultStore(max_entries=10, max_bytes=50_000, ttl_seconds=60, clock=clock)
    for i in range(1000):
        fit_response([{"call": i, "pad": "y" * 100} for _ in range(60)], tool="many",
                     arguments={"i": i}, max_tokens=500, store=store, estimator=FAST)
        stats = store.stats()
        assert stats["entries"] <= 10 and stats["bytes"] <= 50_000
    clock.now += 61
    assert all(store.get(k) is None for k in list(store._entries))
    assert len(store) == 0 or store.size_bytes >= 0


def test_result_too_large_for_the_store_says_so():
    store = ResultStore(max_bytes=1000)
    page = fit_response([{"i": i, "pad": "z" * 100} for i in range(100)], tool="t",
                        arguments={}, max_tokens=500, store=store, estimator=FAST)
    assert page["next_action"] is None and "narrow the query" in page["note"]


# -- merging -----------------------------------------------------------------------------------

def test_merge_strategies():
    pages = [{"items": [1, 2], "total": 4, "meta": {"a": [1], "x": 1}, "next_action": {"tool": "t"}},
             {"items": [3, 4], "total": 4, "meta": {"a": [2], "x": 2}, "next_action": None}]
    assert merge_pages(pages) == {"items": [1, 2, 3, 4], "total": 4, "meta": {"a": [1, 2], "x": 1}}
    assert merge_pages([{"items": [1], "total": 2, "next_action": {"tool": "t"}},
                        {"items": [2], "total": 2, "next_action": None}]) == [1, 2]
    assert merge_pages(pages, "first") is pages[0]
    assert merge_pages(pages, "last") is pages[1]
    assert merge_pages(pages, lambda ps: len(ps)) == 2
    with pytest.raises(ValueError):
        merge_pages(pages, "nope")


def test_paged_annotation_validates_value_and_envelope():
    pydantic = pytest.importorskip("pydantic")
    from tokenlint.runtime import Paged

    adapter = pydantic.TypeAdapter(Paged[list[dict]])
    assert adapter.validate_python([{"a": 1}]) == [{"a": 1}]
    recs = [{"i": i, "pad": "x" * 50} for i in range(200)]
    page = fit_response(recs, tool="t", arguments={}, max_tokens=500, store=ResultStore())
    assert adapter.validate_python(page) == page
    with pytest.raises(pydantic.ValidationError):
        adapter.validate_python({"not": "a page"})
    assert pydantic.TypeAdapter(Paged[str]).validate_python("text page") == "text page"
