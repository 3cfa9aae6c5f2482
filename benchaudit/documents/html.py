"""HTML pages, and HTML fragments inside Markdown, read into the document model.

Model cards keep their numbers in ``<table>`` blocks: two-level headers with
``colspan``, ``rowspan`` labels, "Proprietary"/"Open-source" group rows, bold
and underlined best scores, ``<sup>*</sup>`` marks. Their prose sits in
``<p>``, ``<div align="center">`` and ``<details>``. This module turns that
markup into what a reviewer sees: visible text only, blocks and sections,
tables with emphasis, and a line/column map back to the HTML source so
findings point at it.

``html.parser`` does the tokenising (start-up speed: no lxml or bs4). The tree
building is a small, forgiving subset of HTML's: implied ends for ``p``,
``li``, ``td``, ``tr``; end tags never reach across a table cell; nesting
below :data:`MAX_DEPTH` keeps its text but loses its structure. Every step is
linear in the input.

Columns: text keeps its source column and markup is blanked to spaces, except
where a tag or entity sits inside a word (``74.3<sup>*</sup>``, ``70.0&#37;``):
there it is dropped so the word stays whole, and later columns on that line
drift left by the markup's width.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

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
from benchaudit.documents.multivalue import label_parts, value_parts
from benchaudit.documents.superscripts import LOWERED, RAISED
from benchaudit.errors import InputError

#: Elements nested deeper than this lose their structure; their text is kept.
MAX_DEPTH = 200
#: ``colspan``/``rowspan`` are clamped to this (``rowspan="65534"`` tricks).
MAX_SPAN = 1000


def _tags(names: str) -> frozenset[str]:
    return frozenset(names.split())


_SKIP = _tags("script style head template noscript svg math title iframe object select")
_VOID = _tags("br hr img input meta link area base col embed source wbr param track")
_PARTS = _tags("tr td th thead tbody tfoot caption")
_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_HEADINGS = frozenset(_HEADING_TAGS)
_BLOCK = (
    _PARTS
    | _HEADINGS
    | _tags(
        "p div section article header footer main aside nav li ul ol dl dt dd blockquote pre figure"
        " figcaption hr details summary form body html center address fieldset legend menu table"
    )
)
_KIND: dict[str, BlockKind] = {"li": "item", "dt": "item", "dd": "item", "pre": "code"}
_KIND |= {"blockquote": "quote", "figcaption": "caption", "caption": "caption"}
_KIND |= {h: "heading" for h in _HEADINGS}
#: Inner contexts never weaken outer ones: a list in a quote is quoted, a paragraph
#: in a footnote list is a footnote, anything in ``pre`` is code.
_RANK = {k: i for i, k in enumerate("paragraph item quote footnote caption heading code".split())}
_CODE_PARENTS = _tags("div body html section article main details blockquote figure aside center")
_CELL_STOPS, _ROW_STOPS = _tags("tr thead tbody tfoot"), _tags("thead tbody tfoot")

BOLD, ITALIC, UNDER, SUP, SKIP = 1, 2, 4, 8, 16
_STYLE = {"b": BOLD, "strong": BOLD, "i": ITALIC, "em": ITALIC, "u": UNDER, "ins": UNDER}
_STYLE["sup"] = SUP
_CSS = [
    (BOLD, re.compile(r"font-weight\s*:\s*(?:bold|bolder|[6-9]00)\b")),
    (UNDER, re.compile(r"text-decoration(?:-line)?\s*:[^;]*underline")),
    (ITALIC, re.compile(r"font-style\s*:\s*(?:italic|oblique)")),
    (SKIP, re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden")),
]
_FN_ID = re.compile(r"(?:fn|footnote|note)(?:[-_:]?(\d+)|[-_:]([a-z]\w*))$", re.I)
_NOT_FN = re.compile(r"footnote-?ref|fnref|backref|footnote-back|doc-noteref|doc-backlink")
_BACKREF = re.compile(r"backref|footnote-back|doc-backlink")
_LANG = re.compile(r"(?:language|lang)-([\w+#.-]+)")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NUMERIC_CELL = re.compile(r"^[~≈<>≤≥±+\-−]?\d[\d.,]*\s*%?\s*[*†‡§¶#^¹²³⁴⁵⁶⁷⁸⁹⁰]*$")
_LEAD_MARK = re.compile(r"^([†‡§¶]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)\s*\S")
_SUP_REF = re.compile(r"\s*[+\-−]?\d[\d,]{0,4}\s*$")  # a footnote number, not prose in <sup>
_LT, _LB = "\ufdd0", "\ufdd1"  # noncharacters standing in for "<" and "[" (same width)
_UNDEFUSE = str.maketrans({_LT: "<", _LB: "["})
_OPENER = re.compile(r"<(?=[a-zA-Z/!?])")
_COMMENT_END = re.compile(r"--\s*>")

_Pos = Callable[[int, int], tuple[int, int]]
_Piece = tuple[int, int, str]  # source line, 0-based column, text


@dataclass(slots=True)
class _El:
    """An open element. Style, block kind and footnote label are inherited when it is
    pushed, so the current context is always ``stack[-1]``, at no cost to look up."""

    tag: str
    style: int
    kind: BlockKind
    level: int = 0  # heading level
    fn: str = ""  # footnote label
    owner: int = 0  # serial number of the element that gave the label
    block: bool = False
    seg: bool = False  # opens a scope end tags cannot reach across
    code: str = ""  # a code block's language


#: A block not yet built: its element, its text pieces, a leading <sup> label.
_RawBlock = tuple[_El, list[_Piece], str]


@dataclass(slots=True)
class _RawCell:
    th: bool
    colspan: int
    rowspan: int
    line: int
    col: int
    parts: list[tuple[str, int, int, int]] = field(default_factory=list)  # text, style, line, col


@dataclass(slots=True)
class _Frame:
    """A ``<table>`` being read: raw rows, and the items its cells would be if it
    turns out to be a layout table rather than a data table."""

    el: _El
    depth: int
    line: int
    rows: list[tuple[bool, list[_RawCell]]] = field(default_factory=list)  # (in <thead>, cells)
    items: list[_RawBlock | Item] = field(default_factory=list)
    caption: Block | None = None
    row_el: _El | None = None
    cell_el: _El | None = None
    part_el: _El | None = None
    cap_el: _El | None = None
    cell: _RawCell | None = None


def _span(value: str | None) -> int:
    try:
        return 1 if value is None else max(0, min(MAX_SPAN, int(value.strip() or 1)))
    except ValueError:
        return 1


def _attr_style(tag: str, a: dict[str, str], style: int, kind: BlockKind) -> tuple[int, BlockKind]:
    """What an element's attributes say: CSS emphasis, hidden, footnote container."""
    css = a.get("style", "").lower()
    for bit, pattern in _CSS if css else ():
        style |= bit if pattern.search(css) else 0
    if "hidden" in a or a.get("aria-hidden", "").lower() == "true":
        style |= SKIP
    if tag == "a" or (tag in _BLOCK and kind in ("paragraph", "item")):
        names = f"{a.get('class', '')} {a.get('id', '')} {a.get('role', '')}".lower()
        if tag == "a" and _BACKREF.search(names):
            style |= SKIP  # the "↩" back to the reference
        elif tag != "a" and ("footnote" in names or "endnotes" in names or "data-footnotes" in a):
            kind = kind if _NOT_FN.search(names) else "footnote"
    return style, kind


