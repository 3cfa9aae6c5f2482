"""Per-item result files for the case files, built from a few numbers and a seed.

A case gives a file as a mapping instead of text when the file is long::

    files:
      scores.csv:
        generate: per_item
        columns: [model, question_id, correct]
        units: [a, b]                # one row per unit and item
        patterns: {"11": 40, "10": 12, "01": 3, "00": 45}
        seed: 1

``patterns`` says how many items have each joint outcome: one character per
unit, in the order of ``units`` (``"10"``: a right, b wrong). What a paired
test sees is fixed by these counts (a vs b above: 12 and 3 discordant items),
so a case's expected numbers can be worked out from the spec alone; the seed
only decides which item ids get which pattern.

Each unit is the start of a row; ``{item}`` marks where the item id goes
(``"m,{item},0"`` for model, item, sample) and defaults to after the unit. The
outcome is the last column. Optional keys: ``prefix`` (item ids, default
``q``), ``start`` (first item number, default 0), ``order: item`` (rows item by
item instead of unit by unit), ``flip: {unit: [item ids]}`` (outcomes inverted,
for a second run), ``drop: [row prefixes]`` and ``repeat: [row prefixes]``
(a row removed or written twice, by its text before the outcome).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

KEYS = {
    "generate",
    "columns",
    "units",
    "patterns",
    "seed",
    "prefix",
    "start",
    "order",
    "flip",
    "drop",
    "repeat",
}


def per_item(spec: dict[str, Any]) -> str:
    """The CSV text for ``spec`` (see the module docstring); the same spec gives the same bytes."""
    unknown = set(spec) - KEYS
    if unknown:
        raise ValueError(f"unknown fixture key(s) {sorted(unknown)}")
    units = [str(u) if "{item}" in str(u) else f"{u},{{item}}" for u in spec["units"]]
    outcomes: list[str] = []
    for pattern, count in spec["patterns"].items():
        if not isinstance(pattern, str) or len(pattern) != len(units) or set(pattern) - {"0", "1"}:
            raise ValueError(f"pattern {pattern!r} needs one 0/1 per unit ({len(units)}), quoted")
        outcomes += [pattern] * int(count)
    random.Random(spec["seed"]).shuffle(outcomes)
    start = int(spec.get("start", 0))
    items = [f"{spec.get('prefix', 'q')}{start + i}" for i in range(len(outcomes))]
    flips = {str(u): set(ids) for u, ids in (spec.get("flip") or {}).items()}
    drop, repeat = set(spec.get("drop") or ()), set(spec.get("repeat") or ())

    def row(u: int, i: int) -> list[str]:
        text = units[u].format(item=items[i])
        value = outcomes[i][u]
        if items[i] in flips.get(str(spec["units"][u]), ()):
            value = "1" if value == "0" else "0"
        if text in drop:
            return []
        return [f"{text},{value}"] * (2 if text in repeat else 1)

    cells = [(u, i) for u in range(len(units)) for i in range(len(items))]
    if spec.get("order") == "item":
        cells.sort(key=lambda c: (c[1], c[0]))
    lines = [",".join(spec["columns"])] + [r for u, i in cells for r in row(u, i)]
    return "\n".join(lines) + "\n"


GENERATORS: dict[str, Callable[[dict[str, Any]], str]] = {"per_item": per_item}


def content(value: str | dict[str, Any]) -> str:
    """A case file's text: given inline, or generated from its spec."""
    if isinstance(value, str):
        return value
    return GENERATORS[value["generate"]](value)
