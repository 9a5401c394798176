"""Follow every page of a value through ``fit_response`` / ``fit_json_text`` and count each one.

Shared by ``test_runtime_estimator_safety.py`` and ``benchmarks/estimator_safety.py``.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from tokenlint.runtime import (
    ResultStore,
    TokenEstimator,
    fit_json_text,
    fit_response,
    merge_pages,
    parse_text_page,
    render_json,
)
from tokenlint.runtime.collector import _TextPage, page_next_action


def follow_pages(value: Any, *, budget: int, count_tokens: Callable[[str], int],
                 estimator: TokenEstimator | None = None, low_level: bool = False,
                 max_pages: int = 100_000) -> tuple[int, int, bool]:
    """Serve ``value`` with ``fit_json_text`` (``low_level``) or ``fit_response`` (with
    ``estimator``), follow every ``next_action``; return (pages, pages over ``budget`` by
    ``count_tokens``, whether the merged pages are ``value`` again)."""
    store = ResultStore(max_bytes=512 * 1024 * 1024)
    call = fit_json_text if low_level else fit_response
    opts: dict[str, Any] = {"store": store}
    if not low_level:
        opts["estimator"] = estimator
    page = call(value, tool="t", arguments={"q": 1}, max_tokens=budget, **opts)
    pages: list[Any] = []
    over = 0
    for _ in range(max_pages):
        text = page if isinstance(page, str) else render_json(page)
        over += count_tokens(text) > budget
        if low_level and not isinstance(value, str):  # a str value is sent as text
            page = json.loads(text)
        parsed = parse_text_page(page) if isinstance(page, str) else None
        pages.append(_TextPage(parsed) if parsed else page)
        action = page_next_action(pages[-1])
        if action is None:
            break
        page = call(None, tool="t", arguments=action["arguments"], max_tokens=budget,
                    cursor=action["arguments"]["cursor"], **opts)
    else:
        raise AssertionError(f"more than {max_pages} pages")
    merged = merge_pages(pages) if len(pages) > 1 else pages[0]
    if isinstance(value, dict) and isinstance(merged, dict) and "total" not in value:
        merged = {k: v for k, v in merged.items() if k != "total"}  # added by the envelope
    if low_level:  # json round trip: tuples become lists, floats compare by value
        same = json.loads(json.dumps(merged)) == json.loads(json.dumps(value))
    else:
        same = merged == value
    return len(pages), over, same
