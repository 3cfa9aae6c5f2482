"""The in-memory form of per-item results, shared by every per-item reader.

One row per (model, item[, sample, seed, ...]) observation, stored column-wise
as numpy arrays with integer codes for the categorical columns, so that
analyses can work on ten million rows without Python loops. Importing this
module imports numpy; reader modules import it inside ``read()`` only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchaudit.memo import Memo


@dataclass
class Coded:
    """A categorical column: ``codes[i]`` indexes ``labels``; -1 means missing."""

    codes: np.ndarray
    """Per row, the index of its label (int32); -1 where the cell is missing."""
    labels: list[str]
    """The distinct values, in order of first appearance."""

    def __len__(self) -> int:
        return len(self.codes)

    @classmethod
    def from_values(cls, values: Any) -> Coded:
        """Code values by first appearance (deterministic, file order)."""
        arr = np.asarray(values, dtype=object)
        labels: list[str] = []
        index: dict[str, int] = {}
        codes = np.empty(len(arr), dtype=np.int32)
        for i, v in enumerate(arr):
            if v is None or (isinstance(v, float) and v != v) or v == "":
                codes[i] = -1
                continue
            key = str(v)
            code = index.get(key)
            if code is None:
                code = index[key] = len(labels)
                labels.append(key)
            codes[i] = code
        return cls(codes=codes, labels=labels)


@dataclass
class ResultSet:
    """Per-item results of one file.

    ``score`` is the per-row score: 0/1 for binary items, a fraction for graded
    items, or points earned when ``max_points`` is present (then a model's
    score is the sum of points over the sum of max points). ``line`` holds the
    1-based line (or record) number of each row in the file, for naming rows in
    findings. Optional columns are ``None`` when the file has no such column.
    """

    path: str
    """The file (or, for runs joined by item, the files), as the report names it."""
    model: Coded
    """Per row, the model."""
    item: Coded
    """Per row, the item (question, problem, instance)."""
    score: np.ndarray
    """Per row, the score: 0/1, a 0-1 fraction, or points earned when ``max_points`` is set."""
    line: np.ndarray | None = None
    """Per row, its 1-based line (or record) in the file, for findings that name rows."""
    max_points: np.ndarray | None = None
    """Per row, the points the item was worth (weighted items), or None."""
    cluster: Coded | None = None
    """Per row, the item's cluster (passage, document), or None."""
    seed: Coded | None = None
    """Per row, the run seed, or None."""
    sample: Coded | None = None
    """Per row, the generation (sample) index, or None."""
    confidence: np.ndarray | None = None
    """Per row, the model's confidence in its answer (0-1), or None."""
    chosen: Coded | None = None
    """Per row, the option the model chose (multiple choice), or None."""
    gold: Coded | None = None
    """Per row, the correct option, or None."""
    variant: Coded | None = None
    """Per row, the prompt variant, or None."""
    columns: dict[str, str] = field(default_factory=dict)
    """Role -> the column of the file that held it (``{"model": "system", ...}``)."""
    layout: str = "long"
    """How the file held the rows: ``long`` (one row per model x item) or ``wide``."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Facts of the file for the report and the rules: ``task``, ``scale``, ``value_types``,
    ``left_out``, ``missing_cells``, ``reader``, ``item_hashes``, ``limit`` ..."""
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)
    """The analyses of this result set, computed once per run settings (never in ``meta``,
    which readers and joins copy)."""

    def __post_init__(self) -> None:
        score = np.asarray(self.score)
        # float32 holds 0/1 scores exactly in half the memory; everything else is float64.
        if score.dtype != np.float32:
            score = score.astype(np.float64, copy=False)
        self.score = score

    @property
    def n_rows(self) -> int:
        return int(self.score.shape[0])

    @property
    def models(self) -> list[str]:
        return self.model.labels

    @property
    def items(self) -> list[str]:
        return self.item.labels

    @property
    def binary(self) -> bool:
        """True when every score is exactly 0 or 1 and items are equally weighted."""
        if self.max_points is not None and not np.all(self.max_points == self.max_points[0]):
            return False
        s = self.score if self.max_points is None else self.score / self.max_points
        return bool(np.all((s == 0.0) | (s == 1.0)))

    def line_of(self, row: int) -> int | None:
        return None if self.line is None else int(self.line[row])

    def first_rows(self) -> np.ndarray:
        """Index of each model's first row (``n_rows`` for a model with none)."""
        return first_rows(self.model.codes, len(self.models))


class GridResults(ResultSet):
    """A long-form file that is a complete grid: one row for every model x item.

    Held as its model x item score matrix (``value``, float32 0/1), which is all
    the analysis needs; the per-row columns (``model``, ``item``, ``score``) are
    read back from the file only if something asks for them, so a ten-million-row
    file costs the matrix, not three arrays of ten million entries.
    """

    def __init__(
        self,
        path: str,
        models: list[str],
        items: list[str],
        value: np.ndarray,
        first_rows: np.ndarray,
        n_rows: int,
        line: Any,
        reload: Any,
        columns: dict[str, str],
    ) -> None:
        self.path = path
        self.value = value
        self._models, self._items = list(models), list(items)
        self._first_rows = first_rows
        self._n_rows = int(n_rows)
        self._reload = reload
        self._rows: ResultSet | None = None
        self.line = line
        self.max_points = None
        self.cluster = self.seed = self.sample = None
        self.confidence = None
        self.chosen = self.gold = self.variant = None
        self.columns = dict(columns)
        self.layout = "long"
        self.meta = {}
        self.memo = Memo()

    def _per_row(self) -> ResultSet:
        if self._rows is None:
            rows = self._reload()
            if rows.models != self._models or rows.items != self._items:
                raise RuntimeError("per-row read disagrees with the grid read")
            self._rows = rows
        return self._rows

    @property
    def model(self) -> Coded:  # type: ignore[override]  # read back lazily, never assigned
        return self._per_row().model

    @property
    def item(self) -> Coded:  # type: ignore[override]  # read back lazily, never assigned
        return self._per_row().item

    @property
    def score(self) -> np.ndarray:  # type: ignore[override]  # read back lazily, never assigned
        return self._per_row().score

    @property
    def n_rows(self) -> int:
        return self._n_rows

    @property
    def models(self) -> list[str]:
        return self._models

    @property
    def items(self) -> list[str]:
        return self._items

    @property
    def binary(self) -> bool:
        return True  # built only from 0/1 scores

    def first_rows(self) -> np.ndarray:
        return self._first_rows

    def __repr__(self) -> str:
        return f"GridResults({self.path!r}, {len(self._models)} models x {len(self._items)} items)"


def first_rows(codes: np.ndarray, k: int, chunk: int = 1 << 21) -> np.ndarray:
    """Index of the first row holding each code 0..k-1 (len(codes) when absent)."""
    n = len(codes)
    first = np.full(k, n, dtype=np.int64)
    for start in range(0, n, chunk):
        part = codes[start : start + chunk]
        idx = np.arange(start, start + len(part), dtype=np.int64)
        if part.size and part.min() < 0:
            keep = part >= 0
            part, idx = part[keep], idx[keep]
        np.minimum.at(first, part, idx)
    return first
