"""Checks of per-item result files for rules that also read documents.

Each ``check_*`` function is the ``results`` branch of one rule: the rule
module dispatches on ``source.kind`` and calls it. They read the cached
analysis of :mod:`benchaudit.analysis.results` (imported inside the functions,
so the text path never loads numpy).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.finding import Finding, Location, Severity

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.registry import Rule


def analysis(source: Source, ctx: Context):
    from benchaudit.analysis.results import analyse

    return analyse(source.data, ctx)


def first_line(source: Source, model: str | None = None) -> int | None:
    """The line of a model's first row (or the file's first data row)."""
    rs = source.data
    if rs.line is None or rs.n_rows == 0:
        return None
    if model is None:
        return int(rs.line[0])

    def compute() -> dict[str, int]:
        first = rs.first_rows()
        return {name: int(rs.line[int(r)]) for name, r in zip(rs.models, first) if r < rs.n_rows}

    return source.cached("first-line-of-model", compute).get(model)


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def pts(x: float, digits: int = 1) -> str:
    return f"{100 * x:+.{digits}f}"


def interval_text(row: dict[str, Any]) -> str:
    return (
        f"{pct(row['score'])} (95% CI {100 * row['ci_low']:.1f}–{100 * row['ci_high']:.1f}, "
        f"{row['ci_method']}, n = {row['n_items']:,} items)"
    )


def _comparison_text(c: dict[str, Any]) -> str:
    return (
        f"{c['a']} vs {c['b']}: {pts(c['diff'])} points "
        f"[{pts(c['ci_low'])}, {pts(c['ci_high'])}], p = {c['p_value']:.3g}"
    )


# --- underpowered --------------------------------------------------------------------------


def check_underpowered(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """Pairs whose design cannot reach significance, and non-significant gaps below the MDE."""
    import numpy as np

    from benchaudit.stats.power import required_n_paired

    a = analysis(source, ctx)
    alpha = ctx.alpha
    comps = a.comparisons
    if not len(comps):
        return
    # Only the pairs that can give a finding become rows (there may be 499,500 pairs).
    floored = comps.column("p_floor") >= alpha
    small = (comps.column("p_value") >= alpha) & (np.abs(comps.column("diff")) < comps.column("mde"))
    for c in comps.rows(np.flatnonzero(floored | (small & comps.involves(a.setup["baseline"])))):
        line = first_line(source, c["b"])
        if c["p_floor"] >= alpha:
            m = c.get("discordant", c.get("nonzero_diffs", 0))
            where = f"{m} of {c['n_items']} items"
            if c.get("n_clusters") is not None:
                where = f"{c['clusters_differing']} of {c['n_clusters']} clusters"
            yield rule.finding(
                Location(source.path, line),
                f"{c['a']} and {c['b']} disagree on only {where}: the "
                f"smallest p-value this comparison can reach is {c['p_floor']:.3g} ≥ {alpha}, "
                "so no outcome could be significant",
                claim=f"{c['a']} vs {c['b']}",
                suggestion=f'Do not rank {c["a"]} and {c["b"]}: report "{c["a"]} and '
                f"{c['b']} differ on {m} item{'' if m == 1 else 's'} ({pts(c['diff'])} points); "
                "this comparison "
                f'cannot reach p < {alpha}", or evaluate on more items.',
                evidence={
                    "a": c["a"],
                    "b": c["b"],
                    "n_items": c["n_items"],
                    "discordant": m,
                    "p_floor": c["p_floor"],
                    "alpha": alpha,
                },
            )
        elif (
            c["p_value"] >= alpha
            and abs(c["diff"]) < c["mde"]
            and a.setup["baseline"] in (c["a"], c["b"])
        ):
            # Information only for the comparisons the reporting table shows.
            psi = c.get("discordant", 0) / c["n_items"] if c["n_items"] else 0.0
            need = None
            if c["diff"] and psi > c["diff"] ** 2:
                need = required_n_paired(c["diff"], psi, alpha)
            yield rule.finding(
                Location(source.path, line),
                f"{c['a']} vs {c['b']}: the gap of {pts(c['diff'])} points is below the "
                f"minimum detectable effect of {100 * c['mde']:.1f} points at this discordance "
                f"and n = {c['n_items']:,}",
                claim=f"{c['a']} vs {c['b']}",
                suggestion=(
                    f"Report it as inconclusive; detecting a gap of {abs(100 * c['diff']):.1f} "
                    f"points needs about {need:,} items at this discordance."
                    if need
                    else "Report it as inconclusive."
                ),
                evidence={
                    "a": c["a"],
                    "b": c["b"],
                    "diff": c["diff"],
                    "mde": c["mde"],
                    "p_value": c["p_value"],
                    "n_items": c["n_items"],
                    "required_n": need,
                },
                severity=Severity.INFO,
            )


# --- multiple comparisons --------------------------------------------------------------

#: Pairs listed in the evidence of one finding (a run of 1,000 models may lose thousands).
EVIDENCE_PAIRS = 100


def check_multiple_comparisons(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """Pairs significant before Holm's correction and not after it."""
    a = analysis(source, ctx)
    alpha = ctx.alpha
    comps = a.comparisons
    if len(comps) < 2:
        return
    import numpy as np

    p, adjusted = comps.column("p_value"), comps.column("p_adjusted")
    where = np.flatnonzero((p < alpha) & (alpha <= adjusted))
    if not where.size:
        return
    # The evidence lists the first EVIDENCE_PAIRS (all are in results.comparisons).
    lost = comps.rows(where[:EVIDENCE_PAIRS])
    n_lost = int(where.size)
    shown = "; ".join(
        f"{c['a']} vs {c['b']} p = {c['p_value']:.3g} → {c['p_adjusted']:.3g}" for c in lost[:5]
    )
    more = f" and {n_lost - 5} more" if n_lost > 5 else ""
    evidence: dict[str, Any] = {
        "tests": len(comps),
        "alpha": alpha,
        "pairs": [[c["a"], c["b"]] for c in lost],
        "p_values": [c["p_value"] for c in lost],
        "p_adjusted": [c["p_adjusted"] for c in lost],
    }
    if n_lost > len(lost):
        evidence["pairs_not_listed"] = n_lost - len(lost)
    yield rule.finding(
        Location(source.path, first_line(source)),
        f"{n_lost} of {len(comps)} pairwise comparisons are significant at {alpha} only "
        f"without correction for the {len(comps)} tests ({shown}{more})",
        claim=", ".join(f"{c['a']} vs {c['b']}" for c in lost[:5]),
        suggestion=f"Report Holm-adjusted p-values across all {len(comps)} pairs: "
        + "; ".join(
            f"{c['a']} vs {c['b']}: {pts(c['diff'])} points, Holm p = "
            f"{c['p_adjusted']:.3g} (not significant)"
            for c in lost[:3]
        )
        + ".",
        evidence=evidence,
    )


