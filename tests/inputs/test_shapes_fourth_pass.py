"""Shapes from a fourth pass over issue #13: score cells written as percentages, two
AlpacaEval models judged against one baseline (paired by instruction), and exports as
pandas and Hugging Face datasets write them (an index column, metadata columns beside
wide model columns, nested JSONL, Parquet). Expected numbers are counted from the rows
written here; McNemar p-values come from scipy's binomial test."""

from __future__ import annotations

import itertools
import json
import random
import shutil
from pathlib import Path

import pytest
from scipy.stats import binomtest

from benchaudit.api import audit
from benchaudit.errors import InputError

PUBLIC = Path(__file__).resolve().parents[1] / "data" / "harness" / "public"
MODELS = {"atlas-1b": 0.45, "borealis-3b": 0.62, "cygnus-8b": 0.7}


def _truth(n: int, seed: int) -> dict[str, list[int]]:
    rnd = random.Random(seed)
    return {m: [int(rnd.random() < p) for _ in range(n)] for m, p in MODELS.items()}


def _mcnemar(a: list[float], b: list[float]) -> float:
    only_a = sum(1 for x, y in zip(a, b) if x > y)
    only_b = sum(1 for x, y in zip(a, b) if y > x)
    return float(binomtest(only_a, only_a + only_b, 0.5).pvalue) if only_a + only_b else 1.0


def _check(report, truth: dict[str, list[int]]) -> None:
    got = {r["model"]: r for r in report.results["models"]}
    assert set(got) == set(truth)
    for m, row in got.items():
        assert row["n_items"] == len(truth[m])
        assert row["score"] == pytest.approx(sum(truth[m]) / len(truth[m]), abs=1e-12)
    pairs = {(c["a"], c["b"]): c for c in report.results["comparisons"]}
    assert len(pairs) == len(truth) * (len(truth) - 1) // 2
    for a, b in itertools.combinations(truth, 2):
        c = pairs.get((a, b)) or pairs[(b, a)]
        assert c["test"] == "mcnemar-exact"
        assert c["p_value"] == pytest.approx(_mcnemar(truth[a], truth[b]), rel=1e-9, abs=1e-300)


# --- percentages ------------------------------------------------------------------------


@pytest.mark.parametrize("style", ["{:d}%", "{:.1f} %"])
def test_percent_cells_in_a_long_csv_are_proportions(tmp_path, style):
    truth = _truth(30, 1)
    lines = ["model,item,score"] + [
        f"{m},q{i},{style.format(100 * v if style.startswith('{:d') else 100.0 * v)}"
        for m, vs in truth.items()
        for i, v in enumerate(vs)
    ]
    path = tmp_path / "pct.csv"
    path.write_text("\n".join(lines) + "\n")
    report = audit([str(path)], fail_on="never")
    _check(report, truth)
    assert any("read as proportions" in n for n in report.notes)


def test_percent_cells_in_a_parquet_file_are_proportions(tmp_path):
    """The note reads only the first values of the score column, here from a Parquet file."""
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    truth = _truth(30, 1)
    rows = [(m, f"q{i}", f"{100 * v:d}%") for m, vs in truth.items() for i, v in enumerate(vs)]
    table = pa.table({k: [r[j] for r in rows] for j, k in enumerate(("model", "item", "score"))})
    path = tmp_path / "pct.parquet"
    pq.write_table(table, path)
    report = audit([str(path)], fail_on="never")
    _check(report, truth)
    assert any("read as proportions" in n for n in report.notes)


def test_graded_percent_cells_keep_their_values(tmp_path):
    rows = [("A", 1, "56%"), ("A", 2, "40%"), ("B", 1, "56.0 %"), ("B", 2, "100%")]
    path = tmp_path / "graded.csv"
    path.write_text("model,item,score\n" + "".join(f"{m},{i},{s}\n" for m, i, s in rows))
    report = audit([str(path)], fail_on="never")
    got = {r["model"]: r for r in report.results["models"]}
    assert got["A"]["score"] == pytest.approx(0.48)
    assert got["B"]["score"] == pytest.approx(0.78)
    assert got["A"]["n_items"] == got["B"]["n_items"] == 2


