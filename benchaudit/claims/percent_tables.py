"""Leads written as a percentage that a table of the document shows to be points.

A lead over a named rival, in a sentence, whose two scores are rows of a
  table: "GPT-4V ... 49.9%, outperforming Bard ... by 15.1%" and a leaderboard
  whose GPT-4V row reads 49.9 and whose Bard row reads 34.8 in the same column.

The column is the one the paragraph anchors (the subject's cell is a score it
quotes), else the table's summary column ("Avg", "Overall"), else the one
column where both rows have a value: never a column found by trying them all,
where a difference could match by chance.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from benchaudit.claims.model_claims import in_claim_free_section, line_of, model_names
from benchaudit.claims.percent_leads import is_points
from benchaudit.documents.model import TABLE_REF, Block, Cell, Document, Table
from benchaudit.inputs.numbers import drop_spread

_NUMBER = re.compile(r"^\s*(?P<v>[+\-−]?\d{1,3}(?:\.\d+)?)\s*(?P<pct>%)?\s*[*†‡]*\s*$")
#: The header of a table's summary column.
_SUMMARY = re.compile(r"(?:^|[\s/(-])(?:avg\.?|average|overall|mean|all|total)(?:$|[\s)/.])", re.I)
#: A lead after its verb: "outperforming Bard ... by 15.1%", "falls short of Y by 10.4%",
#: "surpassing the previous SOTA by 1.3% for Video-XL, 1.6% for GPT-4o".
_VERB_BY = re.compile(
    r"\b(?P<verb>surpass\w*|outperform\w*|exceed\w*|beat(?:s|ing)?|top(?:s|ping)?|lead(?:s|ing)?|"
    r"falls?\s+short\s+of|falling\s+short\s+of|falls?\s+behind|falling\s+behind|trail\w*|lag\w*\s+behind)"
    r"\s+(?P<rival>[^.;:%]{2,100}?)\s+by\s+(?:a\s+(?:margin|gap)\s+of\s+)?(?P<d>\d{1,3}(?:\.\d+)?)\s*%"
    r"(?P<more>(?:\s*(?:for|over|against)\s+[^.;:%]{2,60}?(?=,|\s+and\b|\.|;|$))?"
    r"(?:,?\s*(?:and\s+)?\d{1,3}(?:\.\d+)?\s*%\s+(?:for|over|against)\s+[^.;:%,]{2,60}?(?=,|\s+and\b|\.|;|$))*)",
    re.I,
)
#: "a 2.67% improvement over Y", "a substantial gain of 15.1% over Y".
_GAIN_OVER = re.compile(
    r"(?:(?<![\w.+-])\+?(?P<d1>\d{1,3}(?:\.\d+)?)\s*%\s+(?:improvement|gain|increase|boost|lead|advantage)"
    r"|\b(?:improvement|gain|increase|boost|lead|advantage)\s+of\s+(?P<d2>\d{1,3}(?:\.\d+)?)\s*%)"
    r"[^\w.;:]{0,8}\s*(?:over|compared\s+(?:to|with)|against)\s+(?P<rival>[^.;:()]{2,100})",
    re.I,
)
_FOR_RIVAL = re.compile(
    r"(?P<d>\d{1,3}(?:\.\d+)?)\s*%\s+(?:for|over|against)\s+(?P<rival>[^,;.]{2,60}?)(?=,|\s+and\b|\.|$)", re.I
)
_BELOW = re.compile(r"short|behind|trail|lag", re.I)
#: A change the words mark as relative or in points is taken at its word.
_MARKED = re.compile(r"\brelative(?:ly)?\b|\bpoints?\b|\bpp\b|percentage\s+points?", re.I)
_APPROX = re.compile(r"(?:~|≈|about|around|roughly|nearly|approximately)\s*$", re.I)
_SCORE = re.compile(r"(?<![\w.+-])(\d{1,3}\.\d+)\s*%?")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
#: Words of a rival phrase that name no row ("the previous SOTA", "open-source models").
_PLAIN = frozenset({"the", "previous", "state", "art", "model", "models", "sota", "best", "second", "performer",
                    "open", "source", "closed", "baseline", "method", "methods", "prior", "work"})


@dataclass(frozen=True)
class TableChange:
    """A change ``stated`` as a percentage that is ``score`` − ``base`` in points, both cells of
    ``table`` (``rival`` the base's row or column, ``column`` where the two are read)."""

    block: Block | None
    line: int | None
    page: int | None
    sentence: str
    stated: str
    score: str
    base: str
    rival: str
    column: str
    why: str  # how the column was chosen, for the message
    rows: tuple[tuple[int | None, str], ...] = ()  # a change column: each row's line and cell
    #: The subject is the lower score ("falls short of Y by 10.4%"): ``score`` is the rival's.
    below: bool = False

    @property
    def points(self) -> float:
        return float(self.score) - float(self.base)

    @property
    def relative(self) -> float:
        """The relative change the lead would be: over the rival's score either way."""
        return 100 * self.points / float(self.score if self.below else self.base)


def cell_value(text: str) -> str | None:
    """A cell's score as written ("**57.1%**", "62.7% ± 0.5%" → "57.1", "62.7"), or None."""
    m = _NUMBER.match(drop_spread(text.replace("**", "")))
    return m.group("v").replace("−", "-") if m else None


# ---------------------------------------------------------------- leads over table rows


def _model_cell(row: list[Cell]) -> str:
    """The row's model: its first cell with letters that is not a number or a link word."""
    for c in row:
        text: str = c.text.strip()
        if len(re.findall(r"[A-Za-z]", text)) >= 2 and cell_value(text) is None:
            return text
    return ""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:[.-][a-z0-9]+)*", text.lower())


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@dataclass(frozen=True)
class _Grid:
    """A table read one way: ``names`` of the models (rows, or columns of a table whose models
    head the columns), ``labels`` of what they are scored on, and ``cells[model][label]``."""

    names: list[str]
    labels: list[str]
    cells: list[list[str]]


