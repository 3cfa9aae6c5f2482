"""One count stated for every test set gives the count of each column of a table whose columns
name no benchmark; a hedged count, a training set or two different counts give none."""

from __future__ import annotations

from benchaudit.benchmarks import Registry
from benchaudit.claims.every_set_count import every_set_count
from benchaudit.claims.scoretable import read_score_table
from benchaudit.documents.markdown import read_markdown

_TABLE = "| Model | I1-Inst. | I2-Cate. |\n|---|---|---|\n| A | **64** | 70 |\n| B | 60 | **77.5** |\n"


def _count(prose: str) -> int | None:
    got = every_set_count(read_markdown(prose + "\n", "card.md"))
    return None if got is None else got.n


def test_a_count_from_every_test_set_is_read():
    assert _count("- `test_query_ids`: We sample 200 instances from every test set.") == 200
    assert _count("Each evaluation subset contains 500 questions.") == 500
    assert _count("We draw 1,000 examples from each of the test sets.") == 1000


def test_a_hedged_count_a_training_set_or_two_counts_give_none():
    assert _count("We sampled nearly 500 test cases from each test set.") is None
    assert _count("We sample 200 instances from every training set.") is None
    assert _count("We sample 200 instances from every test set. Each test set has 300 questions.") is None


def test_the_count_goes_to_a_table_of_unnamed_sets_only():
    reg = Registry.load()
    doc = read_markdown("We sample 200 instances from every test set.\n\n" + _TABLE, "card.md")
    every = every_set_count(doc)
    st = read_score_table(next(doc.tables()), reg, every=every)
    assert st is not None and [line.n_every and line.n_every[0] for line in st.lines] == [200, 200]
    assert all(line.n is None for line in st.lines)  # never a count for the k/n grid
    named = read_markdown(
        "We sample 200 instances from every test set.\n\n"
        "| Model | GSM8K | I2-Cate. |\n|---|---|---|\n| A | **64** | 70 |\n| B | 60 | **77.5** |\n",
        "card.md",
    )
    st = read_score_table(next(named.tables()), reg, every=every_set_count(named))
    assert st is not None and all(line.n_every is None for line in st.lines)
