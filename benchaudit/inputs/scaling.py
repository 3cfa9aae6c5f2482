"""Scaling curves: metric values across model sizes of one family -> ``scaling``.

Two inputs give curves:

* a CSV/TSV with a model column, a size column (``n_params``, ``params``,
  ``size``, ``compute``, ``flops``; "1.4B" and "70M" are understood) and one
  column per metric, named ``<task>_<metric>`` (``lambada_openai_ppl``) or
  just ``<metric>``; an optional ``shot`` / ``setting`` column splits the file
  into one curve set per setting;
* several lm-evaluation-harness results files of one model family given
  together (read by :mod:`benchaudit.inputs.lmeval_results`):
  :func:`from_harness` groups them by family and few-shot setting.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

SIZE_KEYS = (
    "n_params",
    "params",
    "parameters",
    "num_params",
    "size",
    "model_size",
    "compute",
    "flops",
    "train_flops",
)
MODEL_KEYS = ("model", "model_name", "name")
SETTING_KEYS = ("shot", "setting", "num_fewshot", "n_shot", "fewshot")
_SIZE_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*([kmbt]?)\s*$", re.I)
_SCALE = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}
#: Legacy harness files split MMLU into 57 ``hendrycksTest-*`` subjects.
_MMLU_PART = re.compile(r"^(hendrycksTest-|mmlu_)")


@dataclass
class Point:
    """One model's value of one metric."""

    size: float
    """Parameters (or compute) of the model."""
    value: float
    """The metric's value, as the file states it (perplexity not logged)."""
    stderr: float | None
    """Its standard error, when stated."""
    file: str
    """The file the value came from (curves may join several harness files)."""
    line: int | None
    """Its line in that file."""
    model: str | None
    """The model's name, if given."""


@dataclass
class Curve:
    """One metric of one task across sizes, sorted by size."""

    task: str
    """The task (benchmark) of the curve."""
    metric: str
    """The metric, as named in the file (``acc``, ``exact_match``, ``ppl`` ...)."""
    points: list[Point]
    """Its values, sorted by size."""
    note: str | None = None
    """Why the curve is partial (sizes left out), if it is."""

    @property
    def log_sizes(self) -> list[float]:
        return [math.log10(p.size) for p in self.points]

    @property
    def values(self) -> list[float]:
        return [p.value for p in self.points]

    @property
    def stderr(self) -> list[float | None]:
        return [p.stderr for p in self.points]


@dataclass
class ScalingData:
    """Curves of one model family in one setting."""

    path: str
    """The file (or the first of the harness files) the curves came from."""
    family: str
    """The model family, its sizes replaced by ``*`` (``pythia-*``)."""
    setting: str | None
    """What is held fixed besides the family (``5-shot``, a training step), if anything."""
    size_kind: str = "params"
    """What ``Point.size`` counts: ``params`` or ``compute``."""
    curves: dict[tuple[str, str], Curve] = field(default_factory=dict)
    """The curves by (task, metric)."""

    @property
    def label(self) -> str:
        return self.family + (f" ({self.setting})" if self.setting else "")


def is_perplexity_metric(metric: str) -> bool:
    from benchaudit.stats.mirage import is_perplexity

    return is_perplexity(metric)


def family_of(model: str | None) -> str:
    """A model name with its size replaced by ``*``: ``pythia-v1.1-1b-bf16`` -> ``pythia-v1.1-*``."""
    if not model:
        return "?"
    name = re.sub(
        r"(?<![a-z0-9.])\d+(?:\.\d+)?[mbt](?![a-z0-9])", "*", model.replace("_", "-"), flags=re.I
    )
    return re.sub(r"-(bf16|fp16|fp32|int8|int4|hf)$", "", name, flags=re.I)


def parse_size_value(text: str) -> float | None:
    m = _SIZE_TEXT.match(str(text).replace(",", ""))
    if not m:
        return None
    v = float(m.group(1)) * _SCALE[m.group(2).lower()]
    return v if v > 0 and math.isfinite(v) else None


