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
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.inputs import Probe, Reader
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Spellings of each column role, most specific first (compared lower-cased,
#: with spaces and dashes read as underscores).
ROLES: dict[str, tuple[str, ...]] = {
    "model": ("model", "model_name", "model_id", "system", "system_name", "name"),
    "item": (
        "item",
        "item_id",
        "question_id",
        "question",
        "doc_id",
        "task_id",
        "example_id",
        "problem_id",
        "instance_id",
        "id",
        "problem",
    ),
    "score": (
        "correct",
        "is_correct",
        "score",
        "acc",
        "accuracy",
        "passed",
        "exact_match",
        "em",
        "pass",
        "points",
    ),
    "points": ("points", "points_earned", "earned", "earned_points"),
    "max_points": (
        "max_points",
        "max_score",
        "points_possible",
        "possible_points",
        "total_points",
        "out_of",
    ),
    "cluster": (
        "cluster",
        "cluster_id",
        "passage",
        "passage_id",
        "repo",
        "repository",
        "repo_name",
        "conversation",
        "conversation_id",
        "dialogue_id",
        "thread_id",
        "topic",
        "context_id",
        "document_id",
        "article_id",
        "story_id",
        "group_id",
    ),
    "seed": ("seed", "run", "run_id", "replicate", "seed_id", "random_seed", "trial"),
    "sample": (
        "sample",
        "sample_id",
        "sample_idx",
        "sample_index",
        "sample_num",
        "generation",
        "generation_id",
        "generation_idx",
        "generation_index",
        "completion_id",
        "attempt",
        "attempt_id",
    ),
    "confidence": ("confidence", "probability", "prob", "p_correct"),
    "chosen": (
        "chosen",
        "choice",
        "chosen_option",
        "predicted_option",
        "pred_option",
        "selected",
        "selected_option",
        "prediction",
        "predicted",
        "pred",
        "predicted_answer",
        "model_answer",
    ),
    "gold": (
        "gold",
        "gold_option",
        "correct_option",
        "answer_key",
        "gold_answer",
        "correct_answer",
        "target",
        "label",
        "answer",
        "reference",
    ),
    "variant": (
        "variant",
        "variant_id",
        "prompt",
        "prompt_id",
        "prompt_variant",
        "prompt_template",
        "prompt_name",
        "template",
        "template_id",
        "checkpoint",
        "checkpoint_id",
        "config",
    ),
}
OPTIONAL = (
    "points",
    "max_points",
    "cluster",
    "seed",
    "sample",
    "confidence",
    "chosen",
    "gold",
    "variant",
)
BATTLE_COLUMNS = {"model_a", "model_b", "winner"}
SUFFIXES = (".csv", ".tsv", ".jsonl", ".parquet")

_TRUE = ("true", "1", "yes", "y", "t", "1.0", "pass", "passed", "correct")
_FALSE = ("false", "0", "no", "n", "f", "0.0", "fail", "failed", "incorrect")
_NUMERIC = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")


def _norm(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


def find_columns(names: list[str], overrides: dict[str, str] | None = None) -> dict[str, str]:
    """Role -> actual column name, from overrides first, then common spellings."""
    by_norm = {}
    for n in names:
        by_norm.setdefault(_norm(n), n)
    out: dict[str, str] = {}
    used: set[str] = set()
    for role, name in (overrides or {}).items():
        actual = by_norm.get(_norm(name))
        if actual is not None:
            out[role] = actual
            used.add(actual)
    for role, spellings in ROLES.items():
        if role in out:
            continue
        for s in spellings:
            actual = by_norm.get(s)
            if actual is not None and actual not in used:
                out[role] = actual
                used.add(actual)
                break
    # Points earned with a maximum: the points column is the score.
    if "max_points" in out and "points" not in out and "score" in out:
        out["points"] = out["score"]
    if "points" in out and "score" not in out:
        out["score"] = out["points"]
    if "points" in out and "score" in out and out["score"] != out["points"]:
        # A 0/1 column next to points: points decide the score.
        out["score"] = out["points"]
    return out


# --- detection ---------------------------------------------------------------------------


def _header_and_rows(p: Probe, limit: int = 20) -> tuple[list[str], list[list[str]]]:
    """Column names and a few rows from the probe (CSV/TSV/JSONL)."""
    if p.suffix == ".jsonl":
        names: list[str] = []
        rows: list[list[str]] = []
        for line in split_lines(p.text)[:limit]:
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                break
            if not isinstance(obj, dict):
                return [], []
            if not names:
                names = [str(k) for k in obj]
            rows.append([_scalar_text(obj.get(k)) for k in names])
        return names, rows
    delim = "\t" if p.suffix == ".tsv" else ","
    lines = split_lines(p.text)[: limit + 1]
    if lines and p.size > len(p.head):
        lines = lines[:-1]  # the probe may have cut the last line
    try:
        parsed = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delim))
    except csv.Error:
        return [], []
    if not parsed:
        return [], []
    return [c.strip() for c in parsed[0]], parsed[1:]


