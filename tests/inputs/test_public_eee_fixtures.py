"""Harness output that the Every Eval Ever project committed as test data of its converters
(tests/data/harness/public/eee, see PROVENANCE.md): recent HELM runs, inspect_ai JSON logs
of two models on one task, an inspect log cut down below its header's count, and an
lm-evaluation-harness 0.4.9 output. Expected values are counted from the files here, or are
the harness's own aggregates (HELM's stats.json, inspect's header); McNemar p-values come
from scipy's exact binomial test on the discordant items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import binomtest

from benchaudit.api import audit

EEE = Path(__file__).parents[1] / "data" / "harness" / "public" / "eee"


def _helm_test_mean(run: Path) -> tuple[int, float]:
    """HELM's own aggregate of exact_match on the test split, from its stats.json."""
    for s in json.loads((run / "stats.json").read_text()):
        n = s["name"]
        if n["name"] == "exact_match" and n.get("split") == "test" and not n.get("perturbation"):
            return s["count"], s["mean"]
    raise AssertionError("no test exact_match")


@pytest.mark.parametrize(
    "run, n_test, cap",
    [
        ("mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2", 9, 10),
        ("narrative_qa-model=openai_gpt2", 4, 5),
    ],
)
def test_helm_runs_capped_across_splits_are_flagged(run: str, n_test: int, cap: int):
    folder = EEE / "helm" / run
    pis = json.loads((folder / "per_instance_stats.json").read_text())
    assert len({e["instance_id"] for e in pis}) == cap  # valid + test instances drawn
    report = audit([str(folder)], fail_on="never")
    (row,) = report.results["models"]
    assert row["model"] == "openai/gpt2" and row["n_items"] == n_test
    _, mean = _helm_test_mean(folder)
    assert row["score"] == pytest.approx(mean)
    (limit,) = [f for f in report.findings if f.name == "harness-limit"]
    assert f"max_eval_instances = {cap}" in limit.message
    assert any("split 'test' read" in n for n in report.notes)


def _inspect_truth(path: Path) -> dict[str, bool]:
    log = json.loads(path.read_text())
    return {str(s["id"]): s["scores"]["choice"]["value"] == "C" for s in log["samples"]}


def test_two_inspect_logs_of_one_task_pair_on_their_shared_samples():
    qwen = _inspect_truth(EEE / "inspect" / "data_arc_qwen.json")
    sonnet = _inspect_truth(EEE / "inspect" / "data_arc_sonnet.json")
    report = audit([str(EEE / "inspect")], fail_on="never")
    got = {r["model"]: (r["n_items"], r["score"]) for r in report.results["models"]}
    assert got == {
        "ollama/qwen2.5:0.5b": (3, pytest.approx(sum(qwen.values()) / 3)),
        "anthropic/claude-sonnet-4-0": (5, pytest.approx(sum(sonnet.values()) / 5)),
    }
    for name, path in (("ollama/qwen2.5:0.5b", "qwen"), ("anthropic/claude-sonnet-4-0", "sonnet")):
        header = json.loads((EEE / "inspect" / f"data_arc_{path}.json").read_text())["results"]
        assert got[name][1] == header["scores"][0]["metrics"]["accuracy"]["value"]
    (c,) = report.results["comparisons"]
    shared = set(qwen) & set(sonnet)
    assert c["n_items"] == len(shared) == 3
    a, b = (qwen, sonnet) if c["a"] == "ollama/qwen2.5:0.5b" else (sonnet, qwen)
    only_a = sum(a[k] and not b[k] for k in shared)
    only_b = sum(b[k] and not a[k] for k in shared)
    assert c["test"] == "mcnemar-exact"
    assert c["p_value"] == pytest.approx(binomtest(only_a, only_a + only_b, 0.5).pvalue)
    assert -1.0 <= c["ci_low"] <= c["diff"] <= c["ci_high"] <= 1.0  # never past +-100 points
    (run,) = report.results["runs"]
    assert run["items_in_every_run"] == 3