def test_percent_cells_in_wide_columns_and_jsonl(tmp_path):
    truth = _truth(25, 2)
    wide = tmp_path / "wide.csv"
    wide.write_text(
        "item,"
        + ",".join(truth)
        + "\n"
        + "".join(
            f"q{i}," + ",".join(f"{100 * truth[m][i]}%" for m in truth) + "\n" for i in range(25)
        )
    )
    _check(audit([str(wide)], fail_on="never"), truth)
    jl = tmp_path / "rows.jsonl"
    jl.write_text(
        "".join(
            json.dumps({"model": m, "item": i, "score": f"{100 * v}%"}) + "\n"
            for m, vs in truth.items()
            for i, v in enumerate(vs)
        )
    )
    _check(audit([str(jl)], fail_on="never"), truth)


def test_percent_beside_plain_numbers_is_refused(tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_text("model,item,score\nA,1,56%\nA,2,0.4\nB,1,1\nB,2,0\n")
    with pytest.raises(InputError, match="56%"):
        audit([str(path)], fail_on="never")


# --- AlpacaEval: two models against one baseline ----------------------------------------


def _second_model(src: Path, dst: Path, name: str, seed: int) -> list[float | None]:
    """The real annotations with another model's preferences (same instructions, same
    baseline): what a second `alpaca_eval` run writes."""
    recs = json.loads(src.read_text(encoding="utf-8"))
    rnd = random.Random(seed)
    for r in recs:
        r["generator_2"] = name
        if r["preference"] is not None:
            r["preference"] = rnd.choice([1.0, 2.0])
    dst.parent.mkdir(parents=True)
    dst.write_text(json.dumps(recs, indent=2))
    return [r["preference"] for r in recs]


def test_two_alpacaeval_models_are_paired_by_instruction(tmp_path):
    real = PUBLIC / "alpaca-lmcocktail" / "annotations.json"
    a_dir = tmp_path / "results" / "LMCocktail-10.7B-v1" / "alpaca_eval_gpt4"
    a_dir.mkdir(parents=True)
    shutil.copy(real, a_dir / "annotations.json")
    b = _second_model(
        real,
        tmp_path / "results" / "other-7b" / "alpaca_eval_gpt4" / "annotations.json",
        "other-7b",
        3,
    )
    a = [r["preference"] for r in json.loads(real.read_text(encoding="utf-8"))]
    both = [(1.5 if x == 0 else x, y) for x, y in zip(a, b) if x is not None and y is not None]
    report = audit([str(tmp_path / "results")], fail_on="never")
    (row,) = report.results["preference_comparisons"]
    assert (row["a"], row["b"], row["baseline"]) == (
        "LMCocktail-10.7B-v1",
        "other-7b",
        "text_davinci_003",
    )
    assert row["items"] == len(both) == 31
    d = [x - y for x, y in both]
    assert row["diff"] == pytest.approx(sum(d) / len(d), abs=1e-6)
    assert (row["a_better"], row["b_better"]) == (sum(x > 0 for x in d), sum(x < 0 for x in d))
    # a draw (1.5) is graded, so the test is the sign-flip permutation of the mean
    assert row["test"] == "sign-flip-permutation"


def test_two_binary_alpacaeval_models_get_the_exact_mcnemar_test(tmp_path):
    real = PUBLIC / "alpaca-lmcocktail" / "annotations.json"
    prefs = []
    for name, seed in (("m-one", 5), ("m-two", 6)):
        prefs.append(
            _second_model(
                real, tmp_path / name / "alpaca_eval_gpt4" / "annotations.json", name, seed
            )
        )
    report = audit([str(tmp_path)], fail_on="never")
    (row,) = report.results["preference_comparisons"]
    x = [p - 1 for p in prefs[0] if p is not None]
    y = [p - 1 for p in prefs[1] if p is not None]
    assert row["items"] == 31 and row["test"] == "mcnemar-exact"
    first = row["a"] == "m-one"
    assert row["p_value"] == pytest.approx(_mcnemar(x, y) if first else _mcnemar(y, x), rel=1e-9)


def test_models_against_different_baselines_are_not_paired():
    report = audit(
        [
            str(PUBLIC / "alpaca-lmcocktail" / "annotations.json"),
            str(PUBLIC.parents[1] / "alpacaeval" / "results"),
        ],
        fail_on="never",
    )
    assert len(report.results["preferences"]) == 2
    assert not report.results.get("preference_comparisons")


# --- exports: pandas, Hugging Face datasets ---------------------------------------------


def test_pandas_to_csv_with_its_index_column(tmp_path):
    import pandas as pd

    truth = _truth(40, 7)
    df = pd.DataFrame(
        [
            {"model": m, "question_id": i, "correct": v}
            for m, vs in truth.items()
            for i, v in enumerate(vs)
        ]
    )
    path = tmp_path / "export.csv"
    df.to_csv(path)  # writes the unnamed index as the first column
    _check(audit([str(path)], fail_on="never"), truth)


def test_wide_file_with_metadata_columns(tmp_path):
    import pandas as pd

    truth = _truth(40, 8)
    rnd = random.Random(8)
    df = pd.DataFrame({"question_id": [f"q{i}" for i in range(40)], "subject": ["math"] * 40})
    df["n_tokens"] = [rnd.randint(20, 900) for _ in range(40)]
    df["latency_s"] = [round(rnd.random() * 3, 3) for _ in range(40)]
    for m, vs in truth.items():
        df[m] = vs
    path = tmp_path / "wide.csv"
    df.to_csv(path, index=False)
    _check(audit([str(path)], fail_on="never"), truth)


def test_jsonl_with_nested_fields(tmp_path):
    truth = _truth(30, 9)
    path = tmp_path / "nested.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {"model": m, "doc": {"id": i, "subset": "a"}, "result": {"correct": bool(v)}}
            )
            + "\n"
            for m, vs in truth.items()
            for i, v in enumerate(vs)
        )
    )
    report = audit(
        [str(path)], fail_on="never", columns={"item": "doc.id", "score": "result.correct"}
    )
    _check(report, truth)


