"""Leaderboard tables: one row per model, a score, and maybe an interval.

A CSV/TSV file is read here (kind ``leaderboard``); a table found inside a
document can be handed to :func:`analyse_table` (header, rows, line numbers),
which returns the same :class:`Leaderboard` or ``None`` when the table is not
a leaderboard. Columns are found by name:

- model: ``model``, ``name``, ``model name`` ... or an unnamed first column;
- score: ``score``, ``arena score``, ``elo``, ``rating``, ``win_rate`` ... (or
  ``columns.score`` from the configuration);
- interval: a ``95% CI`` column (``+5/-4``, ``(-1.7, 1.9)``, ``[1578, 1663]``,
  ``± 2.1``), ``ci_low``/``ci_high`` (``lower``/``upper``) columns, or a
  standard-error column (``standard_error``, ``se``; interval = score ± z·SE);
- optional ``votes``/``battles``/``n`` and ``rank`` columns.

Standard library only: a leaderboard in a pre-commit hook reads fast.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader, delimiter_of
from benchaudit.linebreaks import split_lines
from benchaudit.stats.special import z_for

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

MODEL_COLS = ("model", "model name", "model_name", "name", "models", "system", "")
SCORE_COLS = (
    "arena score",
    "arena elo",
    "elo",
    "elo rating",
    "rating",
    "score",
    "bt score",
    "win_rate",
    "win rate",
    "winrate",
    "win rate (%)",
    "length_controlled_winrate",
    "lc win rate",
    "accuracy",
    "acc",
    "pass@1",
)
CI_COLS = ("95% ci", "ci", "95% ci (±)", "confidence interval", "interval", "ci (95%)")
LOW_COLS = ("ci_low", "lower", "low", "ci_lower", "lower_bound")
HIGH_COLS = ("ci_high", "upper", "high", "ci_upper", "upper_bound")
SE_COLS = ("standard_error", "se", "stderr", "std_error", "sem", "std error", "std. error", "standard error")
#: Score columns of a ranked table that names no score column ("# | Model | ALL | FQA ..."):
#: taken only when the table also has a rank column.
OVERALL_COLS = ("all", "overall", "avg", "avg.", "average", "total")
N_COLS = ("votes", "battles", "num_battles", "n", "n_total", "#votes", "num votes")
RANK_COLS = ("rank", "rank (ub)", "rank(ub)", "rank* (ub)", "rank*", "#", "position")
#: Columns that mark a per-item or pairwise file rather than a leaderboard.
NOT_LEADERBOARD = (
    "item",
    "item_id",
    "question_id",
    "task_id",
    "problem",
    "prompt",
    "doc_id",
    "sample",
    "model_a",
    "model_b",
    "winner",
    "instance_id",
    "example_id",
)
TOP_MARKERS = re.compile(r"(#\s*1\b|\bsota\b|state[- ]of[- ]the[- ]art|\bbest\b|🥇|\*\*)", re.I)

_NUM = r"[+-]?\d+(?:\.\d+)?"


@dataclass
class Entry:
    """One leaderboard row."""

    model: str
    """The model of the row."""
    score: float
    """Its score, on the table's own scale."""
    line: int | None
    """File line of the row."""
    low: float | None = None
    """Lower bound of its interval (stated, or from a stated standard error)."""
    high: float | None = None
    """Upper bound of its interval."""
    n: int | None = None
    """Items or votes behind the score, when a column says."""
    rank: str | None = None
    """The rank as the table writes it."""
    cells: list[str] = field(default_factory=list)
    """The row's cells as written."""

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    @property
    def width(self) -> float | None:
        return None if self.low is None or self.high is None else self.high - self.low


@dataclass
class Leaderboard:
    """A table of models with scores and (maybe) intervals."""

    path: str
    """The file, as the report names it."""
    entries: list[Entry]
    """The rows, in file order."""
    score_column: str
    """The column read as the score."""
    interval_from: str | None
    """Where intervals came from (a column pair, a ``±`` column, a standard error), or None."""
    rank_column: str | None = None
    """The column that states ranks, if any."""

    def ranked(self) -> list[Entry]:
        """Entries best first (stable for equal scores)."""
        return sorted(self.entries, key=lambda e: -e.score)

    def with_intervals(self) -> list[Entry]:
        return [e for e in self.entries if e.has_interval]


