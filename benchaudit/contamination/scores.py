"""Scores on the clean and the contaminated subsets of a benchmark.

``--scores`` names a per-item results file: anything benchaudit's readers take
as per-item results (model, item, score; harness sample files), else a plain
CSV/TSV/JSONL with an item id column and a score column. For each model the
report gives the mean score on the clean items and on the contaminated
items, their difference (contaminated minus clean) with a seeded percentile
bootstrap interval (items resampled within each subset), and a Llama 2-style
Z: how far a subset's mean sits from the full-set mean, in units of the
standard deviation of the mean of a random subset of that size drawn without
replacement (finite-population correction included).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchaudit.errors import InputError

ITEM_COLUMNS = ("item_id", "item", "id", "task_id", "doc_id", "question_id", "problem_id")
SCORE_COLUMNS = ("score", "correct", "acc", "accuracy", "passed", "exact_match", "em")
MODEL_COLUMNS = ("model", "model_name", "system")


def subset_z(values: np.ndarray, mask: np.ndarray) -> float | None:
    """Z of the subset mean against random subsets of the same size (without replacement)."""
    n_all = len(values)
    n = int(mask.sum())
    if n == 0 or n == n_all or n_all < 2:
        return None
    sd = float(values.std())  # population SD of the full set
    if sd == 0:
        return None
    se = sd / math.sqrt(n) * math.sqrt((n_all - n) / (n_all - 1))
    return (float(values[mask].mean()) - float(values.mean())) / se


def bootstrap_diff(
    dirty: np.ndarray, clean: np.ndarray, resamples: int, seed: int, alpha: float = 0.05
) -> tuple[float, float]:
    """Percentile interval of mean(dirty) - mean(clean), resampling within each subset."""
    rng = np.random.default_rng(seed)
    out = np.empty(resamples)
    chunk = max(1, 2_000_000 // max(len(dirty) + len(clean), 1))
    for lo in range(0, resamples, chunk):
        hi = min(resamples, lo + chunk)
        m = hi - lo
        d = dirty[rng.integers(0, len(dirty), size=(m, len(dirty)))].mean(axis=1)
        c = clean[rng.integers(0, len(clean), size=(m, len(clean)))].mean(axis=1)
        out[lo:hi] = d - c
    return (float(np.quantile(out, alpha / 2)), float(np.quantile(out, 1 - alpha / 2)))


def _rows(path: str) -> list[tuple[dict[str, Any], int]]:
    p = Path(path)
    name = p.name.lower()
    try:
        if name.endswith((".jsonl", ".ndjson")):
            out = []
            with open(p, encoding="utf-8") as fh:
                for lineno, line in enumerate(fh, 1):
                    if line.strip():
                        try:
                            rec = json.loads(line)
                        except json.JSONDecodeError as exc:
                            raise InputError(path, f"invalid JSON: {exc.msg}", lineno) from None
                        if not isinstance(rec, dict):
                            raise InputError(path, "each line must be a JSON object", lineno)
                        out.append((rec, lineno))
            return out
        with open(p, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh, delimiter="\t" if name.endswith(".tsv") else ",")
            out = []
            for rec in reader:
                if None in rec:
                    raise InputError(path, "ragged row", reader.line_num)
                out.append((rec, reader.line_num))
            return out
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not valid UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None


def _score(value: Any, path: str, line: int) -> float:
    if isinstance(value, bool):
        return float(value)
    text = str(value).strip().lower()
    if text in ("true", "yes"):
        return 1.0
    if text in ("false", "no"):
        return 0.0
    try:
        out = float(text)
    except ValueError:
        raise InputError(path, f"score {value!r} is not a number", line) from None
    if out != out:
        raise InputError(path, "score is NaN", line)
    return out


def _engine_results(path: str) -> dict[str, dict[str, float]] | None:
    """Per-item results through benchaudit's own readers (CSV/JSONL/Parquet with model,
    item and score columns, harness sample files ...), or None when they do not apply.
    Several rows of one model and item (samples, seeds) are averaged."""
    from benchaudit import inputs
    from benchaudit.config import Config
    from benchaudit.context import RunContext as Context

    try:
        sources = inputs.load(Path(path), path, Context(config=Config()))
    except InputError:
        return None
    for source in sources:
        data = source.data
        if source.kind != "results" or not all(
            hasattr(data, a) for a in ("model", "item", "score")
        ):
            continue
        sums: dict[str, dict[str, list[float]]] = {}
        models, items = data.model.labels, data.item.labels
        for m, i, v in zip(
            data.model.codes.tolist(), data.item.codes.tolist(), data.score.tolist()
        ):
            if m < 0 or i < 0 or v != v:
                continue
            acc = sums.setdefault(models[m], {}).setdefault(items[i], [0.0, 0])
            acc[0] += v
            acc[1] += 1
        if sums:
            return {m: {i: a[0] / a[1] for i, a in per.items()} for m, per in sums.items()}
    return None


def read_scores(path: str) -> dict[str, dict[str, float]]:
    """model -> item id -> score (model '' when the file has no model column)."""
    got = _engine_results(path)
    if got is not None:
        return got
    rows = _rows(path)
    if not rows:
        raise InputError(path, "no rows")
    keys = list(rows[0][0])
    item_col = next((c for c in ITEM_COLUMNS if c in keys), None)
    score_col = next((c for c in SCORE_COLUMNS if c in keys), None)
    model_col = next((c for c in MODEL_COLUMNS if c in keys), None)
    if item_col is None or score_col is None:
        raise InputError(
            path,
            "need an item id column ("
            + "/".join(ITEM_COLUMNS[:3])
            + ") and a score column ("
            + "/".join(SCORE_COLUMNS[:3])
            + ")",
        )
    out: dict[str, dict[str, float]] = {}
    for rec, line in rows:
        model = str(rec.get(model_col, "")) if model_col else ""
        item = rec.get(item_col)
        if item is None or str(item) == "":
            raise InputError(path, "missing item id", line)
        per = out.setdefault(model, {})
        if str(item) in per:
            raise InputError(path, f"item {item} appears twice for model {model or '(none)'}", line)
        per[str(item)] = _score(rec.get(score_col), path, line)
    return out


def compare(
    scores: dict[str, dict[str, float]],
    item_ids: Sequence[str],
    contaminated: Sequence[bool],
    resamples: int,
    seed: int,
    alpha: float,
    path: str,
) -> list[dict[str, Any]]:
    """One row per model: clean and contaminated scores, difference, interval, Z."""
    rows = []
    known = set(item_ids)
    for model, per in scores.items():
        unknown = [k for k in per if k not in known]
        if len(unknown) == len(per):
            raise InputError(
                path,
                f"no item id matches the benchmark's ids (e.g. {unknown[0]!r} vs {item_ids[0]!r})",
            )
        ids = [i for i in item_ids if i in per]
        flag = dict(zip(item_ids, contaminated))
        values = np.array([per[i] for i in ids], dtype=np.float64)
        dirty = np.array([flag[i] for i in ids], dtype=bool)
        n_dirty = int(dirty.sum())
        n_clean = len(ids) - n_dirty
        row: dict[str, Any] = {
            "model": model or None,
            "n_clean": n_clean,
            "n_dirty": n_dirty,
            "score_all": float(values.mean()),
            "score_clean": float(values[~dirty].mean()) if n_clean else None,
            "score_dirty": float(values[dirty].mean()) if n_dirty else None,
            "diff": None,
            "ci_low": None,
            "ci_high": None,
            "z_clean": subset_z(values, ~dirty),
            "z_dirty": subset_z(values, dirty),
        }
        if n_clean and n_dirty:
            row["diff"] = row["score_dirty"] - row["score_clean"]
            row["ci_low"], row["ci_high"] = bootstrap_diff(
                values[dirty], values[~dirty], resamples, seed, alpha
            )
        rows.append(row)
    return rows
