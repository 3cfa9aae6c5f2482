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

from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from benchaudit.errors import InputError
from benchaudit.evidence import Source
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs.text import DOCUMENT_MAX_BYTES
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context

_SKIP = {"script", "style", "head", "template", "noscript", "svg", "math"}
_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "aside",
    "nav",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "figure",
    "figcaption",
    "caption",
    "hr",
    "br",
    "details",
    "summary",
    "form",
    "body",
    "html",
}
_VOID = {
    "br",
    "hr",
    "img",
    "input",
    "meta",
    "link",
    "area",
    "base",
    "col",
    "embed",
    "source",
    "wbr",
}


def sniff(p: Probe) -> float:
    if p.suffix in (".html", ".htm", ".xhtml"):
        return 0.9
    head = p.text.lstrip()[:200].lower()
    if head.startswith(("<!doctype html", "<html")):
        return 0.85
    return 0.0


class RawTable(TypedDict):
    """A table as the parser meets it: cell texts by row, each row's line, whether a row
    has header cells only, and the line of the ``<table>`` tag."""

    rows: list[list[str]]
    lines: list[int]
    head: list[bool]
    line: int


class _Page(HTMLParser):
    """Visible text as (source line, text) pieces with paragraph breaks, and tables."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[int, str]] = []  # (line, text); text "" marks a paragraph break
        self.skip = 0
        self.tables: list[RawTable] = []
        self._table_stack: list[RawTable] = []
        self._cell: list[str] | None = None
        self._cell_is_head = False

    # --- structure
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if tag in _SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        if tag == "table":
            self._table_stack.append({"rows": [], "lines": [], "head": [], "line": line})
            return
        if self._table_stack:
            t = self._table_stack[-1]
            if tag == "tr":
                t["rows"].append([])
                t["lines"].append(line)
                t["head"].append(True)
            elif tag in ("td", "th"):
                if not t["rows"]:
                    t["rows"].append([])
                    t["lines"].append(line)
                    t["head"].append(True)
                self._cell = []
                if tag == "td":
                    t["head"][-1] = False
            elif (tag == "br" or tag in _BLOCK) and self._cell is not None:
                self._cell.append(" ")  # "<div>HumanEval</div><div>0-shot</div>" reads as two words
            return
        if tag in _BLOCK:
            self.pieces.append((line, ""))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        line = self.getpos()[0]
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if self._table_stack:
            t = self._table_stack[-1]
            if tag in ("td", "th") and self._cell is not None:
                text = " ".join("".join(self._cell).split())
                t["rows"][-1].append(text)
                self._cell = None
            elif tag == "table":
                self.tables.append(self._table_stack.pop())
            return
        if tag in _BLOCK:
            self.pieces.append((line, ""))

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self._table_stack:
            if self._cell is not None:
                self._cell.append(data)
            return
        line = self.getpos()[0]
        for k, part in enumerate(data.split("\n")):
            if part.strip():
                self.pieces.append((line + k, part))


def parse(text: str) -> tuple[list[str], list[int], list[RawTable]]:
    """Prose lines, the source line of each, and the raw tables of an HTML page."""
    page = _Page()
    page.feed(text)
    page.close()
    lines: list[str] = []
    numbers: list[int] = []
    current: list[str] = []
    current_line = 0
    for line, piece in page.pieces:
        if piece == "" or (current and line != current_line):
            if current:
                lines.append(" ".join(" ".join(current).split()))
                numbers.append(current_line)
                current = []
            if piece == "":
                if lines and lines[-1] != "":
                    lines.append("")
                    numbers.append(line)
                continue
        if not current:
            current_line = line
        current.append(piece)
    if current:
        lines.append(" ".join(" ".join(current).split()))
        numbers.append(current_line)
    return lines, numbers, page.tables


def _context(lines: list[str], numbers: list[int], at: int) -> str:
    before = [t for t, n in zip(lines, numbers) if n <= at and t]
    return before[-1] if before else ""


def read(path: Path, display: str, ctx: Context) -> Source:
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
    claims, seen = extract(lines, display, ctx, line_numbers=numbers, tables=tables, markdown=False)
    return Source(
        path=display,
        kind="document",
        claims=claims,
        numbers_seen=seen,
        lines=source_lines,
        meta={"format": "html", "tables": tables},
    )


READER = Reader("document", sniff, read, "HTML page (visible text and <table>s)", max_bytes=DOCUMENT_MAX_BYTES, max_mb_key="max-document-mb")
