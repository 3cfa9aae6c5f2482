"""The Markdown reader: one document model from a CommonMark parse."""

from __future__ import annotations

from benchaudit.documents.markdown import read_markdown, split_lines

CARD = """---
license: mit
---

# Orca-7B

## Evaluation

Results on the test sets below, single pass:

| Model | MMLU | GSM8K |
|---|---|---|
| **Ours** | **70.1** | 80.2† |
| Rival | 69.0 | <u>81.0</u> |

\\* averaged over 8 runs.

```
Model        Score   95% CI
gpt-4        82.6    (-1.8, 1.6)
claude       80.1    (-2.0, 2.1)
llama        60.4    (-2.5, 2.5)
```

Text with a footnote.[^1]

[^1]: Scores are averaged over 4 samples.
"""


def test_sections_blocks_and_front_matter():
    doc = read_markdown(CARD, "card.md")
    assert [s.title for s in doc.sections] == ["Orca-7B", "Evaluation"]
    assert doc.sections[1].parent is doc.sections[0]
    texts = [b.text for b in doc.blocks()]
    assert not any("license" in t for t in texts)
    assert doc.footnotes["1"].text == "Scores are averaged over 4 samples."


def test_pipe_table_cells_emphasis_and_frame():
    doc = read_markdown(CARD, "card.md")
    table = next(t for t in doc.tables() if t.origin == "pipe")
    assert table.header() == ["Model", "MMLU", "GSM8K"]
    ours, rival = table.rows
    assert ours[1].bold and ours[1].text == "70.1" and not ours[2].bold
    assert ours[2].marks == ("†",) and rival[2].underline
    assert ours[1].line == 13 and ours[1].column == 14
    assert table.lead_in is not None and "single pass" in table.lead_in.text
    assert any("averaged over 8 runs" in n.text for n in table.notes)


def test_a_console_table_in_a_code_block_is_a_table():
    doc = read_markdown(CARD, "card.md")
    code = next(t for t in doc.tables() if t.origin == "code")
    assert code.header() == ["Model", "Score", "95% CI"]
    assert [r[0].text for r in code.rows] == ["gpt-4", "claude", "llama"]
    assert code.rows[0][2].text == "(-1.8, 1.6)"


PANDAS_BOARD = """Results:

```console
> python show_result.py
                   Model  Scores (%)         CI (%)
0          o3-2025-04-16        85.9  (-0.8 / +0.9)
1  o4-mini-2025-04-16-high      79.1  (-1.4 / +1.2)
2             gemini-2.5        79.0  (-2.1 / +1.8)
3     o3-mini-2025-01-31        50.0  (-0.0 / +0.0)
```
"""


def test_a_pandas_print_out_after_its_command_is_a_table_without_the_index():
    doc = read_markdown(PANDAS_BOARD, "README.md")
    [code] = [t for t in doc.tables() if t.origin == "code"]
    assert code.header() == ["Model", "Scores (%)", "CI (%)"]
    assert [r[0].text for r in code.rows][:2] == ["o3-2025-04-16", "o4-mini-2025-04-16-high"]
    assert code.rows[1][2].text == "(-1.4 / +1.2)"


def test_a_console_leaderboard_is_checked_for_rank_ties_and_anchors(tmp_path):
    from benchaudit.config import Config
    from benchaudit.engine import audit

    path = tmp_path / "README.md"
    path.write_text(PANDAS_BOARD, encoding="utf-8")
    report = audit([str(path)], Config(select=["rank-tie", "anchored-baseline"]))
    found = {(f.name, f.location.line) for f in report.findings}
    assert ("rank-tie", 7) in found  # 79.1 (-1.4 / +1.2) and 79.0 (-2.1 / +1.8)
    assert ("anchored-baseline", 9) in found  # 50.0 (-0.0 / +0.0)


def test_html_table_with_blank_lines_inside_is_read_whole():
    text = "Intro.\n\n<table>\n<tr><th>Model</th><th>MMLU</th></tr>\n\n<tr><td>A</td><td><b>70.1</b></td></tr>\n\n<tr><td>B</td><td>60.0</td></tr>\n</table>\n"
    doc = read_markdown(text, "card.md")
    [table] = list(doc.tables())
    assert [r[0].text for r in table.rows] == ["A", "B"]
    assert table.rows[0][1].bold


def test_lines_end_only_at_newlines():
    assert split_lines("a\u2028b\r\nc\rd\n") == ["a\u2028b", "c", "d"]


SPANNED = """| Method | LLM | Wenetspeech | | Librispeech | |
|---|---|---|---|---|---|
| | | Test_Net | Test_Meeting | Dev_Clean | Test_Other |
| Qwen2-Audio | Qwen2-7B | 7.8 | 8.4 | 1.3 | 3.6 |
| **Closed-source APIs** |
| VITA | Mixtral-8x7B | 12.2 | 16.5 | 7.6 | 18.4 |
"""


def test_a_row_of_sub_column_names_under_spanning_labels_is_a_header_row():
    table = list(read_markdown(SPANNED, "card.md").tables())[0]
    assert table.header() == [
        "Method", "LLM", "Wenetspeech / Test_Net", "Wenetspeech / Test_Meeting",
        "Librispeech / Dev_Clean", "Librispeech / Test_Other",
    ]
    assert [r[0].text for r in table.rows] == ["Qwen2-Audio", "VITA"]
    assert table.groups == ["", "Closed-source APIs"]


def test_a_first_data_row_under_an_empty_corner_stays_a_data_row():
    text = "| | MMLU | GSM8K |\n|---|---|---|\n| A | 70.1 | 80.2 |\n| B | 69.0 | 81.0 |\n"
    table = list(read_markdown(text, "card.md").tables())[0]
    assert table.header() == ["", "MMLU", "GSM8K"]
    assert len(table.rows) == 2


def test_a_superscript_footnote_in_a_cell_is_a_mark_not_digits():
    from benchaudit.claims.scoretable import parse_value

    doc = read_markdown(
        "| Model | MMLU | GSM8K<sup>1</sup> |\n|---|---|---|\n| A | 42.3<sup>2</sup> | 55.0 |\n",
        "card.md",
    )
    (table,) = list(doc.tables())
    assert [c.text for c in table.header_rows[0]] == ["Model", "MMLU", "GSM8K¹"]
    cell = table.rows[0][1]
    assert cell.text == "42.3²" and parse_value(cell.text) == 42.3
