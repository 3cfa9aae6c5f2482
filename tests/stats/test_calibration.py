"""Calibration: ECE / MCE / Brier against independent formulas, temperature scaling,
the calibration reader and the ECE mentions of documents."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.errors import InputError
from benchaudit.inputs.calibration import ece_mentions
from benchaudit.stats.calibration import (
    bin_index,
    brier,
    brier_multiclass,
    confidence_and_correct,
    ece,
    fit_temperature,
    mce,
    nll,
    reliability_table,
    softmax,
    summarise,
)


def simple_ece(conf, correct, m=10):
    """Guo et al.'s definition as usually written: bins (lo, hi] between edges m/M."""
    edges = [b / m for b in range(m + 1)]
    n = len(conf)
    total = 0.0
    for b in range(m):
        lo, hi = edges[b], edges[b + 1]
        members = [i for i, c in enumerate(conf) if (c > lo or (b == 0 and c == 0)) and c <= hi]
        if members:
            acc = sum(correct[i] for i in members) / len(members)
            cf = sum(conf[i] for i in members) / len(members)
            total += len(members) / n * abs(acc - cf)
    return total


def test_seed_example_ece_and_brier():
    # Six predictions at softmax([4, 0, 0]) = 0.965, five of them right.
    logits = np.array([[4.0, 0, 0]] * 4 + [[0, 4.0, 0], [0, 0, 4.0]])
    labels = [0, 0, 0, 1, 1, 2]
    conf, ok = confidence_and_correct(logits, labels, logits=True)
    assert conf[0] == pytest.approx(math.e**4 / (math.e**4 + 2))
    assert ece(conf, ok, 10) == pytest.approx(0.131, abs=5e-4)
    assert brier(conf, ok) == pytest.approx(0.156, abs=5e-4)


def test_always_certain_half_right_is_half():
    assert ece([1.0] * 4, [1, 0, 1, 0]) == pytest.approx(0.5)


def test_matches_simple_implementation_including_edges():
    rng = np.random.default_rng(1)
    conf = np.concatenate([rng.uniform(0, 1, 500), np.arange(11) / 10])
    ok = (rng.uniform(0, 1, conf.size) < conf).astype(float)
    for m in (5, 10, 15):
        assert ece(conf, ok, m) == pytest.approx(
            simple_ece(conf.tolist(), ok.tolist(), m), abs=1e-12
        )


def test_right_closed_bins():
    idx = bin_index([0.0, 0.1, 0.10001, 0.3, 0.6, 0.7, 0.9, 1.0], 10)
    assert idx.tolist() == [0, 0, 1, 2, 5, 6, 8, 9]
    assert bin_index([0.2, 0.4, 0.6, 0.8], 5).tolist() == [0, 1, 2, 3]


def test_equal_mass_bins_have_equal_counts():
    rng = np.random.default_rng(2)
    conf = rng.beta(5, 1, 1000)
    ok = (rng.uniform(0, 1, 1000) < conf * 0.8).astype(float)
    table = reliability_table(conf, ok, 10, "equal-mass")
    assert [b.count for b in table] == [100] * 10
    order = np.argsort(conf)
    want = sum(0.1 * abs(ok[g].mean() - conf[g].mean()) for g in np.array_split(order, 10))
    assert ece(conf, ok, 10, "equal-mass") == pytest.approx(want)


def test_mce_is_largest_gap():
    conf = [0.95, 0.95, 0.55, 0.55]
    ok = [1, 0, 1, 1]
    assert mce(conf, ok) == pytest.approx(0.45)
    assert ece(conf, ok) == pytest.approx(0.5 * 0.45 + 0.5 * 0.45)


def test_multiclass_brier_and_nll_against_scipy():
    from scipy.special import log_softmax

    rng = np.random.default_rng(3)
    z = rng.normal(size=(200, 5))
    y = rng.integers(0, 5, 200)
    assert nll(z, y, 1.7) == pytest.approx(-log_softmax(z / 1.7, axis=1)[np.arange(200), y].mean())
    p = softmax(z)
    want = np.mean([sum((p[i, k] - (k == y[i])) ** 2 for k in range(5)) for i in range(200)])
    assert brier_multiclass(p, y) == pytest.approx(want)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1, max_size=200),
    st.integers(1, 30),
    st.sampled_from(["equal-width", "equal-mass"]),
)
def test_ece_in_unit_interval(pairs, m, binning):
    conf = [c for c, _ in pairs]
    ok = [float(b) for _, b in pairs]
    e = ece(conf, ok, m, binning)
    assert 0.0 <= e <= 1.0
    assert e <= mce(conf, ok, m, binning) + 1e-12


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_perfectly_calibrated_data_has_small_ece(seed):
    rng = np.random.default_rng(seed)
    conf = rng.uniform(0.25, 1.0, 20_000)
    ok = (rng.uniform(0, 1, conf.size) < conf).astype(float)
    assert ece(conf, ok, 10) < 0.02


