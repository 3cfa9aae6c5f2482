"""Score tables → one claim per score cell.

:class:`Table` is the common form of a table whatever it came from (a
markdown pipe table here; HTML ``<table>`` and PDF tables in their readers):
a header row, body rows of cell strings, and the document line of each row.
:func:`tables_to_claims` turns it into claims: usually the column header
names the benchmark and the first column the model; a table with benchmarks
down the first column and models across is read the other way round. A
header like "HumanEval (164)" or "n = 500" states the item count, which wins
over the registry; "avg@64", "pass@1 (greedy)" in a header or in the text
around the table states the sampling protocol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.evidence import Claim
from benchaudit.finding import Confidence, Location
from benchaudit.inputs import numbers as nums
from benchaudit.inputs.protocols import Protocol, protocols_in
from benchaudit.inputs.scores import (
    NOT_GRID,
    document_protocol,
    interval_kind,
    named_for,
    named_protocol,
    note_possible,
    same_protocol,
)
from benchaudit.inputs.sentences import Mention, find_benchmarks, names_a_part

if TYPE_CHECKING:
    from benchaudit.benchmarks import Registry
    from benchaudit.engine import Context


@dataclass
class Table:
    """A table as rows of cell strings with their document lines.

    ``row_lines[i]`` is the line of ``rows[i]``; ``cell_columns[i][j]`` the
    1-based column where cell ``j`` of row ``i`` starts (optional).
    ``context`` is text around the table (a caption, the sentence before it)
    that may state the protocol or the unit.
    """

    header: list[str]
    rows: list[list[str]]
    header_line: int | None = None
    row_lines: list[int | None] = field(default_factory=list)
    cell_columns: list[list[int]] = field(default_factory=list)
    page: int | None = None
    context: str = ""
    #: The table as the document model read it (cells with emphasis and marks), when known.
    doc: Any = None
    #: Averaging stated elsewhere in the document that may apply to this table.
    possible: list[Any] = field(default_factory=list)
    possible_where: str = ""
    repeated_unstated: bool = False
    repeated_for: tuple[str, ...] = ()
    document_single: str = ""
    pm_declared: str = ""
    document_single_where: str = ""
    #: Protocols stated for named benchmarks in the table's section (:class:`Scope`).
    named: list[Any] = field(default_factory=list)
    #: Item counts the document's prose states for benchmarks the registry lacks ("USACO
    #: contains 307 problems"), by folded name (:mod:`benchaudit.claims.stated_counts`).
    counts: dict[str, int] = field(default_factory=dict)

    def line_of(self, i: int) -> int | None:
        return self.row_lines[i] if i < len(self.row_lines) else None

    def column_of(self, i: int, j: int) -> int | None:
        if i < len(self.cell_columns) and j < len(self.cell_columns[i]):
            return self.cell_columns[i][j]
        return None


def _split_row(line: str) -> tuple[list[str], list[int]]:
    """Cells of a pipe-table row and the 1-based column where each starts."""
    cells, cols = [], []
    body = line.rstrip()
    start = 0
    stripped = body.lstrip()
    if stripped.startswith("|"):
        start = len(body) - len(stripped) + 1
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    pos = start
    i = start
    while i <= len(body):
        if i == len(body) or (body[i] == "|" and body[i - 1 : i] != "\\"):
            raw = body[pos:i]
            lead = len(raw) - len(raw.lstrip())
            cells.append(raw.strip().replace("\\|", "|"))
            cols.append(pos + lead + 1)
            pos = i + 1
        i += 1
    return cells, cols


def from_document(table: Any, context: str, scope: Any) -> Table:
    """The claim reader's view of a :class:`benchaudit.documents.model.Table`."""
    header = table.header()
    rows = [[c.text for c in r] for r in table.rows]
    return Table(
        header=header,
        rows=rows,
        header_line=table.line,
        row_lines=[table.row_line(i) for i in range(len(table.rows))],
        cell_columns=[[c.column or 0 for c in r] for r in table.rows],
        page=table.page,
        context=context,
        doc=table,
        possible=list(scope.possible),
        possible_where=scope.possible_where,
        repeated_unstated=scope.repeated_unstated,
        repeated_for=scope.repeated_for,
        document_single=scope.document_single,
        document_single_where=scope.document_single_where,
        pm_declared=scope.pm_declared,
        named=list(scope.named),
    )


