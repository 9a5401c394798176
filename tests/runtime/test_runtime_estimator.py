"""TokenEstimator: proven bounds around tiktoken's cl100k count, exact decisions near a budget."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import runtime_corpus as corpus
from tokenlint.runtime import (
    TokenEstimator,
    estimate_text_tokens,
    render_json,
    text_tokens_upper_bound,
    token_bounds,
)
from tokenlint.runtime.estimator import ExactTokenizerUnavailable

KINDS = ["json_indent2", "json_compact", "python_code", "english_prose", "cjk", "emoji",
         "hex_ids", "base64", "markdown_mixed"]
#: How loose the bounds may be on typical text and still be useful (measured: upper 1.3-4.6x,
#: lower 0.06-0.6x; benchmarks/estimator_speed.py prints them).
MAX_UPPER_RATIO = 5.0


@pytest.fixture(scope="module")
def samples():
    return corpus.samples(size_chars=12_000)


@pytest.mark.parametrize("kind", KINDS)
def test_bounds_hold_and_stay_useful_per_kind(samples, cl100k, kind):
    for text in samples[kind]:
        exact = cl100k(text)
        lower, upper = token_bounds(text)
        assert lower <= exact <= upper, (kind, lower, exact, upper)
        assert upper <= exact * MAX_UPPER_RATIO, (kind, upper, exact)
        assert lower * 20 >= exact, (kind, lower, exact)
        assert text_tokens_upper_bound(text) == upper
        assert token_bounds(text.encode("utf-8")) == (lower, upper)


@pytest.mark.parametrize("kind", KINDS)
def test_bounds_hold_on_every_small_piece(samples, cl100k, kind):
    text = samples[kind][0]
    for i in range(0, 4000, 37):
        piece = text[i:i + 1 + i % 400]
        lower, upper = token_bounds(piece)
        assert lower <= cl100k(piece) <= upper, (kind, piece)


def test_runs_of_spaces_and_digits_are_discounted_only_as_far_as_proven(cl100k):
    assert token_bounds("    ") == (1, 2)  # 4 spaces: one token; at most 2 claimed
    for text in [" " * k for k in range(1, 200)] + ["7" * k for k in range(1, 40)] + \
            ["x" + " " * k + "y" for k in range(1, 100)] + ["٣" + "1" * k + "年" for k in range(8)]:
        lower, upper = token_bounds(text)
        assert lower <= cl100k(text) <= upper, repr(text)
    assert token_bounds("1" * 30)[1] == 10


def test_empty_and_tiny_strings():
    assert token_bounds("") == (0, 0)
    assert text_tokens_upper_bound("") == 0
    assert text_tokens_upper_bound("a") == 1
    assert text_tokens_upper_bound(" ") == 1


def test_the_former_names_keep_working():
    """``estimate_text_tokens`` is the former name of ``text_tokens_upper_bound`` (exported, and
    importable from ``estimator`` as before the split); ``fast_limit`` is deprecated."""
    from tokenlint.runtime import estimator

    assert estimate_text_tokens is text_tokens_upper_bound
    assert estimator.estimate_text_tokens is text_tokens_upper_bound
    assert estimator.token_bounds is token_bounds and estimator.render_json is render_json
    with pytest.warns(DeprecationWarning, match="fast_limit is deprecated"):
        assert TokenEstimator.fast_limit(1234) == 1234


def test_records_as_the_sdk_renders_them(cl100k):
    recs = corpus.records(80, seed=5)
    est = TokenEstimator("fast")
    assert est.count_json_tokens(recs) >= cl100k(json.dumps(recs, indent=2, ensure_ascii=False))
    assert json.loads(render_json(recs)) == recs
    try:
        import pydantic_core
    except ImportError:
        assert render_json(recs) == json.dumps(recs, indent=2, ensure_ascii=False)
    else:  # FastMCP's own rendering once an SDK has imported pydantic_core
        assert render_json(recs) == pydantic_core.to_json(recs, fallback=str, indent=2).decode()


def test_exact_mode_uses_the_offline_encoding(cl100k):
    est = TokenEstimator("exact")
    text = "Hello, world! 日本語 🚀"
    assert est.count_text_tokens(text) == cl100k(text)
    assert est.exact_available


def test_exact_mode_never_downloads():
    with pytest.raises(ExactTokenizerUnavailable):
        TokenEstimator("exact", encoding_name="cl100k_base")  # would be fetched over the network


def test_fast_mode_never_loads_tiktoken():
    est = TokenEstimator("fast")
    assert not est.exact_available
    assert est.count_text_tokens("hello world") == text_tokens_upper_bound("hello world")


def test_fits_is_exact_at_the_budget_and_safe_without_tiktoken(cl100k, samples):
    est = TokenEstimator("auto")
    fast = TokenEstimator("fast")
    for kind in KINDS:
        text = samples[kind][0]
        exact = cl100k(text)
        lower, upper = token_bounds(text)
        assert est.fits(text, exact) and not est.fits(text, exact - 1), kind
        assert fast.fits(text, upper) and not fast.fits(text, upper - 1), kind
        assert not fast.fits(text, exact - 1) and not est.fits(text, lower - 1)


def test_fits_counts_long_texts_in_chunks_that_add_up(cl100k):
    # several chunks of 16,384 characters: chunk counts must add up to the whole count
    text = "".join(corpus.samples(size_chars=60_000, seed=3)["markdown_mixed"])
    exact = cl100k(text)
    est = TokenEstimator("auto")
    assert est.fits(text, exact) and not est.fits(text, exact - 1)


def test_one_giant_word_is_not_counted_and_does_not_fit():
    word = "q" * 200_000  # no position where cl100k surely starts a piece
    est = TokenEstimator("auto")
    lower, upper = token_bounds(word)
    assert not est.fits(word, (lower + upper) // 2)
    assert est.fits(word, upper)


def test_fits_value_bounds_a_long_list_from_its_first_records(cl100k):
    recs = corpus.records(3000, seed=2)
    est = TokenEstimator("auto")
    assert not est.fits_value(recs, 10_000)
    few = recs[:5]
    assert est.fits_value(few, cl100k(render_json(few)))
    assert not est.fits_value(few, cl100k(render_json(few)) - 1)


def test_collection_estimate_by_sampling(cl100k):
    recs = corpus.records(2000, seed=1)
    actual = cl100k(json.dumps(recs, indent=2, ensure_ascii=False))
    sampled = TokenEstimator("auto").estimate_collection_tokens(recs, sample_size=64)
    assert actual * 0.9 <= sampled <= actual * 1.3
    assert TokenEstimator("fast").estimate_collection_tokens(recs) >= actual
    assert TokenEstimator("fast").estimate_collection_tokens([]) >= 1
    small = recs[:10]
    assert TokenEstimator("fast").estimate_collection_tokens(small) >= \
        cl100k(json.dumps(small, indent=2))


def test_runtime_imports_with_the_standard_library_alone():
    code = textwrap.dedent(
        """
        import sys
        allowed = set(sys.stdlib_module_names) | {"tokenlint"}
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] not in allowed:
                    raise ImportError("blocked non-stdlib import: " + name)
        sys.meta_path.insert(0, Block())
        import tokenlint.runtime as rt
        page = rt.fit_response(list(range(5000)), tool="t", arguments={}, max_tokens=500)
        assert page["next_action"]["tool"] == "t"
        assert rt.TokenEstimator().count_text_tokens("hello") >= 1
        assert rt.token_bounds("hello world")[1] >= 2
        print("ok")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_rendering_follows_the_sdk_serving_the_call(monkeypatch):
    """mcp FastMCP/MCPServer send indent=2 JSON, standalone fastmcp compact JSON (its
    ``get_context()`` answers inside a request): pages are measured in the text that is sent."""
    import types

    calls = []

    def to_json(value, *, fallback, indent=None):
        calls.append(indent)
        return json.dumps(value, indent=indent, ensure_ascii=False, default=fallback,
                          separators=(",", ":") if indent is None else None).encode()

    monkeypatch.setitem(sys.modules, "pydantic_core", types.SimpleNamespace(to_json=to_json))
    value = {"rows": [{"id": 1, "name": "数据"}], "n": 1}
    assert render_json(value) == json.dumps(value, indent=2, ensure_ascii=False)
    in_request = [False]

    def get_context():
        if not in_request[0]:
            raise RuntimeError("No active context found.")
        return object()

    deps = types.SimpleNamespace(get_context=get_context)
    monkeypatch.setitem(sys.modules, "fastmcp.server.dependencies", deps)
    assert render_json(value) == json.dumps(value, indent=2, ensure_ascii=False)
    in_request[0] = True
    compact = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert render_json(value) == compact
    assert TokenEstimator("fast").fits_value(value, len(compact.encode()))
    assert calls[-2:] == [None, None]
    assert render_json(value, indent=None) == json.dumps(value, ensure_ascii=False)
