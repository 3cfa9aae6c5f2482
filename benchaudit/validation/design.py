"""Section 6: the power the sample-size formulas promise, and the winner's curse."""

from __future__ import annotations

import math

import numpy as np

from benchaudit.validation.common import (
    ALPHA,
    Budget,
    Section,
    Table,
    mc_se,
    pct,
    signed,
    stream_rng,
)

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

    counts = stream_rng(stream).multinomial(
        n, [(psi + diff) / 2, (psi - diff) / 2, 1 - psi], size=draws
    )
    return float(np.mean(mcnemar_exact_many(counts[:, 0], counts[:, 1]) <= ALPHA))


def winners_curse_sim(p: float, n: int, draws: int, stream: int) -> dict[int, tuple[float, float]]:
    """Simulated mean inflation (and its s.e.) of the best of k equal candidates."""
    x = stream_rng(stream).binomial(n, p, size=(draws, max(CURSE_KS)))
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
                pct(pw),
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
                pct(paired[d, psi]),
                f"± {pct(mc_se(0.8, budget.vector_draws), 2)}",
            ]
        )
    mde = power.mde_paired(0.10, 500)
    mde_power = mcnemar_power(500, mde, 0.10, budget.vector_draws, 611)
    rows.append(
        [
            "mde_paired (McNemar exact)",
            f"discordance 0.1, gap {mde:.4f}",
            "500",
            pct(mde_power),
            f"± {pct(mc_se(0.8, budget.vector_draws), 2)}",
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
                signed((sim - exact) / se),
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
