"""BA306 harness-limit: harness scores from a subset of the items, or without a stderr."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.rules._wording import interval

from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.inputs.lmeval_results import TaskResult

#: Metrics reported first when a task has several (the rest are named in evidence).
PRIMARY = ("acc", "exact_match", "pass@1", "acc_norm", "f1", "mc2")


class HarnessLimit(Rule):
    """A harness score measured on part of the task (--limit), or reported with stderr "N/A".

    **What.** Reads lm-evaluation-harness ``results_*.json`` and the per-item
    logs of lm-eval, inspect_ai and HELM. A run with ``config.limit`` set is a
    warning (every task saw at most that many items); so is each task whose
    ``n-samples`` effective count is below its original count, a per-item
    log holding fewer items than its task has (lm-eval or inspect ``--limit``),
    a HELM run whose run spec caps ``max_eval_instances``, and a lighteval results
    file (or the details beside it) that sets ``max_samples``; a cap at or above
    every task's known size leaves the run whole and is not flagged. The message gives the 95%
    Wilson interval the subset supports. A stderr of ``"N/A"`` is information:
    the harness could not compute one, and the score goes out bare.

    **Why.** ``--limit`` is a debugging switch: the score of the first 10 of
    2,376 ARC-Easy items has an interval some 50 points wide, yet the results
    file and its table look exactly like a full run's. The harness writes the
    limit into the file and warns once on the console; both are easy to miss
    when the number is copied into a paper. Group scores and some metrics get
    stderr "N/A", which tables then print as if the score were exact.

    Bad (results_2024-05-14T10-22-33.json)::

        {"results": {"arc_easy": {"acc,none": 0.7, "acc_stderr,none": 0.1528}},
         "n-samples": {"arc_easy": {"original": 2376, "effective": 10}},
         "config": {"model_args": "pretrained=EleutherAI/pythia-160m", "limit": 10}}

    Better (results_2024-05-14T10-22-33.json)::

        {"results": {"arc_easy": {"acc,none": 0.6178, "acc_stderr,none": 0.0100}},
         "n-samples": {"arc_easy": {"original": 2376, "effective": 2376}},
         "config": {"model_args": "pretrained=EleutherAI/pythia-160m", "limit": null}}

    **Assumptions.** The original count in ``n-samples`` (or the dataset size an
    inspect log records) is the task's full size; the interval treats the
    score as a proportion of 0/1 items, which holds for accuracy and exact
    match, not for perplexity or BLEU (those get no interval).
    """

    code = "BA306"
    name = "harness-limit"
    severity = Severity.WARNING
    reads = ("harness-summary", "results")

    def on_harness_summary(self, source: Source, ctx: Context) -> Iterable[Finding]:
        return _check_summary(self, source)

    def on_results(self, source: Source, ctx: Context) -> Iterable[Finding]:
        return _check_item_log(self, source)


def _primary(task: TaskResult) -> tuple[str, float] | None:
    """The task's headline proportion metric, if it has one."""
    ordered = [m for m in PRIMARY if m in task.metrics]
    ordered += [m for m in task.metrics if m not in ordered]
    for name in ordered:
        value = task.metrics[name]
        if 0.0 <= value <= 1.0 and name.split(",")[0] not in ("ppl", "word_perplexity"):
            return name, value
    return None


def _interval(value: float, n: int) -> tuple[float, float]:
    from benchaudit.stats.proportions import wilson

    return wilson(value * n, n)


def _subset_words(metric: str, value: float, used: int, total: int) -> tuple[str, dict[str, Any]]:
    lo, hi = _interval(value, used)
    text = (
        f"{metric} {value:.3f} on {used:,} of {total:,} items "
        f"(95% CI {interval(100 * lo, 100 * hi)}%)"
    )
    return text, {"metric": metric, "value": value, "ci_low": lo, "ci_high": hi}


#: The option that limits a run, and its key in the results file, by layout (lm-eval's otherwise).
_LIMIT_OPTION = {"lighteval": ("--max-samples", "max_samples")}


