"""BA205 underpowered: the design cannot reach significance, or a null result comes from a test too small to see the gap."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._claims import claims, emit, points
from benchaudit.rules._results import analysis, first_line
from benchaudit.rules._wording import num, signed_points

from benchaudit.finding import Confidence, Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class Underpowered(Rule):
    """The design cannot reach significance, or a null result comes from a test too small to see the gap.

    **What.** Documents: a comparison that reports its discordant items (or says the
    models disagree on m items) when no paired test can reach p < alpha: the
    smallest possible McNemar p is 2·(1/2)^m (5 disagreements give 0.0625, 6
    give 0.03125). A "no significant difference" on n items whose minimum
    detectable effect (80% power, unpaired) is 3 points or more gets the MDE
    stated.

    Per-item files: every pair of models whose McNemar floor 2·(1/2)^m (m discordant
    items) is at or above α can never be significant (warning); a non-significant
    gap below the MDE at the observed discordance is information (for the
    comparisons with the baseline model), with the items needed.

    **Why.** With m discordant items the most lopsided split possible (all m one way)
    has p = 2·(1/2)^m; below six, nothing is ever significant at 0.05, so
    running the test is theatre. A null result from a study that could only
    detect 10-point gaps says nothing about 3-point gaps.

    Bad::

        The two models disagree on only 5 questions, so the comparison is not
        significant (McNemar).

    Better::

        The two models disagree on only 5 questions; with so few disagreements
        no test can reach p < 0.05, so the comparison is inconclusive.

    **Assumptions.** Items are scored 0/1; the MDE uses the stated score as both
    models' accuracy.
    """

    code = "BA205"
    name = "underpowered"
    severity = Severity.WARNING

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        from benchaudit.stats.paired import mcnemar_floor
        from benchaudit.stats.power import mde_unpaired

        alpha = ctx.alpha
        for c in claims(source, "comparison"):
            f = c.fields
            m = sum(f["discordant"]) if f.get("discordant") else f.get("disagreements")
            if f.get("hedged"):
                continue
            if m is not None and m >= 0 and mcnemar_floor(m) >= alpha:
                floor = mcnemar_floor(m)
                yield emit(
                    self,
                    c,
                    f"with {m} discordant items no paired test can reach p < {alpha:g}: the smallest "
                    f"possible McNemar p is 2·(1/2)^{m} = {floor:.4g}",
                    suggestion=f"The models disagree on only {m} items, too few for any test to reach "
                    f"p < {alpha:g} (the smallest possible p is {floor:.3g}); report the comparison "
                    f"as inconclusive and evaluate on more items.",
                    evidence={"discordant": m, "p_floor": floor, "alpha": alpha},
                )
                continue
            if f.get("significant") != "no" or not c.n:
                continue
            # A null read as equivalence ("did not differ significantly, so the update is safe to
            # ship") is null-as-equivalence's too; the design's power is a separate fault.
            if f.get("significant_from") != "words" or f.get("direction") in ("better", "worse"):
                continue  # a null result stated as such, not a win with a large p
            a, b = f.get("a_value"), f.get("b_value")
            if not (a and b):
                continue  # the design's power needs the scores compared
            base = points(a, b)
            if base is None or not 0 < base < 100:
                continue
            mde = 100 * mde_unpaired(base / 100, c.n, alpha)
            if mde < 3:
                continue
            yield emit(
                self,
                c,
                f"a null result on {c.n} items says little: at {num(base)}% an unpaired comparison "
                f"detects only gaps of {num(mde)} points or more with 80% power",
                suggestion=f"No significant difference was found, but with {c.n} items the study "
                f"could only detect differences of about {num(mde)} points (80% power, α = {alpha:g}); "
                f"smaller differences are not ruled out.",
                evidence={"n": c.n, "n_source": c.n_source, "score": base, "mde_points": mde},
                confidence=Confidence.MEDIUM,
            )

    def on_results(self, source: Source, ctx: Context) -> Iterable[Output]:
        """Pairs whose design cannot reach significance, and non-significant gaps below the MDE."""
        from benchaudit.stats.power import required_n_paired

        a = analysis(source, ctx)
        alpha = ctx.alpha
        comps = a.comparisons
        if not len(comps):
            return
        if isinstance(comps, list):  # a small file's rows (no numpy)
            chosen = [
                c
                for c in comps
                if c["p_floor"] >= alpha
                or (c["p_value"] >= alpha and abs(c["diff"]) < c["mde"] and a.setup["baseline"] in (c["a"], c["b"]))
            ]
        else:
            import numpy as np

            # Only the pairs that can give a finding become rows (there may be 499,500 pairs).
            floored = comps.column("p_floor") >= alpha
            small = (comps.column("p_value") >= alpha) & (np.abs(comps.column("diff")) < comps.column("mde"))
            chosen = comps.rows(np.flatnonzero(floored | (small & comps.involves(a.setup["baseline"]))))
        for c in chosen:
            line = first_line(source, c["b"])
            if c["p_floor"] >= alpha:
                m = c.get("discordant", c.get("nonzero_diffs", 0))
                where = f"{m} of {c['n_items']} items"
                if c.get("n_clusters") is not None:
                    where = f"{c['clusters_differing']} of {c['n_clusters']} clusters"
                yield self.finding(
                    Location(source.path, line),
                    f"{c['a']} and {c['b']} disagree on only {where}: the "
                    f"smallest p-value this comparison can reach is {c['p_floor']:.3g} ≥ {alpha}, "
                    "so no outcome could be significant",
                    claim=f"{c['a']} vs {c['b']}",
                    suggestion=f'Do not rank {c["a"]} and {c["b"]}: report "{c["a"]} and '
                    f"{c['b']} differ on {m} item{'' if m == 1 else 's'} ({signed_points(c['diff'])} points); "
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
                yield self.finding(
                    Location(source.path, line),
                    f"{c['a']} vs {c['b']}: the gap of {signed_points(c['diff'])} points is below the "
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
