"""Section 3: type-I error of every test on simulated nulls."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchaudit.validation.common import (
    ALPHA,
    CONFIDENCE,
    TOLERANCE_POINTS,
    Budget,
    Section,
    Table,
    mc_se,
    pct,
    stream_rng,
)
from benchaudit.validation.intervals import (
    GRADED_PROBS,
    GRADED_VALUES,
    SEED_KS,
    seed_interval_rates,
)


@dataclass
class NullRate:
    """A test's rejection rate on simulated nulls."""

    test: str
    design: str
    draws: int
    rate: float
    exact: bool
    attained: float | None = None

    @property
    def se(self) -> float:
        return mc_se(ALPHA, self.draws)

    @property
    def ok(self) -> bool:
        tol = TOLERANCE_POINTS / 100
        if self.exact:
            return self.rate <= ALPHA + tol
        return abs(self.rate - ALPHA) <= tol

    def row(self) -> list[str]:
        attained = "—" if self.attained is None else pct(self.attained, 2)
        verdict = "ok" if self.ok else "OUT OF TOLERANCE"
        kind = "≤ level + 1.5" if self.exact else "level ± 1.5"
        return [
            self.test,
            self.design,
            f"{self.draws:,}",
            pct(self.rate, 2),
            pct(self.se, 2),
            attained,
            kind,
            verdict,
        ]


def mcnemar_null(n: int, psi: float, draws: int, stream: int) -> NullRate:
    """McNemar's exact test on paired 0/1 items with P(A only) = P(B only) = psi / 2."""
    from scipy.stats import binom

    from benchaudit.stats.paired import mcnemar_exact, mcnemar_exact_many

    rng = stream_rng(stream)
    counts = rng.multinomial(n, [psi / 2, psi / 2, 1 - psi], size=draws)
    p = mcnemar_exact_many(counts[:, 0], counts[:, 1])
    for s in range(50):
        scalar = mcnemar_exact(int(counts[s, 0]), int(counts[s, 1]))
        if abs(scalar - p[s]) > 1e-9 * p[s]:
            raise AssertionError("mcnemar_exact and mcnemar_exact_many disagree")
    # Attained level: sum over the discordant count m of P(m) P(reject | m).
    attained = 0.0
    for m in range(n + 1):
        pm = float(binom.pmf(m, n, psi))
        if pm < 1e-15:
            continue
        b = np.arange(m + 1)
        rej = mcnemar_exact_many(b, m - b) <= ALPHA
        attained += pm * float(binom.pmf(b[rej], m, 0.5).sum())
    return NullRate(
        "McNemar exact",
        f"n = {n}, discordance {psi:g}",
        draws,
        float(np.mean(p <= ALPHA)),
        True,
        attained,
    )


def sign_flip_null(n: int, graded: str, datasets: int, resamples: int, stream: int) -> NullRate:
    """Sign-flip permutation test on paired graded scores drawn from one distribution."""
    from benchaudit.stats.paired import sign_flip_test

    rng = stream_rng(stream)
    if graded == "continuous":
        x = rng.beta(2.0, 2.0, size=(datasets, 2, n))
        design = f"n = {n}, Beta(2, 2) scores"
    else:
        x = rng.choice(GRADED_VALUES, size=(datasets, 2, n), p=GRADED_PROBS)
        design = f"n = {n}, five score levels"
    d = x[:, 0] - x[:, 1]
    p = np.array(
        [sign_flip_test(d[s], resamples, seed=stream * 100_000 + s) for s in range(datasets)]
    )
    # Valid (p never below its null probability); with discrete scores it is conservative.
    return NullRate(
        "sign-flip permutation",
        design + f", {resamples} resamples",
        datasets,
        float(np.mean(p <= ALPHA)),
        graded != "continuous",
    )


