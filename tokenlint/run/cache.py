"""The on-disk cache of ``tokenlint check``: ``.tokenlint_cache/`` (``--cache-dir``, ``--no-cache``).

Two stores under ``<cache dir>/<tokenlint version>-<code fingerprint>/``:

- ``files.json``, the file index: per absolute path, the ``(mtime_ns, size, inode)`` the file had,
  its prefilter verdict, its content digest and its import scan, so that an unchanged file is
  neither read nor scanned again. An entry is trusted only if the file's mtime is at least
  ``RACY_NS`` older than the moment the index was written (a file rewritten within the same
  timestamp tick would otherwise go unnoticed: git's "racy clean" problem).
- ``groups/<settings digest>/<key>.json``, one result per group of candidates
  (``RunPlan.groups``). The key is the digest of the cache format, the settings, and each
  member's module name, displayed path and content digest. The entry also records every module
  the analysis looked up outside the group, with the digest of the file it found (or that none
  existed): the entry is reused only if all of them are still the same. A helper module edited,
  added or removed therefore invalidates every group that followed a call into it.

The code fingerprint (size and mtime of every module of the installed ``tokenlint`` package)
keeps an edited or upgraded tokenlint from reusing results of the old code. Entries are JSON,
never pickle: a cache directory committed to a repository by mistake cannot run code. Writes
are atomic (temporary file, then ``os.replace``); a corrupt or unreadable entry is a miss.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from tokenlint._version import __version__
from tokenlint.model import Finding, Risk, ToolId, ToolReport
from tokenlint.run.grouping import Import
from tokenlint.run.inputs import Candidate, RunPlan
from tokenlint.run.results import GroupResult

if TYPE_CHECKING:
    from tokenlint.config import Settings
    from tokenlint.run.pipeline import UnfixableReason

#: Default directory name, next to the configuration file (or in the working directory).
CACHE_DIR_NAME = ".tokenlint_cache"
#: Bumped when the layout or the meaning of an entry changes.
FORMAT = 2
#: An index entry is trusted only for files last modified this long before the index was
#: written (2 s covers the coarsest common timestamp granularity, FAT's).
RACY_NS = 2_000_000_000
#: Group entries kept per settings digest; the least recently used go first beyond this.
MAX_GROUP_ENTRIES = 4000
#: Groupings of distinct file sets kept in the index (a full run, a pre-commit run, ...).
MAX_PARTITIONS = 16


class Cache:
    """The cache for one run: ``index`` (a ``inputs.FileIndex``), ``lookup``/``store`` of group
    results, ``save`` at the end. Creates ``root`` (with a ``.gitignore`` of ``*`` and a
    ``CACHEDIR.TAG``, as ruff does) only when it first writes.

    ``unfixable_reason``: the test the run's ``[*]`` marks come from (``pipeline.GroupAnalysis``);
    its qualified name is part of every key, so results with and without it never mix.
    """

    def __init__(self, root: Path, settings: Settings, unfixable_reason: UnfixableReason | None = None) -> None:
        self.root = Path(root)
        self.base = self.root / f"{__version__}-{code_fingerprint()}"
        fix_test = "" if unfixable_reason is None else \
            f"{unfixable_reason.__module__}.{getattr(unfixable_reason, '__qualname__', '')}"
        self.settings_key = _digest(json.dumps([_canonical(dataclasses.asdict(settings)), fix_test], sort_keys=True))
        self.groups_dir = self.base / "groups" / self.settings_key[:16]
        self.index = FileIndexStore(self.base / "files.json")
        self.hits = 0
        self.misses = 0

    # -- group results ------------------------------------------------------------------------
    def key(self, members: list[Candidate]) -> str:
        """The entry key of a group: format, settings, and every member's name, path and digest."""
        parts = [FORMAT, self.settings_key, [(m.module_name, m.source.display, m.key()) for m in members]]
        return _digest(json.dumps(parts))

    def lookup(self, members: list[Candidate], plan: RunPlan) -> GroupResult | None:
        """The cached result of this group, if its members and every module it looked up are
        unchanged; None otherwise (or if the entry cannot be read)."""
        try:
            path = self.groups_dir / f"{self.key(members)}.json"
            with open(path, encoding="utf-8") as fh:
                entry = json.load(fh)
            for name, want in entry["looked_up"].items():
                have = plan.digest_of_module(name)
                if (list(have) if have is not None else None) != want:
                    self.misses += 1
                    return None
            result = GroupResult(
                findings=tuple(_finding(f) for f in entry["findings"]),
                tools=tuple(_tool(t) for t in entry["tools"]),
                parsed=entry["parsed"],
                matched_knowledge=tuple(entry.get("matched_knowledge", [])),
                looked_up={k: (tuple(v) if v is not None else None) for k, v in entry["looked_up"].items()},
            )
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        self.hits += 1
        try:
            os.utime(path)  # recently used: kept when old entries are pruned
        except OSError:
            pass
        return result

    def store(self, members: list[Candidate], result: GroupResult) -> None:
        """Write a group's result (results with internal errors are never cached)."""
        if result.internal:
            return
        entry = {
            "looked_up": {k: (list(v) if v is not None else None) for k, v in result.looked_up.items()},
            "parsed": result.parsed,
            "matched_knowledge": list(result.matched_knowledge),
            "findings": [_plain(dataclasses.asdict(f)) for f in result.findings],
            "tools": [_plain(dataclasses.asdict(t)) for t in result.tools],
        }
        try:
            self._prepare(self.groups_dir)
            _write_atomic(self.groups_dir / f"{self.key(members)}.json", json.dumps(entry))
        except OSError:
            pass  # a read-only or full disk: the run goes on uncached

    def save(self) -> None:
        """Write the file index if it changed, and prune old group entries."""
        try:
            if self.index.dirty:
                self._prepare(self.base)
                self.index.save()
            self._prune()
        except OSError:
            pass

    def _prune(self) -> None:
        try:
            entries = list(os.scandir(self.groups_dir))
        except OSError:
            return
        if len(entries) <= MAX_GROUP_ENTRIES:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        for e in entries[: len(entries) - MAX_GROUP_ENTRIES]:
            try:
                os.unlink(e.path)
            except OSError:
                pass

    def _prepare(self, directory: Path) -> None:
        if not self.root.exists():
            self.root.mkdir(parents=True, exist_ok=True)
            (self.root / ".gitignore").write_text("# Automatically created by tokenlint.\n*\n", encoding="utf-8")
            (self.root / "CACHEDIR.TAG").write_text(
                "Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by tokenlint.\n", encoding="utf-8")
        directory.mkdir(parents=True, exist_ok=True)


