"""BA106 percent-vs-points: an absolute gain in points reported as a percentage."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._wording import severity_for, signed

from benchaudit.finding import Finding, Severity
from benchaudit.registry import Rule
from benchaudit.stats import granularity as G

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class PercentVsPoints(Rule):
    """A change written as "X%" that is the difference in points, not the relative change.

    **What.** A sentence with two scores and a change stated as a percentage
    ("improves from 70% to 75%, a 5% gain") where the stated change equals the
    absolute difference (5 points) and not the relative change (7.1%). The
    suggestion gives both: "+5.0 points (+7.1% relative)".

    **Why.** "5% better" reads as a relative change. Going from 70% to 75% is 5
    percentage points, or 7.1% relative; going from 10% to 15% is 5 points and
    50% relative. Mixing the two makes small gains look large or large ones
    small.

    Bad::

        Accuracy improves from 70% to 75%, a 5% improvement.

    Better::

        Accuracy improves from 70% to 75%, a gain of 5.0 points (7.1% relative).

    **Assumptions.** The two scores are the nearest pair in the sentence
    ("from x to y", or two percentages); a change marked "relative",
    "absolute", "points" or "pp" is taken at its word.
    """

    code = "BA106"
    name = "percent-vs-points"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for claim in source.claims:
            f = claim.fields
            if claim.kind != "change" or f.get("relative_stated") or f.get("absolute_stated"):
                continue
            before, after, delta = f["before"], f["after"], f["delta"]
            a, b, d = float(before), float(after), float(delta)
            if a <= 0:
                continue
            diff = b - a
            rel = 100 * diff / a
            # The stated change is read against the numbers as written: it is the
            # difference in points when it matches that (to the rounding of the
            # written numbers) and is further from the relative change.
            unit = float(G.rounding_range(delta, 1)[1] - G.exact(delta))
            tol = unit + sum(float(G.rounding_range(x, 1)[1] - G.exact(x)) for x in (before, after))
            off_abs, off_rel = abs(d - abs(diff)), abs(d - abs(rel))
            if off_abs > tol or off_rel <= unit or off_abs >= off_rel:
                continue
            points = f"{signed(diff)} points ({signed(rel)}% relative)"
            yield self.finding(
                claim.location,
                f"the {delta}% change from {before}% to {after}% is the difference in points; "
                f"relative to {before}% it is {abs(rel):.1f}%",
                claim=claim,
                suggestion=points,
                evidence={
                    "before": before,
                    "after": after,
                    "stated": delta,
                    "points": round(diff, 6),
                    "relative_percent": round(rel, 6),
                },
                severity=severity_for(claim.confidence, self.severity),
                confidence=claim.confidence,
            )
