"""What the reporting rules (BA101–BA106) share: reading a score claim's scale
and item count, writing a value in the claim's own unit, and the Wilson interval
a suggestion quotes (numbers themselves are written by :mod:`benchaudit.rules._wording`).

Standard library only: this runs when checking a README.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from benchaudit.rules._wording import level, num

if TYPE_CHECKING:
    from benchaudit.evidence import Claim, Source


def scores(source: Source) -> Iterator[Claim]:
    """Score claims of a document."""
    for c in source.claims:
        if c.kind == "score" and c.value is not None:
            yield c


def written(claim: Claim) -> str:
    """The score as its author wrote it (every claim :func:`scores` yields has one)."""
    if claim.value is None:
        raise ValueError(f"a score claim without a value at {claim.location}")
    return claim.value


def items(claim: Claim) -> int:
    """The item count of a score that has one (callers skip claims without ``n`` first)."""
    if not claim.n:
        raise ValueError(f"a score claim without an item count at {claim.location}")
    return claim.n


def scale(claim: Claim) -> int:
    """100 for percentages and points, 1 for proportions."""
    return 1 if claim.unit == "proportion" else 100


def proportion(claim: Claim) -> float:
    return float(written(claim).replace(",", "")) / scale(claim)


def on_grid(claim: Claim) -> bool:
    """Whether the score is a count of successes over items (× samples) at all.

    Not for F1, BLEU, win rates, macro averages, pass@k with k > 1, or an
    average over an unstated number of samples.
    """
    if claim.fields.get("grid") is False or claim.protocol == "pass@k":
        return False
    return not (claim.protocol == "averaged" and not claim.samples)


def count(n: int) -> str:
    """``1319`` → ``1,319``."""
    return f"{n:,}"


def unit_sign(claim: Claim) -> str:
    return "%" if claim.unit == "percent" else ""


def as_written(claim: Claim, value: str) -> str:
    """A value in the claim's own unit: ``87.2%``, ``87.2`` or ``0.872``."""
    return f"{value}{unit_sign(claim)}"


def on_what(claim: Claim) -> str:
    """``on HumanEval (164 items)`` / ``on 500 items``."""
    n = count(claim.n) if claim.n else "?"
    if claim.benchmark:
        return f"on {claim.benchmark} ({n} items)"
    return f"on {n} items"


def in_scale(claim: Claim, x: float, digits: int = 1) -> str:
    """A proportion written in the claim's unit, without the sign."""
    if scale(claim) == 1:
        return f"{x:.{digits + 2}f}"
    return num(100 * x, digits)


def wilson_wording(claim: Claim, p: float, n: int, confidence: float = 0.95) -> str:
    """``95% CI 80.9–91.6%, Wilson, n = 164`` for a suggestion."""
    from benchaudit.stats.proportions import wilson

    lo, hi = wilson(p * n, n, confidence)
    return f"{level(1 - confidence)} CI {in_scale(claim, lo)}–{in_scale(claim, hi)}{unit_sign(claim)}, Wilson, n = {count(n)}"
