"""Calibration: ECE with its binning stated, MCE, Brier, the reliability table,
and temperature scaling.

ECE = sum_m |B_m|/n * |acc(B_m) - conf(B_m)| depends on the binning, so every
function takes the bin count and the scheme and every result carries them.
Equal-width bins follow Guo et al. (2017): bin m holds confidences in
((m-1)/M, m/M], and a confidence of exactly 0 goes to the first bin.
Equal-mass bins split the items sorted by confidence into M groups whose
sizes differ by at most one.

numpy and scipy are imported inside the functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

BINNINGS = ("equal-width", "equal-mass")


@dataclass(frozen=True)
class Bin:
    """One row of the reliability table."""

    index: int
    lo: float
    hi: float
    count: int
    confidence: float | None
    accuracy: float | None

    @property
    def gap(self) -> float | None:
        """Accuracy minus confidence: negative when the bin is overconfident."""
        if self.count == 0 or self.accuracy is None or self.confidence is None:
            return None
        return self.accuracy - self.confidence


def _arrays(confidence: Any, correct: Any) -> tuple[Any, Any]:
    import numpy as np

    conf = np.asarray(confidence, dtype=np.float64).ravel()
    ok = np.asarray(correct, dtype=np.float64).ravel()
    if conf.shape != ok.shape:
        raise ValueError("confidence and correct must have the same length")
    if conf.size == 0:
        raise ValueError("no predictions")
    if np.any(~np.isfinite(conf)) or np.any((conf < 0) | (conf > 1)):
        raise ValueError("confidences must lie in [0, 1]")
    return conf, ok


def bin_index(confidence: Any, n_bins: int = 10, binning: str = "equal-width") -> Any:
    """The bin of each prediction (0 .. n_bins-1)."""
    import numpy as np

    if n_bins < 1:
        raise ValueError("n_bins must be at least 1")
    conf = np.asarray(confidence, dtype=np.float64).ravel()
    if binning == "equal-width":
        # Right-closed bins ((m-1)/M, m/M], with 0 in the first bin. Edges are m/M as
        # floats, so a confidence written 0.3 sits on the edge 3/10 and goes below it.
        edges = np.arange(n_bins + 1) / n_bins
        idx = np.searchsorted(edges, conf, side="left") - 1
        return np.clip(idx, 0, n_bins - 1)
    if binning == "equal-mass":
        order = np.argsort(conf, kind="stable")
        idx = np.empty(conf.size, dtype=np.int64)
        for m, part in enumerate(np.array_split(order, n_bins)):
            idx[part] = m
        return idx
    raise ValueError(f"unknown binning {binning!r} (use {' or '.join(BINNINGS)})")


def reliability_table(
    confidence: Any, correct: Any, n_bins: int = 10, binning: str = "equal-width"
) -> list[Bin]:
    """Per-bin count, mean confidence and accuracy (empty bins included)."""
    import numpy as np

    conf, ok = _arrays(confidence, correct)
    idx = bin_index(conf, n_bins, binning)
    count = np.bincount(idx, minlength=n_bins)
    sum_conf = np.bincount(idx, weights=conf, minlength=n_bins)
    sum_ok = np.bincount(idx, weights=ok, minlength=n_bins)
    out = []
    for m in range(n_bins):
        if binning == "equal-width":
            lo, hi = m / n_bins, (m + 1) / n_bins
        else:
            members = conf[idx == m]
            lo = float(members.min()) if members.size else float("nan")
            hi = float(members.max()) if members.size else float("nan")
        c = int(count[m])
        out.append(
            Bin(
                index=m,
                lo=lo,
                hi=hi,
                count=c,
                confidence=float(sum_conf[m] / c) if c else None,
                accuracy=float(sum_ok[m] / c) if c else None,
            )
        )
    return out


def ece(confidence: Any, correct: Any, n_bins: int = 10, binning: str = "equal-width") -> float:
    """Expected calibration error with the given binning."""
    table = reliability_table(confidence, correct, n_bins, binning)
    n = sum(b.count for b in table)
    return float(sum(b.count / n * abs(gap) for b in table if (gap := b.gap) is not None))


def mce(confidence: Any, correct: Any, n_bins: int = 10, binning: str = "equal-width") -> float:
    """Maximum calibration error: the largest |gap| over non-empty bins."""
    table = reliability_table(confidence, correct, n_bins, binning)
    return float(max(abs(gap) for b in table if (gap := b.gap) is not None))


def brier(confidence: Any, correct: Any) -> float:
    """Brier score of the stated confidence against correctness: mean (conf - correct)^2."""
    conf, ok = _arrays(confidence, correct)
    return float(((conf - ok) ** 2).mean())


def brier_multiclass(probs: Any, labels: Any) -> float:
    """Multi-class Brier score: mean over items of sum_k (p_k - [y = k])^2."""
    import numpy as np

    p = np.asarray(probs, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    onehot = np.zeros_like(p)
    onehot[np.arange(len(y)), y] = 1.0
    return float(((p - onehot) ** 2).sum(axis=1).mean())


def softmax(logits: Any, temperature: float = 1.0) -> Any:
    """Row-wise softmax of logits / T, shifted for stability."""
    import numpy as np

    z = np.asarray(logits, dtype=np.float64)
    # Shift before dividing: logits near the float limit (1e308) over T < 1 would be inf - inf.
    with np.errstate(over="ignore"):
        z = (z - z.max(axis=1, keepdims=True)) / temperature
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def confidence_and_correct(logits_or_probs: Any, labels: Any, *, logits: bool) -> tuple[Any, Any]:
    """Top-label confidence and correctness from per-class logits or probabilities."""
    import numpy as np

    p = softmax(logits_or_probs) if logits else np.asarray(logits_or_probs, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    return p.max(axis=1), (p.argmax(axis=1) == y).astype(np.float64)


def nll(logits: Any, labels: Any, temperature: float = 1.0) -> float:
    """Mean negative log-likelihood of the labels under softmax(logits / T)."""
    import numpy as np

    z = np.asarray(logits, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    with np.errstate(over="ignore"):  # shifted first, as in softmax
        s = (z - z.max(axis=1, keepdims=True)) / temperature
    lse = np.log(np.exp(s).sum(axis=1))
    return float((lse - s[np.arange(len(y)), y]).mean())


def fit_temperature(logits: Any, labels: Any) -> float:
    """The T > 0 that minimises the NLL of softmax(logits / T) (scipy, bounded on log T).

    Dividing by T never moves an argmax, so accuracy is unchanged; T > 1 cools
    an overconfident model. Probabilities can be passed as logits via log(p).
    """
    from scipy.optimize import minimize_scalar

    res = minimize_scalar(
        lambda t: nll(logits, labels, float(10.0**t)),
        bounds=(-2.0, 2.0),
        method="bounded",
        options={"xatol": 1e-8},
    )
    return float(10.0**res.x)


@dataclass(frozen=True)
class CalibrationSummary:
    """The numbers a calibration report states, with the binning that produced them."""

    n_items: int
    accuracy: float
    mean_confidence: float
    ece: float
    bins: int
    binning: str
    mce: float
    brier: float
    temperature: float | None = None
    ece_after_temperature: float | None = None


def _finite_nll(logits: Any, labels: Any) -> bool:
    """Whether temperature scaling is defined: with logits near the float limit (1e308) the
    likelihood is 0 at every temperature, and no fitted T would mean anything."""
    import numpy as np

    with np.errstate(over="ignore", invalid="ignore"):
        return all(math.isfinite(nll(logits, labels, 10.0**t)) for t in (-2.0, 0.0, 2.0))


def summarise(
    confidence: Any,
    correct: Any,
    n_bins: int = 10,
    binning: str = "equal-width",
    logits: Any = None,
    labels: Any = None,
) -> CalibrationSummary:
    """ECE / MCE / Brier at the stated binning, and temperature scaling when logits are given."""
    conf, ok = _arrays(confidence, correct)
    t = after = None
    if logits is not None and labels is not None and _finite_nll(logits, labels):
        t = fit_temperature(logits, labels)
        c2, ok2 = confidence_and_correct(softmax(logits, t), labels, logits=False)
        after = ece(c2, ok2, n_bins, binning)
    return CalibrationSummary(
        n_items=int(conf.size),
        accuracy=float(ok.mean()),
        mean_confidence=float(conf.mean()),
        ece=ece(conf, ok, n_bins, binning),
        bins=n_bins,
        binning=binning,
        mce=mce(conf, ok, n_bins, binning),
        brier=brier(conf, ok),
        temperature=t,
        ece_after_temperature=after,
    )