class _Reader(HTMLParser):
    """Builds document items from html.parser events, in one pass."""

    def __init__(self, text: str, first_line: int, first_column: int, page: bool) -> None:
        super().__init__(convert_charrefs=False)  # entities one by one: their width is known
        self.src = text.split("\n")
        self.dl, self.dc, self.page = first_line - 1, first_column - 1, page
        self.stack = [_El("", 0, "paragraph")]
        self.open: dict[str, int] = {}  # open elements per tag: most end tags need no search
        self.frames: list[_Frame] = []
        self.items: list[Item] = []
        self.sections: list[Section] = []
        self.section: Section | None = None
        self.overflow, self.deep_cdata, self.defused = 0, "", _LT in text or _LB in text
        self.last_fn: tuple[int, Block | None] = (0, None)  # the last footnote, to merge into
        self.serial = 0
        self.new_block()

    def pos(self, line: int, col: int) -> tuple[int, int]:
        return line + self.dl, col + 1 + (self.dc if line == 1 else 0)

    # --- text and blocks
    def new_block(self) -> None:
        self.pieces: list[_Piece] = []
        self.b_el: _El | None = None
        self.sup_state, self.sup_label = 0, ""

    def add_text(self, text: str, line: int, col: int) -> None:
        """One run of visible text at its source position, into the open cell and block."""
        top = self.stack[-1]
        if self.defused:
            text = text.translate(_UNDEFUSE)
        if top.style & SUP and _SUP_REF.match(text):
            text = text.translate(RAISED)  # "74.3<sup>1</sup>" is "74.3¹", not "74.31"
        cell = self.frames[-1].cell if self.frames else None
        if cell is not None:
            cell.parts.append((text, top.style, line, col))
        if self.b_el is None and text.isspace():
            return
        for k, part in enumerate(text.split("\n")):
            if k:
                line, col = line + 1, 0
            if not part:
                continue
            blank = part.isspace()
            if self.b_el is None:
                if blank:
                    continue
                self.b_el, self.sup_state = top, 1 if top.style & SUP else 2
            if not blank:
                if self.sup_state == 1 and top.style & SUP:
                    self.sup_label += part.strip()
                elif self.sup_state == 1:
                    self.sup_state = 3  # a leading <sup> label, then text: a footnote
            self.pieces.append((line, col, part))
            col += len(part)

    def lines(self, pieces: list[_Piece], code: bool) -> list[TextLine]:
        """Pieces joined per source line, markup between them blanked to spaces."""
        out: list[TextLine] = []
        i, n = 0, len(pieces)
        while i < n:
            line, start, text = pieces[i]
            buf, end, i = [text], start + len(text), i + 1
            while i < n and pieces[i][0] == line:
                _, col, text = pieces[i]
                if col > end and not (buf[-1][-1:].strip() and text[:1].strip()):
                    buf.append(" " * (col - end))  # unless the markup sits inside a word
                buf.append(text)
                end, i = col + len(text), i + 1
            s = "".join(buf).rstrip()
            lead = 0 if code else len(s) - len(s.lstrip())
            if s.strip():
                out.append(TextLine(*self.pos(line, start + lead), s[lead:]))
        return out

    def flush(self) -> None:
        """End the current block. Inside a table it stays raw and only becomes a Block if
        the table turns out to be layout: data tables cost no block building."""
        if self.b_el is None:
            return
        raw = (self.b_el, self.pieces, self.sup_label if self.sup_state == 3 else "")
        self.new_block()
        fr = self.frames[-1] if self.frames else None
        if fr is None:
            self.emit(raw)
        elif fr.cap_el is not None and raw[0].kind == "caption":
            block = self.block(raw)
            if block is not None and fr.caption is not None:
                fr.caption.lines.extend(block.lines)
            fr.caption = fr.caption or block
        else:
            fr.items.append(raw)

    def block(self, raw: _RawBlock) -> Block | None:
        """A block of its context's kind; a leading ``<sup>`` label or mark makes it a footnote."""
        el, pieces, sup_label = raw
        lines = self.lines(pieces, el.kind == "code")
        if not lines:
            return None
        block = Block(el.kind, lines, self.section, el.code if el.kind == "code" else el.fn)
        if block.kind in ("paragraph", "item", "footnote") and not block.label:
            mark = _LEAD_MARK.match(block.text)
            if sup_label and len(sup_label) <= 4:
                block.kind, block.label = "footnote", sup_label
            elif mark:
                block.kind, block.label = "footnote", mark.group(1)
        if block.kind == "footnote":
            block.label = block.label.translate(LOWERED)
        return block

    def emit(self, item: _RawBlock | Item) -> None:
        """Add an item to the document: headings open sections, footnote paragraphs merge."""
        el = item[0] if isinstance(item, tuple) else None
        block = self.block(item) if isinstance(item, tuple) else item
        if isinstance(block, Table):
            block.section, self.last_fn = self.section, (0, None)
            self.items.append(block)
            return
        if block is None:
            return
        owner, last = self.last_fn
        if block.kind == "footnote" and el is not None and el.owner:
            if owner == el.owner and last is not None and self.items and self.items[-1] is last:
                last.lines.extend(block.lines)  # a second paragraph of the same footnote
                return
        if block.kind == "heading" and self.page and el is not None:
            parent = self.section
            while parent is not None and parent.level >= el.level:
                parent = parent.parent
            self.section = Section(block.text, el.level, block.lines[0].line, parent)
            self.sections.append(self.section)
            block.section = self.section
        self.last_fn = (el.owner, block) if block.kind == "footnote" and el else (0, None)
        self.items.append(block)

    # --- the element stack
    def push(self, el: _El, at: int | None = None) -> None:
        self.stack.insert(len(self.stack) if at is None else at, el)
        self.open[el.tag] = self.open.get(el.tag, 0) + 1

    def pop(self) -> None:
        el = self.stack.pop()
        self.open[el.tag] -= 1
        if el.block:
            self.flush()
        fr = self.frames[-1] if self.frames else None
        if fr is None:
            return
        if el is fr.cell_el:
            fr.cell_el = fr.cell = None
        elif el is fr.row_el:
            fr.row_el = None
        elif el is fr.part_el:
            fr.part_el = None
        elif el is fr.cap_el:
            fr.cap_el = None
        elif el is fr.el:
            self.frames.pop()
            self.close_table(fr)

    def pop_to(self, el: _El) -> None:
        while len(self.stack) > 1 and self.stack[-1] is not el:
            self.pop()
        if len(self.stack) > 1:
            self.pop()

    def pop_tag(self, tags: tuple[str, ...], stop: Container[str] = ()) -> None:
        """Close the nearest open element named in ``tags``, unless a table cell or a
        ``stop`` element comes first; searched to a bounded depth, so linear."""
        if not any(self.open.get(t) for t in tags):
            return
        for k in range(len(self.stack) - 1, max(0, len(self.stack) - 33), -1):
            el = self.stack[k]
            if el.tag in tags:
                return self.pop_to(el)
            if el.seg or el.tag in stop:
                return

    def implied_ends(self, tag: str, fr: _Frame | None) -> None:
        """The ends HTML implies: a block ends an open ``p``, an ``li`` the previous one,
        a cell the previous cell, a row the previous row."""
        if fr is not None and tag in _PARTS:
            stops = _CELL_STOPS if tag in ("td", "th") else _ROW_STOPS if tag == "tr" else ()
            while len(self.stack) > fr.depth and self.stack[-1].tag not in stops:
                self.pop()
            return
        self.pop_tag(("p",), ("button",))
        self.pop_tag(("sup", "sub"), _BLOCK)  # a <sup> left open must not raise all that follows
        if tag == "li":
            self.pop_tag(("li",), ("ul", "ol", "menu"))
        elif tag in ("dt", "dd"):
            self.pop_tag(("dt", "dd"), ("dl",))
        elif tag in _HEADINGS:
            self.pop_tag(_HEADING_TAGS)

    # --- html.parser events
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.deep_cdata:
            return
        if len(self.stack) >= MAX_DEPTH:  # too deep: keep the text, ignore the structure
            if tag in ("script", "style"):
                self.deep_cdata = tag
            elif tag not in _VOID:
                self.overflow += 1
            return
        if tag == "body":
            self.pop_tag(("head",))  # a <head> left open
        top = self.stack[-1]
        if top.style & SKIP:
            if tag not in _VOID:
                self.push(_El(tag, top.style, top.kind))
            return
        line, col = self.getpos()
        fr = self.frames[-1] if self.frames else None
        if fr is not None and fr.cell is not None and (tag in _BLOCK or tag == "br"):
            # "<div>HumanEval</div><div>0-shot</div>"; a break keeps where a label's lines part
            # ("Fleurs<br>zh | en": the last line names the columns, see documents/multivalue.py).
            fr.cell.parts.append(("\n", 0, line, col))
        if tag == "br":
            return self.add_text(" ", line, col)
        style = top.style | _STYLE.get(tag, 0) | (SKIP if tag in _SKIP else 0)
        kind, block = _KIND.get(tag, "paragraph"), tag in _BLOCK
        if tag == "code" and top.tag in _CODE_PARENTS and self.b_el is None:
            kind, block = "code", True  # a <code> standing alone is a code block
        a = {k: v or "" for k, v in attrs}
        if attrs:
            style, kind = _attr_style(tag, a, style, kind)
        if _RANK[top.kind] > _RANK[kind]:
            kind = top.kind
        if block:
            self.implied_ends(tag, fr)
            self.flush()
            top, fr = self.stack[-1], self.frames[-1] if self.frames else None
        seg = (
            tag == "table" or (tag in ("td", "th", "caption") and fr is not None)
        ) and not style & SKIP
        level = int(tag[1]) if tag in _HEADINGS else top.level
        el = _El(tag, style, kind, level, top.fn, top.owner, block, seg, top.code)
        fn_id = _FN_ID.search(a.get("id", "")) if kind == "footnote" and attrs else None
        if fn_id:
            self.serial += 1
            el.fn, el.owner = fn_id.group(1) or fn_id.group(2), self.serial
        lang = _LANG.search(a.get("class", "")) if kind == "code" and attrs else None
        el.code = lang.group(1) if lang else el.code
        if tag in _VOID:
            return
        self.push(el)
        if style & SKIP:
            return
        if tag == "table":
            self.frames.append(_Frame(el, len(self.stack), line))
        elif fr is not None:
            self.table_part(fr, tag, el, a, line, col)

    def table_part(
        self, fr: _Frame, tag: str, el: _El, a: dict[str, str], line: int, col: int
    ) -> None:
        if tag in ("thead", "tbody", "tfoot"):
            fr.part_el = el
        elif tag == "caption":
            fr.cap_el = el
        elif tag == "tr":
            fr.row_el = el
            fr.rows.append((fr.part_el is not None and fr.part_el.tag == "thead", []))
        elif tag in ("td", "th"):
            if fr.row_el is None:  # a cell with no <tr>: the row is implied
                fr.rows.append((fr.part_el is not None and fr.part_el.tag == "thead", []))
                fr.row_el = _El("tr", el.style, el.kind)
                self.push(fr.row_el, len(self.stack) - 1)
            colspan, rowspan = max(1, _span(a.get("colspan"))), _span(a.get("rowspan"))
            fr.cell_el, fr.cell = el, _RawCell(tag == "th", colspan, rowspan, line, col)
            fr.rows[-1][1].append(fr.cell)

    def handle_endtag(self, tag: str) -> None:
        if self.deep_cdata:
            self.deep_cdata = "" if tag == self.deep_cdata else self.deep_cdata
            return
        if self.overflow:
            self.overflow -= 1
            return
        fr = self.frames[-1] if self.frames else None
        if fr is not None and (tag in _PARTS or tag == "table") and not self.stack[-1].style & SKIP:
            parts = {"td": fr.cell_el, "th": fr.cell_el, "tr": fr.row_el, "caption": fr.cap_el}
            target = parts.get(tag, fr.el if tag == "table" else fr.part_el)
            return self.pop_to(target) if target is not None else None
        if self.open.get(tag):
            self.pop_tag((tag,))
        elif tag == "p":
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self.deep_cdata and not self.stack[-1].style & SKIP:
            self.add_text(data, *self.getpos())

    def handle_entityref(self, name: str) -> None:
        self.entity("&" + name)

    def handle_charref(self, name: str) -> None:
        self.entity("&#" + name)

    def entity(self, ref: str) -> None:
        if self.deep_cdata or self.stack[-1].style & SKIP:
            return
        line, col = self.getpos()
        end = col + len(ref)
        ref += ";" if self.src[line - 1][end : end + 1] == ";" else ""
        self.add_text(unescape(ref), line, col)

    def finish(self) -> list[Item]:
        self.close()
        self.deep_cdata, self.overflow = "", 0
        while len(self.stack) > 1:
            self.pop()
        self.flush()
        return self.items

    def close_table(self, fr: _Frame) -> None:
        """A data table with any tables nested in it, or a layout table's text."""
        table = _build_table(fr, self.pos)
        out: list[_RawBlock | Item]
        if table is None:
            out = [fr.caption, *fr.items] if fr.caption is not None else fr.items
        else:
            out = [table, *(i for i in fr.items if isinstance(i, Table))]
        if self.frames:
            self.frames[-1].items.extend(out)
        else:
            for item in out:
                self.emit(item)


