"""How a per-item table reads, from its column names and first rows: the plan.

Shared by the readers of delimited text, JSON Lines and Parquet
(:mod:`benchaudit.inputs.tabular`, which detects, and
:mod:`benchaudit.inputs._tabular_arrow`, which reads), so neither imports the
other's private names. Standard library only.
"""

from __future__ import annotations

from typing import Any

from benchaudit.errors import InputError
from benchaudit.inputs._columns import (
    WEAK_SPELLINGS,
    find_columns,
    names_tasks,
    rival_columns,
    value_type,
    wide_models,
)
from benchaudit.inputs._columns import norm as _norm

#: Columns that name a task or benchmark: with one graded score per model and
#: task the file may as well be a leaderboard.
TASK_NAMES = ("task", "benchmark", "dataset", "task_name")
Rows = list[list[str]]
Cols = dict[str, str]


def scalar_text(v: Any) -> str:
    """A cell as the text a CSV would hold (nested values as ``<nested>``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return ""
    if isinstance(v, (dict, list)):
        return "<nested>"
    return str(v)


def _column(names: list[str], rows: list[list[str]], name: str) -> list[str]:
    j = names.index(name)
    return [r[j] for r in rows if j < len(r)]


def plan(
    names: list[str],
    rows: list[list[str]],
    overrides: dict[str, str],
    display: str,
    forced: bool = False,
) -> dict[str, Any]:
    """How a per-item file reads: its layout, which column plays which role, the
    value types seen, and the columns left out with the reason (the evidence
    detection reports). Two plausible readings without a choice are an error."""
    cols = find_columns(names, overrides, display)
    kinds = {n: value_type(_column(names, rows, n)) for n in names} if rows else {}
    # "prob" is a problem id unless its values are probabilities.
    if cols.get("item") and _norm(cols["item"]) == "prob" and "item" not in overrides:
        if kinds.get(cols["item"]) == "0-1 graded":
            cols["confidence"] = cols.pop("item")
    out: dict[str, Any] = {"columns": cols, "value_types": kinds, "left_out": {}}
    if rows:
        text = _free_text_variant(names, rows, cols, overrides)
        if text is not None:
            out["left_out"][text] = "item text, not a variant"
        _seed_or_model(names, rows, cols, overrides, display)
    if rows and "model" not in overrides and _norm(cols.get("model", "")) == "name":
        values = _column(names, rows, cols["model"])
        if names_tasks(values):
            # "name" holding mmlu / gsm8k_cot is the task, not the model.
            out["left_out"][cols.pop("model")] = "task names, not models"
            _task_column_without_model(names, cols, values, display)
    if rows:
        rival = rival_columns(names, rows, cols, overrides)
        if rival is not None:
            role, a, b = rival
            raise InputError(
                display,
                f"two readings are plausible: the {role} in column {a!r} or in column {b!r}; "
                f"choose with --column {role}={a} or --column {role}={b}",
            )
    if "model" in cols and "item" in cols and "score" in cols:
        task = cols["item"] if _norm(cols["item"]) in TASK_NAMES else None
        graded = kinds.get(cols["score"]) not in (None, "0/1", "text", "empty")
        if task and graded and not forced and "item" not in overrides:
            raise InputError(
                display,
                f"two readings are plausible: per-item results with {task!r} as the item, or "
                f"a leaderboard of one score per model and {task}; choose with --kind results "
                "or --kind leaderboard",
            )
        out["layout"] = "long"
        return out
    if "item" in cols and "model" not in cols and "model" not in overrides:
        models, left_out = wide_models(names, rows, cols) if rows else ([], {})
        out["left_out"].update(left_out)
        if len(models) >= 2 and "score" not in overrides:
            if not forced:
                _wide_or_other(names, rows, cols, models, display)
            out["layout"], out["models"] = "wide", models
            return out
        if "score" in cols:
            if not {"model", "sample", "seed", "item"} & set(overrides):
                # (Naming only the score leaves the model question open.)
                _unnamed_model(names, rows, cols, display)
            out["layout"] = "single"
            return out
    out["layout"] = None
    return out


def _task_column_without_model(
    names: list[str], cols: dict[str, str], values: list[str], display: str
) -> None:
    """A ``name`` column of task names and no model column: the file's model is unknown
    and its tasks would be pooled; say so rather than read the tasks as one analysis."""
    if any(_norm(n) in TASK_NAMES for n in names) or len(set(values)) < 2:
        return  # another column names the task, or one task: the file may still read
    shown = ", ".join(sorted(set(values))[:4])
    raise InputError(
        display,
        f"column 'name' holds task names ({shown}), not models, and no column names the "
        "model: name it with --column model=COLUMN (or --column model=name if these are "
        "models), or give one file per task",
    )


def _unnamed_model(
    names: list[str], rows: list[list[str]], cols: dict[str, str], display: str
) -> None:
    """Items that repeat in a file without a model column, next to a text column that
    tells the repeats apart: that column may be the model or the sample; ask."""
    items = _column(names, rows, cols["item"])
    if len(set(items)) == len(items):
        return
    for n in names:
        if n in cols.values() or value_type(_column(names, rows, n)) != "text":
            continue
        values = _column(names, rows, n)
        if 1 < len(set(values)) <= len(values) // 2 and len(set(zip(items, values))) == len(items):
            raise InputError(
                display,
                f"items repeat and column {n!r} tells the repeats apart: it may name the "
                f"model or the sample; choose with --column model={n} or --column sample={n}",
            )


def _free_text_variant(names: list[str], rows: Rows, cols: Cols, overrides: Cols) -> str | None:
    """A ``prompt`` column holding each item's own text is not a prompt variant: a
    variant takes a few values shared by many items. Such a column loses the role; its
    name is returned (to be reported as left out)."""
    variant = cols.get("variant")
    if variant is None or "variant" in overrides:
        return None
    values = [v.strip() for v in _column(names, rows, variant)]
    distinct = len(set(values))
    items = len(set(_column(names, rows, cols["item"]))) if "item" in cols else len(values)
    item = cols.get("item")
    if (
        item is not None
        and "model" in cols
        and "item" not in overrides
        and _norm(item) in WEAK_SPELLINGS
        and _norm(variant).endswith("_id")
        and distinct > 3
    ):
        # ``Prompt ID`` beside a ``Question`` text: an id that each model has once per
        # row names the item; the text is the item's wording.
        pairs = list(zip(_column(names, rows, cols["model"]), values))
        if len(set(pairs)) == len(pairs):
            cols["item"] = cols.pop("variant")
            return item
    if not (distinct > 3 and 2 * distinct > max(items, 1)):
        return None
    return cols.pop("variant")


def _seed_or_model(names: list[str], rows: Rows, cols: Cols, overrides: Cols, display: str) -> None:
    """A ``run`` column of names and no model column: the runs may be models or repeats
    of one model; ask rather than pool them as seeds of one model."""
    seed = cols.get("seed")
    if seed is None or "model" in cols or "seed" in overrides or "model" in overrides:
        return
    values = _column(names, rows, seed)
    if value_type(values) == "text" and len(set(values)) > 1:
        raise InputError(
            display,
            f"two readings are plausible: column {seed!r} ({', '.join(sorted(set(values))[:3])}"
            f", ...) names the model, or repeated runs of one model; choose with "
            f"--column model={seed} or --column seed={seed}",
        )


def _wide_or_other(
    names: list[str], rows: list[list[str]], cols: dict[str, str], models: list[str], display: str
) -> None:
    """Columns that could be one model each, when the file says otherwise: a score column
    (one run, the other columns its per-item metrics) or a gold label column (the columns
    hold predicted labels, not scores). Both readings are named; never one picked."""
    shown = ", ".join(repr(m) for m in models[:4]) + (", ..." if len(models) > 4 else "")
    score = cols.get("score")
    if score is not None:
        raise InputError(
            display,
            f"two readings are plausible: one run scored in column {score!r} (with {shown} as "
            f"other per-item metrics), or one model per column ({shown}); choose with "
            f"--column score={score} or --kind results",
        )
    gold = cols.get("gold")
    if gold is None:
        return
    labels = {v.strip().lower() for v in _column(names, rows, gold)}
    outputs = {v.strip().lower() for m in models for v in _column(names, rows, m)}
    if outputs <= labels:
        raise InputError(
            display,
            f"two readings are plausible: {shown} hold per-item scores, or predicted labels "
            f"to compare with column {gold!r} (the values are the same labels); add a "
            "correctness column per model, or choose the scores reading with --kind results",
        )
