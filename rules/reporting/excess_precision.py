"""BA102 excess-precision: more digits than the test can produce."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules import _scores as S
from benchaudit.rules._wording import severity_for

from benchaudit.finding import Finding, Severity
from benchaudit.inputs.premises import capped, premises_of
from benchaudit.rulebase import Rule
from benchaudit.stats import granularity as G

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source

#: Digits beyond those that tell every possible score apart that are tolerated:
#: one (87.20% on HumanEval, 46.7% on AIME) is common style, two are not.
TOLERATED = 1


class ExcessPrecision(Rule):
    """A score written with more digits than a test of n items can produce.

    **What.** A test of ``n`` items (``s`` samples each) produces scores in
    steps of ``1/(n·s)``; ``ceil(log10(n·s))`` decimals of a proportion tell
    every one of them apart. A score written with two or more digits beyond
    that is flagged, with the same score at the precision the test supports.

    **Why.** 25.03% on 20 items claims a resolution of 0.01 points from a test
    whose scores move in steps of 5 points: the digits are noise or an error,
    and they suggest a precision the evaluation does not have.

    Bad::

        The model scores 25.03% on our 20 held-out questions.

    Better::

        The model scores 25% (5 of 20) on our 20 held-out questions.

    Severity: a warning; information for a table cell that is the exact
    rounding of some k/n (59.09 = 13/22 in a table printed at two decimals
    throughout) or a sentence quoting such a cell as printed: there the digits
    are the table's format, not an error. Information too for a table cell
    that is not k/(n·s) at all: it refutes the sample count assumed, and
    unreachable-score reports it.

    **Assumptions.** One extra digit is tolerated (87.20% on HumanEval).
    Scores that are not counts over items (F1, BLEU, win rates, pass@k for
    k > 1) are not checked.
    """

    def _severity(self, claim: Claim, ctx: Context, cells: frozenset[str]) -> Severity:
        """A table cell that is the exact rounding of some k/n (59.09 = 13/22) is the house
        style of a table printed at one precision, not a wrong digit: information. Otherwise
        a warning, capped by the claim's premises."""
        samples, n = claim.samples or 1, claim.n or 0
        if claim.fields.get("table") and G.is_reachable(S.written(claim), n, samples, S.scale(claim)):
            return Severity.INFO
        if claim.fields.get("table") and not G.is_reachable(S.written(claim), n, samples, S.scale(claim)):
            # A cell that is not k/(n·s) at all: the value refutes the sample count this rule
            # assumes (a baseline averaged over unstated samples); unreachable-score says so.
            return Severity.INFO
        if S.written(claim).strip() in cells:
            return Severity.INFO  # the prose quotes a cell of the document's own table as printed
        return capped(self.severity, premises_of(claim, ctx.benchmarks).cap())

    code = "BA102"
    name = "excess-precision"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        cells = _table_cells(source)
        for claim in S.scores(source):
            if not claim.n or not S.on_grid(claim):
                continue
            samples = claim.samples or 1
            sc = S.scale(claim)
            extra = G.excess_digits(S.written(claim), claim.n, samples, sc)
            if extra <= TOLERATED:
                continue
            total = claim.n * samples
            written = S.written(claim).strip().replace(",", "")
            if (G.exact(written) / sc * total).denominator == 1 and not (
                "." in written and written.endswith("0")
            ):
                # 37.5% on 8 items is exactly 3/8: its digits are the value, not noise
                # ("25.00%" on 20 items still has two digits that say nothing).
                continue
            places = max(0, G.needed_decimals(claim.n, samples) - (2 if sc == 100 else 0))
            k = round(G.exact(S.written(claim)) / sc * total)
            better = G.format_at(k, total, places, sc)
            step = 100 / total if sc == 100 else 1 / total
            message = (
                f"{S.as_written(claim, S.written(claim))} {S.on_what(claim)} has {extra} more digit(s) "
                f"than the test can produce: its scores move in steps of {step:.3g}"
                f"{' points' if sc == 100 else ''}"
            )
            yield self.finding(
                claim.location,
                message,
                claim=claim,
                suggestion=(
                    f"Report {S.as_written(claim, better)} ({S.count(k)}/{S.count(total)}) "
                    f"{S.on_what(claim)}"
                ),
                evidence={
                    "value": claim.value,
                    "n": claim.n,
                    "samples": samples,
                    "extra_digits": extra,
                    "step": step,
                    "supported_decimals": places,
                },
                severity=severity_for(claim.confidence, self._severity(claim, ctx, cells)),
                confidence=claim.confidence,
            )


def _table_cells(source: Source) -> frozenset[str]:
    """The numbers of the document's tables as printed ("60.00"), marks and bold stripped."""
    from benchaudit.claims.access import document_of

    doc = document_of(source)
    if doc is None:
        return frozenset()
    out: set[str] = set()
    for table in doc.tables():
        for row in table.rows:
            for cell in row:
                m = _CELL_NUMBER.search(cell.text)
                if m:
                    out.add(m.group(0))
    return frozenset(out)


_CELL_NUMBER = re.compile(r"\d+\.\d+")
