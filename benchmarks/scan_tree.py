"""Run `check` and `fix --diff` (in process, writing nothing) over every Python file of a big tree.

    python benchmarks/scan_tree.py                      # site-packages + the standard library
    python benchmarks/scan_tree.py --parse-all          # also parse/analyse files the prefilter skips
    python benchmarks/scan_tree.py PATH ... [--json out.json] [--unit-timeout 120]

Each top-level package or module of each root is one unit, checked the way a user would run
`tokenlint check <unit>` (no excludes, no .gitignore) and then `fix_paths` on it. Reported:
crashes (an exception escaping `check` or `fix`, an internal error, a unit over the time limit),
with the path and the head of the traceback; broken rewrites (a changed file whose new text does
not parse or compile, changes code outside the rewritten tools, or is not a fixpoint: the rewrite
is fixed again on a copy of the unit); TL001 findings by reason; tools found by risk and
framework; fix outcomes; time. Zero crashes and zero broken rewrites is the bar (exit 1 if not).

`--parse-all` disables the byte and code prefilters, so every file is parsed, searched for tools
and analysed: a stress test of discovery on code that is not an MCP server.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import sys
import sysconfig
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fix_oracle import rewrite_problems, roundtrip_problems  # noqa: E402

from tokenlint.config import Settings  # noqa: E402
from tokenlint.cli import fix_unfixable_reason  # noqa: E402
from tokenlint.run.pipeline import check_paths  # noqa: E402
from tokenlint.source.files import expand_paths  # noqa: E402
from tokenlint.fix.driver import fix_paths  # noqa: E402

SETTINGS = Settings(exclude=(), respect_gitignore=False)


class UnitTimeout(Exception):
    pass


def default_roots() -> list[Path]:
    paths = sysconfig.get_paths()
    roots = [Path(paths["purelib"]), Path(paths["stdlib"])]
    return [r for i, r in enumerate(roots) if r.is_dir() and r not in roots[:i]]


def units(root: Path) -> list[Path]:
    """Top-level packages (directories) and modules of ``root``, sorted."""
    out = []
    for entry in sorted(root.iterdir()):
        if entry.is_symlink():
            continue
        if entry.is_dir() and entry.name != "__pycache__" or entry.suffix in (".py", ".pyi"):
            out.append(entry)
    return out


def disable_prefilters() -> list[str]:
    """Make every file a candidate: the byte prefilter and the code prefilter say yes."""
    patched = []
    for name, mod in list(sys.modules.items()):
        if not name.startswith("tokenlint"):
            continue
        for attr in ("may_define_tools", "code_mentions_tools"):
            if callable(getattr(mod, attr, None)):
                setattr(mod, attr, lambda *a, **k: True)
                patched.append(f"{name}.{attr}")
    return patched


_REASON_DETAIL = [
    (re.compile(r"^syntax error at \d+:\d+: (.*)$"), r"syntax error: \1"),
    (re.compile(r"\(byte 0x[0-9a-f]+ at offset \d+\).*"), ""),
    (re.compile(r"\([\d,]+ bytes; limit [\d,]+ bytes\)"), ""),
    (re.compile(r"tool `[^`]*`"), "tool `…`"),
    (re.compile(r"'[^']*'|\"[^\"]*\""), "'…'"),
]


def tl001_reason(message: str) -> str:
    """A TL001 message without its path and specifics (positions, byte offsets, sizes)."""
    reason = message.split(": ", 1)[1] if ": " in message else message
    for pattern, repl in _REASON_DETAIL:
        reason = pattern.sub(repl, reason)
    return reason.strip()


def _alarm(signum, frame):
    raise UnitTimeout()


def scan_unit(unit: Path, stats: dict, timeout: int, fixpoint: bool) -> None:
    files = expand_paths([str(unit)], SETTINGS)
    stats["files"] += len(files)
    stats["bytes"] += sum(_size(sp.path) for sp in files)
    for phase in ("check", "fix"):
        signal.alarm(timeout)
        t0 = time.perf_counter()
        try:
            if phase == "check":
                run = check_paths([str(unit)], SETTINGS, unfixable_reason=fix_unfixable_reason)
            else:
                result = fix_paths([str(unit)], SETTINGS)
        except UnitTimeout:
            stats["crashes"].append({"path": str(unit), "phase": phase, "error": f"over {timeout} s"})
            return
        except BaseException as exc:  # noqa: BLE001 - every escape is a crash to report
            if isinstance(exc, KeyboardInterrupt):
                raise
            head = traceback.format_exc().strip().splitlines()
            stats["crashes"].append({"path": str(unit), "phase": phase,
                                     "error": f"{type(exc).__name__}: {exc}", "traceback": head[-12:]})
            return
        finally:
            signal.alarm(0)
            stats[f"{phase}_seconds"] += time.perf_counter() - t0
        if phase == "check":
            stats["parsed"] += run.result.files_parsed
            for err in run.internal_errors:
                stats["crashes"].append({"path": str(unit), "phase": "check", "error": err})
            for f in run.result.findings:
                if f.code == "TL001":
                    stats["tl001"][tl001_reason(f.message)] += 1
                    stats["tl001_examples"].setdefault(tl001_reason(f.message), f"{f.path}:{f.line}:{f.column}")
            for t in run.result.tools:
                stats["tools"][t.risk.name] += 1
                stats["frameworks"][t.framework] += 1
    stats["fixed"] += len(result.fixed)
    stats["unfixed"] += len(result.unfixed)
    stats["changed_files"] += len(result.changes)
    for o in result.unfixed:
        stats["unfixed_reasons"][re.sub(r"`[^`]*`", "`…`", o.reason)] += 1
    problems = rewrite_problems(result, SETTINGS.max_response_tokens)
    if fixpoint and result.changes and not problems:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / unit.name
            (shutil.copytree if unit.is_dir() else shutil.copy2)(unit, copy)
            problems += roundtrip_problems(copy, SETTINGS)
    for p in problems:
        stats["broken"].append({"path": str(unit), "problem": p[:2000]})


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="*", type=Path, help="trees to scan (default: site-packages + stdlib)")
    ap.add_argument("--parse-all", action="store_true", help="disable the prefilters: analyse every file")
    ap.add_argument("--unit-timeout", type=int, default=300, help="seconds per unit and phase (default 300)")
    ap.add_argument("--no-fixpoint", action="store_true", help="skip fixing each rewrite again on a copy")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = ap.parse_args(argv)
    roots = args.roots or default_roots()
    patched = disable_prefilters() if args.parse_all else []
    if args.parse_all and not patched:
        print("scan_tree: --parse-all found no prefilter to disable", file=sys.stderr)
        return 2
    signal.signal(signal.SIGALRM, _alarm)
    stats: dict = {"roots": [str(r) for r in roots], "parse_all": args.parse_all, "units": 0, "files": 0,
                   "bytes": 0, "parsed": 0, "check_seconds": 0.0, "fix_seconds": 0.0, "crashes": [],
                   "broken": [], "tl001": Counter(), "tl001_examples": {}, "tools": Counter(),
                   "frameworks": Counter(), "fixed": 0, "unfixed": 0, "changed_files": 0,
                   "unfixed_reasons": Counter()}
    all_units = [u for r in roots for u in units(r)]
    t0 = time.perf_counter()
    for i, unit in enumerate(all_units, 1):
        scan_unit(unit, stats, args.unit_timeout, not args.no_fixpoint)
        stats["units"] += 1
        if sys.stderr.isatty() or i % 100 == 0 or i == len(all_units):
            print(f"\r{i}/{len(all_units)} units, {stats['files']} files, {len(stats['crashes'])} crashes",
                  end="" if sys.stderr.isatty() else "\n", file=sys.stderr)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    stats["wall_seconds"] = time.perf_counter() - t0
    print(report(stats))
    if args.json:
        args.json.write_text(json.dumps(stats, indent=2, default=dict) + "\n")
    return 1 if stats["crashes"] or stats["broken"] else 0


def report(s: dict) -> str:
    lines = [
        f"roots: {', '.join(s['roots'])}" + ("  (prefilters disabled: every file analysed)" if s["parse_all"] else ""),
        f"units: {s['units']:,}  files: {s['files']:,} ({s['bytes'] / 1e6:,.1f} MB)  parsed: {s['parsed']:,}",
        f"time: {s['wall_seconds']:.1f} s wall (check {s['check_seconds']:.1f} s, fix --diff {s['fix_seconds']:.1f} s)",
        f"crashes: {len(s['crashes'])}",
    ]
    for c in s["crashes"][:20]:
        lines.append(f"  {c['path']} [{c['phase']}]: {c['error']}")
        lines += [f"      {t}" for t in c.get("traceback", [])[-6:]]
    lines.append(f"broken rewrites: {len(s['broken'])}")
    lines += [f"  {b['path']}: {b['problem'].splitlines()[0]}" for b in s["broken"][:20]]
    lines.append(f"TL001: {sum(s['tl001'].values()):,}")
    for reason, n in s["tl001"].most_common():
        lines.append(f"  {n:6,}  {reason}   (e.g. {s['tl001_examples'][reason]})")
    lines.append(f"tools: {sum(s['tools'].values()):,}  " + "  ".join(
        f"{k} {s['tools'][k]}" for k in ("HIGH", "MEDIUM", "LOW", "NONE")))
    lines.append("frameworks: " + ", ".join(f"{k} {v}" for k, v in s["frameworks"].most_common()))
    lines.append(f"fix --diff: {s['fixed']} tools rewritten in {s['changed_files']} files, {s['unfixed']} left")
    lines += [f"  {n:4}  {r}" for r, n in s["unfixed_reasons"].most_common(8)]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
