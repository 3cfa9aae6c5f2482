"""Shapes from an independent second pass over issue #13: score and item spellings
(``is_pass``, ``grader_score``, ``uid``, ``idx``), readings that must be asked for
(a ``run`` column of names, a score column beside would-be model columns, predicted labels
beside a gold label, ``em`` beside ``f1``), free-text prompts that are no variant, tasks
whose item ids overlap, inspect's C/I letters, and two real files (human-eval summaries
sharing a folder, HELM runs scored only by judges). Expected numbers are counted from the
files here; McNemar p-values come from scipy's binomial test on the discordant items."""

from __future__ import annotations

import csv
import itertools
import json
import random
from pathlib import Path

import pytest
from scipy.stats import binomtest

from benchaudit.api import audit
from benchaudit.errors import InputError

PUBLIC = Path(__file__).parents[1] / "data" / "harness" / "public"
MODELS = {"orca-7b": 0.55, "vega-13b": 0.7, "lyra-70b": 0.45}
N = 40


def _truth() -> dict[str, list[int]]:
    rnd = random.Random(1313)
    return {m: [int(rnd.random() < p) for _ in range(N)] for m, p in MODELS.items()}


def _mcnemar(a: list[int], b: list[int]) -> float:
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    return float(binomtest(only_a, only_a + only_b, 0.5).pvalue) if only_a + only_b else 1.0


def _write(path: Path, header: list[str], rows: list[list[object]], **kw: object) -> Path:
    with open(path, "w", newline="", encoding=str(kw.pop("encoding", "utf-8"))) as fh:
        w = csv.writer(fh, **kw)  # type: ignore[arg-type]
        w.writerow(header)
        w.writerows(rows)
    return path


def _long(path: Path, header: list[str], cell=lambda v: v, extra=lambda m, i: []) -> Path:
    truth = _truth()
    rows = [[m, f"ex{i:02d}", cell(truth[m][i]), *extra(m, i)] for m in truth for i in range(N)]
    return _write(path, header, rows)


def _check_exact(report) -> None:
    """Models, item counts, means and every McNemar p-value as counted from the truth."""
    truth = _truth()
    got = {r["model"]: r for r in report.results["models"]}
    assert set(got) == set(truth)
    for m, row in got.items():
        assert row["n_items"] == N
        assert row["score"] == pytest.approx(sum(truth[m]) / N, abs=1e-12)
    pairs = {(c["a"], c["b"]): c for c in report.results["comparisons"]}
    assert len(pairs) == 3
    for a, b in itertools.combinations(truth, 2):
        c = pairs.get((a, b)) or pairs[(b, a)]
        assert c["test"] == "mcnemar-exact"
        assert c["p_value"] == pytest.approx(_mcnemar(truth[a], truth[b]), abs=1e-12)


@pytest.mark.parametrize(
    ("header", "cell"),
    [
        (["model_id", "example_id", "is_pass"], lambda v: "True" if v else "False"),
        (["llm", "uid", "is_passed"], lambda v: "yes" if v else "no"),
        (["model", "id", "score"], lambda v: "C" if v else "I"),  # inspect's letters
        (["Model", "Question ID", "Correct?"], lambda v: v),  # a spreadsheet's header
    ],
)
def test_new_score_spellings_read_exactly(tmp_path, header, cell):
    path = _long(tmp_path / "r.csv", header, cell)
    _check_exact(audit([str(path)], fail_on="never"))


def test_json_records_with_is_pass(tmp_path):
    truth = _truth()
    recs = [
        {"model_id": m, "example_id": f"ex{i:02d}", "is_pass": bool(truth[m][i])}
        for m in truth
        for i in range(N)
    ]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(recs))
    _check_exact(audit([str(path)], fail_on="never"))


def test_wide_file_with_idx_cost_and_seed_columns(tmp_path):
    truth = _truth()
    rnd = random.Random(5)
    rows = [
        [i, rnd.randint(40, 900), round(rnd.random() * 0.03, 5), 42, *(truth[m][i] for m in truth)]
        for i in range(N)
    ]
    path = _write(tmp_path / "w.csv", ["idx", "prompt_len", "cost_usd", "seed", *truth], rows)
    report = audit([str(path)], fail_on="never")
    _check_exact(report)
    left = report.results["sources"][0].detection.left_out
    assert {"prompt_len", "cost_usd"} <= set(left)


