"""lm-evaluation-harness ``results_*.json`` -> a ``harness-summary`` source.

Two layouts are understood:

* v0.4 and later: ``{"results": {task: {"acc,none": 0.5, "acc_stderr,none": 0.01,
  "alias": ...}}, "n-samples": {task: {"original": N, "effective": n}},
  "n-shot": {...}, "configs": {...}, "config": {"model_args": ..., "limit": ...},
  "model_name": ...}``; metric keys carry the filter after a comma;
* the legacy layout (v0.3 and before, e.g. the Pythia evaluation files):
  ``{"results": {task: {"acc": 0.5, "acc_stderr": 0.01}}, "versions": {...},
  "config": {"model_args": ..., "num_fewshot": 0, "limit": null}}``.

The result is a :class:`HarnessSummary`, the shape every consumer of aggregate
harness output reads (limits, scaling curves, metric checks). Its fields are
stable: add fields, do not rename them.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs import lighteval as lighteval_results
from benchaudit.inputs._harness import load_json, object_at
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: The filter lm-eval writes when a task applies none.
NO_FILTER = "none"


@dataclass
class TaskResult:
    """One task (or group) of a harness run.

    ``metrics`` and ``stderr`` are keyed by metric name; a metric computed
    under a filter other than ``none`` is keyed ``"name,filter"``
    (``"exact_match,strict-match"``), so that the plain name always means the
    unfiltered value. ``stderr[name]`` is ``None`` when the file says
    ``"N/A"`` (the harness could not compute one) and the key is absent when
    the file gives no stderr at all. ``n_original`` / ``n_effective`` come
    from ``n-samples`` (v0.4); ``n`` is the number of items the scores were
    computed on as far as the file tells (``n_effective``, else
    ``n_original``, else ``None``).
    """

    name: str
    metrics: dict[str, float] = field(default_factory=dict)
    stderr: dict[str, float | None] = field(default_factory=dict)
    n_original: int | None = None
    n_effective: int | None = None
    num_fewshot: int | None = None
    version: str | None = None
    alias: str | None = None
    is_group: bool = False
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    line: int | None = None

    @property
    def n(self) -> int | None:
        return self.n_effective if self.n_effective is not None else self.n_original

    def metric(self, name: str, filter: str = NO_FILTER) -> float | None:
        """A metric's value by name and filter, or ``None``."""
        return self.metrics.get(metric_key(name, filter))


@dataclass
class HarnessSummary:
    """Aggregate output of one lm-evaluation-harness run (one model).

    ``model`` is a display name (``EleutherAI/pythia-v1.1-1.4b``): the
    ``pretrained=`` / ``model=`` argument of ``model_args``, else
    ``model_name``, else the file name. ``size_params`` is the parameter count
    parsed from the model name, ``model_args`` or the file name
    (``pythia-1.4b`` -> 1.4e9, ``12b_step143000.json`` -> 1.2e10), or
    ``None``. ``limit`` is the ``--limit`` value (an item count, or a fraction
    when below 1) or ``None`` for a full run. ``tasks`` keeps file order.
    ``layout`` is ``"v0.4"`` or ``"legacy"``.
    """

    path: str
    model: str | None
    model_args: str | dict[str, Any] | None = None
    size_params: float | None = None
    revision: str | None = None
    tasks: dict[str, TaskResult] = field(default_factory=dict)
    num_fewshot: int | None = None
    limit: float | None = None
    config: dict[str, Any] = field(default_factory=dict)
    layout: str = "v0.4"
    harness_version: str | None = None
    line_of_limit: int | None = None

    def task(self, name: str) -> TaskResult | None:
        return self.tasks.get(name)

    def value(self, task: str, metric: str, filter: str = NO_FILTER) -> float | None:
        """One task's metric, or ``None`` when the run does not have it."""
        t = self.tasks.get(task)
        return None if t is None else t.metric(metric, filter)


