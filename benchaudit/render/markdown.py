"""Markdown suited to a pull-request comment."""

from __future__ import annotations

from benchaudit.finding import Report
from benchaudit.render.tables import result_tables

_ICON = {"error": "❌", "warning": "⚠️", "info": "ℹ️"}


def _cell(text: object) -> str:
    s = " ".join(str(text).split())
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def render(report: Report) -> str:
    s = report.summary()
    out = [
        f"## benchaudit: grade {report.grade}",
        "",
        f"{s['errors']} error(s), {s['warnings']} warning(s), {s['infos']} info · "
        f"{s['numbers_seen']} number(s) seen, {s['claims_checked']} claim(s) checked",
        "",
    ]
    if report.findings:
        out += ["| | where | rule | finding | suggestion |", "|---|---|---|---|---|"]
        for f in report.findings:
            msg = _cell(f.message)
            if f.claim:
                claim = _cell(f.claim).replace("`", "'")
                msg = f"{msg}<br>claim: `{claim}`"
            out.append(
                f"| {_ICON[f.severity.label]} {f.severity.label} | `{_cell(f.location)}` | "
                f"{f.code} {f.name} | {msg} | {_cell(f.suggestion or '')} |"
            )
        out.append("")
    for title, header, rows in result_tables(report):
        out += [f"### {_cell(title)}", "", "| " + " | ".join(map(_cell, header)) + " |"]
        out.append("|" + "---|" * len(header))
        out += ["| " + " | ".join(map(_cell, row)) + " |" for row in rows]
        out.append("")
    for note in report.notes:
        out.append(f"> {_cell(note)}")
    return "\n".join(out).rstrip() + "\n"