def _norm(name: str) -> str:
    return " ".join(name.strip().strip('"').lower().replace("\u00b1", "±").split())


def _pick(header: list[str], wanted: tuple[str, ...]) -> int | None:
    normed = [_norm(h) for h in header]
    for w in wanted:
        if w in normed:
            return normed.index(w)
    return None


def _contains(header: list[str], parts: tuple[str, ...]) -> int | None:
    """The first column whose name contains one of ``parts`` (in the order of ``parts``)."""
    normed = [_norm(h) for h in header]
    for part in parts:
        for k, h in enumerate(normed):
            if part == h or part in h and not re.search(r"\b(se|sem|std|stderr|error)\b", h):
                return k
    return None


def _number(text: str) -> float | None:
    """The number in a cell; NaN and infinities are no number (a blank, not a score)."""
    t = text.strip().replace(",", "").replace("%", "").replace("*", "").strip()
    got: float | None
    try:
        got = float(t)
    except ValueError:
        m = re.fullmatch(rf"({_NUM})\s*(?:±|\+/-|\+-).*", t)
        got = float(m.group(1)) if m else None
    return got if got is not None and math.isfinite(got) else None


def _score_cell(text: str) -> tuple[float | None, tuple[float, float] | None]:
    """A score, and an interval written in the same cell (``82.6 (80.9–84.5)``, ``1287 ±5``)."""
    score = _number(text)
    if score is not None and not re.search(r"[(\[]|±|\+/-", text):
        return score, None
    m = re.match(rf"\s*\**\s*({_NUM})\s*%?\s*\**\s*(.+)$", text.replace("\u2212", "-"))
    if not m:
        return score, None
    value = float(m.group(1))
    rest = m.group(2).strip().strip("*").strip()
    got = parse_interval(rest.strip("()[] ") if rest[:1] in "([" else rest, value)
    if got is None and rest[:1] in "([":
        got = parse_interval(rest, value)
    return value, got


def parse_interval(text: str, score: float) -> tuple[float, float] | None:
    """Interval bounds from a CI cell, absolute or relative to ``score``."""
    t = text.strip().replace("\u2212", "-").replace("–", ",").replace("%", "")
    if not t or t.lower() in ("-", "n/a", "na", "nan"):
        return None
    m = re.fullmatch(rf"(?:±|\+/-|\+-)\s*({_NUM})", t)
    if m:
        h = abs(float(m.group(1)))
        return score - h, score + h
    nums = re.findall(_NUM, t)
    if len(nums) != 2:
        return None
    x, y = float(nums[0]), float(nums[1])
    explicit_sign = "+" in t or re.search(r"(^|[\s(\[/,])-", t) is not None
    lo, hi = min(x, y), max(x, y)
    if not explicit_sign and lo <= score <= hi:
        return lo, hi
    if lo <= 0 <= hi:  # offsets such as +5/-4 or (-1.7, 1.9)
        return score + lo, score + hi
    if lo <= score <= hi:
        return lo, hi
    return None


def _se_column(header: list[str], score_name: str) -> int | None:
    """The standard-error column that belongs to the score column.

    AlpacaEval has ``standard_error`` for ``win_rate`` and
    ``lc_standard_error`` for ``length_controlled_winrate``.
    """
    cands = [
        k
        for k, h in enumerate(header)
        if _norm(h) in SE_COLS or _norm(h).endswith(("standard_error", "standard error"))
    ]
    lc_score = score_name.startswith(("length_controlled", "lc"))
    for k in cands:
        if _norm(header[k]).startswith("lc") == lc_score:
            return k
    return None


