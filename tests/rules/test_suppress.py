"""Inline suppressions, per-file ignores and baselines, end to end through the engine
and the command line (with the test reader and rules of ``fake_env``)."""

from __future__ import annotations

import json
import subprocess
import sys

import fake_env
import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config, apply
from benchaudit.engine import audit
from benchaudit.suppress import inline_suppressions, parse

CARD = """# Card

We reach 87.3% on HumanEval with model A.

Model B also reaches 87.3% on HumanEval.
"""


@pytest.fixture
def env(monkeypatch, tmp_path):
    fake_env.install(monkeypatch)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(*paths, **cfg):
    config = apply(Config(), cfg, "test") if cfg else Config()
    return audit([str(p) for p in paths], config)


def _where(report):
    return [(f.name, f.location.line, f.severity.label) for f in report.findings]


# --- parsing ---------------------------------------------------------------------------


def test_parse_markdown_standalone_comment_targets_next_non_blank_line():
    lines = ["<!-- benchaudit: ignore[unreachable-score] mean of 10 samples -->", "", "87.3%"]
    (s,) = parse(lines)
    assert (s.line, s.target, s.names, s.reason, s.valid) == (
        1,
        3,
        ("unreachable-score",),
        "mean of 10 samples",
        True,
    )


def test_parse_same_line_and_hash_and_slashes():
    lines = [
        "Score 87.3% <!-- benchaudit: ignore[BA101, excess-precision] checked by hand -->",
        "# benchaudit: ignore[row-count-mismatch] two prompt formats",
        "a,1,1",
        "x = 1  // benchaudit: ignore[*] generated table",
    ]
    got = [(s.line, s.target, s.names, s.reason) for s in parse(lines)]
    assert got == [
        (1, 1, ("BA101", "excess-precision"), "checked by hand"),
        (2, 3, ("row-count-mismatch",), "two prompt formats"),
        (4, 4, ("*",), "generated table"),
    ]


@pytest.mark.parametrize("tail", ["-->", " -->", " - -->", " -- 12 -->", " : -->", ""])
def test_no_reason_is_invalid(tail):
    (s,) = parse([f"<!-- benchaudit: ignore[unreachable-score]{tail}"])
    assert not s.valid
    assert inline_suppressions([f"<!-- benchaudit: ignore[unreachable-score]{tail}"]) == {}


def test_reason_after_dashes_is_kept():
    (s,) = parse(["<!-- benchaudit: ignore[x] -- averaged over 64 samples -->"])
    assert s.reason == "averaged over 64 samples" and s.valid


# --- the engine ------------------------------------------------------------------------


def test_without_suppression_both_lines_are_reported(env):
    (env / "card.md").write_text(CARD)
    assert _where(_run(env / "card.md")) == [
        ("test-unreachable", 3, "error"),
        ("test-unreachable", 5, "error"),
    ]


def test_comment_above_removes_exactly_the_next_lines_finding(env):
    text = CARD.replace(
        "We reach", "<!-- benchaudit: ignore[test-unreachable] mean of 10 samples -->\nWe reach"
    )
    (env / "card.md").write_text(text)
    assert _where(_run(env / "card.md")) == [("test-unreachable", 6, "error")]


def test_comment_on_the_line_removes_only_that_line(env):
    text = CARD.replace(
        "model A.", "model A. <!-- benchaudit: ignore[BA199] pass@1 over 10 samples -->"
    )
    (env / "card.md").write_text(text)
    assert _where(_run(env / "card.md")) == [("test-unreachable", 5, "error")]


def test_suppression_names_only_its_rules(env):
    (env / "card.md").write_text(
        "<!-- benchaudit: ignore[test-noise] the effect is reported elsewhere -->\n"
        "87.3% and within noise\n"
    )
    assert _where(_run(env / "card.md")) == [("test-unreachable", 2, "error")]


def test_comment_without_reason_suppresses_nothing_and_is_reported(env):
    text = CARD.replace("We reach", "<!-- benchaudit: ignore[test-unreachable] -->\nWe reach")
    (env / "card.md").write_text(text)
    report = _run(env / "card.md")
    assert _where(report) == [
        ("suppression-without-reason", 3, "warning"),
        ("test-unreachable", 4, "error"),
        ("test-unreachable", 6, "error"),
    ]
    f = report.findings[0]
    assert f.suggestion == (
        "<!-- benchaudit: ignore[test-unreachable] <why this finding does not apply> -->"
    )
    assert f.evidence["target_line"] == 4