def parse_pipe_table(lines: list[str], line_numbers: list[int], context: str = "") -> Table | None:
    """A markdown pipe table: header, separator, body rows."""
    if len(lines) < 2:
        return None
    header, _ = _split_row(lines[0])
    rows: list[list[str]] = []
    row_lines: list[int | None] = []
    cols: list[list[int]] = []
    for line, number in zip(lines[2:], line_numbers[2:]):
        cells, starts = _split_row(line)
        rows.append(cells)
        row_lines.append(number)
        cols.append(starts)
    return Table(header, rows, line_numbers[0], row_lines, cols, context=context)


# ---------------------------------------------------------------- cells

_MARKUP = re.compile(r"\*\*|__|`|~~|<[^>]+>|[*_](?=\S)|(?<=\S)[*_]")
_MARKS = re.compile(r"[†‡§¶*^#]+|\[\^?\d+\]|\^\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+")
_N = r"\d+(?:\.\d+)?"
_CELL = re.compile(
    rf"^(?P<v>{_N})\s*(?P<pct>%)?\s*"
    rf"(?:(?:±|\+/-|\+-)\s*(?P<pm>{_N})\s*%?\s*)?"
    rf"(?:[\[(]\s*(?P<lo>{_N})\s*%?\s*(?:,|–|—|-|to)\s*(?P<hi>{_N})\s*%?\s*[\])])?"
    rf"(?:\s*[\[(]\s*(?P<k>\d+)\s*/\s*(?P<n>\d+)\s*[\])])?"
    # a change against a baseline after the score: "(+2.1)", "↑2.1", "+2.1"
    rf"(?:\s*\(\s*[+\-−↑↓▲▼]\s*{_N}\s*%?\s*\)|\s+[+↑↓▲▼]\s*{_N}\s*%?)?"
    # a second score in parentheses: "65.2 (61.0)" (HumanEval and HumanEval+ in one cell, or a
    # reproduced and a reported value); the first is the cell's score
    rf"(?:\s*\(\s*(?P<alt>{_N})\s*%?\s*\))?"
    # the prompt's number of exemplars after the score: "78.1 (14 shots)", "65.0 (5-shot)"; it
    # says how the model was prompted, not how many samples were averaged
    rf"(?:\s*\(\s*(?P<shots>\d+)[\s-]*shots?\s*\))?$"
)
_AGGREGATE = re.compile(r"^\s*(?:avg|average|mean|overall|total|all|sum|rank|#)\b", re.I)
# Columns of figures that are not scores; "TPF" is tokens per forward pass, a decoding speed
# reported beside each score by diffusion language models.
_NON_SCORE_HEADER = re.compile(
    r"\b(?:params?|parameters|size|#?\s*tokens?|year|date|cost|price|latency|time|context|"
    r"release|license|version|rank|elo|votes?|length|throughput|memory|flops|tpf)\b",
    re.I,
)


def _for_row(protos: list[Protocol], context: str, model: str) -> list[Protocol]:
    """The table's protocol statements that speak for this row: one made "for all X models"
    leaves the other rows (baselines copied from their reports) without a stated protocol."""
    from benchaudit.inputs.scoping import of_family, stated_for

    kept = []
    for p in protos:
        family = stated_for(context, p.position)
        if family is None or not model or of_family(model, family):
            kept.append(p)
    return kept


def clean_cell(cell: str) -> str:
    return _MARKS.sub("", _MARKUP.sub("", cell)).strip()


def _header_n(header: str) -> int | None:
    from benchaudit.claims.label_counts import items_in_label

    return items_in_label(header)


def numbers_in(tables: list[Table]) -> int:
    """Numbers in the tables' body cells (what a reader of the table sees)."""
    total = 0
    for t in tables:
        for row in t.rows:
            for cell in row:
                total += sum(1 for n in nums.scan(clean_cell(cell)) if n.kind != "identifier")
    return total