@dataclass(slots=True)
class _G:
    """A table row on the column grid, rowspans resolved."""

    cells: list[Cell]
    carried: list[bool]  # copied from a rowspan above
    th: list[bool]
    head: bool  # in <thead>
    own: int  # cells written in this row
    reach: int  # the last row its rowspans reach
    index: int

    def has_text(self) -> bool:
        return any(c.text for c, k in zip(self.cells, self.carried) if not k)

    def add(self, cell: Cell, carried: bool, th: bool = False) -> int:
        self.cells.append(cell)
        self.carried.append(carried)
        self.th.append(th)
        return cell.colspan


def _cell(raw: _RawCell, pos: _Pos) -> Cell:
    """A cell's text and emphasis. Emphasis counts when it covers the cell's first number
    (``<b>79.8</b><sup>*</sup>`` is bold, ``79.8<b>*</b>`` is not); with no number, when it
    covers every letter and digit; with neither, every visible character."""
    plain = "".join([p[0] for p in raw.parts])
    text = " ".join(plain.split())
    if not text:
        return Cell("", *pos(raw.line, raw.col), colspan=raw.colspan)
    m = _NUMBER.search(plain)
    alnum = m is not None or any(ch.isalnum() for ch in plain)
    flags, seen, off, where = BOLD | ITALIC | UNDER, False, 0, (raw.line, raw.col)
    for t, style, line, col in raw.parts:
        if where == (raw.line, raw.col) and t.strip():  # the first text: the cell's position
            k = len(t) - len(t.lstrip())
            nl = t.count("\n", 0, k)
            where = (line + nl, k - t.rfind("\n", 0, k) - 1 if nl else col + k)
        if m is not None:
            relevant = off < m.end() and off + len(t) > m.start()
        else:
            relevant = any(ch.isalnum() for ch in t) if alnum else bool(t.strip())
        if relevant:
            flags, seen = flags & style, True
        off += len(t)
    flags = flags if seen else 0
    return Cell(text, *pos(*where), bold=bool(flags & BOLD), italic=bool(flags & ITALIC),
                underline=bool(flags & UNDER), marks=marks_of(text), colspan=raw.colspan,
                parts=_parts(raw, plain, pos))  # fmt: skip


