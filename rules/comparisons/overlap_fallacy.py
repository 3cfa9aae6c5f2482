"""BA203 overlap-fallacy: overlapping intervals read as "no difference"."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import claims, emit, mean_halfwidth
from benchaudit.rules._wording import num, signed

from benchaudit.finding import Finding, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class OverlapFallacy(Rule):
    """ "The intervals overlap, so there is no difference" (or the reverse).

    **What.** A sentence that concludes "no (significant) difference" from
    overlapping confidence intervals or error bars. When the two intervals are
    given, the rule computes the interval of the difference (unpaired, from
    the two half-widths) and says whether it excludes zero. Concluding a
    significant difference from non-overlapping intervals is valid but
    conservative: that gets info.

    **Why.** Two 95% intervals can overlap by up to about a quarter of their
    width and the difference still be significant: the interval of a
    difference is √(h₁² + h₂²) wide, not h₁ + h₂. 70.0 ± 2.0 and 74.0 ± 2.0
    overlap, yet the difference is +4.0 ± 2.8 points.

    Bad::

        Model A scores 70.0 ± 2.0 and model B 74.0 ± 2.0; the confidence
        intervals overlap, so there is no significant difference.

    Better::

        Model B scores 4.0 points above model A (95% interval of the
        difference +1.2 to +6.8).

    **Assumptions.** The two intervals are 95% intervals of independent
    estimates; on shared items a paired interval is narrower still.
    """

    code = "BA203"
    name = "overlap-fallacy"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for c in claims(source, "comparison"):
            f = c.fields
            if f.get("overlap") == "sig":
                yield emit(
                    self,
                    c,
                    "non-overlapping intervals do imply a difference, but the test "
                    "is conservative; report the interval of the difference itself",
                    suggestion="Report the difference with its own 95% interval (paired if "
                    "the models share items).",
                    evidence={},
                    severity=Severity.INFO,
                )
                continue
            if f.get("overlap") != "null":
                continue
            ivs = [iv for iv in f.get("intervals", []) if "lo" in iv or "pm" in iv]
            ev: dict[str, Any] = {}
            tail = ""
            fix = (
                "The 95% intervals overlap, which does not show the models are equal; test the "
                "difference directly (a paired test such as McNemar if both models answered "
                "the same items) and report its interval."
            )
            if len(ivs) == 2:
                (m1, h1), (m2, h2) = (mean_halfwidth(iv) for iv in ivs)
                d, h = m2 - m1, (h1 * h1 + h2 * h2) ** 0.5
                ev = {
                    "diff": d,
                    "halfwidth": h,
                    "lo": d - h,
                    "hi": d + h,
                    "significant": abs(d) > h,
                }
                verdict = (
                    "excludes 0: the difference is significant" if abs(d) > h else "contains 0"
                )
                tail = (
                    f"; here the interval of the difference is {signed(d)} ± {num(h)} and {verdict}"
                )
                fix = (
                    f"The intervals overlap, but the difference is {signed(d)} points (95% "
                    f"interval {signed(d - h)} to {signed(d + h)}, unpaired); "
                    + (
                        "it is statistically significant."
                        if abs(d) > h
                        else "it is inconclusive, which is not the same as no difference."
                    )
                )
            yield emit(
                self,
                c,
                "overlapping intervals do not show there is no difference: the "
                "interval of a difference is √(h₁² + h₂²), narrower than the two intervals "
                f"side by side{tail}",
                suggestion=fix,
                evidence=ev,
            )
