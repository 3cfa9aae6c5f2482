"""HELM ``per_instance_stats.json`` -> per-item results.

The file is a list with one entry per (instance, train trial[, perturbation]):
``{"instance_id": "id123", "train_trial_index": 0, "stats": [{"name": {"name":
"exact_match", "split": "test"}, "count": 1, "sum": 1.0, "mean": 1.0, ...},
...]}``. Beside the correctness metric the stats hold bookkeeping
(``num_prompt_tokens``, ``num_references`` ...), so the score is the first
present of :data:`PRIMARY` unless ``--column score=NAME`` picks another.

Entries or stats under a perturbation (robustness / fairness variants of an
instance) are left out: they are not new items. Several train trials (HELM
re-draws the in-context examples per trial) become the seed column. The model
is ``adapter_spec.model`` of a ``run_spec.json`` beside the file, else the
``model=`` part of the run folder's name, else the folder name.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._harness import build, load_json, object_at, option

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Correctness metrics in order of preference.
PRIMARY = (
    "exact_match",
    "quasi_exact_match",
    "prefix_exact_match",
    "quasi_prefix_exact_match",
    "exact_match_indicator",
    "final_number_exact_match",
    "math_equiv",
    "math_equiv_chain_of_thought",
    "pass",
    "f1_score",
    "rouge_l",
    "bleu_4",
)


def run_spec(path: Path) -> dict[str, Any]:
    """The ``run_spec.json`` beside a per-instance file (empty when absent or unreadable)."""
    spec_path = path.parent / "run_spec.json"
    if not spec_path.is_file():
        return {}
    try:
        spec, _ = load_json(spec_path, spec_path.as_posix())
    except InputError:
        return {}
    return spec if isinstance(spec, dict) else {}


def task_of_run(path: Path, spec: dict[str, Any]) -> str:
    """The run's scenario and its arguments without the model: what runs of several
    models on one task share (``mmlu:subject=anatomy,method=multiple_choice_joint``)."""
    given = spec.get("name")
    name = given if isinstance(given, str) else path.parent.name
    head, _, args = name.partition(":")
    kept = [a for a in args.split(",") if a and not a.startswith(("model=", "model_deployment="))]
    return head + (":" + ",".join(kept) if kept else "")


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def model_from_run(path: Path) -> tuple[str, str]:
    """(model, where it came from) for a HELM run folder."""
    spec = run_spec(path)
    if spec:
        adapter = spec.get("adapter_spec")
        if isinstance(adapter, dict):
            for key in ("model", "model_deployment"):
                if isinstance(adapter.get(key), str) and adapter[key]:
                    return adapter[key], "run_spec.json"
    m = re.search(r"(?:^|[,:])model=([^,]+)", path.parent.name)
    if m:
        return m.group(1), "run folder"
    return path.parent.name or path.name, "folder"


def _stat_name(display: str, where: str, stat: Any) -> tuple[str, str | None, bool]:
    if not isinstance(stat, dict) or not isinstance(stat.get("name"), dict):
        raise InputError(display, f"{where}: a stat needs a 'name' object")
    name = stat["name"]
    if not isinstance(name.get("name"), str):
        raise InputError(display, f"{where}: stat name.name must be a string")
    split = name.get("split")
    return name["name"], split if isinstance(split, str) else None, bool(name.get("perturbation"))


def _stat_value(display: str, where: str, stat: dict[str, Any]) -> float:
    mean = stat.get("mean")
    if isinstance(mean, (int, float)) and not isinstance(mean, bool):
        return float(mean)
    total, count = stat.get("sum"), stat.get("count")
    if isinstance(total, (int, float)) and isinstance(count, int) and count > 0:
        return float(total) / count
    raise InputError(display, f"{where}: stat has no numeric 'mean' (got {mean!r})")


def read(path: Path, display: str, ctx: Context) -> Source | list[Source]:
    from benchaudit.evidence import Source

    notes: list[str] = []  # what was left out, on the source for the report

    if _is_companion(path):
        return []  # a walked run folder: the run is read from per_instance_stats.json
    doc, _ = load_json(path, display)
    if not isinstance(doc, list):
        raise InputError(display, "expected a list of per-instance entries")
    wanted = option(ctx, "score")
    # First pass: which metric and split to read.
    names: Counter[str] = Counter()
    splits: Counter[str] = Counter()
    for i, entry in enumerate(doc):
        where = f"entry {i}"
        if not isinstance(entry, dict):
            raise InputError(display, f"{where}: expected an object, got {type(entry).__name__}")
        if "instance_id" not in entry:
            raise InputError(display, f"{where}: missing 'instance_id'")
        stats = entry.get("stats")
        if not isinstance(stats, list):
            raise InputError(display, f"{where}: 'stats' must be a list")
        if entry.get("perturbation"):
            continue
        for j, stat in enumerate(stats):
            name, split, perturbed = _stat_name(display, f"{where} stat {j}", stat)
            if not perturbed:
                names[name] += 1
                if split:
                    splits[split] += 1
    if wanted:
        metric = wanted if wanted in names else None
        if metric is None:
            raise InputError(display, f"no stat {wanted!r} (found: {', '.join(sorted(names))})")
    else:
        metric = next((m for m in PRIMARY if m in names), None)
        if metric is None:
            raise InputError(display, _no_primary(names))
    split = splits.most_common(1)[0][0] if splits else None
    if len(splits) > 1:
        # Instances of another split (valid beside test) are other items: read one split,
        # the one with the most stats, and say which and what is left out.
        others = ", ".join(f"{k} ({v} stats)" for k, v in splits.items() if k != split)
        notes.append(f"{display}: split {split!r} read; other split(s) left out: {others}")
    elif split not in (None, "test"):
        # HELM scores a scenario without a test split on its valid instances: say which.
        notes.append(f"{display}: split {split!r} read (the run has no test instances)")
    if not wanted:
        also = [m for m in PRIMARY if m in names and m != metric]
        if also:
            notes.append(
                f"{display}: score is {metric}; the file also holds {', '.join(also[:4])} "
                f"(choose with --column score=NAME)",
            )

    items: list[str] = []
    trials: list[str] = []
    scores: list[float] = []
    order: list[int] = []
    perturbed_entries = 0
    missing = 0
    for i, entry in enumerate(doc):
        if entry.get("perturbation"):
            perturbed_entries += 1
            continue
        value = None
        for j, stat in enumerate(entry["stats"]):
            name, s_split, perturbed = _stat_name(display, f"entry {i} stat {j}", stat)
            if name == metric and not perturbed and (split is None or s_split in (split, None)):
                value = _stat_value(display, f"entry {i} stat {j}", stat)
                break
        if value is None:
            if split is None or any(
                _stat_name(display, f"entry {i}", st)[1] in (split, None) for st in entry["stats"]
            ):
                missing += 1  # an instance of the split read, without the metric
            continue
        trial = entry.get("train_trial_index", 0)
        if not isinstance(trial, int) or isinstance(trial, bool):
            raise InputError(display, f"entry {i}: train_trial_index must be a whole number")
        items.append(str(entry["instance_id"]))
        trials.append(str(trial))
        scores.append(value)
        order.append(i + 1)
    if missing:
        notes.append(f"{display}: {missing} instance(s) without a {metric} stat left out")

    model, model_from = model_from_run(path)
    spec = run_spec(path)
    adapter = object_at(spec, "adapter_spec")
    meta = {
        "reader": "helm",
        "task": task_of_run(path, spec),
        # max_eval_instances caps (and samples) the instances a run scores.
        "limit": _whole(adapter.get("max_eval_instances")),
        # The instances HELM drew (every split), which the cap bounds.
        "instances_drawn": len(
            {str(e.get("instance_id")) for e in doc if not e.get("perturbation")}
        ),
        "num_fewshot": _whole(adapter.get("max_train_instances")),
        "metric": metric,
        "split": split,
        "model_from": model_from,
        "perturbed_entries": perturbed_entries,
        "train_trials": len(set(trials)),
        "run": path.parent.name,
    }
    columns = {"model": model_from, "item": "instance_id", "score": f"stats.{metric}.mean"}
    if len(set(trials)) > 1:
        columns["seed"] = "train_trial_index"
    rs = build(
        display,
        model=[model] * len(scores),
        item=items,
        score=scores,
        line=order,
        seed=trials,
        columns=columns,
        meta=meta,
    )
    return Source(
        path=display,
        notes=notes,
        kind="results",
        data=rs,
        meta={"format": "HELM per_instance_stats", "metric": metric},
    )


#: Files HELM writes beside ``per_instance_stats.json``; read with it, not on their own.
COMPANIONS = {
    "run_spec.json",
    "scenario.json",
    "scenario_state.json",
    "stats.json",
    "instances.json",
    "display_predictions.json",
    "display_requests.json",
    "costs.json",
}


def _is_companion(path: Path) -> bool:
    return path.name in COMPANIONS and (path.parent / "per_instance_stats.json").is_file()


def sniff(p: Probe) -> float:
    if p.suffix != ".json":
        return 0.0
    if _is_companion(p.path):
        return 0.9
    head = p.text.lstrip()
    if not head.startswith("["):
        return 0.0
    if '"instance_id"' in head and '"stats"' in head:
        return 0.95 if p.name == "per_instance_stats.json" else 0.85
    return 0.5 if p.name == "per_instance_stats.json" else 0.0


READER = Reader(
    kind="results",
    sniff=sniff,
    read=read,
    description="HELM per_instance_stats.json",
)


#: Parts of a HELM stat name that say it scores the output (``xst_score``,
#: ``harm_bench_score``, ``f1_set_match``), as against bookkeeping (``num_*_tokens``).
_SCORE_WORDS = ("score", "match", "acc", "correct", "pass", "success", "f1", "rouge", "bleu")
_BOOKKEEPING = ("num_", "finish_reason", "batch_size", "runtime", "tokens", "logprob")


def _no_primary(names: Counter[str]) -> str:
    """The refusal for a run with no correctness stat: the score-like stats first (the
    ones a user would name), so a long list of bookkeeping stats never hides them."""
    scoreish = sorted(
        (
            n
            for n in names
            if any(w in n for w in _SCORE_WORDS) and not any(b in n for b in _BOOKKEEPING)
        ),
        key=lambda n: (len(n), n),  # the plain name (sst_score) before a judge's variant
    )
    others = [n for n in sorted(names) if n not in scoreish]
    if scoreish:
        shown = ", ".join(scoreish[:8])
        return (
            f"no correctness stat (exact_match, quasi_exact_match, ...); score-like stats: "
            f"{shown} ({len(others)} other stats); name the per-instance score with "
            f"--column score={scoreish[0]}"
        )
    return (
        "no correctness stat (exact_match, quasi_exact_match, ...) among: "
        + ", ".join(others[:12])
        + "; name the per-instance score with --column score=NAME"
    )
