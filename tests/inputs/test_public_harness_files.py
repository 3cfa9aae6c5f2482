"""Real harness output committed in public repositories (tests/data/harness/public): HELM's
own BBQ runs and human-eval results. Models, item counts and scores are checked against a
direct count of the files, intervals and p-values against statsmodels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from benchaudit.api import audit
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs import load

PUBLIC = Path(__file__).parents[1] / "data" / "harness" / "public"
HELM = PUBLIC / "helm"
HUMANEVAL = PUBLIC / "humaneval"


def _helm_truth() -> dict[str, dict[str, float]]:
    """model (from run_spec.json) -> {instance_id: exact_match}, read straight from the files."""
    out = {}
    for run in sorted(HELM.iterdir()):
        model = json.loads((run / "run_spec.json").read_text())["adapter_spec"]["model"]
        stats = json.loads((run / "per_instance_stats.json").read_text())
        out[model] = {
            e["instance_id"]: next(
                s["mean"]
                for s in e["stats"]
                if s["name"]["name"] == "exact_match" and "perturbation" not in s["name"]
            )
            for e in stats
        }
    return out


def _humaneval_truth() -> dict[str, dict[str, bool]]:
    """run folder -> {task_id: passed}, one completion per task."""
    out = {}
    for f in sorted(HUMANEVAL.glob("*/*_results.jsonl")):
        recs = [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
        out[f.parent.name] = {r["task_id"]: bool(r["passed"]) for r in recs}
    return out


def _mcnemar_p(a: dict, b: dict) -> float:
    shared = sorted(set(a) & set(b))
    only_a = sum(1 for k in shared if a[k] and not b[k])
    only_b = sum(1 for k in shared if b[k] and not a[k])
    both = sum(1 for k in shared if a[k] and b[k])
    neither = len(shared) - only_a - only_b - both
    return float(mcnemar([[both, only_a], [only_b, neither]], exact=True).pvalue)


def test_each_helm_run_reads_alone():
    truth = _helm_truth()
    for run in sorted(HELM.iterdir()):
        (src,) = load(run / "per_instance_stats.json", run.name, Context(Config()))
        rs = src.data
        (model,) = rs.models
        assert sorted(rs.items) == sorted(truth[model])
        assert rs.meta["limit"] == 2 and rs.meta["metric"] == "exact_match"
        by_item = {rs.items[c]: float(s) for c, s in zip(rs.item.codes, rs.score)}
        assert by_item == truth[model]


def test_three_helm_runs_pair_up_with_exact_mcnemar():
    truth = _helm_truth()
    report = audit([str(HELM)], fail_on="never")
    models = {r["model"]: r for r in report.results["models"]}
    assert (
        set(models)
        == set(truth)
        == {
            "anthropic/claude-3-5-sonnet-20240620",
            "google/gemini-1.5-pro-001",
            "meta/llama-3-8b",
        }
    )
    for name, row in models.items():
        k, n = int(sum(truth[name].values())), len(truth[name])
        assert row["n_items"] == n == 2 and row["score"] == pytest.approx(k / n)
        lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi), abs=1e-9)
    comps = report.results["comparisons"]
    assert len(comps) == 3
    for c in comps:
        assert c["test"] == "mcnemar-exact"
        assert c["p_value"] == pytest.approx(_mcnemar_p(truth[c["a"]], truth[c["b"]]), abs=1e-12)
    # max_eval_instances = 2 is a limited run, said for each of the three.
    assert sum(f.name == "harness-limit" for f in report.findings) == 3
    det = report.results["sources"][0].detection
    assert det.reader == "helm" and det.roles["item"] == "instance_id"
    assert det.roles["score"] == "stats.exact_match.mean" and det.scale == "0/1"


def test_humaneval_results_read_with_the_right_counts():
    truth = _humaneval_truth()
    assert {k: (len(v), sum(v.values())) for k, v in truth.items()} == {
        "new_pair-samples": (164, 93),
        "new_pair-samples2": (164, 90),
    }
    for f in sorted(HUMANEVAL.glob("*/*_results.jsonl")):
        (src,) = load(f, str(f), Context(Config()))
        assert src.kind == "samples"
        data = src.data
        assert len(data.problems) == 164 and int(data.n.sum()) == 164
        assert int(data.c.sum()) == sum(truth[f.parent.name].values())
        assert src.meta["columns"] == {"item": "task_id", "score": "passed"}


def test_two_humaneval_runs_pair_up_with_exact_mcnemar():
    truth = _humaneval_truth()
    report = audit([str(HUMANEVAL)], fail_on="never")
    models = {r["model"]: r for r in report.results["models"]}
    assert set(models) == set(truth)
    for name, row in models.items():
        k, n = sum(truth[name].values()), len(truth[name])
        assert row["n_items"] == n and row["score"] == pytest.approx(k / n)
        lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi), abs=1e-9)
    (c,) = report.results["comparisons"]
    assert c["test"] == "mcnemar-exact"
    assert c["p_value"] == pytest.approx(_mcnemar_p(truth[c["a"]], truth[c["b"]]), abs=1e-12)
    assert c["p_value"] == pytest.approx(0.25)  # 3 tasks only the first run solves, none the other
    kinds = [(e.file, e.kind) for e in report.results["sources"]]
    assert [k for _, k in kinds] == ["samples", "samples"]
