"""Which numbers of a document's tables a claim is checked against, and with which n.

Cases distilled from the real-document corpus: a part of a benchmark ("LongBench v2 / Hard") is
not the whole benchmark; a sentence quoting a table's cell is about that table; a figure's caption
is about the figure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchaudit.claims.model_claims import model_names
from benchaudit.config import Config
from benchaudit.engine import Context, audit
from benchaudit.inputs.sentences import names_a_part

PARTS = """# Results

We evaluate with greedy decoding.

<table>
<tr><th rowspan="2">Model</th><th colspan="3">LongBench v2</th></tr>
<tr><th>Overall</th><th>Easy</th><th>Hard</th></tr>
<tr><td>A</td><td>48.7</td><td>55.21</td><td>44.37</td></tr>
<tr><td>B</td><td>48.1</td><td>53.13</td><td>44.05</td></tr>
</table>
"""


def _serious(path) -> list:
    report = audit([str(path)])
    return [f for f in report.findings if f.severity.label in ("error", "warning")]


def test_a_part_of_a_benchmark_has_no_registry_n(tmp_path):
    card = tmp_path / "card.md"
    card.write_text(PARTS, encoding="utf-8")
    assert not [f for f in _serious(card) if f.name == "unreachable-score"]


def test_names_a_part():
    reg = Context(Config()).benchmarks
    assert names_a_part("LongBench v2 / Hard", reg)
    assert names_a_part("MMLU STEM", reg)
    assert not names_a_part("LongBench v2 (Acc.)", reg)
    assert not names_a_part("BIG-Bench Hard", reg)  # the word belongs to the benchmark's name
    assert not names_a_part("AIME 2024 / pass@1", reg)


def test_model_names_with_a_lowercase_version_letter():
    names = [m.text for m in model_names("DeepSeek-R1 slightly surpasses OpenAI-o1-1217 and OpenAI o1-mini.")]
    assert "OpenAI-o1-1217" in names
    assert any(n.startswith("OpenAI o1") for n in names)


ANCHORED = """# Evaluation

Nova-7B achieves 79.8% on AIME 2024, slightly surpassing Rival-9B.

Some unrelated text follows here, and then the results appear much later.

## Appendix

| Model | AIME 2024 | MATH-500 |
|---|---|---|
| Nova-7B | 79.8 | 97.3 |
| Rival-9B | 79.2 | 96.4 |
"""


def test_a_sentence_quoting_a_cell_is_checked_against_that_table(tmp_path):
    card = tmp_path / "card.md"
    card.write_text(ANCHORED, encoding="utf-8")
    found = [f for f in _serious(card) if f.name == "within-noise" and "surpassing" in (f.claim or "")]
    assert found, [f.message for f in _serious(card)]
    assert "79.8" in found[0].message and "79.2" in found[0].message


def _anchored_tables(path):
    from benchaudit.claims.access import document_of, score_tables
    from benchaudit.claims.linking import anchored as _anchored
    from benchaudit.claims.model_claims import comparisons, resolve
    from benchaudit.inputs import load
    from benchaudit.inputs.sentences import find_benchmarks

    ctx = Context(Config())
    source = load(path, str(path), ctx)[0]
    tables = score_tables(source, ctx)
    comp = next(c for c in comparisons(document_of(source)) if c.kind == "superior")
    named = {m.benchmark.name for m in find_benchmarks(comp.block.text, ctx.benchmarks)}
    return _anchored(comp, tables, named, resolve)


def test_only_a_quoted_value_anchors_a_sentence_to_a_table(tmp_path):
    card = tmp_path / "card.md"
    card.write_text(ANCHORED, encoding="utf-8")
    assert len(_anchored_tables(card)) == 1
    card.write_text(ANCHORED.replace("achieves 79.8%", "achieves 81.0%"), encoding="utf-8")
    assert _anchored_tables(card) == []


BEST = """# Evaluation

{sentence}

