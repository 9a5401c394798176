"""Proven lower and upper bounds on the ``cl100k_base`` token count of a text, standard library only.

Units: every count returned here is in **tokens** of OpenAI's ``cl100k_base`` encoding; lengths are
in characters (``*_chars``) or UTF-8 bytes (``*_bytes``) and say so in their names. Functions whose
names start with ``utf8_`` take the text as its UTF-8 bytes (``as_utf8``).

``token_bounds(text)`` returns ``(lower, upper)`` with ``lower <= tiktoken count <= upper`` for
*every* text, not only typical ones (about 1-6 ms per MB: ``benchmarks/estimator_speed.py``): they
are derived from how ``cl100k_base`` works, from a few facts about its vocabulary, and are computed
with C-level byte scans (``bytes.translate``, ``bytes.count``). The facts, checked against the
vocabulary by ``tests/runtime/test_runtime_estimator_safety.py``:

* every token is 1 to 128 bytes long; no token holds more than 41 ASCII letters, 48 non-ASCII
  bytes, 4 double quotes or 32 newlines;
* every string of 1 to 81 spaces, and every string of 1 to 3 ASCII digits, is a single token.

And two properties of tiktoken's algorithm: the text is first cut into *pieces* by the encoding's
regular expression (ASCII digits in groups of at most 3; a space followed by a non-space character
always in a piece of its own or as the first character of the next word or punctuation run), and
each piece is byte-pair merged until no two adjacent tokens form a token of the vocabulary. Hence:

* upper: one token per byte at most, except that a run of 2 to 81 spaces costs at most 2 tokens
  (two adjacent all-space tokens of at most 81 spaces would have merged) and a run of ``d`` ASCII
  digits at most ``ceil(d / 3)`` (2 more where it touches a non-ASCII character, which could be a
  numeral of the same group);
* lower: at least one token per piece — one per space followed by a printable ASCII character,
  plus one per 3 digits — and at least ``count / max-per-token`` for each byte class above.

The upper bound is 1.5-3x the real count on typical text (JSON ~2.5x, English ~4x, CJK ~2.5x); the
lower bound 0.2-0.5x. They decide most questions "does this fit a budget of N tokens?" without
counting: a 1 MB payload is certainly over any budget below its lower bound.
"""

from __future__ import annotations

from typing import Sequence

__all__ = [
    "token_bounds",
    "text_tokens_upper_bound",
    "estimate_text_tokens",
    "as_utf8",
    "utf8_upper_bound",
    "utf8_lower_bound_parts",
    "utf8_lower_bound_exceeds",
    "lower_bound_from_parts",
    "LOWER_BOUND_PARTS",
    "MAX_TOKEN_BYTES",
    "MAX_LETTERS_PER_TOKEN",
    "MAX_NON_ASCII_BYTES_PER_TOKEN",
    "MAX_QUOTES_PER_TOKEN",
    "MAX_NEWLINES_PER_TOKEN",
    "MAX_SPACE_RUN_TOKEN",
]

# -- facts about cl100k_base (verified against the vocabulary by the safety tests) --------------
#: Longest token, in bytes.
MAX_TOKEN_BYTES = 128
#: Most ASCII letters, non-ASCII bytes, double quotes and newlines in one token.
MAX_LETTERS_PER_TOKEN = 41
MAX_NON_ASCII_BYTES_PER_TOKEN = 48
MAX_QUOTES_PER_TOKEN = 4
MAX_NEWLINES_PER_TOKEN = 32
#: Every run of 1..81 spaces is one token.
MAX_SPACE_RUN_TOKEN = 81

#: Names of the additive counts ``utf8_lower_bound_parts`` returns, in order.
LOWER_BOUND_PARTS = ("markers", "digits", "letters", "quotes", "non_ascii_bytes", "newlines",
                     "bytes")

# Byte tables for the C-level scans. _MARKS: s space, p printable ASCII other than space (a
# space followed by one starts a piece: a "marker"), o anything else. _DIGIT_RUNS: d ASCII digit,
# a ASCII letter, u byte of a non-ASCII character, x anything else.
_MARKS = bytes(ord("s") if b == 32 else ord("p") if 33 <= b <= 126 else ord("o")
               for b in range(256))
# _DIGIT_RUNS also tells letters apart (a), so one translation serves the digit and letter counts.
_DIGIT_RUNS = bytes(ord("d") if 48 <= b <= 57 else ord("u") if b >= 128
                    else ord("a") if chr(b).isalpha() else ord("x") for b in range(256))
_LONG_SPACE_RUN = b" " * (MAX_SPACE_RUN_TOKEN + 1)


def as_utf8(text: str | bytes) -> bytes:
    """``text`` as UTF-8 bytes (lone surrogates kept, ``surrogatepass``); bytes are returned as is."""
    if isinstance(text, bytes):
        return text
    return text.encode("utf-8", "surrogatepass")


