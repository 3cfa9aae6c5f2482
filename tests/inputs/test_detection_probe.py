"""Detection of per-item files: each shape the issue lists as read wrongly, refused, or
with a flag ignored, and what it reads as now."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs import delimiter_of, detect, load, probe

ITEMS = [f"q{i}" for i in range(12)]
#: Deterministic 0/1 outcomes of two models on ITEMS.
A = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1]
B = [0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0]


def _long_rows(header: str, sep: str = ",", a: str = "a", b: str = "b", fmt=str) -> str:
    rows = [header]
    for model, scores in ((a, A), (b, B)):
        rows += [sep.join([model, q, fmt(s)]) for q, s in zip(ITEMS, scores)]
    return "\n".join(rows) + "\n"


def _load(path: Path, **cfg):
    got = load(path, path.name, Context(config=Config(**cfg)))
    assert len(got) == 1
    return got[0]


def _results(path: Path, **cfg):
    src = _load(path, **cfg)
    assert src.kind == "results", src.kind
    return src.data


def _models_and_means(rs) -> dict[str, float]:
    if getattr(rs, "numpy_free", False):  # a small 0/1 file is held in lists: its arrays
        rs = rs.to_resultset()
    out = {}
    for j, m in enumerate(rs.models):
        rows = rs.model.codes == j
        out[m] = round(float(rs.score[rows].astype(float).mean()), 9)
    return out


WANT = {"a": round(sum(A) / 12, 9), "b": round(sum(B) / 12, 9)}


def _cli(*args: str):
    return CliRunner().invoke(main, ["check", *args])


# --- silent wrong answers ------------------------------------------------------------------


def test_system_question_id_is_correct_is_two_models_not_passk_samples(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text(_long_rows("system,question_id,is_correct", a="sysA", b="sysB"))
    rs = _results(p)
    assert _models_and_means(rs) == {"sysA": WANT["a"], "sysB": WANT["b"]}


def test_wide_file_counts_and_latencies_are_not_models(tmp_path):
    p = tmp_path / "wide.csv"
    rows = ["item,m1,m2,n_tokens,latency_s,prompt_len"]
    rows += [
        f"{q},{a},{b},{100 + 7 * i},{0.5 + i / 10:.2f},{40 + i}"
        for i, (q, a, b) in enumerate(zip(ITEMS, A, B))
    ]
    p.write_text("\n".join(rows) + "\n")
    src = _load(p)
    assert src.data.models == ["m1", "m2"]
    left = src.meta["left_out"]
    assert left["n_tokens"] == "a token count" and left["latency_s"] == "a time"
    assert left["prompt_len"] == "a length"


def test_wide_columns_on_another_scale_are_left_out(tmp_path):
    p = tmp_path / "wide.csv"
    rows = ["item,m1,m2,m3,m4"]
    rows += [f"{q},{a},{b},{a},{37 + i}" for i, (q, a, b) in enumerate(zip(ITEMS, A, B))]
    p.write_text("\n".join(rows) + "\n")
    src = _load(p)
    assert src.data.models == ["m1", "m2", "m3"]
    assert "another scale" in src.meta["left_out"]["m4"]


def test_model_column_spelled_llm(tmp_path):
    p = tmp_path / "long.csv"
    rows = ["llm,item,correct,latency_s"]
    for model, scores in (("a", A), ("b", B)):
        rows += [
            f"{model},{q},{s},{1.5 + i / 7:.3f}" for i, (q, s) in enumerate(zip(ITEMS, scores))
        ]
    p.write_text("\n".join(rows) + "\n")
    rs = _results(p)
    assert rs.layout == "long" and _models_and_means(rs) == WANT


@pytest.mark.parametrize("spelling", ["agent", "checkpoint", "model_name", "name", "system"])
def test_model_column_spellings(tmp_path, spelling):
    p = tmp_path / "long.csv"
    p.write_text(_long_rows(f"{spelling},item,correct"))
    assert _models_and_means(_results(p)) == WANT


@pytest.mark.parametrize(
    "score, values",
    [
        ("correct", ("1", "0")),
        ("is_correct", ("true", "false")),
        ("acc", ("1.0", "0.0")),
        ("passed", ("True", "False")),
        ("success", ("yes", "no")),
        ("result", ("PASS", "FAIL")),
        ("verdict", ("Correct", "Incorrect")),
        ("score", ("1", "0")),
    ],
)
def test_score_spellings_and_verdict_words(tmp_path, score, values):
    p = tmp_path / "long.csv"
    p.write_text(_long_rows(f"model,item,{score}", fmt=lambda s: values[0] if s else values[1]))
    assert _models_and_means(_results(p)) == WANT


def test_nested_result_correct_is_the_score_not_a_model(tmp_path):
    p = tmp_path / "runs.jsonl"
    lines = [
        json.dumps({"model": m, "item": q, "result": {"correct": bool(s), "tokens": 12}})
        for m, scores in (("a", A), ("b", B))
        for q, s in zip(ITEMS, scores)
    ]
    p.write_text("\n".join(lines) + "\n")
    rs = _results(p)
    assert _models_and_means(rs) == WANT and rs.columns["score"] == "result.correct"


def test_nested_scores_name_value(tmp_path):
    p = tmp_path / "runs.jsonl"
    lines = [
        json.dumps({"model": m, "id": q, "scores": {"match": {"value": s, "answer": "x"}}})
        for m, scores in (("a", A), ("b", B))
        for q, s in zip(ITEMS, scores)
    ]
    p.write_text("\n".join(lines) + "\n")
    assert _models_and_means(_results(p)) == WANT


def test_two_nested_scores_are_two_readings(tmp_path):
    p = tmp_path / "runs.jsonl"
    lines = [
        json.dumps({"model": m, "id": q, "scores": {"match": {"value": s}, "judge": {"value": 1}}})
        for m, scores in (("a", A), ("b", B))
        for q, s in zip(ITEMS, scores)
    ]
    p.write_text("\n".join(lines) + "\n")
    result = _cli(str(p))
    assert result.exit_code == 2
    assert "scores.match.value" in result.stderr and "--column score=" in result.stderr
    assert _cli(str(p), "--column", "score=scores.match.value").exit_code in (0, 1)


def test_prob_as_problem_id_is_not_calibration(tmp_path):
    p = tmp_path / "runs.csv"
    rows = ["model,prob,correct"]
    rows += [f"{m},{i},{s}" for m, scores in (("a", A), ("b", B)) for i, s in enumerate(scores)]
    p.write_text("\n".join(rows) + "\n")
    assert _models_and_means(_results(p)) == WANT


def test_model_task_score_with_0_1_scores_is_per_item(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text(_long_rows("Model,Task,Score", a="m-a", b="m-b"))
    assert _models_and_means(_results(p)) == {"m-a": WANT["a"], "m-b": WANT["b"]}


def test_model_task_graded_scores_name_both_readings(tmp_path):
    p = tmp_path / "board.csv"
    rows = [
        "Model,Task,Score",
        "m-a,mmlu,71.5",
        "m-a,gsm8k,66.8",
        "m-b,mmlu,61.5",
        "m-b,gsm8k,56.8",
    ]
    p.write_text("\n".join(rows) + "\n")
    result = _cli(str(p))
    assert result.exit_code == 2 and "--kind results" in result.stderr
    assert "--kind leaderboard" in result.stderr
    assert _cli(str(p), "--kind", "leaderboard").exit_code in (0, 1)
    assert _cli(str(p), "--kind", "results").exit_code in (0, 1)


def test_items_repeating_beside_an_unnamed_column_ask_which_role(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text(_long_rows("who,qid,verdict"))
    result = _cli(str(p))
    assert result.exit_code == 2 and "--column model=who" in result.stderr


# --- flags ignored -------------------------------------------------------------------------


def test_readme_column_flags_are_honoured(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text(_long_rows("who,qid,verdict"))
    cols = {"model": "who", "item": "qid", "score": "verdict"}
    assert _models_and_means(_results(p, columns=cols)) == WANT
    args = ["--column", "model=who", "--column", "item=qid", "--column", "score=verdict"]
    result = _cli(str(p), *args, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    models = {r["model"]: r["score"] for r in json.loads(result.stdout)["results"]["models"]}
    assert models == pytest.approx(WANT)


def test_columns_in_configuration_are_honoured(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text(_long_rows("who,qid,verdict"))
    cfg = tmp_path / "pyproject.toml"
    cfg.write_text(
        '[tool.benchaudit]\ncolumns = {model = "who", item = "qid", score = "verdict"}\n'
    )
    result = _cli(str(p), "--config", str(cfg), "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    assert {r["model"] for r in json.loads(result.stdout)["results"]["models"]} == {"a", "b"}


def test_kind_results_uses_the_reader_of_the_file_format(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text("who,qid,verdict\na,q1,1\na,q2,0\n")
    spec = detect(probe(p, p.name), p.name, forced="results")
    assert spec.read.__module__.endswith(".tabular")
    result = _cli(str(p), "--kind", "results")
    assert result.exit_code in (0, 1) and "invalid JSON" not in result.stderr
    other = tmp_path / "other.csv"
    other.write_text("x,y\n1,2\n")
    result = _cli(str(other), "--kind", "results")
    assert result.exit_code == 2 and "--column ROLE=NAME" in result.stderr


def test_unknown_baseline_model_is_an_error_listing_models(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text(_long_rows("model,item,correct"))
    result = _cli(str(p), "--baseline-model", "c")
    assert result.exit_code == 2
    assert "'c'" in result.stderr and "'a', 'b'" in result.stderr
    assert _cli(str(p), "--baseline-model", "b").exit_code in (0, 1)


# --- refused for no reason -----------------------------------------------------------------


def test_benchmark_items_with_numeric_ids_and_answers(tmp_path):
    p = tmp_path / "test.jsonl"
    lines = [
        json.dumps({"id": i, "question": f"What is {i}+{i}?", "answer": 2 * i}) for i in range(20)
    ]
    p.write_text("\n".join(lines) + "\n")
    assert _load(p).kind == "benchmark-items"


def test_json_record_array(tmp_path):
    p = tmp_path / "runs.json"
    recs = [
        {"model": m, "item": q, "correct": s}
        for m, sc in (("a", A), ("b", B))
        for q, s in zip(ITEMS, sc)
    ]
    p.write_text(json.dumps(recs, indent=1))
    assert _models_and_means(_results(p)) == WANT


@pytest.mark.parametrize("sep", [";", "\t", "|"])
def test_separator_sniffed_from_content(tmp_path, sep):
    p = tmp_path / "runs.csv"
    p.write_text(_long_rows(sep.join(["model", "item", "correct"]), sep=sep))
    assert _models_and_means(_results(p)) == WANT


def test_semicolon_file_with_decimal_commas_keeps_semicolons():
    text = "model;item;score\na;q1;0,5\na;q2;1,0\n"
    assert delimiter_of(text, ".csv") == ";"
    assert delimiter_of("a,b\n1,2\n", ".csv") == ","
    assert delimiter_of("a\tb\n1\t2\n", ".tsv") == "\t"


def test_wide_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "wide.parquet"
    pq.write_table(pa.table({"item": ITEMS, "a": A, "b": B, "n_tokens": list(range(12))}), p)
    src = _load(p)
    assert src.data.layout == "wide" and _models_and_means(src.data) == WANT


@pytest.mark.parametrize("name", ["runs.csv.gz", "runs.jsonl.gz", "runs.json.gz"])
def test_gzipped_inputs(tmp_path, name):
    recs = [
        {"model": m, "item": q, "correct": s}
        for m, sc in (("a", A), ("b", B))
        for q, s in zip(ITEMS, sc)
    ]
    if name.startswith("runs.csv"):
        text = _long_rows("model,item,correct")
    elif name.startswith("runs.jsonl"):
        text = "\n".join(json.dumps(r) for r in recs) + "\n"
    else:
        text = json.dumps(recs)
    p = tmp_path / name
    p.write_bytes(gzip.compress(text.encode()))
    src = _load(p)
    assert src.path == name and _models_and_means(src.data) == WANT
    assert p.read_bytes()[:2] == b"\x1f\x8b"  # the input is never written


def test_gzip_bomb_stops_at_the_cap(tmp_path):
    p = tmp_path / "bomb.csv.gz"
    p.write_bytes(gzip.compress(b"model,item,correct\n" + b"a,q,1\n" * 600_000))
    result = _cli(str(p), "--config", str(_cfg(tmp_path, "max-decompressed-mb = 1")))
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "bomb.csv.gz" in result.stderr and "max-decompressed-mb" in result.stderr


def _cfg(tmp_path: Path, line: str) -> Path:
    cfg = tmp_path / "pyproject.toml"
    cfg.write_text(f"[tool.benchaudit]\n{line}\n")
    return cfg


def test_missing_and_na_cells_are_counted_not_fatal(tmp_path):
    p = tmp_path / "runs.csv"
    text = _long_rows("model,item,correct").replace("a,q3,1", "a,q3,NA").replace("b,q5,1", "b,q5,")
    p.write_text(text)
    ctx = Context(config=Config())
    (src,) = load(p, p.name, ctx)
    rs = src.data
    assert rs.n_rows == 22 and rs.meta["missing_cells"] == 2
    assert any("2 missing score cell(s)" in n and "line 5" in n for n in src.notes)


def test_na_in_a_wide_file_is_counted(tmp_path):
    p = tmp_path / "wide.csv"
    rows = ["item,m1,m2"] + [
        f"{q},{a},{'NA' if i == 2 else b}" for i, (q, a, b) in enumerate(zip(ITEMS, A, B))
    ]
    p.write_text("\n".join(rows) + "\n")
    rs = _results(p)
    assert rs.n_rows == 23 and rs.meta["missing_cells"] == 1


def test_a_gzipped_one_model_file_is_named_without_its_extensions(tmp_path):
    p = tmp_path / "run7.csv.gz"
    p.write_bytes(gzip.compress(b"item,correct\nq1,1\nq2,0\n"))
    assert _results(p).models == ["run7"]


@pytest.mark.parametrize(
    "name", ["gpt-4o", "llama-3-8b", "qwen2-7b", "Mistral-7B-Instruct-v0.2", "yi-34b-200k", "nous"]
)
def test_real_model_names_are_never_taken_for_counts_or_times(name):
    from benchaudit.inputs._columns import not_output

    assert not_output(name) is None


@pytest.mark.parametrize(
    "name",
    ["n_tokens", "output_tokens", "latency_s", "tstamp", "duration_ms", "num_calls", "cost_usd"],
)
def test_counts_times_and_costs_are_not_model_columns(name):
    from benchaudit.inputs._columns import not_output

    assert not_output(name) is not None
