"""Markdown → :class:`~benchaudit.documents.model.Document`, through markdown-it-py.

A CommonMark parser (with GFM tables) decides what is a heading, a paragraph,
a list item, a quote, code, HTML or a table, so that this module never
guesses structure from a line's first characters. What the parser does not
give — columns — comes from the source lines: each block's lines are taken
from the source by the parser's line map, container prefixes (list markers,
``>``) are cut, and inline markup is blanked to spaces in place, so a column
in a cleaned line is a column of the file.

Front matter (``---`` or ``+++`` at the top), HTML comments and link targets
are not prose. Tables inside code blocks (box drawing, aligned columns) and
HTML ``<table>`` blocks are tables too.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from benchaudit.documents.codetables import code_table
from benchaudit.documents.frame import attach_frames
from benchaudit.documents.model import (
    Block,
    BlockKind,
    Cell,
    Document,
    Item,
    Section,
    Table,
    TextLine,
    marks_of,
)
from benchaudit.documents.superscripts import RAISED
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from markdown_it.token import Token

_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,9}[.)])(?:\s+|$)")
_QUOTE_MARK = re.compile(r"^\s*(?:>\s?)+")
_FOOTNOTE_DEF = re.compile(r"^\s*\[\^([^\]\s]+)\]:\s*")
_CAPTION = re.compile(r"^\s*(?:[*_]{1,2})?(?:Table|Tab\.)\s*\d+[A-Za-z]?\s*(?:[*_]{1,2})?\s*[:.|]", re.I)
#: Inline markup blanked in place; the reStructuredText / plain-text reader shares all but the first.
INLINE_MARKUP = [
    re.compile(r"<!--.*?-->"),  # comments on one line
    re.compile(r"!\[[^\]]*\]\([^)]*\)"),  # images
    re.compile(r"\]\([^)]*\)"),  # the target of a link (the text stays)
    re.compile(r"\[\^[^\]]*\]"),  # footnote references
    re.compile(r"https?://\S+|www\.\S+"),
    re.compile(r"</?[A-Za-z][^>]*>"),  # inline HTML
    re.compile(r"\*\*|__|~~|`"),
    re.compile(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|(?<!\w)_(?=\w)|(?<=\w)_(?!\w)"),
]



_LINK = re.compile(r"\[([^\[\]]*)\](\([^)]*\)|\[[^\]]*\])")


def clean_inline(line: str) -> str:
    """Markdown markup replaced by spaces of the same length, so columns survive.

    A link's text keeps its words and loses its brackets; other brackets stay, since
    "[68.1, 73.9]" is an interval.
    """
    for pattern in INLINE_MARKUP[:2]:  # comments and images first: an image is not link text
        line = pattern.sub(lambda m: " " * len(m.group(0)), line)
    line = _LINK.sub(lambda m: " " + m.group(1) + " " * (len(m.group(0)) - len(m.group(1)) - 1), line)
    for pattern in INLINE_MARKUP[2:]:
        line = pattern.sub(lambda m: " " * len(m.group(0)), line)
    return line


def _blank_front_matter(lines: list[str]) -> list[str]:
    if not lines or lines[0].strip() not in ("---", "+++"):
        return lines
    closing = lines[0].strip()
    for j in range(1, min(len(lines), 500)):
        if lines[j].strip() == closing:
            return [""] * (j + 1) + lines[j + 1 :]
    return lines


def _blank_comments(lines: list[str]) -> list[str]:
    """HTML comments over several lines become blank lines (one-line ones are blanked later)."""
    out = list(lines)
    inside = False
    for i, line in enumerate(out):
        if inside:
            end = line.find("-->")
            if end < 0:
                out[i] = ""
                continue
            out[i] = " " * (end + 3) + line[end + 3 :]
            inside = False
            line = out[i]
        start = line.find("<!--")
        if start >= 0 and line.find("-->", start) < 0:
            out[i] = line[:start]
            inside = True
    return out


_PARSER: Any = None


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        from markdown_it import MarkdownIt

        _PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return _PARSER


class _Reader:
    def __init__(self, lines: list[str], display: str) -> None:
        self.lines = lines
        self.doc = Document(path=display, format="markdown", lines=lines)
        self.section: Section | None = None
        self.items: list[Item] = self.doc.items
        self.in_item = 0
        self.in_quote = 0

    # ------------------------------------------------------------ text blocks

    def _text_lines(self, start: int, end: int, first_prefix: re.Pattern[str] | None) -> list[TextLine]:
        out: list[TextLine] = []
        for i in range(start, min(end, len(self.lines))):
            raw = self.lines[i]
            cut = 0
            if self.in_quote:
                q = _QUOTE_MARK.match(raw)
                cut = q.end() if q else 0
            if first_prefix is not None and i == start:
                m = first_prefix.match(raw[cut:])
                if m:
                    cut += m.end()
            cleaned = clean_inline(raw[cut:])
            lead = len(cleaned) - len(cleaned.lstrip())
            text = cleaned.strip()
            if text:
                out.append(TextLine(i + 1, cut + lead + 1, cleaned[lead:].rstrip()))
        return out

    def _add_block(self, kind: BlockKind, lines: list[TextLine], label: str = "") -> Block:
        block = Block(kind, lines, self.section, label)
        self.items.append(block)
        return block

    def paragraph(self, token: Token) -> None:
        start, end = token.map or (0, 0)
        first = self.lines[start] if start < len(self.lines) else ""
        if self.in_quote:
            q = _QUOTE_MARK.match(first)
            first = first[q.end() :] if q else first
        foot = _FOOTNOTE_DEF.match(first)
        if foot:
            lines = self._text_lines(start, end, _FOOTNOTE_DEF)
            block = self._add_block("footnote", lines, foot.group(1))
            self.doc.footnotes[foot.group(1)] = block
            return
        prefix = _LIST_MARK if self.in_item and _LIST_MARK.match(first) else None
        kind: BlockKind = "item" if self.in_item else "quote" if self.in_quote else "paragraph"
        if _CAPTION.match(first):
            kind = "caption"
        self._add_block(kind, self._text_lines(start, end, prefix))

    def heading(self, token: Token, inline: Token) -> None:
        start, end = token.map or (0, 0)
        level = int(token.tag[1:]) if token.tag[1:].isdigit() else 1
        lines = self._text_lines(start, end, re.compile(r"^\s{0,3}#{1,6}(?:\s+|$)"))
        # A setext heading's underline is not text.
        lines = [t for t in lines if not re.fullmatch(r"[=\-\s]+", t.text)]
        title = " ".join(t.text.strip().rstrip("#").strip() for t in lines)
        parent = self.section
        while parent is not None and parent.level >= level:
            parent = parent.parent
        self.section = Section(title, level, start + 1, parent)
        self.doc.sections.append(self.section)
        self._add_block("heading", lines)

    def code(self, token: Token) -> None:
        start, end = token.map or (0, 0)
        body = token.content
        first = start + 1 if token.type == "fence" else start
        lines = [TextLine(first + k + 1, 1, t) for k, t in enumerate(split_lines(body)) if t.strip()]
        table = code_table(lines)
        if table is not None:
            table.section = self.section
            self.items.append(table)
            return
        self._add_block("code", lines, token.info.strip())

    def html(self, token: Token) -> int:
        """Read an HTML block; return the source line (0-based) the block really ends at.

        CommonMark ends an HTML block at a blank line, so a ``<table>`` with blank
        lines inside arrives in pieces: the block is extended over the source
        until every table it opens is closed.
        """
        from benchaudit.documents.html import parse_fragment, unclosed_tables

        start, end = token.map or (0, 0)
        content = token.content
        if unclosed_tables(content) > 0:
            j = end
            while j < len(self.lines) and j - end < 5000:
                j += 1
                if unclosed_tables("\n".join(self.lines[start:j])) <= 0:
                    break
            content = "\n".join(self.lines[start:j]) + "\n"
            end = j
        for item in parse_fragment(content, start + 1):
            item.section = self.section
            self.items.append(item)
        return end

    # ------------------------------------------------------------ pipe tables

    def table(self, tokens: list[Token], i: int) -> int:
        """Read the table starting at ``tokens[i]`` (``table_open``); return the index after it."""
        header: list[list[Cell]] = []
        rows: list[list[Cell]] = []
        in_head = False
        row: list[Cell] = []
        row_line = 0
        starts: list[int] = []
        j = i + 1
        while j < len(tokens) and tokens[j].type != "table_close":
            t = tokens[j]
            if t.type == "thead_open":
                in_head = True
            elif t.type == "thead_close":
                in_head = False
            elif t.type == "tr_open":
                row = []
                row_line = (t.map or (0, 0))[0]
                starts = _cell_starts(self.lines[row_line] if row_line < len(self.lines) else "")
            elif t.type == "tr_close":
                (header if in_head else rows).append(row)
            elif t.type == "inline":
                k = len(row)
                column = starts[k] if k < len(starts) else None
                row.append(_cell(t, row_line + 1, column))
            j += 1
        table = Table(header, rows, "pipe", line=(tokens[i].map or (0, 0))[0] + 1, section=self.section)
        table.groups = [""] * len(rows)
        _promote_subheader(table)
        _mark_groups(table)
        self.items.append(table)
        return j + 1

    # ------------------------------------------------------------ walk

    def walk(self, tokens: list[Token]) -> None:
        i = 0
        while i < len(tokens):
            t = tokens[i]
            kind = t.type
            if kind == "list_item_open":
                self.in_item += 1
            elif kind == "list_item_close":
                self.in_item -= 1
            elif kind == "blockquote_open":
                self.in_quote += 1
            elif kind == "blockquote_close":
                self.in_quote -= 1
            elif kind == "heading_open":
                self.heading(t, tokens[i + 1])
                i += 3
                continue
            elif kind == "paragraph_open":
                self.paragraph(t)
            elif kind in ("fence", "code_block"):
                self.code(t)
            elif kind == "html_block":
                end = self.html(t)
                # Skip what the extended block took in (tokens that start before its end).
                while i + 1 < len(tokens) and (nxt := tokens[i + 1].map) is not None and nxt[0] < end:
                    i += 1
                    if tokens[i].type.endswith("_open") and tokens[i].nesting == 1:
                        i = _close_of(tokens, i)
            elif kind == "table_open":
                i = self.table(tokens, i)
                continue
            i += 1


def _close_of(tokens: list[Token], i: int) -> int:
    """The index of the token that closes ``tokens[i]``."""
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _html_fallback(content: str, first_line: int) -> list[Item]:
    """HTML in Markdown read with the standard library's parser: tables and visible text."""
    from benchaudit.inputs._html_page import parse

    lines, numbers, raw = parse(content)
    out: list[Item] = []
    paragraph: list[TextLine] = []
    for text, line in zip([*lines, ""], [*numbers, 0]):
        if not text.strip():
            if paragraph:
                out.append(Block("paragraph", paragraph))
                paragraph = []
            continue
        paragraph.append(TextLine(first_line + line - 1, 1, text))
    for t in raw:
        rows = [(r, ln) for r, ln in zip(t["rows"], t["lines"]) if any(c.strip() for c in r)]
        if len(rows) < 2:
            continue
        cells = [[Cell(c, first_line + ln - 1, None, marks=marks_of(c)) for c in r] for r, ln in rows]
        table = Table(cells[:1], cells[1:], "html", line=first_line + rows[0][1] - 1)
        table.groups = [""] * len(table.rows)
        out.append(table)
    out.sort(key=lambda i: i.line or 0)
    return out


