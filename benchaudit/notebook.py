"""What a report looks like in a notebook: DataFrames and a compact HTML summary.

``Report.to_pandas()`` and ``Report._repr_html_()`` come here; pandas is
imported only by the first.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.finding import Report

#: Columns of the findings frame, in the order of the JSON output.
FINDING_COLUMNS = [
    "rule",
    "name",
    "severity",
    "confidence",
    "file",
    "page",
    "line",
    "column",
    "claim",
    "message",
    "suggestion",
    "evidence",
    "fingerprint",
]

#: Findings listed in the notebook summary before the rest are only counted.
MAX_SHOWN = 50


def frames(report: Report, section: str | None = None) -> Any:
    """``findings`` plus one frame per result section (``models``, ``comparisons``,
    ...); ``models`` and ``comparisons`` are always there, empty when the
    inputs held no per-item results."""
    import pandas as pd

    from benchaudit.analysis.pairs import PairTable
    from benchaudit.plain import jsonable as _jsonable

    rows = [{**{"page": None}, **f.to_dict()} for f in report.findings]
    out: dict[str, Any] = {"findings": pd.DataFrame(rows, columns=FINDING_COLUMNS)}
    for name in ("models", "comparisons"):
        out[name] = pd.DataFrame()
    for name, section_rows in report.results.items():
        if isinstance(section_rows, PairTable):  # the column-stored pair table
            out[name] = pd.DataFrame(_jsonable(section_rows.tolist()))
        elif isinstance(section_rows, list) and all(isinstance(r, dict) for r in section_rows):
            out[name] = pd.DataFrame(_jsonable(section_rows))
    if section is None:
        return out
    if section not in out:
        raise KeyError(f"no section {section!r} in this report (have: {', '.join(out)})")
    return out[section]


def repr_html(report: Report) -> str:
    """Grade, counts and a table of findings; every text from the inputs escaped."""
    s = report.summary()
    head = (
        f"<p><b>benchaudit grade {escape(report.grade)}</b>: {s['errors']} error(s), "
        f"{s['warnings']} warning(s), {s['infos']} info; {s['numbers_seen']} number(s) seen, "
        f"{s['claims_checked']} claim(s) checked</p>"
    )
    parts = [head]
    if report.errors:
        items = "".join(f"<li>{escape(line)}</li>" for line in report.input_errors)
        parts.append(f"<p>Inputs that could not be read:</p><ul>{items}</ul>")
    if report.findings:
        cells = [
            "<tr><th>where</th><th>rule</th><th>severity</th><th>message</th>"
            "<th>suggestion</th></tr>"
        ]
        for f in report.findings[:MAX_SHOWN]:
            cells.append(
                "<tr>"
                f"<td>{escape(str(f.location))}</td>"
                f"<td>{escape(f.code)} {escape(f.name)}</td>"
                f"<td>{escape(f.severity.label)} ({escape(f.confidence.label)})</td>"
                f"<td>{escape(f.message)}</td>"
                f"<td>{escape(f.suggestion or '')}</td>"
                "</tr>"
            )
        parts.append("<table>" + "".join(cells) + "</table>")
        if len(report.findings) > MAX_SHOWN:
            parts.append(
                f"<p>{len(report.findings) - MAX_SHOWN} more finding(s): "
                "<code>report.to_pandas()['findings']</code> has them all.</p>"
            )
    for note in report.notes:
        parts.append(f"<p>note: {escape(note)}</p>")
    return '<div class="benchaudit-report">' + "".join(parts) + "</div>"
