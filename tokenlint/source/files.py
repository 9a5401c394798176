"""Which files a run reads: path expansion, excludes, ``.gitignore``, and the byte prefilter.

Excludes and ``.gitignore`` use pathspec's gitignore semantics. Directories holding a
``pyvenv.cfg`` (virtual environments) are never entered. Explicitly named files are always
checked unless ``force-exclude`` is on (pre-commit passes file names one by one).
"""

from __future__ import annotations

import keyword
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pathspec

from tokenlint.config import Settings
from tokenlint.source.decoding import wide_encoding

#: A file can hold or register an MCP tool only if it mentions one of these (bytes, before any
#: decoding): server classes, the registration decorators/methods, the SDK package names, or the
#: JSON-RPC method a server without an SDK dispatches (``tools/call``: ``discovery.handwritten``).
PREFILTER = re.compile(
    rb"FastMCP|MCPServer|fastmcp|mcp\.server|\.tool\b|add_tool|call_tool|on_call_tool|"
    rb"\bmcp\b|@tool\b|tools/call"
)


@dataclass(frozen=True)
class SourcePath:
    """A file of the run: ``path`` on disk and ``display`` as the user's path joined with the
    file's path below it (what reports print)."""

    path: Path
    display: str


def _spec(patterns) -> pathspec.PathSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


def expand_paths(paths: list[str], settings: Settings) -> list[SourcePath]:
    """Every ``.py``/``.pyi`` file under ``paths``, sorted, without excluded or ignored ones.

    Walks with ``os.scandir`` and string paths (one ``realpath`` per directory, not per file):
    on a tree of thousands of files the walk costs less than reading them."""
    exclude = _spec([*settings.exclude, *settings.extend_exclude])
    out: dict[str, SourcePath] = {}
    for given in paths:
        root = Path(given)
        if root.is_file() or not root.exists():
            if root.exists() and settings.force_exclude and _excluded(exclude, root):
                continue
            key = os.path.realpath(root) if root.exists() else os.fspath(root)
            out.setdefault(key, SourcePath(root, _display(given)))
            continue
        _walk_dir(os.fspath(root), "", given, exclude, settings.respect_gitignore, [], out)
    return sorted(out.values(), key=lambda s: s.display)


def _walk_dir(directory: str, rel: str, given: str, exclude: pathspec.PathSpec, gitignore: bool,
              ignores: list[tuple[str, pathspec.PathSpec]], out: dict[str, SourcePath]) -> None:
    """One directory of ``expand_paths`` (``rel``: its path below the root, posix, "" for the
    root), then its subdirectories in name order; what ``os.walk`` would visit, top-down."""
    try:
        with os.scandir(directory) as it:
            entries = list(it)
    except OSError:
        return
    dirs: list[os.DirEntry] = []
    files: list[os.DirEntry] = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        (dirs if is_dir else files).append(entry)
    if gitignore and any(e.name == ".gitignore" for e in files):
        try:
            with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as fh:
                ignores = [*ignores, (directory, _spec(fh.read().splitlines()))]
        except OSError:
            pass
    real_dir: str | None = None
    for entry in sorted(files, key=lambda e: e.name):
        name = entry.name
        if not name.endswith((".py", ".pyi")):
            continue
        file_rel = f"{rel}{name}"
        if exclude.match_file(file_rel) or _ignored_path(ignores, entry.path, False):
            continue
        if entry.is_symlink():
            key = os.path.realpath(entry.path)
        else:
            if real_dir is None:
                real_dir = os.path.realpath(directory)
            key = os.path.join(real_dir, name)
        out.setdefault(key, SourcePath(Path(entry.path), _display(os.path.join(given, file_rel))))
    for entry in sorted(dirs, key=lambda e: e.name):
        name = entry.name
        sub_rel = f"{rel}{name}/"
        if exclude.match_file(sub_rel) or exclude.match_file(name + "/"):
            continue
        if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")) or _ignored_path(ignores, entry.path, True):
            continue
        if entry.is_symlink():  # listed, as os.walk lists it, but not followed
            continue
        _walk_dir(entry.path, sub_rel, given, exclude, gitignore, ignores, out)


