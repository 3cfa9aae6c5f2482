"""BA209 seed-interval: an interval over a few seeds using z = 1.96 instead of the t(k-1) quantile."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Finding, Severity
from benchaudit.registry import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class SeedInterval(Rule):
    """An interval over a few seeds using z = 1.96 instead of the t(k-1) quantile.

    **What.** Documents: "mean ± 1.96 sd over 3 seeds" or a 95% interval over k < 30
    seeds or runs computed with the normal quantile. The t(k-1) quantile is
    4.30 for 3 seeds, 2.78 for 5, 2.26 for 10; the suggestion rescales the
    stated half-width. A 95% interval over few seeds that does not say how it
    was computed gets info.

    Per-item files with a seed or run column: each model's mean over seeds gets a
    t(k-1) interval; a seed spread larger than the item-level SE is a warning (one
    run's item interval understates), otherwise information.

    **Why.** With k seeds the standard deviation is itself estimated from k values;
    the t distribution with k-1 degrees of freedom accounts for that. With 3
    seeds the 1.96 interval is 2.2× too narrow and covers far less than 95%.

    Bad::

        Accuracy is 71.2 ± 2.1 (mean ± 1.96 sd over 3 seeds).

    Better::

        Accuracy is 71.2 ± 4.6 (mean and 95% t-interval over 3 seeds,
        t(2) = 4.30).

    **Assumptions.** Seeds are independent runs; the stated ± is the 1.96-based half-width.
    """

    code = "BA209"
    name = "seed-interval"
    severity = Severity.WARNING
    reads = ("document", "results")

    def check(self, source: Source, ctx: Context) -> Iterable[Finding]:
        branch = _BRANCHES.get(source.kind)
        if branch is not None:
            yield from branch(self, source, ctx)


def _document(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._document import check_seeds

    yield from check_seeds(rule, source, ctx)


def _results(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._results import check_seed_interval

    yield from check_seed_interval(rule, source, ctx)


_BRANCHES = {"document": _document, "results": _results}
