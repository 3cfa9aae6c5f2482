"""Bold "best" cells of score tables whose lead over the runner-up is inside the noise.

Part of BA201 within-noise (:mod:`benchaudit.rules.comparisons.within_noise`). Each bold best
of a line (a benchmark) is tested against the next value of its line, or of its row group when
the bold marks group bests, with the unpaired interval of the difference on the line's item
count. Where a table has several such cells the cause is shared (the table bolds leads it
cannot show), so they are said once for the table, cell by cell.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from benchaudit.rules._claims import unpaired
from benchaudit.rules._wording import level, signed

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.claims.scoretable import ScoreCell, ScoreLine, ScoreTable
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: From this many cells of one table on, one finding lists them all (issue: one per table).
GROUP_FROM = 3
#: Cells listed in a table's finding; the rest are counted.
LISTED = 12


@dataclass
class _Lead:
    """One bold cell's lead inside the noise: its own finding, and its part of a table's."""

    finding: Finding
    #: "model | label: text vs rival text (+d; lo to hi, n = N)"
    part: str
    #: Why the n is what it is, when it is not the line's own count (a bound, a split).
    why_n: str = ""
    #: A lead of so few items that no paired test could separate it.
    never: bool = False


def bold_leads(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """A bold "best" cell whose lead over the runner-up is inside the noise of n items."""

    from benchaudit.claims.access import score_tables
    from benchaudit.claims.scoretable import references

    for st in score_tables(source, ctx):
        if not st.bold_means_best:
            continue  # the bold is not a "best" mark in this table: no lead is claimed
        outside = references(st)
        leads: list[_Lead] = []
        for line in st.lines:
            if line.n is not None and line.n < 2:
                continue
            if line.benchmark is not None and getattr(line.benchmark, "metric", "binary") != "binary":
                continue
            if line.n is None and (line.rating or line.benchmark is not None):
                continue  # a known benchmark without a count (versioned): its n is not guessed
            sign = 1 if line.higher_is_better else -1
            cells = [c for c in line.cells if c.model not in outside and c.model not in st.highlighted]
            unknown = line.n is None and line.benchmark is None
            stated = _every(line) if unknown else None
            bound = _bound(line, ctx) if unknown and stated is None else None
            for pool in _pools(cells, sign):
                leads.extend(_bold_lead(rule, source, ctx, line, pool, sign, bound, stated))
        for line in st.aggregates:
            sign = 1 if line.higher_is_better else -1
            cells = [c for c in line.cells if c.model not in outside and c.model not in st.highlighted]
            for pool in _pools(cells, sign):
                got = list(_average_lead(rule, source, ctx, st, line, pool, sign))
                if not got and line.n_bound is not None:
                    # An overall score of a set whose total the document states: tested at
                    # that total, an upper bound on its count.
                    got = list(_bold_lead(rule, source, ctx, line, pool, sign, _bound(line, ctx)))
                leads.extend(got)
        yield from _by_table(rule, source, st, leads, ctx.alpha)


def _parts_of(st: ScoreTable, line: ScoreLine, model: str) -> list[ScoreCell] | None:
    """The model's cells on the table's benchmark lines when their mean is its value on the
    average line ``line`` (as written, within the rounding of the cells); else None, for an
    average over benchmarks the table does not show or weighted in a way it does not say."""
    own = next((c for c in line.cells if c.model == model), None)
    parts = [next((c for c in bl.cells if c.model == model), None) for bl in st.lines]
    if own is None or not parts or any(c is None for c in parts) or len(parts) < 2:
        return None
    got = [c for c in parts if c is not None]
    mean = sum(c.value for c in got) / len(got)
    slack = 0.5 * 10.0 ** -own.decimals + 0.5 * 10.0 ** -min(c.decimals for c in got) + 1e-9
    return got if abs(mean - own.value) <= slack else None


def _average_lead(
    rule: Rule,
    source: Source,
    ctx: Context,
    st: ScoreTable,
    line: ScoreLine,
    cells: list[ScoreCell],
    sign: int,
) -> Iterator[_Lead]:
    """A bold "best" average whose lead is inside the noise of the benchmarks it averages.

    The mean of K benchmark scores has variance (1/K²)·Σ p_k(1-p_k)/n_k when each is a share of
    n_k items scored 0/1. A benchmark whose count is unknown or whose per-item score is not 0/1
    is given no variance: the variance used is at most the true one, so the interval is at
    most as wide as the true one and a lead inside it is inside the noise."""
    from statistics import NormalDist

    pair = _runner_up(cells, sign)
    if pair is None:
        return
    b, r = pair
    mine, theirs = _parts_of(st, line, b.model), _parts_of(st, line, r.model)
    if mine is None or theirs is None or b.value == r.value:
        return
    scale = 100.0 if line.proportion else 1.0
    if not all(0 <= c.value * scale <= 100 for c in [b, r, *mine, *theirs]):
        return
    k = len(st.lines)
    var = 0.0
    counted: list[str] = []
    bounded = False
    for bl, x, y in zip(st.lines, mine, theirs):
        # A part whose count is only bounded is given the bound: more items, less variance, so
        # the interval stays at most as wide as the true one.
        every = _every(bl) if bl.n is None and bl.benchmark is None else None
        n = bl.n or (every[0] if every else None) or (
            bl.n_bound[0] if bl.n_bound is not None and bl.benchmark is None else None
        )
        bounded = bounded or (bl.n is None and every is None and n is not None)
        binary = bl.benchmark is None or getattr(bl.benchmark, "metric", "binary") == "binary"
        if not n or n < 2 or not binary or bl.rating:
            continue
        unit = 100.0 if bl.proportion else 1.0
        for c in (x, y):
            q = c.value * unit / 100
            var += q * (1 - q) / n
        counted.append(f"{bl.label} {'≤ ' if bl.n is None and every is None else ''}{n:,}")
    if not counted:
        return
    half = NormalDist().inv_cdf(0.5 + (1 - ctx.alpha) / 2) * var**0.5 / k * 100
    d = (b.value - r.value) * scale
    lo, hi = d - half, d + half
    if not lo <= 0 <= hi:
        return
    lead = abs(d)
    missing = k - len(counted)
    without = f"; the {missing} without a known count of 0/1 items add none, so the true interval is wider" if missing else ""
    if bounded:
        without += "; a count given as ≤ is a bound, which can only narrow the interval"
    whys = sorted({e[1] for bl in st.lines if bl.n is None and (e := _every(bl)) is not None})
    if whys:
        without += f"; each count is {whys[0]}"
    message = (
        f"{b.model} is set in bold as the best on {line.label} with {b.text}, {lead:.3g} points ahead "
        f"of {r.model} ({r.text}); an average of {k} benchmarks has the noise of its parts, and on "
        f"each part's own item count ({'; '.join(counted)}{without}) the {level(ctx.alpha)} interval "
        f"of that difference is {signed(lo)} to {signed(hi)} points (unpaired: the table has no "
        "per-item results), so the lead is inside the noise; a paired test on the per-item results "
        "would be narrower and might separate them"
    )
    finding = rule.finding(
        Location(source.path, b.line, b.column, b.page),
        message,
        claim=f"{b.model} | {line.label}: {b.text}",
        suggestion=(
            f"Mark {b.model} ({b.text}) and {r.model} ({r.text}) alike on {line.label}, or say "
            "the averages are tied within noise"
        ),
        evidence={
            "benchmark": line.label,
            "n": None,
            "parts": counted,
            "best": b.value,
            "runner_up": r.value,
            "diff": d,
            "lo": lo,
            "hi": hi,
            "bound": "unpaired",
        },
        confidence=Confidence.MEDIUM,
    )
    digits = max(1, b.decimals, r.decimals)
    part = (
        f"{b.model} | {line.label}: {b.text} vs {r.model} {r.text} ({signed(d, digits)}; "
        f"{signed(lo)} to {signed(hi)}, an average of {k})"
    )
    yield _Lead(finding, part, f"{line.label} is an average of {k} benchmarks, each on its own count")


def _every(line: ScoreLine) -> tuple[int, str] | None:
    """The count the document states for every test set, taken for this line, unless the line's
    label names a per-item metric that is not 0/1 (a similarity, a judge's score)."""
    from benchaudit.inputs.scores import NOT_GRID

    if line.n_every is None or NOT_GRID.search(line.label) or _CONTINUOUS.search(line.label):
        return None
    return line.n_every


def _bound(line: ScoreLine, ctx: Context) -> tuple[int, str] | None:
    """An upper bound on the item count of a line whose own count is unknown: the stated
    total of the set the table is about, else that of the family of sets its label names."""
    if line.n_bound is not None:
        n, why = line.n_bound
        return n, f" ({why})"
    return _family_bound(line, ctx)


def _family_bound(line: ScoreLine, ctx: Context) -> tuple[int, str] | None:
    """An upper bound on the item count of a label that names a family of sets, not one.

    "GPQA" alone is the Diamond, Main or Extended set: the table does not say which, but
    its count is at most all of them together, and a lead inside the noise on more items
    is inside it on fewer."""
    from benchaudit.benchmarks import fold

    key = fold(re.sub(r"\([^()]*\)", " ", line.label))
    if len(key) < 3 or ctx.benchmarks.resolve(key) is not None:
        return None
    members = [
        b
        for b in ctx.benchmarks.entries
        if len(words := re.split(r"[\s_-]+", b.name)) > 1 and fold(words[0]) == key
    ]
    if len(members) < 2 or any(b.metric != "binary" or not b.n for b in members):
        return None
    names = ", ".join(b.name for b in members)
    total = sum(b.n or 0 for b in members)
    return total, f" ({line.label} alone may be any of {names}; {total:,} is all of them)"


def _pools(cells: list[ScoreCell], sign: int) -> list[list[ScoreCell]]:
    """The cells each bold "best" competes with: the whole line, or its labelled row group.

    A bold cell that is not the line's best but is its group's best marks that group's best
    ("open-source models" under a block of closed ones); a bold global best is tested
    against the whole line, the stronger claim."""
    groups = sorted({c.group for c in cells})
    if len(groups) < 2:
        return [cells]
    top = max(sign * c.value for c in cells)
    pools = [cells] if any(c.bold and sign * c.value == top for c in cells) else []
    for g in groups:
        pool = [c for c in cells if c.group == g]
        if any(c.bold for c in pool) and not any(sign * c.value == top for c in pool):
            pools.append(pool)
    return pools


def _largest_n(line: ScoreLine) -> tuple[int, str]:
    """The item count to test a lead against, and words saying why when it is not the line's.

    A benchmark with several splits and a header naming none is tested on its largest split:
    a lead inside the noise there is inside it on every split."""
    bench = line.benchmark
    n = line.n or 0
    splits = dict(getattr(bench, "splits", None) or {}) if bench is not None else {}
    if bench is None or bench.variant or len(splits) < 2 or n != bench.n:
        return n, ""
    largest = max(splits.values())
    if largest <= n:
        return n, ""
    return largest, f" (its largest split; {bench.name}'s split is not named)"


def _runner_up(cells: list[ScoreCell], sign: int) -> tuple[ScoreCell, ScoreCell] | None:
    """The pool's one bold best and the value next to it, or None when no lead is claimed."""
    if len(cells) < 2 or not any(c.bold for c in cells):
        return None
    top = max(sign * c.value for c in cells)
    best = [c for c in cells if c.bold and sign * c.value == top]
    rest = [c for c in cells if c not in best]
    if len(best) != 1 or not rest:
        return None
    b = best[0]
    r = max(rest, key=lambda c: sign * c.value)
    if r.bold and r.group != b.group:
        # The runner-up is bold as the best of another row group ("Closed-Source Models" above
        # "Open-Source Models"): the bold marks each group's best, so b's claims its own group.
        mine = [c for c in rest if c.group == b.group]
        if not mine:
            return None
        r = max(mine, key=lambda c: sign * c.value)
    if r.bold:
        return None  # the runner-up is bold too: the table marks them alike, no lead is claimed
    return b, r


def _bold_lead(
    rule: Rule,
    source: Source,
    ctx: Context,
    line: ScoreLine,
    cells: list[ScoreCell],
    sign: int,
    bound: tuple[int, str] | None = None,
    stated: tuple[int, str] | None = None,
) -> Iterator[_Lead]:
    """One pool of cells (a line, or a row group of it): does its bold best lead in the noise?
    ``bound`` is an upper bound on the line's count; ``stated`` a count the document states for
    every test set, taken for the line (a premise the message names)."""
    from benchaudit.stats.paired import mcnemar_floor

    pair = _runner_up(cells, sign)
    if pair is None:
        return
    b, r = pair
    scale = 100.0 if line.proportion else 1.0
    a_pts, r_pts = b.value * scale, r.value * scale
    if not (0 <= a_pts <= 100 and 0 <= r_pts <= 100) or a_pts == r_pts:
        return
    if not line.n and bound is None and stated is None:
        yield from _tiny_lead(rule, source, ctx, line, b, r, a_pts, r_pts)
        return
    if bound is not None:
        n, why_n = bound
    elif stated is not None:
        n, why_n = stated[0], f" ({stated[1]})"
    else:
        n, why_n = _largest_n(line)
    u = unpaired(a_pts, r_pts, n, 1 - ctx.alpha)
    if not (u["lo"] <= 0 <= u["hi"]):
        return
    lead = abs(a_pts - r_pts)
    # Both values are rounded: the lead in items is at most this (half a unit each way).
    unit = 10.0 ** -max(b.decimals, r.decimals) * scale
    items = (lead + unit) * n / 100
    # With a lead of at most m items no pairing can make the gap significant when McNemar's
    # floor 2·(1/2)^m is not below alpha. Above it a paired test on per-item results would be
    # narrower and might separate the two; the table gives none, so the bold is a claim its
    # numbers do not show, said as a warning that names the bound it used (the count is the
    # registry's or a stated one, an inferred premise: never an error).
    never = mcnemar_floor(int(items)) >= ctx.alpha
    severity = Severity.WARNING
    # At a bound on n the interval is narrower than on the true (smaller) count, so a lead
    # inside it there is inside the noise on the true count too: "even at n = N".
    at_most = bound is not None
    counted = f"at most {n:,} items" if at_most else f"{n:,} items"
    even = f", so the lead is inside the noise even at n = {n:,}" if at_most else ", so the lead is inside the noise"
    message = (
        f"{b.model} is set in bold as the best on {line.label} with {b.text}, "
        f"{lead:.3g} points ahead of {r.model} ({r.text}); on {counted}{why_n} the "
        f"{level(ctx.alpha)} interval of that difference is {signed(u['lo'])} to "
        f"{signed(u['hi'])} points (unpaired: the table has no per-item results){even}"
    )
    if not never:
        message += "; a paired test on the per-item results would be narrower and might separate them"
    needed = next(m for m in range(1, 64) if mcnemar_floor(m) < ctx.alpha)
    if never:
        message += (
            f"; a lead of at most {items:.1f} items can never reach p < {ctx.alpha:g} in a "
            f"paired McNemar test, which needs at least {needed} discordant items"
        )
    finding = rule.finding(
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
            "n": n,
            "n_at_most": at_most,
            "best": b.value,
            "runner_up": r.value,
            **u,
            "bound": "unpaired",
        },
        severity=severity,
        confidence=Confidence.MEDIUM,
    )
    # The lead as precisely as the cells are written: a proportion's third decimal (0.326) is
    # a tenth of a point.
    digits = max(1, max(b.decimals, r.decimals) - (2 if line.proportion else 0))
    part = (
        f"{b.model} | {line.label}: {b.text} vs {r.model} {r.text} ({signed(a_pts - r_pts, digits)}; "
        f"{signed(u['lo'])} to {signed(u['hi'])}, n {'≤' if at_most else '='} {n:,})"
    )
    yield _Lead(finding, part, why_n.strip(" ()"), never)


