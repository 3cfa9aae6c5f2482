"""Tables whose cells hold several values, laid out one column per part.

A model card may list a benchmark's splits in one cell per model ("3.0|3.8")
under a dataset cell that names them ("Fleurs<br>zh | en"), in a table of
"Datasets | Model | Performance". Read as written, no column of such a table
is one benchmark. :func:`unstack` rewrites it as the table it stands for:
the model column, then one column per named part ("Fleurs zh", "Fleurs en"),
each value with its own emphasis. A cell whose parts nobody names, or whose
count differs from the names, is left unread: a guess at what a part is
would compare the wrong numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from benchaudit.documents.model import Cell, Table
from benchaudit.documents.multivalue import is_value

_BENCH_CORNER = re.compile(r"^\s*(?:datasets?|benchmarks?|tasks?)\b", re.I)
_MODEL_CORNER = re.compile(r"^\s*(?:models?|methods?|systems?)\b", re.I)
_NUMBER = re.compile(r"^[-+−]?\d+(?:\.\d+)?")
#: Words that state a direction: then the bold is not asked which way the numbers improve.
_DIRECTION_SAID = re.compile(
    r"\b(?:wer|cer|error|bleu|acc(?:uracy)?|f1|score|higher|lower)\b|[↑↓]", re.I
)


@dataclass
class Unstacked:
    """The table as one column per named part, and the columns that improve downwards."""

    table: Table
    #: Columns under a dataset whose metric nothing names, where the authors' bold marks the
    #: lowest values far more often than the highest (WER, CER): read as lower-is-better.
    lower: frozenset[str]


def _stacked(table: Table) -> bool:
    """Whether the table is "Datasets | Model | Performance" with several values in some cells."""
    header = table.header()
    if len(header) != 3 or not _BENCH_CORNER.match(header[0]) or not _MODEL_CORNER.match(header[1]):
        return False
    return sum(1 for r in table.rows if len(r) == 3 and len(r[2].parts) > 1) >= 2


def _value(cell: Cell) -> float | None:
    m = _NUMBER.match(cell.text.replace("−", "-"))
    return float(m.group()) if m else None


def _bold_direction(columns: list[list[Cell]]) -> bool | None:
    """Which way a dataset's columns improve by the authors' bold: True (upwards) when bold cells
    that are their column's maximum outnumber those that are its minimum by two to one, at least
    twice; False the other way round; None when the bold does not tell."""
    low = high = 0
    for cells in columns:
        values = [(v, c.bold) for c in cells if (v := _value(c)) is not None]
        if len(values) < 2:
            continue
        lo, hi = min(v for v, _ in values), max(v for v, _ in values)
        low += sum(1 for v, b in values if b and v == lo and lo != hi)
        high += sum(1 for v, b in values if b and v == hi and lo != hi)
    if high >= 2 and high >= 2 * low:
        return True
    if low >= 2 and low >= 2 * high:
        return False
    return None


def unstack(table: Table) -> Unstacked | None:
    """The table with one column per named part of its multi-value cells, or None when it
    has none: parts named by the dataset cell of their rows ("Datasets | Model | Performance")
    or by their column's header ("test-zh | test-en")."""
    if not _stacked(table):
        return _split_columns(table)
    d, m, v = 0, 1, 2
    keys: list[tuple[int, str]] = []  # (block, name): a dataset named twice ("SEED") stays apart
    placed: list[dict[tuple[int, str], Cell]] = []
    block, before = -1, None
    for i, row in enumerate(table.rows):
        group = table.groups[i] if i < len(table.groups) else ""
        if (row[d].text if row else None, group) != before:
            block, before = block + 1, (row[d].text if row else None, group)
        out: dict[tuple[int, str], Cell] = {}
        if len(row) > v:
            names = [p.text for p in row[d].parts]
            values = list(row[v].parts)
            if not values and not names and row[d].text and row[v].text:
                out[(block, row[d].text)] = row[v]  # one value under a dataset naming one set
            elif names and len(values) == len(names):
                out.update(((block, n), c) for n, c in zip(names, values, strict=True))
            # several values with no names, or a count other than the names': left unread
        keys.extend(k for k in out if k not in keys)
        placed.append(out)
    if not any(len(k) > 1 for k in placed):
        return None
    labels = _labels(keys, table)
    # A metric nothing names (WER or accuracy?) is read the way the authors' bold goes, and a
    # dataset whose bold does not tell is left unread: a wrong direction turns every mark wrong.
    lower: set[str] = set()
    for b in sorted({k[0] for k in keys}):
        mine = [k for k in keys if k[0] == b]
        if any(_DIRECTION_SAID.search(labels[k]) for k in mine):
            continue
        up = _bold_direction([[out[k] for out in placed if k in out] for k in mine])
        if up is None:
            keys = [k for k in keys if k[0] != b]
        elif not up:
            lower.update(labels[k] for k in mine)
    if not keys:
        return None
    rows = [
        [row[m] if len(row) > m else Cell(""), *(out.get(k, Cell("")) for k in keys)]
        for row, out in zip(table.rows, placed, strict=True)
    ]
    header = [Cell(table.header()[m]), *(Cell(labels[k]) for k in keys)]
    return Unstacked(replace(table, header_rows=[header], rows=rows), frozenset(lower))


