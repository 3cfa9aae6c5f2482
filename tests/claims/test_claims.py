"""Claim extraction from prose and pipe tables."""

from __future__ import annotations

import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.finding import Confidence
from benchaudit.inputs import claims as C
from benchaudit.inputs import numbers as N
from benchaudit.inputs.tables import Table, tables_to_claims


@pytest.fixture
def ctx() -> Context:
    return Context(Config())


def scores(text: str, ctx: Context, **kw):
    found, _ = C.extract(text.split("\n"), "card.md", ctx, **kw)
    return [c for c in found if c.kind == "score"]


def kinds(text: str) -> list[tuple[str, str]]:
    return [(n.sign + n.text, n.kind) for n in N.scan(text)]


# ---------------------------------------------------------------- numbers


def test_numbers_keep_their_digits():
    [num] = [n for n in N.scan("We reach 70.0% overall.")]
    assert num.text == "70.0" and num.kind == "percent"
    assert N.scan("on 1,319 questions")[0].digits == "1319"


@pytest.mark.parametrize(
    "text,kind",
    [
        ("trained in 2024", "year"),
        ("a 7B model", "size"),
        ("a 70b model", "size"),
        ("1.5T tokens", "size"),
        ("GPT-4 and Llama-2", "identifier"),
        ("as shown in [12]", "citation"),
        ("see [3, 4]", "citation"),
        ("version 2.1", "version"),
        ("released on May 13", "date"),
        ("2024-05-13", "date"),
        ("5-shot prompting", "count"),
        ("on 500 questions", "items"),
        ("(164 problems)", "items"),
        ("n = 500", "items"),
        ("averaged over 64 samples", "samples"),
        ("3x faster", "multiplier"),
        ("the 2nd run", "ordinal"),
        ("143/164 correct", "fraction"),
    ],
)
def test_what_numbers_are(text, kind):
    assert N.scan(text)[0].kind == kind


@pytest.mark.parametrize(
    "text,role",
    [
        ("We reach 87.3% on HumanEval.", "score"),
        ("It solves 87.3% of the problems.", "score"),
        ("2.5% of the compute budget", "share"),
        ("we hold out 20% of the data", "share"),
        ("the top 10% of models", "share"),
        ("a 95% CI", "level"),
        ("with 95% confidence", "level"),
        ("a 5% improvement", "change"),
        ("improves by 5%", "change"),
        ("+5% over the baseline", "change"),
        ("3% fewer errors", "change"),
    ],
)
def test_what_percentages_are(text, role):
    num = next(n for n in N.scan(text) if n.kind == "percent")
    assert N.percent_role(text, num) == role


def test_non_scores_are_not_claims(ctx):
    text = (
        "Llama-2-7B was trained in 2023 on 2T tokens [12] with 2.5% of the compute budget; "
        "we sampled 20% of the data and used 5-shot prompts (v1.2)."
    )
    found, seen = C.extract([text], "card.md", ctx)
    assert found == []
    assert seen >= 5


# ---------------------------------------------------------------- sentences


def test_sentences_across_wrapped_lines_keep_the_line_of_the_number(ctx):
    lines = ["Our model is strong. On", "HumanEval it reaches", "87.3% with greedy decoding."]
    [c] = scores("\n".join(lines), ctx)
    assert c.location.line == 3 and c.location.column == 1
    assert c.benchmark == "HumanEval" and c.protocol == "single"
    assert c.text.startswith("On HumanEval it reaches 87.3%")


def test_abbreviations_and_decimals_do_not_split(ctx):
    [c] = scores("The model, e.g. our 7B one, reaches 87.2% on HumanEval.", ctx)
    assert c.benchmark == "HumanEval"
    assert c.text.startswith("The model, e.g. our")


def test_markdown_markup_is_blanked_in_place(ctx):
    line = "See [the card](https://x.org/v2.5/87.3) - we reach **87.2%** on `HumanEval`."
    [c] = scores(line, ctx)
    assert c.value == "87.2" and c.location.column == line.index("87.2%") + 1


def test_skipped_regions(ctx):
    text = "\n".join(
        [
            "---",
            "score: 87.3% on HumanEval",
            "---",
            "<!-- 87.3% on HumanEval",
            "still a comment -->",
            "```",
            "87.3% on HumanEval",
            "```",
            "",
            "    87.3% on HumanEval (indented code)",
            "",
            "We reach 87.2% on HumanEval.",
        ]
    )
    [c] = scores(text, ctx)
    assert c.value == "87.2" and c.location.line == 12


