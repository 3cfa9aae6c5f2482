"""The JSON report (``--format json``): stable key order, byte-identical across runs."""

from __future__ import annotations

import json
from typing import Any

from benchaudit import __version__
from benchaudit.finding import Report, _jsonable


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
    }
    if report.results:
        out["results"] = _jsonable(report.results)
    return out


def render(report: Report) -> str:
    return json.dumps(as_dict(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