def test_hash_comment_in_csv_and_text(env):
    (env / "scores.csv").write_text(
        "model,score\n# benchaudit: ignore[test-unreachable] rounding of the official table\n"
        "a,87.3%\nb,87.3%\n"
    )
    (env / "notes.txt").write_text("# benchaudit: ignore[test-unreachable]\n87.3%\n")
    got = _where(_run(env / "scores.csv", env / "notes.txt"))
    assert got == [
        ("suppression-without-reason", 1, "warning"),
        ("test-unreachable", 2, "error"),
        ("test-unreachable", 4, "error"),
    ]


def test_stale_suppression_is_reported_as_info(env):
    (env / "card.md").write_text(
        "<!-- benchaudit: ignore[test-unreachable] fixed upstream -->\nWe reach 87.2%.\n"
        "<!-- benchaudit: ignore[test-unreachabel] typo in the name -->\n87.3%\n"
    )
    report = _run(env / "card.md")
    assert _where(report) == [
        ("stale-suppression", 1, "info"),
        ("stale-suppression", 3, "info"),
        ("test-unreachable", 4, "error"),
    ]
    assert "suppressed nothing" in report.findings[0].message
    assert "test-unreachabel" in report.findings[1].message
    assert report.findings[1].evidence["unknown_rules"] == ["test-unreachabel"]


def test_used_suppression_is_not_stale(env):
    (env / "card.md").write_text(
        "<!-- benchaudit: ignore[test-unreachable] mean of 10 samples -->\n87.3%\n"
    )
    assert _where(_run(env / "card.md")) == []


def test_stale_is_not_judged_for_a_rule_that_did_not_run(env):
    (env / "card.md").write_text(
        "<!-- benchaudit: ignore[test-noise] reported elsewhere -->\n87.3%\n"
    )
    report = _run(env / "card.md", ignore=["test-noise"])
    assert _where(report) == [("test-unreachable", 2, "error")]


def test_per_file_ignores(env):
    (env / "docs").mkdir()
    (env / "docs" / "card.md").write_text(CARD)
    (env / "other.md").write_text("87.3% within noise\n")
    # Patterns match the path as given on the command line, or the file's name.
    report = _run(
        "docs/card.md",
        "other.md",
        **{"per-file-ignores": {"docs/*.md": ["test-unreachable"], "other.md": ["BA299"]}},
    )
    assert _where(report) == [("test-unreachable", 1, "error")]
    assert report.findings[0].location.file == "other.md"


def test_per_file_ignores_from_pyproject(env):
    (env / "pyproject.toml").write_text(
        '[tool.benchaudit]\nallow-broad-ignores = true\nper-file-ignores = {"legacy/*" = ["*"]}\n'
    )
    (env / "legacy").mkdir()
    (env / "legacy" / "old.md").write_text(CARD)
    (env / "new.md").write_text(CARD)
    result = CliRunner().invoke(main, ["check", "legacy/old.md", "new.md", "--format", "json"])
    files = {f["file"] for f in json.loads(result.output)["findings"]}
    assert files == {"new.md"} and result.exit_code == 1


# --- baselines -------------------------------------------------------------------------


def test_baseline_written_and_reread_gives_exit_0(env):
    (env / "card.md").write_text(CARD)
    runner = CliRunner()
    first = runner.invoke(main, ["check", "card.md", "--write-baseline", "base.json"])
    assert first.exit_code == 1
    data = json.loads((env / "base.json").read_text())
    assert len(data["fingerprints"]) == 2 and data["findings"][0]["rule"] == "BA199"
    again = runner.invoke(main, ["check", "card.md", "--baseline", "base.json"])
    assert again.exit_code == 0, again.output
    assert "grade A" in again.output


def test_baseline_survives_lines_inserted_above(env):
    (env / "card.md").write_text(CARD)
    runner = CliRunner()
    runner.invoke(main, ["check", "card.md", "--write-baseline", "base.json"])
    (env / "card.md").write_text("Intro.\n\nMore intro.\n\n" + CARD)
    moved = runner.invoke(main, ["check", "card.md", "--baseline", "base.json", "--format", "json"])
    assert moved.exit_code == 0, moved.output
    assert json.loads(moved.output)["findings"] == []


