"""`tokenlint fix` killed with SIGKILL while it rewrites many files: each file is old or new, whole.

A reference run on one copy of the tree gives every file's new bytes and how long the write
phase lasts. Then, on fresh copies, `python -m tokenlint fix` runs as a subprocess and is killed
(SIGKILL: no handler, no cleanup) at seeded random points: one at a random point of the whole
run, the others once a random number of files were replaced (inside the write phase, give or
take a file; a run whose watcher missed the write phase on a busy machine is repeated, up to 4
times, until one kill lands inside it). Afterwards every
file must be byte-for-byte its old or its new content, the temporary files `fix` may leave behind
must not look like Python (`.<name>.<random>.tokenlint-tmp`: `check` and `fix` never read them),
and a second `fix` must finish the job.

Quick by default (30 files, 3 kills); `TOKENLINT_ATOMIC=long` runs 200 files and 10 kills.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tokenlint.cli
from helpers import RISKY_SERVER

pytestmark = pytest.mark.slow

LONG = os.environ.get("TOKENLINT_ATOMIC") == "long"
FILES = 200 if LONG else 30
KILLS = 10 if LONG else 3
SEED = 20261121
ENV = {**os.environ, "PYTHONPATH": str(Path(tokenlint.cli.__file__).parent.parent)}


def _make_tree(root: Path) -> dict[str, bytes]:
    root.mkdir()
    out = {}
    for i in range(FILES):
        text = RISKY_SERVER.replace("list_orders", f"list_orders_{i}")
        if i % 3 == 1:
            text = text.replace("\n", "\r\n")  # line endings are part of "old or new, whole"
        name = f"server_{i:03}.py"
        (root / name).write_bytes(text.encode())
        out[name] = text.encode()
    return out


def _inodes(root: Path) -> dict[str, int]:
    return {e.name: e.inode() for e in os.scandir(root)}


def _start(root: Path) -> subprocess.Popen:
    """`tokenlint fix` at the lowest CPU priority, so that the watching test (and its kill) keeps
    up with the write phase on a busy machine."""
    return subprocess.Popen([sys.executable, "-m", "tokenlint", "fix", "-q", str(root)], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=lambda: os.nice(19))


def _writing(root: Path, before: dict[str, int]) -> bool:
    """A temporary file exists or a file was replaced: the write phase has begun."""
    return any(n.endswith(".tokenlint-tmp") or before.get(n) != i for n, i in _inodes(root).items())


def _replaced(root: Path, before: dict[str, int]) -> int:
    return sum(before.get(n) != i for n, i in _inodes(root).items() if n.endswith(".py"))


def _reference(root: Path) -> tuple[dict[str, bytes], float, float]:
    """New bytes of every file, total run time and write-phase length (seconds)."""
    before = _inodes(root)
    t0 = time.perf_counter()
    proc = _start(root)
    first = last = None
    while proc.poll() is None:
        changed = [n for n, ino in _inodes(root).items() if before.get(n) != ino]
        if changed:
            first = first or time.perf_counter() - t0
            last = time.perf_counter() - t0
        time.sleep(0.0005)
    assert proc.returncode == 0, proc.stderr.read().decode()
    total = time.perf_counter() - t0
    new = {p.name: p.read_bytes() for p in root.iterdir()}
    assert first is not None and last is not None
    return new, total, last - first


def test_sigkill_during_fix_leaves_every_file_old_or_new(tmp_path):
    old = _make_tree(tmp_path / "ref")
    new, total, window = _reference(tmp_path / "ref")
    assert sorted(new) == sorted(old), "the reference run left extra files"
    assert all(new[n] != old[n] and b"fit_response(" in new[n] for n in old)

    rng = random.Random(SEED)
    outcomes: list[tuple[str, int]] = []
    strays: list[str] = []
    modes = ["anywhere"] + ["write"] * (KILLS - 1)
    run = 0
    while run < len(modes):
        mode = modes[run]
        root = tmp_path / f"run{run}"
        _make_tree(root)
        before = _inodes(root)
        target = rng.randint(1, FILES - 1)  # kill once this many files were replaced ...
        delay = rng.uniform(0, total) if mode == "anywhere" else rng.uniform(0, 2 * window / FILES)  # ... and a bit
        proc = _start(root)
        if mode == "write":
            while proc.poll() is None and not _writing(root, before):  # the analysis: poll gently
                time.sleep(0.002)
            while proc.poll() is None and _replaced(root, before) < target:
                time.sleep(0.0001)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()

        files = sorted(p.name for p in root.iterdir())
        py = [n for n in files if n.endswith(".py")]
        others = [n for n in files if not n.endswith(".py")]
        assert py == sorted(old), f"run {run}: files appeared or vanished: {files}"
        for n in py:
            data = (root / n).read_bytes()
            assert data in (old[n], new[n]), f"run {run}: {n} is neither old nor new ({len(data)} bytes)"
        assert all(n.startswith(".server_") and n.endswith(".tokenlint-tmp") for n in others), others
        strays += others
        outcomes.append((mode, sum((root / n).read_bytes() == new[n] for n in py)))

        if mode == "anywhere":  # a killed run is finished by running fix again; stray temp files are ignored
            listed = subprocess.run([sys.executable, "-m", "tokenlint", "check", "--show-files", str(root)],
                                    env=ENV, capture_output=True, text=True)
            assert len(listed.stdout.split()) == FILES
            again = subprocess.run([sys.executable, "-m", "tokenlint", "fix", "-q", str(root)], env=ENV,
                                   capture_output=True, text=True)
            assert again.returncode == 0, again.stderr
            assert all((root / n).read_bytes() == new[n] for n in old)
        shutil.rmtree(root)
        run += 1
        inside = any(m == "write" and 0 < n < FILES for m, n in outcomes)
        if run == len(modes) and not inside and len(modes) < KILLS + 4:
            modes.append("write")  # on a busy machine the watcher can miss a whole write phase: again

    print(f"\nfiles new after each kill (of {FILES}): {outcomes}; stray temp files: {len(strays)}")
    assert any(m == "write" and 0 < n < FILES for m, n in outcomes), f"no kill inside the write phase: {outcomes}"