def _layout(table: Table, ctx: Context) -> tuple[bool, int, list[list[Mention]]]:
    """How to read a table: ``(transposed, key, mentions)``.

    Usually benchmarks head the columns and the first column names the model
    (``key = 0``, ``mentions`` per column). When some column names benchmarks
    in more rows than the header does, benchmarks run down that column
    (``key``), models head the columns to its right, and ``mentions`` are per
    row; columns left of the key (a category) are skipped.
    """
    reg = ctx.benchmarks
    col_marks = [_header_mentions(clean_cell(h), reg) for h in table.header]
    by_header = sum(1 for m in col_marks[1:] if m)
    rows = _left_padded(table)
    best_j, best = 0, 0
    for j in range(len(table.header)):
        count = sum(1 for r in rows if j < len(r) and find_benchmarks(clean_cell(r[j]), reg))
        if count > best:
            best_j, best = j, count
    if best > by_header:
        marks = [
            find_benchmarks(clean_cell(r[best_j]), reg) if best_j < len(r) else [] for r in rows
        ]
        return True, best_j, marks
    return False, 0, col_marks


def _header_mentions(header: str, registry: Registry) -> list[Mention]:
    """Benchmarks a header names; in a merged header ("MBPP / MBPP+") the lowest level wins."""
    parts = [p for p in header.split(" / ") if p.strip()]
    for part in reversed(parts) if len(parts) > 1 else []:
        found = find_benchmarks(part, registry)
        if found:
            return found
    return find_benchmarks(header, registry)


def _left_padded(table: Table) -> list[list[str]]:
    """Rows padded on the left to the header's width.

    A row shorter than the header has lost leading cells to a ``rowspan``
    (a category spanning several rows) when benchmarks run down a column.
    """
    width = len(table.header)
    return [[""] * (width - len(r)) + r if len(r) < width else r for r in table.rows]


_RANK_COLUMN = re.compile(r"^\W*(?:rank(?:ing)?|#|no\.?|place|position)\W*$", re.I)
_MODEL_COLUMN = re.compile(r"^\W*(?:models?|methods?|systems?)\b", re.I)


#: The header of a column that names each row's metric or protocol ("Metric", "Setting").
_METRIC_COLUMN = re.compile(r"^\W*(?:metrics?|settings?|protocols?|eval(?:uation)?\s+settings?)\W*$", re.I)


def _ranked(header: list[str]) -> bool:
    """Whether the table's first column is a rank and its second names the models."""
    return len(header) > 2 and bool(_RANK_COLUMN.match(clean_cell(header[0]))) and bool(
        _MODEL_COLUMN.match(clean_cell(header[1]))
    )


def tables_to_claims(tables: list[Table], path: str, ctx: Context) -> list[Claim]:
    """One ``score`` claim per score cell of every table."""
    from benchaudit.inputs.scoping import averaging_in

    out: list[Claim] = []
    for table in tables:
        if not table.rows:
            continue
        transposed, key, marks = _layout(table, ctx)
        table_protocols = protocols_in(table.context)
        if (
            any(p.protocol == "single" for p in table_protocols)
            and not any(p.protocol == "averaged" for p in table_protocols)
            and averaging_in(table.context)
        ):
            # "greedy decoding gives repetition, so we generate k responses (between 4 and 64)
            # per question": a single pass and an average over an unstated k are both said; the
            # average, under which the scores are possible, wins.
            table_protocols = [p for p in table_protocols if p.protocol != "single"]
        proportion_cols = _proportion_columns(table)
        python_of = None if transposed else _caption_python_benchmark(table, tables, ctx.benchmarks)
        rows = _left_padded(table) if transposed else table.rows
        # "Rank | Model | ... | Score": the models are named right after the rank column.
        mcol = 1 if not transposed and key == 0 and _ranked(table.header) else 0
        for i, row in enumerate(rows):
            # A benchmark row's own metric cell ("SWE-bench Multilingual | Single Attempt (Acc) |
            # 47.3 | ..."): its protocol is the row's, as a column header's is the column's.
            note = " ".join(
                clean_cell(c) for jj, c in enumerate(row)
                if transposed and jj != key and jj < len(table.header) and _METRIC_COLUMN.match(clean_cell(table.header[jj]))
            )
            for j, cell in enumerate(row):
                if j <= key or j >= len(table.header):
                    continue
                label = row[key] if transposed else table.header[j]
                if not transposed and j <= mcol:
                    continue
                model = table.header[j] if transposed else row[mcol]
                mention = marks[i] if transposed else marks[j]
                if not mention and python_of and clean_cell(label).lower() == "python":
                    mention = python_of
                if _AGGREGATE.match(clean_cell(label)) or _NON_SCORE_HEADER.search(label):
                    continue
                if transposed and _NON_SCORE_HEADER.search(table.header[j]):
                    continue
                m = _CELL.match(clean_cell(cell))
                if not m:
                    continue
                shift = len(row) - len(table.rows[i])  # cells added by left padding
                claim = _cell_claim(
                    table,
                    i,
                    (j - shift, cell),
                    path,
                    clean_cell(label),
                    clean_cell(model),
                    m,
                    mention,
                    table_protocols,
                    proportion_cols.get(j, False) and not transposed,
                    ctx.benchmarks,
                    note,
                )
                if claim is not None:
                    out.append(claim)
                plus = _plus_score(clean_cell(label), m, ctx.benchmarks) if claim is not None else None
                if plus is not None and claim is not None:
                    plus_label, pm, plus_mention = plus
                    extra = _cell_claim(
                        table, i, (j - shift, pm.group(0)), path, plus_label, clean_cell(model), pm,
                        plus_mention, [], False, ctx.benchmarks,
                    )
                    if extra is not None:
                        extra.protocol, extra.samples = claim.protocol, claim.samples
                        extra.fields.update({k: v for k, v in claim.fields.items() if k.startswith("protocol")})
                        out.append(extra)
    return out


