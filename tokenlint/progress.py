"""A progress bar on stderr for long runs, shown only where a person is watching.

Shown when stderr is a terminal, the report format is for people (``text``), and the run has
more than ``MIN_FILES`` files: a pre-commit hook on a handful of files, a CI log and every
machine format (json, sarif, github) get nothing. ``make_progress`` returns the callback
``check_paths`` takes (``progress(done, total)``, counts of files) or None.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

import click

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar as ClickProgressBar

#: Below this many files a run takes a few seconds at most: a bar would only flicker.
MIN_FILES = 300


class ProgressBar:
    """``progress(done, total)`` callback drawing a click progress bar on ``stream``; the bar
    is created on the first call with ``total > min_files``. Call ``close()`` when done."""

    def __init__(self, stream: TextIO, min_files: int = MIN_FILES) -> None:
        self.stream = stream
        self.min_files = min_files
        self._bar: ClickProgressBar[int] | None = None
        self._done = 0

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if total <= self.min_files:
                return
            self._bar = click.progressbar(length=total, label="Checking", file=self.stream,
                                          show_pos=True, width=30)
            self._bar.__enter__()
        if done > self._done:
            self._bar.update(done - self._done)
            self._done = done

    def close(self) -> None:
        """Finish the bar (fill it, end its line) if one was drawn."""
        if self._bar is not None:
            assert self._bar.length is not None  # created with length=total
            self._bar.update(self._bar.length - self._done)
            self._bar.__exit__(None, None, None)
            self._bar = None


def make_progress(human_format: bool, quiet: bool, stream: TextIO | None = None) -> ProgressBar | None:
    """A ``ProgressBar`` on ``stream`` (default stderr) when it is a terminal and the format is
    for people and not ``--quiet``; otherwise None (nothing is ever drawn)."""
    stream = stream if stream is not None else sys.stderr
    if not human_format or quiet or not stream.isatty():
        return None
    return ProgressBar(stream)
