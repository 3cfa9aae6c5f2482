"""Cells that hold several values, or name several columns, separated by "|".

Some model cards print one value per split in a single cell ("3.0|3.8",
"1.6|3.5|**1.8**") under a label cell that names the splits
("Fleurs<br>zh | en"). A reader keeps such a cell as written and lists its
pieces in :attr:`Cell.parts`, each value with its own emphasis, so that what
the parts are can be decided where the table is read as scores.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

SEPARATOR = "|"

#: One piece of a multi-value cell: a number (a percent, marks after it) or a missing mark.
_VALUE = re.compile(
    r"^\s*(?:[-+−]?\d+(?:\.\d+)?\s*%?\s*[*†‡§¶#^¹²³⁴⁵⁶⁷⁸⁹⁰]{0,3}|[-–—]|n/?a)\s*$", re.I
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")

#: A piece of a cell's source text with its emphasis flags: (start offset, text, flags).
Span = tuple[int, str, int]


def is_value(text: str) -> bool:
    """Whether a piece of a multi-value cell is a value (or a missing mark), not a name."""
    return _VALUE.match(text) is not None


def _segments(plain: str) -> list[tuple[int, str]]:
    out, start = [], 0
    for piece in plain.split(SEPARATOR):
        out.append((start, piece))
        start += len(piece) + len(SEPARATOR)
    return out


def value_parts(plain: str, spans: Sequence[Span], every: int) -> list[tuple[str, int, int]] | None:
    """The values of a cell such as "3.0|3.8": (text, emphasis flags, offset) for each, or None
    when the cell is not several values. A value's emphasis is what covers its number, so
    "<b>3.0</b>|4.1" is bold then plain (``every`` is the value of all flags together)."""
    if SEPARATOR not in plain:
        return None
    segments = _segments(plain)
    if len(segments) < 2 or not all(_VALUE.match(s) for _, s in segments):
        return None
    if not any(_NUMBER.search(s) for _, s in segments):
        return None
    out = []
    for start, seg in segments:
        m = _NUMBER.search(seg)
        lo, hi = (start + m.start(), start + m.end()) if m else (start, start + len(seg))
        flags, seen = every, False
        for off, text, style in spans:
            if off < hi and off + len(text) > lo and text.strip():
                flags, seen = flags & style, True
        out.append((" ".join(seg.split()), flags if seen and m else 0, start + len(seg) - len(seg.lstrip())))
    return out


def label_parts(plain: str) -> list[str] | None:
    """The column names a label cell lists on its last line ("Fleurs<br>zh | en" names "Fleurs
    zh" and "Fleurs en"), each with the lines above it as its stem; None when the cell lists
    none, or when a name is missing ("zh | | en")."""
    head, _, last = plain.rstrip().rpartition("\n")
    if SEPARATOR not in last:
        return None
    names = [" ".join(s.split()) for s in last.split(SEPARATOR)]
    if len(names) < 2 or not all(names) or any(_VALUE.match(n) for n in names):
        return None
    stem = " ".join(head.split())
    return [f"{stem} {n}" if stem else n for n in names]