class FileEntry(NamedTuple):
    """What the index remembers of one file (stored as a JSON list in this order).

    ``mtime_ns``, ``size`` and ``inode`` are the file's ``os.stat`` when recorded;
    ``candidate`` its prefilter verdict (1 or 0; None: not yet known); ``digest`` its content
    digest (``inputs.digest``) or None; ``imports`` its import scan (``grouping.scan_imports``,
    each import as a list) or None."""

    mtime_ns: int
    size: int
    inode: int
    candidate: int | None = None
    digest: str | None = None
    imports: list[list[Any]] | None = None

    def matches(self, st: os.stat_result) -> bool:
        """Whether the file still has the recorded mtime, size and inode."""
        return (self.mtime_ns, self.size, self.inode) == (st.st_mtime_ns, st.st_size, st.st_ino)


class FileIndexStore:
    """``inputs.FileIndex`` kept in one JSON file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.dirty = False
        self.entries: dict[str, FileEntry] = {}
        self.partitions: dict[str, list[list[int]]] = {}
        self.written_at = 0
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
            if data.get("format") == FORMAT:
                self.entries = {k: FileEntry(*v) for k, v in data["files"].items()}
                self.partitions = data.get("partitions", {})
                self.written_at = int(data["written_at"])
        except (OSError, ValueError, KeyError, TypeError):
            self.entries = {}
            self.partitions = {}

    def _entry(self, path: str, stat: os.stat_result | None = None) -> FileEntry | None:
        e = self.entries.get(path)
        if e is None:
            return None
        if stat is None:
            try:
                stat = os.stat(path)
            except OSError:
                return None
        if not e.matches(stat) or stat.st_mtime_ns >= self.written_at - RACY_NS:
            return None
        return e

    def known(self, path: str, stat: os.stat_result) -> tuple[bool, str | None] | None:
        """``(is_candidate, digest)`` of an unchanged file whose verdict is recorded, else None."""
        e = self._entry(path, stat)
        if e is None or e.candidate is None:
            return None
        return bool(e.candidate), e.digest

    def record(self, path: str, stat: os.stat_result, candidate: bool, digest: str | None) -> None:
        """Remember a file's prefilter verdict and digest (keeping its import scan if unchanged)."""
        old = self.entries.get(path)
        same = old is not None and old.matches(stat)
        self.entries[path] = FileEntry(
            stat.st_mtime_ns, stat.st_size, stat.st_ino, int(candidate),
            digest or (old.digest if same and old is not None else None),
            old.imports if same and old is not None else None)
        self.dirty = True

    def imports(self, path: str) -> list[Import] | None:
        """The recorded import scan of an unchanged file, if any."""
        e = self._entry(path)
        if e is None or e.imports is None:
            return None
        return [cast(Import, tuple(i)) for i in e.imports]

    def record_imports(self, path: str, imports: list[Import]) -> None:
        """Remember a file's import scan."""
        e = self._fresh(path)
        if e is not None:
            self.entries[path] = e._replace(imports=[list(i) for i in imports])
            self.dirty = True

    def digest_of(self, path: str) -> str | None:
        """A recorded digest of an unchanged file, if any."""
        e = self._entry(path)
        return None if e is None else e.digest

    def record_digest(self, path: str, value: str) -> None:
        """Remember a file's digest."""
        e = self._fresh(path)
        if e is not None:
            self.entries[path] = e._replace(digest=value)
            self.dirty = True

    def partition(self, key: str) -> list[list[int]] | None:
        """The groups recorded for run ``key``."""
        return self.partitions.get(key)

    def record_partition(self, key: str, groups: list[list[int]]) -> None:
        """Remember the groups of run ``key`` (the ``MAX_PARTITIONS`` most recent are kept)."""
        if self.partitions.get(key) != groups:
            self.partitions.pop(key, None)
            self.partitions[key] = groups
            while len(self.partitions) > MAX_PARTITIONS:  # oldest first (insertion order)
                del self.partitions[next(iter(self.partitions))]
            self.dirty = True

    def _fresh(self, path: str) -> FileEntry | None:
        """The entry for ``path`` matching its current stat, created (verdict unknown) if need be."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        e = self.entries.get(path)
        if e is None or not e.matches(st):
            e = self.entries[path] = FileEntry(st.st_mtime_ns, st.st_size, st.st_ino)
        return e

    def save(self) -> None:
        """Write the index (atomically)."""
        data = {"format": FORMAT, "written_at": time.time_ns(), "files": self.entries,
                "partitions": self.partitions}
        _write_atomic(self.path, json.dumps(data, separators=(",", ":")))
        self.dirty = False


def code_fingerprint() -> str:
    """A digest of the size and mtime of every ``.py`` file of the tokenlint package."""
    root = Path(__file__).resolve().parent.parent  # tokenlint/, not only this run/ subpackage
    parts = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                st = os.stat(os.path.join(dirpath, name))
                parts.append(f"{os.path.relpath(os.path.join(dirpath, name), root)}:{st.st_size}:{st.st_mtime_ns}")
    return _digest("\n".join(parts))[:16]


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _canonical(value: Any) -> Any:
    """A JSON-able form of settings that does not depend on set or dict order."""
    if isinstance(value, dict):
        return sorted(([str(k), _canonical(v)] for k, v in value.items()), key=lambda kv: kv[0])
    if isinstance(value, (set, frozenset)):
        return sorted(_canonical(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)


def _plain(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (int(v) if isinstance(v, Risk) else list(v) if isinstance(v, tuple) else v) for k, v in d.items()}


def _finding(d: dict[str, Any]) -> Finding:
    d = dict(d)
    d["risk"] = Risk(d["risk"])
    if d.get("tool_id") is not None:
        d["tool_id"] = ToolId(*d["tool_id"])
    return Finding(**d)


def _tool(d: dict[str, Any]) -> ToolReport:
    d = dict(d)
    d["risk"] = Risk(d["risk"])
    d["findings"] = tuple(d["findings"])
    d["untraced"] = tuple(d.get("untraced", ()))
    return ToolReport(**d)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)
