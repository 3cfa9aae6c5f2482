"""BA202 unpaired-comparison: models on the same items compared as if independent."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.rules._claims import claims, emit, points, unpaired
from benchaudit.rules._wording import num, signed

from benchaudit.finding import Confidence, Finding, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class UnpairedComparison(Rule):
    """Two models scored on the same items compared with an unpaired test or separate intervals.

    **What.** A sentence that compares two models with a two-proportion z-test,
    a chi-square test of independence, Fisher's exact test, an unpaired or
    Welch t-test, or by whether their separate intervals overlap, while both
    models answered the same items (the sentence says "same questions" or
    names one benchmark for both). No finding when a paired analysis (McNemar,
    paired bootstrap, sign test) is reported in the same sentence.

    **Why.** On shared items most of the noise is shared: the item difficulty
    that makes both models fail cancels in the difference. The unpaired test
    ignores that and is too conservative. The worked example: 335/30/15/120 of
    500 gives +3.0 points, unpaired ± 5.6 (p = 0.29) but paired ± 2.6, McNemar
    p = 0.036.

    Bad::

        On the same 500 questions model A scores 73.0% and model B 70.0%; a
        two-proportion z-test gives p = 0.29.

    Better::

        On the same 500 questions model A scores 73.0% and model B 70.0%; a
        McNemar test on the 45 discordant questions (30 vs 15) gives p = 0.036.

    **Assumptions.** "The same benchmark" means the same items; a sentence
    that compares models on different subsets should say so.
    """

    code = "BA202"
    name = "unpaired-comparison"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        said: set[tuple[object, str]] = set()
        for c in claims(source, "comparison"):
            f = c.fields
            test = f.get("unpaired_test")
            if not test or f.get("paired_test") or f.get("overlap") == "null":
                continue
            if f.get("paragraph") is not None:
                # A test named once and the p-values of later sentences that use it: one finding.
                key = (f.get("paragraph"), str(test).lower())
                if key in said:
                    continue
                said.add(key)
            shared = f.get("same_items") or c.benchmark is not None
            ev = {"test": test, "same_items": bool(f.get("same_items")), "benchmark": c.benchmark}
            a, b = f.get("a_value"), f.get("b_value")
            if a and b and c.n:
                x, y = points(a, b), points(b, a)
                u = unpaired(x, y, c.n, 1 - ctx.alpha)
                ev.update(u)
                fix = (
                    f"{num(x)}% vs {num(y)}% on the same {c.n} items: {signed(u['diff'])} points; "
                    f"the unpaired 95% interval ({signed(u['lo'])} to {signed(u['hi'])}, p = "
                    f"{u['p']:.2g}) ignores the pairing; report a McNemar test on the "
                    f"discordant items and the paired interval."
                )
            else:
                fix = (
                    "Both models answered the same items: compare them with a paired test "
                    "(McNemar on the items only one model got right, or a paired bootstrap) "
                    "and report the paired interval of the difference."
                )
            yield emit(
                self,
                c,
                f"compared with {test} although both models were scored on the same items; "
                f"a paired analysis is the right test and is usually much narrower",
                suggestion=fix,
                evidence=ev,
                confidence=c.confidence if shared else Confidence.LOW,
            )
