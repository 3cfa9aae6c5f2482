"""Scaling-curve analyses shared by metric-mirage and constant-score.

For each task of a curve set: the apparent jumps of its all-or-nothing
metrics, each paired with a continuous metric of the same task that improves
at every size across the jump (the mirage) or with none; and the curves that
are degenerate (one repeated value) or at chance everywhere. Standard library
only: a curve has a handful of points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.inputs.scaling import Curve, Point, ScalingData, is_perplexity_metric
from benchaudit.stats import mirage as mg

if TYPE_CHECKING:
    from benchaudit.context import RunContext


@dataclass
class Jump:
    """An apparent jump of an all-or-nothing metric, and the continuous metric beside it."""

    task: str
    metric: str
    points: list[Point]
    step: mg.Step
    continuous: Curve | None = None
    continuous_values: list[float] = field(default_factory=list)
    evidence: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return mg.curve_name(self.task, self.metric)

    @property
    def low(self) -> Point:
        return self.points[self.step.index - 1]

    @property
    def high(self) -> Point:
        return self.points[self.step.index]

    @property
    def sparse(self) -> bool:
        return len(self.points) < mg.SPARSE_SCALES


def _aligned(a: Curve, b: Curve) -> tuple[list[Point], list[Point]]:
    sizes = {p.size for p in a.points} & {p.size for p in b.points}
    return [p for p in a.points if p.size in sizes], [p for p in b.points if p.size in sizes]


def _jump(task: str, metric: str, pts: list[Point], lengths: dict[str, int]) -> Jump | None:
    xs = [math.log10(p.size) for p in pts]
    values, se = [p.value for p in pts], [p.stderr for p in pts]
    step = mg.apparent_jump(xs, values, True, se)
    if step is None or mg.at_chance(task, values, se) is not None:
        return None  # flat at chance is constant-score's finding, not a jump
    jump = Jump(task, metric, pts, step)
    jump.evidence = {
        "task": task,
        "metric": metric,
        "sizes": [p.size for p in pts],
        "values": values,
        "step_from": jump.low.size,
        "step_to": jump.high.size,
        "step_gain": step.gain,
        "share_of_gain": step.share_of_gain,
        "share_of_span": step.share_of_span,
        "steepness": step.ratio,
        "n_scales": len(pts),
        "sparse": jump.sparse,
        "transition_width": mg.transition_width(xs, values),
    }
    length = lengths.get(task) or lengths.get(metric) or lengths.get(jump.name)
    if length:
        jump.evidence["answer_tokens"] = length
        jump.evidence["implied_per_token"] = [mg.implied_per_token(v, length) for v in values]
    return jump


def _smooth_beside(jump: Jump, cont: Curve, cpts: list[Point]) -> bool:
    """Does ``cont`` improve at every size and over the jump's own step?"""
    xs = [math.log10(p.size) for p in cpts]
    cvals = [p.value for p in cpts]
    higher = mg.higher_is_better(cont.metric)
    ruler = [math.log(v) for v in cvals] if mg.is_perplexity(cont.metric) else cvals
    share = mg.step_share(xs, ruler, higher, jump.step.index)
    if share is None or share <= 0 or not mg.monotone(cvals, higher, [p.stderr for p in cpts]):
        return False
    jump.continuous, jump.continuous_values = cont, cvals
    jump.evidence.update(
        continuous_metric=cont.metric,
        continuous_values=cvals,
        continuous_share_of_step=share,
        continuous_transition_width=mg.transition_width(xs, ruler, higher),
    )
    if mg.is_perplexity(cont.metric):
        fit = mg.power_fit([1 / v for v in cvals], [p.value for p in jump.points])
        if fit:
            jump.evidence.update(power_slope=fit[0], power_r2=fit[1])
    return True


def jumps(data: ScalingData, lengths: dict[str, int] | None = None) -> list[Jump]:
    """Apparent jumps of all-or-nothing metrics, with a smooth continuous metric where one is.

    A jump without such a metric is returned once per task (``continuous`` is
    ``None``); a jump whose continuous metrics all reverse or stall across it
    is not returned (it may be real).
    """
    lengths = lengths or {}
    by_task: dict[str, list[Curve]] = {}
    for (task, _), curve in data.curves.items():
        by_task.setdefault(task, []).append(curve)
    out: list[Jump] = []
    for task, curves in by_task.items():
        conts = sorted(
            (c for c in curves if mg.classify(c.metric) == mg.CONTINUOUS),
            key=lambda c: not mg.is_perplexity(c.metric),
        )
        bare = False
        for aon in (c for c in curves if mg.classify(c.metric) == mg.ALL_OR_NOTHING):
            if not conts:
                jump = _jump(task, aon.metric, aon.points, lengths)
                if jump is not None and not bare:
                    bare = True  # one note per task: acc and acc_norm tell the same story
                    out.append(jump)
                continue
            for cont in conts:
                pts, cpts = _aligned(aon, cont)
                jump = _jump(task, aon.metric, pts, lengths)
                if jump is not None and _smooth_beside(jump, cont, cpts):
                    out.append(jump)
                    break  # one smooth continuous metric is enough
    for jump in out:
        jump.evidence["family"] = data.label
    return out


@dataclass
class Flat:
    """A curve that carries no trend: one repeated value, or chance at every size."""

    task: str
    metric: str
    points: list[Point]
    repeated: tuple[float, int] | None = None
    chance: float | None = None

    @property
    def name(self) -> str:
        return mg.curve_name(self.task, self.metric)


def flat_curves(data: ScalingData) -> list[Flat]:
    """Degenerate or at-chance all-or-nothing curves, at most one per task."""
    out: list[Flat] = []
    seen: set[str] = set()
    for (task, metric), curve in data.curves.items():
        if task in seen or mg.classify(metric) != mg.ALL_OR_NOTHING or len(curve.points) < 3:
            continue
        same = mg.degenerate(curve.values)
        chance = None if same else mg.at_chance(task, curve.values, curve.stderr)
        if same or chance is not None:
            seen.add(task)
            out.append(Flat(task, metric, curve.points, same, chance))
    return out


def report_results(data: ScalingData, ctx: RunContext) -> dict[str, list[dict[str, Any]]]:
    """``results.scaling``: each curve's transition width, range and points."""
    from benchaudit.stats.mirage import SPARSE_SCALES, classify, higher_is_better
    from benchaudit.stats.mirage import transition_width as width

    rows = []
    for (task, metric), curve in data.curves.items():
        kind = classify(metric)
        if kind is None:
            continue
        ys = curve.values
        if is_perplexity_metric(metric):
            ys = [math.log(v) for v in ys]  # per-token NLL: the linear ruler
        rows.append(
            {
                "family": data.label,
                "task": task,
                "metric": metric,
                "kind": kind,
                "n_scales": len(curve.points),
                "size_min": curve.points[0].size,
                "size_max": curve.points[-1].size,
                "first": curve.points[0].value,
                "last": curve.points[-1].value,
                "transition_width": width(curve.log_sizes, ys, higher_is_better(metric)),
                "sparse": len(curve.points) < SPARSE_SCALES,
                "note": curve.note,
                # What the HTML report draws; the tables leave it out.
                "points": [[p.size, p.value] for p in curve.points],
            }
        )
    return {"scaling": rows}
