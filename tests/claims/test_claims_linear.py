"""Claim extraction does work linear in the length of a paragraph.

Counted, not timed: the characters handed to the benchmark scanner and to the sentence-level
extractors grow in proportion to the paragraph, so a long one-paragraph file cannot make a
pre-commit hook run for minutes.
"""

from __future__ import annotations

import pytest

from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs import claims as C
from benchaudit.inputs import comparisons as K
from benchaudit.inputs import sentences as S

UNIT = "Our model reaches 87.3% on HumanEval and 92.5% on GSM8K, a gain of 5.1 points, "
PVALUES = "p < 0.05, "


def _work(monkeypatch: pytest.MonkeyPatch, paragraph: str) -> tuple[int, int]:
    scanned = [0]
    before = [0]
    scan = S._scan_benchmarks
    context = K._before

    def counting_scan(text, registry):
        scanned[0] += len(text)
        return scan(text, registry)

    def counting_before(sentence):
        out = context(sentence)
        before[0] += len(out)
        return out

    monkeypatch.setattr(S, "_scan_benchmarks", counting_scan)
    monkeypatch.setattr(K, "_before", counting_before)
    S._FOUND.clear()
    C.extract([paragraph], "card.md", Context(Config()))
    return scanned[0], before[0]


@pytest.mark.parametrize("unit", [UNIT, PVALUES])
def test_work_per_character_is_bounded(monkeypatch, unit):
    for reps in (300, 1200):
        paragraph = unit * reps
        scanned, before = _work(monkeypatch, paragraph)
        # A bounded number of passes per character whatever the length: quadratic work
        # would grow with ``reps``.
        assert scanned <= 8 * len(paragraph), (reps, scanned)
        assert before <= 8 * len(paragraph), (reps, before)


def test_context_before_a_sentence_is_its_nearest_neighbours():
    sentence = "Our model reaches 73.8% on it."
    block = S.Block(kind="paragraph")
    block.sentences = [
        S.Sentence(f"Sentence {i} of the paragraph here.", "card.md", [(0, 1, 1)])
        for i in range(50)
    ]
    last = S.Sentence(sentence, "card.md", [(0, 1, 1)])
    block.sentences.append(last)
    last.block = block
    got = K._before(last)
    assert got.endswith("Sentence 49 of the paragraph here.")
    assert "Sentence 40 " not in got
    assert len(got) <= K._BEFORE_CHARS


def test_a_paragraph_of_thousands_of_numbers_is_read_up_to_its_cap():
    ctx = Context(Config())
    notes: list[str] = []
    found, seen = C.extract([UNIT * 1000], "card.md", ctx, notes=notes)
    assert seen >= 3000  # every number is counted
    assert any("more than 2,000 numbers" in n for n in notes)
    assert found and max(c.location.column or 0 for c in found) < len(UNIT) * 800


def test_a_document_too_large_to_read_is_refused_before_reading(tmp_path):
    from benchaudit.engine import audit
    from benchaudit.errors import InputError
    from benchaudit.inputs.text import DOCUMENT_MAX_BYTES

    big = tmp_path / "card.md"
    with open(big, "w", encoding="utf-8") as fh:
        fh.write("x" * (DOCUMENT_MAX_BYTES + 1))
    with pytest.raises(InputError, match="more than the 16 MB"):
        audit([str(big)])


def test_the_caps_are_configuration_keys(tmp_path):
    from benchaudit.config import apply
    from benchaudit.engine import audit
    from benchaudit.errors import InputError

    cfg = Config()
    apply(cfg, {"max-paragraph-numbers": 30, "max-document-mb": 1}, "pyproject.toml")
    ctx = Context(cfg)
    notes: list[str] = []
    C.extract([UNIT * 50], "card.md", ctx, notes=notes)
    assert any("more than 30 numbers" in n and "max-paragraph-numbers" in n for n in notes)
    big = tmp_path / "card.md"
    big.write_text("x" * (1 << 20) + "y", encoding="utf-8")
    with pytest.raises(InputError, match="max-document-mb"):
        audit([str(big)], cfg)
