"""BA401 position-bias: a multiple-choice scorer over-chooses one option."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._wording import percent

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Over-choice ratios at or above this (and significant) are reported.
RATIO = 1.5
#: More distinct labels than this are free-text answers, not option letters.
MAX_OPTIONS = 10


class PositionBias(Rule):
    """A multiple-choice model or scorer picks one option position far more often than chance.

    **What.** From the chosen and gold option columns of a per-item file the
    rule counts, per model, how often each option was chosen (m_j) among n
    answers over k options and computes the over-choice ratio R_j = m_j / (n/k),
    next to how often that option was the gold answer. An option chosen at
    least 1.5 times as often as an unbiased procedure would choose it, with an
    exact binomial tail below α, is a warning. The message gives the chance
    level of single-asking guessing (1/k) and what a rotation procedure fixes.

    **Why.** A model that answers "A" when unsure scores the share of items
    whose answer is A, not what it knows. 16 of 20 answers "A" is R_A = 3.2;
    with a gold distribution of 5 per letter it earns about 25% by position
    alone. Scoring the option text, or a majority over cyclic rotations of the
    options, removes the reward for the habit.

    Bad (scores.csv)::

        model,item,chosen,gold,correct
        m,1,A,A,1
        m,2,A,B,0
        m,3,A,C,0
        m,4,A,D,0
        m,5,A,A,1
        m,6,A,B,0
        m,7,A,C,0
        m,8,A,D,0
        m,9,A,A,1
        m,10,A,B,0
        m,11,A,C,0
        m,12,B,B,1

    Better (scores.csv)::

        model,item,chosen,gold,correct
        m,1,A,A,1
        m,2,B,B,1
        m,3,C,C,1
        m,4,D,D,1
        m,5,A,A,1
        m,6,B,C,0
        m,7,C,C,1
        m,8,D,A,0

    **Assumptions.** Options are the labels seen in the chosen and gold columns
    (k of them); an unbiased procedure spreads its choices evenly over them. The
    test is one-sided for the most chosen option and is not corrected for the k
    options (a Bonferroni factor k is in the evidence).
    """

    code = "BA401"
    name = "position-bias"
    severity = Severity.WARNING
    reads = ("results",)

    def on_results(self, source: Source, ctx: Context) -> Iterable[Finding]:
        rs = source.data
        if rs.chosen is None:
            return
        import numpy as np

        from benchaudit.stats.proportions import binom_cdf

        options = sorted(set(rs.chosen.labels) | set(rs.gold.labels if rs.gold else []))
        k = len(options)
        if not 2 <= k <= MAX_OPTIONS:
            return  # free-text answers, not options
        chosen_lab = np.array([options.index(x) for x in rs.chosen.labels] + [-1])
        chosen = chosen_lab[rs.chosen.codes]  # -1 code maps to the trailing -1
        gold = None
        if rs.gold is not None:
            gold_lab = np.array([options.index(x) for x in rs.gold.labels] + [-1])
            gold = gold_lab[rs.gold.codes]
        for m, model in enumerate(rs.models):
            mask = (rs.model.codes == m) & (chosen >= 0)
            n = int(mask.sum())
            if n < k:
                continue
            counts = np.bincount(chosen[mask], minlength=k)
            ratios = counts / (n / k)
            j = int(np.argmax(ratios))
            p = 1.0 - binom_cdf(int(counts[j]) - 1, n, 1.0 / k)  # P(X >= m_j) under 1/k
            if ratios[j] < RATIO or p >= ctx.alpha:
                continue
            gold_counts = (
                np.bincount(gold[mask & (gold >= 0)], minlength=k) if gold is not None else None
            )
            line = rs.line_of(int(np.flatnonzero(mask)[0]))
            table = ", ".join(f"{o} {c} ({r:.1f})" for o, c, r in zip(options, counts, ratios))
            gold_text = (
                ("; gold answers: " + ", ".join(f"{o} {g}" for o, g in zip(options, gold_counts)))
                if gold_counts is not None
                else ""
            )
            acc_if_always = (
                float(gold_counts[j]) / max(int(gold_counts.sum()), 1)
                if gold_counts is not None
                else 1.0 / k
            )
            yield self.finding(
                Location(source.path, line),
                f"{model} chose option {options[j]} in {counts[j]} of {n} answers: over-choice "
                f"ratio R = {ratios[j]:.1f} (chosen, ratio: {table}{gold_text}); chance level "
                f"of single-asking guessing is {percent(1 / k)}, P = {p:.2g}",
                claim=model,
                suggestion=f"Score the option text or take a majority over {k} cyclic rotations "
                f"of the options, and report {model}'s score next to its position-only "
                f"baseline (always '{options[j]}' scores {percent(acc_if_always)} here).",
                evidence={
                    "model": model,
                    "options": options,
                    "counts": counts.tolist(),
                    "ratios": [float(r) for r in ratios],
                    "n": n,
                    "k": k,
                    "most_chosen": options[j],
                    "p_value": p,
                    "p_bonferroni": min(1.0, p * k),
                    "chance_level": 1.0 / k,
                    "gold_counts": None if gold_counts is None else gold_counts.tolist(),
                },
            )
