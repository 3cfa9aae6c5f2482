"""BA201 within-noise: a claimed improvement, ranking or "#1" the numbers do not support."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Finding, Location, Severity
from benchaudit.registry import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class WithinNoise(Rule):
    """A claimed improvement, ranking or "#1" lies inside the noise of its own numbers.

    **What.** Leaderboards: a row marked as the winner ("#1", "SOTA", "state of
    the art", "best", a medal, bold) whose interval overlaps the runner-up's is
    flagged with both intervals and the rank range of the top row.

    **Why.** "#1" is a claim that the top row beats the second. When the two
    intervals overlap, the data do not establish the order: another draw of
    the same evaluation could swap them.

    Bad (leaderboard.csv)::

        model,score,95% CI
        our-model (SOTA),82.6,"(-1.7, 1.9)"
        rival,81.9,"(-2.1, 2.4)"
        older,60.4,"(-2.5, 2.5)"

    Better (leaderboard.csv)::

        model,score,95% CI
        our-model,82.6,"(-1.7, 1.9)"
        rival,81.9,"(-2.1, 2.4)"
        older,60.4,"(-2.5, 2.5)"

    Documents: a sentence saying one model outperforms, improves on or is
    significantly better than another is checked against its own numbers: a
    reported p at or above alpha; two scores whose unpaired 95% interval of the
    difference contains zero (n from the sentence, the paragraph or the
    benchmark registry); two stated intervals likewise; a score table with
    "improves on every benchmark", benchmark by benchmark. The message says
    the verdict used the unpaired bound (a paired analysis needs per-item
    results). 73.0% vs 70.0% on 500 questions is +3.0 points, unpaired 95%
    interval -2.6 to +8.6.

    Bad::

        On the same 500 questions, model A (73.0%) outperforms model B (70.0%).

    Better::

        On the same 500 questions, model A (73.0%) scores 3.0 points above model B
        (70.0%); a paired McNemar test gives p = 0.036.

    **Assumptions.** Intervals are 95% intervals of each row (an SE column
    becomes ± 1.96·SE); overlap is the conservative reading of "not separated".
    """

    code = "BA201"
    name = "within-noise"
    severity = Severity.WARNING
    branches = {
        "leaderboard": "benchaudit.rules.within_noise:_leaderboard",
        "document": "benchaudit.rules.within_noise:_document",
    }


def _leaderboard(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.inputs.leaderboard import TOP_MARKERS, leaderboards_of, top_within_noise

    for board in leaderboards_of(source):
        rows = board.ranked()
        if len(rows) < 2 or not any(TOP_MARKERS.search(c) for c in rows[0].cells):
            continue
        got = top_within_noise(board)
        if got is None:
            continue
        top, second = rows[0], rows[1]
        yield rule.finding(
            Location(board.path, top.line),
            f"{top.model} is marked as the top model, but its 95% interval "
            f"[{top.low:g}, {top.high:g}] overlaps {second.model}'s [{second.low:g}, "
            f"{second.high:g}]: the lead of {top.score - second.score:.3g} is within noise",
            claim=" ".join(top.cells),
            suggestion=(
                f'Drop the "#1" wording: "{top.model} and {second.model} are statistically '
                f"tied for first ({top.score:g} vs {second.score:g}; rank range "
                f'{got["rank_low"]}–{got["rank_high"]})".'
            ),
            evidence=got,
        )


def _document(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._document import check_within_noise

    yield from check_within_noise(rule, source, ctx)
