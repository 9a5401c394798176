"""The stdio server of ``benchmarks/runtime_overhead.py`` (mcp 1.x FastMCP; run in the bench venv).

Four tools return the same precomputed records, ``n`` of them from dataset ``k`` (each round of
calls uses another dataset, so nothing is cached between calls):

* ``raw``: the records, no ``outputSchema`` - the tool before ``tokenlint fix``;
* ``fitted_plain``: ``fit_response(records, ...)``, no ``outputSchema`` either - the check alone;
* ``annotated``: the records, ``-> Paged[list]`` - only the annotation a rewrite adds, which
  publishes an ``outputSchema`` (and makes the mcp client validate every result against it);
* ``fitted``: ``fit_response(records, ...)`` ``-> Paged[list]`` - the rewritten tool.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "runtime"))

import runtime_corpus as corpus  # noqa: E402
from mcp.server.fastmcp import FastMCP  # noqa: E402

from tokenlint.runtime import Paged, ResultStore, fit_response  # noqa: E402

SIZES = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else [1, 10, 25, 60]
DATASETS = int(sys.argv[2]) if len(sys.argv) > 2 else 16
DATA = {n: [corpus.records(n, seed=1000 * n + k) for k in range(DATASETS)] for n in SIZES}
STORE = ResultStore()

mcp = FastMCP("tokenlint-runtime-overhead", log_level="WARNING")


@mcp.tool(structured_output=False)
def raw(n: int, k: int) -> list:
    return DATA[n][k]


@mcp.tool(structured_output=False)
def fitted_plain(n: int, k: int, cursor: Optional[str] = None) -> list:
    return fit_response(DATA[n][k], tool="fitted_plain",
                        arguments={"n": n, "k": k, "cursor": cursor}, cursor=cursor, store=STORE)


@mcp.tool()
def annotated(n: int, k: int) -> Paged[list]:
    return DATA[n][k]


@mcp.tool()
def fitted(n: int, k: int, cursor: Optional[str] = None) -> Paged[list]:
    return fit_response(DATA[n][k], tool="fitted", arguments={"n": n, "k": k, "cursor": cursor},
                        cursor=cursor, store=STORE)


@mcp.tool()
def cpu_seconds() -> float:
    """CPU time this server process has used (all threads), for the benchmark's accounting."""
    return time.process_time()


if __name__ == "__main__":
    mcp.run()
