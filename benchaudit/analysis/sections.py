"""The analyses of a run: the only producers of the report's ``results``.

The engine calls :func:`analyse` once, after reading and joining and before any
rule runs, so ``results`` is the same whatever rules are selected or ignored.
Each source kind that has an analysis maps to it in :data:`ANALYSES`; the
per-kind analyses are imported only when a source of that kind was read (a
README imports none of them, nor numpy).

Besides one analysis per source there is one across sources: several
lm-evaluation-harness results files of one model family given together make
scaling curves (:func:`benchaudit.inputs.scaling.from_harness`), analysed as a
scaling CSV is.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.evidence import Source

#: Rows of one section of ``results``: a list of dicts, or columns that join as a list does.
Rows = Any
#: An analysis: (source, run context) -> section name -> rows.
Analysis = Callable[["Source", "RunContext"], dict[str, Rows]]

#: Source kind -> "module:function" of its analysis, imported on first use.
ANALYSES: dict[str, str] = {
    "results": "benchaudit.analysis.sections:per_item",
    "scaled-results": "benchaudit.analysis.sections:data_results",
    "samples": "benchaudit.analysis.sections:data_results",
    "battles": "benchaudit.analysis.sections:data_results",
    "judgments": "benchaudit.analysis.sections:data_results",
    "leaderboard": "benchaudit.analysis.sections:data_results",
    "scaling": "benchaudit.analysis.sections:data_results",
    "calibration": "benchaudit.analysis.sections:data_results",
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


def analysis_of(kind: str) -> Analysis:
    """The analysis of a source kind (a kind not listed: its data object's own, if any)."""
    target = ANALYSES.get(kind, "benchaudit.analysis.sections:data_results")
    module, _, name = target.partition(":")
    function: Analysis = getattr(importlib.import_module(module), name)
    return function


def analyse(sources: list[Source], ctx: RunContext) -> Analysed:
    """Every analysis of the run, once per source, whatever rules will run."""
    out = Analysed(sources=[])
    for source in sources:
        try:
            got = analysis_of(source.kind)(source, ctx)
        except InputError as exc:  # found only when the data is analysed
            out.errors.append(exc)
            continue
        out.sources.append(source)
        out.sections.extend(got.items())
    if any(s.kind == "harness-summary" for s in out.sources):
        from benchaudit.inputs.scaling import from_harness

        for curves in from_harness(out.sources):
            out.sections.extend(curves.report_results(ctx).items())
    return out


def per_item(source: Source, ctx: RunContext) -> dict[str, Rows]:
    """Per-model intervals, paired comparisons, the baseline table and the setup row of
    per-item results (:func:`benchaudit.analysis.results.report_results`)."""
    from benchaudit.inputs.resultset import ResultSet

    if not isinstance(source.data, ResultSet):
        return data_results(source, ctx)
    from benchaudit.analysis.results import report_results

    sections: dict[str, Rows] = report_results(source.data, ctx)
    return sections


def data_results(source: Source, ctx: RunContext) -> dict[str, Rows]:
    """The analysis a data object of the kind carries (``report_results``): per-model
    intervals and comparisons of per-item results, Bradley-Terry ratings of battles,
    agreement of judgments, the top group of a leaderboard, transition widths of
    scaling curves, calibration and pass@k estimates."""
    report_results = getattr(source.data, "report_results", None)
    if not callable(report_results):
        return {}
    sections: dict[str, Rows] = report_results(ctx)
    return sections


__all__ = ["ANALYSES", "Analysed", "analyse", "analysis_of"]
