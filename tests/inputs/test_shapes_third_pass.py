"""Shapes from a third independent pass over issue #13: one table holding several tasks
(one analysis per task, on the numpy-free and the Arrow sizes), wide model columns that
share a ``_correct`` suffix, inspect logs whose scorers disagree. Expected numbers are
counted from the rows written here; McNemar p-values come from scipy's binomial test."""

from __future__ import annotations

import csv
import itertools
import json
import random
from pathlib import Path

import pytest
from scipy.stats import binomtest

from benchaudit.api import audit
from benchaudit.errors import InputError

MODELS = {"atlas-1b": 0.45, "borealis-3b": 0.62, "cygnus-8b": 0.7}


def _truth(n: int, seed: int) -> dict[str, list[int]]:
    rnd = random.Random(seed)
    return {m: [int(rnd.random() < p) for _ in range(n)] for m, p in MODELS.items()}


def _mcnemar(a: list[int], b: list[int]) -> float:
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    return float(binomtest(only_a, only_a + only_b, 0.5).pvalue) if only_a + only_b else 1.0


def _write(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def _check(models: list[dict], comparisons: list[dict], truth: dict[str, list[int]]) -> None:
    got = {r["model"]: r for r in models}
    assert set(got) == set(truth)
    for m, row in got.items():
        assert row["n_items"] == len(truth[m])
        assert row["score"] == pytest.approx(sum(truth[m]) / len(truth[m]), abs=1e-12)
    pairs = {(c["a"], c["b"]): c for c in comparisons}
    assert len(pairs) == 3
    for a, b in itertools.combinations(truth, 2):
        c = pairs.get((a, b)) or pairs[(b, a)]
        assert c["test"] == "mcnemar-exact"
        assert c["p_value"] == pytest.approx(_mcnemar(truth[a], truth[b]), rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("n", [40, 4000])  # numpy-free size and Arrow size
def test_a_task_column_gives_one_analysis_per_task(tmp_path, n):
    tasks = {"arith": _truth(n, 1), "logic": _truth(n, 2)}
    rows = [
        [m, task, i, truth[m][i]] for task, truth in tasks.items() for m in truth for i in range(n)
    ]
    path = _write(tmp_path / "r.csv", ["model", "task", "item", "correct"], rows)
    report = audit([str(path)], fail_on="never")
    res = report.results
    assert {m["task"] for m in res["models"]} == set(tasks)
    for task, truth in tasks.items():
        _check(
            [m for m in res["models"] if m["task"] == task],
            [c for c in res["comparisons"] if c["task"] == task],
            truth,
        )
    assert not any(f.code == "BA301" for f in report.findings)  # no "items twice"


def test_a_single_task_column_reads_as_before(tmp_path):
    truth = _truth(30, 3)
    rows = [[m, "arith", i, truth[m][i]] for m in truth for i in range(30)]
    path = _write(tmp_path / "r.csv", ["model", "benchmark", "item", "correct"], rows)
    res = audit([str(path)], fail_on="never").results
    _check(res["models"], res["comparisons"], truth)


@pytest.mark.parametrize("n", [60, 8000])
def test_wide_model_columns_lose_a_shared_correct_suffix(tmp_path, n):
    truth = _truth(n, 4)
    header = ["item", *(f"{m}_correct" for m in truth), *(f"{m}_latency_ms" for m in truth)]
    rows = [[i, *(truth[m][i] for m in truth), *(300 + i % 7 for _ in truth)] for i in range(n)]
    res = audit([str(_write(tmp_path / "w.csv", header, rows))], fail_on="never").results
    _check(res["models"], res["comparisons"], truth)


def _inspect_log(path: Path, model: str, verdicts: list[tuple[str, str]]) -> Path:
    log = {
        "version": 2,
        "status": "success",
        "eval": {"task": "digits", "task_id": "t", "run_id": model, "model": model},
        "plan": {},
        "samples": [
            {
                "id": f"n-{i:02d}",
                "epoch": 1,
                "scores": {"match": {"value": a}, "includes": {"value": b}},
            }
            for i, (a, b) in enumerate(verdicts)
        ],
    }
    path.write_text(json.dumps(log), encoding="utf-8")
    return path


def test_inspect_scorers_that_disagree_are_two_readings(tmp_path):
    rnd = random.Random(5)
    logs = []
    truth = {}
    for model in ("mock/orion", "mock/lynx"):
        v = [(rnd.choice("CI"), rnd.choice("CI")) for _ in range(30)]
        logs.append(_inspect_log(tmp_path / f"{model[5:]}.json", model, v))
        truth[model] = v
    with pytest.raises(InputError, match=r"--column score=match or --column score=includes"):
        audit([str(p) for p in logs])
    for k, scorer in enumerate(("match", "includes")):
        res = audit([str(p) for p in logs], fail_on="never", columns={"score": scorer}).results
        got = {m["model"]: m["score"] for m in res["models"]}
        for model, v in truth.items():
            assert got[model] == pytest.approx(sum(x[k] == "C" for x in v) / 30)
        a, b = (truth[m] for m in ("mock/orion", "mock/lynx"))
        p = _mcnemar([int(x[k] == "C") for x in a], [int(x[k] == "C") for x in b])
        assert res["comparisons"][0]["p_value"] == pytest.approx(p, abs=1e-12)


def test_inspect_scorers_that_agree_keep_the_first(tmp_path):
    v = [("C", "C"), ("I", "I"), ("C", "C")]
    res = audit([str(_inspect_log(tmp_path / "a.json", "mock/a", v))], fail_on="never").results
    assert res["models"][0]["score"] == pytest.approx(2 / 3)


def _evalplus(path: Path, base: list[int], plus: list[int], legacy: bool = False) -> Path:
    ev: dict[str, object] = {}
    for i, (b, p) in enumerate(zip(base, plus)):
        t = f"HumanEval/{i}"
        if legacy:  # evalplus < 0.2: statuses as [status, details] lists, "success" a pass
            ev[t] = {
                "nfiles": 1,
                "base": [["success" if b else "failure", []]],
                "plus": [["success" if p else "failure", []]],
            }
        else:
            ev[t] = [
                {
                    "task_id": t,
                    "solution": "",
                    "base_status": "pass" if b else "fail",
                    "plus_status": "pass" if p else "fail",
                    "base_fail_tests": [],
                    "plus_fail_tests": [],
                }
            ]
    path.write_text(json.dumps({"date": "2026-12-02 04:00", "hash": "0", "eval": ev}))
    return path


def test_evalplus_results_are_two_benchmarks_paired_across_runs(tmp_path):
    rnd = random.Random(8)
    runs = {}
    for name, pb in (("small", 0.5), ("large", 0.8)):
        base = [int(rnd.random() < pb) for _ in range(30)]
        plus = [int(b and rnd.random() < 0.8) for b in base]
        runs[name] = (base, plus)
    _evalplus(tmp_path / "small_eval_results.json", *runs["small"])
    _evalplus(tmp_path / "large.eval_results.json", *runs["large"], legacy=True)
    res = audit([str(tmp_path)], fail_on="never").results
    got = {(m["task"], m["model"]): m["score"] for m in res["models"]}
    for k, task in enumerate(("HumanEval", "HumanEval+")):
        for name, v in runs.items():
            assert got[(task, name)] == pytest.approx(sum(v[k]) / 30)
        (c,) = [c for c in res["comparisons"] if c["task"] == task]
        p = _mcnemar(runs[c["a"]][k], runs[c["b"]][k])
        assert c["test"] == "mcnemar-exact" and c["p_value"] == pytest.approx(p, abs=1e-12)


def test_one_evalplus_file_names_both_benchmarks(tmp_path):
    path = _evalplus(tmp_path / "eval_results.json", [1, 1, 0, 1], [1, 0, 0, 1])
    res = audit([str(path)], fail_on="never").results
    assert {(m["task"], m["score"]) for m in res["models"]} == {
        ("HumanEval", 0.75),
        ("HumanEval+", 0.5),
    }


def _long_rows(truth: dict[str, list[int]], cell=lambda v: v) -> list[list[object]]:
    return [[m, f"it{i:04d}", cell(v)] for m, vs in truth.items() for i, v in enumerate(vs)]


@pytest.mark.parametrize("n", [40, 7000])
@pytest.mark.parametrize(
    ("header", "cell"),
    [
        (["llm_name", "question", "outcome"], lambda v: "correct" if v else "wrong"),
        (["model_name", "sample", "is_correct"], lambda v: str(v)),  # sample: the only id
    ],
)
def test_more_spellings_read_exactly(tmp_path, n, header, cell):
    truth = _truth(n, 6)
    path = _write(tmp_path / "r.csv", header, _long_rows(truth, cell))
    res = audit([str(path)], fail_on="never").results
    _check(res["models"], res["comparisons"], truth)


@pytest.mark.parametrize("n", [40, 7000])
def test_a_prompt_id_beside_question_text_is_the_item(tmp_path, n):
    truth = _truth(n, 7)
    rows = [
        [m, f"p{i}", f'Line {k}\r\nsecond, "quoted"', "TRUE" if v else "FALSE"]
        for k, (m, i, v) in enumerate(
            (m, i, v) for m, vs in truth.items() for i, v in enumerate(vs)
        )
    ]
    path = tmp_path / "r.csv"
    with open(path, "w", newline="", encoding="utf-8-sig") as fh:
        w = csv.writer(fh, lineterminator="\r\n")
        w.writerow(["Model", "Prompt ID", "Question", "Is Correct"])
        w.writerows(rows)
    res = audit([str(path)], fail_on="never").results
    _check(res["models"], res["comparisons"], truth)


@pytest.mark.parametrize("index", ["", "Unnamed: 0"])
def test_a_written_index_is_the_item_of_a_wide_file(tmp_path, index):
    truth = _truth(50, 9)
    rows = [[f"q{i}", *(truth[m][i] for m in truth)] for i in range(50)]
    res = audit([str(_write(tmp_path / "w.csv", [index, *truth], rows))], fail_on="never").results
    _check(res["models"], res["comparisons"], truth)


def test_wide_settings_and_partitions_are_no_models(tmp_path):
    truth = _truth(50, 10)
    header = ["row", "example", "tokens_in", "price", "duration_ms", "temperature", "shard", *truth]
    rows = [
        [i, f"e{i}", 100 + i, 0.001, 250, 0.0, i % 2, *(truth[m][i] for m in truth)]
        for i in range(50)
    ]
    res = audit([str(_write(tmp_path / "w.csv", header, rows))], fail_on="never").results
    _check(res["models"], res["comparisons"], truth)
    left = res["sources"][0].detection.left_out
    assert left["temperature"] == left["shard"] == "a setting or partition"


def test_judge_rating_is_a_1_to_7_scale(tmp_path):
    rnd = random.Random(11)
    ratings = {m: [rnd.randint(1, 7) for _ in range(30)] for m in MODELS}
    rows = [[m, i, r] for m, rs in ratings.items() for i, r in enumerate(rs)]
    report = audit(
        [str(_write(tmp_path / "r.csv", ["model", "item", "judge_rating"], rows))], fail_on="never"
    )
    means = {r["model"]: r["mean"] for r in report.results["scale_means"]}
    assert means == pytest.approx({m: sum(v) / 30 for m, v in ratings.items()}, abs=1e-4)


PUBLIC = Path(__file__).parents[1] / "data" / "harness" / "public"


def test_alpacaeval_zero_preference_is_a_draw():
    """Real file: AlpacaEval reads a preference of 0 as a draw (1.5) and drops nulls."""
    path = PUBLIC / "alpaca-lmcocktail" / "annotations.json"
    prefs = [r["preference"] for r in json.loads(path.read_text(encoding="utf-8"))]
    kept = [1.5 if p == 0 else p for p in prefs if p is not None]
    report = audit([str(path)], fail_on="never")
    (row,) = report.results["preferences"]
    assert row["items"] == len(kept) == 31
    assert row["win_rate"] == pytest.approx(sum(p - 1 for p in kept) / len(kept), abs=1e-6)


def test_human_eval_samples_beside_their_results_are_left_out(tmp_path):
    truth = _truth(12, 12)
    for m, vs in truth.items():
        rows = [{"task_id": f"HumanEval/{i}", "completion": "pass"} for i in range(12)]
        (tmp_path / f"{m}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        res = [
            dict(r, result="passed" if v else "failed", passed=bool(v)) for r, v in zip(rows, vs)
        ]
        (tmp_path / f"{m}.jsonl_results.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in res)
        )
    report = audit([str(tmp_path)], fail_on="never")
    _check(report.results["models"], report.results["comparisons"], truth)


def test_naming_only_the_score_leaves_the_model_question_open(tmp_path):
    truth = _truth(20, 13)
    path = _write(tmp_path / "r.csv", ["run_name", "item_id", "exact_match"], _long_rows(truth))
    with pytest.raises(InputError, match=r"--column model=run_name or --column sample=run_name"):
        audit([str(path)], columns={"score": "exact_match"})
    cols = {"score": "exact_match", "model": "run_name"}
    res = audit([str(path)], fail_on="never", columns=cols).results
    _check(res["models"], res["comparisons"], truth)


def test_an_empty_wide_column_is_said(tmp_path):
    truth = _truth(30, 14)
    rows = [[i, *(truth[m][i] for m in truth), ""] for i in range(30)]
    report = audit(
        [str(_write(tmp_path / "w.csv", ["id", *truth, "delta-2b"], rows))], fail_on="never"
    )
    _check(report.results["models"], report.results["comparisons"], truth)
    assert report.results["sources"][0].detection.left_out["delta-2b"] == "no values"
