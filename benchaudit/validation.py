"""Statistical validation of benchaudit's intervals and tests.

Run ``python -m benchaudit.validation`` to recompute every figure and write
``docs/validation.md``; ``--quick`` runs fewer simulations and prints to
standard output (a smoke run, not the published table); ``--check`` exits 1
when the file on disk differs from a fresh run.

What is measured:

1. Coverage of the binomial intervals (Wald, Wilson, Agresti–Coull,
   Clopper–Pearson) by exact enumeration over k, at each grid point and
   averaged over a small neighbourhood of p (exact coverage oscillates with p).
2. Coverage of the other intervals the per-item analysis reports: the paired
   difference (exact enumeration over the trinomial of discordant counts), the
   percentile and cluster bootstraps and the t(k-1) interval over seeds (seeded
   simulation).
3. Type-I error of every test on simulated nulls.
4. pass@k unbiasedness by exact expectation over the binomial count.
5. Bradley–Terry recovery of known strengths and bootstrap interval coverage.
6. The power promised by the sample-size formulas, and the winner's-curse inflation.

Every random draw comes from ``numpy.random.default_rng((SEED, stream))`` so the
output is the same byte for byte on every run.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SEED = 20261129
DEFAULT_OUTPUT = Path("docs") / "validation.md"

#: The grid on which Wilson's averaged coverage must lie within 93–97%.
GRID_P = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95)
GRID_N = (30, 50, 100, 200, 500, 1000)
#: Half-width of the neighbourhood of p over which coverage is averaged, and the
#: number of equally spaced points the average is taken over.
AVERAGE_HALF_WIDTH = 0.02
AVERAGE_POINTS = 201
#: Tolerance of a type-I error rate around its level, in points.
TOLERANCE_POINTS = 1.5
ALPHA = 0.05
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Budget:
    """Simulation counts; ``quick`` divides the expensive ones."""

    null_draws: int = 10_000
    vector_draws: int = 20_000
    permutation_datasets: int = 2_000
    permutation_resamples: int = 999
    bootstrap_datasets: int = 800
    bootstrap_resamples: int = 999
    bt_datasets: int = 400
    bt_resamples: int = 500
    cp_checks: int = 40

    @classmethod
    def quick(cls) -> Budget:
        return cls(
            null_draws=2_000,
            vector_draws=4_000,
            permutation_datasets=400,
            permutation_resamples=499,
            bootstrap_datasets=150,
            bootstrap_resamples=499,
            bt_datasets=60,
            bt_resamples=200,
            cp_checks=12,
        )


@dataclass
class Table:
    """A markdown table with a caption and an optional note under it."""

    caption: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""

    def markdown(self) -> str:
        out = [f"**{self.caption}**", ""]
        out.append("| " + " | ".join(self.columns) + " |")
        out.append(
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(self.columns))) + "|"
        )
        out.extend("| " + " | ".join(r) + " |" for r in self.rows)
        if self.note:
            out += ["", self.note]
        return "\n".join(out)


@dataclass
class Section:
    """One part of the report: prose, tables and the raw numbers tests assert on."""

    title: str
    intro: str
    tables: list[Table]
    data: dict[str, Any] = field(default_factory=dict)

    def markdown(self) -> str:
        parts = [f"## {self.title}", "", self.intro.strip()]
        parts += ["\n" + t.markdown() for t in self.tables]
        return "\n".join(parts) + "\n"


def _rng(stream: int) -> np.random.Generator:
    return np.random.default_rng((SEED, stream))


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}"


def _signed(x: float, digits: int = 1) -> str:
    """A signed number; rounding noise prints as 0.0, never -0.0."""
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def _points(x: float) -> str:
    """A signed difference in points; rounding noise prints as 0.00, never -0.00."""
    text = f"{100 * x:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def _mc_se(rate: float, draws: int) -> float:
    return math.sqrt(max(rate * (1 - rate), 1e-12) / draws)


# --- 1. binomial intervals by exact enumeration ---------------------------------------------


def interval_bounds(method: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of ``method`` for every k = 0..n.

    Wald, Wilson and Agresti–Coull come straight from
    :mod:`benchaudit.stats.proportions`. Clopper–Pearson there is a bisection
    on a pure-Python binomial tail (about 0.2 s per bound at n = 1000), so the
    grid uses the beta-quantile form of the same interval and
    :func:`clopper_pearson_agreement` checks the module against it.
    """
    from benchaudit.stats import proportions

    if method == "clopper-pearson":
        from scipy.stats import beta

        k = np.arange(n + 1)
        a = 1 - CONFIDENCE
        with np.errstate(invalid="ignore"):
            lo = np.where(k == 0, 0.0, beta.ppf(a / 2, k, n - k + 1))
            hi = np.where(k == n, 1.0, beta.ppf(1 - a / 2, k + 1, n - k))
        return lo, hi
    f = proportions.METHODS[method]
    pairs = [f(k, n, CONFIDENCE) for k in range(n + 1)]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


