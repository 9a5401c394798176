"""Score tokenlint's tool discovery and risk levels against hand-labelled real MCP servers.

    python benchmarks/accuracy.py --checkouts DIR                 # the bundled dev set
    python benchmarks/accuracy.py --checkouts DIR --clone         # clone missing repos first (network)
    python benchmarks/accuracy.py --checkouts DIR --labels L.jsonl --json out.json
    python benchmarks/accuracy.py --checkouts DIR --repo redis/mcp-redis -v
    python benchmarks/fetch_pypi_set.py /tmp/pypi && \
        python benchmarks/accuracy.py --labels benchmarks/data/pypi/labels.jsonl --checkouts /tmp/pypi
    python benchmarks/fetch_pypi_set.py /tmp/pypi2 --set pypi2 && \
        python benchmarks/accuracy.py --labels benchmarks/data/pypi2/labels.jsonl --checkouts /tmp/pypi2

The labels (`benchmarks/data/realworld/labels.jsonl`, one JSON object per tool) are the project's
dev set, copied from the team's shared `realworld/` folder; `LABELLING.md` beside them gives their
source, the commits read and the labelling rules. Each row names `repo`, `commit`, `path` (the
file holding the tool's `def` or dispatch branch), `tool` (the name the client sees) and `label`
(HIGH / MEDIUM / LOW / NONE).

Checkouts live in DIR as `<owner>+<name>@<commit[:8]>/` (what `--clone` makes with `git clone`
and `git checkout`; with a bare mirror, `git --git-dir=M archive COMMIT | tar -x -C DIR/...` does
the same). tokenlint is run the way a user runs it on their project: `tokenlint check --format
json` on the nearest directory above each labelled file that holds a `pyproject.toml`,
`setup.py` or `setup.cfg` (the checkout itself when there is none), in a subprocess, cache off,
with this source tree first on `PYTHONPATH` (the tokenlint measured is the one beside this script).

Scored per labelled tool, matched on (path, client-visible name):

- found: the tool is in the report under that name and path;
- exact: found with the labelled level (a tool not found counts as wrong);
- HIGH recall: labelled HIGH and reported HIGH, over labelled HIGH;
- HIGH precision: labelled HIGH among labelled tools reported HIGH;
- the confusion matrix (labelled level × reported level, `missing` for not found) and every
  disagreement with the label's `why`.

Also printed: files checked and seconds of tokenlint per scan root, for discovery's and
analysis' cost per file. Exit 0 always (it is a measurement, not a gate).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_LABELS = HERE / "data" / "realworld" / "labels.jsonl"
LEVELS = ("HIGH", "MEDIUM", "LOW", "NONE")
PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg")
# tokenlint is run from this source tree (the one being measured), installed or not
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(HERE.parent), os.environ.get("PYTHONPATH")) if p)}


def checkout_dir(checkouts: Path, repo: str, commit: str) -> Path:
    """The directory holding `repo` at `commit`: `<owner>+<name>@<commit[:8]>` under `checkouts`."""
    return checkouts / f"{repo.replace('/', '+')}@{commit[:8]}"


def row_checkout(checkouts: Path, row: dict) -> Path:
    """Where a label row's code lives: a GitHub checkout (`repo`, `commit`) or an extracted PyPI
    sdist (`package`, `version`; the sdist's own top directory, see fetch_pypi_set.py)."""
    if "package" in row:
        sys.path.insert(0, str(HERE))
        from fetch_pypi_set import sdist_dirs

        return checkouts / sdist_dirs()[(row["package"], row["version"])]
    return checkout_dir(checkouts, row["repo"], row["commit"])


def clone(checkouts: Path, repo: str, commit: str) -> None:
    """Clone `repo` from GitHub and check out `commit` into its checkout directory (network)."""
    dest = checkout_dir(checkouts, repo, commit)
    if dest.exists():
        return
    subprocess.run(["git", "clone", "--quiet", f"https://github.com/{repo}.git", str(dest)], check=True)
    subprocess.run(["git", "-C", str(dest), "checkout", "--quiet", commit], check=True)


def scan_root(checkout: Path, rel_path: str) -> Path:
    """The nearest directory above `checkout/rel_path` holding a project marker, else `checkout`."""
    here = (checkout / rel_path).parent
    while here != checkout and checkout in here.parents:
        if any((here / marker).exists() for marker in PROJECT_MARKERS):
            return here
        here = here.parent
    return checkout


def run_tokenlint(checkout: Path, root: Path) -> tuple[list[dict], int, float]:
    """Run `tokenlint check --format json` on `root` from `checkout`.

    Returns (tools of the JSON report, files checked, wall seconds). Paths in the report are
    relative to `checkout`.
    """
    rel = os.path.relpath(root, checkout)
    cmd = [sys.executable, "-m", "tokenlint", "check", "--format", "json", "--no-cache",
           "--exit-zero", rel]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True, env=ENV)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        print(f"tokenlint failed on {checkout.name}/{rel} (exit {proc.returncode}):\n{proc.stderr[-2000:]}",
              file=sys.stderr)
        return [], 0, seconds
    report = json.loads(proc.stdout)
    # the JSON report has no file count: the same selection, listed (no analysis, not timed)
    listed = subprocess.run([sys.executable, "-m", "tokenlint", "check", "--show-files", rel],
                            cwd=checkout, capture_output=True, text=True, env=ENV)
    files = len([line for line in listed.stdout.splitlines() if line.strip()])
    return report["tools"], files, seconds


