"""Per-item 0/1 results of a small file, held in Python lists (no numpy).

Importing numpy costs more CPU than the whole check of a results file of a few
hundred rows, and a pre-commit hook pays it on every run. A small long-form file
of 0/1 scores with one row per (model, item) is held here instead and analysed by
:mod:`benchaudit.analysis.small`, which gives the numbers, in the same order and to
the last bit, of :mod:`benchaudit.analysis.results`. Anything else (graded scores,
repeats, clusters, seeds, several files joined) is a :class:`~benchaudit.inputs.
resultset.ResultSet`: :meth:`SmallResults.to_resultset` makes one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.memo import Memo

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.evidence import Source
    from benchaudit.inputs.resultset import ResultSet


class Column(list):  # type: ignore[type-arg]
    """A list that answers ``tolist()`` as a numpy array does, for code that reads either."""

    def tolist(self) -> list[Any]:
        return list(self)


@dataclass
class Codes:
    """A categorical column as in :class:`~benchaudit.inputs.resultset.Coded`, in a list."""

    codes: list[int]
    labels: list[str]

    def __post_init__(self) -> None:
        self.codes = Column(self.codes)

    def __len__(self) -> int:
        return len(self.codes)


@dataclass
class SmallResults:
    """0/1 scores of one small long-form file: one row per (model, item), no other role."""

    path: str
    model: Codes
    item: Codes
    score: list[float]
    #: Per row, its line in the file (``line[i]``, ``len(line)``; a slice needs numpy).
    line: Any
    columns: dict[str, str] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)
    layout: str = "long"

    #: Read by the rules and analyses that have a path without numpy.
    numpy_free = True
    # Roles a ResultSet may have and this one never has.
    max_points = cluster = seed = sample = confidence = chosen = gold = variant = None
    #: Only 0/1 scores are held here.
    binary = True

    def __post_init__(self) -> None:
        self.score = Column(self.score)

    @property
    def n_rows(self) -> int:
        return len(self.score)

    @property
    def models(self) -> list[str]:
        return self.model.labels

    @property
    def items(self) -> list[str]:
        return self.item.labels

    def line_of(self, row: int) -> int | None:
        return int(self.line[row])

    def first_rows(self) -> list[int]:
        """Index of each model's first row (``n_rows`` for a model with none)."""
        first = [self.n_rows] * len(self.models)
        for row, code in enumerate(self.model.codes):
            if first[code] == self.n_rows:
                first[code] = row
        return first

    def report_results(self, ctx: RunContext | None = None) -> dict[str, Any]:
        from benchaudit.analysis.small import report_results

        return report_results(self, ctx)

    def to_resultset(self) -> ResultSet:
        """The same rows as a numpy :class:`ResultSet` (what the Arrow reader would give)."""
        import numpy as np

        from benchaudit.inputs.resultset import Coded, ResultSet

        def coded(c: Codes) -> Coded:
            dtype = np.int16 if len(c.labels) < np.iinfo(np.int16).max else np.int32
            return Coded(codes=np.asarray(c.codes, dtype=dtype), labels=list(c.labels))

        return ResultSet(
            path=self.path,
            model=coded(self.model),
            item=coded(self.item),
            score=np.asarray(self.score, dtype=np.float32),
            line=self.line,
            columns=dict(self.columns),
            layout=self.layout,
            meta=dict(self.meta),
        )


def with_numpy(source: Source) -> Source:
    """``source`` with its data as a :class:`ResultSet` (to be joined with other files)."""
    if not getattr(source.data, "numpy_free", False):
        return source
    from dataclasses import replace

    return replace(source, data=source.data.to_resultset(), memo=Memo())


__all__ = ["Codes", "SmallResults", "with_numpy"]