# --------------------------------------------------------------------------- harness files


def _combine_mmlu(tasks: dict[str, Any]) -> tuple[str, dict[str, float], dict[str, float]] | None:
    parts = [t for name, t in tasks.items() if _MMLU_PART.match(name) and not t.is_group]
    if len(parts) < 2 or "mmlu" in tasks:
        return None
    metrics: dict[str, float] = {}
    stderr: dict[str, float] = {}
    for metric in ("acc", "acc_norm"):
        vals = [t.metrics.get(metric) for t in parts]
        if any(v is None for v in vals):
            continue
        metrics[metric] = sum(vals) / len(vals)
        ses = [t.stderr.get(metric) for t in parts]
        if all(s is not None for s in ses):
            stderr[metric] = math.sqrt(sum(s * s for s in ses)) / len(ses)
    return "mmlu", metrics, stderr


def from_harness(sources: list[Source]) -> list[ScalingData]:
    """Group harness summaries with a known size by (family, few-shot); keep groups of 2+ sizes."""
    groups: dict[tuple[str, Any], list[Source]] = {}
    for s in sources:
        summary = s.data
        if s.kind != "harness-summary" or getattr(summary, "size_params", None) is None:
            continue
        key = (family_of(summary.model), summary.num_fewshot)
        groups.setdefault(key, []).append(s)
    out = []
    for (family, shots), members in sorted(groups.items(), key=lambda kv: str(kv[0])):
        members.sort(key=lambda s: s.data.size_params)
        if len({m.data.size_params for m in members}) < 2:
            continue
        setting = f"{shots}-shot" if shots is not None else None
        data = ScalingData(path=members[-1].path, family=family, setting=setting)
        buckets: dict[tuple[str, str], list[Point]] = {}
        for m in members:
            summary = m.data
            tasks = dict(summary.tasks)
            merged = _combine_mmlu(tasks)
            entries = [
                (name, t.metrics, t.stderr, t.line)
                for name, t in tasks.items()
                # MMLU subjects count once: merged (legacy files) or through the group (v0.4).
                if not _MMLU_PART.match(name) or (merged is None and "mmlu" not in tasks)
            ]
            if merged is not None:
                entries.append((merged[0], merged[1], merged[2], None))
            for name, metrics, stderr, line in entries:
                for metric, value in metrics.items():
                    if value is None or not math.isfinite(value):
                        continue
                    buckets.setdefault((name, metric), []).append(
                        Point(
                            summary.size_params,
                            value,
                            stderr.get(metric),
                            m.path,
                            line,
                            summary.model,
                        )
                    )
        for key, pts in buckets.items():
            if len({p.size for p in pts}) >= 2:
                note = (
                    (
                        f"{sum(1 for t in members[0].data.tasks if _MMLU_PART.match(t))} subjects, "
                        "unweighted mean"
                    )
                    if key[0] == "mmlu" and "mmlu" not in tasks
                    else None
                )
                data.curves[key] = Curve(key[0], key[1], sorted(pts, key=lambda p: p.size), note)
        out.append(data)
    return out


# --------------------------------------------------------------------------- CSV reader


def _pick(keys: list[str], wanted: tuple[str, ...]) -> str | None:
    lower = {k.lower().strip(): k for k in keys}
    for w in wanted:
        if w in lower:
            return lower[w]
    return None


def split_column(column: str) -> tuple[str, str]:
    """``lambada_openai_ppl`` -> (``lambada_openai``, ``ppl``); ``exact_match`` -> ("", it).

    A column that is not a known metric keeps its name as both task and metric.
    """
    from benchaudit.stats.mirage import classify

    if classify(column) is not None:
        return "", column  # a file of one task: the column is the metric
    parts = column.split("_")
    for i in range(1, len(parts)):
        metric = "_".join(parts[i:])
        if classify(metric) is not None:
            return "_".join(parts[:i]), metric
    return column, column


