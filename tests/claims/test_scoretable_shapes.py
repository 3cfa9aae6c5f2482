"""Score tables read from the shapes READMEs use: ranked tables, error-rate tables."""

from __future__ import annotations

from benchaudit.benchmarks import Registry
from benchaudit.claims.scoretable import read_score_table
from benchaudit.documents.markdown import read_markdown


def _lines(text: str) -> list[tuple[str, bool, list[str]]]:
    table = list(read_markdown(text, "card.md").tables())[0]
    st = read_score_table(table, Registry.load())
    assert st is not None
    return [(line.label, line.higher_is_better, [c.model for c in line.cells]) for line in st.lines]


def test_a_ranked_table_reads_its_model_column_not_its_rank_column():
    text = "| Rank | Model | Version | Score |\n|---|---|---|---|\n| 1 | A-7B | X | 74.4 |\n| 2 | B-7B | Y | 74.1 |\n"
    assert _lines(text) == [("Score", True, ["A-7B", "B-7B"])]


def test_an_asr_heading_makes_error_rate_columns_lower_is_better():
    text = "### ASR\n\n| Model | Aishell-1 | Librispeech test-other |\n|---|---|---|\n| A | 1.5 | 3.1 |\n| B | 1.7 | 4.0 |\n"
    assert [(label, higher) for label, higher, _ in _lines(text)] == [
        ("Aishell-1", False), ("Librispeech test-other", False),
    ]


def test_a_caption_naming_asr_and_another_task_leaves_the_direction_alone():
    text = "### ASR and TTS results\n\n| Model | Aishell-1 | Seed-TTS |\n|---|---|---|\n| A | 1.5 | 3.1 |\n| B | 1.7 | 4.0 |\n"
    assert all(higher for _, higher, _ in _lines(text))


def test_a_column_marked_lower_keeps_its_direction_beside_higher_ones():
    text = "| Model | WER ↓ | Acc ↑ |\n|---|---|---|\n| A | 5.0 | 70.0 |\n| B | 6.0 | 71.0 |\n"
    assert [(label, higher) for label, higher, _ in _lines(text)] == [("WER ↓", False), ("Acc ↑", True)]


def test_an_improvement_column_beside_the_models_is_not_a_rival():
    # Benchmarks as rows, models as columns, and the difference between them as a last column
    # (the LIMO README): "+50.6%" is not a third model's score.
    text = (
        "| Benchmark | LIMO | Previous SOTA | Improvement |\n|---|---|---|---|\n"
        "| AIME24 | **57.1%** | 6.5% | +50.6% |\n| MATH500 | **94.8%** | 59.2% | +35.6% |\n"
    )
    assert [models for _, _, models in _lines(text)] == [["LIMO", "Previous SOTA"]] * 2


def test_an_average_row_that_is_the_mean_of_the_rows_makes_the_rows_benchmarks():
    # "Models" in the corner names the header row of model names here: the Average row is the
    # mean of each column, so the rows are the benchmarks it averages, and the bold 37.0 is
    # compared with its row (36.0), not with the 90.0 of a "model" column.
    text = (
        "| Models | Alpha 8B | Beta 9B |\n|---|---|---|\n"
        "| Foo 64K | 80.0 | 90.0 |\n| Bar 64K | 20.0 | 10.0 |\n| Baz 64K | 11.0 | 8.0 |\n"
        "| Average | **37.0** | 36.0 |\n"
    )
    table = list(read_markdown(text, "card.md").tables())[0]
    st = read_score_table(table, Registry.load())
    assert st is not None and st.transposed
    assert [line.label for line in st.lines] == ["Foo 64K", "Bar 64K", "Baz 64K"]
    assert [c.model for c in st.aggregates[0].cells] == ["Alpha 8B", "Beta 9B"]


def test_an_average_row_that_is_no_mean_leaves_the_corner_to_decide():
    text = (
        "| Models | Alpha 8B | Beta 9B |\n|---|---|---|\n"
        "| Foo | 80.0 | 90.0 |\n| Bar | 20.0 | 10.0 |\n| Average | 70.0 | 60.0 |\n"
    )
    table = list(read_markdown(text, "card.md").tables())[0]
    st = read_score_table(table, Registry.load())
    assert st is None or not st.transposed


def test_a_header_with_a_footnote_mark_names_its_benchmark():
    from benchaudit.benchmarks import packaged
    from benchaudit.claims.scoretable import _mention

    found = _mention("GSM8K¹", packaged())
    assert found is not None and found.name == "GSM8K"


def _read(text: str):
    table = list(read_markdown(text, "card.md").tables())[0]
    st = read_score_table(table, Registry.load())
    assert st is not None
    return st


