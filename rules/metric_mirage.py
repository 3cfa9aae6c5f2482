"""BA404 metric-mirage: an apparent jump that the metric, not the model, makes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.registry import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.inputs.scaling import Curve, ScalingData


class MetricMirage(Rule):
    """A jump in an all-or-nothing metric (exact match, accuracy) on a smoothly improving skill.

    **What.** On scaling curves (a CSV of model sizes and metric values, or
    several lm-evaluation-harness results files of one model family given
    together) the rule looks for an apparent jump in an all-or-nothing metric:
    one step between adjacent sizes that carries at least a quarter of the net
    gain and at least 1.5 times its share of the decades spanned, beyond two
    standard errors. When a continuous metric of the same task (perplexity,
    log-likelihood, Brier, edit similarity) improves at every size across the
    same step, the jump is a warning: it is what an all-or-nothing metric makes
    of a smooth gain. Without a continuous metric it is information, with a
    note when fewer than 5 sizes were sampled. Every curve's transition width
    (decades from 10% to 90% of its range) goes to ``results.scaling``.

    **Why.** With L answer tokens each right with probability p, exact match is
    p^L: flat until p nears 1, then steep, so a smooth gain in the skill reads
    as a sudden "emergent" ability (Schaeffer, Miranda & Koyejo 2023). A few
    sizes joined by straight lines make any bend look like a step.

    Bad (pythia_scaling.csv)::

        model,n_params,lambada_openai_acc,lambada_openai_ppl
        pythia-70m,70000000,0.1846,142.429
        pythia-160m,160000000,0.3284,38.065
        pythia-410m,410000000,0.5162,10.828
        pythia-1b,1000000000,0.562,7.916
        pythia-1.4b,1400000000,0.6161,6.086
        pythia-2.8b,2800000000,0.6472,5.036
        pythia-6.9b,6900000000,0.6728,4.449
        pythia-12b,12000000000,0.7046,3.924

    Better (pythia_scaling.csv)::

        model,n_params,lambada_openai_ppl
        pythia-70m,70000000,142.429
        pythia-160m,160000000,38.065
        pythia-410m,410000000,10.828
        pythia-1b,1000000000,7.916
        pythia-1.4b,1400000000,6.086
        pythia-2.8b,2800000000,5.036
        pythia-6.9b,6900000000,4.449
        pythia-12b,12000000000,3.924

    In documents, an emergence claim ("emerges", "sudden jump", "sharp
    transition") on an exact-match or accuracy metric named in the sentence or
    the document is a warning unless a continuous metric is reported too;
    without a metric named it is information.

    Bad::

        Multi-digit multiplication emerges suddenly at 13B parameters, as
        measured by exact match.

    Better::

        Exact match on multi-digit multiplication rises sharply at 13B
        parameters, while per-token edit distance improves smoothly with scale.

    **Assumptions.** Sizes are parameter counts (or compute) of one family and
    training recipe; metric kinds come from their names (``acc``,
    ``exact_match`` are all-or-nothing; ``ppl``, ``loglik``, ``brier``,
    ``edit_similarity`` continuous). Perplexity is read as its log, the
    per-token NLL. Answer lengths (``answer-tokens = {task = L}``) give the
    implied per-token accuracy EM^(1/L) in the evidence.
    """

    code = "BA404"
    name = "metric-mirage"
    severity = Severity.WARNING
    reads = ("scaling", "harness-summary", "document")

    def check_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        from benchaudit.inputs.scaling import from_harness

        groups = [s.data for s in sources if s.kind == "scaling"]
        built = from_harness(sources)
        for data in built:  # CSV sources report their own results; harness groups do not
            ctx.add_results("scaling", data.report_results(ctx)["scaling"])
        for data in groups + built:
            yield from _check_curves(self, data)
        for source in sources:
            branch = _BRANCHES.get(source.kind)
            if branch is not None:
                yield from branch(self, source, ctx)


def _aligned(a: Curve, b: Curve) -> tuple[list, list]:
    sizes = {p.size for p in a.points} & {p.size for p in b.points}
    return ([p for p in a.points if p.size in sizes], [p for p in b.points if p.size in sizes])


def _check_curves(rule: Rule, data: ScalingData) -> Iterable[Finding]:
    import math

    from benchaudit.stats import mirage as mg

    lengths = {str(k): int(v) for k, v in dict(rule.options.get("answer-tokens", {})).items()}
    informed: set[str] = set()
    by_task: dict[str, list[Curve]] = {}
    for (task, _), curve in data.curves.items():
        by_task.setdefault(task, []).append(curve)
    for task, curves in by_task.items():
        conts = sorted(
            (c for c in curves if mg.classify(c.metric) == mg.CONTINUOUS),
            key=lambda c: not mg.is_perplexity(c.metric),
        )
        for aon in (c for c in curves if mg.classify(c.metric) == mg.ALL_OR_NOTHING):
            for cont in conts or [None]:
                pts = aon.points if cont is None else _aligned(aon, cont)[0]
                cpts = [] if cont is None else _aligned(aon, cont)[1]
                xs = [math.log10(p.size) for p in pts]
                step = mg.apparent_jump(xs, [p.value for p in pts], True, [p.stderr for p in pts])
                if (
                    step is None
                    or mg.at_chance(task, [p.value for p in pts], [p.stderr for p in pts])
                    is not None
                ):
                    continue  # flat at chance is constant-score's finding, not a jump
                lo, hi = pts[step.index - 1], pts[step.index]
                name = mg.curve_name(task, aon.metric)
                sparse = len(pts) < mg.SPARSE_SCALES
                where = Location(hi.file, hi.line)
                ev = {
                    "family": data.label,
                    "task": task,
                    "metric": aon.metric,
                    "sizes": [p.size for p in pts],
                    "values": [p.value for p in pts],
                    "step_from": lo.size,
                    "step_to": hi.size,
                    "step_gain": step.gain,
                    "share_of_gain": step.share_of_gain,
                    "share_of_span": step.share_of_span,
                    "steepness": step.ratio,
                    "n_scales": len(pts),
                    "sparse": sparse,
                    "transition_width": mg.transition_width(xs, [p.value for p in pts]),
                }
                length = lengths.get(task) or lengths.get(aon.metric) or lengths.get(name)
                if length:
                    ev["answer_tokens"] = length
                    ev["implied_per_token"] = [mg.implied_per_token(p.value, length) for p in pts]
                jump = (
                    f"{name} jumps from {lo.value:.3g} at {mg.format_size(lo.size)} "
                    f"to {hi.value:.3g} at {mg.format_size(hi.size)} ({step.share_of_gain:.0%} "
                    f"of its net gain in {step.share_of_span:.0%} of the decades spanned)"
                )
                tail = (
                    f"; only {len(pts)} sizes were sampled, too few to tell a step from a bend"
                    if sparse
                    else ""
                )
                if cont is None:
                    if task in informed:
                        continue  # one note per task is enough (acc and acc_norm agree)
                    informed.add(task)
                    yield rule.finding(
                        where,
                        f"{jump}, and no continuous metric of the task is given to tell "
                        f"a jump in the skill from one made by an all-or-nothing metric{tail}",
                        severity=Severity.INFO,
                        confidence=Confidence.MEDIUM,
                        evidence=ev,
                        claim=name,
                        suggestion=f"Re-score {task or 'the task'} with a continuous metric (per-token "
                        "log-likelihood, Brier, edit similarity) before calling the rise "
                        "emergent.",
                    )
                    continue
                cvals = [p.value for p in cpts]
                higher = mg.higher_is_better(cont.metric)
                cx = [math.log(v) for v in cvals] if mg.is_perplexity(cont.metric) else cvals
                share = mg.step_share(xs, cx, higher, step.index)
                if not mg.monotone(cvals, higher, [p.stderr for p in cpts]) or not share:
                    continue
                fit = (
                    mg.power_fit([1 / v for v in cvals], [p.value for p in pts])
                    if mg.is_perplexity(cont.metric)
                    else None
                )
                ev.update(
                    continuous_metric=cont.metric,
                    continuous_values=cvals,
                    continuous_share_of_step=share,
                    continuous_transition_width=mg.transition_width(xs, cx, higher),
                )
                if fit:
                    ev.update(power_slope=fit[0], power_r2=fit[1])
                rel = (
                    f"; {aon.metric} is close to a power of per-token likelihood "
                    f"({aon.metric} ~ (1/{cont.metric})^{fit[0]:.2f}, R^2 = {fit[1]:.2f})"
                    if fit and fit[1] >= 0.9
                    else ""
                )
                yield rule.finding(
                    where,
                    f"{jump}, while {cont.metric} improves at every size "
                    f"({cvals[0]:.4g} -> {cvals[-1]:.4g}){rel}: an all-or-nothing metric on a "
                    f"smoothly improving skill, not evidence of an emergent ability{tail}",
                    evidence=ev,
                    claim=name,
                    suggestion=f"Describe {data.label}{' on ' + task if task else ''} as improving smoothly with "
                    f"scale: show {cont.metric} ({cvals[0]:.4g} at {mg.format_size(pts[0].size)} -> "
                    f"{cvals[-1]:.4g} at {mg.format_size(pts[-1].size)}) beside {aon.metric}, and do "
                    f"not call the rise from {mg.format_size(lo.size)} to {mg.format_size(hi.size)} "
                    "emergent.",
                )
                break  # one continuous metric is enough to show the mirage


def _document(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._document import check_mirage

    yield from check_mirage(rule, source, ctx)


_BRANCHES: dict = {"document": _document}
