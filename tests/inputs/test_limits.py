"""Inputs too large to hold in memory are refused with a message; --max-rows guards per-item files."""

from __future__ import annotations

from click.testing import CliRunner

from benchaudit import inputs
from benchaudit.cli import main


def test_a_whole_file_reader_refuses_a_file_over_its_limit(tmp_path, monkeypatch):
    doc = tmp_path / "big.md"
    doc.write_text("We reach 87.2% on HumanEval.\n" * 200, encoding="utf-8")
    text_reader = inputs._reader_of("text")
    monkeypatch.setattr(text_reader, "max_bytes", 1000)
    result = CliRunner().invoke(main, ["check", str(doc)])
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and "big.md" in err and "reads into memory" in err


def test_streaming_reader_has_no_byte_limit():
    tabular = inputs._reader_of("tabular")
    assert tabular is not None and tabular.max_bytes is None


def test_max_rows_guard(tmp_path):
    p = tmp_path / "scores.csv"
    rows = ["model,question_id,correct"]
    rows += [f"m{m},q{i},{(i * m) % 2}" for m in range(2) for i in range(60)]
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(p), "--max-rows", "50"])
    assert result.exit_code == 2
    assert "scores.csv" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert CliRunner().invoke(main, ["check", str(p), "--max-rows", "500"]).exit_code in (0, 1)
