"""BA501 anchored-baseline: one row pinned with a zero-width interval while others have one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class AnchoredBaseline(Rule):
    """A leaderboard row has a zero-width interval because the scale was pinned to it.

    **What.** On a leaderboard with intervals, a row whose interval has zero
    width (``+0/-0``, ``(0.0, 0.0)``, SE 0) while other rows have intervals of
    their own is flagged: the scale was anchored on that model (its rating or
    win rate fixed in every bootstrap replicate).

    **Why.** Ratings are only defined up to a shift. Pinning one model moves
    all of that model's uncertainty into everyone else's interval: each other
    row's interval then measures its distance from the anchor, not its own
    uncertainty. Neighbours' intervals are too wide against each other and the
    anchor looks infinitely precise, so rank ties and separations near the
    anchor are misread. Centring the scale (mean rating fixed) gives every
    model, the baseline included, an honest interval.

    Bad (leaderboard.csv)::

        model,score,95% CI
        model-x,60.4,"(-2.5, 2.5)"
        baseline,50.0,"(0.0, 0.0)"
        model-y,46.8,"(-2.3, 2.7)"

    Better (leaderboard.csv)::

        model,score,95% CI
        model-x,60.4,"(-2.5, 2.5)"
        baseline,50.0,"(-1.9, 1.9)"
        model-y,46.8,"(-2.3, 2.7)"

    **Assumptions.** A zero-width interval on a table where every row has zero
    width is no interval at all (missing-interval's business), not an anchor.
    benchaudit's own Bradley–Terry ratings centre the scale and never anchor.
    """

    code = "BA501"
    name = "anchored-baseline"
    severity = Severity.WARNING
    reads = ("leaderboard", "document")

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        """A document's score tables with intervals are leaderboards too."""
        return self.on_leaderboard(source, ctx)

    def on_leaderboard(self, source: Source, ctx: Context) -> Iterable[Finding]:
        from benchaudit.inputs.leaderboard import leaderboards_of

        for board in leaderboards_of(source):
            rows = board.with_intervals()
            pinned = [e for e in rows if e.width is not None and abs(e.width) < 1e-12]
            others = [e.width for e in rows if e.width and e.width > 1e-12]
            if not pinned or not others:
                continue
            typical = sorted(others)[len(others) // 2]
            for e in pinned:
                half = typical / 2
                yield self.finding(
                    Location(board.path, e.line),
                    f"{e.model} has a zero-width interval ({e.score:g} exactly) while the other "
                    f"{len(others)} rows have intervals (median width {typical:.3g}): the scale "
                    "is anchored on it, so its uncertainty is hidden in everyone else's "
                    "intervals",
                    claim=e.model,
                    suggestion=(
                        f"Fix the scale by the mean of all ratings (or re-centre every bootstrap "
                        f"replicate) and give {e.model} its own interval, e.g. "
                        f'"{e.model} {e.score:g} (95% CI about ±{half:.2g})"; compare other '
                        f"models with each other by a paired bootstrap of their difference."
                    ),
                    evidence={
                        "model": e.model,
                        "score": e.score,
                        "width": 0.0,
                        "median_width_others": typical,
                        "rows_with_interval": len(others),
                    },
                )
