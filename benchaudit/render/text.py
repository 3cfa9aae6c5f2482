"""Plain text for terminals and logs: one block per finding, then the summary.

Colour is added only when the text goes to a terminal: standard output is a
TTY, the text is not being written to an ``--output`` file, ``NO_COLOR`` is
unset and ``TERM`` is not ``dumb`` (``FORCE_COLOR`` turns it on regardless).
Without colour the output is the same text, byte for byte.

Everything that came from an input goes through :func:`benchaudit.render.escape.line`:
control characters are shown, not sent, and no line can hold a workflow command.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TextIO

from benchaudit.plain import SUPPRESSED_BY
from benchaudit.render.escape import line as _one_line
from benchaudit.render.escape import no_commands
from benchaudit.render.tables import result_tables

if TYPE_CHECKING:
    from benchaudit.finding import Report

_SGR = {
    "error": "1;31",
    "warning": "1;33",
    "info": "1;34",
    "bold": "1",
    "dim": "2",
    "A": "1;32",
    "B": "1;34",
    "C": "1;33",
    "D": "1;33",
    "F": "1;31",
}


def use_color(to_file: bool = False, stream: TextIO | None = None) -> bool:
    """Whether text written to ``stream`` (standard output by default) should be coloured:
    never into a file (``to_file``, ``--output FILE``), only on a terminal that shows colour."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb" or to_file:
        return False
    try:
        return bool((stream or sys.stdout).isatty())
    except (AttributeError, ValueError):
        return False


def render(report: Report, color: bool | None = None) -> str:
    """The report as plain text; ``color`` as the caller decided (None: :func:`use_color`
    on standard output, what the Python API does)."""
    on = use_color() if color is None else color

    def paint(style: str, text: str) -> str:
        return f"\x1b[{_SGR[style]}m{text}\x1b[0m" if on else text

    out: list[str] = []
    for f in report.findings:
        out.append(
            f"{paint('bold', _one_line(f.location))}: {f.code} {paint(f.severity.label, f.severity.label)} "
            f"[{f.confidence.label}] {f.name}: {_one_line(f.message)}"
        )
        if f.claim:
            out.append(f"    claim: {_one_line(f.claim)}")
        if f.suggestion:
            out.append(f"    suggestion: {_one_line(f.suggestion)}")
    for title, header, rows in result_tables(report):
        out.append("")
        out.append(paint("bold", title))
        cells = [[_one_line(c) for c in row] for row in [header, *rows]]
        widths = [max(len(c) for c in col) for col in zip(*cells)]
        for row in cells:
            out.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    for note in report.notes:
        out.append(f"note: {_one_line(note)}")
    if report.numbers_seen:
        out.append(_one_line(report.coverage()))
    out.extend(_suppressed(report))
    if report.config:
        out.append(f"config: {_one_line(report.config)}")
    s = report.summary()
    out.append("")
    out.append(
        f"{paint(report.grade, f'grade {report.grade}')}: {s['errors']} error(s), "
        f"{s['warnings']} warning(s), {s['infos']} info; {s['numbers_seen']} number(s) seen, "
        f"{s['claims_checked']} claim(s) checked"
    )
    # Belt and braces: no line of the text, whatever it holds, is a workflow command.
    return no_commands("\n".join(out).lstrip("\n") + "\n")


def _suppressed(report: Report) -> list[str]:
    """The suppression count, then each suppressed finding on one line."""
    out = [_one_line(report.suppression_line())]
    for h in report.suppressed:
        f = h.finding
        out.append(
            f"    {_one_line(f.location)}: {f.code} {f.severity.label} {f.name}: "
            f"{_one_line(f.message)} [by {SUPPRESSED_BY[h.by]}: {_one_line(h.detail)}]"
        )
    return out
