"""Two PDF tables set side by side: the line reading joins their captions into one line
("Table 5: ... Table 6: ..."); the second table takes the part from its own label on."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_a_paragraph_cut_at_a_name_or_a_comparative_verb_goes_on():
    from benchaudit.documents.pdf import _dangles, _goes_on

    assert _goes_on("70B overwhelmingly on Chinese benchmarks.")
    assert _goes_on("8x22B on code.")
    assert not _goes_on("Table 3 shows the results.")
    assert _dangles("and the Granite-3.0-A800M-3B model outperforms")
    assert not _dangles("the model is strong")


_DOCS = Path(__file__).parents[1] / "data" / "realdocs" / "docs"


@pytest.mark.skipif(not (_DOCS / "eurus-paper.pdf").is_file(), reason="no eurus-paper.pdf in the corpus")
def test_a_bold_run_in_line_cut_mid_sentence_is_no_heading():
    # EURUS p. 7: bold takeaways that run over the line ("... achieve the best overall
    # performance among" / "open-source models of similar sizes."): one paragraph each.
    from benchaudit.documents.pdf import read_pdf

    doc = read_pdf(_DOCS / "eurus-paper.pdf", "eurus-paper.pdf")
    assert not [b for b in doc.blocks() if b.kind == "heading" and b.text.endswith(("among", "espe-"))]
    assert any(b.text.startswith("EURUS, both the 7B and 70B variants") and "similar sizes." in b.text for b in doc.blocks())
