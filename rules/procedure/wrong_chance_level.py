"""BA402 wrong-chance-level: a score compared with the chance level of a different scoring procedure."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._claims import claims, emit
from benchaudit.rules._results import analysis, first_line
from benchaudit.rules._wording import num, percent

from benchaudit.finding import Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


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

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        from benchaudit.stats.chance import rotation_chance

        for c in claims(source, "chance-level"):
            f = c.fields
            k, m, r = f.get("options"), f.get("rotations"), f.get("needed")
            if not (k and m and r) or not c.value or r > m or k < 2:
                continue
            true = 100 * rotation_chance(k, m, r)
            stated = float(c.value)
            if abs(true - stated) <= 0.5:
                continue
            if m == 1:
                yield emit(
                    self,
                    c,
                    f"one guess among {k} options is right with probability {num(true, 1)}%, not "
                    f"{c.value}%",
                    suggestion=f"Compare scores with the {num(true, 1)}% chance level of {k}-option "
                    "items.",
                    evidence={"options": k, "rotations": 1, "needed": 1, "stated": stated, "chance": true},
                )
                continue
            yield emit(
                self,
                c,
                f"the chance level of this procedure ({r} of {m} {f['procedure']} correct, {k} options) "
                f"is {num(true, 1)}%, not {c.value}%",
                suggestion=f"A random guesser passes an item with probability {num(true, 1)}% under "
                f"this procedure ({r} correct of {m} orders, {k} options each); compare scores with "
                f"{num(true, 1)}%, not with the single-pass chance level of {num(100 / k, 0)}%.",
                evidence={"options": k, "rotations": m, "needed": r, "stated": stated, "chance": true},
            )

    def on_results(self, source: Source, ctx: Context) -> Iterable[Output]:
        """Multiple-choice files: a model indistinguishable from the chance level of its procedure."""
        rs = source.data
        if rs.chosen is None or rs.gold is None:
            return
        import numpy as np

        from benchaudit.stats.proportions import binom_cdf

        a = analysis(source, ctx)
        options = {lab for lab in rs.chosen.labels} | {lab for lab in rs.gold.labels}
        k = len(options)
        if not 2 <= k <= 10:
            return  # free-text answers have no chance level
        chance = 1.0 / k
        for m, row in enumerate(a.models):
            if row.get("score") is None:
                continue
            mask = rs.model.codes == m
            hits = int(round(float(np.sum(rs.score[mask] >= 0.5))))
            n = int(mask.sum())
            p_above = 1.0 - binom_cdf(hits - 1, n, chance)  # P(X >= hits) under chance
            if p_above < ctx.alpha:
                continue
            yield self.finding(
                Location(source.path, first_line(source, row["model"])),
                f"{row['model']} scores {percent(row['score'])} on {k}-option items: not "
                f"distinguishable from the {percent(chance)} chance level of a single asking "
                f"(P(≥{hits} of {n} by guessing) = {p_above:.3g})",
                claim=row["model"],
                suggestion=f'Report {row["model"]} as "{percent(row["score"])}, not above the '
                f'{percent(chance)} chance level of {k}-option guessing"; a procedure that rotates '
                "options and needs a majority has a lower chance level (3 of 4 rotations: 5.1%).",
                evidence={
                    "model": row["model"],
                    "options": k,
                    "chance": chance,
                    "hits": hits,
                    "n": n,
                    "p_above_chance": p_above,
                },
                severity=Severity.INFO,
            )
