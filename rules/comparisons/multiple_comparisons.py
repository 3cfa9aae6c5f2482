"""BA207 multiple-comparisons: many significance tests reported without a multiple-comparison correction."""

from __future__ import annotations

from benchaudit.finding import Severity
from benchaudit.registry import Rule


class MultipleComparisons(Rule):
    """Many significance tests reported without a multiple-comparison correction.

    **What.** Documents: "significant on 3 of 20 benchmarks (p < 0.05)" with no
    correction named (Bonferroni, Holm, Benjamini-Hochberg, "adjusted"); three
    or more exact p-values in one sentence of which fewer survive Holm; a
    document that reports many p-values and never names a correction.

    Per-item files: pairs of models significant at α before Holm's correction across
    all pairs and not after it (the adjusted p-values are in
    ``results.comparisons``).

    **Why.** At alpha = 0.05, 20 independent tests of true nulls give one
    "significant" result on average. Holm's step-down controls the
    family-wise error and is never less powerful than Bonferroni: on [0.01,
    0.04, 0.03, 0.005] it keeps 0.005 and 0.01 and drops the other two.

    Bad::

        Our model is significantly better on 3 of 20 benchmarks (p < 0.05).

    Better::

        Our model is better on 3 of 20 benchmarks at p < 0.05 before
        correction; after Holm correction none of the 20 differences is
        significant.

    **Assumptions.** Tests in one sentence or document belong to one family.
    """

    code = "BA207"
    name = "multiple-comparisons"
    severity = Severity.WARNING
    branches = {
        "document": "benchaudit.rules._document:check_multiple",
        "results": "benchaudit.rules._results:check_multiple_comparisons",
    }
