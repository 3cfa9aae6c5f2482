"""Figures for the HTML report, as inline SVG strings.

matplotlib draws on the SVG backend through ``Figure`` objects (no pyplot, no
global backend switch), with a fixed ``svg.hashsalt``, text kept as text
(``svg.fonttype = none``) and no date in the metadata, so the same report
gives byte-identical SVG. Text from inputs (model names) is escaped by
matplotlib's XML writer; the HTML test checks that it stays escaped.

Each ``*_svg`` function takes the rows of one result section and returns a
list of ``(caption, svg)``; it returns ``[]`` when the rows lack what the plot
needs, so an unknown or partial section still renders as a table.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

#: Okabe & Ito (2008) colour-blind-safe palette.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}
SERIES = ["#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
NEUTRAL = "#DDDDDD"

#: Rows beyond this are not drawn one by one (the table still lists them).
MAX_ROWS = 60
#: Figures one section draws at most (the table lists everything).
MAX_FIGURES = 8

_RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#444444",
    "axes.titlesize": 10,
    "path.simplify": True,
    # Labels from the inputs are escaped by _label (mathtext stays on for the
    # axes' own tick labels, such as 10^9 on a log scale); TeX is never used.
    "text.usetex": False,
}


def _first(row: dict[str, Any], keys: Iterable[str]) -> Any:
    for k in keys:
        if k in row and row[k] is not None:
            return row[k]
    return None


def _num(value: Any) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if math.isfinite(out) else None


def _label(text: Any, width: int = 40) -> str:
    """Text from the inputs as a plain label: control characters shown, shortened, and with
    every ``$`` escaped so that a model named ``$\\undefined$`` prints as written instead of
    going to mathtext (and failing, taking the plot with it)."""
    from benchaudit.render.escape import line

    s = line(" ".join(str(text).split()))
    s = s if len(s) <= width else s[: width - 1] + "\u2026"
    return s.replace("$", r"\$")


def _svg(fig: Figure, salt: str) -> str:
    """Serialise a figure: no XML prologue, ids prefixed so several SVGs share a page."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({**_RC, "svg.hashsalt": salt}):
        fig.savefig(
            buf, format="svg", metadata={"Date": None, "Creator": "benchaudit"}, bbox_inches="tight"
        )
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    prefix = re.sub(r"[^A-Za-z0-9_-]", "-", salt) + "-"
    # Ids must be unique in one HTML page: prefix every id and every reference to one.
    text = re.sub(r'(\bid="|url\(#|href="#)', lambda m: m.group(1) + prefix, text)
    return text.strip() + "\n"


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(width, height), dpi=72)
        ax = fig.add_subplot()
    return fig, ax


def _groups(
    rows: Sequence[dict[str, Any]], key: str = "file"
) -> list[tuple[str | None, list[dict[str, Any]]]]:
    out: dict[Any, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r.get(key), []).append(r)
    return list(out.items())


def forest_svg(
    rows: Sequence[dict[str, Any]],
    *,
    salt: str = "forest",
    percent: bool = True,
    title: str = "Per-model scores with 95% intervals",
) -> list[tuple[str, str]]:
    """Per-model score with its interval, one panel per file (proportions drawn as %)."""
    import matplotlib

    scale = 100.0 if percent else 1.0
    out = []
    for gi, (file, group) in enumerate(_groups(rows)):
        pts = []
        for r in group[:MAX_ROWS]:
            v, lo, hi = (_num(r.get(k)) for k in ("score", "ci_low", "ci_high"))
            if v is not None:
                pts.append((_label(r.get("model", "?")), v, lo, hi))
        if not pts:
            continue
        with matplotlib.rc_context(_RC):
            fig, ax = _figure(6.4, 0.9 + 0.32 * len(pts))
            ys = list(range(len(pts)))[::-1]
            for y, (_, v, lo, hi) in zip(ys, pts):
                if lo is not None and hi is not None:
                    ax.plot(
                        [scale * lo, scale * hi],
                        [y, y],
                        color=OKABE_ITO["blue"],
                        lw=2,
                        solid_capstyle="butt",
                    )
                ax.plot([scale * v], [y], "o", color=OKABE_ITO["vermillion"], ms=5)
            ax.set_yticks(ys, [p[0] for p in pts])
            unit = "score, %" if percent else "score as published"
            ax.set_xlabel(f"{unit} (dot) with 95% interval (bar)")
            ax.grid(axis="x", color="#EEEEEE")
            ax.set_ylim(-0.7, len(pts) - 0.3)
        caption = title + (f" \u2014 {file}" if file else "")
        out.append((caption, _svg(fig, f"{salt}{gi}")))
    return out