def coverage_curve(lo: np.ndarray, hi: np.ndarray, n: int, ps: np.ndarray) -> np.ndarray:
    """Exact coverage P(lo(K) <= p <= hi(K)) for K ~ Binomial(n, p), at every p in ``ps``."""
    from scipy.stats import binom

    k = np.arange(n + 1)[:, None]
    pmf = binom.pmf(k, n, ps[None, :])
    inside = (lo[:, None] <= ps[None, :]) & (ps[None, :] <= hi[:, None])
    return (pmf * inside).sum(axis=0)


def exact_coverage(method: str, n: int, p: float) -> float:
    """Exact coverage of ``method`` at one (p, n)."""
    lo, hi = interval_bounds(method, n)
    return float(coverage_curve(lo, hi, n, np.array([p]))[0])


def neighbourhood(p: float) -> np.ndarray:
    return np.linspace(p - AVERAGE_HALF_WIDTH, p + AVERAGE_HALF_WIDTH, AVERAGE_POINTS)


def clopper_pearson_agreement(ns: Sequence[int], per_n: int) -> float:
    """Largest |module − beta quantile| over Clopper–Pearson bounds at ``per_n`` k's per n."""
    from benchaudit.stats.proportions import clopper_pearson

    worst = 0.0
    for n in ns:
        lo, hi = interval_bounds("clopper-pearson", n)
        ks = np.unique(np.linspace(0, n, min(per_n, n + 1)).round().astype(int))
        for k in ks:
            a, b = clopper_pearson(int(k), n, CONFIDENCE)
            worst = max(worst, abs(a - lo[k]), abs(b - hi[k]))
    return worst


BINOMIAL_METHODS = ("wald", "wilson", "agresti-coull", "clopper-pearson")
GOLDEN_COVERAGE = (
    ("wilson", 50, 0.02, 0.922),
    ("wald", 100, 0.95, 0.877),
    ("wilson", 100, 0.95, 0.966),
)


def binomial_coverage(budget: Budget) -> Section:
    exact: dict[tuple[str, int, float], float] = {}
    averaged: dict[tuple[str, int, float], float] = {}
    ps = np.array(GRID_P)
    windows = np.concatenate([neighbourhood(p) for p in GRID_P])
    for method in BINOMIAL_METHODS:
        for n in GRID_N:
            lo, hi = interval_bounds(method, n)
            ex = coverage_curve(lo, hi, n, ps)
            av = coverage_curve(lo, hi, n, windows).reshape(len(GRID_P), AVERAGE_POINTS)
            for j, p in enumerate(GRID_P):
                exact[method, n, p] = float(ex[j])
                averaged[method, n, p] = float(av[j].mean())
    golden = {(m, n, p): exact_coverage(m, n, p) for m, n, p, _ in GOLDEN_COVERAGE}
    per_n = budget.cp_checks
    cp_diff = clopper_pearson_agreement(GRID_N, per_n)

    summary = []
    for method in BINOMIAL_METHODS:
        e = [v for (m, _, _), v in exact.items() if m == method]
        a = [v for (m, _, _), v in averaged.items() if m == method]
        inside = sum(0.93 <= v <= 0.97 for v in a)
        summary.append(
            [method, _pct(min(e)), _pct(max(e)), _pct(min(a)), _pct(max(a)), f"{inside}/{len(a)}"]
        )
    w_av = [v for (m, _, _), v in averaged.items() if m == "wilson"]
    w_ex = [v for (m, _, _), v in exact.items() if m == "wilson"]
    wald = min((v, n, p) for (m, n, p), v in exact.items() if m == "wald")
    wilson_note = (
        f"Wilson's averaged coverage lies in {_pct(min(w_av))}–{_pct(max(w_av))}% over the "
        f"grid ({'inside' if 0.93 <= min(w_av) and max(w_av) <= 0.97 else 'NOT inside'} "
        f"93–97%); its raw exact coverage ranges over {_pct(min(w_ex))}–{_pct(max(w_ex))}%. "
        f"Wald's lowest exact coverage is {_pct(wald[0])}% (n = {wald[1]}, p = {wald[2]:g}); "
        "Clopper–Pearson never falls below 95% (it is exact, hence conservative)."
    )
    detail = []
    for method in BINOMIAL_METHODS:
        for n in GRID_N:
            cells = [
                f"{_pct(exact[method, n, p])} ({_pct(averaged[method, n, p])})" for p in GRID_P
            ]
            detail.append([method, str(n), *cells])
    gold = [
        [m, str(n), f"{p:g}", _pct(golden[m, n, p]), _pct(want)]
        for m, n, p, want in GOLDEN_COVERAGE
    ]
    intro = f"""
Coverage of the nominal 95% intervals of `benchaudit.stats.proportions`, computed
exactly: for each n and p, the sum over k = 0..n of the binomial probability of k
times whether the interval from k contains p. No simulation is involved, so these
numbers carry no Monte Carlo error.

Exact coverage of a binomial interval oscillates as p moves, because k is discrete
(Brown, Cai and DasGupta 2001): Wilson covers 92.2% at p = 0.02, n = 50 and 96.6% at
p = 0.95, n = 100. The "averaged" figure is the mean of the exact coverage over
{AVERAGE_POINTS} equally spaced values of p in [p − {AVERAGE_HALF_WIDTH},
p + {AVERAGE_HALF_WIDTH}], which smooths the oscillation and shows the level a user
gets on average near that p. Grid: p ∈ {{{", ".join(f"{p:g}" for p in GRID_P)}}},
n ∈ {{{", ".join(str(n) for n in GRID_N)}}}.

Clopper–Pearson bounds here come from the beta-quantile form; the module's bisection
agrees with it to {cp_diff:.1e} at {per_n} values of k for every n on the grid.
"""
    return Section(
        "1. Binomial intervals: exact coverage",
        intro,
        [
            Table(
                "Summary over the grid (%): raw exact minimum and maximum, averaged minimum "
                "and maximum, and how many averaged values lie in 93–97%",
                [
                    "method",
                    "exact min",
                    "exact max",
                    "averaged min",
                    "averaged max",
                    "averaged in 93–97%",
                ],
                summary,
                wilson_note,
            ),
            Table(
                "Exact coverage (averaged over p ± 0.02 in brackets), %",
                ["method", "n", *[f"p={p:g}" for p in GRID_P]],
                detail,
            ),
            Table(
                "Worked numbers from the design notes",
                ["method", "n", "p", "exact coverage (%)", "expected (%)"],
                gold,
            ),
        ],
        {"exact": exact, "averaged": averaged, "golden": golden, "cp_diff": cp_diff},
    )


