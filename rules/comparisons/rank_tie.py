"""BA210 rank-tie: leaderboard neighbours whose intervals do not separate."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._results import analysis, first_line
from benchaudit.rules._wording import percent
from benchaudit.rules.comparisons._ranked_cells import ranked_cell_ties

from benchaudit.claims.access import document_of
from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.inputs.leaderboard import Entry


class RankTie(Rule):
    """Leaderboard neighbours whose intervals overlap are ranked as if they were separated.

    **What.** On a leaderboard (a CSV of one row per model with a 95% interval,
    ``+5/-4`` offsets or a standard error; or a leaderboard table in a document)
    the rule sorts rows by score and finds runs of neighbours whose intervals
    overlap. Each run is one finding at its first row, listing every model with
    its rank range: best rank = 1 + models wholly above, worst rank = models
    minus those wholly below. A run whose rows already share one rank in the
    table's rank column is reported as information only. A ranked table with
    no intervals (a rank column such as ``#`` or ``Rank``, a score column such as
    ``Overall`` or ``ALL``) is checked for rows that print the same score under
    different ranks: at any item count, equal scores do not order the models. The same holds
    for a column that ranks its models inside the score cells ("85.5 (8th)", "85.5 (9th)").
    On battles, ratings
    fitted by benchaudit whose bootstrap intervals overlap are reported as
    information.
    On per-item result files the order comes from the paired, Holm-adjusted
    tests of every pair on shared items: models the tests cannot separate
    form one group, each with its rank range, reported as information (the
    file itself ranks nothing).

    **Why.** A rating or win rate is an estimate; "1287 vs 1281" with intervals
    of ±10 is a tie on the evidence, however the table is sorted. Printing
    distinct ranks invites readers to read an order the data do not support.

    Bad (leaderboard.csv)::

        model,score,95% CI
        model-x,82.6,"(-1.7, 1.9)"
        model-y,81.9,"(-2.1, 2.4)"
        model-z,60.4,"(-2.5, 2.5)"

    Better (leaderboard.csv)::

        model,score,95% CI
        model-x,82.6,"(-1.7, 1.9)"
        model-y,72.0,"(-2.1, 2.5)"
        model-z,60.4,"(-2.5, 2.5)"

    **Assumptions.** Intervals are 95% intervals of each row's own score (an
    SE column becomes score ± 1.96·SE). Overlap is the conservative reading:
    two intervals can overlap a little while the difference is significant, so
    a run is "not shown to be separated", not "shown to be equal". A run in which every
    neighbouring gap is outside the unpaired 95% interval of its difference (standard errors
    taken as the interval width over 2 × 1.96) is information only. A row with a
    zero-width interval counts as its point (see anchored-baseline).
    """

    code = "BA210"
    name = "rank-tie"
    severity = Severity.WARNING
    reads = ("leaderboard", "document", "battles", "results")

    def on_battles(self, source: Source, ctx: Context) -> Iterable[Finding]:
        return _battles(self, source, ctx)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        """A document's score tables with intervals are leaderboards too; a column that ranks
        its models inside the score cells ("85.5 (9th)") is one as well."""
        yield from self.on_leaderboard(source, ctx)
        doc = document_of(source)
        if doc is None:
            return
        tables = list(doc.tables())
        yield from ranked_cell_ties(self, source, tables)
        from benchaudit.rules.comparisons._stated_n_boards import stated_n_boards

        for board, n in stated_n_boards(source.path, tables):
            for f in _leaderboard(self, board):
                # The intervals are computed, not printed: say from what.
                f.message += (
                    f" (the table prints no intervals: these are Wilson intervals of each score as "
                    f"a share of the {n:,} items its frame states)"
                )
                yield f

    def on_leaderboard(self, source: Source, ctx: Context) -> Iterable[Finding]:
        from benchaudit.inputs.leaderboard import leaderboards_of

        for board in leaderboards_of(source):
            yield from _leaderboard(self, board)

    def on_results(self, source: Source, ctx: Context) -> Iterable[Output]:
        """Models the paired, Holm-adjusted tests cannot order."""
        a = analysis(source, ctx)
        groups: dict[int, list[dict[str, Any]]] = {}
        for row in a.models:
            if row.get("tie_group") is not None and row.get("score") is not None:
                groups.setdefault(row["tie_group"], []).append(row)
        for members in groups.values():
            if len(members) < 2:
                continue
            members.sort(key=lambda r: r["rank"])
            ranges = ", ".join(
                f"{r['model']} {percent(r['score'])} (rank {r['rank_low']}–{r['rank_high']})"
                if r["rank_low"] != r["rank_high"]
                else f"{r['model']} (rank {r['rank_low']})"
                for r in members
            )
            yield self.finding(
                Location(source.path, first_line(source, members[0]["model"])),
                f"{len(members)} models ranked {members[0]['rank']}–{members[-1]['rank']} are not "
                "separated by the paired tests on their shared items (Holm-adjusted, "
                f"α = {ctx.alpha}): " + ", ".join(r["model"] for r in members),
                claim=", ".join(r["model"] for r in members),
                suggestion=f"Report rank ranges instead of a strict order: {ranges}.",
                # A per-item file states no ranking: the tie is advice on how to report
                # it, not a misleading claim (a leaderboard that ranks them gets a warning).
                severity=Severity.INFO,
                evidence={
                    "models": [r["model"] for r in members],
                    "scores": [r["score"] for r in members],
                    "rank_low": [r["rank_low"] for r in members],
                    "rank_high": [r["rank_high"] for r in members],
                },
            )


def _fmt(x: float) -> str:
    return f"{x:.1f}" if abs(x) < 1000 else f"{x:.0f}"


#: Models named in a message; the evidence lists them all.
SHOWN = 8


def _first(items: list[str], sep: str) -> str:
    more = len(items) - SHOWN
    return sep.join(items[:SHOWN]) + (f"{sep}and {more} more" if more > 0 else "")


def _leaderboard(rule: Rule, board: Any) -> Iterable[Finding]:
    from benchaudit.stats.ranks import rank_ranges, tie_groups

    rows = board.ranked()
    if len(rows) < 2:
        return
    if not all(e.has_interval for e in rows):
        yield from _equal_scores_ranked_apart(rule, board, rows)
        return
    best, worst = rank_ranges([e.low for e in rows], [e.high for e in rows])
    groups = tie_groups([e.score for e in rows], [e.low for e in rows], [e.high for e in rows])
    for group in [part for g in groups for part in _split_at_clear_gaps(g, rows)]:
        members = [rows[k] for k in group]
        ranks = {e.rank for e in members}
        # A rank column that already gives the run one shared rank reports the tie.
        shown = bool(board.rank_column) and len(ranks) == 1 and None not in ranks
        # Overlap is not a test: when every neighbouring gap of the run lies outside the 95%
        # interval of its own difference, the order may well hold, so the run is information.
        apart = all(_gap_clear(a, b) for a, b in zip(members, members[1:]))
        first, last = group[0] + 1, group[-1] + 1
        parts = _first(
            [f"{e.model} {_fmt(e.score)} [{_fmt(e.low)}, {_fmt(e.high)}]" for e in members], "; "
        )
        ranges = _first(
            [
                f"{rows[k].model} (rank {best[k]}–{worst[k]})"
                if best[k] != worst[k]
                else f"{rows[k].model} (rank {best[k]})"
                for k in group
            ],
            ", ",
        )
        message = (
            f"{len(members)} neighbours ranked {first}–{last} are not separated: their 95% "
            f"intervals overlap ({parts})"
        )
        if apart:
            message += (
                "; each neighbouring gap is outside the 95% interval of its difference "
                "(unpaired, from the printed intervals), so the order may hold"
            )
        yield rule.finding(
            Location(board.path, members[0].line),
            message,
            claim=_first([e.model for e in members], ", "),
            suggestion=f"Report rank ranges instead of a strict order: {ranges}.",
            evidence={
                "models": [e.model for e in members],
                "scores": [e.score for e in members],
                "ci_low": [e.low for e in members],
                "ci_high": [e.high for e in members],
                "rank_low": [best[k] for k in group],
                "rank_high": [worst[k] for k in group],
                "positions": [k + 1 for k in group],
                "interval_from": board.interval_from,
            },
            confidence=Confidence.HIGH if board.interval_from == "ci column" else Confidence.MEDIUM,
            severity=Severity.INFO if shown or apart else None,
        )


def _numeric_rank(e: Entry) -> int | None:
    text = (e.rank or "").strip().rstrip(".")
    return int(text) if text.isdigit() else None


def _equal_scores_ranked_apart(rule: Rule, board: Any, rows: list[Entry]) -> Iterable[Finding]:
    """A table with a rank column and no intervals: rows printing the same score under
    different ranks. Whatever the item count, equal printed scores do not order the models."""
    if not board.rank_column:
        return
    k = 0
    while k < len(rows):
        j = k
        while j + 1 < len(rows) and rows[j + 1].score == rows[k].score:
            j += 1
        members = [e for e in rows[k : j + 1] if _numeric_rank(e) is not None]
        ranks = sorted({r for e in members if (r := _numeric_rank(e)) is not None})
        if len(members) > 1 and len(ranks) > 1:
            first = min(members, key=lambda e: _numeric_rank(e) or 0)
            listed = _first([f"{e.model} (rank {e.rank})" for e in members], ", ")
            yield rule.finding(
                Location(board.path, first.line),
                f"{len(members)} models print the same {board.score_column} {_fmt(members[0].score)} "
                f"but are ranked {', '.join(map(str, ranks))}: {listed}; equal scores do not "
                "order the models",
                claim=_first([e.model for e in members], ", "),
                suggestion=f"Give the tied models one shared rank ({ranks[0]}=) or rank ranges.",
                evidence={
                    "models": [e.model for e in members],
                    "scores": [e.score for e in members],
                    "ranks": [e.rank for e in members],
                },
                confidence=Confidence.HIGH,
            )
        k = j + 1


def _split_at_clear_gaps(group: list[int], rows: list[Entry]) -> list[list[int]]:
    """A run of overlapping intervals cut where a neighbouring gap is clear of the noise.

    "A ~ B, B clearly above C, C ~ D" is two ties, not one run of four; a run where every gap
    is clear stays whole (it is reported as information)."""
    pieces: list[list[int]] = [[group[0]]]
    for prev, k in zip(group, group[1:]):
        if _gap_clear(rows[prev], rows[k]):
            pieces.append([k])
        else:
            pieces[-1].append(k)
    tied = [p for p in pieces if len(p) > 1]
    return tied if tied else [group]


def _gap_clear(a: Entry, b: Entry) -> bool:
    """Whether two rows' gap exceeds the unpaired 95% half-width of their difference."""
    if a.low is None or a.high is None or b.low is None or b.high is None:
        return False  # callers pass rows with intervals only
    se_a, se_b = (a.high - a.low) / (2 * 1.959964), (b.high - b.low) / (2 * 1.959964)
    se: float = (se_a**2 + se_b**2) ** 0.5  # a sum of squares: the root is real
    return se > 0 and abs(a.score - b.score) > 1.959964 * se


def _battles(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.stats.ranks import rank_ranges, tie_groups

    r = source.data.ratings(ctx)
    lo, hi, score = list(r.ci_low), list(r.ci_high), list(r.rating)
    best, worst = rank_ranges(lo, hi)
    for group in tie_groups(score, lo, hi):
        names = [r.models[k] for k in group]
        yield rule.finding(
            Location(source.path, 1),
            f"Bradley–Terry ratings of {', '.join(names)} have overlapping 95% bootstrap "
            "intervals: their order is not established by these battles",
            claim=", ".join(names),
            suggestion="Report them as tied, with rank ranges: "
            + ", ".join(
                f"{r.models[k]} {score[k]:.0f} [{lo[k]:.0f}, {hi[k]:.0f}] rank {best[k]}–{worst[k]}"
                for k in group
            )
            + ".",
            evidence={
                "models": names,
                "rating": [score[k] for k in group],
                "ci_low": [lo[k] for k in group],
                "ci_high": [hi[k] for k in group],
                "rank_low": [best[k] for k in group],
                "rank_high": [worst[k] for k in group],
                "ci_method": r.method,
            },
            severity=Severity.INFO,
        )
