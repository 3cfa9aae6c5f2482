"""One per-item table holding several tasks: one analysis per task.

A ``task`` (``benchmark``, ``dataset``) column beside the model, item and score columns
says the rows belong to different tasks. Pooled, a model's scores on two tasks would be
one mean over both, and item ids the tasks share would pass for generations of one item;
read per task, each task is its own analysis, as a harness's per-task files are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchaudit.inputs._columns import find_columns
from benchaudit.inputs._columns import norm as _norm


def task_column(names: list[str], overrides: dict[str, str]) -> str | None:
    """The column naming each row's task, when no other role takes it and the file has no
    variant column (whose reading carries the task here)."""
    from benchaudit.inputs._plan import TASK_NAMES

    if "variant" in overrides:
        return None
    if "task" in overrides:
        named = overrides["task"]
        return next((n for n in names if _norm(n) == _norm(named)), None)
    found = find_columns(names, overrides)
    if "variant" in found:
        return None
    used = {_norm(v) for v in found.values()} | {_norm(v) for v in overrides.values()}
    return next((n for n in names if _norm(n) in TASK_NAMES and _norm(n) not in used), None)


def by_task(rs: Any, task: str) -> list[tuple[str, Any]] | None:
    """``rs`` (read with the task column as its variant) as (task, result set) per task,
    models under their own names; None when the reading cannot be split."""
    import numpy as np

    from benchaudit.inputs.joining import _compact
    from benchaudit.inputs.resultset import Coded, GridResults, ResultSet

    of = rs.meta.get("variants") if isinstance(rs, ResultSet) else None
    if isinstance(rs, GridResults) or not of:
        return None
    labels = rs.model.labels
    pairs = [of.get(label, [label, ""]) for label in labels]
    tasks: list[str] = []
    for _, t in pairs:
        if t not in tasks:
            tasks.append(t)
    task_of_code = np.asarray([tasks.index(t) for _, t in pairs], dtype=np.int64)
    out = []
    for k, name in enumerate(tasks):
        rows = np.flatnonzero(task_of_code[rs.model.codes] == k)
        base = Coded(
            codes=rs.model.codes[rows],
            labels=[m for m, _ in pairs],  # model names without the task
        )
        model = _merge_labels(base)

        def pick(c: Coded | None, rows: Any = rows) -> Coded | None:
            return None if c is None else Coded(codes=c.codes[rows], labels=c.labels)

        def arr(a: Any, rows: Any = rows) -> Any:
            return None if a is None else a[rows]

        meta = {k2: v for k2, v in rs.meta.items() if k2 != "variants"}
        meta["task"] = name or None
        columns = {r: c for r, c in rs.columns.items() if r != "variant"}
        columns["task"] = task
        out.append(
            (
                name,
                ResultSet(
                    path=rs.path,
                    model=model,
                    item=_compact(Coded(codes=rs.item.codes[rows], labels=rs.item.labels)),
                    score=rs.score[rows],
                    line=arr(rs.line),
                    max_points=arr(rs.max_points),
                    cluster=pick(rs.cluster),
                    seed=pick(rs.seed),
                    sample=pick(rs.sample),
                    confidence=arr(rs.confidence),
                    chosen=pick(rs.chosen),
                    gold=pick(rs.gold),
                    columns=columns,
                    layout=rs.layout,
                    meta=meta,
                ),
            )
        )
    return out


def _merge_labels(c: Any) -> Any:
    """A coded column whose labels may repeat (``m`` once per task) with one code per
    distinct label, in first-use order."""
    import numpy as np

    from benchaudit.inputs.resultset import Coded

    index: dict[str, int] = {}
    remap = np.empty(len(c.labels), dtype=np.int32)
    for i, label in enumerate(c.labels):
        remap[i] = index.setdefault(label, len(index))
    merged = Coded(codes=remap[c.codes], labels=list(index))
    from benchaudit.inputs.joining import _compact

    return _compact(merged)


def read_by_task(
    path: Path, display: str, overrides: dict[str, str], max_rows: int | None, ctx: Any, task: str
) -> list[tuple[str, Any, list[str]]] | None:
    """Each task of the file as (task, result set, notes); None when the file holds one
    task or cannot be read this way (the ordinary reading then applies)."""
    from benchaudit.inputs import _tabular_arrow as tabular_arrow

    named = {k: v for k, v in overrides.items() if k != "task"}
    notes: list[str] = []
    try:
        rs = tabular_arrow.read_resultset(
            path, display, {**named, "variant": task}, max_rows, ctx, notes
        )
    except Exception:  # noqa: BLE001 - the ordinary reading says what is wrong
        return None
    parts = by_task(rs, task)
    if parts is None or len(parts) < 2:
        return None
    return [(name, part, list(notes)) for name, part in parts]
