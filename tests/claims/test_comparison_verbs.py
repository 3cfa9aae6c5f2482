"""Comparative sentences the grammar reads: "not only ... but also", a rival named first with
a gain after it, best-claims worded as "dominates all" or "received the highest", and a margin
named by its noun ("a 3.6% improvement over Y") in the sentence-number reading."""

from __future__ import annotations

from benchaudit.claims.model_claims import ModelComparison, comparisons, subject_of
from benchaudit.config import Config
from benchaudit.documents.model import Block, Document, TextLine
from benchaudit.engine import Context
from benchaudit.finding import Location
from benchaudit.inputs.comparisons import LocatedSentence, extract_sentence


def _read(sentence: str) -> list[ModelComparison]:
    block = Block("paragraph", [TextLine(1, 1, sentence)])
    return comparisons(Document(path="t.md", format="markdown", items=[block]))


def _names(found: ModelComparison) -> tuple[list[str], list[str]]:
    return [n.text for n in found.subjects], [n.text for n in found.objects]


def test_not_only_but_also_claims_both_rivals():
    (c,) = _read("Granite-20B-Code not only outperforms StarCoder2-15B but also CodeLlama-34B on all 4 metrics.")
    assert c.kind == "superior"
    assert _names(c) == (["Granite-20B-Code"], ["StarCoder2-15B", "CodeLlama-34B"])


def test_a_real_negation_and_a_real_contrast_still_hold():
    assert not _read("Nova-7B does not outperform Rival-9B on MATH.")
    (c,) = _read("Nova-7B outperforms Rival-9B, but Other-3B beats it on GSM8K.")
    assert _names(c)[1] == ["Rival-9B"]


def test_a_rival_named_first_then_gains_is_a_superiority():
    (c,) = _read("Compared to Base-2B, the final Nova-7B achieved outstanding results on AIME (+1.5) and MATH (+1.2).")
    assert c.kind == "superior" and _names(c)[1] == ["Base-2B"]
    (c,) = _read("Compared to Base-2B, Nova-7B improves on every benchmark.")
    assert c.kind == "superior"
    # Results with no gain stated after a rival named first are no claim of a lead.
    assert not _read("Compared to Base-2B, Nova-7B reports results on AIME and MATH.")


def test_the_rival_named_first_is_never_the_subject():
    (c,) = _read("Compared to Base-Stage-2, as shown in Table 2, the final Ring-Lite model gains on AIME.")
    assert subject_of(c) == "Ring-Lite"


def test_more_best_claim_wordings():
    (c,) = _read("On SubBench, Mango-7B dominates all baselines across every metric.")
    assert c.kind == "best"
    (c,) = _read("Orion-14B-Chat received the highest number of win votes.")
    assert c.kind == "best"


def _numbers(text: str) -> dict:
    got = [c for c in extract_sentence(LocatedSentence(text, Location("t.md", 1)), Context(Config())) if c.kind == "comparison"]
    assert len(got) == 1
    return got[0].fields


def test_a_margin_named_by_its_noun_is_no_second_score():
    f = _numbers("Nova-7B proved 21.7% of the theorems, demonstrating a 3.6% improvement over Rival-9B.")
    assert (f["a_value"], f["b_value"], f["delta"]) == ("21.7", "18.1", "3.6")
    assert f["values_pct"] == ["21.7"]
    # Two scores are still two scores.
    f = _numbers("Nova-7B reaches 21.7%, surpassing Rival-9B at 18.1%.")
    assert (f["a_value"], f["b_value"]) == ("21.7", "18.1")


_GROUPED = """# Results

{sentence}

<table>
<tr><th rowspan="2">Model</th><th colspan="2">{first}</th><th colspan="2">{second}</th></tr>
<tr><th>EM</th><th>ES</th><th>EM</th><th>ES</th></tr>
<tr><td>Rival-15B</td><td>31.3</td><td>69.6</td><td>39.9</td><td>77.3</td></tr>
<tr><td>Other-34B</td><td>34.4</td><td>70.2</td><td>40.8</td><td>78.4</td></tr>
<tr><td>Nova-20B</td><td>38.0</td><td>72.2</td><td>42.3</td><td>78.1</td></tr>
</table>
"""


