"""The document model every document reader fills and every document rule reads.

A :class:`Document` is what a careful reviewer sees on the page, in reading
order: headings that open :class:`Section` objects, text :class:`Block`
objects (paragraphs, list items, quotes, footnotes, captions, code), and
:class:`Table` objects with their header rows, row labels, row groups and
cells as written (with emphasis: bold, underline, italic, marker symbols).
Each table knows the text that frames it — the lead-in before it, its
caption, the notes after it — because that is where authors state how the
numbers in it were produced.

Text keeps a map back to the source: a block is a list of :class:`TextLine`
pieces, each with the document line, the 1-based column where it starts and
the page (PDF). Nothing here parses numbers or knows a rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal["heading", "paragraph", "item", "quote", "footnote", "caption", "code"]
TableOrigin = Literal["pipe", "html", "code", "pdf"]

#: Marker symbols authors put on cells: footnote marks, "reported by others", significance stars.
MARK_CHARS = "*†‡§¶#^¹²³⁴⁵⁶⁷⁸⁹⁰"


@dataclass
class Section:
    """A heading and everything under it up to the next heading of its level or above."""

    title: str
    level: int
    line: int
    parent: Section | None = None
    page: int | None = None

    def path(self) -> list[Section]:
        """This section and its ancestors, outermost first."""
        out: list[Section] = []
        s: Section | None = self
        while s is not None:
            out.append(s)
            s = s.parent
        return out[::-1]

    def within(self, other: Section | None) -> bool:
        """True when this section is ``other`` or lies inside it (None is the whole document)."""
        return other is None or any(s is other for s in self.path())


@dataclass(frozen=True)
class TextLine:
    """One physical line of a block: its cleaned text and where it starts.

    ``text`` has markup blanked to spaces, so ``column + i`` is the source
    column of ``text[i]``.
    """

    line: int
    column: int
    text: str
    page: int | None = None


@dataclass
class Block:
    """A paragraph, list item, quote, heading, footnote, caption or code block."""

    kind: BlockKind
    lines: list[TextLine]
    section: Section | None = None
    label: str = ""  # a footnote's label ("1" of "[^1]:"), a code block's info string

    @property
    def text(self) -> str:
        return " ".join(" ".join(t.text.split()) for t in self.lines if t.text.strip())

    @property
    def line(self) -> int | None:
        return self.lines[0].line if self.lines else None

    @property
    def page(self) -> int | None:
        return self.lines[0].page if self.lines else None


@dataclass
class Cell:
    """One table cell as written.

    ``text`` is the cell with markup removed and whitespace collapsed, marker
    symbols kept (``"79.8*"``); ``marks`` lists those symbols; the emphasis
    flags say how the cell was set.
    """

    text: str
    line: int | None = None
    column: int | None = None
    page: int | None = None
    bold: bool = False
    italic: bool = False
    underline: bool = False
    marks: tuple[str, ...] = ()
    colspan: int = 1
    #: Struck through (``~~26.3~~``, ``<del>``, a rule through the glyphs of a PDF): a number the
    #: authors withdraw (contaminated, superseded), not a score to compare.
    struck: bool = False
    #: The pieces of a cell that holds several values ("3.0|3.8", each with its own emphasis)
    #: or names several columns ("Fleurs<br>zh | en" names "Fleurs zh" and "Fleurs en");
    #: empty for a cell of one value or one name. What the pieces are is decided by whoever
    #: reads the table as scores (:mod:`benchaudit.claims.stacked_cells`).
    parts: tuple[Cell, ...] = ()

    @property
    def emphasised(self) -> bool:
        return self.bold or self.underline


def marks_of(text: str) -> tuple[str, ...]:
    """The marker symbols in a cell's text, in order of appearance, once each."""
    seen: list[str] = []
    for ch in text:
        if ch in MARK_CHARS and ch not in seen:
            seen.append(ch)
    return tuple(seen)


@dataclass
class Table:
    """A table: header rows, body rows of cells, and the text that frames it.

    ``groups[i]`` is the label of the row group body row ``i`` belongs to
    (a spanning row such as "Reasoning models", or ``""``). ``lead_in`` is the
    text block right before the table in its section, ``caption`` its caption
    ("Table 3: ..."), ``notes`` the blocks right after it (footnotes to the
    table, "Note: ...", "* averaged over 8 runs").
    """

    header_rows: list[list[Cell]]
    rows: list[list[Cell]]
    origin: TableOrigin
    line: int | None = None
    page: int | None = None
    section: Section | None = None
    groups: list[str] = field(default_factory=list)
    lead_in: Block | None = None
    caption: Block | None = None
    notes: list[Block] = field(default_factory=list)

    @property
    def width(self) -> int:
        rows = [*self.header_rows, *self.rows]
        return max((sum(c.colspan for c in r) for r in rows), default=0)

    def header(self) -> list[str]:
        """One label per column: header rows merged top to bottom ("Math / AIME 2024").

        A cell spanning several columns (``colspan``) labels each of them; an
        empty lower cell keeps the label above it.
        """
        width = self.width
        labels: list[list[str]] = [[] for _ in range(width)]
        for row in self.header_rows:
            j = 0
            for cell in row:
                for k in range(cell.colspan):
                    if j + k < width and cell.text and cell.text not in labels[j + k]:
                        labels[j + k].append(cell.text)
                j += cell.colspan
        return [" / ".join(parts) for parts in labels]

    def numbered(self, number: str) -> bool:
        """Whether the caption labels this table "Table ``number``" (or "Tab. ``number``")."""
        text = self.caption.text if self.caption is not None else ""
        return re.match(rf"\s*(?:Table|Tab\.)\s*{re.escape(number)}\b", text, re.I) is not None

    def framing_text(self) -> str:
        """Lead-in, caption and notes: where the table's protocol and unit are stated."""
        parts = [b.text for b in (self.lead_in, self.caption, *self.notes) if b is not None]
        return " ".join(p for p in parts if p)

    def row_line(self, i: int) -> int | None:
        row = self.rows[i] if i < len(self.rows) else []
        return next((c.line for c in row if c.line is not None), self.line)


Item = Block | Table


@dataclass
class Document:
    """A document as read: items in reading order, sections, footnotes."""

    path: str
    format: str
    items: list[Item] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    footnotes: dict[str, Block] = field(default_factory=dict)
    pages: int | None = None
    #: The source lines (text formats) or the extracted lines (PDF), for suppressions.
    lines: list[str] = field(default_factory=list)

    def blocks(self) -> Iterator[Block]:
        return (i for i in self.items if isinstance(i, Block))

    def tables(self) -> Iterator[Table]:
        return (i for i in self.items if isinstance(i, Table))


#: A reference to a numbered table in prose: "Table 4", "Tab. 2" (the number is group 1).
TABLE_REF = re.compile(r"\b(?:Table|Tab\.)\s*(\d+)", re.I)
