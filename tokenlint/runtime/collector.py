"""Client side: follow ``next_action`` to the end and merge the pages.

``await collect_pages(session, "list_users", {"role": "admin"})`` calls the tool through an
``mcp`` ``ClientSession`` (1.x or 2.x), follows each page's ``next_action`` (envelope key, or the
``next_action:`` line of a text page's footer) until there is none, and merges the pages with a
strategy:

* ``"merge"`` (default): text pages are joined back into the original text (footers and the
  fences added around split code blocks removed); record pages are merged by extending lists,
  keeping the first scalar and recursing into dicts, with a record split into ``item_json`` parts
  rebuilt from its parts; the continuation keys (``next_cursor``, ``next_action``, ``page``,
  ``omitted``, ``item_*``) are dropped, and a plain list comes back as that list;
* ``"first"`` / ``"last"``: the first / last page as parsed;
* a callable ``f(pages: list) -> Any`` receiving every parsed page.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Sequence

from .text_pages import join_text_pages, parse_text_page

__all__ = ["collect_pages", "merge_pages", "parse_tool_result", "page_next_action"]

_CONTINUATION_KEYS = ("next_cursor", "next_action", "page", "omitted", "resource_uri", "note",
                      "item_json", "item_index", "item_part", "item_parts", "value_json")


class _TextPage(dict):
    """A parsed text page (``parse_text_page`` result)."""


def parse_tool_result(result: Any) -> Any:
    """The value a ``CallToolResult`` carries: structured content if any (unwrapping the SDKs'
    ``{"result": ...}``), else its text blocks parsed as JSON where they are JSON; a text page
    becomes a ``dict`` with its ``body`` and footer fields. Raises ``RuntimeError`` on ``isError``.
    """
    is_error = getattr(result, "isError", None)
    if is_error is None:
        is_error = getattr(result, "is_error", False)
    blocks = getattr(result, "content", []) or []
    texts: list[str] = [t for t in (getattr(b, "text", None) for b in blocks) if t is not None]
    if is_error:
        raise RuntimeError(" ".join(texts) or "tool error")
    structured = getattr(result, "structuredContent", None)
    if structured is None:
        structured = getattr(result, "structured_content", None)
    if structured is not None:
        if isinstance(structured, dict) and list(structured) == ["result"]:
            structured = structured["result"]
        if isinstance(structured, str):
            parsed = parse_text_page(structured)
            return _TextPage(parsed) if parsed else structured
        return structured
    if len(texts) == 1:
        parsed = parse_text_page(texts[0])
        if parsed is not None:
            return _TextPage(parsed)
        try:
            return json.loads(texts[0])
        except ValueError:
            return texts[0]
    values = []
    for t in texts:
        try:
            values.append(json.loads(t))
        except ValueError:
            values.append(t)
    return values


def page_next_action(page: Any) -> dict[str, Any] | None:
    """The ``next_action`` of a parsed page (``parse_tool_result``): a copy of its
    ``{"tool": str, "arguments": {...}}``, or None on the last page or a result never paged."""
    if isinstance(page, Mapping):
        na = page.get("next_action")
        if isinstance(na, Mapping) and "tool" in na:
            return dict(na)
    return None


def _deep_merge(a: Any, b: Any) -> Any:
    if isinstance(a, list) and isinstance(b, list):
        return a + b
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = _deep_merge(out[k], v) if k in out else v
        return out
    return a  # keep the first scalar


def _list_key(page: Mapping[str, Any]) -> str:
    if "items" in page and isinstance(page["items"], list):
        return "items"
    for k, v in page.items():
        if isinstance(v, list):
            return k
    return "items"


def merge_pages(pages: Sequence[Any], strategy: str | Callable[[list[Any]], Any] = "merge") -> Any:
    """Merge parsed pages (``parse_tool_result`` results, in order) with ``strategy`` (see the
    module docstring): for ``"merge"`` the original value (a text, a list of records, a dict
    holding them, or any JSON value), None for no pages.

    Raises ``ValueError`` for an unknown strategy name, or, with ``"merge"``, a page of record
    pages that is not a mapping; ``IndexError`` for ``"first"``/``"last"`` with no pages."""
    pages = list(pages)
    if callable(strategy):
        return strategy(pages)
    if strategy == "first":
        return pages[0]
    if strategy == "last":
        return pages[-1]
    if strategy != "merge":
        raise ValueError(f"unknown strategy {strategy!r}: use 'merge', 'first', 'last' or a callable")
    if not pages:
        return None
    if all(isinstance(p, _TextPage) for p in pages):
        return join_text_pages(pages)
    if len(pages) == 1 and page_next_action(pages[0]) is None and not (
            isinstance(pages[0], Mapping) and "next_action" in pages[0]):
        return pages[0]  # a result that was never paged
    if all(isinstance(p, Mapping) and "value_json" in p for p in pages):
        return json.loads("".join(p["value_json"] for p in pages))
    merged: Any = None
    parts: list[str] = []
    plain_list = True
    for p in pages:
        if not isinstance(p, Mapping):
            raise ValueError(f"cannot merge a page of type {type(p).__name__}")
        page = dict(p)
        key = _list_key(page)
        if "item_json" in page:
            parts.append(page["item_json"])
            if page.get("item_part") == page.get("item_parts"):
                page[key] = [json.loads("".join(parts))]
                parts = []
            else:
                page[key] = []
        extra = set(page) - set(_CONTINUATION_KEYS) - {"items", "total"}
        if extra:
            plain_list = False
        for k in _CONTINUATION_KEYS:
            page.pop(k, None)
        merged = page if merged is None else _deep_merge(merged, page)
    if plain_list and isinstance(merged, dict) and set(merged) <= {"items", "total"}:
        return merged.get("items", [])
    return merged


async def collect_pages(
    session: Any,
    tool: str,
    arguments: Mapping[str, Any] | None = None,
    strategy: str | Callable[[list[Any]], Any] = "merge",
    *,
    max_pages: int = 10_000,
) -> Any:
    """Call ``tool`` and follow ``next_action`` until the last page; return the merged result.

    ``session`` is an initialized ``mcp.ClientSession``. Raises ``RuntimeError`` when a call
    returns an error (e.g. an expired cursor: its message says what to do) or after
    ``max_pages`` pages.
    """
    pages: list[Any] = []
    name, args = tool, dict(arguments or {})
    for _ in range(max_pages):
        result = await session.call_tool(name, args)
        page = parse_tool_result(result)
        pages.append(page)
        action = page_next_action(page)
        if action is None:
            return merge_pages(pages, strategy)
        name, args = action["tool"], dict(action.get("arguments") or {})
    raise RuntimeError(f"{tool}: more than {max_pages} pages")