def _ignored_path(ignores: list[tuple[str, pathspec.PathSpec]], path: str, is_dir: bool) -> bool:
    for base, spec in ignores:
        if not path.startswith(base + os.sep):
            continue
        rel = path[len(base) + 1:].replace(os.sep, "/")
        if spec.match_file(rel + ("/" if is_dir else "")):
            return True
    return False


def _display(p: str) -> str:
    p = os.path.normpath(p).replace(os.sep, "/")
    return p


def _excluded(spec: pathspec.PathSpec, path: Path) -> bool:
    parts = path.as_posix().split("/")
    return any(spec.match_file("/".join(parts[i:])) for i in range(len(parts)))


def importable_name(name: str) -> bool:
    """Whether an import statement can name a directory or module called ``name``: an
    identifier that is no keyword (``mcp_server-1.0``, an unpacked sdist's root, cannot be)."""
    return name.isidentifier() and not keyword.iskeyword(name)


def may_define_tools(data: bytes) -> bool:
    """The byte prefilter: False when the file cannot define or register an MCP tool.

    Exactly ``PREFILTER.search(data) is not None``, computed faster: every alternative of the
    pattern contains ``mcp``, ``MCP`` or ``tool``, so the file is searched for those with
    ``bytes.find`` (memchr speed) and the pattern is only tried in a small window around each
    occurrence (wide enough for the longest alternative and its ``\\b`` checks).

    A UTF-16/UTF-32 file (byte-order mark) is searched as text, so that one mentioning MCP is
    read and reported (TL001) instead of skipped."""
    if _search(data):
        return True
    wide = wide_encoding(data)
    return wide is not None and _search(data.decode(wide, errors="replace").encode())


#: Bytes before and after an occurrence of a needle that a match containing it can span,
#: plus one on each side for the ``\b`` tests (``on_call_tool``: 8 before ``tool``).
_BEFORE, _AFTER = 9, 10


def _search(data: bytes) -> bool:
    search = PREFILTER.search
    for needle in (b"mcp", b"MCP", b"tool"):
        i = data.find(needle)
        while i != -1:
            if search(data, max(0, i - _BEFORE), i + len(needle) + _AFTER):
                return True
            i = data.find(needle, i + 1)
    return False


#: Files that mark a project's root directory (where a run looking for context stops).
PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


def context_files(paths: list[str], files: list[SourcePath], settings: Settings) -> list[SourcePath]:
    """The project files that Python files named on the command line may need to be analysed
    with, read from disk: pre-commit passes only the staged files, and a tool module
    (``tools/x.py``) registers its tools on a server object created in another module
    (``server.py``). For each named ``.py`` file: every Python file of its top-level package
    (walking up through ``__init__.py`` directories), or, outside a regular package, of its
    project (the nearest directory holding one of ``PROJECT_MARKERS``, else its own directory);
    excludes and ``.gitignore`` apply. ``files`` (the run's own) are left out. Empty when only
    directories are named. The run reports findings of the named files only (``run.pipeline``)."""
    roots: dict[str, str] = {}
    run = {os.path.realpath(s.path) for s in files}
    for given in paths:
        path = Path(given)
        if not (path.suffix == ".py" and path.is_file()) or os.path.realpath(path) not in run:
            continue  # a directory, or a file excluded from the run
        here = path.resolve().parent
        top = here
        while (top / "__init__.py").is_file() and (top.parent / "__init__.py").is_file():
            top = top.parent
        if not (top / "__init__.py").is_file():
            top = next((d for d in [here, *here.parents] if any((d / m).exists() for m in PROJECT_MARKERS)), here)
        roots.setdefault(os.fspath(top), _relative_display(top))
    if not roots:
        return []
    have = {os.path.realpath(s.path) for s in files}
    out = []
    for source in expand_paths(sorted(roots.values()), settings):
        key = os.path.realpath(source.path)
        if key not in have:
            have.add(key)
            out.append(source)
    return out


def _relative_display(directory: Path) -> str:
    """``directory`` relative to the working directory when below it, else absolute."""
    try:
        return os.fspath(directory.relative_to(Path.cwd().resolve())) or "."
    except ValueError:
        return os.fspath(directory)