def _parts(raw: _RawCell, plain: str, pos: _Pos) -> tuple[Cell, ...]:
    """The values of a cell such as "<b>3.0</b>|4.1", each with its own emphasis and place, or
    the column names a label cell lists ("Fleurs<br>zh | en")."""
    if "|" not in plain:
        return ()
    spans, off = [], 0
    for t, style, _, _ in raw.parts:
        spans.append((off, t, style))
        off += len(t)
    values = value_parts(plain, spans, BOLD | ITALIC | UNDER)
    if values is None:
        return tuple(Cell(n) for n in label_parts(plain) or ())
    out = []
    for text, flags, at in values:
        where = (raw.line, raw.col)
        for (o, t, _), (_, _, ln, c) in zip(spans, raw.parts, strict=True):
            if o <= at < o + len(t) and "\n" not in t[: at - o]:
                where = (ln, c + at - o)  # the value's own column in the source
        out.append(Cell(text, *pos(*where), bold=bool(flags & BOLD), italic=bool(flags & ITALIC),
                        underline=bool(flags & UNDER), marks=marks_of(text)))  # fmt: skip
    return tuple(out)


def _carried(src: Cell) -> Cell:
    """A rowspan'd cell copied into a row below: text, marks and the names it lists, no emphasis."""
    parts = tuple(Cell(p.text, marks=p.marks) for p in src.parts)
    return Cell(src.text, colspan=src.colspan, marks=src.marks, parts=parts)


