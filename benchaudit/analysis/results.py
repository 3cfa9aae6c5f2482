"""Per-model intervals and all paired comparisons of one per-item result set.

For each model, the interval that fits the data: Wilson for 0/1 items, a
seeded bootstrap for graded or points-weighted items, a cluster bootstrap
(with the clustered SE and the design effect) when items share clusters, and
a t(k-1) interval over k seeds. For every pair of models on their shared
items: the paired difference with its interval, McNemar's exact test (0/1) or
the sign-flip permutation test (graded), Holm-adjusted p-values across all
pairs, the unpaired analysis beside it, the minimum detectable effect at the
observed discordance and the smallest p the design can reach. All pairs come
from a handful of matrix products, so 100 models x 100,000 items is cheap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from benchaudit.analysis.matrix import ItemMatrix, build
from benchaudit.analysis.pairs import Names, PairTable
from benchaudit.analysis.reporting import baseline_rows, options, rank_order, setup_line
from benchaudit.inputs.resultset import ResultSet
from benchaudit.progress import Progress
from benchaudit.stats import clustered as cl
from benchaudit.stats.crossed import two_way_interval
from benchaudit.stats.multiple import holm_array
from benchaudit.stats.paired import (
    mcnemar_exact_many,
    nonzero_diffs,
    normal_two_sided_many,
    paired_diff_newcombe_many,
    sign_flip_many,
    sign_flip_rows,
    sign_flip_test,
)
from benchaudit.stats.proportions import wilson, z_for
from benchaudit.stats.special import norm_sf
from benchaudit.stats.student import t_interval, t_quantile

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.finding import Section

#: Above this many non-zero differences x resamples a graded pair uses the
#: paired z-test instead of the sign-flip test (the two agree at that size).
PERMUTATION_BUDGET = 20_000_000

#: Resampling work (resamples x cells) above which a progress bar is drawn (about a second).
SLOW = 300_000_000

#: Resampling work above which all pairs (or all models) share their resamples. Below
#: it each pair and model draws its own, as a lone comparison would; above it the
#: shared draws turn thousands of pair-by-pair loops into a few matrix products.
SHARED_WORK = 200_000_000


@dataclass
class Analysis:
    """What the report and the rules read: rows for ``results`` plus the matrix."""

    path: str
    matrix: ItemMatrix
    models: list[dict[str, Any]]
    comparisons: PairTable
    baseline: list[dict[str, Any]]
    setup: dict[str, Any]
    pairs: dict[str, np.ndarray] = field(default_factory=dict)
    seed_scores: dict[str, list[float]] = field(default_factory=dict)

    def model_row(self, name: str) -> dict[str, Any] | None:
        return next((r for r in self.models if r["model"] == name), None)


def analyse(rs: ResultSet, ctx: Context | None = None) -> Analysis:
    """The analysis of ``rs`` under the run's seed, resamples and alpha (cached on rs).

    A small file held without numpy (:class:`~benchaudit.inputs._small_results.SmallResults`)
    is analysed as the ResultSet it stands for (the rules read it without numpy instead)."""
    if getattr(rs, "numpy_free", False):
        rs = rs.memo.get("resultset", rs.to_resultset)  # type: ignore[attr-defined]
    settings = options(ctx)
    return rs.memo.get(("analysis", *settings), lambda: _analyse(rs, *settings))


def report_results(rs: ResultSet, ctx: Context | None = None) -> dict[str, Section]:
    a = analyse(rs, ctx)
    out: dict[str, Section] = {
        "models": a.models,
        "comparisons": a.comparisons,
        "baseline": a.baseline,
        "setup": [a.setup],
    }
    cfg = getattr(ctx, "config", None)
    options = cfg.rule_options("calibration-bins") if cfg is not None else {}
    calibration = calibration_rows(rs, options)
    if calibration:
        out["calibration"] = calibration
    return out


def calibration_rows(rs: ResultSet, options: dict[str, Any]) -> list[dict[str, Any]]:
    """ECE, MCE and Brier per model of 0/1 results with a confidence column (cached)."""
    conf = getattr(rs, "confidence", None)
    if conf is None or not rs.binary:
        return []
    from benchaudit.inputs.calibration import binning_options
    from benchaudit.stats.calibration import summarise

    n_bins, binning = binning_options(options)

    def compute() -> list[dict[str, Any]]:
        rows = []
        for code, model in enumerate(rs.models):
            mask = (rs.model.codes == code) & np.isfinite(conf) & (conf >= 0) & (conf <= 1)
            if not mask.any():
                continue
            s = summarise(conf[mask], rs.score[mask], n_bins, binning)
            fields = ("ece", "bins", "binning", "mce", "brier", "accuracy", "n_items")
            rows.append(
                {
                    "file": rs.path,
                    "model": model,
                    **{f: getattr(s, f) for f in fields},
                    "mean_confidence": s.mean_confidence,
                }
            )
        return rows

    return rs.memo.get(("calibration", n_bins, binning), compute)


# --- per model -------------------------------------------------------------------------


def _seed_values(rs: ResultSet) -> list[ItemMatrix] | None:
    if rs.seed is None or len(rs.seed.labels) < 2:
        return None
    return [build(rs, rs.seed.codes == s) for s in range(len(rs.seed.labels))]


def _model_rows(
    rs: ResultSet,
    mx: ItemMatrix,
    seeds: list[ItemMatrix] | None,
    seed: int,
    resamples: int,
    conf: float,
) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    rows = []
    seed_scores: dict[str, list[float]] = {}
    binary = mx.binary_rows()
    row_counts = mx.rows.sum(axis=1, dtype=np.int64)
    shared_boot = _shared_bootstrap(mx, binary, seeds, resamples, conf, seed)
    for m, name in enumerate(rs.models):
        mask = mx.present[m]
        n = int(mask.sum())
        x = (mx.value[m] if n == mx.n_items else mx.value[m, mask]).astype(np.float64)
        row: dict[str, Any] = {"file": rs.path, "model": name, "n_items": n}
        if n == 0:
            rows.append({**row, "score": None, "ci_low": None, "ci_high": None, "ci_method": None})
            continue
        if mx.weighted:
            pts, mxp = mx.weights(m, mask)
            score = float(pts.sum() / mxp.sum())
        else:
            score = float(x.mean())
        se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        if mx.weighted:
            se = se * float(mx.weight_scale * n / mx.weights(m, mask)[1].sum())
        row.update(
            score=score, ci_low=None, ci_high=None, ci_method=None, n_rows=int(row_counts[m]), se=se
        )
        per_item = mx.rows[m] if n == mx.n_items else mx.rows[m, mask]
        # One row per seed is a seed's run of the item, not a generation (seeds are seeds).
        if per_item.max() > (len(rs.seed.labels) if rs.seed is not None else 1):
            row["samples_per_item"] = float(per_item.mean())
        clusters = None
        if mx.item_cluster is not None:
            clusters = mx.item_cluster[mask]
            g = int(np.unique(clusters).size)
            cse = cl.clustered_se(x, clusters, small_sample=True) if g > 1 else float("nan")
            row.update(
                n_clusters=g,
                clustered_se=cse
                * (1 if not mx.weighted else mx.weight_scale * n / mx.weights(m, mask)[1].sum()),
                design_effect=cl.design_effect(x, clusters),
            )
        if seeds is not None:
            per_seed = []
            item_ses = []
            for sm in seeds:
                sk = sm.present[m]
                if sk.any():
                    xs = sm.value[m, sk]
                    per_seed.append(float(xs.mean()))
                    item_ses.append(
                        float(xs.std(ddof=1) / math.sqrt(xs.size)) if xs.size > 1 else 0.0
                    )
            seed_scores[name] = per_seed
            row["seeds"] = len(per_seed)
            if len(per_seed) >= 2:
                mean, lo, hi, sd = t_interval(per_seed, conf)
                row.update(
                    score=mean,
                    ci_low=lo,
                    ci_high=hi,
                    ci_method="t-over-seeds",
                    seed_sd=sd,
                    item_se=float(np.mean(item_ses)),
                )
                grid = _items_by_seeds(seeds, m)
                if grid is not None:
                    # Items and seeds are both samples: the interval counts both.
                    two = two_way_interval(grid, conf)
                    row.update(
                        score=two.mean,
                        ci_low=two.ci_low,
                        ci_high=two.ci_high,
                        ci_method="items-and-seeds",
                        se=two.se,
                        item_part_se=math.sqrt(two.item_part),
                        seed_part_se=math.sqrt(two.seed_part),
                        df=two.df,
                    )
                rows.append(row)
                continue
        if clusters is not None and row["n_clusters"] > 1:
            w = mx.weights(m, mask)[1] if mx.weighted else None
            v = mx.weights(m, mask)[0] if mx.weighted else x
            lo, hi = cl.cluster_bootstrap_ci(v, clusters, resamples, conf, seed, weights=w)
            method = "cluster-bootstrap"
        elif mx.weighted:
            pts, mxp = mx.weights(m, mask)
            lo, hi = cl.cluster_bootstrap_ci(
                pts,
                np.arange(n),
                resamples,
                conf,
                seed,
                weights=mxp,
            )
            method = "bootstrap"
        elif binary[m]:
            lo, hi = wilson(int(round(x.sum())), n, conf)
            row["correct"] = int(round(x.sum()))
            method = "wilson"
        elif n == mx.n_items and shared_boot is not None:
            lo, hi = shared_boot[0][m], shared_boot[1][m]
            method = "bootstrap"
        else:
            lo, hi = cl.bootstrap_mean_ci(x, resamples, conf, seed)
            method = "bootstrap"
        row.update(ci_low=float(lo), ci_high=float(hi), ci_method=method)
        rows.append(row)
    return rows, seed_scores


def _items_by_seeds(seeds: list[ItemMatrix], m: int) -> np.ndarray | None:
    """Model m's items x seeds matrix over the items every seed scored (None if < 2)."""
    present = np.logical_and.reduce([sm.present[m] for sm in seeds])
    if present.sum() < 2:
        return None
    return np.stack([sm.value[m, present] for sm in seeds], axis=1).astype(np.float64)


