"""A table column of changes ("Improvement", "Gain", "Δ") that prints differences in points
as percentages: "+50.6%" beside 57.1 and 6.5 in the same row, where the relative change is
+778%. Every row must fit the difference of the same two columns, and one row must tell the
two readings apart, before the column is read as points.
"""

from __future__ import annotations

import re

from benchaudit.claims.percent_tables import TableChange, cell_value
from benchaudit.documents.model import Document, Table

#: The header of a column that writes a change: "Improvement", "Gain", "Δ", "Diff.".
_CHANGE_HEADER = re.compile(r"\b(?:improvement|gain|increase|diff(?:erence)?\.?|change|delta)\b|Δ|↑", re.I)


def change_columns(doc: Document) -> list[TableChange]:
    """A table column of changes written "+50.6%" that, row by row, is the difference of two
    score columns of the same table and not their relative change."""
    found = []
    for table in doc.tables():
        header = table.header()
        for j, head in enumerate(header):
            if not _CHANGE_HEADER.search(head) or re.search(r"\brel(?:ative)?\b", head, re.I):
                continue
            hit = _pair_for(table, j)
            if hit is not None:
                found.append(hit)
    return found


def _pair_for(table: Table, j: int) -> TableChange | None:
    """The two columns whose difference is column ``j`` in every row that has all three, when
    the changes are written with "%" and the relative reading fails in some row."""
    header = table.header()
    changes = [(i, row[j].text) for i, row in enumerate(table.rows) if j < len(row) and cell_value(row[j].text)]
    if len(changes) < 2 or not all("%" in t for _, t in changes):
        return None
    width = len(header)
    for a in range(width):
        for b in range(width):
            if len({a, b, j}) < 3:
                continue
            fits, wrong, rows = 0, 0, []
            for i, text in changes:
                row = table.rows[i]
                if max(a, b) >= len(row):
                    break
                x, y, d = cell_value(row[a].text), cell_value(row[b].text), cell_value(text)
                if x is None or y is None or d is None:
                    break
                up = float(d) >= 0
                hi, lo = (x, y) if up else (y, x)
                if not _points_fit(d.lstrip("+-"), hi, lo):
                    break
                fits += 1
                if float(lo) > 0 and abs(100 * (float(hi) - float(lo)) / float(lo) - abs(float(d))) > _half(d, hi, lo):
                    wrong += 1  # this row tells the two readings apart
                rows.append((table.row_line(i), text))
            else:
                if fits == len(changes) and wrong:
                    i0 = changes[0][0]
                    r0 = table.rows[i0]
                    return TableChange(
                        None, table.row_line(i0), table.page, " | ".join(c.text for c in r0),
                        changes[0][1].lstrip("+"), cell_value(r0[a].text) or "", cell_value(r0[b].text) or "",
                        header[b], header[j], f"{header[a]} − {header[b]}", tuple(rows),
                    )
    return None


def _half(*numbers: str) -> float:
    """How far the rounding of the numbers as written can move their sum or difference."""
    return sum(0.5 * 10.0 ** -(len(x.split(".")[1]) if "." in x else 0) for x in numbers)


def _points_fit(stated: str, hi: str, lo: str) -> bool:
    """Whether ``stated`` is ``hi`` − ``lo`` to the rounding of the three numbers (a fall too)."""
    return abs(float(hi) - float(lo) - float(stated)) <= _half(stated, hi, lo) + 1e-9
