"""BA204 null-as-equivalence: "not significant, so the same / no degradation"."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import CITATION, claims, emit, points, unpaired
from benchaudit.rules._wording import num, signed

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source

_DEGRADE_WORDS = (
    "degrad",
    "drop",
    "loss",
    "lose",
    "suffer",
    "hurt",
    "harm",
    "reduce",
    "decrease",
    "regression",
    "sacrific",
    "no worse",
    "preserv",
    "retain",
    "maintain",
    "lossless",
)


class NullAsEquivalence(Rule):
    """A non-significant difference reported as "the same" or "no degradation".

    **What.** A sentence that turns the absence of a significant difference
    into a claim of equality: "no significant difference, so the models are
    equivalent", "does not suffer from significant performance degradation",
    "no degradation" after quantisation or distillation. When the sentence or
    the document's score table gives the two scores, the rule computes the 95%
    interval of the difference (n from the sentence or the registry) and
    states the largest drop the data cannot rule out. "X is comparable to / on
    par with Y" is checked against the rows of X and Y in the table it is
    about: a gap of at least 3 points below Y whose unpaired 95% interval excludes 0
    (n known) contradicts the parity; smaller gaps are left alone. A sentence
    that states its own margin ("within 1 point") is judged against that
    margin on the numbers as written.

    **Why.** Failing to reject "no difference" is not evidence of no
    difference, least of all on a small benchmark. A 6.7-point drop on
    HumanEval's 164 problems (70.1% → 63.4%) is "not significant" (unpaired
    interval −16.9 to +3.5) and yet entirely compatible with a real loss of 15
    points. Equivalence needs an equivalence test (TOST) against a margin
    chosen in advance, or at least the interval.

    Bad::

        The 4-bit model scores 63.4% vs 70.1% for the original on HumanEval;
        it does not suffer from significant performance degradation.

    Better::

        The 4-bit model scores 63.4% vs 70.1% for the original on HumanEval
        (−6.7 points, 95% interval −16.9 to +3.5 over 164 problems); we cannot
        rule out a loss of up to 17 points.

    **Assumptions.** Accuracies on n items scored 0/1; the interval is
    unpaired (the paired one, from per-item results, is narrower).
    """

    code = "BA204"
    name = "null-as-equivalence"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for c in claims(source, "comparison"):
            f = c.fields
            eq = (f.get("equivalence") or "").lower()
            if not eq or f.get("overlap") == "null":
                continue  # equality read off overlapping intervals is overlap-fallacy's
            degrade = any(w in eq for w in _DEGRADE_WORDS)
            if f.get("significant") != "no" and not degrade:
                continue
            yield from _finding(self, c, eq, ctx)
        yield from _parity_against_tables(self, source, ctx)


#: A gap smaller than this many points is left alone: "comparable" in ordinary use.
MARGIN = 3.0


def _parity_against_tables(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """"X is comparable to / on par with Y" against the rows of X and Y in the table the
    sentence is about: a gap of at least ``MARGIN`` points whose unpaired 95% interval
    excludes 0, on a benchmark with a known item count, contradicts the parity."""
    from benchaudit.claims.access import document_of
    from benchaudit.claims.linking import linked_pairs, subject_reason

    pdf = getattr(document_of(source), "format", "") == "pdf"
    for comp, st, pair in linked_pairs(source, ctx, "equivalent", loose=True):
        a, rivals, spoken = pair
        stated = stated_margin(comp.sentence)
        gaps, checked = [], 0
        for line in spoken or st.lines:
            by = {c.model: c for c in line.cells}
            if a not in by or (stated is None and (not line.n or line.proportion)):
                continue
            for r in rivals:
                if r not in by:
                    continue
                checked += 1
                if stated is not None:
                    # The document's own margin ("within 1 point"): judged on the numbers as
                    # written, to their rounding; no noise enters a claim about these numbers.
                    diff = by[a].value - by[r].value
                    slack = 0.5 * 10 ** -by[a].decimals + 0.5 * 10 ** -by[r].decimals
                    if abs(diff) > stated[0] + slack:
                        gaps.append(f"{line.label} {by[a].text} vs {r} {by[r].text} ({signed(diff)})")
                    continue
                if not line.n:
                    continue  # unreachable: lines without n are skipped above when no margin is stated
                u = unpaired(by[a].value, by[r].value, line.n, 1 - ctx.alpha)
                # Only a gap against the subject: parity said of a model that is ahead
                # understates it, and is no claim a reader is misled by.
                if u["diff"] <= -MARGIN and u["hi"] < 0:
                    gaps.append(
                        f"{line.label} {by[a].text} vs {r} {by[r].text} ({signed(u['diff'])}; "
                        f"{signed(u['lo'])} to {signed(u['hi'])}, n = {line.n:,})"
                    )
        if not gaps:
            continue
        if _PARTIAL.search(comp.sentence[comp.verb_at :]) and 2 * len(gaps) <= checked:
            continue  # "comparable on a range of / most tasks": a minority of gaps fits the claim
        if stated is not None:
            where = f"page {st.table.page}" if pdf else f"line {st.table.line}"
            yield rule.finding(
                Location(source.path, comp.line, None, comp.page),
                f"the sentence states a margin ('{stated[1]}'), but the table at {where} shows "
                f"larger gaps on {len(gaps)} of {checked} comparison(s): {'; '.join(gaps[:6])}"
                + (f" ({why})" if (why := subject_reason(comp, st, a)) else ""),
                claim=comp.sentence,
                suggestion="State the gaps that exceed the margin, or claim the margin only for "
                "the benchmarks where it holds",
                evidence={"model": a, "rivals": rivals, "gaps": gaps, "checked": checked,
                          "stated_margin": stated[0]},
                confidence=Confidence.MEDIUM,
            )
            continue
        where = f"page {st.table.page}" if pdf else f"line {st.table.line}"
        why = subject_reason(comp, st, a)
        yield rule.finding(
            Location(source.path, comp.line, None, comp.page),
            f"'{comp.verb}' asserts parity, but the table at {where} shows gaps of at least "
            f"{num(MARGIN, 0)} points beyond the unpaired 95% noise on {len(gaps)} of {checked} "
            f"comparison(s): {'; '.join(gaps[:6])}" + (f" ({why})" if why else ""),
            claim=comp.sentence,
            suggestion="Say where the models differ and by how much, benchmark by benchmark; "
            "claim equivalence only with an equivalence test (TOST) against a stated margin",
            evidence={"model": a, "rivals": rivals, "gaps": gaps, "checked": checked, "margin": MARGIN},
            confidence=Confidence.MEDIUM,
        )


#: A margin the sentence states for its parity: "within 1 point", "within 0.5%", "a gap of
#: less than 2 points", "no more than 1.5 points behind".
_MARGIN_STATED = re.compile(
    r"\b(?:within|(?:a\s+)?(?:gap|difference|margin)\s+of\s+(?:less\s+than|under|at\s+most|below)|"
    r"(?:less|no\s+more)\s+than)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?"
    r"(?P<m>\d+(?:\.\d+)?)\s*(?P<u>%|points?|pts?|pp|percentage\s+points?)",
    re.I,
)


def stated_margin(sentence: str) -> tuple[float, str] | None:
    """The margin a parity sentence states, in points, and as written; a range ("within 1-3
    standard deviations") or a margin in other units is none."""
    m = _MARGIN_STATED.search(sentence)
    if m is None or re.match(r"\s*[-–]\s*\d", sentence[m.end("m") :]):
        return None
    return float(m.group("m")), m.group(0)


#: A parity claimed for some of the results only ("on a range of tasks", "on most benchmarks").
_PARTIAL = re.compile(
    r"\b(?:a\s+(?:wide\s+)?range\s+of|most|many|several|some|various|a\s+number\s+of|majority)\b", re.I
)
#: Verbs of keeping something that design prose uses without claiming a measured parity.
_SOFT = re.compile(r"maintain|preserv|retain|keep|sacrific|compromis|without", re.I)
#: What a parity claim is measured against: a number, a baseline, a comparison word.
_ANCHOR = re.compile(
    r"(?<![\w.-])\d+(?:\.\d+)?(?![\w.-])|\b(?:baselines?|original|full[- ](?:precision|attention|model)|dense|than|compared|"
    r"relative to|vs\.?|versus|counterparts?|teacher|BF16|FP16|FP32|unquantized|uncompressed)\b",
    re.I,
)


def _finding(rule: Rule, c: Claim, eq: str, ctx: Context) -> Iterable[Finding]:
    f = c.fields
    a, b = f.get("a_value"), f.get("b_value")
    rows: list[dict[str, Any]] = []
    if a and b and c.n:
        x, y = points(a, b), points(b, a)
        if f.get("pair") != "from-to":
            x, y = y, x  # "A (new) vs B (old)": the change is A - B
        u = unpaired(y, x, c.n, 1 - ctx.alpha)
        rows.append({"benchmark": c.benchmark or "", "old": x, "new": y, **u})
    elif f.get("tables"):
        from benchaudit.rules._tables import pairwise_rows

        rows = [r for r in pairwise_rows(f["tables"], ctx, c.text) if r["diff"] < 0]
    if not rows:
        if f.get("significant") != "no" and not f.get("values_pct"):
            if CITATION.search(c.text):
                return  # a cited paper's result, in words only: its evidence is that paper
            if _SOFT.search(eq) and not _ANCHOR.search(c.text):
                # "maintaining the number of activated parameters, crucial for preserving
                # performance": a design aim with nothing it is compared to, not a result.
                return
        if f.get("significant") != "no" and not f.get("values_pct"):
            conf = Confidence.LOW  # "no degradation" with nothing to check it against
        else:
            conf = min(c.confidence, Confidence.MEDIUM)
        yield emit(
            rule,
            c,
            f"'{eq}' claims equivalence from the absence of a significant "
            f"difference; a non-significant result does not show the scores are equal",
            suggestion="Report the difference with its 95% interval and the largest loss "
            "it cannot rule out, or run an equivalence test (TOST) against a margin fixed "
            "in advance.",
            evidence={"phrase": eq},
            confidence=conf,
        )
        return
    worst = min(rows, key=lambda r: r["lo"])
    name = f" on {worst['benchmark']}" if worst.get("benchmark") else ""
    yield emit(
        rule,
        c,
        f"'{eq}', but the change{name} is {signed(worst['diff'])} points with an unpaired 95% "
        f"interval of {signed(worst['lo'])} to {signed(worst['hi'])} (n = {worst['n']}): a loss of "
        f"up to {num(-worst['lo'], 0)} points is not ruled out",
        suggestion=f"The change{name} is {signed(worst['diff'])} points (95% interval "
        f"{signed(worst['lo'])} to {signed(worst['hi'])}, {worst['n']} items); it is not "
        f"statistically significant, but a loss of up to {num(-worst['lo'], 0)} points cannot "
        f"be ruled out.",
        evidence={"rows": rows, "bound": "unpaired", "n_source": c.n_source},
        confidence=c.confidence if len(rows) == 1 and a else Confidence.MEDIUM,
    )
