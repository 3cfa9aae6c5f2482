"""Contamination hits as evidence: what the contamination rule reads.

The scan that makes them is :func:`benchaudit.contamination.configured.configured_scan`
(the engine runs it); this module holds only the evidence type, so the rule
imports nothing of the scan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchaudit.contamination.audit import Outcome

#: The kind of the source that carries the hits (the contamination rule reads it).
KIND = "contamination"
#: The rule table whose options (``minhash``, ``max-docs``, ``workers``) configure the scan.
OPTIONS = "contamination"


@dataclass(frozen=True)
class ContaminationHits:
    """One finished scan of the configured corpus for the configured benchmark."""

    #: The merged statistics per item, the items read, the rows for ``results`` and the notes.
    outcome: Outcome
    #: The benchmark file as the configuration names it: where the findings point.
    display: str


__all__ = ["KIND", "OPTIONS", "ContaminationHits"]
