"""PDF papers and reports: the ``document`` reader for ``.pdf`` files.

pdfplumber gives words with their positions. Each page is cut into lines by
the words' baselines; a page with an empty vertical gutter near its middle is
read as two columns (full-width lines above the columns first, then the left
column, the right column, and full-width lines below). Tables found by
pdfplumber become :class:`~benchaudit.inputs.tables.Table` objects and their
words are kept out of the prose. Ligatures (ﬁ ﬂ ﬀ ...) are expanded and words
hyphenated across a line break are joined.

Line numbers count lines from the start of the document, over all pages, in
reading order; every claim's location also carries its page. A PDF without a
text layer (a scan) is an input error, not a clean report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.evidence import Source
from benchaudit.inputs import Probe, Reader

if TYPE_CHECKING:
    from benchaudit.engine import Context

LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
_LIG = str.maketrans(LIGATURES)
#: a word broken at the end of a line: "improve-" + "ment"
_HYPHEN_END = re.compile(r"(?<=[A-Za-z])[-\u00ad\u2010]$")
_LOWER_START = re.compile(r"^[a-z]")


def sniff(p: Probe) -> float:
    if p.head.startswith(b"%PDF"):
        return 1.0
    return 0.6 if p.suffix == ".pdf" else 0.0


@dataclass
class PdfLine:
    """One line of text in reading order, or one table row."""

    text: str
    page: int
    table: int | None = None  # index into the document's tables
    new_block: bool = False  # a paragraph starts here (page or column change, or a wide gap)


_DOUBLED_MARK = re.compile(r"(\w[\u0300-\u036f])\1")


def fix_ligatures(text: str) -> str:
    """Expand ligature glyphs; undo the doubled "p̂p̂" some PDF writers emit for a
    letter with a combining accent (both glyphs map to the whole cluster)."""
    return _DOUBLED_MARK.sub(r"\1", text.translate(_LIG))


def join_hyphenated(lines: list[str]) -> list[str]:
    """Join words hyphenated across line ends ("improve-" / "ment ...").

    The joined word stays on the first line and leaves the second, so line
    numbers do not move. Compounds that already contain a hyphen
    ("state-of-the-" / "art") keep theirs.
    """
    out = list(lines)
    for i in range(len(out) - 1):
        cur, nxt = out[i].rstrip(), out[i + 1].lstrip()
        if not _HYPHEN_END.search(cur) or not _LOWER_START.match(nxt):
            continue
        head_word = cur.split()[-1] if cur.split() else ""
        rest = nxt.split(" ", 1)
        tail_word = rest[0]
        keep = "-" if "-" in head_word[:-1] else ""
        out[i] = cur[:-1] + keep + tail_word
        out[i + 1] = rest[1] if len(rest) > 1 else ""
    return out


def _group_lines(words: list[dict[str, Any]], tolerance: float = 3.0) -> list[list[dict[str, Any]]]:
    """Words sorted into lines by their top coordinate, each line left to right."""
    lines: list[list[dict[str, Any]]] = []
    for w in sorted(words, key=lambda w: (round(w["top"], 1), w["x0"])):
        if lines and abs(lines[-1][0]["top"] - w["top"]) <= tolerance:
            lines[-1].append(w)
        else:
            lines.append([w])
    return [sorted(line, key=lambda w: w["x0"]) for line in lines]


def _gutter(words: list[dict[str, Any]], width: float) -> float | None:
    """The x of an empty vertical strip near the middle of the page, if any."""
    if len(words) < 20:
        return None
    lo, hi = 0.35 * width, 0.65 * width
    step = width / 200
    best_x, best_cover = None, None
    x = lo
    while x <= hi:
        cover = sum(1 for w in words if w["x0"] < x < w["x1"])
        if best_cover is None or cover < best_cover:
            best_x, best_cover = x, cover
        x += step
    if best_cover is not None and best_cover > 0.1 * len(words):
        return None
    if best_x is None:
        return None
    left = sum(1 for w in words if w["x1"] <= best_x)
    right = sum(1 for w in words if w["x0"] >= best_x)
    # A real gutter: few lines cross it (a title, an abstract or a full-width
    # table may) and both sides carry text.
    all_lines = _group_lines(words)
    crossing = sum(1 for ln in all_lines if any(w["x0"] < best_x < w["x1"] for w in ln))
    if crossing > 0.25 * len(all_lines) or min(left, right) < 0.2 * len(words):
        return None
    # Columns are filled with full lines; a table's short cells are not columns.
    for side in ([w for w in words if w["x1"] <= best_x], [w for w in words if w["x0"] >= best_x]):
        lines = _group_lines(side)
        if len(lines) < 5:
            return None
        lo = min(w["x0"] for w in side)
        hi = max(w["x1"] for w in side)
        widths = sorted(ln[-1]["x1"] - ln[0]["x0"] for ln in lines)
        if widths[len(widths) // 2] < 0.6 * (hi - lo):
            return None
    return best_x


def _spans(line: list[dict[str, Any]], split: float) -> bool:
    """A line runs across the gutter: a word crosses it, or the words on either
    side of it are only a word space apart (a title over both columns)."""
    if any(w["x0"] < split < w["x1"] for w in line):
        return True
    left = [w["x1"] for w in line if w["x1"] <= split]
    right = [w["x0"] for w in line if w["x0"] >= split]
    if not left or not right:
        return False
    size = max(w["bottom"] - w["top"] for w in line)
    return min(right) - max(left) < 0.8 * size


def _reading_order(words: list[dict[str, Any]], width: float) -> list[list[dict[str, Any]]]:
    split = _gutter(words, width)
    if split is None:
        return _group_lines(words)
    lines = _group_lines(words)
    full = [ln for ln in lines if _spans(ln, split)]
    body = [w for ln in lines if not _spans(ln, split) for w in ln]
    left = _group_lines([w for w in body if w["x1"] <= split])
    right = _group_lines([w for w in body if w["x0"] >= split])
    first_col_top = min((ln[0]["top"] for ln in left + right), default=float("inf"))
    above = [ln for ln in full if ln[0]["top"] < first_col_top]
    below = [ln for ln in full if ln[0]["top"] >= first_col_top]
    return above + left + right + below


_NUMERIC_CELL = re.compile(r"^[-+−]?\d+(?:[.,]\d+)*\s*%?(?:\s*(?:±|\+/-)\s*\d+(?:\.\d+)?)?[*†‡]*$")


def _cells(line: list[dict[str, Any]]) -> list[tuple[float, float, str]]:
    """A line cut into cells where the gap between words is wider than a few spaces."""
    size = max(w["bottom"] - w["top"] for w in line)
    cells: list[list[dict[str, Any]]] = [[line[0]]]
    for prev, w in zip(line, line[1:]):
        if w["x0"] - prev["x1"] > 1.5 * size:
            cells.append([w])
        else:
            cells[-1].append(w)
    return [(c[0]["x0"], c[-1]["x1"], " ".join(w["text"] for w in c)) for c in cells]


def _aligned(
    a: list[tuple[float, float, str]], b: list[tuple[float, float, str]], tol: float = 6.0
) -> bool:
    return len(a) == len(b) and all(
        abs(x[0] - y[0]) <= tol
        or abs(x[1] - y[1]) <= tol
        or abs((x[0] + x[1]) - (y[0] + y[1])) <= 2 * tol
        for x, y in zip(a, b)
    )


def _aligned_tables(lines: list[list[dict[str, Any]]]) -> list[tuple[int, int, list[list[str]]]]:
    """Runs of at least two numeric rows (and an aligned header above them) of 2+ cells."""
    cells = [_cells(ln) for ln in lines]

    def numeric_row(c: list[tuple[float, float, str]]) -> bool:
        body = [t for _, _, t in c[1:]]
        return len(c) >= 2 and sum(
            bool(_NUMERIC_CELL.match(fix_ligatures(t))) for t in body
        ) >= max(1, 0.6 * len(body))

    out = []
    i = 0
    while i < len(lines):
        if not numeric_row(cells[i]):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and numeric_row(cells[j]) and _aligned(cells[j], cells[i]):
            j += 1
        if j - i >= 2:
            start = i - 1 if i > 0 and _aligned(cells[i - 1], cells[i]) else i
            rows = [[fix_ligatures(t) for _, _, t in cells[k]] for k in range(start, j)]
            out.append((start, j, rows))
        i = j
    return out


def _paragraph_starts(tops: list[float]) -> set[int]:
    """Indices of lines that start a paragraph: the first line of the page, a
    jump back up (the next column), or a gap well above the usual line spacing.

    The usual spacing is the smallest step seen at least twice: on a page of
    short paragraphs the paragraph gap may be the commonest step.
    """
    steps = [round(b - a, 1) for a, b in zip(tops, tops[1:]) if b > a]
    counts: dict[float, int] = {}
    for st in steps:
        counts[st] = counts.get(st, 0) + 1
    recurring = sorted(st for st, k in counts.items() if k >= 2)
    usual = recurring[0] if recurring else (sorted(steps)[len(steps) // 2] if steps else 0.0)
    out = {0}
    for i in range(1, len(tops)):
        step = tops[i] - tops[i - 1]
        if step <= 0 or (usual and step > 1.6 * usual):
            out.add(i)
    return out


def _line_text(line: list[dict[str, Any]]) -> str:
    return " ".join(w["text"] for w in line)


def _inside(word: dict[str, Any], bbox: tuple[float, float, float, float]) -> bool:
    x0, top, x1, bottom = bbox
    cx, cy = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
    return x0 <= cx <= x1 and top <= cy <= bottom


def read_pdf(path: Path, display: str) -> tuple[list[PdfLine], list[list[list[str]]], int]:
    """Lines in reading order, the tables as rows of cells, and the page count."""
    try:
        import pdfplumber
        from pdfminer.pdfparser import PDFSyntaxError
    except ImportError:  # pragma: no cover - pdfplumber is a dependency
        raise InputError(display, "reading PDF needs pdfplumber (pip install pdfplumber)") from None
    out: list[PdfLine] = []
    tables: list[list[list[str]]] = []
    try:
        with pdfplumber.open(path) as pdf:
            pages = len(pdf.pages)
            for number, page in enumerate(pdf.pages, start=1):
                words = page.extract_words(keep_blank_chars=False, use_text_flow=False)
                if not words:
                    continue
                found = []
                try:
                    found = [t for t in page.find_tables() if t.bbox]
                except Exception:  # noqa: BLE001 - table finding is best effort
                    found = []
                placed: list[tuple[float, int, list[list[str]]]] = []
                for t in found:
                    rows = [
                        [fix_ligatures(c or "").replace("\n", " ").strip() for c in r]
                        for r in t.extract()
                    ]
                    rows = [r for r in rows if any(r)]
                    if len(rows) >= 2 and max(len(r) for r in rows) >= 2:
                        placed.append((t.bbox[1], len(tables), rows))
                        tables.append(rows)
                boxes = [t.bbox for t in found]
                prose = [w for w in words if not any(_inside(w, b) for b in boxes)]
                # Tables without rules: runs of lines whose cells line up in columns,
                # first across the whole page (a table wider than a column), then
                # within the columns.
                page_lines = _group_lines(prose)
                taken: set[int] = set()
                for start, end, rows in _aligned_tables(page_lines):
                    placed.append((page_lines[start][0]["top"], len(tables), rows))
                    tables.append(rows)
                    taken.update(id(w) for ln in page_lines[start:end] for w in ln)
                prose = [w for w in prose if id(w) not in taken]
                lines = _reading_order(prose, float(page.width)) if prose else []
                for start, end, rows in reversed(_aligned_tables(lines)):
                    placed.append((lines[start][0]["top"], len(tables), rows))
                    tables.append(rows)
                    del lines[start:end]
                texts = [(ln[0]["top"], fix_ligatures(_line_text(ln))) for ln in lines]
                breaks = _paragraph_starts([top for top, _ in texts])
                # Tables sit among the prose lines at their top position (single-column order).
                merged: list[PdfLine] = []
                pending = sorted(placed)
                for k, (top, text) in enumerate(texts):
                    while pending and pending[0][0] < top:
                        _, idx, rows = pending.pop(0)
                        merged.extend(PdfLine(" | ".join(r), number, idx) for r in rows)
                    merged.append(PdfLine(text, number, new_block=k in breaks))
                for _, idx, rows in pending:
                    merged.extend(PdfLine(" | ".join(r), number, idx) for r in rows)
                out.extend(merged)
    except InputError:
        raise
    except PDFSyntaxError as exc:
        raise InputError(display, f"not a readable PDF ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many kinds on broken files
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(display, f"not a readable PDF ({first})") from None
    if not any(ln.text.strip() for ln in out):
        raise InputError(
            display,
            f"no text layer (scanned?): none of its {pages} page(s) has extractable text; "
            "run OCR first (e.g. ocrmypdf) and check the result",
        )
    return out, tables, pages


def _normalise(doc: Any) -> None:
    """Compatibility forms to plain characters (NFKC): TeX sets "k responses" and "top-p" in
    mathematical italic (U+1D458 ...), which no pattern reads as the letter."""
    import unicodedata
    from dataclasses import replace

    from benchaudit.documents.model import Block, Table

    def norm(text: str) -> str:
        return unicodedata.normalize("NFKC", text) if not text.isascii() else text

    for item in doc.items:
        if isinstance(item, Block):
            item.lines = [replace(t, text=norm(t.text)) for t in item.lines]
        elif isinstance(item, Table):
            for row in [*item.header_rows, *item.rows]:
                for cell in row:
                    cell.text = norm(cell.text)


def read(path: Path, display: str, ctx: Context) -> Source:
    """A PDF through the document model (:mod:`benchaudit.documents.pdf`)."""
    from benchaudit.documents.pdf import read_pdf as read_document
    from benchaudit.inputs.claims import extract_document

    doc = read_document(path, display)
    _normalise(doc)
    claims, seen, tables = extract_document(doc, ctx)
    return Source(
        path=display,
        kind="document",
        claims=claims,
        numbers_seen=seen,
        data=doc,
        lines=doc.lines,
        meta={"format": "pdf", "pages": doc.pages, "tables": tables},
    )


READER = Reader("document", sniff, read, "PDF (text layer via pdfplumber)")
