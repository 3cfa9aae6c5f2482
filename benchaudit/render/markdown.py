"""Markdown suited to a pull-request comment (GitHub / GitLab flavoured).

Findings come first, one table per file; result tables follow folded in
``<details>`` so the comment stays short. Text from inputs is escaped for
table cells (``|``, ``<``, ``>``, ``&``) and ``@`` is written as an entity so
a claim cannot mention a user. Very long reports are cut to stay under the
size a comment may have, saying how much was left out.
"""

from __future__ import annotations

from benchaudit.finding import Finding, Report
from benchaudit.render.tables import result_tables

_ICON = {"error": "❌", "warning": "⚠️", "info": "ℹ️"}
_GRADE = {"A": "🟢", "B": "🔵", "C": "🟡", "D": "🟠", "F": "🔴"}

#: Findings listed before the rest are only counted.
MAX_FINDINGS = 200
#: GitHub refuses comments over 65,536 characters; leave room for a header.
MAX_CHARS = 60_000


def _cell(text: object) -> str:
    s = " ".join(str(text).split())
    return (
        s.replace("&", "&amp;")
        .replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("@", "&#64;")
    )


def _code(text: str) -> str:
    """Inline code for a claim; backticks inside become quotes."""
    return "`" + " ".join(text.split()).replace("`", "'").replace("|", "\\|") + "`"


def _row(f: Finding) -> str:
    where = "" if f.location.line is None else str(f.location.line)
    if f.location.line is not None and f.location.column is not None:
        where += f":{f.location.column}"
    if f.location.page is not None:
        where = f"p{f.location.page}:{where}" if where else f"p{f.location.page}"
    msg = _cell(f.message)
    if f.claim:
        msg = f"{msg}<br>claim: {_code(f.claim)}"
    return (
        f"| {_ICON[f.severity.label]} {f.severity.label} | {where} | "
        f"{f.code} `{f.name}` | {msg} | {_cell(f.suggestion or '')} |"
    )


def render(report: Report) -> str:
    s = report.summary()
    out = [
        f"## {_GRADE.get(report.grade, '')} benchaudit: grade {report.grade}".replace("  ", " "),
        "",
        f"**{s['errors']}** error(s), **{s['warnings']}** warning(s), **{s['infos']}** info · "
        f"{s['numbers_seen']} number(s) seen, {s['claims_checked']} claim(s) checked",
        "",
    ]
    if report.numbers_seen:
        out[-1:-1] = ["", _cell(report.coverage())]
    # Findings get most of the room; result tables and notes what is left.
    budget = MAX_CHARS * 3 // 4 - sum(len(x) + 1 for x in out)
    shown = 0
    current = None
    for f in report.findings[:MAX_FINDINGS]:
        lines = []
        if f.location.file != current:
            lines = [
                f"#### `{_cell(f.location.file)}`",
                "",
                "| | line | rule | finding | suggestion |",
                "|---|---|---|---|---|",
            ]
        lines.append(_row(f))
        cost = sum(len(x) + 1 for x in lines)
        if cost > budget:
            break
        if lines[0].startswith("####") and current is not None:
            out.append("")
        current = f.location.file
        out += lines
        budget -= cost
        shown += 1
    if shown:
        out.append("")
    if len(report.findings) > shown:
        out += [
            f"… and {len(report.findings) - shown} more finding(s); run "
            "`benchaudit check` locally or see the HTML report for all of them.",
            "",
        ]
    if not report.findings:
        out += ["No findings.", ""]
    for title, header, rows in result_tables(report):
        block = [
            f"<details><summary>{_cell(title)} ({len(rows)} row(s))</summary>",
            "",
            "| " + " | ".join(map(_cell, header)) + " |",
            "|" + "---|" * len(header),
        ]
        block += ["| " + " | ".join(map(_cell, row)) + " |" for row in rows]
        block += ["", "</details>", ""]
        if sum(len(x) + 1 for x in out + block) > MAX_CHARS:
            out += [f"*{_cell(title)}: left out, the comment would be too long.*", ""]
            continue
        out += block
    for note in report.notes:
        out.append(f"> {_cell(note)}")
    for line in report.input_errors:  # the run exits 2 for these
        out.append(f"> {_ICON['error']} could not read {_cell(line)}")
    text = "\n".join(out).rstrip() + "\n"
    if len(text) > MAX_CHARS:
        cut = text.rfind("\n", 0, MAX_CHARS - 200)
        text = text[:cut] + "\n\n*… cut: the report is longer than a comment may be.*\n"
    return text
