"""Percentages of change that a table shows to be differences in points (claims/percent_tables)."""

from __future__ import annotations

from benchaudit.claims.change_columns import change_columns
from benchaudit.claims.percent_tables import row_leads
from benchaudit.documents.markdown import read_markdown

_BOARD = """
| # | Model | ALL | FQA | GPS |
|---|---|---|---|---|
| - | Human Performance | 60.3 | 59.7 | 48.4 |
| 1 | Lumo-4V (Playground) | 49.9 | 43.1 | 50.5 |
| 2 | Multimodal Bard | 34.8 | 26.0 | 47.1 |
"""


def _leads(text: str) -> list[tuple[str, str, str, str]]:
    return [(h.stated, h.score, h.base, h.column) for h in row_leads(read_markdown(text, "card.md"))]


def test_a_lead_anchored_by_the_quoted_score_is_read_in_that_column() -> None:
    text = "Lumo-4V reaches 49.9%, a substantial gain of 15.1% over Bard.\n" + _BOARD
    assert _leads(text) == [("15.1", "49.9", "34.8", "ALL")]


def test_a_gap_below_the_rival_is_read_with_the_rival_higher() -> None:
    text = "Lumo-4V scores 49.9% but falls short of human performance by 10.4%.\n" + _BOARD
    (lead,) = row_leads(read_markdown(text, "card.md"))
    assert lead.below and (lead.score, lead.base) == ("60.3", "49.9")
    assert round(lead.relative, 1) == 17.2  # over the human score


def test_no_column_is_tried_when_nothing_anchors_one() -> None:
    # 2.6 is FQA's gap only by chance of trying every column; no score quoted, no summary column.
    board = _BOARD.replace("| ALL |", "| XYZ |").replace("43.1", "28.6")
    assert _leads("Lumo-4V beats Bard by 2.6% on the hard items.\n" + board) == []


def test_a_rival_no_row_names_is_not_guessed() -> None:
    assert _leads("Lumo-4V reaches 49.9%, a gain of 15.1% over the previous best.\n" + _BOARD) == []


def test_points_and_relative_marked_are_taken_at_their_word() -> None:
    assert _leads("Lumo-4V reaches 49.9%, a gain of 15.1% (points) over Bard.\n" + _BOARD) == []
    assert _leads("Lumo-4V reaches 49.9%, beating Bard by about 15%.\n" + _BOARD) == []


def test_a_change_column_in_points_is_found_and_relative_ones_pass() -> None:
    table = (
        "| Benchmark | Ours | Prior | Improvement |\n|---|---|---|---|\n"
        "| AIME24 | 57.1% | 6.5% | +50.6% |\n| Minerva | 44.9% | 47.1% | -2.2% |\n"
    )
    (ch,) = change_columns(read_markdown(table, "card.md"))
    assert (ch.score, ch.base, ch.column, len(ch.rows)) == ("57.1", "6.5", "Improvement", 2)
    relative = table.replace("+50.6%", "+778.5%").replace("-2.2%", "-4.7%")
    assert change_columns(read_markdown(relative, "card.md")) == []
    # A column that is points where both readings agree (no row tells them apart) passes.
    near = "| Benchmark | Ours | Prior | Gain |\n|---|---|---|---|\n| A | 99.8% | 99.6% | +0.2% |\n| B | 99.9% | 99.8% | +0.1% |\n"
    assert change_columns(read_markdown(near, "card.md")) == []


def test_models_heading_the_columns_are_read_in_the_row_the_quoted_score_anchors() -> None:
    text = (
        "See Table 3. Prover-V1.5-RL achieves 62.7%. This performance shows a 3.7% improvement over the SFT model.\n\n"
        "| Method | Prover-V1.5 / SFT | Prover-V1.5 / RL |\n|---|---|---|\n"
        "| Greedy | 54.7% ± 0.4% | 56.5% ± 0.5% |\n| Search | 59.0% | 62.7% |\n\nTable 3: Ablation.\n"
    )
    assert _leads(text) == [("3.7", "62.7", "59.0", "Search")]
    # Without the sentence before, "This performance" has no subject: nothing is guessed.
    alone = text.replace("Prover-V1.5-RL achieves 62.7%. ", "")
    assert _leads(alone) == []
