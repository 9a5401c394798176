"""How long fit_response takes on big results (first page, then every page), fast and exact.

    python benchmarks/runtime_paging.py

Inputs: ~1 MB of records (as indent=2 JSON) and ~1 MB of markdown text; budget 10,000 tokens.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "runtime"))

import runtime_corpus as corpus  # noqa: E402

from tokenlint.runtime import ResultStore, TokenEstimator, fit_response  # noqa: E402
from tokenlint.runtime.collector import page_next_action  # noqa: E402


def run(value, estimator) -> tuple[float, float, int]:
    store = ResultStore()
    t0 = time.perf_counter()
    page = fit_response(value, tool="t", arguments={}, store=store, estimator=estimator)
    first = time.perf_counter() - t0
    pages = 1
    while True:
        if isinstance(page, str):
            line = page.rsplit("\n", 1)[-1]
            action = None if not line.startswith("next_action: ") else __import__("json").loads(
                line[len("next_action: "):])
        else:
            action = page_next_action(page)
        if action is None:
            break
        page = fit_response(None, tool="t", arguments=action["arguments"],
                            cursor=action["arguments"]["cursor"], store=store, estimator=estimator)
        pages += 1
    return first, time.perf_counter() - t0, pages


def main() -> None:
    records = corpus.records(3300, seed=1)
    text = "".join(corpus.samples(size_chars=60_000)["markdown_mixed"])
    text = (text * (1_000_000 // len(text) + 1))[:1_000_000]
    print(f"{'input':22s} {'estimator':9s} {'first page':>11s} {'all pages':>10s} {'pages':>6s}")
    for name, value in (("3300 records (~1.3 MB)", records), ("1 MB markdown", text)):
        for mode in ("fast", "exact"):
            first, total, pages = run(value, TokenEstimator(mode))
            print(f"{name:22s} {mode:9s} {first * 1000:8.0f} ms {total * 1000:7.0f} ms {pages:6d}")


if __name__ == "__main__":
    main()