def unpaired_null(n: int, p: float, draws: int, stream: int) -> NullRate:
    """Two-proportion z-test (pooled) on two independent samples with the same accuracy."""
    from benchaudit.stats.paired import unpaired_diff

    rng = stream_rng(stream)
    k = rng.binomial(n, p, size=(draws, 2))
    pv = np.array([unpaired_diff(a / n, n, b / n, n)[4] for a, b in k])
    return NullRate(
        "unpaired z-test",
        f"n = {n} per model, p = {p:g}",
        draws,
        float(np.mean(pv <= ALPHA)),
        False,
    )


def recompute_nulls(draws: int, stream: int) -> list[NullRate]:
    """p-value recomputation (statcheck-style) on statistics computed from null samples."""
    from benchaudit.stats import significance as sig

    rng = stream_rng(stream)
    out = []
    x = rng.normal(size=(draws, 25))
    z = x.mean(axis=1) * math.sqrt(25)
    out.append(("z", "mean of 25 N(0, 1), known σ", [sig.p_from_z(v) for v in z]))
    for df in (4, 29):
        s = rng.normal(size=(draws, df + 1))
        t = s.mean(axis=1) / (s.std(axis=1, ddof=1) / math.sqrt(df + 1))
        out.append(
            (f"t({df})", f"one-sample t on {df + 1} normals", [sig.p_from_t(v, df) for v in t])
        )
    for df in (1, 5):
        c = (rng.normal(size=(draws, df)) ** 2).sum(axis=1)
        out.append(
            (f"χ²({df})", f"sum of {df} squared normals", [sig.p_from_chi2(v, df) for v in c])
        )
    a, b = rng.normal(size=(draws, 5)), rng.normal(size=(draws, 20))
    f = a.var(axis=1, ddof=1) / b.var(axis=1, ddof=1)
    out.append(
        (
            "F(4, 19)",
            "ratio of sample variances, 5 and 20 normals",
            [sig.p_from_f(v, 4, 19) for v in f],
        )
    )
    u, v = rng.normal(size=(draws, 20)), rng.normal(size=(draws, 20))
    uc, vc = u - u.mean(axis=1, keepdims=True), v - v.mean(axis=1, keepdims=True)
    r = (uc * vc).sum(axis=1) / np.sqrt((uc * uc).sum(axis=1) * (vc * vc).sum(axis=1))
    out.append(("r (df 18)", "Pearson r of 20 independent pairs", [sig.p_from_r(w, 18) for w in r]))
    return [
        NullRate(f"p from {name}", design, draws, float(np.mean(np.array(p) <= ALPHA)), False)
        for name, design, p in out
    ]


def holm_nulls(draws: int, stream: int) -> list[NullRate]:
    """Family-wise error of Holm's procedure over the true null hypotheses."""
    from statistics import NormalDist

    from benchaudit.stats.multiple import holm, holm_array

    rng = stream_rng(stream)
    cdf = np.vectorize(NormalDist().cdf)
    rows = []
    m = 10
    designs = [
        ("10 true nulls, independent", np.zeros(m), 0.0),
        ("5 true nulls + 5 effects of 4 s.e.", np.r_[np.zeros(5), np.full(5, 4.0)], 0.0),
        ("20 true nulls, correlation 0.5", np.zeros(20), 0.5),
    ]
    for design, shift, rho in designs:
        k = shift.size
        common = rng.normal(size=(draws, 1))
        z = math.sqrt(rho) * common + math.sqrt(1 - rho) * rng.normal(size=(draws, k)) + shift
        p = 2 * cdf(-np.abs(z))
        null = shift == 0
        wrong = 0
        for s in range(draws):
            adj = holm(list(p[s]))
            if s < 100 and np.max(np.abs(holm_array(p[s]) - np.array(adj))) > 1e-12:
                raise AssertionError("holm and holm_array disagree")
            wrong += any(a <= ALPHA for a, is_null in zip(adj, null) if is_null)
        exact_all_null = not rho and null.all()
        attained = 1 - (1 - ALPHA / k) ** k if exact_all_null else None
        rows.append(
            NullRate(
                "Holm (family-wise)", design, draws, wrong / draws, not exact_all_null, attained
            )
        )
    return rows


