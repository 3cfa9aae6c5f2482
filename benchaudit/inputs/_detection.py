"""How a per-item input was read, as evidence for the report, and the probe's margin rule.

Detection scores every reader on the head of a file (:func:`benchaudit.inputs.detect`).
This module holds what comes out of that for the report: a :class:`Detection` per
per-item source (which column took which role, the value types and scale seen, the
kind chosen and why, the reader used), written to the JSON report under
``results.sources``; and :func:`check_margin`, the rule that two readings of
different kinds whose scores are within :data:`MARGIN` of each other are not
chosen between silently. Standard library only.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError

if TYPE_CHECKING:
    from benchaudit.evidence import Source
    from benchaudit.inputs import Probe, Reader

#: Two readings of different kinds whose sniff scores differ by less than this are both
#: plausible: the file is refused with both named. Sniff scores sit on a coarse grid
#: (0.3 a weak fit, 0.5-0.6 a partial one, 0.8-0.97 a strong one); every real fixture's
#: best reading leads the next one of another kind by 0.6 or more, and a scaling curve
#: leads its own leaderboard reading by 0.05 (the curve holds the leaderboard).
MARGIN = 0.05
#: A reading scoring below this is not plausible enough to compete (0.2 is the
#: benchmark-items reader's "a file of items, if nothing else reads it").
PLAUSIBLE = 0.25

#: Source kinds that hold per-item results, the ones that get a detection entry.
PER_ITEM_KINDS = ("results", "scaled-results", "samples", "judgments", "calibration")


@dataclass(frozen=True)
class Reading:
    """One reader's score on a file's head."""

    kind: str
    reader: str
    score: float


def scored_readings(candidates: list[tuple[float, Reader]]) -> list[Reading]:
    """The best reading of each kind, best first (ties in reader order)."""
    best: dict[str, Reading] = {}
    for score, r in candidates:
        if score > 0 and (r.kind not in best or score > best[r.kind].score):
            best[r.kind] = Reading(r.kind, reader_name(r), round(float(score), 4))
    return sorted(best.values(), key=lambda x: -x.score)


def reader_name(r: Reader) -> str:
    """The module a reader lives in (``tabular``, ``helm``, ...), or its description."""
    module = getattr(r.read, "__module__", "") or ""
    return module.rsplit(".", 1)[-1] or r.description


def check_margin(readings: list[Reading], display: str) -> None:
    """Refuse a file whose two best readings of different kinds are both plausible and
    within :data:`MARGIN`: name both and the ``--kind`` flag that chooses."""
    if len(readings) < 2:
        return
    first, second = readings[0], readings[1]
    if second.score < PLAUSIBLE or round(first.score - second.score, 6) >= MARGIN:
        return
    raise InputError(
        display,
        f"two readings are plausible: {describe(first)} or {describe(second)} "
        f"(detection scores {first.score:.2f} and {second.score:.2f}); choose with "
        f"--kind {first.kind} or --kind {second.kind}",
    )


def describe(r: Reading) -> str:
    words = {
        "results": "per-item results",
        "scaled-results": "per-item ratings",
        "samples": "pass@k samples",
        "leaderboard": "a leaderboard",
        "battles": "pairwise battles",
        "judgments": "judge labels",
        "scaling": "a scaling curve",
        "calibration": "calibration data",
        "harness-summary": "a harness summary",
    }
    return f"{words.get(r.kind, r.kind)} ({r.reader} reader)"


@dataclass
class Detection:
    """Why a per-item input was read the way it was.

    ``roles`` maps a role (model, item, score, cluster, seed, sample, ...) to the column
    or field that took it; ``value_types`` maps those columns to what their values look
    like (``0/1``, ``0-1 graded``, ``1-10``, ``text`` ...); ``scale`` is the score scale
    decided on the whole file; ``left_out`` names columns not read as models, with the
    reason; ``readings`` holds every kind's best detection score on the file's head;
    ``reason`` says in words why this kind was chosen.
    """

    kind: str
    reader: str
    reason: str
    forced: bool = False
    named_columns: dict[str, str] = field(default_factory=dict)
    layout: str | None = None
    roles: dict[str, str] = field(default_factory=dict)
    value_types: dict[str, str] = field(default_factory=dict)
    scale: str | None = None
    left_out: dict[str, str] = field(default_factory=dict)
    missing_cells: int = 0
    readings: list[Reading] = field(default_factory=list)


@dataclass
class SourceEntry:
    """A per-item source's entry in the JSON report (``results.sources``)."""

    file: str
    kind: str
    detection: Detection

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def reason(readings: list[Reading], chosen: Reader, forced: str | None) -> str:
    """Why ``chosen`` read the file, in words."""
    name = reader_name(chosen)
    if forced:
        return f"--kind {forced}: read by the {name} reader"
    others = [r for r in readings if r.kind != chosen.kind]
    mine = next((r.score for r in readings if r.kind == chosen.kind), None)
    text = f"best detection score ({mine:.2f})" if mine is not None else "best detection score"
    if others:
        text += f"; next reading: {describe(others[0])} at {others[0].score:.2f}"
    else:
        text += "; no reading of another kind"
    return text


def entries(
    sources: list[Source], p: Probe, chosen: Reader, forced: str | None
) -> list[tuple[Source, SourceEntry]]:
    """A :class:`SourceEntry` for each per-item source read from one file."""
    readings = list(getattr(p, "readings", None) or [])
    out = []
    for s in sources:
        if s.kind not in PER_ITEM_KINDS:
            continue
        det = Detection(
            kind=s.kind,
            reader=reader_name(chosen),
            reason=reason(readings, chosen, forced),
            forced=bool(forced),
            named_columns=dict(p.columns),
            readings=readings,
        )
        _fill(det, s)
        out.append((s, SourceEntry(file=s.path, kind=s.kind, detection=det)))
    return out


def _fill(det: Detection, s: Source) -> None:
    """Roles, value types, scale and layout from what the reader kept."""
    data, meta = s.data, s.meta
    cols = getattr(data, "columns", None) or meta.get("columns") or {}
    det.roles = {str(k): str(v) for k, v in dict(cols).items()}
    data_meta = getattr(data, "meta", None) or {}
    det.layout = meta.get("layout") or getattr(data, "layout", None)
    det.value_types = {
        str(k): str(v) for k, v in (meta.get("value_types") or {}).items() if v is not None
    }
    det.left_out = {str(k): str(v) for k, v in (meta.get("left_out") or {}).items()}
    det.missing_cells = int(meta.get("missing_cells") or data_meta.get("missing_cells") or 0)
    det.scale = meta.get("scale") or data_meta.get("scale") or _scale_of(data)
    score_col = det.roles.get("score")
    if score_col and score_col not in det.value_types and det.scale:
        det.value_types[score_col] = det.scale


def _scale_of(data: Any) -> str | None:
    """The scale of a reader's scores when it kept none (harness readers): from the values."""
    from benchaudit.inputs._columns import scale_of
    from benchaudit.inputs.resultset import GridResults

    if isinstance(data, GridResults):
        return "0/1"  # built only from 0/1 scores; its per-row scores are not reloaded here
    score = getattr(data, "score", None)
    if score is None:
        c = getattr(data, "c", None)
        return "pass counts" if c is not None else None
    try:
        import numpy as np

        uniq = np.unique(np.asarray(score, dtype=np.float64))
        uniq = uniq[np.isfinite(uniq)]
    except (TypeError, ValueError):
        return None
    return scale_of([float(x) for x in uniq]) if uniq.size else None