def test_a_first_column_spanning_row_groups_groups_the_models_of_the_second():
    # "Method | Model": the method is written on its group's first row only (a row span drawn
    # in Markdown); the models are the second column, and a model run with both methods is two
    # rows, named apart.
    text = (
        "| Method | Model | Split-A | Split-B |\n|---|---|---|---|\n"
        "| Plain | Alpha | 5.5 | 3.5 |\n|  | Beta | 41.5 | 44.0 |\n"
        "| Search | Alpha | 20.5 | 31.0 |\n|  | Beta | **54.5** | **65.0** |\n|  | Gamma | 50.0 | 60.0 |\n"
    )
    st = _read(text)
    assert not st.transposed
    first = st.lines[0]
    assert [(c.model, c.group) for c in first.cells] == [
        ("Alpha (Plain)", "Plain"), ("Beta (Plain)", "Plain"),
        ("Alpha (Search)", "Search"), ("Beta (Search)", "Search"), ("Gamma", "Search"),
    ]
    assert [c.bold for c in first.cells] == [False, False, False, True, False]


def test_a_filled_first_column_stays_the_model_column():
    text = (
        "| Model | Type | Split-A | Split-B |\n|---|---|---|---|\n"
        "| Alpha | open | 5.5 | 3.5 |\n| Beta | closed | 41.5 | 44.0 |\n| Gamma | open | 20.5 | 31.0 |\n"
    )
    assert [c.model for c in _read(text).lines[0].cells] == ["Alpha", "Beta", "Gamma"]


def test_a_blank_below_a_model_with_a_size_column_is_not_a_row_span_of_models():
    # "| Llama | 7B |", "|  | 13B |": the second column is the first's size, never a model name.
    text = (
        "| Model | Size | Split-A | Split-B |\n|---|---|---|---|\n"
        "| Llama | 7B | 5.5 | 3.5 |\n|  | 13B | 41.5 | 44.0 |\n| Gamma | 7B | 20.5 | 31.0 |\n"
    )
    assert [c.model for c in _read(text).lines[0].cells] == ["Llama", "Gamma"]


def test_a_category_column_before_the_benchmark_column_is_the_lines_section():
    # Benchmarks run down the second column under a category written once per group: the line
    # is the benchmark, the category its section.
    text = (
        "| Benchmark type | Benchmark | Ours | Rival | Other |\n|---|---|---|---|---|\n"
        "| **Desk Use** | Foo-World (100 steps) | **42.5** | 36.4 | 28 |\n"
        "|  | Bar Arena | **42.1** | 30.0 | 29.8 |\n"
        "| **Web Use** | Baz-Voyager | 84.8 | **87** | 84.1 |\n"
        "|  | Qux-Web | **75.8** | 71 | 62.9 |\n"
    )
    st = _read(text)
    assert st.transposed
    assert [(line.label, line.section) for line in st.lines] == [
        ("Foo-World (100 steps)", "Desk Use"), ("Bar Arena", "Desk Use"),
        ("Baz-Voyager", "Web Use"), ("Qux-Web", "Web Use"),
    ]


def test_a_metric_column_after_the_task_column_is_no_benchmark_column():
    text = (
        "| Task | Metric | Ours | Rival | Other |\n|---|---|---|---|---|\n"
        "| Foo | Acc | **42.5** | 36.4 | 28 |\n|  | F1 | **42.1** | 30.0 | 29.8 |\n"
        "| Bar | Acc | 84.8 | **87** | 84.1 |\n|  | F1 | **75.8** | 71 | 62.9 |\n"
    )
    st = _read(text)
    assert [(line.label, line.section) for line in st.lines] == [("Foo", ""), ("", ""), ("Bar", ""), ("", "")]


def test_a_pictograph_after_a_number_decorates_it():
    from benchaudit.claims.scoretable import parse_value

    assert parse_value("66.81 👍🏻") == 66.81 and parse_value("**87.2** 🔥") == 87.2
    text = (
        "| Item | v1 | v2 | v3 |\n|---|---|---|---|\n"
        "| English | 63.21 | 66.68 | **66.81** 👍🏻 |\n| Long text | 29.6 | **46.4** 👍🏻 | 40.5 |\n"
    )
    assert _lines(text) == [("English", True, ["v1", "v2", "v3"]), ("Long text", True, ["v1", "v2", "v3"])]


def test_a_percent_over_a_number_is_a_pair_not_a_share():
    from benchaudit.claims.scoretable import parse_value

    # "win rate / Elo": not 49.4 items out of 1430
    assert parse_value("49.4% / 1430") is None
    assert parse_value("4/30") is not None and abs(parse_value("4/30") - 13.333) < 0.01  # type: ignore[operator]
