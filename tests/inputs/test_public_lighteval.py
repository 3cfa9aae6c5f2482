"""lighteval ``--save-details`` output (tests/data/harness/public/lighteval-smoke, written by
lighteval 0.13 with its dummy model; see PROVENANCE.md): one Parquet file per task, one row
per document. Values are read straight from the Parquet files with pyarrow; the McNemar
p-value of a pair comes from scipy's exact binomial test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy.stats import binomtest

from benchaudit.api import audit

ROOT = Path(__file__).parents[1] / "data" / "harness" / "public" / "lighteval-smoke"


def _details() -> list[Path]:
    return sorted(ROOT.glob("details/*/*/*/details_*.parquet"))


def test_lighteval_details_read_per_task_with_the_folder_model():
    results = json.loads(next(ROOT.glob("results/*/*/results_*.json")).read_text())
    report = audit([str(ROOT / "details")], fail_on="never")
    got = {r["task"]: r for r in report.results["models"]}
    assert set(got) == {"anli:r1|0", "squad_v2|0"}
    for f in _details():
        rows = pq.read_table(f).to_pylist()
        task = f.name[len("details_") :].rsplit("_", 1)[0]
        metric = next(iter(rows[0]["metric"]))
        row = got[task]
        assert row["model"] == results["config_general"]["model_name"] == "eee-smoke/dummy-model"
        assert row["n_items"] == len(rows) == 2
        mean = sum(r["metric"][metric] for r in rows) / len(rows)
        assert row["score"] == pytest.approx(mean)
        assert row["score"] == results["results"][task][metric]


def test_two_models_pair_on_the_document_id(tmp_path: Path):
    src = next(f for f in _details() if "anli" in f.name)
    table = pq.read_table(src)
    truth = {}
    for model, values in (("org/model-a", [1, 0]), ("org/model-b", [0, 0])):
        folder = tmp_path / "details" / model / "2026-08-10T17-22-11.385681"
        folder.mkdir(parents=True)
        metric = pa.array([{"acc": v} for v in values])
        out = table.set_column(table.schema.get_field_index("metric"), "metric", metric)
        pq.write_table(out, folder / src.name)
        truth[model] = {r["doc"]["id"]: v for r, v in zip(table.to_pylist(), values)}
    report = audit([str(tmp_path / "details")], fail_on="never")
    (c,) = report.results["comparisons"]
    a, b = truth[c["a"]], truth[c["b"]]
    only_a = sum(a[k] and not b[k] for k in a)
    only_b = sum(b[k] and not a[k] for k in a)
    assert c["n_items"] == 2 and c["test"] == "mcnemar-exact"
    assert c["p_value"] == pytest.approx(binomtest(only_a, only_a + only_b, 0.5).pvalue)


def test_a_details_file_with_a_text_metric_is_a_one_line_error(tmp_path: Path):
    src = _details()[0]
    table = pq.read_table(src)
    bad = table.set_column(
        table.schema.get_field_index("metric"), "metric", pa.array([{"acc": "yes"}] * 2)
    )
    folder = tmp_path / "details" / "org" / "m" / "2026-08-10T17-22-11.385681"
    folder.mkdir(parents=True)
    path = folder / src.name
    pq.write_table(bad, path)
    got = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(path)], capture_output=True, text=True
    )
    assert got.returncode == 2 and "not a number" in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1


def _limit_findings(report) -> list:
    return [f for f in report.findings if f.name == "harness-limit"]


def test_max_samples_in_the_results_file_is_a_limited_run():
    """lighteval's results file of this run sets config_general.max_samples = 2: each
    task's details hold 2 documents, so each is flagged as a capped run."""
    results = json.loads(next(ROOT.glob("results/*/*/results_*.json")).read_text())
    assert results["config_general"]["max_samples"] == 2
    report = audit([str(ROOT)], fail_on="never")
    run = [f for f in _limit_findings(report) if "task" not in f.evidence]
    assert [f.claim for f in run] == ["max_samples: 2"]  # the results file, read as well
    got = {f.evidence["task"]: f for f in _limit_findings(report) if f not in run}
    assert set(got) == {"anli:r1|0", "squad_v2|0"}
    for task, f in got.items():
        assert f.severity.name == "WARNING"
        assert f.evidence["max_samples"] == 2 and f.evidence["n_items"] == 2
        assert "max_samples = 2" in f.message and task in f.message


