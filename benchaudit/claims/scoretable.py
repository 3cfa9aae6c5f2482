"""Score tables read benchmark by benchmark, with how each cell was set.

A :class:`ScoreTable` is a document table seen as what it claims: for every
benchmark (a :class:`ScoreLine`), the models' values with their emphasis
(bold, underline), marks and row group, the item count when it is known and
the direction in which the metric improves. Whether benchmarks head the
columns or run down a column is decided from the registry; when the registry
names no benchmark on either axis, from where the bold cells are the best of
their line (authors bold the best model per benchmark); and when that does
not tell either, the table is not read as scores at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from benchaudit.claims.label_counts import items_in_label
from benchaudit.claims.stacked_cells import unstack
from benchaudit.documents.model import Cell, Table

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark, Registry
    from benchaudit.claims.every_set_count import EverySetCount

#: "4/30" is a count of items; "49.4% / 1430" (a win rate and an Elo) is a pair, not a share.
_VALUE = re.compile(r"^[*_\s]*(?P<v>[-+−]?\d+(?:\.\d+)?)\s*(?P<pct>%)?(?:(?<!%)\s*/\s*(?P<of>\d+))?")
_MISSING = re.compile(r"^\s*(?:-|–|—|n/?a|/|×|x|✗|\?)?\s*$", re.I)
_LOWER_BETTER = re.compile(
    r"\b(?:error|err|perplexity|ppl|wer|cer|loss|latency|time|cost|price|rank|bpb|bits per byte|"
    r"lower is better)\b|↓",
    re.I,
)
_NOT_SCORE = re.compile(
    r"\b(?:params?|parameters|size|#?\s*tokens?|year|date|release|license|version|votes?|length|"
    r"throughput|memory|flops|context|#\s*act|activated|total|ckpt|checkpoint|architecture|"
    r"elo|rating|percentile|codeforces|speed|tok/s)\b",
    re.I,
)
_RATING = re.compile(r"\b(?:elo|rating|codeforces)\b", re.I)
_BENCH_CORNER = re.compile(r"^\s*(?:datasets?|benchmarks?|tasks?|metrics?|evaluations?|categor(?:y|ies))\b", re.I)
_MODEL_CORNER = re.compile(r"^\s*(?:models?|methods?|systems?|approach(?:es)?|baselines?)\b", re.I)
#: A row group label naming its metric: "eng → kalam (ChrF)", "kalam → eng (BLEURT)".
_GROUP_METRIC = re.compile(r"\(\s*(?:chrf\+*|bleu(?:rt)?|rouge[-\w]*|comet|meteor|f1|acc(?:uracy)?|em|wer|cer)\s*\)", re.I)
#: A column of a benchmark-per-row table that holds a setting, not a model's scores.
_SETTING_COLUMN = re.compile(r"^\W*(?:#\s*)?(?:shots?|n[-_ ]?shots?|few[- ]shot|params?|metrics?|setting)\W*$", re.I)
_AGGREGATE = re.compile(r"^\s*(?:avg\.?|average|mean|overall|total|all|sum|rank)\b", re.I)
# A column of differences beside the models': "| Benchmark | Ours | Previous SOTA | Improvement |"
# lists "+50.6%" under "Improvement"; it is never a rival.
_DIFFERENCE_COLUMN = re.compile(r"^\W*(?:improvements?|gains?|deltas?|Δ|diff(?:erence)?s?)\W*$", re.I)


@dataclass(frozen=True)
class ScoreCell:
    """One score cell of a table with its marks (bold, underline, footnotes)."""

    model: str
    text: str
    value: float
    bold: bool
    underline: bool
    marks: tuple[str, ...]
    group: str
    line: int | None
    column: int | None
    page: int | None
    #: Drawn bold inside an underline that carries another meaning ("underlined denotes
    #: open-source SOTA"): ``bold`` is cleared, this keeps that the reader sees it bold.
    bold_under: bool = False

    @property
    def decimals(self) -> int:
        m = _VALUE.match(self.text)
        v = m.group("v") if m else ""
        return len(v.split(".")[1]) if "." in v else 0


@dataclass
class ScoreLine:
    """One benchmark (or metric) across the models of a table."""

    label: str
    benchmark: Benchmark | None
    n: int | None
    higher_is_better: bool
    proportion: bool
    cells: list[ScoreCell] = field(default_factory=list)
    #: A rating (Elo, Codeforces): ordered, higher is better, but not a share of items.
    rating: bool = False
    #: The domain a benchmark row sits under ("Math", "Code"): a category column filled
    #: down, or the row group's label, when the table's rows are benchmarks.
    section: str = ""
    #: An average or total of the other lines ("Avg.", "Overall"): ranked, never k/n.
    aggregate: bool = False
    #: An upper bound on ``n`` when the line's own count is unknown but its items are a part of
    #: a set whose total the document states ("1781 objective questions" over a table of
    #: "Objective Questions" by subject), with the words that say so.
    n_bound: tuple[int, str] | None = None
    #: The one count the document states for every one of its test sets, taken for this line
    #: of a table whose lines name no benchmark and no count (an inferred link: used only to test
    #: bold leads for noise), with the words that say so.
    n_every: tuple[int, str] | None = None

    @property
    def unit(self) -> str:
        return "" if self.proportion else " points"


@dataclass
class ScoreTable:
    """A table of scores read cell by cell, with what its bold marks."""

    table: Table
    lines: list[ScoreLine]
    transposed: bool
    #: Rows (models) whose every cell is bold: a highlighted row, not a "best" mark.
    highlighted: set[str] = field(default_factory=set)
    #: Models the caption says the bold leaves out ("excluding the last column").
    outside: set[str] = field(default_factory=set)
    #: Share of lines with bold where the bold marks the (group's) best; None without bold.
    bold_best_share: float | None = None
    #: Rating lines (Elo, Codeforces): compared for who is ahead, never for noise or reachability.
    ratings: list[ScoreLine] = field(default_factory=list)
    #: Average and total lines: read for what the bold marks, never for noise or reachability.
    aggregates: list[ScoreLine] = field(default_factory=list)

    @property
    def bold_means_best(self) -> bool:
        """False when the bold follows another convention in most lines (pairs, a chosen row)."""
        return self.bold_best_share is None or self.bold_best_share >= 0.5


#: A footnote mark after a number: a symbol ("64.2*", "71.0†", "∗" of a PDF), a superscript
#: digit or letter ("58.1ᵃ"), or a reference in brackets ("89.4<sup>[2]</sup>", read as "89.4[²]";
#: "58.1[^1]"): it annotates the score and is no part of it.
_MARK = r"(?:[*∗⋆†‡§¶#^¹²³⁴⁵⁶⁷⁸⁹⁰ᵃᵇᶜᵈ]|\[\^?(?:[¹²³⁴⁵⁶⁷⁸⁹⁰]{1,2}|\d{1,2}|[a-d])\])"
#: What may follow a cell's number: marks, a change, an interval (also "± 0.5%"), a count.
_TAIL = re.compile(
    r"\s*(?:(?:" + _MARK + r"|[a-d]){0,3}\s*)?(?:\(\s*[-+−↑↓]?\s*\d+(?:\.\d+)?\s*%?\s*\)|"
    r"[±]\s*\d+(?:\.\d+)?\s*%?|\[\s*\d+(?:\.\d+)?\s*[,–-]\s*\d+(?:\.\d+)?\s*\]|"
    r"\(\s*\d+\s*/\s*\d+\s*\)|[↑↓]\s*\d+(?:\.\d+)?|(?<=\s)[-+]\d+(?:\.\d+)?\s*%?)?"
    r"\s*" + _MARK + r"{0,3}\s*"
    # A pictograph after the number ("66.81 👍🏻", "91.2 🔥") decorates it; the number is the score.
    r"(?:[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B50\uFE0F\u200D]+\s*)?$"
)


def parse_value(text: str) -> float | None:
    """The number a cell shows (``"79.8*"`` → 79.8, ``"4/30"`` → 13.33), or None.

    A cell with words after its number ("1 x RTX 4090 (24 GB)") is not a score.
    """
    if _MISSING.match(text):
        return None
    m = _VALUE.match(text.replace("−", "-"))
    if not m or not _TAIL.match(text.replace("−", "-"), m.end()):
        return None
    v = float(m.group("v"))
    if m.group("of"):
        total = int(m.group("of"))
        return 100 * v / total if total else None
    return v


def _n_of(
    label: str,
    bench: Benchmark | None,
    cells: list[Cell],
    registry: Registry,
    counts: dict[str, int] | None = None,
) -> int | None:
    stated = items_in_label(label)
    if stated is not None:
        return stated
    fractions = {
        fm.group(1).replace(",", "")
        for c in cells
        if re.search(r"\d\s*/\s*\d+", c.text)
        and (fm := re.search(r"/\s*(\d{1,3}(?:,\d{3})+(?![\d.])|\d+)", c.text))
    }
    if len(fractions) == 1:
        return int(fractions.pop())
    if bench is not None and getattr(bench, "metric", "binary") == "binary":
        from benchaudit.inputs.sentences import names_a_part

        if names_a_part(label, registry):
            return None
        if counts and not bench.variant:
            from benchaudit.claims.stated_counts import count_for

            # The document's own count for the benchmark it names ("we adopt the human-verified
            # version of MBPP, a subset of 399 tasks") is the set its table was run on; the
            # registry's is only the usual split. Not for a variant header ("MBPP+", "HumanEval
            # FIM"): a count stated for the base set is not the variant's.
            stated = count_for(label, counts)
            if stated is not None and stated != bench.n and fold_name(bench.name) == fold_name(label):
                return stated
        return bench.n
    if bench is None and counts:
        from benchaudit.claims.stated_counts import count_for

        return count_for(label, counts)  # "USACO has 307 problems" in the document's prose
    return None


def fold_name(text: str) -> str:
    """A label or benchmark name folded for comparison ("MBPP (500)" and "mbpp" alike)."""
    return re.sub(r"[^a-z0-9+]", "", re.sub(r"\([^()]*\)|\[[^\]]*\]", "", text.lower()))


def _mentions(text: str, registry: Registry) -> Benchmark | None:
    """The benchmark a label names; in a merged header ("MBPP / MBPP+"), the lowest level wins."""
    parts = [p for p in text.split(" / ") if p.strip()]
    for part in reversed(parts) if len(parts) > 1 else []:
        found = _mention(part, registry)
        if found is not None:
            return found
    return _mention(text, registry)


def _mention(text: str, registry: Registry) -> Benchmark | None:
    from benchaudit.inputs.sentences import find_benchmarks

    # A footnote mark ("GSM8K¹") is a word character to a regular expression: set it apart.
    text = re.sub(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+", lambda m: " " * len(m.group()), text)
    found = find_benchmarks(text, registry)
    if not found:
        return None
    m = found[0]
    if re.match(r"\s*\+", text[m.end :]) and not m.benchmark.name.endswith("+"):
        # "MBPP +", "HumanEval +": the EvalPlus variant, not the base set.
        return registry.get(m.benchmark.name + "+")
    return m.benchmark


def _line(
    label: str,
    bench: Benchmark | None,
    pairs: list[tuple[str, Cell, str]],
    registry: Registry,
    counts: dict[str, int] | None = None,
) -> ScoreLine | None:
    rating = bool(_RATING.search(label))
    aggregate = bool(_AGGREGATE.match(label))
    if aggregate and (rating or re.match(r"\s*rank", label, re.I)):
        return None  # a rank column or an averaged rating: neither is a score to rank
    if _NOT_SCORE.search(label) and not rating:
        return None
    cells: list[ScoreCell] = []
    for model, cell, group in pairs:
        value = parse_value(cell.text)
        if value is None or not model.strip() or cell.struck:
            continue  # a struck-through number is withdrawn by the authors: not a score
        cells.append(
            ScoreCell(
                model.strip(), cell.text, value, cell.bold, cell.underline, cell.marks, group,
                cell.line, cell.column, cell.page,
            )
        )
    if len(cells) < 2:
        return None
    if rating:
        if any(c.value < 0 for c in cells):
            return None
        return ScoreLine(label, bench, None, True, False, cells, rating=True)
    proportion = all(c.value <= 1 and "." in c.text for c in cells)
    if not proportion and any(c.value > 100 or c.value < 0 for c in cells):
        return None  # ratings, counts, sizes: not a score on a 0–100 scale
    if aggregate:
        return ScoreLine(label, None, None, not _LOWER_BETTER.search(label), proportion, cells, aggregate=True)
    n = _n_of(label, bench, [c for _, c, _ in pairs], registry, counts)
    # The registry's direction counts as much as the label's ("LAMBADA (perplexity)").
    higher = not _LOWER_BETTER.search(label) and getattr(bench, "direction", "higher") != "lower"
    return ScoreLine(label, bench, n, higher, proportion, cells)


#: Words of a column label that names a split, a setting or the metric rather than a part
#: of a benchmark ("Valid (0-shot)", "Test (5-shot)", "Acc").
_SETTING_WORDS = frozenset(
    "val valid validation dev test testmini acc accuracy score em pass@1 zero few shot shots cot".split()
)


def _is_setting(label: str) -> bool:
    # "Pass^1" .. "Pass^4" (tau-bench's pass^k) are metrics of the whole set, as "pass@1" is.
    words = re.findall(r"pass\s*[@^]\s*\d+|[a-z@]+[0-9]*|[0-9]+", label.lower())
    return bool(words) and all(w in _SETTING_WORDS or w.isdigit() or w.startswith("pass") for w in words)


def _context_benchmark(table: Table, registry: Registry) -> Benchmark | None:
    """The one benchmark the table's own heading names, else its caption, else its lead-in
    ("#### C-Eval" over a table of "Valid (0-shot)" and "Test (5-shot)" columns). A text
    that names several benchmarks settles nothing; the next, closer one may."""
    from benchaudit.inputs.sentences import find_benchmarks

    texts = (
        table.section.title if table.section else "",
        table.caption.text if table.caption else "",
        table.lead_in.text if table.lead_in else "",
    )
    for text in texts:
        found = {m.benchmark.name: m.benchmark for m in find_benchmarks(text, registry)}
        if len(found) > 1:
            continue  # "MMBench & MMBench-CN" over one table each: the lead-in says which
        if found:
            return next(iter(found.values()))
    return None


#: Split words of a column label, and the split names they stand for.
_SPLITS = {
    "val": "val", "valid": "val", "validation": "val", "dev": "dev", "test": "test",
    "testmini": "testmini",
}


def _setting_bench(label: str, context: Benchmark, registry: Registry) -> Benchmark | None:
    """The split of ``context`` a setting label names ("Valid" of C-Eval: its val split), or
    None when the label names a split the registry does not resolve (its n is unknown)."""
    named = _mentions(f"{context.name} {label}", registry)
    bench = named if named is not None and named.name == context.name else context
    wanted = {_SPLITS[w] for w in re.findall(r"[a-z]+", label.lower()) if w in _SPLITS}
    have = _SPLITS.get(str(bench.split).lower(), str(bench.split).lower())
    if wanted and wanted != {have}:
        return None
    return bench


#: The first column of a ranked table ("Rank | Model | Version | Score"): a place, not a model.
_RANK_HEADER = re.compile(r"^\W*(?:rank(?:ing)?|#|no\.?|place|position)\W*$", re.I)


def _text_column(table: Table, j: int) -> bool:
    """Whether column ``j`` holds names, not numbers: some text and no value in its body."""
    texts = [r[j].text.strip() for r in table.rows if len(r) > j]
    return any(texts) and all(parse_value(t) is None for t in texts if t)


def spanned_first_column(table: Table) -> bool:
    """Whether the first column is filled only on each group's first row and blank below, with
    the second filled on every row ("| ReACT | Claude-2 |", "|  | ChatGPT |"): a row span drawn
    in Markdown, so the first column groups the rows and the second names them."""
    header = table.header()
    rows = [r for r in table.rows if len(r) > 2]
    if len(header) < 3 or len(rows) < 3 or not rows[0][0].text.strip():
        return False
    if _SETTING_COLUMN.search(header[1]) or _NOT_SCORE.search(header[1]):
        return False  # "| Llama 2 | 7B |", "| GPT | 5-shot |": a setting of the first column's model
    return (
        any(not r[0].text.strip() for r in rows)
        and all(r[1].text.strip() for r in rows)
        and _text_column(table, 0)
        and _text_column(table, 1)
    )


def model_column(table: Table) -> int:
    """The column that names the models: the first, the "Model" column right after a rank
    column, or the second when the first spans groups of rows ("Method | Model")."""
    header = table.header()
    if len(header) > 2 and _RANK_HEADER.match(header[0]) and _MODEL_CORNER.search(header[1]):
        return 1
    if spanned_first_column(table) and (_MODEL_CORNER.search(header[1]) or not _MODEL_CORNER.search(header[0])):
        return 1
    if _copied_span_column(table):
        return 1
    return 0


def _copied_span_column(table: Table) -> bool:
    """Whether the first column is a row span written into each row it covers (an HTML
    ``rowspan``: "General VLMs" on eight rows) beside a "Model" column naming every row apart:
    the first column groups the rows, the second names them. A span of benchmarks
    ("Datasets") is no group of models."""
    header = table.header()
    rows = [r for r in table.rows if len(r) > 2]
    if len(header) < 3 or len(rows) < 3 or not _MODEL_CORNER.search(header[1]) or _BENCH_CORNER.search(header[0]):
        return False
    firsts = [r[0].text.strip() for r in rows]
    names = [r[1].text.strip() for r in rows]
    repeated = any(a and a == b for a, b in zip(firsts, firsts[1:]))
    return (
        repeated
        and all(names)
        and len(set(names)) == len(names)
        and _text_column(table, 0)
        and _text_column(table, 1)
    )


def _row_groups(table: Table, key: int) -> tuple[list[str], list[str]]:
    """Each body row's model name and row group. With a spanning first column its value holds
    down to the next and is the group; a model that appears in several groups ("Claude-2"
    under "ReACT" and under "DFSDT") is named with its group, so its rows stay apart."""
    names = [row[key].text if len(row) > key else "" for row in table.rows]
    groups = [table.groups[i] if i < len(table.groups) else "" for i in range(len(table.rows))]
    if key != 1 or _RANK_HEADER.match(table.header()[0]):
        return names, groups
    spans: list[str] = []
    for i, row in enumerate(table.rows):
        spans.append(row[0].text.strip() if row and row[0].text.strip() else spans[-1] if spans else "")
        groups[i] = f"{groups[i]} / {spans[i]}" if groups[i] and spans[i] else groups[i] or spans[i]
    seen: dict[str, set[str]] = {}
    for name, span in zip(names, spans, strict=True):
        seen.setdefault(name.strip(), set()).add(span)
    named = [
        f"{name.strip()} ({span})" if span and len(seen[name.strip()]) > 1 else name
        for name, span in zip(names, spans, strict=True)
    ]
    return named, groups


def _by_columns(
    table: Table,
    registry: Registry,
    counts: dict[str, int] | None = None,
    context: Benchmark | None = None,
) -> list[ScoreLine]:
    header = table.header()
    key = model_column(table)
    names, groups = _row_groups(table, key)
    lines = []
    for j in range(key + 1, len(header)):
        pairs = [(names[i], row[j], groups[i]) for i, row in enumerate(table.rows) if len(row) > j and row]
        bench = _mentions(header[j], registry)
        if bench is None and context is not None and _is_setting(header[j]):
            bench = _setting_bench(header[j], context, registry)
        line = _line(header[j], bench, pairs, registry, counts)
        if line is not None:
            lines.append(line)
    return lines


def _by_rows(
    table: Table, registry: Registry, key: int, counts: dict[str, int] | None = None
) -> list[ScoreLine]:
    header = table.header()
    lines = []
    section = ""
    for i, row in enumerate(table.rows):
        if key and row and row[0].text.strip():
            section = row[0].text.strip()  # a category column: its value holds until the next
        if len(row) <= key + 1:
            continue
        # The benchmark column names the line; a category column before it is its section.
        label = row[key].text.strip() or " ".join(c.text for c in row[: key + 1] if c.text)
        pairs = [
            (header[j], row[j], "")
            for j in range(key + 1, min(len(row), len(header)))
            # "#shots", "Params": a setting, not a model; "Improvement": a difference, not a model
            if not _SETTING_COLUMN.search(header[j]) and not _DIFFERENCE_COLUMN.search(header[j])
        ]
        line = _line(label, _mentions(row[key].text, registry), pairs, registry, counts)
        if line is not None:
            line.section = section if key else (table.groups[i] if i < len(table.groups) else "")
            lines.append(line)
    return lines


def _category_key(table: Table) -> int:
    """The column of benchmark names in a table whose rows are benchmarks: the second when the
    first is a category before it, spanning groups of rows ("Computer Use", "", "Browser Use")
    or headed as a kind of benchmark ("Benchmark Type | Benchmark"); else the first."""
    header = table.header()
    if len(header) < 4 or not _text_column(table, 0) or not _text_column(table, 1):
        return 0
    if _SETTING_COLUMN.search(header[1]) or _NOT_SCORE.search(header[1]):
        return 0  # "| Task | Metric |": the second column says how the first is scored
    return 1 if spanned_first_column(table) or _BENCH_CORNER.search(header[1]) else 0


def _mean_row(rows: list[ScoreLine]) -> bool:
    """Whether an average row of ``rows`` (read with a benchmark per row) is, in every column
    it shares with at least two other rows, their mean within rounding: then the rows are the
    benchmarks it averages. Columns of models are never averaged down a benchmark's row."""
    plain = [line for line in rows if not line.aggregate]
    for avg in (line for line in rows if line.aggregate):
        checked = 0
        for cell in avg.cells:
            parts = [c for line in plain for c in line.cells if c.model == cell.model]
            if len(parts) < 2:
                continue
            mean = sum(c.value for c in parts) / len(parts)
            slack = 0.5 * 10.0 ** -cell.decimals + 0.5 * 10.0 ** -min(c.decimals for c in parts) + 1e-9
            if abs(mean - cell.value) > slack:
                break
            checked += 1
        else:
            if checked >= 2:
                return True
    return False