def test_temperature_recovers_overconfidence_and_keeps_accuracy():
    rng = np.random.default_rng(0)
    z = rng.normal(size=(20_000, 5)) * 1.5
    p = softmax(z)
    y = (p.cumsum(1) > rng.uniform(0, 1, (20_000, 1))).argmax(1)
    hot = z * 3.0
    t = fit_temperature(hot, y)
    assert t == pytest.approx(3.0, rel=0.05)
    before = confidence_and_correct(hot, y, logits=True)
    after = confidence_and_correct(hot / t, y, logits=True)
    assert np.array_equal(before[1], after[1])  # accuracy untouched
    s = summarise(*before, logits=hot, labels=y)
    assert s.temperature == pytest.approx(t)
    assert s.ece_after_temperature < 0.02 < s.ece
    # The fitted T minimises the NLL.
    assert nll(hot, y, t) <= min(nll(hot, y, t * 0.9), nll(hot, y, t * 1.1))


# --------------------------------------------------------------------------- reader and report


def test_report_on_fixture(data_dir):
    path = data_dir / "metrics" / "calibration" / "overconfident.csv"
    report = audit([str(path)], Config())
    row = report.results["calibration"][0]
    data = np.genfromtxt(path, delimiter=",", names=True)
    assert row["bins"] == 10 and row["binning"] == "equal-width"
    assert row["ece"] == pytest.approx(
        simple_ece(data["confidence"].tolist(), data["correct"].tolist()), abs=1e-12
    )
    assert row["n_items"] == 1000
    assert len(report.results["reliability"]) == 10
    assert sum(r["count"] for r in report.results["reliability"]) == 1000


def test_logits_fixture_fits_temperature(data_dir):
    path = data_dir / "metrics" / "calibration" / "overconfident_logits.jsonl"
    row = audit([str(path)], Config()).results["calibration"][0]
    csv_row = audit(
        [str(data_dir / "metrics" / "calibration" / "overconfident.csv")], Config()
    ).results["calibration"][0]
    assert row["ece"] == pytest.approx(csv_row["ece"], abs=1e-5)
    assert 2.0 < row["temperature"] < 3.0
    assert row["ece_after_temperature"] < row["ece"] / 3


def test_equal_mass_option(data_dir):
    cfg = Config(rules={"calibration-bins": {"bins": 15, "binning": "equal-mass"}})
    path = data_dir / "metrics" / "calibration" / "overconfident.csv"
    row = audit([str(path)], cfg).results["calibration"][0]
    assert row["bins"] == 15 and row["binning"] == "equal-mass"


def test_binary_probability_layout(tmp_path):
    path = tmp_path / "binary.csv"
    path.write_text("probability,label\n0.9,1\n0.2,0\n0.4,1\n0.7,0\n", encoding="utf-8")
    row = audit([str(path)], Config()).results["calibration"][0]
    conf = [0.9, 0.8, 0.6, 0.7]
    ok = [1, 1, 0, 0]
    assert row["ece"] == pytest.approx(ece(conf, ok))
    assert row["accuracy"] == pytest.approx(0.5)


def test_class_probability_columns(tmp_path):
    path = tmp_path / "probs.csv"
    path.write_text("prob_0,prob_1,prob_2,label\n0.7,0.2,0.1,0\n0.1,0.6,0.3,2\n", encoding="utf-8")
    row = audit([str(path)], Config()).results["calibration"][0]
    assert row["accuracy"] == pytest.approx(0.5)
    assert row["mean_confidence"] == pytest.approx(0.65)


@pytest.mark.parametrize(
    "content,message,line",
    [
        ("confidence,correct\n0.9,1\n87,1\n", "percentage", 3),
        ("confidence,correct\n0.9,maybe\n", "true/false", 2),
        ("confidence,correct\n0.9\n", "ragged", 2),
        ("prob_0,prob_1,label\n0.7,0.2,0\n", "sum to 1", 2),
        ("prob_0,prob_1,label\n0.7,0.3,5\n", "class index", 2),
    ],
)
def test_bad_calibration_files(tmp_path, content, message, line):
    path = tmp_path / "cal.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        audit([str(path)], Config())
    assert err.value.line == line


def test_ece_mentions_in_prose_and_tables():
    lines = [
        "Our ECE is 3.1% with 15 bins.",
        "",
        "| Model | ECE (10 equal-mass bins) |",
        "|---|---|",
        "| A | 0.021 |",
        "| B | 4.8% |",
    ]
    got = [(ln, v, b, bn) for ln, _, v, b, bn in ece_mentions(lines)]
    assert got == [
        (1, pytest.approx(0.031), 15, "equal-width"),
        (5, pytest.approx(0.021), 10, "equal-mass"),
        (6, pytest.approx(0.048), 10, "equal-mass"),
    ]
