"""Line shapes of the eighth labelled set's misses (tests/data/claims_eval/PROVENANCE.md,
"fresh7.yaml"): one sentence each, audited with every rule, and the helpers that read them.

The sentences are written for this test in the shapes of the misses, not copied from the set.
"""

from __future__ import annotations

import pytest

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.finding import Severity
from benchaudit.inputs.clauses import contrast_clause
from benchaudit.inputs.named_pairs import named_pair

CASES = [
    # "k/n vs k/n": the denominator is no score; a null on 25 per arm is underpowered.
    ("We saw no significant difference between the two templates (15/25 vs 12/25).", {"underpowered"}),
    # The same fractions with a real gap and a claim of it: no null, no underpowered.
    ("Across 400 problems the new prompt solved 300/400 vs 220/400 for the old one.", set()),
    # A parity word in a contrasting clause whose own p is not significant.
    (
        "Model A wrote significantly longer answers than model B (p < 0.001), while latency was "
        "similar (p = 0.41).",
        {"null-as-equivalence"},
    ),
    # Both clauses significant: no null.
    (
        "Model A wrote significantly longer answers (p < 0.001), while latency was significantly "
        "lower (p = 0.01).",
        set(),
    ),
    ("Scores were stable across the three sessions (p > 0.05).", {"null-as-equivalence"}),
    ("The scores are consistent with the published numbers.", set()),
    ("The two graders did not differ significantly, so either can be used interchangeably.", {"null-as-equivalence"}),
    # A true/false test has two options.
    ("On the true/false test the model's 58% is only a little above chance (25%).", {"wrong-chance-level"}),
    ("On the true/false test the model's 58% is only a little above chance (50%).", set()),
    # "(n = K, P%)": K cases and their share of a larger group; K is not the item count.
    ("The most common error was a wrong unit (n = 30, 71.4%), then a wrong sign (n = 12, 28.6%).", set()),
    # A curly apostrophe in a benchmark's name.
    ("It scores 62.1% on AIME’24 with greedy decoding.", {"unreachable-score"}),
    # "x for A vs y for B" with a claim of a lead.
    ("On MATH-500, 71.2 for our model vs 70.4 for the baseline, the best result so far.", {"within-noise"}),
    ("On MATH-500, 71.2 for our model vs 55.4 for the baseline, the best result so far.", set()),
]


def _fired(folder, text: str) -> set[str]:
    path = folder / "line.md"
    path.write_text(text + "\n", encoding="utf-8")
    found = [f for f in audit([str(path)], Config()).findings if f.severity >= Severity.WARNING]
    return {f.name for f in found} - {"claim-without-evidence"}  # a sentence alone has no tables


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_line(tmp_path, text, expected):
    assert _fired(tmp_path, text) == expected


def test_contrast_clause_is_the_clause_after_the_contrast_word():
    text = "A was faster (p < 0.01), whereas B was comparable (p = 0.3); C was not tested."
    clause = contrast_clause(text, text.index("comparable"))
    assert clause is not None
    assert "comparable (p = 0.3)" in clause and "faster" not in clause and "C was" not in clause
    assert contrast_clause(text, text.index("faster")) is None
    assert contrast_clause("No contrast here (p = 0.2).", 3) is None


def test_named_pair_reads_scores_whose_names_follow_them():
    assert named_pair("84.8 for model A vs 83.1 for model B") == ("84.8", "83.1")
    assert named_pair("28.76 on Physics vs 28.3 for GLM") == ("28.76", "28.3")
    assert named_pair("84.8 vs 83.1") is None
    assert named_pair("released 2024 for A vs 2023 for B") is None


@pytest.mark.parametrize(
    ("stated", "flagged"),
    [("7.5", True), ("10.2", False)],  # 81.0 - 73.5 is 7.5 points, 10.2% relative
)
def test_a_lead_over_a_score_with_its_spread(tmp_path, stated, flagged):
    # "81.0 ± 9.5%": the score is 81.0 and 9.5 its spread; whether the spreads also put the lead
    # inside the noise is within-noise's question, not this one.
    text = f"The models averaged 81.0 ± 9.5%, outperforming the residents (73.5 ± 11.2%) by {stated}%."
    assert ("percent-vs-points" in _fired(tmp_path, text)) is flagged


def test_responses_over_items_needs_the_interval_of_the_responses():
    from benchaudit.inputs.response_counts import responses_over_items

    text = "It answered 80.0% of its 2,000 answers correctly (the 100 questions asked 20 times), 95% CI 78.2-81.8%."
    iv = [{"lo": "78.2", "hi": "81.8", "level": "95", "pos": text.index("78.2")}]
    assert responses_over_items(text, iv) == (20, 2000, 100)
    # An interval as wide as the 100 questions' (±7.8) is computed over the questions: no finding.
    wide = [{"lo": "72.2", "hi": "87.8", "level": "95", "pos": text.index("78.2")}]
    assert responses_over_items(text, wide) is None
    # Not a whole multiple of the items: no reading.
    assert responses_over_items(text.replace("2,000", "2,010"), iv) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The model got 72.0% of its 1,500 answers right (the 50 questions asked 30 times), "
            "95% CI 69.7-74.3%.",
            {"generations-as-items"},
        ),
        (
            "The model got 72.0% of its 1,500 answers right (the 50 questions asked 30 times), "
            "95% CI 59.6-84.4% over questions.",
            set(),
        ),
    ],
)
def test_repeated_answers_counted_as_items(tmp_path, text, expected):
    assert _fired(tmp_path, text) == expected