def _grid(fr: _Frame, pos: _Pos) -> list[_G]:
    """Rows on a column grid. A rowspan'd cell is carried into the rows it spans, as text
    without emphasis (one bold cell is not bold once per row) or position (so
    ``Table.row_line`` finds the row's own line)."""
    out: list[_G] = []
    pending: dict[int, tuple[int, Cell]] = {}  # column -> (rows left, cell)
    budget = 10_000 + 4 * sum(len(cells) for _, cells in fr.rows)  # bounds the copies
    for gi, (head, raws) in enumerate(fr.rows):
        g, col = _G([], [], [], head, len(raws), gi, gi), 0
        fresh: dict[int, tuple[int, Cell]] = {}
        for raw in raws:
            while col in pending:
                src = pending[col][1]
                col += g.add(_carried(src), True)
            cell = _cell(raw, pos)
            span = raw.rowspan or len(fr.rows) - gi  # rowspan="0": to the end
            if span > 1:
                fresh[col] = (span - 1, cell)
                g.reach = max(g.reach, gi + span - 1)
            col += g.add(cell, False, raw.th)
        for k in sorted(k for k in pending if k >= col):
            col += g.add(Cell("", colspan=k - col), True) if k > col else 0
            src = pending[k][1]
            col += g.add(_carried(src), True)
        budget -= len(pending)
        pending = {k: (n - 1, c) for k, (n, c) in pending.items() if n > 1 and budget > 0}
        pending.update(fresh if budget > 0 else {})
        out.append(g)
    return out


