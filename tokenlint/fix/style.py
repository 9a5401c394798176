"""The code style ``fix`` writes in: the line length and quotes of the project's formatter.

The lines ``fix`` adds are laid out as black and ``ruff format`` lay them out (both share the
layout: a call or signature that fits stays on one line; else its contents go on one indented
line between the brackets; else one item per line with a trailing comma), at the project's own
line length, so a file that passed ``ruff format --check`` or ``black --check`` still passes.
Lines ``fix`` does not change are never touched.

The line length, in characters, comes from the nearest of ``ruff.toml`` / ``.ruff.toml``
(``line-length``), ``pyproject.toml`` ``[tool.ruff] line-length`` or ``[tool.black]
line-length``, searched upward from the file to the repository root (the first directory holding
``.git``); else 88, the default of black and ruff (https://docs.astral.sh/ruff/settings/#line-length,
https://black.readthedocs.io/en/stable/the_black_code_style/current_style.html#line-length).
The quote of the strings ``fix`` writes is ``'`` where ruff's ``[format] quote-style = "single"``
applies, else ``"`` (black's and ruff's default).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10
    import tomli as tomllib

#: black's and ruff's default line length, in characters.
DEFAULT_LINE_LENGTH = 88


@dataclass(frozen=True)
class Style:
    """How the lines ``fix`` adds are written: ``line_length`` in chars, ``quote`` ``"`` or ``'``."""

    line_length: int = DEFAULT_LINE_LENGTH
    quote: str = '"'


def style_for(path: Path) -> Style:
    """The formatter style that applies to the file ``path``; never raises."""
    return _style_in(path.resolve().parent)


@lru_cache(maxsize=256)
def _style_in(directory: Path) -> Style:
    """The style configured in ``directory`` or the nearest parent, up to the repository root."""
    for name in ("ruff.toml", ".ruff.toml", "pyproject.toml"):
        found = _configured(directory / name)
        if found is not None:
            return found
    if (directory / ".git").exists() or directory.parent == directory:
        return Style()
    return _style_in(directory.parent)


def _configured(path: Path) -> Style | None:
    """The style the file ``path`` configures; None when it is absent, unreadable or says nothing."""
    if not path.is_file():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if path.name != "pyproject.toml":
        return _style(data, data.get("format"))
    tools = data.get("tool", {})
    if isinstance(tools.get("ruff"), dict):
        return _style(tools["ruff"], tools["ruff"].get("format"))
    if isinstance(tools.get("black"), dict):
        return _style(tools["black"], None)
    return None


def _style(table: dict[str, Any], format_table: object) -> Style:
    """The style a ruff or black settings ``table`` sets, with ruff's ``[format]`` table (or None)."""
    value = table.get("line-length", table.get("line_length"))
    length = value if isinstance(value, int) and value > 0 else DEFAULT_LINE_LENGTH
    single = isinstance(format_table, dict) and format_table.get("quote-style") == "single"
    return Style(length, "'" if single else '"')
