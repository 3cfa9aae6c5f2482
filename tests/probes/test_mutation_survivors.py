"""Tests written for the conditions that ``tools/mutation_probe.py`` (seeds 0 and 1) found no test
could see: each fails when its condition is replaced by a constant."""

from __future__ import annotations

import pytest
from benchaudit.rules.comparisons.p_value_inconsistent import _fmt

from benchaudit.stats.passk import pass_at_k, pass_hat_k


@pytest.mark.parametrize("estimator", [pass_at_k, pass_hat_k])
@pytest.mark.parametrize("c", [-1, 11])
def test_a_count_of_correct_samples_outside_0_to_n_is_refused(estimator, c):
    # passk.py: `if not 0 <= c <= n` (a negative count gave a pass@k above 1)
    with pytest.raises(ValueError, match="0 <= c <= n"):
        estimator(10, c, 1)
    assert estimator(10, 10, 1) == 1.0 and estimator(10, 0, 1) == 0.0


def test_a_suggested_p_value_is_written_so_that_it_stays_readable():
    # p_value_inconsistent.py: `if p < 0.001` (0.0001 written as 0.000 says p = 0)
    assert _fmt(0.00012) == "1.2e-04"
    assert _fmt(0.0312) == "0.031"
    assert _fmt(0.001) == "0.001"


def test_a_run_whose_effective_count_is_not_given_is_no_limited_run(tmp_path):
    # harness_limit.py: `task.n_effective is not None` (an original count alone is no limit)
    from benchaudit.config import Config
    from benchaudit.engine import audit

    results = tmp_path / "results_2024-05-14T10-22-33.123456.json"
    results.write_text(
        '{"results": {"arc_easy": {"alias": "arc_easy", "acc,none": 0.7,'
        ' "acc_stderr,none": 0.01}},'
        ' "n-samples": {"arc_easy": {"original": 2376}},'
        ' "config": {"model": "hf", "model_args": "pretrained=EleutherAI/pythia-160m"}}'
    )
    report = audit([str(results)], Config(select=["harness-limit"]), on_error="report")
    assert not report.errors and report.findings == []


def test_a_table_printed_at_one_precision_is_information_where_prose_is_a_warning(tmp_path):
    # excess_precision.py: a table cell that is the rounding of some k/n (97/164 = 59.146%)
    # is information; the same digits in prose, not the rounding of any k/164, a warning.
    from benchaudit.config import Config
    from benchaudit.engine import audit
    from benchaudit.finding import Severity

    card = tmp_path / "card.md"
    card.write_text(
        "# Results\n\n| Model | HumanEval |\n|---|---|\n| Ours | 59.146 |\n| Base | 48.171 |\n\n"
        "Ours scores 59.147% on HumanEval.\n"
    )
    report = audit([str(card)], Config(select=["excess-precision"]))
    got = [(f.location.line, f.severity) for f in report.findings]
    assert got == [(5, Severity.INFO), (6, Severity.INFO), (8, Severity.WARNING)]


def test_a_level_the_curve_never_reaches_gives_no_transition_width():
    # stats/mirage.py: `a is None or b is None` (the width of a crossing that never happens)
    from benchaudit.stats.mirage import transition_width

    sizes, values = [8.0, 9.0, 10.0], [0.1, 0.2, 0.9]
    # scaled to its range: 0, 1/8, 1; 10% is crossed at 8 + 0.8, 90% at 9 + (0.9 - 1/8) / (7/8)
    assert transition_width(sizes, values) == pytest.approx(9 + (0.9 - 1 / 8) / (7 / 8) - 8.8)
    assert transition_width(sizes, values, hi=1.5) is None


def test_tie_groups_join_only_neighbours_whose_intervals_share_a_point():
    # ranks.py: `lo1 <= hi2 and lo2 <= hi1` (P05). rank-tie splits its runs again at clear
    # gaps, which hides the overlap test from the rule's cases, so it is tested here.
    from benchaudit.stats.ranks import overlaps, tie_groups

    assert overlaps(0.0, 1.0, 1.0, 2.0)  # closed intervals: a shared end point
    assert not overlaps(0.0, 1.0, 1.5, 2.0)
    assert not overlaps(1.5, 2.0, 0.0, 1.0)
    score = [90.0, 88.0, 80.0, 79.0, 70.0]
    low = [87.0, 85.0, 77.0, 76.0, 60.0]
    high = [93.0, 91.0, 83.0, 82.0, 75.0]
    assert tie_groups(score, low, high) == [[0, 1], [2, 3]]
