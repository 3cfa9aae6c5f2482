"""BA404 metric-mirage: an apparent jump that the metric, not the model, makes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._claims import CITATION, claims, emit

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.options import Option
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.inputs.scaling import ScalingData



#: Words of a sentence about results: an emergence claim is about a score or an ability.
_ABOUT_RESULTS = re.compile(
    r"\b(?:abilit|capabilit|performance|accura|scor|benchmark|skill|metric|task|results?\b)",
    re.I,
)

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
    option_types = {"answer-tokens": Option("table-of-int", 1, 10**6)}
    severity = Severity.WARNING
    reads = ("scaling", "harness-summary", "document")

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        """The scaling curves of the run: scaling files, and harness summaries of one
        family at several sizes taken together."""
        if not any(s.kind in ("scaling", "harness-summary") for s in sources):
            return  # a document alone: no curve to build (and no scaling reader to import)
        from benchaudit.inputs.scaling import from_harness

        groups = [s.data for s in sources if s.kind == "scaling"]
        built = from_harness(sources)  # their results are the engine's analyses (results.scaling)
        for data in groups + built:
            yield from _check_curves(self, data)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for c in claims(source, "emergence"):
            f = c.fields
            if f.get("continuous") or f.get("doc_continuous"):
                continue
            metric = f.get("metric")
            if metric is None and (CITATION.search(c.text) or not _ABOUT_RESULTS.search(c.text)):
                # A word in related work or in prose about training ("rather than abruptly"),
                # with no metric in sight: nothing about a score curve is claimed.
                continue
            conf = c.confidence
            if metric is None:
                conf = Confidence.LOW
            elif f.get("metric_from") == "document":
                conf = min(conf, Confidence.MEDIUM)
            m = metric or "an all-or-nothing metric"
            yield emit(
                self,
                c,
                f"'{f['word']}' on {m}: an all-or-nothing metric turns a smooth per-token gain into a "
                f"jump (exact match of L tokens scores p^L; at L = 10, p 0.80 → 0.95 moves it 0.11 → 0.60)",
                suggestion=f"Re-score with a continuous metric (token edit distance, log-likelihood of "
                f"the answer, Brier score) and more model sizes before calling the {m} curve "
                f"emergent.",
                evidence={
                    "word": f["word"],
                    "metric": metric,
                    "example_L": 10,
                    "p_low": 0.8,
                    "p_high": 0.95,
                    "em_low": 0.8**10,
                    "em_high": 0.95**10,
                },
                confidence=conf,
            )


def _check_curves(rule: Rule, data: ScalingData) -> Iterable[Finding]:
    from benchaudit.analysis.scaling import jumps
    from benchaudit.stats.mirage import format_size as size

    lengths = {str(k): int(v) for k, v in dict(rule.options.get("answer-tokens", {})).items()}
    for j in jumps(data, lengths):
        lo, hi, step = j.low, j.high, j.step
        where = Location(hi.file, hi.line)
        jump = (
            f"{j.name} jumps from {lo.value:.3g} at {size(lo.size)} to {hi.value:.3g} at "
            f"{size(hi.size)} ({step.share_of_gain:.0%} of its net gain in "
            f"{step.share_of_span:.0%} of the decades spanned)"
        )
        tail = (
            f"; only {len(j.points)} sizes were sampled, too few to tell a step from a bend"
            if j.sparse
            else ""
        )
        if j.continuous is None:
            yield rule.finding(
                where,
                f"{jump}, and no continuous metric of the task is given to tell a jump in the "
                f"skill from one made by an all-or-nothing metric{tail}",
                severity=Severity.INFO,
                confidence=Confidence.MEDIUM,
                evidence=j.evidence,
                claim=j.name,
                suggestion=f"Re-score {j.task or 'the task'} with a continuous metric (per-token "
                "log-likelihood, Brier, edit similarity) before calling the rise emergent.",
            )
            continue
        cont, cvals, ev = j.continuous.metric, j.continuous_values, j.evidence
        rel = (
            f"; {j.metric} is close to a power of per-token likelihood ({j.metric} ~ "
            f"(1/{cont})^{ev['power_slope']:.2f}, R^2 = {ev['power_r2']:.2f})"
            if ev.get("power_r2", 0) >= 0.9
            else ""
        )
        on = f" on {j.task}" if j.task else ""
        yield rule.finding(
            where,
            f"{jump}, while {cont} improves at every size ({cvals[0]:.4g} -> {cvals[-1]:.4g})"
            f"{rel}: an all-or-nothing metric on a smoothly improving skill, not evidence of "
            f"an emergent ability{tail}",
            evidence=ev,
            claim=j.name,
            suggestion=f"Describe {data.label}{on} as improving smoothly with scale: show "
            f"{cont} ({cvals[0]:.4g} at {size(j.points[0].size)} -> {cvals[-1]:.4g} at "
            f"{size(j.points[-1].size)}) beside {j.metric}, and do not call the rise from "
            f"{size(lo.size)} to {size(hi.size)} emergent.",
        )

