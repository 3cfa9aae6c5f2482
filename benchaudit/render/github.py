"""GitHub Actions workflow commands: one annotation per finding.

``::error file=README.md,line=12,col=5,title=BA101 unreachable-score::message``.
GitHub parses these from a step's output and pins them to the file and line
in the pull request. The escaping follows the workflow-command rules: in the
message ``%``, CR and LF are percent-encoded; in property values ``:`` and
``,`` are as well, since they separate properties. Text from inputs is made
visible first (:mod:`benchaudit.render.escape`): no control character, no
``::`` or ``##[`` of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchaudit.render.escape import line, no_commands, visible

if TYPE_CHECKING:
    from benchaudit.finding import Finding, Report

#: benchaudit severity -> workflow command.
COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return no_commands(visible(text))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    props = [f"file={escape_property(f.location.file)}"]
    if f.location.line is not None:
        props.append(f"line={int(f.location.line)}")
        if f.location.column is not None:
            props.append(f"col={int(f.location.column)}")
    page = f" (page {f.location.page})" if f.location.page is not None else ""
    props.append(f"title={escape_property(f'{f.code} {f.name}{page}')}")
    body = f.message
    if f.claim:
        body += f"\nclaim: {' '.join(f.claim.split())}"
    if f.suggestion:
        body += f"\nsuggestion: {f.suggestion}"
    return f"::{COMMANDS[f.severity.label]} {','.join(props)}::{escape_data(body)}"


def render(report: Report) -> str:
    lines = [annotation(f) for f in report.findings]
    for exc in report.errors:  # an input that could not be read: an error on that file
        path, at = getattr(exc, "path", None), getattr(exc, "line", None)
        props = [f"file={escape_property(path)}"] if path else []
        if path and at is not None:
            props.append(f"line={int(at)}")
        props.append(f"title={escape_property('cannot read this input')}")
        lines.append(f"::error {','.join(props)}::{escape_data(str(exc))}")
    s = report.summary()
    # A plain closing line: it shows in the log, GitHub does not parse it.
    config = f"; config {line(report.config)}" if report.config else ""
    lines.append(
        f"benchaudit: grade {report.grade}: {s['errors']} error(s), {s['warnings']} warning(s), "
        f"{s['infos']} info; {s['numbers_seen']} number(s) seen, "
        f"{s['claims_checked']} claim(s) checked; {report.suppression_line()}{config}"
    )
    return "\n".join(lines) + "\n"