def metric_key(name: str, filter: str | None = NO_FILTER) -> str:
    """The key a metric has in :attr:`TaskResult.metrics`."""
    return name if not filter or filter == NO_FILTER else f"{name},{filter}"


# --------------------------------------------------------------------------- sizes

_SIZE = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)([mbt])(?![a-z0-9])", re.I)
_SCALE = {"m": 1e6, "b": 1e9, "t": 1e12}


def parse_size(text: str | None) -> float | None:
    """Parameter count from a model or file name: ``pythia-1.4b`` -> 1.4e9.

    Only a number directly followed by M, B or T and standing on its own
    (``70m``, ``12b_step143000``, ``Llama-2-7b-hf``) counts; ``8x7b``,
    ``bf16`` and ``step143000`` do not. With several sizes in one name the
    last one wins (``v1.1-1.4b``).
    """
    if not text:
        return None
    found = None
    for m in _SIZE.finditer(text.replace("_", "-")):
        found = float(m.group(1)) * _SCALE[m.group(2).lower()]
    return found


def _model_args_dict(model_args: Any) -> dict[str, str]:
    if isinstance(model_args, dict):
        return {str(k): str(v) for k, v in model_args.items()}
    if isinstance(model_args, str):
        out = {}
        for part in model_args.split(","):
            if "=" in part:
                k, v = part.split("=", 1)
                out[k.strip()] = v.strip()
        return out
    return {}


def model_from(config: dict[str, Any], doc: dict[str, Any], path: Path) -> tuple[str, str | None]:
    """(display name, revision) from ``model_args``, ``model_name`` or the file name."""
    args = _model_args_dict(config.get("model_args"))
    for key in ("pretrained", "model", "model_name", "path", "engine"):
        if args.get(key):
            return args[key], args.get("revision")
    name = doc.get("model_name") or config.get("model_name")
    if isinstance(name, str) and name:
        return name, args.get("revision")
    return _file_stem(path), args.get("revision")


def _file_stem(path: Path) -> str:
    stem = path.name
    for suffix in (".json", ".jsonl"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    return re.sub(r"^results_", "", stem)


# --------------------------------------------------------------------------- reading


def _lines_of_keys(text: str, keys: list[str]) -> dict[str, int]:
    """The line where each key first appears as a JSON object key (after ``"results"``)."""
    start = text.find('"results"')
    out: dict[str, int] = {}
    for key in keys:
        pos = -1
        for quoted in (json.dumps(key, ensure_ascii=False), json.dumps(key)):
            for sep in (":", " :"):
                if pos < 0:
                    pos = text.find(quoted + sep, max(start, 0))
        if pos >= 0:
            out[key] = text.count("\n", 0, pos) + 1
    return out


def _number(display: str, where: str, value: Any) -> float:
    if isinstance(value, (bool, int, float)):
        return float(value)
    raise InputError(display, f"{where}: expected a number, got {value!r}")


def _number_or_na(display: str, where: str, value: Any) -> float | None:
    """A number, or None for a missing or "N/A" one (a standard error some tasks lack)."""
    if value is None or (isinstance(value, str) and value.strip().upper() == "N/A"):
        return None
    return _number(display, where, value)


def _int_or_none(display: str, where: str, value: Any) -> int | None:
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value != int(value)
    ):
        raise InputError(display, f"{where}: expected a whole number, got {value!r}")
    return int(value)


def _split_metric(key: str) -> tuple[str, str]:
    name, _, filt = key.partition(",")
    return name.strip(), (filt.strip() or NO_FILTER)


def _task(display: str, name: str, raw: Any) -> TaskResult:
    if not isinstance(raw, dict):
        raise InputError(
            display, f"results.{name}: expected an object of metrics, got {type(raw).__name__}"
        )
    task = TaskResult(name=name)
    for key, value in raw.items():
        if key == "alias":
            task.alias = str(value).strip()
            continue
        if key in ("samples", "name", "sample_len", " ") or not key.strip():
            continue
        metric, filt = _split_metric(key)
        where = f"results.{name}.{key}"
        if metric.endswith("_stderr"):
            base = metric[: -len("_stderr")]
            task.stderr[metric_key(base, filt)] = _number_or_na(display, where, value)
            continue
        if isinstance(value, (list, dict)):
            continue  # per-class breakdowns some tasks report beside their metrics
        if isinstance(value, str) and value.strip().upper() == "N/A":
            continue
        task.metrics[metric_key(metric, filt)] = _number(display, where, value)
    return task


