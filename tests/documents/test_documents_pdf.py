"""The PDF document reader: words, reading order, paragraphs, tables, framing, caps.

The PDFs are drawn here with matplotlib's PDF backend (TrueType text, real
rules and plot marks), so no binary is committed: each test lays out words at
chosen positions and sizes, the way a typesetter would, and checks what the
reader makes of them. The corpus test at the end runs on the real papers in
tests/data/realdocs/docs when they are there.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

matplotlib = pytest.importorskip("matplotlib")
pytest.importorskip("pdfminer")

from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.font_manager import FontProperties, findfont  # noqa: E402
from matplotlib.ft2font import FT2Font  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from benchaudit.documents.model import Block, Document, Table  # noqa: E402
from benchaudit.documents.pdf import read_pdf  # noqa: E402
from benchaudit.errors import InputError  # noqa: E402

W, H = 612.0, 792.0  # US letter, in points
REALDOCS = Path(__file__).parents[1] / "data" / "realdocs" / "docs"


# ------------------------------------------------------------- drawing PDFs


@cache
def _font(bold: bool) -> FT2Font:
    return FT2Font(findfont(FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")))


def width(text: str, size: float, bold: bool = False) -> float:
    """Advance width of ``text`` in points, as the PDF will lay it out."""
    font = _font(bold)
    font.set_size(1000, 72)  # measured large so that hinting does not round it
    font.set_text(text, 0.0)
    return font.get_width_height()[0] / 64.0 * size / 1000


@dataclass
class Page:
    """One page being drawn: text at a baseline (points from the top), rules, plots."""

    fig: Figure

    def text(self, x: float, base: float, text: str, size: float = 10, bold: bool = False) -> float:
        self.fig.text(x / W, 1 - base / H, text, fontsize=size, family="DejaVu Sans", fontweight="bold" if bold else "normal", va="baseline", ha="left")
        return x + width(text, size, bold)

    def words(self, x: float, base: float, text: str, size: float = 10, gap: float = 0.33, bold: bool = False) -> float:
        """Each word drawn on its own, ``gap`` em apart (a tight justified line)."""
        for w in text.split():
            x = self.text(x, base, w, size, bold) + gap * size
        return x

    def rule(self, x0: float, x1: float, y: float, lw: float = 0.6) -> None:
        self.fig.add_artist(Line2D([x0 / W, x1 / W], [1 - y / H, 1 - y / H], linewidth=lw, color="black"))

    def plot(self, x: float, top: float, w: float, h: float) -> None:
        ax = self.fig.add_axes((x / W, 1 - (top + h) / H, w / W, h / H))
        ax.plot([0, 1, 2, 3, 4, 5], [0.1, 0.35, 0.52, 0.61, 0.7, 0.74], marker="o", label="ours")
        ax.plot([0, 1, 2, 3, 4, 5], [0.1, 0.2, 0.3, 0.33, 0.4, 0.41], marker="s", label="baseline")
        ax.set_xlabel("training steps (k)")
        ax.legend()

    def paragraph(self, x: float, base: float, lines: Iterable[str], size: float = 10, step: float = 12) -> float:
        for line in lines:
            self.words(x, base, line, size)
            base += step
        return base


def make_pdf(path: Path, *pages: object) -> Path:
    """Draw pages with the callables given (each takes a :class:`Page`)."""
    with matplotlib.rc_context({"pdf.fonttype": 42}), PdfPages(path, metadata={"CreationDate": None}) as pdf:
        for draw in pages:
            fig = Figure(figsize=(W / 72, H / 72))
            draw(Page(fig))  # type: ignore[operator]
            pdf.savefig(fig)
    return path


FILLER = [
    "the reviewers read every table and every claim in the paper with care",
    "before they trust any number that the authors report as the best one",
    "so the text around the numbers has to come out of the file intact",
    "with its words apart and its lines in the order a reader follows",
]


def texts(doc: Document) -> list[str]:
    return [b.text for b in doc.blocks()]


def only_table(doc: Document) -> Table:
    tables = list(doc.tables())
    assert len(tables) == 1, [t.header() for t in tables]
    return tables[0]


def check_lines(doc: Document) -> None:
    """Line numbers count the extracted lines; each text sits at its number."""
    seen = []
    for item in doc.items:
        if isinstance(item, Block):
            for tl in item.lines:
                assert doc.lines[tl.line - 1] == tl.text and tl.page is not None
                seen.append(tl.line)
            assert [tl.line for tl in item.lines] == sorted(tl.line for tl in item.lines)
        else:
            for row in [*item.header_rows, *item.rows]:
                for c in row:
                    assert c.page is not None and c.line is not None
                    assert doc.lines[c.line - 1][c.column - 1 :].startswith(c.text)
                seen.append(row[0].line)
    assert len(set(seen)) == len(seen) and max(seen, default=0) <= len(doc.lines)


# -------------------------------------------------------------------- words


SENTENCE = "Our model achieves a score of 79.8% Pass@1 on AIME 2024 while the baseline reaches 63.6%"


def test_small_font_tight_words_are_not_glued(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        p.text(72, 60, "1 Introduction", 14, bold=True)
        base = 90.0
        for _ in range(3):
            p.words(72, base, SENTENCE, size=7, gap=0.22)  # 1.5 pt word spaces: under pdfplumber's 3 pt
            base += 9

    pdf = make_pdf(tmp_path / "tight.pdf", draw)
    import pdfplumber

    with pdfplumber.open(pdf) as plumber:
        assert "Ourmodelachieves" in (plumber.pages[0].extract_text() or "")  # the old failure, reproduced
    doc = read_pdf(pdf, "tight.pdf")
    para = next(b for b in doc.blocks() if b.kind == "paragraph")
    assert [tl.text for tl in para.lines] == [SENTENCE] * 3
    assert "79.8%" in para.text.split() and "Pass@1" in para.text.split()
    assert doc.format == "pdf" and doc.pages == 1
    check_lines(doc)


def test_ligatures_and_hyphenated_line_breaks(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        p.paragraph(72, 80, ["The \ufb01rst e\ufb00ect is a clear improve-", "ment on the task, and the state-of-the-", "art baseline is GPT-", "4 which is strong, and Megrez2-", "Preview is weaker."])

    doc = read_pdf(make_pdf(tmp_path / "lig.pdf", draw), "lig.pdf")
    para = next(doc.blocks())
    lines = [tl.text for tl in para.lines]
    assert lines[0] == "The first effect is a clear improvement"
    assert lines[1] == "on the task, and the state-of-the-art"
    # A name broken at its own hyphen is one word again, hyphen kept.
    assert lines[2] == "baseline is GPT-4" and lines[3] == "which is strong, and Megrez2-Preview"
    assert lines[4] == "is weaker."
    check_lines(doc)


# ------------------------------------------------------------ reading order


def test_two_columns_title_headers_page_numbers(tmp_path: Path) -> None:
    def page(n: int):  # type: ignore[no-untyped-def]
        def draw(p: Page) -> None:
            p.text(72, 40, "Preprint. Under review at a venue.", 8)
            if n == 1:
                p.text(150, 80, "A Paper Set In Two Columns", 16, bold=True)
            left = [f"left column line {i} of page {n} reads on" for i in range(1, 15)]
            right = [f"right column line {i} of page {n} reads on" for i in range(1, 15)]
            p.paragraph(72, 120, left)
            p.paragraph(320, 120, right)
            p.text(300, 760, str(n), 9)

        return draw

    doc = read_pdf(make_pdf(tmp_path / "cols.pdf", page(1), page(2), page(3)), "cols.pdf")
    all_text = "\n".join(doc.lines)
    assert "Preprint" not in all_text and not any(re.fullmatch(r"\d", ln) for ln in doc.lines)
    assert doc.lines[0] == "A Paper Set In Two Columns"
    order = [ln for ln in doc.lines if "column line" in ln]
    expect = [f"{side} column line {i} of page {n} reads on" for n in (1, 2, 3) for side in ("left", "right") for i in range(1, 15)]
    assert order == expect
    pages = [tl.page for b in doc.blocks() for tl in b.lines if "column line" in tl.text]
    assert pages == [n for n in (1, 2, 3) for _ in range(28)]
    check_lines(doc)


def test_figure_text_is_dropped_caption_kept(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        p.paragraph(72, 70, FILLER)
        p.plot(110, 140, 380, 220)
        p.text(72, 400, "Figure 1: Accuracy over training for ours and the baseline.", 9)
        p.paragraph(72, 430, FILLER)

    doc = read_pdf(make_pdf(tmp_path / "fig.pdf", draw), "fig.pdf")
    assert not list(doc.tables())
    joined = " ".join(doc.lines)
    assert not any(re.fullmatch(r"[\d.\s]+", ln) for ln in doc.lines), doc.lines  # no tick labels
    assert "training steps (k)" not in joined and "ours baseline" not in joined
    caption = next(b for b in doc.blocks() if b.kind == "caption")
    assert caption.text.startswith("Figure 1:")
    check_lines(doc)


# --------------------------------------------------------- sections, blocks


def test_headings_sections_paragraphs_items_footnotes(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        p.text(72, 60, "4 Experiments", 13, bold=True)
        y = p.paragraph(72, 90, FILLER)
        p.text(72, y + 14, "4.1 Setup", 11, bold=True)
        y = p.paragraph(86, y + 36, FILLER[:1])  # an indented first line opens a paragraph
        y = p.paragraph(72, y, FILLER[1:])
        y = p.paragraph(86, y, FILLER[:2])
        p.text(72, y + 14, "4.2 Results", 11, bold=True)
        y = p.paragraph(72, y + 36, ["We report three findings:"])
        p.words(80, y, "\u2022 the model is better on every benchmark we ran")
        p.words(88, y + 12, "and the margin grows with the budget")
        p.words(80, y + 24, "\u2022 the baseline is weaker¹ than reported")
        p.text(72, 740, "1", 6)
        p.words(78, 744, "Numbers taken from the original paper.", size=8)

    doc = read_pdf(make_pdf(tmp_path / "sec.pdf", draw), "sec.pdf")
    titles = [(s.title, s.level, s.parent.title if s.parent else None) for s in doc.sections]
    assert ("4 Experiments", 1, None) in titles
    assert ("4.1 Setup", 2, "4 Experiments") in titles and ("4.2 Results", 2, "4 Experiments") in titles
    setup = next(s for s in doc.sections if s.title == "4.1 Setup")
    paras = [b for b in doc.blocks() if b.kind == "paragraph" and b.section is setup]
    assert len(paras) == 2 and paras[1].text.startswith(FILLER[0])
    items = [b for b in doc.blocks() if b.kind == "item"]
    assert len(items) == 2 and items[0].text.endswith("grows with the budget")
    foot = next(b for b in doc.blocks() if b.kind == "footnote")
    assert foot.label == "1" and "original paper" in foot.text and doc.footnotes["1"] is foot
    check_lines(doc)


# ------------------------------------------------------------------- tables


def booktabs(p: Page, x: float, top: float) -> float:
    """A booktabs table: two-level header with a cmidrule, a row group, odd cells."""
    cols = [x, x + 150, x + 215, x + 280, x + 360]
    p.rule(x, x + 440, top, 1.0)
    p.text(cols[2] + 20, top + 13, "Math", 9, bold=True)
    p.rule(cols[2], cols[3] + 55, top + 17, 0.4)
    head = ["Model", "Size", "AIME 2024", "MATH-500", "Pass rate"]
    for c, t in zip(cols, head):
        p.text(c, top + 28, t, 9, bold=True)
    p.rule(x, x + 440, top + 33, 0.6)
    rows = [
        ("Closed-source models", None),
        ("GPT-4o 0513", ["-", "9.3", "74.6", "2/30"]),
        ("Claude-3.5-Sonnet", ["-", "16.0", "78.3", "3/30"]),
        ("Open models", None),
        ("Qwen2.5-72B-Instruct", ["72B", "23.3 ± 1.2", "80.0*", "[7.7, 18.2]"]),
        ("DeepSeek-R1", ["671B", "79.8†", "97.3", "*"]),
    ]
    y = top + 46
    for label, cells in rows:
        p.text(x, y, label, 9, bold=cells is None)
        for c, t in zip(cols[1:], cells or []):
            bold = t == "79.8†"
            p.text(c, y, t, 9, bold=bold)
            if t == "80.0*":
                p.rule(c, c + width(t, 9), y + 1.5, 0.4)  # second best: underlined
        y += 12
    p.rule(x, x + 440, y - 6, 1.0)
    return y


def test_ruled_table_header_groups_cells_emphasis_framing(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        p.paragraph(72, 60, FILLER[:2] + ["Table 1 compares the models we evaluated."])
        p.words(72, 110, "Table 1: Results on math benchmarks (pass@1, mean of 8 runs).", size=9)
        end = booktabs(p, 80, 122)
        p.words(80, end + 6, "* reported by the authors; † our run.", size=7)
        p.paragraph(72, end + 40, FILLER)

    doc = read_pdf(make_pdf(tmp_path / "tab.pdf", draw), "tab.pdf")
    t = only_table(doc)
    assert t.origin == "pdf" and t.page == 1
    assert t.header() == ["Model", "Size", "Math / AIME 2024", "Math / MATH-500", "Pass rate"]
    assert [c.colspan for c in t.header_rows[0]][:3] == [1, 1, 2]
    assert [r[0].text for r in t.rows] == ["GPT-4o 0513", "Claude-3.5-Sonnet", "Qwen2.5-72B-Instruct", "DeepSeek-R1"]
    assert t.groups == ["Closed-source models", "Closed-source models", "Open models", "Open models"]
    assert [c.text for c in t.rows[2]] == ["Qwen2.5-72B-Instruct", "72B", "23.3 ± 1.2", "80.0*", "[7.7, 18.2]"]
    assert [c.text for c in t.rows[0]][1:] == ["-", "9.3", "74.6", "2/30"]
    assert t.rows[3][4].text == "*" and t.rows[3][2].marks == ("†",)
    assert t.rows[3][2].bold and not t.rows[2][2].bold
    assert t.rows[2][3].underline and not t.rows[2][2].underline and not t.rows[3][2].underline
    assert t.caption is not None and t.caption.text.startswith("Table 1: Results")
    assert t.lead_in is not None and t.lead_in.text.endswith("models we evaluated.")
    assert [n.text for n in t.notes] == ["* reported by the authors; † our run."]
    assert "pass@1, mean of 8 runs" in t.framing_text()
    check_lines(doc)


def test_unruled_two_column_table_in_a_column_layout(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        y = p.paragraph(72, 70, [f"left text line {i} goes on and on here" for i in range(1, 9)])
        p.text(72, y + 10, "Benchmark", 9, bold=True)
        p.text(200, y + 10, "Score", 9, bold=True)
        for i, (name, score) in enumerate([("HumanEval", "70.1"), ("GSM8K", "80.2"), ("MATH-500", "51.0")]):
            p.text(72, y + 24 + 12 * i, name, 9)
            p.text(200, y + 24 + 12 * i, score, 9, bold=score == "80.2")
        p.words(72, y + 70, "Table 2: Scores of our model.", size=9)
        p.paragraph(72, y + 100, [f"left text line {i} goes on and on here" for i in range(9, 15)])
        p.paragraph(320, 70, [f"right text line {i} goes on and on here" for i in range(1, 22)])

    doc = read_pdf(make_pdf(tmp_path / "unruled.pdf", draw), "unruled.pdf")
    t = only_table(doc)
    assert t.header() == ["Benchmark", "Score"]
    assert [[c.text for c in r] for r in t.rows] == [["HumanEval", "70.1"], ["GSM8K", "80.2"], ["MATH-500", "51.0"]]
    assert [r[1].bold for r in t.rows] == [False, True, False]
    assert t.caption is not None and t.caption.text == "Table 2: Scores of our model."
    right = [ln for ln in doc.lines if ln.startswith("right text")]
    assert right == [f"right text line {i} goes on and on here" for i in range(1, 22)]
    assert doc.lines.index(right[0]) > doc.lines.index("left text line 14 goes on and on here")
    check_lines(doc)


# ------------------------------------------------------------- bad input, caps


def test_unreadable_scanned_and_caps(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"%PDF-1.4\n this is not a pdf at all \x00\x01")
    with pytest.raises(InputError, match="not a readable PDF"):
        read_pdf(junk, "junk.pdf")
    (tmp_path / "empty.pdf").write_bytes(b"")
    with pytest.raises(InputError):
        read_pdf(tmp_path / "empty.pdf", "empty.pdf")

    import numpy as np

    def scan(p: Page) -> None:
        p.fig.figimage(np.random.default_rng(0).random((200, 200)), xo=50, yo=50)

    with pytest.raises(InputError, match="no text layer"):
        read_pdf(make_pdf(tmp_path / "scan.pdf", scan), "scan.pdf")

    def text(p: Page) -> None:
        p.paragraph(72, 80, FILLER)

    three = make_pdf(tmp_path / "three.pdf", text, text, text)
    with pytest.raises(InputError, match="pdf-max-pages") as err:
        read_pdf(three, "three.pdf", max_pages=2)
    assert err.value.path == "three.pdf"
    with pytest.raises(InputError, match="pdf-max-chars-per-page"):
        read_pdf(three, "three.pdf", max_chars_per_page=100)
    assert read_pdf(three, "three.pdf", max_pages=3).pages == 3


# ------------------------------------------------------------- real papers

FUNCTION_WORDS = {"a", "an", "the", "of", "to", "in", "on", "is", "as", "by", "we", "be", "or", "and", "for", "with", "our", "that", "this", "from", "are", "can", "its", "which", "than", "has", "have", "was", "were", "these", "such", "into"}


def glued_rate(lines: list[str]) -> float:
    """Share of prose lines (4+ words) with a glued token.

    Glued: 20+ letters in a row, or a word of 8+ letters (no inner capital, seen
    fewer than 3 times) that splits into words the document itself uses 3+
    times, one of them a function word ("ofmodels", "achievesascore"): run-on
    prose always swallows its function words."""
    toks = [t.lower() for ln in lines for t in re.findall(r"[A-Za-z]+", ln)]
    freq = Counter(toks)
    vocab = {t for t, n in freq.items() if n >= 3 and (len(t) >= 4 or t in FUNCTION_WORDS)}

    def split(t: str) -> tuple[int, bool] | None:
        if not t:
            return (0, False)
        for k in range(len(t), 0, -1):
            if t[:k] in vocab:
                rest = split(t[k:])
                if rest is not None:
                    return rest[0] + 1, rest[1] or t[:k] in FUNCTION_WORDS
        return None

    def glued(tok: str) -> bool:
        if len(tok) >= 20:
            return True
        if len(tok) < 8 or any(c.isupper() for c in tok[1:]) or freq[tok.lower()] >= 3:
            return False
        r = split(tok.lower())
        return r is not None and r[0] >= 2 and r[1]

    prose = [ln for ln in lines if len(re.findall(r"[A-Za-z]{2,}", ln)) >= 4]
    bad = [ln for ln in prose if any(glued(t) for t in re.findall(r"[A-Za-z]+", ln))]
    return len(bad) / max(1, len(prose))


PAPERS = sorted(REALDOCS.glob("*-paper.pdf")) if REALDOCS.is_dir() else []


@pytest.mark.skipif(not PAPERS, reason="no real papers in tests/data/realdocs/docs")
@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.stem)
def test_real_papers_words_not_glued(paper: Path) -> None:
    doc = read_pdf(paper, paper.name)
    prose = [tl.text for b in doc.blocks() if b.kind in ("paragraph", "item", "caption", "footnote") for tl in b.lines]
    assert len(prose) > 50
    assert glued_rate(prose) < 0.01
    check_lines(doc)
    assert all(t.rows and t.page for t in doc.tables())


JANUS = REALDOCS / "janus-pro-paper.pdf"


@pytest.mark.skipif(not JANUS.is_file(), reason="no janus-pro-paper.pdf in the corpus")
def test_header_labels_set_close_together_get_a_column_each() -> None:
    # Janus-Pro, Table 3: "POPE↑ MME-P↑ MMB↑ SEED↑ GQA↑ MMMU↑ MM-Vet↑" sits with word gaps
    # smaller than the cell padding; each label still names its own column.
    doc = read_pdf(JANUS, JANUS.name)
    table = next(t for t in doc.tables() if t.caption and t.caption.text.startswith("Table 3"))
    header = table.header()
    assert header[-7:] == ["POPE↑", "MME-P↑", "MMB↑", "SEED↑", "GQA↑", "MMMU↑", "MM-Vet↑"]
    assert "# LLM Params" in header


def test_column_rules_drawn_row_by_row_are_not_a_figure(tmp_path: Path) -> None:
    """Short vertical rule pieces, one per row, meeting end to end at the same x,
    are a table's column rules: the cells between them stay (they are no plot).
    Group labels over one shared rule each take the columns they are centred on."""
    xs = [72.0, 180.0, 230.0, 290.0, 340.0]

    def vline(p: Page, x: float, y0: float, y1: float) -> None:
        p.fig.add_artist(Line2D([x / W, x / W], [1 - y0 / H, 1 - y1 / H], linewidth=0.4, color="black"))

    def draw(p: Page) -> None:
        p.paragraph(72, 60, FILLER)
        p.words(72, 122, "Table 3: Overall performance of the models.", size=9)
        top = 130
        p.rule(72, 400, top - 9, 1.0)
        # two group labels over one rule that spans both groups
        p.text((xs[1] + xs[2] + width("MBPP", 5.5)) / 2 + 3 - width("Code", 5.5, True) / 2, top - 2, "Code", 5.5, bold=True)
        p.text((xs[3] + xs[4] + width("SVAMP", 5.5)) / 2 + 3 - width("Math", 5.5, True) / 2, top - 2, "Math", 5.5, bold=True)
        p.rule(xs[1], 400, top, 0.4)
        for c, t in zip(xs, ["Model", "HumanEval", "MBPP", "MATH", "SVAMP"]):
            p.text(c + 3, top + 6, t, 5.5, bold=True)
        p.rule(72, 400, top + 8, 0.5)
        rows = [(f"Model-{i}B", [f"{30 + i}.{i}", f"{40 + i}.5", f"{10 + i}.2", f"{50 + i}.8"]) for i in range(1, 16)]
        y = top + 8
        for label, cells in rows:
            p.text(xs[0] + 3, y + 5.2, label, 5.5)
            for c, t in zip(xs[1:], cells):
                p.text(c + 3, y + 5.2, t, 5.5)
            for c in (175.0, 226.0, 286.0):  # the column rules, one piece per row
                vline(p, c, y, y + 6.5)
            y += 6.5
        p.rule(72, 400, y, 1.0)
        p.paragraph(72, y + 30, FILLER)

    doc = read_pdf(make_pdf(tmp_path / "vrules.pdf", draw), "vrules.pdf")
    t = only_table(doc)
    assert t.header() == ["Model", "Code / HumanEval", "Code / MBPP", "Math / MATH", "Math / SVAMP"]
    assert len(t.rows) == 15
    assert [c.text for c in t.rows[0]] == ["Model-1B", "31.1", "41.5", "11.2", "51.8"]
    check_lines(doc)


RING_LITE = REALDOCS / "ring-lite-distill-paper.pdf"


@pytest.mark.skipif(not RING_LITE.is_file(), reason="no ring-lite-distill-paper.pdf in the corpus")
def test_model_names_over_two_header_lines_set_close_together() -> None:
    # Ring-Lite-Distill, Table 2: the first lines of three two-line model names
    # ("R1-Distill-Qwen", "R1-Distill-Qwen", "Ling-Lite") sit 4 pt apart, each centred on its
    # column; they are three column labels joined with the line below, not one label over three.
    doc = read_pdf(RING_LITE, RING_LITE.name)
    table = next(t for t in doc.tables() if t.caption and t.caption.text.startswith("Table 2"))
    assert table.header() == [
        "Benchmark", "R1-Distill-Qwen 7B (reported)", "R1-Distill-Qwen 7B (reproduce)", "Ling-Lite",
        "Ring-Lite-Distill-Stage-1", "Ring-Lite-Distill-Stage-2", "Ring-Lite-Distill-DPO",
    ]


GRANITE3 = REALDOCS / "granite-3.0-paper.pdf"


@pytest.mark.skipif(not GRANITE3.is_file(), reason="no granite-3.0-paper.pdf in the corpus")
def test_a_row_of_model_sizes_under_the_names_is_part_of_the_header() -> None:
    # Granite 3.0, Table 10: "Parameters | 2B | 3B | 2B | 7B | 8B | 8B" under the model names
    # (two "Granite-3.0" columns) is the header's second line, not a body row; Table 16 sets
    # the sizes under names that span two columns each ("Gemma-2" over F and C).
    doc = read_pdf(GRANITE3, GRANITE3.name)
    tables = {t.caption.text.split(":")[0]: t for t in doc.tables() if t.caption}
    t10 = tables["Table 10"]
    assert t10.header()[1:] == ["Gemma-2 2B", "Llama-3.2 3B", "Granite-3.0 2B", "Mistral 7B", "Llama-3.1 8B", "Granite-3.0 8B"]
    assert not any(r[0].text == "Parameters" for r in t10.rows)
    assert tables["Table 11"].header()[2] == "Granite-3.0 400M 1B"
    assert tables["Table 16"].header()[1:4] == ["Gemma-2 2B", "Gemma-2 2B", "Llama-3.2 3B"]


PROVER = REALDOCS / "deepseek-prover-v1.5-paper.pdf"


@pytest.mark.skipif(not PROVER.is_file(), reason="no deepseek-prover-v1.5-paper.pdf in the corpus")
def test_row_labels_centred_on_their_rows_name_each_of_them() -> None:
    # DeepSeek-Prover-V1.5, Table 1: each model's name is set once, centred on its rows of
    # sample budgets (on a line of its own between the 3rd and 4th of six rows, or on the
    # middle one of three); every one of those rows is that model's, in its method group.
    doc = read_pdf(PROVER, PROVER.name)
    table = next(t for t in doc.tables() if t.caption and t.caption.text.startswith("Table 1 "))
    labels = [r[0].text for r in table.rows]
    assert labels.count("DeepSeek-Prover-V1.5-Base") == 3
    assert labels.count("DeepSeek-Prover-V1.5-SFT") == 6
    assert labels.count("DeepSeek-Prover-V1.5-RL") == 6
    assert labels.count("DeepSeek-Prover-V1.5-RL + RMaxTS") == 4
    assert "" not in labels
    rl = [g for r, g in zip(table.rows, table.groups) if r[0].text == "DeepSeek-Prover-V1.5-RL"]
    assert set(rl) == {"Single-pass Whole-Proof Generation Methods"}
    assert [r[2].text for r in table.rows if r[0].text == "DeepSeek-Prover-V1.5-RL"][-1] == "60.2%"


BGE_M3 = REALDOCS / "bge-m3-paper.pdf"


@pytest.mark.skipif(not BGE_M3.is_file(), reason="no bge-m3-paper.pdf in the corpus")
def test_group_labels_ruled_off_above_the_column_names() -> None:
    # BGE-M3, Table 13: "Baselines (Prior Work)" and "M3-Embedding (Our Work)", a full rule, then
    # the column names (one of them "E5" with "mistral-7b" set as a subscript line), then a rule:
    # both lines are the header, and each group label spans the columns it is centred over.
    doc = read_pdf(BGE_M3, BGE_M3.name)
    table = next(t for t in doc.tables() if t.caption and t.caption.text.startswith("Table 13"))
    header = table.header()
    assert header[0] == ""
    assert header[1] == "Baselines (Prior Work) / BM25"
    assert header[5] == "Baselines (Prior Work) / E5 mistral-7b"
    assert header[6] == "Baselines (Prior Work) / OpenAI-3"
    assert header[7] == "M3-Embedding (Our Work) / Dense"
    assert table.rows[0][0].text == "ar"


def test_caption_lines_stay_in_the_caption_and_the_cut_sentence_goes_on(tmp_path: Path) -> None:
    # A sentence cut at the foot of page 1; page 2 opens with a two-line caption whose second
    # line starts in lower case, then the table, then the rest of the sentence.
    def one(p: Page) -> None:
        p.paragraph(72, 80, [*FILLER, "and our model achieves an average score"])

    def two(p: Page) -> None:
        p.words(72, 80, "Table 1: Results on math benchmarks. The best score of each", size=9)
        p.words(72, 91, "benchmark is in bold and the second best is underlined.", size=9)
        end = booktabs(p, 80, 104)
        p.paragraph(72, end + 30, ["of 67.6 across both metrics, ahead of the second best model.", *FILLER])

    doc = read_pdf(make_pdf(tmp_path / "cap.pdf", one, two), "cap.pdf")
    t = only_table(doc)
    assert t.caption is not None and t.caption.text.endswith("the second best is underlined.")
    para = next(b for b in doc.blocks() if b.kind == "paragraph" and "average score" in b.text)
    assert "average score of 67.6 across both metrics" in para.text
    check_lines(doc)


def test_sentence_cut_by_a_page_goes_on_after_an_arrow_or_a_dangling_word(tmp_path: Path) -> None:
    def one(p: Page) -> None:
        p.paragraph(72, 80, [*FILLER, "the score rises on the benchmark (65.65"])

    def two(p: Page) -> None:
        p.paragraph(72, 80, ["→ 67.64), so the coverage helps. However, for", "HellaSwag and PIQA the baseline is ahead.", *FILLER])

    doc = read_pdf(make_pdf(tmp_path / "cut.pdf", one, two), "cut.pdf")
    para = next(b for b in doc.blocks() if "(65.65" in b.text)
    assert "(65.65 → 67.64), so the coverage helps. However, for HellaSwag and PIQA" in para.text
    check_lines(doc)


def test_stacked_fraction_parts_keep_the_paragraph_whole(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        p.paragraph(72, 80, FILLER)
        p.words(72, 128, "where the sparsity level reaches up to", size=10)
        p.text(100, 136, "4096×12", 7)  # the fraction 4096×12 / 128K, set between the lines
        p.words(72, 140, "1 −", size=10)
        p.words(135, 140, "= 62.5%, our model nearly matches the full model, with a score of", size=10)
        p.text(104, 143.5, "128K", 7)
        p.words(72, 152, "0.7818 compared to 0.7849 for the full model.", size=10)

    doc = read_pdf(make_pdf(tmp_path / "frac.pdf", draw), "frac.pdf")
    para = next(b for b in doc.blocks() if "sparsity" in b.text)
    assert "up to 1 − = 62.5%, our model nearly matches" in para.text
    assert "with a score of 0.7818 compared to 0.7849" in para.text
    check_lines(doc)


def test_rules_drawn_in_pieces_with_joints_are_not_a_figure(tmp_path: Path) -> None:
    """A rule drawn one column at a time with a tiny square where the pieces meet: the
    squares are joints, not plot marks, and the cells between the rules stay."""
    xs = [140.0, 210.0, 266.0, 352.0]

    def square(p: Page, x: float, y: float) -> None:
        p.fig.add_artist(Line2D([x / W, (x + 0.5) / W], [1 - y / H, 1 - y / H], linewidth=0.5, color="black"))

    def rule(p: Page, y: float) -> None:
        for a, b in zip(xs, [*xs[1:], 456.0]):
            p.rule(a + 0.6, b, y, 0.5)
            square(p, b, y)

    def draw(p: Page) -> None:
        p.paragraph(72, 60, FILLER)
        rule(p, 120)
        for c, t in zip(xs, ["Model", "Params", "Active", "HumanEval"]):
            p.text(c + 3, 132, t, 9)
        rule(p, 137)
        rows = [(f"Model-{i}B", [str(10 * i), str(i), f"{50 + i}.{i}"]) for i in range(1, 11)]
        y = 137.0
        for k, (label, cells) in enumerate(rows):
            y += 15
            p.text(xs[0] + 3, y, label, 9)
            for c, t in zip(xs[1:], cells):
                p.text(c + 3, y, t, 9)
            if k == 4:
                rule(p, y + 5)  # between two groups of rows: the joints come close enough to cluster
        rule(p, y + 5)
        p.words(140, y + 20, "Table 3: Comparison of the models on HumanEval pass@1.", size=9)
        p.paragraph(72, y + 50, FILLER)

    doc = read_pdf(make_pdf(tmp_path / "joints.pdf", draw), "joints.pdf")
    t = only_table(doc)
    assert t.header() == ["Model", "Params", "Active", "HumanEval"]
    assert [c.text for c in t.rows[2]] == ["Model-3B", "30", "3", "53.3"]
    check_lines(doc)


def test_a_summary_row_over_the_group_label_column_keeps_its_label(tmp_path: Path) -> None:
    """Group labels in a sparse first column beside the tasks; the "Average" row below
    starts in that column with the task column empty: its label is the row's own."""
    xs = [72.0, 160.0, 260.0, 320.0]

    def draw(p: Page) -> None:
        p.paragraph(72, 60, FILLER)
        p.words(72, 118, "Table 3: Main results of the models on the tasks.", size=9)
        p.rule(72, 380, 126, 1.0)
        for c, t in zip(xs[1:], ["Task", "Base", "Ours"]):
            p.text(c, 138, t, 9, bold=True)
        p.rule(72, 380, 143, 0.5)
        y = 143.0
        tasks = [("Commonsense", ["ARC-c", "ARC-e", "BoolQ"]), ("Math", ["GSM8K", "MATH"])]
        i = 0
        for group, names in tasks:
            for k, name in enumerate(names):
                y += 12
                i += 1
                if k == len(names) // 2:
                    p.text(xs[0], y, group, 9)
                p.text(xs[1], y, name, 9)
                p.text(xs[2], y, f"{40 + i}.{i}", 9)
                p.text(xs[3], y, f"{50 + i}.{i}", 9)
            p.rule(72, 380, y + 4, 0.4)
        y += 16
        p.text(xs[0], y, "Average (5 tasks)", 9)
        p.text(xs[2], y, "43.3", 9)
        p.text(xs[3], y, "53.3", 9)
        p.rule(72, 380, y + 4, 1.0)
        p.paragraph(72, y + 30, FILLER)

    doc = read_pdf(make_pdf(tmp_path / "side.pdf", draw), "side.pdf")
    t = only_table(doc)
    assert [c.text for c in t.rows[0]] == ["ARC-c", "41.1", "51.1"]
    assert t.groups[:5] == ["Commonsense"] * 3 + ["Math"] * 2
    assert [c.text for c in t.rows[-1]] == ["Average (5 tasks)", "43.3", "53.3"]
    check_lines(doc)


