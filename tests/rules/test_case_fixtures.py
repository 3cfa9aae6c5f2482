"""The generator behind the long per-item files of the case files."""

from __future__ import annotations

import csv
import io
from collections import Counter

import pytest
from case_fixtures import content, per_item

SPEC = {
    "generate": "per_item",
    "columns": ["model", "question_id", "correct"],
    "units": ["a", "b"],
    "patterns": {"11": 5, "10": 3, "01": 1, "00": 2},
    "seed": 1,
}


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_same_spec_gives_the_same_bytes_and_the_seed_only_moves_items():
    assert per_item(SPEC) == per_item(dict(SPEC))
    other = per_item({**SPEC, "seed": 2})
    assert other != per_item(SPEC)
    assert sorted(other.splitlines()[1:]) != sorted(per_item(SPEC).splitlines()[1:])
    for text in (per_item(SPEC), other):
        rows = _rows(text)
        by_item: dict[str, str] = {}
        for r in rows:
            by_item[r["question_id"]] = by_item.get(r["question_id"], "") + r["correct"]
        assert Counter(by_item.values()) == Counter({"11": 5, "10": 3, "01": 1, "00": 2})


def test_rows_unit_by_unit_with_item_ids_from_the_prefix():
    rows = _rows(per_item({**SPEC, "prefix": "Q", "start": 1}))
    assert [r["model"] for r in rows] == ["a"] * 11 + ["b"] * 11
    assert [r["question_id"] for r in rows[:11]] == [f"Q{i}" for i in range(1, 12)]


def test_item_placeholder_order_flip_drop_and_repeat():
    spec = {
        **SPEC,
        "columns": ["model", "question_id", "sample", "correct"],
        "units": ["m,{item},0", "m,{item},1"],
        "order": "item",
    }
    rows = _rows(per_item(spec))
    assert [(r["question_id"], r["sample"]) for r in rows[:4]] == [
        ("q0", "0"),
        ("q0", "1"),
        ("q1", "0"),
        ("q1", "1"),
    ]
    base = _rows(per_item(SPEC))
    flipped = _rows(per_item({**SPEC, "flip": {"b": ["q3"]}}))
    changed = [(x, y) for x, y in zip(base, flipped) if x != y]
    assert [(x["model"], x["question_id"]) for x, _ in changed] == [("b", "q3")]
    assert {changed[0][0]["correct"], changed[0][1]["correct"]} == {"0", "1"}
    dropped = per_item({**SPEC, "drop": ["b,q3"], "repeat": ["a,q0"]}).splitlines()
    assert len(dropped) == 1 + 22 and not any(x.startswith("b,q3,") for x in dropped)
    assert dropped[1] == dropped[2] and dropped[1].startswith("a,q0,")


def test_text_passes_through_and_a_bad_spec_is_refused():
    assert content("model,correct\n") == "model,correct\n"
    with pytest.raises(ValueError, match="one 0/1 per unit"):
        per_item({**SPEC, "patterns": {"1": 3}})
    with pytest.raises(ValueError, match="unknown fixture key"):
        per_item({**SPEC, "rows": 3})
