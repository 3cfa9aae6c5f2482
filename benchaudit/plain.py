"""Plain values for the report writers: JSON-ready data and the words for what hid a finding.

A leaf module (standard library only) that :mod:`benchaudit.finding` and every
writer in :mod:`benchaudit.render` import, so that the writers need the report
types only for annotations and the report's views can import the writers.
"""

from __future__ import annotations

from typing import Any

#: What can hide a finding, in the order reports list them, with the words they use.
SUPPRESSED_BY = {
    "inline": "inline comments",
    "per_file_ignores": "per-file ignores",
    "config": "the ignore list",
    "baseline": "the baseline",
}


def jsonable(value: Any) -> Any:
    """Turn numpy scalars, tuples and sets into plain JSON types, recursively."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return value
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    item = getattr(value, "item", None)  # numpy scalar without importing numpy
    if callable(item):
        return jsonable(item())
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return jsonable(tolist())
    import json  # only for values of no plain type: a text report never gets here

    return json.loads(json.dumps(value, default=str))
