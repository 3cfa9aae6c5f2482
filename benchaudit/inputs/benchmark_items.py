"""Benchmark item files (a GSM8K test.jsonl, HumanEval.jsonl): items, no scores.

Such a file carries no claim to audit, but it is a normal thing to find in a
leaderboard repository, so it is recognised, counted and noted rather than
refused or, worse, read as prose. ``benchaudit contamination --benchmark``
is what checks it.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

from benchaudit.evidence import Source
from benchaudit.inputs import Probe, Reader

if TYPE_CHECKING:
    from benchaudit.engine import Context

#: Fields that hold an item's text (the same ones the contamination scan reads).
TEXT_FIELDS = {"question", "prompt", "problem", "input", "text", "instruction", "query"}
#: Fields that would make a file something to audit instead.
RESULT_FIELDS = {
    "model",
    "system",
    "score",
    "correct",
    "is_correct",
    "acc",
    "passed",
    "result",
    "winner",
    "model_a",
    "model_b",
    "confidence",
    "probability",
    "metrics",
    "results",
}
_SUFFIXES = {".jsonl", ".json", ".csv", ".tsv"}


def _fields(p: Probe) -> set[str]:
    first = p.first_line()
    if p.suffix in (".jsonl", ".json"):
        try:
            rec = json.loads(first)
        except (ValueError, RecursionError):  # bad JSON, too deep, or an over-long integer
            return set()
        return {str(k).lower() for k in rec} if isinstance(rec, dict) else set()
    delimiter = p.delimiter
    try:
        row = next(csv.reader(io.StringIO(first), delimiter=delimiter), [])
    except csv.Error:  # a lone carriage return inside the first line
        return set()
    return {c.strip().lower() for c in row}


def sniff(p: Probe) -> float:
    if p.suffix not in _SUFFIXES or p.is_binary():
        return 0.0
    fields = _fields(p)
    if fields & TEXT_FIELDS and not fields & RESULT_FIELDS:
        return 0.2  # below every data reader: they win when they recognise the file
    return 0.0


def read(path: Path, display: str, ctx: Context) -> Source:
    with open(path, "rb") as fh:
        lines = sum(1 for raw in fh if raw.strip())
    items = lines - 1 if path.suffix.lower() in (".csv", ".tsv") else lines
    note = (
        f"{display}: a benchmark item file ({items:,} items) with no scores to audit; "
        f"'benchaudit contamination --benchmark {display} --corpus ...' checks it "
        "against training data"
    )
    return Source(path=display, kind="benchmark-items", meta={"items": items}, notes=[note])


READER = Reader(
    kind="benchmark-items",
    sniff=sniff,
    read=read,
    description="benchmark items (question / prompt / problem ...) without scores",
    max_bytes=None,
)
