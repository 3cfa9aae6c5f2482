"""BA207 multiple-comparisons: many significance tests reported without a multiple-comparison correction."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import claims, emit
from benchaudit.rules._results import analysis, first_line
from benchaudit.rules._wording import num, signed_points

from benchaudit.finding import Confidence, Location, Severity
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Pairs listed in the evidence of one finding (a run of 1,000 models may lose thousands).
EVIDENCE_PAIRS = 100



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

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        from benchaudit.stats.multiple import holm, holm_reject

        alpha = ctx.alpha
        done_doc = False
        for c in claims(source, "comparison"):
            f = c.fields
            if f.get("correction") or f.get("doc_correction"):
                continue
            exact = [float(p["value"]) for p in f.get("pvalues", []) if p["op"] == "="]
            sig_of = f.get("sig_of")
            if sig_of and sig_of[1] and sig_of[1] >= 3 and sig_of[0] is not None:
                k, m = sig_of
                expected = m * alpha
                yield emit(
                    self,
                    c,
                    f"{k} of {m} tests significant at {alpha:g} with no correction: about "
                    f"{num(expected, 2)} false positives are expected by chance alone",
                    suggestion=f"Better on {k} of {m} benchmarks at p < {alpha:g} before correction "
                    f"(about {num(expected, 1)} of {m} such differences are expected by chance alone); "
                    f"after a Holm correction the smallest p must be below {alpha / m:.2g}, so report "
                    f"the Holm-adjusted p-values.",
                    evidence={"significant": k, "tests": m, "expected_false_positives": expected},
                )
            elif len(exact) >= 3:
                rej = holm_reject(exact, alpha)
                raw = sum(p < alpha for p in exact)
                if sum(rej) < raw:
                    adj = holm(exact)
                    yield emit(
                        self,
                        c,
                        f"{len(exact)} p-values without correction: {raw} below {alpha:g}, "
                        f"{sum(rej)} after Holm",
                        suggestion="Report Holm-adjusted p-values: "
                        + ", ".join(f"{p:g} → {q:.3g}" for p, q in zip(exact, adj))
                        + ".",
                        evidence={
                            "pvalues": exact,
                            "holm": adj,
                            "reject_raw": raw,
                            "reject_holm": sum(rej),
                        },
                    )
            elif f.get("n_tests") and f["n_tests"] >= 5 and f.get("significant") == "yes":
                m = f["n_tests"]
                yield emit(
                    self,
                    c,
                    f"{m} tests reported significant at {alpha:g} without a multiple-comparison "
                    f"correction ({num(m * alpha, 2)} false positives expected under the null)",
                    suggestion=f"Adjust the {m} p-values (Holm) and say which differences survive.",
                    evidence={"tests": m, "expected_false_positives": m * alpha},
                    confidence=Confidence.MEDIUM,
                )
            elif not done_doc and f.get("doc_pvalues", 0) >= 6 and f.get("pvalues"):
                done_doc = True
                yield emit(
                    self,
                    c,
                    f"the document reports {f['doc_pvalues']} p-values and never mentions a "
                    f"multiple-comparison correction",
                    suggestion="State the correction used (e.g. Holm over all reported comparisons) "
                    "and give adjusted p-values.",
                    evidence={"pvalues_in_document": f["doc_pvalues"]},
                    confidence=Confidence.MEDIUM,
                )

    def on_results(self, source: Source, ctx: Context) -> Iterable[Output]:
        """Pairs significant before Holm's correction and not after it."""
        a = analysis(source, ctx)
        alpha = ctx.alpha
        comps = a.comparisons
        if len(comps) < 2:
            return
        if isinstance(comps, list):  # a small file's rows (no numpy)
            every = [c for c in comps if c["p_value"] < alpha <= c["p_adjusted"]]
            lost, n_lost = every[:EVIDENCE_PAIRS], len(every)
        else:
            import numpy as np

            p, adjusted = comps.column("p_value"), comps.column("p_adjusted")
            where = np.flatnonzero((p < alpha) & (alpha <= adjusted))
            # The evidence lists the first EVIDENCE_PAIRS (all are in results.comparisons).
            lost, n_lost = comps.rows(where[:EVIDENCE_PAIRS]), int(where.size)
        if not n_lost:
            return
        shown = "; ".join(
            f"{c['a']} vs {c['b']} p = {c['p_value']:.3g} → {c['p_adjusted']:.3g}" for c in lost[:5]
        )
        more = f" and {n_lost - 5} more" if n_lost > 5 else ""
        evidence: dict[str, Any] = {
            "tests": len(comps),
            "alpha": alpha,
            "pairs": [[c["a"], c["b"]] for c in lost],
            "p_values": [c["p_value"] for c in lost],
            "p_adjusted": [c["p_adjusted"] for c in lost],
        }
        if n_lost > len(lost):
            evidence["pairs_not_listed"] = n_lost - len(lost)
        yield self.finding(
            Location(source.path, first_line(source)),
            f"{n_lost} of {len(comps)} pairwise comparisons are significant at {alpha} only "
            f"without correction for the {len(comps)} tests ({shown}{more})",
            claim=", ".join(f"{c['a']} vs {c['b']}" for c in lost[:5]),
            suggestion=f"Report Holm-adjusted p-values across all {len(comps)} pairs: "
            + "; ".join(
                f"{c['a']} vs {c['b']}: {signed_points(c['diff'])} points, Holm p = "
                f"{c['p_adjusted']:.3g} (not significant)"
                for c in lost[:3]
            )
            + ".",
            evidence=evidence,
        )
