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


def test_html_table_with_blank_lines_inside_is_read_whole():
    text = "Intro.\n\n<table>\n<tr><th>Model</th><th>MMLU</th></tr>\n\n<tr><td>A</td><td><b>70.1</b></td></tr>\n\n<tr><td>B</td><td>60.0</td></tr>\n</table>\n"
    doc = read_markdown(text, "card.md")
    [table] = list(doc.tables())
    assert [r[0].text for r in table.rows] == ["A", "B"]
    assert table.rows[0][1].bold


def test_lines_end_only_at_newlines():
    assert split_lines("a\u2028b\r\nc\rd\n") == ["a\u2028b", "c", "d"]
