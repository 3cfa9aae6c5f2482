"""The document's own model read from its title, for a claim whose subject is "it" or a short name."""

from __future__ import annotations

from benchaudit.claims.model_claims import title_names
from benchaudit.claims.own_model import own_row
from benchaudit.documents.markdown import read_markdown
from benchaudit.engine import audit

TABLE = """
| Model | HumanEval | MBPP |
|---|---|---|
| Fooma-7B | 61.0 | 60.2 |
| Bar-7B | 60.4 | 59.8 |
"""


def _card(tmp_path, sentence: str, title: str = "# Fooma: a small code model") -> list:
    path = tmp_path / "card.md"
    path.write_text(f"{title}\n\n## Results\n\n{sentence}\n{TABLE}", "utf-8")
    return [f for f in audit([str(path)]).findings if f.name == "within-noise"]


def test_title_names_take_the_name_before_the_subtitle():
    doc = read_markdown("# CodeGeeX2: A More Powerful Multilingual Code Generation Model\n\ntext\n", "r.md")
    assert "CodeGeeX2" in title_names(doc)
    assert title_names(read_markdown("# Introduction\n\ntext\n", "r.md")) == ()


def test_own_row_is_the_one_row_of_the_family():
    assert own_row(("CodeGeeX2",), ["CodeGeeX2-6B", "StarCoder-15B"]) == "CodeGeeX2-6B"
    # A family of sizes is no one model: said less.
    assert own_row(("CodeGeeX2",), ["CodeGeeX2-6B", "CodeGeeX2-13B"]) is None
    assert own_row(("Kimi Linear",), ["Kimi Linear", "MLA"]) == "Kimi Linear"


def test_short_name_of_the_title_model_is_its_row_and_the_message_says_so(tmp_path):
    found = _card(tmp_path, "Fooma outperforms Bar-7B on HumanEval and MBPP.")
    assert len(found) == 1
    assert found[0].severity.label == "warning"
    assert "read as the row Fooma-7B, the model the document's title names" in found[0].message


def test_pronoun_subject_is_the_title_model(tmp_path):
    found = _card(tmp_path, "It outperforms Bar-7B on HumanEval and MBPP.")
    assert len(found) == 1
    assert "the subject read as Fooma-7B, the model the document's title names" in found[0].message


def test_several_models_or_no_title_model_say_nothing(tmp_path):
    # "Our models": a family, not the one row; a title that names no model: no subject.
    assert _card(tmp_path, "Our models outperform Bar-7B on HumanEval and MBPP.") == []
    assert _card(tmp_path, "It outperforms Bar-7B on HumanEval and MBPP.", "# Introduction") == []
    # The name spelled as a longer, other model is not the title's model.
    assert _card(tmp_path, "Fooma-Chat outperforms Bar-7B on HumanEval and MBPP.") == []


def test_participle_after_an_it_clause_takes_the_model_the_sentence_before_names(tmp_path):
    path = tmp_path / "card.md"
    path.write_text(
        "# Results\n\nFooma-7B is trained on code. On HumanEval, in Python it reached 61.0%, "
        f"surpassing Bar-7B.\n{TABLE}\n",
        "utf-8",
    )
    found = [f for f in audit([str(path)]).findings if f.name == "within-noise"]
    assert len(found) == 1
    assert "the subject read as Fooma-7B, the model the sentence before names" in found[0].message
    # A concession before it: not read.
    path.write_text(
        "# Results\n\nFooma-7B is trained on code. While in Python it reached 61.0%, "
        f"surpassing Bar-7B, it is behind on MBPP.\n{TABLE}\n",
        "utf-8",
    )
    assert [f for f in audit([str(path)]).findings if f.name == "within-noise" and "read as" in f.message] == []
