"""BA303 partial-credit: graded or unequally weighted items are not binomial k / n."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._wording import interval, percent

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class PartialCredit(Rule):
    """Partial-credit or unequally weighted items scored as if they were 0/1.

    **What.** A per-item file whose scores are not all 0 or 1, or whose items
    carry different maximum points, cannot be summarised as k correct of n with
    a binomial (Wald / Wilson) interval. The rule fires once per file, at the
    first partial-credit row, and gives each model's score as Σ points / Σ max
    points (or the mean item score) with a bootstrap interval over items, next to
    the binomial interval a k / n reading would have given.

    **Why.** A binomial interval assumes every item is a coin with the same
    stake. Graded items have a smaller per-item variance than 0/1 items at the
    same mean (the binomial interval is too wide), while a few heavy items make
    the score far noisier than its n suggests (too narrow). Reachable values
    differ too: 71.3% is not k / n of anything, yet it is a fine points score.

    Bad (scores.csv)::

        model,item,points,max_points
        a,q1,2,4
        a,q2,1,1
        a,q3,3,5
        b,q1,4,4
        b,q2,0,1
        b,q3,5,5

    Better (scores.csv)::

        model,item,correct
        a,q1,1
        a,q2,0
        b,q1,1
        b,q2,1

    **Assumptions.** Items are independent; the bootstrap resamples items (whole
    clusters when a cluster column exists), with the seed of the run.
    """

    code = "BA303"
    name = "partial-credit"
    severity = Severity.WARNING
    reads = ("results",)

    def on_results(self, source: Source, ctx: Context) -> Iterable[Finding]:
        rs = source.data
        weighted = rs.max_points is not None
        if not weighted and rs.binary:
            return
        import numpy as np

        from benchaudit.analysis.results import analyse
        from benchaudit.stats.proportions import wilson

        frac = rs.score / rs.max_points if weighted else rs.score
        partial = (frac != 0.0) & (frac != 1.0)
        unequal = weighted and not np.all(rs.max_points == rs.max_points[0])
        if not partial.any() and not unequal:
            return
        a = analyse(rs, ctx)
        rows = [r for r in a.models if r.get("score") is not None]
        first = int(np.flatnonzero(partial)[0]) if partial.any() else 0
        binom = {}
        for r in rows:
            n = r["n_items"]
            lo, hi = wilson(r["score"] * n, n)
            binom[r["model"]] = [lo, hi]
        kind = []
        if partial.any():
            kind.append(f"{int(partial.sum()):,} of {rs.n_rows:,} rows score between 0 and 1")
        if unequal:
            kind.append(f"max points range from {rs.max_points.min():g} to {rs.max_points.max():g}")
        wording = "; ".join(
            f"{r['model']} {percent(r['score'])} (95% {r['ci_method']} CI "
            f"{interval(100 * r['ci_low'], 100 * r['ci_high'])}"
            + (", Σ points / Σ max points" if weighted else ", mean item score")
            + f", n = {r['n_items']:,} items)"
            for r in rows[:4]
        )
        r0 = rows[0]
        yield self.finding(
            Location(source.path, rs.line_of(first)),
            f"items carry partial credit ({'; '.join(kind)}): a score read as k correct of n "
            f"with a binomial interval misstates it (e.g. {r0['model']}: binomial "
            f"{100 * binom[r0['model']][0]:.1f}–{100 * binom[r0['model']][1]:.1f} vs "
            f"{r0['ci_method']} {100 * r0['ci_low']:.1f}–{100 * r0['ci_high']:.1f})",
            claim=", ".join(r["model"] for r in rows[:4]),
            suggestion=f"Report {wording}; do not use a binomial formula for these scores.",
            evidence={
                "partial_rows": int(partial.sum()),
                "rows": rs.n_rows,
                "weighted": weighted,
                "unequal_weights": bool(unequal),
                "scores": {r["model"]: r["score"] for r in rows},
                "ci": {r["model"]: [r["ci_low"], r["ci_high"]] for r in rows},
                "binomial_ci": binom,
            },
        )