def _grids(table: Table) -> list[_Grid]:
    """The table with its models as rows, and with its models as columns."""
    header, rows = table.header(), table.rows
    texts = [[row[j].text if j < len(row) else "" for j in range(len(header))] for row in rows]
    by_row = _Grid([re.sub(r"\s*\[[\d,\s–-]+\]\s*$", "", _model_cell(r)) for r in rows], header, texts)
    labels = [next((t for t in r if t and cell_value(t) is None), "") for r in texts]
    by_column = _Grid(list(header), labels, [[r[j] for r in texts] for j in range(len(header))])
    return [by_row, by_column]


def _named(grid: _Grid, phrase: str) -> int | None:
    """The one model of ``grid`` the phrase names: a model's whole name as words of it (or the
    phrase folded is the name folded: "X-V1.5-RL" for a column "X-V1.5 / RL"), else one
    distinctive word of it (four letters or more, or an acronym such as "SFT", and no plain
    word) that only that model's name holds."""
    said = " " + " ".join(_words(phrase)) + " "
    whole = [i for i, n in enumerate(grid.names)
             if n and (f" {' '.join(_words(n))} " in said or _fold(n) == _fold(phrase))]
    if whole:
        # "GPT-4o" and "GPT-4o mini" both spelled: the longest name said.
        longest = max(len(grid.names[i]) for i in whole)
        top = [i for i in whole if len(grid.names[i]) == longest]
        return top[0] if len(top) == 1 else None
    acronyms = {w.lower() for w in re.findall(r"\b[A-Z]{2,}\b", phrase)}
    keys = [w for w in _words(phrase) if (len(w) >= 4 or w in acronyms) and w not in _PLAIN]
    hits = {i for i, n in enumerate(grid.names) for w in keys if w in _words(n)}
    return hits.pop() if len(hits) == 1 else None


def _tables_for(doc: Document, block: Block, sentence_at: int) -> list[Table]:
    """The table a sentence speaks of: the one it or its paragraph before it names ("Table
    4"); in Markdown, with no reference, every table (the rows must then be found in one)."""
    text = block.text[: sentence_at]
    refs = list(TABLE_REF.finditer(block.text[sentence_at:].split(". ")[0])) or list(TABLE_REF.finditer(text))
    if refs:
        number = refs[-1].group(1)
        return [t for t in doc.tables() if t.numbered(number)]
    return [] if doc.format == "pdf" else list(doc.tables())


