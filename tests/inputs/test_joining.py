"""Outputs of different runs joined by item, on files the harnesses wrote themselves.

Fixtures under tests/data/harness/generated/ were written by lm-evaluation-harness
(dummy model) and inspect_ai (mockllm); see PROVENANCE.md there. Every number is
recomputed here from the raw files with json + statsmodels / scipy, never with
benchaudit's own functions.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from benchaudit.config import Config
from benchaudit.engine import audit

GEN = Path(__file__).parents[1] / "data" / "harness" / "generated"
LM = GEN / "lmeval"
INSPECT = GEN / "inspect"


def lm_samples(run: str, task: str) -> dict[str, float]:
    (path,) = (LM / run).glob(f"*/samples_{task}_*.jsonl")
    out = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        out[str(rec["doc_id"])] = float(rec["acc"])
    return out


def exact_mcnemar(a: dict[str, float], b: dict[str, float]) -> tuple[float, int, int]:
    shared = sorted(set(a) & set(b))
    n10 = sum(1 for i in shared if a[i] == 1 and b[i] == 0)
    n01 = sum(1 for i in shared if a[i] == 0 and b[i] == 1)
    n11 = sum(1 for i in shared if a[i] == 1 and b[i] == 1)
    n00 = len(shared) - n10 - n01 - n11
    return float(mcnemar([[n11, n10], [n01, n00]], exact=True).pvalue), n10, n01


def run(*paths: Path, **cfg):
    return audit([str(p) for p in paths], Config(**cfg))


def by_task(rows, key="task"):
    out: dict[str, list] = {}
    for r in rows:
        out.setdefault(r.get(key), []).append(r)
    return out


def test_two_lmeval_folders_are_paired_per_task():
    report = run(LM / "runA", LM / "runB")
    comps = by_task(report.results["comparisons"])
    assert sorted(comps) == ["toyqa", "toyqb"]  # tasks stay tasks
    for task in ("toyqa", "toyqb"):
        (c,) = comps[task]
        a, b = lm_samples("runA", task), lm_samples("runB", task)
        p, n10, n01 = exact_mcnemar(a, b)
        assert (c["a"], c["b"]) == ("dummy-a", "dummy-b")
        assert c["test"] == "mcnemar-exact"
        assert (c["a_only"], c["b_only"]) == (n10, n01)
        assert c["p_value"] == pytest.approx(p, rel=1e-9)
        assert c["n_items"] == len(a)
        assert c["diff"] == pytest.approx(np.mean(list(a.values())) - np.mean(list(b.values())))
    models = by_task(report.results["models"])
    assert {r["model"] for r in models["toyqa"]} == {"dummy-a", "dummy-b"}
    runs = report.results["runs"]
    assert [r["task"] for r in runs] == ["toyqa", "toyqb"]
    assert all(r["items_in_every_run"] == r["items"] for r in runs)


def test_holm_over_all_pairs_of_three_runs_and_missing_items_named():
    report = run(LM / "runA", LM / "runB", LM / "limitC")
    comps = [c for c in report.results["comparisons"] if c["task"] == "toyqa"]
    assert len(comps) == 3
    from statsmodels.stats.multitest import multipletests

    raw = []
    for c in comps:
        folder = {"dummy-a": "runA", "dummy-b": "runB", "dummy-c": "limitC"}
        p, _, _ = exact_mcnemar(
            lm_samples(folder[c["a"]], "toyqa"), lm_samples(folder[c["b"]], "toyqa")
        )
        assert c["p_value"] == pytest.approx(p, rel=1e-9)
        raw.append(p)
    holm = multipletests(raw, method="holm")[1]
    assert [c["p_adjusted"] for c in comps] == pytest.approx(list(holm), rel=1e-9)
    (joined,) = [r for r in report.results["runs"] if r["task"] == "toyqa"]
    limited = next(p for p in joined["missing"] if "limitC" in p)
    assert joined["missing"][limited]["count"] == 40
    assert joined["missing"][limited]["items"][:3] == ["20", "21", "22"]
    assert "dummy-c lacks 40" in joined["unmatched"]
    limits = [
        f for f in report.findings if f.name == "harness-limit" and "limitC" in f.location.file
    ]
    assert any("20 of the 60 items of toyqa" in f.message for f in limits)


def test_nshot_mismatch_is_said_not_paired():
    report = run(LM / "runA", LM / "fewshotB")
    assert not [c for c in report.results.get("comparisons", []) if c.get("task") == "toyqa"]
    assert any("not paired: n-shot 0 vs 2" in n for n in report.notes)


def test_second_run_of_one_model_is_drift_not_a_model():
    report = run(LM / "runA", LM / "rerunA")
    assert "runs" not in report.results
    (drift,) = [f for f in report.findings if f.name == "run-drift"]
    a, a2 = lm_samples("runA", "toyqa"), lm_samples("rerunA", "toyqa")
    changed = [i for i in a if a[i] != a2[i]]
    up = sum(1 for i in changed if a2[i] > a[i])
    table = [[0, len(changed) - up], [up, 0]]
    assert drift.evidence["changed"] == len(changed)
    assert drift.evidence["mcnemar_p"] == pytest.approx(mcnemar(table, exact=True).pvalue)
    # toyqb (one run only) is never compared with toyqa for drift.
    assert "toyqb" not in drift.message


def test_different_doc_hash_is_not_paired(tmp_path):
    for name in ("runA", "runB"):
        shutil.copytree(LM / name, tmp_path / name)
    (path,) = (tmp_path / "runB").glob("*/samples_toyqa_*.jsonl")
    lines = path.read_text().splitlines()
    rec = json.loads(lines[3])
    rec["doc_hash"] = "0" * 64
    lines[3] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n")
    report = run(tmp_path / "runA", tmp_path / "runB")
    tasks = {c["task"] for c in report.results["comparisons"]}
    assert tasks == {"toyqb"}
    assert any("different doc_hash" in n and "3" in n for n in report.notes)


def inspect_item_means(model: str) -> dict[str, float]:
    (path,) = (INSPECT / "json" / model).glob("*.json")
    doc = json.loads(path.read_text())
    values: dict[str, list[float]] = {}
    for s in doc["samples"]:
        v = s["scores"]["match"]["value"]
        values.setdefault(str(s["id"]), []).append(1.0 if v == "C" else 0.0)
    return {k: float(np.mean(v)) for k, v in values.items()}


def test_inspect_logs_joined_by_sample_id_with_epochs_as_generations():
    from scipy.stats import permutation_test

    report = run(*(INSPECT / "json" / m for m in ("model-a", "model-b", "model-c")))
    models = {r["model"]: r for r in report.results["models"]}
    a, b = inspect_item_means("model-a"), inspect_item_means("model-b")
    assert models["mockllm/model-a"]["n_items"] == 24
    assert models["mockllm/model-a"]["score"] == pytest.approx(np.mean(list(a.values())))
    assert models["mockllm/model-a"]["samples_per_item"] == 2
    comp = next(
        c
        for c in report.results["comparisons"]
        if (c["a"], c["b"]) == ("mockllm/model-a", "mockllm/model-b")
    )
    d = np.array([a[k] - b[k] for k in sorted(a)])
    assert comp["diff"] == pytest.approx(d.mean())
    ref = permutation_test(
        (d,),
        np.mean,
        permutation_type="samples",
        n_resamples=20000,
        random_state=0,
        alternative="two-sided",
    ).pvalue
    assert comp["test"] == "sign-flip-permutation"
    assert comp["p_value"] == pytest.approx(ref, abs=0.01)
    # model-c ran with --limit 8: paired on its 8 items, flagged, the rest named.
    comp_c = next(c for c in report.results["comparisons"] if c["b"] == "mockllm/model-c")
    assert comp_c["n_items"] == 8
    assert any(
        f.name == "harness-limit" and "8 of the 24 items" in f.message for f in report.findings
    )


def test_inspect_eval_archives_read_like_the_json_logs():
    import zipfile

    paths = [next((INSPECT / "eval" / m).glob("*.eval")) for m in ("model-a", "model-b")]
    for path in paths:  # as inspect_ai 0.3.285 wrote them: every member zstd (method 93)
        with zipfile.ZipFile(path) as zf:
            assert {i.compress_type for i in zf.infolist()} == {93}
    report = run(*paths)
    same = run(*(INSPECT / "json" / m for m in ("model-a", "model-b")))
    strip = [{k: v for k, v in r.items() if k != "file"} for r in report.results["models"]]
    assert strip == [{k: v for k, v in r.items() if k != "file"} for r in same.results["models"]]


def test_per_item_csv_files_of_two_runs_join_on_the_item_column(tmp_path):
    rng = np.random.default_rng(3)
    truth = {}
    for run_name, model, p in (("runA", "alpha", 0.55), ("runB", "beta", 0.7)):
        (tmp_path / run_name).mkdir()
        scores = (rng.random(80) < p).astype(int)
        truth[model] = {f"item-{i}": float(s) for i, s in enumerate(scores)}
        rows = [f"{model},item-{i},{s}" for i, s in enumerate(scores)]
        (tmp_path / run_name / "scores.csv").write_text(
            "model,item,correct\n" + "\n".join(rows) + "\n"
        )
    report = run(tmp_path / "runA", tmp_path / "runB")
    (c,) = report.results["comparisons"]
    p, n10, n01 = exact_mcnemar(truth["alpha"], truth["beta"])
    assert (c["a_only"], c["b_only"]) == (n10, n01)
    assert c["p_value"] == pytest.approx(p, rel=1e-9)


def test_one_model_files_without_a_model_column_are_named_by_their_folders(tmp_path):
    rng = np.random.default_rng(8)
    truth = {}
    for run_name, p in (("runA", 0.5), ("runB", 0.75)):
        (tmp_path / run_name).mkdir()
        scores = (rng.random(60) < p).astype(int)
        truth[run_name] = {str(i): float(s) for i, s in enumerate(scores)}
        rows = [f"{i},{s}" for i, s in enumerate(scores)]
        (tmp_path / run_name / "scores.csv").write_text("item,correct\n" + "\n".join(rows) + "\n")
    report = run(tmp_path / "runA", tmp_path / "runB")
    assert [m["model"] for m in report.results["models"]] == ["runA", "runB"]
    (c,) = report.results["comparisons"]
    p, n10, n01 = exact_mcnemar(truth["runA"], truth["runB"])
    assert c["test"] == "mcnemar-exact" and (c["a_only"], c["b_only"]) == (n10, n01)
    assert c["p_value"] == pytest.approx(p, rel=1e-9)


def test_one_file_alone_is_unchanged():
    report = run(LM / "runA")
    assert "runs" not in report.results
    assert {r["task"] for r in report.results["models"]} == {"toyqa", "toyqb"}


HUMANEVAL = GEN / "humaneval"


def humaneval_passed(model: str) -> dict[str, float]:
    path = HUMANEVAL / model / "samples.jsonl_results.jsonl"
    return {
        (rec := json.loads(line))["task_id"]: float(rec["passed"])
        for line in path.read_text().splitlines()
    }


def test_humaneval_one_sample_results_get_wilson_and_no_k_below_one():
    from statsmodels.stats.proportion import proportion_confint

    report = run(HUMANEVAL / "model-x" / "samples.jsonl_results.jsonl")
    (row,) = report.results["models"]
    x = humaneval_passed("model-x")
    solved = int(sum(x.values()))
    lo, hi = proportion_confint(solved, len(x), alpha=0.05, method="wilson")
    assert (row["model"], row["n_items"], row["correct"]) == ("model-x", 164, solved)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi), rel=1e-9)
    assert not any("k <= 0" in (f.suggestion or "") for f in report.findings)
    assert not [f for f in report.findings if f.name == "biased-pass-at-k"]


def test_two_humaneval_results_files_are_paired_by_task_id():
    report = run(HUMANEVAL / "model-x", HUMANEVAL / "model-y")
    (c,) = report.results["comparisons"]
    p, n10, n01 = exact_mcnemar(humaneval_passed("model-x"), humaneval_passed("model-y"))
    assert (c["a"], c["b"], c["task"]) == ("model-x", "model-y", "HumanEval")
    assert (c["a_only"], c["b_only"]) == (n10, n01)
    assert c["p_value"] == pytest.approx(p, rel=1e-9)
    assert len(report.results["models"]) == 2  # one row per model, not one per file as well
    assert len(report.results["passk"]) == 2  # each file keeps its pass@k table


def test_results_do_not_depend_on_the_selected_rules(tmp_path):
    rng = np.random.default_rng(8)
    rows = ["model,item,passage,confidence,correct"]
    for m in ("a", "b"):
        for i in range(60):
            c = rng.random()
            rows.append(f"{m},q{i},p{i // 6},{c:.3f},{int(rng.random() < c)}")
    (tmp_path / "scores.csv").write_text("\n".join(rows) + "\n")
    paths = [tmp_path / "scores.csv", LM / "runA", LM / "runB", HUMANEVAL]
    full = run(*paths)
    assert "calibration" in full.results and "runs" in full.results
    for select in (["BA101"], ["calibration-bins"], ["run-drift"]):
        assert run(*paths, select=select).results == full.results


HELM = GEN / "helm"


def helm_runs() -> dict[str, Path]:
    return {p.name.rsplit("model=mock_", 1)[1]: p for p in sorted(HELM.glob("custom_mcqa,*"))}


def helm_exact_match(folder: Path) -> dict[str, float]:
    doc = json.loads((folder / "per_instance_stats.json").read_text())
    out = {}
    for entry in doc:
        for stat in entry["stats"]:
            if stat["name"]["name"] == "exact_match" and not stat["name"].get("perturbation"):
                out[entry["instance_id"]] = float(stat["mean"])
    return out


def test_three_helm_runs_are_paired_by_instance_id_with_holm():
    from statsmodels.stats.multitest import multipletests

    runs = helm_runs()
    report = run(*runs.values())
    comps = report.results["comparisons"]
    assert len(comps) == 3
    raw = []
    for c in comps:
        a = helm_exact_match(runs[c["a"].split("/")[1]])
        b = helm_exact_match(runs[c["b"].split("/")[1]])
        p, n10, n01 = exact_mcnemar(a, b)
        assert (c["a_only"], c["b_only"], c["n_items"]) == (n10, n01, 30)
        assert c["p_value"] == pytest.approx(p, rel=1e-9)
        raw.append(p)
    assert [c["p_adjusted"] for c in comps] == pytest.approx(
        list(multipletests(raw, method="holm")[1]), rel=1e-9
    )
    ranks = {r["model"]: (r["rank_low"], r["rank_high"]) for r in report.results["models"]}
    assert set(ranks) == {"mock/model-a", "mock/model-b", "mock/model-c"}
    limits = [f for f in report.findings if f.name == "harness-limit"]
    assert len(limits) == 3 and all("max_eval_instances = 30" in f.message for f in limits)


def test_ifeval_instruction_level_stderr_uses_the_instruction_count(tmp_path):
    folder = tmp_path / "org__model"
    folder.mkdir()
    stamp = "2024-05-14T10-22-33.123456"
    lists = [[True, False], [True], [True, True, False], [False], [True, True]]
    inst = [x for row in lists for x in row]
    acc = sum(inst) / len(inst)
    results = {
        "results": {
            "ifeval": {
                "alias": "ifeval",
                "prompt_level_strict_acc,none": 0.4,
                "prompt_level_strict_acc_stderr,none": 0.2449,
                "inst_level_strict_acc,none": acc,
                "inst_level_strict_acc_stderr,none": "N/A",
            }
        },
        "n-samples": {"ifeval": {"original": 5, "effective": 5}},
        "config": {"model_args": "pretrained=org/model", "limit": None},
    }
    (folder / f"results_{stamp}.json").write_text(json.dumps(results))
    with open(folder / f"samples_ifeval_{stamp}.jsonl", "w") as fh:
        for i, row in enumerate(lists):
            rec = {
                "doc_id": i,
                "doc": {"prompt": f"p{i}"},
                "target": "",
                "arguments": {},
                "resps": [],
                "filtered_resps": [],
                "filter": "none",
                "prompt_level_strict_acc": all(row),
                "inst_level_strict_acc": row,
            }
            fh.write(json.dumps(rec) + "\n")
    report = run(folder / f"results_{stamp}.json")
    (na,) = [f for f in report.findings if "stderr 'N/A'" in f.message]
    se = math.sqrt(acc * (1 - acc) / len(inst))
    assert na.evidence["n"] == len(inst) == 9 and na.evidence["n_prompts"] == 5
    assert na.evidence["binomial_se"] == pytest.approx(se)
    assert "over 9 instructions" in na.suggestion and "lower bound" in na.suggestion


def test_runs_of_different_tasks_are_said_not_paired(tmp_path):
    (a,) = (LM / "runA").glob("*/samples_toyqa_*.jsonl")
    (b,) = (LM / "runB").glob("*/samples_toyqb_*.jsonl")
    report = run(a, b)
    assert not report.results.get("comparisons")
    assert any("not paired, the tasks differ" in n and "toyqb" in n for n in report.notes)


def write_scores(path: Path, model: str, scores, ids=None) -> dict[str, float]:
    ids = ids or [f"item-{i}" for i in range(len(scores))]
    path.write_text(
        "model,item,correct\n" + "".join(f"{model},{i},{s}\n" for i, s in zip(ids, scores))
    )
    return {i: float(s) for i, s in zip(ids, scores)}


def test_per_item_files_of_different_names_join_on_identical_item_ids(tmp_path):
    rng = np.random.default_rng(4)
    a = write_scores(tmp_path / "alpha.csv", "alpha", (rng.random(50) < 0.5).astype(int))
    b = write_scores(tmp_path / "beta.csv", "beta", (rng.random(50) < 0.7).astype(int))
    report = run(tmp_path / "alpha.csv", tmp_path / "beta.csv")
    (c,) = report.results["comparisons"]
    assert c["p_value"] == pytest.approx(exact_mcnemar(a, b)[0], rel=1e-9)
    numbered = [str(i) for i in range(50)]
    write_scores(tmp_path / "alpha.csv", "alpha", (rng.random(50) < 0.5).astype(int), numbered)
    write_scores(tmp_path / "beta.csv", "beta", (rng.random(50) < 0.5).astype(int), numbered)
    report = run(tmp_path / "alpha.csv", tmp_path / "beta.csv")
    assert not report.results.get("comparisons")
    assert any("same numbered items" in n for n in report.notes)
