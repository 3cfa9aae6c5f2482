"""The metric mirage: how a metric's shape, not the model, can make a jump.

If each of L answer tokens is right with probability p, exact match is p^L:
flat until p is close to 1, then steep, so a smooth gain in p reads as a
sudden "emergent" jump (Schaeffer, Miranda & Koyejo 2023). This module
classifies metrics as all-or-nothing or continuous, measures how many decades
of scale a curve takes to rise (its transition width), finds a curve's
steepest step, and tests whether a steep step in an all-or-nothing metric sits
on a smooth continuous metric of the same task.

Standard library only: curves have a handful of points. Which names are which kind of
metric, and the chance level of a task, come from the benchmark registry
(``benchaudit/benchmarks.toml``), where each has its source.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchaudit.benchmarks import MetricNames

ALL_OR_NOTHING = "all-or-nothing"
CONTINUOUS = "continuous"

def _names() -> MetricNames:
    """Metric names by kind, from the registry (``"metric names"`` in benchmarks.toml)."""
    from benchaudit.benchmarks import packaged

    names = packaged().metric_names
    if names is None:  # pragma: no cover - the packaged registry has the table
        raise RuntimeError("benchmarks.toml has no metric names")
    return names


def classify(metric: str) -> str | None:
    """``all-or-nothing``, ``continuous`` or ``None`` (unknown) for a metric name."""
    name = metric.split(",")[0].strip()
    names = _names()
    if names.all_or_nothing.match(name):
        return ALL_OR_NOTHING
    if names.lower_better.match(name) or names.higher_better.match(name):
        return CONTINUOUS
    return None


def higher_is_better(metric: str) -> bool:
    """Direction of a metric; loss-like metrics (perplexity, NLL, Brier) are lower-better."""
    return not _names().lower_better.match(metric.split(",")[0].strip())


def is_perplexity(metric: str) -> bool:
    return bool(_names().perplexity.match(metric.split(",")[0]))


def chance_level(task: str) -> float | None:
    """The chance accuracy of a known multiple-choice harness task, else ``None``: 1 over
    the answer options of the benchmark the registry lists the task under."""
    from benchaudit.benchmarks import packaged

    return packaged().chance_level(task)


def format_size(size: float) -> str:
    """70000000 -> "70M", 1.4e9 -> "1.4B"."""
    if size >= 1e15:
        return f"{size:.3g}"  # compute in FLOPs, not a parameter count
    for div, unit in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if size >= div:
            return f"{size / div:.3g}{unit}"
    return f"{size:.3g}"


def curve_name(task: str, metric: str) -> str:
    """ "lambada_openai acc", or just "exact_match" for a file of one task."""
    return f"{task} {metric}" if task else metric


def implied_per_token(exact_match: float, length: int) -> float:
    """Per-token accuracy p with p^L = exact match: EM^(1/L)."""
    if length < 1:
        raise ValueError("answer length must be at least 1")
    if not 0 <= exact_match <= 1:
        raise ValueError("exact match must be in [0, 1]")
    return float(exact_match ** (1.0 / length))


def _improving(values: Sequence[float], higher: bool) -> list[float]:
    return [v if higher else -v for v in values]


def transition_width(
    log_sizes: Sequence[float],
    values: Sequence[float],
    higher: bool = True,
    lo: float = 0.1,
    hi: float = 0.9,
) -> float | None:
    """Decades of scale a curve takes to go from ``lo`` to ``hi`` of its observed range.

    The curve is put in its improving direction and scaled to [0, 1] of its
    range; the first crossing of each level is interpolated linearly in
    log10(size). ``None`` for a flat curve or fewer than two points.
    """
    if len(log_sizes) != len(values):
        raise ValueError("sizes and values differ in length")
    if len(values) < 2:
        return None
    y = _improving(values, higher)
    ymin, ymax = min(y), max(y)
    if ymax - ymin <= 0:
        return None
    f = [(v - ymin) / (ymax - ymin) for v in y]

    def crossing(level: float) -> float | None:
        if f[0] >= level:
            return log_sizes[0]
        for i in range(1, len(f)):
            if f[i] >= level > f[i - 1]:
                t = (level - f[i - 1]) / (f[i] - f[i - 1])
                return log_sizes[i - 1] + t * (log_sizes[i] - log_sizes[i - 1])
        return None

    a, b = crossing(lo), crossing(hi)
    return None if a is None or b is None else b - a


@dataclass(frozen=True)
class Step:
    """The steepest rise between adjacent scales of a curve."""

    index: int  # the step from point index-1 to point index
    gain: float  # in the improving direction, in the metric's units
    share_of_gain: float  # of the net gain from the smallest to the largest scale
    share_of_span: float  # of the decades spanned
    ratio: float  # share_of_gain / share_of_span: 1 for an even log-linear rise


def steepest_step(
    log_sizes: Sequence[float], values: Sequence[float], higher: bool = True
) -> Step | None:
    """The adjacent step with the largest gain per decade, relative to the whole curve."""
    y = _improving(values, higher)
    if len(y) < 3:
        return None
    net = y[-1] - y[0]
    span = log_sizes[-1] - log_sizes[0]
    if net <= 0 or span <= 0:
        return None
    best = None
    for i in range(1, len(y)):
        dx = log_sizes[i] - log_sizes[i - 1]
        if dx <= 0:
            continue
        gain = y[i] - y[i - 1]
        step = Step(i, gain, gain / net, dx / span, (gain / net) / (dx / span))
        if best is None or step.ratio > best.ratio:
            best = step
    return best


def monotone(
    values: Sequence[float],
    higher: bool = True,
    stderr: Sequence[float | None] | None = None,
    z: float = 2.0,
) -> bool:
    """True when every step improves, or falls back by no more than ``z`` standard errors."""
    y = _improving(values, higher)
    for i in range(1, len(y)):
        allowed = 0.0
        se, se_before = (stderr[i], stderr[i - 1]) if stderr is not None else (None, None)
        if se is not None and se_before is not None:
            allowed = z * math.hypot(se, se_before)
        if y[i] - y[i - 1] < -allowed:
            return False
    return True


def power_fit(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float] | None:
    """(slope, R^2) of the least-squares line of log ys on log xs (all positive)."""
    if len(xs) < 3 or any(v <= 0 for v in xs) or any(v <= 0 for v in ys):
        return None
    lx = [math.log(v) for v in xs]
    ly = [math.log(v) for v in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    sxx = sum((a - mx) ** 2 for a in lx)
    syy = sum((b - my) ** 2 for b in ly)
    if sxx == 0 or syy == 0:
        return None
    sxy = sum((a - mx) * (b - my) for a, b in zip(lx, ly))
    return sxy / sxx, sxy * sxy / (sxx * syy)


#: Thresholds of an "apparent jump": one step carries at least this share of the
#: net gain, at least this many times its share of the decades spanned.
JUMP_SHARE = 0.25
JUMP_RATIO = 1.5
#: Fewer scales than this is sparse sampling: a few dots joined by lines read as a step.
SPARSE_SCALES = 5


def apparent_jump(
    log_sizes: Sequence[float],
    values: Sequence[float],
    higher: bool = True,
    stderr: Sequence[float | None] | None = None,
) -> Step | None:
    """The steepest step if it looks like a jump (and exceeds its noise), else ``None``."""
    step = steepest_step(log_sizes, values, higher)
    if step is None or step.share_of_gain < JUMP_SHARE or step.ratio < JUMP_RATIO:
        return None
    if step.share_of_gain > 1.0:
        return None  # the curve falls back elsewhere by more than it rose: noise, not a rise
    if degenerate(values) is not None:
        return None  # a constant score with an outlier is not a trend (see constant-score)
    if stderr is not None:
        # Both the step and the whole rise must stand out from the noise.
        for (a, b), gain in (
            ((stderr[step.index - 1], stderr[step.index]), step.gain),
            ((stderr[0], stderr[-1]), step.gain / step.share_of_gain),
        ):
            if a is not None and b is not None and gain <= 2 * math.hypot(a, b):
                return None
    return step


#: How close to chance a score may be and still count as "at chance" (absolute).
CHANCE_MARGIN = 0.05


def at_chance(
    task: str, values: Sequence[float], stderr: Sequence[float | None] | None = None
) -> float | None:
    """The chance level when every value is within max(2 SE, 5 points) of it, else ``None``."""
    chance = chance_level(task)
    if chance is None or not values:
        return None
    for i, v in enumerate(values):
        se = stderr[i] if stderr is not None else None
        if abs(v - chance) > max(CHANCE_MARGIN, 2 * se if se is not None else 0.0):
            return None
    return chance


def degenerate(values: Sequence[float], digits: int = 4) -> tuple[float, int] | None:
    """(value, count) when one value repeats at 3+ scales and at least half of them.

    Real scores of different models almost never agree to four decimals; a
    repeated value is the score of a constant answer (always the same class).
    """
    if len(values) < 3:
        return None
    counts: dict[float, int] = {}
    for v in values:
        key = round(v, digits)
        counts[key] = counts.get(key, 0) + 1
    # A floor of zeros (or a ceiling of ones) is the shape of an emergence plot, not a
    # constant answer; only intermediate repeated values count.
    counts = {v: c for v, c in counts.items() if 0.0 < v < 1.0}
    if not counts:
        return None
    value, count = max(counts.items(), key=lambda kv: kv[1])
    return (value, count) if count >= 3 and 2 * count >= len(values) else None


def step_share(
    log_sizes: Sequence[float], values: Sequence[float], higher: bool, index: int
) -> float | None:
    """Share of a curve's net gain made over the step ``index-1 -> index``."""
    y = _improving(values, higher)
    net = y[-1] - y[0]
    if net <= 0:
        return None
    return (y[index] - y[index - 1]) / net
