"""Markdown suited to a pull-request comment (GitHub / GitLab flavoured).

Findings come first, one table per file; result tables follow folded in
``<details>`` so the comment stays short. Text from inputs goes through
:mod:`benchaudit.render.escape`: no link, image, emphasis, HTML, math or
control character of its own, and mentions, references and URLs only inside
code spans, where GitHub neither notifies nor links. Claims and file names are
code spans whose fence no backtick inside can close. Very long reports are
cut to stay under the size a comment may have, saying how much was left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchaudit.plain import SUPPRESSED_BY
from benchaudit.render import escape
from benchaudit.render.tables import result_tables

if TYPE_CHECKING:
    from benchaudit.finding import Finding, Report

_ICON = {"error": "❌", "warning": "⚠️", "info": "ℹ️"}
_GRADE = {"A": "🟢", "B": "🔵", "C": "🟡", "D": "🟠", "F": "🔴"}

#: Findings listed before the rest are only counted.
MAX_FINDINGS = 200
#: GitHub refuses comments over 65,536 characters; leave room for a header.
MAX_CHARS = 60_000


_cell = escape.markdown
_code = escape.markdown_code


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


def _suppressed(report: Report) -> list[str]:
    """Suppressed findings, folded: where, rule, message and what hid each."""
    if not report.suppressed:
        return []
    block = [
        f"<details><summary>{len(report.suppressed)} suppressed finding(s)</summary>",
        "",
        "| file | line | rule | finding | suppressed by |",
        "|---|---|---|---|---|",
    ]
    for h in report.suppressed[:MAX_FINDINGS]:
        f = h.finding
        block.append(
            f"| {_code(f.location.file)} | {f.location.line or ''} | {f.code} `{f.name}` | "
            f"{_cell(f.message)} | {SUPPRESSED_BY[h.by]}: {_cell(h.detail)} |"
        )
    return [*block, "", "</details>", ""]


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
    out[-1:-1] = ["", _cell(report.suppression_line())]
    if report.config:
        out[-1:-1] = ["", f"config: {_code(report.config, table=False)}"]
    # Findings get most of the room; result tables and notes what is left.
    budget = MAX_CHARS * 3 // 4 - sum(len(x) + 1 for x in out)
    shown = 0
    current = None
    for f in report.findings[:MAX_FINDINGS]:
        lines = []
        if f.location.file != current:
            lines = [
                f"#### {_code(f.location.file, table=False)}",
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
    tables = result_tables(report)
    # The room left after the findings, shared among the tables still to come (the notes
    # and the suppressed findings after them need some too).
    tail = sum(len(n) + 8 for n in report.notes) + 400 * (1 + len(tables))
    for i, (title, header, rows) in enumerate(tables):
        left = len(tables) - i
        block = [
            f"<details><summary>{_cell(title)} ({len(rows)} row(s))</summary>",
            "",
            "| " + " | ".join(map(_cell, header)) + " |",
            "|" + "---|" * len(header),
        ]
        lines = ["| " + " | ".join(map(_cell, row)) + " |" for row in rows]
        room = (MAX_CHARS - sum(len(x) + 1 for x in out + block) - tail) // left
        kept = 0
        while kept < len(lines) and room - len(lines[kept]) - 1 >= 0:
            room -= len(lines[kept]) + 1
            kept += 1
        if kept < min(len(lines), 5):
            out += [f"*{_cell(title)}: left out, the comment would be too long.*", ""]
            continue
        block += lines[:kept]
        if kept < len(lines):
            # Many models: the rows that fit, and how many did not.
            block += ["", f"*… and {len(lines) - kept:,} more row(s); run `benchaudit check` for all.*"]
        out += block + ["", "</details>", ""]
    out += _suppressed(report)
    for note in report.notes:
        out.append(f"> {escape.markdown(note, block=True)}")
    for line in report.input_errors:  # the run exits 2 for these
        out.append(f"> {_ICON['error']} could not read {escape.markdown(line, block=True)}")
    text = "\n".join(out).rstrip() + "\n"
    if len(text) > MAX_CHARS:
        cut = text.rfind("\n", 0, MAX_CHARS - 200)
        text = text[:cut] + "\n\n*… cut: the report is longer than a comment may be.*\n"
    return text
