"""BA302 run-drift: two result files of the same configuration that disagree."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._wording import percent, signed_points

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

SHOW = 8
#: Two files are runs of one configuration when they share a model and at least
#: this share of each file's items.
MIN_OVERLAP = 0.5


class RunDrift(Rule):
    """Two runs of the same configuration give different per-item results.

    **What.** When several per-item result files are checked together, every
    pair that shares models and most items is treated as two runs of one
    configuration. For each shared model the rule lists the items whose score
    changed (with their lines in the later file) and sets the change in the
    model's score, in points, against the model's 95% interval and against an
    exact McNemar test of the two runs. A model whose rows are identical in both
    files gets no finding.

    **Why.** Non-determinism (sampling temperature, batch-dependent kernels,
    a changed prompt or grader, an updated dataset) makes "the same" eval give
    different numbers. A gain smaller than the run-to-run drift is not a gain,
    and a drift that nobody noticed means the configuration is not what the
    report says it is.

    Bad (not runnable)::

        benchaudit check run1/scores.csv run2/scores.csv
        run2/scores.csv:14: run-drift: model-b: 9 of 500 items changed ...

    Better (not runnable)::

        Pin the seed and decoding settings, re-run, and report the spread over
        runs with the score, or the per-run scores side by side.

    **Assumptions.** Files that share a model and at least half of each other's
    items are runs of one configuration, unless they name different tasks or a
    different n-shot, metric, filter or split (harness outputs); items are
    matched by id. Graded
    scores count as changed when they differ by more than 1e-9.
    """

    code = "BA302"
    name = "run-drift"
    severity = Severity.WARNING
    reads = ("results",)

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        runs = [s for s in sources if s.kind == "results" and s.data is not None]
        if len(runs) < 2:
            return
        from benchaudit.inputs.joining import same_configuration

        for i, first in enumerate(runs):
            for second in runs[i + 1 :]:
                if same_configuration(first, second):
                    yield from self._compare(first, second, ctx)

    def _compare(self, s1: Source, s2: Source, ctx: Context) -> Iterable[Finding]:
        import numpy as np

        from benchaudit.analysis.results import analyse
        from benchaudit.inputs.joining import file_of
        from benchaudit.stats.paired import mcnemar_exact

        r1, r2 = s1.data, s2.data
        items1, items2 = {v: i for i, v in enumerate(r1.items)}, r2.items
        shared = [(items1[v], j) for j, v in enumerate(items2) if v in items1]
        if not shared or len(shared) < MIN_OVERLAP * max(len(r1.items), len(r2.items)):
            return
        common = [m for m in r1.models if m in set(r2.models)]
        if not common:
            return
        i1 = np.array([a for a, _ in shared])
        i2 = np.array([b for _, b in shared])
        a1, a2 = analyse(r1, ctx), analyse(r2, ctx)
        for model in common:
            m1, m2 = r1.models.index(model), r2.models.index(model)
            both = a1.matrix.present[m1, i1] & a2.matrix.present[m2, i2]
            v1 = a1.matrix.value[m1, i1][both]
            v2 = a2.matrix.value[m2, i2][both]
            changed = np.flatnonzero(np.abs(v1 - v2) > 1e-9)
            if changed.size == 0:
                continue
            item_codes2 = i2[both][changed]
            names = [items2[c] for c in item_codes2]
            lines = _lines(r2, m2, item_codes2)
            n = int(both.sum())
            s_1, s_2 = float(v1.mean()), float(v2.mean())
            delta = s_2 - s_1
            row2 = a2.model_row(model) or {}
            half = ((row2.get("ci_high") or s_2) - (row2.get("ci_low") or s_2)) / 2
            up = int(np.sum(v2[changed] > v1[changed]))
            down = int(changed.size - up)
            p = mcnemar_exact(up, down)
            shown = ", ".join(
                f"{nm} (line {ln})" if ln else nm for nm, ln in zip(names[:SHOW], lines[:SHOW])
            )
            more = f" and {len(names) - SHOW} more" if len(names) > SHOW else ""
            within = abs(delta) <= half
            f1, f2 = file_of(s1, model), file_of(s2, model)
            yield self.finding(
                Location(f2, min(ln for ln in lines if ln) if any(lines) else None),
                f"{model}: {changed.size} of {n:,} items changed between {f1} and "
                f"{f2} ({shown}{more}); score {percent(s_1)} → {percent(s_2)} "
                f"({signed_points(delta)} points, {'within' if within else 'outside'} its 95% "
                f"interval of ±{100 * half:.1f}; McNemar p = {p:.3g})",
                claim=model,
                suggestion=f"Report {model} with its run-to-run spread "
                f"({percent(s_1)} and {percent(s_2)} on two runs) or pin what changed "
                "(seed, decoding, grader, data) and re-run; treat gaps under "
                f"{abs(100 * delta):.1f} points as noise.",
                evidence={
                    "model": model,
                    "changed": int(changed.size),
                    "items": n,
                    "changed_items": names[:100],
                    "lines": lines[:100],
                    "score_first": s_1,
                    "score_second": s_2,
                    "diff": delta,
                    "ci_halfwidth": half,
                    "up": up,
                    "down": down,
                    "mcnemar_p": p,
                    "first": f1,
                    "second": f2,
                },
            )


def _lines(rs: Any, model_code: int, item_codes: Any) -> list[int | None]:
    """The first line of each (model, item) row in ``rs``."""
    import numpy as np

    rows = np.flatnonzero(rs.model.codes == model_code)
    first: dict[int, int] = {}
    for r in rows[np.isin(rs.item.codes[rows], item_codes)]:
        first.setdefault(int(rs.item.codes[r]), rs.line_of(int(r)))
    return [first.get(int(c)) for c in item_codes]
