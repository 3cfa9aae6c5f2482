"""Analyses of leaderboards: rank ranges from the stated intervals, and a top row within noise.

Standard library only (a leaderboard read from a README is analysed on the fast
text path).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.inputs.leaderboard import Entry, Leaderboard


def _interval(e: Entry) -> tuple[float, float] | None:
    return None if e.low is None or e.high is None else (e.low, e.high)


def _bounds(entries: list[Entry]) -> tuple[list[float], list[float]]:
    """Lower and upper bounds of the entries that have an interval, in order."""
    pairs = [b for b in map(_interval, entries) if b is not None]
    return [lo for lo, _ in pairs], [hi for _, hi in pairs]


def top_within_noise(board: Leaderboard) -> dict[str, Any] | None:
    """Evidence that the top row is not separated from the runner-up, else ``None``.

    For a "#1" / "state of the art" claim about a leaderboard (in the table or
    in prose next to it).
    """
    from benchaudit.stats.ranks import overlaps, rank_ranges

    rows = board.ranked()
    if len(rows) < 2:
        return None
    top, second = rows[0], rows[1]
    a, b = _interval(top), _interval(second)
    if a is None or b is None or not overlaps(*a, *b):
        return None
    best, worst = rank_ranges(*_bounds(rows))
    return {
        "model": top.model,
        "score": top.score,
        "ci_low": top.low,
        "ci_high": top.high,
        "runner_up": second.model,
        "runner_up_score": second.score,
        "runner_up_ci_low": second.low,
        "runner_up_ci_high": second.high,
        "gap": top.score - second.score,
        "rank_low": best[0],
        "rank_high": worst[0],
    }


def report_results(board: Leaderboard, ctx: RunContext) -> dict[str, list[dict[str, Any]]]:
    """``results.leaderboard``: each row with its rank range, when every row has an interval."""
    from benchaudit.stats.ranks import rank_ranges

    rows = board.ranked()
    if not rows or not all(e.has_interval for e in rows):
        return {}
    best, worst = rank_ranges(*_bounds(rows))
    return {
        "leaderboard": [
            {
                "file": board.path,
                "model": e.model,
                "score": e.score,
                "ci_low": e.low,
                "ci_high": e.high,
                "rank": k + 1,
                "rank_low": best[k],
                "rank_high": worst[k],
            }
            for k, e in enumerate(rows)
        ]
    }