def _cell_starts(line: str) -> list[int]:
    """The 1-based column where each cell of a pipe-table row starts."""
    cols: list[int] = []
    body = line.rstrip()
    pos = len(body) - len(body.lstrip())
    if body[pos : pos + 1] == "|":
        pos += 1
    i = pos
    while i <= len(body):
        if i == len(body) or (body[i] == "|" and body[i - 1 : i] != "\\"):
            raw = body[pos:i]
            cols.append(pos + (len(raw) - len(raw.lstrip())) + 1)
            pos = i + 1
        i += 1
    return cols


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: A cell that is only a value: such a row is data with its other cells left empty, while a
#: label with a digit in it ("1-2B Base Models", ">= 7B") still names a row group.
_VALUE = re.compile(r"\s*[-+±~≈<>]?\s*\d[\d.,]*\s*%?\s*$")


def _cell(inline: Token, line: int, column: int | None) -> Cell:
    """A pipe-table cell from its inline tokens: text, emphasis and marks."""
    plain: list[str] = []
    emph: dict[str, list[str]] = {"bold": [], "italic": [], "underline": [], "struck": []}
    depth = {"bold": 0, "italic": 0, "underline": 0, "struck": 0}
    raised = 0
    for c in inline.children or []:
        tag = c.type
        if tag in ("s_open", "s_close"):
            depth["struck"] += 1 if tag == "s_open" else -1
        elif tag == "strong_open":
            depth["bold"] += 1
        elif tag == "strong_close":
            depth["bold"] -= 1
        elif tag == "em_open":
            depth["italic"] += 1
        elif tag == "em_close":
            depth["italic"] -= 1
        elif tag == "html_inline":
            sup = re.match(r"<(/?)\s*sup\b", c.content, re.I)
            if sup:
                raised += -1 if sup.group(1) else 1
            if re.match(r"<\s*(?:br|sub)\b", c.content, re.I):
                # "Video-MME<sub>w sub</sub>", "GPQA<br>Diamond": the tag parts two words
                plain.append(" ")
            m = re.match(r"<(/?)\s*(b|strong|u|ins|i|em|del|s|strike)\b", c.content, re.I)
            if m:
                name = {
                    "b": "bold", "strong": "bold", "u": "underline", "ins": "underline",
                    "del": "struck", "s": "struck", "strike": "struck",
                }.get(m.group(2).lower(), "italic")
                depth[name] += -1 if m.group(1) else 1
        elif tag in ("text", "code_inline"):
            # "42.3<sup>2</sup>" is 42.3 with footnote 2 ("42.3²"), never the number 42.32.
            plain.append(c.content.translate(RAISED) if raised > 0 else c.content)
            for name, d in depth.items():
                if d > 0:
                    emph[name].append(c.content)
        elif tag in ("softbreak", "hardbreak"):
            plain.append(" ")
    text = " ".join("".join(plain).split())

    def covers(name: str) -> bool:
        covered = "".join(emph[name])
        if not covered.strip():
            return False
        numbers = _NUMBER.findall(text)
        if numbers:
            return numbers[0] in covered
        return len(covered.strip()) * 2 >= len(text)

    return Cell(
        text,
        line,
        column,
        bold=covers("bold"),
        italic=covers("italic"),
        underline=covers("underline"),
        marks=marks_of(text),
        struck=covers("struck"),
    )