def seed_t_null(k: int, draws: int, stream: int) -> NullRate:
    """The t(k−1) interval over seeds read as a test of the true mean."""
    t_cover, _, _ = seed_interval_rates(k, draws, stream)
    return NullRate("t interval over seeds", f"k = {k} seeds, normal", draws, 1 - t_cover, False)


#: Two raters, binary labels: P(both 1), P(1, 0), P(0, 1), P(both 0).
KAPPA_CELLS = (0.45, 0.10, 0.10, 0.35)


def kappa_null(n: int, draws: int, stream: int) -> NullRate:
    """The asymptotic kappa interval read as a test of the true kappa."""
    from benchaudit.stats.agreement import kappa_from_table

    rng = stream_rng(stream)
    p11, p10, p01, p00 = KAPPA_CELLS
    po = p11 + p00
    r1, c1 = p11 + p10, p11 + p01
    pe = r1 * c1 + (1 - r1) * (1 - c1)
    truth = (po - pe) / (1 - pe)
    counts = rng.multinomial(n, KAPPA_CELLS, size=draws)
    miss = 0
    for a, b, c, d in counts:
        kap = kappa_from_table([[int(a), int(b)], [int(c), int(d)]], CONFIDENCE)
        miss += not kap.ci_low <= truth <= kap.ci_high
    return NullRate("kappa interval", f"n = {n}, κ = {truth:.3f}", draws, miss / draws, False)


def contamination_null(total: int, dirty: int, draws: int, stream: int) -> NullRate | None:
    """The clean-vs-dirty Z with a dirty subset drawn at random (no contamination effect)."""
    try:
        from benchaudit.contamination.scores import subset_z
    except ImportError:  # pragma: no cover - the contamination extra is optional
        return None
    rng = stream_rng(stream)
    scores = (rng.random((draws, total)) < 0.6).astype(np.float64)
    hit = 0
    for s in range(draws):
        mask = np.zeros(total, dtype=bool)
        mask[rng.choice(total, dirty, replace=False)] = True
        z = subset_z(scores[s], mask)
        hit += z is not None and abs(z) >= 1.959963984540054
    return NullRate(
        "contamination subset Z", f"{dirty} random of {total} items", draws, hit / draws, False
    )


def _reported_p(p: float, digits: int) -> tuple[str, str]:
    """An author's rounding of a p-value: "< .001" below 0.001, else ``digits`` decimals."""
    if p < 0.001:
        return "<", "0.001"
    text = f"{p:.{digits}f}"
    return ("<", f"{10**-digits:.{digits}f}") if float(text) == 0 else ("=", text)


def recompute_false_alarms(draws: int, stream: int) -> list[list[str]]:
    """How often the statcheck-style check calls a correctly reported result inconsistent.

    Statistics are drawn from the test's distribution scaled by 1.5 (so that small and
    large p-values both occur); the p-value an author would report is computed with
    scipy from the unrounded statistic, then the statistic is rounded to 2 decimals and
    the p-value to 2 or 3. Every such report is right, so every flag is a false alarm.
    """
    from scipy import stats

    from benchaudit.stats import significance as sig

    rng = stream_rng(stream)
    designs: list[tuple[str, tuple[int, ...], np.ndarray, Callable[[float], float]]] = [
        ("z", (), 1.5 * rng.normal(size=draws), lambda v: 2 * stats.norm.sf(abs(v))),
        ("t", (12,), 1.5 * rng.standard_t(12, draws), lambda v: 2 * stats.t.sf(abs(v), 12)),
        ("chi2", (3,), 1.5 * rng.chisquare(3, draws), lambda v: stats.chi2.sf(v, 3)),
        ("F", (2, 40), 1.5 * rng.f(2, 40, draws), lambda v: stats.f.sf(v, 2, 40)),
        (
            "r",
            (30,),
            np.tanh(0.3 * rng.normal(size=draws)),
            lambda v: 2 * stats.t.sf(abs(v) * math.sqrt(30 / (1 - v * v)), 30),
        ),
    ]
    rows = []
    for name, df, values, p_of in designs:
        for digits in (2, 3):
            alarms = flips = 0
            for v in values:
                op, rep = _reported_p(float(p_of(v)), digits)
                out = sig.recompute(name, f"{v:.2f}", df, op, rep)
                alarms += not out.consistent
                flips += out.decision_flip
            label = f"{name}({', '.join(map(str, df))})" if df else name
            rows.append([label, f"{digits} decimals", f"{draws:,}", str(alarms), str(flips)])
    return rows