def _lines(grid: _Grid, s: int, r: int, quoted: set[str]) -> tuple[list[int], str]:
    """Where the lead is read, and why: where the subject's cell is a score the paragraph
    quotes; else the summary column; else the one place both models have a score."""
    both = [j for j in range(len(grid.labels))
            if cell_value(grid.cells[s][j]) is not None and cell_value(grid.cells[r][j]) is not None]
    anchored = [j for j in both if (cell_value(grid.cells[s][j]) or "").lstrip("+") in quoted]
    if anchored:
        return anchored, "where the subject's cell is the score the text quotes"
    summary = [j for j in both if _SUMMARY.search(grid.labels[j].rsplit(" / ", 1)[-1])]
    if len(summary) == 1:
        return summary, "the table's summary column"
    if len(both) == 1:
        return both, "the only place both have a score"
    return [], ""


def _leads(sentence: str) -> Iterator[tuple[int, str, str, bool]]:
    """Each lead of a sentence: where it is, the percentage, the rival phrase, and whether the
    subject is below the rival ("falls short of Y by 10.4%")."""
    for m in _VERB_BY.finditer(sentence):
        below = bool(_BELOW.search(m.group("verb")))
        listed = list(_FOR_RIVAL.finditer(sentence, m.start("d")))
        if listed and listed[0].start() == m.start("d"):
            # "by 1.3% for Video-XL, 1.6% for GPT-4o": each percentage with its own rival.
            for f in listed:
                if f.start() <= m.end():
                    yield f.start("d"), f.group("d"), f.group("rival"), below
        else:
            yield m.start("d"), m.group("d"), m.group("rival"), below
    for m in _GAIN_OVER.finditer(sentence):
        d = m.group("d1") or m.group("d2")
        yield m.start("d1") if m.group("d1") else m.start("d2"), d, m.group("rival"), False


def row_leads(doc: Document) -> list[TableChange]:
    """ "X ... outperforming Y by 15.1%" where a table gives X's and Y's scores where the
    paragraph speaks of, and the lead is their difference in points."""
    found = []
    tables_cache: dict[int, list[Table]] = {}
    for block in doc.blocks():
        if block.kind in ("code", "heading", "caption") or in_claim_free_section(block):
            continue
        text, pos, previous = block.text, 0, ""
        for raw in _SENTENCE.split(text):
            at = text.find(raw, pos)
            pos = at + len(raw)
            for off, stated, rival, below in _leads(raw) if "%" in raw else ():
                if _MARKED.search(raw[off : off + len(stated) + 30]) or _APPROX.search(raw[:off]):
                    continue
                subjects = [n.text for n in model_names(raw[:off])]
                if not subjects and _ANAPHOR.match(raw):
                    # "X achieves 62.7%. This performance shows a 3.7% improvement over Y".
                    subjects = [n.text for n in model_names(previous)]
                key = id(block) * 100003 + at
                tables = tables_cache.setdefault(key, _tables_for(doc, block, at))
                hit = _in_tables(tables, block, at, raw, off, stated, rival, below, subjects)
                if hit is not None:
                    found.append(hit)
            previous = raw
    return found


#: A sentence that speaks of the one before ("This performance shows ...", "It ...").
_ANAPHOR = re.compile(r"^\W*(?:this|these|that|it|such)\b", re.I)


def _in_tables(
    tables: list[Table], block: Block, at: int, sentence: str, off: int, stated: str, rival: str, below: bool,
    subjects: list[str],
) -> TableChange | None:
    if not subjects:
        return None
    quoted = {drop_spread(m.group(1)) for m in _SCORE.finditer(drop_spread(block.text[: at + len(sentence)]))}
    hits = []
    for table in tables:
        for grid in _grids(table):
            r = _named(grid, rival)
            named = {i for i in (_named(grid, s) for s in subjects) if i is not None and i != r}
            if r is None or len(named) != 1:
                continue
            s = named.pop()
            lines, why = _lines(grid, s, r, quoted)
            for j in lines:
                a, b = cell_value(grid.cells[s][j]), cell_value(grid.cells[r][j])
                if a is None or b is None:
                    continue
                hi, lo = (b, a) if below else (a, b)
                if is_points(stated, hi, lo):
                    hits.append(TableChange(
                        block, line_of(block, at + off), block.page, sentence, stated, hi, lo,
                        grid.names[r], grid.labels[j], why, below=below,
                    ))
                    break
    # Two tables (or readings) that would both explain the lead: which one is meant is not known.
    return hits[0] if len(hits) == 1 else None