#: Metric words of continuous per-item scores, beside those that are off the k/n grid.
_CONTINUOUS = re.compile(
    r"edit|\b(?:BPB|bits?|PPL|loss|SIM(?:-o)?|similarity|MOS|WER|CER|distance|CIDEr|scores?|"
    r"ratings?|regard|toxicity|reward)\b",
    re.I,
)

#: An unknown benchmark is taken to have fewer items than this: the largest common test sets
#: (MMLU 14,042, BBH 6,511, MMLU-Pro 12,032) are well under it.
ASSUMED_MAX_ITEMS = 100_000


def items_to_separate(a_pts: float, r_pts: float, confidence: float) -> int:
    """The number of items at which two scores' unpaired interval would just exclude zero.

    Inverts the Wald interval of a difference of two proportions,
    n = z² (p1 q1 + p2 q2) / d², so a lead needing more items than any common test set
    has is inside the noise whatever the (unstated) item count is."""
    from statistics import NormalDist

    p1, p2 = a_pts / 100, r_pts / 100
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    return math.ceil(z * z * (p1 * (1 - p1) + p2 * (1 - p2)) / (p1 - p2) ** 2)


def _tiny_lead(
    rule: Rule,
    source: Source,
    ctx: Context,
    line: ScoreLine,
    b: ScoreCell,
    r: ScoreCell,
    a_pts: float,
    r_pts: float,
) -> Iterator[_Lead]:
    """A bold lead on a benchmark of unknown size that no common test set is large enough for."""
    if max(a_pts, r_pts) <= 10 and not line.proportion:
        return  # not plainly on a 0-100 scale: the values may be ratings, losses or counts
    from benchaudit.inputs.scores import NOT_GRID

    if not line.label.strip() or NOT_GRID.search(line.label) or _CONTINUOUS.search(line.label):
        # A continuous per-item metric (similarity, BLEU, bits per byte) can vary far less than
        # a 0/1 score of the same mean, so the binomial bound says nothing about its noise.
        return
    needed = items_to_separate(a_pts, r_pts, 1 - ctx.alpha)
    if needed < ASSUMED_MAX_ITEMS:
        return
    lead = abs(a_pts - r_pts)
    finding = rule.finding(
        Location(source.path, b.line, b.column, b.page),
        f"{b.model} is set in bold as the best on {line.label} with {b.text}, {lead:.3g} points "
        f"ahead of {r.model} ({r.text}); the document does not say how many items "
        f"{line.label} has, but a lead this small stays inside the {level(ctx.alpha)} noise "
        f"unless the test set has more than {_rounded(needed)} items (unpaired, read as shares "
        "of items), and common benchmarks have far fewer",
        claim=f"{b.model} | {line.label}: {b.text}",
        suggestion=(
            f"Mark {b.model} ({b.text}) and {r.model} ({r.text}) alike on {line.label}, or "
            "say they are tied within noise"
        ),
        evidence={
            "benchmark": line.label,
            "n": None,
            "items_to_separate": needed,
            "best": b.value,
            "runner_up": r.value,
            "bound": "unpaired",
        },
        confidence=Confidence.LOW,
    )
    part = (
        f"{b.model} | {line.label}: {b.text} vs {r.model} {r.text} "
        f"({signed(a_pts - r_pts, max(1, b.decimals, r.decimals))}; "
        f"n not stated, separable only on more than {_rounded(needed)} items)"
    )
    yield _Lead(finding, part)


