"""BA103 missing-interval: a score reported without its uncertainty."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules import _scores as S

from benchaudit.finding import Confidence, Finding, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class MissingInterval(Rule):
    """A score with no interval: give the 95% interval and the number of items.

    **What.** A score claim with a known item count and neither an interval
    nor a ``±`` gets an info finding whose suggestion is the same score with
    its 95% Wilson interval and ``n``.

    **Why.** 87.2% on 164 problems is 81.2–91.5% at 95%: the interval is what
    tells a reader whether a 2-point gap to another model means anything.

    Bad (not runnable)::

        Our model solves 87.2% of HumanEval.

    Better::

        Our model solves 87.2% of HumanEval (95% CI 81.2–91.5%, Wilson, n = 164).

    **Assumptions.** Items are independent and scored 0 or 1; with several
    samples per item the interval over items (``n``) is the one reported. This
    rule only informs: it never fails a run on its own.
    """

    code = "BA103"
    name = "missing-interval"
    severity = Severity.INFO
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for claim in S.scores(source):
            if claim.interval or claim.plus_minus or not claim.n:
                continue
            if claim.confidence is Confidence.LOW or claim.fields.get("grid") is False:
                continue
            p = S.proportion(claim)
            if not 0 <= p <= 1:
                continue
            wording = S.wilson_wording(claim, p, claim.n)
            yield self.finding(
                claim.location,
                f"{S.as_written(claim, S.written(claim))} {S.on_what(claim)} has no interval",
                claim=claim,
                suggestion=f"{S.as_written(claim, S.written(claim))} {S.on_what(claim)} ({wording})",
                evidence={
                    "value": claim.value,
                    "n": claim.n,
                    "n_source": claim.n_source,
                    "wilson": wording,
                },
                confidence=claim.confidence,
            )
