"""lm-evaluation-harness ``samples_<task>_<date>.jsonl`` -> per-item results.

Each line is one document under one filter: ``doc_id``, ``doc``, ``target``,
``arguments``, ``resps``, ``filtered_resps``, ``filter`` and the per-item metric
fields (``acc``, ``acc_norm``, ``exact_match`` ...; newer versions also list
them under ``metrics``). A task with several filters (gsm8k's
``strict-match`` and ``flexible-extract``) writes each document once per
filter; each filter then counts as its own system, ``model [filter]``, with
the filter also in the variant column (one filter's score is never averaged
with another's).

The primary metric is the first present of :data:`PRIMARY` (``acc`` before
``acc_norm``: the normalised variant is kept in ``meta`` so a report can set
the two side by side); ``--column score=NAME`` picks another. The model comes
from the ``results_<date>.json`` beside the file (``model_args``
``pretrained=`` / ``model_name``), else from the folder lm-eval names after the
model (``EleutherAI__pythia-160m``), else from the file name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._harness import build, iter_jsonl, option, parse_json

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.inputs.lmeval_results import HarnessSummary

#: Per-item metrics in order of preference for the primary score.
PRIMARY = (
    "acc",
    "exact_match",
    "pass@1",
    "pass_at_1",
    "em",
    "f1",
    "acc_norm",
    "mcc",
    "mc1",
    "mc2",
    "bleu",
    "rouge1",
    "rougeL",
)

#: Keys of a sample line that are not metrics.
NOT_METRICS = {
    "doc_id",
    "doc",
    "target",
    "arguments",
    "resps",
    "filtered_resps",
    "filter",
    "metrics",
    "doc_hash",
    "prompt_hash",
    "target_hash",
    "task_name",
    "index",
    "task",
    "model",
}

_NAME = re.compile(
    r"^samples_(?P<task>.+?)_(?P<stamp>\d{4}-\d{2}-\d{2}T\d{2}[-:]\d{2}[-:]\d{2}(?:\.\d+)?)"
    r"\.jsonl$"
)


def task_and_stamp(name: str) -> tuple[str, str | None]:
    """(task, date stamp) from ``samples_<task>_<date>.jsonl``."""
    m = _NAME.match(name)
    if m:
        return m.group("task"), m.group("stamp")
    stem = name[: -len(".jsonl")] if name.endswith(".jsonl") else name
    return re.sub(r"^samples_", "", stem), None


def _results_beside(path: Path, task: str, stamp: str | None) -> HarnessSummary | None:
    """The run summary written next to a samples file, when there is one for its task."""
    from benchaudit.inputs._harness import load_json
    from benchaudit.inputs.lmeval_results import parse

    folder = path.parent
    candidates = sorted(folder.glob("results*.json"))
    if stamp:
        exact = [c for c in candidates if stamp in c.name]
        candidates = exact + [c for c in candidates if c not in exact]
    for cand in candidates[:20]:
        try:
            doc, text = load_json(cand, cand.as_posix())
            summary = parse(doc, text, cand, cand.as_posix())
        except (InputError, OSError):
            continue
        if task in summary.tasks or any(task == t.alias for t in summary.tasks.values()):
            return summary
    return None


def _metrics_of(record: dict[str, Any]) -> list[str]:
    """Names of the per-item metrics of a line that hold one number each.

    Corpus-level metrics (bleu, chrf, ter) store a (reference, prediction) pair
    per item instead of a score; they have no per-item value and are skipped.
    """
    listed = record.get("metrics")
    if isinstance(listed, list) and listed:
        names = [m for m in listed if isinstance(m, str) and m in record]
        return [k for k in names if not isinstance(record[k], (list, dict))]
    names = [k for k in record if k not in NOT_METRICS]
    return [k for k in names if isinstance(record[k], (bool, int, float))]


def instruction_count(results_path: Path, task: str, metric: str) -> int | None:
    """How many instructions a per-instruction metric (IFEval's ``inst_level_*``) averaged:
    the summed list lengths in the ``samples_<task>_*.jsonl`` beside the results file."""
    import json

    base = metric.split(",")[0]
    for path in sorted(results_path.parent.glob(f"samples_{task}_*.jsonl"))[:1]:
        total = 0
        try:
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        value = json.loads(line).get(base)
                        if not isinstance(value, list):
                            return None
                        total += len(value)
        except (OSError, ValueError):
            return None
        return total or None
    return None


def choose_metric(available: list[str], wanted: str | None) -> str | None:
    if wanted:
        return wanted if wanted in available else None
    for name in PRIMARY:
        if name in available:
            return name
    return available[0] if available else None


def _as_score(display: str, lineno: int, metric: str, value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    raise InputError(
        display,
        f"metric {metric!r} is {type(value).__name__} {str(value)[:40]!r}, expected a number",
        lineno,
    )


def read(path: Path, display: str, ctx: Context) -> Source:
    from benchaudit.evidence import Source

    notes: list[str] = []  # what was left out, on the source for the report

    task, stamp = task_and_stamp(path.name)
    wanted = option(ctx, "score")
    metric: str | None = None
    others: dict[str, list[float]] = {}
    items: list[str] = []
    scores: list[float] = []
    lines: list[int] = []
    filters: list[str] = []
    # doc_hash per doc_id: the check that two runs saw the same documents.
    hashes: dict[str, str] = {}
    for lineno, rec in iter_jsonl(path, display):
        if not isinstance(rec, dict):
            raise InputError(display, f"expected a JSON object, got {type(rec).__name__}", lineno)
        if "doc_id" not in rec:
            raise InputError(display, "missing 'doc_id' (not an lm-eval samples line)", lineno)
        doc_id = rec["doc_id"]
        if isinstance(doc_id, (dict, list)) or doc_id is None:
            raise InputError(
                display, f"'doc_id' must be a number or string, got {doc_id!r}", lineno
            )
        if metric is None:
            available = _metrics_of(rec)
            metric = choose_metric(available, wanted)
            if metric is None:
                what = f"no metric {wanted!r}" if wanted else "no per-item metric"
                raise InputError(
                    display,
                    f"{what} in the first sample (found: {', '.join(available) or 'none'})",
                    lineno,
                )
            others = {name: [] for name in available if name != metric}
        value = rec.get(metric)
        if value is None:
            raise InputError(display, f"missing metric {metric!r}", lineno)
        items.append(str(doc_id))
        doc_hash = rec.get("doc_hash")
        if type(doc_hash) is str:
            hashes.setdefault(items[-1], doc_hash)
        scores.append(value if type(value) is float else _as_score(display, lineno, metric, value))
        lines.append(lineno)
        filt = rec.get("filter", "none")
        filters.append(filt if type(filt) is str else "none" if filt is None else str(filt))
        for name, values in others.items():
            other = rec.get(name)
            if type(other) is float or isinstance(other, (bool, int)):
                values.append(float(other))
    if not scores or metric is None:  # the metric is chosen at the first sample
        raise InputError(display, "no samples in file")

    summary = _results_beside(path, task, stamp)
    if summary is not None and summary.model:
        model, model_from = summary.model, "results json"
    elif "__" in path.parent.name:
        model, model_from = path.parent.name.replace("__", "/", 1), "folder"
    else:
        model, model_from = path.name, "file name"
        notes.append(f"{display}: no results_*.json beside it; the model is named after the file")

    meta: dict[str, Any] = {
        "reader": "lm-eval samples",
        "task": task,
        "metric": metric,
        "model_from": model_from,
        "filters": sorted(set(filters)),
        "model": model,
        "item_hashes": hashes,
        # Means of the metrics not chosen, so a report can set acc beside acc_norm.
        "other_metrics": {
            k: sum(v) / len(v) for k, v in sorted(others.items()) if len(v) == len(scores)
        },
    }
    if summary is not None:
        t = summary.tasks.get(task) or next(
            (x for x in summary.tasks.values() if x.alias == task), None
        )
        meta.update(
            {
                "results_file": summary.path,
                "limit": summary.limit,
                "n_original": t.n_original if t else None,
                "n_effective": t.n_effective if t else None,
                "num_fewshot": t.num_fewshot if t else summary.num_fewshot,
            }
        )
    columns = {"model": model_from, "item": "doc_id", "score": metric}
    multi = len(set(filters)) > 1
    if multi:
        # Each filter scores the same generations differently: keep them apart as
        # "model [filter]" so that no analysis averages one filter with another.
        columns["model"] += " [filter]"
        columns["variant"] = "filter"
        models = [f"{model} [{f}]" for f in filters]
    else:
        models = [model] * len(scores)
    rs = build(
        display,
        model=models,
        item=items,
        score=scores,
        line=lines,
        variant=filters if multi else None,
        columns=columns,
        meta=meta,
    )
    return Source(
        path=display,
        notes=notes,
        kind="results",
        data=rs,
        numbers_seen=0,
        meta={"format": "lm-eval samples", "task": task, "metric": metric},
    )


_LONG_LINE = re.compile(r'^\{\s*"doc_id"\s*:\s*(?:\d+|"[^"]*")\s*,\s*"doc"\s*:')


def sniff(p: Probe) -> float:
    if p.suffix != ".jsonl":
        return 0.0
    first = p.first_line()
    if not first.startswith("{"):
        return 0.0
    try:
        rec = parse_json(first, p.name)
    except InputError:
        # A first line longer than the probe (a long document): the harness writes
        # doc_id then doc first, so that opening is its signature.
        if _LONG_LINE.match(first):
            return 0.9
        rec = {
            k: None for k in ("doc_id", "resps", "filtered_resps", "arguments") if f'"{k}"' in first
        }
    if not isinstance(rec, dict) or "doc_id" not in rec:
        return 0.0
    marks = sum(k in rec for k in ("resps", "filtered_resps", "arguments", "doc_hash", "filter"))
    if marks >= 2:
        return 0.95
    if marks == 1 or p.name.startswith("samples_"):
        return 0.7
    return 0.0


READER = Reader(
    kind="results",
    sniff=sniff,
    read=read,
    description="lm-evaluation-harness samples_<task>_<date>.jsonl (per-item metrics)",
)
