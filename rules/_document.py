"""Checks of claims in documents (prose, markdown, HTML, PDF) for rules that
also read data files.

Each ``check_*`` function is the ``document`` branch of one rule: the rule
module dispatches on ``source.kind`` and calls it. The claims come from
:mod:`benchaudit.inputs.comparisons`. Standard library only: this runs when
checking a README.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from benchaudit.finding import Confidence, Finding, Severity

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source
    from benchaudit.registry import Rule

MINUS = "\u2212"


def claims(source: Source, *kinds: str) -> Iterator[Claim]:
    for c in source.claims:
        if c.kind in kinds:
            yield c


def signed(x: float, digits: int = 1) -> str:
    """``+3.0`` / ``−2.6`` (a real minus sign, as in print)."""
    s = f"{x:+.{digits}f}"
    return s.replace("-", MINUS)


def num(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f}".replace("-", MINUS)


def points(value: str, other: str | None = None) -> float:
    """A score as points (0-100): ``"0.73"`` reads as 73 when both values are proportions."""
    v = float(value)
    if v <= 1 and (other is None or float(other) <= 1) and "." in value:
        return v * 100
    return v


def severity_for(conf: Confidence, default: Severity) -> Severity:
    """A low-confidence parse gives info, never an error or a warning."""
    return Severity.INFO if conf is Confidence.LOW else default


def level(alpha: float) -> str:
    """The confidence level that goes with ``alpha``: ``0.05`` → ``95%``."""
    return f"{100 * (1 - alpha):g}%"


def unpaired(a: float, b: float, n: int, confidence: float = 0.95) -> dict[str, float]:
    """The unpaired analysis of a - b (in points) with n items per model."""
    from benchaudit.stats.paired import unpaired_diff

    diff, lo, hi, z, p = unpaired_diff(a / 100, n, b / 100, n, confidence)
    return {"diff": diff * 100, "lo": lo * 100, "hi": hi * 100, "z": z, "p": p, "n": n}


def emit(
    rule: Rule,
    claim: Claim,
    message: str,
    *,
    suggestion: str,
    evidence: dict[str, Any],
    severity: Severity | None = None,
    confidence: Confidence | None = None,
) -> Finding:
    conf = confidence if confidence is not None else claim.confidence
    sev = severity_for(conf, severity if severity is not None else rule.severity)
    return rule.finding(
        claim.location,
        message,
        claim=claim,
        suggestion=suggestion,
        evidence=evidence,
        severity=sev,
        confidence=conf,
    )


# --- BA205 underpowered ------------------------------------------------------------


def check_underpowered(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.stats.paired import mcnemar_floor
    from benchaudit.stats.power import mde_unpaired

    alpha = ctx.alpha
    for c in claims(source, "comparison"):
        f = c.fields
        m = sum(f["discordant"]) if f.get("discordant") else f.get("disagreements")
        if f.get("hedged"):
            continue
        if m is not None and m >= 0 and mcnemar_floor(m) >= alpha:
            floor = mcnemar_floor(m)
            yield emit(
                rule,
                c,
                f"with {m} discordant items no paired test can reach p < {alpha:g}: the smallest "
                f"possible McNemar p is 2·(1/2)^{m} = {floor:.4g}",
                suggestion=f"The models disagree on only {m} items, too few for any test to reach "
                f"p < {alpha:g} (the smallest possible p is {floor:.3g}); report the comparison "
                f"as inconclusive and evaluate on more items.",
                evidence={"discordant": m, "p_floor": floor, "alpha": alpha},
            )
            continue
        if f.get("significant") != "no" or f.get("equivalence") or not c.n:
            continue
        if f.get("significant_from") != "words" or f.get("direction") in ("better", "worse"):
            continue  # a null result stated as such, not a win with a large p
        a, b = f.get("a_value"), f.get("b_value")
        if not (a and b):
            continue  # the design's power needs the scores compared
        base = points(a, b)
        if base is None or not 0 < base < 100:
            continue
        mde = 100 * mde_unpaired(base / 100, c.n, alpha)
        if mde < 3:
            continue
        yield emit(
            rule,
            c,
            f"a null result on {c.n} items says little: at {num(base)}% an unpaired comparison "
            f"detects only gaps of {num(mde)} points or more with 80% power",
            suggestion=f"No significant difference was found, but with {c.n} items the study "
            f"could only detect differences of about {num(mde)} points (80% power, α = {alpha:g}); "
            f"smaller differences are not ruled out.",
            evidence={"n": c.n, "n_source": c.n_source, "score": base, "mde_points": mde},
            confidence=Confidence.MEDIUM,
        )


# --- BA207 multiple-comparisons ------------------------------------------------------


def check_multiple(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
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
                rule,
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
                    rule,
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
                rule,
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
                rule,
                c,
                f"the document reports {f['doc_pvalues']} p-values and never mentions a "
                f"multiple-comparison correction",
                suggestion="State the correction used (e.g. Holm over all reported comparisons) "
                "and give adjusted p-values.",
                evidence={"pvalues_in_document": f["doc_pvalues"]},
                confidence=Confidence.MEDIUM,
            )


# --- BA208 winners-curse -------------------------------------------------------------


def check_winners(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
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
            infl = 100 * winners_curse_inflation(k, 0.7, 500)
            ev.update({"expected_inflation_points_at_70pct_500": infl})
            msg = (
                f"best of {k} {what} picked on the test set overstates the score "
                f"(for {k} equal candidates at 70% on 500 items: +{num(infl, 2)} points)"
            )
            fix = (
                f"Choose among the {k} {what} on a held-out validation split and report that "
                f"candidate's test score, or report all {k} scores (mean and range)."
            )
        yield emit(rule, c, msg, suggestion=fix, evidence=ev)


# --- BA209 seed-interval -------------------------------------------------------------


def check_seeds(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
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
                rule,
                c,
                f"a 95% interval over {k} {f['unit']} with z = 1.96; with {k - 1} degrees of "
                f"freedom it needs t = {t:.2f} ({t / 1.96:.2f}× wider)",
                suggestion=fix,
                evidence=ev,
            )
        elif f.get("ci95") and not f.get("sd"):
            yield emit(
                rule,
                c,
                f"a 95% interval over {k} {f['unit']} without saying how it was computed; "
                f"with {k - 1} degrees of freedom it needs t = {t:.2f}, not 1.96",
                suggestion=f"State the interval as a t-interval: mean ± {t:.2f} × sd / √{k}.",
                evidence=ev,
                severity=Severity.INFO,
            )


# --- BA304 generations-as-items ------------------------------------------------------


def check_generations(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
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
            rule,
            c,
            f"{k} samples per item treated as independent items"
            + (f" (n = {used} instead of {items})" if used and used > 0 and items else "")
            + f": samples of one item are correlated, so the interval is up to √{k} = "
            f"{k**0.5:.2f}× too narrow",
            suggestion=f"Average the {k} samples within each item and compute the standard error "
            f"over {where} (or a clustered SE with items as clusters).",
            evidence=ev,
        )


# --- BA402 wrong-chance-level --------------------------------------------------------


def check_chance(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
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
        yield emit(
            rule,
            c,
            f"the chance level of this procedure ({r} of {m} {f['procedure']} correct, {k} options) "
            f"is {num(true, 1)}%, not {c.value}%",
            suggestion=f"A random guesser passes an item with probability {num(true, 1)}% under "
            f"this procedure ({r} correct of {m} orders, {k} options each); compare scores with "
            f"{num(true, 1)}%, not with the single-pass chance level of {num(100 / k, 0)}%.",
            evidence={"options": k, "rotations": m, "needed": r, "stated": stated, "chance": true},
        )


# --- BA403 biased-pass-at-k ----------------------------------------------------------


def check_passk(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.stats.passk import plugin_expectation

    for c in claims(source, "pass-at-k"):
        if c.fields.get("unbiased_named"):
            continue
        true, plug, _ = plugin_expectation(0.05, 20, 10)
        yield emit(
            rule,
            c,
            f"pass@k by the plug-in formula {c.fields['formula']} is biased low: at a per-sample "
            f"rate of 0.05 with n = 20, pass@10 is {true:.3f} but the plug-in averages {plug:.3f}",
            suggestion="Estimate pass@k with the unbiased estimator 1 − C(n−c, k)/C(n, k) per "
            "problem (n samples, c correct), averaged over problems.",
            evidence={
                "formula": c.fields["formula"],
                "true_pass10": true,
                "plugin_mean": plug,
                "p": 0.05,
                "n": 20,
                "k": 10,
            },
        )


# --- BA404 metric-mirage -------------------------------------------------------------


def check_mirage(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    for c in claims(source, "emergence"):
        f = c.fields
        if f.get("continuous") or f.get("doc_continuous"):
            continue
        metric = f.get("metric")
        conf = c.confidence
        if metric is None:
            conf = Confidence.LOW
        elif f.get("metric_from") == "document":
            conf = min(conf, Confidence.MEDIUM)
        m = metric or "an all-or-nothing metric"
        yield emit(
            rule,
            c,
            f"'{f['word']}' on {m}: an all-or-nothing metric turns a smooth per-token gain into a "
            f"jump (exact match of L tokens scores p^L; at L = 10, p 0.80 → 0.95 moves it 0.11 → 0.60)",
            suggestion=f"Re-score with a continuous metric (token edit distance, log-likelihood of "
            f"the answer, Brier score) and more model sizes before calling the {m} curve "
            f"emergent.",
            evidence={
                "word": f["word"],
                "metric": metric,
                "example_L": 10,
                "p_low": 0.8,
                "p_high": 0.95,
                "em_low": 0.8**10,
                "em_high": 0.95**10,
            },
            confidence=conf,
        )


# --- BA405 judge-agreement -----------------------------------------------------------


def check_judge(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.stats.chance import chance_agreement, kappa

    for c in claims(source, "agreement"):
        f = c.fields
        if f.get("kappa") or f.get("doc_kappa"):
            continue
        po = float(c.value) / 100
        if not 0 < po <= 1:
            continue
        pe = chance_agreement(0.70, 0.75)
        kap = kappa(po, pe)
        swap = f.get("swap") or f.get("doc_swap")
        yield emit(
            rule,
            c,
            f"{c.value}% raw agreement without a chance-corrected statistic: when the judge and "
            f"the humans choose the majority label 70% and 75% of the time, chance alone agrees "
            f"{num(100 * pe, 0)}% and {c.value}% is κ = {kap:.3f}"
            + ("" if swap else "; no swap test for position bias is reported"),
            suggestion=f"Report Cohen's κ (with the label rates) next to the {c.value}% raw "
            f"agreement"
            + ("" if swap else ", and the agreement with the two responses swapped")
            + ".",
            evidence={
                "agreement": po,
                "chance_agreement_example": pe,
                "kappa_example": kap,
                "swap_test": bool(swap),
            },
        )


# --- BA201 within-noise --------------------------------------------------------------


def check_within_noise(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """A claimed improvement, ranking or "significant" difference inside the noise.

    Checked in order: a reported p at or above alpha; two scores whose unpaired
    interval of the difference contains 0; two stated intervals likewise; a
    score table with "improves on every benchmark", row by row.
    """
    unchecked = []
    for c in claims(source, "comparison"):
        f = c.fields
        if (
            f.get("a_value")
            and f.get("b_value")
            and not c.n
            and f.get("direction") in ("better", "worse")
        ):
            unchecked.append(c)
        yield from _within_noise_claim(rule, c, ctx)
    if unchecked:
        # Say what could not be checked rather than passing it silently.
        ctx.notes.append(
            f"within-noise: {len(unchecked)} comparison(s) of two scores in {source.path} name no item "
            f"count (e.g. line {unchecked[0].location.line}); name the benchmark or pass --n NAME=N "
            "to check them"
        )


def _within_noise_claim(rule: Rule, c: Claim, ctx: Context) -> Iterable[Finding]:
    f, alpha = c.fields, ctx.alpha
    claims_win = f.get("direction") in ("better", "worse") or f.get("significant") == "yes"
    if not claims_win or f.get("direction") == "equal":
        return
    exact = [p for p in f.get("pvalues", []) if p["op"] in ("=", ">", ">=")]
    said_not_significant = f.get("significant") == "no" and f.get("significant_from") == "words"
    if (
        exact
        and all(_at_least(p, alpha) for p in exact)
        and not (f.get("hedged") or said_not_significant)
    ):
        p = exact[0]
        yield emit(
            rule,
            c,
            f"claimed as a difference, but the reported p {p['op']} {p['value']} is "
            f"not below α = {alpha:g}",
            suggestion=f"The difference is not statistically significant (p {p['op']} "
            f"{p['value']}); report it as inconclusive rather than as an improvement.",
            evidence={"p": float(p["value"]), "alpha": alpha},
        )
        return
    if f.get("significant") == "no":
        return
    if any(
        (p["op"] in ("<", "<=") and float(p["value"]) <= alpha)
        or (p["op"] == "=" and float(p["value"]) < alpha)
        for p in f.get("pvalues", [])
    ):
        return
    if f.get("discordant") or f.get("stats") or f.get("paired_test"):
        return
    a, b = f.get("a_value"), f.get("b_value")
    if a and b and c.n:
        yield from _two_scores(rule, c, a, b, alpha)
        return
    ivs = [iv for iv in f.get("intervals", []) if "lo" in iv or "pm" in iv]
    if len(ivs) == 2:
        yield from _two_intervals(rule, c, ivs)
    elif f.get("tables") and f.get("every"):
        yield from _table_rows(rule, c, ctx)


def _at_least(p: dict, alpha: float) -> bool:
    """A reported p is at or above alpha for every value that rounds to it
    ("p = .05" may be 0.046; "p > .05" and "p = .21" are not below alpha)."""
    from benchaudit.stats.significance import decimals

    value = float(p["value"])
    if p["op"] != "=":
        return value >= alpha
    return value - 0.5 * 10 ** -decimals(p["value"]) >= alpha


def _two_scores(rule: Rule, c: Claim, a: str, b: str, alpha: float) -> Iterable[Finding]:
    x, y = points(a, b), points(b, a)
    if c.fields.get("pair") == "from-to":
        x, y = y, x  # "from 70 to 73": the new score is the second
    if not (0 <= x <= 100 and 0 <= y <= 100) or x == y:
        return
    if c.fields.get("pair") == "two-values" and c.fields.get("direction") == "better" and x < y:
        x, y = y, x  # "compared with B (53.6%), A reaches 55.1%": the claimed winner is the higher
    u = unpaired(x, y, c.n, 1 - alpha)
    if u["lo"] > 0 or u["hi"] < 0:
        return
    where = f"the same {c.n} questions" if c.fields.get("same_items") else f"{c.n} items"
    src = "" if c.n_source == "sentence" else f" (n = {c.n} from the {c.n_source})"
    conf = c.confidence
    if c.n_source not in ("sentence", "registry"):
        conf = min(conf, Confidence.MEDIUM)
    yield emit(
        rule,
        c,
        f"{num(x)}% vs {num(y)}% is {signed(u['diff'])} points; the unpaired {level(alpha)} interval "
        f"{signed(u['lo'])} to {signed(u['hi'])} contains 0 (unpaired bound; pairing not "
        f"assumed){src}",
        suggestion=f"{num(x)}% vs {num(y)}% on {where}: {signed(u['diff'])} points; the unpaired "
        f"{level(alpha)} interval is {signed(u['lo'])} to {signed(u['hi'])} and a paired analysis needs the "
        f"per-item results.",
        evidence={**u, "a": x, "b": y, "n_source": c.n_source, "bound": "unpaired"},
        confidence=conf,
    )


def mean_halfwidth(iv: dict) -> tuple[float, float]:
    """(centre, half-width) of a parsed ``lo–hi`` or ``value ± pm`` interval."""
    if "pm" in iv:
        return float(iv["value"]), float(iv["pm"])
    lo, hi = float(iv["lo"]), float(iv["hi"])
    return (lo + hi) / 2, (hi - lo) / 2


def _two_intervals(rule: Rule, c: Claim, ivs: list[dict]) -> Iterable[Finding]:
    (m1, h1), (m2, h2) = mean_halfwidth(ivs[0]), mean_halfwidth(ivs[1])
    d, h = m1 - m2, (h1 * h1 + h2 * h2) ** 0.5
    if abs(d) > h or h == 0:
        return
    yield emit(
        rule,
        c,
        f"the stated intervals give a difference of {signed(d)} ± {num(h)} points, which "
        f"contains 0 (unpaired bound from the two intervals)",
        suggestion=f"The difference is {signed(d)} points (95% interval {signed(d - h)} to "
        f"{signed(d + h)}, unpaired); the data do not show one model is better.",
        evidence={"diff": d, "halfwidth": h, "bound": "unpaired"},
        confidence=min(c.confidence, Confidence.MEDIUM),
    )


def _table_rows(rule: Rule, c: Claim, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._tables import pairwise_rows

    rows = list(pairwise_rows(c.fields["tables"], ctx, c.text))
    noisy = [r for r in rows if r["lo"] <= 0 <= r["hi"] and r["diff"] > 0]
    behind = [r for r in rows if r["diff"] <= 0]
    if not rows or not (noisy or behind):
        return
    pct = level(ctx.alpha)

    def part(r: dict) -> str:
        return (
            f"{r['benchmark']} {num(r['a'])} vs {num(r['b'])} ({signed(r['diff'])}; {signed(r['lo'])} "
            f"to {signed(r['hi'])}, n = {r['n']})"
        )

    said = []
    if behind:
        said.append(f"{len(behind)} of {len(rows)} are not gains at all: {'; '.join(map(part, behind))}")
    if noisy:
        said.append(
            f"{len(noisy)} of {len(rows)} gains have a {pct} interval containing 0: "
            f"{'; '.join(map(part, noisy))}"
        )
    clear = len(rows) - len(noisy) - len(behind)
    weak = [r["benchmark"] for r in [*behind, *noisy]]
    yield emit(
        rule,
        c,
        "checked benchmark by benchmark with n from the registry (unpaired bound, model minus "
        f"comparator): {'; '.join(said)}",
        suggestion=f"Improves on {clear} of {len(rows)} benchmarks beyond "
        f"sampling noise (unpaired {pct} intervals); on "
        f"{', '.join(weak)} it does not.",
        evidence={"rows": rows, "bound": "unpaired"},
        confidence=Confidence.MEDIUM,
    )
