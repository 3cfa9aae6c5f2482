"""Which scores a test of n items (with s samples averaged per item) can produce.

A score averaged over ``n`` items and ``s`` samples per item is ``k / (n·s)``
for a whole number ``k``. A value reported with ``d`` decimals stands for
every number that rounds to it; both rounding directions are accepted at a
tie, so the value ``v`` stands for the closed range ``[v - u/2, v + u/2]``
with ``u = 10^-d``. The value is *reachable* when some ``k`` lands in that
range. Everything is exact (``fractions.Fraction``), so a tie is a tie.

Values are given as the strings the author wrote (``"87.3"``) together with a
``scale``: 100 for percentages and points, 1 for proportions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

#: Largest number of samples per item :func:`min_samples` tries.
MAX_SAMPLES = 10_000


def decimals(value: str) -> int:
    """Digits after the decimal point as written: ``"70.0"`` → 1, ``"87"`` → 0."""
    text = value.strip().replace(",", "")
    return len(text.split(".", 1)[1]) if "." in text else 0


def exact(value: str) -> Fraction:
    """The written number as an exact fraction (thousands separators allowed)."""
    return Fraction(Decimal(value.strip().replace(",", "").replace("−", "-")))


def proportion_decimals(value: str, scale: int = 100) -> int:
    """Decimals of the value once written as a proportion: ``"87.3"`` % → 3."""
    return decimals(value) + round(math.log10(scale))


def rounding_range(value: str, scale: int = 100) -> tuple[Fraction, Fraction]:
    """The closed range of proportions that round to ``value`` (ties either way)."""
    unit = Fraction(1, 10 ** decimals(value))
    v = exact(value)
    return (v - unit / 2) / scale, (v + unit / 2) / scale


def counts(value: str, n: int, samples: int = 1, scale: int = 100) -> range:
    """Every ``k`` with ``k / (n·samples)`` rounding to ``value`` (empty if none)."""
    if n <= 0 or samples <= 0:
        raise ValueError("n and samples must be positive")
    total = n * samples
    lo, hi = rounding_range(value, scale)
    k_lo = max(0, math.ceil(lo * total))
    k_hi = min(total, math.floor(hi * total))
    return range(k_lo, k_hi + 1) if k_lo <= k_hi else range(0)


def is_reachable(value: str, n: int, samples: int = 1, scale: int = 100) -> bool:
    """Whether some whole number of successes gives ``value`` at its precision."""
    return len(counts(value, n, samples, scale)) > 0


def format_at(k: int, total: int, places: int, scale: int = 100) -> str:
    """``k / total`` on ``scale`` rounded half-up to ``places`` decimals."""
    q = Decimal(1).scaleb(-places)
    # Enough digits for any k, total and places: the default 28 fails on 87.3000...01%.
    with localcontext() as ctx:
        ctx.prec = max(28, places + len(str(max(k, total))) + 5)
        x = (Decimal(k) * scale / Decimal(total)).quantize(q, rounding=ROUND_HALF_UP)
    return f"{x:.{places}f}"


@dataclass(frozen=True)
class Neighbour:
    """A reachable value next to an unreachable one: ``k`` of ``total``."""

    k: int
    total: int
    text: str


def nearest(
    value: str, n: int, samples: int = 1, scale: int = 100
) -> tuple[Neighbour | None, Neighbour | None]:
    """The closest reachable values below and above ``value``, at its precision."""
    total = n * samples
    v = exact(value) / scale
    places = decimals(value)
    k_below = math.floor(v * total)
    k_above = math.ceil(v * total)
    if k_above == k_below:  # value is exactly k/total
        k_above += 1
        k_below -= 1
    below = (
        Neighbour(k_below, total, format_at(k_below, total, places, scale))
        if 0 <= k_below <= total
        else None
    )
    above = (
        Neighbour(k_above, total, format_at(k_above, total, places, scale))
        if 0 <= k_above <= total
        else None
    )
    return below, above


def min_samples(value: str, n: int, scale: int = 100, limit: int = MAX_SAMPLES) -> int | None:
    """The smallest number of samples per item that makes ``value`` reachable."""
    for s in range(1, limit + 1):
        if is_reachable(value, n, s, scale):
            return s
    return None


def can_detect(value: str, n: int, samples: int = 1, scale: int = 100) -> bool:
    """Whether the reachability check has any power at this precision.

    When ``n·samples ≥ 10^d`` (``d`` decimals of the value as a proportion)
    the steps ``1/(n·s)`` are no wider than the rounding unit, so every value
    is reachable and the check cannot fire.
    """
    return bool(n * samples < 10 ** proportion_decimals(value, scale))


def needed_decimals(n: int, samples: int = 1) -> int:
    """Decimals (of a proportion) that tell every ``k / (n·s)`` apart: ``ceil(log10(n·s))``."""
    total = n * samples
    d = 0
    while 10**d < total:
        d += 1
    return d


def excess_digits(value: str, n: int, samples: int = 1, scale: int = 100) -> int:
    """How many written digits go beyond those that tell every possible score apart."""
    return max(0, proportion_decimals(value, scale) - needed_decimals(n, samples))


def fitting_n(values: list[str], scale: int = 100, near: int | None = None, limit: int = 2000) -> int | None:
    """The item count closest to ``near`` (else the smallest) at which every value is k/n.

    Used to name the split a column of scores was probably measured on (MBPP's
    257-problem sanitized split rather than its 500-problem test split). Counts
    below 10 fit almost anything at one decimal and are not offered.
    """
    usable = [v for v in values if can_detect(v, 10, 1, scale)]
    if len(usable) < 2:
        return None
    fits = [n for n in range(10, limit + 1) if all(is_reachable(v, n, 1, scale) for v in usable)]
    if not fits:
        return None
    if near is None:
        return fits[0]
    return min(fits, key=lambda n: (abs(n - near), n))
