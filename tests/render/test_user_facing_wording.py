"""Small things a user reads: units, plurals, cut claims, rule docs in the HTML report."""

from __future__ import annotations

from benchaudit.rules.procedure.contamination import shorten

from benchaudit.finding import Report
from benchaudit.render import render
from benchaudit.render.ruledoc import rule_doc_html


def _report_with_comparison() -> Report:
    return Report(
        results={
            "comparisons": [
                {
                    "a": "m1",
                    "b": "m2",
                    "diff": -0.185,
                    "ci_low": -0.25,
                    "ci_high": -0.12,
                    "p_value": 0.001,
                    "p_adjusted": 0.002,
                    "test": "mcnemar-exact",
                }
            ]
        }
    )


def test_paired_differences_are_points_in_text_and_markdown():
    for fmt in ("text", "markdown"):
        out = render(_report_with_comparison(), fmt)
        assert "diff (points)" in out and "-18.50" in out
        assert "-18.50%" not in out


def test_underpowered_wording_is_singular_for_one_item_and_has_no_negative_gap():
    import pandas as pd

    import benchaudit

    rows = [
        {"model": m, "item": i, "correct": c}
        for m, cs in (("a", [1, 1, 0, 1, 0, 1]), ("b", [1, 0, 0, 1, 0, 1]))
        for i, c in enumerate(cs)
    ]
    r = benchaudit.audit_results(pd.DataFrame(rows))
    text = r.to_text()
    assert "differ on 1 item (" in text and "differ on 1 items" not in text
    assert "detecting -" not in text


def test_long_contamination_claims_are_cut_on_a_word_with_an_ellipsis():
    text = "Natalia sold clips to 48 of her friends in April, and then she sold half as many " * 5
    cut = shorten(text, 200)
    assert len(cut) <= 200 and cut.endswith("\u2026")
    assert text.startswith(cut[:-1]) and text[len(cut) - 1] == " "
    assert shorten("short item", 200) == "short item"


def test_rule_docs_render_as_formatted_html():
    from benchaudit.registry import lookup

    html = rule_doc_html(lookup("unreachable-score").documentation())
    assert "<strong>What.</strong>" in html and "**What.**" not in html
    assert "<code>n</code>" in html and "``n``" not in html
    assert "Bad:" in html and "Bad::" not in html and "<pre><code>" in html
    # Raw HTML in a docstring is text, never markup.
    assert "&lt;b&gt;" in rule_doc_html("X\n\n**What.** a <b> tag")
