"""What the rules reading per-item result files share: the source's cached
analysis (:mod:`benchaudit.analysis.results`, imported inside, so the text
path never loads numpy) and the line of a model's first row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


def analysis(source: Source, ctx: Context) -> Any:
    """The per-item analysis of ``source`` (computed once per source); a small 0/1 file's
    is :class:`benchaudit.analysis.small.SmallAnalysis`, its comparisons a list of rows."""
    if getattr(source.data, "numpy_free", False):
        from benchaudit.analysis.small import analyse as small

        return small(source.data, ctx)
    from benchaudit.analysis.results import analyse

    return analyse(source.data, ctx)


def first_line(source: Source, model: str | None = None) -> int | None:
    """The line of a model's first row (or the file's first data row)."""
    rs = source.data
    if rs.line is None or rs.n_rows == 0:
        return None
    if model is None:
        return int(rs.line[0])

    def compute() -> dict[str, int]:
        first = rs.first_rows()
        return {name: int(rs.line[int(r)]) for name, r in zip(rs.models, first) if r < rs.n_rows}

    line: int | None = source.cached("first-line-of-model", compute).get(model)
    return line
