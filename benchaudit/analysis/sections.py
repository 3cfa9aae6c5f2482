"""The analyses of a run: the only producers of the report's ``results``.

The engine calls :func:`analyse` once, after reading and joining and before any
rule runs, so ``results`` is the same whatever rules are selected or ignored.
Each evidence class that has an analysis maps to it in :data:`ANALYSES`; an
analysis is imported only when data of its class was read (a README imports
none of them, nor numpy).

Besides one analysis per source there are two across sources: several
lm-evaluation-harness results files of one model family given together make
scaling curves (:func:`benchaudit.inputs.scaling.from_harness`), analysed as a
scaling CSV is; models judged against the same baseline (AlpacaEval annotations of
two models) are compared with each other, paired by instruction
(:mod:`benchaudit.analysis.preference_pairs`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from benchaudit.errors import InputError

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.evidence import Source

    #: Rows of one section of ``results``: a list of dicts, or columns that join as a list does.
    from benchaudit.finding import Section as Rows

#: An analysis: (source, run context) -> section name -> rows.
Analysis = Callable[["Source", "RunContext"], "dict[str, Rows]"]

#: Evidence class ("module:Class") -> its analysis ("module:function" taking (data, ctx)).
#: The evidence class is looked up only when its module was imported (by the reader that
#: made such data); the analysis module is imported only when such data was read.
ANALYSES: dict[str, str] = {
    "benchaudit.inputs.resultset:ResultSet": "benchaudit.analysis.results:report_results",
    "benchaudit.inputs.samples:SamplesData": "benchaudit.analysis.passk:report_results",
    "benchaudit.inputs.battles:BattleSet": "benchaudit.analysis.battles:report_results",
    "benchaudit.inputs.judgments:JudgmentSet": "benchaudit.analysis.agreement:report_results",
    "benchaudit.inputs.leaderboard:Leaderboard": "benchaudit.analysis.leaderboards:report_results",
    "benchaudit.inputs.scaling:ScalingData": "benchaudit.analysis.scaling:report_results",
    "benchaudit.inputs.calibration:CalibrationData": (
        "benchaudit.analysis.calibration:report_results"
    ),
}


@dataclass
class Analysed:
    """What the analyses of a run gave the engine."""

    #: The sources still in the run (one whose analysis found it unreadable is dropped).
    sources: list[Source]
    #: (section, rows) in the order they were made; the engine joins them into ``results``.
    sections: list[tuple[str, Rows]] = field(default_factory=list)
    #: Inputs found unreadable only when analysed (exit code 2, like a reading error).
    errors: list[InputError] = field(default_factory=list)


def source_results(source: Source, ctx: RunContext) -> dict[str, Rows]:
    """The analysis of one source, chosen by the class of its data (:data:`ANALYSES`); data
    of another class is analysed by its own ``report_results`` if it has one (graded
    per-item results, a rule pack's reader); documents and item files have none."""
    data = source.data
    if data is None:
        return {}
    for evidence, analysis in ANALYSES.items():
        module, _, name = evidence.partition(":")
        loaded = sys.modules.get(module)
        cls = getattr(loaded, name, None) if loaded is not None else None
        if isinstance(cls, type) and isinstance(data, cls):
            where, _, function = analysis.partition(":")
            got: dict[str, Rows] = getattr(importlib.import_module(where), function)(data, ctx)
            return got
    own = getattr(data, "report_results", None)
    if callable(own):
        sections: dict[str, Rows] = own(ctx)
        return sections
    return {}


def analyse(sources: list[Source], ctx: RunContext) -> Analysed:
    """Every analysis of the run, once per source, whatever rules will run."""
    out = Analysed(sources=[])
    for source in sources:
        try:
            got = source_results(source, ctx)
        except InputError as exc:  # found only when the data is analysed
            out.errors.append(exc)
            continue
        out.sources.append(source)
        out.sections.extend(got.items())
    judged = [s.data for s in out.sources if s.kind == "judgments"]
    if sum(len(set(getattr(d, "models", []))) for d in judged) > 1:
        from benchaudit.analysis.preference_pairs import preference_pairs

        pairs = preference_pairs(judged, ctx)
        if pairs:
            out.sections.append(("preference_comparisons", pairs))
    if any(s.kind == "harness-summary" for s in out.sources):
        from benchaudit.analysis import scaling
        from benchaudit.inputs.scaling import from_harness

        for curves in from_harness(out.sources):
            out.sections.extend(scaling.report_results(curves, ctx).items())
    return out


__all__ = ["ANALYSES", "Analysed", "analyse", "source_results"]
