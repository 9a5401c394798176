"""Which files a run reads: path expansion, excludes, ``.gitignore``, and the byte prefilter.

Excludes and ``.gitignore`` use pathspec's gitignore semantics. Directories holding a
``pyvenv.cfg`` (virtual environments) are never entered. Explicitly named files are always
checked unless ``force-exclude`` is on (pre-commit passes file names one by one).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pathspec

from tokenlint.config import Settings
from tokenlint.sourcefile import wide_encoding

#: A file can hold or register an MCP tool only if it mentions one of these (bytes, before any
#: decoding): server classes, the registration decorators/methods, or the SDK package names.
PREFILTER = re.compile(
    rb"FastMCP|MCPServer|fastmcp|mcp\.server|\.tool\b|add_tool|call_tool|on_call_tool|"
    rb"\bmcp\b"
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
    """Every ``.py``/``.pyi`` file under ``paths``, sorted, without excluded or ignored ones."""
    exclude = _spec([*settings.exclude, *settings.extend_exclude])
    out: dict[Path, SourcePath] = {}
    for given in paths:
        root = Path(given)
        if root.is_file() or not root.exists():
            if root.exists() and settings.force_exclude and _excluded(exclude, root):
                continue
            out.setdefault(root.resolve() if root.exists() else root, SourcePath(root, _display(given)))
            continue
        ignores: list[tuple[Path, pathspec.PathSpec]] = []
        for dirpath, dirnames, filenames in os.walk(root):
            d = Path(dirpath)
            if settings.respect_gitignore and ".gitignore" in filenames:
                try:
                    lines = (d / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
                    ignores.append((d, _spec(lines)))
                except OSError:
                    pass
            keep = []
            for name in sorted(dirnames):
                sub = d / name
                rel = sub.relative_to(root).as_posix() + "/"
                if exclude.match_file(rel) or exclude.match_file(name + "/"):
                    continue
                if (sub / "pyvenv.cfg").exists() or _ignored(ignores, sub, True):
                    continue
                keep.append(name)
            dirnames[:] = keep
            for name in sorted(filenames):
                if not name.endswith((".py", ".pyi")):
                    continue
                f = d / name
                rel = f.relative_to(root).as_posix()
                if exclude.match_file(rel) or _ignored(ignores, f, False):
                    continue
                display = _display(os.path.join(given, rel))
                # realpath, not resolve(): a symlink loop is kept (its read fails with a TL001)
                out.setdefault(Path(os.path.realpath(f)), SourcePath(f, display))
    return sorted(out.values(), key=lambda s: s.display)


def _display(p: str) -> str:
    p = os.path.normpath(p).replace(os.sep, "/")
    return p


def _excluded(spec: pathspec.PathSpec, path: Path) -> bool:
    parts = path.as_posix().split("/")
    return any(spec.match_file("/".join(parts[i:])) for i in range(len(parts)))


def _ignored(ignores, path: Path, is_dir: bool) -> bool:
    for base, spec in ignores:
        try:
            rel = path.relative_to(base).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + ("/" if is_dir else "")):
            return True
    return False


def may_define_tools(data: bytes) -> bool:
    """The byte prefilter: False when the file cannot define or register an MCP tool.

    A UTF-16/UTF-32 file (byte-order mark) is searched as text, so that one mentioning MCP is
    read and reported (TL001) instead of skipped."""
    if PREFILTER.search(data) is not None:
        return True
    wide = wide_encoding(data)
    return wide is not None and PREFILTER.search(data.decode(wide, errors="replace").encode()) is not None
