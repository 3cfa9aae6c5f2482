"""Plain text (colour only on a terminal) and markdown for pull-request comments."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest
from report_samples import EVIL, sample_report

from benchaudit.finding import Confidence, Finding, Location, Report, Severity
from benchaudit.render import markdown, text


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_text_is_plain_by_default_and_when_piped(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    out = text.render(sample_report())
    assert "\x1b[" not in out
    assert out.splitlines()[0].startswith(
        "docs/card.md:12:5: BA101 error [high] unreachable-score:"
    )
    assert out.rstrip().endswith(
        "grade F: 1 error(s), 1 warning(s), 1 info; 11 number(s) seen, 7 claim(s) checked"
    )
    assert "within noise second line" in out  # a message stays on its line


def test_text_colour_on_a_terminal_only(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stdout", _Tty())
    coloured = text.render(sample_report())
    assert "\x1b[1;31merror\x1b[0m" in coloured and "\x1b[1;31mgrade F\x1b[0m" in coloured
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in text.render(sample_report())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert "\x1b[" not in text.render(sample_report())


def test_text_without_colour_is_the_coloured_text_minus_escapes():
    import re

    plain = text.render(sample_report(), color=False)
    coloured = text.render(sample_report(), color=True)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def _check_on_a_terminal(cwd, *args: str) -> str:
    """Run ``benchaudit check`` with stdout on a pseudo-terminal; return what the terminal got.

    A real terminal, not a patched ``isatty``: CliRunner swaps stdout for its own
    buffer, so a patch on the stream the test sees never reaches the renderer.
    """
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm"
    try:
        subprocess.run(
            [sys.executable, "-m", "benchaudit", "check", *args],
            cwd=cwd,
            stdout=slave,
            stderr=subprocess.DEVNULL,
            env=env,
            timeout=120,
        )
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the writer has gone
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_no_colour_in_an_output_file_even_from_a_terminal(tmp_path):
    (tmp_path / "card.md").write_text("We reach 87.3% on HumanEval.\n")
    # The control: on the terminal itself the text is coloured, so the terminal is real.
    shown = _check_on_a_terminal(tmp_path, "card.md")
    assert "unreachable-score" in shown and "\x1b[1m" in shown
    _check_on_a_terminal(tmp_path, "card.md", "--format", "text", "--output", "out.txt")
    written = (tmp_path / "out.txt").read_text()
    assert "unreachable-score" in written
    assert "\x1b[" not in written


def test_markdown_comment_groups_by_file_and_escapes():
    md = markdown.render(sample_report())
    assert md.startswith("## 🔴 benchaudit: grade F\n")
    assert "#### `docs/card.md`" in md and "#### `results/scores.csv`" in md
    assert EVIL not in md.replace("`" + EVIL, "")  # raw only inside a code span
    assert "&lt;script&gt;" in md or "`<script>alert(1)</script>" in md
    assert "<details><summary>Per-model scores (95% intervals) (3 row(s))</summary>" in md
    assert "| ❌ error | 12:5 | BA101 `unreachable-score` |" in md


def test_markdown_neutralises_mentions_and_pipes():
    f = Finding(
        "BA201",
        "within-noise",
        Severity.WARNING,
        Confidence.HIGH,
        Location("a.md", 1),
        "ping @octocat | now",
        claim="a | b `c`",
        suggestion="x @y",
    )
    md = markdown.render(Report(findings=[f]))
    # An entity does not stop a mention (GitHub finds them after decoding); a code span does.
    assert "ping `@octocat` \\| now" in md
    assert "`` a \\| b `c` ``" in md


def test_markdown_is_cut_to_comment_size():
    f = Finding(
        "BA103", "missing-interval", Severity.INFO, Confidence.HIGH, Location("a.md", 1), "x" * 400
    )
    report = Report(findings=[f] * 500, results={"models": [{"model": "m" * 50}] * 2000})
    md = markdown.render(report)
    # GitHub's own limit for a comment, not the module's constant (which a test must not trust).
    assert len(md) <= 65_536
    more = re.search(r"… and (\d+) more finding\(s\)", md)
    assert more and 500 - int(more.group(1)) < markdown.MAX_FINDINGS  # cut by size, not count
    # The long results table keeps the rows that fit and says how many it left out.
    rows = re.search(r"… and ([\d,]+) more row\(s\)", md)
    assert rows and 0 < int(rows.group(1).replace(",", "")) < 2000


def test_markdown_no_findings():
    assert "No findings." in markdown.render(Report())


def test_judge_preferences_print_win_rates_in_percent_and_differences_in_points():
    from benchaudit.render.tables import result_tables

    report = Report(findings=[])
    report.results = {
        "preferences": [
            {"model": "m-a", "items": 805, "win_rate": 0.7692, "se": 0.00909,
             "low": 0.7514, "high": 0.787, "baseline": "ref"},
        ],
        "preference_comparisons": [
            {"baseline": "ref", "a": "m-a", "b": "m-b", "items": 805, "only_a": 0,
             "only_b": 0, "win_rate_a": 0.7692, "win_rate_b": 0.705, "diff": 0.0642,
             "ci_low": 0.0335, "ci_high": 0.095, "a_better": 320, "b_better": 485,
             "p_value": 0.0002, "p_adjusted": 0.0002, "test": "sign-flip-permutation"},
        ],
    }
    tables = {title: (header, rows) for title, header, rows in result_tables(report)}
    prefs = next(v for k, v in tables.items() if k.startswith("Judge preferences"))
    assert prefs[1][0][2:6] == ["76.92%", "0.91%", "75.14%", "78.70%"]
    pairs = next(v for k, v in tables.items() if k.startswith("Models judged"))
    row = dict(zip(pairs[0], pairs[1][0]))
    assert (row["win rate a"], row["win rate b"]) == ("76.92%", "70.50%")
    assert (row["Δ points"], row["low"], row["high"]) == ("+6.42", "+3.35", "+9.50")
