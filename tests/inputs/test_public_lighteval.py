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