def parse(doc: Any, text: str, path: Path, display: str) -> HarnessSummary:
    """Build a :class:`HarnessSummary` from a loaded results document."""
    if not isinstance(doc, dict):
        raise InputError(display, "expected a JSON object with a 'results' key")
    results = doc.get("results")
    if not isinstance(results, dict):
        raise InputError(display, "no 'results' object: not an lm-evaluation-harness results file")
    config = doc.get("config") or {}
    if not isinstance(config, dict):
        raise InputError(display, f"'config' must be an object, got {type(config).__name__}")
    v04 = any("," in k for t in results.values() if isinstance(t, dict) for k in t) or any(
        k in doc for k in ("n-samples", "n-shot", "configs", "lm_eval_version")
    )
    layout = "v0.4" if v04 else "legacy"
    lighteval = lighteval_results.is_results_document(doc)
    if lighteval:
        layout = "lighteval"

    model, revision = model_from(config, doc, path)
    if lighteval:
        model = lighteval_results.model_name(doc) or model
    args = config.get("model_args")
    size = None
    for candidate in (
        model,
        args if isinstance(args, str) else None,
        doc.get("model_name"),
        path.name,
        path.parent.name,
    ):
        size = parse_size(candidate) if isinstance(candidate, str) else None
        if size is not None:
            break

    limit = config.get("limit")
    if limit is not None:
        limit = _number(display, "config.limit", limit)
    limit_key = '"limit"'
    if lighteval:
        # lighteval's --max-samples keeps at most that many documents of every task.
        cap = lighteval_results.max_samples(doc)
        limit, limit_key = (float(cap) if cap is not None else None), '"max_samples"'

    groups = object_at(doc, "groups")
    n_samples = object_at(doc, "n-samples")
    n_shot = object_at(doc, "n-shot")
    configs = object_at(doc, "configs")
    versions = object_at(doc, "versions")
    hib = object_at(doc, "higher_is_better")
    subtasks = object_at(doc, "group_subtasks")
    group_names = set(groups) | {g for g, subs in subtasks.items() if subs}

    lines = _lines_of_keys(text, list(results))
    summary = HarnessSummary(
        path=display,
        model=model,
        model_args=args,
        size_params=size,
        revision=revision,
        num_fewshot=_int_or_none(display, "config.num_fewshot", config.get("num_fewshot")),
        limit=limit,
        config=config,
        layout=layout,
        harness_version=str(doc["lm_eval_version"]) if doc.get("lm_eval_version") else None,
    )
    if limit is not None:
        pos = text.find(limit_key)
        summary.line_of_limit = text.count("\n", 0, pos) + 1 if pos >= 0 else None

    for name, raw in results.items():
        task = _task(display, name, raw)
        task.line = lines.get(name)
        task.is_group = name in group_names
        ns = n_samples.get(name)
        if isinstance(ns, dict):
            task.n_original = _int_or_none(
                display, f"n-samples.{name}.original", ns.get("original")
            )
            task.n_effective = _int_or_none(
                display, f"n-samples.{name}.effective", ns.get("effective")
            )
        elif ns is not None:
            raise InputError(
                display,
                f"n-samples.{name}: expected an object with 'original' and 'effective', got {ns!r}",
            )
        shot = n_shot.get(name)
        tcfg = object_at(configs, name)
        if shot is None:
            shot = tcfg.get("num_fewshot", summary.num_fewshot)
        task.num_fewshot = shot if isinstance(shot, int) and not isinstance(shot, bool) else None
        task.config = tcfg
        if lighteval:
            _lighteval_task(doc, task)
        if name in versions:
            task.version = str(versions[name])
        if isinstance(hib.get(name), dict):
            task.higher_is_better = {str(k): bool(v) for k, v in hib[name].items()}
        summary.tasks[name] = task
    if summary.num_fewshot is None:
        # v0.4 keeps the shot count per task; a run whose tasks agree has one setting.
        shots = {t.num_fewshot for t in summary.tasks.values() if not t.is_group}
        if len(shots) == 1:
            summary.num_fewshot = shots.pop()
    # Groups listed only under "groups" (lm-eval 0.4.0-0.4.2) are tasks of the run too.
    for name, raw in groups.items():
        if name not in summary.tasks:
            task = _task(display, name, raw)
            task.is_group = True
            summary.tasks[name] = task
    return summary