def test_list_items_and_headings_are_their_own_blocks(ctx):
    text = "## HumanEval\n- 87.2% on HumanEval\n- 92.5% on GSM8K"
    got = scores(text, ctx)
    assert [(c.value, c.benchmark, c.location.line) for c in got] == [
        ("87.2", "HumanEval", 2),
        ("92.5", "GSM8K", 3),
    ]


def test_pdf_line_numbers_and_pages(ctx):
    lines = ["Results", "We reach 87.3% on HumanEval."]
    [c] = scores("\n".join(lines), ctx, line_numbers=[40, 41], page_of_line=[3, 3], markdown=False)
    assert (c.location.line, c.location.page) == (41, 3)


# ---------------------------------------------------------------- score claims


def test_benchmark_n_protocol(ctx):
    [c] = scores("Averaged over 64 samples, the model reaches 79.8% on AIME 2024.", ctx)
    assert (c.benchmark, c.n, c.n_source, c.samples, c.protocol) == (
        "AIME 2024",
        30,
        "registry",
        64,
        "averaged",
    )
    assert c.confidence is Confidence.HIGH


@pytest.mark.parametrize(
    "text,samples",
    [
        ("AIME 2024 avg@64: 79.8%", 64),
        ("pass@1 averaged over 16 samples: 48.3% on GPQA Diamond", 16),
        ("79.8% on AIME 2024 (mean of 8 runs)", 8),
        ("79.8% on AIME 2024 with 64 samples per problem", 64),
        ("AIME 2024 pass@1 (avg of 64): 79.8%", 64),
        ("a 64-sample average of 79.8% on AIME 2024", 64),
        ("pass@1 over 16 runs is 79.8% on AIME 2024", 16),
        ("79.8% on AIME 2024 (64 responses per query)", 64),
    ],
)
def test_samples_per_item(text, samples, ctx):
    [c] = scores(text, ctx)
    assert (c.samples, c.protocol) == (samples, "averaged")


def test_pass_at_k_and_majority_vote(ctx):
    [c] = scores("Its pass@10 is 91.2% on HumanEval.", ctx)
    assert c.protocol == "pass@k"
    [c] = scores("With maj@64 it reaches 86.7% on AIME 2024.", ctx)
    assert c.protocol == "single"


def test_stated_count_wins_over_the_registry(ctx):
    [c] = scores("On a 100-problem subset of HumanEval the model scores 87.0%.", ctx)
    assert (c.n, c.n_source) == (100, "text")
    [c] = scores("HumanEval (164 problems): our model 85.4%.", ctx)
    assert (c.n, c.n_source) == (164, "text")
    [c] = scores("It answers 8 of 10 questions: 80%.", ctx)
    assert c.n == 10 and c.fields["k"] == 8


def test_several_scores_in_one_sentence(ctx):
    got = scores("We reach 87.3% on HumanEval and 49.3% on our 500-question set.", ctx)
    assert [(c.value, c.benchmark, c.n) for c in got] == [
        ("87.3", "HumanEval", 164),
        ("49.3", None, 500),
    ]
    got = scores("The model scores 46.7% and 53.3% on AIME 2024 and AIME 2025, respectively.", ctx)
    assert [c.benchmark for c in got] == ["AIME 2024", "AIME 2025"]
    got = scores("HumanEval (164 problems): our model 85.4%; MBPP: 71.2%.", ctx)
    assert [(c.benchmark, c.n) for c in got] == [("HumanEval", 164), ("MBPP", 500)]


def test_intervals_and_plus_minus(ctx):
    [c] = scores("Our model solves 87.2% of HumanEval (95% CI 81.2–91.5%).", ctx)
    assert c.interval == ("81.2", "91.5") and c.fields["level"] == 0.95
    [c] = scores("We obtain 94.2% ± 0.7 (1 SE) on 1,000 items.", ctx)
    assert c.plus_minus == "0.7" and c.fields["pm_kind"] == "se" and c.n == 1000
    [c] = scores("We obtain 94.2% ± 0.1 (std over 3 seeds) on 1,000 items.", ctx)
    assert c.fields["pm_kind"] == "sd"


def test_bare_numbers_next_to_a_benchmark(ctx):
    [c] = scores("MATH-500: 96.3 (pass@1).", ctx)
    assert (c.value, c.unit, c.benchmark) == ("96.3", "points", "MATH-500")
    [c] = scores("Results: 0.873 accuracy on HumanEval.", ctx)
    assert c.unit == "proportion"


def test_math_as_a_word_is_not_the_benchmark(ctx):
    assert scores("It reaches 87.3% on math word problems.", ctx)[0].benchmark is None
    assert scores("It reaches 52.9% on MATH.", ctx)[0].benchmark == "MATH"


