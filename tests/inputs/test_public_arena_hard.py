"""Arena-Hard-Auto judgment files committed in public repositories (tests/data/harness/public):
per-question verdicts of two games against a baseline. Expected values are counted straight
from the files here, and Arena-Hard's own score is the one its leaderboard CSV published for
the same judgments (see PROVENANCE.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchaudit.api import audit

PUBLIC = Path(__file__).parents[1] / "data" / "harness" / "public"
ENSEMBLE = PUBLIC / "arena-hard-ko-ensemble"

#: The slot each verdict prefers and whether it is strong, written out independently.
SLOT = {"A>>B": "A", "A>B": "A", "A=B": "tie", "B>A": "B", "B>>A": "B"}


def _truth(path: Path) -> dict[str, float]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    per_q, weighted, same_slot, first, kept = [], [], 0, 0, 0
    for r in rows:
        g1, g2 = (g["score"] for g in r["games"])
        s1 = {"B": 1.0, "tie": 0.5, "A": 0.0}[SLOT[g1]]  # game 1: the model is B
        s2 = {"A": 1.0, "tie": 0.5, "B": 0.0}[SLOT[g2]]  # game 2: the model is A
        per_q.append((s1 + s2) / 2)
        for g, s in ((g1, s1), (g2, s2)):
            weighted.extend([s] * (3 if ">>" in g else 1))
        same_slot += SLOT[g1] == SLOT[g2] != "tie"
        first += SLOT[g2] == "A"  # the model shown first (game 2) wins
        kept += SLOT[g2] == "A" and SLOT[g1] == "B"  # ... and still wins when swapped
    return {
        "n": len(rows),
        "win_rate": sum(per_q) / len(per_q),
        "weighted": sum(weighted) / len(weighted),
        "same_slot": same_slot,
        "first": first / len(rows),
        "kept": kept / len(rows),
    }


def test_arena_hard_judgments_give_the_win_rate_and_the_leaderboard_score():
    for name, leaderboard in (("gpt-4o-mini", 10.45), ("qwen-2.5-7b-instruct", 2.42)):
        path = ENSEMBLE / f"{name}.jsonl"
        truth = _truth(path)
        report = audit([str(path)], fail_on="never")
        (row,) = report.results["preferences"]
        assert row["model"] == name and row["items"] == truth["n"] == 500
        assert row["win_rate"] == pytest.approx(truth["win_rate"], abs=1e-6)
        # Arena-Hard counts a strong verdict three times: its leaderboard's figure.
        assert round(100 * truth["weighted"], 2) == leaderboard
        assert f"{name} {leaderboard:.2f}%" in " ".join(report.notes)
        (bias,) = report.results["position_bias"]
        assert bias["pairs"] == 500
        assert bias["same_slot_rate"] == pytest.approx(truth["same_slot"] / 500, abs=1e-4)
        assert bias["first_order_win_rate"] == pytest.approx(truth["first"], abs=1e-4)
        assert bias["consistent_win_rate"] == pytest.approx(truth["kept"], abs=1e-4)
        assert "models" not in report.results  # never read as per-item scores


def test_the_judgments_never_become_per_item_scores_or_models():
    report = audit([str(ENSEMBLE)], fail_on="never")
    models = {r["model"] for r in report.results["preferences"]}
    assert models == {"gpt-4o-mini", "qwen-2.5-7b-instruct"}
    base = "the baseline of arena-hard-ko-ensemble/"
    pairs = {(r["model_1"], r["model_2"]) for r in report.results["judged_pairs"]}
    assert pairs == {("gpt-4o-mini", base), ("qwen-2.5-7b-instruct", base)}
    assert any("does not name the baseline" in n for n in report.notes)


def _per_question(path: Path) -> dict[str, float]:
    out = {}
    for line in path.read_text().splitlines():
        r = json.loads(line)
        g1, g2 = (g["score"] for g in r["games"])
        s1 = {"B": 1.0, "tie": 0.5, "A": 0.0}[SLOT[g1]]
        s2 = {"A": 1.0, "tie": 0.5, "B": 0.0}[SLOT[g2]]
        out[r["question_id"]] = (s1 + s2) / 2
    return out


def test_two_models_of_one_judge_folder_are_paired_by_question():
    import math

    from scipy.stats import binomtest

    a = _per_question(ENSEMBLE / "gpt-4o-mini.jsonl")
    b = _per_question(ENSEMBLE / "qwen-2.5-7b-instruct.jsonl")
    shared = sorted(set(a) & set(b))
    d = [a[k] - b[k] for k in shared]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    report = audit([str(ENSEMBLE)], fail_on="never")
    (row,) = report.results["preference_comparisons"]
    assert (row["a"], row["b"], row["items"]) == ("gpt-4o-mini", "qwen-2.5-7b-instruct", n)
    assert row["diff"] == pytest.approx(mean, abs=1e-6)
    assert row["ci_low"] == pytest.approx(mean - 1.959964 * sd / math.sqrt(n), abs=1e-5)
    assert row["ci_high"] == pytest.approx(mean + 1.959964 * sd / math.sqrt(n), abs=1e-5)
    ahead_a, ahead_b = sum(x > 0 for x in d), sum(x < 0 for x in d)
    assert (row["a_better"], row["b_better"]) == (ahead_a, ahead_b)
    # Graded preferences: a sign-flip test; the exact sign test agrees it is far below 0.05.
    assert binomtest(ahead_b, ahead_a + ahead_b, 0.5).pvalue < 1e-15
    assert row["p_value"] < 0.001


def test_the_original_layout_names_its_baseline():
    path = PUBLIC / "arena-hard-v0.1-judgment" / "gpt-3.5-turbo-0125.jsonl"
    report = audit([str(path)], fail_on="never")
    (row,) = report.results["preferences"]
    # uid 08d2...: A=B then A>B (the model, shown as A, won): 0.75; uid 96d2...: the
    # baseline won both games: 0.
    assert (row["model"], row["baseline"], row["items"]) == ("gpt-3.5-turbo-0125", "gpt-4-0314", 2)
    assert row["win_rate"] == pytest.approx(0.375)
    (pair,) = report.results["judged_pairs"]
    assert (pair["model_1"], pair["model_2"]) == ("gpt-3.5-turbo-0125", "gpt-4-0314")


@pytest.mark.parametrize(
    "line, message",
    [
        (
            '{"uid": "q1", "model": "m", "games": [{"score": "A>>>B"}, {"score": "A>B"}]}',
            "not an Arena-Hard verdict",
        ),
        (
            '{"uid": "q1", "model": "m", "games": [{"score": null}, {"score": null}]}',
            "no usable judgments",
        ),
        (
            '{"uid": "q1", "model": "m", "games": [{"score": "A>B"}, {"score": "A>B"}, {"score": "A>B"}]}',
            "3 games",
        ),
    ],
)
def test_bad_arena_hard_files_are_one_line_errors(tmp_path: Path, line: str, message: str):
    bad = tmp_path / "judgment.jsonl"
    bad.write_text(line + "\n")
    got = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(bad)], capture_output=True, text=True
    )
    assert got.returncode == 2
    assert message in got.stderr and str(bad) in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1


def test_a_repeated_question_is_an_error(tmp_path: Path):
    bad = tmp_path / "judgment.jsonl"
    row = '{"uid": "q1", "model": "m", "games": [{"score": "A>B"}, {"score": "B>A"}]}\n'
    bad.write_text(row * 2)
    got = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(bad)], capture_output=True, text=True
    )
    assert got.returncode == 2 and "judged twice" in got.stderr


def test_mtbench_turns_are_items_and_the_interval_resamples_questions():
    """MT-bench scores a model by the mean over both turns of its 80 questions (160 ratings);
    a question's two turns are not independent, so the interval resamples questions. Its
    width is checked against statsmodels' cluster-robust standard error of the mean."""
    import numpy as np
    import statsmodels.api as sm

    path = PUBLIC / "mtbench-single" / "gpt-4_single.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    y = np.array([r["score"] for r in rows], dtype=float)
    groups = np.array([r["question_id"] for r in rows])
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    naive = sm.OLS(y, np.ones_like(y)).fit().bse[0]
    report = audit([str(path)], fail_on="never")
    (row,) = report.results["scale_means"]
    assert (row["items"], row["questions"]) == (160, 80)
    assert row["mean"] == pytest.approx(float(y.mean()), abs=1e-4)
    half = (row["high"] - row["low"]) / 2
    assert half == pytest.approx(1.96 * fit.bse[0], rel=0.1)
    assert half > 1.1 * 1.96 * naive  # wider than resampling the 160 turns one by one
    assert row["interval"].endswith("over questions")
    assert any("turns of one question are not independent" in n for n in report.notes)


