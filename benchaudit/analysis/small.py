"""The analysis of :mod:`benchaudit.analysis.results` for a small 0/1 file, without numpy.

For :class:`~benchaudit.inputs._small_results.SmallResults` (0/1 scores, one row per
model x item, no clusters, seeds or points): per model the Wilson interval, per pair
of models the paired difference on their shared items with McNemar's exact test,
Holm's adjustment, the unpaired analysis, the minimum detectable effect and the
smallest reachable p, then rank ranges and the reporting table. Every number is
computed with the same floating-point operations in the same order as the numpy
analysis (sums of squares as numpy's pairwise summation adds them), so the report
is the same to the last digit; ``tests/test_small_analysis.py`` holds it to that.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.analysis.reporting import (
    baseline_rows,
    options,
    rank_order,
    setup_line,
)
from benchaudit.stats.multiple import holm
from benchaudit.stats.paired import mcnemar_exact, paired_diff_newcombe
from benchaudit.stats.proportions import wilson, z_for
from benchaudit.stats.special import norm_sf

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.inputs._small_results import SmallResults


@dataclass
class SmallAnalysis:
    """What :class:`benchaudit.analysis.results.Analysis` holds, for a small 0/1 file.

    There is no item matrix (``matrix`` is None); ``missing`` lists, per model, the
    items (codes) it has no row for."""

    path: str
    models: list[dict[str, Any]]
    comparisons: list[dict[str, Any]]
    baseline: list[dict[str, Any]]
    setup: dict[str, Any]
    missing: list[list[int]] = field(default_factory=list)
    matrix: None = None
    pairs: dict[str, Any] = field(default_factory=dict)
    seed_scores: dict[str, list[float]] = field(default_factory=dict)

    def model_row(self, name: str) -> dict[str, Any] | None:
        return next((r for r in self.models if r["model"] == name), None)


def analyse(rs: SmallResults, ctx: Context | None = None) -> SmallAnalysis:
    """The analysis of ``rs`` under the run's seed, resamples and alpha (cached on rs)."""
    settings = options(ctx)
    return rs.memo.get(("analysis", *settings), lambda: _analyse(rs, *settings))


def report_results(rs: SmallResults, ctx: Context | None = None) -> dict[str, Any]:
    a = analyse(rs, ctx)
    return {"models": a.models, "comparisons": a.comparisons, "baseline": a.baseline, "setup": [a.setup]}