def test_change_claims(ctx):
    found, _ = C.extract(["Accuracy improves from 70% to 75%, a 5% gain."], "x.md", ctx)
    [ch] = [c for c in found if c.kind == "change"]
    assert ch.fields["before"] == "70" and ch.fields["after"] == "75" and ch.value == "5"


# ---------------------------------------------------------------- tables


def test_pipe_table_cells(ctx):
    text = "\n".join(
        [
            "Scores are averaged over 8 runs.",
            "",
            "| Model | HumanEval (164) | GSM8K | Params |",
            "|:--|--:|--:|--:|",
            "| ours | **87.3**† | 92.5 ± 0.7 | 7B |",
            "| base | 62.2 | N/A | 7B |",
        ]
    )
    got = scores(text, ctx)
    assert [(c.value, c.benchmark, c.model, c.location.line) for c in got] == [
        ("87.3", "HumanEval", "ours", 5),
        ("92.5", "GSM8K", "ours", 5),
        ("62.2", "HumanEval", "base", 6),
    ]
    assert got[0].n_source == "text" and got[0].samples == 8
    assert got[1].plus_minus == "0.7"
    assert got[0].location.column == text.split("\n")[4].index("**87.3") + 1


def test_transposed_table(ctx):
    text = "| Benchmark | ours | base |\n|---|---|---|\n| HumanEval | 87.2 | 62.2 |\n| Average | 80.0 | 70.0 |"
    got = scores(text, ctx)
    assert [(c.value, c.model, c.benchmark) for c in got] == [
        ("87.2", "ours", "HumanEval"),
        ("62.2", "base", "HumanEval"),
    ]


def test_a_ranked_table_names_the_model_not_the_rank(ctx):
    text = "| Rank | Model | Version | MMLU |\n|---|---|---|---|\n| 1 | ours | base-7b | 70.2 |\n| 2 | rival | base-7b | 69.4 |"
    got = scores(text, ctx)
    assert [(c.value, c.model, c.benchmark) for c in got] == [("70.2", "ours", "MMLU"), ("69.4", "rival", "MMLU")]


def test_tables_from_other_readers(ctx):
    t = Table(["Model", "HumanEval"], [["ours", "87.3%"]], header_line=10, row_lines=[12], page=2)
    [c] = tables_to_claims([t], "paper.pdf", ctx)
    assert (c.location.line, c.location.page, c.unit, c.n) == (12, 2, "percent", 164)
    found, _ = C.extract(["Intro."], "paper.pdf", ctx, tables=[t])
    assert any(c.value == "87.3" for c in found)


# ---------------------------------------------------------------- the extractor hook


def test_comparison_hook_is_called_with_sentences(ctx, monkeypatch):
    seen = []
    fake = types.ModuleType("benchaudit.inputs.comparisons")

    def extract_sentence(sentence, ctx):
        seen.append((sentence.text, sentence.line, sentence.location.line))
        return []

    def extract_document(claims, tables, ctx):
        return claims

    fake.extract_sentence = extract_sentence
    fake.extract_document = extract_document
    monkeypatch.setitem(sys.modules, "benchaudit.inputs.comparisons", fake)
    C.extract(["First one.", "Second", "one."], "x.md", ctx)
    assert seen == [("First one.", 1, 1), ("Second one.", 2, 2)]


def test_missing_comparison_module_is_skipped(ctx, monkeypatch):
    import importlib

    real = importlib.import_module

    def fake_import(name, *a, **k):
        if name == "benchaudit.inputs.comparisons":
            raise ModuleNotFoundError(name=name)
        return real(name, *a, **k)

    monkeypatch.setattr(C.importlib, "import_module", fake_import)
    assert C.sentence_extractors() == C.SENTENCE_EXTRACTORS


def test_html_table_inside_markdown_with_a_rowspan(ctx):
    text = "\n".join(
        [
            "<table>",
            "  <tr><td><strong>Category</strong></td><td>Benchmark</td><td>ours</td><td>base</td></tr>",
            '  <tr><td rowspan="2">Code</td><td>HumanEval (0-shot)</td><td>62.2</td><td>7.9</td></tr>',
            "  <tr><td>GSM-8K (8-shot, CoT)</td><td>79.6</td><td>25.7</td></tr>",
            "</table>",
        ]
    )
    got = scores(text, ctx)
    assert [(c.value, c.model, c.benchmark, c.location.line) for c in got] == [
        ("62.2", "ours", "HumanEval", 3),
        ("7.9", "base", "HumanEval", 3),
        ("79.6", "ours", "GSM8K", 4),
        ("25.7", "base", "GSM8K", 4),
    ]


