"""Where protocols apply, what role a number plays, and how sure a finding may be."""

from __future__ import annotations

import pytest

from benchaudit.config import Config
from benchaudit.engine import audit


def serious(tmp_path, text: str, select: str = "BA1") -> list[tuple[int, str, str]]:
    path = tmp_path / "card.md"
    path.write_text(text, encoding="utf-8")
    report = audit([str(path)], Config(select=[select]))
    return [(f.location.line, f.name, f.severity.label) for f in report.findings if f.severity.label != "info"]


def test_a_protocol_stated_after_a_table_applies_to_it(tmp_path):
    text = "# Card\n\n| Model | AIME 2024 |\n|---|---|\n| Ours | 79.8 |\n\nScores are averaged over 64 samples per problem.\n"
    assert serious(tmp_path, text) == []


def test_a_columns_greedy_does_not_apply_to_the_next_column(tmp_path):
    text = (
        "# Card\n\n| Model | HumanEval (greedy) | AIME 2024 |\n|---|---|---|\n"
        "| Orca | 87.3 | 79.8 |\n| Base | 62.2 | 40.0 |\n"
    )
    # 87.3 on HumanEval cannot come from one greedy pass (a warning: the row is not known to be
    # the document's own model); 79.8 on AIME states no protocol, so it is not flagged at all.
    assert serious(tmp_path, text) == [(5, "unreachable-score", "warning")]


def test_averaging_stated_elsewhere_makes_a_score_possible_not_wrong(tmp_path):
    text = (
        "# Card\n\n## Setup\n\nWe generate 64 responses per query and report pass@1.\n\n"
        "## Results\n\nOur model reaches 79.8% on AIME 2024.\n"
    )
    assert serious(tmp_path, text) == []


def test_a_section_wide_single_pass_makes_an_error(tmp_path):
    text = (
        "# Orca\n\n## Results\n\nUnless otherwise stated, all results use greedy decoding.\n\n"
        "| Model | HumanEval |\n|---|---|\n| Orca | 87.3 |\n| Base | 62.2 |\n"
    )
    assert serious(tmp_path, text) == [(9, "unreachable-score", "error")]


def test_a_baseline_with_no_protocol_is_information(tmp_path):
    text = "# Orca\n\n| Model | HumanEval |\n|---|---|\n| Orca | 87.2 |\n| Rival† | 87.3 |\n"
    assert serious(tmp_path, text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Our model scores 96.9% (1,172 questions) on ARC-Challenge.\n",
        "We sample with top-p=0.95 and temperature 0.6; our model improves by 3 points on GSM8K.\n",
        "Our model leads by 2.1%, 3.4%, 5.6% and 1.2% respectively on HumanEval, MBPP, GSM8K and MATH.\n",
        "With 24 different prompt styles tested, the spread falls from 4% to just 2% on MMLU-Pro.\n",
    ],
)
def test_numbers_that_are_not_what_they_look_like(tmp_path, text):
    assert serious(tmp_path, "# Card\n\n" + text, select="BA") == []


def test_the_nearest_count_belongs_to_a_score(tmp_path):
    text = "# Card\n\nAccuracy rises from 8/48 (16.7%) to 34/48 (70.8%) after fine-tuning.\n"
    assert serious(tmp_path, text) == []


def test_nothing_checkable_is_not_assessed(tmp_path):
    path = tmp_path / "card.md"
    path.write_text("# A model\n\nTrained in 2024 on web text.\n", encoding="utf-8")
    assert audit([str(path)]).grade == "N"


def test_a_single_pass_stated_for_the_whole_evaluation_is_inferred_elsewhere(tmp_path):
    text = (
        "# Orca\n\n## Setup\n\nWe use greedy decoding for all benchmarks.\n\n## Results\n\n"
        "| Model | HumanEval |\n|---|---|\n| Rival | 87.3 |\n| Other | 62.2 |\n"
    )
    # Another section's statement may cover the table, so the premise is inferred: a warning.
    assert serious(tmp_path, text) == [(11, "unreachable-score", "warning")]


def test_document_wide_single_pass_yields_to_stated_averaging(tmp_path):
    text = (
        "# Orca\n\n## Setup\n\nWe use greedy decoding for all benchmarks.\n"
        "AIME scores are averaged over 64 samples.\n\n## Results\n\n"
        "| Model | HumanEval |\n|---|---|\n| Rival | 87.3 |\n| Other | 62.2 |\n"
    )
    assert serious(tmp_path, text) == []
