"""pass@k: golden numbers, exact cross-checks, properties, and the samples reader."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.errors import InputError
from benchaudit.stats.passk import (
    default_ks,
    estimate,
    mean_interval,
    pass_at_k,
    pass_at_k_array,
    pass_hat_k,
    pass_hat_k_array,
    plugin_expectation,
    plugin_pass_at_k,
)


def exact(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k) in exact rational arithmetic."""
    return float(1 - Fraction(math.comb(n - c, k), math.comb(n, k)))


@pytest.mark.parametrize(
    "n,c,k,want",
    [
        (10, 3, 1, 0.3),
        (10, 3, 2, 0.5333333),
        (5, 4, 2, 1.0),
        (10, 0, 3, 0.0),
        (20, 5, 1, 0.25),
        (20, 5, 10, 0.9837),
    ],
)
def test_golden(n, c, k, want):
    assert pass_at_k(n, c, k) == pytest.approx(want, abs=1e-4)
    assert pass_at_k_array([n], [c], k)[0] == pytest.approx(want, abs=1e-4)


def test_benchmark_average_from_seed():
    # Three problems of 20 samples with 5, 0 and 12 passes: pass@1 = 0.2833.
    assert estimate([20, 20, 20], [5, 0, 12], 1).estimate == pytest.approx(0.2833, abs=1e-4)


@pytest.mark.parametrize(
    "p,n,k,true,plugin", [(0.15, 20, 5, 0.556, 0.518), (0.05, 20, 10, 0.401, 0.336)]
)
def test_plugin_bias_golden(p, n, k, true, plugin):
    t, e_plugin, e_unbiased = plugin_expectation(p, n, k)
    assert t == pytest.approx(true, abs=5e-4)
    assert e_plugin == pytest.approx(plugin, abs=5e-4)
    assert e_unbiased == pytest.approx(t, abs=1e-12)  # the estimator is unbiased


def test_large_n_needs_no_big_integers():
    # C(2000, 1000) has 601 digits; the product form never forms it.
    assert pass_at_k(2000, 1000, 1000) == pytest.approx(exact(2000, 1000, 1000), abs=1e-12)
    assert pass_at_k_array([2000], [3], 100)[0] == pytest.approx(exact(2000, 3, 100), abs=1e-12)


def test_undefined_when_k_exceeds_n():
    with pytest.raises(ValueError):
        pass_at_k(6, 3, 10)
    with pytest.raises(ValueError):
        pass_at_k_array([6, 20], [3, 3], 10)


def test_pass_hat_k_golden_and_scipy():
    from scipy.special import comb

    assert pass_hat_k(10, 3, 2) == pytest.approx(comb(3, 2) / comb(10, 2))
    assert pass_hat_k(10, 1, 2) == 0.0
    n = np.array([10, 20, 7, 200])
    c = np.array([3, 20, 0, 150])
    got = pass_hat_k_array(n, c, 3)
    want = comb(c, 3, exact=False) / comb(n, 3, exact=False)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_array_matches_scipy_comb_over_a_grid():
    from scipy.special import comb

    n = np.repeat(np.arange(1, 41), 41)
    c = np.tile(np.arange(0, 41), 40)
    keep = c <= n
    n, c = n[keep], c[keep]
    for k in (1, 2, 5, 10):
        ok = n >= k
        want = 1 - comb(n[ok] - c[ok], k) / comb(n[ok], k)
        np.testing.assert_allclose(pass_at_k_array(n[ok], c[ok], k), want, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 300).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))
    )
)
def test_properties(nck):
    n, c, k = nck
    v = pass_at_k(n, c, k)
    assert 0.0 <= v <= 1.0
    assert v == pytest.approx(exact(n, c, k), abs=1e-9)
    if k == 1:
        assert v == pytest.approx(c / n)
    if k < n:
        assert pass_at_k(n, c, k + 1) >= v - 1e-12  # more tries never hurt
    if c < n:
        assert pass_at_k(n, c + 1, k) >= v - 1e-12
    # The plug-in never exceeds the unbiased estimate for a single problem.
    assert plugin_pass_at_k(n, c, k) <= v + 1e-12
    assert pass_hat_k(n, c, k) <= v + 1e-12 or c == 0


def test_interval_over_problems_matches_normal_formula():
    vals = np.array([0.1, 0.5, 0.9, 0.3])
    m, lo, hi = mean_interval(vals)
    se = vals.std(ddof=1) / 2
    assert m == pytest.approx(0.45)
    assert lo == pytest.approx(0.45 - 1.959964 * se, abs=1e-6)
    assert hi == pytest.approx(0.45 + 1.959964 * se, abs=1e-6)
    assert mean_interval([0.4])[1:] == (None, None)