def _orientation(comparisons: Sequence[dict[str, Any]], models: list[dict[str, Any]]) -> int:
    """+1 if ``diff`` is a − b, −1 if it is b − a, judged from the model scores."""
    score = {(m.get("file"), m.get("model")): _num(m.get("score")) for m in models}
    votes = 0
    for c in comparisons:
        sa = score.get((c.get("file"), c.get("a")))
        sb = score.get((c.get("file"), c.get("b")))
        d = _num(c.get("diff"))
        if sa is None or sb is None or d is None or sa == sb:
            continue
        votes += 1 if abs((sa - sb) - d) < abs((sb - sa) - d) else -1
    return 1 if votes >= 0 else -1


def significance_svg(
    rows: Sequence[dict[str, Any]],
    models: list[dict[str, Any]] | None = None,
    *,
    alpha: float = 0.05,
    salt: str = "pairs",
) -> list[tuple[str, str]]:
    """Pairwise matrix: row minus column in points, coloured where the (adjusted) p < alpha."""
    import matplotlib
    from matplotlib.patches import Rectangle

    sign = _orientation(rows, models or [])
    out = []
    for gi, (file, group) in enumerate(_groups(rows)):
        names: list[str] = []
        cells: dict[tuple[str, str], tuple[float, float | None]] = {}
        for c in group:
            a, b, d = c.get("a"), c.get("b"), _num(c.get("diff"))
            if a is None or b is None or d is None:
                continue
            p = _num(_first(c, ("p_adjusted", "p_value")))
            for m in (a, b):
                if m not in names:
                    names.append(m)
            cells[(a, b)] = (sign * d, p)
            cells[(b, a)] = (-sign * d, p)
        if len(names) < 2 or len(names) > 25:
            continue
        k = len(names)
        with matplotlib.rc_context(_RC):
            size = 1.6 + 0.55 * k
            fig, ax = _figure(size + 1.2, size)
            for i, ra in enumerate(names):
                for j, cb in enumerate(names):
                    y = k - 1 - i
                    if i == j:
                        ax.add_patch(Rectangle((j, y), 1, 1, color="#FFFFFF", ec="#BBBBBB"))
                        continue
                    cell = cells.get((ra, cb))
                    if cell is None:
                        ax.add_patch(Rectangle((j, y), 1, 1, color="#FFFFFF", ec="#BBBBBB"))
                        continue
                    d, p = cell
                    sig = p is not None and p < alpha
                    colour = (
                        (OKABE_ITO["bluish_green"] if d > 0 else OKABE_ITO["vermillion"])
                        if sig
                        else NEUTRAL
                    )
                    ax.add_patch(Rectangle((j, y), 1, 1, color=colour, ec="#FFFFFF"))
                    txt = f"{100 * d:+.1f}"
                    if p is not None:
                        txt += f"\np={p:.2g}"
                    ax.text(
                        j + 0.5,
                        y + 0.5,
                        txt,
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="#FFFFFF" if sig else "#000000",
                    )
            ax.set_xlim(0, k)
            ax.set_ylim(0, k)
            ax.set_xticks(
                [j + 0.5 for j in range(k)], [_label(n, 18) for n in names], rotation=35, ha="right"
            )
            ax.set_yticks([k - 1 - i + 0.5 for i in range(k)], [_label(n, 24) for n in names])
            ax.set_aspect("equal")
            ax.tick_params(length=0)
            for side in ("left", "bottom"):
                ax.spines[side].set_visible(False)
            ax.set_title(
                f"row minus column, points; coloured where p < {alpha:g} (Holm-adjusted when given)"
            )
        caption = "Pairwise comparisons" + (f" \u2014 {file}" if file else "")
        out.append((caption, _svg(fig, f"{salt}{gi}")))
    return out


_CONF = ("confidence", "mean_confidence", "avg_confidence", "conf", "predicted")
_ACC = ("accuracy", "acc", "observed", "frequency", "empirical", "fraction_positive")
_COUNT = ("count", "n", "n_items", "items", "size")