# --- 2. the other intervals ------------------------------------------------------------------


PAIRED_NS = (50, 100, 200, 500, 1000)
PAIRED_CELLS = ((0.01, 0.01), (0.03, 0.01), (0.05, 0.05), (0.10, 0.05), (0.20, 0.15))


def paired_coverage(n: int, p10: float, p01: float) -> tuple[float, float]:
    """Exact coverage of :func:`paired_diff_ci` for true discordance rates (p10, p01).

    The counts (n10, n01, rest) are trinomial; the sum runs over every (n10, n01)
    with marginal tail probability above 1e-13 (the mass left out is below 1e-12).
    Returns the coverage and the largest gap between the vectorised bounds used for
    the sum and the module's function, checked on a subsample of cells.
    """
    from scipy.special import gammaln
    from scipy.stats import binom

    from benchaudit.stats.paired import paired_diff_ci
    from benchaudit.stats.proportions import z_for

    def span(p: float) -> np.ndarray:
        return np.arange(int(binom.ppf(1e-13, n, p)), int(binom.isf(1e-13, n, p)) + 1)

    a, b = np.meshgrid(span(p10), span(p01), indexing="ij")
    a, b = a.ravel(), b.ravel()
    keep = a + b <= n
    a, b = a[keep], b[keep]
    rest = n - a - b
    logp = (
        gammaln(n + 1)
        - gammaln(a + 1)
        - gammaln(b + 1)
        - gammaln(rest + 1)
        + a * math.log(p10)
        + b * math.log(p01)
        + rest * math.log1p(-p10 - p01)
    )
    pmf = np.exp(logp)
    diff = (a - b) / n
    var = np.maximum(((a + b) - n * diff * diff) / (n - 1), 0.0)
    half = z_for(CONFIDENCE) * np.sqrt(var / n)
    lo, hi = diff - half, diff + half
    delta = p10 - p01
    cover = float(pmf[(lo <= delta + 1e-12) & (delta - 1e-12 <= hi)].sum())
    gap = 0.0
    for idx in range(0, a.size, max(1, a.size // 50)):
        _, l_, h_ = paired_diff_ci(int(rest[idx]), int(a[idx]), int(b[idx]), 0, CONFIDENCE)
        gap = max(gap, abs(l_ - lo[idx]), abs(h_ - hi[idx]))
    return cover, gap


GRADED_VALUES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
GRADED_PROBS = np.array([0.10, 0.10, 0.20, 0.30, 0.30])
BOOTSTRAP_NS = (30, 100, 300)
CLUSTER_GS = (10, 30, 100)
CLUSTER_SIZE = 5
#: Beta(2.4, 1.6) cluster accuracies: mean 0.6, intra-cluster correlation 1 / (2.4 + 1.6 + 1).
CLUSTER_BETA = (2.4, 1.6)
SEED_KS = (3, 5, 10)
#: Expected discordant items from which the paired normal interval is held to 93–97%.
PAIRED_MIN_DISCORDANT = 20


def bootstrap_coverage(n: int, datasets: int, resamples: int, stream: int) -> float:
    """Coverage of :func:`bootstrap_mean_ci` on graded items (five score levels)."""
    from benchaudit.stats.clustered import bootstrap_mean_ci

    rng = _rng(stream)
    truth = float(GRADED_VALUES @ GRADED_PROBS)
    data = rng.choice(GRADED_VALUES, size=(datasets, n), p=GRADED_PROBS)
    hits = 0
    for s in range(datasets):
        lo, hi = bootstrap_mean_ci(data[s], resamples, CONFIDENCE, seed=stream * 100_000 + s)
        hits += lo <= truth <= hi
    return hits / datasets


def cluster_bootstrap_coverage(g: int, datasets: int, resamples: int, stream: int) -> float:
    """Coverage of :func:`cluster_bootstrap_ci` for G clusters of correlated 0/1 items."""
    from benchaudit.stats.clustered import cluster_bootstrap_ci

    rng = _rng(stream)
    a, b = CLUSTER_BETA
    truth = a / (a + b)
    acc = rng.beta(a, b, size=(datasets, g, 1))
    x = (rng.random((datasets, g, CLUSTER_SIZE)) < acc).astype(np.float64)
    clusters = np.repeat(np.arange(g), CLUSTER_SIZE)
    hits = 0
    for s in range(datasets):
        lo, hi = cluster_bootstrap_ci(
            x[s].ravel(), clusters, resamples, CONFIDENCE, seed=stream * 100_000 + s
        )
        hits += lo <= truth <= hi
    return hits / datasets


def seed_interval_rates(k: int, draws: int, stream: int) -> tuple[float, float, float]:
    """Coverage of the t(k-1) interval over k seeds and of the z = 1.96 interval, and the
    largest gap between :func:`t_interval` and its vectorised form on 200 datasets."""
    from benchaudit.stats.proportions import z_for
    from benchaudit.stats.student import t_interval, t_quantile

    rng = _rng(stream)
    mu, sd = 0.70, 0.01
    x = rng.normal(mu, sd, size=(draws, k))
    mean = x.mean(axis=1)
    se = x.std(axis=1, ddof=1) / math.sqrt(k)
    t = t_quantile(CONFIDENCE, k - 1)
    t_cover = float(np.mean(np.abs(mean - mu) <= t * se))
    z_cover = float(np.mean(np.abs(mean - mu) <= z_for(CONFIDENCE) * se))
    gap = 0.0
    for s in range(200):
        _, lo, hi, _ = t_interval(x[s], CONFIDENCE)
        gap = max(gap, abs(lo - (mean[s] - t * se[s])), abs(hi - (mean[s] + t * se[s])))
    return t_cover, z_cover, gap


def other_intervals(budget: Budget) -> Section:
    paired: dict[tuple[int, float, float], float] = {}
    gaps = [0.0]
    for n in PAIRED_NS:
        for p10, p01 in PAIRED_CELLS:
            cov, gap = paired_coverage(n, p10, p01)
            paired[n, p10, p01] = cov
            gaps.append(gap)
    boot = {
        n: bootstrap_coverage(n, budget.bootstrap_datasets, budget.bootstrap_resamples, 100 + n)
        for n in BOOTSTRAP_NS
    }
    clus = {
        g: cluster_bootstrap_coverage(
            g, budget.bootstrap_datasets, budget.bootstrap_resamples, 200 + g
        )
        for g in CLUSTER_GS
    }
    seeds = {k: seed_interval_rates(k, budget.vector_draws, 300 + k) for k in SEED_KS}

    p_rows = []
    for n in PAIRED_NS:
        p_rows.append([str(n), *[_pct(paired[n, a, b]) for a, b in PAIRED_CELLS]])
    se_b = _mc_se(0.95, budget.bootstrap_datasets)
    sim_rows = [
        ["percentile bootstrap (graded items)", f"n = {n}", _pct(boot[n]), _pct(se_b, 2)]
        for n in BOOTSTRAP_NS
    ]
    sim_rows += [
        [
            "cluster bootstrap (0/1 items, ICC 0.2)",
            f"{g} clusters × {CLUSTER_SIZE}",
            _pct(clus[g]),
            _pct(se_b, 2),
        ]
        for g in CLUSTER_GS
    ]
    se_t = _mc_se(0.95, budget.vector_draws)
    sim_rows += [
        ["t(k−1) over seeds", f"k = {k}", _pct(seeds[k][0]), _pct(se_t, 2)] for k in SEED_KS
    ]
    sim_rows += [
        [
            "z = 1.96 over seeds (what seed-interval flags)",
            f"k = {k}",
            _pct(seeds[k][1]),
            _pct(se_t, 2),
        ]
        for k in SEED_KS
    ]
    seed_gap = max(v[2] for v in seeds.values())
    many = [v for (n, a, b), v in paired.items() if n * (a + b) >= PAIRED_MIN_DISCORDANT]
    (wn, wa, wb), worst = min(paired.items(), key=lambda kv: kv[1])
    paired_note = (
        f"With at least {PAIRED_MIN_DISCORDANT} expected discordant items the coverage lies "
        f"in {_pct(min(many))}–{_pct(max(many))}%. With few it is erratic: the lowest, "
        f"{_pct(worst)}%, is at n = {wn}, ({wa:g}, {wb:g}), {wn * (wa + wb):g} expected "
        "discordant items (a sample with no discordant item gives a zero-width interval). "
        "There the comparison row's McNemar p-value and `p_floor` are the figures to read."
    )
    intro = f"""
The paired-difference interval (`paired_diff_ci`, the interval of every comparison
in `results.comparisons`) is a normal interval on the per-item differences. Its
coverage is computed exactly by summing over the trinomial distribution of the
discordant counts (items only A got right, items only B got right); the vectorised
bounds used for the sum match the module's function to {max(gaps):.1e}.

The bootstrap intervals (`bootstrap_mean_ci` for graded items,
`cluster_bootstrap_ci` for clustered items, both with {budget.bootstrap_resamples}
resamples here) and the t(k−1) interval over seeds (`t_interval`) are checked by
seeded simulation: {budget.bootstrap_datasets:,} data sets per bootstrap row,
{budget.vector_draws:,} per seed row (standard errors in the table). Graded items
take the scores 0, 0.25, 0.5, 0.75, 1 with probabilities 0.1, 0.1, 0.2, 0.3, 0.3;
clustered items are {CLUSTER_SIZE} 0/1 items per cluster sharing a Beta(2.4, 1.6)
accuracy. `t_interval` matches its vectorised form to {seed_gap:.1e}.
"""
    return Section(
        "2. Other intervals: paired difference, bootstrap, seeds",
        intro,
        [
            Table(
                "Exact coverage of the paired-difference interval (%), by n and true "
                "(P(A only), P(B only))",
                ["n", *[f"({a:g}, {b:g})" for a, b in PAIRED_CELLS]],
                p_rows,
                paired_note,
            ),
            Table(
                "Simulated coverage of the nominal 95% intervals",
                ["interval", "design", "coverage (%)", "MC s.e. (points)"],
                sim_rows,
                "Percentile bootstraps run slightly below nominal with few units "
                "(a known property: they ignore the n/(n−1) variance factor and "
                "small-sample skew), most visibly with 10 clusters.",
            ),
        ],
        {
            "paired": paired,
            "paired_gap": max(gaps),
            "bootstrap": boot,
            "cluster": clus,
            "seeds": seeds,
        },
    )


# --- 3. type-I error ---------------------------------------------------------------------


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
        return _mc_se(ALPHA, self.draws)

    @property
    def ok(self) -> bool:
        tol = TOLERANCE_POINTS / 100
        if self.exact:
            return self.rate <= ALPHA + tol
        return abs(self.rate - ALPHA) <= tol

    def row(self) -> list[str]:
        attained = "—" if self.attained is None else _pct(self.attained, 2)
        verdict = "ok" if self.ok else "OUT OF TOLERANCE"
        kind = "≤ level + 1.5" if self.exact else "level ± 1.5"
        return [
            self.test,
            self.design,
            f"{self.draws:,}",
            _pct(self.rate, 2),
            _pct(self.se, 2),
            attained,
            kind,
            verdict,
        ]


def mcnemar_null(n: int, psi: float, draws: int, stream: int) -> NullRate:
    """McNemar's exact test on paired 0/1 items with P(A only) = P(B only) = psi / 2."""
    from scipy.stats import binom

    from benchaudit.stats.paired import mcnemar_exact, mcnemar_exact_many

    rng = _rng(stream)
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

    rng = _rng(stream)
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

    rng = _rng(stream)
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

    rng = _rng(stream)
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

    rng = _rng(stream)
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

    rng = _rng(stream)
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
    rng = _rng(stream)
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
            )
        ],
        {"rates": rates},
    )


