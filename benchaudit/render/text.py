"""Plain text for terminals and logs: one block per finding, then the summary."""

from __future__ import annotations

from benchaudit.finding import Report
from benchaudit.render.tables import result_tables


def render(report: Report) -> str:
    out: list[str] = []
    for f in report.findings:
        out.append(
            f"{f.location}: {f.code} {f.severity.label} [{f.confidence.label}] {f.name}: {f.message}"
        )
        if f.claim:
            out.append(f"    claim: {_one_line(f.claim)}")
        if f.suggestion:
            out.append(f"    suggestion: {_one_line(f.suggestion)}")
    for title, header, rows in result_tables(report):
        out.append("")
        out.append(title)
        widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
        for row in [header, *rows]:
            out.append("  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    for note in report.notes:
        out.append(f"note: {note}")
    s = report.summary()
    out.append("")
    out.append(
        f"grade {report.grade}: {s['errors']} error(s), {s['warnings']} warning(s), "
        f"{s['infos']} info; {s['numbers_seen']} number(s) seen, "
        f"{s['claims_checked']} claim(s) checked"
    )
    return "\n".join(out).lstrip("\n") + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())
