"""BA206 p-value-inconsistent: a reported p that its own statistic or counts contradict."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import claims, emit, points

from benchaudit.finding import Finding, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source

_NAMES = {"z": "z", "t": "t", "chi2": "χ²", "F": "F", "r": "r"}


class PValueInconsistent(Rule):
    """A reported p-value (or "p < α", or "significant") that its own statistic or counts contradict.

    **What.** Recomputes p from the statistic the sentence reports — z, t(df),
    χ²(df), F(df1, df2), r(df) — or from McNemar's discordant counts, or from
    two scores and n when a two-proportion test is named, and compares it
    with the reported p, statcheck-style: a reported statistic stands for
    every value that rounds to it, and the reported p is consistent when some
    such value gives a p that rounds to it (or satisfies the stated bound).
    When the significance decision at α flips, it is an error; a smaller
    mismatch is a warning. "Significant" with a statistic whose p is at or
    above α is an error too, and "not significant" with p < α a warning.

    **Why.** Inconsistent p-values are common in published papers (statcheck
    found one in about half of psychology papers with tests) and a flipped
    decision changes the conclusion. McNemar with 90 vs 70 discordant items
    gives p = 0.133, so "p < 0.05" cannot be right.

    Bad::

        Model A was right on 90 questions where model B was wrong and B on 70
        where A was wrong, a significant difference (McNemar, p < 0.05).

    Better::

        Model A was right on 90 questions where model B was wrong and B on 70
        where A was wrong (McNemar, p = 0.13): not a significant difference.

    **Assumptions.** Two-sided tests unless the sentence says one-sided or
    one-tailed (then the halved p of z, t and r is accepted too). McNemar
    accepts the exact test and the chi-square form with or without continuity
    correction.
    """

    code = "BA206"
    name = "p-value-inconsistent"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        for c in claims(source, "comparison"):
            yield from _check(self, c, ctx.alpha)


def _candidates(c: Claim, alpha: float) -> list[tuple[str, float, float, float, dict[str, Any]]]:
    """(label, computed p, smallest admissible p, largest admissible p, evidence)."""
    from benchaudit.stats import significance as sig

    f = c.fields
    out = []
    for s in f.get("stats", []):
        if s["test"] in ("t", "chi2", "F", "r") and not s["df"]:
            continue
        df = tuple(s["df"])
        try:
            p, lo, hi = sig.p_range(s["test"], s["value"], df)
        except (ValueError, ZeroDivisionError):
            continue
        if f.get("one_sided") and sig.TESTS[s["test"]][1]:
            lo = lo / 2
        dfs = f"({', '.join(f'{d:g}' for d in df)})" if df else ""
        label = f"{_NAMES[s['test']]}{dfs} = {s['value']}"
        out.append((label, p, lo, hi, {"test": s["test"], "statistic": s["value"], "df": list(df)}))
    if f.get("discordant"):
        b, cc = f["discordant"]
        p = sig.p_from_mcnemar(b, cc)
        m = b + cc
        variants = [p]
        if m:
            variants.append(
                sig.p_from_chi2((abs(b - cc) - 1) ** 2 / m if abs(b - cc) > 1 else 0.0, 1)
            )
            variants.append(sig.p_from_chi2((b - cc) ** 2 / m, 1))
        out.append(
            (
                f"McNemar with {b} vs {cc} discordant items",
                p,
                min(variants),
                max(variants),
                {"test": "mcnemar", "b": b, "c": cc},
            )
        )
    a, bv = f.get("a_value"), f.get("b_value")
    if not out and f.get("unpaired_test") and a and bv and c.n:
        from benchaudit.stats.paired import unpaired_diff

        x, y = points(a, bv) / 100, points(bv, a) / 100
        *_, z, p = unpaired_diff(x, c.n, y, c.n)
        out.append(
            (
                f"a two-proportion z-test of {a} vs {bv} on {c.n} items",
                p,
                p,
                p,
                {"test": "two-proportion", "z": z, "n": c.n},
            )
        )
    return out


def _check(rule: Rule, c: Claim, alpha: float) -> Iterable[Finding]:
    from benchaudit.stats.significance import check_reported

    f = c.fields
    cands = _candidates(c, alpha)
    if not cands:
        pvals = f.get("pvalues", [])
        for p in pvals if len(pvals) == 1 else []:
            if (
                f.get("significant") == "no"
                and p["op"] in ("=", "<", "<=")
                and float(p["value"]) < alpha
            ):
                yield emit(
                    rule,
                    c,
                    f"called not significant, but the reported {p['text']} is below α = {alpha:g}",
                    suggestion=f"Either the difference is significant "
                    f"({p['text']}), or the p-value is misreported; recheck the test.",
                    evidence={"p": float(p["value"]), "alpha": alpha},
                )
        return
    pvals = f.get("pvalues", [])
    for i, (label, p, lo, hi, ev) in enumerate(cands):
        rep = (
            pvals[i]
            if i < len(pvals)
            else (pvals[-1] if len(pvals) == 1 and len(cands) == 1 else None)
        )
        ev = {**ev, "computed_p": p, "p_low": lo, "p_high": hi, "alpha": alpha}
        if rep is not None:
            r = check_reported(rep["op"], rep["value"], lo, hi, p, alpha)
            if r.consistent:
                continue
            ev["reported"] = f"{rep['op']} {rep['value']}"
            flip = r.decision_flip
            yield emit(
                rule,
                c,
                f"{label} gives p = {p:.3g}, not {rep['text']}"
                + (f": the decision at α = {alpha:g} flips" if flip else ""),
                suggestion=f"{label}, p = {_fmt(p)}"
                + (f" (not significant at α = {alpha:g})." if p >= alpha else "."),
                evidence=ev,
                severity=Severity.ERROR if flip else Severity.WARNING,
            )
        elif f.get("significant") == "yes" and lo >= alpha:
            yield emit(
                rule,
                c,
                f"called significant, but {label} gives p = {p:.3g} ≥ α = {alpha:g}",
                suggestion=f"{label}, p = {_fmt(p)}: the difference is not statistically "
                f"significant at α = {alpha:g}.",
                evidence=ev,
                severity=Severity.ERROR,
            )
        elif f.get("significant") == "no" and hi < alpha:
            yield emit(
                rule,
                c,
                f"called not significant, but {label} gives p = {p:.3g} < α = {alpha:g}",
                suggestion=f"{label}, p = {_fmt(p)}: the difference is significant at "
                f"α = {alpha:g}.",
                evidence=ev,
            )


def _fmt(p: float) -> str:
    if p < 0.001:
        return f"{p:.1e}"
    return f"{p:.3f}"
