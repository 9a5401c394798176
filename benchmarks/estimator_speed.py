"""Time to estimate a 1 MB payload with tokenlint.runtime, per content kind (goal: under 10 ms).

    python benchmarks/estimator_speed.py [--repeat 15] [--budget 10000]

For 1 MB (10^6 bytes of UTF-8) of each content kind, on one core:

* ``upper``: ``text_tokens_upper_bound`` - the fast count, a proven upper bound;
* ``bounds``: ``token_bounds`` - lower and upper bound together;
* ``fits``: ``TokenEstimator().fits(text, budget)`` - the decision ``fit_response`` makes (exact
  counting only near the budget);
* ``tiktoken``: the exact count, for reference.

Then the same decision for a list of records of ~1 MB as JSON (``fits_value``), rendered the
standard-library way and, when ``pydantic_core`` is importable (run this with an SDK venv's
python), the SDK's way. Each figure is the median over ``--repeat`` runs of the CPU time of the
thread (``time.thread_time``: other processes on a shared machine do not inflate it) and, in
brackets, the fastest wall-clock run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "runtime"))

import runtime_corpus as corpus  # noqa: E402

from tokenlint.runtime import TokenEstimator, text_tokens_upper_bound, token_bounds  # noqa: E402

KINDS = ["json_indent2", "json_compact", "python_code", "english_prose", "cjk", "emoji",
         "hex_ids", "base64", "markdown_mixed"]


def timed(fn, repeat: int) -> tuple[float, float]:
    """(median thread CPU ms, fastest wall ms) of ``repeat`` calls."""
    cpu, wall = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.thread_time()
        fn()
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu) * 1000, min(wall) * 1000


def fmt(t: tuple[float, float]) -> str:
    return f"{t[0]:6.1f} ({t[1]:5.1f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--budget", type=int, default=10_000)
    opts = ap.parse_args()
    est = TokenEstimator()
    exact_ok = est.exact_available
    enc = est._get_encoding()
    samples = corpus.samples(size_chars=60_000, seed=1)
    print(f"1 MB of text, ms: median thread CPU (fastest wall); budget {opts.budget:,} tokens")
    print(f"{'kind':16s} {'upper':>14s} {'bounds':>14s} {'fits':>14s} {'tiktoken':>14s}  "
          f"decision")
    worst = 0.0
    for kind in KINDS:
        text = "".join(samples[kind])
        text = (text * (1_000_000 // len(text) + 1)).encode()[:1_000_000].decode("utf-8", "ignore")
        t_upper = timed(lambda: text_tokens_upper_bound(text), opts.repeat)
        t_bounds = timed(lambda: token_bounds(text), opts.repeat)
        t_fits = timed(lambda: est.fits(text, opts.budget), opts.repeat)
        t_exact = timed(lambda: enc.encode(text, disallowed_special=()), 3) if exact_ok else None
        worst = max(worst, t_upper[0], t_fits[0])
        print(f"{kind:16s} {fmt(t_upper)} {fmt(t_bounds)} {fmt(t_fits)} "
              f"{fmt(t_exact) if t_exact else '-':>14s}  "
              f"{'fits' if est.fits(text, opts.budget) else 'over'}")

    recs = corpus.records(2600, seed=2)
    size_mb = len(json.dumps(recs, indent=2, ensure_ascii=False).encode()) / 1e6
    print(f"\n{len(recs)} records ({size_mb:.2f} MB as indent=2 JSON), fits_value(records, "
          f"{opts.budget:,}), ms")
    sdk = sys.modules.pop("pydantic_core", None)
    t_std = timed(lambda: est.fits_value(recs, opts.budget), opts.repeat)
    print(f"{'standard library':24s} {fmt(t_std)}  (prefix of the records, C json encoder)")
    worst = max(worst, t_std[0])
    try:
        import pydantic_core  # noqa: F401 - makes render_json use the SDK's own renderer
    except ImportError:
        print(f"{'pydantic_core (SDK)':24s} not installed here: run with an SDK venv's python")
    else:
        t_sdk = timed(lambda: est.fits_value(recs, opts.budget), opts.repeat)
        print(f"{'pydantic_core (SDK)':24s} {fmt(t_sdk)}  (whole value, SDK renderer)")
        worst = max(worst, t_sdk[0])
    if sdk is not None:
        sys.modules["pydantic_core"] = sdk
    print(f"\nslowest median: {worst:.1f} ms (goal: under 10 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