def pairwise_sum(values: list[float], start: int = 0, n: int | None = None) -> float:
    """The sum of ``values[start:start + n]`` in the order numpy's float64 ``sum`` adds
    them (pairwise, blocks of up to 128 in eight running sums), so it is the same float."""
    if n is None:
        n = len(values) - start
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += values[i]
        return total
    if n <= 128:
        r = values[start : start + 8]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += values[start + i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for k in range(start + i, start + n):
            total += values[k]
        return total
    half = n // 2
    half -= half % 8
    return pairwise_sum(values, start, half) + pairwise_sum(values, start + half, n - half)


def std1(x: list[float]) -> float:
    """``numpy.std(x, ddof=1)`` of 0/1 floats (the mean's sum is exact)."""
    mean = sum(x) / len(x)
    return math.sqrt(pairwise_sum([(v - mean) * (v - mean) for v in x]) / (len(x) - 1))


def _cells(rs: SmallResults) -> list[dict[int, float]]:
    """Per model, item code -> score (one row per cell)."""
    cells: list[dict[int, float]] = [{} for _ in rs.models]
    for m, i, s in zip(rs.model.codes, rs.item.codes, rs.score):
        cells[m][i] = s
    return cells


def _model_rows(rs: SmallResults, cells: list[dict[int, float]], conf: float) -> list[dict[str, Any]]:
    rows = []
    for m, name in enumerate(rs.models):
        x = [cells[m][i] for i in sorted(cells[m])]  # in item order, as the matrix row
        n = len(x)
        row: dict[str, Any] = {"file": rs.path, "model": name, "n_items": n}
        if n == 0:
            rows.append({**row, "score": None, "ci_low": None, "ci_high": None, "ci_method": None})
            continue
        correct = int(sum(x))
        se = std1(x) / math.sqrt(n) if n > 1 else 0.0
        row.update(score=correct / n, ci_low=None, ci_high=None, ci_method=None, n_rows=n, se=se)
        lo, hi = wilson(correct, n, conf)
        row["correct"] = correct
        row.update(ci_low=float(lo), ci_high=float(hi), ci_method="wilson")
        rows.append(row)
    return rows


def _comparisons(
    rs: SmallResults, cells: list[dict[int, float]], alpha: float
) -> tuple[list[dict[str, Any]], list[tuple[int, int, float, float]]]:
    """The ``comparisons`` rows, and (a, b, diff, Holm p) of each for the rank ranges."""
    k = len(rs.models)
    z = z_for(1 - alpha)
    za, zb = z_for(1 - alpha), z_for(0.6)  # z_{1-a/2} and z_{0.8}
    computed = []
    for a in range(k):
        for b in range(a + 1, k):
            shared = cells[a].keys() & cells[b].keys()
            n = float(len(shared))
            if not n:
                continue
            sa = float(sum(cells[a][i] for i in shared))
            sb = float(sum(cells[b][i] for i in shared))
            xx = float(sum(cells[a][i] * cells[b][i] for i in shared))
            diff = (sa - sb) / n
            n10, n01 = sa - xx, sb - xx
            _, ci_low, ci_high = paired_diff_newcombe(int(xx), int(n10), int(n01), int(n - sa - sb + xx), 1 - alpha)
            pa_, pb_ = sa / n, sb / n
            va, vb = pa_ * (1 - pa_), pb_ * (1 - pb_)
            pooled = (pa_ + pb_) / 2
            se0 = math.sqrt(max(pooled * (1 - pooled), 0.0) * 2 / n)
            u_half = z * math.sqrt(max(va + vb, 0.0) / n)
            uz = (sa - sb) / n / se0 if se0 > 0 else 0.0
            disc = n10 + n01
            row = {
                "file": rs.path,
                "a": rs.models[a],
                "b": rs.models[b],
                "n_items": int(n),
                "diff": diff,
                "ci_low": ci_low,  # Newcombe's hybrid score interval,
                "ci_high": ci_high,  # as the numpy analysis gives it
                "p_value": mcnemar_exact(int(n10), int(n01)),
                "test": "mcnemar-exact",
                "p_adjusted": 1.0,
                "discordant": int(disc),
                "a_only": int(n10),
                "b_only": int(n01),
                "mde": (za + zb) * math.sqrt(disc / n) / math.sqrt(n),
                "p_floor": min(1.0, 2.0 * 0.5**disc),
                "unpaired_ci_low": max(-1.0, diff - u_half),
                "unpaired_ci_high": min(1.0, diff + u_half),
                "unpaired_p": min(1.0, 2.0 * norm_sf(abs(uz))),
            }
            computed.append((a, b, row))
    for (_, _, row), adjusted in zip(computed, holm([r["p_value"] for _, _, r in computed])):
        row["p_adjusted"] = adjusted
    pairs = [(a, b, row["diff"], row["p_adjusted"]) for a, b, row in computed]
    return [row for _, _, row in computed], pairs


def rank_groups(
    scores: list[float], pairs: list[tuple[int, int, float, float]], alpha: float
) -> list[dict[str, Any]]:
    """Rank ranges and tie groups as :func:`benchaudit.analysis.results.rank_groups`."""
    k = len(scores)
    better = [[False] * k for _ in range(k)]  # better[i][j]: i significantly above j
    for a, b, diff, p_adj in pairs:
        if p_adj < alpha and diff > 0:
            better[a][b] = True
        elif p_adj < alpha and diff < 0:
            better[b][a] = True
    beaten_by = [sum(better[i][j] for i in range(k)) for j in range(k)]
    beats = [sum(row) for row in better]
    return rank_order(scores, lambda top, i: better[top][i], beaten_by, beats)


def _analyse(
    rs: SmallResults, seed: int, resamples: int, alpha: float, baseline_model: str | None
) -> SmallAnalysis:
    conf = 1 - alpha
    cells = _cells(rs)
    models = _model_rows(rs, cells, conf)
    comps, pairs = _comparisons(rs, cells, alpha) if len(rs.models) > 1 else ([], [])
    scores = [r["score"] if r["score"] is not None else -math.inf for r in models]
    for r, extra in zip(models, rank_groups(scores, pairs, alpha)):
        r.update(extra)
    base = baseline_model if baseline_model in rs.models else rs.models[0]
    methods = sorted({r["ci_method"] for r in models if r["ci_method"]})
    setup = {
        "file": rs.path,
        "models": len(rs.models),
        "items": len(rs.items),
        "rows": rs.n_rows,
        "clusters": None,
        "samples_per_item": 1.0 if rs.n_rows else 0.0,
        "seeds": 1,
        "interval": ", ".join(methods),
        "paired_test": "mcnemar-exact" if comps else None,
        "resamples": None,
        "rng_seed": seed,
        "confidence": conf,
        "baseline": base,
    }
    setup["line"] = setup_line(setup)
    baseline = baseline_rows(rs.path, models, comps, base) if len(models) > 1 else []
    everything = range(len(rs.items))
    return SmallAnalysis(
        path=rs.path,
        models=models,
        comparisons=comps,
        baseline=baseline,
        setup=setup,
        missing=[[i for i in everything if i not in mine] for mine in cells],
    )


__all__ = ["SmallAnalysis", "analyse", "pairwise_sum", "rank_groups", "report_results", "std1"]