def _bold_agreement(lines: list[ScoreLine]) -> tuple[int, int]:
    """How many bold cells are the best of their line, and how many bold cells there are."""
    best = total = 0
    for line in lines:
        if line.aggregate:
            continue  # the tables' axis is read from the benchmark lines, as before averages were kept
        sign = 1 if line.higher_is_better else -1
        # With labelled row groups ("Closed-Source Models", "Open-Source Models") a bold cell
        # may be the best of its group.
        top: dict[str, float] = {}
        for c in line.cells:
            top[c.group] = max(top.get(c.group, sign * c.value), sign * c.value)
        overall = max(top.values(), default=0.0)
        for c in line.cells:
            if c.bold:
                total += 1
                best += sign * c.value in (top[c.group], overall)
    return best, total


def read_score_table(
    table: Table,
    registry: Registry,
    counts: dict[str, int] | None = None,
    totals: dict[str, int] | None = None,
    about: frozenset[str] = frozenset(),
    every: EverySetCount | None = None,
) -> ScoreTable | None:
    """The table as benchmark lines, or None when it cannot be read as scores.

    ``counts`` are item counts the document states for benchmarks the registry lacks,
    ``totals`` those it states for a kind of item ("1781 objective questions";
    :mod:`benchaudit.claims.stated_counts`): a table framed as about that kind of item bounds
    the count of each of its lines whose own count is unknown. ``about`` are the benchmark
    families the document is about (:mod:`benchaudit.claims.subject_splits`), whose splits a
    heading may name by their bare name ("### Airline"). ``every`` is the count the document
    states for every one of its test sets (:mod:`benchaudit.claims.every_set_count`): each line
    of a table none of whose lines names a benchmark or a count is taken to be one of them."""
    # "3.0|3.8" under "Fleurs<br>zh | en": one column per named part, each value on its own.
    flat = unstack(table)
    table = flat.table if flat is not None else table
    st = _read(table, registry, counts, about, flat.lower if flat is not None else frozenset())
    total = _framed_total(table, totals) if st is not None and totals else None
    if st is not None and total is not None:
        n, kind = total
        # An average or overall line of such a table is over at most all of those items too.
        for line in [*st.lines, *st.aggregates]:
            if line.n is None and line.benchmark is None:
                line.n_bound = (n, f"at most the {n:,} {kind} the document states")
    if st is not None:
        _parts_of_parent(st, registry)
    if st is not None and every is not None and _unnamed_sets(st):
        for line in st.lines:
            line.n_every = (every.n, every.why())
    return st