def test_ratings_of_several_tasks_with_overlapping_ids_are_a_one_line_error(tmp_path: Path):
    rows = ["model,task,question_id,turn,score"]
    rows += [
        f"m1,{t},{q},{u},{(q + u) % 9 + 1}" for t in ("a", "b") for q in (1, 2) for u in (1, 2)
    ]
    path = tmp_path / "ratings.csv"
    path.write_text("\n".join(rows) + "\n")
    got = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(path)], capture_output=True, text=True
    )
    assert got.returncode == 2 and "names tasks" in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1


def test_arena_hard_v2_rows_against_two_baselines_are_two_win_rates(tmp_path: Path):
    """Arena-Hard v2.0 judges hard prompts against one baseline and creative writing against
    another, naming it on each row; a null game leaves its question out."""
    rows = [
        {
            "uid": "h1",
            "category": "hard_prompt",
            "judge": "gpt-4.1",
            "model": "m",
            "baseline": "o3-mini-2025-01-31",
            "games": [{"score": "B>A"}, {"score": "A>B"}],
        },
        {
            "uid": "h2",
            "category": "hard_prompt",
            "judge": "gpt-4.1",
            "model": "m",
            "baseline": "o3-mini-2025-01-31",
            "games": [{"score": "A>>B"}, {"score": "B>>A"}],
        },
        {
            "uid": "c1",
            "category": "creative_writing",
            "judge": "gpt-4.1",
            "model": "m",
            "baseline": "gemini-2.0-flash-001",
            "games": [{"score": "A=B"}, {"score": "A>B"}],
        },
        {
            "uid": "c2",
            "category": "creative_writing",
            "judge": "gpt-4.1",
            "model": "m",
            "baseline": "gemini-2.0-flash-001",
            "games": [{"score": None}, {"score": "A>B"}],
        },
    ]
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    report = audit([str(path)], fail_on="never")
    got = {r["baseline"]: (r["items"], r["win_rate"]) for r in report.results["preferences"]}
    assert got == {
        "o3-mini-2025-01-31": (2, pytest.approx(0.5)),  # 1 and 0
        "gemini-2.0-flash-001": (1, pytest.approx(0.75)),  # tie then a win; c2 left out
    }
    assert any("1 question(s) with a null game score" in n for n in report.notes)
    assert any("2 different baselines" in n for n in report.notes)