# --- winner's curse --------------------------------------------------------------------


def check_winners_curse(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """Several variants of one model on the same items: the best one is inflated."""
    from benchaudit.stats.selection import winners_curse_inflation

    variants = source.data.meta.get("variants") or {}
    if not variants:
        return
    a = analysis(source, ctx)
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in a.models:
        base, var = variants.get(row["model"], [row["model"], ""])
        if var and row["score"] is not None:
            groups.setdefault(base, []).append(row)
    for base, rows in groups.items():
        k = len(rows)
        if k < 2:
            continue
        best = max(rows, key=lambda r: r["score"])
        n = min(r["n_items"] for r in rows)
        p = sum(r["score"] for r in rows) / k
        infl = winners_curse_inflation(k, min(max(p, 0.0), 1.0), n)
        corrected = best["score"] - infl
        yield rule.finding(
            Location(source.path, first_line(source, best["model"])),
            f"{k} variants of {base} were scored on the same {n:,} test items; the best "
            f"({best['model']}, {pct(best['score'])}) is expected to overstate its accuracy by "
            f"{100 * infl:.2f} points even if all {k} were equally good",
            claim=best["model"],
            suggestion=f"Choose the variant on a held-out split and re-score it on the test "
            f'set, or report "best of {k} variants chosen on the test set: '
            f"{pct(best['score'])}; expected selection bias {100 * infl:.1f} points "
            f'(≈{pct(corrected)} after correction)".',
            evidence={
                "model": base,
                "variants": k,
                "n_items": n,
                "best": best["model"],
                "best_score": best["score"],
                "mean_score": p,
                "inflation": infl,
                "scores": {r["model"]: r["score"] for r in rows},
            },
        )


# --- seeds -----------------------------------------------------------------------------


def check_seed_interval(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """Over seeds: the t(k-1) interval, and the seed spread against the item SE."""
    from benchaudit.stats.student import t_quantile

    a = analysis(source, ctx)
    for row in a.models:
        k = row.get("seeds") or 0
        if k < 2 or row.get("seed_sd") is None:
            continue
        sd, item_se = row["seed_sd"], row["item_se"]
        t = t_quantile(1 - ctx.alpha, k - 1)
        z_half = 1.959964 * sd / k**0.5
        t_half = t * sd / k**0.5
        evidence = {
            "model": row["model"],
            "seeds": k,
            "seed_sd": sd,
            "item_se": item_se,
            "t": t,
            "t_halfwidth": t_half,
            "z_halfwidth": z_half,
            "ci_low": row["ci_low"],
            "ci_high": row["ci_high"],
        }
        wording = (
            f"{row['model']}: {pct(row['score'])} ± {100 * t_half:.1f} points "
            f"(mean of {k} seeds, 95% t({k - 1}) interval, t = {t:.2f})"
        )
        if row.get("ci_method") == "items-and-seeds":
            # The interval that counts both samples: the items and the seeds.
            wording = (
                f"{row['model']}: {pct(row['score'])} (95% CI {100 * row['ci_low']:.1f}–"
                f"{100 * row['ci_high']:.1f} over {row['n_items']:,} items and {k} seeds)"
            )
            evidence.update(
                item_part_se=row["item_part_se"], seed_part_se=row["seed_part_se"], df=row["df"]
            )
        if sd > item_se:
            yield rule.finding(
                Location(source.path, first_line(source, row["model"])),
                f"{row['model']}: the spread across {k} seeds (SD {100 * sd:.2f} points) exceeds "
                f"the item-level SE ({100 * item_se:.2f} points); an interval from one run's "
                "items understates the uncertainty",
                claim=row["model"],
                suggestion=f"Report {wording}, and add seeds rather than items.",
                evidence=evidence,
            )
        else:
            need = (
                f"an interval needs both the items and the seeds (t({k - 1}) = {t:.2f} "
                "over seeds alone, not 1.96)"
                if row.get("ci_method") == "items-and-seeds"
                else f"an interval over seeds needs t({k - 1}) = {t:.2f}, not 1.96"
            )
            yield rule.finding(
                Location(source.path, first_line(source, row["model"])),
                f"{row['model']}: {k} seeds; {need}",
                claim=row["model"],
                suggestion=f"Report {wording}.",
                evidence=evidence,
                severity=Severity.INFO,
            )


# --- generations as items --------------------------------------------------------------


def check_generations_as_items(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """Several rows per item: counting generations as items understates the SE."""
    import math

    import numpy as np

    rs = source.data
    a = analysis(source, ctx)
    mx = a.matrix
    for m, row in enumerate(a.models):
        spi = row.get("samples_per_item")
        if not spi or spi <= 1 or row.get("score") is None:
            continue
        rows_m = rs.score[rs.model.codes == m]
        g = rows_m.size
        gen_se = float(rows_m.std(ddof=1) / math.sqrt(g)) if g > 1 else 0.0
        x = mx.value[m, mx.present[m]]
        item_se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else 0.0
        ratio = item_se / gen_se if gen_se > 0 else float("inf")
        n = row["n_items"]
        lo, hi = row["ci_low"], row["ci_high"]
        yield rule.finding(
            Location(source.path, first_line(source, row["model"])),
            f"{row['model']}: {g:,} rows are {spi:g} generations on average for each of {n:,} "
            f"items; treated as {g:,} independent items the SE would be {100 * gen_se:.2f} "
            f"points, averaged within items it is {100 * item_se:.2f} ({ratio:.2f}×)",
            claim=row["model"],
            suggestion=f"Average the generations within each item and report {row['model']} "
            f"as {pct(row['score'])} (95% CI {100 * lo:.1f}–{100 * hi:.1f}, n = {n:,} items, "
            f"{spi:g} samples per item), not n = {g:,}.",
            evidence={
                "model": row["model"],
                "rows": g,
                "n_items": n,
                "samples_per_item": spi,
                "se_generations": gen_se,
                "se_items": item_se,
                "ratio": ratio if np.isfinite(ratio) else None,
            },
            severity=Severity.WARNING if ratio > 1.05 else Severity.INFO,
        )


# --- chance level ----------------------------------------------------------------------


def check_wrong_chance_level(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """Multiple-choice files: a model indistinguishable from the chance level of its procedure."""
    import numpy as np

    from benchaudit.stats.proportions import binom_cdf

    rs = source.data
    if rs.chosen is None or rs.gold is None:
        return
    a = analysis(source, ctx)
    options = {lab for lab in rs.chosen.labels} | {lab for lab in rs.gold.labels}
    k = len(options)
    if not 2 <= k <= 10:
        return  # free-text answers have no chance level
    chance = 1.0 / k
    for m, row in enumerate(a.models):
        if row.get("score") is None:
            continue
        mask = rs.model.codes == m
        hits = int(round(float(np.sum(rs.score[mask] >= 0.5))))
        n = int(mask.sum())
        p_above = 1.0 - binom_cdf(hits - 1, n, chance)  # P(X >= hits) under chance
        if p_above < ctx.alpha:
            continue
        yield rule.finding(
            Location(source.path, first_line(source, row["model"])),
            f"{row['model']} scores {pct(row['score'])} on {k}-option items: not "
            f"distinguishable from the {pct(chance)} chance level of a single asking "
            f"(P(≥{hits} of {n} by guessing) = {p_above:.3g})",
            claim=row["model"],
            suggestion=f'Report {row["model"]} as "{pct(row["score"])}, not above the '
            f'{pct(chance)} chance level of {k}-option guessing"; a procedure that rotates '
            "options and needs a majority has a lower chance level (3 of 4 rotations: 5.1%).",
            evidence={
                "model": row["model"],
                "options": k,
                "chance": chance,
                "hits": hits,
                "n": n,
                "p_above_chance": p_above,
            },
            severity=Severity.INFO,
        )


# --- rank ties ---------------------------------------------------------------------------


def check_rank_tie(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """Models the paired, Holm-adjusted tests cannot order."""
    a = analysis(source, ctx)
    groups: dict[int, list[dict[str, Any]]] = {}
    for row in a.models:
        if row.get("tie_group") is not None and row.get("score") is not None:
            groups.setdefault(row["tie_group"], []).append(row)
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda r: r["rank"])
        ranges = ", ".join(
            f"{r['model']} {pct(r['score'])} (rank {r['rank_low']}–{r['rank_high']})"
            if r["rank_low"] != r["rank_high"]
            else f"{r['model']} (rank {r['rank_low']})"
            for r in members
        )
        yield rule.finding(
            Location(source.path, first_line(source, members[0]["model"])),
            f"{len(members)} models ranked {members[0]['rank']}–{members[-1]['rank']} are not "
            "separated by the paired tests on their shared items (Holm-adjusted, "
            f"α = {ctx.alpha}): " + ", ".join(r["model"] for r in members),
            claim=", ".join(r["model"] for r in members),
            suggestion=f"Report rank ranges instead of a strict order: {ranges}.",
            # A per-item file states no ranking: the tie is advice on how to report
            # it, not a misleading claim (a leaderboard that ranks them gets a warning).
            severity=Severity.INFO,
            evidence={
                "models": [r["model"] for r in members],
                "scores": [r["score"] for r in members],
                "rank_low": [r["rank_low"] for r in members],
                "rank_high": [r["rank_high"] for r in members],
            },
        )