def _group_label(g: _G, width: int) -> str | None:
    """A row that only names the group of rows under it ("Proprietary", "7B models")."""
    if width < 2 or not g.cells or g.carried[0] or not g.cells[0].text:
        return None
    first = g.cells[0]
    if any(c.text for c in g.cells[1:]):
        return None
    styled = first.bold or first.italic or first.underline or g.th[0] or first.colspan > 1
    return first.text if styled or (g.own == 1 and width >= 3) else None


def _is_header(g: _G, k: int, width: int) -> bool:
    """A leading row of only ``<th>`` (but a spanning one below the header opens a group)."""
    if g.head:
        return True
    th = g.own > 0 and all(t for t, carried in zip(g.th, g.carried) if not carried)
    return th and not (k and _group_label(g, width) is not None)


def _labels_only(g: _G) -> bool:
    """A first row that reads as a header though written with ``<td>``."""
    cells = [c for c, carried in zip(g.cells, g.carried) if c.text and not carried]
    if len(cells) < 2:
        return False
    return all(c.bold for c in cells) or not any(_NUMERIC_CELL.match(c.text) for c in cells[1:])


def _used(row: list[Cell]) -> int:
    used = end = 0
    for c in row:
        end += c.colspan
        used = end if c.text else used
    return used


def _build_table(fr: _Frame, pos: _Pos) -> Table | None:
    """A data table, or None for a layout table (one row, or all prose)."""
    rows = [g for g in _grid(fr, pos) if g.has_text()]
    if len(rows) < 2:
        return None
    width = max(sum(c.colspan for c in g.cells) for g in rows)
    k = 0
    while k < len(rows) and _is_header(rows[k], k, width):
        k += 1
    if k == len(rows) and not rows[-1].head:
        k = 1  # every row is all <th>
    k = 1 if k == 0 and _labels_only(rows[0]) else k
    reach = max((g.reach for g in rows[:k]), default=-1)
    while k < len(rows) and rows[k].index <= reach:  # rows under a header rowspan
        reach, k = max(reach, rows[k].reach), k + 1
    header = [
        [Cell("", colspan=c.colspan) if carried else c for c, carried in zip(g.cells, g.carried)]
        for g in rows[:k]
    ]
    body: list[list[Cell]] = []
    groups: list[str] = []
    group = ""
    for g in rows[k:]:
        label = _group_label(g, width)
        if label is None:
            body.append(g.cells)
            groups.append(group)
        group = group if label is None else label
    cells = [c for r in body for c in r if c.text]
    if not cells or all(len(c.text.split()) >= 8 or len(c.text) >= 40 for c in cells):
        return None  # every cell is prose: a layout table
    width = max(_used(r) for r in (*header, *body))  # columns empty everywhere go
    for r in (*header, *body):
        while r and not r[-1].text and sum(c.colspan for c in r) > width:
            r.pop()
        r.extend(Cell("") for _ in range(width - sum(c.colspan for c in r)))
    line = pos(fr.line, 0)[0]
    return Table(header, body, "html", line=line, groups=groups, caption=fr.caption)


