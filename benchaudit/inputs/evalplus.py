"""EvalPlus ``eval_results.json``: per-sample verdicts on HumanEval / MBPP and their "+" tests.

``evalplus.evaluate`` writes ``{"date", "hash", "eval": {task_id: [sample, ...]}}``, each
sample with ``base_status`` and ``plus_status`` (``pass`` / ``fail`` / ``timeout``); releases
before 0.2 wrote ``{task_id: {"nfiles", "base": [[status, ...]], "plus": [...]}}`` with
``success`` for a pass. The base tests and the base + extra tests are two benchmarks
(HumanEval and HumanEval+): a sample passes the "+" benchmark only when it passes both,
as EvalPlus counts it. Each becomes its own pass@k source, so the two are never pooled
and never paired with each other. Standard library only at module level.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError

if TYPE_CHECKING:
    from benchaudit.evidence import Source

_PASS = {"pass", "success"}
#: The file names evalplus writes: ``<samples>_eval_results.json``, ``<samples>.eval_results.json``
#: or ``eval_results.json`` inside a samples folder.
SUFFIXES = ("_eval_results.json", ".eval_results.json", "eval_results.json")


def looks_like(doc: Any) -> bool:
    """An EvalPlus results document (either layout)."""
    ev = doc.get("eval") if isinstance(doc, dict) else None
    if not isinstance(ev, dict) or not ev:
        return False
    first = next(iter(ev.values()))
    if isinstance(first, list):
        return bool(first) and isinstance(first[0], dict) and "base_status" in first[0]
    return isinstance(first, dict) and isinstance(first.get("base"), list)


#: How an EvalPlus results file starts: ``{"date": ..., "hash": ..., "eval": {"<task>": [{``.
_HEAD = re.compile(r'^\s*\{\s*(?:"(?:date|hash)"\s*:\s*"[^"]*"\s*,\s*)*"eval"\s*:\s*\{\s*"[^"]+"\s*:\s*[\[{]')


def looks_like_head(text: str) -> bool:
    """An EvalPlus results document seen from its first bytes only: real files (164
    HumanEval tasks with their solutions) are larger than what detection reads, so the
    head does not parse as JSON; its opening keys and a sample's verdict key say it."""
    if not _HEAD.match(text):
        return False
    return '"base_status"' in text or re.search(r'"base"\s*:\s*\[', text) is not None


def _run_name(path: Path) -> str:
    name = path.name
    for suffix in SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    parent = path.parent.name
    return parent if parent not in ("", ".") else path.stem


def _statuses(task: str, entry: Any, display: str) -> list[tuple[str, str | None]]:
    """(base, plus) status of each sample of a task; plus None for a base-only run."""
    if isinstance(entry, list):
        out = []
        for s in entry:
            if not isinstance(s, dict) or not isinstance(s.get("base_status"), str):
                raise InputError(display, f"eval[{task!r}]: a sample needs a 'base_status'")
            plus = s.get("plus_status")
            out.append((s["base_status"], plus if isinstance(plus, str) else None))
        return out
    if isinstance(entry, dict) and isinstance(entry.get("base"), list):
        base = [b[0] if isinstance(b, list) and b else b for b in entry["base"]]
        plus_raw = entry.get("plus") or []
        plus = [p[0] if isinstance(p, list) and p else p for p in plus_raw]
        if plus and len(plus) != len(base):
            raise InputError(display, f"eval[{task!r}]: base and plus verdicts differ in count")
        return [(str(b), str(plus[i]) if plus else None) for i, b in enumerate(base)]
    raise InputError(display, f"eval[{task!r}]: expected a list of samples")


def read(path: Path, display: str, doc: dict[str, Any], samples_data: Any) -> list[Source]:
    """One pass@k source for the base tests, and one for base + extra tests when the run
    has them. ``samples_data`` is the samples reader's :class:`SamplesData` (passed in, so
    that this module does not import the reader that calls it)."""
    import numpy as np

    from benchaudit.evidence import Source

    text = path.read_text(encoding="utf-8-sig")
    problems: list[str] = []
    lines: list[int] = []
    n: list[int] = []
    c_base: list[int] = []
    c_plus: list[int] = []
    has_plus = True
    for task, entry in doc["eval"].items():
        statuses = _statuses(str(task), entry, display)
        if not statuses:
            raise InputError(display, f"eval[{task!r}]: no samples")
        pos = text.find(json.dumps(str(task)))
        problems.append(str(task))
        lines.append(text.count("\n", 0, pos) + 1 if pos >= 0 else 1)
        n.append(len(statuses))
        c_base.append(sum(b in _PASS for b, _ in statuses))
        c_plus.append(sum(b in _PASS and p in _PASS for b, p in statuses))
        has_plus = has_plus and all(p is not None for _, p in statuses)
    run = _run_name(path)
    out = []
    for plus, counts in ((False, c_base), (True, c_plus)):
        if plus and not has_plus:
            break
        # "HumanEval/0" -> "HumanEval+/0": the "+" tests are a benchmark of their own.
        ids = [_plus_id(p) for p in problems] if plus else list(problems)
        data = samples_data(
            path=display,
            problems=ids,
            n=np.asarray(n, dtype=np.int64),
            c=np.asarray(counts, dtype=np.int64),
            lines=list(lines),
            layout="samples",
            run_name=run,
            task=_benchmark(ids),
        )
        out.append(
            Source(
                path=display,
                kind="samples",
                data=data,
                numbers_seen=sum(n),
                meta={
                    "format": "EvalPlus eval_results ("
                    + ("base + extra tests)" if plus else "base tests)"),
                    "layout": "samples",
                    "columns": {
                        "item": "eval.<task_id>",
                        "score": "plus_status" if plus else "base_status",
                    },
                    "scale": "0/1",
                },
            )
        )
    return out


def _benchmark(problems: list[str]) -> str | None:
    """The benchmark the task ids name (``HumanEval/0`` -> HumanEval), if one."""
    heads = {p.split("/", 1)[0] for p in problems if "/" in p}
    return heads.pop() if len(heads) == 1 else None


def _plus_id(problem: str) -> str:
    head, sep, tail = problem.partition("/")
    return f"{head}+{sep}{tail}" if sep else f"{problem}+"
