"""Cells that hold several values ("3.0|3.8") or name several columns ("Fleurs<br>zh | en")."""

from __future__ import annotations

from benchaudit.documents.html import read_html
from benchaudit.documents.model import Table
from benchaudit.documents.multivalue import label_parts, value_parts


def _table(html: str) -> Table:
    doc = read_html(html, "t.html")
    return next(doc.tables())


_STACKED = """<table><thead><tr><th>Datasets</th><th>Model</th><th>Performance</th></tr></thead>
<tbody>
<tr><td rowspan="3">Fleurs<br>zh | en</td><td>Whisper</td><td>7.7|4.1</td></tr>
<tr><td>MinMo</td><td>3.0|<b>3.8</b></td></tr>
<tr><td>Ours</td><td><strong>3.0</strong>|4.1</td></tr>
</tbody></table>"""


def test_each_value_keeps_its_own_emphasis():
    rows = _table(_STACKED).rows
    parts = rows[2][2].parts
    assert [p.text for p in parts] == ["3.0", "4.1"]
    assert [p.bold for p in parts] == [True, False]
    assert [p.bold for p in rows[1][2].parts] == [False, True]


def test_a_value_has_its_own_place():
    cell = _table(_STACKED).rows[0][2]
    assert [p.line for p in cell.parts] == [cell.line, cell.line]
    first, second = cell.parts
    assert first.column is not None and second.column == first.column + 4


def test_a_label_cell_names_its_columns_with_its_stem():
    rows = _table(_STACKED).rows
    assert [p.text for p in rows[0][0].parts] == ["Fleurs zh", "Fleurs en"]
    # carried into the rows its rowspan covers, as names without emphasis
    assert [p.text for p in rows[2][0].parts] == ["Fleurs zh", "Fleurs en"]


def test_a_cell_of_one_value_has_no_parts():
    t = _table("<table><tr><th>Model</th><th>MMLU</th></tr><tr><td>A</td><td><b>70.1</b></td></tr></table>")
    assert t.rows[0][1].parts == ()
    assert t.rows[0][1].bold


def test_value_parts_need_every_piece_to_be_a_value():
    assert value_parts("3.0|words", [(0, "3.0|words", 0)], 1) is None
    assert value_parts("-|-", [(0, "-|-", 0)], 1) is None  # nothing to read
    got = value_parts("-|42.9%", [(0, "-|", 0), (2, "42.9%", 1)], 1)
    assert got == [("-", 0, 0), ("42.9%", 1, 2)]


def test_label_parts_need_a_name_for_every_piece():
    assert label_parts("SEED\ntest-zh | test-en | test-hard ") == ["SEED test-zh", "SEED test-en", "SEED test-hard"]
    assert label_parts("test-zh | test-en") == ["test-zh", "test-en"]
    assert label_parts("Fleurs\nzh | | en") is None
    assert label_parts("Voxpopuli") is None
