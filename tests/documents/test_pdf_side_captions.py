"""Two PDF tables set side by side: the line reading joins their captions into one line
("Table 5: ... Table 6: ..."); the second table takes the part from its own label on."""

from __future__ import annotations

from benchaudit.documents.model import Block, Cell, Table, TextLine
from benchaudit.documents.pdf import _beside_caption


def _table(line: int, caption: Block | None = None) -> Table:
    return Table([[Cell("Model"), Cell("EM")]], [[Cell("A"), Cell("1.0")]], "pdf", line=line, page=3, caption=caption)


def _caption(first: str) -> Block:
    return Block("caption", [TextLine(10, 1, first, 3), TextLine(11, 1, "more words of both captions", 3)])


def test_the_second_label_of_a_joined_caption_line_is_the_next_tables_caption():
    left = _table(12, _caption("Table 5: Pass@1 on MBPP and MBPP+. Table 6: Average exact match (EM) and"))
    right = _table(20)
    got = _beside_caption([left.caption, left, right], 2, right)
    assert got is not None and got.text == "Table 6: Average exact match (EM) and"
    assert got.page == 3 and got.line == 10


def test_no_caption_is_made_up_without_a_next_label_or_a_table_before():
    plain = _table(12, _caption("Table 5: Pass@1 on MBPP; see Table 9. for the rest"))
    right = _table(20)
    assert _beside_caption([plain.caption, plain, right], 2, right) is None
    prose = Block("paragraph", [TextLine(5, 1, "Table 6: text", 3)])
    assert _beside_caption([prose, right], 1, right) is None
