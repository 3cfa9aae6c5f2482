"""One self-contained HTML page: grade, findings by file, result tables and plots.

Rendered from the jinja2 template ``reports/report.html.j2`` (installed as
``benchaudit.reports``) with autoescaping on; the only markup inserted
unescaped is the SVG matplotlib writes, which escapes its own text, and the
rules' documentation, rendered by markdown-it-py with raw HTML off. The page
has no scripts, loads nothing from the network, and forbids scripts through
its Content-Security-Policy as a second line of defence. The same report
gives byte-identical HTML.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

from benchaudit import DISTRIBUTION, __version__
from benchaudit.plain import SUPPRESSED_BY
from benchaudit.plain import jsonable as _jsonable
from benchaudit.render.escape import safe as visible
from benchaudit.render.ruledoc import rule_doc_html
from benchaudit.render.tables import COLUMNS, is_rows, result_tables

if TYPE_CHECKING:
    import jinja2
    from markupsafe import Markup

    from benchaudit.finding import Finding, Report

#: Numbers in a claim, highlighted in the page: 87.3%, 1,319, ±0.1, 95% CI ...
_NUMBER = re.compile(
    r"(?<![\w.-])[+\u2212\u00b1-]?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?(?:%|pp\b|points?\b))?"
    r"(?!\w|\.\d)"
)


def _template() -> tuple[jinja2.Template, str]:
    import jinja2

    def load(name: str) -> str:
        return resources.files("benchaudit.reports").joinpath(name).read_text(encoding="utf-8")

    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(load),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template("report.html.j2"), load("report.css")


def claim_parts(claim: str | None, message: str = "") -> list[tuple[str, bool]]:
    """The claim split into (text, highlighted) pieces.

    The number highlighted is the one the finding's message leads with, else
    those it names; when it names none of them, every number in the claim is.
    """
    if not claim:
        return []
    found = list(_NUMBER.finditer(claim))
    said = [_bare(m.group(0)) for m in _NUMBER.finditer(message)]
    # Messages lead with the number they are about; prefer it, then any they name.
    hot = [m for m in found if said and _bare(m.group(0)) == said[0]]
    hot = hot or [m for m in found if _bare(m.group(0)) in said] or found
    parts: list[tuple[str, bool]] = []
    pos = 0
    for m in hot:
        if m.start() > pos:
            parts.append((claim[pos : m.start()], False))
        parts.append((m.group(0), True))
        pos = m.end()
    if pos < len(claim):
        parts.append((claim[pos:], False))
    return parts


def _bare(number: str) -> str:
    """87.3% -> 87.3, +3.0 pp -> 3.0: what two spellings of one number share."""
    return re.sub(r"[^\d.]", "", number.replace(",", ""))


def _rounded(value: Any) -> Any:
    """Floats to 6 significant digits, at any depth: what a reader can use."""
    if isinstance(value, float):
        return float(f"{value:.6g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def _evidence_value(value: Any) -> str:
    value = _rounded(_jsonable(value))
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, sort_keys=False)
    return "null" if value is None else str(value)


def _finding_view(f: Finding) -> dict[str, Any]:
    where = f"line {f.location.line}" if f.location.line is not None else "whole file"
    if f.location.line is not None and f.location.column is not None:
        where += f", column {f.location.column}"
    if f.location.page is not None:
        where += f" (page {f.location.page})"
    return {
        "severity": f.severity.label,
        "confidence": f.confidence.label,
        "code": f.code,
        "name": f.name,
        "where": where,
        "message": visible(f.message),
        "claim_parts": claim_parts(visible(f.claim) if f.claim else None, f.message),
        "suggestion": visible(f.suggestion) if f.suggestion else None,
        "evidence": [(visible(k), visible(_evidence_value(v))) for k, v in f.evidence.items()],
        "fingerprint": f.fingerprint or "",
    }


def _groups(report: Report) -> list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]:
    """Per file: errors and warnings (shown), then information findings (folded)."""
    out: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
    for f in report.findings:
        serious, infos = out.setdefault(visible(f.location.file), ([], []))
        (infos if f.severity.label == "info" else serious).append(_finding_view(f))
    return [(file, serious, infos) for file, (serious, infos) in out.items()]


def _can_plot() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _sections(report: Report, alpha: float) -> list[dict[str, Any]]:
    from benchaudit.render.plots import section_plots

    can_plot = _can_plot()
    tables = {title: (header, rows) for title, header, rows in result_tables(report)}
    out = []
    for key, rows in report.results.items():
        if not is_rows(rows):
            continue
        title = COLUMNS.get(key, (key.replace("_", " ").capitalize(), []))[0]
        header, body = tables.get(title, ([], []))
        cells = [[{"text": visible(c), "num": _numeric(c)} for c in row] for row in body]
        plots: list[tuple[str, str]] = []
        if can_plot:
            try:
                plots = section_plots(key, rows, report.results, alpha=alpha)
            except (ValueError, TypeError, KeyError, OverflowError):
                plots = []  # odd values in a section: the table still shows them
        out.append(
            {
                "key": re.sub(r"[^a-z0-9_-]", "-", key.lower()),
                "title": title,
                "header": header,
                "rows": cells,
                "plots": [(visible(c), _markup(s)) for c, s in plots],
            }
        )
    return out


def _numeric(text: str) -> bool:
    return bool(re.fullmatch(r"[+-]?[\d.,e+-]+%?", text.strip()))


def _markup(svg: str) -> Markup:
    from markupsafe import Markup

    return Markup(svg)


def _rules(report: Report) -> list[dict[str, str]]:
    out = []
    for code in sorted({f.code for f in report.findings}):
        doc = report.rule_docs.get(code)
        if doc is not None:
            out.append(
                {
                    "code": code,
                    "name": doc.name,
                    "summary": doc.summary,
                    "doc": _markup(rule_doc_html(doc.documentation)),
                }
            )
    return out


def render(report: Report, alpha: float = 0.05) -> str:
    template, css = _template()
    notes = [visible(n) for n in report.notes]
    if report.results and not _can_plot():
        notes.append(
            f"plots need matplotlib, a dependency of {DISTRIBUTION}: pip install matplotlib"
        )
    return template.render(
        version=__version__,
        grade=report.grade,
        summary=report.summary(),
        files=[visible(f) for f in dict.fromkeys(report.files)],  # one file, several sources
        suppression=report.suppression_line(),
        suppressed=[
            {
                "file": visible(h.finding.location.file),
                "line": h.finding.location.line or "",
                "code": h.finding.code,
                "name": h.finding.name,
                "message": visible(h.finding.message),
                "by": SUPPRESSED_BY[h.by],
                "detail": visible(h.detail),
            }
            for h in report.suppressed
        ],
        config=visible(report.config) if report.config else None,
        groups=_groups(report),
        sections=_sections(report, alpha),
        notes=notes,
        rules=_rules(report),
        css=_markup(css),  # our own stylesheet: escaping would break quotes and ">"
    )
