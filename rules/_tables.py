"""Score tables read benchmark by benchmark, for sentences about the whole table.

"Improves on every benchmark" or "no degradation after quantisation" is a claim
about every row of a score table. :func:`pairwise_rows` pairs the claimed
model with its comparator on each benchmark whose item count is known (a
header such as "HumanEval (164)", or the registry) and gives the unpaired 95%
interval of the difference: the table holds no per-item results, so pairing
cannot be assumed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.engine import Context

_OURS = re.compile(r"\b(ours|our|proposed|this work)\b|\*\*", re.I)
#: A claim limited to a class of models ("at 7B-8B parameters", "among open-source models",
#: "of comparable size"): the best of the whole table is not its comparator.
_CLASS_LIMIT = re.compile(
    r"\bamong\b|open[- ]source|open[- ]weights?|closed[- ]source|proprietary|similar(?:ly)?[- ]sized"
    r"|(?:comparable|similar)\s+(?:size|scale)|of\s+(?:its|their|the\s+same)\s+size|in\s+(?:its\s+)?class"
    r"|\d+(?:\.\d+)?\s*B\s*(?:-|–|to)\s*\d+(?:\.\d+)?\s*B\b|\bat\s+(?:the\s+)?\d+(?:\.\d+)?\s*B\b"
    r"|\b(?:sub|under|below)[- ]?\d+(?:\.\d+)?\s*B\b",
    re.I,
)


_VALUE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%?(?:\s|$|[(\[±])")
def _n_in(text: str) -> int | None:
    from benchaudit.claims.label_counts import items_in_label

    return items_in_label(text)


def _value(cell: str) -> float | None:
    from benchaudit.inputs.tables import clean_cell

    m = _VALUE.match(clean_cell(cell))
    return float(m.group(1)) if m else None


def score_matrix(
    table: Any, ctx: Context
) -> tuple[list[str], list[str], list[tuple[str, int | None]], list[list[float | None]]]:
    """(models, model cells as written, [(benchmark, n)], values[model][benchmark] in points)."""
    from benchaudit.inputs.claims import find_benchmarks
    from benchaudit.inputs.tables import clean_cell

    reg = ctx.benchmarks
    header = table.header
    col_marks = [find_benchmarks(h, reg) for h in header]
    row_marks = [find_benchmarks(r[0], reg) if r else [] for r in table.rows]
    transposed = sum(1 for m in row_marks if m) > sum(1 for m in col_marks[1:] if m)

    def bench(name: str, marks: list[Any]) -> tuple[str, int | None]:
        b = marks[0].benchmark if marks else None
        if b is None:
            return clean_cell(name), _n_in(name) or None
        binary = getattr(b, "metric", "binary") == "binary"
        return b.name, _n_in(name) or (b.n if binary else None)

    if transposed:
        models = [clean_cell(h) for h in header[1:]]
        raw_models = list(header[1:])
        benches = [bench(r[0] if r else "", m) for r, m in zip(table.rows, row_marks)]
        values = [
            [_value(r[j + 1]) if j + 1 < len(r) else None for r in table.rows]
            for j in range(len(models))
        ]
    else:
        models = [clean_cell(r[0]) if r else "" for r in table.rows]
        raw_models = [r[0] if r else "" for r in table.rows]
        benches = [bench(h, m) for h, m in zip(header[1:], col_marks[1:])]
        values = [
            [_value(r[j]) if j < len(r) else None for j in range(1, len(header))]
            for r in table.rows
        ]
    # A column of proportions (all <= 1) is scaled to points.
    for j in range(len(benches)):
        col = [x for v in values if j < len(v) and (x := v[j]) is not None]
        if col and all(x <= 1 for x in col):
            for v in values:
                if j < len(v) and (x := v[j]) is not None:
                    v[j] = x * 100
    return models, raw_models, benches, values


def pairwise_rows(
    tables: list[Any], ctx: Context, claim: str = "", only: set[str] | None = None
) -> Iterator[dict[str, Any]]:
    """Per benchmark: the claimed (or newer) model against its comparator.

    The claimed model is the row the sentence names first, else a row marked as the
    authors' own, else the newer of two rows or the best on average. ``only``: the
    benchmarks (:func:`benchmark_keys`) to check, when the claim speaks of some."""
    from benchaudit.rules._claims import unpaired

    from benchaudit.claims.linking import benchmark_keys
    from benchaudit.claims.model_claims import model_names, resolve, subject_names

    # Only a name before the verb is the claimed model: "it outperforms X and Y" claims nothing
    # for X, and a guessed subject turns a rival's row into the claim.
    for table in tables:
        try:
            models, raw, benches, values = score_matrix(table, ctx)
        except (AttributeError, IndexError, TypeError):
            continue
        if len(models) < 2 or (len(models) > 2 and _CLASS_LIMIT.search(claim)):
            continue
        named = [resolve(m.text, list(models)) for m in subject_names(claim)]
        first = next((m for m in named if m is not None), None)
        ours = models.index(first) if first is not None else None
        if ours is None:
            ours = next((i for i, r in enumerate(raw) if _OURS.search(r)), None)
        if ours is None and model_names(claim):
            continue  # the sentence names models, none of them as its subject in this table
        if ours is None:
            ours = len(models) - 1 if len(models) == 2 else _best_average(values)
        for j, (bench, n) in enumerate(benches):
            if not n or (only is not None and not benchmark_keys(bench, ctx.benchmarks) & only):
                continue
            mine = values[ours][j] if j < len(values[ours]) else None
            others = [
                (x, models[i])
                for i in range(len(models))
                if i != ours and j < len(values[i]) and (x := values[i][j]) is not None
            ]
            if mine is None or not others:
                continue
            if len(models) == 2:
                other, name = others[0]
            else:
                other, name = max(others)
            u = unpaired(mine, other, n, 1 - ctx.alpha)
            yield {
                "benchmark": bench,
                "n": n,
                "model": models[ours],
                "other": name,
                "a": mine,
                "b": other,
                **u,
            }


def _best_average(values: list[list[float | None]]) -> int:
    def avg(row: list[float | None]) -> float:
        xs = [x for x in row if x is not None]
        return sum(xs) / len(xs) if xs else float("-inf")

    return max(range(len(values)), key=lambda i: avg(values[i]))
