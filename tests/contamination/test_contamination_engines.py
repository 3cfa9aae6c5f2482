"""Contamination engines (local pool, resume markers, Ray), scores and the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.contamination import engines
from benchaudit.contamination.audit import Settings, run
from benchaudit.contamination.benchmark import read_items
from benchaudit.contamination.index import build_index
from benchaudit.contamination.results import merge
from benchaudit.contamination.scan import ScanOptions
from benchaudit.contamination.scores import bootstrap_diff, compare, subset_z
from benchaudit.contamination.shards import find_shards


@pytest.fixture
def corpus(data_dir, tmp_path):
    """Four small shards: two hold GSM8K questions, two hold SVAMP problems."""
    gsm = data_dir / "contamination"
    pal = [json.loads(line) for line in (gsm / "pal_gsm.jsonl").open()][:40]
    svamp = [json.loads(line) for line in (gsm / "pal_svamp.jsonl").open()][:40]
    for k, recs in enumerate((pal[:20], svamp[:20], pal[20:], svamp[20:])):
        with open(tmp_path / f"shard-{k}.jsonl", "w", encoding="utf-8") as fh:
            for r in recs:
                fh.write(json.dumps({"text": "Some context. " + r["input"]}) + "\n")
    return gsm / "gsm8k_test.jsonl", str(tmp_path / "shard-*.jsonl")


def _findings(results, index):
    s = merge(index, results)
    return [
        (x.index, x.longest_match, x.docs, x.coverage, x.example) for x in s.items if x.contaminated
    ]


def test_process_pool_equals_in_process(corpus):
    bench, pattern = corpus
    index = build_index(read_items(bench))
    shards = find_shards([pattern])
    one = engines.run_local(index, shards, ScanOptions(), workers=1)
    two = engines.run_local(index, shards, ScanOptions(), workers=2)
    assert _findings(one, index) == _findings(two, index)
    assert len(_findings(one, index)) == 40


def test_state_dir_resumes_without_rescanning(corpus, tmp_path, monkeypatch):
    bench, pattern = corpus
    state = tmp_path / "state"
    first = run(
        Settings(
            benchmark=str(bench), corpus=[pattern], state_dir=str(state), workers=1, progress=False
        )
    )
    assert len(list(state.glob("shard-*.done"))) == 4

    def boom(*_a, **_k):
        raise AssertionError("a finished shard was scanned again")

    monkeypatch.setattr(engines, "scan_shard", boom)
    again = run(
        Settings(
            benchmark=str(bench), corpus=[pattern], state_dir=str(state), workers=1, progress=False
        )
    )
    assert [s.__dict__ for s in again.summary.items] == [s.__dict__ for s in first.summary.items]


@pytest.mark.slow
def test_ray_engine_equals_local_engine(corpus):
    ray = pytest.importorskip("ray")
    bench, pattern = corpus
    local = run(Settings(benchmark=str(bench), corpus=[pattern], workers=1, progress=False))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run(
            Settings(
                benchmark=str(bench), corpus=[pattern], engine="ray", workers=2, progress=False
            )
        )
    finally:
        ray.shutdown()
    assert [s.__dict__ for s in remote.summary.items] == [s.__dict__ for s in local.summary.items]
    assert remote.results == local.results
    assert sum(s.contaminated for s in remote.summary.items) == 40


# --- scores on the clean and contaminated subsets -----------------------------------------


def test_subset_z_is_the_hypergeometric_z_for_binary_scores():
    from scipy.stats import hypergeom

    values = np.array([1.0] * 70 + [0.0] * 30)
    mask = np.zeros(100, dtype=bool)
    mask[:20] = True  # 20 items, all correct
    dist = hypergeom(100, 70, 20)
    want = (20 - dist.mean()) / dist.std()
    assert subset_z(values, mask) == pytest.approx(want)
    assert subset_z(values, np.zeros(100, dtype=bool)) is None


def test_bootstrap_difference_matches_scipy():
    from scipy.stats import bootstrap

    rng = np.random.default_rng(0)
    dirty = (rng.random(120) < 0.8).astype(float)
    clean = (rng.random(400) < 0.6).astype(float)
    lo, hi = bootstrap_diff(dirty, clean, 20000, seed=1)
    ref = bootstrap(
        (dirty, clean),
        lambda a, b, axis=-1: a.mean(axis) - b.mean(axis),
        n_resamples=20000,
        method="percentile",
        batch=2000,
        random_state=2,
    )
    assert lo == pytest.approx(ref.confidence_interval.low, abs=0.006)
    assert hi == pytest.approx(ref.confidence_interval.high, abs=0.006)
    assert bootstrap_diff(dirty, clean, 500, seed=3) == bootstrap_diff(dirty, clean, 500, seed=3)


def test_compare_rows():
    scores = {"m": {"a": 1.0, "b": 1.0, "c": 0.0, "d": 0.0}}
    (row,) = compare(
        scores, ["a", "b", "c", "d"], [True, True, False, False], 200, 0, 0.05, "s.csv"
    )
    assert (row["n_dirty"], row["n_clean"]) == (2, 2)
    assert row["score_dirty"] == 1.0 and row["score_clean"] == 0.0 and row["diff"] == 1.0
    assert row["ci_low"] == row["ci_high"] == 1.0
    # (1.0 - 0.5) / (SD 0.5 / sqrt(2) * sqrt((4 - 2) / (4 - 1)))
    assert row["z_dirty"] == pytest.approx(0.5 / (0.5 / math.sqrt(2) * math.sqrt(2 / 3)))


# --- command line -------------------------------------------------------------------------


def _cli(*args):
    return CliRunner().invoke(main, ["contamination", *args], catch_exceptions=False)


def test_cli_exit_codes_and_json(corpus, tmp_path):
    bench, pattern = corpus
    scores = tmp_path / "scores.csv"
    scores.write_text("item_id,score\n" + "".join(f"{i},{int(i % 3 == 0)}\n" for i in range(1319)))
    config = tmp_path / "benchaudit.toml"
    config.write_text("resamples = 2000\nseed = 7\n")
    args = [
        "--benchmark",
        str(bench),
        "--corpus",
        pattern,
        "--scores",
        str(scores),
        "--format",
        "json",
        "--workers",
        "1",
        "--config",
        str(config),
    ]
    res = _cli(*args)
    assert res.exit_code == 1, res.output
    doc = json.loads(res.output)
    assert doc["summary"]["warnings"] + doc["summary"]["errors"] == 40
    ev = doc["findings"][0]["evidence"]
    assert {"item_id", "bucket", "longest_match", "docs", "example"} <= set(ev)
    assert ev["example"]["shard"].endswith(".jsonl") and ev["example"]["line"] >= 1
    assert doc["results"]["contamination"][0]["contaminated"] == 40
    (row,) = doc["results"]["contamination_scores"]
    assert row["n_dirty"] == 40 and row["ci_low"] <= row["diff"] <= row["ci_high"]
    assert _cli(*args).output == res.output  # deterministic, bootstrap included
    md = _cli(*args[:-5], "markdown", "--workers", "1", "--config", str(config))
    assert "Score on clean vs contaminated items" in md.output


def test_cli_clean_corpus_and_bad_input(corpus, data_dir, tmp_path):
    bench, _ = corpus
    svamp = str(data_dir / "contamination" / "pal_svamp.jsonl")
    res = _cli("--benchmark", str(bench), "--corpus", svamp, "--format", "markdown")
    assert res.exit_code == 0, res.output
    assert "Contamination" in res.output
    res = _cli("--benchmark", str(tmp_path / "missing.jsonl"), "--corpus", svamp)
    assert res.exit_code == 2 and "no such file" in res.output
    (tmp_path / "bad.jsonl").write_text('{"text": "x"}\nnot json\n')
    res = _cli("--benchmark", str(bench), "--corpus", str(tmp_path / "bad.jsonl"))
    assert res.exit_code == 2 and "bad.jsonl:2: invalid JSON" in res.output


def test_scores_with_a_model_column_use_the_per_item_reader(corpus, tmp_path):
    bench, pattern = corpus
    scores = tmp_path / "results.csv"
    scores.write_text(
        "model,item_id,score\n"
        + "".join(
            f"{m},{i},{int((i + k) % 2 == 0)}\n" for k, m in enumerate("ab") for i in range(1319)
        )
    )
    out = run(
        Settings(
            benchmark=str(bench),
            corpus=[pattern],
            scores=str(scores),
            workers=1,
            progress=False,
            resamples=500,
        )
    )
    rows = out.results["contamination_scores"]
    assert [r["model"] for r in rows] == ["a", "b"]
    assert all(r["n_dirty"] == 40 and r["n_clean"] == 1279 for r in rows)


def test_check_runs_the_rule_from_pyproject_with_relative_paths(corpus, tmp_path):
    bench, pattern = corpus
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    (project / "data" / "bench.jsonl").write_bytes(bench.read_bytes())
    for shard in sorted(tmp_path.glob("shard-*.jsonl")):
        (project / "data" / shard.name).write_bytes(shard.read_bytes())
    (project / "pyproject.toml").write_text(
        '[tool.benchaudit]\nbenchmark = "data/bench.jsonl"\ncorpus = ["data/shard-*.jsonl"]\n'
    )
    (project / "card.md").write_text("We reach 71.2% on GSM8K.\n")
    res = CliRunner().invoke(
        main,
        [
            "check",
            str(project / "card.md"),
            "--config",
            str(project / "pyproject.toml"),
            "--select",
            "contamination",
            "--format",
            "json",
        ],
        catch_exceptions=False,
    )
    doc = json.loads(res.output)
    assert res.exit_code == 1  # the copied questions are "dirty" (>= 80% covered): errors
    found = [f for f in doc["findings"] if f["name"] == "contamination"]
    assert len(found) == 40 and found[0]["file"] == "data/bench.jsonl"
    assert doc["results"]["contamination"][0]["contaminated"] == 40


def test_the_command_module_keeps_startup_light():
    import subprocess
    import sys

    code = (
        "import sys, benchaudit.cli, benchaudit.contamination.cli;"
        "print(sorted(m for m in ('numpy', 'pandas', 'ray', 'datasketch') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_cli_corpus_takes_the_paths_a_shell_glob_expands_to(corpus):
    """``--corpus shards/*.jsonl`` reaches the command as ``--corpus s0 s1 s2 s3``."""
    import glob

    bench, pattern = corpus
    shards = sorted(glob.glob(pattern))
    assert len(shards) == 4
    common = ["--benchmark", str(bench), "--format", "json", "--workers", "1"]
    expanded = _cli("--corpus", *shards, *common)
    assert expanded.exit_code == 1, expanded.output
    quoted = _cli("--corpus", pattern, *common)
    assert json.loads(expanded.output)["results"] == json.loads(quoted.output)["results"]
    res = _cli("--benchmark", str(bench))
    assert res.exit_code == 2 and "no training shards" in res.output


def test_index_fingerprint_is_computed_on_demand_and_tells_indexes_apart():
    """Resume markers key on the fingerprint: the same benchmark gives the same one in
    every process, another benchmark or n another; building an index does not hash."""
    from benchaudit.contamination.benchmark import Item
    from benchaudit.contamination.index import build_index

    items = [Item(0, "a", "the quick brown fox jumps over the lazy dog again", 1)]
    a, b = build_index(items), build_index(items)
    assert a._fingerprint == ""
    assert a.fingerprint == b.fingerprint and len(a.fingerprint) == 16
    assert build_index(items, ngram=8).fingerprint != a.fingerprint
    other = [Item(0, "a", "the quick brown fox jumps over the lazy cat again", 1)]
    assert build_index(other).fingerprint != a.fingerprint
