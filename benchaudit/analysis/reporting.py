"""The parts of the per-item analysis that need no numpy: run settings, rank order,
the reporting table against the baseline model and the setup sentence. Shared by
:mod:`benchaudit.analysis.results` and its numpy-free twin :mod:`benchaudit.analysis.small`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.engine import Context


def options(ctx: Context | None) -> tuple[int, int, float, str | None]:
    cfg = getattr(ctx, "config", None)
    return (
        int(getattr(cfg, "seed", 0) or 0),
        int(getattr(cfg, "resamples", 10000) or 10000),
        float(getattr(cfg, "alpha", 0.05) or 0.05),
        getattr(cfg, "baseline_model", None),
    )


def rank_order(
    scores: list[float],
    better: Callable[[int, int], bool],
    beaten_by: list[int],
    beats: list[int],
) -> list[dict[str, Any]]:
    """Per model its rank, rank range and tie group; ``better(i, j)``: i is significantly
    above j, ``beaten_by[i]`` / ``beats[i]``: how many models are above / below i."""
    k = len(scores)
    order = sorted(range(k), key=lambda i: (-scores[i], i))
    out: list[dict[str, Any]] = [{} for _ in range(k)]
    group, top = 0, None
    for rank, i in enumerate(order, start=1):
        if top is None or better(top, i):
            group += 1
            top = i
        out[i] = {
            "rank": rank,
            "rank_low": 1 + int(beaten_by[i]),
            "rank_high": k - int(beats[i]),
            "tie_group": group,
        }
    return out


def baseline_rows(
    path: str, models: list[dict[str, Any]], pairs: Iterable[dict[str, Any]], base: str
) -> list[dict[str, Any]]:
    """The reporting table: each model against ``base`` (``pairs``: the comparison rows
    that involve it)."""
    by_pair = {(c["a"], c["b"]): c for c in pairs}
    rows = []
    for r in models:
        row = {
            "file": path,
            "model": r["model"],
            "score": r["score"],
            "ci_low": r["ci_low"],
            "ci_high": r["ci_high"],
            "baseline": base,
            "delta": None,
            "delta_low": None,
            "delta_high": None,
            "p_value": None,
            "test": None,
        }
        if r["model"] != base:
            c = by_pair.get((r["model"], base))
            sign = 1.0
            if c is None:
                c, sign = by_pair.get((base, r["model"])), -1.0
            if c is not None:
                lo, hi = sign * c["ci_low"], sign * c["ci_high"]
                row.update(
                    delta=sign * c["diff"],
                    delta_low=min(lo, hi),
                    delta_high=max(lo, hi),
                    p_value=c["p_value"],
                    test=c["test"],
                )
        row["accuracy"] = _pct_interval(r["score"], r["ci_low"], r["ci_high"])
        row["delta_points"] = _points_interval(row["delta"], row["delta_low"], row["delta_high"])
        rows.append(row)
    return rows


def _pct_interval(v: float | None, lo: float | None, hi: float | None) -> str:
    if v is None:
        return "-"
    if lo is None or hi is None:  # a score without an interval
        return f"{100 * v:.1f}"
    return f"{100 * v:.1f} ({100 * lo:.1f}–{100 * hi:.1f})"


def _points_interval(d: float | None, lo: float | None, hi: float | None) -> str:
    if d is None or lo is None or hi is None:  # no pair with the baseline
        return "—"
    return f"{100 * d:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"


def setup_line(s: dict[str, Any]) -> str:
    """The setup sentence under a reporting table."""
    items = f"n = {s['items']:,} items"
    if s.get("clusters") is not None:  # only a file with a cluster column has clusters
        items += f" ({s['clusters']:,} clusters)"
    parts = [items]
    spi = s["samples_per_item"]
    parts.append(
        f"{spi:g} sample(s) per item averaged within the item" if spi > 1 else "1 sample per item"
    )
    parts.append(f"{s['seeds']} seed(s)")
    text = ", ".join(parts) + f", {s['models']} model(s), {s['rows']:,} rows."
    text += f" Per-model interval: {s['interval'] or '-'}, {100 * s['confidence']:g}%."
    if s.get("paired_test"):
        text += f" Difference: paired, {s['paired_test']}, Holm-adjusted across pairs."
    if s.get("resamples"):
        text += f" Resamples: {s['resamples']:,} (seed {s['rng_seed']})."
    text += f" Baseline: {s['baseline']}."
    return text


__all__ = ["baseline_rows", "options", "rank_order", "setup_line"]
