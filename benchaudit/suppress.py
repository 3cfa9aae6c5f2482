"""Inline suppressions and baselines.

Inline, in any text input::

    <!-- benchaudit: ignore[unreachable-score] averaged over 64 samples, see table 3 -->
    # benchaudit: ignore[BA301] the duplicated rows are the two prompt formats

``<!-- -->`` is the form for markdown and HTML, ``#`` for CSV, TSV and plain
text (``//`` is accepted too). Inside the brackets go rule names or codes,
comma-separated, or ``*`` for every rule. A comment that shares its line with
text suppresses findings on that line; a comment alone on its line suppresses
the next non-blank line. Nothing else: exactly one line.

The reason after the brackets is required. A comment without one suppresses
nothing and is reported by ``suppression-without-reason`` (BA901), so that the
finding it meant to hide stays visible until someone writes down why it does
not apply. A comment that suppressed nothing in a run where the rules it names
ran is reported by ``stale-suppression`` (BA902, info), as is a comment naming
a rule that does not exist.

``*`` and code prefixes naming a whole family (``BA2``) are broad: they are
honoured only with ``allow-broad-ignores = true`` in the configuration, and
otherwise reported by ``broad-suppression`` (BA903). Every finding a comment
hides is counted and listed in the report, so nothing is hidden silently.

Baseline: a JSON file of the fingerprints of accepted findings. Fingerprints
come from a finding's content (rule, file, claim, message), not its line, so
a baselined finding stays baselined when lines are inserted above it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from benchaudit import limits
from benchaudit.errors import InputError
from benchaudit.evidence import Source
from benchaudit.finding import Finding, Suppressed
from benchaudit.options import is_broad

if TYPE_CHECKING:
    from benchaudit.context import RunContext

COMMENT = re.compile(r"benchaudit:\s*ignore\[([^\]]*)\](.*)$")
_ONLY_COMMENT = re.compile(r"^\s*(?:<!--|#|//|/\*)\s*benchaudit:")
_CLOSER = re.compile(r"\s*(?:-->|\*/)\s*$")
#: HTML tags around a comment (``<span hidden>...</span>``) are no part of its reason.
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
#: A reason must say something: at least two letters.
_REASON = re.compile(r"[^\W\d_].*[^\W\d_]", re.S)

@dataclass
class Suppression:
    """One inline comment: where it is, which line it covers, what it names."""

    line: int
    column: int
    target: int
    names: tuple[str, ...]
    reason: str
    text: str
    used: set[str] = field(default_factory=set)

    @property
    def valid(self) -> bool:
        return bool(_REASON.search(self.reason))

    @property
    def broad(self) -> bool:
        """Whether it names ``*`` or a whole family rather than rules."""
        return any(is_broad(n) for n in self.names)

    def covers(self, f: Finding) -> bool:
        for n in self.names:
            k = n.lower()
            if n == "*" or k in (f.name.lower(), f.code.lower()):
                return True
            if is_broad(n) and f.code.lower().startswith(k):
                return True
        return False

    def describe(self) -> str:
        return f"comment on line {self.line}: {self.reason}"


_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_MARKDOWN = (".md", ".markdown", ".mdx", ".rst", ".txt")


def _code_lines(lines: list[str]) -> set[int]:
    """0-based lines inside markdown code blocks (fenced, or indented after a blank line).

    A suppression shown as an example in documentation is not a suppression.
    """
    out: set[int] = set()
    fence: str | None = None
    indented = False
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if fence is not None:
            out.add(i)
            if m and m.group(1) == fence:
                fence = None
            continue
        if m:
            fence = m.group(1)
            out.add(i)
            continue
        blank_before = i == 0 or not lines[i - 1].strip()
        if line.startswith(("    ", "\t")) and line.strip() and (indented or blank_before):
            indented = True
            out.add(i)
        elif line.strip():
            indented = False
    return out


def parse(lines: list[str], markdown: bool = False) -> list[Suppression]:
    """Every inline suppression comment in a file's lines (1-based lines).

    With ``markdown``, comments inside code blocks are examples and are skipped.
    """
    out: list[Suppression] = []
    code = _code_lines(lines) if markdown else set()
    for i, line in enumerate(lines):
        if "benchaudit:" not in line or i in code:
            continue
        m = COMMENT.search(line)
        if not m or (markdown and line[: m.start()].count("`") % 2 == 1):
            continue  # no comment, or one quoted in an inline code span
        names = tuple(n.strip() for n in m.group(1).split(",") if n.strip())
        reason = _CLOSER.sub("", _TAG.sub("", m.group(2))).strip().lstrip("-:\u2014 ").strip()
        target = i + 1
        if _ONLY_COMMENT.match(line):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            target = j + 1
        out.append(Suppression(i + 1, m.start() + 1, target, names, reason, line.strip()))
    return out


def inline_suppressions(lines: list[str]) -> dict[int, set[str]]:
    """Map of 1-based line -> rule names/codes validly suppressed there."""
    out: dict[int, set[str]] = {}
    for s in parse(lines):
        if s.valid:
            out.setdefault(s.target, set()).update(s.names)
    return out


def suppressions(source: Source) -> list[Suppression]:
    """The inline suppressions of one source, parsed once per run."""
    markdown = source.path.lower().endswith(_MARKDOWN)
    return source.cached("suppressions", lambda: parse(source.lines or [], markdown))


_parsed = suppressions


def honoured(sup: Suppression, allow_broad: bool) -> bool:
    return sup.valid and (allow_broad or not sup.broad)


def apply_inline(
    findings: Iterable[Finding],
    sources: list[Source],
    hidden: list[Suppressed] | None = None,
    allow_broad: bool = True,
) -> list[Finding]:
    """Drop findings covered by a valid inline comment (listing them in ``hidden``);
    mark each comment with the rules whose findings it hid (``Suppression.used``, what
    :class:`SuppressionAudit` rules read). Broad comments count only with ``allow_broad``."""
    by_file: dict[str, dict[int, list[Suppression]]] = {}
    for s in sources:
        if not s.lines:
            continue
        table = by_file.setdefault(s.path, {})
        for sup in _parsed(s):
            if honoured(sup, allow_broad):
                table.setdefault(sup.target, []).append(sup)
    kept = []
    for f in findings:
        by: Suppression | None = None
        for sup in by_file.get(f.location.file, {}).get(f.location.line or -1, []):
            if sup.covers(f):
                sup.used.add(f.name)
                by = by or sup
        if by is None:
            kept.append(f)
        elif hidden is not None:
            hidden.append(Suppressed(f, "inline", by.describe()))
    return kept


@runtime_checkable
class SuppressionAudit(Protocol):
    """A rule that judges the inline suppressions themselves (stale-suppression).

    Whether a comment suppressed anything is known only once every rule has run
    and :func:`apply_inline` has marked the comments it used, so the engine calls
    :meth:`audit_suppressions` of each running rule that has it after that, with
    the sources of the run; the findings it returns are reported like any other.
    """

    def audit_suppressions(self, sources: list[Source], ctx: RunContext) -> Iterable[Finding]: ...


def write_baseline(findings: Iterable[Finding], path: str) -> None:
    """Record findings as accepted: fingerprints, plus what they were for a reader."""
    items = sorted({f.fingerprint: f for f in findings}.values(), key=lambda f: (f.fingerprint,))
    data: dict[str, Any] = {
        "tool": "benchaudit",
        "version": 1,
        "fingerprints": [f.fingerprint for f in items],
        "findings": [
            {
                "fingerprint": f.fingerprint,
                "rule": f.code,
                "name": f.name,
                "file": f.location.file,
                "claim": f.claim,
                "message": f.message,
            }
            for f in items
        ],
    }
    import json  # here: a check that reads and writes no baseline never needs it

    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2, sort_keys=True, ensure_ascii=False)
            fh.write("\n")
    except OSError as exc:
        raise InputError(path, f"cannot write baseline: {exc.strerror or exc}") from None


def read_baseline(path: str, max_bytes: int = limits.DEFAULT.max_baseline_bytes) -> set[str]:
    """The fingerprints of a baseline file, read no further than ``max_bytes`` (a baseline
    named by a scanned repository may be ``/dev/zero``)."""
    from benchaudit import fs

    try:
        raw = fs.read_capped(path, path, max_bytes, "baseline file (max-baseline-bytes)")
    except InputError as exc:
        if exc.detail == "no such file":
            raise InputError(path, "baseline file not found") from None
        raise
    import json

    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError) as exc:
        raise InputError(path, f"not a baseline file: {str(exc).splitlines()[0]}") from None
    prints = data.get("fingerprints") if isinstance(data, dict) else None
    if not isinstance(prints, list):
        raise InputError(path, "not a baseline file: no 'fingerprints' list")
    return {str(p) for p in prints}


def apply_baseline(
    findings: list[Finding],
    path: str,
    hidden: list[Suppressed] | None = None,
    max_bytes: int = limits.DEFAULT.max_baseline_bytes,
) -> list[Finding]:
    accepted = read_baseline(path, max_bytes)
    if hidden is not None:
        hidden.extend(Suppressed(f, "baseline", path) for f in findings if f.fingerprint in accepted)
    return [f for f in findings if f.fingerprint not in accepted]
