"""Ranked document tables without intervals whose item count the table's own frame states.

Part of BA210 rank-tie (:mod:`benchaudit.rules.comparisons.rank_tie`). A leaderboard with a
rank column ("# | Model | ... | ALL") ranks its models; when its heading, caption or lead-in
states how many items the scores are shares of ("Accuracy on the testmini subset (1,000
examples):"), each row's 95% interval follows from its score and that count (Wilson), and the
ranked neighbours can be checked as on a leaderboard that prints its intervals.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from benchaudit.inputs.leaderboard import Leaderboard, analyse_table
from benchaudit.stats.proportions import wilson

if TYPE_CHECKING:
    from benchaudit.documents.model import Table

#: "(1,000 examples)", "(500 questions)": a count of scored items in brackets.
_STATED = re.compile(
    r"\(\s*(\d{1,3}(?:,\d{3})+|\d+)\s+(?:examples|items|questions|problems|samples|prompts)\s*\)", re.I
)
#: A score column of ratings (Elo), not shares of items: no binomial interval.
_RATING = re.compile(r"\b(?:elo|rating|score\s*\(\s*elo\s*\))\b", re.I)
#: Fewer items than this stated in a frame are a count of something else (tasks, shots).
MIN_ITEMS = 20


def stated_count(table: Table) -> int | None:
    """The item count the table's heading, caption or short lead-in states in brackets."""
    lead = table.lead_in.text if table.lead_in is not None and len(table.lead_in.text.split()) <= 15 else ""
    texts = (table.section.title if table.section else "", table.caption.text if table.caption else "", lead)
    found = {int(m.group(1).replace(",", "")) for t in texts for m in _STATED.finditer(t)}
    if len(found) != 1:
        return None  # none, or several counts: which one the scores are over is a guess
    n = found.pop()
    return n if n >= MIN_ITEMS else None


def _numeric(rank: str | None) -> bool:
    return (rank or "").strip().rstrip(".").isdigit()


def stated_n_boards(path: str, tables: list[Table]) -> Iterator[tuple[Leaderboard, int]]:
    """Each ranked table without intervals whose frame states its item count, as a leaderboard
    whose intervals are the Wilson intervals of its scores at that count. Rows without a
    numeric rank ("-" for human performance, a reference) are not in the ranking."""
    for table in tables:
        n = stated_count(table)
        if n is None:
            continue
        rows = [[c.text for c in r] for r in table.rows]
        lines = [r[0].line if r else None for r in table.rows]
        board = analyse_table(table.header(), rows, lines, path)
        if board is None or not board.rank_column or board.interval_from is not None:
            continue
        if _RATING.search(board.score_column):
            continue
        entries = [e for e in board.entries if _numeric(e.rank)]
        if len(entries) < 3 or not all(0 <= e.score <= 100 for e in entries) or max(e.score for e in entries) <= 1:
            continue  # not percentages of items
        for e in entries:
            lo, hi = wilson(e.score / 100 * n, n)
            e.low, e.high = lo * 100, hi * 100
        yield Leaderboard(path, entries, board.score_column, f"Wilson at n = {n:,}", board.rank_column), n