def test_a_run_column_of_names_is_asked_about(tmp_path):
    path = _long(tmp_path / "r.csv", ["run", "uid", "grader_score"])
    with pytest.raises(InputError, match=r"--column model=run or --column seed=run"):
        audit([str(path)])
    report = audit([str(path)], fail_on="never", columns={"model": "run"})
    _check_exact(report)  # a 0/1 grader_score is a verdict, not a 0-5 rating
    assert report.results["sources"][0].detection.scale == "0/1"


def test_em_beside_f1_is_two_readings(tmp_path):
    rnd = random.Random(2)
    path = _long(tmp_path / "r.csv", ["model", "item", "em", "f1"], extra=lambda m, i: [round(rnd.random(), 3)])
    with pytest.raises(InputError, match=r"--column score=em or --column score=f1"):
        audit([str(path)])


def test_predicted_labels_beside_a_gold_label_are_not_scores(tmp_path):
    truth = _truth()
    rnd = random.Random(3)
    gold = [rnd.randint(0, 1) for _ in range(N)]
    rows = [[i, gold[i], *(gold[i] if truth[m][i] else 1 - gold[i] for m in truth)] for i in range(N)]
    path = _write(tmp_path / "w.csv", ["id", "label", *truth], rows)
    with pytest.raises(InputError, match=r"predicted labels to compare with column 'label'"):
        audit([str(path)])


def test_a_prompt_text_column_is_not_a_variant(tmp_path):
    """UTF-8 BOM, CRLF line ends and a quoted prompt spanning two lines per item."""
    truth = _truth()
    rows = [
        [m, f"ex{i:02d}", f"Question {i}\nsecond line, with a comma", truth[m][i]]
        for m in truth
        for i in range(N)
    ]
    path = _write(
        tmp_path / "r.csv",
        ["model", "item", "prompt", "correct"],
        rows,
        encoding="utf-8-sig",
        lineterminator="\r\n",
    )
    report = audit([str(path)], fail_on="never")
    _check_exact(report)
    assert report.results["sources"][0].detection.left_out["prompt"] == (
        "item text, not a variant"
    )


def test_unknown_table_names_the_column_flags(tmp_path):
    path = _long(tmp_path / "r.csv", ["engine", "case", "mark"])
    with pytest.raises(InputError, match=r"--column model=NAME --column item=NAME"):
        audit([str(path)])
    cols = {"model": "engine", "item": "case", "score": "mark"}
    _check_exact(audit([str(path)], fail_on="never", columns=cols))


def test_human_eval_summaries_sharing_a_folder_pair_on_passed():
    """Real files: ``task_id,passed`` and six graded metrics; the metrics are no models."""
    folder = PUBLIC / "poe-humaneval-summary"
    truth = {}
    for f in sorted(folder.glob("*_summary.csv")):
        with open(f, newline="") as fh:
            truth[f.name[: -len("_summary.csv")]] = {
                r["task_id"]: r["passed"] == "True" for r in csv.DictReader(fh)
            }
    report = audit([str(folder)], fail_on="never")
    got = {r["model"]: r for r in report.results["models"]}
    assert set(got) == set(truth) == {
        "codegemma_7b",
        "codellama_7b",
        "deepseek-coder_6.7b",
        "qwen2.5-coder_7b",
    }
    for m, row in got.items():
        assert row["n_items"] == 164
        assert row["score"] == pytest.approx(sum(truth[m].values()) / 164, abs=1e-12)
    comps = report.results["comparisons"]
    assert len(comps) == 6
    for c in comps:
        a, b = truth[c["a"]], truth[c["b"]]
        keys = sorted(a)
        p = _mcnemar([a[k] for k in keys], [b[k] for k in keys])
        assert c["test"] == "mcnemar-exact" and c["p_value"] == pytest.approx(p, abs=1e-12)


def test_one_summary_alone_reads_on_passed():
    path = PUBLIC / "poe-humaneval-summary" / "codellama_7b_summary.csv"
    report = audit([str(path)], fail_on="never")
    (row,) = report.results["models"]
    assert row["n_items"] == 164 and row["score"] == pytest.approx(47 / 164)
    assert all("score" not in r["model"] for r in report.results["models"])


