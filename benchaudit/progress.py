"""A small progress bar on stderr for long work (contamination scans, big bootstraps).

It draws only when its stream is a terminal, so logs, CI output, pre-commit
and pipes never see it; ``BENCHAUDIT_NO_PROGRESS=1`` or ``TERM=dumb`` turn it
off on a terminal too. Redraws are throttled, so calling :meth:`Progress.update`
once per item costs next to nothing::

    with Progress(total=len(shards), label="scanning shards") as bar:
        for shard in shards:
            scan(shard)
            bar.update()

or ``for shard in track(shards, label="scanning shards"): ...``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO, TypeVar

T = TypeVar("T")

WIDTH = 24


def enabled_for(stream: IO[str]) -> bool:
    """Whether a bar should be drawn on ``stream``."""
    if os.environ.get("BENCHAUDIT_NO_PROGRESS") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed stream
        return False


class Progress:
    """A throttled one-line bar: ``label [#####-----]  48%  480/1000  1.2k/s``."""

    def __init__(
        self,
        total: int | None = None,
        label: str = "",
        *,
        stream: IO[str] | None = None,
        enabled: bool | None = None,
        min_interval: float = 0.1,
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled_for(self.stream) if enabled is None else enabled
        self.min_interval = min_interval
        self.done = 0
        self._start = time.monotonic()
        self._last = float("-inf")
        self._width = 0

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last >= self.min_interval or (self.total and self.done >= self.total):
            self._last = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        """The text of the bar as it would be drawn now."""
        elapsed = max((now if now is not None else time.monotonic()) - self._start, 1e-9)
        rate = _si(self.done / elapsed)
        head = f"{self.label} " if self.label else ""
        if self.total:
            frac = min(self.done / self.total, 1.0)
            fill = int(round(frac * WIDTH))
            bar = "#" * fill + "-" * (WIDTH - fill)
            return f"{head}[{bar}] {100 * frac:3.0f}%  {self.done}/{self.total}  {rate}/s"
        return f"{head}{self.done}  {rate}/s"

    def _draw(self, now: float) -> None:
        text = self.line(now)
        pad = max(self._width - len(text), 0)
        self._width = len(text)
        try:
            self.stream.write("\r" + text + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False

    def close(self) -> None:
        """Erase the bar, leaving the terminal as it was."""
        if self.enabled and self._width:
            try:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        self.enabled = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def track(
    items: Iterable[T], total: int | None = None, label: str = "", stream: IO[str] | None = None
) -> Iterator[T]:
    """Iterate over ``items`` with a bar (``total`` from ``len()`` when it has one)."""
    if total is None:
        try:
            total = len(items)  # type: ignore[arg-type]
        except TypeError:
            total = None
    with Progress(total, label, stream=stream) as bar:
        for item in items:
            yield item
            bar.update()


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f}{unit}"
    return f"{x:.1f}"
