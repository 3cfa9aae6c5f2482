"""SARIF 2.1.0 output, validated against the OASIS schema vendored in tests/data/sarif."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from report_samples import empty_report, sample_report

from benchaudit.render import sarif

SCHEMA = Path(__file__).parents[1] / "data" / "sarif" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def log():
    return json.loads(sarif.render(sample_report()))


def test_valid_against_the_official_schema(validator, log):
    validator.validate(log)
    validator.validate(json.loads(sarif.render(empty_report())))


def test_schema_rejects_a_broken_log(validator, log):
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(broken)


def test_shape(log):
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "benchaudit"
    assert [r["id"] for r in driver["rules"]] == ["BA101", "BA103", "BA201"]
    rule = driver["rules"][0]
    assert rule["name"] == "unreachable-score"
    assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
    assert rule["help"]["text"]
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]}
    assert levels["BA103"] == "note"


def test_results_point_at_rule_file_and_line(log):
    run = log["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    got = []
    for res in run["results"]:
        assert ids[res["ruleIndex"]] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        got.append(
            (
                res["ruleId"],
                res["level"],
                loc["artifactLocation"]["uri"],
                loc["region"]["startLine"],
                loc["region"].get("startColumn"),
            )
        )
    assert got == [
        ("BA101", "error", "docs/card.md", 12, 5),
        ("BA103", "note", "docs/card.md", 20, None),
        ("BA201", "warning", "results/scores.csv", 3, None),
    ]


def test_message_suggestion_and_fingerprint(log):
    report = sample_report()
    res = log["runs"][0]["results"][0]
    assert res["message"]["text"].endswith("Suggestion: 87.2% (143/164) or 87.8% (144/164)")
    assert res["partialFingerprints"] == {"benchaudit/v1": report.findings[0].fingerprint}
    assert res["properties"]["evidence"]["nearest"] == [0.872, 0.878]
    assert res["locations"][0]["physicalLocation"]["region"]["snippet"]["text"].startswith(
        "<script>"
    )


def test_uri_relative_to_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    inside = str(tmp_path / "sub dir" / "card.md")
    assert sarif._artifact_uri(inside) == "sub%20dir/card.md"
    assert sarif._artifact_uri("docs/card.md") == "docs/card.md"
    outside = Path(os.sep, "elsewhere", "x.md")
    assert sarif._artifact_uri(str(outside)) == "file:///elsewhere/x.md"


def test_a_finding_without_a_line_has_no_region(validator):
    report = sample_report()
    report.findings[0].location = type(report.findings[0].location)("results/scores.csv")
    log = json.loads(sarif.render(report))
    validator.validate(log)
    assert "region" not in log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]


def test_deterministic():
    assert sarif.render(sample_report()) == sarif.render(sample_report())


@pytest.mark.slow
def test_several_formats_from_one_run_of_the_command(tmp_path, validator):
    """JSON, SARIF and GitHub annotations from one process, with the real rules."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    card = tmp_path / "card.md"
    card.write_text("We reach 87.3% on HumanEval (greedy decoding, a single pass).\n")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchaudit",
            "check",
            "card.md",
            "--format",
            "json",
            "--output",
            "a.json",
            "--format",
            "sarif",
            "--output",
            "b.sarif",
            "--format",
            "github",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert run.returncode in (0, 1), run.stderr
    data = json.loads((tmp_path / "a.json").read_text())
    log = json.loads((tmp_path / "b.sarif").read_text())
    validator.validate(log)
    results = log["runs"][0]["results"]
    assert [
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results
    ] == [(f["rule"], f["line"]) for f in data["findings"]]
    annotations = [ln for ln in run.stdout.splitlines() if ln.startswith("::")]
    assert len(annotations) == len(data["findings"])
    commands = {"error": "error", "warning": "warning", "info": "notice"}
    for line, f in zip(annotations, data["findings"]):
        assert line.startswith(f"::{commands[f['severity']]} file=card.md,line={f['line']}")
