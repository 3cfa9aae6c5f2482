"""Pieces shared by the readers of harness output (lm-eval, inspect, HELM, nested JSON).

Standard library only at module level: numpy is imported when a result set is
built, which only happens inside a reader's ``read()``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.inputs.resultset import ResultSet


def load_json(path: Path, display: str) -> tuple[Any, str]:
    """A whole JSON file and its text; a one-line error naming the line otherwise."""
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(display, f"not valid UTF-8 text (byte {exc.start})") from None
    return parse_json(text, display), text


def parse_json(text: str, display: str, line_offset: int = 0) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(display, f"invalid JSON: {exc.msg}", exc.lineno + line_offset) from None
    except RecursionError:
        raise InputError(display, "JSON nested too deeply") from None


def iter_jsonl(path: Path, display: str) -> Iterator[tuple[int, Any]]:
    """(1-based line, object) for every non-blank line of a JSON Lines file."""
    with open(path, encoding="utf-8-sig") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(display, f"invalid JSON: {exc.msg}", lineno) from None
            yield lineno, obj


def object_at(obj: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The JSON object under ``key``, or an empty one when it is missing or not an object."""
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


def score_value(value: Any) -> float | None:
    """A per-item score as a float: numbers, booleans and numeric strings.

    ``None`` for values that are not a score (lists, objects, words).
    """
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def text_id(text: str) -> str:
    """A short stable id for an item known only by its text."""
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


def option(ctx: Context | None, role: str) -> str | None:
    """The column the user named for a role (``--column score=acc_norm``), if any."""
    cfg = getattr(ctx, "config", None)
    cols = getattr(cfg, "columns", None) or {}
    value = cols.get(role)
    return str(value) if value else None


def build(
    display: str,
    *,
    model: list[str],
    item: list[str],
    score: list[float],
    line: list[int] | None = None,
    sample: list[str] | None = None,
    seed: list[str] | None = None,
    variant: list[str] | None = None,
    columns: dict[str, str] | None = None,
    meta: dict[str, Any] | None = None,
) -> ResultSet:
    """A :class:`ResultSet` from parallel lists (optional columns only when they vary)."""
    import numpy as np

    from benchaudit.inputs.resultset import Coded, ResultSet

    if not score:
        raise InputError(display, "no scored items")

    scores = np.asarray(score, dtype=np.float64)
    bad = ~np.isfinite(scores)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        where = None if line is None else int(line[row])
        raise InputError(
            display, f"score for {model[row]!r} on item {item[row]!r} is NaN or infinite", where
        )

    def code(values: list[str]) -> Coded:
        # Same coding as Coded.from_values (first appearance, "" missing), for
        # values that are already strings: one dict look-up per row.
        index: dict[str, int] = {"": -1}
        codes = [index.setdefault(v, len(index) - 1) for v in values]
        labels = [k for k in index if k != ""]
        return Coded(codes=np.asarray(codes, dtype=np.int32), labels=labels)

    def varying(values: list[str] | None) -> Coded | None:
        if values is None or len(set(values)) <= 1:
            return None
        return code(values)

    return ResultSet(
        path=display,
        model=code(model),
        item=code(item),
        score=scores,
        line=None if line is None else np.asarray(line, dtype=np.int64),
        sample=varying(sample),
        seed=varying(seed),
        variant=varying(variant),
        columns=dict(columns or {}),
        layout="long",
        meta=dict(meta or {}),
    )
