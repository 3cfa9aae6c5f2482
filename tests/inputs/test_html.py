"""HTML input: visible text in order, source line numbers, tables, suppressions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.inputs._html_page import parse

CARD = """<!DOCTYPE html>
<html><head><title>Card</title><style>p {color: red}</style>
<script>var claim = "significantly better, p < 0.05";</script></head>
<body>
<h1>Model card</h1>
<p>We compare the original and the quantized model.</p>
<table>
  <tr><th>Benchmark</th><th>FP16</th><th>INT4</th></tr>
  <tr><td>HumanEval</td><td>70.1</td><td>63.4</td></tr>
  <tr><td>GSM8K</td><td>80.2</td><td>79.9</td></tr>
</table>
<p>The INT4 model does not suffer from
significant performance degradation.</p>
<ul><li>GPT-4 as a judge reaches 85% agreement with human annotators.</li>
<li>We tried 20 prompts and report the best one.</li></ul>
</body></html>
"""


def test_visible_text_only_with_source_lines():
    lines, numbers, tables = parse(CARD)
    text = " ".join(lines)
    assert "var claim" not in text and "color: red" not in text and "Card" not in text
    assert numbers[lines.index("The INT4 model does not suffer from")] == 12
    assert (
        numbers[lines.index("GPT-4 as a judge reaches 85% agreement with human annotators.")] == 14
    )
    [t] = tables
    assert t["rows"][1] == ["HumanEval", "70.1", "63.4"] and t["lines"] == [8, 9, 10]


def test_entities_and_inline_markup():
    lines, _, _ = parse("<p>Model&nbsp;A <b>(73.0%)</b> outperforms model B (70.0&#37;).</p>")
    assert lines[0] == "Model A (73.0%) outperforms model B (70.0%)."


def test_html_findings_point_at_html_lines(tmp_path):
    p = tmp_path / "card.html"
    p.write_text(CARD, encoding="utf-8")
    report = audit(
        [str(p)], Config(select=["null-as-equivalence", "judge-agreement", "winners-curse"])
    )
    got = {(f.location.line, f.name) for f in report.findings if f.severity.label == "warning"}
    assert got == {(12, "null-as-equivalence"), (14, "judge-agreement"), (15, "winners-curse")}
    [eq] = [f for f in report.findings if f.name == "null-as-equivalence"]
    assert "HumanEval" in eq.message and "164" in eq.message


def test_inline_suppression_in_html(tmp_path):
    p = tmp_path / "card.html"
    p.write_text(
        CARD.replace(
            "<ul><li>GPT-4",
            "<ul><li><!-- benchaudit: ignore[judge-agreement] kappa in appendix -->GPT-4",
        ),
        encoding="utf-8",
    )
    report = audit([str(p)], Config(select=["judge-agreement"]))
    assert not report.findings


def test_html_tables_are_score_tables(tmp_path):
    p = tmp_path / "card.html"
    p.write_text(CARD, encoding="utf-8")
    report = audit([str(p)], Config(select=["missing-interval"]))
    assert report.numbers_seen >= 6
    assert {f.location.line for f in report.findings} <= {9, 10}


def test_empty_and_scriptonly_html(tmp_path):
    import pytest

    from benchaudit.errors import InputError

    p = tmp_path / "empty.html"
    p.write_text("<html><head><script>x = 1</script></head><body></body></html>", encoding="utf-8")
    with pytest.raises(InputError, match="no visible text"):
        audit([str(p)], Config())


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/=\"' abptdrhl!-&;#x0123456789\n")), max_size=200))
def test_parse_never_raises(text):
    lines, numbers, tables = parse(text)
    assert len(lines) == len(numbers)
