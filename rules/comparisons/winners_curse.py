"""BA208 winners-curse: the best of k candidates (prompts, checkpoints, seeds) picked on the test set."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import claims, emit, points
from benchaudit.rules._results import analysis, first_line
from benchaudit.rules._wording import num, percent

from benchaudit.finding import Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


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

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        from benchaudit.stats.selection import winners_curse_inflation

        for c in claims(source, "selection"):
            f = c.fields
            if f.get("validation"):
                continue
            k, what = f["k"], f["what"]
            p = points(c.value) / 100 if c.value else None
            ev: dict[str, Any] = {"k": k, "selected": what}
            if p is not None and c.n and 0 < p < 1:
                infl = 100 * winners_curse_inflation(k, p, c.n)
                ev.update({"score": 100 * p, "n": c.n, "expected_inflation_points": infl})
                msg = (
                    f"best of {k} {what} picked on the test set: with {k} equally good candidates "
                    f"at {num(100 * p)}% on {c.n} items the best one is inflated by "
                    f"{num(infl, 2)} points on average"
                )
                fix = (
                    f"{num(100 * p)}% is the best of {k} {what} chosen on the test set; with {k} "
                    f"equally good candidates the maximum is inflated by about {num(infl, 1)} points, "
                    f"so a choice made on a held-out validation split would be expected to score "
                    f"about {num(100 * p - infl)}%."
                )
            else:
                # No score to work from: an example at 70% on the claim's items (500 if unknown).
                n_ex = c.n if c.n and c.n > 1 else 500
                infl = 100 * winners_curse_inflation(k, 0.7, n_ex)
                ev.update(
                    {
                        "expected_inflation_points_at_70pct_500": 100 * winners_curse_inflation(k, 0.7, 500),
                        "example_n": n_ex,
                        "expected_inflation_points_example": infl,
                    }
                )
                msg = (
                    f"best of {k} {what} picked on the test set overstates the score "
                    f"(for {k} equal candidates at 70% on {n_ex} items: +{num(infl, 2)} points)"
                )
                fix = (
                    f"Choose among the {k} {what} on a held-out validation split and report that "
                    f"candidate's test score, or report all {k} scores (mean and range)."
                )
            yield emit(self, c, msg, suggestion=fix, evidence=ev)

    def on_results(self, source: Source, ctx: Context) -> Iterable[Output]:
        """Several variants of one model on the same items: the best one is inflated."""
        from benchaudit.stats.selection import winners_curse_inflation

        variants = source.data.meta.get("variants") or {}
        if not variants:
            return
        a = analysis(source, ctx)
        groups: dict[str, list[dict[str, Any]]] = {}
        for row in a.models:
            base, var = variants.get(row["model"], [row["model"], ""])
            if var and row["score"] is not None:
                groups.setdefault(base, []).append(row)
        for base, rows in groups.items():
            k = len(rows)
            if k < 2:
                continue
            best = max(rows, key=lambda r: r["score"])
            n = min(r["n_items"] for r in rows)
            p = sum(r["score"] for r in rows) / k
            infl = winners_curse_inflation(k, min(max(p, 0.0), 1.0), n)
            corrected = best["score"] - infl
            yield self.finding(
                Location(source.path, first_line(source, best["model"])),
                f"{k} variants of {base} were scored on the same {n:,} test items; the best "
                f"({best['model']}, {percent(best['score'])}) is expected to overstate its accuracy by "
                f"{100 * infl:.2f} points even if all {k} were equally good",
                claim=best["model"],
                suggestion=f"Choose the variant on a held-out split and re-score it on the test "
                f'set, or report "best of {k} variants chosen on the test set: '
                f"{percent(best['score'])}; expected selection bias {100 * infl:.1f} points "
                f'(≈{percent(corrected)} after correction)".',
                evidence={
                    "model": base,
                    "variants": k,
                    "n_items": n,
                    "best": best["model"],
                    "best_score": best["score"],
                    "mean_score": p,
                    "inflation": infl,
                    "scores": {r["model"]: r["score"] for r in rows},
                },
            )