def _rounded(n: int) -> str:
    """A large count to two significant figures, rounded down ("1.6 million", "170,000")."""
    digits = len(str(n)) - 2
    low = n // 10**digits * 10**digits
    return f"{low / 1e6:g} million" if low >= 1_000_000 else f"{low:,}"


def _by_table(
    rule: Rule, source: Source, st: ScoreTable, leads: list[_Lead], alpha: float
) -> Iterator[Finding]:
    """The leads of one table: each on its own, or, from :data:`GROUP_FROM` cells of one
    severity on, one finding for the table that lists them."""
    # Cells of one severity and one confidence share a finding: a table's finding is as sure
    # as each cell it lists.
    by_kind: dict[tuple[Severity, Confidence], list[_Lead]] = {}
    for lead in leads:
        by_kind.setdefault((lead.finding.severity, lead.finding.confidence), []).append(lead)
    for (severity, confidence), members in by_kind.items():
        if len(members) < GROUP_FROM:
            yield from (m.finding for m in members)
            continue
        members.sort(key=lambda m: (m.finding.location.line or 0, m.finding.location.column or 0))
        first = members[0].finding
        where = f"line {st.table.line}" if st.table.page is None else f"page {st.table.page}"
        listed = "; ".join(m.part for m in members[:LISTED])
        more = f"; and {len(members) - LISTED} more" if len(members) > LISTED else ""
        message = (
            f"{len(members)} bold \"best\" cells of the table at {where} lead the next value by less "
            f"than the noise ({level(alpha)} interval of each difference in points, unpaired: the "
            f"table has no per-item results): {listed}{more}"
        )
        whys = sorted({m.why_n for m in members if m.why_n})
        if whys:
            message += f" ({'; '.join(whys)})"
        if any(m.finding.evidence.get("n_at_most") for m in members):
            message += (
                "; where n is only bounded (n ≤), the interval at the bound is narrower than on the "
                "true count, so those leads are inside the noise even at the bound"
            )
        never = sum(m.never for m in members)
        if never:
            message += (
                f"; {never} of them lead by so few items that no paired test could reach "
                f"p < {alpha:g}"
            )
        if never < len(members):
            message += "; for the others a paired test on per-item results would be narrower and might separate them"
        lines = sorted({m.finding.location.line for m in members if m.finding.location.line is not None})
        yield rule.finding(
            first.location,
            message,
            claim=f"table at {where}",
            suggestion=(
                "Mark each of these cells and the value next to it alike, or say they are tied "
                "within noise; a paired test on per-item results could separate them"
            ),
            evidence={
                "cells": [
                    {**m.finding.evidence, "claim": m.finding.claim, "text": m.part, "line": m.finding.location.line}
                    for m in members
                ],
                "lines": lines,
                "bound": "unpaired",
            },
            severity=severity,
            confidence=confidence,
        )
