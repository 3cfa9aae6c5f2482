"""BA406 calibration-bins: ECE without its bin count, or compared across binnings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.options import Option
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Bin counts seen in the literature, tried when a stated ECE names none.
COMMON_BINS = (5, 10, 15, 20, 50, 100)


class CalibrationBins(Rule):
    """An ECE stated without its bin count, compared across binnings, or not matching the data.

    **What.** For a calibration file (per-item confidence and correctness) the
    rule reports the ECE with its binning (10 equal-width bins unless
    ``bins`` / ``binning`` say otherwise), the MCE, the Brier score and, with
    logits, the fitted temperature (info). A stated ECE in the configuration
    (``[tool.benchaudit.rules.calibration-bins] ece = 0.05``, with ``bins`` if
    the source says) is recomputed: without a bin count it is a warning that
    lists which binnings reproduce it; with one, a mismatch is a warning. In a
    document, several ECE values with different or unstated bin counts are a
    warning.

    **Why.** ECE depends on the binning: too few bins hide miscalibration,
    too many leave bins empty and noisy, and equal-mass bins give other values
    than equal-width ones. Two ECEs are comparable only at the same binning,
    and a reader cannot reproduce one whose bin count is not given.

    Bad::

        | Model | ECE |
        |---|---|
        | Ours | 2.1 |
        | Baseline (reported) | 4.8 |

    Better::

        | Model | ECE (15 equal-width bins) |
        |---|---|
        | Ours | 2.1 |
        | Baseline, recomputed with 15 bins | 4.8 |

    **Assumptions.** Equal-width bins are right-closed, ((m-1)/M, m/M], as in
    Guo et al. (2017); confidence is the top-label probability. A stated value
    matches when within ``tolerance`` (default 5e-4).
    """

    code = "BA406"
    name = "calibration-bins"
    option_types = {
        "bins": Option("int", 1, 10**4),
        "binning": Option("str", choices=("equal-width", "equal-mass")),
        "ece": Option("number", 0, 100),
        "tolerance": Option("number", 0, 1),
    }
    severity = Severity.WARNING

    def on_calibration(self, source: Source, ctx: Context) -> Iterable[Finding]:
        from benchaudit.inputs.calibration import binning_options
        from benchaudit.stats.calibration import ece

        data = source.data
        n_bins, binning = binning_options(self.options)
        s = data.summary(n_bins, binning)
        where = Location(source.path, None)
        ev: dict[str, Any] = {
            "ece": s.ece,
            "bins": s.bins,
            "binning": s.binning,
            "mce": s.mce,
            "brier": s.brier,
            "accuracy": s.accuracy,
            "n_items": s.n_items,
            "mean_confidence": s.mean_confidence,
            "temperature": s.temperature,
        }
        wording = f"ECE = {s.ece:.4f} ({s.bins} {s.binning} bins, n = {s.n_items})"
        temp = (
            f"; temperature scaling (T = {s.temperature:.3g}) brings it to "
            f"{s.ece_after_temperature:.4f}"
            if s.temperature is not None
            else ""
        )
        yield self.finding(
            where,
            f"{wording}, MCE {s.mce:.4f}, Brier {s.brier:.4f}, accuracy "
            f"{s.accuracy:.4f} at mean confidence {s.mean_confidence:.4f}{temp}",
            severity=Severity.INFO,
            claim=wording,
            suggestion=f"Report {wording}.",
            evidence=ev,
        )
        stated = self.options.get("ece")
        if stated is None:
            return
        stated = float(stated)
        stated = stated / 100 if stated > 1 else stated
        tol = float(self.options.get("tolerance", 5e-4))
        matches = [
            f"{m} {b}"
            for b in ("equal-width", "equal-mass")
            for m in COMMON_BINS
            if abs(ece(data.confidence, data.correct, m, b) - stated) <= tol
        ]
        ev.update(stated_ece=stated, binnings_matching=matches)
        if "bins" not in self.options:
            yield self.finding(
                where,
                f"stated ECE {stated:.4f} gives no bin count; "
                + (
                    f"it matches {', '.join(matches)} bins"
                    if matches
                    else "no common binning (5-100 bins, equal-width or equal-mass) reproduces it"
                )
                + f"; with 10 equal-width bins it is {ece(data.confidence, data.correct):.4f}",
                claim=f"ECE {stated}",
                evidence=ev,
                suggestion=f"Report ECE = {ece(data.confidence, data.correct):.4f} (10 equal-width "
                f"bins, n = {s.n_items}) and name the bin count with every ECE.",
            )
        elif abs(stated - s.ece) > tol:
            yield self.finding(
                where,
                f"stated ECE {stated:.4f} does not match the data: {s.ece:.4f} with "
                f"{s.bins} {s.binning} bins"
                + (f" (the stated value matches {', '.join(matches)} bins)" if matches else ""),
                claim=f"ECE {stated}",
                evidence=ev,
                suggestion=f"Report {wording}.",
            )

    def on_results(self, source: Source, ctx: Context) -> Iterable[Finding]:
        """Per-item results of several models with a confidence column: ECE per model (info).

        The rows themselves go to ``results.calibration`` from the per-item analysis,
        whatever rules are selected; the self words them.
        """
        if getattr(source.data, "confidence", None) is None:
            return  # no confidence column (nor numpy to import for it)
        from benchaudit.analysis.results import calibration_rows

        for row in calibration_rows(source.data, self.options):
            model = row["model"]
            wording = (
                f"ECE = {row['ece']:.4f} ({row['bins']} {row['binning']} bins, n = {row['n_items']})"
            )
            ev = {k: v for k, v in row.items() if k not in ("file", "mean_confidence")}
            yield self.finding(
                Location(source.path, None),
                f"{model}: {wording}, MCE {row['mce']:.4f}, Brier "
                f"{row['brier']:.4f}, accuracy {row['accuracy']:.4f} at mean confidence "
                f"{row['mean_confidence']:.4f}",
                severity=Severity.INFO,
                claim=f"{model} {wording}",
                suggestion=f"Report {model}: {wording}.",
                evidence=ev,
            )

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        lines = source.lines or []
        # Every ECE the reader finds is written "ECE" (in any case): a document that never
        # writes it does not need the calibration reader imported.
        if not any("ece" in line.lower() for line in lines):
            return
        from benchaudit.inputs.calibration import ece_mentions

        eces = ece_mentions(lines)
        if not eces:
            return
        stated = {(b, bn or "equal-width") for _, _, _, b, bn in eces if b is not None}
        unstated = [e for e in eces if e[3] is None]
        if len(eces) == 1:
            ln, text, value, _, _ = eces[0]
            if unstated:
                yield self.finding(
                    Location(source.path, ln),
                    "ECE stated without its bin count",
                    severity=Severity.INFO,
                    claim=text,
                    suggestion=f"ECE {value:g} (M equal-width bins): name M.",
                    evidence={"ece": value},
                    confidence=Confidence.MEDIUM,
                )
            return
        if unstated:
            for ln, text, value, _, _ in unstated:
                yield self.finding(
                    Location(source.path, ln),
                    f"ECE {value:g} is compared with {len(eces) - 1} other ECE value(s) but names no "
                    "bin count: ECEs at different binnings are not comparable",
                    claim=text,
                    confidence=Confidence.MEDIUM,
                    evidence={
                        "ece": value,
                        "eces_in_document": len(eces),
                        "binnings_stated": sorted(f"{b} {bn}" for b, bn in stated),
                    },
                    suggestion=f"State the binning beside every ECE, e.g. 'ECE {value:g} (15 "
                    "equal-width bins)', and recompute the others at the same binning.",
                )
        if len(stated) > 1:
            first = eces[0] if eces[0][3] is not None else next(e for e in eces if e[3] is not None)
            ref = (first[3], first[4] or "equal-width")
            for ln, text, value, b, bn in eces:
                if b is not None and (b, bn or "equal-width") != ref:
                    yield self.finding(
                        Location(source.path, ln),
                        f"ECE {value:g} uses {b} {bn or 'equal-width'} bins but is compared with an "
                        f"ECE at {ref[0]} {ref[1]} bins (line {first[0]})",
                        claim=text,
                        confidence=Confidence.MEDIUM,
                        evidence={"ece": value, "bins": b, "reference_bins": ref[0]},
                        suggestion=f"Recompute ECE {value:g} with {ref[0]} {ref[1]} bins before "
                        "comparing, or report both at each binning.",
                    )
