"""BA209 seed-interval: an interval over a few seeds using z = 1.96 instead of the t(k-1) quantile."""

from __future__ import annotations

from benchaudit.finding import Severity
from benchaudit.registry import Rule


class SeedInterval(Rule):
    """An interval over a few seeds using z = 1.96 instead of the t(k-1) quantile.

    **What.** Documents: "mean ± 1.96 sd over 3 seeds" or a 95% interval over k < 30
    seeds or runs computed with the normal quantile. The t(k-1) quantile is
    4.30 for 3 seeds, 2.78 for 5, 2.26 for 10; the suggestion rescales the
    stated half-width. A 95% interval over few seeds that does not say how it
    was computed gets info.

    Per-item files with a seed or run column: each model's mean gets the two-way
    interval over items and seeds (both are samples: the variance of the mean is
    the item part plus the seed part, so a deterministic model keeps its item
    interval instead of a zero-width one); a seed spread larger than the
    item-level SE is a warning (one run's item interval understates), otherwise
    information.

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
    branches = {
        "document": "benchaudit.rules._document:check_seeds",
        "results": "benchaudit.rules._results:check_seed_interval",
    }
