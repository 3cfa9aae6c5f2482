"""Generic per-item result files: CSV, TSV, JSON Lines and Parquet.

Two layouts:

* long form, one row per model x item (optionally x sample / seed), with a
  model column, an item column and a score column;
* wide form, one row per item and one numeric column per model.

Columns are found case-insensitively among common spellings and can be named
with ``--column ROLE=NAME`` or the ``columns`` config key. Reading goes through
pyarrow (no per-row Python), so a ten-million-row file costs what parsing it
costs. A large long-form file of 0/1 scores that holds exactly one row per
model and item is read batch by batch straight into its model x item matrix,
without per-row arrays; any other file (duplicates, missing cells, graded
scores, optional columns) is read row by row so that findings can name lines.
Only the standard library is imported at module level.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._columns import norm as _norm
from benchaudit.inputs._plan import plan
from benchaudit.inputs._plan import scalar_text as _scalar_text
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

BATTLE_COLUMNS = {"model_a", "model_b", "winner"}
SUFFIXES = (".csv", ".tsv", ".txt", ".jsonl", ".json", ".parquet")


# --- detection ---------------------------------------------------------------------------


def flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted keys: ``{"result": {"correct": 1}}`` -> ``result.correct``."""
    out: dict[str, Any] = {}
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def head_records(p: Probe, limit: int = 50) -> list[dict[str, Any]] | None:
    """The first records of a JSON Lines file or a JSON array, flattened; None if neither."""
    text = p.text.lstrip()
    recs: list[Any] = []
    if p.suffix == ".json":
        if not text.startswith("["):
            return None
        dec, pos = json.JSONDecoder(), 1
        while len(recs) < limit:
            while pos < len(text) and text[pos] in " \t\r\n,":
                pos += 1
            if pos >= len(text) or text[pos] == "]":
                break
            try:
                obj, pos = dec.raw_decode(text, pos)
            except ValueError:
                break  # the probe cut the record
            recs.append(obj)
    else:
        for line in split_lines(text)[:limit]:
            if not line.strip():
                continue
            try:
                recs.append(json.loads(line))
            except ValueError:
                break
    if not recs or not all(isinstance(r, dict) for r in recs):
        return None
    return [flatten(r) for r in recs]


def _header_and_rows(p: Probe, limit: int = 50) -> tuple[list[str], list[list[str]]]:
    """Column names and a few rows from the probe (CSV/TSV/JSONL/JSON array)."""
    if p.suffix in (".jsonl", ".json"):
        recs = head_records(p, limit)
        if not recs:
            return [], []
        names: list[str] = []
        for r in recs:
            names.extend(k for k in r if k not in names)
        return names, [[_scalar_text(r.get(k)) for k in names] for r in recs]
    lines = split_lines(p.text)[: limit + 1]
    if lines and p.size > len(p.head):
        lines = lines[:-1]  # the probe may have cut the last line
    try:
        parsed = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=p.delimiter))
    except csv.Error:
        return [], []
    if not parsed:
        return [], []
    return [c.strip() for c in parsed[0]], parsed[1:]


def sniff(p: Probe) -> float:
    if p.suffix not in SUFFIXES:
        return 0.0
    if p.suffix == ".parquet":
        try:
            import pyarrow.parquet as pq

            pf = pq.ParquetFile(p.path)
            names = list(pf.schema_arrow.names)
            rows = _parquet_head(pf, names)
        except Exception:  # noqa: BLE001 - not a parquet file we can read
            return 0.0
    else:
        if p.is_binary():
            return 0.0
        names, rows = _header_and_rows(p)
    if len(names) < 2:
        return 0.0
    normed = {_norm(n) for n in names}
    if BATTLE_COLUMNS <= normed or {"model_a", "model_b"} <= normed:
        return 0.0  # pairwise votes
    if {"model_1", "model_2"} <= normed or {"generator_1", "generator_2"} <= normed:
        return 0.0  # pairwise judgments (MT-bench, AlpacaEval)
    # Roles named on the command line claim the file for this reader; naming only the
    # score (``--column score=acc_norm``) is a choice within a harness file, not a claim.
    named = len({"model", "item", "score"} & set(p.columns)) >= 2 and all(
        any(_norm(v) == _norm(n) for n in names) for v in p.columns.values()
    )
    try:
        got = plan(names, rows, p.columns, p.name, forced=p.forced is not None)
    except InputError:
        # Two readings of a per-item file: unless another reader knows the file
        # (0.5 and up), reading it stops with the message that names both. Above the
        # 0.3 of readers that leave files with a model column to this one.
        return 0.45
    layout, cols = got["layout"], got["columns"]
    if layout == "long":
        return 0.97 if named else 0.9
    if layout == "wide":
        return 0.97 if named else 0.6
    if layout == "single":
        return 0.97 if named else 0.3
    if "model" in cols and "item" in cols:
        return 0.5  # per-item rows without a score column: read() says what is missing
    return 0.0


