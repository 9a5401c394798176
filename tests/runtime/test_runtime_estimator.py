"""TokenEstimator: the fast estimate never under-counts by more than 5 % against tiktoken cl100k."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import runtime_corpus as corpus
from tokenlint.runtime import TokenEstimator, estimate_text_tokens, render_json
from tokenlint.runtime.estimator import ExactTokenizerUnavailable

KINDS = ["json_indent2", "json_compact", "python_code", "english_prose", "cjk", "emoji",
         "hex_ids", "base64"]
MAX_UNDER = 0.05  # the bound: never under-count any kind by more than 5 %
MAX_OVER = 0.60  # and stay useful: never more than 60 % over


@pytest.fixture(scope="module")
def samples():
    return corpus.samples(size_chars=12_000)


@pytest.mark.parametrize("kind", KINDS + ["markdown_mixed"])
def test_fast_estimate_is_conservative_per_kind(samples, cl100k, kind):
    for text in samples[kind]:
        exact = cl100k(text)
        est = estimate_text_tokens(text)
        assert est >= exact * (1 - MAX_UNDER), (kind, est, exact)
        assert est <= exact * (1 + MAX_OVER), (kind, est, exact)


@pytest.mark.parametrize("kind", KINDS)
def test_fast_estimate_is_conservative_on_small_pieces(samples, cl100k, kind):
    # pieces the size of one record or one paragraph; sum over pieces, as pages are built
    text = samples[kind][0]
    pieces = [text[i:i + 400] for i in range(0, 4000, 400)]
    assert sum(estimate_text_tokens(p) for p in pieces) >= sum(cl100k(p) for p in pieces) * 0.95


def test_records_as_the_sdk_renders_them(cl100k):
    recs = corpus.records(80, seed=5)
    est = TokenEstimator("fast")
    assert est.count_json_tokens(recs) >= cl100k(json.dumps(recs, indent=2, ensure_ascii=False))
    assert render_json(recs) == json.dumps(recs, indent=2, ensure_ascii=False)


def test_empty_and_tiny_strings():
    assert estimate_text_tokens("") == 0
    assert estimate_text_tokens("a") == 1
    assert estimate_text_tokens(" ") >= 1


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
    assert est.count_text_tokens("hello world") == estimate_text_tokens("hello world")


def test_auto_fits_uses_the_cheap_gate_then_the_exact_count(cl100k):
    est = TokenEstimator("auto")
    text = "word " * 1000  # fast estimate ~1000, exact ~1000
    exact = cl100k(text)
    assert est.fits(text, exact)
    assert not est.fits(text, exact - 1)
    fast = TokenEstimator("fast")  # the estimate alone keeps a 5 % reserve (its error bound)
    assert fast.fits(text, int(estimate_text_tokens(text) / 0.95) + 1)
    assert not fast.fits(text, estimate_text_tokens(text))


def test_collection_estimate_by_sampling(cl100k):
    recs = corpus.records(2000, seed=1)
    est = TokenEstimator("fast")
    sampled = est.estimate_collection_tokens(recs, sample_size=64)
    actual = cl100k(json.dumps(recs, indent=2, ensure_ascii=False))
    assert actual * 0.95 <= sampled <= actual * 1.6
    assert est.estimate_collection_tokens([]) >= 1
    small = recs[:10]
    assert est.estimate_collection_tokens(small) >= cl100k(json.dumps(small, indent=2))


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
        print("ok")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
