"""BA503 conflicting-repeats: repeated (question, pair) battles with different outcomes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class ConflictingRepeats(Rule):
    """The same pair met on the same question several times, with conflicting verdicts.

    **What.** In a battles file with a ``question_id``, battles are grouped by
    (question, unordered pair). Groups with more than one battle are repeats;
    repeats whose outcomes differ (a win and a loss, or a win and a tie) are
    conflicts. The finding reports both counts and how much wider the rating
    intervals are when the bootstrap resamples questions instead of battles.

    **Why.** Repeats on one question are not independent votes: they share the
    prompt, and conflicting verdicts show the judge's own noise. Treating them
    as separate battles inflates the count and shrinks every interval.
    benchaudit's ratings then resample whole questions (a cluster bootstrap).

    Bad (battles.jsonl)::

        {"question_id": 1, "model_a": "m", "model_b": "n", "winner": "model_a"}
        {"question_id": 1, "model_a": "m", "model_b": "n", "winner": "model_b"}
        {"question_id": 2, "model_a": "n", "model_b": "m", "winner": "model_a"}
        {"question_id": 3, "model_a": "m", "model_b": "n", "winner": "tie"}

    Better (battles.jsonl)::

        {"question_id": 1, "model_a": "m", "model_b": "n", "winner": "tie"}
        {"question_id": 2, "model_a": "n", "model_b": "m", "winner": "model_a"}
        {"question_id": 3, "model_a": "m", "model_b": "n", "winner": "tie"}

    **Assumptions.** ``question_id`` identifies the prompt; "tie" and "tie
    (bothbad)" are the same outcome. Repeats that all agree are information.
    """

    code = "BA503"
    name = "conflicting-repeats"
    severity = Severity.WARNING
    reads = ("battles",)

    def on_battles(self, source: Source, ctx: Context) -> Iterable[Finding]:
        data = source.data
        rep = data.repeats()
        if not rep["repeated"]:
            return
        evidence = {k: rep[k] for k in ("groups", "repeated", "conflicting", "max_repeats")}
        evidence["examples"] = rep["examples"]
        q_r, b_r = data.ratings(ctx), data.battle_level_ratings(ctx)
        q_w = float((q_r.ci_high - q_r.ci_low).mean())
        b_w = float((b_r.ci_high - b_r.ci_low).mean())
        evidence.update(
            {
                "mean_ci_width_question": q_w,
                "mean_ci_width_battle": b_w,
                "width_ratio": q_w / b_w if b_w > 0 else None,
            }
        )
        line = rep["examples"][0]["line"] if rep["examples"] else 1
        where = (
            f" (first at question {rep['examples'][0]['question_id']})" if rep["examples"] else ""
        )
        if rep["conflicting"]:
            yield self.finding(
                Location(source.path, line),
                f"{rep['conflicting']} of {rep['repeated']} repeated (question, pair) groups have "
                f"conflicting winners{where}; repeats on a question are not independent votes",
                claim=f"{data.n_battles} battles",
                suggestion=(
                    f"Resample by question, not by battle: the 95% rating intervals widen from "
                    f"{b_w:.0f} to {q_w:.0f} Elo on average (benchaudit's ratings already do "
                    f"this), or collapse each (question, pair) to one verdict before fitting."
                ),
                evidence=evidence,
            )
        else:
            yield self.finding(
                Location(source.path, line),
                f"{rep['repeated']} (question, pair) groups are repeated (up to "
                f"{rep['max_repeats']} times) with agreeing outcomes; they count as one question",
                claim=f"{data.n_battles} battles",
                suggestion="Collapse repeats to one verdict per (question, pair) before fitting.",
                evidence=evidence,
                severity=Severity.INFO,
            )