def test_hf_datasets_parquet_of_per_item_results(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    truth = _truth(50, 10)
    rows = [
        {"model_name": m, "id": f"item-{i}", "is_correct": bool(v)}
        for m, vs in truth.items()
        for i, v in enumerate(vs)
    ]
    table = pa.Table.from_pylist(rows)
    path = tmp_path / "train-00000-of-00001.parquet"
    pq.write_table(table, path)
    _check(audit([str(path)], fail_on="never"), truth)


# --- real inspect_ai logs (JSON format, --limit, unscored) -------------------------------


def test_real_inspect_json_logs_pair_the_two_models():
    folder = PUBLIC / "inspect-json-and-limit"
    report = audit(
        [str(folder / "log_formats.json"), str(folder / "log_read_sample.json")], fail_on="never"
    )
    got = {r["model"]: (r["n_items"], r["score"]) for r in report.results["models"]}
    assert got == {"ollama/llama3.1": (1, 0.0), "ollama/gemma3": (1, 1.0)}
    (c,) = report.results["comparisons"]
    assert c["test"] == "mcnemar-exact"
    assert c["p_value"] == pytest.approx(float(binomtest(0, 1, 0.5).pvalue))


def test_real_inspect_eval_with_limit_reads_its_scores_and_flags_the_limit():
    import zipfile

    path = (
        PUBLIC
        / "inspect-json-and-limit"
        / ("2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval")
    )
    with zipfile.ZipFile(path) as z:
        samples = [json.loads(z.read(n)) for n in z.namelist() if n.startswith("samples/")]
    letters = [s["scores"]["match"]["value"] for s in samples]
    report = audit([str(path)], fail_on="never")
    (row,) = report.results["models"]
    assert (row["model"], row["task"], row["n_items"]) == ("openai/gpt-4o-mini", "popularity", 10)
    assert row["score"] == pytest.approx(letters.count("C") / len(letters)) == pytest.approx(0.8)
    assert any(f.name == "harness-limit" for f in report.findings)


def test_real_inspect_log_without_scores_is_an_input_error():
    folder = PUBLIC / "inspect-unscored"
    with pytest.raises(InputError, match="no sample carries a score"):
        audit([str(folder)], fail_on="never")


def test_two_completions_per_task_are_samples_not_partial_credit():
    """Real human-eval output with two completions per task: 216 of 328 passed over 164
    tasks; the task's pass rate is a mean over its samples, not partial credit."""
    folder = PUBLIC / "humaneval-one-folder"
    name = "hEvalTest35_noExp_1dPro_1CPT_500Tkns_2SPT_Samples"
    rows = [
        json.loads(line)
        for line in (folder / f"{name}.jsonl_results.jsonl").read_text().splitlines()
        if line.strip()
    ]
    report = audit([str(folder)], fail_on="never")
    got = {r["model"]: r for r in report.results["models"]}
    assert got[name]["n_items"] == len({r["task_id"] for r in rows}) == 164
    assert got[name]["score"] == pytest.approx(sum(bool(r["passed"]) for r in rows) / len(rows))
    assert not [f for f in report.findings if f.name == "partial-credit"]
    assert any(f.name == "generations-as-items" for f in report.findings)
