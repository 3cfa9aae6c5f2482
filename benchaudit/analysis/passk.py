"""Analyses of pass@k samples: the unbiased estimator with its interval, and Wilson for one sample.

The per-problem counts are read by :mod:`benchaudit.inputs.samples`; what is
estimated from them is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.inputs.samples import SamplesData


def report_results(data: SamplesData, ctx: RunContext) -> dict[str, list[dict[str, Any]]]:
    """``results.passk`` for every k that fits (and ``results.models`` with one sample per problem)."""
    from benchaudit.stats.passk import estimate

    rows = []
    named = {"task": data.task} if data.task else {}  # a file of several benchmarks
    for k in data.requested_ks(ctx):
        if k > data.samples_min:
            continue  # undefined for some problem; the rule says so
        est = estimate(data.n, data.c, k, 1 - ctx.alpha)
        rows.append(
            {
                "file": data.path,
                **named,
                "k": k,
                "estimate": est.estimate,
                "ci_low": est.ci_low,
                "ci_high": est.ci_high,
                "ci_method": "normal over problems",
                "plugin": est.plugin,
                "plugin_gap": est.plugin_gap,
                "pass_hat_k": est.pass_hat_k,
                "n_problems": est.n_problems,
                "samples_per_problem": est.samples_min,
                "samples_max": est.samples_max,
            }
        )
    out: dict[str, list[dict[str, Any]]] = {"passk": rows}
    if int(data.n.max()) == 1 and not data.joined:
        # One sample per problem: pass@1 is the share of problems solved, a
        # proportion with a Wilson interval like any 0/1 score.
        from benchaudit.stats.proportions import wilson

        m, solved = len(data.problems), int(data.c.sum())
        lo, hi = wilson(solved, m, 1 - ctx.alpha)
        out["models"] = [
            {
                "file": data.path,
                **named,
                "model": data.model,
                "n_items": m,
                "score": solved / m,
                "ci_low": lo,
                "ci_high": hi,
                "ci_method": "wilson",
                "correct": solved,
            }
        ]
    return out
