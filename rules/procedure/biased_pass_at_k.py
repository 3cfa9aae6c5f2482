"""BA403 biased-pass-at-k: pass@k by the plug-in formula, or from too few samples."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import claims, emit

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.options import Option
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class BiasedPassAtK(Rule):
    """pass@k computed as 1-(1-c/n)^k instead of 1-C(n-c,k)/C(n,k), or with n too close to k.

    **What.** On pass@k samples (human-eval ``*_results.jsonl`` or a table of
    per-problem sample counts ``n`` and pass counts ``c``) the rule recomputes
    pass@k with the unbiased estimator and checks every pass@k the file (a
    ``pass@k`` column), a summary next to it, or the configuration states
    (``[tool.benchaudit.rules.biased-pass-at-k] reported = {"pass@10" = 0.62}``).
    A stated value that matches the plug-in 1-(1-c/n)^k but not the unbiased
    estimator is a warning; pass@k with k above some problem's sample count is
    an error (it is undefined); n below 2k is a warning.

    **Why.** The plug-in samples with replacement. 1-(1-p)^k is concave in p, so
    by Jensen's inequality it underestimates pass@k on average: at a true
    per-sample rate of 0.05 with n = 20, pass@10 is 0.401 but the plug-in
    averages 0.336. The combinatorial estimator (Chen et al. 2021) is the share
    of k-subsets of the n samples that contain a pass and is unbiased. With n
    close to k it has almost nothing to average: at n = k it is just "did any
    sample pass".

    Bad (passk.csv)::

        task_id,n,c,pass@5
        HumanEval/0,20,1,0.2262
        HumanEval/1,20,10,0.9688
        HumanEval/2,20,4,0.6723

    Better (passk.csv)::

        task_id,n,c,pass@5
        HumanEval/0,20,1,0.25
        HumanEval/1,20,10,0.9837
        HumanEval/2,20,4,0.7183

    In documents, the formula written out (``1 - (1 - c/n)^k``) is flagged
    unless the unbiased estimator is named next to it.

    Bad::

        We estimate pass@k as 1 - (1 - c/n)^k from 20 samples per problem.

    Better::

        We estimate pass@k with the unbiased estimator 1 - C(n-c, k)/C(n, k)
        from 20 samples per problem.

    **Assumptions.** Samples of one problem are exchangeable draws from the same
    sampler; problems are the unit of the interval. A stated value matches when
    it is within ``tolerance`` (default 5e-4, the rounding of 3 decimals).
    """

    code = "BA403"
    name = "biased-pass-at-k"
    option_types = {
        "reported": Option("table-of-number"),
        "k": Option("ints", 1, 10**6),
        "tolerance": Option("number", 0, 1),
    }
    severity = Severity.WARNING
    reads = ("samples", "document")

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        # A pass@k summary ({"pass@1": ...}) is checked against the samples given with it.
        samples = [s for s in sources if s.kind == "samples" and hasattr(s.data, "n")]
        for source in sources:
            if source.kind == "samples" and not hasattr(source.data, "n"):
                yield from _check_summary(self, source, samples)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        from benchaudit.stats.passk import plugin_expectation

        for c in claims(source, "pass-at-k"):
            if c.fields.get("unbiased_named"):
                continue
            true, plug, _ = plugin_expectation(0.05, 20, 10)
            yield emit(
                self,
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

    def on_samples(self, source: Source, ctx: Context) -> Iterable[Finding]:
        if not hasattr(source.data, "n"):
            return  # a summary of stated values, checked by on_run with its samples
        import numpy as np

        from benchaudit.inputs.samples import _ks_option

        data = source.data
        n_min, m = data.samples_min, len(data.problems)
        stated = _stated(self, data)
        asked = set(_ks_option(self.options.get("k"))) | {k for k, *_ in stated}
        for k in sorted(asked):
            where = Location(source.path, 1 if data.layout == "counts" else None)
            short = int(np.sum(data.n < k))
            if short:
                yield self.finding(
                    where,
                    f"pass@{k} is undefined: {short} of {m} problems have fewer than {k} "
                    f"samples (fewest {n_min})",
                    severity=Severity.ERROR,
                    claim=f"pass@{k}",
                    suggestion=f"Report pass@k only for k <= {n_min}, or draw at least {2 * k} "
                    f"samples per problem before reporting pass@{k}.",
                    evidence={"k": k, "samples_min": n_min, "problems_short": short},
                )
            elif n_min < 2 * k:
                yield self.finding(
                    where,
                    f"pass@{k} from as few as {n_min} samples per problem: n < 2k leaves "
                    f"the estimator little to average (at n = k it is just 'any sample passed')",
                    claim=f"pass@{k}",
                    evidence={"k": k, "samples_min": n_min},
                    suggestion=f"Draw at least {2 * k} samples per problem (the Codex paper used "
                    f"n = 200 for k <= 100), or report "
                    + (f"pass@k for k <= {n_min // 2}." if n_min >= 2 else "pass@1 only."),
                )
        for k in data.requested_ks(None):
            # pass@1 is the plain share of passing samples, unbiased at any n; the n < 2k
            # caution is for k >= 2.
            if k not in asked and k >= 2 and k <= n_min < 2 * k:
                yield self.finding(
                    Location(source.path, None),
                    f"pass@{k} (in the results) rests on {n_min} "
                    f"samples per problem: n < 2k, so it says little beyond 'any sample passed'",
                    severity=Severity.INFO,
                    claim=f"pass@{k}",
                    evidence={"k": k, "samples_min": n_min},
                    suggestion=f"Quote pass@k for k <= {n_min // 2} from these samples.",
                )
        yield from _compare(self, source.path, data, stated)


def _stated(rule: Rule, data: Any) -> list[tuple[int, Any, int | None, str]]:
    """(k, stated per-problem values or one average, line, where) from file and config."""
    out: list[tuple[int, Any, int | None, str]] = []
    for k, values in sorted(data.stated.items()):
        out.append((k, values, 1, f"column pass@{k}"))
    for key, value in dict(rule.options.get("reported", {})).items():
        digits = "".join(ch for ch in str(key) if ch.isdigit())
        if digits:
            out.append((int(digits), float(value), None, f"reported {key}"))
    return out


def _compare(
    rule: Rule, path: str, data: Any, stated: list[tuple[int, Any, int | None, str]]
) -> Iterable[Finding]:
    """Stated pass@k values against the unbiased estimator and the plug-in on ``data``."""
    import numpy as np

    from benchaudit.stats.passk import pass_at_k_array, plugin_array

    tol = float(rule.options.get("tolerance", 5e-4))
    n_min, m = data.samples_min, len(data.problems)
    for k, values, line, label in stated:
        if k > n_min:
            continue
        unbiased, plugin = pass_at_k_array(data.n, data.c, k), plugin_array(data.n, data.c, k)
        est = float(unbiased.mean())
        if np.nanmax(values) > 1:
            values = np.asarray(values, dtype=np.float64) / 100  # stated in percent
        if np.ndim(values) == 0:
            got, ub, pl = np.array([values]), np.array([est]), np.array([plugin.mean()])
        else:
            ok = np.isfinite(values)
            got, ub, pl = values[ok], unbiased[ok], plugin[ok]
        tell = np.abs(ub - pl) > tol  # problems where the two formulas differ visibly
        if not got.size or not tell.any():
            continue
        is_ub = np.abs(got - ub) <= tol
        is_pl = np.abs(got - pl) <= tol
        ev = {
            "k": k,
            "stated_mean": float(got.mean()),
            "unbiased": est,
            "plugin": float(plugin.mean()),
            "problems": int(got.size),
            "match_plugin": int(np.sum(is_pl & tell)),
            "match_unbiased": int(np.sum(is_ub & tell)),
            "samples_min": n_min,
        }
        fix = (
            f"Report pass@{k} = {est:.4f} (unbiased estimator 1 - C(n-c,k)/C(n,k) averaged "
            f"over {m} problems), not 1 - (1 - c/n)^k."
        )
        if np.sum(is_pl & tell) > np.sum(is_ub & tell) and np.sum(is_pl & tell) * 2 >= tell.sum():
            yield rule.finding(
                Location(path, line),
                f"{label} matches the biased plug-in 1-(1-c/n)^k ({ev['match_plugin']} of "
                f"{int(tell.sum())} telling problems), not the unbiased estimator: "
                f"{float(got.mean()):.4f} vs {est:.4f}",
                claim=label,
                suggestion=fix,
                evidence=ev,
            )
        elif np.sum(~is_ub & tell) * 2 > tell.sum():
            yield rule.finding(
                Location(path, line),
                f"{label} ({float(got.mean()):.4f}) matches neither the unbiased estimator "
                f"({est:.4f}) nor the plug-in ({float(plugin.mean()):.4f})",
                claim=label,
                suggestion=fix,
                evidence=ev,
                confidence=Confidence.MEDIUM,
            )


def _check_summary(rule: Rule, source: Source, samples: list[Source]) -> Iterable[Finding]:
    summary = source.data
    if len(samples) != 1:
        return  # nothing, or no way to tell which samples the summary was computed from
    data = samples[0].data
    stated = [
        (k, v, summary.lines.get(k), f"pass@{k} in {source.path}")
        for k, v in sorted(summary.stated.items())
    ]
    for k, _, line, label in stated:
        if k > data.samples_min:
            yield rule.finding(
                Location(source.path, line),
                f"{label} is undefined: the samples in "
                f"{samples[0].path} have as few as {data.samples_min} per problem",
                severity=Severity.ERROR,
                claim=label,
                evidence={"k": k, "samples_min": data.samples_min},
                suggestion=f"Drop pass@{k}, or draw at least {2 * k} samples per problem.",
            )
    yield from _compare(rule, source.path, data, stated)
