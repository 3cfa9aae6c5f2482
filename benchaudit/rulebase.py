"""The rule-writing kit: the :class:`Rule` base class and what its hooks return.

Rule modules import this and nothing of the registry, so the registry can
import every rule module (discovery) without an import cycle;
:mod:`benchaudit.registry` re-exports these names for rule packs written
against it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.options import Option

__all__ = ["Note", "Option", "Output", "Rows", "Rule", "hook"]

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source
    from benchaudit.finding import Section


def hook(kind: str) -> str:
    """The method a rule defines to read sources of ``kind``: ``on_document``,
    ``on_harness_summary`` (for ``harness-summary``)."""
    return "on_" + kind.replace("-", "_")


@dataclass(frozen=True)
class Note:
    """A sentence for the report's notes (what a rule could not check), returned
    beside the findings; the engine collects it."""

    text: str


@dataclass(frozen=True)
class Rows:
    """Rows for a section of the report's ``results`` from a scan a rule runs itself
    (contamination reads a corpus no source holds), returned beside its findings."""

    section: str
    rows: Section


#: What a rule's hooks return: findings, and notes (and rows) for the run. A rule that audits the
#: suppressions themselves answers after they are applied (:class:`benchaudit.suppress.SuppressionAudit`).
Output = Finding | Note | Rows


class Rule:
    """Base class of every rule.

    A subclass sets ``code`` (``BA101``), ``name`` (``unreachable-score``),
    ``severity`` (its default) and a docstring whose first line is the summary;
    the rest of the docstring is what ``benchaudit explain`` prints.

    Its logic is in methods named for the evidence they read, one per source
    kind: ``on_document(source, ctx)``, ``on_results``, ``on_leaderboard``,
    ``on_battles``, ``on_judgments``, ``on_scaling``, ``on_samples``,
    ``on_calibration``, ``on_harness_summary`` (see :data:`benchaudit.evidence.KINDS`).
    :meth:`check` calls the one for the source's kind; ``reads`` (the kinds) is
    derived from them unless the class sets it. Evidence that spans the sources
    of a run (two runs of one configuration, a summary and its samples, harness
    files that together make a scaling curve) is read by ``on_run(sources, ctx)``;
    such a rule sets ``reads``. A hook returns findings and, when it must say
    what it could not check, :class:`Note` values; it never writes to ``ctx`` or
    to a source. Modules that only some hooks need (numpy for per-item files)
    are imported inside those hooks, so a markdown run never pays for them.
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    reads: ClassVar[tuple[str, ...]] = ()
    #: Options the rule reads from ``[tool.benchaudit.rules.<name>]``, name ->
    #: :class:`benchaudit.options.Option`; the configuration refuses any other.
    #: ``None`` (a rule pack that declares nothing) accepts any.
    option_types: ClassVar[dict[str, Any] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "branches" in vars(cls):  # the old dispatch table would be ignored without a word
            raise TypeError(
                f"{cls.__name__}: 'branches' is no longer read; define on_<kind>(self, source, ctx) "
                "methods (on_document, on_results, ...) instead"
            )
        if "reads" not in vars(cls):
            from benchaudit.evidence import KINDS

            cls.reads = (
                tuple(k for k in KINDS if callable(getattr(cls, hook(k), None))) or cls.reads
            )

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = options or {}

    @classmethod
    def summary(cls) -> str:
        doc = inspect.getdoc(cls) or ""
        return doc.strip().splitlines()[0] if doc.strip() else ""

    @classmethod
    def documentation(cls) -> str:
        return inspect.getdoc(cls) or ""

    def check(self, source: Source, ctx: Context) -> Iterable[Output]:
        """What the rule makes of one source: its ``on_<kind>`` hook, if it has one."""
        method: Callable[[Source, Context], Iterable[Output]] | None = getattr(
            self, hook(source.kind), None
        )
        return method(source, ctx) if method is not None else ()

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Output]:
        """Evidence that spans the sources of a run; nothing unless a rule reads it."""
        return ()

    def check_run(self, sources: list[Source], ctx: Context) -> Iterator[Output]:
        """Everything the rule makes of a run: :meth:`on_run`, then each source read."""
        yield from self.on_run(sources, ctx)
        for source in sources:
            if source.kind in self.reads:
                yield from self.check(source, ctx)

    def finding(
        self,
        location: Location,
        message: str,
        *,
        claim: str | Claim | None = None,
        suggestion: str | None = None,
        evidence: dict[str, Any] | None = None,
        severity: Severity | None = None,
        confidence: Confidence = Confidence.HIGH,
    ) -> Finding:
        """Build a finding for this rule; ``claim`` may be a Claim or its text."""
        text = claim if claim is None or isinstance(claim, str) else claim.text
        return Finding(
            code=self.code,
            name=self.name,
            severity=severity if severity is not None else self.severity,
            confidence=confidence,
            location=location,
            message=message,
            claim=text,
            suggestion=suggestion,
            evidence=dict(evidence or {}),
        )
