"""BA209 seed-interval: an interval over a few seeds using z = 1.96 instead of the t(k-1) quantile."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import claims, emit
from benchaudit.rules._results import analysis, first_line
from benchaudit.rules._wording import interval, level, num, percent

from benchaudit.finding import Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


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

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        from benchaudit.stats.student import t_quantile

        for c in claims(source, "seeds"):
            f = c.fields
            k = f["k"]
            if k >= 30 or f.get("t_quantile"):
                continue
            t = t_quantile(0.95, k - 1)
            ev: dict[str, Any] = {"seeds": k, "z": 1.96, "t": round(t, 3), "widen": t / 1.96}
            if f.get("z196"):
                if c.plus_minus and c.value:
                    h = float(c.plus_minus) * t / 1.96
                    ev.update({"stated_halfwidth": float(c.plus_minus), "t_halfwidth": h})
                    fix = (
                        f"{c.value} ± {num(h, 2)} (95% t-interval over {k} {f['unit']}, "
                        f"t({k - 1}) = {t:.2f})"
                    )
                else:
                    fix = (
                        f"Use the t({k - 1}) quantile {t:.2f} instead of 1.96: the 95% interval "
                        f"over {k} {f['unit']} is {t / 1.96:.2f}× wider than stated."
                    )
                yield emit(
                    self,
                    c,
                    f"a 95% interval over {k} {f['unit']} with z = 1.96; with {k - 1} degrees of "
                    f"freedom it needs t = {t:.2f} ({t / 1.96:.2f}× wider)",
                    suggestion=fix,
                    evidence=ev,
                )
            elif f.get("ci95") and not f.get("sd"):
                yield emit(
                    self,
                    c,
                    f"a 95% interval over {k} {f['unit']} without saying how it was computed; "
                    f"with {k - 1} degrees of freedom it needs t = {t:.2f}, not 1.96",
                    suggestion=f"State the interval as a t-interval: mean ± {t:.2f} × sd / √{k}.",
                    evidence=ev,
                    severity=Severity.INFO,
                )

    def on_results(self, source: Source, ctx: Context) -> Iterable[Output]:
        """Over seeds: the t(k-1) interval, and the seed spread against the item SE."""
        from benchaudit.stats.special import z_for
        from benchaudit.stats.student import t_quantile

        a = analysis(source, ctx)
        z, conf = z_for(1 - ctx.alpha), level(ctx.alpha)
        for row in a.models:
            k = row.get("seeds") or 0
            if k < 2 or row.get("seed_sd") is None:
                continue
            sd, item_se = row["seed_sd"], row["item_se"]
            t = t_quantile(1 - ctx.alpha, k - 1)
            z_half = z * sd / k**0.5
            t_half = t * sd / k**0.5
            evidence = {
                "model": row["model"],
                "seeds": k,
                "seed_sd": sd,
                "item_se": item_se,
                "t": t,
                "t_halfwidth": t_half,
                "z_halfwidth": z_half,
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
            }
            wording = (
                f"{row['model']}: {percent(row['score'])} ± {100 * t_half:.1f} points "
                f"(mean of {k} seeds, {conf} t({k - 1}) interval, t = {t:.2f})"
            )
            if row.get("ci_method") == "items-and-seeds":
                # The interval that counts both samples: the items and the seeds.
                wording = (
                    f"{row['model']}: {percent(row['score'])} ({conf} CI "
                    f"{interval(100 * row['ci_low'], 100 * row['ci_high'])} over "
                    f"{row['n_items']:,} items and {k} seeds)"
                )
                evidence.update(
                    item_part_se=row["item_part_se"], seed_part_se=row["seed_part_se"], df=row["df"]
                )
            if sd > item_se:
                yield self.finding(
                    Location(source.path, first_line(source, row["model"])),
                    f"{row['model']}: the spread across {k} seeds (SD {100 * sd:.2f} points) exceeds "
                    f"the item-level SE ({100 * item_se:.2f} points); an interval from one run's "
                    "items understates the uncertainty",
                    claim=row["model"],
                    suggestion=f"Report {wording}, and add seeds rather than items.",
                    evidence=evidence,
                )
            else:
                need = (
                    f"an interval needs both the items and the seeds (t({k - 1}) = {t:.2f} "
                    f"over seeds alone, not {z:.2f})"
                    if row.get("ci_method") == "items-and-seeds"
                    else f"an interval over seeds needs t({k - 1}) = {t:.2f}, not {z:.2f}"
                )
                yield self.finding(
                    Location(source.path, first_line(source, row["model"])),
                    f"{row['model']}: {k} seeds; {need}",
                    claim=row["model"],
                    suggestion=f"Report {wording}.",
                    evidence=evidence,
                    severity=Severity.INFO,
                )
