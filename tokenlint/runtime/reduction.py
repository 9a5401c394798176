"""Progressive reduction: the largest page of whole records that fits a token budget.

``largest_fitting_count`` tries page sizes from ``page_sizes`` (default 50, 40, 30, 20, 10 records:
design.md), largest first, capped at the records that are left; if even the smallest step does
not fit it binary-searches the largest smaller count (9..1). It never splits a record: 0 means
that a single record is larger than the budget (``fit_response`` then serves that record as text
pages of its JSON). The caller's ``fits(k)`` renders the real page of ``k`` records (envelope and
continuation included) and decides against the budget, so no page is ever over it.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .limits import DEFAULT_PAGE_SIZES

__all__ = ["largest_fitting_count", "candidate_counts"]


def candidate_counts(remaining: int, page_sizes: Sequence[int] = DEFAULT_PAGE_SIZES) -> list[int]:
    """The page sizes tried first, largest first, each capped at ``remaining`` records."""
    sizes = sorted({min(int(s), remaining) for s in page_sizes if int(s) > 0}, reverse=True)
    return [s for s in sizes if s > 0]


def largest_fitting_count(
    remaining: int,
    fits: Callable[[int], bool],
    *,
    page_sizes: Sequence[int] = DEFAULT_PAGE_SIZES,
    too_big: Callable[[int], bool] | None = None,
) -> int:
    """Number of records (0..remaining) for the next page.

    ``fits(k)``: does a page of the next ``k`` records fit the budget (exact decision).
    ``too_big(k)``: optional cheap test that ``k`` records certainly do not fit (skips rendering).
    Returns 0 when not even one record fits.
    """
    if remaining <= 0:
        return 0
    candidates = candidate_counts(remaining, page_sizes)
    for k in candidates:
        if too_big is not None and too_big(k):
            continue
        if fits(k):
            return k
    lo, hi = 0, (candidates[-1] - 1) if candidates else remaining
    while lo < hi:  # largest k in [1, hi] that fits; fits is monotone in k
        mid = (lo + hi + 1) // 2
        if (too_big is None or not too_big(mid)) and fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