# --- 4. pass@k -------------------------------------------------------------------------------


PASSK_P = (0.05, 0.15, 0.3, 0.5, 0.8)
PASSK_N = (10, 20, 50, 200)
PASSK_K = (1, 2, 5, 10, 20, 50, 100)
GOLDEN_PASSK = ((0.15, 20, 5, 0.556, 0.518), (0.05, 20, 10, 0.401, 0.336))


def passk_expectations(p: float, n: int, k: int) -> tuple[float, float, float, float, float]:
    """(true pass@k, E[unbiased], E[plug-in], E[pass^k estimator], p^k) by exact
    summation over c ~ Binomial(n, p)."""
    from scipy.stats import binom

    from benchaudit.stats.passk import pass_at_k_array, pass_hat_k_array, plugin_array

    c = np.arange(n + 1)
    w = binom.pmf(c, n, p)
    nn = np.full(n + 1, n)
    return (
        1 - (1 - p) ** k,
        float(w @ pass_at_k_array(nn, c, k)),
        float(w @ plugin_array(nn, c, k)),
        float(w @ pass_hat_k_array(nn, c, k)),
        p**k,
    )


def passk_section(budget: Budget) -> Section:
    from benchaudit.stats.passk import plugin_expectation

    worst_unbiased = worst_hat = worst_module = 0.0
    cells: dict[tuple[float, int, int], tuple[float, ...]] = {}
    for n in PASSK_N:
        for k in (k for k in PASSK_K if k <= n):
            for p in PASSK_P:
                true, e_u, e_pl, e_hat, pk = passk_expectations(p, n, k)
                cells[p, n, k] = (true, e_u, e_pl)
                worst_unbiased = max(worst_unbiased, abs(e_u - true))
                worst_hat = max(worst_hat, abs(e_hat - pk))
                _, m_pl, m_u = plugin_expectation(p, n, k)
                worst_module = max(worst_module, abs(m_u - e_u), abs(m_pl - e_pl))
    rows = [
        [str(n), str(k), *[_points(cells[p, n, k][2] - cells[p, n, k][0]) for p in PASSK_P]]
        for n in PASSK_N
        for k in PASSK_K
        if k <= n
    ]
    gold = []
    for p, n, k, want_true, want_plugin in GOLDEN_PASSK:
        true, e_u, e_pl, _, _ = passk_expectations(p, n, k)
        gold.append(
            [
                f"{p:g}",
                str(n),
                str(k),
                f"{true:.3f}",
                f"{e_u:.3f}",
                f"{e_pl:.3f}",
                f"{want_true:.3f} / {want_plugin:.3f}",
            ]
        )
    intro = f"""
For c ~ Binomial(n, p) passing samples out of n, the expectation of each estimator is
a finite sum over c, so unbiasedness is checked exactly, without simulation, at every
combination of p ∈ {{{", ".join(f"{p:g}" for p in PASSK_P)}}},
n ∈ {{{", ".join(map(str, PASSK_N))}}} and k ∈ {{{", ".join(map(str, PASSK_K))}}} (k ≤ n).

- Largest |E[1 − C(n−c, k)/C(n, k)] − (1 − (1 − p)^k)|: {worst_unbiased:.1e}
  (`pass_at_k_array`; zero up to rounding).
- Largest |E[C(c, k)/C(n, k)] − p^k| (pass^k): {worst_hat:.1e}.
- `plugin_expectation` agrees with the vectorised sums to {worst_module:.1e}.

The plug-in 1 − (1 − c/n)^k is biased downwards for every k > 1 (Jensen's
inequality); its bias is tabulated below in points.
"""
    return Section(
        "4. pass@k: exact expectation",
        intro,
        [
            Table(
                "Bias of the plug-in, E[plug-in] − pass@k, in points",
                ["n", "k", *[f"p={p:g}" for p in PASSK_P]],
                rows,
            ),
            Table(
                "Worked numbers from the design notes",
                ["p", "n", "k", "pass@k", "E[unbiased]", "E[plug-in]", "expected"],
                gold,
            ),
        ],
        {
            "worst_unbiased": worst_unbiased,
            "worst_hat": worst_hat,
            "worst_module": worst_module,
            "cells": cells,
        },
    )