def type_one_errors(budget: Budget) -> Section:
    b = budget
    rates: list[NullRate] = [
        mcnemar_null(100, 0.2, b.vector_draws, 401),
        mcnemar_null(500, 0.1, b.vector_draws, 402),
        mcnemar_null(1000, 0.2, b.vector_draws, 403),
        sign_flip_null(100, "continuous", b.permutation_datasets, b.permutation_resamples, 411),
        sign_flip_null(100, "levels", b.permutation_datasets, b.permutation_resamples, 412),
        unpaired_null(100, 0.5, b.null_draws, 421),
        unpaired_null(500, 0.7, b.null_draws, 422),
        unpaired_null(1000, 0.9, b.null_draws, 423),
        *recompute_nulls(b.null_draws, 431),
        *holm_nulls(b.null_draws, 441),
        *[seed_t_null(k, b.vector_draws, 450 + k) for k in SEED_KS],
        *[kappa_null(n, b.null_draws, 460 + i) for i, n in enumerate((100, 200, 500))],
    ]
    for i, (total, dirty) in enumerate(((1000, 50), (1000, 300))):
        r = contamination_null(total, dirty, b.null_draws // 2, 470 + i)
        if r is not None:
            rates.append(r)
    alarms = recompute_false_alarms(b.null_draws // 5, 481)
    intro = f"""
Each test runs on data simulated under its null hypothesis, with a fixed seed, at
level α = {ALPHA:g}; the rejection rate should be within ±{TOLERANCE_POINTS:g} points of
5%. Tests that are exact on discrete data (McNemar, the sign-flip test on scores with
few levels, Holm on dependent or partly false hypotheses) are conservative by
construction: for them the requirement is a rate at most {TOLERANCE_POINTS:g} points
above the level, and the attained level is shown where it has a closed form
(McNemar's by summing over the discordant count, Holm's for independent nulls
1 − (1 − α/m)^m). The Monte Carlo standard error of every rate is at most
{100 * max(r.se for r in rates):.2f} points. Interval procedures (seeds, kappa) count as
rejecting when the interval misses the true value.
"""
    return Section(
        "3. Type-I error on simulated nulls",
        intro,
        [
            Table(
                "Rejection rates at α = 0.05 (%)",
                [
                    "test",
                    "null design",
                    "data sets",
                    "rejection rate",
                    "MC s.e.",
                    "attained level",
                    "requirement",
                    "verdict",
                ],
                [r.row() for r in rates],
            ),
            Table(
                "False alarms of the p-value recomputation (`significance.recompute`) on "
                "correctly rounded reports",
                [
                    "statistic",
                    "reported p",
                    "reports",
                    "flagged inconsistent",
                    "flagged as a decision flip",
                ],
                alarms,
                "The statistic is reported to 2 decimals; p as an author rounds it "
                '("< .001" below 0.001). The reference p-values come from scipy.',
            ),
        ],
        {"rates": rates, "false_alarms": alarms},
    )
