"""A small 0/1 file analysed without numpy reports exactly what the numpy analysis reports.

Each file is checked twice, once held in Python lists (``SmallResults``, the
default for small 0/1 files) and once with that path switched off; the JSON and the
text reports must be the same text. Files the Python path does not take (graded
scores, ratings, repeats, clusters) are in the set too, to show they are still read.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.inputs import _tabular_small
from benchaudit.render import json as json_writer
from benchaudit.render import text as text_writer

DATA = Path(__file__).parents[1] / "data" / "results"


def _long(path: Path, table: dict[str, str], header: str = "model,item,correct") -> Path:
    """A long file from {model: "1101x0"} strings ("x": no row for that item)."""
    rows = [header]
    for model, pattern in table.items():
        rows.extend(f"{model},q{i},{c}" for i, c in enumerate(pattern) if c != "x")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _edit(path: Path, old: str, new: str, more: str = "") -> Path:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new) + more, encoding="utf-8")
    return path


def _random(path: Path, models: int, items: int, seed: int, missing: float = 0.0) -> Path:
    rng = random.Random(seed)
    table = {}
    for m in range(models):
        p = rng.random()
        table[f"m{m}"] = "".join(
            "x" if rng.random() < missing else str(int(rng.random() < p)) for _ in range(items)
        )
    return _long(path, table)


def _gsm8k(path: Path, per_model: int) -> Path:
    """The real GSM8K file cut to its first ``per_model`` items of each system."""
    lines = (DATA / "gsm8k_4systems.csv").read_text(encoding="utf-8").splitlines()
    seen: dict[str, int] = {}
    keep = [lines[0]]
    for line in lines[1:]:
        model = line.split(",", 1)[0]
        seen[model] = seen.get(model, 0) + 1
        if seen[model] <= per_model:
            keep.append(line)
    path.write_text("\n".join(keep) + "\n", encoding="utf-8")
    return path


TWO = {"a": "1101101011", "b": "1001100010"}

CASES = {
    "two models": lambda p: _long(p, TWO),
    "tied scores": lambda p: _long(p, {"a": "1100110011", "b": "0011001111", "c": "1111000011"}),
    "all correct and all wrong": lambda p: _long(p, {"a": "1111111111", "b": "0000000000"}),
    "identical models": lambda p: _long(p, {"a": "1010101010", "b": "1010101010"}),
    "missing cells": lambda p: _long(p, {"a": "11x1101011", "b": "x00110001x", "c": "1111x11111"}),
    "no shared item": lambda p: _long(p, {"a": "11111xxxxx", "b": "xxxxx00100"}),
    "one model": lambda p: _long(p, {"a": "1101101011"}),
    "four models": lambda p: _random(p, 4, 60, seed=1),
    "significant pairs": lambda p: _long(
        p, {"a": "1" * 90 + "0" * 10, "b": "1" * 60 + "0" * 40, "c": "1" * 58 + "0" * 42}
    ),
    "three models, 300 items, gaps": lambda p: _random(p, 3, 300, seed=2, missing=0.1),
    "true / false": lambda p: _edit(_edit(_long(p, TWO), ",1\n", ",true\n"), ",0\n", ",false\n"),
    "0.0 / 1.0": lambda p: _edit(_edit(_long(p, TWO), ",1\n", ",1.0\n"), ",0\n", ",0.0\n"),
    "gsm8k, 12 items": lambda p: _gsm8k(p, 12),
    "gsm8k, 200 items": lambda p: _gsm8k(p, 200),
    "gsm8k, all 1,319 items": lambda p: _gsm8k(p, 10_000),
    # Not held without numpy: graded, ratings, repeats, clusters.
    "graded 0-1": lambda p: _edit(_long(p, TWO), "b,q3,1", "b,q3,0.5"),
    "1-10 ratings": lambda p: _long(
        p, {"a": "9876543219", "b": "1234567891"}, header="model,item,rating"
    ),
    "a repeated row": lambda p: _edit(_long(p, TWO), "", "", more="b,q3,1\n"),
}

NUMPY_ONLY = {"graded 0-1", "1-10 ratings", "a repeated row"}


def _reports(
    path: Path, monkeypatch: pytest.MonkeyPatch, numpy_free: bool, **settings: object
) -> tuple[str, str, str]:
    monkeypatch.setattr(_tabular_small, "NUMPY_FREE", numpy_free)
    report = audit([str(path)], Config(**settings), on_error="report")
    kinds = ",".join(type(s).__name__ for s in _read_types(path))
    return json_writer.render(report), text_writer.render(report, color=False), kinds


def _read_types(path: Path) -> list[object]:
    from benchaudit.context import RunContext
    from benchaudit.inputs.tabular import read

    return [read(path, str(path), RunContext()).data]


@pytest.mark.parametrize("case", list(CASES))
def test_the_numpy_free_analysis_reports_what_the_numpy_one_does(tmp_path, monkeypatch, case):
    path = CASES[case](tmp_path / "results.csv")
    small_json, small_text, small_kind = _reports(path, monkeypatch, True)
    numpy_json, numpy_text, numpy_kind = _reports(path, monkeypatch, False)
    assert ("SmallResults" in small_kind) is (case not in NUMPY_ONLY)
    assert "SmallResults" not in numpy_kind
    assert small_json == numpy_json
    assert small_text == numpy_text


@pytest.mark.parametrize("seed", range(6))
def test_random_files_with_gaps_report_alike(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    path = _random(tmp_path / "r.csv", rng.randint(2, 6), rng.randint(3, 400), seed, missing=0.05)
    assert _reports(path, monkeypatch, True)[:2] == _reports(path, monkeypatch, False)[:2]


@pytest.mark.parametrize("settings", [{"alpha": 0.1}, {"alpha": 0.01, "baseline_model": "m2"}])
def test_other_levels_and_baselines_report_alike(tmp_path, monkeypatch, settings):
    path = _random(tmp_path / "r.csv", 4, 80, seed=9, missing=0.05)
    small = _reports(path, monkeypatch, True, **settings)
    assert small[:2] == _reports(path, monkeypatch, False, **settings)[:2]
    assert "SmallResults" in small[2]


def test_pairwise_sum_is_numpys_sum():
    import numpy as np

    from benchaudit.analysis.small import pairwise_sum, std1

    rng = random.Random(0)
    for n in [*range(1, 40), 127, 128, 129, 255, 256, 1000, 1319, 4099]:
        x = [rng.random() for _ in range(n)]
        assert pairwise_sum(x) == float(np.sum(np.asarray(x))), n
        b = [float(rng.random() < 0.3) for _ in range(n)]
        if n > 1 and 0 < sum(b) < n:
            assert std1(b) == float(np.asarray(b).std(ddof=1)), n


def test_files_above_the_cell_limit_are_read_with_numpy(tmp_path, monkeypatch):
    path = _random(tmp_path / "r.csv", 2, 50, seed=3)
    assert [type(d).__name__ for d in _read_types(path)] == ["SmallResults"]
    monkeypatch.setattr(_tabular_small, "NUMPY_FREE_CELLS", 99)
    assert [type(d).__name__ for d in _read_types(path)] == ["ResultSet"]


def test_two_small_files_are_joined_as_result_sets(tmp_path, monkeypatch):
    a = _long(tmp_path / "a.csv", {"a": "1101101011"})
    b = _long(tmp_path / "b.csv", {"b": "1001100010"})
    got = []
    for numpy_free in (True, False):
        monkeypatch.setattr(_tabular_small, "NUMPY_FREE", numpy_free)
        got.append(json_writer.render(audit([str(a), str(b)], Config(), on_error="report")))
    assert got[0] == got[1]
    assert '"model": "b"' in got[0]


def test_a_rule_pack_reading_results_gets_a_numpy_result_set(tmp_path, monkeypatch):
    from benchaudit import engine
    from benchaudit.finding import Severity
    from benchaudit.inputs.resultset import ResultSet
    from benchaudit.registry import Rule

    seen = []

    class PackRule(Rule):
        code = "XP001"
        name = "pack-rule"
        severity = Severity.INFO
        reads = ("results",)

        def on_results(self, source, ctx):
            seen.append(type(source.data))
            return []

    monkeypatch.setattr(engine, "select", lambda *a, **k: [PackRule])
    audit([str(_long(tmp_path / "r.csv", TWO))], Config())
    assert seen == [ResultSet]


def test_contamination_scores_read_a_small_file(tmp_path):
    from benchaudit.contamination.scores import read_scores

    scores = read_scores(str(_long(tmp_path / "r.csv", TWO)))
    assert scores["a"]["q0"] == 1.0 and scores["b"]["q1"] == 0.0 and len(scores["b"]) == 10
