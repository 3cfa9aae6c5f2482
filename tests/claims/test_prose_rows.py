"""Which rows a prose comparison is about: a name that heads one row's label, the model a
subject was built from, "its instruct version", "the model" of a model card, a claim to be the
best beside tables that hold no other model, and "beats Y in reasoning" for a grouped table."""

from __future__ import annotations

from benchaudit.claims.linking import head_row, resolve_loose
from benchaudit.engine import audit


def _found(tmp_path, text: str, rule: str = "within-noise") -> list:
    path = tmp_path / "card.md"
    path.write_text(text, "utf-8")
    return [f for f in audit([str(path)]).findings if f.name == rule]


TABLE = """
| Model | HumanEval | MBPP | GSM8K |
|---|---|---|---|
| Fooma-70b-NCA | 60.0 | 55.0 | 70.0 |
| Bar-70B | 58.0 | 61.0 | 69.0 |
"""


def test_a_name_heads_the_one_row_that_adds_a_word():
    rows = ["Fooma-70b-NCA", "Bar-70B"]
    assert head_row("Fooma-70B", rows) == "Fooma-70b-NCA"
    assert resolve_loose("Fooma-70B", rows) == "Fooma-70b-NCA"
    # Never a longer version or size, another model of the family, or one of two rows.
    assert head_row("Fooma-7", ["Fooma-70b-NCA"]) is None
    assert head_row("DeepSeek-R1", ["DeepSeek-R1-Distill-Qwen-32B"]) is None
    assert head_row("GPT-4o", ["GPT-4o mini"]) is None
    assert head_row("Fooma-70B", ["Fooma-70B-NCA", "Fooma-70B-KTO"]) is None
    # A bare family word heads too many names.
    assert head_row("Fooma", ["Fooma-NCA"]) is None


def test_head_row_subject_is_checked_and_the_message_says_how_it_was_read(tmp_path):
    found = _found(tmp_path, f"# Report\n\n## Results\n\nFooma-70B achieves better performance than Bar-70B.\n{TABLE}")
    assert len(found) == 1
    assert "'Fooma-70B' read as the row Fooma-70b-NCA" in found[0].message
    assert "MBPP 55.0 vs Bar-70B 61.0" in found[0].message
    # Two rows it could head: nothing is said.
    two = TABLE + "| Fooma-70b-KTO | 59.0 | 54.0 | 71.0 |\n"
    assert _found(tmp_path, f"# Report\n\n## Results\n\nFooma-70B achieves better performance than Bar-70B.\n{two}") == []


BASED = """
| | Fooma-7B-PRIME | Qwen-Math-7B-Instruct | Bar-70B |
|---|---|---|---|
| MATH-500 | 79.2 | 79.8 | 64.6 |
| GSM8K | 90.1 | 89.9 | 80.0 |
"""


def test_the_model_it_was_built_from_is_not_the_subject_and_its_instruct_version_is_the_rival(tmp_path):
    text = (
        "# Report\n\n## Results\n\nOur final model Fooma-7B-PRIME, based on Qwen-Math-7B-Base, "
        f"surpassed its instruct version on these benchmarks.\n{BASED}"
    )
    found = _found(tmp_path, text)
    assert len(found) == 1
    assert "Fooma-7B-PRIME is behind on 1 of 2" in found[0].message
    assert "Qwen-Math-7B-Instruct 79.8" in found[0].message
    # "its chat version" with no chat row: no rival, nothing said.
    assert _found(tmp_path, text.replace("instruct version", "chat version")) == []


GROUPED = """
| Models/Benchmarks | Coding | | Math | Reasoning |
|---|:---:|:---:|:---:|:---:|
| | HumanEval | MBPP | MATH | BBH (CoT) |
| Fooma-70B | 70.0 | 52.0 | 40.0 | 80.0 |
| Bar-70B | 76.8 | 61.0 | 37.8 | 70.1 |
"""


def test_beats_in_a_domain_claims_the_lines_under_that_upper_label(tmp_path):
    # "in reasoning": only the Reasoning column (BBH, whose n is unknown: not judged), not the
    # HumanEval and MBPP losses under Coding; without it, every column.
    said = "# Report\n\n## Results\n\nFooma-70B beats Bar-70B in reasoning.\n"
    assert _found(tmp_path, said + GROUPED) == []
    found = _found(tmp_path, said.replace(" in reasoning", "") + GROUPED)
    assert len(found) == 1 and "Coding / MBPP 52.0 vs Bar-70B 61.0" in found[0].message


