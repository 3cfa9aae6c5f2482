"""The model x item matrix of a result set: per-item scores averaged within the item.

Several rows of one (model, item) cell — generations, seeds, or accidental
duplicates — are averaged first, so every statistic counts items, not rows.
With points and max points the item value is points / mean max points, so
that a plain mean over items equals sum of points over sum of max points.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from benchaudit.inputs.resultset import GridResults, ResultSet
from benchaudit.memo import Memo


@dataclass
class ItemMatrix:
    """``value[m, i]`` is model m's score on item i (0 where ``present`` is False)."""

    value: np.ndarray  # float64, M x N
    present: np.ndarray  # bool, M x N
    rows: np.ndarray  # unsigned ints, M x N: rows behind each cell
    weighted: bool  # points / max points
    weight_scale: float  # mean max points per item (1.0 when unweighted)
    points: np.ndarray | None  # M x N sums of points (weighted files)
    max_points: np.ndarray | None  # M x N sums of max points (weighted files)
    item_cluster: np.ndarray | None  # N cluster codes, -1 for none
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)

    def weights(self, m: int, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Model m's sums of points and of max points on the items of ``mask`` (weighted only)."""
        assert self.points is not None and self.max_points is not None, "not a weighted matrix"
        return self.points[m, mask], self.max_points[m, mask]

    @property
    def n_models(self) -> int:
        return int(self.value.shape[0])

    @property
    def n_items(self) -> int:
        return int(self.value.shape[1])

    def binary_rows(self) -> np.ndarray:
        """Per model: True when every present item value is exactly 0 or 1 (computed once)."""
        def compute() -> np.ndarray:
            out = np.empty(self.n_models, dtype=bool)
            for m in range(self.n_models):  # row by row: no M x N temporaries
                v = self.value[m]
                out[m] = not self.weighted and bool(
                    np.all((v == 0.0) | (v == 1.0) | ~self.present[m])
                )
            return out

        rows: np.ndarray = self.memo.get("binary-rows", compute)
        return rows


def cell_index(rs: ResultSet) -> npt.NDArray[np.int64]:
    n_items = len(rs.items)
    flat: npt.NDArray[np.int64] = rs.model.codes.astype(np.int64) * n_items + rs.item.codes
    return flat


CHUNK = 1 << 21


def build(rs: ResultSet, rows_mask: np.ndarray | None = None) -> ItemMatrix:
    """Average the rows of each (model, item) cell; ``rows_mask`` selects rows (one seed)."""
    if rows_mask is None and isinstance(rs, GridResults):
        return _from_grid(rs)
    if (rs.model.codes < 0).any() or (rs.item.codes < 0).any():
        # Rows without a model or an item (possible from harness files) cannot be placed.
        keep = (rs.model.codes >= 0) & (rs.item.codes >= 0)
        rows_mask = keep if rows_mask is None else rows_mask & keep
    if rows_mask is None and rs.max_points is None:
        fast = _build_single(rs)
        if fast is not None:
            return fast
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
    return ItemMatrix(
        value=value,
        present=present,
        rows=np.minimum(counts, np.iinfo(np.uint16).max).astype(np.uint16),
        weighted=maxp is not None,
        weight_scale=scale,
        points=points,
        max_points=maxs,
        item_cluster=_item_cluster(rs, n),
    )


def _build_single(rs: ResultSet) -> ItemMatrix | None:
    """One row per cell (the usual case): scatter in chunks, no per-row index array.

    Returns None when some cell has several rows; ``build`` then averages them.
    """
    m, n = len(rs.models), len(rs.items)
    if rs.n_rows > m * n:
        return None
    value = np.zeros((m, n), dtype=rs.score.dtype)
    present = np.zeros((m, n), dtype=bool)
    vflat, pflat = value.reshape(-1), present.reshape(-1)
    mc, ic, sc = rs.model.codes, rs.item.codes, rs.score
    for start in range(0, rs.n_rows, CHUNK):
        stop = start + CHUNK
        flat = mc[start:stop].astype(np.int64) * n + ic[start:stop]
        pflat[flat] = True
        vflat[flat] = sc[start:stop]
    if int(np.count_nonzero(pflat)) != rs.n_rows:
        return None
    return ItemMatrix(
        value=value,
        present=present,
        rows=present.view(np.uint8),
        weighted=False,
        weight_scale=1.0,
        points=None,
        max_points=None,
        item_cluster=_item_cluster(rs, n),
    )


def _from_grid(rs: GridResults) -> ItemMatrix:
    present = np.ones(rs.value.shape, dtype=bool)
    return ItemMatrix(
        value=rs.value,
        present=present,
        rows=present.view(np.uint8),
        weighted=False,
        weight_scale=1.0,
        points=None,
        max_points=None,
        item_cluster=None,
    )


def _item_cluster(rs: ResultSet, n: int) -> np.ndarray | None:
    if rs.cluster is None:
        return None
    item_cluster = np.full(n, -1, dtype=np.int64)
    item_cluster[rs.item.codes] = rs.cluster.codes
    return item_cluster