def _ceil_div(numerator: int, denominator: int) -> int:
    return -(-numerator // denominator)


def utf8_lower_bound_parts(data: bytes) -> tuple[int, int, int, int, int, int, int]:
    """Additive counts behind the lower bound of the UTF-8 text ``data``, named by
    ``LOWER_BOUND_PARTS``: (markers, digits, letters, quotes, non-ASCII bytes, newlines, bytes); a
    marker is a space followed by a printable ASCII character. The parts of texts joined without
    separators add up; ``lower_bound_from_parts`` turns (summed) parts into tokens."""
    classes = data.translate(_DIGIT_RUNS)
    return (data.translate(_MARKS).count(b"sp"), classes.count(b"d"), classes.count(b"a"),
            data.count(b'"'), 0 if data.isascii() else classes.count(b"u"), data.count(b"\n"),
            len(data))


def lower_bound_from_parts(parts: Sequence[int]) -> int:
    """The lower bound, in tokens, of a text whose ``utf8_lower_bound_parts`` are ``parts``
    (seven ints, possibly summed over several texts); 0 when the text has no bytes."""
    markers, digits, letters, quotes, non_ascii, newlines, n_bytes = parts
    if n_bytes == 0:
        return 0
    return max(1, markers + _ceil_div(digits, 3), _ceil_div(letters, MAX_LETTERS_PER_TOKEN),
               _ceil_div(quotes, MAX_QUOTES_PER_TOKEN),
               _ceil_div(non_ascii, MAX_NON_ASCII_BYTES_PER_TOKEN),
               _ceil_div(newlines, MAX_NEWLINES_PER_TOKEN), _ceil_div(n_bytes, MAX_TOKEN_BYTES))


def utf8_lower_bound_exceeds(data: bytes, max_tokens: int) -> bool:
    """Whether the lower bound of the UTF-8 text ``data`` is over ``max_tokens`` tokens, cheapest
    counts first (the same answer as ``lower_bound_from_parts(...) > max_tokens``, sooner)."""
    if _ceil_div(len(data), MAX_TOKEN_BYTES) > max_tokens or \
            _ceil_div(data.count(b'"'), MAX_QUOTES_PER_TOKEN) > max_tokens:
        return True
    classes = data.translate(_DIGIT_RUNS)
    if data.translate(_MARKS).count(b"sp") + _ceil_div(classes.count(b"d"), 3) > max_tokens:
        return True
    if _ceil_div(classes.count(b"a"), MAX_LETTERS_PER_TOKEN) > max_tokens:
        return True
    if not data.isascii() and \
            _ceil_div(classes.count(b"u"), MAX_NON_ASCII_BYTES_PER_TOKEN) > max_tokens:
        return True
    return _ceil_div(data.count(b"\n"), MAX_NEWLINES_PER_TOKEN) > max_tokens


def utf8_upper_bound(data: bytes) -> int:
    """The proven upper bound (module docstring) of the UTF-8 text ``data``, in tokens.

    One token per byte, less what runs of spaces and digits provably save: a run of k spaces
    (2 <= k <= 81) costs at most 2 tokens, so it saves k - 2 >= 2 * floor(k / 4) (one 4-space
    match per 4 spaces); a run of k digits costs at most ceil(k / 3), so it saves
    k - ceil(k / 3) >= 2 * floor(k / 3) (one 3-digit match per 3 digits), less 2 per side where
    the run touches a non-ASCII character. Counted with non-overlapping ``bytes.count``.
    """
    n = len(data)
    upper = n
    if _LONG_SPACE_RUN not in data:
        upper -= 2 * data.count(b"    ")
    if n > 2 and any(c in data for c in b"0123456789"):
        classes = data.translate(_DIGIT_RUNS)
        triples = classes.count(b"ddd")
        if triples:
            touching = 0 if data.isascii() else classes.count(b"du") + classes.count(b"ud")
            upper -= max(0, 2 * triples - 2 * touching)
    return upper


def token_bounds(text: str | bytes) -> tuple[int, int]:
    """``(lower, upper)`` bounds on the ``cl100k_base`` token count of ``text``, in tokens.

    ``text`` is a str or its UTF-8 bytes. Proven for every input (module docstring), standard
    library only, linear time (about 1-6 ms per MB). ``(0, 0)`` for an empty text. Raises nothing.
    """
    data = as_utf8(text)
    return lower_bound_from_parts(utf8_lower_bound_parts(data)), utf8_upper_bound(data)


def text_tokens_upper_bound(text: str) -> int:
    """A count of ``text`` in tokens that never under-counts: the proven upper bound (``token_bounds``).

    Standard library only; about 1-4 ms per MB. At least 1 for any non-empty text, 0 for ``""``.
    Typical texts count 1.5-3x less with tiktoken (``benchmarks/estimator_speed.py``). Raises
    nothing.
    """
    return utf8_upper_bound(as_utf8(text))


#: The former name of ``text_tokens_upper_bound`` (it returns a proven upper bound, not an
#: estimate), kept so that code written against it keeps working.
estimate_text_tokens = text_tokens_upper_bound
