"""BA105 interval-out-of-range: an interval that runs past 0% or 100%."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules import _scores as S

from benchaudit.finding import Confidence, Finding, Severity
from benchaudit.rulebase import Rule
from benchaudit.stats.stated_intervals import implied_n

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class IntervalOutOfRange(Rule):
    """An interval for a score that goes below 0% or above 100%.

    **What.** A stated interval or ``±`` whose lower bound is below 0 or upper
    bound above 100% (1 for proportions). The suggestion is the Wilson
    interval for the same score and ``n`` (``n`` stated, from the registry, or
    recovered from the Wald half-width itself).

    **Why.** A proportion cannot leave [0, 1]. Bounds past the edge are the
    mark of a Wald interval (p ± z·SE) on a score near 0 or 100% or on few
    items, where its coverage is also poor. 8/10: Wald 55.2–104.8%, Wilson
    49.0–94.3%.

    Bad::

        The model answers 8 of 10 questions: 80% (95% CI 55.2–104.8%).

    Better::

        The model answers 8 of 10 questions: 80% (95% CI 49.0–94.3%, Wilson).

    **Assumptions.** The score is a proportion; differences between two
    scores may be negative and are not checked here.
    """

    code = "BA105"
    name = "interval-out-of-range"
    severity = Severity.ERROR
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for claim in S.scores(source):
            if claim.fields.get("grid") is False:
                continue
            sc = S.scale(claim)
            v = float(S.written(claim))
            if claim.plus_minus:
                h = float(claim.plus_minus)
                lo, hi = v - h, v + h
                stated = f"{S.as_written(claim, S.written(claim))} ± {claim.plus_minus}"
            elif claim.interval:
                lo, hi = float(claim.interval[0]), float(claim.interval[1])
                stated = (
                    f"{S.as_written(claim, S.written(claim))} ({claim.interval[0]}–{claim.interval[1]})"
                )
            else:
                continue
            if lo >= 0 and hi <= sc:
                continue
            p = v / sc
            level = claim.fields.get("level") or 0.95
            n, n_from = claim.n, claim.n_source
            if not n:
                n, n_from = (
                    implied_n(p, (hi - lo) / 2 / sc, level),
                    "implied by the Wald half-width",
                )
            edge = f"upper bound {hi:g}" if hi > sc else f"lower bound {lo:g}"
            message = (
                f"{stated}: the {edge} is outside 0–{sc:g}{S.unit_sign(claim)}, "
                "the mark of a Wald interval near the edge"
            )
            if n:
                fix = f"{S.as_written(claim, S.written(claim))} ({S.wilson_wording(claim, p, n, level)})"
            else:
                fix = (
                    f"{S.as_written(claim, S.written(claim))} with a Wilson or Clopper–Pearson "
                    "interval, which stays inside 0–100%"
                )
            yield self.finding(
                claim.location,
                message,
                claim=claim,
                suggestion=fix,
                evidence={
                    "value": claim.value,
                    "low": lo,
                    "high": hi,
                    "n": n,
                    "n_source": n_from,
                    "level": level,
                },
                # Past 0 or 100% is wrong whatever benchmark the score is on.
                severity=self.severity,
                confidence=max(claim.confidence, Confidence.MEDIUM),
            )