# --- 5. Bradley–Terry --------------------------------------------------------------------


BT_ELO = (1150.0, 1100.0, 1050.0, 1000.0, 1000.0, 950.0, 900.0, 850.0)
BT_BATTLES = 3000


def bt_recovery(datasets: int, resamples: int, stream: int) -> dict[str, Any]:
    """Simulate battles between random pairs from known ratings; fit and bootstrap each."""
    from benchaudit.stats import bradley_terry as bt

    rng = _rng(stream)
    elo = np.array(BT_ELO)
    m = elo.size
    truth = elo - elo.mean() + 1000.0
    beta = (elo - elo.mean()) / bt.ELO_PER_UNIT
    names = [f"m{i}" for i in range(m)]
    est = np.empty((datasets, m))
    hit = np.zeros((datasets, m), dtype=bool)
    width = np.empty((datasets, m))
    for s in range(datasets):
        a = rng.integers(0, m, BT_BATTLES)
        b = (a + rng.integers(1, m, BT_BATTLES)) % m
        p_a = 1.0 / (1.0 + np.exp(beta[b] - beta[a]))
        outcome = np.where(rng.random(BT_BATTLES) < p_a, 0, 1)
        pc = bt.PairCounts.from_codes(a, b, outcome, names)
        r = bt.bootstrap(pc, resamples, seed=stream * 100_000 + s, confidence=CONFIDENCE)
        est[s] = r.rating
        hit[s] = (r.ci_low <= truth) & (truth <= r.ci_high)
        width[s] = r.ci_high - r.ci_low
    err = est - truth
    order_ok = np.mean([np.argmax(e) == 0 for e in est])
    return {
        "truth": truth,
        "bias": err.mean(axis=0),
        "rmse": np.sqrt((err**2).mean(axis=0)),
        "coverage": hit.mean(axis=0),
        "overall": float(hit.mean()),
        "width": width.mean(axis=0),
        "sd": est.std(axis=0, ddof=1),
        "top1": float(order_ok),
        "datasets": datasets,
    }