def analyse_table(
    header: list[str],
    rows: list[list[str]],
    lines: Sequence[int | None] | None = None,
    path: str = "",
    score_column: str | None = None,
    confidence: float = 0.95,
) -> Leaderboard | None:
    """A :class:`Leaderboard` from a table's cells, or ``None`` if it is not one."""
    if not header or len(rows) < 2:
        return None
    if _pick(header, NOT_LEADERBOARD) is not None:
        return None
    mcol = _pick(header, MODEL_COLS)
    if mcol is None:
        mcol = _contains(header, ("model",))
    scol = None
    if score_column and _norm(score_column) in [_norm(h) for h in header]:
        scol = [_norm(h) for h in header].index(_norm(score_column))
    if scol is None:
        scol = _pick(header, SCORE_COLS)
    if scol is None:
        scol = _contains(header, ("elo", "score", "rating", "win rate", "win_rate"))
    if scol is None and _pick(header, RANK_COLS) is not None:
        scol = _pick(header, OVERALL_COLS)
    if mcol is None or scol is None or mcol == scol:
        return None
    ci = _pick(header, CI_COLS)
    if ci is None:
        ci = _contains(header, ("95% ci", "ci (", "confidence interval"))
    lo_c, hi_c = _pick(header, LOW_COLS), _pick(header, HIGH_COLS)
    score_name = _norm(header[scol])
    se_c = _se_column(header, score_name)
    n_c, r_c = _pick(header, N_COLS), _pick(header, RANK_COLS)
    z = z_for(confidence)
    entries: list[Entry] = []
    source = (
        "ci column"
        if ci is not None
        else "bounds"
        if lo_c is not None and hi_c is not None
        else "standard error"
        if se_c is not None
        else None
    )
    for k, row in enumerate(rows):
        if len(row) <= max(mcol, scol):
            continue
        score, inline = _score_cell(row[scol])
        model = re.sub(r"\*\*|__|`", "", row[mcol]).strip()
        if score is None or not model:
            continue
        e = Entry(model=model, score=score, line=(lines[k] if lines else None), cells=list(row))
        if inline is not None:
            e.low, e.high = round(inline[0], 10), round(inline[1], 10)
            source = source or "score cell"
        elif ci is not None and ci < len(row):
            got = parse_interval(row[ci], score)
            if got:
                e.low, e.high = round(got[0], 10), round(got[1], 10)
        elif lo_c is not None and hi_c is not None and max(lo_c, hi_c) < len(row):
            lo, hi = _number(row[lo_c]), _number(row[hi_c])
            if lo is not None and hi is not None:
                e.low, e.high = min(lo, hi), max(lo, hi)
        elif se_c is not None and se_c < len(row):
            se = _number(row[se_c])
            if se is not None:
                e.low, e.high = score - z * se, score + z * se
        if n_c is not None and n_c < len(row):
            n = _number(row[n_c])
            e.n = int(n) if n is not None and n == int(n) else None
        if r_c is not None and r_c < len(row):
            e.rank = row[r_c].strip()
        entries.append(e)
    if len(entries) < 2:
        return None
    return Leaderboard(
        path=path,
        entries=entries,
        score_column=header[scol].strip() or "score",
        interval_from=source,
        rank_column=header[r_c] if r_c is not None else None,
    )


def _dialect(p: Probe) -> str:
    return p.delimiter


def sniff(p: Probe) -> float:
    if p.suffix not in (".csv", ".tsv"):
        return 0.0
    import csv  # a leaderboard file only: a document's tables are read without it

    text = p.text
    try:
        rows = list(csv.reader(io.StringIO(text[: 16 * 1024]), delimiter=_dialect(p)))
    except csv.Error:
        return 0.0
    if len(rows) < 3:
        return 0.0
    header, body = rows[0], rows[1:-1] if not text.endswith("\n") else rows[1:]
    board = analyse_table(header, [r for r in body if r])
    if board is None:
        return 0.0
    models = [e.model for e in board.entries]
    return 0.8 if len(set(models)) == len(models) else 0.1


#: A column naming the task in a long-form leaderboard (one row per model and task).
TASK_COLS = ("task", "benchmark", "dataset", "task_name")


def read(path: Path, display: str, ctx: Context) -> Source[Leaderboard] | list[Source[Leaderboard]]:
    import csv

    text = path.read_text(encoding="utf-8").lstrip("\ufeff")
    delim = delimiter_of(text, path.suffix.lower())
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delim))
    except csv.Error as exc:
        raise InputError(display, f"malformed CSV: {exc}") from None
    if not rows:
        raise InputError(display, "empty leaderboard")
    header = rows[0]
    body, lines = [], []
    for k, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise InputError(display, f"ragged row: {len(row)} fields, expected {len(header)}", k)
        body.append(row)
        lines.append(k)
    task = _pick(header, TASK_COLS)
    if task is not None and len({r[task] for r in body}) > 1:
        # Long form: one leaderboard per task.
        out: list[Source] = []
        for name in dict.fromkeys(r[task] for r in body):
            keep = [j for j, r in enumerate(body) if r[task] == name]
            part = _board(
                display, header, [body[j] for j in keep], [lines[j] for j in keep], text, ctx
            )
            part.meta["task"] = name
            out.append(part)
        return out
    return _board(display, header, body, lines, text, ctx)


