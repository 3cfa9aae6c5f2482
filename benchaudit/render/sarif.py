"""SARIF 2.1.0, the format code-scanning services read (GitHub, GitLab, Azure DevOps).

One run; ``tool.driver.rules`` lists the rules that produced a finding, in
code order, with their documentation; every result points at its rule by id
and index, carries a relative artifact URI with start line and column, and
our content fingerprint as a partial fingerprint so that a finding keeps its
identity when lines move. Suppressed findings are results too, carrying SARIF's
``suppressions`` (``inSource`` for an inline comment, ``external`` for the
configuration and the baseline), so viewers count them as suppressed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from benchaudit import __version__
from benchaudit.plain import jsonable as _jsonable
from benchaudit.render.escape import json_text

if TYPE_CHECKING:
    from benchaudit.finding import Finding, Report, RuleDoc, Suppressed

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
FINGERPRINT_KEY = "benchaudit/v1"

#: benchaudit severity -> SARIF level ("note" is SARIF's word for information).
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _artifact_uri(file: str) -> str:
    """A URI relative to the working directory when the file lies under it.

    Code-scanning services resolve relative URIs against the repository root,
    which is where the check normally runs; an absolute path outside it stays
    absolute (as a file: URI) rather than being guessed at.
    """
    p = Path(file)
    if p.is_absolute():
        try:
            p = p.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            return p.resolve().as_uri()
    posix = PurePosixPath(p.as_posix())
    # The bytes of the name: a byte that is not UTF-8 (\xff) is percent-encoded as itself.
    return quote(os.fsencode(str(posix)), safe="/-._~")


def _rule_descriptor(doc: RuleDoc | None, code: str, name: str, level: str) -> dict[str, Any]:
    summary, docs = name, ""
    if doc is not None:
        summary = doc.summary or name
        docs = doc.documentation
        level = LEVELS[doc.severity.label]
    body = docs.split("\n", 1)[1].strip() if "\n" in docs else ""
    out: dict[str, Any] = {
        "id": code,
        "name": name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": body or summary},
        # The docstring is markdown with indented example blocks; viewers render it.
        "help": {"text": docs or summary, "markdown": docs or summary},
        "defaultConfiguration": {"level": level},
        "properties": {"tags": ["benchaudit", f"{code[:3]}xx"]},
    }
    return out


def _result(f: Finding, index: int) -> dict[str, Any]:
    text = f.message
    if f.suggestion:
        text = f"{text}\nSuggestion: {f.suggestion}"
    physical: dict[str, Any] = {
        "artifactLocation": {"uri": _artifact_uri(f.location.file), "uriBaseId": "%SRCROOT%"}
    }
    if f.location.line is not None:
        region: dict[str, Any] = {"startLine": max(1, int(f.location.line))}
        if f.location.column is not None:
            region["startColumn"] = max(1, int(f.location.column))
        if f.claim:
            region["snippet"] = {"text": f.claim}
        physical["region"] = region
    props: dict[str, Any] = {
        "name": f.name,
        "severity": f.severity.label,
        "confidence": f.confidence.label,
    }
    if f.claim:
        props["claim"] = f.claim
    if f.suggestion:
        props["suggestion"] = f.suggestion
    if f.evidence:
        props["evidence"] = _jsonable(f.evidence)
    if f.location.page is not None:
        props["page"] = f.location.page
    out: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index,
        "level": LEVELS[f.severity.label],
        "message": {"text": text},
        "locations": [{"physicalLocation": physical}],
        "properties": props,
    }
    if f.fingerprint:
        out["partialFingerprints"] = {FINGERPRINT_KEY: f.fingerprint}
    return out


def _suppressed_result(h: Suppressed, index: int) -> dict[str, Any]:
    out = _result(h.finding, index)
    kind = "inSource" if h.by == "inline" else "external"
    out["suppressions"] = [
        {"kind": kind, "status": "accepted", "justification": f"{h.by}: {h.detail}"}
    ]
    return out


def as_dict(report: Report) -> dict[str, Any]:
    """The SARIF log as a plain dict (what :func:`render` serialises)."""
    seen: dict[str, tuple[str, str]] = {}
    for f in [*report.findings, *(h.finding for h in report.suppressed)]:
        seen.setdefault(f.code, (f.name, LEVELS[f.severity.label]))
    codes = sorted(seen)
    index = {code: i for i, code in enumerate(codes)}
    rules = [_rule_descriptor(report.rule_docs.get(code), code, *seen[code]) for code in codes]
    driver: dict[str, Any] = {
        "name": "benchaudit",
        "version": __version__,
        "semanticVersion": __version__,
        "rules": rules,
    }
    summary = report.summary()
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [{"executionSuccessful": True}],
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index[f.code]) for f in report.findings]
        + [_suppressed_result(h, index[h.finding.code]) for h in report.suppressed],
        "properties": {
            "grade": report.grade,
            "summary": summary,
            "suppressed": report.suppressed_counts(),
            "config": report.config,
        },
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(report: Report) -> str:
    text = json.dumps(as_dict(report), indent=2, ensure_ascii=False, allow_nan=False)
    return json_text(text) + "\n"
