"""Result sections as plain (title, header, rows) tables shared by text and markdown.

A section renders with the columns listed in ``COLUMNS``; sections not listed
render with the keys of their first row, so a new analysis shows up in every
format without touching the writers.
"""

from __future__ import annotations

from typing import Any

from benchaudit.finding import Report

COLUMNS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "models": (
        "Per-model scores (95% intervals)",
        [("file", "file"), ("model", "model"), ("n_items", "items"), ("score", "score"),
         ("ci_low", "low"), ("ci_high", "high"), ("ci_method", "method")],
    ),
    "comparisons": (
        "Paired comparisons",
        [("a", "a"), ("b", "b"), ("diff", "diff"), ("ci_low", "low"), ("ci_high", "high"),
         ("p_value", "p"), ("p_adjusted", "p (Holm)"), ("test", "test")],
    ),
}

_PERCENT = {"score", "ci_low", "ci_high", "diff"}


def fmt(key: str, value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if key in _PERCENT:
            return f"{100 * value:.2f}%"
        if key.startswith("p_") or key == "p":
            return f"{value:.3g}"
        return f"{value:.4g}"
    return str(value)


def result_tables(report: Report) -> list[tuple[str, list[str], list[list[str]]]]:
    out = []
    for section, rows in report.results.items():
        if not rows or not isinstance(rows, list) or not isinstance(rows[0], dict):
            continue
        title, cols = COLUMNS.get(
            section, (section.replace("_", " ").capitalize(), [(k, k) for k in rows[0]])
        )
        cols = [(k, h) for k, h in cols if any(k in r for r in rows)]
        if len({r.get("file") for r in rows}) <= 1:
            cols = [(k, h) for k, h in cols if k != "file"]
        header = [h for _, h in cols]
        body = [[fmt(k, r.get(k)) for k, _ in cols] for r in rows]
        out.append((title, header, body))
    return out