def test_benchmark_names_do_not_match_inside_longer_names(ctx):
    found = C.find_benchmarks("MMLU-Redux, MMLU, GSM8K-Hard, MATH-500, HumanEval+", ctx.benchmarks)
    assert [m.benchmark.name for m in found] == ["MMLU", "MATH-500", "HumanEval+"]


def test_real_readme_table(ctx, data_dir):
    """DeepSeek-R1's evaluation tables: benchmarks in the second column, a protocol
    stated above the table, a cons@64 column (see tests/data/claims/PROVENANCE.md)."""
    from benchaudit.config import Config as Cfg
    from benchaudit.engine import audit

    path = data_dir / "claims" / "deepseek_r1_readme_eval.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    found, seen = C.extract(lines, "readme.md", ctx)
    by = {(c.model, c.benchmark): c for c in found if c.kind == "score"}
    r1 = by[("DeepSeek R1", "AIME 2024")]
    assert (r1.value, r1.samples, r1.protocol) == ("79.8", 64, "averaged")
    assert by[("DeepSeek R1", "IFEval (prompt-level strict)")].n == 541
    assert ("DeepSeek R1", "MMLU") in by
    assert not any(c.benchmark == "MMLU" and "Redux" in c.text for c in found)
    assert not any("Rating" in c.text or "Percentile" in c.text for c in found)
    assert seen > len(found) > 60
    report = audit([str(path)], Cfg(select=["BA1"]))
    serious = [
        (f.location.line, f.name, f.severity.label)
        for f in report.findings
        if f.severity.label != "info"
    ]
    # Only the two majority-vote (cons@64) cells that no k/30 can produce.
    assert serious == [(45, "unreachable-score", "warning"), (49, "unreachable-score", "warning")]


@pytest.mark.parametrize(
    "text,want",
    [
        # (value, benchmark) of every score claim
        (
            "It scores 45.2% on MMLU-Pro, 61.1% on BBH and 30.2% on LiveCodeBench.",
            [("45.2", "MMLU-Pro"), ("61.1", "BBH"), ("30.2", "LiveCodeBench")],
        ),
        ("MMLU-Pro accuracy is 45.23% and BBH is 61.1%.", [("45.23", "MMLU-Pro"), ("61.1", "BBH")]),
        ("The 95% CI is 81.2–91.5% for 87.2% on HumanEval.", [("87.2", "HumanEval")]),
        ("Between 60% and 70% of HumanEval problems are solved.", []),
        ("We compare against Qwen 2.5 on MATH-500.", []),
        ("As Table 3 shows, Llama 3.1 reaches 87.3% on HumanEval.", [("87.3", "HumanEval")]),
        (
            "On HumanEval, model A gets 62.2% and model B 70.1%.",
            [("62.2", "HumanEval"), ("70.1", "HumanEval")],
        ),
    ],
)
def test_which_benchmark_a_score_is_on(text, want, ctx):
    assert [(c.value, c.benchmark) for c in scores(text, ctx)] == want


def test_pass_at_k_n_is_samples_not_items(ctx):
    [c] = scores("pass@1 of 67.7% on HumanEval (temperature 0.2, n=200).", ctx)
    assert (c.n, c.samples, c.protocol) == (164, 200, "averaged")


def test_document_level_protocol_statement(ctx):
    text = "All scores are averaged over 64 samples per problem.\n\n## Math\n\nIt reaches 79.8% on AIME 2024."
    [c] = scores(text, ctx)
    assert (c.samples, c.protocol) == (64, "averaged")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_extraction_never_raises(text):
    ctx = Context(Config())
    found, seen = C.extract(text.splitlines() or [""], "fuzz.md", ctx)
    assert seen >= 0
    for c in found:
        assert c.location.line is None or c.location.line >= 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 164), st.integers(0, 2))
def test_every_possible_humaneval_score_is_read_as_reachable(k, places):
    from benchaudit.stats import granularity as G

    value = G.format_at(k, 164, places)
    ctx = Context(Config())
    [c] = scores(f"We reach {value}% on HumanEval.", ctx)
    assert (c.value, c.n) == (value, 164)
    assert G.is_reachable(c.value, c.n)


def test_table_cells_with_a_change_against_a_baseline(ctx):
    text = "| Model | HumanEval |\n|---|---|\n| a | 87.3 (+2.1) |\n| b | 85.2 ↑1.0 |\n| c | 60.0-70.0 |"
    assert [c.value for c in scores(text, ctx)] == ["87.3", "85.2"]
