"""What the rules reading document claims share: the claims of one kind, a
score read as points, the unpaired analysis of two scores and the finding
made from a claim (its severity lowered for a low-confidence parse).

The claims come from :mod:`benchaudit.inputs.comparisons`. Standard library
only: this runs when checking a README.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from benchaudit.rules._wording import severity_for

from benchaudit.finding import Confidence, Finding, Severity

if TYPE_CHECKING:
    from benchaudit.evidence import Claim, Source
    from benchaudit.rulebase import Rule


def claims(source: Source, *kinds: str) -> Iterator[Claim]:
    """The source's claims of the given kinds, in document order."""
    for c in source.claims:
        if c.kind in kinds:
            yield c


def points(value: str, other: str | None = None) -> float:
    """A score as points (0-100): ``"0.73"`` reads as 73 when both values are proportions."""
    v = float(value)
    if v <= 1 and (other is None or float(other) <= 1) and "." in value:
        return v * 100
    return v


#: A citation in the sentence ("[12]", "[Xu et al. 2024]", "(Xu et al., 2024)"): the
#: comparison reports another paper's result, whose evidence is that paper.
CITATION = re.compile(
    r"\bet al\b|\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]|\([A-Z][^()]{0,60}\b(?:19|20)\d\d[a-z]?\s*\)"
)


def unpaired(a: float, b: float, n: int, confidence: float = 0.95) -> dict[str, float]:
    """The unpaired analysis of a - b (in points) with n items per model."""
    from benchaudit.stats.paired import unpaired_diff

    diff, lo, hi, z, p = unpaired_diff(a / 100, n, b / 100, n, confidence)
    return {"diff": diff * 100, "lo": lo * 100, "hi": hi * 100, "z": z, "p": p, "n": n}


def emit(
    rule: Rule,
    claim: Claim,
    message: str,
    *,
    suggestion: str,
    evidence: dict[str, Any],
    severity: Severity | None = None,
    confidence: Confidence | None = None,
) -> Finding:
    """The rule's finding on ``claim``, at info when the claim's parse is unsure."""
    conf = confidence if confidence is not None else claim.confidence
    sev = severity_for(conf, severity if severity is not None else rule.severity)
    return rule.finding(
        claim.location,
        message,
        claim=claim,
        suggestion=suggestion,
        evidence=evidence,
        severity=sev,
        confidence=conf,
    )


def mean_halfwidth(iv: dict[str, str]) -> tuple[float, float]:
    """(centre, half-width) of a parsed ``lo–hi`` or ``value ± pm`` interval."""
    if "pm" in iv:
        return float(iv["value"]), float(iv["pm"])
    lo, hi = float(iv["lo"]), float(iv["hi"])
    return (lo + hi) / 2, (hi - lo) / 2
