"""BA304 generations-as-items: several samples per item treated as independent items."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._claims import claims, emit
from benchaudit.rules._results import analysis, first_line
from benchaudit.rules._wording import interval, level, percent

from benchaudit.finding import Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class GenerationsAsItems(Rule):
    """Several samples per item treated as independent items.

    **What.** Documents: "10 completions per problem ... standard error over all
    1,640 samples" or "n = 1,640" for 164 problems, or "treating each sample
    as an item".

    Per-item files with several rows per model and item (a sample column): the SE
    over generations is set against the SE over item means; a generation-level SE
    more than 5% too small is a warning.

    **Why.** Samples of one item share its difficulty: they are correlated, so
    counting them as items shrinks the standard error by up to √k. The unit of
    the interval is the item (or a clustered SE with items as clusters).

    Bad::

        We sample 10 completions per problem on HumanEval and report the
        standard error over all 1,640 samples.

    Better::

        We sample 10 completions per problem on HumanEval, average them within
        each problem, and report the standard error over the 164 problems.

    **Assumptions.** The stated count is items × samples per item.
    """

    code = "BA304"
    name = "generations-as-items"
    severity = Severity.WARNING

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        for c in claims(source, "generations"):
            f = c.fields
            k, used, items = c.samples or 1, f.get("n_used"), f.get("items") or c.n
            if used is None or (items and used == items):
                continue
            if used != -1 and used % k and not items:
                continue
            items = items or (used // k if used and used > 0 else None)
            ev = {"samples_per_item": k, "n_used": used, "items": items}
            where = f"the {items} items" if items else "the items"
            yield emit(
                self,
                c,
                f"{k} samples per item treated as independent items"
                + (f" (n = {used} instead of {items})" if used and used > 0 and items else "")
                + f": samples of one item are correlated, so the interval is up to √{k} = "
                f"{k**0.5:.2f}× too narrow",
                suggestion=f"Average the {k} samples within each item and compute the standard error "
                f"over {where} (or a clustered SE with items as clusters).",
                evidence=ev,
            )

    def on_results(self, source: Source, ctx: Context) -> Iterable[Output]:
        """Several rows per item: counting generations as items understates the SE."""
        import math

        rs = source.data
        a = analysis(source, ctx)
        mx = a.matrix
        for m, row in enumerate(a.models):
            spi = row.get("samples_per_item")
            if not spi or spi <= 1 or row.get("score") is None:
                continue
            rows_m = rs.score[rs.model.codes == m]
            g = rows_m.size
            gen_se = float(rows_m.std(ddof=1) / math.sqrt(g)) if g > 1 else 0.0
            x = mx.value[m, mx.present[m]]
            item_se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else 0.0
            # Every generation scored alike: both SEs are 0 (items' means are alike too), so
            # counting generations understates nothing; the ratio is 1, not infinite.
            ratio = item_se / gen_se if gen_se > 0 else 1.0
            n = row["n_items"]
            lo, hi = row["ci_low"], row["ci_high"]
            yield self.finding(
                Location(source.path, first_line(source, row["model"])),
                f"{row['model']}: {g:,} rows are {spi:g} generations on average for each of {n:,} "
                f"items; treated as {g:,} independent items the SE would be {100 * gen_se:.2f} "
                f"points, averaged within items it is {100 * item_se:.2f} ({ratio:.2f}×)",
                claim=row["model"],
                suggestion=f"Average the generations within each item and report {row['model']} "
                f"as {percent(row['score'])} ({level(ctx.alpha)} CI {interval(100 * lo, 100 * hi)}, n = {n:,} items, "
                f"{spi:g} samples per item), not n = {g:,}.",
                evidence={
                    "model": row["model"],
                    "rows": g,
                    "n_items": n,
                    "samples_per_item": spi,
                    "se_generations": gen_se,
                    "se_items": item_se,
                    "ratio": ratio if math.isfinite(ratio) else None,
                },
                severity=Severity.WARNING if ratio > 1.05 else Severity.INFO,
            )
