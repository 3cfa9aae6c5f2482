"""BA201 within-noise: a claimed improvement, ranking or "#1" the numbers do not support."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.claims.linking import (
    anchored,
    claimed_pair,
    lines_claimed,
    pairwise_tables,
    table_about,
)
from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.registry import Rule

if TYPE_CHECKING:
    from benchaudit.claims.scoretable import ScoreCell, ScoreLine
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
        "leaderboard": "benchaudit.rules.comparisons.within_noise:_leaderboard",
        "document": "benchaudit.rules.comparisons.within_noise:_document",
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
    yield from _bold_leads(rule, source, ctx)
    yield from _prose_against_tables(rule, source, ctx)
    yield from _best_against_tables(rule, source, ctx)


def _bold_leads(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """A bold "best" cell whose lead over the runner-up is inside the noise of n items."""

    from benchaudit.claims.access import score_tables
    from benchaudit.claims.scoretable import references

    for st in score_tables(source, ctx):
        if not st.bold_means_best:
            continue  # the bold is not a "best" mark in this table: no lead is claimed
        outside = references(st)
        for line in st.lines:
            if not line.n or line.n < 2:
                continue
            if line.benchmark is not None and getattr(line.benchmark, "metric", "binary") != "binary":
                continue
            sign = 1 if line.higher_is_better else -1
            cells = [c for c in line.cells if c.model not in outside and c.model not in st.highlighted]
            groups = {c.group for c in cells}
            if len(groups) > 1 and all(any(c.bold for c in cells if c.group == g) for g in groups):
                # Bold marks each row group's best ("closed" / "open" models): test within groups.
                pools = [[c for c in cells if c.group == g] for g in sorted(groups)]
            else:
                pools = [cells]
            for pool in pools:
                yield from _bold_lead(rule, source, ctx, line, pool, sign)


def _bold_lead(
    rule: Rule, source: Source, ctx: Context, line: ScoreLine, cells: list[ScoreCell], sign: int
) -> Iterable[Finding]:
    """One pool of cells (a line, or a row group of it): does its bold best lead in the noise?"""
    from benchaudit.rules._document import level, signed, unpaired

    from benchaudit.stats.paired import mcnemar_floor

    bold = [c for c in cells if c.bold]
    if not bold or len(cells) < 2:
        return
    top = max(sign * c.value for c in cells)
    best = [c for c in bold if sign * c.value == top]
    rest = [c for c in cells if c not in best]
    if len(best) != 1 or not rest:
        return
    b = best[0]
    r = max(rest, key=lambda c: sign * c.value)
    if r.bold:
        return  # the runner-up is bold too: the table marks them alike, no lead is claimed
    scale = 100.0 if line.proportion else 1.0
    a_pts, r_pts = b.value * scale, r.value * scale
    if not (0 <= a_pts <= 100 and 0 <= r_pts <= 100) or a_pts == r_pts:
        return
    u = unpaired(a_pts, r_pts, line.n, 1 - ctx.alpha)
    if not (u["lo"] <= 0 <= u["hi"]):
        return
    lead = abs(a_pts - r_pts)
    # Both values are rounded: the lead in items is at most this (half a unit each way).
    unit = 10.0 ** -max(b.decimals, r.decimals) * scale
    items = (lead + unit) * line.n / 100
    # With a lead of at most m items no pairing can make the gap significant when McNemar's
    # floor 2·(1/2)^m is not below alpha; above it, a gap only just inside the unpaired
    # interval might be separated by a paired test, so it is said as information.
    never = mcnemar_floor(int(items)) >= ctx.alpha
    severity = Severity.WARNING if never or u["p"] >= 0.2 else Severity.INFO
    message = (
        f"{b.model} is set in bold as the best on {line.label} with {b.text}, "
        f"{lead:.3g} points ahead of {r.model} ({r.text}); on {line.n:,} items the "
        f"{level(ctx.alpha)} interval of that difference is {signed(u['lo'])} to "
        f"{signed(u['hi'])} points (unpaired: the table has no per-item results), so the lead "
        "is inside the noise"
    )
    if never:
        needed = next(m for m in range(1, 64) if mcnemar_floor(m) < ctx.alpha)
        message += (
            f"; a lead of at most {items:.1f} items can never reach p < {ctx.alpha:g} in a "
            f"paired McNemar test, which needs at least {needed} discordant items"
        )
    yield rule.finding(
        Location(source.path, b.line, b.column, b.page),
        message,
        claim=f"{b.model} | {line.label}: {b.text}",
        suggestion=(
            f"Mark {b.model} ({b.text}) and {r.model} ({r.text}) alike on {line.label}, or "
            "say they are tied within noise; a paired test on per-item results could "
            "separate them"
        ),
        evidence={
            "benchmark": line.label,
            "n": line.n,
            "best": b.value,
            "runner_up": r.value,
            **u,
            "bound": "unpaired",
        },
        severity=severity,
        confidence=Confidence.MEDIUM,
    )


def _prose_against_tables(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """ "X outperforms Y (across benchmarks)" checked against the rows of X and Y in a table."""
    from benchaudit.rules._document import signed, unpaired

    from benchaudit.claims.access import document_of, score_tables
    from benchaudit.claims.model_claims import comparisons
    from benchaudit.inputs.sentences import find_benchmarks

    doc = document_of(source)
    if doc is None:
        return
    tables = score_tables(source, ctx)
    if not tables:
        return
    for comp in comparisons(doc):
        if comp.kind != "superior" or not comp.subjects or not comp.objects:
            continue
        named = {m.benchmark.name for m in find_benchmarks(comp.block.text, ctx.benchmarks)}
        chosen = pairwise_tables(comp, tables, doc, named)
        for st in chosen[:1]:
            pair = claimed_pair(comp, st, named, ctx.benchmarks)
            if pair is None:
                continue
            a, rivals, spoken = pair
            losses: list[str] = []
            noisy: list[str] = []
            checked = 0
            rated = st.ratings if comp.general and not spoken else []
            for line in (spoken or st.lines) + rated:
                by = {c.model: c for c in line.cells}
                if a not in by:
                    continue
                sign = 1 if line.higher_is_better else -1
                for r in rivals:
                    if r not in by:
                        continue
                    checked += 1
                    mine, theirs = by[a], by[r]
                    if sign * mine.value < sign * theirs.value:
                        losses.append(f"{line.label} {mine.text} vs {r} {theirs.text}")
                    elif line.n and not line.proportion and sign * mine.value > sign * theirs.value:
                        u = unpaired(mine.value, theirs.value, line.n, 1 - ctx.alpha)
                        if u["lo"] <= 0 <= u["hi"]:
                            noisy.append(
                                f"{line.label} {mine.text} vs {theirs.text} ({signed(u['lo'])} to "
                                f"{signed(u['hi'])}, n = {line.n:,})"
                            )
            clear = checked - len(losses) - len(noisy)
            if not checked or (not losses and (clear > 0 or not noisy)):
                continue  # some lead beyond the noise: "outperforms" has support
            if _HEDGED.search(comp.sentence) and len(losses) * 4 <= checked:
                continue  # "nearly all benchmarks": a loss or two does not contradict it
            if losses:
                message = (
                    f"the table at line {st.table.line} does not support '{comp.verb}': {a} is "
                    f"behind on {len(losses)} of {checked} comparison(s): {'; '.join(losses[:6])}"
                )
                if noisy:
                    message += f"; leads inside the noise (unpaired 95%): {'; '.join(noisy[:6])}"
            else:
                message = (
                    f"the table at line {st.table.line} does not show '{comp.verb}' beyond the "
                    f"noise: every lead of {a} is inside the unpaired 95% interval: "
                    f"{'; '.join(noisy[:6])}"
                )
            yield rule.finding(
                Location(source.path, comp.line, None, comp.block.page),
                message,
                claim=comp.sentence,
                suggestion=(
                    f"Say where {a} leads and where it does not, benchmark by benchmark (e.g. "
                    f"'ahead of {', '.join(rivals)} on {checked - len(losses)} of {checked}')"
                ),
                evidence={"model": a, "rivals": rivals, "losses": losses, "noisy": noisy},
                confidence=Confidence.MEDIUM,
            )
            break


def _best_against_tables(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """ "X achieves the best results (on B)" checked against X's cells in the table it is about:
    another model ahead, or level with it, contradicts "best"; a lead inside the noise of n
    items does not establish it."""
    from benchaudit.rules._document import unpaired

    from benchaudit.claims.access import document_of, score_tables
    from benchaudit.claims.model_claims import comparisons, limited, resolve_family, subject_of
    from benchaudit.inputs.sentences import find_benchmarks

    doc = document_of(source)
    tables = score_tables(source, ctx) if doc is not None else []
    for comp in comparisons(doc) if tables else []:
        subject = subject_of(comp)
        if comp.kind != "best" or subject is None or limited(comp):
            continue
        named = {m.benchmark.name for m in find_benchmarks(comp.sentence, ctx.benchmarks)}
        chosen = table_about(comp, tables, doc) or anchored(comp, tables, named, None)
        for st in chosen[:1]:
            models = sorted({c.model for line in st.lines for c in line.cells})
            family = set(resolve_family(subject, models))
            lines = lines_claimed(comp, st, named, family)
            if not family or not lines:
                continue
            behind: list[str] = []
            level: list[str] = []
            noisy: list[str] = []
            for line in lines:
                sign = 1 if line.higher_is_better else -1
                mine = [c for c in line.cells if c.model in family]
                others = [c for c in line.cells if c.model not in family and c.model not in st.outside]
                if not mine or not others:
                    continue
                top = max(mine, key=lambda c: sign * c.value)
                rival = max(others, key=lambda c: sign * c.value)
                if sign * rival.value > sign * top.value:
                    behind.append(f"{line.label}: {rival.model} {rival.text} vs {top.text}")
                elif rival.value == top.value:
                    level.append(f"{line.label}: {rival.model} {rival.text} = {top.text}")
                elif line.n and not line.proportion:
                    u = unpaired(top.value, rival.value, line.n, 1 - ctx.alpha)
                    if u["lo"] <= 0 <= u["hi"]:
                        noisy.append(f"{line.label}: {top.text} vs {rival.model} {rival.text} (n = {line.n:,})")
            if not (behind or level) and (not noisy or len(noisy) < len(lines)):
                continue  # best where claimed, and at least one lead beyond the noise
            parts = []
            if behind:
                parts.append(f"another model is ahead on {len(behind)}: {'; '.join(behind[:5])}")
            if level:
                parts.append(f"level on {len(level)}: {'; '.join(level[:5])}")
            if noisy:
                parts.append(f"leads inside the unpaired 95% interval: {'; '.join(noisy[:5])}")
            where = f"table at line {st.table.line}" if doc.format != "pdf" else "table on page " + str(st.table.page)
            yield rule.finding(
                Location(source.path, comp.line, None, comp.block.page),
                f"the {where} does not show '{comp.verb}': " + "; ".join(parts),
                claim=comp.sentence,
                suggestion="Say where it leads and where it does not, benchmark by benchmark, and call "
                "a lead inside the noise a tie",
                evidence={"models": sorted(family), "behind": behind, "level": level, "noisy": noisy},
                confidence=Confidence.MEDIUM,
            )


_HEDGED = re.compile(r"\b(?:nearly|almost|most|majority|many|several|generally|largely)\b", re.I)
