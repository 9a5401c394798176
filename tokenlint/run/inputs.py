"""What goes into a run: the files read and prefiltered, their module names, the candidates in
groups. Imports no LibCST, so a warm run (everything cached) never loads it.

``read_files`` reads every file once (or not at all when the cache's file index vouches for
it), turns unreadable and too-large files into TL001 findings, applies the byte prefilter and
names each candidate's module. ``RunPlan.groups`` partitions the candidates into groups that
can be analysed independently (``tokenlint.run.grouping``); ``tokenlint.run.results`` merges what the groups produce.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tokenlint.run.grouping import Import, ModuleIndex, group, module_aliases, scan_imports
from tokenlint.source.files import SourcePath, importable_name, may_define_tools
from tokenlint.model import Finding
from tokenlint.run.results import file_finding
from tokenlint.source.decoding import MAX_FILE_BYTES

#: Bytes read from a file above ``MAX_FILE_BYTES`` to decide whether its TL001 is worth reporting.
HEAD_BYTES = 1 << 16


def digest(data: bytes) -> str:
    """The content key of a file: BLAKE2b, 128 bits, hex."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass
class Candidate:
    """A file that passed the byte prefilter (or whose text ``tokenlint fix`` supplies).

    ``data`` holds the bytes read in this run, or None when the cache's file index vouched for
    an unchanged file (``load`` reads it then); ``text`` is an override that replaces the file.
    """

    source: SourcePath
    module_name: str
    data: bytes | None = None
    text: str | None = None
    digest: str | None = None

    def load(self) -> bytes:
        """The file's bytes (read now if this run has not read them). Raises ``OSError``."""
        if self.data is None:
            self.data = self.source.path.read_bytes()
        return self.data

    def key(self) -> str:
        """The content digest (computed from the bytes if the index did not supply it)."""
        if self.digest is None:
            self.digest = digest(self.text.encode() if self.text is not None else self.load())
        return self.digest

    def stripped(self) -> Candidate:
        """A copy without the bytes, cheap to send to a worker process (which reads the file)."""
        return Candidate(self.source, self.module_name, None, self.text, self.digest)


class FileIndex(Protocol):
    """What ``read_files`` asks of the cache: verdicts for files unchanged since last seen."""

    def known(self, path: str, stat: os.stat_result) -> tuple[bool, str | None] | None:
        """``(is_candidate, digest)`` when the file is unchanged since it was recorded."""

    def record(self, path: str, stat: os.stat_result, candidate: bool, digest: str | None) -> None:
        """Remember a file's prefilter verdict (and its digest, for a candidate)."""

    def imports(self, path: str) -> list[Import] | None:
        """The recorded import scan of an unchanged file, if any."""

    def record_imports(self, path: str, imports: list[Import]) -> None:
        """Remember a file's import scan."""

    def digest_of(self, path: str) -> str | None:
        """A recorded digest of an unchanged file, if any."""

    def record_digest(self, path: str, value: str) -> None:
        """Remember a file's digest."""

    def partition(self, key: str) -> list[list[int]] | None:
        """The groups recorded for run ``key`` (see ``RunPlan.groups``)."""

    def record_partition(self, key: str, groups: list[list[int]]) -> None:
        """Remember the groups of run ``key``."""


class ModuleNamer:
    """``imports.module_name_for``, with the walk up through ``__init__.py`` packages done once
    per directory instead of once per file (thousands of stat calls on a large tree)."""

    def __init__(self) -> None:
        self._real: dict[str, str] = {}
        self._parts: dict[str, tuple[str, ...]] = {}

    def __call__(self, path: Path) -> str:
        text = os.fspath(path)
        if os.path.islink(text):
            from tokenlint.source.imports import module_name_for  # imports LibCST: only for symlinks

            return module_name_for(path)
        directory, name = os.path.split(os.path.abspath(text))
        real = self._real.get(directory)
        if real is None:
            real = self._real[directory] = os.path.realpath(directory)
        stem = name.rpartition(".")[0] or name
        parts = self._package(real)
        if name == "__init__.py":
            return ".".join(parts) or stem
        return ".".join((*parts, stem))

    @staticmethod
    def _inside_package(directory: str, levels: int = 2) -> bool:
        probe = os.path.dirname(directory)
        for _ in range(levels):
            if os.path.isfile(os.path.join(probe, "__init__.py")):
                return True
            if os.path.dirname(probe) == probe:
                return False
            probe = os.path.dirname(probe)
        return False

    def _package(self, directory: str) -> tuple[str, ...]:
        hit = self._parts.get(directory)
        if hit is None:
            parent = os.path.dirname(directory)
            if not importable_name(os.path.basename(directory)):
                hit = ()  # no import can name it (an sdist's root, ``mcp_server-1.0/``)
            elif os.path.isfile(os.path.join(directory, "__init__.py")) or self._inside_package(directory):
                # a regular package, or a namespace subpackage of one (``pkg/tools/`` with no
                # ``__init__.py`` under ``pkg/``): as ``imports.module_name_for``
                hit = (*self._package(parent), os.path.basename(directory)) if parent != directory else (os.path.basename(directory),)
            else:
                hit = ()
            self._parts[directory] = hit
        return hit