def test_an_inspect_log_holding_fewer_samples_than_its_header_says_so():
    path = EEE / "inspect-cut" / "data_cyse2_vuln_exploit_challenges.json"
    log = json.loads(path.read_text())
    assert log["results"]["total_samples"] == 2340 and len(log["samples"]) == 1
    report = audit([str(path)], fail_on="never")
    (row,) = report.results["models"]
    assert row["n_items"] == 1
    assert row["score"] == log["samples"][0]["scores"]["vul_exploit_scorer"]["value"]
    assert any("header counts 2,340 samples" in n for n in report.notes)


def test_lmeval_0_4_9_output_with_a_cut_samples_file():
    folder = EEE / "lmeval"
    (samples,) = folder.glob("samples_*.jsonl")
    rows = [json.loads(x) for x in samples.read_text().splitlines() if x.strip()]
    results = json.loads(next(folder.glob("results_*.json")).read_text())
    report = audit([str(folder)], fail_on="never")
    (row,) = report.results["models"]
    assert row["model"] == results["model_name"]
    assert row["n_items"] == len({r["doc_id"] for r in rows}) == 10
    assert row["score"] == pytest.approx(sum(r["exact_match"] for r in rows) / len(rows))
    (limit,) = [f for f in report.findings if f.name == "harness-limit"]
    assert "10 of the 5,000 items" in limit.message


SHORT = EEE / "inspect-shortened"


def test_a_log_whose_header_disagrees_with_its_samples_says_so():
    path = SHORT / "gpqa-diamond.json"
    log = json.loads(path.read_text())
    values = [s["scores"]["choice"]["value"] == "C" for s in log["samples"]]
    header = log["results"]["scores"][0]["metrics"]["accuracy"]["value"]
    report = audit([str(path)], fail_on="never")
    (row,) = report.results["models"]
    assert row["n_items"] == len(values) == 5
    assert row["score"] == pytest.approx(sum(values) / 5) == 0.6
    assert header == 0.5
    assert any("header's accuracy of choice is 0.5" in n for n in report.notes)


def test_a_scorer_without_a_correctness_metric_is_not_silently_accuracy():
    path = SHORT / "personality-BFI.json"
    log = json.loads(path.read_text())
    assert "accuracy" not in log["results"]["scores"][0]["metrics"]
    report = audit([str(path)], fail_on="never")
    assert any("may mark an answer given, not a correct one" in n for n in report.notes)


def test_a_log_whose_every_sample_errored_says_why(tmp_path: Path):
    import subprocess
    import sys

    log = json.loads((SHORT / "gpqa-diamond.json").read_text())
    log["status"] = "error"
    for s in log["samples"]:
        s["scores"] = {}
        s["error"] = {"message": "CancelledError('Cancelled via cancel scope')", "traceback": ""}
    bad = tmp_path / "errored.json"
    bad.write_text(json.dumps(log))
    got = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(bad)], capture_output=True, text=True
    )
    assert got.returncode == 2 and str(bad) in got.stderr
    assert "status is 'error' and 5 of 5 samples errored (first: CancelledError" in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1


def test_a_helm_run_without_test_instances_says_it_read_the_valid_split():
    folder = (
        EEE
        / "helm"
        / "commonsense-dataset=hellaswag,method=multiple_choice_joint,model=eleutherai_pythia-1b-v0"
    )
    stats = json.loads((folder / "stats.json").read_text())
    (valid,) = [
        s
        for s in stats
        if s["name"]["name"] == "exact_match"
        and s["name"].get("split") == "valid"
        and not s["name"].get("perturbation")
    ]
    report = audit([str(folder)], fail_on="never")
    (row,) = report.results["models"]
    assert (row["model"], row["n_items"]) == ("eleutherai/pythia-1b-v0", 10)
    assert row["score"] == pytest.approx(valid["mean"]) == 0.3
    assert any("split 'valid' read (the run has no test instances)" in n for n in report.notes)
    assert any(f.name == "harness-limit" for f in report.findings)  # max_eval_instances 10
