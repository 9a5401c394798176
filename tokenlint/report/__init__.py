"""Report formats, one module each, registered by subclassing ``Renderer``.

``render(fmt, result)`` returns the report as text (for stdout or ``--output-file``);
``FORMATS`` names every format, ``is_human(fmt)`` tells whether a format is for people (it then
gets the stderr summary and, on a terminal, the progress bar) or for machines (nothing but the
report).
"""

from __future__ import annotations

from tokenlint.model import CheckResult
from tokenlint.report.base import RENDERERS, Renderer
from tokenlint.report import text, json, sarif, github  # noqa: F401,I001  (registers the formats in this order)

FORMATS = tuple(RENDERERS)


def render(fmt: str, result: CheckResult) -> str:
    """The report of ``result`` in format ``fmt`` (one of ``FORMATS``; ``KeyError`` otherwise)."""
    return RENDERERS[fmt]().render(result)


def is_human(fmt: str) -> bool:
    """True for formats read by people (``text``), False for machine formats."""
    return RENDERERS[fmt].HUMAN


__all__ = ["FORMATS", "RENDERERS", "Renderer", "is_human", "render"]
