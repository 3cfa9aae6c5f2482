"""Judgment and battle readers read each row's own fields, never the first row's for all.

Real rows: FastChat MT-bench pair judgments (tests/data/fastchat) and Arena-Hard battles
(tests/data/arena), rearranged; expected numbers recomputed from the rows."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs import load

DATA = Path(__file__).parents[1] / "data"
PAIR = DATA / "fastchat" / "gpt-4_pair.jsonl"
AH = DATA / "arena" / "arena_hard_battles_74e8b6f.jsonl"
TURN = {"model_1": "model_2", "model_2": "model_1", "tie": "tie", "error": "error"}


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _write(path: Path, recs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def _report(path: Path) -> dict:
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def test_mtbench_rows_naming_the_pair_the_other_way_round_count_for_one_pair(tmp_path):
    """The same judgments written with model_1 / model_2 reversed on every other row (game
    1 of the reversed row is the original game 2) give the same pair table."""
    recs = _records(PAIR)
    mixed = []
    for k, r in enumerate(recs):
        if k % 2:
            r = dict(r)
            r["model_1"], r["model_2"] = r["model_2"], r["model_1"]
            r["g1_winner"], r["g2_winner"] = TURN[r["g2_winner"]], TURN[r["g1_winner"]]
        mixed.append(r)
    (pair,) = _report(_write(tmp_path / "pair.jsonl", mixed))["results"]["judged_pairs"]
    used = [r for r in recs if "error" not in (r["g1_winner"], r["g2_winner"])]
    both = Counter((r["g1_winner"], r["g2_winner"]) for r in used)
    assert (pair["model_1"], pair["model_2"]) == (recs[0]["model_1"], recs[0]["model_2"])
    assert pair["pairs"] == len(used)
    assert pair["model_1_wins"] == both["model_1", "model_1"]
    assert pair["model_2_wins"] == both["model_2", "model_2"]
    assert pair["ties"] == both["tie", "tie"]


def test_mtbench_the_same_comparison_reversed_is_judged_twice(tmp_path):
    recs = _records(PAIR)
    again = dict(recs[0], model_1=recs[0]["model_2"], model_2=recs[0]["model_1"])
    result = CliRunner().invoke(main, ["check", str(_write(tmp_path / "p.jsonl", [*recs, again]))])
    assert result.exit_code == 2 and "judged twice" in result.stderr


def test_mtbench_several_judge_models_are_said(tmp_path):
    recs = _records(PAIR)
    for r in recs[::3]:
        r["judge"] = ["claude-3-opus", r["judge"][1]]
    p = _write(tmp_path / "pair.jsonl", recs)
    notes = load(p, str(p), Context(Config()))[0].notes
    assert any("2 judge models (claude-3-opus, gpt-4)" in n for n in notes)
    plain = load(PAIR, str(PAIR), Context(Config()))[0].notes
    assert not any("judge models" in n for n in plain)  # pair-v2 / multi-turn prompts: one model


def test_battles_question_column_first_seen_late_is_read_and_its_gaps_said(tmp_path):
    recs = _records(AH)
    for r in recs[:1200]:
        del r["question_id"]
    p = tmp_path / "battles.json"
    p.write_text(json.dumps(recs))
    src = load(p, str(p), Context(Config()))[0]
    assert src.kind == "battles" and src.data.question is None
    assert any(f"1200 of {len(recs)} battles have no question_id" in n for n in src.notes)
