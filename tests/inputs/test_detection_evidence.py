"""Detection evidence in the JSON report, ``name`` as a model column, and two plausible
readings (of kinds or of column roles) refused with both named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.errors import InputError
from benchaudit.inputs import Reader, load, probe
from benchaudit.inputs._columns import is_task_name, names_tasks

ITEMS = [f"q{i}" for i in range(12)]
A = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1]
B = [0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0]


def _write(path: Path, header: str, rows: list[list[object]]) -> Path:
    path.write_text(header + "\n" + "\n".join(",".join(map(str, r)) for r in rows) + "\n")
    return path


def _two_models(path: Path, header: str, extra=lambda m, i: []) -> Path:
    rows = []
    for m, scores in (("m-a", A), ("m-b", B)):
        rows += [[m, q, s, *extra(m, i)] for i, (q, s) in enumerate(zip(ITEMS, scores))]
    return _write(path, header, rows)


def _json_report(*args: str) -> dict:
    got = CliRunner().invoke(main, ["check", *args, "--format", "json", "--fail-on", "never"])
    assert got.exit_code == 0, got.output
    return json.loads(got.output)


def _check(*args: str):
    return CliRunner().invoke(main, ["check", *args, "--fail-on", "never"])


# --- detection evidence ----------------------------------------------------------------


def test_json_report_holds_the_detection_of_each_per_item_source(tmp_path):
    p = _two_models(
        tmp_path / "runs.csv",
        "system,question_id,is_correct,latency_s",
        lambda m, i: [0.5 + i / 10],
    )
    rep = _json_report(str(p))
    (entry,) = rep["results"]["sources"]
    assert entry["file"] == str(p) and entry["kind"] == "results"
    det = entry["detection"]
    assert det["reader"] == "tabular" and det["layout"] == "long"
    assert det["roles"] == {"model": "system", "item": "question_id", "score": "is_correct"}
    assert det["value_types"] == {"system": "text", "question_id": "text", "is_correct": "0/1"}
    assert det["scale"] == "0/1" and det["forced"] is False and det["missing_cells"] == 0
    assert det["readings"][0] == {"kind": "results", "reader": "tabular", "score": 0.9}
    assert det["reason"].startswith("best detection score (0.90)")


def test_detection_names_forced_kind_and_columns(tmp_path):
    p = _two_models(tmp_path / "x.csv", "who,qid,verdict")
    rep = _json_report(
        str(p),
        "--kind",
        "results",
        "--column",
        "model=who",
        "--column",
        "item=qid",
        "--column",
        "score=verdict",
    )
    det = rep["results"]["sources"][0]["detection"]
    assert det["forced"] is True and det["reason"] == "--kind results: read by the tabular reader"
    assert det["named_columns"] == {"model": "who", "item": "qid", "score": "verdict"}
    assert det["roles"] == {"model": "who", "item": "qid", "score": "verdict"}


def test_wide_detection_lists_columns_left_out(tmp_path):
    rows = [[q, a, b, 100 + i] for i, (q, a, b) in enumerate(zip(ITEMS, A, B))]
    p = _write(tmp_path / "wide.csv", "item,m1,m2,n_tokens", rows)
    det = _json_report(str(p))["results"]["sources"][0]["detection"]
    assert det["layout"] == "wide" and det["left_out"] == {"n_tokens": "a token count"}


def test_rating_scale_is_in_the_detection(tmp_path):
    rows = [
        [m, q, 1 + (i * 7 + j) % 10]
        for j, m in enumerate(("m-a", "m-b"))
        for i, q in enumerate(ITEMS)
    ]
    p = _write(tmp_path / "ratings.csv", "model,question_id,score", rows)
    entry = _json_report(str(p))["results"]["sources"][0]
    assert entry["kind"] == "scaled-results" and entry["detection"]["scale"] == "1-10"


def test_calibration_input_gets_an_entry_too(tmp_path):
    rows = [[q, round(0.05 + 0.07 * i, 2), a] for i, (q, a) in enumerate(zip(ITEMS, A))]
    p = _write(tmp_path / "cal.csv", "item,confidence,correct", rows)
    (entry,) = _json_report(str(p))["results"]["sources"]
    assert entry["kind"] == "calibration" and entry["detection"]["reader"] == "calibration"
    assert entry["detection"]["reason"].startswith("best detection score (0.90)")


def test_text_and_markdown_reports_do_not_print_the_detection(tmp_path):
    p = _two_models(tmp_path / "runs.csv", "model,item,correct")
    for fmt in ("text", "markdown"):
        out = _check(str(p), "--format", fmt).output
        assert "readings" not in out and "Sources" not in out and "tabular" not in out


def test_documents_get_no_results_section(tmp_path):
    p = tmp_path / "README.md"
    p.write_text("# Model\n\nWe reach 87.3% on HumanEval.\n")
    assert "results" not in _json_report(str(p))


# --- name as a model column --------------------------------------------------------------


def test_name_column_of_model_names_is_the_model(tmp_path):
    rows = [[m, q, s] for m, sc in (("gpt-4o", A), ("llama-3-8b", B)) for q, s in zip(ITEMS, sc)]
    src = load(_write(tmp_path / "n.csv", "name,item,correct", rows), "n.csv", Context(Config()))[0]
    assert src.data.models == ["gpt-4o", "llama-3-8b"]


@pytest.mark.parametrize(
    "tasks", [("mmlu", "gsm8k"), ("mmlu_anatomy", "arc_easy"), ("gsm8k_cot", "leaderboard_ifeval")]
)
def test_name_column_of_task_names_is_not_a_model(tmp_path, tasks):
    rows = [[t, q, s] for t, sc in zip(tasks, (A, B)) for q, s in zip(ITEMS, sc)]
    p = _write(tmp_path / "t.csv", "name,item,correct", rows)
    with pytest.raises(InputError, match=r"column 'name' holds task names .*--column model="):
        load(p, "t.csv", Context(Config()))


def test_name_column_of_task_names_beside_a_model_column(tmp_path):
    rows = [
        [m, t, q, s]
        for m, sc in (("m-a", A), ("m-b", B))
        for t in ("mmlu", "gsm8k")
        for q, s in zip(ITEMS, sc)
    ]
    p = _write(tmp_path / "mt.csv", "model,name,item,correct", rows)
    src = load(p, "mt.csv", Context(Config()))[0]
    assert src.data.models == ["m-a", "m-b"]


def test_column_flag_makes_name_the_model_whatever_its_values(tmp_path):
    rows = [[t, q, s] for t, sc in (("mmlu", A), ("gsm8k", B)) for q, s in zip(ITEMS, sc)]
    p = _write(tmp_path / "t.csv", "name,item,correct", rows)
    src = load(p, "t.csv", Context(Config(columns={"model": "name"})))[0]
    assert src.data.models == ["mmlu", "gsm8k"]


def test_task_name_recognition():
    for v in ("MMLU", "hellaswag", "mmlu_high_school_physics", "leaderboard_ifeval", "gsm8k_cot"):
        assert is_task_name(v), v
    for v in ("gpt-4o", "llama-3-8b", "claude-3-5-sonnet", "mistral_7b_instruct", "model-a"):
        assert not is_task_name(v), v
    assert names_tasks(["mmlu", "gsm8k", "custom_task"]) and not names_tasks(
        ["gpt-4o", "llama-3-8b", "mmlu"]
    )


# --- two plausible column readings ------------------------------------------------------


def _ambiguous(path: Path, match: str) -> None:
    with pytest.raises(InputError, match=match) as exc:
        load(path, path.name, Context(Config()))
    assert "two readings are plausible" in str(exc.value)


def test_two_score_columns_that_differ_are_two_readings(tmp_path):
    p = _two_models(
        tmp_path / "s.csv", "model,item,correct,score", lambda m, i: [round(0.05 * i, 2)]
    )
    _ambiguous(p, r"--column score=correct or --column score=score")
    src = load(p, p.name, Context(Config(columns={"score": "score"})))[0]
    assert src.data.columns["score"] == "score"


def test_two_model_columns_that_group_differently_are_two_readings(tmp_path):
    rows = [
        [m, s, q, (i + j) % 2]
        for j, (m, s) in enumerate((("a", "x"), ("a", "y"), ("b", "x"), ("b", "y")))
        for i, q in enumerate(ITEMS)
    ]
    p = _write(tmp_path / "m.csv", "model,system,item,correct", rows)
    _ambiguous(p, r"--column model=model or --column model=system")
    src = load(p, p.name, Context(Config(columns={"model": "system"})))[0]
    assert src.data.models == ["x", "y"]


def test_two_item_columns_that_group_differently_are_two_readings(tmp_path):
    p = _two_models(
        tmp_path / "i.csv", "model,question_id,correct,example_id", lambda m, i: [f"e{i // 2}"]
    )
    # example_id pairs items up: fewer distinct values, a weaker fit, so no question.
    load(p, p.name, Context(Config()))
    # example_id as varied as question_id but not naming the same items in both runs.
    p = _two_models(
        tmp_path / "j.csv",
        "model,question_id,correct,example_id",
        lambda m, i: [f"e{(i + (m == 'm-b')) % 12}"],
    )
    _ambiguous(p, r"--column item=question_id or --column item=example_id")


def test_columns_that_read_alike_are_one_reading(tmp_path):
    # model_id naming the same runs as model, and a copy of the score: nothing to choose.
    p = _two_models(
        tmp_path / "same.csv",
        "model,item,correct,model_id,acc",
        lambda m, i: [m + "-v1", (A if m == "m-a" else B)[i]],
    )
    src = load(p, p.name, Context(Config()))[0]
    assert src.data.models == ["m-a", "m-b"]


def test_points_decide_the_score_beside_a_verdict(tmp_path):
    p = _two_models(
        tmp_path / "pts.csv", "model,item,correct,points,max_points", lambda m, i: [i % 3, 2]
    )
    load(p, p.name, Context(Config()))  # points with a maximum: no rival reading


def test_cli_exit_2_names_both_readings(tmp_path):
    p = _two_models(
        tmp_path / "s.csv", "model,item,correct,score", lambda m, i: [round(0.05 * i, 2)]
    )
    got = _check(str(p))
    assert got.exit_code == 2 and "--column score=correct or --column score=score" in got.output


# --- two plausible kinds ---------------------------------------------------------------


def _reader(kind: str, score: float, name: str) -> Reader:
    def read(path, display, ctx):  # pragma: no cover - never reached
        raise AssertionError

    read.__module__ = f"benchaudit.inputs.{name}"
    return Reader(kind=kind, sniff=lambda p: score, read=read, description=name)


@pytest.mark.parametrize(
    ("scores", "ambiguous"),
    [
        ((0.9, 0.88), True),
        ((0.9, 0.86), True),
        ((0.9, 0.85), False),  # the margin is exclusive
        ((0.9, 0.6), False),
        ((0.22, 0.21), False),  # neither plausible enough to compete
        ((0.3, 0.3), True),  # a tie of two weak readings is no choice either
        ((0.6, 0.57), True),
    ],
)
def test_margin_between_kinds(monkeypatch, tmp_path, scores, ambiguous):
    from benchaudit import inputs

    fake = [_reader("leaderboard", scores[0], "boards"), _reader("results", scores[1], "tabular")]
    monkeypatch.setattr(inputs, "_READERS", fake)
    p = tmp_path / "x.csv"
    p.write_text("a,b\n1,2\n")
    pr = probe(p, "x.csv")
    if ambiguous:
        with pytest.raises(InputError, match=r"--kind leaderboard or --kind results"):
            inputs.detect(pr, "x.csv")
    else:
        assert inputs.detect(pr, "x.csv").kind == "leaderboard"
    # --kind chooses, and is never refused as ambiguous.
    assert inputs.detect(probe(p, "x.csv"), "x.csv", forced="results").kind == "results"


def test_two_readers_of_one_kind_are_not_two_readings(monkeypatch, tmp_path):
    from benchaudit import inputs

    fake = [_reader("results", 0.9, "helm"), _reader("results", 0.9, "tabular")]
    monkeypatch.setattr(inputs, "_READERS", fake)
    p = tmp_path / "x.json"
    p.write_text("[]")
    assert inputs.detect(probe(p, "x.json"), "x.json").kind == "results"


# --- no real fixture is ambiguous ---------------------------------------------------------

ROOTS = [Path(__file__).parents[1] / "data" / "harness", Path("/work/shared/realdata")]
SKIP_SUFFIXES = {".md", ".py", ".yaml", ".gz", ".npy"}


def _real_files() -> list[Path]:
    out = []
    for root in ROOTS:
        if root.is_dir():
            out += [
                f for f in sorted(root.rglob("*")) if f.is_file() and f.suffix not in SKIP_SUFFIXES
            ]
    return out


def test_no_real_fixture_has_two_plausible_readings():
    files = _real_files()
    assert len(files) > 40
    ambiguous = []
    for f in files:
        try:
            load(f, str(f), Context(Config()))
        except InputError as exc:
            if "two readings" in str(exc) or "holds task names" in str(exc):
                ambiguous.append(f"{f}: {exc}")
    assert not ambiguous, "\n".join(ambiguous)


# --- guesses made explicit -------------------------------------------------------------


def test_unknown_result_word_in_a_samples_file_is_an_error(tmp_path):
    p = tmp_path / "s_results.jsonl"
    recs = [{"task_id": "t/0", "result": "passed"}, {"task_id": "t/0", "result": "skipped"}]
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    with pytest.raises(InputError, match=r"cannot read 'skipped' as pass/fail") as exc:
        load(p, p.name, Context(Config()))
    assert exc.value.line == 2
    recs[1]["result"] = "failed: AssertionError"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    data = load(p, p.name, Context(Config()))[0].data
    assert list(data.n) == [2] and list(data.c) == [1]


def test_second_counts_row_for_a_problem_is_an_error(tmp_path):
    p = _write(
        tmp_path / "counts.csv", "task_id,n,c", [["t0", 10, 3], ["t1", 10, 4], ["t0", 10, 5]]
    )
    with pytest.raises(
        InputError, match=r"problem 't0' has a second \(n, c\) row \(first at line 2\)"
    ):
        load(p, p.name, Context(Config()))


def _helm_entry(iid: str, split: str, em: float) -> dict:
    stat = {"count": 1, "sum": em, "mean": em}
    return {
        "instance_id": iid,
        "train_trial_index": 0,
        "stats": [
            {"name": {"name": "exact_match", "split": split}, **stat},
            {"name": {"name": "quasi_exact_match", "split": split}, **stat},
        ],
    }


def test_helm_split_and_metric_choices_are_said(tmp_path):
    run = tmp_path / "mmlu:subject=anatomy,model=org_m"
    run.mkdir()
    entries = [_helm_entry(f"id{i}", "test", float(i % 2)) for i in range(5)]
    entries += [_helm_entry(f"v{i}", "valid", 1.0) for i in range(2)]
    (run / "per_instance_stats.json").write_text(json.dumps(entries))
    ctx = Context(Config())
    (src,) = load(run / "per_instance_stats.json", "p.json", ctx)
    assert len(src.data.items) == 5
    assert any(
        "split 'test' read; other split(s) left out: valid (4 stats)" in n for n in src.notes
    )
    assert any(
        "score is exact_match; the file also holds quasi_exact_match" in n for n in src.notes
    )
    assert not any("left out" in n and "without" in n for n in src.notes)


def test_name_column_of_one_task_in_a_samples_file_is_not_a_model(tmp_path):
    p = tmp_path / "s.jsonl"
    recs = [
        {"name": "humaneval", "task_id": f"HumanEval/{i}", "passed": (i + j) % 3 == 0}
        for i in range(4)
        for j in range(3)
    ]
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    src = load(p, p.name, Context(Config()))[0]
    assert src.kind == "samples" and list(src.data.n) == [3, 3, 3, 3]
    assert list(src.data.c) == [1, 1, 1, 1]
