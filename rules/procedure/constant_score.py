"""BA408 constant-score: a score that does not move with scale carries no trend."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.inputs.scaling import ScalingData


class ConstantScore(Rule):
    """A scaling curve whose score is degenerate (one repeated value) or at chance at every size.

    **What.** On scaling curves (a CSV of sizes and metric values, or several
    lm-evaluation-harness results files of one family given together) the
    rule flags an all-or-nothing metric that (a) takes the same value, to four
    decimals, at three or more sizes and at least half of them, or (b) stays
    within max(2 standard errors, 5 points) of the task's chance level at
    every size (known multiple-choice tasks: MMLU 25%, PIQA 50%, ...).

    **Why.** Different models almost never score the same to four decimals; a
    repeated value is the score of a constant answer (always the same class),
    so the task measures the answer bias, not the skill. A score at chance
    everywhere has no trend to read: ranking sizes by it, or calling a later
    rise "emergent" against it, reads noise. Such tasks should be reported as
    non-informative at these sizes, not plotted as a scaling curve.

    Bad (scaling.csv)::

        model,n_params,wsc_acc
        pythia-70m,70000000,0.3654
        pythia-160m,160000000,0.3654
        pythia-410m,410000000,0.5673
        pythia-1b,1000000000,0.3654
        pythia-1.4b,1400000000,0.3654

    Better (scaling.csv)::

        model,n_params,winogrande_acc
        pythia-70m,70000000,0.528
        pythia-160m,160000000,0.5312
        pythia-410m,410000000,0.5367
        pythia-1b,1000000000,0.5367
        pythia-1.4b,1400000000,0.573
        pythia-2.8b,2800000000,0.5943
        pythia-6.9b,6900000000,0.6093
        pythia-12b,12000000000,0.6393

    **Assumptions.** Chance levels come from a short table of well-known
    multiple-choice tasks (one over the number of options); other tasks are
    checked for repeated values only. The 5-point margin is absolute.
    """

    code = "BA408"
    name = "constant-score"
    severity = Severity.WARNING
    reads = ("scaling", "harness-summary")

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        from benchaudit.inputs.scaling import from_harness

        for data in [s.data for s in sources if s.kind == "scaling"] + from_harness(sources):
            yield from _check(self, data)


def _check(rule: Rule, data: ScalingData) -> Iterable[Finding]:
    from benchaudit.analysis.scaling import flat_curves
    from benchaudit.stats.mirage import format_size

    for flat in flat_curves(data):
        pts = flat.points
        values = [p.value for p in pts]
        ev = {
            "family": data.label,
            "task": flat.task,
            "metric": flat.metric,
            "sizes": [p.size for p in pts],
            "values": values,
            "n_scales": len(pts),
        }
        where = Location(pts[-1].file, pts[-1].line)
        what = flat.task or flat.metric
        if flat.repeated is not None:
            value, count = flat.repeated
            others = [f"{v:.4g}" for v in values if round(v, 4) != value]
            yield rule.finding(
                where,
                f"{flat.name} is {value:.4g} at {count} of {len(values)} sizes "
                f"({data.label})"
                + (f"; the others score {', '.join(others)}" if others else "")
                + ": a repeated score is a constant answer, not a scaling trend",
                claim=flat.name,
                evidence={**ev, "repeated_value": value, "repeats": count},
                suggestion=f"Report {what} as non-informative for {data.label} (the same score "
                f"{value:.4g} at {count} sizes, e.g. always the same class) and leave it out "
                "of scaling plots and averages.",
            )
        else:
            chance, lo, hi = flat.chance, min(values), max(values)
            assert chance is not None  # a flat curve that is not one repeated score sits at chance
            yield rule.finding(
                where,
                f"{flat.name} stays at chance ({chance:.3g}) at every size of "
                f"{data.label}: {lo:.3g}-{hi:.3g} over {len(values)} sizes, so there is no "
                "scaling trend to read",
                claim=flat.name,
                confidence=Confidence.MEDIUM,
                evidence={**ev, "chance": chance, "max_above_chance": hi - chance},
                suggestion=f"Say that {what} is at chance ({lo:.3g}-{hi:.3g} against "
                f"{chance:.3g}) for every size from {format_size(pts[0].size)} to "
                f"{format_size(pts[-1].size)}, and draw no ranking or trend from it.",
            )
