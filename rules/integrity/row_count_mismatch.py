"""BA301 row-count-mismatch: rows != models x items; duplicated or missing cells."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

SHOW = 5


class RowCountMismatch(Rule):
    """A per-item file whose rows are not one per model and item: duplicates or missing cells.

    **What.** In a per-item result file every model should have exactly one row
    per item (or the same number of samples / seeds per item when a sample or
    seed column says so). The rule compares the rows with models × items and
    names, per model, each duplicated (model, item) cell with its lines and each
    item the model has no row for. Duplicates are errors (they count an item
    twice in the score); missing cells are warnings (the model is scored on a
    different item set from the others).

    **Why.** A row dropped by a crashed worker or doubled by a retried shard
    changes the denominator silently: the score is no longer k / n of the
    benchmark, and paired comparisons quietly run on fewer items.

    Bad (scores.csv)::

        model,item,correct
        a,q1,1
        a,q2,0
        a,q2,0
        b,q1,1
        b,q2,1

    Better (scores.csv)::

        model,item,correct
        a,q1,1
        a,q2,0
        b,q1,1
        b,q2,1

    **Assumptions.** The items are the union of the items in the file; an item
    no model has cannot be seen. Rows of one (model, item) with different
    sample or seed values are repeats by design, not duplicates.
    """

    code = "BA301"
    name = "row-count-mismatch"
    severity = Severity.ERROR
    reads = ("results",)

    def on_results(self, source: Source, ctx: Context) -> Iterable[Finding]:
        rs = source.data
        k, n = len(rs.models), len(rs.items)
        summary = {"rows": rs.n_rows, "models": k, "items": n, "models_x_items": k * n}
        if getattr(rs, "numpy_free", False):
            # A small 0/1 file held without numpy has one row per cell: only gaps to report.
            from benchaudit.rules._results import analysis

            for model, missing in zip(rs.models, analysis(source, ctx).missing):
                if missing:
                    yield self._missing(source, model, missing, summary)
            return
        import numpy as np

        from benchaudit.analysis.results import analyse

        mx = analyse(rs, ctx).matrix
        if rs.sample is None and rs.seed is None and int(mx.rows.max(initial=0)) <= 1:
            dup_rows = np.array([], dtype=np.int64)
        elif rs.sample is not None or rs.seed is not None:
            cell = rs.model.codes.astype(np.int64) * n + rs.item.codes
            # Repeats by design: a row is a duplicate when its (sample, seed) repeats too.
            key = cell
            for col in (rs.sample, rs.seed):
                if col is not None:
                    key = key * (len(col.labels) + 1) + (col.codes + 1)
            _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
            dup_rows = np.flatnonzero(counts[inverse] > 1)
        else:
            cell = rs.model.codes.astype(np.int64) * n + rs.item.codes
            dup_cells = np.flatnonzero(mx.rows.ravel() > 1)
            dup_rows = (
                np.flatnonzero(np.isin(cell, dup_cells))
                if dup_cells.size
                else np.array([], dtype=np.int64)
            )
        for m, model in enumerate(rs.models):
            mine = dup_rows[rs.model.codes[dup_rows] == m] if dup_rows.size else dup_rows
            missing = np.flatnonzero(~mx.present[m])
            if mine.size:
                yield self._duplicates(source, model, mine, summary)
            if missing.size:
                yield self._missing(source, model, missing, summary)

    def _duplicates(
        self, source: Source, model: str, rows: Any, summary: dict[str, Any]
    ) -> Finding:
        rs = source.data
        by_item: dict[str, list[int]] = {}
        for r in rows:
            by_item.setdefault(rs.items[rs.item.codes[r]], []).append(rs.line_of(int(r)) or 0)
        shown = "; ".join(
            f"{item} at lines {', '.join(map(str, lines))}"
            for item, lines in list(by_item.items())[:SHOW]
        )
        more = f" and {len(by_item) - SHOW} more" if len(by_item) > SHOW else ""
        extra_lines = [ln for lines in by_item.values() for ln in lines[1:]]
        return self.finding(
            Location(source.path, min(extra_lines) if extra_lines else None),
            f"{model}: {len(by_item)} item(s) have more than one row ({shown}{more}); "
            f"{summary['rows']:,} rows for {summary['models']} models × {summary['items']:,} "
            "items",
            claim=model,
            suggestion=f"Delete the repeated row(s) at line(s) "
            f"{', '.join(map(str, extra_lines[:10]))} so {model} has one row per item, or add a "
            "sample / seed column if the repeats are deliberate.",
            evidence={
                "model": model,
                "duplicated_items": list(by_item)[:50],
                "lines": {k: v for k, v in list(by_item.items())[:50]},
                **summary,
            },
        )

    def _missing(
        self, source: Source, model: str, missing: Any, summary: dict[str, Any]
    ) -> Finding:
        rs = source.data
        names = [rs.items[i] for i in missing[:SHOW]]
        count = len(missing)
        more = f" and {count - SHOW} more" if count > SHOW else ""
        have = summary["items"] - count
        first = int(rs.first_rows()[rs.models.index(model)])
        line = rs.line_of(first) if first < rs.n_rows else None
        return self.finding(
            Location(source.path, line),
            f"{model}: no score for {count} of {summary['items']:,} items "
            f"({', '.join(names)}{more}); {summary['rows']:,} rows for {summary['models']} "
            f"models × {summary['items']:,} items",
            claim=model,
            suggestion=f"Re-run {model} on the missing item(s) {', '.join(names)}{more}, or "
            f"report every model on the {have:,} items all of them have and say so.",
            evidence={
                "model": model,
                "missing_items": [rs.items[i] for i in missing[:50]],
                "missing": count,
                "items_present": int(have),
                **summary,
            },
            severity=Severity.WARNING,
        )
