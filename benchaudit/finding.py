"""Findings, their two axes (severity and confidence), locations, and grading.

Severity says how bad the problem is if the rule read the claim right;
confidence says how sure the rule is that it did. They are separate axes, as in
bandit: a low-confidence parse of a bad number is still an error-shaped problem,
but the CLI can filter or grade it differently.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class Severity(IntEnum):
    """How bad a finding is. Ordered so that ``max()`` gives the worst."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (use error, warning or info)") from None


class Confidence(IntEnum):
    """How sure a rule is that it read the claim (or the file) correctly."""

    LOW = 1
    MEDIUM = 2
    HIGH = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Confidence:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown confidence {text!r} (use high, medium or low)") from None


@dataclass(frozen=True, order=True)
class Location:
    """Where a claim sits. ``line`` is 1-based and counts from the start of the
    document (for a PDF too; ``page`` is then given as well)."""

    file: str
    line: int | None = None
    column: int | None = None
    page: int | None = None

    def __str__(self) -> str:
        """``paper.pdf:p4:12:31`` (page, line, column), ``README.md:12:31`` without a page."""
        parts = [self.file]
        if self.page is not None:
            parts.append(f"p{self.page}")
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


@dataclass
class Finding:
    """One problem with one claim (or one result file)."""

    code: str
    name: str
    severity: Severity
    confidence: Confidence
    location: Location
    message: str
    claim: str | None = None
    suggestion: str | None = None
    evidence: dict[str, Any] = field(default_factory=dict)
    fingerprint: str = ""

    def sort_key(self) -> tuple:
        loc = self.location
        return (loc.file, loc.line or 0, loc.column or 0, self.code, self.message)

    def content_key(self) -> str:
        """What identifies a finding regardless of where the claim moved to."""
        claim = " ".join((self.claim or "").split())
        return "\x1f".join((self.name, self.location.file, claim, self.message))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.code,
            "name": self.name,
            "severity": self.severity.label,
            "confidence": self.confidence.label,
            "file": self.location.file,
            "line": self.location.line,
            "column": self.location.column,
            "claim": self.claim,
            "message": self.message,
            "suggestion": self.suggestion,
            "evidence": _jsonable(self.evidence),
            "fingerprint": self.fingerprint,
        }
        if self.location.page is not None:
            out["page"] = self.location.page
        return out


def assign_fingerprints(findings: Iterable[Finding]) -> None:
    """Give each finding a stable id from its content, not its line number.

    Identical findings in one file (the same claim twice) are told apart by
    their order of appearance, which survives lines being inserted above them.
    """
    seen: dict[str, int] = {}
    for f in findings:
        key = f.content_key()
        nth = seen.get(key, 0)
        seen[key] = nth + 1
        f.fingerprint = hashlib.sha256(
            f"{key}\x1f{nth}".encode("utf-8", "surrogateescape")  # file names may hold any byte
        ).hexdigest()[:16]


GRADES = "ABCDF"


def claim_grade(findings: Iterable[Finding]) -> str:
    """Grade one claim from its worst finding.

    A: no finding. B: information only. C: a warning the rule is unsure of
    (low confidence). D: a warning. F: an error. More or worse findings can
    only move the grade towards F.
    """
    grade = "A"
    for f in findings:
        if f.severity is Severity.ERROR:
            g = "F"
        elif f.severity is Severity.WARNING:
            g = "C" if f.confidence is Confidence.LOW else "D"
        else:
            g = "B"
        if GRADES.index(g) > GRADES.index(grade):
            grade = g
    return grade


def overall_grade(findings: list[Finding]) -> str:
    """The report's grade is the worst grade of any claim it covers."""
    by_claim: dict[tuple, list[Finding]] = {}
    for f in findings:
        by_claim.setdefault((f.location.file, f.location.line, f.claim), []).append(f)
    grade = "A"
    for group in by_claim.values():
        g = claim_grade(group)
        if GRADES.index(g) > GRADES.index(grade):
            grade = g
    return grade


@dataclass
class Report:
    """Everything one run produced: findings, counts, and per-item results."""

    findings: list[Finding] = field(default_factory=list)
    claims_checked: int = 0
    numbers_seen: int = 0
    results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Coverage of the document side: scores read, scores with a known item count,
    #: and the benchmark names no item count was known for.
    scores_read: int = 0
    scores_with_n: int = 0
    unknown_benchmarks: list[str] = field(default_factory=list)
    #: False when nothing in the inputs could be checked (a document with no claim).
    assessed: bool = True

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    @property
    def grade(self) -> str:
        """A–F from the worst claim; N ("not assessed") when nothing could be checked."""
        if not self.findings and not self.assessed:
            return "N"
        return overall_grade(self.findings)

    def worst(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)

    def summary(self) -> dict[str, int]:
        return {
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
            "claims_checked": self.claims_checked,
            "numbers_seen": self.numbers_seen,
            "scores_read": self.scores_read,
            "scores_with_n": self.scores_with_n,
            "unknown_benchmarks": len(self.unknown_benchmarks),
        }

    def coverage(self) -> str:
        """One line on what the document side could read, for every output format."""
        text = (
            f"coverage: {self.numbers_seen} number(s) seen, {self.scores_read} read as scores, "
            f"{self.scores_with_n} with a known item count"
        )
        if self.unknown_benchmarks:
            names = ", ".join(self.unknown_benchmarks[:8])
            more = f" and {len(self.unknown_benchmarks) - 8} more" if len(self.unknown_benchmarks) > 8 else ""
            text += f"; no item count known for: {names}{more}"
        return text


def _jsonable(value: Any) -> Any:
    """Turn numpy scalars, tuples and sets into plain JSON types, recursively."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return value
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    item = getattr(value, "item", None)  # numpy scalar without importing numpy
    if callable(item):
        return _jsonable(item())
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return _jsonable(tolist())
    return json.loads(json.dumps(value, default=str))