def _noise(tmp_path, sentence: str, first: str = "Python", second: str = "Java") -> list:
    from benchaudit.engine import audit

    card = tmp_path / "card.md"
    card.write_text(_GROUPED.format(sentence=sentence, first=first, second=second), encoding="utf-8")
    report = audit([str(card)])
    return [f for f in report.findings if f.name == "within-noise" and f.severity.label in ("error", "warning")]


def test_across_both_groups_of_a_two_group_table_is_every_line(tmp_path):
    said = "Nova-20B not only outperforms Rival-15B but also Other-34B on all 4 metrics across both programming languages."
    found = _noise(tmp_path, said)
    assert found and "78.1 vs Other-34B 78.4" in found[0].message
    # A class the table does not label ("across all Chinese tasks") is still left alone.
    assert not _noise(tmp_path, said.replace("both programming languages", "all Chinese tasks"))


def test_parity_of_two_models_said_together():
    (c,) = _read("Nova-7B and Rival-9B perform comparably across all benchmarks, but Nova-7B is simpler.")
    assert c.kind == "equivalent" and _names(c) == (["Nova-7B"], ["Rival-9B"]) and c.general
    (c,) = _read("Both Nova-7B and Rival-9B achieve similar results on MATH.")
    assert _names(c) == (["Nova-7B"], ["Rival-9B"])
    # A rival after the verb is the usual parity; more than two names say nothing of one pair.
    (c,) = _read("Nova-7B and Rival-9B perform comparably to Big-70B.")
    assert _names(c)[1] == ["Big-70B"]
    assert not _read("We find that Nova-7B, Rival-9B and Big-70B perform similarly.")


def test_matching_a_named_model_after_a_dash_is_parity():
    (c,) = _read("Nova-7B achieves 31.0% on MATH — matching DeepSeekMath-7B with 3% of the tokens.")
    assert c.kind == "equivalent" and _names(c)[1] == ["DeepSeekMath-7B"]
    assert not _read("Nova-7B reads the matching Table 3 entries.")


def test_an_abbreviation_ends_no_sentence():
    from benchaudit.claims.model_claims import split_sentences

    text = "Nova-7B beats open models, e.g. Qwen2.5-7B. Zhu et al. (2024) report it. See Appendix A. It is done."
    assert split_sentences(text) == [
        "Nova-7B beats open models, e.g. Qwen2.5-7B.",
        "Zhu et al. (2024) report it.",
        "See Appendix A.",
        "It is done.",
    ]
    (c,) = _read("Nova-7B outperforms strong open models, e.g. Qwen2.5-7B and Llama-3-8B, on MATH.")
    assert _names(c)[1] == ["Qwen2.5-7B", "Llama-3-8B"]


def test_a_later_clause_with_its_own_subject_is_not_the_first_clauses():
    from benchaudit.claims.rivals import subject_in

    found = _read("The Nova-2B model achieves comparable performance as Big-7B, and the Moe-3B model outperforms Rival-2B.")
    sup = next(c for c in found if c.kind == "superior")
    # Moe-3B has no row here: the subject is unknown, never the first clause's Nova-2B.
    assert subject_in(sup, ["Nova-2B", "Big-7B", "Rival-2B"]) is None
    assert subject_in(sup, ["Nova-2B", "Moe-3B", "Rival-2B"]) == "Moe-3B"
    # "X outperforms Y, and is comparable to Z": the parity's subject is still X.
    block = Block("paragraph", [TextLine(1, 1, "Nova-2B outperforms Rival-2B, and is comparable to Big-7B.")])
    par = [c for c in comparisons(Document("t.md", "markdown", [block]), clauses=True) if c.kind == "equivalent"]
    assert par and subject_in(par[0], ["Nova-2B", "Big-7B", "Rival-2B"]) == "Nova-2B"
