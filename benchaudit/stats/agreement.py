"""Agreement between a judge and humans, and a judge's position bias.

Cohen's kappa over a square contingency table, with the large-sample standard
error of Fleiss, Cohen and Everitt (1969) (the one statsmodels reports as
``std_kappa``) and a seeded bootstrap; position-bias rate and the
consistency-required win rate for pairs judged in both orders. Standard
library only, except the bootstrap (numpy, imported inside).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from benchaudit.stats.special import z_for


@dataclass
class Kappa:
    """Cohen's kappa with its interval, beside raw and chance agreement."""

    kappa: float
    agreement: float
    chance: float
    se: float
    ci_low: float
    ci_high: float
    n: int
    labels: list[str]


def contingency(a: Sequence[str], b: Sequence[str]) -> tuple[list[list[int]], list[str]]:
    """Square table ``t[i][j]`` = items rater a labelled i and rater b labelled j."""
    if len(a) != len(b):
        raise ValueError("the two label lists differ in length")
    labels = sorted({*map(str, a), *map(str, b)})
    index = {lab: k for k, lab in enumerate(labels)}
    t = [[0] * len(labels) for _ in labels]
    for x, y in zip(a, b):
        t[index[str(x)]][index[str(y)]] += 1
    return t, labels


def kappa_from_table(
    table: Sequence[Sequence[float]], confidence: float = 0.95, labels: list[str] | None = None
) -> Kappa:
    """Cohen's kappa = (p_o - p_e) / (1 - p_e), with an asymptotic normal interval."""
    k = len(table)
    n = float(sum(sum(r) for r in table))
    if n <= 0:
        raise ValueError("empty table")
    p = [[table[i][j] / n for j in range(k)] for i in range(k)]
    row = [sum(p[i]) for i in range(k)]
    col = [sum(p[i][j] for i in range(k)) for j in range(k)]
    po = sum(p[i][i] for i in range(k))
    pe = sum(row[i] * col[i] for i in range(k))
    if pe >= 1.0:
        # Both raters used one label throughout: agreement is total and kappa undefined.
        kap, se = float("nan"), float("nan")
    else:
        kap = (po - pe) / (1 - pe)
        # Fleiss, Cohen & Everitt (1969), variance of kappa when kappa != 0.
        diag = sum(p[i][i] * (1 - (row[i] + col[i]) * (1 - kap)) ** 2 for i in range(k))
        off = (1 - kap) ** 2 * sum(
            p[i][j] * (col[i] + row[j]) ** 2 for i in range(k) for j in range(k) if i != j
        )
        var = (diag + off - (kap - pe * (1 - kap)) ** 2) / (n * (1 - pe) ** 2)
        se = math.sqrt(max(var, 0.0))
    z = z_for(confidence)
    return Kappa(
        kappa=kap,
        agreement=po,
        chance=pe,
        se=se,
        ci_low=max(-1.0, kap - z * se),
        ci_high=min(1.0, kap + z * se),
        n=int(n),
        labels=list(labels or [str(i) for i in range(k)]),
    )


def cohen_kappa(a: Sequence[str], b: Sequence[str], confidence: float = 0.95) -> Kappa:
    """Kappa between two raters' labels of the same items."""
    t, labels = contingency(a, b)
    return kappa_from_table(t, confidence, labels)


def kappa_bootstrap(
    a: Sequence[str],
    b: Sequence[str],
    resamples: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval for kappa (items resampled), vectorised."""
    import numpy as np

    t, labels = contingency(a, b)
    k = len(labels)
    index = {lab: i for i, lab in enumerate(labels)}
    cell = np.array([index[str(x)] * k + index[str(y)] for x, y in zip(a, b)])
    n = len(cell)
    rng = np.random.default_rng(seed)
    counts = (
        np.stack(
            [np.bincount(cell[rng.integers(0, n, n)], minlength=k * k) for _ in range(resamples)]
        ).reshape(resamples, k, k)
        / n
    )
    po = np.trace(counts, axis1=1, axis2=2)
    pe = (counts.sum(axis=2) * counts.sum(axis=1)).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        kap = (po - pe) / (1 - pe)
    kap = kap[np.isfinite(kap)]
    alpha = 1 - confidence
    lo, hi = np.quantile(kap, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


@dataclass
class PositionBias:
    """Both-order judgments of the same pairs."""

    pairs: int
    same_slot: int
    consistent_first: int
    consistent_second: int
    inconsistent: int
    both_tie: int
    first_order_win_rate: float

    @property
    def rate(self) -> float:
        """Share of pairs where the judge picked the same slot in both orders."""
        return self.same_slot / self.pairs if self.pairs else float("nan")

    @property
    def consistent_win_rate(self) -> float:
        """Wins of the first-shown answer that survive the swap, over all pairs."""
        return self.consistent_first / self.pairs if self.pairs else float("nan")

    @property
    def consistent_win_rate_ties_half(self) -> float:
        """Inconsistent verdicts counted as ties (half a win)."""
        if not self.pairs:
            return float("nan")
        return (self.consistent_first + 0.5 * (self.inconsistent + self.both_tie)) / self.pairs


def _slot(v: str) -> str:
    t = str(v).strip().lower()
    if t in ("a", "model_a", "1", "first", "a>b", "left"):
        return "A"
    if t in ("b", "model_b", "2", "second", "b>a", "right"):
        return "B"
    return "tie"


def position_bias(original: Sequence[str], swapped: Sequence[str]) -> PositionBias:
    """Verdicts in slot terms (A = the answer shown first) for each pair, in both orders.

    In the original order answer X is in slot A; in the swapped order X is in
    slot B. A judge that grades answers flips its label (A then B); one that
    grades positions keeps it (A then A).
    """
    if len(original) != len(swapped):
        raise ValueError("the two verdict lists differ in length")
    same = first = second = incons = ties = wins_naive = 0
    for o, s in zip(original, swapped):
        o, s = _slot(o), _slot(s)
        wins_naive += o == "A"
        if o != "tie" and o == s:
            same += 1
        if o == "A" and s == "B":
            first += 1
        elif o == "B" and s == "A":
            second += 1
        elif o == "tie" and s == "tie":
            ties += 1
        else:
            incons += 1
    n = len(original)
    return PositionBias(
        pairs=n,
        same_slot=same,
        consistent_first=first,
        consistent_second=second,
        inconsistent=incons,
        both_tie=ties,
        first_order_win_rate=wins_naive / n if n else float("nan"),
    )
