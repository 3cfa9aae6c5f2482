"""BA106 percent-vs-points: an absolute gain in points reported as a percentage."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from benchaudit.rules._wording import severity_for, signed

from benchaudit.claims.model_claims import page_at
from benchaudit.finding import Finding, Severity
from benchaudit.rulebase import Rule
from benchaudit.stats import granularity as G

if TYPE_CHECKING:
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreLine, ScoreTable
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: "outperforms Y by 1.3%", "a 2.67% improvement over Y", "by a margin of ~5%": a stated lead.
_LEAD = re.compile(
    r"\bby\s+(?:a\s+(?:margin|gap)\s+of\s+)?(?P<a1>about\s+|around\s+|roughly\s+|nearly\s+|~\s*)?"
    r"(?P<d1>\d+(?:\.\d+)?)\s*%"
    r"|(?P<a2>~\s*)?\+?(?P<d2>\d+(?:\.\d+)?)\s*%\s+(?:improvement|gain|increase|lead|boost|higher|better)\b",
    re.I,
)
_RELATIVE_OR_POINTS = re.compile(r"^\s*(?:relative|relatively|points?|pp|percentage points?|absolute)\b", re.I)


class PercentVsPoints(Rule):
    """A change written as "X%" that is the difference in points, not the relative change.

    **What.** A sentence with two scores and a change stated as a percentage
    ("improves from 70% to 75%, a 5% gain") where the stated change equals the
    absolute difference (5 points) and not the relative change (7.1%). The
    suggestion gives both: "+5.0 points (+7.1% relative)". A change named
    "absolute" that is the relative one ("from 55% to 66%, a 20% absolute
    gain") is flagged too, and one named "relative" that is the difference in
    points when no rounding of the written numbers makes it relative.

    **Why.** "5% better" reads as a relative change. Going from 70% to 75% is 5
    percentage points, or 7.1% relative; going from 10% to 15% is 5 points and
    50% relative. Mixing the two makes small gains look large or large ones
    small.

    Bad::

        Accuracy improves from 70% to 75%, a 5% improvement.

    Better::

        Accuracy improves from 70% to 75%, a gain of 5.0 points (7.1% relative).

    A sentence that states a lead over a model ("surpasses Y by 1.3%") is checked
    the same way against the table that holds both models: the lead is flagged
    when it equals their gap in points on a benchmark the clause speaks of and
    not their relative gap. So is a lead whose rival's score the paragraph
    states beside its name ("Y (18.1%) ... 21.7%, a 3.6% improvement over Y"),
    and a change the table after the sentence writes beside the score ("a
    16.7% improvement on average" and a cell "48.9 (+16.7)"), a lead after its
    rival ("57.7%, surpassing the human baseline by 4%") whose score the
    paragraph gives ("human experts achieving only 53.7%"), and a change from
    one score to another stated in the next sentence as the difference over
    the final value ("from 59.94 to 43.49. This 37.8% decline": 16.45 / 43.49,
    while the decline is 27.4%).

    **Assumptions.** The two scores are the nearest pair in the sentence
    ("from x to y", or two percentages); a change marked "relative",
    "absolute", "points" or "pp" is taken at its word.
    """

    code = "BA106"
    name = "percent-vs-points"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        said: set[int | None] = set()
        for f in (*self._sentences(source), *self._against_tables(source, ctx)):
            said.add(f.location.line)
            yield f
        yield from self._document_leads(source, said)
        yield from self._table_changes(source, said)

    def _table_changes(self, source: Source, said: set[int | None]) -> Iterator[Finding]:
        """A change column that prints differences in points as "+50.6%", and a lead over a
        rival whose two scores are rows of the table the paragraph speaks of."""
        from benchaudit.claims.access import document_of
        from benchaudit.claims.change_columns import change_columns
        from benchaudit.claims.percent_tables import row_leads
        from benchaudit.finding import Confidence, Location

        doc = document_of(source)
        if doc is None:
            return
        for ch in change_columns(doc):
            rel = f"{signed(ch.relative)}% relative"
            listed = ", ".join(text for _, text in ch.rows[:8])
            yield self.finding(
                Location(source.path, ch.line, None, ch.page),
                f"the '{ch.column}' column writes differences in points as percentages: "
                f"{ch.score} − {ch.base} is {ch.stated.rstrip('%')} points, printed +{ch.stated} "
                f"({rel}); each of its {len(ch.rows)} rows ({listed}) is {ch.why} in points",
                claim=ch.sentence,
                suggestion=f"Head the column '{ch.column} (points)' or write {signed(ch.points)} points ({rel})",
                evidence={"column": ch.column, "pair": ch.why, "score": ch.score, "base": ch.base,
                          "points": round(ch.points, 6), "relative_percent": round(ch.relative, 6),
                          "lines": sorted({ln for ln, _ in ch.rows if ln is not None})},
                confidence=Confidence.HIGH,
            )
        # Several leads of one sentence ("by 15.1% ... falls short of human performance by
        # 10.4%") are each a finding; a line another reading already flagged is not read again.
        before, seen = set(said), set()
        for lead in row_leads(doc):
            if lead.line in before or (lead.line, lead.stated) in seen:
                continue
            seen.add((lead.line, lead.stated))
            said.add(lead.line)
            gap = f"gap to {lead.rival}" if lead.below else f"lead over {lead.rival}"
            pair = f"{lead.base} vs {lead.score}" if lead.below else f"{lead.score} vs {lead.base}"
            over = lead.score if lead.below else lead.base
            sign = -1 if lead.below else 1
            yield self.finding(
                Location(source.path, lead.line, None, lead.page),
                f"the {lead.stated}% {gap} is the difference in points on the table's "
                f"'{lead.column}' ({pair}; read {lead.why}); relative to {over} it is "
                f"{abs(lead.relative):.1f}%",
                claim=lead.sentence,
                suggestion=f"{signed(sign * lead.points)} points ({signed(sign * lead.relative)}% relative) on {lead.column}",
                evidence={"stated": lead.stated, "score": lead.score, "base": lead.base, "rival": lead.rival,
                          "column": lead.column, "points": round(lead.points, 6),
                          "relative_percent": round(lead.relative, 6)},
                confidence=Confidence.MEDIUM,
            )

    def _document_leads(self, source: Source, said: set[int | None]) -> Iterator[Finding]:
        """A lead whose two scores the paragraph states ("X (18.1%)" ... "21.7%, a 3.6%
        improvement over X"), or whose change the table after it writes ("48.9 (+16.7)")."""
        from benchaudit.claims.access import document_of
        from benchaudit.claims.percent_leads import (
            beaten_by_leads,
            over_final_changes,
            paragraph_leads,
            table_written_leads,
        )
        from benchaudit.finding import Confidence, Location

        doc = document_of(source)
        if doc is None:
            return
        leads = (*paragraph_leads(doc), *beaten_by_leads(doc), *table_written_leads(doc), *over_final_changes(doc))
        for lead in leads:
            if lead.line in said:
                continue
            said.add(lead.line)
            rel = f"relative to {lead.base} it is {abs(lead.relative):.1f}%"
            if lead.over_final:
                message = (
                    f"the {lead.stated}% change from {lead.base} to {lead.score} is the difference "
                    f"({abs(lead.points):.{max(_places(lead.base), _places(lead.score))}f}) divided by the "
                    f"final value {lead.score}; {rel}"
                )
            elif lead.in_table:
                message = (
                    f"the {lead.stated}% change is the +{lead.stated} that {lead.rival} writes beside "
                    f"{lead.score}, a difference in points from {lead.base}; {rel}"
                )
            else:
                message = (
                    f"the {lead.stated}% lead over {lead.rival} is the difference in points "
                    f"({lead.score} vs {lead.base}); {rel}"
                )
            yield self.finding(
                Location(source.path, lead.line, None, page_at(lead.block, lead.line)),
                message,
                claim=lead.sentence,
                suggestion=f"{signed(lead.points)} points ({signed(lead.relative)}% relative)",
                evidence={"stated": lead.stated, "score": lead.score, "base": lead.base,
                          "points": round(lead.points, 6), "relative_percent": round(lead.relative, 6)},
                confidence=Confidence.MEDIUM,
            )

    def _against_tables(self, source: Source, ctx: Context) -> Iterator[Finding]:
        """ "X outperforms Y by 1.3%" where the table gives the two scores: the stated lead is
        their difference in points (to the rounding of the numbers) and not the relative one."""
        from benchaudit.claims.linking import linked_pairs
        from benchaudit.finding import Confidence, Location

        for comp, st, pair in linked_pairs(source, ctx, "superior", keep=lambda c: bool(_leads(c))):
            for m in _leads(comp):
                hit = _points_match(m, st, pair, comp)
                if hit is None:
                    continue
                label, a, b, rival, diff, rel = hit
                stated = m.group("d1") or m.group("d2")
                yield self.finding(
                    Location(source.path, comp.line, None, comp.page),
                    f"the {stated}% lead over {rival} is the difference in points on {label} "
                    f"({a} vs {b}); relative to {b} it is {abs(rel):.1f}%",
                    claim=comp.sentence,
                    suggestion=f"{signed(diff)} points ({signed(rel)}% relative) on {label}",
                    evidence={"benchmark": label, "model": a, "rival": b, "stated": stated,
                              "points": round(diff, 6), "relative_percent": round(rel, 6)},
                    confidence=Confidence.MEDIUM,
                )

    def _sentences(self, source: Source) -> Iterator[Finding]:
        for claim in source.claims:
            f = claim.fields
            if claim.kind != "change":
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
            points = f"{signed(diff)} points ({signed(rel)}% relative)"
            if f.get("relative_stated") or f.get("absolute_stated"):
                # Named as the one and computed as the other: "a 20% absolute gain" from 55 to 66.
                said_abs = bool(f.get("absolute_stated")) and not f.get("relative_stated")
                if said_abs:
                    wrong = off_rel <= tol < off_abs
                else:
                    # The relative change the written numbers allow, with a point of slack for
                    # loose wording: "70% to 75%, a 5% relative gain" is not called out.
                    (b_lo, b_hi), (a_lo, a_hi) = (
                        tuple(float(x) for x in G.rounding_range(v, 1)) for v in (before, after)
                    )
                    rel_lo, rel_hi = 100 * (a_lo - b_hi) / b_hi, 100 * (a_hi - b_lo) / b_lo
                    wrong = off_abs <= tol and not rel_lo - unit - 1 <= d <= rel_hi + unit + 1
                if not wrong:
                    continue
                named, actual = ("absolute", "relative") if said_abs else ("relative", "absolute")
                yield self.finding(
                    claim.location,
                    f"the {delta}% change from {before}% to {after}% is called {named} but is the "
                    f"{actual} change: {points}",
                    claim=claim,
                    suggestion=points,
                    evidence={"before": before, "after": after, "stated": delta,
                              "points": round(diff, 6), "relative_percent": round(rel, 6)},
                    severity=severity_for(claim.confidence, self.severity),
                    confidence=claim.confidence,
                )
                continue
            if off_abs > tol or off_rel <= unit or off_abs >= off_rel:
                continue
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


def _places(x: str) -> int:
    return len(x.split(".")[1]) if "." in x else 0


def _leads(comp: ModelComparison) -> list[re.Match[str]]:
    """The leads stated as a percentage after the verb, unless marked relative or in points."""
    found = [m for m in _LEAD.finditer(comp.scope) if m.start() > comp.verb_at]
    return [m for m in found if not _RELATIVE_OR_POINTS.match(comp.scope[m.end() :])]


def _points_match(
    m: re.Match[str], st: ScoreTable, pair: tuple[str, list[str], list[ScoreLine]], comp: ModelComparison
) -> tuple[str, str, str, str, float, float] | None:
    """The first line of the claimed pair whose gap in points is the stated percentage (to
    the rounding of the three numbers) while the relative gap is not."""
    subject, rivals, spoken = pair
    stated = m.group("d1") or m.group("d2")
    d = float(stated)
    approx = bool(m.group("a1") or m.group("a2"))
    unit = 0.5 * 10 ** -G.decimals(stated)
    for line in spoken or st.lines:
        by = {c.model: c for c in line.cells}
        if subject not in by or line.proportion:
            continue
        for r in rivals:
            if r not in by or by[r].value <= 0:
                continue
            a, b = by[subject], by[r]
            diff = a.value - b.value
            rel = 100 * diff / b.value
            tol = unit + 0.5 * 10 ** -a.decimals + 0.5 * 10 ** -b.decimals + (0.5 if approx else 0)
            if diff > 0 and abs(diff - d) <= tol and abs(rel - d) > tol:
                return line.label, a.text, b.text, r, diff, rel
    return None
