"""Analyses of judge audits: agreement with humans, position bias, win rates against a baseline.

Standard library and :mod:`benchaudit.stats.agreement` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.inputs.judgments import JudgmentSet
    from benchaudit.stats.agreement import Kappa, PositionBias


def kappa(data: JudgmentSet, ctx: RunContext) -> Kappa:
    """Cohen's kappa of the judge's labels against the human ones, with its interval."""
    from benchaudit.stats.agreement import cohen_kappa

    return cohen_kappa(data.judge, data.human, confidence=1 - ctx.alpha)


def position(data: JudgmentSet) -> PositionBias:
    """How often the verdict follows the slot rather than the answer, over both orders."""
    from benchaudit.stats.agreement import position_bias

    return position_bias(data.original, data.swapped)


def preferences(data: JudgmentSet) -> list[dict[str, Any]]:
    """Per model and baseline: items, win rate against that baseline, and whether outputs
    repeat."""
    from math import sqrt

    # A model's rows against different baselines are different win rates.
    by: dict[tuple[str, str], list[int]] = {}
    for k, m in enumerate(data.models):
        by.setdefault((m, data.baselines[k] if data.baselines else ""), []).append(k)
    # AlpacaEval's 1-2 scale (2 = the model won) or a 0-1 probability.
    shift = 1.0 if data.preference and min(data.preference) >= 1.0 else 0.0
    out = []
    for (m, baseline), rows in by.items():
        p = [data.preference[k] - shift for k in rows]
        n = len(p)
        mean = sum(p) / n
        var = sum((x - mean) ** 2 for x in p) / (n - 1) if n > 1 else 0.0
        distinct_out = len({data.outputs[k] for k in rows}) if data.outputs else None
        distinct_len = len({data.output_len[k] for k in rows}) if data.output_len else None
        out.append(
            {
                "model": m,
                "baseline": baseline or data.baseline,
                "items": n,
                "win_rate": mean,
                "se": sqrt(var / n),
                "distinct_outputs": distinct_out,
                "distinct_lengths": distinct_len,
                "first_line": data.lines[rows[0]],
            }
        )
    return out


def report_results(data: JudgmentSet, ctx: RunContext) -> dict[str, list[dict[str, Any]]]:
    """``results.preferences``, ``results.agreement`` or ``results.position_bias`` (with
    ``results.judged_pairs`` for named models), by the layout of the judgments."""
    if data.layout == "preferences":
        from benchaudit.stats.proportions import z_for

        z = z_for(1 - ctx.alpha)
        rows = []
        for r in preferences(data):
            row = {
                "file": data.path,
                "model": r["model"],
                "items": r["items"],
                "win_rate": round(r["win_rate"], 6),
                "se": round(r["se"], 6),
                "low": round(max(0.0, r["win_rate"] - z * r["se"]), 6),
                "high": round(min(1.0, r["win_rate"] + z * r["se"]), 6),
            }
            if r["baseline"]:
                row["baseline"] = r["baseline"]
            rows.append(row)
        return {"preferences": rows}
    if data.layout == "labels":
        k = kappa(data, ctx)
        return {
            "agreement": [
                {
                    "file": data.path,
                    "items": k.n,
                    "agreement": round(k.agreement, 6),
                    "chance_agreement": round(k.chance, 6),
                    "kappa": round(k.kappa, 6),
                    "kappa_low": round(k.ci_low, 6),
                    "kappa_high": round(k.ci_high, 6),
                    "kappa_se": round(k.se, 6),
                }
            ]
        }
    pb = position(data)
    out = {"judged_pairs": pair_table(data)} if data.pairs else {}
    return out | {
        "position_bias": [
            {
                "file": data.path,
                "pairs": pb.pairs,
                "same_slot_rate": pb.rate,
                "first_order_win_rate": pb.first_order_win_rate,
                "consistent_win_rate": pb.consistent_win_rate,
                "consistent_win_rate_ties_half": pb.consistent_win_rate_ties_half,
            }
        ]
    }


def pair_table(data: JudgmentSet) -> list[dict[str, Any]]:
    """Per pair of models: wins that survive the swap, ties, and inconsistent verdicts."""
    from benchaudit.stats.agreement import _slot

    by: dict[tuple[str, str], dict[str, Any]] = {}
    for (m1, m2), o, s in zip(data.pairs, data.original, data.swapped):
        # Read per row: a row of (b, a) counts for the pair (a, b) seen first, with
        # the wins turned round.
        flip = (m2, m1) in by and (m1, m2) not in by
        if flip:
            m1, m2 = m2, m1
        row = by.setdefault(
            (m1, m2),
            {
                "file": data.path,
                "model_1": m1,
                "model_2": m2,
                "pairs": 0,
                "model_1_wins": 0,
                "model_2_wins": 0,
                "ties": 0,
                "inconsistent": 0,
            },
        )
        row["pairs"] += 1
        o, s = _slot(o), _slot(s)
        if o == "A" and s == "B":
            row["model_2_wins" if flip else "model_1_wins"] += 1
        elif o == "B" and s == "A":
            row["model_1_wins" if flip else "model_2_wins"] += 1
        elif o == s == "tie":
            row["ties"] += 1
        else:
            row["inconsistent"] += 1
    return list(by.values())
