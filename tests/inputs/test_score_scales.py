"""Score scales of per-item files: 0/1, 0-1 graded, 0-100, 1-10 and other ratings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs import load
from benchaudit.inputs._scaled import ScaledResults, scale_name

RATINGS = {"a": [7, 8, 9, 6, 8, 10, 7, 9, 8, 6], "b": [5, 6, 7, 4, 6, 8, 5, 7, 6, 5]}


def _write(path: Path, header: str, by_model: dict[str, list]) -> Path:
    rows = [header] + [f"{m},q{i},{v}" for m, vals in by_model.items() for i, v in enumerate(vals)]
    path.write_text("\n".join(rows) + "\n")
    return path


def _cli_json(path: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "values, column, want",
    [
        ([0, 1, 1], "score", "0/1"),
        ([0.25, 1, 0.5], "score", "0-1 graded"),
        ([12, 55, 100], "score", "0-100"),
        ([3, 7, 10], "score", "1-10"),
        ([0, 7, 10], "score", "0-10"),
        ([1, 2, 5], "score", "1-5"),
        ([1, 0, 1], "rating", "0-5"),  # a rating column never reads as a verdict
        ([4.5, 7.25], "pct", "0-100"),
        ([7.5, 8.5, 3], "score", "1-10"),  # a judge's half points are still a rating
        ([2.5, 4.5, 1], "score", "1-5"),
        ([2.25, 9.75], "score", "0-100"),
        ([-3, 250], "score", "unbounded"),
    ],
)
def test_scale_from_values_and_column_name(values, column, want):
    assert scale_name(np.asarray(values, dtype=float), column) == want


def test_ratings_are_means_on_their_own_scale_never_percentages(tmp_path):
    p = _write(tmp_path / "ratings.csv", "model,item,score", RATINGS)
    src = load(p, p.name, Context(config=Config()))[0]
    assert src.kind == "scaled-results" and isinstance(src.data, ScaledResults)
    report = _cli_json(p)
    rows = {r["model"]: r for r in report["results"]["scale_means"]}
    assert rows["a"]["mean"] == pytest.approx(np.mean(RATINGS["a"]))
    assert rows["b"]["mean"] == pytest.approx(np.mean(RATINGS["b"]))
    assert rows["a"]["scale"] == "1-10"
    assert rows["a"]["low"] < rows["a"]["mean"] < rows["a"]["high"] <= 10
    assert "models" not in report["results"]  # no percentage table for ratings
    diff = report["results"]["scale_comparisons"][0]
    assert diff["model"] == "b" and diff["difference"] == pytest.approx(
        np.mean(RATINGS["b"]) - np.mean(RATINGS["a"])
    )
    text = CliRunner().invoke(main, ["check", str(p)]).stdout
    table = text.split("Scale means", 1)[1].split("grade", 1)[0].replace("bootstrap 95%", "")
    assert "%" not in table and "7.8" in table
    assert "780" not in text


@pytest.mark.parametrize("column", ["score", "rating", "judge_score"])
def test_half_point_ratings_in_a_score_or_rating_column_keep_their_scale(tmp_path, column):
    halves = {
        m: [v + 0.5 if i == 3 else v for i, v in enumerate(vals)] for m, vals in RATINGS.items()
    }
    p = _write(tmp_path / "halves.csv", f"model,item,{column}", halves)
    report = _cli_json(p)
    rows = {r["model"]: r for r in report["results"]["scale_means"]}
    assert rows["a"]["mean"] == pytest.approx(np.mean(halves["a"])) and rows["a"]["scale"] == "1-10"
    assert "models" not in report["results"]


def test_a_score_pct_column_is_points_out_of_100(tmp_path):
    p = _write(tmp_path / "pct.csv", "model,item,score_pct", {"a": [100, 0, 50], "b": [0, 0, 100]})
    rows = {r["model"]: r for r in _cli_json(p)["results"]["models"]}
    assert rows["a"]["score"] == pytest.approx(0.5) and rows["b"]["score"] == pytest.approx(1 / 3)


def test_the_bootstrap_interval_matches_an_independent_percentile_bootstrap(tmp_path):
    p = _write(tmp_path / "ratings.csv", "model,item,score", {"a": RATINGS["a"]})
    row = _cli_json(p, "--seed", "3", "--resamples", "4000")["results"]["scale_means"][0]
    rng = np.random.default_rng(3)
    x = np.asarray(RATINGS["a"], dtype=float)
    means = x[rng.integers(0, x.size, size=(4000, x.size))].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    assert (row["low"], row["high"]) == (round(lo, 4), round(hi, 4))


def test_points_out_of_100_are_proportions(tmp_path):
    p = _write(
        tmp_path / "s.csv", "model,item,score", {"a": [50, 75, 100, 25], "b": [0, 40, 60, 20]}
    )
    models = {r["model"]: r["score"] for r in _cli_json(p)["results"]["models"]}
    assert models == pytest.approx({"a": 0.625, "b": 0.30})


@pytest.mark.parametrize("bad, line", [(-1, 9), (11, 9)])
def test_a_verdict_outside_0_1_is_an_error_naming_the_row(tmp_path, bad, line):
    vals = {"a": [1, 0, 1, 1], "b": [0, 1, 1, 0]}
    vals["b"][3] = bad
    p = _write(tmp_path / "s.csv", "model,item,correct", vals)
    result = CliRunner().invoke(main, ["check", str(p)])
    assert result.exit_code == 2
    assert f"s.csv:{line}:" in result.stderr and f"correct is {bad}" in result.stderr


def test_scores_on_no_bounded_scale_are_refused(tmp_path):
    p = _write(tmp_path / "s.csv", "model,item,score", {"a": [-3, 250, 7], "b": [1, 2, 3]})
    result = CliRunner().invoke(main, ["check", str(p)])
    assert result.exit_code == 2 and "no bounded scale" in result.stderr
