"""The baseline of a judge preference is a property of each row, never of the first one.

Real AlpacaEval rows (tests/data/alpacaeval, tests/data/arena; see the PROVENANCE files)
rearranged into the shapes that mix baselines or put the model on the other side; every
expected number is recomputed here from the rows."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs import load

DATA = Path(__file__).parents[1] / "data"
ANNOTATIONS = (
    DATA / "alpacaeval" / "results" / "NullModel" / "weighted_alpaca_eval_gpt4_turbo"
) / "annotations.json"
PER_ITEM = DATA / "arena" / "alpacaeval2_per_item_preferences.csv"


def _json(*paths: Path) -> dict:
    result = CliRunner().invoke(main, ["check", *map(str, paths), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def _notes(path: Path) -> list[str]:
    return load(path, str(path), Context(Config()))[0].notes


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def _real() -> list[dict]:
    return json.loads(ANNOTATIONS.read_text())


def test_annotations_against_two_baselines_give_two_win_rates(tmp_path):
    recs = _real()
    for r in recs[18:]:
        r["generator_1"] = "text_davinci_003"
    p = tmp_path / "annotations.json"
    p.write_text(json.dumps(recs))
    rows = {r["baseline"]: r for r in _json(p)["results"]["preferences"]}
    assert set(rows) == {"gpt4_1106_preview", "text_davinci_003"}
    for base, part in (("gpt4_1106_preview", recs[:18]), ("text_davinci_003", recs[18:])):
        want = _mean([float(r["preference"]) - 1 for r in part])
        assert rows[base]["model"] == "example" and rows[base]["items"] == len(part)
        assert rows[base]["win_rate"] == pytest.approx(round(want, 6))
    assert any("2 different baselines" in n for n in _notes(p))


def test_annotations_with_the_model_as_generator_1_read_from_the_folder(tmp_path):
    """The folder results/NullModel/... names generator_1: the reference is generator_2 and
    the preference (for output_2, AlpacaEval's convention) is turned round."""
    swapped = []
    for r in _real():
        s = dict(r)
        s["generator_1"], s["generator_2"] = "NullModel", r["generator_1"]
        s["output_1"], s["output_2"] = r["output_2"], r["output_1"]
        s["preference"] = 3 - float(r["preference"])
        swapped.append(s)
    folder = tmp_path / "results" / "NullModel" / "weighted_alpaca_eval_gpt4_turbo"
    folder.mkdir(parents=True)
    p = folder / "annotations.json"
    p.write_text(json.dumps(swapped))
    report = _json(p)
    (row,) = report["results"]["preferences"]
    want = _mean([float(r["preference"]) - 1 for r in _real()])
    assert (row["model"], row["baseline"]) == ("NullModel", "gpt4_1106_preview")
    assert row["win_rate"] == pytest.approx(round(want, 6))
    # The model's own outputs (output_1 here) are the ones checked for repetition.
    assert any(f["name"] == "null-model-win" for f in report["findings"])
    assert any("names generator_1 (NullModel) as the model" in n for n in _notes(p))


def test_annotations_without_a_folder_say_the_reference_side_is_assumed(tmp_path):
    p = tmp_path / "annotations.json"
    shutil.copy(ANNOTATIONS, p)
    (note,) = [n for n in _notes(p) if "win rate against" in n]
    assert "does not say which side is the reference" in note
    assert "generator_1 the reference" in note


def test_annotations_old_draw_code_without_model_wins_stays_on_the_1_2_scale(tmp_path):
    """Only base wins (1) and old draws (0): still AlpacaEval's scale, never 0-1 wins."""
    recs = _real()[:10]
    for k, r in enumerate(recs):
        r["preference"] = 0 if k < 4 else 1
    p = tmp_path / "annotations.json"
    p.write_text(json.dumps(recs))
    (row,) = _json(p)["results"]["preferences"]
    assert row["win_rate"] == pytest.approx(_mean([0.5] * 4 + [0.0] * 6))


def _per_item() -> dict[str, list[dict[str, str]]]:
    with PER_ITEM.open() as fh:
        rows = list(csv.DictReader(fh))
    out: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        if int(r["item_idx"]) < 100:
            out.setdefault(r["model"], []).append(r)
    return out


def test_preference_rows_against_several_baselines(tmp_path):
    """A long file: model A against baselines X and Y, model B against X; real preference
    values (two AlpacaEval models' rows) put under those names."""
    by = _per_item()
    a_x, a_y = by["FuseChat-Llama-3.2-1B-Instruct"], by["NullModel"]
    b_x = by["FuseChat-Gemma-2-9B-Instruct"]
    p = tmp_path / "prefs.csv"
    with p.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["model", "item_idx", "baseline", "preference"])
        for model, base, part in (("A", "X", a_x), ("A", "Y", a_y), ("B", "X", b_x)):
            for r in part:
                w.writerow([model, r["item_idx"], base, r["preference"]])
    report = _json(p)
    rows = {(r["model"], r["baseline"]): r for r in report["results"]["preferences"]}
    assert set(rows) == {("A", "X"), ("A", "Y"), ("B", "X")}
    for key, part in ((("A", "X"), a_x), (("A", "Y"), a_y), (("B", "X"), b_x)):
        want = _mean([float(r["preference"]) - 1 for r in part])
        assert rows[key]["items"] == 100
        assert rows[key]["win_rate"] == pytest.approx(round(want, 6))
    # Paired only against the same baseline: A vs B on X, never A on Y against B on X.
    (pair,) = report["results"]["preference_comparisons"]
    assert (pair["baseline"], pair["a"], pair["b"]) == ("X", "A", "B")
    diff = _mean([float(x["preference"]) - float(y["preference"]) for x, y in zip(a_x, b_x)])
    assert pair["items"] == 100 and pair["diff"] == pytest.approx(round(diff, 6))
    assert any("2 different baselines (X, Y)" in n for n in _notes(p))


def test_real_per_item_file_keeps_its_one_baseline():
    rows = _json(PER_ITEM)["results"]["preferences"]
    assert len(rows) == 7 and {r["baseline"] for r in rows} == {"gpt4_1106_preview"}
    assert not any("different baselines" in n for n in _notes(PER_ITEM))
