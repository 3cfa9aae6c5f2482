"""inspect_ai evaluation logs -> per-item results.

Two containers hold the same log:

* ``.eval``: a zip archive with ``header.json`` (the eval spec, plan and
  results), one ``samples/<id>_epoch_<n>.json`` member per sample and epoch,
  and a ``_journal/start.json`` that a crashed run leaves without a header;
* ``.json``: one object ``{version, status, eval, plan, results, stats,
  samples: [...]}``.

A sample's ``scores`` maps each scorer to ``{value, answer, explanation}``.
Values are the letters ``C`` (correct, 1), ``I`` (incorrect, 0), ``P``
(partial, 0.5) and ``N`` (no answer, 0), numbers or booleans; a scorer whose
value is an object of several numbers is read as ``scorer.key``. The first
scorer is primary unless ``--column score=NAME`` picks another. Epochs become
the sample index: several generations of one item, not several items.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._harness import (
    build,
    load_json,
    object_at,
    option,
    parse_json,
    score_value,
)
from benchaudit.inputs.limits import decompressed_bytes

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: inspect_ai's letter grades (CORRECT, INCORRECT, PARTIAL, NOANSWER).
LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}

#: Zip members read from an ``.eval`` archive.
HEADER = "header.json"
START = "_journal/start.json"
SAMPLES_DIR = "samples/"


def letter_or_number(value: Any) -> float | None:
    """A scorer value as a number: C/I/P/N letters, booleans, numbers."""
    if isinstance(value, str) and value.strip().upper() in LETTERS:
        return LETTERS[value.strip().upper()]
    return score_value(value)


def _flat_scores(scores: Any) -> dict[str, Any]:
    """``{scorer: value}`` with object values spread out as ``scorer.key``."""
    out: dict[str, Any] = {}
    if not isinstance(scores, dict):
        return out
    for name, score in scores.items():
        value = score.get("value") if isinstance(score, dict) else score
        if isinstance(value, dict):
            for key, inner in value.items():
                out[f"{name}.{key}"] = inner
        else:
            out[str(name)] = value
    return out


def _read_eval_zip(
    path: Path, display: str, limit: int | None = None
) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    """(header, [(member name, sample)]) from an ``.eval`` archive; each member is
    decompressed (deflate or zstd) up to ``limit`` bytes."""
    import zipfile  # here: detection imports this module for every file checked

    from benchaudit.inputs._zip import read_member
    from benchaudit.inputs.limits import DEFAULTS

    cap = limit if limit is not None else DEFAULTS["max-decompressed-mb"] << 20
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise InputError(display, "not a readable .eval archive (truncated or not a zip)") from None
    with zf:
        names = zf.namelist()

        def member(name: str) -> Any:
            try:
                data = read_member(zf, name, display, cap)
            except InputError:
                raise
            except (zipfile.BadZipFile, EOFError, OSError) as exc:
                raise InputError(
                    display, f"archive member {name}: cannot read ({exc.__class__.__name__})"
                ) from None
            except Exception as exc:  # zlib.error on a damaged deflate stream
                raise InputError(display, f"archive member {name}: damaged ({exc})") from None
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise InputError(display, f"archive member {name}: not UTF-8 text") from None
            try:
                return parse_json(text, display)
            except InputError as exc:
                raise InputError(display, f"archive member {name}: {exc.detail}") from None

        if HEADER in names:
            header = member(HEADER)
        elif START in names:
            header = member(START)
        else:
            raise InputError(
                display, "no header.json or _journal/start.json: not an inspect_ai .eval log"
            )
        samples = [
            (n, member(n)) for n in names if n.startswith(SAMPLES_DIR) and n.endswith(".json")
        ]
    return header, samples


def is_log_index(doc: Any) -> bool:
    """True for the ``logs.json`` inspect keeps beside its logs: ``{file: header}``."""
    return (
        isinstance(doc, dict)
        and bool(doc)
        and "eval" not in doc
        and all(isinstance(v, dict) and isinstance(v.get("eval"), dict) for v in doc.values())
    )


def _read_json_log(path: Path, display: str) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    doc, _ = load_json(path, display)
    if is_log_index(doc):
        return {}, []
    if not isinstance(doc, dict) or not isinstance(doc.get("eval"), dict):
        raise InputError(display, "no 'eval' object: not an inspect_ai log")
    samples = doc.get("samples") or []
    if not isinstance(samples, list):
        raise InputError(display, f"'samples' must be a list, got {type(samples).__name__}")
    return doc, [(f"samples[{i}]", s) for i, s in enumerate(samples)]


def read(path: Path, display: str, ctx: Context) -> Source | list[Source]:
    from benchaudit.evidence import Source

    notes: list[str] = []  # what was left out, on the source for the report

    if path.suffix.lower() == ".eval":
        header, samples = _read_eval_zip(path, display, decompressed_bytes(ctx))
    else:
        header, samples = _read_json_log(path, display)
        if not header:
            return []  # the folder's index of logs; each log is read on its own
    spec = header.get("eval") if isinstance(header, dict) else None
    if not isinstance(spec, dict):
        raise InputError(display, "header has no 'eval' spec")
    model = spec.get("model")
    if not isinstance(model, str) or not model:
        raise InputError(display, "eval spec has no 'model'")
    if not samples:
        raise InputError(display, "log has no samples (written with --no-log-samples?)")

    wanted = option(ctx, "score")
    scorer: str | None = None
    items: list[str] = []
    epochs: list[str] = []
    scores: list[float] = []
    order: list[int] = []
    unscored = 0
    scorers: dict[str, None] = {}  # every scorer seen, in order (a note names the others)
    disagree: dict[str, int] = {}  # samples on which another scorer's verdict differs
    for i, (where, sample) in enumerate(samples):
        if not isinstance(sample, dict) or "id" not in sample:
            raise InputError(display, f"{where}: a sample needs an 'id'")
        sid = sample["id"]
        if not isinstance(sid, (str, int)) or isinstance(sid, bool):
            raise InputError(display, f"{where}: sample id must be a string or number, got {sid!r}")
        raw = sample.get("scores")
        if raw is not None and not isinstance(raw, dict):
            raise InputError(
                display, f"{where}: 'scores' must be an object, got {type(raw).__name__}"
            )
        flat = _flat_scores(raw or ({"score": sample["score"]} if "score" in sample else {}))
        if not flat:
            unscored += 1  # an errored or cancelled sample has no score
            continue
        scorers.update(dict.fromkeys(flat))
        if scorer is None:
            scorer = wanted or next(iter(flat))
        if scorer not in flat:
            if wanted:
                raise InputError(
                    display, f"{where}: no scorer {wanted!r} (found: {', '.join(flat)})"
                )
            unscored += 1
            continue
        value = letter_or_number(flat[scorer])
        if value is None:
            raise InputError(
                display,
                f"{where}: score {scorer!r} is {flat[scorer]!r}, "
                "expected C/I/P/N, a number or a boolean",
            )
        for other in flat:
            # Verdicts (0/1) of two scorers that differ: on other scales a difference
            # is not a disagreement on the sample (a 1-5 rubric beside a match).
            theirs = letter_or_number(flat[other])
            if other != scorer and {value, theirs} == {0.0, 1.0}:
                disagree[other] = disagree.get(other, 0) + 1
        epoch = sample.get("epoch", 1)
        items.append(str(sid))
        epochs.append(str(epoch))
        scores.append(value)
        order.append(i + 1)
    if not scores:
        raise InputError(display, "no sample carries a score" + _why_unscored(header, samples))
    if unscored:
        notes.append(f"{display}: {unscored} sample(s) without a {scorer} score left out")
    others = [k for k in scorers if k != scorer]
    if disagree and not wanted:
        # Two scorers that disagree are two readings of the log: which one is "the" score
        # decides the comparison, so the user chooses.
        other, n = next(iter(disagree.items()))
        raise InputError(
            display,
            f"scorers {scorer} and {other} disagree on {n} of {len(scores)} scored samples: "
            f"two readings of the log; choose with --column score={scorer} or "
            f"--column score={other}",
        )
    if others and not wanted:
        notes.append(
            f"{display}: score is {scorer} (the first scorer); the log also holds "
            f"{', '.join(others[:6])} (choose with --column score=NAME)"
        )
    status = header.get("status")
    if status not in (None, "success"):
        notes.append(f"{display}: the log's status is {status!r}; its samples may be incomplete")

    dataset = object_at(spec, "dataset")
    cfg = object_at(spec, "config")
    results = object_at(header, "results")
    odd = _not_correctness(results, scorer)
    if odd:
        notes.append(
            f"{display}: scorer {scorer}'s own metrics are {odd} (no accuracy or mean): its "
            "per-sample values may mark an answer given, not a correct one; read the score "
            "as correctness only if the scorer says so"
        )
    differs = _header_differs(results, scorer, items, scores, len(set(epochs)))
    if differs:
        notes.append(f"{display}: {differs}")
    total = results.get("total_samples")
    if isinstance(total, int) and not isinstance(total, bool) and total > len(samples):
        # A log cut down after the run (or a partial copy): its header's metrics are of
        # the whole run, the per-item figures of what the file still holds.
        notes.append(
            f"{display}: the header counts {total:,} samples (results.total_samples) but "
            f"the file holds {len(samples):,}: the figures here are for the samples in "
            "the file, not for the run its header summarises"
        )
    meta = {
        "reader": "inspect log",
        "task": spec.get("task"),
        "metric": scorer,
        "status": status,
        "epochs": len(set(epochs)),
        "unscored": unscored,
        "limit": cfg.get("limit"),
        "n_original": dataset.get("samples") if isinstance(dataset.get("samples"), int) else None,
        "n_effective": results.get("total_samples"),
    }
    columns = {"model": "eval.model", "item": "id", "score": f"scores.{scorer}"}
    if len(set(epochs)) > 1:
        columns["sample"] = "epoch"
    # Lines of a zip have no meaning; the sample's position in the log stands in.
    rs = build(
        display,
        model=[model] * len(scores),
        item=items,
        score=scores,
        line=order,
        sample=epochs,
        columns=columns,
        meta=meta,
    )
    return Source(
        path=display,
        notes=notes,
        kind="results",
        data=rs,
        meta={"format": "inspect log", "task": spec.get("task"), "metric": scorer},
    )


#: Header metrics that summarise per-sample correctness (or a per-sample mean).
_CORRECTNESS_METRICS = ("accuracy", "mean", "stderr", "std", "var", "pass", "match", "f1", "score")


def _not_correctness(results: dict[str, Any], scorer: str | None) -> str:
    """The header metrics of ``scorer`` when none of them summarises correctness (a
    personality inventory scores every answer C and reports trait levels), else ``""``."""
    for entry in results.get("scores") or []:
        if not isinstance(entry, dict) or entry.get("name") != scorer:
            continue
        metrics = entry.get("metrics")
        names = [str(k) for k in metrics] if isinstance(metrics, dict) else []
        if names and not any(m in n.lower() for n in names for m in _CORRECTNESS_METRICS):
            return ", ".join(names[:5]) + (" ..." if len(names) > 5 else "")
    return ""


def _header_differs(
    results: dict[str, Any], scorer: str | None, items: list[str], scores: list[float], epochs: int
) -> str:
    """What to say when the header's accuracy (or mean) of ``scorer`` is not the mean of
    the samples in the file: the file is not the run its header summarises (cut down or
    edited). Only where the two must agree: one epoch, or epochs reduced by the mean."""
    mine = [
        e for e in results.get("scores") or [] if isinstance(e, dict) and e.get("name") == scorer
    ]
    if len(mine) != 1:
        return ""  # absent, or one scorer name twice (several reducers): not comparable
    entry: dict[str, Any] = mine[0]
    reducer = entry.get("reducer")
    if epochs > 1 and reducer != "mean":
        return ""  # at_least_k, max, mode ... summarise epochs otherwise
    raw = entry.get("metrics")
    metrics: dict[str, Any] = raw if isinstance(raw, dict) else {}
    for name in ("accuracy", "mean"):
        metric = metrics.get(name)
        value = metric.get("value") if isinstance(metric, dict) else None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        per_item: dict[str, list[float]] = {}
        for item, x in zip(items, scores):
            per_item.setdefault(item, []).append(x)
        mean = sum(sum(v) / len(v) for v in per_item.values()) / len(per_item)
        if abs(mean - float(value)) > 1e-6:
            return (
                f"the header's {name} of {scorer} is {float(value):.4g}, the samples in the "
                f"file give {mean:.4g}: the file is not the whole run its header summarises "
                "(cut down or edited); the figures here are the samples'"
            )
        return ""
    return ""


def _why_unscored(header: Any, samples: list[tuple[str, Any]]) -> str:
    """Why a log has no score: its status and its samples' errors, when it says."""
    status = header.get("status") if isinstance(header, dict) else None
    errors = [s.get("error") for _, s in samples if isinstance(s, dict) and s.get("error")]
    if not errors:
        return f" (the log's status is {status!r})" if status not in (None, "success") else ""
    first = errors[0].get("message") if isinstance(errors[0], dict) else errors[0]
    first = str(first).splitlines()[0][:80] if first else "?"
    return (
        f": the log's status is {status!r} and {len(errors)} of {len(samples)} samples "
        f"errored (first: {first})"
    )


def sniff(p: Probe) -> float:
    if p.suffix == ".eval":
        return 0.95 if p.head.startswith(b"PK\x03\x04") else 0.3
    if p.suffix != ".json":
        return 0.0
    head = p.text.lstrip()
    if not head.startswith("{"):
        return 0.0
    marks = sum(
        f'"{k}"' in head
        for k in ("eval", "plan", "status", "task_id", "run_id", "solver", "scorer")
    )
    return 0.9 if marks >= 4 and '"eval"' in head else 0.0


READER = Reader(
    kind="results",
    sniff=sniff,
    read=read,
    description="inspect_ai logs (.eval archives and .json logs)",
)