def _check_summary(rule: Rule, source: Source) -> Iterable[Finding]:
    summary = source.data
    limit = summary.limit
    if limit is not None and not _cap_above_every_task(summary.tasks.values(), limit):
        size = f"{limit:.0%} of" if 0 < limit < 1 else f"at most {int(limit):,} of"
        cut = [t for t in summary.tasks.values() if t.n_effective is not None]
        flag, key = _LIMIT_OPTION.get(summary.layout, ("--limit", "limit"))
        yield rule.finding(
            Location(source.path, summary.line_of_limit),
            f"run used {flag} {limit:g}: each task was scored on {size} its items, "
            "not the full test set",
            claim=f"{key}: {limit:g}",
            suggestion=f"Re-run without {flag} before reporting these scores, or label every "
            f"score as measured on a subset ({size} the items) with its interval.",
            evidence={
                "limit": limit,
                "model": summary.model,
                "tasks": len(summary.tasks),
                "smallest_effective": min((t.n_effective for t in cut), default=None),
            },
        )
    for task in summary.tasks.values():
        where = Location(source.path, task.line)
        if (
            task.n_original is not None
            and task.n_effective is not None
            and task.n_effective < task.n_original
        ):
            head = _primary(task)
            evidence = {
                "task": task.name,
                "n_original": task.n_original,
                "n_effective": task.n_effective,
                "fraction": task.n_effective / task.n_original,
            }
            if head is not None and task.n_effective > 0:
                words, extra = _subset_words(*head, task.n_effective, task.n_original)
                evidence.update(extra)
                message = (
                    f"{task.name} was scored on {task.n_effective:,} of "
                    f"{task.n_original:,} items: {head[0]} {head[1]:.3f} has a 95% "
                    f"interval of {interval(100 * extra['ci_low'], 100 * extra['ci_high'])}%"
                )
                suggestion = (
                    f"Re-run {task.name} on all {task.n_original:,} items, or report "
                    f"it as '{words}'."
                )
            else:
                message = (
                    f"{task.name} was scored on {task.n_effective:,} of {task.n_original:,} items"
                )
                suggestion = (
                    f"Re-run {task.name} on all {task.n_original:,} items, or say "
                    f"that its score covers {task.n_effective:,} of them."
                )
            yield rule.finding(
                where,
                message,
                claim=f"{task.name} n-samples",
                evidence=evidence,
                suggestion=suggestion,
            )
        missing = sorted(m for m, se in task.stderr.items() if se is None)
        if missing:
            yield _na_finding(rule, where, task, missing, Path(summary.path))


def _cap_above_every_task(tasks: Iterable[TaskResult], limit: float) -> bool:
    """A whole-number cap at or above every task's known size left the run whole."""
    sizes = [t.n_original for t in tasks if not t.is_group]
    return limit >= 1 and bool(sizes) and all(n is not None and n <= limit for n in sizes)


def _na_finding(
    rule: Rule, where: Location, task: TaskResult, missing: list[str], results_path: Path
) -> Finding:
    names = ", ".join(missing)
    kind = "group" if task.is_group else "task"
    evidence: dict[str, Any] = {"task": task.name, "metrics": missing, "is_group": task.is_group}
    value = task.metrics.get(missing[0])
    n = task.n
    per_instruction = missing[0].startswith("inst_level")
    if per_instruction:
        # IFEval's instruction-level accuracy averages over instructions, several per
        # prompt: its n is the instruction count, never the prompt count.
        from benchaudit.inputs.lmeval_samples import instruction_count

        n = instruction_count(results_path, task.name, missing[0])
        evidence["n_prompts"] = task.n
    if per_instruction and not n:
        suggestion = (
            f"Compute the interval of {missing[0]} over the instructions, not the "
            f"{task.n or 'unknown number of'} prompts: re-run with --log_samples and count "
            "the instructions (several per prompt; a cluster bootstrap over prompts gives "
            "the honest interval)."
        )
    elif value is not None and n and 0.0 <= value <= 1.0:
        se = (value * (1 - value) / n) ** 0.5
        evidence.update({"n": n, "binomial_se": se})
        unit = "instructions" if per_instruction else "items"
        suggestion = (
            f"Report '{missing[0]} {value:.3f} ± {se:.3f} (binomial standard error "
            f"over {n:,} {unit})', or compute it from the per-item samples."
        )
        if per_instruction:
            suggestion += (
                f" Instructions share their {task.n:,} prompts, so this SE is a lower bound; "
                "a cluster bootstrap over prompts gives the honest interval."
                if task.n
                else ""
            )
    else:
        suggestion = (
            "Give an interval from the per-item samples (--log_samples), or re-run "
            "with bootstrap_iters > 0 so the harness computes the stderr."
        )
    return rule.finding(
        where,
        f"{kind} {task.name} reports stderr 'N/A' for {names}: the score has no "
        "uncertainty attached",
        claim=f"{task.name} {names}",
        evidence=evidence,
        suggestion=suggestion,
        severity=Severity.INFO,
    )