def _lighteval_task(doc: dict[str, Any], task: TaskResult) -> None:
    """Counts and shots of a lighteval task (``"anli:r1|0"``: zero-shot); ``all`` is the
    run's average over its tasks, a group."""
    counts = lighteval_results.task_counts(doc, task.name)
    task.n_original = counts.get("n_original")
    task.n_effective = counts.get("n_effective")
    if task.num_fewshot is None:
        _, bar, shots = task.name.rpartition("|")
        task.num_fewshot = int(shots) if bar and shots.isdigit() else None
    task.is_group = task.is_group or task.name == "all"


def claims_of(summary: HarnessSummary) -> list[Any]:
    """Each reported task score as a claim: the number, its stderr, its n."""
    from benchaudit.evidence import Claim
    from benchaudit.finding import Location

    out = []
    for task in summary.tasks.values():
        for metric, value in task.metrics.items():
            if not math.isfinite(value):
                continue
            out.append(
                Claim(
                    kind="score",
                    text=f"{task.name} {metric} = {value!r}",
                    location=Location(summary.path, task.line),
                    value=repr(value),
                    unit="fraction",
                    benchmark=task.name,
                    n=task.n,
                    n_source="n-samples" if task.n is not None else None,
                    model=summary.model,
                    fields={
                        "metric": metric,
                        "stderr": task.stderr.get(metric),
                        "num_fewshot": task.num_fewshot,
                        "is_group": task.is_group,
                    },
                )
            )
    return out


def read(path: Path, display: str, ctx: Context) -> Source:
    from benchaudit.evidence import Source

    doc, text = load_json(path, display)
    summary = parse(doc, text, path, display)
    claims = claims_of(summary)
    return Source(
        path=display,
        kind="harness-summary",
        data=summary,
        claims=claims,
        numbers_seen=len(claims),
        lines=split_lines(text),
        meta={"format": _FORMATS.get(summary.layout, "lm-eval results"), "model": summary.model},
    )


_FORMATS = {
    "v0.4": "lm-eval results (v0.4)",
    "legacy": "lm-eval results (legacy)",
    "lighteval": "lighteval results",
}

_DISTINCT = (
    '"n-samples"',
    '"n-shot"',
    '"lm_eval_version"',
    '"model_args"',
    '"higher_is_better"',
    '"group_subtasks"',
    '"bootstrap_iters"',
    '"versions"',
    '"config_general"',
    '"config_tasks"',
)


def sniff(p: Probe) -> float:
    if p.suffix != ".json":
        return 0.0
    head = p.text.lstrip()
    if not head.startswith("{") or '"results"' not in head:
        return 0.0
    if '"eval"' in head and '"plan"' in head:
        return 0.0  # an inspect_ai log also has "results"
    hits = sum(1 for key in _DISTINCT if key in head) + (',none"' in head)
    if hits >= 2 or (hits == 1 and p.name.startswith("results")):
        return 0.9
    if hits == 1 or p.name.startswith("results_"):
        return 0.6
    return 0.0


READER = Reader(
    kind="harness-summary",
    sniff=sniff,
    read=read,
    description="lm-evaluation-harness results_*.json (v0.4 and legacy layouts)",
)
