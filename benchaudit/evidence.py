"""Evidence: what readers make of an input and what rules read.

A :class:`Source` is one input file after reading. Its ``kind`` says which
rules can read it; text-like sources carry :class:`Claim` objects, data-like
sources carry a kind-specific object in ``data`` (a per-item result set, a
battle set, ...). Nothing here knows any rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from benchaudit.finding import Confidence, Location
from benchaudit.memo import Memo

T = TypeVar("T")

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
    """What is claimed: ``score``, ``comparison``, ``change``, ``pass-at-k`` ... (the rules
    that read claims name the kinds they check)."""
    text: str
    """The sentence or table cell as written, quoted in findings."""
    location: Location
    """File, line and column of the claim."""
    confidence: Confidence = Confidence.HIGH
    """How sure the reading is; a low-confidence reading gives information, not an error."""
    value: str | None = None
    """The number as written (``"87.3"``), its precision kept."""
    unit: str | None = None
    """``"%"``, ``"points"`` ... or None for a bare number."""
    benchmark: str | None = None
    """The benchmark named with the number (registry spelling), if any."""
    n: int | None = None
    """The item count the number rests on, if known."""
    n_source: str | None = None
    """Where ``n`` came from: ``sentence``, ``paragraph``, ``registry``, ``n-samples``."""
    samples: int | None = None
    """Samples per item behind the number (pass@k, majority voting), if stated."""
    protocol: str | None = None
    """The stated evaluation protocol (``5-shot``, ``maj@32`` ...), if any."""
    interval: tuple[str, str] | None = None
    """A stated interval (low, high), as written."""
    plus_minus: str | None = None
    """A stated ``±`` half-width, as written."""
    model: str | None = None
    """The model the number is about, if named."""
    fields: dict[str, Any] = field(default_factory=dict)
    """Kind-specific details read by the rules of that kind (comparison sides, p-values,
    tables); being replaced by typed claims."""

    @property
    def line(self) -> int | None:
        return self.location.line


if TYPE_CHECKING:
    from benchaudit.contamination.evidence import ContaminationHits
    from benchaudit.documents.model import Document
    from benchaudit.inputs._detection import SourceEntry
    from benchaudit.inputs._scaled import ScaledResults
    from benchaudit.inputs.battles import BattleSet
    from benchaudit.inputs.calibration import CalibrationData
    from benchaudit.inputs.judgments import JudgmentSet
    from benchaudit.inputs.leaderboard import Leaderboard
    from benchaudit.inputs.lmeval_results import HarnessSummary
    from benchaudit.inputs.resultset import ResultSet
    from benchaudit.inputs.samples import PassAtKSummary, SamplesData
    from benchaudit.inputs.scaling import ScalingData

#: What ``Source.data`` holds, by kind: the contract between readers and rules.
#:
#: ============== ===================================================================
#: kind           data
#: ============== ===================================================================
#: document       :class:`~benchaudit.documents.model.Document` (None for plain text)
#: results        :class:`~benchaudit.inputs.resultset.ResultSet` (one row per model x item)
#: scaled-results :class:`~benchaudit.inputs._scaled.ScaledResults` (graded 1-10, 0-100 ...)
#: harness-summary :class:`~benchaudit.inputs.lmeval_results.HarnessSummary`
#: leaderboard    :class:`~benchaudit.inputs.leaderboard.Leaderboard`
#: battles        :class:`~benchaudit.inputs.battles.BattleSet`
#: judgments      :class:`~benchaudit.inputs.judgments.JudgmentSet`
#: scaling        :class:`~benchaudit.inputs.scaling.ScalingData`
#: samples        :class:`~benchaudit.inputs.samples.SamplesData` or ``PassAtKSummary``
#: calibration    :class:`~benchaudit.inputs.calibration.CalibrationData`
#: benchmark-items None (the item count is ``meta["items"]``)
#: contamination  :class:`~benchaudit.contamination.evidence.ContaminationHits` (no input
#:                file: the engine's scan of the configured corpus)
#: ============== ===================================================================
SourceData: TypeAlias = (
    "Document | ResultSet | ScaledResults | HarnessSummary | Leaderboard | BattleSet"
    " | JudgmentSet | ScalingData | SamplesData | PassAtKSummary | CalibrationData"
    " | ContaminationHits | None"
)

if TYPE_CHECKING:  # a default, so that ``Source`` alone means ``Source[Any]``
    from typing_extensions import TypeVar as _TypeVar

    #: The type of ``Source.data``: ``Source[BattleSet]``; ``Source`` alone is any kind.
    D = _TypeVar("D", bound=SourceData, covariant=True, default=Any)
else:
    D = TypeVar("D", covariant=True)


@dataclass
class Source(Generic[D]):
    """One input, read: what a reader returns and what analyses and rules read.

    A reader that knows the kind of data it made says so in its return type
    (``Source[BattleSet]``); rules that read several kinds narrow ``data`` with
    ``isinstance``. See :data:`SourceData` for the data of each kind.
    """

    path: str
    """The input as the report names it (the path given, or found by a walk)."""
    kind: str
    """Which rules and analyses read it: one of :data:`KINDS` (readers may add kinds)."""
    claims: list[Claim] = field(default_factory=list)
    """The checkable statements read from a document or a table (empty for data files)."""
    numbers_seen: int = 0
    """How many numbers a document reader looked at (the report's coverage line)."""
    data: D = None  # type: ignore[assignment]  # kinds without data keep None
    """The kind's data object (:data:`SourceData`); None for plain text and item files."""
    lines: list[str] | None = None
    """The text lines of a text-like input, for locations and inline suppressions."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Descriptive facts about the input for rules and the report: ``format``, ``task``,
    ``metric``, ``tables``, ``unknown_benchmarks``, ``items`` ... Read, never a channel
    between rules or between a rule and the engine."""
    notes: list[str] = field(default_factory=list)
    """What the reader has to say about the file (columns left out, cells missing); the
    engine puts them in the report's notes in the order the files were read."""
    detection: SourceEntry | None = None
    """How a per-item input was detected (``results.sources`` of the JSON report)."""
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)
    """Derived views computed once per run (:meth:`cached`); never evidence of its own."""

    def cached(self, key: str, compute: Callable[[], T]) -> T:
        """Compute a view of this source once per run and share it between rules."""
        return self.memo.get(key, compute)
