"""Comparison and significance claims extracted from single sentences and documents."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import Context, audit
from benchaudit.finding import Confidence, Location
from benchaudit.inputs.comparisons import (
    LocatedSentence,
    extract_document,
    extract_sentence,
    to_int,
)


@pytest.fixture(scope="module")
def ctx():
    return Context(Config())


def one(text, ctx, kind="comparison"):
    got = [c for c in extract_sentence(LocatedSentence(text, Location("t.md", 1)), ctx) if c.kind == kind]
    assert len(got) == 1, [c.kind for c in extract_sentence(text, ctx)]
    return got[0]


def test_vs_pair_with_n_and_same_items(ctx):
    c = one("On the same 500 questions, model A (73.0%) outperforms model B (70.0%).", ctx)
    f = c.fields
    assert (f["a_value"], f["b_value"], f["pair"]) == ("73.0", "70.0", "paren")
    assert c.n == 500 and c.n_source == "sentence"
    assert f["same_items"] and f["direction"] == "better"
    assert c.confidence is Confidence.HIGH


def test_from_to_and_registry_n(ctx):
    c = one("Our method improves accuracy on GSM8K from 70.0% to 73.0%.", ctx)
    assert (c.fields["a_value"], c.fields["b_value"], c.fields["pair"]) == (
        "70.0",
        "73.0",
        "from-to",
    )
    assert c.benchmark == "GSM8K" and c.n == 1319 and c.n_source == "registry"


def test_model_names_with_digits_are_not_scores(ctx):
    c = one("The 4-bit model scores 63.4% vs 70.1% for the original on HumanEval.", ctx)
    assert (c.fields["a_value"], c.fields["b_value"]) == ("63.4", "70.1")


@pytest.mark.parametrize(
    "text,test,value,df",
    [
        ("t(28) = 2.20, p = .04", "t", "2.20", [28.0]),
        ("F(1, 30) = 4.17, p = .05", "F", "4.17", [1.0, 30.0]),
        ("χ2(1) = 2.26, p = .13", "chi2", "2.26", [1.0]),
        ("chi-square(2, N = 300) = 7.1, p = .03", "chi2", "7.1", [2.0]),
        ("z = 2.17, p = 0.03", "z", "2.17", []),
        ("r(48) = .35, p = .01", "r", ".35", [48.0]),
    ],
)
def test_statistics(text, test, value, df, ctx):
    c = one(f"The difference was significant, {text}.", ctx)
    s = c.fields["stats"][0]
    assert (s["test"], s["value"], s["df"]) == (test, value, df)
    assert c.fields["pvalues"]


@pytest.mark.parametrize(
    "text,op,value",
    [
        ("p < .05", "<", "0.05"),
        ("p = 0.036", "=", "0.036"),
        ("p ≤ 0.01", "<=", "0.01"),
        ("p-value of 0.2", None, None),
        ("p = 3.2 × 10^-4", "=", "0.00032"),
        ("p = 1e-5", "=", "1e-5"),
    ],
)
def test_pvalues(text, op, value, ctx):
    got = extract_sentence(f"Model A beats model B ({text}).", ctx)
    pv = [p for c in got for p in c.fields.get("pvalues", [])]
    if op is None:
        assert not pv or pv[0]["op"] == "="
    else:
        assert (pv[0]["op"], pv[0]["value"]) == (op, value)


@pytest.mark.parametrize(
    "text,counts",
    [
        (
            "Model A was right on 90 questions where model B was wrong and B on 70 where A was wrong.",
            [90, 70],
        ),
        ("The models have 30 vs 15 discordant items.", [30, 15]),
        ("Discordant pairs: 45 and 87.", [45, 87]),
        ("b = 30, c = 15 (McNemar).", [30, 15]),
        ("The new model fixes 17 items and breaks none.", [17, 0]),
    ],
)
def test_discordant_counts(text, counts, ctx):
    assert one(text, ctx).fields["discordant"] == counts


def test_discordant_counts_are_not_n(ctx):
    c = one("Model A was right on 90 items where B was wrong and B on 70, p < 0.05.", ctx)
    assert c.n is None


def test_significance_words(ctx):
    assert one("The gain is statistically significant.", ctx).fields["significant"] == "yes"
    assert one("The gain is not statistically significant.", ctx).fields["significant"] == "no"
    c = one("The quantized model does not suffer from significant performance degradation.", ctx)
    assert c.fields["significant"] == "no" and c.fields["equivalence"]


def test_intervals_both_sides(ctx):
    c = one(
        "Model A scores 70.0 ± 2.0 and model B 74.0 ± 2.0; the intervals overlap, so no difference.",
        ctx,
    )
    ivs = [iv for iv in c.fields["intervals"] if "pm" in iv]
    assert [(iv["value"], iv["pm"]) for iv in ivs] == [("70.0", "2.0"), ("74.0", "2.0")]
    assert c.fields["overlap"] == "null"
    c = one("A reaches 71.0 (95% CI 68.2–73.8) and B 69.0 [66.1, 71.9], a clear improvement.", ctx)
    los = [iv["lo"] for iv in c.fields["intervals"] if "lo" in iv]
    assert los == ["68.2", "66.1"]


def test_unpaired_and_paired_tests_named(ctx):
    c = one("A two-proportion z-test on the same test set gives p = 0.03.", ctx)
    assert c.fields["unpaired_test"] and c.fields["same_items"]
    c = one("A paired bootstrap gives p = 0.03.", ctx)
    assert c.fields["paired_test"] and not c.fields["unpaired_test"]


@pytest.mark.parametrize(
    "text,k,what",
    [
        ("We report best of 5 accuracy on MATH-500.", 5, "candidates"),
        ("We report the best-of-5 checkpoints on MATH-500.", 5, "checkpoints"),
        ("We tried 20 prompts and report the best one.", 20, "prompts"),
        ("We evaluated ten checkpoints and report the highest.", 10, "checkpoints"),
        ("Numbers are the best of 3 seeds.", 3, "seeds"),
        ("We report the best checkpoint out of 12.", 12, "checkpoint"),
    ],
)
def test_selection(text, k, what, ctx):
    c = one(text, ctx, "selection")
    assert c.fields["k"] == k and c.fields["what"] == what


def test_bare_best_of_n_is_sampling_not_selection(ctx):
    # "best-of-5" with no candidates named is a per-problem choice among samples.
    text = "We report best-of-5 accuracy on MATH-500."
    got = extract_sentence(LocatedSentence(text, Location("t.md", 1)), ctx)
    assert not [c for c in got if c.kind == "selection"]


def test_selection_on_validation(ctx):
    c = one("We tried 20 prompts and picked the best on the validation set.", ctx, "selection")
    assert c.fields["validation"]


def test_seeds(ctx):
    c = one("Accuracy is 71.2 ± 2.1 (mean ± 1.96 sd over three seeds).", ctx, "seeds")
    assert c.fields["k"] == 3 and c.fields["z196"]
    assert (c.value, c.plus_minus) == ("71.2", "2.1")


def test_agreement(ctx):
    c = one("GPT-4 as a judge reaches 85% agreement with human annotators.", ctx, "agreement")
    assert c.value == "85" and not c.fields["kappa"]
    c = one("The judge agrees with experts 85% of the time (Cohen's kappa 0.62).", ctx, "agreement")
    assert c.fields["kappa"]


def test_passk_formula(ctx):
    c = one("We compute pass@k = 1 − (1 − c/n)^k.", ctx, "pass-at-k")
    assert not c.fields["unbiased_named"]
    assert not [
        x for x in extract_sentence("pass@k = 1 - C(n-c, k)/C(n, k)", ctx) if x.kind == "pass-at-k"
    ]


def test_emergence(ctx):
    c = one("The ability emerges abruptly at 62B parameters under exact match.", ctx, "emergence")
    assert c.fields["metric"] == "exact match" and c.confidence is Confidence.HIGH


def test_chance_level(ctx):
    c = one("With CircularEval over all 4 rotations, the chance level is 25%.", ctx, "chance-level")
    assert (c.fields["rotations"], c.fields["needed"], c.fields["options"]) == (4, 4, 4)


def test_generations(ctx):
    c = one(
        "We sample 10 completions per problem on HumanEval and report the standard error over "
        "all 1,640 samples.",
        ctx,
        "generations",
    )
    assert c.samples == 10 and c.fields["n_used"] == 1640 and c.fields["items"] == 164


@pytest.mark.parametrize(
    "text",
    [
        "We release the model weights under the Apache 2.0 license.",
        "The model has 7B parameters and a context of 32k tokens.",
        "Training took 3 days on 64 GPUs.",
        "HumanEval contains 164 hand-written programming problems.",
    ],
)
def test_plain_sentences_give_no_comparison(text, ctx):
    assert not extract_sentence(text, ctx)


def test_to_int():
    assert to_int("1,319") == 1319 and to_int("three") == 3 and to_int("x") is None


def test_n_from_earlier_in_the_paragraph(tmp_path):
    p = tmp_path / "card.md"
    p.write_text(
        "We evaluate both models on 500 held-out questions.\n"
        "Model A (73.0%) outperforms model B (70.0%).\n",
        encoding="utf-8",
    )
    report = audit([str(p)], Config(select=["within-noise"]))
    [f] = report.findings
    assert f.location.line == 2 and f.evidence["n"] == 500


def test_document_pass_inherits_n_within_a_paragraph(ctx):
    para, other = object(), object()
    a = extract_sentence(
        LocatedSentence("On the same 500 questions A beats B (p = 0.01).", Location("d.md", 1), para), ctx
    )
    b = extract_sentence(
        LocatedSentence("Model A (73.0%) outperforms model B (70.0%).", Location("d.md", 2), para), ctx
    )
    c = extract_sentence(
        LocatedSentence("Model C (73.0%) outperforms model D (70.0%).", Location("d.md", 4), other), ctx
    )
    claims = extract_document([*a, *b, *c], [], ctx)
    by_line = {x.location.line: x for x in claims if x.kind == "comparison"}
    assert by_line[2].n == 500 and by_line[2].n_source.startswith("context")
    assert by_line[4].n is None  # another paragraph: no context carried over


def test_end_to_end_markdown(tmp_path):
    p = tmp_path / "card.md"
    p.write_text(
        "On the same 500 questions, model A (73.0%) outperforms model B (70.0%).\n",
        encoding="utf-8",
    )
    report = audit([str(p)], Config(select=["within-noise"]))
    [f] = report.findings
    assert f.suggestion.startswith("73.0% vs 70.0% on the same 500 questions: +3.0 points")
    assert "−2.6 to +8.6" in f.suggestion


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("abcdefpz tnx()=<>%.,;:±-−+0123456789vs^*/χ²F[]")),
        max_size=120,
    )
)
def test_extraction_never_raises(text):
    ctx = Context(Config())
    for c in extract_sentence(text, ctx):
        assert c.kind in {
            "comparison",
            "selection",
            "seeds",
            "agreement",
            "pass-at-k",
            "emergence",
            "chance-level",
            "generations",
        }


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_extraction_never_raises_on_any_text(text):
    extract_sentence(text, Context(Config()))