def _unnamed_sets(st: ScoreTable) -> bool:
    """Whether the table's lines are sets no registry or text sizes: two or more, none naming
    a benchmark, none with a count or a bound of its own, none a rating."""
    return len(st.lines) >= 2 and all(
        line.benchmark is None and line.n is None and line.n_bound is None and not line.rating for line in st.lines
    )


def _parts_of_parent(st: ScoreTable, registry: Registry) -> None:
    """Lines of a table about one benchmark whose labels name none ("### HumanEval-X" over
    columns "Python | C++ | Go", "Performance on MVBench" over its task columns): each is a part
    of that benchmark, so its count is at most the benchmark's. Only for a benchmark of 0/1
    items (a part of a composite such as C-Eval is itself a mean, not k/n), only where no line
    names another benchmark, and never for an average line, which may span parts the
    benchmark's count leaves out (a language a later release added)."""
    parent = _parent_benchmark(st.table, registry)
    if parent is None or parent.metric != "binary" or not parent.n or parent.variant:
        return
    if any(line.benchmark is not None and line.benchmark.name != parent.name for line in st.lines):
        return  # the columns are benchmarks of their own: the table is not about one
    largest = max([parent.n, *dict(parent.splits).values()])
    for line in st.lines:
        if line.n is None and line.benchmark is None and line.n_bound is None and not line.rating and _part_label(
            line.label, parent
        ):
            line.n_bound = (largest, f"at most the {largest:,} items of {parent.name}, the benchmark the table is about")


