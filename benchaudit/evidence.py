"""Evidence: what readers make of an input and what rules read.

A :class:`Source` is one input file after reading. Its ``kind`` says which
rules can read it; text-like sources carry :class:`Claim` objects, data-like
sources carry a kind-specific object in ``data`` (a per-item result set, a
battle set, ...). Nothing here knows any rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from benchaudit.finding import Confidence, Location

#: Source kinds known to the engine. Readers may add more; rules name the kinds
#: they read in ``Rule.reads``.
KINDS = (
    "document",  # prose, markdown, HTML, PDF: claims and score tables
    "results",  # per-item results (one row per model x item)
    "harness-summary",  # aggregate harness output (lm-eval results_*.json)
    "leaderboard",  # a table of models with scores (and maybe intervals)
    "battles",  # pairwise votes: model_a, model_b, winner
    "judgments",  # judge-vs-human labels, or judgments in both orders
    "scaling",  # metric values across model sizes
    "samples",  # pass@k style (problem, sample, passed) files
    "calibration",  # per-item confidence and correctness
)


@dataclass
class Claim:
    """One checkable statement found in a document or a table cell.

    Numbers are kept as the strings the author wrote, so that trailing zeros
    (``70.0`` vs ``70``) keep the precision they claim.
    """

    kind: str
    text: str
    location: Location
    confidence: Confidence = Confidence.HIGH
    value: str | None = None
    unit: str | None = None
    benchmark: str | None = None
    n: int | None = None
    n_source: str | None = None
    samples: int | None = None
    protocol: str | None = None
    interval: tuple[str, str] | None = None
    plus_minus: str | None = None
    model: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def line(self) -> int | None:
        return self.location.line


@dataclass
class Source:
    """One input, read."""

    path: str
    kind: str
    claims: list[Claim] = field(default_factory=list)
    numbers_seen: int = 0
    data: Any = None
    lines: list[str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def cached(self, key: str, compute):
        """Compute an analysis once per source and share it between rules."""
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]
