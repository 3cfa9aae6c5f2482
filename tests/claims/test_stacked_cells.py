"""Tables of "Datasets | Model | Performance" whose cells hold one value per named part."""

from __future__ import annotations

from benchaudit.benchmarks import packaged
from benchaudit.claims.scoretable import read_score_table
from benchaudit.claims.stacked_cells import unstack
from benchaudit.documents.html import read_html
from benchaudit.documents.model import Table


def _table(body: str) -> Table:
    html = (
        "<table><thead><tr><th>Datasets</th><th>Model</th><th>Performance</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )
    return next(read_html(html, "t.html").tables())


# Error rates: the bold marks the lowest value of each part.
_ASR = """
<tr><td rowspan="4">Fleurs<br>zh | en</td><td>Whisper</td><td>7.7|4.1</td></tr>
<tr><td>Seed</td><td>-|<b>3.4</b></td></tr>
<tr><td>MinMo</td><td>3.0|3.8</td></tr>
<tr><td>Ours</td><td><b>3.0</b>|4.1</td></tr>
<tr><td rowspan="3">Wenet<br>net | meeting</td><td>Seed</td><td><b>4.7|5.7</b></td></tr>
<tr><td>MinMo</td><td>6.8|7.4</td></tr>
<tr><td>Ours</td><td>5.9|7.7</td></tr>
"""


def test_one_column_per_named_part():
    flat = unstack(_table(_ASR))
    assert flat is not None
    assert flat.table.header() == ["Model", "Fleurs zh", "Fleurs en", "Wenet net", "Wenet meeting"]
    assert [c.text for c in flat.table.rows[3]] == ["Ours", "3.0", "4.1", "", ""]
    assert flat.table.rows[3][1].bold and not flat.table.rows[3][2].bold


def test_the_bold_settles_a_direction_nothing_states():
    flat = unstack(_table(_ASR))
    assert flat is not None and flat.lower == frozenset(flat.table.header()[1:])
    st = read_score_table(_table(_ASR), packaged())
    assert st is not None
    zh = next(line for line in st.lines if line.label == "Fleurs zh")
    assert not zh.higher_is_better
    assert [(c.model, c.value, c.bold) for c in zh.cells] == [
        ("Whisper", 7.7, False), ("MinMo", 3.0, False), ("Ours", 3.0, True),
    ]  # fmt: skip


def test_unnamed_parts_are_left_unread():
    body = """
    <tr><td rowspan="3">Fleurs</td><td>A</td><td><b>3.0</b>|3.8</td></tr>
    <tr><td>B</td><td>4.0|<b>3.5</b></td></tr>
    <tr><td>C</td><td>5.0|4.1</td></tr>"""
    assert unstack(_table(body)) is None


def test_a_count_other_than_the_names_is_left_unread():
    body = _ASR.replace("7.7|4.1", "7.7|4.1|9.9")
    flat = unstack(_table(body))
    assert flat is not None
    assert all(c.text != "9.9" for row in flat.table.rows for c in row)
    assert flat.table.rows[0][1].text == ""  # Whisper's three values under two names: not read


def test_a_dataset_whose_bold_does_not_tell_is_left_unread():
    body = _ASR + """
    <tr><td rowspan="2">Meld<br>a | b</td><td>A</td><td>0.5|0.6</td></tr>
    <tr><td>B</td><td>0.7|0.4</td></tr>"""
    flat = unstack(_table(body))
    assert flat is not None and not any(h.startswith("Meld") for h in flat.table.header())


def _plain(head: str, body: str) -> Table:
    return next(read_html(f"<table><thead>{head}</thead><tbody>{body}</tbody></table>", "t.html").tables())


def test_a_header_naming_the_parts_splits_its_column():
    t = _plain(
        "<tr><th>Model</th><th>Fleurs</th><th>MMLU</th></tr><tr><th></th><th>zh | en</th><th></th></tr>",
        "<tr><td>A</td><td><b>3.0</b>|4.1</td><td>70.1</td></tr>"
        "<tr><td>B</td><td>3.5|<b>3.8</b></td><td>71.0</td></tr>"
        "<tr><td>C</td><td>3.9|4.0|9.9</td><td>69.0</td></tr>",
    )
    flat = unstack(t)
    assert flat is not None
    assert flat.table.header() == ["Model", "Fleurs / zh", "Fleurs / en", "MMLU"]
    assert [(c.text, c.bold) for c in flat.table.rows[1]] == [("B", False), ("3.5", False), ("3.8", True), ("71.0", False)]
    assert [c.text for c in flat.table.rows[2]] == ["C", "", "", "69.0"]  # three values, two names


def test_a_header_naming_no_parts_leaves_the_cells_unread():
    t = _plain(
        "<tr><th>Model</th><th>Fleurs</th></tr>",
        "<tr><td>A</td><td><b>3.0</b>|4.1</td></tr><tr><td>B</td><td>3.5|<b>3.8</b></td></tr>",
    )
    assert unstack(t) is None
