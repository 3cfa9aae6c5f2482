"""Findings, their two axes (severity and confidence), locations, and grading.

Severity says how bad the problem is if the rule read the claim right;
confidence says how sure the rule is that it did. They are separate axes, as in
bandit: a low-confidence parse of a bad number is still an error-shaped problem,
but the CLI can filter or grade it differently.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from benchaudit.plain import SUPPRESSED_BY
from benchaudit.plain import jsonable as _jsonable

try:  # the digest without hashlib, whose first import (OpenSSL's) costs a tenth of a card check
    from _sha256 import sha256  # type: ignore[import-not-found]  # Python 3.11
except ImportError:  # pragma: no cover - 3.12 renamed it; builds without it have hashlib's
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import sha256

if TYPE_CHECKING:
    from typing import TypeAlias

    from benchaudit.analysis.pairs import PairTable
    from benchaudit.inputs._detection import SourceEntry

    #: One section of ``results``: rows as dicts, the pair table kept as columns
    #: (``comparisons``), or the detection entries of ``results.sources``.
    Section: TypeAlias = list[dict[str, Any]] | PairTable | list[SourceEntry]


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

    def sort_key(self) -> tuple[str, int, int, str, str]:
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
        f.fingerprint = sha256(
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
    by_claim: dict[tuple[str, int | None, str | None], list[Finding]] = {}
    for f in findings:
        by_claim.setdefault((f.location.file, f.location.line, f.claim), []).append(f)
    grade = "A"
    for group in by_claim.values():
        g = claim_grade(group)
        if GRADES.index(g) > GRADES.index(grade):
            grade = g
    return grade




@dataclass
class Suppressed:
    """A finding the run produced but does not report as open, and what hid it."""

    finding: Finding
    by: str  # a key of SUPPRESSED_BY
    detail: str = ""  # which comment, pattern, list entry or file

    def to_dict(self) -> dict[str, Any]:
        return {**self.finding.to_dict(), "suppressed_by": self.by, "suppression": self.detail}


@dataclass(frozen=True)
class RuleDoc:
    """What a writer prints of a rule that a finding names (the HTML page's rule notes, SARIF's
    rule descriptors): handed over in the report, so no writer looks rules up itself."""

    code: str
    name: str
    severity: Severity  # the rule's default
    summary: str
    documentation: str


@dataclass
class Report:
    """Everything one run produced: findings, counts, and per-item results."""

    findings: list[Finding] = field(default_factory=list)
    claims_checked: int = 0
    numbers_seen: int = 0
    results: dict[str, Section] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Coverage of the document side: scores read, scores with a known item count,
    #: and the benchmark names no item count was known for.
    scores_read: int = 0
    scores_with_n: int = 0
    unknown_benchmarks: list[str] = field(default_factory=list)
    #: False when nothing in the inputs could be checked (a document with no claim).
    assessed: bool = True
    #: Findings hidden by a suppression, listed beside the grade (which leaves them out).
    suppressed: list[Suppressed] = field(default_factory=list)
    #: The configuration file the run used, if any.
    config: str | None = None
    #: Text and Markdown print every pairwise comparison, not only the significant ones.
    all_pairs: bool = False
    #: The documentation of each rule a finding (open or suppressed) names, by code.
    rule_docs: dict[str, RuleDoc] = field(default_factory=dict)

    def suppressed_counts(self) -> dict[str, int]:
        out = {"total": len(self.suppressed)}
        for key in SUPPRESSED_BY:
            out[key] = sum(1 for s in self.suppressed if s.by == key)
        return out

    def suppression_line(self) -> str:
        """One line on what was suppressed, for every output format."""
        counts = self.suppressed_counts()
        if not counts["total"]:
            return "suppressed: 0 findings"
        parts = [f"{counts[k]} by {words}" for k, words in SUPPRESSED_BY.items() if counts[k]]
        return (
            f"suppressed: {counts['total']} finding(s) ({', '.join(parts)}); "
            f"grade {self.grade_unsuppressed} with them"
        )

    @property
    def grade_unsuppressed(self) -> str:
        """The grade the report would have if no suppression applied."""
        every = self.findings + [s.finding for s in self.suppressed]
        if not every and not self.assessed:
            return "N"
        return overall_grade(every)
    #: Inputs that could not be read (:class:`benchaudit.errors.InputError`); the
    #: other inputs were still audited. The command exits 2 when there is any.
    errors: list[Exception] = field(default_factory=list)

    @property
    def input_errors(self) -> list[str]:
        """One line per input that could not be read: ``file[:line]: reason``."""
        return [str(e) for e in self.errors]

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
            "suppressed": len(self.suppressed),
        }

    # --- the Python API's views; each imports its writer only when called ---------------

    def render(self, fmt: str) -> str:
        """The report in one of the command's formats (text, json, markdown, html, sarif, github)."""
        from benchaudit.render import render

        return render(self, fmt)

    def to_json(self) -> str:
        """The JSON object of ``--format json``, byte for byte."""
        return self.render("json")

    def to_dict(self) -> dict[str, Any]:
        """The JSON object as Python values."""
        from benchaudit.render.json import as_dict

        return as_dict(self)

    def to_markdown(self) -> str:
        """The Markdown of ``--format markdown`` (a pull-request comment)."""
        return self.render("markdown")

    def to_html(self) -> str:
        """The self-contained HTML page of ``--format html``."""
        return self.render("html")

    def to_text(self) -> str:
        """The plain text the command prints, without colour."""
        from benchaudit.render.text import render

        return render(self, color=False)

    def to_pandas(self, section: str | None = None) -> Any:
        """DataFrames: ``{"findings": ..., "models": ..., "comparisons": ..., ...}``, or
        the one named by ``section``. Scores and differences are proportions."""
        from benchaudit.notebook import frames

        return frames(self, section)

    def _repr_html_(self) -> str:
        from benchaudit.notebook import repr_html

        return repr_html(self)

    def __repr__(self) -> str:
        s = self.summary()
        return (
            f"<Report grade {self.grade}: {s['errors']} error(s), {s['warnings']} warning(s), "
            f"{s['infos']} info; {len(self.files)} input(s), {len(self.errors)} unreadable>"
        )

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

