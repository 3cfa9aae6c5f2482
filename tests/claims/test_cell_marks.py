"""A footnote mark after a cell's number annotates the score: the cell is still read as one."""

from __future__ import annotations

import pytest

from benchaudit.benchmarks import Registry
from benchaudit.claims.scoretable import parse_value, read_score_table
from benchaudit.documents.markdown import read_markdown


@pytest.mark.parametrize(
    "text",
    ["64.2*", "71.0†", "58.1‡", "58.1a", "58.1^a", "58.1ᵃ", "58.1∗", "58.1[²]", "58.1[^1]", "58.1 [12]", "58.1*†"],
)
def test_a_marked_number_is_its_number(text):
    assert parse_value(text) == pytest.approx(float(text[:4]))


def test_a_mean_with_a_percent_deviation_is_its_mean():
    assert parse_value("29.7% ± 0.5%") == pytest.approx(29.7)


@pytest.mark.parametrize("text", ["58.1e", "58.1 (a)", "13.1 GB", "8B", "1 x RTX 4090"])
def test_words_or_units_after_a_number_are_no_mark(text):
    assert parse_value(text) is None


def test_a_sup_reference_after_a_cell_leaves_it_in_its_line():
    # "67.7<sup>[4]</sup>": the previous best, cited; it stays the runner-up of the bold cell.
    text = (
        "| Model | AIME 2024 | MATH-500 |\n|---|---|---|\n| Ours | **79.8** | 96.4 |\n"
        "| Rival | 79.2<sup>[4]</sup> | **97.3**<sup>a</sup> |\n| Older | 50.0 | 60.0 |\n"
    )
    st = read_score_table(next(read_markdown(text, "card.md").tables()), Registry.load())
    assert st is not None
    assert [[c.value for c in line.cells] for line in st.lines] == [[79.8, 79.2, 50.0], [96.4, 97.3, 60.0]]
