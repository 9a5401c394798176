"""How fast is `tokenlint check` next to ruff and Fixit, on the same trees, in one run (issue 7).

    python benchmarks/speed.py                  # both trees, 5 repetitions (about 10 minutes)
    python benchmarks/speed.py --reps 3 --trees mcp
    python benchmarks/speed.py --fixit-general  # also Fixit on the general tree (~440 s a run)

Set-up, done once and kept in ``--work-dir`` (default ``~/.cache/tokenlint-benchmark``, outside
the repository: Fixit and ruff skip what a ``.gitignore`` above them ignores; ``--fresh`` redoes
it): a virtual environment with ruff, Fixit and tokenlint installed from this repository (a
regular, non-editable install, as users get it; reinstalled on every run so the current code is
measured), and the sources of public MCP server packages downloaded from PyPI
(``pip download --no-deps --no-binary :all:``, pinned versions) and unpacked. Nothing downloaded
is ever committed.

Trees:

- ``general``: the standard library of the interpreter (its top-level entries, without its own
  ``site-packages``) plus the ``site-packages`` of the benchmark environment;
- ``mcp``: the downloaded MCP servers plus this repository's ``fixtures/``.

Commands, run alternately (one of each, then again) so that load from other processes hits all
of them alike; each is run once untimed first (page cache, bytecode):

- ``tokenlint cold``: ``tokenlint check --no-cache`` (nothing read from or written to a cache);
- ``tokenlint warm``: ``tokenlint check`` with a cache filled by an earlier run of the same tree;
- ``ruff ALL`` / ``ruff E,F``: ``ruff check --no-cache --isolated --select ALL`` / ``E,F``;
- ``fixit``: ``fixit lint`` (on the general tree only with ``--fixit-general``);
- ``five files`` (mcp tree): ``tokenlint check`` on five fixture files, as pre-commit passes
  them, cold (``--no-cache``) and warm.

Each run's wall time, CPU time (user + system, the process and its children), peak resident
memory (the largest process of the tree, from ``wait4``) and the 1-minute load average at its
start are printed as it finishes; then per tree the medians, ratios, and the goals of issue 7
with the figures that decide them. Outside the timings, the JSON reports of ``-j 1``, ``-j 2``,
a cache-filling run and a warm run are compared: they must be identical.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tokenlint-benchmark"
VENV = WORK / "venv"
SOURCES = WORK / "mcp-src"

#: Public MCP servers on PyPI (sdists), pinned so that figures stay comparable between runs.
MCP_PACKAGES = [
    "mcp-server-git==2026.10.19", "mcp-server-fetch==2026.10.24", "mcp-server-time==2026.10.19",
    "mcp-server-sqlite==2025.4.25", "mcp-server-docker==0.3.0", "mcp-server-duckdb==1.1.0",
    "mcp-server-kubernetes==0.1.6", "mcp-server-tree-sitter==0.7.0", "mcp-clickhouse==0.7.0",
    "mysql-mcp-server==0.4.4", "postgres-mcp==0.3.0", "chroma-mcp==0.2.6", "filesystem-mcp==1.0.2",
    "better-mcps-filesystem==0.3.0", "github-mcp-readonly==1.2.0", "clr-graylog-mcp==1.0.0",
    "awslabs.cloudwatch-mcp-server==0.3.1",
]
#: Five files as a pre-commit hook passes them: fixture servers (tools, helpers, a TL401 one).
FIVE_FILES = [
    "fixtures/bi_costly_definitions_v2.py", "fixtures/catalog_methods_fastmcp.py",
    "fixtures/files_mcpserver_v2.py", "fixtures/github_fastmcp.py", "fixtures/jira_wiki_mounted_fastmcp2.py",
]


@dataclass
class Command:
    """One benchmarked command: ``argv`` run in ``REPO`` on ``tree``."""

    label: str
    tree: str
    argv: list[str]
    reps: int
    samples: list[Sample] = field(default_factory=list)


@dataclass
class Sample:
    wall: float  # seconds
    cpu: float  # seconds, user + system, the command and its children
    rss_mb: float  # peak resident set of the largest process, MiB
    load: float  # 1-minute load average when the run started
    code: int


#: Exit codes that mean "ran fine": tokenlint and ruff exit 1 on findings; Fixit 1, 2 or 3 for
#: lint errors and files it cannot parse (the fixtures include bad input on purpose).
FINE = {"tokenlint": {0, 1}, "ruff": {0, 1}, "fixit": {0, 1, 2, 3}}


# -- set-up ---------------------------------------------------------------------------------------
def bin_path(name: str) -> Path:
    return VENV / ("Scripts" if os.name == "nt" else "bin") / name


def setup(fresh: bool) -> None:
    if fresh and WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True, exist_ok=True)
    python = bin_path("python")
    if not python.exists():
        step(f"creating {VENV} (ruff, fixit, tokenlint and its dependencies)")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        pip(["install", "--quiet", "ruff", "fixit", str(REPO)])
    else:
        step("reinstalling tokenlint from this repository into the benchmark environment")
        pip(["install", "--quiet", "--force-reinstall", "--no-deps", str(REPO)])
    if not SOURCES.exists() or not any(SOURCES.iterdir()):
        download_sources()


def pip(args: list[str]) -> None:
    proc = subprocess.run([str(bin_path("python")), "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"pip {' '.join(args)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")


def download_sources() -> None:
    step(f"downloading {len(MCP_PACKAGES)} MCP server sdists from PyPI")
    with tempfile.TemporaryDirectory() as tmp:
        # sources only, whatever Python they declare (some need 3.12): they are read, not run
        cmd = [str(bin_path("python")), "-m", "pip", "--disable-pip-version-check", "download", "--quiet",
               "--no-deps", "--no-binary", ":all:", "--ignore-requires-python", "-d", tmp]
        if subprocess.run([*cmd, *MCP_PACKAGES], capture_output=True).returncode != 0:
            for spec in MCP_PACKAGES:  # one by one: skip what fails, say so
                proc = subprocess.run([*cmd, spec], capture_output=True, text=True)
                if proc.returncode != 0:
                    print(f"  warning: could not download {spec}; the mcp tree goes without it\n"
                          f"{proc.stderr.strip()[-600:]}")
        SOURCES.mkdir(parents=True, exist_ok=True)
        for archive in sorted(Path(tmp).iterdir()):
            if archive.name.endswith((".tar.gz", ".tgz")):
                with tarfile.open(archive) as tf:
                    tf.extractall(SOURCES, filter="data")
            elif archive.suffix == ".zip":
                with zipfile.ZipFile(archive) as zf:
                    zf.extractall(SOURCES)


def trees() -> dict[str, list[str]]:
    out = subprocess.run(
        [str(bin_path("python")), "-c",
         "import sysconfig, site; print(sysconfig.get_paths()['stdlib']); print(site.getsitepackages()[0])"],
        check=True, capture_output=True, text=True).stdout.split("\n")
    stdlib, site_packages = Path(out[0]), out[1]
    general = [str(p) for p in sorted(stdlib.iterdir()) if p.name != "site-packages"
               and (p.is_dir() or p.suffix == ".py")]
    return {"general": [*general, site_packages], "mcp": [str(SOURCES), str(REPO / "fixtures")]}


# -- running --------------------------------------------------------------------------------------
def run(argv: list[str]) -> Sample:
    env = dict(os.environ)
    load = os.getloadavg()[0]
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in FINE.get(Path(argv[0]).name, {0}):
            err.seek(0)
            print(f"\n  command failed ({proc.returncode}): {' '.join(argv)}\n{err.read().decode()[-2000:]}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, load, proc.returncode)


def commands(tree_paths: dict[str, list[str]], chosen: list[str], args) -> list[Command]:
    tl, ruff, fixit = str(bin_path("tokenlint")), str(bin_path("ruff")), str(bin_path("fixit"))
    out: list[Command] = []
    for tree in chosen:
        paths = tree_paths[tree]
        cache = str(WORK / f"cache-{tree}")
        out += [
            Command("tokenlint cold", tree, [tl, "check", "-q", "--exit-zero", "--no-cache", *paths], args.reps),
            Command("tokenlint warm", tree, [tl, "check", "-q", "--exit-zero", "--cache-dir", cache, *paths], args.reps),
            Command("ruff ALL", tree, [ruff, "check", "--no-cache", "--isolated", "--select", "ALL", "--exit-zero", *paths],
                    args.reps),
            Command("ruff E,F", tree, [ruff, "check", "--no-cache", "--isolated", "--select", "E,F", "--exit-zero", *paths],
                    args.reps),
        ]
        if not args.skip_fixit and (tree == "mcp" or args.fixit_general):
            out.append(Command("fixit", tree, [fixit, "lint", *paths], args.fixit_reps))
        if tree == "mcp":
            five = [str(REPO / f) for f in FIVE_FILES]
            out += [
                Command("five files cold", tree, [tl, "check", "-q", "--exit-zero", "--no-cache", *five], args.reps),
                Command("five files warm", tree, [tl, "check", "-q", "--exit-zero", "--cache-dir", cache + "-five",
                                                  *five], args.reps),
            ]
    return out


def same_results(tree: str, paths: list[str]) -> dict[str, bool]:
    """Compare the JSON reports of -j1, -j2, a cache-filling run and a warm run (untimed)."""
    tl = str(bin_path("tokenlint"))
    cache = WORK / f"cache-check-{tree}"
    shutil.rmtree(cache, ignore_errors=True)

    def report(*extra: str) -> str:
        return subprocess.run([tl, "check", "-f", "json", "--exit-zero", *extra, *paths], cwd=REPO,
                              capture_output=True, text=True, check=True).stdout

    base = report("--no-cache", "-j", "1")
    return {
        "-j 2 = -j 1": report("--no-cache", "-j", "2") == base,
        "cache filling = no cache": report("--cache-dir", str(cache)) == base,
        "warm cache = no cache": report("--cache-dir", str(cache)) == base,
    }


def count_files(tree: str, paths: list[str]) -> tuple[int, int]:
    def lines(argv: list[str]) -> int:
        proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True)
        return len([ln for ln in proc.stdout.splitlines() if ln.strip()])

    return (lines([str(bin_path("tokenlint")), "check", "--show-files", *paths]),
            lines([str(bin_path("ruff")), "check", "--isolated", "--show-files", *paths]))


# -- report ---------------------------------------------------------------------------------------
def med(cmd: Command, attr: str = "wall") -> float:
    return statistics.median(getattr(s, attr) for s in cmd.samples)


def summary(cmds: list[Command], tree: str, counts: tuple[int, int], checks: dict[str, bool]) -> list[tuple[str, bool | None, str]]:
    mine = [c for c in cmds if c.tree == tree and c.samples]
    if not mine:
        return []
    by = {c.label: c for c in mine}
    print(f"\n== {tree} tree: {counts[0]} files for tokenlint, {counts[1]} for ruff ==")
    print(f"  {'command':<18} {'median':>8} {'min':>8} {'max':>8} {'cpu med':>8} {'peak RSS':>9}  runs")
    for c in mine:
        walls = [s.wall for s in c.samples]
        print(f"  {c.label:<18} {med(c):7.2f}s {min(walls):7.2f}s {max(walls):7.2f}s {med(c, 'cpu'):7.2f}s "
              f"{max(s.rss_mb for s in c.samples):7.0f}MB  {len(walls)}")
    for name, ok in checks.items():
        print(f"  identical results, {name}: {'yes' if ok else 'NO'}")
    goals: list[tuple[str, bool | None, str]] = []
    cold = by.get("tokenlint cold")

    def ratio(label: str, other: str, limit: float, text: str, inverse: bool = False) -> None:
        a, b = by.get(label), by.get(other)
        if a is None or b is None:
            return
        r = med(b) / med(a) if inverse else med(a) / med(b)
        rc = med(b, "cpu") / med(a, "cpu") if inverse else med(a, "cpu") / med(b, "cpu")
        ok = r >= limit if inverse else r <= limit
        goals.append((f"{tree}: {text}", ok, f"{med(a):.2f} s vs {med(b):.2f} s, ratio {r:.2f} "
                                             f"(CPU {med(a, 'cpu'):.2f} s vs {med(b, 'cpu'):.2f} s, ratio {rc:.2f})"))

    if tree == "general":
        ratio("tokenlint cold", "ruff E,F", 1.0, "cold check no slower than ruff --select E,F")
    if tree == "mcp":
        ratio("tokenlint cold", "ruff ALL", 1.0, "cold check no slower than ruff --select ALL")
        ratio("tokenlint cold", "fixit", 20.0, "cold check at least 20x faster than fixit lint", inverse=True)
        for label in ("five files cold", "five files warm"):
            if label in by:
                goals.append((f"{label} under 0.5 s", med(by[label]) < 0.5,
                              f"{med(by[label]):.2f} s (cpu {med(by[label], 'cpu'):.2f} s)"))
    if "tokenlint warm" in by:
        goals.append((f"{tree}: warm re-run under 0.3 s", med(by["tokenlint warm"]) < 0.3,
                      f"{med(by['tokenlint warm']):.2f} s (cpu {med(by['tokenlint warm'], 'cpu'):.2f} s)"))
    if checks:
        goals.append((f"{tree}: identical results with and without cache, -j 1 and -j 2", all(checks.values()), ""))
    if cold is not None:
        for c in mine:
            if c is not cold:
                print(f"  {c.label:<18} / tokenlint cold = {med(c) / med(cold):6.2f}")
    return goals


def step(text: str) -> None:
    print(f"-- {text}", flush=True)


def main() -> int:
    global WORK, VENV, SOURCES
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trees", default="general,mcp", help="comma-separated: general, mcp [default: both]")
    ap.add_argument("--reps", type=int, default=5, help="timed runs of each command [default: 5]")
    ap.add_argument("--fixit-reps", type=int, default=1, help="timed runs of fixit (slow) [default: 1]")
    ap.add_argument("--fixit-general", action="store_true", help="also run fixit on the general tree (~440 s a run)")
    ap.add_argument("--skip-fixit", action="store_true", help="never run fixit")
    ap.add_argument("--fresh", action="store_true", help="recreate the work directory (environment and downloads)")
    ap.add_argument("--work-dir", type=Path, default=WORK, help=f"set-up and caches [default: {WORK}]")
    ap.add_argument("--json", metavar="FILE", help="also write every sample to FILE")
    args = ap.parse_args()
    chosen = [t.strip() for t in args.trees.split(",") if t.strip()]
    WORK, VENV, SOURCES = args.work_dir, args.work_dir / "venv", args.work_dir / "mcp-src"
    setup(args.fresh)
    tree_paths = trees()
    cmds = commands(tree_paths, chosen, args)
    step(f"{os.cpu_count()} CPUs; load average at start {os.getloadavg()[0]:.2f}")
    step("untimed first run of each command (page cache, bytecode, a filled cache for the warm runs)")
    for tree in chosen:
        shutil.rmtree(WORK / f"cache-{tree}", ignore_errors=True)
        shutil.rmtree(WORK / f"cache-{tree}-five", ignore_errors=True)
    for c in cmds:
        run(c.argv)
    time.sleep(2.1)  # the cache trusts a file only if it is older than its index by 2 s (racy mtimes)
    rounds = max(c.reps for c in cmds)
    for r in range(rounds):
        for c in cmds:
            if r >= c.reps:
                continue
            s = run(c.argv)
            c.samples.append(s)
            print(f"  round {r + 1}/{rounds}  {c.tree:<8} {c.label:<18} {s.wall:7.2f} s   cpu {s.cpu:6.2f} s   "
                  f"rss {s.rss_mb:5.0f} MB   load {s.load:4.1f}", flush=True)
    goals = []
    for tree in chosen:
        checks = same_results(tree, tree_paths[tree])
        goals += summary(cmds, tree, count_files(tree, tree_paths[tree]), checks)
    loads = [s.load for c in cmds for s in c.samples]
    print(f"\nload average during the runs: min {min(loads):.1f}, median {statistics.median(loads):.1f}, "
          f"max {max(loads):.1f} on {os.cpu_count()} CPUs")
    print("\nGoals (issue 7):")
    for text, ok, figures in goals:
        print(f"  [{'x' if ok else ' '}] {text}{': ' + figures if figures else ''}")
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{"tree": c.tree, "label": c.label, "argv": c.argv, "samples": [s.__dict__ for s in c.samples]} for c in cmds],
            indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
