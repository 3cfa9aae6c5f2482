"""How every rule writes numbers in a message or suggestion: one way each.

Negative numbers take a real minus sign (U+2212), as in print, so a signed
difference reads the same in every rule. Standard library only: this runs
when checking a README.
"""

from __future__ import annotations

from benchaudit.finding import Confidence, Severity

MINUS = "\u2212"


def num(x: float, digits: int = 1) -> str:
    """``3.0`` / ``−2.6``."""
    return f"{x:.{digits}f}".replace("-", MINUS)


def signed(x: float, digits: int = 1) -> str:
    """``+3.0`` / ``−2.6``: a difference, always with its sign."""
    return f"{x:+.{digits}f}".replace("-", MINUS)


def percent(p: float, digits: int = 1) -> str:
    """A proportion as a percentage: ``0.9433`` → ``94.3%``."""
    return f"{num(100 * p, digits)}%"


def signed_points(diff: float, digits: int = 1) -> str:
    """A difference of two proportions in signed points: ``-0.026`` → ``−2.6``."""
    return signed(100 * diff, digits)


def interval(lo: float, hi: float, digits: int = 1, *, sign: bool = False) -> str:
    """An interval's bounds: ``80.9–91.6`` for a score, ``−2.6 to +8.6`` for a
    difference (``sign=True``; a dash between signed numbers would read as a minus)."""
    if sign:
        return f"{signed(lo, digits)} to {signed(hi, digits)}"
    return f"{num(lo, digits)}–{num(hi, digits)}"


def level(alpha: float) -> str:
    """The confidence level that goes with ``alpha``: ``0.05`` → ``95%``."""
    return f"{100 * (1 - alpha):g}%"


def severity_for(confidence: Confidence, default: Severity) -> Severity:
    """A low-confidence parse gives info, never an error or a warning."""
    return Severity.INFO if confidence is Confidence.LOW else default
