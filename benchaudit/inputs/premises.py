"""How sure each premise of a score claim is, and the severity that allows.

A reachability or precision check on prose rests on four premises: the item
count ``n``, the sampling protocol for the score's scope, the metric being a
per-item 0/1 score, and the number being a score of the document's own model.
A finding is an error only when every premise is certain; any inferred
premise caps it at a warning; an unknown protocol on a number that is not the
document's own (a baseline copied from another report), or an item count that
is a guess between a subset and the whole benchmark, caps it at info.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from benchaudit.finding import Confidence, Severity

if TYPE_CHECKING:
    from benchaudit.benchmarks import Registry
    from benchaudit.evidence import Claim


PROTOCOL_UNSTATED = "the sampling protocol is not stated for this score"


class Certainty(Enum):
    CERTAIN = "certain"
    INFERRED = "inferred"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Premises:
    """How certain each premise of a claim is, and why."""

    n: Certainty
    protocol: Certainty
    metric: Certainty
    own: Certainty  # CERTAIN: the document's own model; INFERRED: unknown; UNKNOWN: a baseline
    reasons: tuple[str, ...] = ()

    def cap(self) -> Severity:
        """The highest severity these premises allow."""
        if self.protocol is Certainty.UNKNOWN and self.own is not Certainty.CERTAIN:
            return Severity.INFO
        if self.n is Certainty.UNKNOWN:
            return Severity.INFO  # which set the number is on is a guess
        if all(p is Certainty.CERTAIN for p in (self.n, self.protocol, self.metric, self.own)):
            return Severity.ERROR
        return Severity.WARNING

    def why(self) -> str:
        """The uncertain premises in words, for a message."""
        return "; ".join(self.reasons)


def capped(severity: Severity, cap: Severity) -> Severity:
    return min(severity, cap)


def premises_of(claim: Claim, registry: Registry | None = None) -> Premises:
    reasons: list[str] = []
    f = claim.fields
    if claim.n_source in ("text", "configuration"):
        n = Certainty.CERTAIN
    elif claim.n_source == "registry":
        n = Certainty.CERTAIN
        bench = registry.get(claim.benchmark) if registry and claim.benchmark else None
        splits = getattr(bench, "splits", None) or {}
        if bench is not None and bench.headline_is_subset:
            n = Certainty.UNKNOWN
            reasons.append(
                f"{claim.benchmark} is reported both on its {bench.n:,}-item subset and on the "
                "whole benchmark, and the text does not say which"
            )
        elif len(splits) > 1 and not (bench is not None and bench.variant):  # "miniF2F-test" names its split
            n = Certainty.INFERRED
            reasons.append(f"{claim.benchmark} has several splits and the text does not say which")
    else:
        n = Certainty.INFERRED
        if claim.n_source == "document":
            reasons.append("the item count is the one test-set size the document states, elsewhere")
    scope = f.get("protocol_scope")
    if claim.protocol is not None and scope in ("sentence", "column", "table", "section"):
        protocol = Certainty.CERTAIN
    elif claim.protocol is not None:
        protocol = Certainty.INFERRED
    else:
        protocol = Certainty.UNKNOWN
        reasons.append(PROTOCOL_UNSTATED)
    bench = registry.get(claim.benchmark) if registry and claim.benchmark else None
    kind = getattr(bench, "metric", "binary") if bench is not None else None
    if kind == "binary":
        metric = Certainty.CERTAIN
    elif kind is None:
        metric = Certainty.INFERRED
        if claim.n_source == "text":
            reasons.append("the metric is assumed to be a per-item 0/1 score")
    else:
        metric = Certainty.UNKNOWN
    role = f.get("role")
    own = {"own": Certainty.CERTAIN, "baseline": Certainty.UNKNOWN}.get(str(role), Certainty.INFERRED)
    if role == "baseline":
        reasons.append("the row is a baseline reported elsewhere")
    if claim.confidence is Confidence.LOW:
        n = Certainty.INFERRED if n is Certainty.CERTAIN else n
    return Premises(n, protocol, metric, own, tuple(reasons))


# ---------------------------------------------------------------- roles

_OURS = re.compile(r"\b(?:our|ours|we)\b|\(ours\)|\bthis (?:model|work)\b", re.I)
_REPORTED = re.compile(r"\breported\b|\bfrom (?:the|their) (?:paper|report)|\bcopied\b|\bofficial\b", re.I)
_BASELINE_MARKS = ("†", "‡", "§")


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def own_names(title: str) -> list[str]:
    """Model names a document's title gives ("Qwen2.5-Coder: ..." → ``qwen25coder``)."""
    head = re.split(r"[:|—–(]| - ", title, maxsplit=1)[0]
    folded = _fold(head)
    return [folded] if len(folded) >= 3 else []


def role_of_row(label: str, own: list[str]) -> str:
    """``own``, ``baseline`` or ``unknown`` for a table row labelled ``label``."""
    folded = _fold(label)
    if _OURS.search(label) or (len(folded) >= 4 and any(o in folded or folded in o for o in own)):
        return "own"
    if any(m in label for m in _BASELINE_MARKS) or _REPORTED.search(label):
        return "baseline"
    return "unknown"


_SUBJECT = re.compile(
    r"\b(?:it|the model)\s+(?:also\s+)?(?:scores?|reach(?:es)?|achieves?|gets?|solves?|attains?|obtains?)\b",
    re.I,
)


def role_of_sentence(text: str, own: list[str]) -> str:
    """``own`` unless the sentence names a model other than the document's own."""
    from benchaudit.claims.model_claims import model_names

    folded = _fold(text)
    if _OURS.search(text) or _SUBJECT.search(text) or any(o and o in folded for o in own):
        return "own"
    others = [n for n in model_names(text) if not any(o in _fold(n.text) for o in own)]
    return "unknown" if others else "own"