#: A label naming the whole set or a blend of its parts ("Full", "Combined"): it may count
#: items more than once (input and output prediction of each problem), so it is no part.
_WHOLE = re.compile(r"\b(?:full|overall|all|total|sum|avg|average|mean|combined|both)\b", re.I)
#: Words that make a label the name of a benchmark of its own ("Multi-SWE-bench mini",
#: "SuperGPQA") rather than a part of the table's ("AA", "C++", "hard", "Input-CoT").
_OWN_NAME = re.compile(r"bench|eval|qa\b|qa[-_ ]", re.I)


def _part_label(label: str, parent: Benchmark) -> bool:
    """Whether a line label reads as a part of ``parent``: short, not the whole, and not
    itself named like a benchmark unless the name is the parent's."""
    if _WHOLE.search(label) or len(label.split()) > 3:
        return False
    names = {fold_name(parent.name), *(fold_name(a) for a in parent.aliases)}
    return not _OWN_NAME.search(label) or any(n and n in fold_name(label) for n in names)


def _parent_benchmark(table: Table, registry: Registry) -> Benchmark | None:
    """The one benchmark the table's heading, caption or short lead-in ("Performance on MVBench
    dataset:") names; a longer lead-in may name a benchmark in passing."""
    from benchaudit.inputs.sentences import find_benchmarks

    lead = table.lead_in.text if table.lead_in is not None and len(table.lead_in.text.split()) <= 12 else ""
    for text in (table.section.title if table.section else "", table.caption.text if table.caption else "", lead):
        found = {m.benchmark.name: m.benchmark for m in find_benchmarks(text, registry)}
        if len(found) > 1:
            return None  # several benchmarks: which one the columns are parts of is a guess
        if found:
            return next(iter(found.values()))
    return None


