"""Per-model intervals and paired comparisons on per-item files built from the worked tables."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from benchaudit.analysis.results import analyse
from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context, audit
from benchaudit.inputs import tabular
from benchaudit.stats.paired import paired_diff_newcombe, sign_flip_test

DATA = Path(__file__).parents[1] / "data" / "results"


def write_pair(path: Path, n11: int, n10: int, n01: int, n00: int, names=("A", "B")) -> Path:
    """A long-form file of two models from the four cells of a paired 2x2 table."""
    a = [1] * n11 + [1] * n10 + [0] * n01 + [0] * n00
    b = [1] * n11 + [0] * n10 + [1] * n01 + [0] * n00
    lines = ["model,item,correct"]
    lines += [f"{names[0]},i{i},{v}" for i, v in enumerate(a)]
    lines += [f"{names[1]},i{i},{v}" for i, v in enumerate(b)]
    path.write_text("\n".join(lines) + "\n")
    return path


def run(path: Path, **cfg):
    ctx = Context(config=Config(**cfg))
    source = tabular.read(path, path.name, ctx)
    return analyse(source.data, ctx), source


def test_paired_table_of_500(tmp_path):
    a, _ = run(write_pair(tmp_path / "s.csv", 335, 30, 15, 120))
    (c,) = a.comparisons
    assert c["diff"] == pytest.approx(0.03)
    # Newcombe's hybrid score interval (the normal one on the differences is 0.4 to 5.6).
    assert (c["ci_low"], c["ci_high"]) == pytest.approx(paired_diff_newcombe(335, 30, 15, 120)[1:], abs=1e-15)
    assert round(100 * c["ci_low"], 1) == 0.4 and round(100 * c["ci_high"], 1) == 5.7
    assert c["p_value"] == pytest.approx(0.036, abs=5e-4)
    assert c["test"] == "mcnemar-exact" and c["a_only"] == 30 and c["b_only"] == 15
    assert (c["unpaired_ci_high"] - c["unpaired_ci_low"]) / 2 == pytest.approx(0.056, abs=5e-4)
    assert c["unpaired_p"] == pytest.approx(0.29, abs=5e-3)
    x = a.matrix.value
    assert sign_flip_test(x[0] - x[1], seed=0) == pytest.approx(0.038, abs=0.006)
    m = {r["model"]: r for r in a.models}
    assert m["A"]["score"] == 0.73 and m["B"]["score"] == 0.70
    # Seed 002 §8: each model's interval, then the paired delta vs the baseline.
    rows = {r["model"]: r for r in a.baseline}
    assert rows["A"]["delta"] is None and rows["B"]["delta"] == pytest.approx(-0.03)
    assert rows["B"]["delta_points"] == "-3.0 (-5.7 to -0.4)"


def test_baseline_model_option(tmp_path):
    a, _ = run(write_pair(tmp_path / "s.csv", 335, 30, 15, 120), baseline_model="B")
    rows = {r["model"]: r for r in a.baseline}
    assert rows["A"]["delta_points"] == "+3.0 (+0.4 to +5.7)"
    assert rows["A"]["p_value"] == pytest.approx(0.0357, abs=1e-4)
    assert a.setup["baseline"] == "B"


def test_seventeen_fixes_and_no_breaks(tmp_path):
    a, _ = run(write_pair(tmp_path / "s.csv", 275, 0, 17, 208))
    (c,) = a.comparisons
    assert c["p_value"] == pytest.approx(2 * 2**-17, rel=1e-9)
    assert c["unpaired_p"] == pytest.approx(0.28, abs=5e-3)


def test_45_vs_87_discordant_of_1000(tmp_path):
    a, _ = run(write_pair(tmp_path / "s.csv", 500, 45, 87, 368))
    assert a.comparisons[0]["p_value"] == pytest.approx(3.232e-4, rel=1e-3)


def test_mde_and_floor(tmp_path):
    a, _ = run(write_pair(tmp_path / "s.csv", 400, 30, 20, 50))
    (c,) = a.comparisons
    assert c["mde"] == pytest.approx((1.959964 + 0.841621) * math.sqrt(0.10 / 500), rel=1e-5)
    assert c["p_floor"] == pytest.approx(2 * 0.5**50)


def test_700_ones_300_zeros(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("model,item,correct\n" + "".join(f"m,i{i},{int(i < 700)}\n" for i in range(1000)))
    a, _ = run(p)
    r = a.models[0]
    assert r["score"] == 0.7 and r["ci_method"] == "wilson"
    assert (r["ci_high"] - r["ci_low"]) / 2 == pytest.approx(0.0284, abs=5e-4)
    # The same data as graded scores gets the bootstrap, within 0.004 of the normal bounds.
    p.write_text(
        "model,item,score\n"
        + "".join(f"m,i{i},{1.0 if i < 700 else 0.0}\n" for i in range(1000))
        + "m,extra,0.7\n"
    )
    r = run(p)[0].models[0]
    assert r["ci_method"] == "bootstrap"
    assert abs(r["ci_low"] - 0.6716) < 0.004 and abs(r["ci_high"] - 0.7284) < 0.004


def test_clusters_of_identical_outcomes(tmp_path):
    p = tmp_path / "s.csv"
    outcome = [1, 0, 1, 1, 0, 0, 1, 0]
    p.write_text(
        "model,item,passage,correct\n"
        + "".join(f"m,q{c}-{j},P{c},{outcome[c]}\n" for c in range(8) for j in range(10))
    )
    a, _ = run(p)
    r = a.models[0]
    assert r["design_effect"] == pytest.approx(10.0)
    assert r["n_clusters"] == 8 and r["ci_method"] == "cluster-bootstrap"
    # Clustered SE carries the small-sample factor sqrt(G/(G-1)).
    assert r["clustered_se"] == pytest.approx(0.1768 * math.sqrt(8 / 7), abs=1e-3)
    assert a.setup["clusters"] == 8
    assert "n = 80 items (8 clusters)" in a.setup["line"]


def test_setup_line_names_no_clusters_without_a_cluster_column(tmp_path):
    a, _ = run(write_pair(tmp_path / "s.csv", 5, 2, 1, 2))
    assert a.setup["clusters"] is None
    assert a.setup["line"].startswith("n = 10 items, 1 sample per item")
    assert "cluster" not in a.setup["line"]


def test_samples_are_averaged_within_items(tmp_path):
    p = tmp_path / "s.csv"
    rng = np.random.default_rng(0)
    rows = [f"m,q{i},{s},{int(rng.random() < 0.6)}" for i in range(50) for s in range(4)]
    p.write_text("model,item,sample,correct\n" + "\n".join(rows) + "\n")
    a, _ = run(p)
    r = a.models[0]
    assert r["n_items"] == 50 and r["n_rows"] == 200 and r["samples_per_item"] == 4
    assert r["ci_method"] == "bootstrap"


def test_seeds_get_a_t_interval(tmp_path):
    p = tmp_path / "s.csv"
    scores = {"0": 0.70, "1": 0.72, "2": 0.74}
    rows = []
    for s, acc in scores.items():
        k = int(acc * 100)
        rows += [f"m,{s},q{i},{int(i < k)}" for i in range(100)]
    p.write_text("model,seed,item,correct\n" + "\n".join(rows) + "\n")
    r = run(p)[0].models[0]
    # Items and seeds are both sampled: the two-way interval (tests/test_crossed.py).
    assert r["ci_method"] == "items-and-seeds" and r["seeds"] == 3
    assert r["score"] == pytest.approx(0.72)
    assert r["seed_sd"] == pytest.approx(0.02)


def test_points_weighted_score(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text(
        "model,item,points,max_points\na,1,2,4\na,2,1,1\na,3,3,5\nb,1,4,4\nb,2,0,1\nb,3,5,5\n"
    )
    a, _ = run(p)
    m = {r["model"]: r for r in a.models}
    assert m["a"]["score"] == pytest.approx(6 / 10) and m["b"]["score"] == pytest.approx(9 / 10)
    assert m["a"]["ci_method"] == "bootstrap"
    (c,) = a.comparisons
    assert c["diff"] == pytest.approx(-0.3)  # sum of point differences / sum of max points
    assert c["test"] == "sign-flip-permutation"


def test_holm_across_pairs_matches_statsmodels(tmp_path):
    rng = np.random.default_rng(5)
    lines = ["model,item,correct"]
    for m, acc in enumerate([0.6, 0.62, 0.66, 0.7]):
        lines += [f"m{m},q{i},{int(rng.random() < acc)}" for i in range(300)]
    p = tmp_path / "s.csv"
    p.write_text("\n".join(lines) + "\n")
    a, _ = run(p)
    raw = [c["p_value"] for c in a.comparisons]
    assert len(raw) == 6
    ref = multipletests(raw, method="holm")[1]
    assert [c["p_adjusted"] for c in a.comparisons] == pytest.approx(list(ref), abs=1e-12)


def test_rank_groups(tmp_path):
    rng = np.random.default_rng(2)
    lines = ["model,item,correct"]
    base = rng.random(400)
    for m, acc in (("top", 0.9), ("mid1", 0.5), ("mid2", 0.51)):
        lines += [f"{m},q{i},{int(base[i] < acc)}" for i in range(400)]
    p = tmp_path / "s.csv"
    p.write_text("\n".join(lines) + "\n")
    m = {r["model"]: r for r in run(p)[0].models}
    assert (m["top"]["rank_low"], m["top"]["rank_high"]) == (1, 1)
    assert m["mid1"]["tie_group"] == m["mid2"]["tie_group"] != m["top"]["tie_group"]
    assert (m["mid2"]["rank_low"], m["mid2"]["rank_high"]) == (2, 3)


# --- real data: four GSM8K systems -------------------------------------------------------------

GSM8K = DATA / "gsm8k_4systems.csv"
FACTS = {
    "6b_finetuning": (286, "19.54–23.99"),
    "6b_verification": (515, "36.45–41.71"),
    "175b_finetuning": (458, "32.20–37.33"),
    "175b_verification": (742, "53.56–58.91"),
}
PAIRS = {
    ("6b_finetuning", "6b_verification"): (64, 293, 3.9e-36),
    ("6b_finetuning", "175b_finetuning"): (88, 260, 7.5e-21),
    ("6b_finetuning", "175b_verification"): (43, 499, 1.7e-99),
    ("6b_verification", "175b_finetuning"): (209, 152, 0.0032),
    ("6b_verification", "175b_verification"): (79, 306, 1.2e-32),
    ("175b_finetuning", "175b_verification"): (76, 360, 2.9e-45),
}


def test_gsm8k_wilson_equals_statsmodels():
    a, _ = run(GSM8K)
    assert len(a.models) == 4
    for r in a.models:
        k, interval = FACTS[r["model"]]
        assert r["n_items"] == 1319 and r["correct"] == k
        lo, hi = proportion_confint(k, 1319, alpha=0.05, method="wilson")
        assert abs(r["ci_low"] - lo) < 1e-9 and abs(r["ci_high"] - hi) < 1e-9
        assert f"{100 * r['ci_low']:.2f}–{100 * r['ci_high']:.2f}" == interval


def test_gsm8k_mcnemar_equals_statsmodels():
    a, _ = run(GSM8K)
    assert len(a.comparisons) == 6
    for c in a.comparisons:
        b_only, c_only, p_doc = PAIRS[(c["a"], c["b"])]
        assert (c["a_only"], c["b_only"]) == (b_only, c_only)
        ref = mcnemar([[0, b_only], [c_only, 0]], exact=True).pvalue
        assert abs(c["p_value"] - ref) < 1e-9
        assert c["p_value"] == pytest.approx(ref, rel=1e-9)
        assert float(f"{c['p_value']:.2g}") == pytest.approx(p_doc, rel=1e-9)


def test_gsm8k_pairing_beats_overlapping_intervals():
    a, _ = run(GSM8K)
    m = {r["model"]: r for r in a.models}
    ver, ft = m["6b_verification"], m["175b_finetuning"]
    assert ver["ci_low"] < ft["ci_high"]  # the separate intervals overlap
    c = next(c for c in a.comparisons if (c["a"], c["b"]) == ("6b_verification", "175b_finetuning"))
    assert c["ci_low"] > 0 and c["p_value"] < 0.01
    assert round(100 * c["diff"], 1) == 4.3


# --- the report ---------------------------------------------------------------------------------


def test_results_in_json_have_the_design_shape(tmp_path):
    out = CliRunner().invoke(main, ["check", str(GSM8K), "--format", "json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    res = doc["results"]
    for key in ("file", "model", "n_items", "score", "ci_low", "ci_high", "ci_method"):
        assert key in res["models"][0]
    for key in ("file", "a", "b", "diff", "ci_low", "ci_high", "p_value", "test", "p_adjusted"):
        assert key in res["comparisons"][0]
    assert res["setup"][0]["items"] == 1319
    assert len(res["baseline"]) == 4


def test_report_is_deterministic(tmp_path):
    p = tmp_path / "s.csv"
    rng = np.random.default_rng(1)
    p.write_text(
        "model,item,score\n"
        + "".join(f"{m},q{i},{rng.choice([0, 0.5, 1])}\n" for m in ("a", "b") for i in range(60))
    )
    first = CliRunner().invoke(main, ["check", str(p), "--format", "json", "--seed", "3"]).output
    second = CliRunner().invoke(main, ["check", str(p), "--format", "json", "--seed", "3"]).output
    assert first == second


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_reporting_table_in_text_and_markdown(fmt):
    out = CliRunner().invoke(main, ["check", str(GSM8K), "--format", fmt]).output
    assert "Reporting table" in out and "+17.4 (+14.7 to +20.0)" in out
    assert "n = 1,319 items" in out and "mcnemar-exact" in out


def test_clean_two_model_file_has_no_warning(tmp_path):
    p = write_pair(tmp_path / "s.csv", 300, 80, 20, 100)
    report = audit([str(p)], Config())
    assert [f for f in report.findings if f.severity.label != "info"] == []


def test_two_01_models_keep_mcnemar_beside_a_graded_one(tmp_path):
    """A run with two samples per item makes the matrix graded; the pair of the two
    one-sample runs is still McNemar's exact test, as when they are given alone."""
    rng = np.random.default_rng(4)
    a = (rng.random(50) < 0.6).astype(int)
    b = np.where(rng.random(50) < 0.7, a, 1 - a)
    c = (rng.random((50, 2)) < 0.5).astype(int)
    lines = ["model,item,sample,correct"]
    lines += [f"A,i{i},0,{v}" for i, v in enumerate(a)] + [f"B,i{i},0,{v}" for i, v in enumerate(b)]
    lines += [f"C,i{i},{s},{c[i, s]}" for i in range(50) for s in (0, 1)]
    p = tmp_path / "mixed.csv"
    p.write_text("\n".join(lines) + "\n")
    result, _ = run(p)
    comps = {(x["a"], x["b"]): x for x in result.comparisons}
    ab = comps[("A", "B")]
    n10, n01 = int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
    table = [[int(((a == 1) & (b == 1)).sum()), n10], [n01, int(((a == 0) & (b == 0)).sum())]]
    assert ab["test"] == "mcnemar-exact"
    assert ab["p_value"] == pytest.approx(mcnemar(table, exact=True).pvalue, abs=1e-12)
    assert ab["p_floor"] == pytest.approx(min(1.0, 2 * 0.5 ** (n10 + n01)))
    assert comps[("A", "C")]["test"] == comps[("B", "C")]["test"] == "sign-flip-permutation"
    alone = tmp_path / "ab.csv"
    alone.write_text("\n".join(line for line in lines if not line.startswith("C,")) + "\n")
    (solo,) = run(alone)[0].comparisons
    assert solo["p_value"] == ab["p_value"] and solo["ci_low"] == pytest.approx(ab["ci_low"])
