"""Reading Python source files safely: size limit, binary detection, PEP 263 / BOM decoding.

Every failure is a ``SourceError`` carrying a one-line reason that ``run.analyse`` turns into a TL001
finding; nothing here lets an exception about bad input escape.
"""

from __future__ import annotations

import codecs
import io
import tokenize
from pathlib import Path

#: Files above this many bytes are reported (TL001) and not parsed: LibCST needs seconds per
#: megabyte, and a hand-written MCP server is never this large (generated code is).
MAX_FILE_BYTES = 4 * 1024 * 1024


#: Byte-order marks of encodings that are not ASCII-compatible, which CPython cannot read as
#: source (PEP 263 allows only ASCII-compatible encodings). UTF-32 LE first: its BOM starts
#: with UTF-16 LE's.
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)


class SourceError(Exception):
    """A file that cannot be read as Python source; ``str(err)`` is the reason, one line."""


def wide_encoding(data: bytes) -> str | None:
    """``"utf-16"`` or ``"utf-32"`` when ``data`` starts with that encoding's byte-order mark."""
    return next((name for bom, name in _WIDE_BOMS if data.startswith(bom)), None)


def decode_source(data: bytes) -> str:
    """Decode source bytes as Python does: a UTF-8 BOM, else a PEP 263 coding cookie, else UTF-8.

    Raises ``SourceError`` for a UTF-16/UTF-32 byte-order mark, NUL bytes ("binary file"), an
    unknown encoding, or bytes that are not valid in the declared encoding (naming the byte offset).
    """
    wide = wide_encoding(data)
    if wide:
        raise SourceError(f"{wide.upper()} encoded (byte-order mark); Python source must be UTF-8 "
                          "or an ASCII-compatible encoding declared with a PEP 263 coding comment")
    if b"\x00" in data:
        raise SourceError("binary file (contains NUL bytes)")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceError(f"bad encoding declaration: {exc.msg if hasattr(exc, 'msg') else exc}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"not valid {encoding} (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "declare the encoding with a PEP 263 coding comment"
        ) from None
    except LookupError:
        raise SourceError(f"unknown encoding {encoding!r}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_source(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read and decode a file. Raises ``SourceError`` (unreadable, too large, binary, bad bytes)."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise SourceError(f"file too large to analyse ({size:,} bytes; limit {max_bytes:,} bytes)")
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read file: {exc.strerror or exc}") from None
    return decode_source(data)