def reliability_svg(
    rows: Sequence[dict[str, Any]], *, salt: str = "reliability"
) -> list[tuple[str, str]]:
    """Reliability diagram: accuracy against mean confidence per bin, per model."""
    import matplotlib

    series: dict[tuple[Any, Any], list[tuple[float, float, float]]] = {}
    for r in rows:
        c, a = _num(_first(r, _CONF)), _num(_first(r, _ACC))
        if c is None or a is None:
            continue
        n = _num(_first(r, _COUNT)) or 1.0
        series.setdefault((r.get("file"), r.get("model")), []).append((c, a, n))
    if not series:
        return []
    with matplotlib.rc_context(_RC):
        fig, ax = _figure(4.8, 4.4)
        ax.plot([0, 1], [0, 1], ls="--", color="#888888", lw=1, label="perfect calibration")
        for i, ((file, model), pts) in enumerate(list(series.items())[: len(SERIES)]):
            pts.sort()
            total = sum(p[2] for p in pts) or 1.0
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            colour = SERIES[i % len(SERIES)]
            ax.plot(xs, ys, "-", color=colour, lw=1.2)
            ax.scatter(
                xs,
                ys,
                s=[20 + 300 * p[2] / total for p in pts],
                color=colour,
                zorder=3,
                label=_label(model if model is not None else file or "all"),
            )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.set_xlabel("mean confidence in bin")
        ax.set_ylabel("accuracy in bin")
        ax.grid(color="#EEEEEE")
        ax.legend(loc="upper left", fontsize=7, frameon=False)
    return [("Reliability diagram (marker area ~ items in bin)", _svg(fig, salt))]


_X = ("params", "parameters", "n_params", "size", "scale", "flops", "compute", "tokens", "step")
_Y = ("value", "score", "metric_value", "accuracy", "y")

Point = tuple[float, float, "float | None", "float | None"]


def _curves_svg(
    series: dict[str, list[Point]], xlabel: str, ylabel: str, salt: str, *, logx: bool | None = None
) -> str:
    """Lines with optional vertical interval bars; log x when the sizes span a decade."""
    import matplotlib

    xs_all = [p[0] for pts in series.values() for p in pts]
    with matplotlib.rc_context(_RC):
        fig, ax = _figure(6.0, 3.8)
        for i, (name, pts) in enumerate(list(series.items())[: len(SERIES)]):
            pts.sort(key=lambda p: p[0])
            colour = SERIES[i % len(SERIES)]
            ax.plot(
                [p[0] for p in pts],
                [p[1] for p in pts],
                "o-",
                color=colour,
                ms=4,
                label=_label(name, 60),
            )
            bars = [(p[0], lo, hi) for p in pts if (lo := p[2]) is not None and (hi := p[3]) is not None]
            if bars:
                ax.vlines(
                    [b[0] for b in bars],
                    [b[1] for b in bars],
                    [b[2] for b in bars],
                    color=colour,
                    lw=1,
                )
        if logx is None:
            logx = min(xs_all) > 0 and max(xs_all) / min(xs_all) >= 10
        if logx:
            ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(color="#EEEEEE")
        # Beside the axes: over them, eight curves' names hide the curves.
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig, salt)


def _point(item: Any) -> Point | None:
    if isinstance(item, dict):
        x, y = _num(_first(item, _X)), _num(_first(item, _Y))
        lo, hi = _num(item.get("ci_low")), _num(item.get("ci_high"))
    elif isinstance(item, (list, tuple)) and len(item) >= 2:
        x, y = _num(item[0]), _num(item[1])
        lo = _num(item[2]) if len(item) > 3 else None
        hi = _num(item[3]) if len(item) > 3 else None
    else:
        return None
    return None if x is None or y is None else (x, y, lo, hi)


def scaling_svg(rows: Sequence[dict[str, Any]], *, salt: str = "scaling") -> list[tuple[str, str]]:
    """Metric against scale, one line per curve, one figure per metric.

    Rows are either points (a size column and a value column, one row per
    size) or curves (a ``points`` list of ``[size, value]`` pairs or of dicts).
    Summary rows with neither are left to the table. Curves of one metric share
    a figure (accuracy and perplexity on one axis would flatten one of them),
    at most ``len(SERIES)`` to a figure.
    """
    by_metric: dict[str, dict[str, list[Point]]] = {}
    names = ("model", "family", "task")
    for r in rows:
        name = " / ".join(str(r[k]) for k in names if r.get(k) is not None) or "curve"
        series = by_metric.setdefault(str(r.get("metric") or "metric value"), {})
        if isinstance(r.get("points"), (list, tuple)):
            pts = [p for p in map(_point, r["points"]) if p is not None]
            if pts:
                series.setdefault(name, []).extend(pts)
            continue
        p = _point(r)
        if p is not None:
            series.setdefault(name, []).append(p)
    xkey = next((k for k in _X if any(k in r for r in rows)), None)
    xlabel = xkey or str(rows[0].get("size_kind") or "model size")
    out: list[tuple[str, str]] = []
    for metric, series in by_metric.items():
        items = list(series.items())
        for start in range(0, len(items), len(SERIES)):
            if len(out) >= MAX_FIGURES:
                return out
            chunk = dict(items[start : start + len(SERIES)])
            caption = f"Scaling curves: {metric}"
            if len(items) > len(SERIES):
                shown = f"{start + 1}" + (f"\u2013{start + len(chunk)}" if len(chunk) > 1 else "")
                caption += f" ({shown} of {len(items)})"
            out.append(
                (caption, _curves_svg(chunk, _label(xlabel), _label(metric), f"{salt}{len(out)}"))
            )
    return out


