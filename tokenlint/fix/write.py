"""Writing ``fix``'s changes: atomically, only when the file is as it was read.

``FileChange`` is one file's old and new text (and its diff); ``write_changes`` writes a list of
them, each to a temporary file in the same directory (fsynced, with the old file's permission
bits) renamed over the old one, in the old file's encoding and BOM, so a reader or a crash sees
the old content or the new, never a mix.
"""

from __future__ import annotations

import difflib
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path


@dataclass
class FileChange:
    """One file ``fix`` rewrites: its path, old and new text (str, newlines as in the file).

    ``display`` is the path as reports show it (relative to the working directory when below
    it); ``old_text`` is the file's text when it was read, without a BOM.
    """

    path: Path
    display: str
    old_text: str
    new_text: str
    #: A project manifest declaring the runtime requirement, not a rewritten module.
    manifest: bool = False

    def diff(self) -> str:
        """Unified diff of the change (text, newlines as in the file; empty when unchanged);
        relative paths get ``a/`` and ``b/`` prefixes like ``git diff``."""
        old, new = (self.display, self.display) if os.path.isabs(self.display) else \
            (f"a/{self.display}", f"b/{self.display}")
        return "".join(difflib.unified_diff(
            self.old_text.splitlines(keepends=True), self.new_text.splitlines(keepends=True), old, new))


def write_changes(changes: list[FileChange]) -> list[str]:
    """Write each change atomically; returns one error line per file that could not be written.

    The new text is encoded like the old file (its PEP 263 encoding, its UTF-8 BOM), written to
    a temporary file in the same directory with the old file's permission bits, fsynced, and
    renamed over the old file, so a reader (or a crash) sees the old or the new content, never
    a mix. A file whose content changed on disk since it was read, or that is not writable, is
    left alone. Raises nothing for ``OSError`` (an error line instead); a file whose bytes no
    longer decode raises ``UnicodeDecodeError`` (``SyntaxError`` for a bad coding comment).
    """
    errors: list[str] = []
    for change in changes:
        try:
            _write_one(change)
        except (OSError, _Stale) as exc:
            errors.append(f"{change.display}: not written: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}")
    return errors


class _Stale(Exception):
    """The file's text on disk is no longer the ``old_text`` of its change."""


def _write_one(change: FileChange) -> None:
    """Write one change atomically (see ``write_changes``); raises ``_Stale`` or ``OSError``."""
    path = Path(os.path.realpath(change.path))  # a symlink stays a link; its target is rewritten
    data = path.read_bytes()
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = data.startswith(b"\xef\xbb\xbf")
    old_text = data.decode(encoding)
    if old_text.startswith("\ufeff"):
        old_text = old_text[1:]
    if old_text != change.old_text:
        raise _Stale("the file changed on disk while fix was running")
    mode = stat.S_IMODE(path.stat().st_mode)
    if not os.access(path, os.W_OK) or not mode & 0o222:  # no write bit: read-only even for root
        raise PermissionError(13, "file is read-only")
    new_bytes = change.new_text.encode("utf-8" if encoding == "utf-8-sig" else encoding)
    if bom:
        new_bytes = b"\xef\xbb\xbf" + new_bytes
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tokenlint-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(new_bytes)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
