"""HTML pages (model cards, blog posts): the ``document`` reader for ``.html``.

The standard library's ``html.parser`` walks the page; visible text is kept
in source order (``script``, ``style``, ``head``, ``template``, ``noscript``
and ``svg`` are skipped), block elements start a new paragraph, and every
piece of text keeps the source line it came from, so findings point at lines
of the HTML file. ``<table>`` elements become
:class:`~benchaudit.inputs.tables.Table` objects (header from ``<th>`` or the
first row) and stay out of the prose.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from benchaudit.errors import InputError
from benchaudit.evidence import Source
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs.text import DOCUMENT_MAX_BYTES
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context

def sniff(p: Probe) -> float:
    if p.suffix in (".html", ".htm", ".xhtml"):
        return 0.9
    head = p.text.lstrip()[:200].lower()
    if head.startswith(("<!doctype html", "<html")):
        return 0.85
    return 0.0


def _context(lines: list[str], numbers: list[int], at: int) -> str:
    before = [t for t, n in zip(lines, numbers) if n <= at and t]
    return before[-1] if before else ""


def read(path: Path, display: str, ctx: Context) -> Source:
    from benchaudit.inputs._html_page import parse  # here: detection imports this module
    from benchaudit.inputs.claims import extract
    from benchaudit.inputs.tables import Table

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(display, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(display, f"not valid UTF-8 text (byte {exc.start})", line) from None
    if not text.strip():
        raise InputError(display, "empty file")
    lines, numbers, raw_tables = parse(text)
    tables = []
    for t in raw_tables:
        rows = [r for r in t["rows"] if any(c.strip() for c in r)]
        lines_of: list[int | None] = [
            ln for r, ln in zip(t["rows"], t["lines"]) if any(c.strip() for c in r)
        ]
        if len(rows) < 2:
            continue
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        tables.append(
            Table(
                header=rows[0],
                rows=rows[1:],
                header_line=lines_of[0],
                row_lines=lines_of[1:],
                context=_context(lines, numbers, t["line"]),
            )
        )
    source_lines = split_lines(text)
    if not any(s.strip() for s in lines) and not tables:
        raise InputError(display, "no visible text in this HTML page")
    notes: list[str] = []  # what was not read, on the source for the report
    claims, seen = extract(
        lines, display, ctx, line_numbers=numbers, tables=tables, markdown=False, notes=notes
    )
    return Source(
        path=display,
        kind="document",
        claims=claims,
        numbers_seen=seen,
        lines=source_lines,
        meta={"format": "html", "tables": tables},
        notes=notes,
    )


READER = Reader("document", sniff, read, "HTML page (visible text and <table>s)", max_bytes=DOCUMENT_MAX_BYTES, max_mb_key="max-document-mb")
