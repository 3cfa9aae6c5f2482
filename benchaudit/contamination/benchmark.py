"""Benchmark item files: jsonl / jsonl.gz / json / csv / tsv / parquet.

Each record becomes an :class:`Item` with an id (the record's id field, else
its 0-based line number, or record number for formats without lines), the
text that is searched for, and the 1-based line it came from. The text is the
first question-like field, with the reference answer appended when the
record has one, so HumanEval (prompt + canonical_solution) and GSM8K
(question + answer) files work without flags.
"""

from __future__ import annotations

import csv
import gzip
import json
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchaudit.errors import InputError
from benchaudit.limits import DEFAULT, Limits, size

ID_FIELDS = (
    "id",
    "task_id",
    "item_id",
    "question_id",
    "problem_id",
    "unique_id",
    "uid",
    "idx",
    "doc_id",
)
TEXT_FIELDS = ("question", "prompt", "problem", "input", "text", "instruction", "query")
ANSWER_FIELDS = ("answer", "canonical_solution", "solution")


@dataclass(frozen=True)
class Item:
    """One benchmark item."""

    index: int
    id: str
    text: str
    line: int | None
    main: str | None = None  # the question alone, when an answer is appended to it


def _too_big(display: str, limits: Limits) -> InputError:
    return InputError(
        display,
        f"more than {size(limits.max_benchmark_bytes)}, the cap for a benchmark item file "
        "(max-benchmark-bytes)",
    )


def _records(
    path: Path, display: str, limits: Limits = DEFAULT
) -> Iterator[tuple[dict[str, Any], int | None, int]]:
    """(record, 1-based line or None, default id) for every record."""
    from benchaudit.contamination.shards import _lines

    name = path.name.lower()
    try:
        if path.is_file() and path.stat().st_size > limits.max_benchmark_bytes:
            raise _too_big(display, limits)
        if name.endswith((".jsonl", ".jsonl.gz", ".ndjson")):
            total = 0
            for lineno, line in _lines(str(path), limits):
                total += len(line) + 1
                if total > limits.max_benchmark_bytes:
                    raise _too_big(display, limits)
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(display, f"invalid JSON: {exc.msg}", lineno) from None
                if not isinstance(rec, dict):
                    raise InputError(display, "each line must be a JSON object", lineno)
                yield rec, lineno, lineno - 1
        elif name.endswith((".json", ".json.gz")):
            opener = gzip.open if name.endswith(".gz") else open
            with opener(path, "rb") as fh:
                raw = fh.read(limits.max_benchmark_bytes + 1)
            if len(raw) > limits.max_benchmark_bytes:
                raise _too_big(display, limits)
            try:
                data = json.loads(raw.decode("utf-8-sig"))
            except json.JSONDecodeError as exc:
                raise InputError(display, f"invalid JSON: {exc.msg}", exc.lineno) from None
            except RecursionError:
                raise InputError(display, "JSON nested too deeply to read") from None
            if isinstance(data, dict):
                lists = [v for v in data.values() if isinstance(v, list)]
                if len(lists) != 1:
                    raise InputError(display, "expected a JSON list of items (or one list inside)")
                data = lists[0]
            if not isinstance(data, list):
                raise InputError(display, "expected a JSON list of items")
            for i, rec in enumerate(data):
                if not isinstance(rec, dict):
                    raise InputError(display, f"item {i} is not a JSON object")
                yield rec, None, i
        elif name.endswith((".csv", ".tsv")):
            with open(path, newline="", encoding="utf-8-sig") as fh:
                reader = csv.DictReader(fh, delimiter="\t" if name.endswith(".tsv") else ",")
                if not reader.fieldnames:
                    raise InputError(display, "no header row")
                i = 0
                start = 2
                try:
                    for rec in reader:
                        if None in rec:
                            raise InputError(
                                display, "ragged row: more fields than the header", start
                            )
                        yield rec, start, i
                        i += 1
                        start = reader.line_num + 1
                except csv.Error as exc:
                    raise InputError(display, f"not valid CSV ({exc})", reader.line_num) from None
        elif name.endswith(".parquet"):
            yield from _parquet_records(path, display)
        else:
            raise InputError(
                display,
                "unknown benchmark format (use .jsonl, .json, .csv, .tsv, .parquet or .jsonl.gz)",
            )
    except FileNotFoundError:
        raise InputError(display, "no such file") from None
    except IsADirectoryError:
        raise InputError(display, "is a directory") from None
    except UnicodeDecodeError as exc:
        raise InputError(display, f"not valid UTF-8 text (byte {exc.start})") from None
    except (OSError, EOFError) as exc:
        raise InputError(display, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    except zlib.error as exc:
        raise InputError(display, f"cannot decompress: {exc}") from None


def _parquet_records(path: Path, display: str) -> Iterator[tuple[dict[str, Any], None, int]]:
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for bad files
        raise InputError(display, f"not a readable Parquet file ({type(exc).__name__})") from None
    i = 0
    for batch in pf.iter_batches(batch_size=4096):
        for rec in batch.to_pylist():
            yield rec, None, i
            i += 1


def _text_of(rec: dict[str, Any], fields: Sequence[str] | None) -> tuple[str, str | None] | None:
    def present(key: str) -> bool:
        v = rec.get(key)
        return v is not None and str(v).strip() != ""

    if fields:
        parts = [str(rec[f]) for f in fields if present(f)]
        if not parts:
            return None
        return "\n".join(parts), (parts[0] if len(parts) > 1 else None)
    main = next((f for f in TEXT_FIELDS if present(f)), None)
    if main is None:
        return None
    parts = [str(rec[main])]
    parts.extend(str(rec[f]) for f in ANSWER_FIELDS if present(f) and f != main)
    return "\n".join(parts), (parts[0] if len(parts) > 1 else None)


def read_items(
    path: str | Path,
    fields: Sequence[str] | None = None,
    id_field: str | None = None,
    limits: Limits = DEFAULT,
) -> list[Item]:
    """Read a benchmark file into items; ``fields`` overrides the text fields."""
    display = str(path)
    p = Path(path)
    items: list[Item] = []
    for rec, line, default_id in _records(p, display, limits):
        got = _text_of(rec, fields)
        if got is None:
            wanted = ", ".join(fields) if fields else ", ".join(TEXT_FIELDS)
            keys = ", ".join(list(rec)[:8])
            raise InputError(
                display,
                f"no text field ({wanted}); fields are: {keys} (name one with --field)",
                line,
            )
        if id_field:
            if rec.get(id_field) is None:
                raise InputError(display, f"no id field {id_field!r}", line)
            item_id = str(rec[id_field])
        else:
            key = next((f for f in ID_FIELDS if rec.get(f) not in (None, "")), None)
            item_id = str(rec[key]) if key else str(default_id)
        items.append(Item(index=len(items), id=item_id, text=got[0], line=line, main=got[1]))
    if not items:
        raise InputError(display, "no benchmark items")
    return items
