"""Score cells that carry their own rank ("85.5 (9th)"): equal scores printed with distinct ranks.

Part of BA210 rank-tie (:mod:`benchaudit.rules.comparisons.rank_tie`). A table may rank its
models inside the score cells of a column instead of in a rank column ("wAvg. (inc)" with
"95.7 (1st)", "85.5 (8th)"). Whatever the item count, two models printing the same score
are not ordered by it, so distinct ranks on one printed score state an order the table's own
numbers do not have.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from benchaudit.finding import Confidence, Finding, Location

if TYPE_CHECKING:
    from benchaudit.documents.model import Cell, Table
    from benchaudit.evidence import Source
    from benchaudit.rulebase import Rule

#: "85.5 (9th)", "95.7 (1st)", "90.3 (16th)": a score and its ordinal rank in brackets.
_RANKED = re.compile(r"^\s*(?P<v>\d+(?:\.\d+)?)\s*%?\s*\(\s*(?P<r>\d+)\s*(?:st|nd|rd|th)\s*\)\s*$", re.I)
#: A column is a ranking when at least this many of its cells carry a rank.
RANKED_FROM = 3


def _ranked(cell: Cell) -> tuple[str, int] | None:
    m = _RANKED.match(cell.text)
    return (m.group("v"), int(m.group("r"))) if m else None


def ranked_cell_ties(rule: Rule, source: Source, tables: list[Table]) -> Iterator[Finding]:
    """One finding per printed score that two or more rows of a ranked column share under
    different ranks."""
    for table in tables:
        header = table.header()
        for j in range(1, len(header)):
            got = [
                (row[0].text.strip(), cell, r)
                for row in table.rows
                if len(row) > j and row[0].text.strip() and (cell := row[j]) is not None
                and (r := _ranked(cell)) is not None
            ]
            if len(got) < RANKED_FROM:
                continue
            by_score: dict[float, list[tuple[str, Cell, tuple[str, int]]]] = {}
            for model, cell, (value, rank) in got:
                by_score.setdefault(float(value), []).append((model, cell, (value, rank)))
            for members in by_score.values():
                ranks = sorted({r for _, _, (_, r) in members})
                if len(members) < 2 or len(ranks) < 2:
                    continue
                yield _finding(rule, source, header[j], members, ranks)


def _ordinal(k: int) -> str:
    tail = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{tail}"


def _finding(
    rule: Rule, source: Source, column: str, members: list[tuple[str, Cell, tuple[str, int]]], ranks: list[int]
) -> Finding:
    members = sorted(members, key=lambda m: m[2][1])
    model, cell, (value, _) = members[0]
    listed = ", ".join(f"{m} ({_ordinal(r)}, line {c.line})" for m, c, (_, r) in members)
    return rule.finding(
        Location(source.path, cell.line, cell.column, cell.page),
        f"{len(members)} models print the same {column} {value} but are ranked "
        f"{', '.join(_ordinal(r) for r in ranks)}: {listed}; equal printed scores do not order the "
        "models, whatever the item count",
        claim=", ".join(m for m, _, _ in members),
        suggestion=(
            f"Give the models tied on {column} one shared rank ({_ordinal(ranks[0])}=), or print "
            "the digits that separate them with an interval"
        ),
        evidence={
            "column": column,
            "models": [m for m, _, _ in members],
            "scores": [float(v) for _, _, (v, _) in members],
            "ranks": [r for _, _, (_, r) in members],
            "row_lines": sorted({c.line for _, c, _ in members if c.line is not None}),
        },
        confidence=Confidence.HIGH,
    )