def score(rows: list[dict], reported: dict[tuple[str, str, str], dict]) -> dict:
    """Score labelled `rows` against `reported` tools keyed by (checkout name, path, tool name)."""
    confusion: dict[str, Counter] = {level: Counter() for level in LEVELS}
    disagreements = []
    verdicts = []
    found = exact = 0
    for row in rows:
        key = (row["checkout"], row["path"], row["tool"])
        tool = reported.get(key)
        got = tool["risk"] if tool else "missing"
        confusion[row["label"]][got] += 1
        if tool:
            found += 1
        verdict = {**row, "reported": got, "reported_line": tool["line"] if tool else None,
                   "reported_findings": tool["findings"] if tool else [],
                   "untraced_calls": tool.get("untraced_calls", []) if tool else []}
        verdicts.append(verdict)
        if got == row["label"]:
            exact += 1
        else:
            disagreements.append(verdict)
    high_labelled = sum(confusion["HIGH"].values())
    high_hit = confusion["HIGH"]["HIGH"]
    high_reported = sum(confusion[level]["HIGH"] for level in LEVELS)
    n = len(rows)
    return {
        "tools": n,
        "found": found / n if n else 0.0,
        "exact": exact / n if n else 0.0,
        "high_recall": high_hit / high_labelled if high_labelled else 0.0,
        "high_precision": high_hit / high_reported if high_reported else 0.0,
        "confusion": {level: dict(confusion[level]) for level in LEVELS},
        "disagreements": disagreements,
        "verdicts": verdicts,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkouts", type=Path, required=True, help="directory of <owner>+<name>@<commit8> checkouts")
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS, help="label file (JSON lines)")
    parser.add_argument("--clone", action="store_true", help="git clone missing checkouts from GitHub")
    parser.add_argument("--repo", action="append", default=[], help="score only this repo (repeatable)")
    parser.add_argument("--json", type=Path, help="write the scores, the disagreements and every verdict here")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every disagreement")
    args = parser.parse_args(argv)

    rows = [json.loads(line) for line in args.labels.read_text().splitlines() if line.strip()]
    for row in rows:
        row.setdefault("repo", row.get("package", ""))
    if args.repo:
        rows = [r for r in rows if r["repo"] in args.repo]
    roots: dict[tuple[Path, Path], list[dict]] = defaultdict(list)
    for row in rows:
        if args.clone and "commit" in row:
            clone(args.checkouts, row["repo"], row["commit"])
        checkout = row_checkout(args.checkouts, row)
        if not checkout.is_dir():
            sys.exit(f"missing checkout {checkout} (use --clone, or extract it there)")
        row["checkout"] = checkout.name
        roots[(checkout, scan_root(checkout, row["path"]))].append(row)

    reported: dict[tuple[str, str, str], dict] = {}
    cost = []
    for (checkout, root), _ in sorted(roots.items()):
        tools, files, seconds = run_tokenlint(checkout, root)
        cost.append((f"{checkout.name}/{os.path.relpath(root, checkout)}", files, seconds, len(tools)))
        for tool in tools:
            reported.setdefault((checkout.name, tool["path"], tool["name"]), tool)

    result = score(rows, reported)
    per_repo = {}
    for repo in sorted({r["repo"] for r in rows}):
        sub = score([r for r in rows if r["repo"] == repo], reported)
        per_repo[repo] = {k: sub[k] for k in ("tools", "found", "exact", "high_recall", "high_precision")}
    result["per_repo"] = per_repo
    result["cost"] = [{"root": r, "files": f, "seconds": s, "tools": t} for r, f, s, t in cost]

    print(f"{'repo':48} {'tools':>5} {'found':>6} {'exact':>6} {'HIGH rec':>8} {'HIGH prec':>9}")
    for repo, sub in per_repo.items():
        print(f"{repo:48} {sub['tools']:5d} {sub['found']:6.2f} {sub['exact']:6.2f} "
              f"{sub['high_recall']:8.2f} {sub['high_precision']:9.2f}")
    print()
    print("labelled \\ reported " + " ".join(f"{c:>7}" for c in (*LEVELS, "missing")))
    for level in LEVELS:
        print(f"{level:19} " + " ".join(f"{result['confusion'][level].get(c, 0):7d}" for c in (*LEVELS, "missing")))
    if args.verbose:
        print()
        for d in result["disagreements"]:
            print(f"{d['label']:>6} -> {d['reported']:<7} {d['repo']} {d['path']}:{d['line']} {d['tool']}: {d['why']}")
    total_files = sum(f for _, f, _, _ in cost)
    total_seconds = sum(s for _, _, s, _ in cost)
    print()
    print(f"cost: {total_files} files checked in {total_seconds:.1f} s over {len(cost)} scan roots "
          f"({1000 * total_seconds / max(total_files, 1):.1f} ms per file, process start included)")
    print(f"tools {result['tools']}  found {result['found']:.3f}  exact {result['exact']:.3f}  "
          f"HIGH recall {result['high_recall']:.3f}  HIGH precision {result['high_precision']:.3f}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
