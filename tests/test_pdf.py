"""PDF input: text layer with page and line, columns, tables, hyphenation, ligatures, scans."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.errors import InputError
from benchaudit.inputs.pdf import fix_ligatures, join_hyphenated, read_pdf

PDF = Path(__file__).parent / "data" / "pdf"
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


def test_ligatures_and_hyphenation():
    assert fix_ligatures("ﬁrst eﬀect ﬂow") == "first effect flow"
    assert fix_ligatures("1 - (1 - p\u0302p\u0302)^k") == "1 - (1 - p\u0302)^k"
    lines = join_hyphenated(
        ["a clear improve-", "ment on the task", "state-of-the-", "art results"]
    )
    assert lines[0].endswith("improvement") and lines[1] == "on the task"
    assert lines[2].endswith("state-of-the-art") and lines[3] == "results"
    assert join_hyphenated(["GPT-", "4 is good"]) == ["GPT-", "4 is good"]


def test_one_column_lines_in_order():
    lines, tables, pages = read_pdf(PDF / "claims_page.pdf", "claims_page.pdf")
    md = (PDF / "claims_page.md").read_text(encoding="utf-8").splitlines()
    assert pages == 1 and not tables
    assert [ln.text for ln in lines] == md
    assert all(ln.page == 1 for ln in lines)


def test_two_columns_read_left_then_right():
    lines, _, _ = read_pdf(PDF / "two_column.pdf", "two_column.pdf")
    texts = [ln.text for ln in lines]
    assert texts[0] == "A Two Column Paper Title Spanning The Page"
    assert texts.index("This sentence ends the left column.") < texts.index(
        "Right column begins after the left."
    )
    assert texts.index("Left filler line number 8 of text.") < texts.index(
        "Right column begins after the left."
    )
    # the ligature on the page is repaired
    assert any("first benchmark" in t for t in texts)


def test_hyphenation_repaired_in_the_source_text():
    from benchaudit.engine import Context
    from benchaudit.inputs.pdf import read

    source = read(PDF / "two_column.pdf", "two_column.pdf", Context(Config()))
    assert source.kind == "document" and source.meta["pages"] == 1
    assert "model shows a clear improvement" in source.lines
    assert "on the first benchmark." in source.lines


def test_tables_become_tables():
    lines, tables, _ = read_pdf(PDF / "table.pdf", "table.pdf")
    assert tables == [
        [["Benchmark", "FP16", "INT4"], ["HumanEval", "70.1", "63.4"], ["GSM8K", "80.2", "79.9"]]
    ]
    assert [ln.table for ln in lines].count(0) == 3


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
        return [(f.location.line, f.code, f.severity.label, f.message) for f in r.findings]

    assert key(pdf) == key(md)
    assert len(pdf.findings) >= 5
    assert all(f.location.page == 1 for f in pdf.findings)


def test_lines_count_from_the_start_of_the_document_and_pages_are_kept():
    lines, _, pages = read_pdf(PDF / "two_pages.pdf", "two_pages.pdf")
    assert pages == 2 and [ln.page for ln in lines] == [1, 1, 1, 2, 2]
    report = audit([str(PDF / "two_pages.pdf")], Config(select=["within-noise"]))
    [f] = report.findings
    assert (f.location.line, f.location.page) == (4, 2)


def test_unruled_table_is_found_by_alignment():
    lines, tables, _ = read_pdf(PDF / "unruled_table.pdf", "unruled_table.pdf")
    assert tables == [
        [["Benchmark", "FP16", "INT4"], ["HumanEval", "70.1", "63.4"], ["GSM8K", "80.2", "79.9"]]
    ]
    assert "The INT4 model does not suffer from significant performance degradation." in [
        ln.text for ln in lines
    ]


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

    data = Path(__file__).parent / "data" / "claims_eval" / "claims.yaml"
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
        return sorted(
            (f.code, f.severity.label, f.message, " ".join((f.claim or "").split()))
            for f in report.findings
        )

    from_pdf = audit([str(tmp_path / "claims.pdf")], Config(select=MINE))
    from_md = audit([str(tmp_path / "claims.md")], Config(select=MINE))
    assert len(from_pdf.findings) > 50
    assert key(from_pdf) == key(from_md)


def test_wide_table_over_two_columns():
    lines, tables, _ = read_pdf(PDF / "two_column_table.pdf", "two_column_table.pdf")
    assert tables == [
        [
            ["Model", "HumanEval", "GSM8K", "MATH-500", "GPQA Diamond"],
            ["Baseline", "60.4", "80.0", "50.2", "40.0"],
            ["Ours", "62.2", "84.0", "51.0", "41.0"],
        ]
    ]
    texts = [ln.text for ln in lines]
    claim = texts.index("Our model improves on every benchmark.")
    assert all(t.startswith(("Left", "column", "text")) for t in texts[4:claim])
    assert texts[claim + 1].startswith("Right column prose")
    report = audit([str(PDF / "two_column_table.pdf")], Config(select=["within-noise"]))
    [f] = report.findings
    assert f.location.line == claim + 1 and "3 of 4" in f.message and "registry" in f.message
