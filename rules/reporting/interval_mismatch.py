"""BA104 interval-mismatch: a stated interval or ± that does not fit its n."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules import _scores as S
from benchaudit.rules._wording import severity_for

from benchaudit.finding import Finding, Severity
from benchaudit.rulebase import Rule
from benchaudit.stats import stated_intervals as I

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source


class IntervalMismatch(Rule):
    """A stated interval or ± that no standard method gives for the stated n.

    **What.** A score with ``± h`` or an interval ``[lo, hi]`` and a known item
    count is compared with the Wald, Wilson, Agresti–Coull and Clopper–Pearson
    intervals at 95% (or the level the text states: "90% CI", "99% CI"; or one
    standard error when it says "± 1 SE"). When it is too narrow or too wide
    for every method beyond the rounding of the written digits, the rule
    reports the interval the numbers give.

    **Why.** 94.2% ± 0.1 on 1,000 items cannot be a 95% interval: its
    half-width is about 1.45 points. An interval that is too narrow makes every
    comparison look significant; one that is too wide hides real differences.
    A ``±`` that matches one standard error but is not labelled so is read by
    most readers as a 95% interval half as wide as it should be.

    Severity: an error when the interval is too wide for any method, does not
    contain its own score, or is too narrow for a stated single pass; a
    warning when it is too narrow and the protocol is unstated (averaging over
    several samples per item, if unstated, could make it narrower) or when it
    matches an unlabelled standard error. A stated average over several
    samples per item accepts any interval narrower than the binomial one.

    Bad::

        We obtain 94.2% ± 0.1 on 1,000 questions.

    Better::

        We obtain 94.2% ± 1.4 on 1,000 questions (95% CI, Wald).

    **Assumptions.** Items are independent and scored 0 or 1. Standard
    deviations over seeds or runs are not binomial intervals and are not
    checked. Bootstrap and t intervals are accepted within 10% of a closed
    form's half-width.
    """

    code = "BA104"
    name = "interval-mismatch"
    severity = Severity.ERROR
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for claim in S.scores(source):
            if not claim.n or not (claim.interval or claim.plus_minus):
                continue
            if claim.fields.get("pm_kind") == "sd" or claim.fields.get("grid") is False:
                continue
            finding = self._check(claim)
            if finding is not None:
                yield finding

    def _check(self, claim: Claim) -> Finding | None:
        sc, n, value = S.scale(claim), S.items(claim), S.written(claim)
        outside = False
        level = claim.fields.get("level")
        p = S.proportion(claim)
        if not 0 <= p <= 1:
            return None
        if claim.plus_minus:
            pm = float(claim.plus_minus) / sc
            if p - pm < 0 or p + pm > 1:
                return None  # interval-out-of-range reports it
            v = I.check_plus_minus(
                value, claim.plus_minus, n, sc, level, claim.fields.get("pm_kind")
            )
            stated = f"{S.as_written(claim, value)} ± {claim.plus_minus}"
        else:
            if claim.interval is None:  # on_document passes only claims with an interval or a ±
                return None
            lo, hi = claim.interval
            if float(lo) < 0 or float(hi) > sc:
                return None
            if not float(lo) <= float(value) <= float(hi):
                v = I.Verdict(False, "wilson", I.expected(p, n, level or 0.95))
                v.stated = (float(lo) / sc, float(hi) / sc)
                outside = True
            else:
                v = I.check_bounds(value, lo, hi, n, sc, level)
            stated = f"{S.as_written(claim, value)} ({lo}–{hi})"
        if v.consistent:
            return None
        conf = level or 0.95
        # A "± 1 SE" is checked against the standard error alone: its table has no Wald row.
        wald_lo, wald_hi = v.expected.get("wald") or v.expected["se"]
        half = (wald_hi - wald_lo) / 2
        lvl = f"{round(conf * 100)}%"
        narrow = (v.stated[1] - v.stated[0]) / 2 < half
        if narrow and not outside and claim.protocol == "averaged" and (claim.samples or 0) > 1:
            return None  # averaging over samples per item can make it narrower than binomial
        unlabelled = False
        if v.only_as_se:
            severity = Severity.WARNING
            message = (
                f"{stated} {S.on_what(claim)} matches one standard error, not a {lvl} "
                f"interval (half-width {S.in_scale(claim, half, 2)}): label it or give the interval"
            )
        else:
            # Too narrow with the protocol unstated: unstated averaging over samples
            # could explain it, as for unreachable-score.
            unstated = narrow and not outside and claim.protocol is None
            # An unlabelled ± is often a spread over runs in ML reports: what it is, is
            # inferred, so at most a warning.
            unlabelled = bool(
                narrow and claim.plus_minus and not level and not claim.fields.get("pm_kind")
                and claim.protocol != "single"
            )
            severity = Severity.WARNING if unstated or unlabelled else self.severity
            kind = "± 1 SE" if claim.fields.get("pm_kind") == "se" else f"{lvl} interval"
            message = (
                f"{stated} {S.on_what(claim)} does not fit n = {S.count(n)}: a {kind} "
                f"has half-width about {S.in_scale(claim, half, 2)}"
                f"{' points' if sc == 100 else ''} (Wald)"
            )
            if unlabelled:
                message += "; the document does not say what its ± is (a spread over runs would not be checked)"
        wording = S.wilson_wording(claim, p, n, conf)
        return self.finding(
            claim.location,
            message,
            claim=claim,
            suggestion=(
                f"{S.as_written(claim, value)} ± {S.in_scale(claim, half)} "
                f"{S.on_what(claim)} ({wording})"
            ),
            evidence={
                "value": value,
                "n": n,
                "stated": list(v.stated),
                "level": conf,
                "half_width_wald": half,
                "expected": {m: list(b) for m, b in v.expected.items()},
                "matches_one_se": v.only_as_se,
            },
            severity=severity_for(claim.confidence, severity),
            confidence=claim.confidence,
        )