def read(path: Path, display: str, ctx: Context) -> list[Source[ScalingData]]:
    from benchaudit.evidence import Source

    text = path.read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter="\t" if path.suffix == ".tsv" else ","))
    if len(rows) < 2:
        raise InputError(display, "no data rows")
    header = [h.strip() for h in rows[0]]
    size_key = _pick(header, SIZE_KEYS)
    if size_key is None:
        raise InputError(display, "no size column (expected one of: " + ", ".join(SIZE_KEYS) + ")")
    model_key = _pick(header, MODEL_KEYS)
    setting_key = _pick(header, SETTING_KEYS)
    skip = {size_key, model_key, setting_key}
    metric_cols = [h for h in header if h not in skip and not h.lower().endswith("_stderr")]
    datasets: dict[str | None, ScalingData] = {}
    for line, raw in enumerate(rows[1:], 2):
        if not any(v.strip() for v in raw):
            continue
        if len(raw) != len(header):
            raise InputError(
                display, f"ragged row: {len(raw)} fields, expected {len(header)}", line
            )
        rec = dict(zip(header, raw))
        size = parse_size_value(rec[size_key])
        if size is None:
            raise InputError(
                display, f"{size_key} must be a positive number, got {rec[size_key]!r}", line
            )
        setting = rec[setting_key].strip() if setting_key else None
        model = rec[model_key].strip() if model_key else None
        data = datasets.get(setting)
        if data is None:
            data = datasets[setting] = ScalingData(
                path=display,
                family=Path(display).stem,
                setting=setting,
                size_kind="compute"
                if "flop" in size_key.lower() or "compute" in size_key.lower()
                else "params",
            )
        for col in metric_cols:
            cell = rec[col].strip()
            if cell == "":
                continue
            try:
                value = float(cell)
            except ValueError:
                continue  # a text column (a note, a date): not a metric
            se_cell = rec.get(f"{col}_stderr", "").strip()
            se = float(se_cell) if se_cell else None
            task, metric = split_column(col)
            curve = data.curves.setdefault((task, metric), Curve(task, metric, []))
            curve.points.append(Point(size, value, se, display, line, model))
    out = []
    for setting, data in datasets.items():
        families = {family_of(p.model) for c in data.curves.values() for p in c.points if p.model}
        data.family = families.pop() if len(families) == 1 else Path(display).stem
        for key, curve in list(data.curves.items()):
            curve.points.sort(key=lambda p: p.size)
            if len({p.size for p in curve.points}) < 2:
                del data.curves[key]
        out.append(
            Source(
                path=display,
                kind="scaling",
                data=data,
                numbers_seen=sum(len(c.points) for c in data.curves.values()),
                meta={"format": "scaling curves (CSV)", "setting": setting},
            )
        )
    return out


def sniff(p: Probe) -> float:
    if p.suffix not in (".csv", ".tsv"):
        return 0.0
    lines = split_lines(p.text)
    try:
        rows = list(csv.reader(lines[:50], delimiter="\t" if p.suffix == ".tsv" else ","))
    except csv.Error:
        return 0.0
    if len(rows) < 3:
        return 0.0
    header = [h.strip() for h in rows[0]]
    size_key, model_key = _pick(header, SIZE_KEYS), _pick(header, MODEL_KEYS)
    if size_key is None:
        return 0.0
    i = header.index(size_key)
    sizes = {r[i] for r in rows[1:] if len(r) > i and parse_size_value(r[i]) is not None}
    if len(sizes) < 2:
        return 0.0
    if "scaling" in p.name.lower() or _pick(header, SETTING_KEYS):
        return 0.9
    if model_key is not None:
        j = header.index(model_key)
        families = {family_of(r[j]) for r in rows[1:] if len(r) > j}
        return 0.85 if len(families) == 1 else 0.3  # one family: a scaling curve
    return 0.6


READER = Reader(
    kind="scaling",
    sniff=sniff,
    read=read,
    description="metric values across model sizes of one family (CSV/TSV)",
)