#: Benchmarks whose items are Python problems: in a table of languages under their name
#: ("Performance on HumanEval and MBPP": Python, Java, C++ ...) the Python column is the
#: benchmark itself; the other languages are translations with counts of their own.
_PYTHON_SETS = ("HumanEval", "HumanEval+", "MBPP", "MBPP+")


def _caption_python_benchmark(table: Table, tables: list[Table], registry: Registry) -> list[Mention]:
    """The one Python benchmark the caption names that no column names, or ``[]``; the columns
    of every table under the same caption count (a table printed as two stacked halves)."""
    caption_block = getattr(table.doc, "caption", None)
    caption = getattr(caption_block, "text", "") or ""
    if not caption:
        return []
    headers = [h for t in tables if getattr(t.doc, "caption", None) is caption_block for h in t.header[1:]]
    named = {m[0].benchmark.name.rstrip("+") for h in headers if (m := _header_mentions(clean_cell(h), registry))}
    found = [m for m in find_benchmarks(caption, registry) if m.benchmark.name.rstrip("+") not in named]
    names = {m.benchmark.name for m in found}
    if len(names) != 1 or next(iter(names)) not in _PYTHON_SETS:
        return []
    return found[:1]


#: "HumanEval (+)", "MBPP(+)": a header whose cells hold the base score and, in parentheses,
#: the EvalPlus one ("65.2 (61.0)").
_PLUS_HEADER = re.compile(r"^(?P<name>.*?\S)\s*\(\s*\+\s*\)\s*$")


def _plus_score(label: str, m: re.Match[str], registry: Registry) -> tuple[str, re.Match[str], list[Mention]] | None:
    """The EvalPlus score of a "base (plus)" cell under a "NAME (+)" header: the label NAME+,
    the score's match and the registry's mention of NAME+, or None."""
    head = _PLUS_HEADER.match(label)
    alt = m.group("alt")
    if head is None or alt is None:
        return None
    plus_label = f"{head.group('name')}+"
    mention = find_benchmarks(plus_label, registry)
    if not mention or not mention[0].benchmark.name.endswith("+"):
        return None
    inner = _CELL.match(alt)
    return (plus_label, inner, mention) if inner is not None else None


def _proportion_columns(table: Table) -> dict[int, bool]:
    """Columns whose values are all between 0 and 1 with decimals: proportions."""
    out = {}
    for j in range(1, len(table.header)):
        values = []
        for row in table.rows:
            if j < len(row):
                m = _CELL.match(clean_cell(row[j]))
                if m:
                    values.append(m.group("v"))
        out[j] = bool(values) and all("." in v and float(v) <= 1 for v in values)
    return out


