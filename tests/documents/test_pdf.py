"""PDF end to end: the document model from pdfplumber's words, and the same findings
as the text the PDF was made from (the reader itself: tests/documents/test_documents_pdf.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchaudit.config import Config
from benchaudit.documents.pdf import read_pdf
from benchaudit.engine import audit
from benchaudit.errors import InputError

PDF = Path(__file__).parents[1] / "data" / "pdf"
MINE = [
    "within-noise",
    "unpaired-comparison",
    "overlap-fallacy",
    "null-as-equivalence",
    "underpowered",
    "p-value-inconsistent",
    "multiple-comparisons",
    "winners-curse",
    "seed-interval",
    "generations-as-items",
    "wrong-chance-level",
    "biased-pass-at-k",
    "metric-mirage",
    "judge-agreement",
]


def tables_of(doc):
    return [[t.header(), *[[c.text for c in r] for r in t.rows]] for t in doc.tables()]


def test_one_column_lines_in_order():
    doc = read_pdf(PDF / "claims_page.pdf", "claims_page.pdf")
    assert doc.pages == 1 and doc.lines[0] == "Results"
    assert doc.lines[1].startswith("On the same 500 questions")
    assert not list(doc.tables())


def test_two_columns_read_left_then_right():
    doc = read_pdf(PDF / "two_column.pdf", "two_column.pdf")
    text = " ".join(b.text for b in doc.blocks())
    assert text.index("This sentence ends the left column.") < text.index("Right filler line number 1")
    assert "model shows a clear improvement on the first benchmark." in text


def test_tables_become_tables():
    for name in ("table.pdf", "unruled_table.pdf"):
        doc = read_pdf(PDF / name, name)
        assert tables_of(doc) == [
            [["Benchmark", "FP16", "INT4"], ["HumanEval", "70.1", "63.4"], ["GSM8K", "80.2", "79.9"]]
        ]
        [table] = doc.tables()
        assert table.lead_in is not None and table.lead_in.text.startswith("Table 1 compares")


def test_table_reasoning_in_pdf():
    report = audit([str(PDF / "table.pdf")], Config(select=["null-as-equivalence"]))
    [f] = [f for f in report.findings if f.severity.label == "warning"]
    assert "HumanEval" in f.message and f.location.page == 1 and f.location.line == 5
    assert f.to_dict()["page"] == 1


def test_scanned_pdf_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no text layer"):
        read_pdf(PDF / "scanned.pdf", "scanned.pdf")


def test_scanned_pdf_exits_2(tmp_path):
    from click.testing import CliRunner

    from benchaudit.cli import main

    result = CliRunner().invoke(main, ["check", str(PDF / "scanned.pdf")])
    assert result.exit_code == 2
    assert "no text layer (scanned?)" in result.output
    assert "Traceback" not in result.output


def test_broken_pdf_is_an_input_error(tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage\n")
    with pytest.raises(InputError):
        read_pdf(bad, "broken.pdf")


def test_pdf_is_never_written(tmp_path):
    copy = tmp_path / "claims_page.pdf"
    shutil.copy(PDF / "claims_page.pdf", copy)
    before = copy.read_bytes()
    audit([str(copy)], Config())
    assert copy.read_bytes() == before


def test_pdf_gives_the_same_findings_as_its_text(tmp_path):
    pdf = audit([str(PDF / "claims_page.pdf")], Config(select=MINE))
    md = audit([str(PDF / "claims_page.md")], Config(select=MINE))

    def key(r):
        return sorted((f.code, f.severity.label, f.message) for f in r.findings)

    # Line numbers and claim texts are each reader's own (the PDF draws the markdown's
    # markup as text); what must agree is every verdict.
    assert key(pdf) == key(md)
    assert len(pdf.findings) >= 5
    assert all(f.location.page == 1 for f in pdf.findings)


def test_lines_count_from_the_start_of_the_document_and_pages_are_kept():
    doc = read_pdf(PDF / "two_pages.pdf", "two_pages.pdf")
    assert doc.pages == 2
    claim = doc.lines.index("On the same 500 questions, model A (73.0%) outperforms model B (70.0%).")
    report = audit([str(PDF / "two_pages.pdf")], Config(select=["within-noise"]))
    [f] = report.findings
    assert (f.location.line, f.location.page) == (claim + 1, 2)


def test_table_page_gives_the_same_findings_as_its_markdown():
    pdf = audit([str(PDF / "unruled_table.pdf")], Config(select=MINE))
    md = audit([str(PDF / "unruled_table.md")], Config(select=MINE))
    assert [(f.code, f.message) for f in pdf.findings] == [(f.code, f.message) for f in md.findings]
    assert [f.name for f in pdf.findings if f.severity.label == "warning"] == [
        "null-as-equivalence"
    ]


@pytest.mark.slow
def test_the_whole_claim_set_rendered_to_pdf_gives_the_same_findings(tmp_path):
    """Every text line of the labelled claim set, wrapped into paragraphs over
    several pages, gives the same findings from the PDF as from markdown."""
    import textwrap

    import matplotlib
    import yaml

    matplotlib.use("pdf")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    data = Path(__file__).parents[1] / "data" / "claims_eval" / "claims.yaml"
    paras = [
        e["text"] for e in yaml.safe_load(data.read_text(encoding="utf-8"))["claims"] if "text" in e
    ]
    (tmp_path / "claims.md").write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    with matplotlib.rc_context({"pdf.fonttype": 42}), PdfPages(tmp_path / "claims.pdf") as pdf:
        fig, y = None, 0.0
        for text in paras:
            wrapped = textwrap.wrap(text, 95)
            if fig is None or y - 0.018 * len(wrapped) < 0.05:
                if fig is not None:
                    pdf.savefig(fig)
                    plt.close(fig)
                fig, y = plt.figure(figsize=(8.5, 11)), 0.95
            for line in wrapped:
                fig.text(0.06, y, line, fontsize=9)
                y -= 0.018
            y -= 0.012
        pdf.savefig(fig)
        plt.close(fig)

    def key(report):
        return sorted((f.code, f.severity.label, f.message) for f in report.findings)

    from_pdf = audit([str(tmp_path / "claims.pdf")], Config(select=MINE))
    from_md = audit([str(tmp_path / "claims.md")], Config(select=MINE))
    assert len(from_pdf.findings) > 50
    assert key(from_pdf) == key(from_md)


def test_wide_table_over_two_columns():
    doc = read_pdf(PDF / "two_column_table.pdf", "two_column_table.pdf")
    assert tables_of(doc) == [
        [
            ["Model", "HumanEval", "GSM8K", "MATH-500", "GPQA Diamond"],
            ["Baseline", "60.4", "80.0", "50.2", "40.0"],
            ["Ours", "62.2", "84.0", "51.0", "41.0"],
        ]
    ]
    text = " ".join(b.text for b in doc.blocks())
    assert text.index("Our model improves on every benchmark.") < text.index("Right column prose")
    report = audit([str(PDF / "two_column_table.pdf")], Config(select=["within-noise"]))
    [f] = report.findings
    assert "3 of 4" in f.message and "registry" in f.message and f.location.page == 1


def test_a_second_header_row_inside_a_table_starts_its_second_half():
    """A long table printed as two stacked halves repeats its key columns ("#TP", "#AP")
    above the second half's own column names; a row of numbers or of group labels does not."""
    from benchaudit.documents.model import Cell
    from benchaudit.documents.pdf import _repeats_header

    def row(*texts: str) -> list[Cell]:
        return [Cell(t) for t in texts]

    header = row("", "#TP", "#AP", "Python", "Java", "Bash")
    assert _repeats_header(row("", "#TP", "#AP", "Swift", "R", "Average"), header)
    assert not _repeats_header(row("Codestral", "22B", "22B", "78.1%", "71.5%", "47.5%"), header)
    assert not _repeats_header(row("Open-Source Models", "", "", "", "", ""), header)
    assert not _repeats_header(row("", "#TP", "#AP", "Python", "Java", "Bash"), header)  # a repeat of the same header