def _framed_total(table: Table, totals: dict[str, int]) -> tuple[int, str] | None:
    """The stated total of the one kind of item the table's heading or caption names ("Scoring
    Rate of Objective Questions"); None when it names none or several. A lead-in paragraph is
    not a title: it may speak of the items of another benchmark than the table's."""
    texts = (
        table.section.title if table.section else "",
        table.caption.text if table.caption else "",
    )
    for text in texts:
        found = {k: n for k, n in totals.items() if re.search(rf"(?<![\w-]){re.escape(k)}\b", text, re.I)}
        if len(found) > 1:
            return None  # "objective and subjective questions": which total is the table's is a guess
        if found:
            kind, n = next(iter(found.items()))
            return n, kind
    return None


def _read(
    table: Table,
    registry: Registry,
    counts: dict[str, int] | None,
    about: frozenset[str] = frozenset(),
    lower: frozenset[str] = frozenset(),
) -> ScoreTable | None:
    """The table read on the axis its labels (or its bold) say; ``lower`` are column labels
    read as improving downwards though they say nothing (:mod:`benchaudit.claims.stacked_cells`)."""

    def finish(st: ScoreTable) -> ScoreTable | None:
        for line in st.lines:
            line.higher_is_better = line.higher_is_better and line.label not in lower
        return _finish_table(st)

    if not table.rows or table.width < 2:
        return None
    if len({g for g in table.groups if _GROUP_METRIC.search(g)}) > 1:
        return None  # row groups on different metrics ("(ChrF)", "(BLEURT)"): each column mixes them
    header = table.header()
    by_header = sum(1 for h in header[1:] if _mentions(h, registry))
    key = 1 if table.width > 3 and sum(1 for r in table.rows if len(r) > 1 and _mentions(r[1].text, registry)) > sum(
        1 for r in table.rows if r and _mentions(r[0].text, registry)
    ) else 0
    by_rows = sum(1 for r in table.rows if len(r) > key and _mentions(r[key].text, registry))
    if by_header == 0 and by_rows == 0:
        context = _context_benchmark(table, registry)
        if context is None and about:
            from benchaudit.claims.subject_splits import split_named

            context = split_named(table, about, registry)
        if context is not None and any(_is_setting(h) for h in header[1:]):
            lines = _by_columns(table, registry, counts, context)
            if any(line.benchmark is not None for line in lines):
                return finish(ScoreTable(table, lines, False))
        corner = header[model_column(table)] if header else ""
        rows = _by_rows(table, registry, _category_key(table), counts)
        # An "Average" row that is the mean of the rows above it in each column averages
        # benchmarks, so the rows are benchmarks whatever the corner says ("Models / # Param."
        # over a header of model names).
        if _mean_row(rows) or _BENCH_CORNER.search(corner):
            return finish(ScoreTable(table, rows, True))
        if _MODEL_CORNER.search(corner):
            return finish(ScoreTable(table, _by_columns(table, registry, counts), False))
        cols = _by_columns(table, registry, counts)
        (cb, ct), (rb, rt) = _bold_agreement(cols), _bold_agreement(rows)
        col_share = cb / ct if ct else 0.0
        row_share = rb / rt if rt else 0.0
        # Authors bold the best model per benchmark: the axis where bold is the best more often.
        if col_share >= 0.6 and col_share > row_share:
            return finish(ScoreTable(table, cols, False))
        if row_share >= 0.6 and row_share > col_share:
            return finish(ScoreTable(table, rows, True))
        return None
    if by_rows > by_header:
        return finish(ScoreTable(table, _by_rows(table, registry, key, counts), True))
    return finish(ScoreTable(table, _by_columns(table, registry, counts), False))


