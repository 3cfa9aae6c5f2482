"""Rank ranges and tie groups from intervals (closed form, standard library only).

A model's best possible rank is one plus the number of models whose interval
lies wholly above its own; its worst is the number of models minus those whose
interval lies wholly below. Neighbours whose intervals overlap are not
separated by the data; overlap is the conservative reading (two intervals can
overlap slightly while the difference is still significant), which is the one
leaderboards use for rank ranges.
"""

from __future__ import annotations

from collections.abc import Sequence


def rank_ranges(low: Sequence[float], high: Sequence[float]) -> tuple[list[int], list[int]]:
    """(best rank, worst rank) for each entry, 1 = top, from interval bounds."""
    n = len(low)
    best, worst = [], []
    for k in range(n):
        above = sum(1 for j in range(n) if j != k and low[j] > high[k])
        below = sum(1 for j in range(n) if j != k and high[j] < low[k])
        best.append(1 + above)
        worst.append(n - below)
    return best, worst


def overlaps(lo1: float, hi1: float, lo2: float, hi2: float) -> bool:
    """True when the closed intervals [lo1, hi1] and [lo2, hi2] share a point."""
    return lo1 <= hi2 and lo2 <= hi1


def tie_groups(
    score: Sequence[float], low: Sequence[float], high: Sequence[float]
) -> list[list[int]]:
    """Runs of neighbours (sorted by score, best first) whose intervals overlap.

    Returns index lists of two or more entries, best first; an entry joins the
    run above it when its interval overlaps that of the entry directly above.
    """
    order = sorted(range(len(score)), key=lambda k: -score[k])
    groups: list[list[int]] = []
    run: list[int] = []
    for k in order:
        if run and overlaps(low[k], high[k], low[run[-1]], high[run[-1]]):
            run.append(k)
            continue
        if len(run) > 1:
            groups.append(run)
        run = [k]
    if len(run) > 1:
        groups.append(run)
    return groups