def _promote_subheader(table: Table) -> None:
    """A first body row of labels under a header with empty cells ("Wenetspeech | | Librispeech
    | |" over "Test_Net | Test_Meeting | Dev_Clean ...") is a second header row: Markdown has
    no spanning cells, so authors leave the cells a label spans empty and name the parts below.
    The spanning label is carried over the empty cells to its right, so that each column reads
    "Librispeech / Dev_Other"."""
    if len(table.header_rows) != 1 or len(table.rows) < 2:
        return
    top, first = table.header_rows[0], table.rows[0]
    spans = any(
        not top[j].text.strip() and any(top[k].text.strip() for k in range(1, j)) for j in range(2, len(top))
    )
    if not spans:
        return  # nothing spans: the header has no empty cell after a label
    filled = [c for c in first if c.text.strip()]
    if len(filled) < 2 or first[0].text.strip() or any(_VALUE.match(c.text) for c in filled):
        return  # a data row (numbers) or a row-group label, not the names of sub-columns
    carried: list[Cell] = []
    label: Cell | None = None
    for j, cell in enumerate(top):
        below = first[j].text.strip() if j < len(first) else ""
        if cell.text.strip():
            label = cell
        elif label is not None and below and j > 0:
            cell = replace(cell, text=label.text)  # the label spans this column
        carried.append(cell)
    table.header_rows = [carried, first]
    table.rows = table.rows[1:]
    table.groups = table.groups[1:]


def _mark_groups(table: Table) -> None:
    """Rows with a label and no other content are row-group labels, not data rows."""
    kept: list[list[Cell]] = []
    groups: list[str] = []
    current = ""
    width = table.width
    for row in table.rows:
        filled = [c for c in row if c.text.strip()]
        if width > 2 and len(filled) == 1 and row and row[0].text.strip() and not _VALUE.match(row[0].text):
            current = row[0].text.strip()
            continue
        kept.append(row)
        groups.append(current)
    table.rows, table.groups = kept, groups


def read_markdown(text: str, display: str) -> Document:
    """The document model of a Markdown text."""
    lines = split_lines(text.lstrip("\ufeff"))
    visible = _blank_comments(_blank_front_matter(lines))
    reader = _Reader(visible, display)
    reader.doc.lines = lines
    reader.walk(_parser().parse("\n".join(visible)))
    attach_frames(reader.doc)
    return reader.doc