def test_default_ks():
    assert default_ks(6) == [1, 5]
    assert default_ks(200) == [1, 5, 10, 20, 50, 100]


# --------------------------------------------------------------------------- reader


def test_humaneval_example_results(data_dir):
    path = data_dir / "metrics" / "humaneval" / "example_samples.jsonl_results.jsonl"
    report = audit([str(path)], Config())
    rows = {r["k"]: r for r in report.results["passk"]}
    assert rows[1]["estimate"] == pytest.approx(0.5)  # 3 of 6, as human-eval's README says
    assert rows[1]["n_problems"] == 1 and rows[1]["samples_per_problem"] == 6
    assert 10 not in rows  # undefined with 6 samples


def test_samples_without_results_is_refused(data_dir, tmp_path):
    path = data_dir / "metrics" / "humaneval" / "example_samples.jsonl"
    before = path.read_bytes()
    with pytest.raises(InputError, match="benchaudit never executes code"):
        audit([str(path)], Config())
    assert path.read_bytes() == before
    assert not (tmp_path / "tmp").exists()


def test_cli_refusal_is_one_line_exit_2(data_dir):
    path = data_dir / "metrics" / "humaneval" / "example_samples.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "no pass/fail results" in proc.stderr


def _write_results(path, n_per, c_per, rng):
    with open(path, "w", encoding="utf-8") as fh:
        for t, (n, c) in enumerate(zip(n_per, c_per)):
            verdicts = np.zeros(n, dtype=bool)
            verdicts[:c] = True
            rng.shuffle(verdicts)
            for v in verdicts:
                rec = {
                    "task_id": f"HumanEval/{t}",
                    "completion": "    pass",
                    "result": "passed" if v else "failed: AssertionError",
                    "passed": bool(v),
                }
                fh.write(json.dumps(rec) + "\n")


def test_results_file_matches_exact_estimator(tmp_path):
    rng = np.random.default_rng(7)
    n_per = [20] * 164
    c_per = rng.binomial(20, rng.uniform(0, 1, 164)).tolist()
    path = tmp_path / "samples.jsonl_results.jsonl"
    _write_results(path, n_per, c_per, rng)
    report = audit([str(path)], Config())
    rows = {r["k"]: r for r in report.results["passk"]}
    for k in (1, 5, 10):
        want = sum(exact(n, c, k) for n, c in zip(n_per, c_per)) / len(n_per)
        assert rows[k]["estimate"] == pytest.approx(want, abs=1e-9)
        assert rows[k]["n_problems"] == 164
        assert rows[k]["plugin"] <= rows[k]["estimate"]


def test_counts_table_and_unequal_n(tmp_path):
    path = tmp_path / "counts.csv"
    path.write_text("problem,n,c\na,10,3\nb,12,0\nc,15,15\n", encoding="utf-8")
    report = audit([str(path)], Config())
    rows = {r["k"]: r for r in report.results["passk"]}
    want = (exact(10, 3, 5) + exact(12, 0, 5) + exact(15, 15, 5)) / 3
    assert rows[5]["estimate"] == pytest.approx(want)
    assert rows[5]["samples_per_problem"] == 10 and rows[5]["samples_max"] == 15
    assert 20 not in rows


@pytest.mark.parametrize(
    "content,message",
    [
        ("problem,n,c\na,10,11\n", "c <= n"),
        ("problem,n,c\na,ten,1\n", "whole number"),
        ("problem,n,c\na,10\n", "ragged"),
    ],
)
def test_bad_counts_tables(tmp_path, content, message):
    path = tmp_path / "counts.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        audit([str(path)], Config())
    assert err.value.line == 2


def test_bad_jsonl_line(tmp_path):
    path = tmp_path / "x_results.jsonl"
    path.write_text(
        '{"task_id": "a", "passed": true}\n{"task_id": "a", "passed": maybe}\n', encoding="utf-8"
    )
    with pytest.raises(InputError) as err:
        audit([str(path)], Config(kind="samples"))
    assert err.value.line == 2


def test_unreadable_verdict(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("task_id,passed\na,yes\na,perhaps\n", encoding="utf-8")
    with pytest.raises(InputError, match="pass/fail") as err:
        audit([str(path)], Config(kind="samples"))
    assert err.value.line == 3
