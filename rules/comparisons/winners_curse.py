"""BA208 winners-curse: the best of k candidates (prompts, checkpoints, seeds) picked on the test set."""

from __future__ import annotations

from benchaudit.finding import Severity
from benchaudit.registry import Rule


class WinnersCurse(Rule):
    """The best of k candidates (prompts, checkpoints, seeds) picked on the test set.

    **What.** Documents: "best of 20 prompts", "we tried 10 checkpoints and report the
    best", "maximum over 5 seeds", unless the sentence says the choice was made
    on a validation / dev split. With a score and n (stated or from the
    registry) the expected inflation of the best of k equally good candidates
    is given (exact binomial order statistics).

    Per-item files with a variant column (prompt, template, checkpoint, config): k
    variants of one model on the same items; the finding gives the best variant's
    expected inflation for k equally good variants.

    **Why.** The maximum of k noisy scores is biased upwards even when every
    candidate is equally good. At p = 0.70 on 500 items the best of 2 is
    inflated by 1.16 points on average, of 10 by 3.13, of 100 by 5.06.

    Bad::

        We tried 20 prompts and report the best one: 71.4% on MATH-500.

    Better::

        We chose among 20 prompts on a held-out validation split and report
        the chosen prompt's score: 70.2% on MATH-500.

    **Assumptions.** The k candidates are equally good and their test scores independent
    given their accuracy (correlated candidates inflate less).
    """

    code = "BA208"
    name = "winners-curse"
    severity = Severity.WARNING
    branches = {
        "document": "benchaudit.rules._document:check_winners",
        "results": "benchaudit.rules._results:check_winners_curse",
    }
