"""Two models judged against the same baseline, compared with each other.

AlpacaEval judges every model against a baseline (``generator_1``), instruction by
instruction; the baseline is read per row, and models are paired only on rows against
the same one. Two models' annotations are then paired data: on each instruction both
outputs were weighed against the same baseline output, so the per-instruction
difference of the two preferences is what separates the models. On 0/1 wins the test
is the exact McNemar test; on graded preferences (draws, AlpacaEval 2.0's weighted
probabilities) the sign-flip permutation test of the mean difference, as for graded
per-item scores. The interval is the normal one of the mean paired difference.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.inputs.judgments import JudgmentSet


def _per_model(sets: list[JudgmentSet]) -> dict[tuple[str, str], dict[str, float]]:
    """(baseline group, model) -> instruction -> preference for the model, on 0-1.

    Models are paired only against the same baseline; without a named baseline only
    within one file (its models were judged against whatever that file used)."""
    out: dict[tuple[str, str], dict[str, float]] = {}
    owner: dict[tuple[str, str], str] = {}
    for data in sets:
        if data.layout != "preferences" or not data.preference:
            continue
        unnamed = f"(the baseline of {data.path})"
        # The baseline is read per row: a file may hold rows against several.
        named = data.baselines or [data.baseline or ""] * len(data.models)
        # AlpacaEval's 1-2 scale (2 = the model won) or a 0-1 probability.
        shift = 1.0 if min(data.preference) >= 1.0 else 0.0
        for model, item, pref, base in zip(data.models, data.items, data.preference, named):
            group = base or unnamed
            key = (group, model)
            if owner.setdefault(key, data.path) != data.path:
                key = (group, f"{model} ({data.path})")  # the same model in two files
            out.setdefault(key, {}).setdefault(item, pref - shift)
    return out


def preference_pairs(sets: list[JudgmentSet], ctx: RunContext) -> list[dict[str, Any]]:
    """One row per pair of models judged against the same baseline, on the instructions
    both were judged on: the two win rates, their paired difference with its interval,
    the exact test and its Holm adjustment over all pairs."""
    from benchaudit.stats.multiple import holm
    from benchaudit.stats.paired import mcnemar_exact, sign_flip_test
    from benchaudit.stats.special import z_for

    by = _per_model(sets)
    z = z_for(1 - ctx.alpha)
    rows: list[dict[str, Any]] = []
    keys = list(by)
    for i, (group, a) in enumerate(keys):
        for group_b, b in keys[i + 1 :]:
            if group_b != group:
                continue
            pa, pb = by[(group, a)], by[(group, b)]
            shared = [k for k in pa if k in pb]
            if not shared:
                continue
            d = [pa[k] - pb[k] for k in shared]
            n = len(d)
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
            half = z * math.sqrt(var / n)
            wins, losses = sum(x > 0 for x in d), sum(x < 0 for x in d)
            binary = all(pa[k] in (0.0, 1.0) and pb[k] in (0.0, 1.0) for k in shared)
            rows.append(
                {
                    "baseline": group,
                    "a": a,
                    "b": b,
                    "items": n,
                    "only_a": len(pa) - n,
                    "only_b": len(pb) - n,
                    "win_rate_a": round(sum(pa[k] for k in shared) / n, 6),
                    "win_rate_b": round(sum(pb[k] for k in shared) / n, 6),
                    "diff": round(mean, 6),
                    "ci_low": round(mean - half, 6),
                    "ci_high": round(mean + half, 6),
                    "a_better": wins,
                    "b_better": losses,
                    "p_value": mcnemar_exact(wins, losses) if binary else sign_flip_test(d),
                    "test": "mcnemar-exact" if binary else "sign-flip-permutation",
                }
            )
    for row, adj in zip(rows, holm([r["p_value"] for r in rows])):
        row["p_adjusted"] = adj
    return rows


__all__ = ["preference_pairs"]
