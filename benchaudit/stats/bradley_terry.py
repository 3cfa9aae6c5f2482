"""Bradley–Terry ratings from pairwise battles, with a bootstrap that costs O(pairs).

Model: P(i beats j) = sigma(beta_i - beta_j). A tie counts as half a win for
each side (the default). Ratings are on the Elo scale,
R = anchor + beta * 400 / ln 10, with ``anchor`` the mean rating: the scale is
fixed by centring the strengths, never by pinning one model, so every model
gets an interval of its own.

Everything works on *pair-outcome counts* (for each pair of models: wins of
the first, wins of the second, ties), not on battle rows. The fit is Newton's
method on the log-likelihood; a bootstrap replicate that resamples N battles
with replacement is a multinomial draw over those counts, so a replicate costs
O(pairs) however many battles there are. The draws are exact: Poisson counts
by table inversion (:func:`poisson_counts`), corrected to the battle total
(:func:`multinomial_counts`). All replicates are solved together, warm-started
at the full-data fit and stepped with its (fixed) information matrix in single
precision; the few that do not settle get full Newton steps.

This module imports numpy; readers and rules import it inside functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Elo points per unit of log-strength: 400 / ln 10 = 173.7.
ELO_PER_UNIT = 400.0 / math.log(10.0)

#: A vanishing ridge on the log-strengths. It makes the fit exist when a model
#: won (or lost) every battle, or the comparison graph falls apart, and moves
#: ratings on well-connected data by far less than 0.01 Elo.
DEFAULT_RIDGE = 1e-6


def expected_win_rate(gap: float) -> float:
    """Expected score of a player ``gap`` Elo points above the other."""
    return float(1.0 / (1.0 + 10.0 ** (-gap / 400.0)))


def votes_needed(gap: float, confidence: float = 0.95, power: float | None = None) -> int:
    """Head-to-head votes for a ``gap``-Elo edge to show: the 95% interval of the
    win rate excludes 50% (``power=None``), or it does with the given power.

    Normal approximation with the null SD 0.5 per vote: 30 Elo (54.3%) needs
    about 520 votes, and about 1,060 for 80% power.
    """
    from statistics import NormalDist

    edge = expected_win_rate(gap) - 0.5
    if edge <= 0:
        raise ValueError("gap must be positive")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    if power is not None:
        z += NormalDist().inv_cdf(power)
    return math.ceil((z * 0.5 / edge) ** 2)


def to_elo(beta: np.ndarray, anchor: float = 1000.0) -> np.ndarray:
    """Log-strengths (any shift) -> Elo ratings whose mean is ``anchor``."""
    b = np.asarray(beta, dtype=np.float64)
    return np.asarray(anchor + (b - b.mean(axis=-1, keepdims=True)) * ELO_PER_UNIT)


@dataclass
class PairCounts:
    """Outcome counts per pair of models (``i < j``), the sufficient statistic."""

    models: list[str]
    i: np.ndarray
    j: np.ndarray
    wins_i: np.ndarray
    wins_j: np.ndarray
    ties: np.ndarray

    @property
    def n_models(self) -> int:
        return len(self.models)

    @property
    def n(self) -> np.ndarray:
        return np.asarray(self.wins_i + self.wins_j + self.ties)

    def score_i(self, ties: str = "half") -> np.ndarray:
        """Points of the first model of each pair (a tie is half a win)."""
        if ties == "half":
            return self.wins_i + 0.5 * self.ties
        return self.wins_i.astype(np.float64)

    def games(self, ties: str = "half") -> np.ndarray:
        return self.n.astype(np.float64) if ties == "half" else (self.wins_i + self.wins_j) * 1.0

    def battles_per_model(self) -> np.ndarray:
        m = self.n_models
        n = self.n
        return np.bincount(self.i, n, m) + np.bincount(self.j, n, m)

    @classmethod
    def from_codes(
        cls, a: np.ndarray, b: np.ndarray, outcome: np.ndarray, models: list[str]
    ) -> PairCounts:
        """Count battles given as model codes and outcome 0 (a won), 1 (b won), 2 (tie)."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        outcome = np.asarray(outcome, dtype=np.int64)
        m = len(models)
        if np.any(a == b):
            raise ValueError("a battle between a model and itself")
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        swapped = a > b
        # Outcome from the point of view of the lower-coded model.
        oc = np.where(swapped & (outcome < 2), 1 - outcome, outcome)
        key = lo * m + hi
        if m * m <= 4 * len(key) + (1 << 16):
            # Few models for the battles: count every (pair, outcome) cell directly.
            full = np.bincount(key * 3 + oc, minlength=3 * m * m).reshape(-1, 3)
            uniq = np.flatnonzero(full.any(axis=1))
            counts = full[uniq]
        else:
            uniq, inv = np.unique(key, return_inverse=True)
            counts = np.bincount(inv * 3 + oc, minlength=3 * len(uniq)).reshape(-1, 3)
        return cls(
            models=list(models),
            i=(uniq // m).astype(np.int64),
            j=(uniq % m).astype(np.int64),
            wins_i=counts[:, 0].astype(np.int64),
            wins_j=counts[:, 1].astype(np.int64),
            ties=counts[:, 2].astype(np.int64),
        )

    @classmethod
    def from_strengths_expected(cls, strengths: list[float], games: int) -> PairCounts:
        """Expected (fractional) win counts of a round robin with true ``strengths``."""
        m = len(strengths)
        ii, jj = np.triu_indices(m, 1)
        s = np.asarray(strengths, dtype=np.float64)
        p = s[ii] / (s[ii] + s[jj])
        return cls(
            models=[str(k) for k in range(m)],
            i=ii.astype(np.int64),
            j=jj.astype(np.int64),
            wins_i=games * p,
            wins_j=games * (1 - p),
            ties=np.zeros(len(ii)),
        )


def _incidence(i: np.ndarray, j: np.ndarray, m: int) -> np.ndarray:
    x = np.zeros((len(i), m))
    rows = np.arange(len(i))
    x[rows, i] = 1.0
    x[rows, j] = -1.0
    return x


def newton(
    score: np.ndarray,
    games: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    m: int,
    beta0: np.ndarray | None = None,
    ridge: float = DEFAULT_RIDGE,
    tol: float = 1e-9,
    max_iter: int = 200,
) -> np.ndarray:
    """Maximise the Bradley–Terry log-likelihood for a batch of count vectors.

    ``score`` and ``games`` are (B, P) (``games`` may be (P,)): points of the
    first model of each pair and games played per pair. Returns (B, m) centred
    log-strengths. All B problems share one Newton loop (batched solves).
    """
    s = np.atleast_2d(np.asarray(score, dtype=np.float64))
    g_n = np.asarray(games, dtype=np.float64)
    bsz = s.shape[0]
    x = _incidence(i, j, m)
    absx = np.abs(x)
    beta = np.zeros((bsz, m)) if beta0 is None else np.array(np.broadcast_to(beta0, (bsz, m)))
    beta -= beta.mean(axis=1, keepdims=True)
    active = np.ones(bsz, dtype=bool)
    idx_b = np.arange(bsz)
    diag = np.arange(m)
    for _ in range(max_iter):
        rows = idx_b[active]
        b = beta[rows]
        nn = g_n if g_n.ndim == 1 else g_n[rows]
        d = b[:, i] - b[:, j]
        p = 1.0 / (1.0 + np.exp(-d))
        grad = (s[rows] - nn * p) @ x - ridge * b
        w = nn * p * (1.0 - p)
        info = np.zeros((len(rows), m, m))
        info[:, i, j] = -w
        info[:, j, i] = -w
        info[:, diag, diag] = w @ absx + ridge
        # The likelihood is flat along (1, ..., 1); a rank-one term makes the
        # system well conditioned without changing the (centred) Newton step.
        info += info[:, diag, diag].mean(axis=1)[:, None, None] / m
        step = np.linalg.solve(info, grad[:, :, None])[:, :, 0]
        # Keep a wild first step (separated data) from overshooting.
        big = np.abs(step).max(axis=1)
        step *= np.minimum(1.0, 4.0 / np.maximum(big, 1e-300))[:, None]
        beta[rows] = b + step
        done = big < tol
        active[rows[done]] = False
        if not active.any():
            break
    return np.asarray(beta - beta.mean(axis=1, keepdims=True))


def information(
    games: np.ndarray, i: np.ndarray, j: np.ndarray, m: int, beta: np.ndarray, ridge: float
) -> np.ndarray:
    """Fisher information of one count vector at ``beta``, plus the gauge term."""
    p = 1.0 / (1.0 + np.exp(-(beta[i] - beta[j])))
    w = games * p * (1.0 - p)
    info = np.zeros((m, m))
    info[i, j] = -w
    info[j, i] = -w
    info[np.arange(m), np.arange(m)] = np.bincount(i, w, m) + np.bincount(j, w, m) + ridge
    return np.asarray(info + np.trace(info) / (m * m))


def chord(
    score: np.ndarray,
    games: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    m: int,
    beta0: np.ndarray,
    info_inv: np.ndarray,
    ridge: float = DEFAULT_RIDGE,
    tol: float = 1e-6,
    max_iter: int = 40,
) -> tuple[np.ndarray, np.ndarray]:
    """Newton steps with one fixed information matrix (the full-data fit's).

    Bootstrap replicates sit close to the full-data fit, where the
    information barely changes, so reusing its inverse converges to the same
    maximum in a few steps and replaces B matrix solves by one product per
    step. Returns (centred log-strengths, converged flags); replicates that do
    not converge are left to :func:`newton`.
    """
    # Work on (pair, replicate) arrays: a replicate is a column, so gathering the
    # strengths of a pair's two models reads two contiguous rows. Every step is a
    # correction of the one before, and the fixed point is the maximum whatever the
    # precision of the steps, so they run in single precision (counts are exact in it
    # up to 2**24): rounding moves a rating by well under 0.001 Elo.
    s32 = np.ascontiguousarray(np.atleast_2d(np.asarray(score)).T, dtype=np.float32)
    g_n = np.asarray(games)
    n32 = np.ascontiguousarray(g_n[:, None] if g_n.ndim == 1 else g_n.T, dtype=np.float32)
    x32 = _incidence(i, j, m).T.astype(np.float32)
    inv32 = info_inv.astype(np.float32)
    b0 = beta0 - np.mean(beta0)
    # The first step needs no exponential: every replicate starts at the same point.
    p0 = (1.0 / (1.0 + np.exp(-(b0[i] - b0[j])))).astype(np.float32)
    first = inv32 @ (x32 @ (s32 - n32 * p0[:, None]) - np.float32(ridge) * b0[:, None])
    first = first.astype(np.float64)
    big = np.abs(first).max(axis=0)
    bad = ~np.isfinite(big) | (big > 1.0)
    beta = np.where(bad[None, :], b0[:, None], b0[:, None] + first)  # (m, B)
    active = ~bad & (big >= tol)
    ok = ~bad & ~active
    prev = big
    for _ in range(max_iter - 1):
        cols = np.flatnonzero(active)
        if not len(cols):
            break
        every = len(cols) == beta.shape[1]
        b = beta if every else beta[:, cols]
        b32 = b.astype(np.float32)
        if np.abs(b32).max() < 40.0:
            # exp(b_j - b_i) = exp(b_j) * exp(-b_i): exponentials of the models' strengths
            # only (m per replicate), not of every pair's difference.
            e = np.exp(b32)[j]
            e *= np.exp(-b32)[i]
        else:  # strengths whose exponentials would overflow single precision
            e = b32[j] - b32[i]
            np.exp(e, out=e)
        e += 1.0
        np.reciprocal(e, out=e)  # the win probabilities
        e *= n32 if (every or n32.shape[1] == 1) else n32[:, cols]
        np.subtract(s32 if every else s32[:, cols], e, out=e)
        step = (inv32 @ (x32 @ e - ridge * b32)).astype(np.float64)
        big = np.abs(step).max(axis=0)
        bad = ~np.isfinite(big) | (big > 1.0)
        beta[:, cols] = np.where(bad[None, :], b, b + step)
        # The steps shrink geometrically (ratio r = big / prev): what is left after this
        # one is about big * r / (1 - r). Stop when that, not the step, is below tol.
        last = prev[cols]
        left = np.where(big < last, big * big / np.maximum(last - big, 1e-300), np.inf)
        prev[cols] = big
        done = left < tol
        ok[cols[done]] = True
        active[cols[done | bad]] = False
    beta = beta.T
    return beta - beta.mean(axis=1, keepdims=True), ok


def solve_batch(
    score: np.ndarray,
    games: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    m: int,
    beta0: np.ndarray,
    info_inv: np.ndarray,
    ridge: float = DEFAULT_RIDGE,
) -> np.ndarray:
    """Fit a batch of replicates: chord steps first, full Newton for the rest."""
    beta, ok = chord(score, games, i, j, m, beta0, info_inv, ridge)
    if not ok.all():
        rest = ~ok
        g_rest = games if np.ndim(games) == 1 else games[rest]
        beta[rest] = newton(score[rest], g_rest, i, j, m, beta0=beta0, ridge=ridge, tol=1e-7)
    return beta


def fit(pc: PairCounts, ties: str = "half", ridge: float = DEFAULT_RIDGE) -> np.ndarray:
    """Maximum-likelihood log-strengths (centred) from pair-outcome counts."""
    beta = newton(pc.score_i(ties)[None, :], pc.games(ties), pc.i, pc.j, pc.n_models, ridge=ridge)
    return np.asarray(beta[0])


def fit_mm(
    pc: PairCounts, ties: str = "half", iters: int = 10000, tol: float = 1e-12
) -> np.ndarray:
    """Hunter's MM algorithm (a slower, independent fit used to cross-check ``fit``).

    s_i <- W_i / sum_j n_ij / (s_i + s_j), rescaled to sum to 1. Returns the
    strengths s (summing to 1).
    """
    m = pc.n_models
    score = pc.score_i(ties)
    n = pc.games(ties)
    wins = np.bincount(pc.i, score, m) + np.bincount(pc.j, n - score, m)
    s = np.full(m, 1.0 / m)
    for _ in range(iters):
        t = n / (s[pc.i] + s[pc.j])
        denom = np.bincount(pc.i, t, m) + np.bincount(pc.j, t, m)
        new = wins / denom
        new /= new.sum()
        if np.max(np.abs(new - s)) < tol:
            s = new
            break
        s = new
    return s


#: Distinct cell means above which numpy's sampler draws the Poisson counts instead.
_MAX_TABLES = 2048
#: Buckets of a Poisson table: a draw is 14 random bits and one lookup in 32 KB.
_BUCKET_BITS = 14
#: The bucket holds a point of the CDF: the draw takes more random bits (flag bit).
_REFINE = 0x8000
#: Replicates whose surplus items are removed per transposed block (a block of rows
#: stays in cache while each is searched).
_OVER_BLOCK = 64


def _poisson_cdf(lam: float) -> np.ndarray:
    """CDF of Poisson(lam) up to 12 SD past the mean (the tail beyond is below 1e-30)."""
    width = int(lam + 12.0 * math.sqrt(lam) + 40.0)
    k = np.arange(width, dtype=np.float64)
    if lam == 0:
        return np.ones(width)
    log_fact = np.concatenate([[0.0], np.cumsum(np.log(k[1:]))])
    cdf = np.minimum(np.cumsum(np.exp(k * math.log(lam) - lam - log_fact)), 1.0)
    cdf[-1] = 1.0
    return np.asarray(cdf)


def _bucket_table(cdf: np.ndarray) -> np.ndarray:
    """For each of 2**_BUCKET_BITS equal slices of [0, 1), the Poisson value of every u in
    it, or (flagged) the value at its start when a CDF point falls inside the slice."""
    q = 1 << _BUCKET_BITS
    scaled = cdf * q  # exact: q is a power of two
    slot = np.floor(scaled).astype(np.int64)
    # below[s] = #{k : cdf[k] < (s + 1) / q}; at[s] = #{k : cdf[k] == s / q}
    below = np.cumsum(np.bincount(slot, minlength=q + 1))[:q]
    at = np.bincount(slot[scaled == slot], minlength=q + 1)[:q]
    lo = np.concatenate([[0], below[:-1]]) + at  # k(u) = #{k : cdf[k] <= u} at u = s / q
    return np.where(below == lo, lo, lo | _REFINE).astype(np.uint16)


def poisson_counts(lam: np.ndarray, rng: np.random.Generator, size: int) -> np.ndarray:
    """(size, K) independent Poisson draws with means ``lam`` (exact, seeded).

    Inversion: cells share few distinct means (counts), and for each mean a
    table over 2**14 slices of [0, 1) gives the value of a uniform u from its
    first 14 bits, unless a point of the CDF falls inside u's slice (a few per
    cent of draws), where u gets 53 more bits and the CDF is searched. This is
    the inverse-CDF draw of u exactly, at a fraction of the cost of numpy's
    rejection sampler per draw.

    Means up to 20,000 give uint16 counts (every value fits, and half the memory
    traffic of wider ones); larger or too many distinct means, numpy's int64 draws.
    """
    lam = np.asarray(lam, dtype=np.float64)
    uniq, row = np.unique(lam, return_inverse=True)
    if not len(lam) or len(uniq) > _MAX_TABLES or uniq.max() > 20_000:
        return rng.poisson(lam, size=(size, len(lam)))
    # Rows are filled in order of their mean (contiguous slices, not scattered rows),
    # then put back in cell order with one copy of whole rows.
    by_mean = np.empty((len(lam), size), dtype=np.uint16)
    order = np.argsort(row.reshape(-1), kind="stable")
    starts = np.searchsorted(row.reshape(-1)[order], np.arange(len(uniq) + 1))
    nq = 1 << _BUCKET_BITS
    # The uniform's first bits come straight from the bit generator, four 16-bit draws
    # per 64-bit word; the table is repeated over all 16 bits, so the two bits above
    # the 14 that a slice needs select nothing and no masking pass is needed.
    reps = 1 << (16 - _BUCKET_BITS)
    for d, value in enumerate(uniq.tolist()):
        cdf = _poisson_cdf(value)
        n_draw = int(starts[d + 1] - starts[d]) * size
        bits = rng.bit_generator.random_raw(-(-n_draw // 4)).view(np.uint16)[:n_draw]
        flat = by_mean[starts[d] : starts[d + 1]].reshape(-1)
        np.take(np.tile(_bucket_table(cdf), reps), bits, out=flat, mode="clip")  # all in range
        refine = np.flatnonzero(flat >= _REFINE)
        if len(refine):
            q = bits[refine] & np.uint16(nq - 1)
            u = (q + rng.random(len(refine))) / nq
            # One search, not steps from the slice's first value: the lowest slice holds
            # the whole left tail (dozens of CDF points below 2**-14).
            flat[refine] = np.searchsorted(cdf, u, side="right")
    out = np.empty_like(by_mean)  # returned transposed: rows are cells
    out[order] = by_mean
    return out.T


_LOW32 = np.int64((1 << 32) - 1)
#: Slices of [0, 1) of the guide table of :func:`_categorical`.
_GUIDE_BITS = 16


def _categorical(cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The cell of each uniform ``u`` under the cumulative shares ``cum``: the first k with
    ``cum[k] > u``, as ``np.searchsorted(cum, u, side="right")`` gives it.

    A guide table over 2**16 slices of [0, 1) gives the first candidate cell of each
    slice, and the few uniforms whose slice holds a point of ``cum`` step on from it,
    so a draw costs two lookups instead of a binary search through every cell."""
    g = 1 << _GUIDE_BITS
    guide = np.searchsorted(cum, np.arange(g) / g, side="right")
    k = guide[(u * g).astype(np.int64)]
    last = len(cum) - 1
    live = np.flatnonzero((cum[k] <= u) & (k < last))
    while len(live):
        k[live] += 1
        live = live[(cum[k[live]] <= u[live]) & (k[live] < last)]
    return k


def _distinct_positions(
    sizes: np.ndarray, picks: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """For each r, ``picks[r]`` distinct positions drawn uniformly from ``range(sizes[r])``.

    Returns sorted keys ``r << 32 | position`` and where each r's keys start (len + 1);
    a replicate holds far fewer than 2**32 battles (its counts are in memory).
    Positions are drawn with replacement and the repeats drawn again until none is
    left: the set kept is invariant under any relabelling of the positions, so each
    subset of the right size is equally likely, as without replacement."""
    rep = np.repeat(np.arange(len(sizes), dtype=np.int64), picks)
    keys = np.sort((rep << 32) | rng.integers(0, sizes[rep]))
    while True:
        dup = np.flatnonzero(keys[1:] == keys[:-1])
        if not len(dup):
            break
        again = keys[dup] >> 32
        keys = np.delete(keys, dup)
        keys = np.sort(np.concatenate([keys, (again << 32) | rng.integers(0, sizes[again])]))
    bounds = np.searchsorted(keys >> 32, np.arange(len(sizes) + 1))
    return keys, bounds


def multinomial_counts(cells: np.ndarray, rng: np.random.Generator, size: int) -> np.ndarray:
    """(size, K) exact multinomial draws of ``round(sum(cells))`` items over the cells.

    Poissonised: independent Poisson draws with means ``cells`` are, given
    their total t, multinomial with t items; each replicate then gets the
    missing items drawn from the cell shares, or loses a uniformly random
    subset of the surplus ones, which leaves it exactly multinomial with the
    full total (about sqrt(total) items per replicate are moved).
    """
    cells = np.asarray(cells, dtype=np.float64)
    total = int(round(float(cells.sum())))
    if total == 0 or not len(cells):
        return np.zeros((size, len(cells)), dtype=np.int64)
    share = cells / cells.sum()
    draws = poisson_counts(total * share, rng, size)
    cum = np.minimum(np.cumsum(share), 1.0)
    cum[-1] = 1.0
    by_cell = draws.T  # (cells, size), the contiguous layout of the draws
    totals = by_cell.sum(axis=0, dtype=np.int64)
    # Missing items, for every replicate at once: cells drawn from the shares.
    flat = by_cell.reshape(-1)
    short = np.flatnonzero(totals < total)
    if len(short):
        need = total - totals[short]
        cell = _categorical(cum, rng.random(int(need.sum())))
        where = cell * size + np.repeat(short, need)
        if int(flat.max()) + int(need.max()) > np.iinfo(flat.dtype).max:
            # Never in practice (a cell's count beyond 65,535): widen, keeping the layout.
            by_cell = np.ascontiguousarray(by_cell, dtype=np.int64)
            draws, flat = by_cell.T, by_cell.reshape(-1)
        np.add.at(flat, where, flat.dtype.type(1))  # of the array's type: numpy's fast path
    # Surplus items: a uniformly random subset of each replicate's items goes, located in
    # the replicate's running count over its cells. A block of replicates is transposed
    # into rows (one copy), and each row searched in turn while it is in cache.
    over = np.flatnonzero(totals > total)
    if len(over):
        keys, bounds = _distinct_positions(totals[over], totals[over] - total, rng)
        hits = []
        for c in range(0, len(over), _OVER_BLOCK):
            cols = over[c : c + _OVER_BLOCK]
            rows = np.ascontiguousarray(by_cell[:, cols].T)
            for k, (r, counts) in enumerate(zip(cols.tolist(), rows)):
                drop = keys[bounds[c + k] : bounds[c + k + 1]] & _LOW32
                at = np.searchsorted(np.cumsum(counts, dtype=np.int64), drop, side="right")
                hits.append(at * size + r)
        np.subtract.at(flat, np.concatenate(hits), flat.dtype.type(1))
    return draws


def _replicate_counts(
    pc: PairCounts, rng: np.random.Generator, size: int, ties: str
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial resamples of all battles over the (pair, outcome) cells.

    Returns (points, games), each (size, pairs): views of (pairs, size) arrays,
    the layout :func:`chord` works in."""
    cells = np.stack([pc.wins_i, pc.wins_j, pc.ties], axis=1).astype(np.float64).ravel()
    draws = np.ascontiguousarray(multinomial_counts(cells, rng, size).T).reshape(-1, 3, size)
    w_i, w_j, t = draws[:, 0], draws[:, 1], draws[:, 2]
    # Single precision holds every count exactly below 2**24 (and halves below 2**23).
    dtype = np.float32 if int(pc.n.max(initial=0)) < (1 << 22) else np.float64
    if ties == "half":
        games: np.ndarray = w_i.astype(dtype)
        games += w_j
        games += t
        score: np.ndarray = t.astype(dtype)
        score *= 0.5
        score += w_i
        return score.T, games.T
    played: np.ndarray = w_i.astype(dtype)
    played += w_j
    return w_i.astype(dtype).T, played.T


#: (cluster index, pair index, points, games) per (cluster, pair) cell, and the clusters.
ClusterCells = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]


def _cluster_counts(
    cluster_pc: ClusterCells,
    n_pairs: int,
    rng: np.random.Generator,
    size: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Resample clusters (questions) with replacement; sum their pair counts.

    ``cluster_pc`` is (cluster index, pair index, points, games) per
    (cluster, pair) cell, plus the number of clusters.
    """
    from scipy import sparse

    cl, pair, pts, gms, q = cluster_pc
    s_mat = sparse.csr_matrix((pts, (cl, pair)), shape=(q, n_pairs))
    n_mat = sparse.csr_matrix((gms, (cl, pair)), shape=(q, n_pairs))
    weights = rng.multinomial(q, np.full(q, 1.0 / q), size=size).astype(np.float64)
    return np.asarray((s_mat.T @ weights.T).T), np.asarray((n_mat.T @ weights.T).T)


@dataclass
class Ratings:
    """A Bradley–Terry fit with bootstrap intervals, on the Elo scale."""

    models: list[str]
    rating: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    battles: np.ndarray
    replicates: np.ndarray
    method: str
    confidence: float

    def order(self) -> np.ndarray:
        """Model indices from best to worst (ties broken by name)."""
        return np.array(
            sorted(range(len(self.models)), key=lambda k: (-self.rating[k], self.models[k])),
            dtype=np.int64,
        )


def bootstrap(
    pc: PairCounts,
    resamples: int = 1000,
    seed: int = 0,
    ties: str = "half",
    anchor: float = 1000.0,
    confidence: float = 0.95,
    clusters: ClusterCells | None = None,
    ridge: float = DEFAULT_RIDGE,
    chunk: int | None = None,
) -> Ratings:
    """Fit, then percentile intervals from seeded bootstrap replicates.

    Without ``clusters`` a replicate resamples battles (multinomial over the
    pair-outcome cells); with ``clusters`` (see :func:`_cluster_counts`) it
    resamples whole questions, which is right when battles on one question
    are repeated and therefore not independent.
    """
    m = pc.n_models
    beta = fit(pc, ties, ridge)
    info_inv = np.linalg.inv(information(pc.games(ties), pc.i, pc.j, m, beta, ridge))
    rng = np.random.default_rng(seed)
    if chunk is None:
        chunk = max(1, min(resamples, int(4e7 // max(m * m, 1))))
    reps = []
    done = 0
    while done < resamples:
        size = min(chunk, resamples - done)
        if clusters is None:
            s, n = _replicate_counts(pc, rng, size, ties)
        else:
            s, n = _cluster_counts(clusters, len(pc.i), rng, size)
        reps.append(solve_batch(s, n, pc.i, pc.j, m, beta, info_inv, ridge))
        done += size
    rep = to_elo(np.concatenate(reps, axis=0), anchor) if reps else np.empty((0, m))
    alpha = 1.0 - confidence
    if len(rep):
        lo, hi = np.quantile(rep, [alpha / 2, 1 - alpha / 2], axis=0)
    else:
        lo = hi = np.full(m, np.nan)
    return Ratings(
        models=list(pc.models),
        rating=to_elo(beta, anchor),
        ci_low=lo,
        ci_high=hi,
        battles=pc.battles_per_model(),
        replicates=rep,
        method="question-bootstrap" if clusters is not None else "battle-bootstrap",
        confidence=confidence,
    )


def online_elo(
    a: np.ndarray,
    b: np.ndarray,
    outcome: np.ndarray,
    m: int,
    orders: np.ndarray,
    k: float = 4.0,
    anchor: float = 1000.0,
) -> np.ndarray:
    """Sequential Elo updates for several orders of the same battles at once.

    ``orders`` is (S, N): S permutations of the battle indices. Returns (S, m)
    final ratings. The loop runs over battles; each step updates all S orders.
    """
    s_count, n = orders.shape
    r = np.full((s_count, m), anchor)
    rows = np.arange(s_count)
    score_a = np.where(outcome == 0, 1.0, np.where(outcome == 1, 0.0, 0.5))
    aa, bb, sa = a[orders], b[orders], score_a[orders]
    for t in range(n):
        ia, ib = aa[:, t], bb[:, t]
        ea = 1.0 / (1.0 + 10.0 ** ((r[rows, ib] - r[rows, ia]) / 400.0))
        delta = k * (sa[:, t] - ea)
        r[rows, ia] += delta
        r[rows, ib] -= delta
    return r


def order_sensitivity(
    a: np.ndarray,
    b: np.ndarray,
    outcome: np.ndarray,
    m: int,
    mle_rating: np.ndarray,
    shuffles: int = 20,
    seed: int = 0,
    k: float = 4.0,
    top: int = 3,
) -> dict[str, float]:
    """How often online Elo, fed the same battles in another order, changes the top ranks.

    Returns the share of seeded shuffles whose top-1 model differs from the
    maximum-likelihood fit, the share whose top-``top`` ordering differs, and
    the largest |online - MLE| rating gap (after centring both on the same mean).
    """
    rng = np.random.default_rng(seed)
    n = len(a)
    orders = np.stack([rng.permutation(n) for _ in range(shuffles)])
    r = online_elo(a, b, outcome, m, orders, k=k)
    r = r - r.mean(axis=1, keepdims=True) + mle_rating.mean()
    mle_order = np.argsort(-mle_rating, kind="stable")
    top = min(top, m)
    ranks = np.argsort(-r, axis=1, kind="stable")
    top1 = float(np.mean(ranks[:, 0] != mle_order[0]))
    topk = float(np.mean(np.any(ranks[:, :top] != mle_order[:top], axis=1)))
    return {
        "shuffles": shuffles,
        "k_factor": k,
        "top1_changed": top1,
        "topk_changed": topk,
        "top": top,
        "max_abs_gap": float(np.max(np.abs(r - mle_rating))),
    }
