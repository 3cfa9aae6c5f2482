"""BA402 wrong-chance-level: a score compared with the chance level of a different scoring procedure."""

from __future__ import annotations

from benchaudit.finding import Severity
from benchaudit.registry import Rule


class WrongChanceLevel(Rule):
    """A score compared with the chance level of a different scoring procedure.

    **What.** Documents: a multiple-choice procedure over several option orders
    (CircularEval, "majority of 4 rotations", "correct in all 4
    permutations") compared with the single-pass chance level (25% for four
    options). The chance of the procedure is P(Binomial(m, 1/k) ≥ r) for r
    hits needed of m orders with k options.

    Per-item files with chosen and gold options: a model not distinguishable from
    the 1/k chance level of single-asking guessing is information.

    **Why.** Rotation scoring exists to make guessing hard: a random guesser passes
    a majority of 4 rotations (3 hits) with probability 5.1%, and all 4 with
    0.4%. Reporting "well above the 25% chance level" hides how far above
    chance the model really is, and "near chance" can be wrong the other way.

    Bad::

        Under circular evaluation with a majority of 4 rotations, our model
        scores 31%, above the 25% chance level.

    Better::

        Under circular evaluation with a majority of 4 rotations, our model
        scores 31%, against a chance level of 5.1% for this procedure.

    **Assumptions.** Guesses in different rotations are independent and uniform over the
    options.
    """

    code = "BA402"
    name = "wrong-chance-level"
    severity = Severity.WARNING
    branches = {
        "document": "benchaudit.rules._document:check_chance",
        "results": "benchaudit.rules._results:check_wrong_chance_level",
    }