def _check_item_log(rule: Rule, source: Source) -> Iterable[Finding]:
    rs = source.data
    meta = getattr(rs, "meta", None) or {}
    # A joined source holds several runs: each is checked against its own task size.
    parts = meta.get("parts") or [
        {
            "path": source.path,
            "models": list(getattr(rs, "models", [])),
            "n_items": len(rs.items),
            **{k: meta.get(k) for k in ("limit", "n_original", "task", "instances_drawn")},
        }
    ]
    for part in parts:
        yield from _check_part(rule, rs, meta, part)


def _part_score(rs: Any, models: list[str]) -> float | None:
    """The part's mean score when it is one model's 0/1 scores, one row per item."""
    if len(models) != 1 or rs.sample is not None or rs.variant is not None or not rs.binary:
        return None
    code = rs.models.index(models[0])
    scores = rs.score[rs.model.codes == code]
    return float(scores.mean()) if scores.size else None


def _check_part(
    rule: Rule, rs: Any, meta: dict[str, Any], part: dict[str, Any]
) -> Iterable[Finding]:
    total = part.get("n_original")
    limit = part.get("limit")
    task = part.get("task") or meta.get("task") or "the task"
    used = int(part["n_items"])
    if not isinstance(total, int) or isinstance(total, bool):
        # Fewer instances than the cap: the scenario was smaller, and all of it ran. The
        # cap counts the instances drawn over every split (valid beside test), not only
        # those of the split read.
        drawn = max(used, int(part.get("instances_drawn") or 0))
        if meta.get("reader") == "helm" and isinstance(limit, int) and drawn >= limit:
            yield _helm_limit(rule, part, task, used, limit)
        elif meta.get("reader") == "lighteval details" and isinstance(limit, int) and used >= limit:
            yield _lighteval_limit(rule, part, task, used, limit)
        return
    if used >= total:
        return
    score = _part_score(rs, part["models"])
    words = None
    evidence = {"task": task, "n_original": total, "n_items": used, "limit": limit}
    if score is not None and used:
        words, extra = _subset_words(str(meta.get("metric") or "score"), score, used, total)
        evidence.update(extra)
    option = "max_samples" if meta.get("reader") == "lighteval details" else "--limit"
    why = f" (run with {option} {limit:g})" if isinstance(limit, (int, float)) else ""
    yield rule.finding(
        Location(part["path"], 1),
        f"this log holds {used:,} of the {total:,} items of {task}{why}",
        claim=f"{task}: {used} items",
        suggestion=(
            f"Re-run {task} on all {total:,} items, or report '{words}'."
            if words
            else f"Re-run {task} on all {total:,} items, or say that the score covers "
            f"{used:,} of them."
        ),
        evidence=evidence,
    )


def _helm_limit(rule: Rule, part: dict[str, Any], task: str, used: int, limit: int) -> Finding:
    """HELM samples at most ``max_eval_instances`` instances; the scenario's size is not in
    the run folder, so the finding says the cap, not a fraction."""
    return rule.finding(
        Location(part["path"], None),
        f"the run of {task} was capped at max_eval_instances = {limit:,} "
        f"({used:,} instances scored): HELM draws that many instances of the scenario, "
        "so the score is from a sample of its items",
        claim=f"max_eval_instances: {limit}",
        suggestion=f"Say that {task} was scored on {used:,} sampled instances "
        "(max_eval_instances) with the interval for that n, or re-run without the cap.",
        evidence={"task": task, "max_eval_instances": limit, "n_items": used},
    )


def _lighteval_limit(rule: Rule, part: dict[str, Any], task: str, used: int, limit: int) -> Finding:
    """lighteval's ``max_samples`` keeps at most that many documents of every task; the
    task's full size is in the results file only when lighteval recorded it."""
    return rule.finding(
        Location(part["path"], None),
        f"the run of {task} was capped at max_samples = {limit:,} ({used:,} documents "
        "scored): the score covers part of the task, not the full test set",
        claim=f"max_samples: {limit}",
        suggestion=f"Re-run {task} without --max-samples before reporting its score, or say "
        f"that it was scored on {used:,} documents, with the interval for that n.",
        evidence={"task": task, "max_samples": limit, "n_items": used},
    )