def _parquet_head(pf: Any, names: list[str]) -> list[list[str]]:
    """The first rows of a Parquet file as text cells (one small batch)."""
    for batch in pf.iter_batches(batch_size=50, use_threads=False):
        cols = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
        return [[_scalar_text(c[r]) for c in cols] for r in range(batch.num_rows)]
    return []


# --- reading ---------------------------------------------------------------------------


def read(path: Path, display: str, ctx: Context) -> Source | list[Source]:
    from benchaudit.evidence import Source
    from benchaudit.inputs._tabular_small import read_small

    overrides = dict(getattr(getattr(ctx, "config", None), "columns", {}) or {})
    max_rows = getattr(getattr(ctx, "config", None), "max_rows", None)
    per_task = _per_task(path, display, overrides, max_rows, ctx)
    if per_task is not None:
        return per_task
    overrides.pop("task", None)
    notes: list[str] = []  # what was left out, on the source for the report
    # A small plain file is read without importing pyarrow (most of a hook's start-up).
    rs = read_small(path, display, overrides, ctx) if max_rows is None else None
    if rs is None:
        from benchaudit.inputs import _tabular_arrow as tabular_arrow

        rs = tabular_arrow.read_resultset(path, display, overrides, max_rows, ctx, notes)
    _pooled_tasks(path, display, rs, overrides)
    meta = _meta(rs)
    kind = getattr(rs, "source_kind", "results")  # ratings: a ScaledResults
    turns = rs.turn_note() if hasattr(rs, "turn_note") else None
    if turns:
        notes.append(turns)
    return Source(path=display, kind=kind, data=rs, meta=meta, notes=notes)


def _meta(rs: Any) -> dict[str, Any]:
    """What the report says of the file's reading."""
    return {
        "layout": rs.layout,
        "columns": dict(rs.columns),
        "scale": rs.meta.get("scale"),
        "value_types": rs.meta.get("value_types", {}),
        "left_out": rs.meta.get("left_out", {}),
        "missing_cells": rs.meta.get("missing_cells", 0),
    }


def _names(path: Path, display: str) -> list[str]:
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return list(pq.ParquetFile(path).schema_arrow.names)
    from benchaudit.inputs import probe

    return _header_and_rows(probe(path, display), limit=20)[0]


def _per_task(
    path: Path, display: str, overrides: dict[str, str], max_rows: int | None, ctx: Context
) -> list[Source] | None:
    """A table whose ``task`` column names several tasks: one source (analysis) per task."""
    from benchaudit.evidence import Source
    from benchaudit.inputs._tasks import read_by_task, task_column

    task = task_column(_names(path, display), overrides)
    if task is None:
        return None
    parts = read_by_task(path, display, overrides, max_rows, ctx, task)
    if parts is None:
        return None
    out = []
    for name, rs, notes in parts:
        meta = {**_meta(rs), "task": name}
        out.append(Source(path=display, kind="results", data=rs, meta=meta, notes=notes))
    return out


def _pooled_tasks(path: Path, display: str, rs: Any, overrides: dict[str, str]) -> None:
    """A ``task`` column beside the item column, and items that repeat for a model: the
    file holds several tasks whose items share ids. Read as one analysis the repeats would
    pass for generations of one item; refuse, naming the column, rather than pool them."""
    from benchaudit.inputs._small_results import SmallResults

    if isinstance(rs, SmallResults):
        return  # the numpy-free reader takes one row per model and item only: nothing repeats
    from benchaudit.inputs import probe
    from benchaudit.inputs._plan import TASK_NAMES
    from benchaudit.inputs.resultset import GridResults

    if isinstance(rs, GridResults) or any(
        getattr(rs, role, None) is not None for role in ("sample", "seed", "variant")
    ):
        return  # one row per model and item, or the repeats have a column of their own
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        names = list(pq.ParquetFile(path).schema_arrow.names)
    else:
        names, _ = _header_and_rows(probe(path, display), limit=1)
    used = {_norm(v) for v in (*rs.columns.values(), *overrides.values())}
    task = next((n for n in names if _norm(n) in TASK_NAMES and _norm(n) not in used), None)
    if task is None:
        return
    import numpy as np

    keys = rs.model.codes.astype(np.int64) * max(len(rs.item.labels), 1) + rs.item.codes
    if np.unique(keys).size == keys.size:
        return
    raise InputError(
        display,
        f"items repeat for a model and column {task!r} names tasks: the file holds several "
        f"tasks whose item ids overlap, and pooled they would pass for generations of one "
        f"item; give one file per task (one analysis each), or name the repeats with "
        f"--column sample=COLUMN if they are generations",
    )


READER = Reader(
    kind="results",
    sniff=sniff,
    read=read,
    description="per-item results: CSV / TSV / JSONL / JSON array / Parquet, long or wide",
    max_bytes=None,  # streamed in batches; --max-rows bounds it instead
    formats=SUFFIXES,
)
