"""Multiple comparisons: Holm's step-down adjustment (family-wise error)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray


def holm(pvals: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in input order, monotone and capped at 1.

    The r-th smallest (r from 0) is multiplied by m - r, then a running
    maximum keeps the order; rejecting adjusted p <= alpha is Holm's procedure.
    """
    m = len(pvals)
    order = sorted(range(m), key=lambda i: (pvals[i], i))
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(pvals[i])))
        out[i] = running
    return out


def holm_reject(pvals: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Which hypotheses Holm rejects at family-wise level ``alpha``, in input order:
    [0.01, 0.04, 0.03, 0.005] -> [True, False, False, True]."""
    return [p <= alpha for p in holm(pvals)]


def holm_array(pvals: ArrayLike) -> NDArray[np.float64]:
    """Vectorised :func:`holm` for a numpy array (used on thousands of pairs)."""
    import numpy as np

    p = np.asarray(pvals, dtype=np.float64)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.maximum.accumulate(scaled)
    return out