def _copy_run(tmp_path: Path, edit) -> Path:
    import shutil

    dest = tmp_path / "run"
    shutil.copytree(ROOT, dest)
    res = next(dest.glob("results/*/*/results_*.json"))
    data = json.loads(res.read_text())
    edit(data)
    res.write_text(json.dumps(data, indent=2))
    return dest


def test_a_full_run_is_not_flagged(tmp_path: Path):
    def full(data):
        data["config_general"]["max_samples"] = None

    report = audit([str(_copy_run(tmp_path, full) / "details")], fail_on="never")
    assert _limit_findings(report) == []


def test_a_cap_above_the_task_size_is_not_flagged(tmp_path: Path):
    def big(data):
        data["config_general"]["max_samples"] = 500

    report = audit([str(_copy_run(tmp_path, big) / "details")], fail_on="never")
    assert _limit_findings(report) == []


def test_a_known_task_size_gives_the_fraction(tmp_path: Path):
    def sized(data):
        data["config_tasks"]["anli:r1|0"]["original_num_docs"] = 1000

    report = audit([str(_copy_run(tmp_path, sized) / "details")], fail_on="never")
    got = {f.evidence["task"]: f for f in _limit_findings(report)}
    anli = got["anli:r1|0"]
    assert anli.evidence["n_original"] == 1000 and anli.evidence["n_items"] == 2
    assert "2 of the 1,000 items" in anli.message and "max_samples 2" in anli.message
    assert "--limit" not in anli.message
    assert got["squad_v2|0"].evidence["max_samples"] == 2  # size unknown: the cap


def test_details_without_their_results_file_say_nothing_of_a_limit(tmp_path: Path):
    import shutil

    dest = tmp_path / "run"
    shutil.copytree(ROOT / "details", dest / "details")
    report = audit([str(dest / "details")], fail_on="never")
    assert _limit_findings(report) == []


def _results_alone(tmp_path: Path, edit) -> Path:
    return next(_copy_run(tmp_path, edit).glob("results/*/*/results_*.json"))


def test_a_results_file_alone_is_a_lighteval_summary_with_its_cap():
    res = next(ROOT.glob("results/*/*/results_*.json"))
    data = json.loads(res.read_text())
    from benchaudit.inputs.lmeval_results import parse

    summary = parse(data, res.read_text(), res, str(res))
    assert summary.layout == "lighteval"
    assert summary.model == data["config_general"]["model_name"]
    assert summary.tasks["all"].is_group and summary.tasks["anli:r1|0"].num_fewshot == 0
    report = audit([str(res)], fail_on="never")
    (limit,) = _limit_findings(report)
    assert limit.claim == f"max_samples: {data['config_general']['max_samples']}"
    assert "--max-samples 2" in limit.message and "--limit" not in limit.message
    line = res.read_text().splitlines()[limit.location.line - 1]
    assert '"max_samples"' in line


def test_a_results_file_alone_without_a_cap_is_not_flagged(tmp_path: Path):
    def full(data):
        data["config_general"]["max_samples"] = None

    assert _limit_findings(audit([str(_results_alone(tmp_path, full))], fail_on="never")) == []


def test_a_results_file_whose_cap_is_above_every_task_is_not_flagged(tmp_path: Path):
    def sized(data):
        for task in data["config_tasks"].values():
            task["original_num_docs"] = task["effective_num_docs"] = 2

    report = audit([str(_results_alone(tmp_path, sized))], fail_on="never")
    assert _limit_findings(report) == []


def test_a_results_file_with_task_counts_gives_each_cut_task(tmp_path: Path):
    def sized(data):
        data["config_tasks"]["anli:r1|0"].update(original_num_docs=1000, effective_num_docs=2)

    report = audit([str(_results_alone(tmp_path, sized))], fail_on="never")
    tasks = {f.evidence.get("task") for f in _limit_findings(report)}
    assert "anli:r1|0" in tasks
    cut = next(f for f in _limit_findings(report) if f.evidence.get("task") == "anli:r1|0")
    assert cut.evidence["n_original"] == 1000 and cut.evidence["n_effective"] == 2
