"""The Python API, used the way a notebook or a script uses it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import benchaudit
from benchaudit.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CARD = "Our model reaches 87.3% pass@1 on HumanEval with greedy decoding.\n"


def _cli_json(*args: str, cwd: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", *args, "--format", "json"],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def test_audit_a_card_like_a_notebook(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("card.md").write_text(CARD, encoding="utf-8")
    r = benchaudit.audit(["card.md"])
    assert (r.grade, len(r.findings)) == ("F", 2)
    first = r.findings[0]
    assert first.name == "unreachable-score" and first.severity is benchaudit.Severity.ERROR
    assert "143/164" in first.suggestion
    assert benchaudit.audit("card.md").to_json() == r.to_json()  # one path, or several
    assert json.loads(r.to_json()) == _cli_json("card.md", cwd=tmp_path)
    assert "unreachable-score" in r.to_markdown()
    frames = r.to_pandas()
    assert list(frames["findings"]["name"]) == ["unreachable-score", "missing-interval"]
    assert frames["models"].empty and frames["comparisons"].empty
    html = r._repr_html_()
    assert "grade F" in html and "unreachable-score" in html and "<script" not in html
    assert repr(r).startswith("<Report grade F: 1 error(s)")


def test_options_are_the_command_flags(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("card.md").write_text(CARD, encoding="utf-8")
    only = benchaudit.audit("card.md", select=["unreachable-score"])
    assert [f.name for f in only.findings] == ["unreachable-score"]
    assert benchaudit.audit("card.md", ignore="BA1").findings == []
    # --n HumanEval=165: 144/165 = 87.27%, reachable.
    assert not any(
        f.name == "unreachable-score"
        for f in benchaudit.audit("card.md", n={"HumanEval": 165}).findings
    )
    with pytest.raises(benchaudit.errors.ConfigError):
        benchaudit.audit("card.md", fail_on="sometimes")


def test_audit_text():
    r = benchaudit.audit_text(CARD)
    assert r.grade == "F" and r.findings[0].location.file == "text.md"


def test_unreadable_input_raises_or_is_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("card.md").write_text(CARD, encoding="utf-8")
    with pytest.raises(InputError, match="missing.md: no such file"):
        benchaudit.audit(["card.md", "missing.md"])
    r = benchaudit.audit(["card.md", "missing.md"], on_error="report")
    assert r.input_errors == ["missing.md: no such file"]
    assert len(r.findings) == 2  # the card was still audited


def test_audit_results_on_a_dataframe_equals_the_cli_on_the_csv(tmp_path):
    pd = pytest.importorskip("pandas")
    shutil.copy(EXAMPLES / "scores.csv", tmp_path / "scores.csv")
    df = pd.read_csv(tmp_path / "scores.csv")
    r = benchaudit.audit_results(df, name="scores.csv")
    cli = _cli_json("scores.csv", cwd=tmp_path)
    assert json.loads(r.to_json()) == cli
    frames = r.to_pandas()
    models = frames["models"]
    assert set(models["model"]) == set(df["model"])
    assert {"a", "b", "diff", "p_value", "p_adjusted"} <= set(frames["comparisons"].columns)
    assert r.to_pandas("models").equals(models)
    # The same table as pyarrow.
    pa = pytest.importorskip("pyarrow")
    assert (
        benchaudit.audit_results(pa.Table.from_pandas(df), name="scores.csv").to_json()
        == r.to_json()
    )


def test_audit_results_names_the_columns(tmp_path):
    pd = pytest.importorskip("pandas")
    df = pd.read_csv(EXAMPLES / "scores.csv")
    renamed = df.rename(columns={"model": "who", "question_id": "qid", "correct": "verdict"})
    columns = dict(zip(["model", "item", "score"], df.columns[:3]))
    if list(df.columns[:3]) != ["model", "question_id", "correct"]:
        pytest.skip(f"the example's columns changed: {list(df.columns)} ({columns})")
    r = benchaudit.audit_results(renamed, model="who", item="qid", score="verdict")
    base = benchaudit.audit_results(df)
    assert r.results["models"] == base.results["models"]
    with pytest.raises(TypeError, match="pandas DataFrame or a pyarrow Table"):
        benchaudit.audit_results([1, 2, 3])


def test_html_report_of_results_has_plots_even_with_tex_like_names():
    pd = pytest.importorskip("pandas")
    rows = [
        {"model": name, "item": i, "correct": int((i * (k + 2)) % 3 != 0)}
        for k, name in enumerate(["$\\undefined$", "b_{x}^2 $x", "plain"])
        for i in range(30)
    ]
    page = benchaudit.audit_results(pd.DataFrame(rows)).to_html()
    assert page.count("<svg") >= 2
    assert "$\\undefined$" in page
