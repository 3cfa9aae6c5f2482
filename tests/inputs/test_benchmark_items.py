"""Benchmark item files are recognised and noted; unknown data files are refused when named
and skipped with a note when met in a directory walk. Data files are never read as prose."""

from __future__ import annotations

import json

from click.testing import CliRunner

from benchaudit.cli import main


def _gsm8k_like(path, n=3):
    rows = [
        {"question": f"Q{i}: Natalia sold 48 clips, 50% of them in May.", "answer": "72"}
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_a_benchmark_item_file_is_noted_not_read_as_claims(tmp_path):
    p = tmp_path / "test.jsonl"
    _gsm8k_like(p)
    result = CliRunner().invoke(main, ["check", str(p), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["findings"] == [] and data["summary"]["claims_checked"] == 0


def test_an_unknown_data_file_named_on_the_command_line_is_exit_2(tmp_path):
    p = tmp_path / "config.json"
    p.write_text('{"learning_rate": 0.0003, "accuracy_target": "87.3%"}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(p)])
    assert result.exit_code == 2
    assert "config.json" in result.stderr and "cannot tell" in result.stderr


def test_an_unknown_data_file_in_a_directory_is_skipped_with_a_note(tmp_path):
    (tmp_path / "config.json").write_text('{"lr": 0.0003}\n', encoding="utf-8")
    (tmp_path / "card.md").write_text("We reach 87.3% on HumanEval.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code in (0, 1)
    assert "skipped" in result.output and "config.json" in result.output
    assert "BA101" in result.output