POST = """
| Benchmark | Fooma-V2 Flash | Gemini-3.0 Pro |
|---|---|---|
| MMLU-Pro | 84.9 | 90.1 |
| GPQA-Diamond | 83.7 | 91.9 |
"""


def test_the_model_of_a_model_card_is_the_subject_of_a_best_claim(tmp_path):
    text = "# Fooma-V2-Flash: a fast model\n\n## Post-training\n\nAfter RL, the model achieves SOTA performance across all benchmarks.\n" + POST
    found = _found(tmp_path, text)
    assert len(found) == 1
    assert "Gemini-3.0 Pro 90.1 vs 84.9" in found[0].message
    assert "the subject read as Fooma-V2 Flash, the model the document's title names" in found[0].message
    # A title naming no model: no subject, nothing said.
    assert _found(tmp_path, text.replace("# Fooma-V2-Flash: a fast model", "# Introduction")) == []


def test_it_is_not_a_model_the_sentence_before_names_as_a_rival(tmp_path):
    table = """
| Model | HumanEval | MBPP |
|---|---|---|
| Fooma-7B | 70.0 | 52.0 |
| Bar-7B | 60.0 | 61.0 |
"""
    text = (
        "# Introduction\n\n## Results\n\nOn MBPP, our run remains close to Bar-7B. "
        f"It also performs best on HumanEval.\n{table}"
    )
    # "Bar-7B" is the object of "close to": "It" is not read as Bar-7B.
    assert [f for f in _found(tmp_path, text) if "Bar-7B" in f.message and "read as Bar-7B" in f.message] == []


ONLY_OWN = """
| Model | VQAv2 | GQA |
|---|---|---|
| Fooma-1.5-7B | 78.5 | 62.0 |
| Fooma-1.5-13B | 80.0 | 63.3 |
"""


def test_best_claim_beside_tables_of_its_own_model_only_has_no_evidence(tmp_path):
    found = _found(tmp_path, f"# Zoo\n\n## Results\n\nFooma-1.5 achieves SoTA performance across 11 benchmarks.\n{ONLY_OWN}",
                   "claim-without-evidence")
    assert len(found) == 1
    assert found[0].severity.label == "warning"
    assert "hold no other model to compare with" in found[0].message
    # An image in the section may show the rivals: information only.
    found = _found(tmp_path, f"# Zoo\n\n## Results\n\n![radar](radar.png)\n\nFooma-1.5 achieves SoTA performance across 11 "
                   f"benchmarks.\n{ONLY_OWN}", "claim-without-evidence")
    assert [f.severity.label for f in found] == ["info"]
    # A table with another model: checked by within-noise, not reported here.
    rival = ONLY_OWN + "| Bar-7B | 78.0 | 61.0 |\n"
    assert _found(tmp_path, f"# Zoo\n\n## Results\n\nFooma-1.5 achieves SoTA performance across 11 benchmarks.\n{rival}",
                  "claim-without-evidence") == []


SIZED = """
| Model | MATH | GSM8K |
|---|---|---|
| Fooma-8B | 52.0 | 80.0 |
| Bar-7B | 51.0 | 79.5 |
| Baz-9B | 50.5 | 78.0 |
| Qux-70B | 70.0 | 92.0 |
"""


def test_a_size_bounded_class_is_the_rows_of_that_size(tmp_path):
    from benchaudit.claims.rivals import row_size

    assert row_size("Qwen3-235B-A22B") == 235.0
    assert row_size("Mixtral-8x7B") == 7.0
    for said in ("other ~8B models", "other models of comparable size", "open-source models of approximately 8B parameters"):
        found = _found(tmp_path, f"# Report\n\n## Results\n\nFooma-8B outperforms {said}.\n{SIZED}")
        assert len(found) == 1, said
        # Against the strongest row of the class on each line; the 70B row is not of its size.
        assert "Bar-7B" in found[0].message and "Qux-70B" not in found[0].message
    # A range ("7B-13B") and a class with no size bound say nothing of these rows.
    assert _found(tmp_path, f"# Report\n\n## Results\n\nFooma-8B outperforms other 7B-13B models.\n{SIZED}") == []


def test_stated_values_are_scores_not_sizes_or_versions_in_names():
    from benchaudit.claims.linking import stated_values
    from benchaudit.claims.model_claims import comparisons
    from benchaudit.documents.markdown import read_markdown

    doc = read_markdown(
        "# R\n\nWith only 4.1B parameters, Fooma-V 4.0 achieves 69.0 on OpenCompass, outperforming Bar-7B (65.2).\n",
        "r.md",
    )
    (comp,) = comparisons(doc)
    assert stated_values(comp) == {"69.0", "65.2"}
