"""The statistical validation suite: coverage, type-I error, pass@k expectation and
Bradley–Terry recovery, asserted on the same numbers ``docs/validation.md`` publishes.

The full run is computed once for this module (about 40 s of CPU) and shared by
every test here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchaudit import validation as v
from benchaudit.validation import report

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sections() -> dict[str, v.Section]:
    out = v.run(quick=False)
    return {s.title.split(".")[0]: s for s in out} | {"_all": out}


# --- 1. binomial intervals ---------------------------------------------------------------


def test_wilson_averaged_coverage_within_93_to_97_at_n_30_and_above(sections):
    averaged = sections["1"].data["averaged"]
    for n in v.GRID_N:
        for p in v.GRID_P:
            assert 0.93 <= averaged["wilson", n, p] <= 0.97, (n, p, averaged["wilson", n, p])


def test_exact_coverage_worked_numbers(sections):
    golden = sections["1"].data["golden"]
    for method, n, p, want in v.GOLDEN_COVERAGE:
        assert golden[method, n, p] == pytest.approx(want, abs=5e-4), (method, n, p)


def test_clopper_pearson_is_never_below_nominal(sections):
    exact = sections["1"].data["exact"]
    worst = min(val for (m, _, _), val in exact.items() if m == "clopper-pearson")
    assert worst >= 0.95


def test_clopper_pearson_module_matches_beta_quantiles(sections):
    assert sections["1"].data["cp_diff"] < 1e-9


def test_coverage_is_symmetric_in_p(sections):
    # k -> n - k maps each interval at p onto the interval at 1 - p.
    exact = sections["1"].data["exact"]
    for (method, n, p), val in exact.items():
        assert val == pytest.approx(exact[method, n, round(1 - p, 10)], abs=1e-9)


def test_exact_coverage_matches_statsmodels_for_wilson():
    import numpy as np
    from scipy.stats import binom
    from statsmodels.stats.proportion import proportion_confint

    n, p = 50, 0.02
    k = np.arange(n + 1)
    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    want = float(binom.pmf(k, n, p)[(lo <= p) & (p <= hi)].sum())
    assert v.exact_coverage("wilson", n, p) == pytest.approx(want, abs=1e-12)


# --- 2. other intervals --------------------------------------------------------------------


def test_paired_interval_coverage(sections):
    data = sections["2"].data
    assert data["paired_gap"] < 1e-12
    for (n, a, b), cov in data["paired"].items():
        if n * (a + b) >= v.PAIRED_MIN_DISCORDANT:
            assert 0.93 <= cov <= 0.97, (n, a, b, cov)


def test_newcombe_interval_is_never_below_nominal_in_the_published_cells(sections):
    data = sections["2"].data
    from benchaudit.validation.intervals import NEWCOMBE_NS, PAIRED_CELLS

    assert set(data["newcombe"]) == {(n, a, b) for n in NEWCOMBE_NS for a, b in PAIRED_CELLS}
    for key, cov in data["newcombe"].items():
        assert 0.945 <= cov <= 1.0, (key, cov)
    # Where the normal interval is erratic (few discordant items), Newcombe's is not.
    assert min(data["newcombe"].values()) > min(data["paired"].values()) + 0.1


def test_newcombe_coverage_matches_brute_force_enumeration():
    from scipy.stats import multinomial

    from benchaudit.stats.paired import paired_diff_newcombe
    from benchaudit.validation.intervals import NEWCOMBE_BOTH_RIGHT, newcombe_coverage

    n, p10, p01 = 30, 0.10, 0.05
    p11 = NEWCOMBE_BOTH_RIGHT * (1 - p10 - p01)
    probs = [p11, p10, p01, 1 - p11 - p10 - p01]
    want = 0.0
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                _, lo, hi = paired_diff_newcombe(a, b, c, n - a - b - c)
                if lo - 1e-12 <= p10 - p01 <= hi + 1e-12:
                    want += multinomial.pmf([a, b, c, n - a - b - c], n, probs)
    got, gap = newcombe_coverage(n, p10, p01)
    assert got == pytest.approx(want, abs=1e-8)
    assert gap < 1e-12


def test_paired_coverage_matches_brute_force_enumeration():
    from scipy.stats import multinomial

    from benchaudit.stats.paired import paired_diff_ci
    from benchaudit.validation.intervals import paired_coverage

    n, p10, p01 = 40, 0.10, 0.05
    want = 0.0
    for a in range(n + 1):
        for b in range(n + 1 - a):
            _, lo, hi = paired_diff_ci(n - a - b, a, b, 0)
            if lo - 1e-12 <= p10 - p01 <= hi + 1e-12:
                want += multinomial.pmf([a, b, n - a - b], n, [p10, p01, 1 - p10 - p01])
    got, gap = paired_coverage(n, p10, p01)
    assert got == pytest.approx(want, abs=1e-11)
    assert gap < 1e-12


def test_bootstrap_intervals_cover_near_nominal(sections):
    data = sections["2"].data
    # Percentile bootstraps run a little low with few units; never far off.
    for n, cov in data["bootstrap"].items():
        assert (0.92 if n >= 100 else 0.90) <= cov <= 0.98, (n, cov)
    for g, cov in data["cluster"].items():
        assert (0.92 if g >= 30 else 0.89) <= cov <= 0.98, (g, cov)


def test_seed_t_interval_covers_and_z_does_not(sections):
    for k, (t_cover, z_cover, gap) in sections["2"].data["seeds"].items():
        assert abs(t_cover - 0.95) <= 0.015, (k, t_cover)
        assert gap < 1e-12
        assert z_cover < t_cover
    assert sections["2"].data["seeds"][3][1] < 0.85


# --- 3. type-I error -----------------------------------------------------------------------


def test_every_test_holds_its_level(sections):
    rates = sections["3"].data["rates"]
    bad = [(r.test, r.design, r.rate) for r in rates if not r.ok]
    assert not bad
    assert all(r.se <= 0.005 for r in rates)


def test_every_test_family_is_validated(sections):
    names = {r.test for r in sections["3"].data["rates"]}
    assert {
        "McNemar exact",
        "sign-flip permutation",
        "unpaired z-test",
        "p from z",
        "p from t(4)",
        "p from χ²(1)",
        "p from F(4, 19)",
        "p from r (df 18)",
        "Holm (family-wise)",
        "t interval over seeds",
        "kappa interval",
        "contamination subset Z",
    } <= names


def test_p_value_recomputation_never_flags_a_correct_report(sections):
    rows = sections["3"].data["false_alarms"]
    assert len(rows) == 10
    assert all(r[3] == "0" and r[4] == "0" for r in rows), rows


def test_mcnemar_attained_level_is_below_alpha_and_matches_simulation(sections):
    for r in sections["3"].data["rates"]:
        if r.test == "McNemar exact":
            assert r.attained <= v.ALPHA
            assert abs(r.rate - r.attained) <= 4 * r.se, (r.design, r.rate, r.attained)


def test_holm_independent_nulls_match_closed_form(sections):
    (r,) = [
        r
        for r in sections["3"].data["rates"]
        if r.test == "Holm (family-wise)" and r.attained is not None
    ]
    assert r.attained == pytest.approx(1 - (1 - 0.005) ** 10)
    assert abs(r.rate - r.attained) <= 4 * r.se


# --- 4. pass@k -----------------------------------------------------------------------------


def test_pass_at_k_is_unbiased_exactly(sections):
    data = sections["4"].data
    assert data["worst_unbiased"] < 1e-12
    assert data["worst_hat"] < 1e-12
    assert data["worst_module"] < 1e-9


def test_plugin_underestimates_for_k_above_one(sections):
    for (_p, _n, k), (true, _e_u, e_pl) in sections["4"].data["cells"].items():
        if k == 1:
            assert e_pl == pytest.approx(true, abs=1e-12)
        else:
            assert e_pl <= true + 1e-12


def test_pass_at_k_worked_numbers():
    for p, n, k, want_true, want_plugin in v.GOLDEN_PASSK:
        true, e_u, e_pl, _, _ = v.passk_expectations(p, n, k)
        assert true == pytest.approx(want_true, abs=5e-4)
        assert e_u == pytest.approx(want_true, abs=5e-4)
        assert e_pl == pytest.approx(want_plugin, abs=5e-4)


# --- 5. Bradley–Terry ----------------------------------------------------------------------


def test_bradley_terry_recovers_strengths_and_covers(sections):
    rec = sections["5"].data["recovery"]
    assert 0.93 <= rec["overall"] <= 0.97
    assert all(0.90 <= c <= 0.99 for c in rec["coverage"])
    # Bias well inside the sampling error of the mean over data sets.
    assert all(abs(b) < 3.0 for b in rec["bias"])
    assert rec["top1"] >= 0.95


def test_bradley_terry_worked_numbers(sections):
    data = sections["5"].data
    assert list(data["shares"]) == pytest.approx([4 / 7, 2 / 7, 1 / 7], abs=1e-6)
    want = {30: 0.543, 100: 0.640, 200: 0.760}
    for gap, rate in data["win_rates"]:
        assert rate == pytest.approx(want[gap], abs=5e-4)


# --- 6. power and the winner's curse ------------------------------------------------------


def test_required_n_gives_the_promised_power(sections):
    data = sections["6"].data
    assert data["unpaired_gap"] < 1e-12
    for key, pw in data["unpaired"].items():
        assert 0.78 <= pw <= 0.82, (key, pw)
    # The normal formulas are a little optimistic for the (conservative) exact test.
    for key, pw in data["paired"].items():
        assert 0.75 <= pw <= 0.82, (key, pw)
    assert 0.75 <= data["mde_power"] <= 0.82


def test_winners_curse_matches_simulation(sections):
    from benchaudit.stats.selection import winners_curse_inflation

    want = {2: 1.16, 5: 2.37, 10: 3.13, 20: 3.79, 50: 4.55, 100: 5.06}
    for k, (sim, se) in sections["6"].data["curse"].items():
        exact = winners_curse_inflation(k, 0.70, 500)
        assert 100 * exact == pytest.approx(want[k], abs=0.005)
        assert abs(sim - exact) <= 4 * se, (k, sim, exact)


# --- 7. the per-item analysis end to end ---------------------------------------------------


def test_analysis_reports_hold_their_levels_on_null_data(sections):
    for r in sections["7"].data["runs"]:
        assert 0.93 <= r.model_cover <= 0.97, (r.design, r.model_cover)
        assert 0.93 <= r.diff_cover <= 0.97, (r.design, r.diff_cover)
        if r.exact_test:
            assert r.reject <= v.ALPHA + 0.015, (r.design, r.reject)
        else:
            assert abs(r.reject - v.ALPHA) <= 0.015, (r.design, r.reject)
        assert r.reject_se <= 0.005
        assert r.fwer <= v.ALPHA + 0.015, (r.design, r.fwer)
    binary, graded = sections["7"].data["runs"]
    assert (binary.interval, binary.test) == ("wilson", "mcnemar-exact")
    assert (graded.interval, graded.test) == ("bootstrap", "sign-flip-permutation")


# --- the published table -------------------------------------------------------------------


def test_docs_validation_is_up_to_date(sections):
    page = ROOT / "docs" / "validation.md"
    assert page.is_file(), "docs/validation.md is missing: run python -m benchaudit.validation"
    assert page.read_text(encoding="utf-8") == v.render(sections["_all"]), (
        "docs/validation.md is out of date: run python -m benchaudit.validation"
    )


def test_quick_run_writes_a_report_and_check_detects_changes(tmp_path, monkeypatch):
    out = tmp_path / "validation.md"
    assert v.main(["--quick", "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Statistical validation")
    assert "Quick run" in text
    assert "OUT OF TOLERANCE" not in text
    # --check compares a fresh run with the file (here a changed one) and leaves it alone.
    monkeypatch.setattr(report, "run", lambda quick=False: [])
    assert v.main(["--quick", "--output", str(out), "--check"]) == 1
    assert out.read_text(encoding="utf-8") == text