def bt_section(budget: Budget) -> Section:
    from benchaudit.stats import bradley_terry as bt

    rec = bt_recovery(budget.bt_datasets, budget.bt_resamples, 501)
    pc = bt.PairCounts.from_strengths_expected([4.0, 2.0, 1.0], 300)
    s = np.exp(bt.fit(pc))
    share = s / s.sum()
    gaps = [(g, bt.expected_win_rate(g)) for g in (30, 100, 200)]
    rows = []
    for i in range(len(BT_ELO)):
        rows.append(
            [
                f"m{i}",
                f"{rec['truth'][i]:.0f}",
                f"{rec['bias'][i]:+.1f}",
                f"{rec['rmse'][i]:.1f}",
                f"{rec['sd'][i]:.1f}",
                f"{rec['width'][i]:.1f}",
                _pct(rec["coverage"][i]),
            ]
        )
    intro = f"""
{rec["datasets"]} data sets of {BT_BATTLES:,} battles, each between a uniformly random pair
of {len(BT_ELO)} models with true Elo ratings {", ".join(f"{e:g}" for e in BT_ELO)} (no ties),
the winner drawn from the Bradley–Terry probability. Each data set is fitted with
`bradley_terry.bootstrap` ({budget.bt_resamples} resamples, percentile 95% intervals);
ratings are centred on 1000 like the true ones.

- Overall coverage of the 95% intervals: {_pct(rec["overall"])}% (Monte Carlo s.e. of a
  single model's coverage {_pct(_mc_se(0.95, rec["datasets"]))} points).
- The strongest model is ranked first in {_pct(rec["top1"])}% of data sets.
- Strengths 4:2:1 (expected counts) fit to shares
  {", ".join(f"{v:.3f}" for v in share)} (expected 0.571, 0.286, 0.143).
- Elo gaps {", ".join(f"{g:g}" for g, _ in gaps)} give expected win rates
  {", ".join(_pct(w) + "%" for _, w in gaps)} (expected 54.3%, 64.0%, 76.0%).
"""
    return Section(
        "5. Bradley–Terry: recovery of known strengths",
        intro,
        [
            Table(
                "Recovered ratings (Elo points) and interval coverage",
                [
                    "model",
                    "true rating",
                    "mean error",
                    "RMSE",
                    "SD of estimate",
                    "mean CI width",
                    "coverage (%)",
                ],
                rows,
                "The bootstrap's interval width should be about 2 × 1.96 × the SD of the "
                "estimate across data sets; mean error is the bias of the maximum-likelihood "
                "fit.",
            )
        ],
        {"recovery": rec, "shares": share, "win_rates": gaps},
    )