_EXCLUDED_COLUMN = re.compile(
    r"\b(?:excluding|except(?:\s+for)?|not\s+(?:counting|including)|apart\s+from)\s+the\s+"
    r"(last|first|rightmost|leftmost)\s+(column|row)s?\b",
    re.I,
)


def _outside_emphasis(st: ScoreTable) -> set[str]:
    """Models the caption leaves out of the bold ("bold marks the best, excluding the last column")."""
    m = _EXCLUDED_COLUMN.search(st.table.framing_text())
    if not m:
        return set()
    last = m.group(1).lower() in ("last", "rightmost")
    header = st.table.header()
    if m.group(2).lower() == "column" and st.transposed and len(header) > 1:
        return {header[-1].strip() if last else header[1].strip()}
    if m.group(2).lower() == "row" and not st.transposed and st.table.rows:
        row = st.table.rows[-1] if last else st.table.rows[0]
        return {row[0].text.strip()} if row else set()
    return set()


#: A table's heading or framing that says its numbers are error rates: speech recognition is
#: scored by word (or character) error rate, so a table of ASR test sets ranks lowest first.
_LOWER_FRAMING = re.compile(
    r"\b(?:wer|cer|word error rates?|character error rates?|error rates?|lower is better|"
    r"(?:the\s+)?lower\s+the\s+better|asr|speech recognition)\b|↓",
    re.I,
)
#: Framing that also names a task or metric scored upwards ("Results on the ASR and TTS
#: benchmarks"): the lower-is-better words then speak of some columns only.
_HIGHER_FRAMING = re.compile(
    r"\b(?:higher is better|(?:the\s+)?higher\s+the\s+better|tts|translation|understanding|"
    r"question answering|qa|bleu|accuracy|acc|mos|similarity)\b|↑",
    re.I,
)
#: A line label that names a higher-is-better metric of its own.
_HIGHER_LABEL = re.compile(r"\b(?:acc(?:uracy)?|f1|bleu|chrf|rouge[-\w]*|comet|em|pass@\d+|score|win)\b|↑", re.I)


