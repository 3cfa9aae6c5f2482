"""EvalPlus ``eval_results.json`` files written by ``evalplus.evaluate`` and committed in a
public repository (tests/data/harness/public/evalplus-humaneval, see PROVENANCE.md). Real
files hold 164 tasks with their solutions and are larger than what detection reads. Counts
are taken straight from the files; McNemar p-values from scipy's exact binomial test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import binomtest

from benchaudit.api import audit

FOLDER = Path(__file__).parents[1] / "data" / "harness" / "public" / "evalplus-humaneval"
TAIL = "_eval_results.json"


def _truth() -> dict[str, dict[str, dict[str, bool]]]:
    out: dict[str, dict[str, dict[str, bool]]] = {"HumanEval": {}, "HumanEval+": {}}
    for f in sorted(FOLDER.glob(f"*{TAIL}")):
        run = f.name[: -len(TAIL)]
        ev = json.loads(f.read_text())["eval"]
        out["HumanEval"][run] = {t: s[0]["base_status"] == "pass" for t, s in ev.items()}
        out["HumanEval+"][run] = {
            t: s[0]["base_status"] == "pass" and s[0]["plus_status"] == "pass"
            for t, s in ev.items()
        }
    return out


def test_real_eval_results_files_are_larger_than_the_probe_and_still_detected():
    from benchaudit.inputs import PROBE_BYTES

    files = sorted(FOLDER.glob(f"*{TAIL}"))
    assert len(files) == 2 and all(f.stat().st_size > PROBE_BYTES for f in files)
    for f in files:
        report = audit([str(f)], fail_on="never")
        assert {s.kind for s in report.results["sources"]} == {"samples"}


def test_two_evalplus_runs_pair_per_benchmark_with_exact_mcnemar():
    truth = _truth()
    report = audit([str(FOLDER)], fail_on="never")
    got = {(r["task"], r["model"]): r for r in report.results["models"]}
    assert len(got) == 4
    for task, runs in truth.items():
        for run, verdicts in runs.items():
            row = got[(task, run)]
            assert row["n_items"] == len(verdicts) == 164
            assert row["score"] == pytest.approx(sum(verdicts.values()) / 164)
    assert (
        round(
            got[("HumanEval", "meta-llama--Meta-Llama-3-8B-Instruct_vllm_temp_0.0-sanitized")][
                "score"
            ]
            * 164
        )
        == 105
    )
    comps = {c["task"]: c for c in report.results["comparisons"]}
    assert set(comps) == {"HumanEval", "HumanEval+"}  # base and "+" never paired together
    for task, c in comps.items():
        a, b = truth[task][c["a"]], truth[task][c["b"]]
        only_a = sum(a[t] and not b[t] for t in a)
        only_b = sum(b[t] and not a[t] for t in a)
        assert c["test"] == "mcnemar-exact" and c["n_items"] == 164
        assert (c["a_only"], c["b_only"]) == (only_a, only_b)
        assert c["p_value"] == pytest.approx(binomtest(only_a, only_a + only_b, 0.5).pvalue)


def test_a_truncated_evalplus_head_is_a_one_line_error(tmp_path: Path):
    import subprocess
    import sys

    src = next(FOLDER.glob(f"*{TAIL}")).read_bytes()
    bad = tmp_path / f"cut{TAIL}"
    bad.write_bytes(src[:70_000])  # past the probe, cut inside a solution
    got = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(bad)], capture_output=True, text=True
    )
    assert got.returncode == 2 and str(bad) in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1
