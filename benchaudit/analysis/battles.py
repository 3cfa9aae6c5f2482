"""Analyses of pairwise battles: Bradley–Terry ratings, their bootstrap, the Elo order check.

Each value is computed once per battle set and run settings (its memo), so the
engine's ``results.ratings`` and the rules that read the ratings (rank-tie,
conflicting-repeats) share one bootstrap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.inputs.battles import BattleSet
    from benchaudit.stats.bradley_terry import Ratings

#: Above this many battles the online-Elo order check is skipped (it is a
#: sequential loop over battles).
ORDER_CHECK_MAX = 50_000
#: Bootstrap replicates for ratings (the configured number, capped here: the
#: percentile bounds of 1,000 replicates are stable to a fraction of an Elo point).
MAX_RESAMPLES = 1000


def ratings(data: BattleSet, ctx: RunContext) -> Ratings:
    """Bradley–Terry ratings with bootstrap intervals; questions resampled when they repeat."""
    from benchaudit.stats.bradley_terry import bootstrap

    def compute() -> Ratings:
        clusters = data.cluster_cells() if data.clustered() else None
        return bootstrap(
            data.pair_counts(),
            resamples=min(ctx.config.resamples, MAX_RESAMPLES),
            seed=ctx.seed,
            confidence=1 - ctx.alpha,
            clusters=clusters,
        )

    return data.memo.get(("ratings", ctx.seed, ctx.config.resamples, ctx.alpha), compute)


def battle_level_ratings(data: BattleSet, ctx: RunContext) -> Ratings:
    """Ratings whose bootstrap resamples battles, ignoring any question structure."""
    if not data.clustered():
        return ratings(data, ctx)
    from benchaudit.stats.bradley_terry import bootstrap

    def compute() -> Ratings:
        return bootstrap(
            data.pair_counts(),
            resamples=min(ctx.config.resamples, MAX_RESAMPLES),
            seed=ctx.seed,
            confidence=1 - ctx.alpha,
        )

    return data.memo.get(("battle-ratings", ctx.seed, ctx.config.resamples, ctx.alpha), compute)


def order_check(data: BattleSet, ctx: RunContext) -> dict[str, Any] | None:
    """How much online Elo depends on the order of the battles (None for large files)."""
    if data.n_battles > ORDER_CHECK_MAX:
        return None
    from benchaudit.stats.bradley_terry import order_sensitivity

    def compute() -> dict[str, Any]:
        got: dict[str, Any] = order_sensitivity(
            data.a,
            data.b,
            data.outcome,
            len(data.models),
            ratings(data, ctx).rating,
            seed=ctx.seed,
        )
        return got

    return data.memo.get(("order", ctx.seed, ctx.config.resamples, ctx.alpha), compute)


def report_results(data: BattleSet, ctx: RunContext) -> dict[str, list[dict[str, Any]]]:
    """``results.ratings`` (rating, interval, rank range per model) and ``results.elo_order``."""
    from benchaudit.stats.ranks import rank_ranges

    r = ratings(data, ctx)
    lo_rank, hi_rank = rank_ranges(list(r.ci_low), list(r.ci_high))
    rows = []
    for k in r.order():
        rows.append(
            {
                "file": data.path,
                "model": r.models[k],
                "rating": round(float(r.rating[k]), 2),
                "ci_low": round(float(r.ci_low[k]), 2),
                "ci_high": round(float(r.ci_high[k]), 2),
                "rank_low": lo_rank[k],
                "rank_high": hi_rank[k],
                "battles": int(r.battles[k]),
                "ci_method": r.method,
            }
        )
    out: dict[str, list[dict[str, Any]]] = {"ratings": rows}
    order = order_check(data, ctx)
    if order is not None:
        out["elo_order"] = [{"file": data.path, **order}]
    return out


__all__ = ["MAX_RESAMPLES", "ORDER_CHECK_MAX", "battle_level_ratings", "order_check", "ratings"]
