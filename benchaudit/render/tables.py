"""Result sections as plain (title, header, rows) tables shared by text and markdown.

A section renders with the columns listed in ``COLUMNS``; sections not listed
render with the keys of their first row, so a new analysis shows up in every
format without touching the writers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from benchaudit.finding import Report


COLUMNS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "models": (
        "Per-model scores (95% intervals)",
        [
            ("file", "file"),
            ("task", "task"),
            ("model", "model"),
            ("n_items", "items"),
            ("score", "score"),
            ("ci_low", "low"),
            ("ci_high", "high"),
            ("ci_method", "method"),
            ("rank", "rank"),
            ("rank_low", "best rank"),
            ("rank_high", "worst rank"),
            ("tie_group", "group"),
        ],
    ),
    "comparisons": (
        "Paired comparisons",
        [
            ("task", "task"),
            ("a", "a"),
            ("b", "b"),
            ("diff", "diff (points)"),
            ("ci_low", "low"),
            ("ci_high", "high"),
            ("p_value", "p"),
            ("p_adjusted", "p (Holm)"),
            ("test", "test"),
        ],
    ),
    "baseline": (
        "Reporting table (Δ vs the baseline model in points, paired 95% interval)",
        [
            ("file", "file"),
            ("task", "task"),
            ("model", "model"),
            ("accuracy", "score % (95% CI)"),
            ("delta_points", "Δ points (95% CI)"),
            ("p_value", "p"),
            ("test", "test"),
        ],
    ),
    "setup": ("Setup", [("file", "file"), ("task", "task"), ("line", "setup")]),
    "runs": (
        "Runs joined by item (one model per output, paired on shared items)",
        [
            ("task", "task"),
            ("joined", "models"),
            ("items", "items"),
            ("items_in_every_run", "in every run"),
            ("unmatched", "items not in every run"),
        ],
    ),
    "contamination": (
        "Contamination (items by criterion; Llama 2 coverage subsets overlap)",
        [
            ("benchmark", "benchmark"),
            ("items", "items"),
            ("contaminated", "contaminated"),
            ("dirty_ngram", "n-gram"),
            ("containment_70", "8-gram >=70%"),
            ("near_duplicates", "near-dup"),
            ("clean", "clean"),
            ("not_clean", "not clean"),
            ("not_dirty", "not dirty"),
            ("dirty", "dirty"),
            ("documents", "documents"),
        ],
    ),
    "contamination_scores": (
        "Score on clean vs contaminated items (bootstrap 95% interval, Llama 2 Z)",
        [
            ("model", "model"),
            ("n_clean", "clean n"),
            ("n_dirty", "contam. n"),
            ("score_clean", "clean"),
            ("score_dirty", "contam."),
            ("diff", "diff"),
            ("ci_low", "low"),
            ("ci_high", "high"),
            ("z_clean", "Z clean"),
            ("z_dirty", "Z contam."),
        ],
    ),
    "ratings": (
        "Bradley–Terry ratings (Elo scale, 95% bootstrap intervals)",
        [
            ("file", "file"),
            ("model", "model"),
            ("rating", "rating"),
            ("ci_low", "low"),
            ("ci_high", "high"),
            ("rank_low", "best rank"),
            ("rank_high", "worst rank"),
            ("battles", "battles"),
            ("ci_method", "method"),
        ],
    ),
    "leaderboard": (
        "Leaderboard rank ranges (95% intervals as published)",
        [
            ("file", "file"),
            ("model", "model"),
            ("score", "score"),
            ("ci_low", "low"),
            ("ci_high", "high"),
            ("rank", "rank"),
            ("rank_low", "best rank"),
            ("rank_high", "worst rank"),
        ],
    ),
    "preferences": (
        "Judge preferences against the baseline (win rate, 95% interval)",
        [
            ("model", "model"),
            ("items", "items"),
            ("win_rate", "win rate"),
            ("se", "SE"),
            ("low", "low"),
            ("high", "high"),
            ("baseline", "baseline"),
        ],
    ),
    "preference_comparisons": (
        "Models judged against the same baseline, paired by instruction (Δ win rate in points)",
        [
            ("baseline", "baseline"),
            ("a", "a"),
            ("b", "b"),
            ("items", "items"),
            ("only_a", "only a"),
            ("only_b", "only b"),
            ("win_rate_a", "win rate a"),
            ("win_rate_b", "win rate b"),
            ("diff", "Δ points"),
            ("ci_low", "low"),
            ("ci_high", "high"),
            ("a_better", "a ahead"),
            ("b_better", "b ahead"),
            ("p_value", "p"),
            ("p_adjusted", "p (Holm)"),
            ("test", "test"),
        ],
    ),
    "passk": (
        "pass@k (unbiased estimator, 95% interval over problems; plug-in for comparison)",
        [
            ("file", "file"),
            ("k", "k"),
            ("estimate", "pass@k"),
            ("ci_low", "low"),
            ("ci_high", "high"),
            ("plugin", "plug-in"),
            ("plugin_gap", "plug-in - unbiased"),
            ("pass_hat_k", "pass^k"),
            ("n_problems", "problems"),
            ("samples_per_problem", "samples (min)"),
            ("samples_max", "samples (max)"),
        ],
    ),
    "calibration": (
        "Calibration (ECE with its binning)",
        [
            ("file", "file"),
            ("model", "model"),
            ("n_items", "items"),
            ("accuracy", "accuracy"),
            ("mean_confidence", "mean conf."),
            ("ece", "ECE"),
            ("bins", "bins"),
            ("binning", "binning"),
            ("mce", "MCE"),
            ("brier", "Brier"),
            ("temperature", "T"),
            ("ece_after_temperature", "ECE at T"),
        ],
    ),
    "reliability": (
        "Reliability table",
        [
            ("file", "file"),
            ("bin", "bin"),
            ("lo", "from"),
            ("hi", "to"),
            ("count", "items"),
            ("confidence", "confidence"),
            ("accuracy", "accuracy"),
            ("gap", "acc. - conf."),
        ],
    ),
    "scaling": (
        "Scaling curves (transition width: decades from 10% to 90% of the range)",
        [
            ("family", "family"),
            ("task", "task"),
            ("metric", "metric"),
            ("kind", "kind"),
            ("n_scales", "sizes"),
            ("first", "smallest"),
            ("last", "largest"),
            ("transition_width", "width (decades)"),
            ("sparse", "sparse"),
            ("note", "note"),
        ],
    ),
}

#: Sections whose scores and bounds are not proportions (ratings, published scores).
NOT_PROPORTIONS = {"ratings", "leaderboard", "elo_order", "passk"}

_PERCENT = {"score", "ci_low", "ci_high", "diff", "win_rate", "win_rate_a", "win_rate_b"}

#: Bounds named plainly that are proportions only in these sections ("low" and "high" of
#: rating means are on the rating's own scale).
_PERCENT_IN = {"preferences": {"se", "low", "high"}}

#: Differences of proportions and their bounds.
_POINTS = {"diff", "ci_low", "ci_high"}

#: Sections whose ``diff`` and its bounds are differences of proportions, shown in
#: signed points (+3.00) like the reporting table, not as a percentage.
IN_POINTS = {"comparisons", "preference_comparisons"}


def fmt(key: str, value: Any, percent: bool = True, points: bool = False, section: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if points and key in _POINTS:
            return f"{100 * value:+.2f}"
        if percent and (key in _PERCENT or key in _PERCENT_IN.get(section, ())):
            return f"{100 * value:.2f}%"
        if key.startswith("p_") or key == "p":
            return f"{value:.3g}"
        return f"{value:.4g}"
    return str(value)


#: Pair tables up to this many rows are printed whole; above it only the significant
#: pairs (the full table with ``--all-pairs``, and always in JSON).
FULL_PAIRS = 45

#: Significant pairs printed before the rest are only counted.
MAX_SIGNIFICANT = 200


def is_rows(rows: Any) -> TypeGuard[Sequence[dict[str, Any]]]:
    """A section of row dicts: a list, or the column-stored pair table."""
    return (
        isinstance(rows, Sequence)
        and not isinstance(rows, str)
        and len(rows) > 0
        and isinstance(rows[0], dict)
    )


def result_tables(
    report: Report, all_pairs: bool | None = None
) -> list[tuple[str, list[str], list[list[str]]]]:
    """The sections as tables; pair tables above ``FULL_PAIRS`` rows keep their
    significant pairs unless ``all_pairs`` (default: the report's ``all_pairs``)."""
    if all_pairs is None:
        all_pairs = bool(getattr(report, "all_pairs", False))
    out = []
    for section, rows in report.results.items():
        if not is_rows(rows):
            continue
        title, cols = COLUMNS.get(
            section, (section.replace("_", " ").capitalize(), [(k, k) for k in rows[0]])
        )
        if section == "comparisons" and not all_pairs and len(rows) > FULL_PAIRS:
            title, rows = _significant(report, rows)
        cols = [(k, h) for k, h in cols if any(k in r for r in rows)]
        if len({r.get("file") for r in rows}) <= 1:
            cols = [(k, h) for k, h in cols if k != "file"]
        header = [h for _, h in cols]
        pct = section not in NOT_PROPORTIONS
        pts = section in IN_POINTS
        body = [[fmt(k, r.get(k), pct, pts, section) for k, _ in cols] for r in rows]
        out.append((title, header, body))
    return out


def _significant(report: Report, rows: Any) -> tuple[str, list[dict[str, Any]]]:
    """The pairs whose Holm-adjusted p is below alpha (the first MAX_SIGNIFICANT)."""
    setup = report.results.get("setup")
    first = setup[0] if is_rows(setup) else {}
    alpha = round(1 - float(first.get("confidence", 0.95)), 12)
    column = getattr(rows, "column", None)
    if callable(column):
        import numpy as np

        where = np.flatnonzero(column("p_adjusted").astype(float) < alpha)
        n, shown = int(where.size), rows.rows(where[:MAX_SIGNIFICANT])
    else:
        every = [r for r in rows if r.get("p_adjusted") is not None and r["p_adjusted"] < alpha]
        n, shown = len(every), every[:MAX_SIGNIFICANT]
    title = (
        f"Significant pairs (Holm-adjusted p < {alpha:g}): {n:,} of {len(rows):,} pairs"
        + (f", the first {len(shown):,} shown" if n > len(shown) else "")
        + "; --all-pairs prints every pair"
    )
    return title, shown