def _shared_bootstrap(
    mx: ItemMatrix,
    binary: np.ndarray,
    seeds: list[ItemMatrix] | None,
    resamples: int,
    conf: float,
    seed: int,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """Bootstrap bounds of every graded model that has all items, in one pass.

    Only for the plain case (no clusters, points or seeds); the models share
    their resampled item sets, one matrix product per chunk of replicates.
    """
    if mx.item_cluster is not None or mx.weighted or seeds is not None:
        return None
    full = mx.present.all(axis=1) & ~binary
    if full.sum() < 2:
        return None
    rows = np.flatnonzero(full)
    if resamples * mx.n_items * rows.size <= SHARED_WORK:
        return None  # cheap enough model by model
    lo = np.full(mx.n_models, np.nan)
    hi = np.full(mx.n_models, np.nan)
    work = resamples * mx.n_items * rows.size
    with Progress(resamples, "bootstrap intervals", enabled=None if work > SLOW else False) as bar:
        lo[rows], hi[rows] = cl.bootstrap_means_ci(
            mx.value[rows], resamples, conf, seed, progress=bar.update
        )
    return lo, hi


# --- pairs -------------------------------------------------------------------------------


def _pair_matrices(mx: ItemMatrix) -> dict[str, np.ndarray]:
    """Shared-item sums for every ordered pair of models.

    ``n[a, b]`` counts items both have, ``sa[a, b]`` sums a's scores on them and
    ``xx[a, b]`` sums the products (for 0/1 scores: items both got right); graded
    scores add ``qa`` (a's squares on shared items). 0/1 matrices are bit-packed
    and counted with popcounts, 64 items per machine word; graded ones use
    matrix products.
    """
    binary = bool(mx.binary_rows().all())
    if binary:
        out = _popcount_pairs(mx.value, mx.present)
    else:
        x = mx.value.astype(np.float64, copy=False)
        p = mx.present.astype(np.float64)
        out = {"n": p @ p.T, "sa": x @ p.T, "xx": x @ x.T, "qa": (x * x) @ p.T}
    out["binary"] = np.array(binary)
    return out


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set bits per row of a uint64 matrix, summed along the last axis."""
    count = getattr(np, "bitwise_count", None)  # numpy >= 2.0
    total: npt.NDArray[np.int64]
    if count is not None:
        total = count(words).sum(axis=-1, dtype=np.int64)
        return total
    as_bytes = words.view(np.uint8)
    table = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)
    total = table[as_bytes].sum(axis=-1, dtype=np.int64)
    return total


def _pack(bits: np.ndarray) -> np.ndarray:
    """Rows of booleans packed into uint64 words (zero padded)."""
    packed = np.packbits(bits, axis=1)
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    return packed.view(np.uint64)


def _popcount_pairs(value: np.ndarray, present: np.ndarray) -> dict[str, np.ndarray]:
    k = value.shape[0]
    xb = _pack(value > 0.5)
    pb = _pack(present)
    full = bool(present.all())
    n = np.empty((k, k))
    sa = np.empty((k, k))
    xx = np.empty((k, k))
    ones = _popcount(xb)
    for a in range(k):
        xx[a] = _popcount(xb[a] & xb)
        if full:
            n[a] = present.shape[1]
            sa[a] = ones[a]
        else:
            n[a] = _popcount(pb[a] & pb)
            sa[a] = _popcount(xb[a] & pb)
    return {"n": n, "sa": sa, "xx": xx}


def _comparisons(
    rs: ResultSet, mx: ItemMatrix, seed: int, resamples: int, alpha: float
) -> tuple[PairTable, dict[str, np.ndarray]]:
    k = mx.n_models
    if k < 2:
        return PairTable(), {}
    pm = _pair_matrices(mx)
    ia, ib = np.triu_indices(k, 1)
    n = pm["n"][ia, ib]
    sa = pm["sa"][ia, ib]
    sb = pm["sa"][ib, ia]
    xx = pm["xx"][ia, ib]
    binary = bool(pm["binary"])
    conf = 1 - alpha
    z = z_for(conf)
    ok = n > 0
    nn = np.maximum(n, 1)
    diff = (sa - sb) / nn
    if binary:
        n10 = np.rint(sa - xx)
        n01 = np.rint(sb - xx)
        sum_d2 = n10 + n01
    else:
        qa = pm["qa"][ia, ib]
        qb = pm["qa"][ib, ia]
        sum_d2 = qa + qb - 2 * xx
    var_d = np.where(n > 1, (sum_d2 - nn * diff * diff) / np.maximum(n - 1, 1), 0.0)
    half = z * np.sqrt(np.maximum(var_d, 0.0) / nn)
    # Unpaired: each model's mean on the shared items, as two separate samples.
    pa_, pb_ = sa / nn, sb / nn
    if binary:
        va, vb = pa_ * (1 - pa_), pb_ * (1 - pb_)
        pooled = (pa_ + pb_) / 2
        se0 = np.sqrt(np.maximum(pooled * (1 - pooled), 0.0) * 2 / nn)
    else:
        qa_, qb_ = pm["qa"][ia, ib], pm["qa"][ib, ia]
        va = np.maximum(qa_ - nn * pa_ * pa_, 0.0) / np.maximum(n - 1, 1)
        vb = np.maximum(qb_ - nn * pb_ * pb_, 0.0) / np.maximum(n - 1, 1)
        se0 = np.sqrt((va + vb) / nn)
    u_half = z * np.sqrt(np.maximum(va + vb, 0.0) / nn)
    with np.errstate(divide="ignore", invalid="ignore"):
        uz = np.where(se0 > 0, (sa - sb) / nn / se0, 0.0)
    u_p = normal_two_sided_many(uz)
    za, zb = z_for(1 - alpha), z_for(0.6)  # z_{1-a/2} and z_{0.8}
    both01 = np.zeros(0, dtype=np.int64)  # 0/1 pairs of a graded matrix
    if binary:
        disc = n10 + n01
        p = mcnemar_exact_many(n10, n01)
        test = np.full(ia.size, "mcnemar-exact", dtype=object)
        floor = np.minimum(1.0, 2.0 * 0.5**disc)
        mde = (za + zb) * np.sqrt(disc / nn) / np.sqrt(nn)
    else:
        p, test, floor, disc = _graded_tests(mx, ia, ib, diff, var_d, nn, seed, resamples)
        mde = (za + zb) * np.sqrt(np.maximum(var_d, 0.0) / nn)
        # Two 0/1 runs beside a graded one (a run with epochs): their pair is still
        # McNemar's exact test, as it is when the two are given alone.
        rows01 = mx.binary_rows()
        both01 = np.flatnonzero(rows01[ia] & rows01[ib])
        if both01.size:
            xx01 = pm["xx"][ia, ib][both01]
            m10 = np.rint(sa[both01] - xx01)
            m01 = np.rint(sb[both01] - xx01)
            p[both01] = mcnemar_exact_many(m10, m01)
            test[both01] = "mcnemar-exact"
            floor[both01] = np.minimum(1.0, 2.0 * 0.5 ** (m10 + m01))
    clustered = None
    if mx.item_cluster is not None:
        # Items of one cluster move together: the test and the interval are at the
        # cluster level, the item-level test is kept beside them.
        clustered = _cluster_pairs(mx, ia, ib, diff, sum_d2, nn, seed, resamples, alpha)
        item_p = p
        p, floor, half = clustered["p"], clustered["floor"], clustered["half"]
        test = np.full(ia.size, "cluster-sign-flip", dtype=object)
        mde = mde * np.sqrt(np.maximum(clustered["design_effect"], 1.0))
    # The interval: Newcombe's hybrid score interval for 0/1 items (it agrees with
    # McNemar's exact test where the normal one on few discordant items does not),
    # the normal interval on the per-item differences for graded ones, the
    # cluster-level one with clusters.
    if binary and clustered is None:
        ci_lo, ci_hi = paired_diff_newcombe_many(xx, n10, n01, n - sa - sb + xx, conf)
    else:
        ci_lo, ci_hi = np.maximum(diff - half, -1.0), np.minimum(diff + half, 1.0)
        if clustered is None and both01.size:
            # Two 0/1 runs beside a graded one: the interval they get when given alone.
            j = both01
            x1 = pm["xx"][ia, ib][j]
            ci_lo[j], ci_hi[j] = paired_diff_newcombe_many(
                x1, np.rint(sa[j] - x1), np.rint(sb[j] - x1), n[j] - sa[j] - sb[j] + x1, conf
            )
    p = np.where(ok, p, 1.0)
    p_adj = holm_array(p[ok]) if ok.any() else np.array([])
    adj = np.ones_like(p)
    adj[ok] = p_adj
    pairs = {
        "ia": ia,
        "ib": ib,
        "n": n,
        "diff": diff,
        "half": half,
        "p": p,
        "p_adj": adj,
        "disc": disc,
        "mde": mde,
        "floor": floor,
    }
    extra = {"test": test, "u_half": u_half, "u_p": u_p, "ci_lo": ci_lo, "ci_hi": ci_hi}
    if binary:
        extra.update(n10=n10, n01=n01)
    if clustered is not None:
        extra.update(item_p=item_p, **{f"cluster_{k}": v for k, v in clustered.items()})
    return _pair_table(rs, ok, binary, {**pairs, **extra}), pairs


def _pair_table(rs: ResultSet, ok: np.ndarray, binary: bool, v: dict[str, Any]) -> PairTable:
    """The ``comparisons`` rows of the pairs with shared items, as columns.

    The fields and their order are those of one dict per pair (the JSON shape);
    ``v`` holds the per-pair arrays computed by :func:`_comparisons`.
    """
    keep = np.flatnonzero(ok)
    names = rs.models
    ia, ib = v["ia"], v["ib"]

    every = keep.size == ok.size

    def col(x: Any, dtype: npt.DTypeLike = np.float64) -> np.ndarray:
        a = np.asarray(x)
        return a.astype(dtype, copy=False) if every else a[keep].astype(dtype)

    diff, u_half = col(v["diff"]), col(v["u_half"])
    fields: list[tuple[str, Any]] = [
        ("file", rs.path),
        ("a", Names(names, col(ia, np.int32))),
        ("b", Names(names, col(ib, np.int32))),
        ("n_items", col(v["n"], np.int64)),
        ("diff", diff),
        ("ci_low", col(v["ci_lo"])),
        ("ci_high", col(v["ci_hi"])),
        ("p_value", col(v["p"])),
        ("test", _one_or_many(np.asarray(v["test"])[keep])),
        ("p_adjusted", col(v["p_adj"])),
    ]
    if binary:
        fields += [
            ("discordant", col(v["disc"], np.int64)),
            ("a_only", col(v["n10"], np.int64)),
            ("b_only", col(v["n01"], np.int64)),
        ]
    fields += [
        ("mde", col(v["mde"])),
        ("p_floor", col(v["floor"])),
        ("unpaired_ci_low", np.maximum(diff - u_half, -1.0)),
        ("unpaired_ci_high", np.minimum(diff + u_half, 1.0)),
        ("unpaired_p", col(v["u_p"])),
    ]
    if "item_p" in v:
        fields += [
            ("n_clusters", col(v["cluster_clusters"], np.int64)),
            ("clusters_differing", col(v["cluster_differing"], np.int64)),
            ("design_effect", col(v["cluster_design_effect"])),
            ("p_item_level", col(v["item_p"])),
            ("item_level_test", "mcnemar-exact" if binary else "sign-flip-permutation"),
        ]
    if not binary:
        fields.append(("nonzero_diffs", col(v["disc"], np.int64)))
    return PairTable.of(fields, keep.size)


def _one_or_many(values: np.ndarray) -> Any:
    """A constant when every pair ran the same test (the usual case), else the column."""
    if values.size and all(values[0] == x for x in set(values.tolist())):
        return str(values[0])
    return values.astype(str).astype(object)


def _cluster_pairs(
    mx: ItemMatrix,
    ia: np.ndarray,
    ib: np.ndarray,
    diff: np.ndarray,
    sum_d2: np.ndarray,
    nn: np.ndarray,
    seed: int,
    resamples: int,
    alpha: float,
) -> dict[str, np.ndarray]:
    """Cluster-level sign-flip test, clustered interval and design effect of every pair.

    Each pair's per-item differences are summed within clusters; under the null
    every cluster total is as likely negative as positive, so the test flips whole
    clusters (exactly, over all 2^G sign vectors, when G is small). The interval is
    the mean difference +- t(G-1) times its cluster-robust SE (with the G/(G-1)
    factor); the design effect is that variance, uncorrected, over the naive one.
    """
    assert mx.item_cluster is not None  # called for a matrix with clusters only
    codes = mx.item_cluster.astype(np.int64).copy()
    lone = codes < 0  # an item without a cluster is a cluster of its own
    codes[lone] = codes.max(initial=-1) + 1 + np.arange(int(lone.sum()))
    _, codes = np.unique(codes, return_inverse=True)
    g_all = int(codes.max()) + 1
    size = ia.size
    if mx.present.all():
        x = mx.value.astype(np.float64, copy=False)
        sums = np.stack(
            [np.bincount(codes, weights=x[m], minlength=g_all) for m in range(x.shape[0])]
        )
        totals = sums[ia] - sums[ib]
        sizes = np.broadcast_to(
            np.bincount(codes, minlength=g_all).astype(np.float64), totals.shape
        )
    else:
        totals = np.zeros((size, g_all))
        sizes = np.zeros((size, g_all))
        for j in range(size):
            both = mx.present[ia[j]] & mx.present[ib[j]]
            d = mx.value[ia[j], both] - mx.value[ib[j], both]
            totals[j] = np.bincount(codes[both], weights=d, minlength=g_all)
            sizes[j] = np.bincount(codes[both], minlength=g_all)
    clusters = (sizes > 0).sum(axis=1)
    p, floor = sign_flip_rows(totals, resamples, seed)
    resid = totals - sizes * diff[:, None]
    ss = (resid * resid).sum(axis=1)
    naive_var = np.maximum(sum_d2 / nn - diff * diff, 0.0) / nn  # ddof 0, as clustered_se
    clustered_var = ss / (nn * nn)
    with np.errstate(divide="ignore", invalid="ignore"):
        de = np.where(naive_var > 0, clustered_var / naive_var, 1.0)
    g = np.maximum(clusters, 2)
    se = np.sqrt(clustered_var * g / (g - 1))
    t = np.array([t_quantile(1 - alpha, int(k) - 1) for k in g])
    return {
        "p": p,
        "floor": floor,
        "half": t * se,
        "design_effect": de,
        "clusters": clusters,
        "differing": np.count_nonzero(np.abs(totals) > 1e-12, axis=1),
    }


def _graded_tests(
    mx: ItemMatrix,
    ia: np.ndarray,
    ib: np.ndarray,
    diff: np.ndarray,
    var_d: np.ndarray,
    nn: np.ndarray,
    seed: int,
    resamples: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sign-flip tests for graded pairs (paired z above the permutation budget).

    On a complete matrix with much work every pair shares one set of sign vectors
    (:func:`sign_flip_many`), one matrix product per chunk of resamples for all
    pairs; otherwise pairs are tested one by one.
    """
    size = ia.size
    p = np.ones(size)
    test = np.empty(size, dtype=object)
    floor = np.ones(size)
    full = bool(mx.present.all())
    disc = nonzero_diffs(mx.value, ia, ib).astype(np.float64) if full else np.zeros(size)
    if not full:
        for j in range(size):
            both = mx.present[ia[j]] & mx.present[ib[j]]
            disc[j] = np.count_nonzero(mx.value[ia[j], both] - mx.value[ib[j], both])
    exact = disc * resamples <= PERMUTATION_BUDGET
    perm = np.flatnonzero(exact)
    if perm.size and full and float(disc[perm].sum()) * resamples > SHARED_WORK:
        work = resamples * (mx.value.size + perm.size)
        with Progress(resamples, "sign-flip tests", enabled=None if work > SLOW else False) as bar:
            p[perm] = sign_flip_many(
                mx.value, ia[perm], ib[perm], resamples, seed, progress=bar.update
            )
    else:
        for j in perm.tolist():
            both = mx.present[ia[j]] & mx.present[ib[j]]
            p[j] = sign_flip_test(
                mx.value[ia[j], both] - mx.value[ib[j], both], resamples, seed + j
            )
    test[perm] = "sign-flip-permutation"
    floor[perm] = np.maximum(np.minimum(1.0, 2.0 * 0.5 ** disc[perm]), 1.0 / (resamples + 1))
    for j in np.flatnonzero(~exact).tolist():
        se = math.sqrt(max(var_d[j], 0.0) / nn[j])
        p[j] = 1.0 if se == 0 else float(min(1.0, 2.0 * norm_sf(abs(diff[j]) / se)))
        test[j] = "paired-z"
        floor[j] = 0.0
    return p, test, floor, disc


# --- ranks and the reporting table ------------------------------------------------------


def rank_groups(
    scores: list[float], k: int, pairs: dict[str, np.ndarray], alpha: float
) -> list[dict[str, Any]]:
    """Rank ranges from the Holm-adjusted pairwise tests, and groups the data cannot order."""
    better = np.zeros((k, k), dtype=bool)  # better[i, j]: i significantly above j
    if pairs:
        sig = pairs["p_adj"] < alpha
        up, down = sig & (pairs["diff"] > 0), sig & (pairs["diff"] < 0)
        better[pairs["ia"][up], pairs["ib"][up]] = True
        better[pairs["ib"][down], pairs["ia"][down]] = True
    beaten_by = better.sum(axis=0).tolist()  # models significantly above each one
    beats = better.sum(axis=1).tolist()
    return rank_order(scores, lambda top, i: bool(better[top, i]), beaten_by, beats)


def _baseline_rows(
    rs: ResultSet, models: list[dict[str, Any]], comps: PairTable, base: str
) -> list[dict[str, Any]]:
    return baseline_rows(rs.path, models, comps.rows(np.flatnonzero(comps.involves(base))), base)


def _with_task(row: dict[str, Any], task: Any) -> dict[str, Any]:
    return {"file": row["file"], "task": str(task), **row}


def _analyse(
    rs: ResultSet, seed: int, resamples: int, alpha: float, baseline_model: str | None
) -> Analysis:
    conf = 1 - alpha
    mx = build(rs)
    seeds = _seed_values(rs)
    models, seed_scores = _model_rows(rs, mx, seeds, seed, resamples, conf)
    comps, pairs = _comparisons(rs, mx, seed, resamples, alpha)
    scores = [r["score"] if r["score"] is not None else -math.inf for r in models]
    for r, extra in zip(models, rank_groups(scores, len(models), pairs, alpha)):
        r.update(extra)
    base = baseline_model if baseline_model in rs.models else rs.models[0]
    methods = sorted({r["ci_method"] for r in models if r["ci_method"]})
    per_item = mx.rows[mx.present]
    setup = {
        "file": rs.path,
        "models": len(rs.models),
        "items": mx.n_items,
        "rows": rs.n_rows,
        "clusters": int(np.unique(mx.item_cluster[mx.item_cluster >= 0]).size)
        if mx.item_cluster is not None
        else None,
        # Rows per item per seed: a seeded run of one row per item is 1 sample per item.
        "samples_per_item": float(per_item.mean()) / (len(rs.seed.labels) if rs.seed is not None else 1)
        if per_item.size
        else 0.0,
        "seeds": len(rs.seed.labels) if rs.seed is not None else 1,
        "interval": ", ".join(methods),
        "paired_test": ", ".join(comps.distinct("test")) or None,
        "resamples": resamples
        if any(m != "wilson" for m in methods) or not bool(mx.binary_rows().all())
        else None,
        "rng_seed": seed,
        "confidence": conf,
        "baseline": base,
    }
    setup["line"] = setup_line(setup)
    baseline = _baseline_rows(rs, models, comps, base) if len(models) > 1 else []
    task = rs.meta.get("task")
    if task:
        # Harness outputs name their task: rows of several tasks stay apart in a report.
        models, baseline = ([_with_task(r, task) for r in rows] for rows in (models, baseline))
        comps = comps.with_constant("file", "task", str(task))
        setup = _with_task(setup, task)
    return Analysis(
        path=rs.path,
        matrix=mx,
        models=models,
        comparisons=comps,
        baseline=baseline,
        setup=setup,
        pairs=pairs,
        seed_scores=seed_scores,
    )
