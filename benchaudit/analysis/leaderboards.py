"""Analyses of leaderboards: rank ranges from the stated intervals, and a top row within noise.

Standard library only (a leaderboard read from a README is analysed on the fast
text path).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.inputs.leaderboard import Leaderboard


def top_within_noise(board: Leaderboard) -> dict[str, Any] | None:
    """Evidence that the top row is not separated from the runner-up, else ``None``.

    For a "#1" / "state of the art" claim about a leaderboard (in the table or
    in prose next to it).
    """
    from benchaudit.stats.ranks import overlaps, rank_ranges

    rows = board.ranked()
    if len(rows) < 2 or not (rows[0].has_interval and rows[1].has_interval):
        return None
    top, second = rows[0], rows[1]
    if not overlaps(top.low, top.high, second.low, second.high):
        return None
    full = [e for e in rows if e.has_interval]
    best, worst = rank_ranges([e.low for e in full], [e.high for e in full])
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
    best, worst = rank_ranges([e.low for e in rows], [e.high for e in rows])
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