def _scalar_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return ""
    if isinstance(v, (dict, list)):
        return "<nested>"
    return str(v)


def _scoreish(value: str) -> bool:
    v = value.strip().lower()
    return bool(_NUMERIC.match(v)) or v in _TRUE or v in _FALSE


def wide_models(names: list[str], rows: list[list[str]], cols: dict[str, str]) -> list[str]:
    """Columns of a wide layout: every column but the item (and cluster) whose values are scores."""
    skip = {cols.get(r) for r in ("item", "cluster", "max_points")}
    out = []
    for j, n in enumerate(names):
        if n in skip:
            continue
        vals = [r[j] for r in rows if j < len(r) and r[j].strip()]
        if vals and all(_scoreish(v) for v in vals):
            out.append(n)
    return out


def sniff(p: Probe) -> float:
    if p.suffix not in SUFFIXES:
        return 0.0
    if p.suffix == ".parquet":
        try:
            import pyarrow.parquet as pq

            names = list(pq.read_schema(p.path).names)
        except Exception:  # noqa: BLE001 - not a parquet file we can read
            return 0.0
        rows: list[list[str]] = []
    else:
        if p.is_binary():
            return 0.0
        names, rows = _header_and_rows(p)
    if not names:
        return 0.0
    normed = {_norm(n) for n in names}
    if BATTLE_COLUMNS <= normed or {"model_a", "model_b"} <= normed:
        return 0.0  # pairwise votes
    cols = find_columns(names)
    if "model" in cols and "item" in cols and "score" in cols:
        return 0.9
    if "model" in cols and "score" in cols:
        return 0.0  # one row per model: a leaderboard
    if "model" in cols and "item" in cols:
        return 0.5  # per-item rows without a score column: read() says what is missing
    if "item" in cols and p.suffix != ".parquet" and rows:
        if len(wide_models(names, rows, cols)) >= 2:
            return 0.6
    return 0.0


# --- reading ---------------------------------------------------------------------------


def read(path: Path, display: str, ctx: Context) -> Source:
    from benchaudit.evidence import Source
    from benchaudit.inputs import _tabular_arrow as tabular_arrow

    overrides = dict(getattr(getattr(ctx, "config", None), "columns", {}) or {})
    max_rows = getattr(getattr(ctx, "config", None), "max_rows", None)
    rs = tabular_arrow.read_resultset(path, display, overrides, max_rows)
    return Source(
        path=display,
        kind="results",
        data=rs,
        meta={"layout": rs.layout, "columns": dict(rs.columns)},
    )


READER = Reader(
    kind="results",
    sniff=sniff,
    read=read,
    description="per-item results: CSV / TSV / JSONL / Parquet, long or wide",
    max_bytes=None,  # streamed in batches; --max-rows bounds it instead
)