# --- 6. design numbers: power and the winner's curse ------------------------------------


POWER_UNPAIRED = ((0.5, 0.6), (0.70, 0.72))
POWER_PAIRED = ((0.02, 0.16), (0.02, 0.08))
CURSE_KS = (2, 5, 10, 20, 50, 100)


def unpaired_power(p1: float, p2: float, n: int) -> tuple[float, float]:
    """Exact power of the pooled two-proportion z-test with n items per model, by summing
    over both binomial counts (tails below 1e-12 left out); and the largest gap between
    the vectorised p-values and :func:`unpaired_diff` on a subsample of cells."""
    from scipy.special import ndtr
    from scipy.stats import binom

    from benchaudit.stats.paired import unpaired_diff

    def span(p: float) -> np.ndarray:
        return np.arange(int(binom.ppf(1e-12, n, p)), int(binom.isf(1e-12, n, p)) + 1)

    a, b = np.meshgrid(span(p1), span(p2), indexing="ij")
    pooled = (a + b) / (2 * n)
    se0 = np.sqrt(pooled * (1 - pooled) * 2 / n)
    z = np.where(se0 > 0, (a - b) / n / np.where(se0 > 0, se0, 1.0), 0.0)
    p = np.minimum(1.0, 2 * ndtr(-np.abs(z)))
    weight = binom.pmf(a, n, p1) * binom.pmf(b, n, p2)
    gap = 0.0
    flat_a, flat_b, flat_p = a.ravel(), b.ravel(), p.ravel()
    for idx in range(0, flat_a.size, max(1, flat_a.size // 40)):
        want = unpaired_diff(flat_a[idx] / n, n, flat_b[idx] / n, n)[4]
        gap = max(gap, abs(want - flat_p[idx]))
    return float((weight * (p <= ALPHA)).sum()), gap


def mcnemar_power(n: int, diff: float, psi: float, draws: int, stream: int) -> float:
    """Simulated power of McNemar's exact test for a gap ``diff`` at discordance ``psi``."""
    from benchaudit.stats.paired import mcnemar_exact_many

    counts = _rng(stream).multinomial(n, [(psi + diff) / 2, (psi - diff) / 2, 1 - psi], size=draws)
    return float(np.mean(mcnemar_exact_many(counts[:, 0], counts[:, 1]) <= ALPHA))


def winners_curse_sim(p: float, n: int, draws: int, stream: int) -> dict[int, tuple[float, float]]:
    """Simulated mean inflation (and its s.e.) of the best of k equal candidates."""
    x = _rng(stream).binomial(n, p, size=(draws, max(CURSE_KS)))
    best = np.maximum.accumulate(x, axis=1)
    out = {}
    for k in CURSE_KS:
        infl = best[:, k - 1] / n - p
        out[k] = (float(infl.mean()), float(infl.std(ddof=1) / math.sqrt(draws)))
    return out


def design_section(budget: Budget) -> Section:
    from benchaudit.stats import power, selection

    rows = []
    unpaired: dict[tuple[float, float], float] = {}
    gaps = [0.0]
    for p1, p2 in POWER_UNPAIRED:
        n = power.required_n(p1, p2)
        pw, gap = unpaired_power(p1, p2, n)
        unpaired[p1, p2] = pw
        gaps.append(gap)
        rows.append(
            [
                "required_n (unpaired z-test)",
                f"{p1:g} vs {p2:g}",
                f"{n:,} per model",
                _pct(pw),
                "exact",
            ]
        )
    paired: dict[tuple[float, float], float] = {}
    for i, (d, psi) in enumerate(POWER_PAIRED):
        n = power.required_n_paired(d, psi)
        paired[d, psi] = mcnemar_power(n, d, psi, budget.vector_draws, 601 + i)
        rows.append(
            [
                "required_n_paired (McNemar exact)",
                f"gap {d:g}, discordance {psi:g}",
                f"{n:,}",
                _pct(paired[d, psi]),
                f"± {_pct(_mc_se(0.8, budget.vector_draws), 2)}",
            ]
        )
    mde = power.mde_paired(0.10, 500)
    mde_power = mcnemar_power(500, mde, 0.10, budget.vector_draws, 611)
    rows.append(
        [
            "mde_paired (McNemar exact)",
            f"discordance 0.1, gap {mde:.4f}",
            "500",
            _pct(mde_power),
            f"± {_pct(_mc_se(0.8, budget.vector_draws), 2)}",
        ]
    )
    curse = winners_curse_sim(0.70, 500, budget.vector_draws, 621)
    c_rows = []
    for k in CURSE_KS:
        exact = selection.winners_curse_inflation(k, 0.70, 500)
        sim, se = curse[k]
        c_rows.append(
            [
                str(k),
                f"{100 * exact:.2f}",
                f"{100 * sim:.2f}",
                f"{100 * se:.2f}",
                _signed((sim - exact) / se),
            ]
        )
    intro = f"""
The sample-size and minimum-detectable-effect formulas of `benchaudit.stats.power`
promise 80% power at α = 0.05. The unpaired figure is checked by exact enumeration
over both binomial counts (the vectorised p-values match `unpaired_diff` to
{max(gaps):.1e}); the paired figures by simulating {budget.vector_draws:,} trinomial
data sets and running McNemar's exact test, which the rules recommend. The normal
approximation behind the paired formulas is slightly optimistic for the exact test
(a conservative test has a little less power), which the table shows.

The winner's-curse inflation of `benchaudit.stats.selection` (exact binomial order
statistics; p = 0.70, n = 500) is compared with the mean of {budget.vector_draws:,}
simulated "best of k" scores.
"""
    return Section(
        "6. Design numbers: power and the winner's curse",
        intro,
        [
            Table(
                "Power at the computed sample size or gap (%)",
                ["formula", "setting", "n", "power", "method / MC s.e."],
                rows,
            ),
            Table(
                "Winner's curse: expected inflation of the best of k, in points",
                ["k", "exact", "simulated", "MC s.e.", "z"],
                c_rows,
            ),
        ],
        {
            "unpaired": unpaired,
            "unpaired_gap": max(gaps),
            "paired": paired,
            "mde_power": mde_power,
            "curse": curse,
        },
    )


# --- the report ----------------------------------------------------------------------------


SECTIONS: tuple[Callable[[Budget], Section], ...] = (
    binomial_coverage,
    other_intervals,
    type_one_errors,
    passk_section,
    bt_section,
    design_section,
)


def run(quick: bool = False) -> list[Section]:
    """Compute every section (deterministic for a given ``quick``)."""
    budget = Budget.quick() if quick else Budget()
    return [make(budget) for make in SECTIONS]


def render(sections: Sequence[Section], quick: bool = False) -> str:
    head = [
        "# Statistical validation",
        "",
        "<!-- Generated by `python -m benchaudit.validation`; do not edit by hand. -->",
        "",
        "How well benchaudit's intervals cover and how often its tests reject when "
        "nothing is there. Every figure below is recomputed by "
        "`python -m benchaudit.validation` (seeded, so the file is reproduced byte for "
        "byte) and asserted by `tests/test_validation.py`. Nominal level: 95% intervals, "
        "tests at α = 0.05.",
    ]
    if quick:
        head += ["", "**Quick run: reduced simulation counts; not the published table.**"]
    return "\n".join(head) + "\n\n" + "\n".join(s.markdown() for s in sections)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchaudit.validation",
        description="Recompute the statistical validation tables (docs/validation.md).",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="fewer simulations; prints to standard output unless --output",
    )
    parser.add_argument(
        "--output",
        default=None,
        help=f"file to write ('-' for standard output; default {DEFAULT_OUTPUT})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare with the output file instead of writing it; exit 1 if it differs",
    )
    args = parser.parse_args(argv)
    text = render(run(args.quick), args.quick)
    output = args.output or ("-" if args.quick else str(DEFAULT_OUTPUT))
    if args.check:
        current = Path(output).read_text(encoding="utf-8") if Path(output).is_file() else ""
        if current != text:
            print(f"{output} is out of date: run python -m benchaudit.validation", file=sys.stderr)
            return 1
        return 0
    if output == "-":
        sys.stdout.write(text)
    else:
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        Path(output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
