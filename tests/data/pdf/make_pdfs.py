"""Write the small PDFs the PDF reader is tested on (matplotlib's PDF backend).

Run from the repository root: ``python tests/data/pdf/make_pdfs.py``. The
files are committed; this script documents how they were made.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("pdf")
matplotlib.rcParams["pdf.fonttype"] = 42  # TrueType text: a real, extractable text layer
matplotlib.rcParams["pdf.compression"] = 9
import matplotlib.pyplot as plt  # noqa: E402

HERE = Path(__file__).parent
#: the claims page, also stored as claims_page.md for the PDF-vs-text test
CLAIMS = [
    "On the same 500 questions, model A (73.0%) outperforms model B (70.0%).",
    "The difference was significant, t(28) = 1.20, p < .05.",
    "Model A was right on 90 questions where model B was wrong and B on 70,",
    "a significant difference (McNemar, p < 0.05).",
    "We tried 20 prompts and report the best one on MATH-500.",
    "Accuracy is 71.2 ± 2.1 (mean ± 1.96 sd over 3 seeds).",
    "GPT-4 as a judge reaches 85% agreement with human annotators.",
]


def page(lines: list[tuple[float, float, str]], name: str, size=(8.5, 11), extra=None) -> None:
    fig = plt.figure(figsize=size)
    for x, y, text in lines:
        fig.text(x, y, text, fontsize=9, family="DejaVu Sans")
    if extra:
        extra(fig)
    fig.savefig(HERE / name, metadata={"CreationDate": None, "Producer": "benchaudit tests"})
    plt.close(fig)


def one_column() -> None:
    y = 0.92
    lines = [(0.08, y, "Results")]
    for text in CLAIMS:
        y -= 0.03
        lines.append((0.08, y, text))
    page(lines, "claims_page.pdf")
    (HERE / "claims_page.md").write_text("\n".join(["Results", *CLAIMS]) + "\n", encoding="utf-8")


def two_column() -> None:
    left = [
        "Left column starts here and the",
        "model shows a clear improve-",
        "ment on the ﬁrst benchmark.",
        "This sentence ends the left column.",
    ] + [f"Left filler line number {i} of text." for i in range(1, 9)]
    right = [
        "Right column begins after the left.",
        "It contains the second half of the",
        "paper and is read after the left.",
    ] + [f"Right filler line number {i} of text." for i in range(1, 10)]
    lines = [(0.30, 0.95, "A Two Column Paper Title Spanning The Page")]
    for i, t in enumerate(left):
        lines.append((0.06, 0.90 - 0.025 * i, t))
    for i, t in enumerate(right):
        lines.append((0.54, 0.90 - 0.025 * i, t))
    page(lines, "two_column.pdf")


def with_table() -> None:
    rows = [("Benchmark", "FP16", "INT4"), ("HumanEval", "70.1", "63.4"), ("GSM8K", "80.2", "79.9")]

    def draw(fig):
        x0, x1, top, h = 0.1, 0.7, 0.8, 0.03
        cols = [0.1, 0.35, 0.55, 0.7]
        for i in range(len(rows) + 1):
            fig.add_artist(plt.Line2D([x0, x1], [top - i * h, top - i * h], color="black", lw=0.8))
        for c in cols:
            fig.add_artist(plt.Line2D([c, c], [top, top - len(rows) * h], color="black", lw=0.8))
        for i, row in enumerate(rows):
            for j, cell in enumerate(row):
                fig.text(cols[j] + 0.01, top - (i + 1) * h + 0.008, cell, fontsize=9)

    lines = [
        (0.1, 0.88, "Table 1 compares the original and the quantized model."),
        (0.1, 0.65, "The INT4 model does not suffer from significant performance degradation."),
    ]
    page(lines, "table.pdf", extra=draw)


def unruled_table() -> None:
    rows = [("Benchmark", "FP16", "INT4"), ("HumanEval", "70.1", "63.4"), ("GSM8K", "80.2", "79.9")]
    lines = [(0.1, 0.9, "Table 1 compares the original and the quantized model.")]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            lines.append((0.1 + 0.2 * j, 0.85 - 0.02 * i, cell))
    sentence = "The INT4 model does not suffer from significant performance degradation."
    lines.append((0.1, 0.75, sentence))
    page(lines, "unruled_table.pdf")
    md = [
        "Table 1 compares the original and the quantized model.",
        "",
        "| Benchmark | FP16 | INT4 |",
        "|---|---|---|",
        "| HumanEval | 70.1 | 63.4 |",
        "| GSM8K | 80.2 | 79.9 |",
        "",
        sentence,
    ]
    (HERE / "unruled_table.md").write_text("\n".join(md) + "\n", encoding="utf-8")


def two_column_wide_table() -> None:
    import textwrap

    rows = [
        ("Model", "HumanEval", "GSM8K", "MATH-500", "GPQA Diamond"),
        ("Baseline", "60.4", "80.0", "50.2", "40.0"),
        ("Ours", "62.2", "84.0", "51.0", "41.0"),
    ]
    cols = [0.06, 0.3, 0.45, 0.6, 0.8]
    lines = [(0.3, 0.95, "A Two Column Paper With A Wide Table")]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            lines.append((cols[j], 0.9 - 0.02 * i, cell))
    left = textwrap.wrap("Left column text " * 40, 48)[:20]
    right = textwrap.wrap("Right column prose " * 40, 48)[:20]
    for i, text in enumerate(left):
        lines.append((0.06, 0.8 - 0.018 * i, text))
    lines.append((0.06, 0.8 - 0.018 * 20, "Our model improves on every benchmark."))
    for i, text in enumerate(right):
        lines.append((0.54, 0.8 - 0.018 * i, text))
    page(lines, "two_column_table.pdf")


def two_pages() -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    pages = [
        ["Page one has three lines.", "Nothing here is a claim.", "1"],
        ["On the same 500 questions, model A (73.0%) outperforms model B (70.0%).", "2"],
    ]
    with PdfPages(
        HERE / "two_pages.pdf", metadata={"CreationDate": None, "Producer": "benchaudit tests"}
    ) as pdf:
        for lines in pages:
            fig = plt.figure(figsize=(8.5, 11))
            for i, text in enumerate(lines):
                fig.text(0.08, 0.9 - 0.03 * i, text, fontsize=9)
            pdf.savefig(fig)
            plt.close(fig)


def scanned() -> None:
    import numpy as np

    fig = plt.figure(figsize=(4, 4))
    ax = fig.add_axes([0, 0, 1, 1])
    ax.imshow(np.random.default_rng(0).random((32, 32)), cmap="gray")
    ax.axis("off")
    fig.savefig(
        HERE / "scanned.pdf", metadata={"CreationDate": None, "Producer": "benchaudit tests"}
    )
    plt.close(fig)


if __name__ == "__main__":
    one_column()
    two_column()
    with_table()
    unruled_table()
    two_column_wide_table()
    two_pages()
    scanned()