def _defuse(text: str) -> str:
    """Keep html.parser linear and exception-free. Python's parser rescans to the end of
    the input for every opener that never closes (``<a<a<a…``, ``<!--`` with no
    ``-->``), which is quadratic, and raises on ``<![foo[``. An opener that cannot
    close is text, so its ``<`` becomes a stand-in of the same width (mapped back in
    ``add_text``); ``<![`` becomes a bogus comment, hidden as in browsers."""
    text = text.replace("<![", "<!" + _LB)
    cut = {m.start() for m in _OPENER.finditer(text, text.rfind(">") + 1)}
    ends = [m.end() for m in _COMMENT_END.finditer(text)]
    k = text.find("<!--", ends[-1] if ends else 0)
    while k >= 0:
        cut.add(k)
        k = text.find("<!--", k + 4)
    out: list[str] = []
    prev = 0
    for k in sorted(cut):
        out += [text[prev:k], _LT]
        prev = k + 1
    return "".join([*out, text[prev:]]) if cut else text


def _parse(text: str, first_line: int, first_column: int, page: bool, display: str) -> _Reader:
    text = _defuse(text.replace("\r\n", "\n").replace("\r", "\n"))
    reader = _Reader(text, first_line, first_column, page)
    try:
        reader.feed(text)
        reader.items = reader.finish()
    except Exception as exc:  # html.parser is forgiving; this is the last guard
        line = reader.getpos()[0] + first_line - 1
        raise InputError(display, f"cannot read as HTML: {exc}", line) from None
    return reader


