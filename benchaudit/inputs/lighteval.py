"""lighteval details (kind ``results``): ``details_<task>|<shots>_<time>.parquet``.

lighteval ``--save-details`` writes one Parquet file per task under
``details/<org>/<model>/<time>/``: one row per document, with the document (``doc``, a
struct holding its ``id``), the model's response and the per-document metrics (``metric``,
a struct such as ``{"acc": 1}``; older releases call the column ``metrics``). The model
is the folder's ``<org>/<model>``, the task the file name's ``<task>|<shots>``. The first
metric is the score; the others are named in a note (``--column score=NAME`` picks one).
The run's ``results/<org>/<model>/results_<time>.json``, when it is there, gives
``config_general.max_samples`` (a limited run, ``--max-samples``) and the task's
``original_num_docs``. pyarrow is imported when a file is read, never at module level.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._harness import build, option

if TYPE_CHECKING:
    from benchaudit.context import RunContext as Context
    from benchaudit.evidence import Source

#: ``details_<task>|<shots>_<YYYY-MM-DDTHH-MM-SS.ffffff>.parquet``
_NAME = re.compile(r"^details_(?P<task>.+)_(?P<time>\d{4}-\d\d-\d\dT[\d\-.]+)\.parquet$")
_METRIC_COLUMNS = ("metric", "metrics")


def _columns(path: Path) -> list[str]:
    import pyarrow.parquet as pq

    return list(pq.ParquetFile(path).schema_arrow.names)


def sniff(p: Probe) -> float:
    if p.suffix != ".parquet" or not _NAME.match(p.name):
        return 0.0
    try:
        names = _columns(p.path)
    except Exception:  # noqa: BLE001 - an unreadable Parquet file is not this reader's
        return 0.0
    return 0.97 if any(c in names for c in _METRIC_COLUMNS) else 0.0


def _model_of(path: Path) -> str:
    """``details/<org>/<model>/<time>/file`` -> ``<org>/<model>``; else the folder above."""
    parts = path.resolve().parts
    if "details" in parts:
        at = len(parts) - 1 - parts[::-1].index("details")
        inner = parts[at + 1 : -2]  # between details/ and the time folder
        if inner:
            return "/".join(inner)
    return path.parent.parent.name or path.parent.name


def _results_file(path: Path, time: str) -> Path | None:
    """The run's ``results/<org>/<model>/results_<time>.json`` beside its details folder."""
    parts = path.resolve().parts
    if "details" not in parts:
        return None
    at = len(parts) - 1 - parts[::-1].index("details")
    inner = parts[at + 1 : -2]
    if not inner:
        return None
    found = Path(*parts[:at], "results", *inner, f"results_{time}.json")
    return found if found.is_file() and found.stat().st_size <= _RESULTS_MAX_BYTES else None


#: A results file is a few kilobytes per task; a larger one is not read for its settings.
_RESULTS_MAX_BYTES = 32 << 20


def _positive_whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def run_settings(path: Path, time: str, task: str) -> dict[str, Any]:
    """``max_samples`` (as ``limit``) and the task's ``original_num_docs`` (as
    ``n_original``, when lighteval recorded it) from the run's results file; empty when
    there is none or it cannot be read (the details alone are still analysed)."""
    import json

    found = _results_file(path, time)
    if found is None:
        return {}
    try:
        data = json.loads(found.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    out = {"limit": max_samples(data), **task_counts(data, task)}
    out.pop("n_effective", None)
    return {k: v for k, v in out.items() if v is not None}


def max_samples(results: dict[str, Any]) -> int | None:
    """``config_general.max_samples`` of a lighteval results document (``None``: a full run)."""
    general = results.get("config_general")
    return _positive_whole(general.get("max_samples")) if isinstance(general, dict) else None


def task_counts(results: dict[str, Any], task: str) -> dict[str, int | None]:
    """``n_original`` / ``n_effective`` of one task from ``config_tasks`` (lighteval writes
    -1 where it did not count, which is no count)."""
    tasks = results.get("config_tasks")
    config = tasks.get(task) if isinstance(tasks, dict) else None
    if not isinstance(config, dict):
        return {}
    return {
        "n_original": _positive_whole(config.get("original_num_docs")),
        "n_effective": _positive_whole(config.get("effective_num_docs")),
    }


def is_results_document(doc: Any) -> bool:
    """A lighteval ``results_<time>.json``: ``config_general`` beside ``results``."""
    return isinstance(doc, dict) and isinstance(doc.get("config_general"), dict)


def model_name(results: dict[str, Any]) -> str | None:
    general = results.get("config_general") or {}
    for where in (general, general.get("model_config") or {}):
        name = where.get("model_name") if isinstance(where, dict) else None
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


def read(path: Path, display: str, ctx: Context) -> Source:
    import pyarrow.parquet as pq

    from benchaudit.evidence import Source

    m = _NAME.match(path.name)
    if m is None:
        raise InputError(display, "not a lighteval details file name (details_<task>_<time>)")
    table = pq.read_table(path)
    names = table.schema.names
    col = next((c for c in _METRIC_COLUMNS if c in names), None)
    if col is None:
        raise InputError(display, "no 'metric' column: not lighteval details")
    rows = table.column(col).to_pylist()
    docs = table.column("doc").to_pylist() if "doc" in names else [None] * len(rows)
    keys: list[str] = []
    metrics: list[dict[str, Any]] = []
    for r in rows:
        if not isinstance(r, dict):
            raise InputError(display, f"column {col!r} must hold one object of metrics per row")
        metrics.append(r)
        keys.extend(k for k in r if k not in keys and r.get(k) is not None)
    if not keys:
        raise InputError(display, "no document carries a metric")
    wanted = option(ctx, "score")
    metric = wanted or keys[0]
    if metric not in keys:
        raise InputError(display, f"no metric {metric!r} (found: {', '.join(keys)})")
    notes: list[str] = []
    if len(keys) > 1 and not wanted:
        notes.append(
            f"{display}: score is {metric}; the file also holds "
            f"{', '.join(k for k in keys if k != metric)} (choose with --column score=NAME)"
        )
    items, scores, order = [], [], []
    no_id = 0
    for i, (r, doc) in enumerate(zip(metrics, docs)):
        value = r.get(metric)
        if isinstance(value, bool):
            value = float(value)
        if not isinstance(value, (int, float)):
            raise InputError(display, f"row {i + 1}: {metric} is {value!r}, not a number")
        ident = doc.get("id") if isinstance(doc, dict) else None
        if ident in (None, ""):
            no_id += 1
            ident = str(i)
        items.append(str(ident))
        scores.append(float(value))
        order.append(i + 1)
    if no_id:
        notes.append(
            f"{display}: {no_id} document(s) without an id are named by their row: runs "
            "are paired by position, which holds only if every run kept the same order"
        )
    task = m.group("task")
    meta = {
        "reader": "lighteval details",
        "task": task,
        "metric": metric,
        # max_samples caps the documents of every task (harness-limit reads it).
        **run_settings(path, m.group("time"), task),
    }
    rs = build(
        display,
        model=[_model_of(path)] * len(scores),
        item=items,
        score=scores,
        line=order,
        columns={"model": "details/<org>/<model>", "item": "doc.id", "score": f"{col}.{metric}"},
        meta=meta,
    )
    return Source(
        path=display,
        kind="results",
        data=rs,
        notes=notes,
        meta={"format": "lighteval details", "task": task, "metric": metric},
    )


READER = Reader(
    kind="results",
    sniff=sniff,
    read=read,
    description="lighteval details_<task>_<time>.parquet (one row per document)",
    formats=(".parquet",),
)