def _board(
    display: str, header: list[str], body: list[list[str]], lines: list[int], text: str, ctx: Context
) -> Source[Leaderboard]:
    from benchaudit.evidence import Source

    board = analyse_table(
        header,
        body,
        lines,
        display,
        score_column=ctx.config.columns.get("score"),
        confidence=1 - ctx.alpha,
    )
    if board is None:
        raise InputError(display, "not a leaderboard: need a model column and a score column")
    models = [e.model for e in board.entries]
    dup = next((m for k, m in enumerate(models) if m in models[:k]), None)
    if dup is not None:
        line = board.entries[models.index(dup, models.index(dup) + 1)].line
        raise InputError(display, f"model {dup!r} appears twice", line)
    return Source(
        path=display,
        kind="leaderboard",
        data=board,
        numbers_seen=len(board.entries),
        lines=split_lines(text),
    )


def leaderboards_of(source: Source) -> list[Leaderboard]:
    """Leaderboards in a source: the file itself, or tables of a document."""
    if source.kind == "leaderboard" and isinstance(source.data, Leaderboard):
        return [source.data]
    if source.kind != "document":
        return []
    return source.cached("leaderboards", lambda: _document_boards(source))


def _pipe_tables(lines: list[str]) -> list[Any]:
    """Markdown pipe tables of a document (header, separator, body)."""
    from benchaudit.inputs.tables import parse_pipe_table

    sep = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
    out, i = [], 0
    while i + 1 < len(lines):
        if "|" in lines[i] and sep.match(lines[i + 1]):
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                j += 1
            table = parse_pipe_table(lines[i:j], list(range(i + 1, j + 1)))
            if table is not None:
                out.append(table)
            i = j
        else:
            i += 1
    return out


@dataclass
class _CodeTable:
    """A table drawn in a code block (console output), as the leaderboard reader takes it."""

    header: list[str]
    rows: list[list[str]]
    row_lines: list[int | None]


def _code_tables(source: Source) -> list[_CodeTable]:
    """Leaderboards pasted as console output: the document model reads them as tables."""
    doc = source.data
    if not callable(getattr(doc, "tables", None)):
        return []
    return [
        _CodeTable(t.header(), [[c.text for c in r] for r in t.rows], [r[0].line if r else None for r in t.rows])
        for t in doc.tables()
        if t.origin == "code"
    ]


def _document_boards(source: Source) -> list[Leaderboard]:
    found: list[Leaderboard] = []
    tables = source.meta.get("tables")
    if tables is None and not callable(getattr(source.data, "tables", None)):
        tables = getattr(source.data, "tables", None)
    if tables is None and source.lines:
        tables = [*_pipe_tables(source.lines), *_code_tables(source)]
    for t in tables or []:
        header = getattr(t, "header", None)
        rows = getattr(t, "rows", None)
        if not header or not rows:
            continue
        lines = getattr(t, "row_lines", None) or getattr(t, "lines", None)
        try:
            board = analyse_table(
                [str(h) for h in header],
                [[str(c) for c in r] for r in rows],
                list(lines) if lines and len(lines) == len(rows) else None,
                source.path,
            )
        except (ValueError, TypeError, IndexError):
            board = None
        if board is not None:
            found.append(board)
    return found


READER = Reader(
    kind="leaderboard",
    sniff=sniff,
    read=read,
    description="leaderboard tables (one row per model, score, interval / SE) as CSV or TSV",
)


def top_within_noise(board: Leaderboard) -> dict[str, Any] | None:
    """The top row within noise of the runner-up (:func:`analysis.leaderboards.top_within_noise`)."""
    from benchaudit.analysis.leaderboards import top_within_noise as analysis

    return analysis(board)
