r"""The JSON report (``--format json``): stable key order, byte-identical across runs.

Keys added to it: ``coverage``; ``suppressed`` (counts by what hid the
findings, the grade they would give, and the findings themselves, each with
``suppressed_by`` and ``suppression``); ``config`` (the file used, or null);
``results.sources``, one entry per per-item input with its detection evidence
(a dataclass turned into an object here; the text, Markdown and HTML writers
show only sections of plain rows).
Strings are the raw input; characters JSON lets through raw but a terminal
would act on are written as ``\u`` escapes.
"""

from __future__ import annotations

import json
from typing import Any

from benchaudit import __version__
from benchaudit.finding import Report, _jsonable
from benchaudit.render.escape import json_text


def as_dict(report: Report) -> dict[str, Any]:
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
        out["results"] = _jsonable(
            {k: [_row(r) for r in rows] for k, rows in report.results.items()}
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


def render(report: Report) -> str:
    text = json.dumps(as_dict(report), indent=2, ensure_ascii=False, allow_nan=False)
    return json_text(text) + "\n"