def test_baseline_does_not_hide_a_new_finding(env):
    (env / "card.md").write_text(CARD)
    runner = CliRunner()
    runner.invoke(main, ["check", "card.md", "--write-baseline", "base.json"])
    (env / "card.md").write_text(CARD + "\nModel C: 87.3% too.\n")
    result = runner.invoke(
        main, ["check", "card.md", "--baseline", "base.json", "--format", "json"]
    )
    assert result.exit_code == 1
    assert [f["line"] for f in json.loads(result.output)["findings"]] == [7]


def test_baseline_of_a_changed_claim_does_not_match(env):
    (env / "card.md").write_text(CARD)
    runner = CliRunner()
    runner.invoke(main, ["check", "card.md", "--write-baseline", "base.json"])
    (env / "card.md").write_text(CARD.replace("model A", "model A2"))
    result = runner.invoke(
        main, ["check", "card.md", "--baseline", "base.json", "--format", "json"]
    )
    assert [f["line"] for f in json.loads(result.output)["findings"]] == [3]


@pytest.mark.parametrize(
    "content,msg",
    [
        (None, "baseline file not found"),
        ("{not json", "not a baseline file"),
        ('{"tool": "benchaudit"}', "no 'fingerprints' list"),
    ],
)
def test_bad_baseline_is_one_line_exit_2(env, content, msg):
    (env / "card.md").write_text(CARD)
    if content is not None:
        (env / "base.json").write_text(content)
    result = CliRunner().invoke(main, ["check", "card.md", "--baseline", "base.json"])
    assert result.exit_code == 2
    assert msg in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_examples_in_markdown_code_blocks_are_not_suppressions(env):
    (env / "guide.md").write_text(
        "How to suppress:\n\n```markdown\n<!-- benchaudit: ignore[test-unreachable] -->\n"
        "```\n\nor\n\n    # benchaudit: ignore[test-unreachable]\n\n"
        "<!-- benchaudit: ignore[test-unreachable] -->\n87.3%\n"
    )
    report = _run(env / "guide.md")
    got = [(f.name, f.location.line) for f in report.findings if f.name != "test-unreachable"]
    assert got == [("suppression-without-reason", 11)]


def test_code_lines():
    from benchaudit.suppress import _code_lines

    lines = ["text", "", "    code", "    more", "text", "```", "x", "```", "    not code"]
    assert _code_lines(lines) == {2, 3, 5, 6, 7}


def test_inline_code_span_is_not_a_suppression():
    line = "write `<!-- benchaudit: ignore[...] reason -->` above the line"
    assert parse([line], markdown=True) == []
    assert len(parse([line])) == 1


# --- the same with the real rules and the installed command ---------------------------

REAL_CARD = """# Model card

We reach 87.3% on HumanEval (greedy decoding, a single pass).

Our second model reaches 87.3% on HumanEval (greedy decoding, a single pass) as well.
"""


def _cli(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benchaudit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def real_rules():
    from benchaudit.registry import all_rules

    if "unreachable-score" not in all_rules():
        pytest.skip("the unreachable-score rule is not available")


def test_real_inline_suppression_removes_exactly_its_line(tmp_path, real_rules):
    card = tmp_path / "card.md"
    card.write_text(
        REAL_CARD.replace(
            "We reach",
            "<!-- benchaudit: ignore[unreachable-score] mean of 10 samples -->\nWe reach",
        )
    )
    report = audit([str(card)], Config(select=["unreachable-score", "BA9"]))
    assert [(f.name, f.location.line) for f in report.findings] == [("unreachable-score", 6)]


@pytest.mark.slow
def test_real_baseline_round_trip_through_the_command(tmp_path, real_rules):
    (tmp_path / "card.md").write_text(REAL_CARD)
    first = _cli("check", "card.md", "--write-baseline", "baseline.json", cwd=tmp_path)
    assert first.returncode == 1, first.stdout + first.stderr
    again = _cli("check", "card.md", "--baseline", "baseline.json", cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    (tmp_path / "card.md").write_text("Intro.\n\n" * 5 + REAL_CARD)
    moved = _cli(
        "check", "card.md", "--baseline", "baseline.json", "--format", "json", cwd=tmp_path
    )
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert json.loads(moved.stdout)["findings"] == []
