"""The standard library's HTML parser turned into prose lines and raw tables.

Used by the HTML reader (:mod:`benchaudit.inputs.html`) and for HTML inside
Markdown (:mod:`benchaudit.documents.markdown`, :mod:`benchaudit.inputs.sentences`);
a leaf module, so those readers need not import one another. Visible text is
kept in source order (``script``, ``style``, ``head``, ``template``,
``noscript`` and ``svg`` are skipped), block elements start a new paragraph,
and every piece of text keeps the source line it came from.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

#: A raw table: {"rows": [[cell, ...], ...], "lines": [...], "head": [...], "line": n}.
RawTable = dict[str, Any]

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