def test_helm_run_scored_only_by_judges_names_the_score_stats():
    folder = PUBLIC / "helm-xstest"
    with pytest.raises(InputError, match=r"score-like stats: xst_score, .*--column score=xst_score"):
        audit([str(folder)])
    report = audit([str(folder)], fail_on="never", columns={"score": "xst_score"})
    truth = {}
    for f in sorted(folder.glob("*/per_instance_stats.json")):
        model = f.parent.name.split("model=")[1]
        vals = {
            e["instance_id"]: s["mean"]
            for e in json.loads(f.read_text())
            for s in e["stats"]
            if s["name"]["name"] == "xst_score"
        }
        truth[model.replace("_", "/", 1)] = sum(vals.values()) / len(vals)
    got = {r["model"]: r["score"] for r in report.results["models"]}
    assert got == pytest.approx(truth)


def test_seed_repeats_are_seeds_not_generations(tmp_path):
    truth = _truth()
    rows = [
        [m, f"ex{i:02d}", s, truth[m][i] if (i + s) % 7 else 1 - truth[m][i]]
        for m in truth
        for s in range(3)
        for i in range(N)
    ]
    path = _write(tmp_path / "r.csv", ["model", "item", "seed", "correct"], rows)
    report = audit([str(path)], fail_on="never")
    assert not any(f.name == "generations-as-items" for f in report.findings)
    assert all("samples_per_item" not in r for r in report.results["models"])
    (setup,) = report.results["setup"]
    assert "1 sample per item, 3 seed(s)" in setup["line"] and setup["samples_per_item"] == 1
    for m, row in ((r["model"], r) for r in report.results["models"]):
        mean = sum(r[3] for r in rows if r[0] == m) / (3 * N)
        assert row["score"] == pytest.approx(mean, abs=1e-12)


def _eval_members(path: Path) -> dict[str, dict]:
    """The JSON members of an inspect ``.eval`` archive, read with zipfile's directory
    and zstandard (members are method 93, which zipfile cannot inflate)."""
    import struct
    import zipfile

    import zstandard

    raw = path.read_bytes()
    out = {}
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            if not info.filename.endswith(".json"):
                continue
            name_len, extra_len = struct.unpack("<2H", raw[info.header_offset + 26 : info.header_offset + 30])
            start = info.header_offset + 30 + name_len + extra_len
            data = raw[start : start + info.compress_size]
            text = zstandard.ZstdDecompressor().decompress(data, max_output_size=info.file_size)
            out[info.filename] = json.loads(text)
    return out


def test_inspect_logs_with_two_scorers_pair_on_the_first_and_name_the_other():
    folder = Path(__file__).parents[1] / "data" / "harness" / "generated" / "inspect-two-scorers"
    truth = {}
    for f in sorted(folder.glob("*.eval")):
        members = _eval_members(f)
        samples = [v for k, v in members.items() if k.startswith("samples/")]
        truth[members["header.json"]["eval"]["model"]] = {s["id"]: int(s["scores"]["match"]["value"] == "C") for s in samples}
    report = audit([str(folder)], fail_on="never")
    got = {r["model"]: r for r in report.results["models"]}
    assert set(got) == set(truth)
    for m, row in got.items():
        assert row["n_items"] == 20 and row["score"] == pytest.approx(sum(truth[m].values()) / 20)
    (c,) = report.results["comparisons"]
    keys = sorted(truth[c["a"]])
    p = _mcnemar([truth[c["a"]][k] for k in keys], [truth[c["b"]][k] for k in keys])
    assert c["test"] == "mcnemar-exact" and c["p_value"] == pytest.approx(p, abs=1e-12)
    assert sum("also holds includes" in n for n in report.notes) == 2


def test_an_answer_and_its_key_are_not_a_score(tmp_path):
    truth = _truth()
    rows = [[m, i, "A", "A" if truth[m][i] else "B"] for m in truth for i in range(N)]
    path = _write(tmp_path / "r.csv", ["model", "id", "label", "pred"], rows)
    with pytest.raises(InputError, match=r"'pred' and 'label' hold an answer and its key"):
        audit([str(path)])
