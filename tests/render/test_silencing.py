"""No silent silencing: every format says how many findings were suppressed and by what,
lists them beside the grade, and names the configuration used; broad suppressions from
the files under check need ``allow-broad-ignores``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchaudit.config import Config, apply
from benchaudit.engine import audit

#: An error (F): the Wald interval runs past 100%.
BAD = "It answers 8 of 10 questions: 80% (95% CI 55.2–104.8%).\n"
FORMATS = ("text", "markdown", "html", "json", "sarif", "github")


def _cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
    )


def _said(fmt: str, out: str, n: int) -> bool:
    """Whether output ``out`` of format ``fmt`` states ``n`` suppressed findings."""
    if fmt == "json":
        return json.loads(out)["suppressed"]["total"] == n
    if fmt == "sarif":
        run = json.loads(out)["runs"][0]
        hidden = [r for r in run["results"] if r.get("suppressions")]
        return run["properties"]["suppressed"]["total"] == n == len(hidden)
    if fmt == "html":
        return f"<b>{n}</b> suppressed" in out
    return (f"suppressed: {n} finding(s)" if n else "suppressed: 0 findings") in out


def _audit(tmp_path, text: str, raw: dict | None = None, name: str = "card.md"):
    (tmp_path / name).write_text(text, encoding="utf-8")
    cfg = apply(Config(), raw or {}, "pyproject.toml")
    return audit([str(tmp_path / name)], cfg)


def test_ignore_star_is_not_honoured_and_is_a_finding(tmp_path):
    report = _audit(tmp_path, "<!-- benchaudit: ignore[*] ok fine -->\n" + BAD)
    assert report.grade == "F"
    assert "broad-suppression" in {f.name for f in report.findings}
    assert report.suppressed == []


def test_allowed_broad_ignore_is_honoured_and_listed_beside_the_grade(tmp_path):
    report = _audit(
        tmp_path, "<!-- benchaudit: ignore[*] ok fine -->\n" + BAD, {"allow-broad-ignores": True}
    )
    assert report.grade != "F" and report.grade_unsuppressed == "F"
    counts = report.suppressed_counts()
    assert counts["inline"] == counts["total"] >= 1
    assert "grade F with them" in report.suppression_line()


def test_a_hidden_span_suppression_is_counted_like_any_other(tmp_path):
    text = BAD.rstrip("\n") + " <span hidden>benchaudit: ignore[interval-out-of-range] ok</span>\n"
    report = _audit(tmp_path, text)
    hidden = [h for h in report.suppressed if h.finding.name == "interval-out-of-range"]
    assert hidden and hidden[0].by == "inline" and "line 1" in hidden[0].detail


def test_each_kind_of_suppression_is_counted_by_what_hid_it(tmp_path):
    (tmp_path / "a.md").write_text(BAD)
    (tmp_path / "b.md").write_text("We reach 87.3% on HumanEval.\n")  # BA101, BA103
    (tmp_path / "c.md").write_text(
        "<!-- benchaudit: ignore[interval-out-of-range] checked by hand -->\n" + BAD
    )
    cfg = apply(
        Config(), {"per-file-ignores": {"a.md": ["interval-out-of-range"]}, "ignore": ["BA103"]}, "x"
    )
    report = audit([str(tmp_path / n) for n in ("a.md", "b.md", "c.md")], cfg)
    counts = report.suppressed_counts()
    assert counts["per_file_ignores"] == 1 and counts["inline"] == 1 and counts["config"] >= 1
    # The baseline hides what is left, and is counted too.
    from benchaudit.suppress import write_baseline

    write_baseline(report.findings, str(tmp_path / "base.json"))
    cfg.baseline = str(tmp_path / "base.json")
    again = audit([str(tmp_path / n) for n in ("a.md", "b.md", "c.md")], cfg)
    assert again.findings == [] or all(f.name == "stale-suppression" for f in again.findings)
    assert again.suppressed_counts()["baseline"] == len(report.findings)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_states_the_suppressed_count_and_the_config(tmp_path, fmt):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.benchaudit]\nper-file-ignores = {"card.md" = ["interval-out-of-range"]}\n'
    )
    (tmp_path / "card.md").write_text(BAD)
    out = _cli("card.md", "--format", fmt, "--fail-on", "never", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert _said(fmt, out.stdout, 1), out.stdout[-600:]
    assert "pyproject.toml" in out.stdout
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "card.md").write_text("We reach 87.2% on HumanEval.\n")
    (clean / ".git").mkdir()  # the search for a configuration stops here
    out = _cli("card.md", "--format", fmt, "--fail-on", "never", cwd=clean)
    assert _said(fmt, out.stdout, 0), out.stdout[-600:]


def test_broad_ignores_in_the_scanned_repository_configuration(tmp_path):
    (tmp_path / "card.md").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.benchaudit]\nignore = ["BA"]\nfail-on = "never"\n'
    )
    out = _cli("card.md", "--format", "json", cwd=tmp_path)
    doc = json.loads(out.stdout)
    assert out.returncode == 1 and doc["grade"] == "F"
    broad = [f for f in doc["findings"] if f["name"] == "broad-suppression"]
    assert {f["line"] for f in broad} == {2, 3} and all(f["file"] == "pyproject.toml" for f in broad)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.benchaudit]\nallow-broad-ignores = true\nignore = ["BA"]\nfail-on = "never"\n'
    )
    out = _cli("card.md", "--format", "json", cwd=tmp_path)
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["findings"] == []
    assert doc["suppressed"]["config"] >= 1 and doc["suppressed"]["grade_unsuppressed"] == "F"


def test_command_line_ignores_are_honoured(tmp_path):
    (tmp_path / "card.md").write_text(BAD)
    out = _cli("card.md", "--ignore", "BA1", "--fail-on", "never", cwd=tmp_path)
    assert out.returncode == 0 and "broad-suppression" not in out.stdout
    assert "by the ignore list" in out.stdout