def test_a_bar_between_two_header_labels_parts_two_columns(tmp_path: Path) -> None:
    """ "(Score | TPF)" under a model's name: two columns, each with its own values."""
    xs = [72.0, 170.0, 230.0, 290.0]

    def draw(p: Page) -> None:
        p.paragraph(72, 60, FILLER)
        p.words(72, 118, "Table 1: Scores and tokens per forward of the models.", size=9)
        p.rule(72, 380, 126, 1.0)
        p.text(xs[1], 138, "Base", 9, bold=True)
        p.text(xs[2] + 10, 138, "Diffusion", 9, bold=True)
        x = p.text(xs[0], 150, "Benchmark", 9)
        p.text(xs[1], 150, "(Score)", 9)
        x = p.text(xs[2], 150, "(Score", 9)
        x = p.text(x + 3, 150, "|", 9)
        p.text(xs[3], 150, "TPF)", 9)
        p.rule(72, 380, 155, 0.5)
        for i, name in enumerate(["GPQA", "MMLU-Pro", "C-Eval", "MuSR"]):
            y = 168 + 12 * i
            p.text(xs[0], y, name, 9)
            p.text(xs[1], y, f"{50 + i}.1{i}", 9)
            x = p.text(xs[2], y, f"{60 + i}.3{i}", 9)
            p.text(x + 3, y, "|", 9)
            p.text(xs[3], y, f"{2 + i}.4{i}", 9)
        p.rule(72, 380, 168 + 12 * 4, 1.0)
        p.paragraph(72, 250, FILLER)

    doc = read_pdf(make_pdf(tmp_path / "bar.pdf", draw), "bar.pdf")
    t = only_table(doc)
    head = t.header()
    assert len(head) == 4 and head[2].endswith("Score") and head[3].endswith("TPF")
    assert [c.text for c in t.rows[0]] == ["GPQA", "50.10", "60.30", "2.40"]
    check_lines(doc)
