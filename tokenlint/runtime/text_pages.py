"""Text pages: cut a long str into pages that fit a token budget, and the page footer.

Cuts fall at a paragraph break, else a line break, else a word boundary, within
``BOUNDARY_WINDOW_CHARS`` (200) characters before the point where the budget runs out; failing
that, at that point. A cut never falls inside a fenced code block (```` ``` ```` or ``~~~``): the
page ends before the block, unless the block alone is larger than a page; then the block is cut at
a line, its fence is closed at the end of the page (``"\\n" + fence``) and reopened with the
block's opening line at the start of the next page, and the footer records it
(``continued_fence: "<opening line>"``) so ``parse_text_page``/``join_text_pages`` remove exactly
what was added: joining the pages gives back the text character for character.

Footer (on every page)::

    \\n\\n--- Page K of N (~T tokens of ~TOTAL) ---
    continued_fence: "```python"                           (only when the block goes on)
    next_action: {"tool": "read_file", "arguments": {...}} (every page but the last)

T and TOTAL are tokens (T: this page's body, TOTAL: the whole text).
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from .limits import BOUNDARY_WINDOW_CHARS

__all__ = ["TextPage", "split_text", "format_footer", "parse_text_page", "join_text_pages",
           "find_fences", "Fence"]

_SEGMENT_CHARS = 512
_FENCE_RE = re.compile(r"^( {0,3})(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
_FOOTER_RE = re.compile(
    r"\n\n--- Page (?P<page>\d+) of (?P<pages>\d+) \(~(?P<tokens>\d+) tokens of ~(?P<total>\d+)\) ---"
    r"(?:\ncontinued_fence: (?P<fence>\"(?:[^\"\\\n]|\\.)*\"))?"
    r"(?:\nnext_action: (?P<next>\{[^\n]*\}))?\Z"
)


@dataclass(frozen=True)
class Fence:
    """A fenced code block: ``start``..``end`` (chars, end exclusive, closing line included),
    ``opener`` its opening line (without newline), ``body_start`` the char after that line,
    ``closer`` the fence string that closes it (indentation + fence characters)."""

    start: int
    body_start: int
    end: int
    opener: str
    closer: str


@dataclass(frozen=True)
class TextPage:
    """One page of a text: ``text[start:end]`` (chars), optionally reopened inside a code block
    (``reopen``: the block's opening line, put first) and closed (``close``: fence string, put
    last)."""

    start: int
    end: int
    reopen: str | None = None
    close: str | None = None

    def body(self, text: str) -> str:
        """The page's text as served (before the footer)."""
        out = text[self.start:self.end]
        if self.reopen is not None:
            out = self.reopen + "\n" + out
        if self.close is not None:
            out = out + "\n" + self.close
        return out


def find_fences(text: str) -> list[Fence]:
    """Fenced code blocks of ``text`` in order (an unclosed block runs to the end)."""
    fences: list[Fence] = []
    pos = 0
    n = len(text)
    while True:
        m = _FENCE_RE.search(text, pos)
        if m is None:
            break
        indent, chars, info = m.group(1), m.group(2), m.group(3)
        if chars[0] == "`" and "`" in info:
            pos = m.end() + 1
            continue
        body_start = min(n, m.end() + 1)
        closing = re.compile(r"^ {0,3}" + re.escape(chars[0]) + "{" + str(len(chars)) + r",}[ \t]*$",
                             re.MULTILINE)
        c = closing.search(text, body_start) if body_start <= n else None
        end = n if c is None else min(n, c.end() + 1)
        fences.append(Fence(m.start(), body_start, end, text[m.start():m.end()], indent + chars))
        pos = end
        if pos >= n:
            break
    return fences


