r"""The JSON report (``--format json``): stable key order, byte-identical across runs.

Keys added to it: ``coverage``; ``suppressed`` (counts by what hid the
findings, the grade they would give, and the findings themselves, each with
``suppressed_by`` and ``suppression``); ``config`` (the file used, or null);
``results.sources``, one entry per per-item input with its detection evidence
(a dataclass turned into an object here; the text, Markdown and HTML writers
show only sections of plain rows).
Strings are the raw input; characters JSON lets through raw but a terminal
would act on are written as ``\u`` escapes.

Above ``COMPACT_PAIRS`` pairwise comparisons (about 140 models) the document is
written without indentation, and the comparison rows are formatted from their
columns (:meth:`benchaudit.analysis.pairs.PairTable.json_rows`) and written a
chunk at a time (:func:`chunks`): the same objects with the same keys, in a
fraction of the time and memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from benchaudit import __version__
from benchaudit.plain import jsonable as _jsonable
from benchaudit.render.escape import json_text

if TYPE_CHECKING:
    from benchaudit.finding import Report


def as_dict(report: Report, results: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tool": "benchaudit",
        "version": __version__,
        "grade": report.grade,
        "summary": report.summary(),
        "findings": [f.to_dict() for f in report.findings],
        "coverage": {
            "scores_read": report.scores_read,
            "scores_with_n": report.scores_with_n,
            "unknown_benchmarks": list(report.unknown_benchmarks),
        },
        "suppressed": suppressed(report),
        "config": report.config,
    }
    if report.results:
        source = report.results if results is None else results
        out["results"] = _jsonable(
            {k: rows if isinstance(rows, str) else [_row(r) for r in rows] for k, rows in source.items()}
        )
    return out


def _row(row: Any) -> Any:
    to_dict = getattr(row, "to_dict", None)
    return to_dict() if callable(to_dict) and not isinstance(row, dict) else row


def suppressed(report: Report) -> dict[str, Any]:
    """Counts by what hid the findings, the grade with them, and the findings."""
    return {
        **report.suppressed_counts(),
        "grade_unsuppressed": report.grade_unsuppressed,
        "findings": [h.to_dict() for h in report.suppressed],
    }


@runtime_checkable
class ColumnRows(Protocol):
    """A results section kept as columns (:class:`benchaudit.analysis.pairs.PairTable`)
    that writes its own JSON rows."""

    def __len__(self) -> int: ...

    def json_rows(self, escape: Callable[[str], str]) -> Iterator[str]: ...


#: More pairwise comparison rows than this: compact JSON, the rows written from columns.
COMPACT_PAIRS = 10_000


def render(report: Report) -> str:
    return "".join(chunks(report))


def chunks(report: Report) -> Iterator[str]:
    """The JSON document in pieces (one piece for a small report)."""
    columns: dict[str, ColumnRows] = {
        k: v for k, v in report.results.items() if isinstance(v, ColumnRows)
    }
    if sum(len(v) for v in columns.values()) <= COMPACT_PAIRS:
        text = json.dumps(as_dict(report), indent=2, ensure_ascii=False, allow_nan=False)
        yield json_text(text) + "\n"
        return
    # Each column-stored section stands in as a marker string, replaced by its rows.
    marker = "\x00benchaudit rows {}\x00"
    results: dict[str, Any] = dict(report.results)
    for i, key in enumerate(columns):
        results[key] = marker.format(i)
    out = as_dict(report, results)
    text = json_text(json.dumps(out, ensure_ascii=False, allow_nan=False))
    for i, table in enumerate(columns.values()):
        here = json_text(json.dumps(marker.format(i)))
        before, text = text.split(here, 1)
        yield before + "["
        yield from table.json_rows(json_text)
        yield "]"
    yield text + "\n"
