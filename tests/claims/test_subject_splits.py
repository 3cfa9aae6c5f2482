"""A bare split heading ("### Airline") is read as a registry split only in a document about
its benchmark family (first heading, or the repository the document first clones)."""

from __future__ import annotations

from benchaudit.benchmarks import Registry
from benchaudit.claims.scoretable import read_score_table
from benchaudit.claims.subject_splits import document_families, split_named
from benchaudit.documents.markdown import read_markdown

_TABLE = "| Strategy | Pass^1 | Pass^2 |\n|---|---|---|\n| A | **0.460** | **0.326** |\n| B | 0.420 | 0.273 |\n"


def _doc(title: str, clone: str, heading: str):
    text = f"# {title}\n\n```bash\n{clone}\n```\n\n### {heading}\n\n{_TABLE}"
    return read_markdown(text, "card.md")


def test_the_first_clone_names_the_family():
    doc = _doc("A benchmark", "git clone https://github.com/org/tau-bench && cd ./tau-bench", "Retail")
    reg = Registry.load()
    about = document_families(doc, reg)
    assert about == {"taubench"}
    table = next(doc.tables())
    assert split_named(table, about, reg).name == "TAU-bench Retail"
    st = read_score_table(table, reg, about=about)
    assert st is not None and [line.n for line in st.lines] == [115, 115]


def test_a_first_heading_naming_the_family_is_enough():
    doc = _doc("TAU-bench results", "pip install foo", "Airline leaderboard")
    reg = Registry.load()
    about = document_families(doc, reg)
    assert split_named(next(doc.tables()), about, reg).name == "TAU-bench Airline"


def test_a_later_family_or_a_bare_word_alone_names_no_split():
    reg = Registry.load()
    # τ²-bench is a different task set; and without the family the word is nobody's split.
    for title, clone in (("An agent", "git clone https://github.com/org/tau2-bench"), ("τ-bench", "ls")):
        doc = _doc(title, clone, "Airline")
        about = document_families(doc, reg)
        assert split_named(next(doc.tables()), about, reg) is None
        assert read_score_table(next(doc.tables()), reg, about=about) is None or all(
            line.n is None for line in read_score_table(next(doc.tables()), reg, about=about).lines
        )


def test_a_heading_with_more_than_the_split_names_none():
    doc = _doc("TAU-bench", "ls", "Airline pricing policy changes")
    reg = Registry.load()
    assert split_named(next(doc.tables()), document_families(doc, reg), reg) is None
