"""Readers of harness output: lm-eval results and samples, inspect_ai logs, HELM, nested JSON.

Fixtures live in tests/data/harness (see its PROVENANCE.md); the hand-built ones are
written by tests/data/harness/make_fixtures.py with values chosen to be checked by hand.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.errors import InputError
from benchaudit.inputs import (
    detect,
    helm,
    inspect_log,
    lmeval_results,
    lmeval_samples,
    nested_json,
    probe,
)
from benchaudit.inputs import load as load_sources
from benchaudit.inputs.lmeval_results import HarnessSummary, parse_size

DATA = Path(__file__).parents[1] / "data" / "harness"
STAMP = "2024-05-14T10-22-33.123456"
LMEVAL = DATA / "lmeval" / "EleutherAI__pythia-160m"
INSPECT_EVAL = DATA / "inspect" / "2024-09-02T11-04-12+00-00_gpqa-diamond_JqS2mM3.eval"
INSPECT_JSON = INSPECT_EVAL.with_suffix(".json")
HELM_RUN = DATA / "helm" / "mmlu_subject=anatomy,method=multiple_choice_joint,model=openai_gpt2"
GSM8K = DATA / "gsm8k_example_model_solutions.jsonl"


def ctx(**columns: str) -> Context:
    return Context(config=Config(columns=dict(columns)))


def read_one(path: Path, context: Context | None = None):
    got = load_sources(path, path.as_posix(), context or ctx())
    assert len(got) == 1
    return got[0]


def reader_module(path: Path) -> str:
    spec = detect(probe(path, path.as_posix()), path.as_posix())
    return spec.read.__module__.rsplit(".", 1)[-1]


# --------------------------------------------------------------------------- detection


@pytest.mark.parametrize(
    "path, module",
    [
        (LMEVAL / f"results_{STAMP}.json", "lmeval_results"),
        (DATA / "lmeval" / "full" / "results_2024-06-01T09-00-00.000000.json", "lmeval_results"),
        (DATA / "pythia" / "12b_step143000.json", "lmeval_results"),
        (LMEVAL / f"samples_arc_easy_{STAMP}.jsonl", "lmeval_samples"),
        (LMEVAL / f"samples_gsm8k_{STAMP}.jsonl", "lmeval_samples"),
        (INSPECT_EVAL, "inspect_log"),
        (INSPECT_JSON, "inspect_log"),
        (HELM_RUN / "per_instance_stats.json", "helm"),
        (GSM8K, "nested_json"),
    ],
)
def test_each_harness_file_goes_to_its_reader(path, module):
    assert reader_module(path) == module


@pytest.mark.parametrize(
    "name, text",
    [
        ("scores.jsonl", '{"model": "a", "item": "q1", "score": 1}\n'),
        ("scores.csv", "model,item,score\na,q1,1\n"),
        ("items.json", '[{"model": "a", "item": "q1", "correct": true}]'),
        ("results.json", '{"results": [1, 2, 3]}'),
        ("notes.jsonl", '{"doc_id": 3, "text": "hello"}\n'),
        ("one.jsonl", '{"question": "q", "meta": {"score": 0.5}}\n'),
    ],
)
def test_generic_files_are_not_claimed_by_harness_readers(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    p = probe(path, name)
    for module in (lmeval_results, lmeval_samples, inspect_log, helm, nested_json):
        assert module.READER.sniff(p) == 0.0, module.__name__


# --------------------------------------------------------------------------- lm-eval results


@pytest.mark.parametrize(
    "text, size",
    [
        ("pythia-1.4b", 1.4e9),
        ("12b_step143000.json", 1.2e10),
        ("1b-bf16_step143000.json", 1e9),
        ("70m-5shot_step143000.json", 7e7),
        ("pretrained=EleutherAI/pythia-v1.1-160m,revision=step143000", 1.6e8),
        ("meta-llama/Llama-2-7b-hf", 7e9),
        ("Qwen/Qwen2.5-0.5B-Instruct", 5e8),
        ("mistralai/Mixtral-8x7B-v0.1", None),
        ("gpt2", None),
        ("bert-base-uncased", None),
        (None, None),
    ],
)
def test_parse_size(text, size):
    assert parse_size(text) == size


@given(st.integers(1, 999), st.sampled_from(["m", "M", "b", "B", "t"]), st.sampled_from("-_/"))
def test_parse_size_reads_any_plain_size(number, unit, sep):
    scale = {"m": 1e6, "b": 1e9, "t": 1e12}[unit.lower()]
    assert parse_size(f"org{sep}model{sep}{number}{unit}") == pytest.approx(number * scale)


def test_pythia_legacy_results():
    sizes = {}
    for name, size, lambada_acc, ppl in [
        ("70m", 7e7, 0.185, 142.4),
        ("1.4b", 1.4e9, 0.616, 6.09),
        ("12b", 1.2e10, 0.705, 3.92),
    ]:
        src = read_one(DATA / "pythia" / f"{name}_step143000.json")
        assert src.kind == "harness-summary"
        s: HarnessSummary = src.data
        assert s.layout == "legacy"
        assert s.model == f"EleutherAI/pythia-v1.1-{name}"
        assert s.revision == "step143000"
        assert s.size_params == pytest.approx(size)
        assert s.num_fewshot == 0 and s.limit is None
        lam = s.tasks["lambada_openai"]
        assert round(lam.metrics["acc"], 3) == lambada_acc
        assert lam.metric("ppl") == pytest.approx(ppl, abs=0.05)
        # The legacy harness's stderr is the sample SD over the 5,153 LAMBADA items / sqrt(n).
        acc = lam.metrics["acc"]
        assert lam.stderr["acc"] == pytest.approx((acc * (1 - acc) / 5152) ** 0.5, rel=1e-6)
        assert lam.n is None  # legacy files do not say how many items
        assert len([t for t in s.tasks if t.startswith("hendrycksTest-")]) == 57
        # Every metric value is a number seen, and a claim with its task and model.
        assert src.numbers_seen == sum(len(t.metrics) for t in s.tasks.values())
        claim = next(
            c for c in src.claims if c.benchmark == "lambada_openai" and c.fields["metric"] == "acc"
        )
        assert claim.model == s.model and claim.line == lam.line
        assert src.lines[claim.line - 1].strip().startswith('"lambada_openai"')
        sizes[name] = s.size_params
    assert sizes["70m"] < sizes["1.4b"] < sizes["12b"]


def test_v04_results_limit_run():
    src = read_one(LMEVAL / f"results_{STAMP}.json")
    s = src.data
    assert s.layout == "v0.4" and s.harness_version == "0.4.2"
    assert s.model == "EleutherAI/pythia-160m" and s.size_params == pytest.approx(1.6e8)
    assert s.limit == 10
    assert s.line_of_limit is not None
    assert '"limit": 10' in src.lines[s.line_of_limit - 1]
    arc, gsm = s.tasks["arc_easy"], s.tasks["gsm8k"]
    assert arc.metrics == {"acc": 0.7, "acc_norm": 0.6}
    assert arc.stderr["acc"] == pytest.approx((0.21 / 9) ** 0.5)
    assert (arc.n_original, arc.n_effective, arc.n) == (2376, 10, 10)
    assert arc.num_fewshot == 0 and gsm.num_fewshot == 5
    assert arc.alias == "arc_easy" and arc.version == "1.0"
    assert arc.higher_is_better == {"acc": True, "acc_norm": True}
    assert gsm.metric("exact_match", "strict-match") == 0.3
    assert gsm.metrics["exact_match,flexible-extract"] == 0.4
    assert gsm.stderr["exact_match,flexible-extract"] is None  # "N/A"
    assert s.value("gsm8k", "exact_match", "strict-match") == 0.3
    assert s.value("nope", "acc") is None
    claims = {(c.benchmark, c.fields["metric"]): c for c in src.claims}
    assert claims[("arc_easy", "acc")].n == 10
    assert claims[("gsm8k", "exact_match,flexible-extract")].fields["stderr"] is None


def test_model_from_model_name_then_file_name(tmp_path):
    doc = {
        "results": {"piqa": {"acc,none": 0.6}},
        "n-samples": {"piqa": {"original": 5}},
        "model_name": "org/tiny-350m",
        "config": {"model": "hf", "model_args": {}},
    }
    path = tmp_path / "results_x.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    s = read_one(path).data
    assert s.model == "org/tiny-350m" and s.size_params == pytest.approx(3.5e8)
    del doc["model_name"]
    path = tmp_path / "results_2.8b_run.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    s = read_one(path).data
    assert s.model == "2.8b_run" and s.size_params == pytest.approx(2.8e9)


def test_groups_section_and_na_group_stderr(tmp_path):
    doc = {
        "results": {
            "bbh_date": {"alias": "Date", "acc_norm,none": 0.5, "acc_norm_stderr,none": 0.1}
        },
        "groups": {
            "leaderboard_bbh": {"alias": "BBH", "acc_norm,none": 0.5, "acc_norm_stderr,none": "N/A"}
        },
        "group_subtasks": {"leaderboard_bbh": ["bbh_date"]},
        "n-samples": {"bbh_date": {"original": 250, "effective": 250}},
        "config": {"model_args": "pretrained=x/y-1b", "limit": None},
    }
    path = tmp_path / "results_2024.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    s = read_one(path).data
    assert s.tasks["leaderboard_bbh"].is_group
    assert s.tasks["leaderboard_bbh"].stderr == {"acc_norm": None}
    assert not s.tasks["bbh_date"].is_group


# --------------------------------------------------------------------------- lm-eval samples


def test_lmeval_samples_single_filter():
    src = read_one(LMEVAL / f"samples_arc_easy_{STAMP}.jsonl")
    rs = src.data
    assert src.kind == "results"
    assert rs.models == ["EleutherAI/pythia-160m"]
    assert rs.items == [str(i) for i in range(10)]
    assert rs.score.mean() == pytest.approx(0.7)
    assert rs.binary and rs.variant is None and rs.sample is None
    assert rs.columns == {"model": "results json", "item": "doc_id", "score": "acc"}
    assert rs.meta["metric"] == "acc" and rs.meta["other_metrics"] == {"acc_norm": 0.6}
    assert (rs.meta["n_original"], rs.meta["n_effective"], rs.meta["limit"]) == (2376, 10, 10)
    assert rs.line_of(0) == 1 and rs.line_of(9) == 10


def test_lmeval_samples_score_column_picks_acc_norm():
    rs = read_one(LMEVAL / f"samples_arc_easy_{STAMP}.jsonl", ctx(score="acc_norm")).data
    assert rs.score.mean() == pytest.approx(0.6) and rs.columns["score"] == "acc_norm"
    with pytest.raises(InputError, match="no metric 'bleu'"):
        read_one(LMEVAL / f"samples_arc_easy_{STAMP}.jsonl", ctx(score="bleu"))


def test_lmeval_samples_two_filters_are_kept_apart():
    rs = read_one(LMEVAL / f"samples_gsm8k_{STAMP}.jsonl").data
    assert rs.n_rows == 20 and len(rs.items) == 10
    assert rs.models == [
        "EleutherAI/pythia-160m [strict-match]",
        "EleutherAI/pythia-160m [flexible-extract]",
    ]
    assert rs.variant.labels == ["strict-match", "flexible-extract"]
    means = [rs.score[rs.model.codes == m].mean() for m in range(2)]
    assert means == pytest.approx([0.3, 0.4])


def test_lmeval_samples_model_from_folder_then_file(tmp_path):
    src_file = LMEVAL / f"samples_arc_easy_{STAMP}.jsonl"
    folder = tmp_path / "Qwen__Qwen2.5-0.5B"
    folder.mkdir()
    shutil.copy(src_file, folder / src_file.name)
    rs = read_one(folder / src_file.name).data
    assert rs.models == ["Qwen/Qwen2.5-0.5B"] and rs.columns["model"] == "folder"
    assert rs.meta["task"] == "arc_easy"
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy(src_file, plain / src_file.name)
    src = read_one(plain / src_file.name, ctx())
    rs = src.data
    assert rs.models == [src_file.name] and rs.columns["model"] == "file name"
    assert any("no results_*.json" in n for n in src.notes)


def test_task_and_stamp():
    assert lmeval_samples.task_and_stamp(f"samples_arc_challenge_{STAMP}.jsonl") == (
        "arc_challenge",
        STAMP,
    )
    assert lmeval_samples.task_and_stamp("samples_mmlu_anatomy.jsonl") == ("mmlu_anatomy", None)


# --------------------------------------------------------------------------- inspect


def _same(a, b) -> None:
    assert a.models == b.models and a.items == b.items
    np.testing.assert_array_equal(a.score, b.score)
    np.testing.assert_array_equal(a.sample.codes, b.sample.codes)


def test_inspect_eval_and_json_agree():
    rz = read_one(INSPECT_EVAL).data
    rj = read_one(INSPECT_JSON).data
    _same(rz, rj)
    assert rz.models == ["openai/gpt-4o-mini"]
    assert rz.items == ["q1", "q2", "q3", "q4", "q5"]
    assert rz.n_rows == 10 and rz.sample.labels == ["1", "2"]
    # C C I C C / C C P I C over two epochs: 6.5 of 10; P is half credit.
    assert rz.score.sum() == pytest.approx(6.5)
    assert not rz.binary
    assert rz.meta["task"] == "gpqa_diamond" and rz.meta["metric"] == "choice"
    assert rz.meta["epochs"] == 2 and rz.meta["n_original"] == 5


@pytest.mark.parametrize(
    "value, expected",
    [
        ("C", 1.0),
        ("I", 0.0),
        ("P", 0.5),
        ("N", 0.0),
        ("c", 1.0),
        (True, 1.0),
        (False, 0.0),
        (0.25, 0.25),
        (3, 3.0),
        ("0.75", 0.75),
        ("maybe", None),
        ([1], None),
        (None, None),
    ],
)
def test_inspect_score_values(value, expected):
    assert inspect_log.letter_or_number(value) == expected


def test_inspect_crashed_log_and_unscored_samples(tmp_path):
    header = json.loads(INSPECT_JSON.read_text(encoding="utf-8"))
    samples = header.pop("samples")
    errored = dict(samples[1], scores=None, error={"message": "timeout"})
    path = tmp_path / "crashed.eval"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(
            "_journal/start.json",
            json.dumps({"version": 2, "eval": header["eval"], "plan": header["plan"]}),
        )
        for s in [samples[0], errored, samples[2]]:
            zf.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
    src = read_one(path, ctx())
    rs = src.data
    assert rs.items == ["q1", "q3"] and rs.meta["unscored"] == 1
    assert any("1 sample(s) without a choice score" in n for n in src.notes)


def test_inspect_dict_scores_and_scorer_choice(tmp_path):
    log = {
        "version": 2,
        "status": "success",
        "eval": {"task": "t", "task_id": "x", "run_id": "r", "model": "m/a"},
        "plan": {},
        "samples": [
            {
                "id": 1,
                "epoch": 1,
                "scores": {"rubric": {"value": {"helpful": 4, "safe": 1}}, "match": {"value": "I"}},
            },
            {
                "id": 2,
                "epoch": 1,
                "scores": {"rubric": {"value": {"helpful": 2, "safe": 0}}, "match": {"value": "C"}},
            },
        ],
    }
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert read_one(path).data.score.tolist() == [4.0, 2.0]  # first scorer, first key
    assert read_one(path, ctx(score="match")).data.score.tolist() == [0.0, 1.0]
    assert read_one(path, ctx(score="rubric.safe")).data.score.tolist() == [1.0, 0.0]


# --------------------------------------------------------------------------- HELM


def test_helm_run():
    rs = read_one(HELM_RUN / "per_instance_stats.json").data
    assert rs.models == ["openai/gpt2"] and rs.columns["model"] == "run_spec.json"
    assert rs.items == [f"id{31 + i}" for i in range(6)]
    assert rs.score.tolist() == [1.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    assert rs.meta["metric"] == "exact_match" and rs.meta["split"] == "test"
    assert rs.meta["perturbed_entries"] == 1 and rs.seed is None


def test_helm_model_from_folder_and_trials(tmp_path):
    entries = json.loads((HELM_RUN / "per_instance_stats.json").read_text(encoding="utf-8"))
    extra = [dict(e, train_trial_index=1) for e in entries if not e.get("perturbation")]
    folder = tmp_path / "mmlu:subject=anatomy,model=meta_llama-2-7b"
    folder.mkdir()
    (folder / "per_instance_stats.json").write_text(json.dumps(entries + extra), "utf-8")
    rs = read_one(folder / "per_instance_stats.json", ctx(score="quasi_exact_match")).data
    assert rs.models == ["meta_llama-2-7b"] and rs.columns["model"] == "run folder"
    assert rs.n_rows == 12 and len(rs.items) == 6
    assert rs.seed.labels == ["0", "1"] and rs.columns["seed"] == "train_trial_index"


def test_helm_run_folder_walk_reads_the_run_once():
    got = CliRunner().invoke(
        main, ["check", str(HELM_RUN), "--format", "json", "--fail-on", "never"]
    )
    assert got.exit_code == 0, got.stderr
    report = json.loads(got.stdout)
    assert [m["model"] for m in report["results"]["models"]] == ["openai/gpt2"]


# --------------------------------------------------------------------------- nested JSON


def test_gsm8k_nested_counts():
    rs = read_one(GSM8K).data
    systems = ["6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"]
    assert rs.models == systems
    assert len(rs.items) == 1319 and rs.n_rows == 4 * 1319
    assert rs.columns["item"] == "hash of question"
    correct = [int(rs.score[rs.model.codes == m].sum()) for m in range(4)]
    assert correct == [286, 515, 458, 742]


def test_nested_json_list_and_id_field(tmp_path):
    recs = [{"id": f"p{i}", "a": {"correct": i % 2 == 0}, "b": {"correct": True}} for i in range(4)]
    path = tmp_path / "items.json"
    path.write_text(json.dumps(recs, indent=1), encoding="utf-8")
    assert reader_module(path) == "nested_json"
    rs = read_one(path).data
    assert rs.models == ["a", "b"] and rs.items == ["p0", "p1", "p2", "p3"]
    assert rs.score.tolist() == [1, 1, 0, 1, 1, 1, 0, 1]


@pytest.mark.slow
def test_gsm8k_end_to_end_matches_statsmodels():
    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.proportion import proportion_confint

    got = CliRunner().invoke(main, ["check", str(GSM8K), "--format", "json"])
    assert got.exit_code in (0, 1), got.stderr
    report = json.loads(got.stdout)
    models = {m["model"]: m for m in report["results"]["models"]}
    rows = [json.loads(line) for line in GSM8K.read_text(encoding="utf-8").splitlines()]
    names = ["6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"]
    ok = {n: np.array([r[n]["is_correct"] for r in rows]) for n in names}
    for name, wilson in zip(
        names, [(19.54, 23.99), (36.45, 41.71), (32.20, 37.33), (53.56, 58.91)]
    ):
        m = models[name]
        k = int(ok[name].sum())
        lo, hi = proportion_confint(k, 1319, alpha=0.05, method="wilson")
        assert m["n_items"] == 1319
        assert m["score"] == pytest.approx(k / 1319, abs=1e-12)
        assert m["ci_low"] == pytest.approx(lo, abs=1e-9)
        assert m["ci_high"] == pytest.approx(hi, abs=1e-9)
        assert (round(100 * m["ci_low"], 2), round(100 * m["ci_high"], 2)) == wilson
    expected = {  # PROVENANCE.md: a-only, b-only, p
        ("6b_finetuning", "6b_verification"): (64, 293, 3.9e-36),
        ("6b_finetuning", "175b_finetuning"): (88, 260, 7.5e-21),
        ("6b_finetuning", "175b_verification"): (43, 499, 1.7e-99),
        ("6b_verification", "175b_finetuning"): (209, 152, 0.0032),
        ("6b_verification", "175b_verification"): (79, 306, 1.2e-32),
        ("175b_finetuning", "175b_verification"): (76, 360, 2.9e-45),
    }
    comps = {(c["a"], c["b"]): c for c in report["results"]["comparisons"]}
    assert set(comps) == set(expected)
    for (a, b), (a_only, b_only, p_rounded) in expected.items():
        c = comps[(a, b)]
        table = [
            [int(np.sum(ok[a] & ok[b])), int(np.sum(ok[a] & ~ok[b]))],
            [int(np.sum(~ok[a] & ok[b])), int(np.sum(~ok[a] & ~ok[b]))],
        ]
        assert (table[0][1], table[1][0]) == (a_only, b_only)
        p = mcnemar(table, exact=True).pvalue
        assert c["test"] == "mcnemar-exact"
        assert c["p_value"] == pytest.approx(p, rel=1e-9, abs=1e-12)
        assert float(f"{c['p_value']:.2g}") == pytest.approx(p_rounded, rel=1e-9)


# --------------------------------------------------------------------------- malformed input

BAD = [
    ("bad/truncated.eval", "truncated or not a zip"),
    ("bad/no_header.eval", "no header.json"),
    ("bad/bad_score.eval", "expected C/I/P/N"),
    (f"bad/samples_arc_easy_{STAMP}.jsonl", ":2: missing 'doc_id'"),
    (f"bad/lmeval_wrong_type/samples_arc_easy_{STAMP}.jsonl", ":1: metric 'acc' is str"),
    ("bad/results_wrong_type.json", "results.arc_easy.acc,none: expected a number"),
    ("bad/results_not_object.json", "no 'results' object"),
    ("bad/results_truncated.json", "invalid JSON"),
    ("bad/helm_missing_id/per_instance_stats.json", "missing 'instance_id'"),
    ("bad/nested_wrong_type.jsonl", ":2: a.is_correct is str"),
    ("bad/nested_missing_system.jsonl", ":2: system 'b' has no 'is_correct'"),
]


@pytest.mark.parametrize("rel, message", BAD, ids=[b[0] for b in BAD])
def test_malformed_files_exit_2_with_one_line(rel, message):
    path = DATA / rel
    got = CliRunner().invoke(main, ["check", str(path)])
    assert got.exit_code == 2
    err = got.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert str(path) in err and message in err, err
    assert "internal error" not in err


def test_malformed_file_in_a_fresh_process():
    path = DATA / "bad" / "truncated.eval"
    got = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert got.returncode == 2
    assert got.stderr.strip().count("\n") == 0 and str(path) in got.stderr


@pytest.mark.parametrize(
    "module, rel",
    [
        (inspect_log, "inspect/2024-09-02T11-04-12+00-00_gpqa-diamond_JqS2mM3.json"),
        (
            helm,
            "helm/mmlu_subject=anatomy,method=multiple_choice_joint,model=openai_gpt2/"
            "per_instance_stats.json",
        ),
        (lmeval_results, f"lmeval/EleutherAI__pythia-160m/results_{STAMP}.json"),
    ],
)
def test_wrong_types_in_structure(tmp_path, module, rel):
    doc = json.loads((DATA / rel).read_text(encoding="utf-8"))
    if module is inspect_log:
        doc["samples"][0]["id"] = {"not": "an id"}
    elif module is helm:
        doc[0]["stats"] = "exact_match"
    else:
        doc["n-samples"]["arc_easy"] = 10
    path = tmp_path / Path(rel).name
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        module.read(path, path.name, ctx())
    assert str(exc.value).startswith(path.name + ":")


# --------------------------------------------------------------------------- hygiene


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.as_posix().encode() + p.read_bytes())
    return h.hexdigest()


def test_readers_never_write_and_output_is_deterministic():
    before = _digest(DATA)
    paths = [str(LMEVAL), str(INSPECT_EVAL), str(HELM_RUN), str(DATA / "pythia")]
    first = CliRunner().invoke(main, ["check", *paths, "--format", "json", "--fail-on", "never"])
    second = CliRunner().invoke(main, ["check", *paths, "--format", "json", "--fail-on", "never"])
    assert first.exit_code == 0, first.stderr
    assert first.stdout == second.stdout
    assert _digest(DATA) == before


def test_inspect_log_folder_with_its_index(tmp_path):
    shutil.copy(INSPECT_EVAL, tmp_path / INSPECT_EVAL.name)
    header = json.loads(INSPECT_JSON.read_text(encoding="utf-8"))
    header.pop("samples")
    (tmp_path / "logs.json").write_text(json.dumps({INSPECT_EVAL.name: header}), "utf-8")
    got = CliRunner().invoke(
        main, ["check", str(tmp_path), "--format", "json", "--fail-on", "never"]
    )
    assert got.exit_code == 0, got.stderr
    models = json.loads(got.stdout)["results"]["models"]
    assert [m["model"] for m in models] == ["openai/gpt-4o-mini"]
    assert models[0]["n_items"] == 5


def test_results_json_known_by_its_metric_keys(tmp_path):
    path = tmp_path / "run.json"
    path.write_text('{"results": {"piqa": {"acc,none": 0.7}}, "group_subtasks": {}}', "utf-8")
    assert reader_module(path) == "lmeval_results"


def test_lmeval_samples_skip_corpus_level_metrics(tmp_path):
    line = {
        "doc_id": 0,
        "doc": {},
        "target": "x",
        "arguments": {},
        "resps": [],
        "filtered_resps": [],
        "filter": "none",
        "metrics": ["bleu", "exact_match"],
        "bleu": ["ref", "pred"],
        "exact_match": 1.0,
    }
    only_bleu = dict(line, metrics=["bleu"])
    del only_bleu["exact_match"]
    path = tmp_path / f"samples_wmt_{STAMP}.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert read_one(path).data.columns["score"] == "exact_match"
    path.write_text(json.dumps(only_bleu) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="no per-item metric"):
        read_one(path)


def test_sniff_first_line_longer_than_the_probe(tmp_path):
    line = {
        "doc_id": 0,
        "doc": {"context": "word " * 40_000},
        "target": "x",
        "arguments": {},
        "resps": [],
        "filtered_resps": [],
        "filter": "none",
        "acc": 1.0,
    }
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert reader_module(path) == "lmeval_samples"
    rec = {"question": "q " * 40_000, "a": {"is_correct": True}, "b": {"is_correct": False}}
    rec = {"a": rec.pop("a"), "b": rec.pop("b"), **rec}  # systems first, long text last
    path = tmp_path / "long_nested.jsonl"
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    assert reader_module(path) == "nested_json"


def test_v04_shot_count_comes_from_n_shot_when_tasks_agree(tmp_path):
    doc = {
        "results": {"a": {"acc,none": 0.5}, "b": {"acc,none": 0.6}},
        "n-shot": {"a": 5, "b": 5},
        "config": {"model_args": "pretrained=x/m-1b"},
    }
    path = tmp_path / "results_a.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_one(path).data.num_fewshot == 5
    doc["n-shot"]["b"] = 0
    path.write_text(json.dumps(doc), encoding="utf-8")
    s = read_one(path).data
    assert s.num_fewshot is None and s.tasks["b"].num_fewshot == 0
