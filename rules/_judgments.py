"""The ``judgments`` branch of judge-agreement (BA405): kappa beside raw agreement,
and position bias from verdicts given in both orders."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Finding, Location, Severity

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.registry import Rule

#: Raw agreement that reads as "the judge is reliable".
HIGH_AGREEMENT = 0.8
#: Kappa below this is not "almost perfect" agreement (Landis and Koch).
STRONG_KAPPA = 0.8
#: Share of pairs decided by slot above which a judge is called position-biased.
POSITION_RATE = 0.1


def check_judgments(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    data = source.data
    if data.layout == "labels":
        yield from _labels(rule, source, ctx)
    elif data.layout in ("wide", "long"):
        yield from _orders(rule, source, ctx)


def _labels(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    data = source.data
    k = data.kappa(ctx)
    line = data.lines[0] if data.lines else None
    pct = 100 * k.agreement
    conf = round(100 * (1 - ctx.alpha))
    stated = (
        f"the judge agrees with human labels on {pct:.1f}% of {k.n} items, Cohen's "
        f"κ = {k.kappa:.3f} ({conf}% CI {k.ci_low:.2f}–{k.ci_high:.2f}; chance "
        f"agreement {100 * k.chance:.1f}%)"
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
        claim=f"{pct:.1f}% agreement",
        suggestion=(
            f'Report: "{stated}", and judge every pair in both orders to measure position bias.'
        ),
        evidence=evidence,
        severity=Severity.WARNING if flatters else Severity.INFO,
    )


def _orders(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
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
        f"in {pb.same_slot} of {pb.pairs} pairs ({100 * pb.rate:.1f}%) the judge picked the "
        f"same slot in both orders; the first-order win rate {100 * pb.first_order_win_rate:.1f}% "
        f"falls to {100 * pb.consistent_win_rate:.1f}% when a win must survive the swap"
    )
    yield rule.finding(
        Location(source.path, line),
        ("position bias: " if biased else "") + msg,
        claim=f"{pb.pairs} pairs judged in both orders",
        suggestion=(
            f"Report the consistency-required win rate "
            f"{100 * pb.consistent_win_rate:.1f}% (inconsistent verdicts as ties: "
            f"{100 * pb.consistent_win_rate_ties_half:.1f}%) and the position-bias rate "
            f"{100 * pb.rate:.1f}%, not the single-order "
            f"{100 * pb.first_order_win_rate:.1f}%."
        ),
        evidence=evidence,
        severity=Severity.WARNING if biased else Severity.INFO,
    )
