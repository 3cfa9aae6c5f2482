"""BA205 underpowered: the design cannot reach significance, or a null result comes from a test too small to see the gap."""

from __future__ import annotations

from benchaudit.finding import Severity
from benchaudit.registry import Rule


class Underpowered(Rule):
    """The design cannot reach significance, or a null result comes from a test too small to see the gap.

    **What.** Documents: a comparison that reports its discordant items (or says the
    models disagree on m items) when no paired test can reach p < alpha: the
    smallest possible McNemar p is 2·(1/2)^m (5 disagreements give 0.0625, 6
    give 0.03125). A "no significant difference" on n items whose minimum
    detectable effect (80% power, unpaired) is 3 points or more gets the MDE
    stated.

    Per-item files: every pair of models whose McNemar floor 2·(1/2)^m (m discordant
    items) is at or above α can never be significant (warning); a non-significant
    gap below the MDE at the observed discordance is information (for the
    comparisons with the baseline model), with the items needed.

    **Why.** With m discordant items the most lopsided split possible (all m one way)
    has p = 2·(1/2)^m; below six, nothing is ever significant at 0.05, so
    running the test is theatre. A null result from a study that could only
    detect 10-point gaps says nothing about 3-point gaps.

    Bad::

        The two models disagree on only 5 questions, so the comparison is not
        significant (McNemar).

    Better::

        The two models disagree on only 5 questions; with so few disagreements
        no test can reach p < 0.05, so the comparison is inconclusive.

    **Assumptions.** Items are scored 0/1; the MDE uses the stated score as both
    models' accuracy.
    """

    code = "BA205"
    name = "underpowered"
    severity = Severity.WARNING
    branches = {
        "document": "benchaudit.rules._document:check_underpowered",
        "results": "benchaudit.rules._results:check_underpowered",
    }
