"""Inline suppressions and baselines.

Inline: ``<!-- benchaudit: ignore[unreachable-score] reason -->`` (or the same
after ``#`` or ``//``) suppresses the named rules on the line it sits on, or,
when the comment stands alone on its line, on the next non-blank line.
Baseline: a JSON file of fingerprints of accepted findings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from benchaudit.errors import InputError
from benchaudit.evidence import Source
from benchaudit.finding import Finding

COMMENT = re.compile(r"benchaudit:\s*ignore\[([^\]]*)\]\s*([^>\n]*?)\s*(?:-->|\*/)?\s*$")
_ONLY_COMMENT = re.compile(r"^\s*(?:<!--|#|//|/\*)\s*benchaudit:")


def inline_suppressions(lines: list[str]) -> dict[int, set[str]]:
    """Map of 1-based line -> rule names/codes suppressed there."""
    out: dict[int, set[str]] = {}
    for i, line in enumerate(lines):
        m = COMMENT.search(line)
        if not m:
            continue
        names = {n.strip() for n in m.group(1).split(",") if n.strip()}
        target = i + 1
        if _ONLY_COMMENT.match(line):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            target = j + 1
        out.setdefault(target, set()).update(names)
    return out


def apply_inline(findings: Iterable[Finding], sources: list[Source]) -> list[Finding]:
    table = {s.path: inline_suppressions(s.lines) for s in sources if s.lines}
    kept = []
    for f in findings:
        names = table.get(f.location.file, {}).get(f.location.line or -1, set())
        if f.name in names or f.code in names or "*" in names:
            continue
        kept.append(f)
    return kept


def write_baseline(findings: Iterable[Finding], path: str) -> None:
    data = {
        "tool": "benchaudit",
        "fingerprints": sorted({f.fingerprint for f in findings}),
    }
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, sort_keys=True)
        fh.write("\n")


def read_baseline(path: str) -> set[str]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise InputError(path, "baseline file not found") from None
    except (OSError, ValueError) as exc:
        raise InputError(path, f"not a baseline file: {str(exc).splitlines()[0]}") from None
    prints = data.get("fingerprints") if isinstance(data, dict) else None
    if not isinstance(prints, list):
        raise InputError(path, "not a baseline file: no 'fingerprints' list")
    return {str(p) for p in prints}


def apply_baseline(findings: list[Finding], path: str) -> list[Finding]:
    accepted = read_baseline(path)
    return [f for f in findings if f.fingerprint not in accepted]
