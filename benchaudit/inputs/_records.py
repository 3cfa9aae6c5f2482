"""Small record files (JSONL, CSV, TSV) as (field names, [(line, record)]).

Shared by the readers whose files are small enough to hold as Python dicts
(pass@k samples, calibration files); large per-item files go through the
pyarrow path of the tabular reader instead.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from benchaudit.errors import InputError
from benchaudit.inputs import delimiter_of
from benchaudit.linebreaks import split_lines


def read_records(path: Path, display: str, suffix: str) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    """Field names (in order of first appearance) and numbered records of a file."""
    text = path.read_text(encoding="utf-8-sig")
    if suffix in (".jsonl", ".json"):
        return _json_lines(text, display)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter_of(text, suffix))
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InputError(display, "empty file") from None
    rows = []
    for rec in reader:
        line = reader.line_num
        if not any(v.strip() for v in rec):
            continue
        if len(rec) != len(header):
            raise InputError(
                display, f"ragged row: {len(rec)} fields, expected {len(header)}", line
            )
        rows.append((line, dict(zip(header, rec))))
    return header, rows


def _json_lines(text: str, display: str) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    numbered = [(i, raw) for i, raw in enumerate(split_lines(text), 1) if raw.strip()]
    try:
        # One parse of the whole file is several times faster than one per line;
        # on any error the line-by-line loop below names the line.
        recs = json.loads("[" + ",".join(raw for _, raw in numbered) + "]")
    except json.JSONDecodeError:
        recs = None
    if recs is None or len(recs) != len(numbered) or not all(isinstance(r, dict) for r in recs):
        recs = []
        for i, raw in numbered:
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise InputError(display, f"invalid JSON: {exc.msg}", i) from None
            if not isinstance(rec, dict):
                raise InputError(display, "expected one JSON object per line", i)
            recs.append(rec)
    keys: dict[str, None] = {}
    for r in recs:
        keys.update(dict.fromkeys(r))
    return list(keys), [(i, r) for (i, _), r in zip(numbered, recs)]
