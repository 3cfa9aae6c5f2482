"""BA405 judge-agreement: an LLM judge trusted on raw agreement with humans, without kappa or a swap test."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._claims import claims, emit
from benchaudit.rules._wording import interval, level, num, percent

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Raw agreement that reads as "the judge is reliable".
HIGH_AGREEMENT = 0.8

#: Kappa below this is not "almost perfect" agreement (Landis and Koch).
STRONG_KAPPA = 0.8

#: Share of pairs decided by slot above which a judge is called position-biased.
POSITION_RATE = 0.1



class JudgeAgreement(Rule):
    """An LLM judge trusted on raw agreement with humans, without kappa or a swap test.

    **What.** Documents: "85% agreement with human annotators" for a judge with no
    chance-corrected statistic (Cohen's κ, Krippendorff's α) anywhere in the
    document; the message also says when no swap test (the two responses in
    both orders) is reported. An evaluator said to have "high agreement with
    humans" with no figure and no chance-corrected statistic is flagged too.

    Judge audit files (kind ``judgments``): with judge and human labels per
    item, Cohen's κ with its 95% interval (Fleiss–Cohen–Everitt standard error)
    is reported beside raw agreement; a warning when raw agreement is 80% or
    more but κ is below 0.8, since the raw figure flatters the judge; a note
    that the file has no swap test. With verdicts in both orders, the share of
    pairs where the judge kept the same slot (position-bias rate) and the
    consistency-required win rate; a warning when 10% or more of the pairs
    were decided by position.

    **Why.** Raw agreement counts the agreement two raters reach by chance: with
    label rates of 70% and 75%, chance alone agrees 60% of the time and 85%
    raw agreement is κ = 0.625 (table 65/20/5/10). A judge that prefers the
    first position can agree with humans often and still be biased.

    Bad::

        GPT-4 as a judge reaches 85% agreement with human annotators.

    Better::

        GPT-4 as a judge agrees with human annotators on 85% of pairs
        (Cohen's κ = 0.63); with the responses swapped, 83%.

    **Assumptions.** The kappa in the message is an example for the stated agreement at
    typical label rates; the real one needs the label rates.
    """

    code = "BA405"
    name = "judge-agreement"
    severity = Severity.WARNING

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        from benchaudit.stats.chance import chance_agreement, kappa

        for c in claims(source, "agreement"):
            f = c.fields
            if f.get("kappa") or f.get("doc_kappa"):
                continue
            if c.value is None:
                if f.get("qualitative"):
                    yield emit(
                        self,
                        c,
                        f"'{f['qualitative']}' is stated here with no figure and no chance-corrected "
                        "statistic (Cohen's κ): agreement that chance alone would reach cannot be told "
                        "from agreement the judge earns",
                        suggestion="State the agreement with human labels as Cohen's κ (and the raw "
                        "agreement and number of items), and a swap test for position bias.",
                        evidence={"agreement": None, "qualitative": f["qualitative"]},
                    )
                continue
            po = float(c.value) / 100
            if not 0 < po <= 1:
                continue
            pe = chance_agreement(0.70, 0.75)
            kap = kappa(po, pe)
            swap = f.get("swap") or f.get("doc_swap")
            yield emit(
                self,
                c,
                f"{c.value}% raw agreement without a chance-corrected statistic: when the judge and "
                f"the humans choose the majority label 70% and 75% of the time, chance alone agrees "
                f"{num(100 * pe, 0)}% and {c.value}% is κ = {kap:.3f}"
                + ("" if swap else "; no swap test for position bias is reported"),
                suggestion=f"Report Cohen's κ (with the label rates) next to the {c.value}% raw "
                f"agreement"
                + ("" if swap else ", and the agreement with the two responses swapped")
                + ".",
                evidence={
                    "agreement": po,
                    "chance_agreement_example": pe,
                    "kappa_example": kap,
                    "swap_test": bool(swap),
                },
            )

    def on_judgments(self, source: Source, ctx: Context) -> Iterable[Output]:
        data = source.data
        if data.layout == "labels":
            yield from _agreement_with_labels(self, source, ctx)
        elif data.layout in ("wide", "long"):
            yield from _both_orders(self, source, ctx)


def _agreement_with_labels(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    data = source.data
    k = data.kappa(ctx)
    line = data.lines[0] if data.lines else None
    stated = (
        f"the judge agrees with human labels on {percent(k.agreement)} of {k.n} items, Cohen's "
        f"κ = {k.kappa:.3f} ({level(ctx.alpha)} CI {interval(k.ci_low, k.ci_high, 2)}; chance "
        f"agreement {percent(k.chance)})"
    )
    evidence = {
        "items": k.n,
        "agreement": round(k.agreement, 6),
        "chance_agreement": round(k.chance, 6),
        "kappa": round(k.kappa, 6),
        "kappa_se": k.se,
        "kappa_ci_low": k.ci_low,
        "kappa_ci_high": k.ci_high,
        "labels": k.labels,
        "swap_test": False,
    }
    flatters = k.agreement >= HIGH_AGREEMENT and k.kappa < STRONG_KAPPA
    yield rule.finding(
        Location(source.path, line),
        (f"raw agreement flatters the judge: {stated}" if flatters else stated.capitalize())
        + "; the file has no swap test for position bias",
        claim=f"{percent(k.agreement)} agreement",
        suggestion=(
            f'Report: "{stated}", and judge every pair in both orders to measure position bias.'
        ),
        evidence=evidence,
        severity=Severity.WARNING if flatters else Severity.INFO,
    )


def _both_orders(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    data = source.data
    pb = data.position()
    if not pb.pairs:
        return
    line = data.lines[0] if data.lines else None
    evidence = {
        "pairs": pb.pairs,
        "same_slot": pb.same_slot,
        "position_bias_rate": pb.rate,
        "first_order_win_rate": pb.first_order_win_rate,
        "consistent_win_rate": pb.consistent_win_rate,
        "consistent_win_rate_ties_half": pb.consistent_win_rate_ties_half,
        "inconsistent": pb.inconsistent,
    }
    biased = pb.rate >= POSITION_RATE
    msg = (
        f"in {pb.same_slot} of {pb.pairs} pairs ({percent(pb.rate)}) the judge picked the "
        f"same slot in both orders; the first-order win rate {percent(pb.first_order_win_rate)} "
        f"falls to {percent(pb.consistent_win_rate)} when a win must survive the swap"
    )
    yield rule.finding(
        Location(source.path, line),
        ("position bias: " if biased else "") + msg,
        claim=f"{pb.pairs} pairs judged in both orders",
        suggestion=(
            f"Report the consistency-required win rate "
            f"{percent(pb.consistent_win_rate)} (inconsistent verdicts as ties: "
            f"{percent(pb.consistent_win_rate_ties_half)}) and the position-bias rate "
            f"{percent(pb.rate)}, not the single-order "
            f"{percent(pb.first_order_win_rate)}."
        ),
        evidence=evidence,
        severity=Severity.WARNING if biased else Severity.INFO,
    )
