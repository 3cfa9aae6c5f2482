"""Per-item JSON/JSONL where each record is one item and each system a nested key.

The layout of OpenAI's GSM8K ``example_model_solutions.jsonl``::

    {"question": "...", "ground_truth": "...",
     "6b_finetuning": {"is_correct": false, "solution": "..."},
     "175b_verification": {"is_correct": true, "solution": "..."}}

Every key of the first record whose value is an object holding a correctness
field (:data:`CORRECT_KEYS`, or the field named by ``--column score=FIELD``) is a
system; every later record must give each of them. The item is an id field when the record has one (:data:`ID_KEYS`), else a
hash of its question text (stable across files, so two runs can be matched),
else the line number. A ``.json`` file may hold the same records as a list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._columns import ROLES, norm
from benchaudit.inputs._harness import build, iter_jsonl, load_json, option, parse_json

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Fields of a nested system object that hold its per-item score.
CORRECT_KEYS = ("is_correct", "correct", "passed", "score", "accuracy")
#: Record fields that identify an item.
ID_KEYS = ("id", "idx", "question_id", "task_id", "problem_id", "instance_id", "uid", "doc_id")
#: Record fields whose text identifies an item when there is no id.
TEXT_KEYS = ("question", "prompt", "problem", "input", "text")


def systems_of(record: dict[str, Any], wanted: str | None = None) -> dict[str, str]:
    """``{system: correctness field}`` for the nested systems of one record."""
    out = {}
    for key, value in record.items():
        if not isinstance(value, dict):
            continue
        fields = [wanted] if wanted else list(CORRECT_KEYS)
        for f in fields:
            if f in value and isinstance(value[f], (bool, int, float)):
                out[str(key)] = f
                break
    return out


def _records(path: Path, display: str) -> Iterator[tuple[int, Any]]:
    if path.suffix.lower() == ".json":
        doc, _ = load_json(path, display)
        if isinstance(doc, dict):
            doc = next((v for v in doc.values() if isinstance(v, list)), None)
        if not isinstance(doc, list):
            raise InputError(display, "expected a list of item records")
        # Records of a JSON list have no line of their own; number them from 1.
        yield from enumerate(doc, start=1)
    else:
        yield from iter_jsonl(path, display)


def _item_key(record: dict[str, Any]) -> tuple[str, str] | None:
    for key in ID_KEYS:
        if isinstance(record.get(key), (str, int)) and not isinstance(record.get(key), bool):
            return key, str(record[key])
    for key in TEXT_KEYS:
        if isinstance(record.get(key), str) and record[key].strip():
            from benchaudit.inputs._harness import text_id

            return f"hash of {key}", text_id(record[key])
    return None


def read(path: Path, display: str, ctx: Context) -> Source:
    from benchaudit.evidence import Source

    wanted = option(ctx, "score")
    systems: dict[str, str] | None = None
    item_from: str | None = None
    models: list[str] = []
    items: list[str] = []
    scores: list[float] = []
    lines: list[int] = []
    for lineno, rec in _records(path, display):
        if not isinstance(rec, dict):
            raise InputError(display, f"expected a JSON object, got {type(rec).__name__}", lineno)
        if systems is None:
            systems = systems_of(rec, wanted)
            if len(systems) < 1:
                raise InputError(
                    display,
                    f"no nested system objects with {wanted or ' / '.join(CORRECT_KEYS)}",
                    lineno,
                )
            key = _item_key(rec)
            item_from = key[0] if key else "line"
        key = _item_key(rec)
        if item_from == "line" or key is None or key[0] != item_from:
            item = str(lineno)
        else:
            item = key[1]
        for system, field in systems.items():
            value = rec.get(system)
            if not isinstance(value, dict) or field not in value:
                raise InputError(display, f"system {system!r} has no {field!r} here", lineno)
            v = value[field]
            if not isinstance(v, (bool, int, float)):
                raise InputError(
                    display,
                    f"{system}.{field} is {type(v).__name__} {v!r}, "
                    "expected true/false or a number",
                    lineno,
                )
            models.append(system)
            items.append(item)
            scores.append(1.0 if v is True else 0.0 if v is False else float(v))
            lines.append(lineno)
    if systems is None:
        raise InputError(display, "no records")
    fields = sorted(set(systems.values()))
    meta = {
        "reader": "nested json",
        "systems": list(systems),
        "item_from": item_from,
        "metric": fields[0] if len(fields) == 1 else ",".join(fields),
    }
    columns = {
        "model": "nested keys",
        "item": item_from or "line",
        "score": "<system>." + "/".join(fields),
    }
    rs = build(
        display, model=models, item=items, score=scores, line=lines, columns=columns, meta=meta
    )
    return Source(
        path=display,
        kind="results",
        data=rs,
        meta={"format": "nested per-system JSON", "systems": list(systems)},
    )


_NESTED = re.compile(r'"[^"]+"\s*:\s*\{[^{}]*"(?:is_correct|correct|passed)"\s*:')


def sniff(p: Probe) -> float:
    if p.suffix not in (".jsonl", ".json"):
        return 0.0
    text = p.first_line() if p.suffix == ".jsonl" else p.text.lstrip()
    if p.suffix == ".json":
        # A list of records; the first may run past the probe, so judge it as text.
        return 0.6 if text.startswith("[") and len(_NESTED.findall(text[:8192])) >= 2 else 0.0
    if not text.startswith("{"):
        return 0.0
    try:
        rec = parse_json(text, p.name)
    except InputError:
        return 0.5 if len(_NESTED.findall(text)) >= 2 else 0.0
    if not isinstance(rec, dict):
        return 0.0
    if any(norm(k) in ROLES["model"] for k in rec):
        return 0.0  # a model column: long-form rows with a nested score, not one object per system
    found = systems_of(rec)
    if len(found) >= 2:
        return 0.85
    strong = [f for f in found.values() if f in ("is_correct", "correct", "passed")]
    return 0.5 if strong else 0.0


READER = Reader(
    kind="results",
    sniff=sniff,
    read=read,
    description="per-item JSON/JSONL with one nested object per system ({is_correct: ...})",
)