def passk_svg(rows: Sequence[dict[str, Any]], *, salt: str = "passk") -> list[tuple[str, str]]:
    """pass@k against k: the unbiased estimate with its interval, and the plug-in."""
    series: dict[str, list[Point]] = {}
    groups = _groups(rows)
    for file, group in groups:
        tag = f" \u2014 {file}" if file and len(groups) > 1 else ""
        for r in group:
            k, est = _num(r.get("k")), _num(r.get("estimate"))
            if k is None or est is None:
                continue
            series.setdefault(f"unbiased{tag}", []).append(
                (k, est, _num(r.get("ci_low")), _num(r.get("ci_high")))
            )
            plug = _num(r.get("plugin"))
            if plug is not None:
                series.setdefault(f"plug-in 1-(1-c/n)^k{tag}", []).append((k, plug, None, None))
    if not series or max(len(v) for v in series.values()) < 2:
        return []
    return [("pass@k against k", _curves_svg(series, "k", "pass@k", salt))]


def ratings_svg(rows: Sequence[dict[str, Any]], *, salt: str = "ratings") -> list[tuple[str, str]]:
    """Ratings with their intervals, best first, with the rank range each interval allows."""
    import matplotlib

    pts = []
    for r in rows:
        v, lo, hi = (_num(r.get(k)) for k in ("rating", "ci_low", "ci_high"))
        if v is not None:
            ranks = (r.get("rank_low"), r.get("rank_high"))
            pts.append((_label(r.get("model", "?")), v, lo, hi, ranks))
    if not pts:
        return []
    pts.sort(key=lambda p: -p[1])
    pts = pts[:MAX_ROWS]
    with matplotlib.rc_context(_RC):
        fig, ax = _figure(6.4, 0.9 + 0.32 * len(pts))
        ys = list(range(len(pts)))[::-1]
        for y, (_, v, lo, hi, _r) in zip(ys, pts):
            if lo is not None and hi is not None:
                ax.plot([lo, hi], [y, y], color=OKABE_ITO["blue"], lw=2, solid_capstyle="butt")
            ax.plot([v], [y], "o", color=OKABE_ITO["vermillion"], ms=5)
        labels = []
        for name, *_rest, (rl, rh) in pts:
            rank = (
                ""
                if rl is None
                else (f"  (rank {rl})" if rl == rh else f"  (ranks {rl}\u2013{rh})")
            )
            labels.append(name + rank)
        ax.set_yticks(ys, labels)
        ax.set_xlabel("rating (dot) with 95% interval (bar)")
        ax.grid(axis="x", color="#EEEEEE")
        ax.set_ylim(-0.7, len(pts) - 0.3)
    return [("Ratings with 95% intervals", _svg(fig, salt))]


def section_plots(
    section: str, rows: Sequence[dict[str, Any]], results: dict[str, Any], alpha: float = 0.05
) -> list[tuple[str, str]]:
    """The plots for one result section ([] when it has none or lacks the columns)."""
    if not rows or not isinstance(rows[0], dict):
        return []
    if section == "models":
        return forest_svg(rows)
    if section == "leaderboard":
        return forest_svg(
            rows, percent=False, salt="leaderboard", title="Leaderboard scores with 95% intervals"
        )
    if section == "comparisons":
        return significance_svg(rows, results.get("models") or [], alpha=alpha)
    if section == "reliability":
        return reliability_svg(rows)
    if section == "calibration" and any(k in rows[0] for k in ("bin", "bin_low", "lo")):
        return reliability_svg(rows, salt="calibration")
    if section == "scaling":
        return scaling_svg(rows)
    if section == "passk":
        return passk_svg(rows)
    if section == "ratings":
        return ratings_svg(rows)
    return []