def read_html(text: str, display: str) -> Document:
    """A whole HTML page: visible text in reading order, headings opening nested
    sections, tables, and footnotes keyed by label (``id="fn1"``, ``<sup>1</sup>``)."""
    text = text.lstrip("\ufeff")
    reader = _parse(text, 1, 1, True, display)
    footnotes: dict[str, Block] = {}
    for b in reader.items:
        if isinstance(b, Block) and b.kind == "footnote" and b.label:
            footnotes.setdefault(b.label, b)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = lines[:-1] if lines[-1:] == [""] else lines
    doc = Document(display, "html", reader.items, reader.sections, footnotes, lines=lines)
    attach_frames(doc)  # lead-ins and notes, as for every reader
    return doc


_TABLE_TAG = re.compile(r"<(/?)table\b", re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def unclosed_tables(text: str) -> int:
    """How many ``<table>`` elements ``text`` opens and leaves open. CommonMark ends an
    HTML block at a blank line, so a model card's table with blank lines in it arrives
    in pieces; a Markdown reader can use this to extend a fragment to its ``</table>``
    before calling :func:`parse_fragment`, which needs the whole table."""
    depth = 0
    for m in _TABLE_TAG.finditer(_COMMENT.sub("", text)):
        depth = max(0, depth - 1) if m.group(1) else depth + 1
    return depth


def parse_fragment(
    text: str, first_line: int, first_column: int = 1, *, display: str = ""
) -> list[Item]:
    """HTML embedded in Markdown (``<table>``, ``<div align="center">``, ``<details>``):
    its items, positioned on document lines (``first_line`` is the fragment's first line,
    ``first_column`` where it starts on it). Headings stay heading blocks and open no
    sections, and tables get no lead-in or notes yet: the Markdown reader owns the
    section tree and frames tables once the whole document is in order."""
    return _parse(text, first_line, first_column, False, display or "<html>").items
