"""The scale of a per-item score column, and results on a rating scale.

Scores are 0/1 verdicts, fractions of one (graded), points out of 100, or
ratings (1-10 from an LLM judge, a 1-5 Likert scale). The scale is read from
the values and the column's name:

* a verdict column (``correct``, ``passed``, ...) holds 0/1 or a fraction;
  any value outside 0-1 is an error naming its row;
* 0-1 values are proportions, as they are;
* values within 0-100 (or a ``pct`` / ``percent`` column) are points out of
  100: divided by 100 they are proportions, and a mean printed as a
  percentage is the file's own number;
* whole or half numbers within 0-5, 0-7 or 0-10 (or a ``rating`` column) are
  ratings (an LLM judge's 8.5 is still a rating): their means are reported on that scale with a bootstrap
  interval, never as a percentage, by :class:`ScaledResults`;
* anything else fits no bounded scale and is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs._columns import UNIT_SCORES, norm

if TYPE_CHECKING:  # numpy is imported by the functions that compute (a small 0/1 file needs none)
    import numpy as np

    from benchaudit.inputs.resultset import Coded, ResultSet

_PERCENT_NAMES = ("pct", "percent", "percentage", "score_100")
_RATING_NAMES = ("rating", "likert", "stars", "grade", "judge_score")


def _rating_name(name: str) -> bool:
    """``rating``, ``overall_rating``, ``likert_5``, ``judge_score``: a column named for a
    rating scale (a word of the name, so ``grader_score`` is not a ``grade``)."""
    words = name.replace(".", "_").split("_")
    return name == "judge_score" or any(
        w.startswith(p) and not w.startswith("grader") for w in words for p in _RATING_NAMES
    )


def _base(column: str | None) -> str:
    return norm(column or "score").split(".")[-1] if column else "score"


def plain_01(column: str | None) -> bool:
    """Whether 0/1 values in ``column`` are on the ``0/1`` scale (:func:`scale_name`), not
    ratings (a ``rating`` column of 0s and 1s is on a 0-5 scale)."""
    name = _base(column)
    return not any(p in name for p in _RATING_NAMES)


def scale_name(score: np.ndarray, column: str | None) -> str:
    """``0/1``, ``0-1 graded``, ``0-100``, ``0-10`` / ``1-10`` / ``1-5`` ..., or ``unbounded``."""
    import numpy as np

    lo, hi = float(score.min()), float(score.max())
    name = _base(column)
    rating = _rating_name(name)
    if lo >= 0 and hi <= 1 and not rating:
        return "0/1" if bool(np.all((score == 0) | (score == 1))) else "0-1 graded"
    if any(p in name for p in _PERCENT_NAMES) and lo >= 0 and hi <= 100:
        return "0-100"
    # Each pass over the scores only where its answer decides (a million-row file).
    # Judges give half points (8.5 of 10): halves within 0-10 are a rating too.
    halves = lo >= 0 and hi <= 10 and bool(np.all(np.floor(score * 2) == score * 2))
    integral = lo >= 0 and rating and hi <= 100 and bool(np.all(np.floor(score) == score))
    if halves or integral:
        top = next(t for t in (5, 7, 10, 100) if hi <= t)
        return f"{0 if lo == 0 else 1}-{top}"
    if lo >= 0 and hi <= 100:
        return "0-100"
    return "unbounded"


def apply_scale(rs: ResultSet, column: str | None, display: str) -> Any:
    """``rs`` on the unit scale (0-100 divided by 100), or a :class:`ScaledResults`."""
    import numpy as np

    # Per row, the question whose turn it is (a multi-turn file): not kept on a ResultSet.
    questions = rs.meta.pop("turn_questions", None)
    score = np.asarray(rs.score, dtype=np.float64)
    if score.size == 0:
        return rs
    name = _base(column)
    if name in UNIT_SCORES:
        bad = (score < 0) | (score > 1)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise InputError(
                display,
                f"{column} is {_num(score[row])}, outside the 0-1 scale of a verdict column "
                "(0/1, or a fraction for partial credit)",
                rs.line_of(row),
            )
        rs.meta["scale"] = scale_name(score, column)
        return rs
    scale = scale_name(score, column)
    rs.meta["scale"] = scale
    if scale in ("0/1", "0-1 graded"):
        return rs
    if scale == "0-100":
        rs.score = score / 100.0
        return rs
    if scale == "unbounded":
        lo, hi = _num(score.min()), _num(score.max())
        raise InputError(
            display,
            f"{column} runs from {lo} to {hi}, which fits no bounded scale (0/1, 0-1, 0-100, "
            "1-10); per-item scores must be bounded to be averaged and compared",
        )
    low, high = (float(x) for x in scale.split("-"))
    return ScaledResults(
        path=rs.path,
        model=rs.model,
        item=rs.item,
        score=score,
        line=None if rs.line is None else np.asarray(rs.line),
        low=low,
        high=high,
        columns=dict(rs.columns),
        meta={k: v for k, v in rs.meta.items() if k != "_cache"},
        question=questions,
    )


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


@dataclass
class ScaledResults:
    """Per-item ratings on a bounded scale (``low``-``high``): means on that scale."""

    path: str
    model: Coded
    item: Coded
    score: np.ndarray
    line: np.ndarray | None
    low: float
    high: float
    columns: dict[str, str] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    layout: str = "long"
    #: Per row, the question of a multi-turn rating (items are ``<question> turn <k>``), or
    #: None: a question's turns are resampled together, as they are not independent.
    question: np.ndarray | None = None
    #: The kind of source it makes (the rules of per-item results do not read ratings).
    source_kind = "scaled-results"

    @property
    def models(self) -> list[str]:
        return self.model.labels

    @property
    def scale(self) -> str:
        return f"{_num(self.low)}-{_num(self.high)}"

    def item_means(self) -> tuple[np.ndarray, np.ndarray]:
        """models x items matrix of the mean rating per item (NaN where absent), and
        the row count behind each cell (repeats of an item are averaged first)."""
        import numpy as np

        m, k = len(self.model.labels), len(self.item.labels)
        flat = self.model.codes.astype(np.int64) * k + self.item.codes
        total = np.bincount(flat, weights=self.score, minlength=m * k).reshape(m, k)
        count = np.bincount(flat, minlength=m * k).reshape(m, k)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.maximum(count, 1), np.nan), count

    def item_questions(self) -> np.ndarray | None:
        """Per item, the code of its question (multi-turn ratings), or None."""
        import numpy as np

        if self.question is None:
            return None
        out = np.full(len(self.item.labels), -1, dtype=np.int64)
        out[self.item.codes] = self.question
        return out

    def turn_note(self) -> str | None:
        """What the report says of the turns of a multi-turn file, or None."""
        import numpy as np

        if self.question is None:
            return None
        groups = self.item_questions()
        assert groups is not None  # set with the questions
        n_q = int(np.unique(groups).size)
        return (
            f"{self.path}: each question's turns are items of their own ({len(self.item.labels)} "
            f"rated turns of {n_q} questions); the mean is over every rated turn, as MT-bench "
            "scores a model (the mean of both turns), and the interval resamples whole "
            "questions, since the turns of one question are not independent"
        )

    def report_results(self, ctx: Any = None) -> dict[str, list[dict[str, Any]]]:
        cfg = getattr(ctx, "config", None)
        seed = int(getattr(cfg, "seed", 0) or 0)
        resamples = min(int(getattr(cfg, "resamples", 10000) or 10000), 10000)
        alpha = float(getattr(cfg, "alpha", 0.05) or 0.05)
        import numpy as np

        means, _ = self.item_means()
        groups = self.item_questions()
        rng = np.random.default_rng(seed)
        rows = []
        level = f"bootstrap {round(100 * (1 - alpha))}%"
        for j, name in enumerate(self.models):
            have = ~np.isnan(means[j])
            x = means[j][have]
            g = None if groups is None else groups[have]
            lo, hi = _bootstrap_mean(x, rng, resamples, alpha, g)
            row = {
                "file": self.path,
                "model": name,
                "items": int(x.size),
                "mean": round(float(x.mean()), 4) if x.size else None,
                "low": lo,
                "high": hi,
                "scale": self.scale,
                "interval": level if g is None else f"{level} over questions",
            }
            if g is not None:
                row["questions"] = int(np.unique(g).size)
            rows.append(row)
        out = {"scale_means": rows}
        base_name = getattr(cfg, "baseline_model", None)
        base = self.models.index(base_name) if base_name in self.models else 0
        pairs = []
        for j, name in enumerate(self.models):
            if j == base:
                continue
            both = ~np.isnan(means[j]) & ~np.isnan(means[base])
            d = means[j][both] - means[base][both]
            lo, hi = _bootstrap_mean(
                d, rng, resamples, alpha, None if groups is None else groups[both]
            )
            pairs.append(
                {
                    "file": self.path,
                    "model": name,
                    "baseline": self.models[base],
                    "items": int(d.size),
                    "difference": round(float(d.mean()), 4) if d.size else None,
                    "low": lo,
                    "high": hi,
                    "scale": self.scale,
                }
            )
        if pairs:
            out["scale_comparisons"] = pairs
        return out


def _bootstrap_mean(
    x: np.ndarray,
    rng: np.random.Generator,
    resamples: int,
    alpha: float,
    groups: np.ndarray | None = None,
) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of a mean, in batches that keep memory small; with
    ``groups`` (a code per value) whole groups are resampled, and the mean is over the
    values they hold."""
    import numpy as np

    if groups is not None:
        _, code = np.unique(groups, return_inverse=True)
        sums = np.bincount(code, weights=x)
        counts = np.bincount(code).astype(np.float64)
        if sums.size < 2:
            return None, None
        got = []
        batch = max(1, 4_000_000 // sums.size)
        for start in range(0, resamples, batch):
            k = min(batch, resamples - start)
            pick = rng.integers(0, sums.size, size=(k, sums.size))
            got.append(sums[pick].sum(axis=1) / counts[pick].sum(axis=1))
        lo, hi = np.quantile(np.concatenate(got), [alpha / 2, 1 - alpha / 2])
        return round(float(lo), 4), round(float(hi), 4)
    if x.size < 2:
        return None, None
    batch = max(1, 4_000_000 // x.size)
    got = []
    for start in range(0, resamples, batch):
        k = min(batch, resamples - start)
        got.append(x[rng.integers(0, x.size, size=(k, x.size))].mean(axis=1))
    means = np.concatenate(got)
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return round(float(lo), 4), round(float(hi), 4)
