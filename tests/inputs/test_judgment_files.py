"""Real judge output: FastChat MT-bench pair and single-answer judgments, AlpacaEval
annotations (see the PROVENANCE files beside them). Every number is recomputed here
from the raw records."""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from benchaudit.cli import main

DATA = Path(__file__).parents[1] / "data"
PAIR = DATA / "fastchat" / "gpt-4_pair.jsonl"
SINGLE = DATA / "fastchat" / "gpt-4_single.jsonl"
ANNOTATIONS = (
    DATA
    / "alpacaeval"
    / "results"
    / "NullModel"
    / "weighted_alpaca_eval_gpt4_turbo"
    / "annotations.json"
)


def _json(path: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_mtbench_pairs_are_judgments_never_per_item_scores():
    report = _json(PAIR)
    assert "models" not in report["results"]  # no "turn" / "tstamp" models
    recs = [r for r in _records(PAIR) if "error" not in (r["g1_winner"], r["g2_winner"])]
    both = Counter((r["g1_winner"], r["g2_winner"]) for r in recs)
    (pair,) = report["results"]["judged_pairs"]
    assert (pair["model_1"], pair["model_2"]) == ("phi-3", "phi-3-dpo")
    assert pair["pairs"] == len(recs) == 73
    assert pair["model_1_wins"] == both["model_1", "model_1"] == 18
    assert pair["model_2_wins"] == both["model_2", "model_2"] == 20
    assert pair["ties"] == both["tie", "tie"] == 8
    assert pair["inconsistent"] == 73 - 18 - 20 - 8
    # Game 1 shows model_1 first, game 2 model_2 first: the same slot twice is
    # model_1 then model_2 (first slot) or model_2 then model_1 (second slot).
    same = both["model_1", "model_2"] + both["model_2", "model_1"]
    (pb,) = report["results"]["position_bias"]
    assert pb["pairs"] == 73 and pb["same_slot_rate"] == pytest.approx(same / 73)
    assert pb["consistent_win_rate"] == pytest.approx(18 / 73)
    first = sum(r["g1_winner"] == "model_1" for r in recs)
    assert pb["first_order_win_rate"] == pytest.approx(first / 73)
    finding = next(f for f in report["findings"] if f["name"] == "judge-agreement")
    assert "position bias" in finding["message"] and "18 of 73" in finding["message"]


def test_mtbench_unparsed_verdicts_are_counted():
    result = CliRunner().invoke(main, ["check", str(PAIR)])
    assert "2 pair judgment(s) with an unparsed verdict" in result.stdout


def test_mtbench_single_ratings_turns_are_items_on_the_1_10_scale():
    report = _json(SINGLE)
    recs = _records(SINGLE)
    (row,) = report["results"]["scale_means"]
    assert row["model"] == "phi-3-dpo" and row["scale"] == "1-10"
    assert row["items"] == len({(r["question_id"], r["turn"]) for r in recs}) == 160
    assert row["mean"] == pytest.approx(round(np.mean([r["score"] for r in recs]), 4))
    assert not [f for f in report["findings"] if f["name"] == "row-count-mismatch"]
    assert "models" not in report["results"]  # never a percentage


def test_mtbench_single_minus_one_is_a_missing_rating(tmp_path):
    recs = _records(SINGLE)
    recs[3]["score"] = -1
    p = tmp_path / "gpt-4_single.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    (row,) = _json(p)["results"]["scale_means"]
    kept = [r["score"] for r in recs if r["score"] != -1]
    assert row["items"] == 159 and row["mean"] == pytest.approx(round(np.mean(kept), 4))


def test_alpacaeval_annotations_win_rate_with_interval(tmp_path):
    recs = json.loads(ANNOTATIONS.read_text())
    prefs = [float(r["preference"]) - 1 for r in recs]
    mean = sum(prefs) / len(prefs)
    se = math.sqrt(sum((x - mean) ** 2 for x in prefs) / (len(prefs) - 1) / len(prefs))
    report = _json(ANNOTATIONS)
    (row,) = report["results"]["preferences"]
    assert row["model"] == "NullModel" and row["baseline"] == "gpt4_1106_preview"
    assert row["items"] == 30 and row["win_rate"] == pytest.approx(round(mean, 6))
    assert row["se"] == pytest.approx(round(se, 6))
    assert row["low"] == pytest.approx(round(mean - 1.959964 * se, 6), abs=2e-6)
    text = CliRunner().invoke(main, ["check", str(ANNOTATIONS)]).stdout
    assert "not length-controlled" in text
    assert any(f["name"] == "null-model-win" for f in report["findings"])
    # Outside its results/<model>/<annotator>/ folder the model is generator_2.
    alone = tmp_path / "annotations.json"
    shutil.copy(ANNOTATIONS, alone)
    assert _json(alone)["results"]["preferences"][0]["model"] == "example"
