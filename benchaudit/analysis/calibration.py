"""Analyses of calibration sets: ECE, MCE, Brier, temperature and the reliability table.

The confidences and correctness are read by :mod:`benchaudit.inputs.calibration`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from benchaudit.inputs.calibration import binning_options

if TYPE_CHECKING:
    from benchaudit.context import RunContext
    from benchaudit.inputs.calibration import CalibrationData


def report_results(data: CalibrationData, ctx: RunContext) -> dict[str, list[dict[str, Any]]]:
    """``results.calibration`` (one row per file) and ``results.reliability`` (per bin)."""
    from benchaudit.stats.calibration import reliability_table

    n_bins, binning = binning_options(ctx.config.rule_options("calibration-bins"))
    s = data.summary(n_bins, binning)
    row = {
        "file": data.path,
        "n_items": s.n_items,
        "accuracy": s.accuracy,
        "mean_confidence": s.mean_confidence,
        "ece": s.ece,
        "bins": s.bins,
        "binning": s.binning,
        "mce": s.mce,
        "brier": s.brier,
        "temperature": s.temperature,
        "ece_after_temperature": s.ece_after_temperature,
    }
    table = [
        {
            "file": data.path,
            "bin": b.index + 1,
            "lo": b.lo,
            "hi": b.hi,
            "count": b.count,
            "confidence": b.confidence,
            "accuracy": b.accuracy,
            "gap": b.gap,
        }
        for b in reliability_table(data.confidence, data.correct, n_bins, binning)
    ]
    return {"calibration": [row], "reliability": table}