def _labels(keys: list[tuple[int, str]], table: Table) -> dict[tuple[int, str], str]:
    """Each column's label: the part's name, with its row group when another block has the
    same name ("SEED test-zh" under "Content Consistency" and under "Speaker Similarity")."""
    blocks_of: dict[str, set[int]] = {}
    for b, name in keys:
        blocks_of.setdefault(name, set()).add(b)
    first_row: dict[int, int] = {}
    block, before = -1, None
    for i, row in enumerate(table.rows):
        group = table.groups[i] if i < len(table.groups) else ""
        if (row[0].text if row else None, group) != before:
            block, before = block + 1, (row[0].text if row else None, group)
            first_row[block] = i
    out = {}
    for b, name in keys:
        group = table.groups[first_row[b]] if first_row[b] < len(table.groups) else ""
        out[(b, name)] = f"{name} ({group})" if len(blocks_of[name]) > 1 and group else name
    return out


def _names(cell: Cell) -> list[str]:
    """The column names a header cell lists ("test-zh | test-en"), or none."""
    names = [p.text for p in cell.parts]
    return names if len(names) > 1 and not any(is_value(n) for n in names) else []


def _split_columns(table: Table) -> Unstacked | None:
    """The table with each column whose header names its parts ("dev | test") split into one
    column per part, each body cell's values under their names; a cell with another count of
    values than the names is left unread. Only tables of single-column cells are split."""
    cells = [c for r in (*table.header_rows, *table.rows) for c in r]
    if not table.header_rows or any(c.colspan != 1 for c in cells):
        return None
    last = table.header_rows[-1]
    split: dict[int, list[str]] = {}
    for j, cell in enumerate(last):
        names = _names(cell)
        fits = sum(1 for r in table.rows if len(r) > j and len(r[j].parts) == len(names))
        if names and fits >= 2:
            split[j] = names
    if not split:
        return None

    def widen(row: list[Cell], body: bool) -> list[Cell]:
        out: list[Cell] = []
        for j, cell in enumerate(row):
            if j not in split:
                out.append(cell)
            elif not body:
                out.extend(Cell(n) for n in split[j])
            elif len(cell.parts) == len(split[j]):
                out.extend(cell.parts)
            else:
                out.extend(Cell("") for _ in split[j])  # values nobody names: unread
        return out

    # An upper header cell over a split column spans its parts: "Fleurs / zh", "Fleurs / en".
    upper = [
        [replace(c, colspan=len(split[j])) if j in split else c for j, c in enumerate(r)]
        for r in table.header_rows[:-1]
    ]
    header = [*upper, widen(last, False)]
    rows = [widen(r, True) for r in table.rows]
    return Unstacked(replace(table, header_rows=header, rows=rows), frozenset())
