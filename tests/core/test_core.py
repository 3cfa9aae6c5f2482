"""Engine, registry, configuration, grading and the CLI's contract (exit codes, one-line errors)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from benchaudit import config as config_mod
from benchaudit.cli import main
from benchaudit.errors import ConfigError
from benchaudit.finding import (
    Confidence,
    Finding,
    Location,
    Report,
    Severity,
    assign_fingerprints,
    claim_grade,
    overall_grade,
)
from benchaudit.registry import all_rules, lookup, select


def _f(sev, conf=Confidence.HIGH, line=1, claim="x", name="r"):
    return Finding("BA999", name, sev, conf, Location("a.md", line), "m", claim=claim)


def test_grades_are_monotone():
    assert claim_grade([]) == "A"
    assert claim_grade([_f(Severity.INFO)]) == "B"
    assert claim_grade([_f(Severity.WARNING, Confidence.LOW)]) == "C"
    assert claim_grade([_f(Severity.WARNING)]) == "D"
    assert claim_grade([_f(Severity.ERROR, Confidence.LOW)]) == "F"
    # The report's grade is its worst claim's, whichever claim comes first.
    assert overall_grade([]) == "A"
    assert overall_grade([_f(Severity.INFO, line=1), _f(Severity.WARNING, line=2)]) == "D"
    assert overall_grade([_f(Severity.ERROR, line=5), _f(Severity.INFO, line=9)]) == "F"
    order = "ABCDF"
    sets = [[], [_f(Severity.INFO)], [_f(Severity.WARNING)], [_f(Severity.ERROR)]]
    for base in sets:
        for extra in sets:
            assert order.index(overall_grade(base + extra)) >= order.index(overall_grade(base))


def test_fingerprints_ignore_line_numbers_and_tell_duplicates_apart():
    a = [_f(Severity.ERROR, line=3), _f(Severity.ERROR, line=9)]
    b = [_f(Severity.ERROR, line=13), _f(Severity.ERROR, line=19)]
    assign_fingerprints(a)
    assign_fingerprints(b)
    assert [f.fingerprint for f in a] == [f.fingerprint for f in b]
    assert a[0].fingerprint != a[1].fingerprint


def test_report_summary_counts():
    r = Report(findings=[_f(Severity.ERROR), _f(Severity.INFO), _f(Severity.INFO)])
    assert r.summary()["errors"] == 1 and r.summary()["infos"] == 2
    assert r.worst() is Severity.ERROR


def test_registry_codes_and_names_are_unique_and_selectable():
    rules = all_rules()
    codes = [cls.code for cls in rules.values()]
    assert len(codes) == len(set(codes))
    for name, cls in rules.items():
        assert lookup(name) is cls and lookup(cls.code.lower()) is cls
        assert select([cls.code]) == [cls]
        assert cls not in select(ignore=[name])
    with pytest.raises(ConfigError):
        select(["no-such-rule"])


def test_config_unknown_key_is_an_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.benchaudit]\nselct = ['x']\n")
    with pytest.raises(ConfigError, match="unknown config key 'selct'"):
        config_mod.load(start=str(tmp_path))


def test_config_from_pyproject_and_setup_cfg(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.benchaudit]\nfail-on = 'warning'\nseed = 7\nn = {my-bench = 250}\n"
    )
    cfg = config_mod.load(start=str(tmp_path))
    assert (cfg.fail_on, cfg.seed, cfg.n) == ("warning", 7, {"my-bench": 250})
    other = tmp_path / "sub"
    other.mkdir()
    (other / "setup.cfg").write_text(
        "[benchaudit]\nignore = missing-interval, BA102\nalpha = 0.01\n"
    )
    cfg = config_mod.load(start=str(other))
    assert cfg.ignore == ["missing-interval", "BA102"] and cfg.alpha == 0.01


def test_a_comment_naming_the_section_is_not_a_configuration(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "setup.cfg").write_text("# benchaudit also reads a [benchaudit] section\n[options]\n")
    (tmp_path / "pyproject.toml").write_text("# see [tool.benchaudit] in the docs\n[project]\nname = 'x'\n")
    assert config_mod.discover(str(tmp_path)) is None


@pytest.mark.parametrize(
    "text,match",
    [
        ("[tool.benchaudit]\nfail-on = 'sometimes'\n", "fail-on"),
        ("[tool.benchaudit]\nseed = 'x'\n", "whole number"),
        ("[tool.benchaudit\n", "invalid config"),
    ],
)
def test_bad_config_values(tmp_path, text, match):
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(ConfigError, match=match):
        config_mod.load(str(tmp_path / "pyproject.toml"))


def _one_line_error(result, name):
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "Traceback" not in result.output + result.stderr
    assert len(err.splitlines()) == 1, err
    assert name in err
    return err


def test_cli_missing_file_is_exit_2_one_line():
    result = CliRunner().invoke(main, ["check", "does-not-exist.md"])
    _one_line_error(result, "does-not-exist.md")


def test_cli_empty_file(tmp_path):
    p = tmp_path / "empty.csv"
    p.write_bytes(b"")
    _one_line_error(CliRunner().invoke(main, ["check", str(p)]), "empty.csv")


def test_cli_binary_garbage(tmp_path):
    p = tmp_path / "garbage.bin"
    p.write_bytes(bytes(range(256)) * 8)
    _one_line_error(CliRunner().invoke(main, ["check", str(p)]), "garbage.bin")


def test_cli_bad_config_file(tmp_path):
    cfg = tmp_path / "pyproject.toml"
    cfg.write_text("[tool.benchaudit]\nbogus = 1\n")
    doc = tmp_path / "a.md"
    doc.write_text("Nothing to see.\n")
    err = _one_line_error(
        CliRunner().invoke(main, ["check", str(doc), "--config", str(cfg)]), "pyproject.toml"
    )
    assert "bogus" in err


def test_cli_unknown_rule_selection(tmp_path):
    doc = tmp_path / "a.md"
    doc.write_text("Nothing to see.\n")
    result = CliRunner().invoke(main, ["check", str(doc), "--select", "no-such-rule"])
    assert result.exit_code == 2 and "no-such-rule" in result.stderr


def test_cli_rules_and_explain_list_every_rule():
    runner = CliRunner()
    out = runner.invoke(main, ["rules"]).output
    for name, cls in all_rules().items():
        assert name in out and cls.code in out
        text = runner.invoke(main, ["explain", cls.code]).output
        assert cls.summary() in text
    result = runner.invoke(main, ["explain", "no-such-rule"])
    assert result.exit_code == 2


def test_json_shape_on_a_clean_document(tmp_path):
    doc = tmp_path / "clean.md"
    doc.write_text("# A model card\n\nThis model was trained in 2024.\n")
    result = CliRunner().invoke(main, ["check", str(doc), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data)[:5] == ["tool", "version", "grade", "summary", "findings"]
    assert {"errors", "warnings", "infos", "claims_checked", "numbers_seen"} <= set(data["summary"])
    # Nothing in it could be checked: "not assessed", never an A.
    assert data["grade"] == "N"


def test_version_and_module_entry_point():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "benchaudit", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "benchaudit" in out.stdout