def _segments(text: str) -> list[int]:
    """Boundaries (char offsets) of small segments: after each newline, and every ~512 chars
    (preferably after a space) inside long lines. Starts with 0, ends with len(text)."""
    bounds = [0]
    n = len(text)
    pos = 0
    while pos < n:
        nl = text.find("\n", pos, pos + _SEGMENT_CHARS)
        if nl >= 0:
            pos = nl + 1
        else:
            limit = min(n, pos + _SEGMENT_CHARS)
            if limit < n:
                sp = text.rfind(" ", pos + _SEGMENT_CHARS // 2, limit)
                limit = sp + 1 if sp >= 0 else limit
            pos = limit
        bounds.append(pos)
    return bounds


def _boundary(text: str, pos: int, end: int, window: int) -> int:
    """Best cut in ``(pos, end]``: paragraph, line, word boundary within ``window`` chars of end."""
    lo = max(pos + 1, end - window)
    i = text.rfind("\n\n", lo - 2 if lo - 2 > pos else pos, end)
    if i >= 0 and pos < i + 2 <= end:
        return i + 2
    i = text.rfind("\n", lo - 1, end)
    if i >= 0 and pos < i + 1 <= end:
        return i + 1
    for j in range(end - 1, lo - 2, -1):
        if j > pos and text[j - 1].isspace() and not text[j].isspace():
            return j
    return end


def split_text(
    text: str,
    *,
    count_tokens: Callable[[str], int],
    fits: Callable[[str], bool],
    body_budget_tokens: int,
    window_chars: int = BOUNDARY_WINDOW_CHARS,
    respect_fences: bool = True,
) -> list[TextPage]:
    """Cut ``text`` into pages whose body fits.

    ``count_tokens(s)`` estimates the tokens of a piece (used, summed over small segments, to find
    the cut point quickly); ``fits(body)`` is the final word on a page body (the budget check,
    footer reserve included by the caller); ``body_budget_tokens`` is the budget for one body, in
    tokens. Every page holds at least one character, so a budget below a few tokens can overflow;
    callers keep budgets sane (``fit_response`` requires at least 50 tokens).

    Returns the pages in order; their ``start``..``end`` ranges (characters) cover ``text``
    without gap or overlap; one empty page for an empty text.
    """
    n = len(text)
    if n == 0:
        return [TextPage(0, 0)]
    bounds = _segments(text)
    prefix = [0]
    for a, b in zip(bounds, bounds[1:]):
        prefix.append(prefix[-1] + count_tokens(text[a:b]))
    fences = find_fences(text) if respect_fences else []
    fence_starts = [f.start for f in fences]

    def fence_at(cut: int) -> Fence | None:
        k = bisect.bisect_right(fence_starts, cut - 1) - 1
        if k >= 0 and fences[k].start < cut < fences[k].end:
            return fences[k]
        return None

    def search_within(a: int, b: int, avail: int) -> int:
        lo, hi = a, b  # largest x in [a, b] with count(text[a:x]) <= avail
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if count_tokens(text[a:mid]) <= avail:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def max_end(pos: int, extra_tokens: int) -> int:
        avail = body_budget_tokens - extra_tokens
        i = bisect.bisect_right(bounds, pos) - 1
        seg_end = bounds[i + 1]
        first = count_tokens(text[pos:seg_end])
        if first > avail:
            return search_within(pos, seg_end, avail)
        j = bisect.bisect_right(prefix, avail - first + prefix[i + 1]) - 1
        j = max(j, i + 1)
        end = bounds[j]
        if j < len(bounds) - 1:
            used = first + prefix[j] - prefix[i + 1]
            end = search_within(end, bounds[j + 1], avail - used)
        return end

    pages: list[TextPage] = []
    pos = 0
    reopen: str | None = None
    while pos < n:
        extra = count_tokens(reopen + "\n") if reopen else 0
        extra += 3  # room for a closing fence
        end = max(pos + 1, max_end(pos, extra))
        # the estimate per segment is additive-ish; make sure the real page fits
        while end > pos + 1 and not fits(TextPage(pos, end, reopen).body(text) + "\n```"):
            end = pos + max(1, int((end - pos) * 0.93))
        if end >= n:
            pages.append(TextPage(pos, n, reopen))
            break
        cut = _boundary(text, pos, end, window_chars)
        close = None
        next_reopen = None
        fence = fence_at(cut) if respect_fences else None
        if fence is not None:
            continuing = reopen is not None and fence.start < pos
            if fence.start > pos and not continuing:
                cut = fence.start  # keep the block whole: it starts the next page
            else:
                if cut < fence.body_start:  # not even the opening line fits: hard cut
                    cut = max(cut, min(end, fence.body_start))
                if cut >= fence.body_start:
                    close = fence.closer
                    next_reopen = fence.opener
        pages.append(TextPage(pos, cut, reopen, close))
        pos = cut
        reopen = next_reopen
    return pages


def format_footer(
    *,
    page: int,
    pages: int,
    page_tokens: int,
    total_tokens: int,
    next_action: dict[str, Any] | None,
    continued_fence: str | None = None,
) -> str:
    """The footer appended to a text page (see the module docstring): a str starting with a blank
    line. ``page`` is 1-based, of ``pages``; ``page_tokens`` (this page's body) and
    ``total_tokens`` (the whole text) are tokens; ``next_action`` is ``response.next_action``'s
    dict (None on the last page); ``continued_fence`` the opening line of a code block the next
    page reopens."""
    out = f"\n\n--- Page {page} of {pages} (~{page_tokens} tokens of ~{total_tokens}) ---"
    if continued_fence is not None:
        out += "\ncontinued_fence: " + json.dumps(continued_fence, ensure_ascii=False)
    if next_action is not None:
        out += "\nnext_action: " + json.dumps(next_action, ensure_ascii=False,
                                              separators=(", ", ": "))
    return out


def parse_text_page(page_text: str) -> dict[str, Any] | None:
    """Split a served text page into its body and footer fields, or None if it has no footer.

    Returns ``{"body", "page", "pages", "page_tokens", "total_tokens", "continued_fence",
    "next_action"}`` (``continued_fence`` and ``next_action`` may be None).
    """
    m = _FOOTER_RE.search(page_text)
    if m is None:
        return None
    return {
        "body": page_text[: m.start()],
        "page": int(m.group("page")),
        "pages": int(m.group("pages")),
        "page_tokens": int(m.group("tokens")),
        "total_tokens": int(m.group("total")),
        "continued_fence": json.loads(m.group("fence")) if m.group("fence") else None,
        "next_action": json.loads(m.group("next")) if m.group("next") else None,
    }


def join_text_pages(parsed_pages: list[dict[str, Any]]) -> str:
    """Rebuild the original text from ``parse_text_page`` results (every page of one text, in
    order), removing the fences added around a split code block: the text character for
    character. Raises ``KeyError`` for a page dict without ``body``."""
    out: list[str] = []
    reopen: str | None = None
    for page in parsed_pages:
        body: str = page["body"]
        if reopen is not None and body.startswith(reopen + "\n"):
            body = body[len(reopen) + 1:]
        fence = page.get("continued_fence")
        if fence is not None:
            closer = re.match(r" {0,3}(`{3,}|~{3,})", fence)
            close = ("\n" + fence[: closer.end()]) if closer else ""
            if close and body.endswith(close):
                body = body[: -len(close)]
            reopen = fence
        else:
            reopen = None
        out.append(body)
    return "".join(out)
