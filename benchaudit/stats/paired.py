"""Paired comparisons of two models on the same items.

Closed forms only at module level (the text path uses them); numpy is imported
inside the vectorised functions. Tests cross-check against statsmodels'
``mcnemar(exact=True)``, ``scipy.stats.binomtest`` and ``scipy.stats.permutation_test``.
"""

from __future__ import annotations

import math
from typing import Any

from benchaudit.stats.proportions import wilson
from benchaudit.stats.special import binom_cdf, norm_sf, z_for

#: Up to this many pairs the vectorised McNemar loops in Python rather than
#: importing scipy (a small result file then never pays for scipy's import).
_SMALL_MANY = 512


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts ``b`` and ``c``.

    Under the null each of the ``b + c`` discordant items favours either model
    with probability 1/2, so p = min(1, 2 P(X <= min(b, c))). With no discordant
    pair there is no evidence either way and p is 1.
    """
    b, c = int(b), int(c)
    if b < 0 or c < 0:
        raise ValueError("discordant counts must be non-negative")
    m = b + c
    if m == 0:
        return 1.0
    return min(1.0, 2.0 * binom_cdf(min(b, c), m, 0.5))


def mcnemar_exact_many(b: Any, c: Any) -> Any:
    """Vectorised :func:`mcnemar_exact` over arrays of discordant counts.

    A few pairs are computed one by one; many go to ``scipy.special.bdtr`` (the
    binomial CDF that ``scipy.stats.binom.cdf`` wraps, without scipy.stats' import)."""
    import numpy as np

    b = np.asarray(b, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    if b.size <= _SMALL_MANY:
        flat = [mcnemar_exact(int(x), int(y)) for x, y in zip(b.ravel(), c.ravel())]
        return np.asarray(flat, dtype=np.float64).reshape(b.shape)
    from scipy.special import bdtr

    m = b + c
    k = np.minimum(b, c)
    width = int(m.max(initial=0)) + 1
    if (width // 2 + 1) * width <= 4 * b.size:
        # Many pairs over few items (1,000 models x 1,000 items: 499,500 pairs) share
        # their (k, m): the binomial CDF once per distinct pair of counts, the same values.
        keys, inverse = np.unique(k * width + m, return_inverse=True)
        k, m = np.divmod(keys, width)
    else:
        inverse = None
    p = np.where(m == 0, 1.0, np.minimum(1.0, 2.0 * bdtr(k, np.maximum(m, 1), 0.5)))
    return p if inverse is None else p[inverse].reshape(b.shape)


def normal_two_sided_many(z: Any) -> Any:
    """2·P(Z >= |z|) elementwise, capped at 1, for an array of z statistics.

    A few values go through ``math.erfc``; many through ``scipy.special.ndtr``. A
    small result file thus pays for neither scipy.special's nor scipy.stats' import.
    """
    import numpy as np

    z = np.asarray(z, dtype=np.float64)
    if z.size <= _SMALL_MANY:
        flat = [min(1.0, 2.0 * norm_sf(abs(v))) if v == v else math.nan for v in z.ravel().tolist()]
        return np.asarray(flat, dtype=np.float64).reshape(z.shape)
    from scipy.special import ndtr

    return np.minimum(1.0, 2.0 * ndtr(-np.abs(z)))


def mcnemar_floor(m: int) -> float:
    """The smallest two-sided p McNemar can give with ``m`` discordant items: 2·(1/2)^m.

    Five discordant items give 0.0625, so no outcome is significant at 0.05.
    """
    if m < 0:
        raise ValueError("m must be non-negative")
    return min(1.0, 2.0 * 0.5**m)


def paired_diff_ci(
    n11: int, n10: int, n01: int, n00: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Paired difference of two 0/1-scored models with a normal interval.

    ``n10`` counts items only the first model got right, ``n01`` items only the
    second did. The per-item differences are +1, -1 or 0; the interval is the
    mean difference ± z times their sample SD over sqrt(n).
    """
    n = n11 + n10 + n01 + n00
    if n <= 0:
        raise ValueError("no items")
    diff = (n10 - n01) / n
    if n == 1:
        return diff, diff, diff
    # Sample variance of d in {+1, -1, 0}: (sum d^2 - n mean^2) / (n - 1).
    var = ((n10 + n01) - n * diff * diff) / (n - 1)
    half = z_for(confidence) * math.sqrt(max(var, 0.0) / n)
    # A difference of two proportions lies in [-1, 1]; on a few items the normal
    # interval overshoots (-66.7 points on 3 items gave -132 to -1.3).
    return diff, max(-1.0, diff - half), min(1.0, diff + half)


def _newcombe_phi(n11: float, n10: float, n01: float, n00: float) -> float:
    """Newcombe's estimate of the correlation of the two marginal proportions.

    The phi coefficient of the 2x2 table, with its numerator n11·n00 − n10·n01
    reduced by n/2 when positive (and set to 0 when it lies in [0, n/2]); 0 when a
    margin is empty. The reduction keeps the interval from being too narrow when
    the two models agree on nearly every item (Newcombe 1998, method 10).
    """
    n = n11 + n10 + n01 + n00
    r1, r2 = n11 + n10, n11 + n01
    margins = r1 * (n - r1) * r2 * (n - r2)
    if margins <= 0:
        return 0.0
    num = n11 * n00 - n10 * n01
    if num > n / 2:
        num -= n / 2
    elif num >= 0:
        return 0.0
    return num / math.sqrt(margins)


def paired_diff_newcombe(
    n11: int, n10: int, n01: int, n00: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Paired difference of two 0/1-scored models with Newcombe's hybrid score interval.

    The interval of the comparisons of 0/1 items (Newcombe 1998, "Improved
    confidence intervals for the difference between binomial proportions based
    on paired data", method 10): the Wilson intervals (l1, u1) and (l2, u2) of the
    two models' accuracies p1 and p2 are combined as

        lower = d − sqrt((p1 − l1)² − 2φ(p1 − l1)(u2 − p2) + (u2 − p2)²)
        upper = d + sqrt((u1 − p1)² − 2φ(u1 − p1)(p2 − l2) + (p2 − l2)²)

    with d = (n10 − n01)/n and φ from :func:`_newcombe_phi`. Unlike the normal
    interval on the per-item differences it stays inside [−1, 1], is not of zero
    width when no item is discordant, and excludes 0 where McNemar's exact test
    rejects at 1 − confidence (on every table of the grid in
    ``tests/stats/test_stats_paired.py``; the converse can fail, as the exact test
    cannot reach p < 0.05 with five or fewer discordant items). ``n10`` counts items
    only the first model got right, ``n01`` items only the second did.
    """
    if min(n11, n10, n01, n00) < 0 or n11 + n10 + n01 + n00 <= 0:
        raise ValueError("counts must be non-negative with at least one item")
    # As floats, so that every product is rounded as in the vectorised form.
    a, b, c, d = float(n11), float(n10), float(n01), float(n00)
    n = a + b + c + d
    r1, r2 = a + b, a + c
    p1, p2 = r1 / n, r2 / n
    l1, u1 = wilson(r1, int(n), confidence)
    l2, u2 = wilson(r2, int(n), confidence)
    phi = _newcombe_phi(a, b, c, d)
    # Products written out (not ** 2, which libm's pow may round otherwise).
    lo1, hi1, lo2, hi2 = p1 - l1, u1 - p1, p2 - l2, u2 - p2
    below = math.sqrt(max(lo1 * lo1 - 2 * phi * lo1 * hi2 + hi2 * hi2, 0.0))
    above = math.sqrt(max(hi1 * hi1 - 2 * phi * hi1 * lo2 + lo2 * lo2, 0.0))
    diff = (b - c) / n
    return diff, max(-1.0, diff - below), min(1.0, diff + above)


def paired_diff_newcombe_many(n11: Any, n10: Any, n01: Any, n00: Any, confidence: float = 0.95) -> tuple[Any, Any]:
    """Vectorised :func:`paired_diff_newcombe`: the (lower, upper) arrays.

    The same floating-point operations in the same order, so each bound equals the
    scalar function's to the last digit (the small-file analysis uses the scalar one)."""
    import numpy as np

    a, b, c, d = (np.asarray(x, dtype=np.float64) for x in (n11, n10, n01, n00))
    n = a + b + c + d
    nn = np.maximum(n, 1.0)
    r1, r2 = a + b, a + c
    z = z_for(confidence)
    z2 = z * z

    def wilson_many(k: Any) -> tuple[Any, Any]:
        p = k / nn
        denom = 1 + z2 / nn
        centre = (p + z2 / (2 * nn)) / denom
        half = z * np.sqrt(np.maximum(p * (1 - p) / nn + z2 / (4 * nn * nn), 0.0)) / denom
        return np.maximum(0.0, centre - half), np.minimum(1.0, centre + half)

    p1, p2 = r1 / nn, r2 / nn
    l1, u1 = wilson_many(r1)
    l2, u2 = wilson_many(r2)
    margins = r1 * (n - r1) * r2 * (n - r2)
    num = a * d - b * c
    num = np.where(num > n / 2, num - n / 2, np.where(num >= 0, 0.0, num))
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = np.where(margins > 0, num / np.sqrt(np.where(margins > 0, margins, 1.0)), 0.0)
    lo1, hi1, lo2, hi2 = p1 - l1, u1 - p1, p2 - l2, u2 - p2
    below = np.sqrt(np.maximum(lo1 * lo1 - 2 * phi * lo1 * hi2 + hi2 * hi2, 0.0))
    above = np.sqrt(np.maximum(hi1 * hi1 - 2 * phi * hi1 * lo2 + lo2 * lo2, 0.0))
    diff = (b - c) / nn
    return np.maximum(-1.0, diff - below), np.minimum(1.0, diff + above)


def unpaired_diff(
    p1: float, n1: int, p2: float, n2: int, confidence: float = 0.95
) -> tuple[float, float, float, float, float]:
    """The unpaired analysis of p1 - p2: (diff, lo, hi, z, p).

    The interval uses the unpooled SE; the z-test uses the pooled proportion,
    as the classic two-proportion test does. This is what a reader gets who
    compares two separate scores; set it beside the paired analysis.
    """
    if n1 <= 0 or n2 <= 0:
        raise ValueError("n1 and n2 must be positive")
    diff = p1 - p2
    se = math.sqrt(max(p1 * (1 - p1), 0.0) / n1 + max(p2 * (1 - p2), 0.0) / n2)
    half = z_for(confidence) * se
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    se0 = math.sqrt(max(pooled * (1 - pooled), 0.0) * (1 / n1 + 1 / n2))
    if se0 == 0.0:
        z, p = 0.0, 1.0
    else:
        z = diff / se0
        p = min(1.0, 2.0 * norm_sf(abs(z)))
    return diff, diff - half, diff + half, z, p


def sign_flip_test(diffs: Any, resamples: int = 10000, seed: int = 0, batch: int = 1000) -> float:
    """Two-sided sign-flip permutation p-value for paired per-item differences.

    Under exchangeability each difference is as likely to be +|d| as -|d|.
    Items with d = 0 contribute nothing, so only non-zero differences are
    flipped (same distribution, less work). Returns (count + 1)/(resamples + 1),
    never 0. Resamples are drawn in chunks of ``batch`` to bound memory.
    """
    import numpy as np

    d = np.asarray(diffs, dtype=np.float64)
    d = d[d != 0.0]
    if d.size == 0:
        return 1.0
    rng = np.random.default_rng(seed)
    observed = abs(d.sum())
    # A tolerance: sums equal on paper can differ in the last bit.
    threshold = observed - 1e-12 * max(1.0, float(np.abs(d).sum()))
    total = float(d.sum())
    count = 0
    done = 0
    while done < resamples:
        size = min(batch, resamples - done)
        signs = rng.integers(0, 2, size=(size, d.size), dtype=np.int8)
        # sum(s * d) with s in {-1, +1} = 2 * sum over the kept d - sum(d)
        stats = 2.0 * (signs @ d) - total
        count += int(np.count_nonzero(np.abs(stats) >= threshold))
        done += size
    return (count + 1) / (resamples + 1)


def sign_flip_many(
    values: Any,
    ia: Any,
    ib: Any,
    resamples: int = 10000,
    seed: int = 0,
    budget: int = 4_000_000,
    progress: Any = None,
) -> Any:
    """Sign-flip permutation p-values for many pairs of rows of one complete matrix.

    ``values`` is models x items with every cell present; pair ``j`` tests the
    differences ``values[ia[j]] - values[ib[j]]``. One set of sign vectors serves
    every pair: the flipped sum of a pair's differences is the difference of the
    two rows' flipped sums, so the work is one matrix product per chunk of
    resamples instead of one per pair. Each pair's p-value has the distribution
    :func:`sign_flip_test` gives it (an item with d = 0 adds nothing whatever
    its sign); the pairs merely share their random draws. ``progress``, if
    given, is called with the number of resamples done after each chunk. Returns
    (count + 1)/(resamples + 1) per pair, 1 for a pair with no non-zero difference.
    """
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    ia = np.asarray(ia, dtype=np.int64)
    ib = np.asarray(ib, dtype=np.int64)
    n = x.shape[1]
    total = x[ia].sum(axis=1) - x[ib].sum(axis=1)
    # A tolerance: sums equal on paper can differ in the last bits, and each
    # flipped sum runs over both rows' items, so the scale is their size.
    scale = np.abs(x).sum(axis=1)
    threshold = np.abs(total) - 1e-9 * np.maximum(1.0, scale[ia] + scale[ib])
    rng = np.random.default_rng(seed)
    counts = np.zeros(ia.size, dtype=np.int64)
    step = max(1, min(resamples, budget // max(n, ia.size, 1)))
    done = 0
    while done < resamples:
        size = min(step, resamples - done)
        signs = rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)
        flipped = (2.0 * signs - 1.0) @ x.T  # resamples x models
        stats = flipped[:, ia] - flipped[:, ib]
        counts += np.count_nonzero(np.abs(stats) >= threshold, axis=0)
        done += size
        if progress is not None:
            progress(size)
    p = (counts + 1) / (resamples + 1)
    return np.where(nonzero_diffs(x, ia, ib) == 0, 1.0, p)


def nonzero_diffs(values: Any, ia: Any, ib: Any) -> Any:
    """How many items differ between rows ``ia[j]`` and ``ib[j]`` of a complete matrix."""
    import numpy as np

    x = np.asarray(values)
    ia = np.asarray(ia, dtype=np.int64)
    ib = np.asarray(ib, dtype=np.int64)
    out = np.zeros(ia.size, dtype=np.int64)
    # One row against all its partners at a time: memory stays at one row's pairs.
    for a in np.unique(ia):
        sel = np.flatnonzero(ia == a)
        out[sel] = np.count_nonzero(x[ib[sel]] != x[a], axis=1)
    return out


def sign_flip_rows(diffs: Any, resamples: int = 10000, seed: int = 0) -> tuple[Any, Any]:
    """Two-sided sign-flip p-values for each row of a matrix of paired differences.

    Each row is one comparison's differences over a few units (cluster totals of
    the per-item differences, for a cluster-level test). With 2^units at most
    ``resamples`` every sign vector is enumerated and the p-value is exact
    (count / 2^units, the observed assignment included); otherwise the rows share
    ``resamples`` random sign vectors and p = (count + 1) / (resamples + 1).
    Returns (p-values, smallest p each row's design can reach).
    """
    import numpy as np

    t = np.atleast_2d(np.asarray(diffs, dtype=np.float64))
    rows, units = t.shape
    observed = np.abs(t.sum(axis=1))
    threshold = observed - 1e-9 * np.maximum(1.0, np.abs(t).sum(axis=1))
    counts = np.zeros(rows, dtype=np.int64)
    exact = units <= 30 and 2**units <= resamples
    total = 2**units if exact else resamples
    rng = np.random.default_rng(seed)
    step = max(1, min(total, 4_000_000 // max(units, rows, 1)))
    for start in range(0, total, step):
        size = min(step, total - start)
        if exact:
            codes = np.arange(start, start + size, dtype=np.int64)[:, None]
            bits = (codes >> np.arange(units, dtype=np.int64)[None, :]) & 1
        else:
            bits = rng.integers(0, 2, size=(size, units), dtype=np.int8)
        stats = (2.0 * bits.astype(np.float64) - 1.0) @ t.T
        counts += np.count_nonzero(np.abs(stats) >= threshold, axis=0)
    nonzero = np.count_nonzero(t, axis=1)
    if exact:
        p = counts / total
        floor = np.minimum(1.0, 2.0 * 0.5**nonzero)
    else:
        p = (counts + 1) / (resamples + 1)
        floor = np.maximum(np.minimum(1.0, 2.0 * 0.5**nonzero), 1.0 / (resamples + 1))
    return np.where(nonzero == 0, 1.0, p), floor
