"""Sampling protocols stated in text: how many samples a score averages per item.

"averaged over 64 samples", "avg@64", "mean of 8 runs", "64 responses per
query" → ``averaged`` with ``samples``; "greedy", "single pass",
"temperature 0", "maj@64" / "cons@64" (one voted answer per item) →
``single``; "pass@k" with k > 1 → ``pass@k`` (not a count over items).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchaudit.inputs import numbers as nums

#: A count written as a digit or, in prose, as a word ("the mean of four sampled runs").
_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "twenty": 20,
}
_COUNT = r"(\d+|" + "|".join(_WORDS) + r")"


def _count(token: str) -> int:
    return int(token) if token.isdigit() else _WORDS[token.lower()]


_SAMPLES_PATTERNS = [
    re.compile(r"\b(?:avg|mean|average)@(\d+)", re.I),
    re.compile(
        r"\b(?:averaged|average|mean|avg\.?)\s+(?:(?:score|accuracy|acc\.?|performance|result)\s+)?"
        r"(?:over|across|of)\s+" + _COUNT + r"\s+"
        rf"(?:[a-z\-]+\s+){{0,2}}?(?:{nums.SAMPLE_NOUNS})\b",
        re.I,
    ),
    re.compile(
        rf"\b(\d+)\s+(?:[a-z\-]+\s+)?(?:{nums.SAMPLE_NOUNS})\s+(?:per|for each|each)\s+"
        r"(?:problem|question|item|prompt|task|instance|example|query|input)",
        re.I,
    ),
    re.compile(rf"\b(\d+)\s+(?:{nums.SAMPLE_NOUNS})\b[^.;]*?\baverag", re.I),
    # "avg of 64)", "64-sample average", "sampled 16 times", "pass@1 over 16 runs"
    re.compile(r"\b(?:avg|average|mean)\.?\s+(?:of|over)\s+(\d+)(?=\s*[),;]|\s*$)", re.I),
    re.compile(r"\b(\d+)[- ]samples?\s+(?:average|mean)", re.I),
    re.compile(r"\bsampled\s+(\d+)\s+times\b", re.I),
    re.compile(
        rf"\bpass@1\b[^.;]{{0,30}}?\b(?:over|across|from|with)\s+(\d+)\s+(?:{nums.SAMPLE_NOUNS})\b",
        re.I,
    ),
]
_VOTE = re.compile(r"\b(?:maj|cons|majority|vote)@(\d+)|\bmajority vot", re.I)
PASS_K = re.compile(r"\bpass@(\d+)", re.I)
_SINGLE = re.compile(
    r"\bgreedy\b|\bsingle[- ](?:pass|run|sample|attempt|generation|shot attempt)\b"
    r"|\bone (?:sample|pass|attempt|run|generation)\b|\btemperature\s*(?:=|of)?\s*0(?:\.0+)?(?![.\d])",
    re.I,
)


#: Words without which no protocol pattern can match (a cheap first test).
_PROTOCOL_HINT = re.compile(
    r"@|averag|\bavg|\bmean|\bper\b|\beach\b|majority|greedy|single|\bone\b|temperature|sampl",
    re.I,
)


@dataclass
class Protocol:
    """A sampling protocol stated at ``position`` of a text."""

    position: int
    protocol: str  # "single", "averaged", "pass@k"
    samples: int | None = None
    metric: str = ""


def protocols_in(text: str) -> list[Protocol]:
    """Sampling protocols stated in a text: averaged over s samples, single pass, pass@k."""
    out: list[Protocol] = []
    if not _PROTOCOL_HINT.search(text):
        return out
    for pattern in _SAMPLES_PATTERNS:
        for m in pattern.finditer(text):
            s = _count(m.group(1))
            if s >= 1:
                out.append(Protocol(m.start(), "averaged", s, m.group(0)))
    for m in _VOTE.finditer(text):
        out.append(Protocol(m.start(), "single", 1, m.group(0)))
    for m in PASS_K.finditer(text):
        if int(m.group(1)) > 1:
            out.append(Protocol(m.start(), "pass@k", None, m.group(0)))
    for m in _SINGLE.finditer(text):
        out.append(Protocol(m.start(), "single", 1, m.group(0)))
    out.sort(key=lambda p: p.position)
    return out