| Model | AIME 2024 | MATH-500 |
|---|---|---|
| Nova-7B | 79.8 | 95.1 |
| Rival-9B | 79.2 | 96.4 |
"""


def _best_findings(tmp_path, sentence: str) -> list:
    card = tmp_path / "card.md"
    card.write_text(BEST.format(sentence=sentence), encoding="utf-8")
    return [f for f in _serious(card) if f.name == "within-noise"]


def test_a_claim_to_be_best_is_checked_against_the_table(tmp_path):
    for sentence in (
        "Nova-7B achieves the overall best results.",
        "Nova-7B achieves the best results across all benchmarks.",
    ):
        found = _best_findings(tmp_path, sentence)
        assert found and "MATH-500" in found[0].message, sentence
        assert "95.1 vs 96.4" in found[0].message or "96.4 vs 95.1" in found[0].message


def test_limited_or_conceded_best_claims_are_left_alone(tmp_path):
    for sentence in (
        "Nova-7B achieves the best results among open-source models.",
        "Excluding Rival-9B, Nova-7B achieves the highest scores.",
        "While Rival-9B obtains the highest score on MATH-500, Nova-7B is close.",
        "It achieves the best results, ahead of Rival-9B.",
    ):
        assert not _best_findings(tmp_path, sentence), sentence


def test_two_rivals_quoted_after_the_verb_are_not_a_pair(tmp_path):
    card = tmp_path / "card.md"
    card.write_text(
        "Our Nova-7B matches or exceeds much larger models such as Big-32B (18.4%) and "
        "Huge-14B (19.4%) on SWE-bench Verified.\n",
        encoding="utf-8",
    )
    assert not [f for f in _serious(card) if "18.4% vs 19.4%" in f.message]


DEEPSEEKMOE = Path(__file__).parents[1] / "data" / "realdocs" / "docs" / "deepseekmoe-paper.pdf"


@pytest.mark.skipif(not DEEPSEEKMOE.is_file(), reason="no deepseekmoe-paper.pdf in the corpus")
def test_a_claim_after_a_paragraph_that_names_the_table_is_checked_on_it():
    # DeepSeekMoE p. 32: a paragraph that points at Table 10, then "We find that at a larger
    # scale, DeepSeekMoE can even outperform GShard×1.5 distinctly." with no table named:
    # the claim is checked on Table 10, where GShard×1.5 leads on PIQA.
    found = [
        f for f in _serious(DEEPSEEKMOE)
        if f.name == "within-noise" and "can even outperform GShard" in (f.claim or "")
    ]
    assert found and "PIQA" in found[0].message


def test_a_version_inside_a_model_name_is_not_a_quoted_score():
    # "the Granite-3.0-2B model outperforms Mistral-7B": 3.0 is part of the name, not a score the
    # sentence quotes (which would send the claim to a table with a 3.0 cell, or to none).
    from benchaudit.claims.claimed_lines import _SCORE_IN_PROSE, _VALUE_IN_PROSE

    for pattern in (_SCORE_IN_PROSE, _VALUE_IN_PROSE):
        assert not [m.group(1) for m in pattern.finditer("the Granite-3.0-2B model outperforms Qwen-2.5-7B")]
        assert [m.group(1) for m in pattern.finditer("X achieves 36.2%, surpassing Y (35.9)")] == ["36.2", "35.9"]


def test_a_comparison_in_a_paragraph_over_a_page_break_is_located_on_its_own_page() -> None:
    from benchaudit.claims.model_claims import comparisons
    from benchaudit.documents.model import Block, Document, TextLine

    lines = [
        TextLine(40, 1, "The results are in the table. As for the Chinese benchmarks, the gap is", 14),
        TextLine(41, 1, "small on most tasks. Notably, Model-A outperforms Model-B on MMLU.", 15),
    ]
    doc = Document(path="p.pdf", format="pdf", items=[Block("paragraph", lines)], pages=15)
    comp = next(c for c in comparisons(doc) if "outperforms" in c.verb)
    assert comp.line == 41 and comp.page == 15 and comp.block.page == 14
