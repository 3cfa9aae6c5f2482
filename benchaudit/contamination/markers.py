"""Resume markers: one shard's scan result as JSON of a fixed schema.

A marker sits in a state folder that anyone with write access to it can fill,
so it is read as data only: a JSON object with exactly the keys below, the
counts as non-negative integers and every array as base64 of little-endian
values of the dtype this module fixes (the file does not choose it), all
arrays of one group of equal length. Anything else (a pickle, a truncated
file, an extra key) is refused with :class:`MarkerError`; nothing in a marker
is ever imported or called.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

import numpy as np

from benchaudit.contamination.scan import ShardResult

SCHEMA = "benchaudit.contamination.shard-result/1"
#: Largest marker read (a marker holds hits and gram counts, not the shard's text).
MAX_BYTES = 256 << 20

#: Array fields, their dtype, and the group whose arrays share one length.
ARRAYS: dict[str, tuple[str, str]] = {
    "run_item": ("<i4", "run"),
    "run_doc": ("<i8", "run"),
    "run_line": ("<i8", "run"),
    "run_p0": ("<i4", "run"),
    "run_diag": ("<i8", "run"),
    "run_len": ("<i4", "run"),
    "df_key": ("<i8", "df"),
    "df_count": ("<i8", "df"),
    "near_item": ("<i4", "near"),
    "near_doc": ("<i8", "near"),
    "near_line": ("<i8", "near"),
    "near_jaccard": ("<f8", "near"),
}
COUNTS = ("docs", "tokens", "nbytes")


class MarkerError(ValueError):
    """A marker that is not valid data of :data:`SCHEMA`."""


def dump(res: ShardResult) -> str:
    out: dict[str, Any] = {"schema": SCHEMA}
    for key in COUNTS:
        out[key] = int(getattr(res, key))
    out["arrays"] = {
        key: base64.b64encode(np.ascontiguousarray(getattr(res, key), dtype).tobytes()).decode()
        for key, (dtype, _) in ARRAYS.items()
    }
    return json.dumps(out, sort_keys=True) + "\n"


def load(path: str) -> ShardResult:
    """The result a marker holds; :class:`MarkerError` for anything but :data:`SCHEMA`."""
    from benchaudit import fs
    from benchaudit.errors import InputError

    try:
        raw = fs.read_capped(path, path, MAX_BYTES, "resume marker")
    except InputError as exc:
        raise MarkerError(exc.detail) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MarkerError("not a JSON marker") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise MarkerError(f"not a marker of schema {SCHEMA}")
    if set(data) != {"schema", "arrays", *COUNTS}:
        raise MarkerError("unexpected keys")
    counts = {k: data[k] for k in COUNTS}
    if not all(type(v) is int and v >= 0 for v in counts.values()):
        raise MarkerError("counts must be non-negative whole numbers")
    arrays = data["arrays"]
    if not isinstance(arrays, dict) or set(arrays) != set(ARRAYS):
        raise MarkerError("unexpected arrays")
    values: dict[str, np.ndarray] = {}
    lengths: dict[str, int] = {}
    for key, (dtype, group) in ARRAYS.items():
        text = arrays[key]
        if not isinstance(text, str):
            raise MarkerError(f"array {key} is not base64 text")
        try:
            buf = base64.b64decode(text.encode("ascii"), validate=True)
        except (UnicodeEncodeError, binascii.Error):
            raise MarkerError(f"array {key} is not base64 text") from None
        size = np.dtype(dtype).itemsize
        if len(buf) % size:
            raise MarkerError(f"array {key} has a partial value")
        arr = np.frombuffer(buf, dtype=dtype).astype(dtype[1:])
        if lengths.setdefault(group, len(arr)) != len(arr):
            raise MarkerError(f"array {key} differs in length from the rest of its group")
        values[key] = arr
    res = ShardResult(shard="", ordinal=0, **counts)
    for key, arr in values.items():
        setattr(res, key, arr)
    return res