def _framed_lower(table: Table) -> bool:
    """Whether the table's heading (or a short label line over it) says its numbers improve
    downwards."""
    if any(_LOWER_BETTER.search(h) for h in table.header()):
        return False  # the columns carry their own direction ("WER ↓"): the framing describes those marks
    # Only a heading or a short label line speaks for the whole table: a caption or a paragraph
    # ("For ASR benchmarks we report WER; for translation, BLEU") speaks of some of its rows.
    short = [b.text for b in (table.lead_in, table.caption) if b is not None and len(b.text.split()) <= 12]
    text = " ".join(p for p in (table.section.title if table.section else "", *short) if p)
    return bool(_LOWER_FRAMING.search(text)) and not _HIGHER_FRAMING.search(text)


def _finish_table(st: ScoreTable) -> ScoreTable | None:
    if _framed_lower(st.table):
        for line in st.lines:
            if line.higher_is_better and not line.rating and not _HIGHER_LABEL.search(line.label):
                line.higher_is_better = False
    st.ratings = [line for line in st.lines if line.rating]
    st.aggregates = [line for line in st.lines if line.aggregate]
    st.lines = [line for line in st.lines if not line.rating and not line.aggregate]
    if not st.lines:
        return None
    _underline_over_bold(st)
    st.outside = _outside_emphasis(st)
    per_model: dict[str, list[bool]] = {}
    for line in st.lines:
        for c in line.cells:
            per_model.setdefault(c.model, []).append(c.bold)
    need = min(3, len(st.lines))
    candidates = {m for m, flags in per_model.items() if len(flags) >= max(2, need) and all(flags)}
    # A model bold in every column because it is the best in every column is not a highlight,
    # unless the caption says a row is marked ("the model used in our final experiments is
    # highlighted in gray"): then its emphasis marks the row, whatever its values.
    framing = st.table.framing_text()
    row_marked = bool(_ROW_MARK_SAID.search(framing))
    # "best in bold": the table says what its bold marks, so a row bold throughout claims the
    # best value in every line and is checked cell by cell, not excused as a highlight.
    if _BOLD_BEST_SAID.search(framing) and not row_marked:
        candidates = set()
    st.highlighted = {
        m for m in candidates if row_marked or not all(_best_in_group(line, m) for line in st.lines)
    }
    # A highlighted row labelled as the authors' own ("DeepCoder-14B (ours)") is bold as a row
    # mark, not as a best value: it says nothing of what the bold elsewhere means. Unlabelled,
    # a row bold throughout may be the best of its (unlabelled) size group, and it counts.
    own_rows = {m for m in st.highlighted if _OWN_ROW.search(m)}
    st.bold_best_share = _bold_best_share(st, references(st) | own_rows)
    if st.bold_best_share is not None and st.bold_best_share < 0.5:
        _variant_groups(st, references(st) | own_rows)
    return st


#: A model label's variant in brackets at its end: "`DART-Math-DSMath-7B` (Prop2Diff)".
_VARIANT = re.compile(r"\s*\([^()]*\)\s*$")


def _variant_groups(st: ScoreTable, outside: set[str]) -> None:
    """Rows that are variants of one base model ("X (Uniform)", "X (Prop2Diff)"), with the bold
    on the best of each base model ("bold means the best score on the respective base model"):
    each base model is a row group. Taken only when every row has a sibling, the rows have no
    labelled groups, and the bold follows the groups in most lines where it did not follow the
    whole line."""
    if st.transposed or any(c.group for line in st.lines for c in line.cells):
        return
    stems = {c.model: _VARIANT.sub("", c.model).strip(" `*_") for line in st.lines for c in line.cells}
    sizes: dict[str, int] = {}
    for stem in stems.values():
        sizes[stem] = sizes.get(stem, 0) + 1
    if len(sizes) < 2 or min(sizes.values()) < 2 or all(stem == m for m, stem in stems.items()):
        return
    before = [line.cells for line in st.lines]
    for line in st.lines:
        line.cells = [replace(c, group=stems[c.model]) for c in line.cells]
    share = _bold_best_share(st, outside)
    # As for the table's axis (read_score_table): the grouping must explain the bold in most
    # lines, clearly more than the whole line did.
    if share is None or share < 0.6:
        for line, cells in zip(st.lines, before, strict=True):
            line.cells = cells
        return
    for line in st.aggregates:
        line.cells = [replace(c, group=stems.get(c.model, c.group)) for c in line.cells]
    st.bold_best_share = share


