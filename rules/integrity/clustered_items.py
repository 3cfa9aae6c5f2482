"""BA305 clustered-items: items share a cluster and the naive SE is too small."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._wording import interval, percent, signed_points

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Design effects below this are reported as information only.
THRESHOLD = 1.2


class ClusteredItems(Rule):
    """Items that share a passage, repository or conversation are not independent.

    **What.** When a per-item file has a cluster column (passage, repo,
    conversation, topic, cluster), the rule computes for each model the
    cluster-robust SE, the design effect (clustered variance over naive
    variance) and the effective number of items, and gives the cluster
    bootstrap interval. A design effect of 1.2 or more is a warning. Comparisons
    of two models are made cluster by cluster (a sign-flip test over the clusters'
    total differences, exact over all sign vectors for up to 13 clusters, and a
    t(G-1) interval from the clustered SE); a pair that the item-level test
    separates and the cluster-level test does not is a warning with both p-values
    and the difference's design effect.

    **Why.** Five questions about one passage succeed or fail together. With
    clusters of size m and intra-cluster correlation ρ the variance of the mean
    grows by 1 + (m − 1)ρ: 8 passages × 10 identical outcomes have a design
    effect of 10, so 80 questions carry the information of 8 and the naive SE is
    √10 = 3.16 times too small.

    Bad (scores.csv)::

        model,item,passage,correct
        a,q1,p1,1
        a,q2,p1,1
        a,q3,p1,1
        a,q4,p2,0
        a,q5,p2,0
        a,q6,p2,0
        a,q7,p3,1
        a,q8,p3,1
        a,q9,p3,1

    Better (scores.csv)::

        model,item,passage,correct
        a,q1,p1,1
        a,q2,p1,0
        a,q3,p1,1
        a,q4,p2,0
        a,q5,p2,1
        a,q6,p2,0
        a,q7,p3,1
        a,q8,p3,0
        a,q9,p3,1

    **Assumptions.** Clusters are independent of each other; the clustered SE
    includes the small-sample factor √(G/(G−1)), and the design effect is the
    ratio of the uncorrected clustered variance to the naive one.
    """

    code = "BA305"
    name = "clustered-items"
    severity = Severity.WARNING
    reads = ("results",)

    def on_results(self, source: Source, ctx: Context) -> Iterable[Finding]:
        rs = source.data
        if rs.cluster is None:
            return
        import numpy as np

        from benchaudit.analysis.results import analyse

        a = analyse(rs, ctx)
        for m, row in enumerate(a.models):
            de = row.get("design_effect")
            if de is None or row.get("score") is None or not np.isfinite(de):
                continue
            n, g = row["n_items"], row["n_clusters"]
            eff = n / de if de > 0 else float(n)
            rows = np.flatnonzero(rs.model.codes == m)
            line = rs.line_of(int(rows[0])) if rows.size else None
            yield self.finding(
                Location(source.path, line),
                f"{row['model']}: {n:,} items in {g:,} clusters; design effect {de:.2f}, "
                f"so the items carry the information of about {eff:,.0f} independent ones "
                f"(clustered SE {100 * row['clustered_se']:.2f} points vs naive "
                f"{100 * row['se']:.2f})",
                claim=row["model"],
                suggestion=f"Report {row['model']} as {percent(row['score'])} (95% cluster "
                f"bootstrap CI {interval(100 * row['ci_low'], 100 * row['ci_high'])}, {n:,} "
                f"items in {g:,} clusters, design effect {de:.1f}).",
                evidence={
                    "model": row["model"],
                    "n_items": n,
                    "clusters": g,
                    "design_effect": de,
                    "effective_n": eff,
                    "clustered_se": row["clustered_se"],
                    "naive_se": row["se"],
                    "ci_low": row["ci_low"],
                    "ci_high": row["ci_high"],
                },
                severity=Severity.WARNING if de >= THRESHOLD else Severity.INFO,
            )
        yield from self._comparisons(source, a, ctx.alpha)

    def _comparisons(self, source: Source, a: Any, alpha: float) -> Iterable[Finding]:
        """Pairs that the item-level test separates and the cluster-level test does not."""
        import numpy as np

        comps = a.comparisons
        item_level = comps.column("p_item_level")
        if item_level is None:
            return
        item_level = item_level.astype(float)
        for c in comps.rows(np.flatnonzero((item_level < alpha) & (comps.column("p_value") >= alpha))):
            item_p = c["p_item_level"]
            g, de = c["n_clusters"], c["design_effect"]
            yield self.finding(
                Location(source.path, None),
                f"{c['a']} vs {c['b']}: {signed_points(c['diff'])} points looks significant item "
                f"by item ({c['item_level_test']} p = {item_p:.2g}) but not cluster by cluster "
                f"(sign-flip over {g} clusters p = {c['p_value']:.3g}; the difference has "
                f"design effect {de:.1f}): the gap comes from {c['clusters_differing']} of "
                f"{g} clusters",
                claim=f"{c['a']} vs {c['b']}",
                suggestion=f"Report {c['a']} vs {c['b']} as {signed_points(c['diff'])} points (95% "
                f"cluster CI {interval(100 * c['ci_low'], 100 * c['ci_high'], sign=True)}, cluster "
                f"sign-flip p = {c['p_value']:.3g}, {g} clusters), not p = {item_p:.2g}.",
                evidence={
                    "a": c["a"],
                    "b": c["b"],
                    "diff": c["diff"],
                    "p_cluster": c["p_value"],
                    "p_item_level": item_p,
                    "design_effect": de,
                    "clusters": g,
                    "clusters_differing": c["clusters_differing"],
                    "ci_low": c["ci_low"],
                    "ci_high": c["ci_high"],
                },
            )