@dataclass
class RunPlan:
    """The files of a run after reading and prefiltering.

    ``module_files`` maps every ``.py`` file's module name to ``(path, display)`` (the first
    file in run order wins a name); ``packages`` holds module names that are packages.
    """

    files_checked: int
    candidates: list[Candidate]
    file_findings: list[Finding]
    module_files: dict[str, tuple[Path, str]]
    packages: set[str]
    index: FileIndex | None = None
    #: True when the index vouched for every file: nothing was read, nothing changed.
    unchanged: bool = False
    _imports: dict[str, list[Import]] = field(default_factory=dict)
    _aliases: dict[str, str] | None = None

    def aliases(self) -> dict[str, str]:
        """``run.grouping.module_aliases`` of the run's modules, computed once per run (every
        group's ``Project`` and the grouping share it)."""
        if self._aliases is None:
            self._aliases = module_aliases(self.module_files)
        return self._aliases

    def groups(self) -> list[list[Candidate]]:
        """The candidates in independent groups (``tokenlint.run.grouping.group``), in run order.

        The grouping reads the imports of every module the candidates' imports reach, which on
        a large tree costs more than the rest of a cached run; when no file changed since the
        index recorded it, the index's copy of the last grouping of the same files is reused."""
        key = None
        if self.index is not None:
            key = digest("\0".join([os.fspath(p) for p, _ in self.module_files.values()]
                                    + [c.module_name for c in self.candidates]).encode())
            if self.unchanged:
                memo = self.index.partition(key)
                if memo is not None and sorted(i for g in memo for i in g) == list(range(len(self.candidates))):
                    return [[self.candidates[i] for i in g] for g in memo]
        by_name = {c.module_name: c for c in reversed(self.candidates)}
        modules = ModuleIndex(self.module_files, self.packages, self.aliases())
        parts = group([c.module_name for c in self.candidates], modules,
                      lambda name: self._imports_of(name, by_name))
        if key is not None and self.index is not None:
            self.index.record_partition(key, parts)
        return [[self.candidates[i] for i in g] for g in parts]

    def _imports_of(self, name: str, by_name: dict[str, Candidate]) -> list[Import]:
        hit = self._imports.get(name)
        if hit is not None:
            return hit
        found: list[Import] = []
        entry = self.module_files.get(name)
        if entry is not None:
            path = os.fspath(entry[0])
            known = self.index.imports(path) if self.index is not None else None
            if known is not None:
                found = known
            else:
                cand = by_name.get(name)
                try:
                    if cand is not None and cand.text is not None:
                        data = cand.text.encode()
                    else:
                        data = cand.load() if cand is not None else entry[0].read_bytes()
                except OSError:
                    data = b""
                found = scan_imports(data)
                if self.index is not None and (cand is None or cand.text is None):
                    self.index.record_imports(path, found)
        self._imports[name] = found
        return found

    def digest_of_module(self, name: str) -> tuple[str, str] | None:
        """``(display, digest)`` of the run's file for module ``name``, None if there is none.
        A file that cannot be read gets the digest ``"unreadable"``."""
        entry = self.module_files.get(name)
        if entry is None:
            return None
        path, display = entry
        for cand in self.candidates:
            if cand.module_name == name and cand.source.path == path:
                try:
                    return display, cand.key()
                except OSError:
                    return display, "unreadable"
        known = self.index.digest_of(os.fspath(path)) if self.index is not None else None
        if known is None:
            try:
                known = digest(path.read_bytes())
            except OSError:
                return display, "unreadable"
            if self.index is not None:
                self.index.record_digest(os.fspath(path), known)
        return display, known


def read_files(
    files: list[SourcePath],
    context: list[SourcePath] | tuple[SourcePath, ...] = (),
    overrides: dict[Path, str] | None = None,
    index: FileIndex | None = None,
) -> RunPlan:
    """Read and prefilter ``files`` and the ``context`` files (read only to understand ``files``,
    see ``source.files.context_files``; ``RunPlan.files_checked`` counts ``files`` alone).
    ``overrides`` (path → text) are candidates whatever their text; ``index`` lets unchanged
    files go unread. Never raises for a file: one that cannot be read or is too large becomes a
    TL001 finding in ``RunPlan.file_findings``."""
    overrides = overrides or {}
    namer = ModuleNamer()
    module_files: dict[str, tuple[Path, str]] = {}
    packages: set[str] = set()
    candidates: list[Candidate] = []
    findings: list[Finding] = []
    unchanged = index is not None and not overrides
    for sp in [*files, *context]:
        name = None
        if sp.path.suffix == ".py":
            name = namer(sp.path)
            module_files.setdefault(name, (sp.path, sp.display))
            if sp.path.name == "__init__.py":
                packages.add(name)
        if sp.path in overrides:
            candidates.append(Candidate(sp, name or namer(sp.path), text=overrides[sp.path]))
            continue
        path = os.fspath(sp.path)
        try:
            st = os.stat(path)
            if st.st_size == 0:
                continue
            if st.st_size > MAX_FILE_BYTES:
                with open(path, "rb") as fh:
                    head = fh.read(HEAD_BYTES)
                if may_define_tools(head):
                    findings.append(file_finding(sp.display, 1, 1, f"file too large to analyse ({st.st_size:,} "
                                                                   f"bytes; limit {MAX_FILE_BYTES:,} bytes)"))
                continue
            known = index.known(path, st) if index is not None else None
            if known is not None:
                is_candidate, key = known
                if is_candidate:
                    candidates.append(Candidate(sp, name or namer(sp.path), digest=key))
                continue
            unchanged = False
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            unchanged = False
            findings.append(file_finding(sp.display, 1, 1, f"cannot read file: {exc.strerror or exc}"))
            continue
        is_candidate = may_define_tools(data)
        key = digest(data) if is_candidate and index is not None else None
        if index is not None:
            index.record(path, st, is_candidate, key)
        if is_candidate:
            candidates.append(Candidate(sp, name or namer(sp.path), data=data, digest=key))
    return RunPlan(len(files), candidates, findings, module_files, packages, index, unchanged)
