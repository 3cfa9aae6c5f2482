"""The model x item matrix of a result set: per-item scores averaged within the item.

Several rows of one (model, item) cell — generations, seeds, or accidental
duplicates — are averaged first, so every statistic counts items, not rows.
With points and max points the item value is points / mean max points, so
that a plain mean over items equals sum of points over sum of max points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchaudit.inputs.resultset import ResultSet


@dataclass
class ItemMatrix:
    """``value[m, i]`` is model m's score on item i (0 where ``present`` is False)."""

    value: np.ndarray  # float64, M x N
    present: np.ndarray  # bool, M x N
    rows: np.ndarray  # int32, M x N: rows behind each cell
    weighted: bool  # points / max points
    weight_scale: float  # mean max points per item (1.0 when unweighted)
    points: np.ndarray | None  # M x N sums of points (weighted files)
    max_points: np.ndarray | None  # M x N sums of max points (weighted files)
    item_cluster: np.ndarray | None  # N cluster codes, -1 for none

    @property
    def n_models(self) -> int:
        return int(self.value.shape[0])

    @property
    def n_items(self) -> int:
        return int(self.value.shape[1])

    def binary_rows(self) -> np.ndarray:
        """Per model: True when every present item value is exactly 0 or 1."""
        v = self.value
        ok = (v == 0.0) | (v == 1.0) | ~self.present
        return ok.all(axis=1) & (not self.weighted)


def cell_index(rs: ResultSet) -> np.ndarray:
    n_items = len(rs.items)
    return rs.model.codes.astype(np.int64) * n_items + rs.item.codes


def build(rs: ResultSet, rows_mask: np.ndarray | None = None) -> ItemMatrix:
    """Average the rows of each (model, item) cell; ``rows_mask`` selects rows (one seed)."""
    m, n = len(rs.models), len(rs.items)
    flat = cell_index(rs)
    score = rs.score
    maxp = rs.max_points
    if rows_mask is not None:
        flat, score = flat[rows_mask], score[rows_mask]
        maxp = None if maxp is None else maxp[rows_mask]
    size = m * n
    counts = np.bincount(flat, minlength=size).reshape(m, n)
    sums = np.bincount(flat, weights=score, minlength=size).reshape(m, n)
    present = counts > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        if maxp is not None:
            wsum = np.bincount(flat, weights=maxp, minlength=size).reshape(m, n)
            mean_points = np.where(present, sums / np.maximum(counts, 1), 0.0)
            mean_max = np.where(present, wsum / np.maximum(counts, 1), 0.0)
            scale = float(mean_max[present].mean()) if present.any() else 1.0
            value = mean_points / scale
            points, maxs = mean_points, mean_max
        else:
            value = np.where(present, sums / np.maximum(counts, 1), 0.0)
            scale, points, maxs = 1.0, None, None
    item_cluster = None
    if rs.cluster is not None:
        item_cluster = np.full(n, -1, dtype=np.int64)
        item_cluster[rs.item.codes] = rs.cluster.codes
    return ItemMatrix(
        value=value,
        present=present,
        rows=counts.astype(np.int32),
        weighted=maxp is not None,
        weight_scale=scale,
        points=points,
        max_points=maxs,
        item_cluster=item_cluster,
    )