def _cell_claim(
    table: Table,
    i: int,
    where: tuple[int, str],
    path: str,
    label: str,
    model: str,
    m: re.Match[str],
    mention: list[Mention],
    table_protocols: list[Protocol],
    proportion: bool,
    registry: Registry,
    row_note: str = "",
) -> Claim | None:
    j, cell_text = where
    value = m.group("v")
    alt = m.group("alt")
    if alt is not None and not 0.5 * float(value) <= float(alt) <= 1.5 * float(value) + 1:
        return None  # "65.2 (1.3)": a spread or a count beside a mean, not a second score
    if m.group("pct"):
        unit = "percent"
    elif proportion or ("." in value and float(value) <= 1 and "%" not in label):
        unit = "proportion"
    else:
        unit = "points"
    if float(value) > (1 if unit == "proportion" else 100):
        return None
    header_n = _header_n(label)
    prose_n = None
    if not mention and header_n is None:
        from benchaudit.claims.stated_counts import count_for

        prose_n = count_for(label, table.counts)
        if prose_n is None:
            return None
    if mention and getattr(mention[0].benchmark, "metric", "binary") == "rating":
        return None  # an Elo or Codeforces rating (or its percentile) is not a score
    line = table.line_of(i)
    claim = Claim(
        kind="score",
        text=f"{model} | {label}: {cell_text.strip()}",
        location=Location(path, line, table.column_of(i, j), table.page),
        confidence=Confidence.HIGH if mention else Confidence.MEDIUM,
        value=value,
        unit=unit,
        benchmark=(getattr(mention[0].benchmark, "label", "") or mention[0].benchmark.name)
        if mention
        else label,
        model=model or None,
    )
    if mention:
        b = mention[0].benchmark
        if getattr(b, "metric", "binary") != "binary":
            claim.fields["grid"] = False  # a rating, a judge's score, a continuous metric
        if b.source == "configuration":
            claim.n, claim.n_source = b.n, "configuration"
        elif not names_a_part(label, registry):
            claim.n, claim.n_source = b.n, "registry"
    if header_n is not None and claim.n_source != "configuration":
        claim.n, claim.n_source = header_n, "text"
    elif prose_n is not None:
        # Stated in the prose for a name the column shares: which set the column is on is
        # read, not certain ("prose" is no "text" premise).
        claim.n, claim.n_source = prose_n, "prose"
    own = protocols_in(label) or protocols_in(model) or protocols_in(row_note)
    protos = own or _for_row(table_protocols, table.context, model)
    mine, others = named_for(mention[0].benchmark, table.named, registry) if mention and table.named else ([], [])
    if not own and others:
        # "AIME24 is with averaged score of 32 repetitions" in the table's note is not the
        # protocol of its MATH-500 row.
        protos = [p for p in protos if not any(same_protocol(p, o) for _, o, _ in others)
                  or any(same_protocol(p, m) for _, m, _ in mine)]
    if protos:
        claim.protocol, claim.samples = protos[0].protocol, protos[0].samples
        claim.fields["protocol_text"] = protos[0].metric
        claim.fields["protocol_scope"] = "column" if own else "table"
    elif table.document_single:
        document_protocol(claim, table.document_single, table.document_single_where)
    note_possible(claim, table.possible, table.possible_where, table.repeated_unstated, table.repeated_for)
    if claim.protocol is None and mine:
        named_protocol(claim, mine, others, table.possible)
    if NOT_GRID.search(label):
        claim.fields["grid"] = False
    if m.group("pm"):
        claim.plus_minus = m.group("pm")
    if m.group("lo"):
        claim.interval = (m.group("lo"), m.group("hi"))
    if m.group("pm") or m.group("lo"):
        # "Score (mean ± std over 3 seeds)", "95% CI" in the header or the caption.
        said = interval_kind(f"{label} {table.context}")
        claim.fields["level"] = said.get("level")
        claim.fields["pm_kind"] = said.get("pm_kind") or table.pm_declared or None
    if m.group("k"):
        claim.fields["k"] = int(m.group("k"))
        claim.n, claim.n_source = int(m.group("n")), "text"
    claim.fields["table"] = True
    claim.fields["table_line"] = table.header_line
    claim.fields["column_label"] = label
    return claim