_OWN_ROW = re.compile(r"\(\s*ours\s*\)|\bours\b", re.I)

_BOLD_BEST_SAID = re.compile(
    r"\bbest\s+(?:results?\s+|scores?\s+|values?\s+|numbers?\s+)?(?:(?:is|are)\s+)?(?:in|set in|shown in|marked in)\s+bold"
    r"|\bbold(?:face|ed)?\s*(?:font\s+)?(?::|=|marks|denotes|indicates|shows|highlights)\s+(?:the\s+)?best\b",
    re.I,
)


_ROW_MARK_SAID = re.compile(
    r"\b(?:model|row|setting|configuration|variant|checkpoint)\b[^.]{0,60}?\b(?:is|are)\s+"
    r"(?:highlighted|shaded|marked)\b|\bhighlighted\s+in\s+(?:gr[ae]y|blue|green|yellow|colou?r)",
    re.I,
)


def _underline_over_bold(st: ScoreTable) -> None:
    """In a table with both bold cells and bold underlined ones ("bold: best overall;
    underlined: best open model", drawn as ``<ins><strong>``), the underlined cells carry the
    second mark: their bold is part of it, not a claim to be the best of the line."""
    cells = [c for line in st.lines for c in line.cells]
    if not any(c.bold and c.underline for c in cells) or not any(c.bold and not c.underline for c in cells):
        return
    for line in st.lines:
        line.cells = [replace(c, bold=False, bold_under=True) if c.bold and c.underline else c for c in line.cells]


def _bold_best_share(st: ScoreTable, outside: set[str]) -> float | None:
    lines = 0
    agree = 0
    for line in st.lines:
        sign = 1 if line.higher_is_better else -1
        cells = [c for c in line.cells if c.model not in outside]
        bold = [c for c in cells if c.bold]
        if not bold or len(bold) == len(cells):
            continue
        lines += 1
        groups = {c.group for c in cells}
        ok = all(
            sign * b.value >= max(sign * c.value for c in cells if c.group == b.group or len(groups) == 1)
            for b in bold
        )
        agree += ok
    if lines < 3:
        return None
    return agree / lines


def _best_in_group(line: ScoreLine, model: str) -> bool:
    mine = next((c for c in line.cells if c.model == model), None)
    if mine is None:
        return True
    sign = 1 if line.higher_is_better else -1
    pool = [c for c in line.cells if c.group == mine.group]
    return sign * mine.value >= max(sign * c.value for c in pool)


# ---------------------------------------------------------------- the document's own rules

_SAME_LEVEL = re.compile(
    r"(?:gaps?|differences?|margins?)\s+(?:of\s+)?(?:not\s+exceeding|of\s+at\s+most|at\s+most|within|"
    r"less\s+than|below|smaller\s+than|no\s+(?:more|larger|greater)\s+than|up\s+to|under|<=?|≤)\s*"
    r"(\d+(?:\.\d+)?)\s*(?:points?|%|pp)?\s*(?:are|is|will\s+be)?\s*(?:considered|regarded|treated|deemed)?\s*"
    r"(?:as\s+)?(?:to\s+be\s+)?(?:at\s+)?(?:the\s+)?same\s+level",
    re.I,
)


def same_level_threshold(text: str) -> tuple[float, str] | None:
    """A stated rule such as "gaps not exceeding 0.3 are considered the same level"."""
    m = _SAME_LEVEL.search(text)
    return (float(m.group(1)), m.group(0)) if m else None


_REFERENCE = re.compile(r"clos(?:ed|e)[- ]?source|proprietary|\bAPI\b|reference|upper bound|oracle|human|\bexperts?\b|annotators?", re.I)
#: A note that bold marks the best *open* model ("Bold denotes open-source SOTA", "the best
#: among open-weight models is in bold"): the columns it leaves out need no name that says so.
_OPEN_BOLD = re.compile(
    r"\bbold(?:face|ed)?\b[^.;]{0,60}?\bopen[- ]?(?:source|weights?)\b"
    r"|\bopen[- ]?(?:source|weights?)\b[^.;]{0,60}?\b(?:in|are|is|set\s+in)\s+bold",
    re.I,
)


def references(st: ScoreTable) -> set[str]:
    """Models the bold convention leaves out: those the caption excludes, or a reference
    column ("GPT-4o-mini (close source)") that is never bold yet beats a bold cell.

    Tables often bold the best *open* model while showing a closed one for
    reference; comparing bold cells with such a column would call every bold cell wrong.
    """
    if st.outside:
        return set(st.outside)
    ever_bold = {c.model for line in st.lines for c in line.cells if c.bold}
    ahead: set[str] = set()
    for line in st.lines:
        sign = 1 if line.higher_is_better else -1
        bold = [c for c in line.cells if c.bold]
        ahead.update(
            c.model for c in line.cells if not c.bold and any(sign * c.value > sign * b.value for b in bold)
        )
    open_only = bool(_OPEN_BOLD.search(st.table.framing_text()))
    return {m for m in ahead if m not in ever_bold and (open_only or _REFERENCE.search(m))}
