"""Cohen's kappa with intervals, position bias and the consistency-required win rate."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.stats.agreement import (
    cohen_kappa,
    contingency,
    kappa_bootstrap,
    kappa_from_table,
    position_bias,
)

DATA = Path(__file__).parents[1] / "data" / "arena"

# Seed 002 §6: both pass 65, both fail 20, only the human says pass 5, only the judge 10.
TABLE = [[65, 10], [5, 20]]  # rows: judge pass/fail; columns: human pass/fail


def _labels():
    judge = ["pass"] * 65 + ["fail"] * 20 + ["fail"] * 5 + ["pass"] * 10
    human = ["pass"] * 65 + ["fail"] * 20 + ["pass"] * 5 + ["fail"] * 10
    return judge, human


def test_kappa_golden_65_20_5_10():
    k = kappa_from_table(TABLE)
    assert k.agreement == pytest.approx(0.85)
    assert k.chance == pytest.approx(0.60)
    assert k.kappa == pytest.approx(0.625)
    judge, human = _labels()
    assert cohen_kappa(judge, human).kappa == pytest.approx(0.625)


def test_kappa_interval_matches_statsmodels():
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    ref = inter_rater.cohens_kappa(TABLE)
    k = kappa_from_table(TABLE)
    assert k.se == pytest.approx(ref.std_kappa, rel=1e-9)
    assert (k.ci_low, k.ci_high) == pytest.approx((ref.kappa_low, ref.kappa_upp), rel=1e-9)
    three = [[20, 3, 1], [4, 15, 2], [1, 2, 12]]
    r3 = inter_rater.cohens_kappa(three)
    k3 = kappa_from_table(three)
    assert k3.kappa == pytest.approx(r3.kappa)
    assert k3.se == pytest.approx(r3.std_kappa, rel=1e-9)


def test_kappa_seed_edge_cases():
    assert cohen_kappa(list("1010"), list("1010")).kappa == pytest.approx(1.0)
    assert cohen_kappa(list("1010"), list("0101")).kappa == pytest.approx(-1.0)


def test_bootstrap_interval_is_close_to_the_analytic_one():
    judge, human = _labels()
    lo, hi = kappa_bootstrap(judge, human, resamples=2000, seed=0)
    k = cohen_kappa(judge, human)
    assert lo == pytest.approx(k.ci_low, abs=0.05)
    assert hi == pytest.approx(k.ci_high, abs=0.05)
    assert kappa_bootstrap(judge, human, resamples=500, seed=3) == kappa_bootstrap(
        judge, human, resamples=500, seed=3
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc")), min_size=5, max_size=60))
def test_kappa_laws(pairs):
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    k = cohen_kappa(a, b)
    if k.chance >= 1:
        return
    assert k.kappa <= 1 + 1e-12
    assert k.kappa <= k.agreement + 1e-12  # chance correction never raises agreement
    assert cohen_kappa(b, a).kappa == pytest.approx(k.kappa)  # symmetric in the raters
    t, labels = contingency(a, b)
    assert sum(map(sum, t)) == len(a)


def test_position_bias_seed_examples():
    assert position_bias(["A", "A", "B"], ["B", "B", "A"]).rate == 0.0
    assert position_bias(["A", "A", "A"], ["A", "A", "A"]).rate == 1.0


def test_consistency_required_win_rate():
    # Answer X is shown first in the original order (slot A), second after the swap.
    pb = position_bias(["A", "A", "A", "B", "tie"], ["B", "A", "tie", "A", "tie"])
    assert pb.pairs == 5
    assert pb.same_slot == 1
    assert pb.first_order_win_rate == pytest.approx(3 / 5)
    assert pb.consistent_win_rate == pytest.approx(1 / 5)  # only pair 1 survives the swap
    assert pb.consistent_first == 1 and pb.consistent_second == 1
    assert pb.inconsistent == 2 and pb.both_tie == 1
    assert pb.consistent_win_rate_ties_half == pytest.approx((1 + 0.5 * 3) / 5)


def test_judge_file_reports_kappa_0625():
    from benchaudit.config import Config
    from benchaudit.engine import audit

    report = audit([str(DATA / "judge_vs_human_65_20_5_10.csv")], Config(select=["BA405"]))
    row = report.results["agreement"][0]
    assert row["kappa"] == pytest.approx(0.625)
    assert row["agreement"] == pytest.approx(0.85)
    f = [f for f in report.findings if f.code == "BA405"]
    assert len(f) == 1 and "κ = 0.625" in f[0].message and "85.0%" in f[0].message
