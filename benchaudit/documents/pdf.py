"""Read a PDF paper into the document model (:mod:`benchaudit.documents.model`).

Why it is built this way, measured on twenty real ML papers (DeepSeek, Kimi,
MiMo, Ling, MiniMax reports; ACL two-column papers):

* pdfminer is driven directly, with its own ``render_char`` replaced and
  included figures (form XObjects) not interpreted: building ``LTChar``
  objects, and parsing plots with millions of path operators, cost more than
  everything else together. A 52-page report reads in under 3 s.
* Words are built from glyphs with a gap threshold of 0.1 em. pdfplumber's
  fixed 3 pt glues the words of tightly justified 10-11 pt lines (a word space
  can shrink to 2.2 pt) on 7-74 % of prose lines of those papers; kerning
  inside a word stays far below 0.1 em, so "79.8%" and "Pass@1" stay whole.
* Small raised glyphs next to a word are superscripts: digits become ``¹²³``,
  so a footnote mark never turns "79.8" into "79.81".
* Figure text is dropped so that tick labels are never read as claims: text
  in included figures, over images, and inside clusters of small vector marks
  (ticks, markers, curves), unless it reads as prose or a caption.
* Tables are found from horizontal rules (booktabs) or runs of numeric rows,
  and rebuilt from word positions: a column is an x range covered by the cells
  of at least two body rows, so one spanning cell cannot fuse two columns;
  headers span the columns their cmidrule covers, or that they are centred
  over. Reading order, paragraphs, headings, captions, notes and footnotes
  come from the geometry of the lines (gutter, line step, indent, font size).
"""

from __future__ import annotations

import io
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from benchaudit.documents.model import (
    MARK_CHARS,
    Block,
    Cell,
    Document,
    Item,
    Section,
    Table,
    TextLine,
    marks_of,
)
from benchaudit.documents.superscripts import LOWERED
from benchaudit.errors import InputError
from benchaudit.limits import DEFAULT as DEFAULT_LIMITS
from benchaudit.limits import size

_LIG = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st", "\u2217": "*"})
_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_BOLD = re.compile(r"bold|black|heavy|semibold|demi|cmbx|cmmib|cmssbx|[-,+]bd|-medi(?:um|ital)?$|\bbd\b", re.I)
_ITALIC = re.compile(r"italic|oblique|ital$|cmti|cmmi(?!b)|cmsl|-it$", re.I)
_NUM = r"[-+−–]?(?:\d+(?:[.,]\d+)*|\.\d+)"
_M = re.escape(MARK_CHARS)
_NUMERIC = re.compile(
    rf"^[(\[]?{_NUM}\s*(?:%|[A-Za-zμ×]{{1,3}})?(?:\s*/\s*{_NUM})?[)\]]?[{_M}]*"
    rf"(?:\s*(?:±|\+/-)\s*{_NUM}%?[{_M}]*)?"
    rf"(?:\s*[(\[]\s*[-+±]?(?:{_NUM}|inf)%?\s*(?:[,–-]\s*{_NUM}%?)?\s*[)\]])?[{_M}]*$"
    rf"|^[-–—*✓✗×]$|^n/?a$",
    re.I,
)
_NUMBER_TOKEN = re.compile(rf"^{_NUM}%?[{_M}]*$")
_CAPTION = re.compile(r"^(Table|Tab\.|Figure|Fig\.)\s*([A-Z]?\d+(?:\.\d+)?)(\s*[:.|]|\s|$)")
_NUMBERED = re.compile(r"^(?:(\d{1,2}(?:\.\d{1,2}){0,3})|([A-H](?:\.\d{1,2}){0,3}))\.?\s+[A-Z]")
_UNNUMBERED = {"abstract", "references", "acknowledgements", "acknowledgments", "appendix", "conclusion", "conclusions", "contents", "introduction", "related work", "limitations"}
_BULLET = re.compile(r"^(?:[•◦▪‣∙●○■□➢➤►–]|\(?\d{1,2}[.)]|\([a-z]\))\s")
_FOOTMARK = re.compile(rf"^([⁰¹²³⁴⁵⁶⁷⁸⁹]+|\d{{1,2}}(?=\s|[A-Za-z])|[{_M}])\s*")
_PAGENUM = re.compile(r"^(?:page\s*)?(?:#|[ivxlc]+)(?:\s*(?:of|/)\s*#)?$")
_TERMINAL = (".", "!", "?", ":")
_GOES_ON = frozenset("→⇒↑↓),;]}")
_BARS = ("|", "│")
_DANGLING = frozenset(
    "a an the of for to in on at by with from than as and or but nor that which whose is are was were be "
    "such like between among into onto over under via vs. versus both either neither including "
    # A comparative verb wants its object: "... the 3B model outperforms" goes on.
    "outperforms outperform surpasses surpass exceeds exceed beats matches rivals trails".split()
)
#: A line opening on a model's size ("70B overwhelmingly on ...", "8x22B on ..."): the rest of
#: a name the cut paragraph ended on ("... outperforms LLaMA3"), never a sentence's start.
_SIZE_FIRST = re.compile(r"(?:\d+x)?\d+(?:\.\d+)?[BMK]\b")


class _CapError(Exception):
    """A page drew more glyphs than the per-page cap allows."""


class _StreamCapError(Exception):
    """A stream decoded to more bytes than the cap allows."""


@contextmanager
def _bounded_streams(cap: int) -> Iterator[None]:
    """pdfminer decodes a whole stream with ``zlib.decompress`` (and LZW) at once, so one
    small stream can expand to gigabytes: inside this block its decoders stop at ``cap``
    bytes. They are pdfminer's own module globals, put back on the way out."""
    import zlib
    from types import SimpleNamespace

    from pdfminer import pdftypes
    from pdfminer.lzw import LZWDecoder

    def inflate(data: bytes) -> bytes:
        d = zlib.decompressobj()
        out: list[bytes] = []
        total, step = 0, 1 << 16
        for i in range(0, len(data), step):
            try:
                chunk = d.decompress(data[i : i + step], cap + 1 - total)
            except zlib.error:
                if i + step >= len(data) and out:  # a damaged checksum: keep the text, as pdfminer does
                    break
                raise
            total += len(chunk)
            if total > cap:
                raise _StreamCapError
            out.append(chunk)
            if d.eof:
                break
        return b"".join(out)

    def corrupted(data: bytes) -> bytes:
        raise zlib.error("damaged stream")  # pdfminer then reads the stream as empty

    def lzw(data: bytes) -> bytes:
        out: list[bytes] = []
        total = 0
        for chunk in LZWDecoder(io.BytesIO(data)).run():
            total += len(chunk)
            if total > cap:
                raise _StreamCapError
            out.append(chunk)
        return b"".join(out)

    real_decode = pdftypes.PDFStream.decode

    def decode(self: Any) -> None:
        real_decode(self)
        if self.data is not None and len(self.data) > cap:  # run-length and predictors
            self.data = None
            raise _StreamCapError

    # zlib and lzwdecode are module globals of pdftypes that it does not re-export.
    saved = (pdftypes.zlib, pdftypes.decompress_corrupted, pdftypes.lzwdecode, real_decode)  # type: ignore[attr-defined]
    pdftypes.zlib = SimpleNamespace(decompress=inflate, error=zlib.error, decompressobj=zlib.decompressobj)  # type: ignore[attr-defined,assignment]  # a capped stand-in for the zlib module
    pdftypes.decompress_corrupted, pdftypes.lzwdecode = corrupted, lzw  # type: ignore[attr-defined]
    pdftypes.PDFStream.decode = decode  # type: ignore[method-assign]
    try:
        yield
    finally:
        pdftypes.zlib, pdftypes.decompress_corrupted, pdftypes.lzwdecode = saved[:3]  # type: ignore[attr-defined]
        pdftypes.PDFStream.decode = saved[3]  # type: ignore[method-assign]


@dataclass(slots=True)
class _Glyph:
    text: str
    x0: float
    x1: float
    base: float  # baseline, measured down from the top of the page
    size: float
    bold: bool
    italic: bool
    fig: bool = False


@dataclass(slots=True)
class _Word:
    text: str
    x0: float
    x1: float
    base: float
    size: float
    bold: bool
    italic: bool


@dataclass
class _Line:
    words: list[_Word]
    base: float
    size: float
    page: int
    height: float  # of the page
    col: int = 0  # 0 full width, 1 left column, 2 right column

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def top(self) -> float:
        return self.base - 0.75 * self.size

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def bold(self) -> bool:
        return all(w.bold for w in self.words if any(ch.isalnum() for ch in w.text))


@dataclass
class _Page:
    number: int
    width: float
    height: float
    glyphs: list[_Glyph] = field(default_factory=list)
    rules: list[tuple[float, float, float]] = field(default_factory=list)  # x0, x1, y (down)
    marks: list[tuple[float, float]] = field(default_factory=list)  # centres of small vector marks
    figures: list[tuple[float, float, float, float]] = field(default_factory=list)  # included figures
    lines: list[_Line] = field(default_factory=list)


@dataclass
class _TableRegion:
    rows: list[_Line]
    rules: list[tuple[float, float, float]]
    x0: float
    x1: float
    top: float
    bottom: float
    header_split: float | None = None  # y of the rule under the header (booktabs midrule)
    table: Table | None = None
    col: int = 0


def read_pdf(
    path: Path,
    display: str,
    *,
    max_pages: int = DEFAULT_LIMITS.pdf_max_pages,
    max_chars_per_page: int = DEFAULT_LIMITS.pdf_max_chars_per_page,
    max_stream_bytes: int = DEFAULT_LIMITS.pdf_max_stream_bytes,
    max_content_bytes: int = DEFAULT_LIMITS.pdf_max_content_bytes,
) -> Document:
    """Read ``path`` into a :class:`Document` (``format="pdf"``).

    Every line that ends up in a block or a table row is numbered from the
    start of the document, in reading order; ``Document.lines[n - 1]`` is the
    text of line ``n``. Raises :class:`InputError` for unreadable files,
    scans without a text layer and files over the caps.
    """
    try:
        with _bounded_streams(max_stream_bytes):
            pages = _parse(path, display, max_pages, max_chars_per_page, max_content_bytes)
    except _StreamCapError:
        raise InputError(
            display,
            f"a stream decodes to more than {size(max_stream_bytes)}, the cap "
            "(pdf-max-stream-bytes); a decompression bomb, or raise --pdf-max-stream-bytes",
        ) from None
    if not any(p.glyphs for p in pages):
        raise InputError(display, f"no text layer (scanned?): none of its {len(pages)} page(s) has extractable text; run OCR first (e.g. ocrmypdf)")
    sizes: Counter[float] = Counter(round(g.size, 1) for p in pages for g in p.glyphs if not g.fig)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    for p in pages:
        p.lines = _make_lines(p, body)
    _drop_margins(pages)
    streams = [_page_stream(p, body) for p in pages]
    return _Assembler(display, body, len(pages)).build(streams)


# ---------------------------------------------------------------- parsing


def _parse(path: Path, display: str, max_pages: int, max_chars: int, max_content: int) -> list[_Page]:
    """Glyphs, rules and marks per page, straight from pdfminer's interpreter.

    ``render_char`` is replaced: building pdfminer's ``LTChar`` objects costs
    more than the rest of the reader together, and only the origin, advance,
    size and font of a glyph are needed."""
    try:
        from pdfminer.converter import PDFPageAggregator
        from pdfminer.layout import LTCurve, LTFigure, LTImage, LTLine, LTRect
        from pdfminer.pdfdocument import PDFDocument
        from pdfminer.pdffont import PDFUnicodeNotDefined
        from pdfminer.pdfinterp import LITERAL_FORM, PDFPageInterpreter, PDFResourceManager
        from pdfminer.pdfpage import PDFPage
        from pdfminer.pdfparser import PDFParser
        from pdfminer.pdftypes import list_value, stream_value
        from pdfminer.psparser import literal_name
        from pdfminer.utils import MATRIX_IDENTITY, mult_matrix
    except ImportError:  # pragma: no cover - pdfminer.six is a dependency
        raise InputError(display, "reading PDF needs pdfminer.six (pip install pdfminer.six)") from None
    styles: dict[str, tuple[bool, bool]] = {}

    class Device(PDFPageAggregator):
        glyphs: list[_Glyph] = []
        skipped: list[tuple[float, float, float, float]] = []
        drawn = 0

        def render_char(self, matrix, font, fontsize, scaling, rise, cid, *_):  # type: ignore[no-untyped-def]
            self.drawn += 1
            if self.drawn > max_chars:
                raise _CapError
            try:
                text = font.to_unichr(cid)
            except PDFUnicodeNotDefined:
                text = ""
            adv = font.char_width(cid) * fontsize * scaling
            a, b, c, d, e, f = matrix
            if text and not text.isspace() and b == 0 and c == 0 and a > 0 and d > 0 and not font.is_vertical():
                st = styles.get(font.fontname)
                if st is None:
                    name = str(font.fontname).split("+")[-1]
                    st = styles[font.fontname] = (bool(_BOLD.search(name)), bool(_ITALIC.search(name)))
                fig = isinstance(self.cur_item, LTFigure)
                self.glyphs.append(_Glyph(text.translate(_LIG), e, e + a * adv, f + d * rise, d * fontsize, st[0], st[1], fig))
            return adv

    class Interpreter(PDFPageInterpreter):
        """Skips form XObjects smaller than the page: included figures, whose
        text is dropped anyway and whose vector plots can hold millions of
        path operators (a minute of parsing for nothing)."""

        page_area = 0.0
        skip_forms = True
        device: Device

        def do_Do(self, xobjid_arg):  # type: ignore[no-untyped-def]
            if self.skip_forms:
                try:
                    xobj = stream_value(self.xobjmap[literal_name(xobjid_arg)])
                    if xobj.get("Subtype") is LITERAL_FORM and "BBox" in xobj:
                        a1, b1, c1, d1, e1, f1 = list_value(xobj.get("Matrix", MATRIX_IDENTITY))
                        a, b, c, d, e, f = mult_matrix((a1, b1, c1, d1, e1, f1), self.ctm)
                        bx0, by0, bx1, by1 = list_value(xobj["BBox"])
                        xs = [a * x + c * y + e for x in (bx0, bx1) for y in (by0, by1)]
                        ys = [b * x + d * y + f for x in (bx0, bx1) for y in (by0, by1)]
                        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
                        if (x1 - x0) * (y1 - y0) < 0.85 * Interpreter.page_area:
                            self.device.skipped.append((x0, y0, x1, y1))
                            return
                except (KeyError, TypeError, ValueError):
                    pass
            super().do_Do(xobjid_arg)

    out: list[_Page] = []
    try:
        with open(path, "rb") as fh:
            doc = PDFDocument(PDFParser(fh))
            found = list(islice(PDFPage.create_pages(doc), max_pages + 1))
            if len(found) > max_pages:
                raise InputError(display, f"more than {max_pages} pages, the cap (pdf-max-pages)")
            rm = PDFResourceManager(caching=True)
            dev = Device(rm, laparams=None)
            interp = Interpreter(rm, dev)
            content = 0
            for number, pdfpage in enumerate(found, start=1):
                content += sum(len(stream_value(c).get_data()) for c in list_value(pdfpage.contents or []))
                if content > max_content:
                    raise InputError(display, f"more than {size(max_content)} of page content by page {number}, the cap (pdf-max-content-bytes)")
                dev.glyphs, dev.skipped, dev.drawn = [], [], 0
                x0, y0, x1, y1 = pdfpage.mediabox
                Interpreter.page_area = abs((x1 - x0) * (y1 - y0))
                try:
                    interp.process_page(pdfpage)
                    if dev.skipped and not dev.glyphs:  # the page's text lives in forms
                        dev.glyphs, dev.skipped, dev.drawn, Interpreter.skip_forms = [], [], 0, False
                        interp.process_page(pdfpage)
                except _CapError:
                    raise InputError(display, f"page {number} has over {max_chars} characters, the cap (pdf-max-chars-per-page)") from None
                finally:
                    Interpreter.skip_forms = True
                layout = dev.get_result()
                x_lo, y_hi, x_hi, y_lo = layout.x0, layout.y1, layout.x1, layout.y0
                page = _Page(number, float(x_hi - x_lo), float(y_hi - y_lo))
                for g in dev.glyphs:
                    if x_lo <= g.x0 <= x_hi and y_lo <= g.base <= y_hi:
                        g.x0, g.x1, g.base = g.x0 - x_lo, g.x1 - x_lo, y_hi - g.base
                        page.glyphs.append(g)
                images: list[tuple[float, float, float, float]] = []
                area = page.width * page.height
                pieces: list[tuple[float, float, float]] = []  # short thin vertical segments: x, top, bottom
                joints: list[tuple[float, float]] = []  # short thin horizontal segments: x, y
                stack = list(layout)
                while stack:
                    o = stack.pop()
                    if isinstance(o, LTFigure):
                        stack.extend(o)
                    elif isinstance(o, LTImage):
                        images.append((o.x0 - x_lo, y_hi - o.y1, o.x1 - x_lo, y_hi - o.y0))
                    elif isinstance(o, LTCurve):
                        w, h, y = o.width, o.height, y_hi - (o.y0 + o.y1) / 2
                        if h <= 1.6 and w >= 6 and (isinstance(o, (LTRect, LTLine)) or len(o.pts) <= 5):
                            page.rules.append((o.x0 - x_lo, o.x1 - x_lo, y))
                        elif isinstance(o, (LTRect, LTLine)) and w <= 1.6 and 3 <= h < 8:
                            pieces.append(((o.x0 + o.x1) / 2 - x_lo, y_hi - o.y1, y_hi - o.y0))
                        elif isinstance(o, (LTRect, LTLine)) and h <= 1.6 and w < 6:
                            joints.append(((o.x0 + o.x1) / 2 - x_lo, y))
                        elif (not isinstance(o, (LTRect, LTLine)) and w * h < 0.05 * area) or max(w, h) < 8:
                            page.marks.append(((o.x0 + o.x1) / 2 - x_lo, y))
                page.marks.extend(_lone_pieces(pieces))
                page.marks.extend(_off_rules(joints, page.rules))
                for x0, y0, x1, y1 in dev.skipped:  # forms not drawn: markers are marks, figures are figures
                    box = (x0 - x_lo, y_hi - y1, x1 - x_lo, y_hi - y0)
                    if (x1 - x0) * (y1 - y0) < 900:
                        page.marks.append(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
                    else:
                        page.figures.append(box)
                _flag_figures(page, images)
                out.append(page)
    except (InputError, _StreamCapError):
        raise
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many kinds on broken files
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(display, f"not a readable PDF ({first})") from None
    return out


def _lone_pieces(pieces: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    """The centres of the short vertical segments that are marks (ticks, bars).

    A table's vertical column rule is often drawn one row at a time: pieces at
    the same x that meet end to end. Taken for marks, a few such columns make a
    "figure" and the table cells between them are dropped as its labels."""
    out: list[tuple[float, float]] = []
    for i, (x, top, bottom) in enumerate(pieces):
        joined = any(
            j != i and abs(x2 - x) <= 0.5 and (abs(t2 - bottom) <= 1.0 or abs(top - b2) <= 1.0)
            for j, (x2, t2, b2) in enumerate(pieces)
        )
        if not joined:
            out.append((x, (top + bottom) / 2))
    return out


def _off_rules(joints: list[tuple[float, float]], rules: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    """The short thin horizontal segments that are marks, not joints of a rule.

    Some writers draw a table's rule in pieces, one per column, with a square of
    the rule's width where two pieces meet; taken for marks, a dozen such joints
    make a "figure" and the table's cells inside it are dropped as its labels."""
    by_y = sorted(rules, key=lambda r: r[2])
    ys = [r[2] for r in by_y]
    out = []
    for x, y in joints:
        lo = bisect_left(ys, y - 0.6)
        if not any(r[0] - 1.0 <= x <= r[1] + 1.0 for r in by_y[lo : bisect_left(ys, y + 0.6)]):
            out.append((x, y))
    return out


def _flag_figures(page: _Page, images: list[tuple[float, float, float, float]]) -> None:
    """Mark glyphs over images as figure text; undo the form-XObject flag when
    the "figure" holds nearly all of the page's text (a page wrapped in a form)."""
    if page.glyphs and sum(g.fig for g in page.glyphs) > 0.8 * len(page.glyphs):
        for g in page.glyphs:
            g.fig = False
    area = page.width * page.height
    for x0, t, x1, b in images:
        if (x1 - x0) * (b - t) > 0.5 * area:
            continue  # a scan or a page background: its text layer is the text
        for g in page.glyphs:
            if x0 <= (g.x0 + g.x1) / 2 <= x1 and t <= g.base - 0.3 * g.size <= b:
                g.fig = True


# ------------------------------------------------------------- words, lines


def _make_lines(page: _Page, body: float) -> list[_Line]:
    """Baseline clusters of glyphs, with small raised/lowered glyphs attached to
    the line they sit on, cut into words at gaps wider than 0.1 em."""
    glyphs = sorted((g for g in page.glyphs if not g.fig), key=lambda g: (g.base, g.x0))
    clusters: list[list[_Glyph]] = []
    for g in glyphs:
        if clusters and g.base - clusters[-1][0].base <= max(0.6, 0.15 * g.size):
            clusters[-1].append(g)
        else:
            clusters.append([g])
    size_of = [max(g.size for g in c) for c in clusters]
    xs = [sorted(g.x0 for g in c) for c in clusters]
    keep: list[list[_Glyph]] = [[] for _ in clusters]
    for i, c in enumerate(clusters):
        c.sort(key=lambda g: g.x0)
        runs: list[list[_Glyph]] = []
        for g in c:
            if runs and g.x0 - runs[-1][-1].x1 < 0.6 * g.size:
                runs[-1].append(g)
            else:
                runs.append([g])
        for run in runs:
            small = max(g.size for g in run)
            dest = None
            if len(run) <= 6:
                for j in range(max(0, i - 3), min(len(clusters), i + 4)):
                    d = c[0].base - clusters[j][0].base
                    if j == i or small >= 0.88 * size_of[j] or not -0.6 * size_of[j] <= d <= 0.4 * size_of[j]:
                        continue
                    k = bisect_left(xs[j], run[0].x0 - 1.2 * size_of[j])
                    if k < len(xs[j]) and xs[j][k] <= run[-1].x1 + 0.3 * size_of[j]:
                        if dest is None or abs(d) < abs(c[0].base - clusters[dest][0].base):
                            dest = j
            if dest is None:
                keep[i].extend(run)
                continue
            raised = c[0].base < clusters[dest][0].base - 0.15 * size_of[dest]
            for g in run:
                if raised:
                    g.text = g.text.translate(_SUP)
                g.base = clusters[dest][0].base
            keep[dest].extend(run)
    lines = []
    for c in keep:
        if c:
            lines.append(_to_line(sorted(c, key=lambda g: g.x0), page))
    _drop_figure_text(lines, page, body)
    return [ln for ln in lines if ln.words]


def _to_line(glyphs: list[_Glyph], page: _Page) -> _Line:
    """A line's glyphs (left to right) cut into words where the gap to the
    word so far exceeds 0.1 em; a glyph struck twice (fake bold, or a letter
    with an accent whose two glyphs both map to the cluster) counts once."""
    words: list[_Word] = []
    cur: list[_Glyph] = []
    right = 0.0
    for g in glyphs:
        if cur and g.text == cur[-1].text and (abs(g.x0 - cur[-1].x0) < 0.15 * g.size or g.x1 - g.x0 < 0.05 * g.size):
            continue
        if cur and g.x0 - right > 0.1 * max(g.size, cur[-1].size):
            words.append(_word(cur))
            cur = []
        cur.append(g)
        right = max(right, g.x1) if len(cur) > 1 else g.x1
    if cur:
        words.append(_word(cur))
    return _Line(words, glyphs[0].base, _size(words), page.number, page.height)


def _size(words: list[_Word]) -> float:
    """The line's font size: the size most of its characters are set in."""
    sizes: Counter[float] = Counter()
    for w in words:
        sizes[round(w.size, 1)] += len(w.text)
    return sizes.most_common(1)[0][0]


def _word(gs: list[_Glyph]) -> _Word:
    alnum = [g for g in gs if g.text.isalnum()] or gs
    return _Word(
        "".join(g.text for g in gs),
        gs[0].x0,
        max(g.x1 for g in gs),
        gs[0].base,
        max(g.size for g in gs),
        all(g.bold for g in alnum),
        all(g.italic for g in alnum),
    )


def _figure_regions(page: _Page, em: float) -> list[tuple[float, float, float, float]]:
    """Boxes of vector figures drawn in the page itself (pgfplots, TikZ): groups
    of 12 or more small marks (ticks, markers, curves) in touching 20 pt cells,
    widened by 2-3 em for the tick labels and axis titles around them, and
    the boxes of the included figures (form XObjects) that were not drawn."""
    cell = 30.0
    grid: dict[tuple[int, int], list[tuple[float, float]]] = {}
    under: dict[tuple[int, int], list[_Glyph]] = {}  # glyphs by baseline and 16 pt slice
    for g in page.glyphs:
        for k in range(int(g.x0 // 16), int(g.x1 // 16) + 1):
            under.setdefault((int(g.base), k), []).append(g)
    for x, y in page.marks:
        near = (g for b in range(int(y) - 5, int(y) + 1) for k in (int(x // 16) - 1, int(x // 16), int(x // 16) + 1) for g in under.get((b, k), ()))
        if any(g.x0 - 0.5 * g.size <= x <= g.x1 + 0.5 * g.size and 0 <= y - g.base <= 0.4 * g.size for g in near):
            continue  # a piece of a link's underline, not a plot mark
        grid.setdefault((int(x // cell), int(y // cell)), []).append((x, y))
    seen: set[tuple[int, int]] = set()
    out = []
    for start in grid:
        if start in seen:
            continue
        seen.add(start)
        todo, pts = [start], []
        while todo:
            cx, cy = todo.pop()
            pts.extend(grid[(cx, cy)])
            for n in ((cx + a, cy + b) for a in range(-3, 4) for b in range(-3, 4)):
                if n in grid and n not in seen:
                    seen.add(n)
                    todo.append(n)
        if len(pts) >= 12:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            if max(xs) - min(xs) > 40 and max(ys) - min(ys) > 40:
                out.append((min(xs) - 2 * em, min(ys) - em, max(xs) + 2 * em, max(ys) + 3 * em))
    return out + page.figures


def _drop_figure_text(lines: list[_Line], page: _Page, em: float) -> None:
    """Drop the labels of vector figures: pieces of lines inside a figure box,
    unless they read as prose or a caption."""
    boxes = _figure_regions(page, em)
    if not boxes:
        return
    for ln in lines:
        kept: list[_Word] = []
        for ch in _chunks(ln.words):
            cx, cy = (ch[0].x0 + ch[-1].x1) / 2, ln.base
            piece = _Line(ch, ln.base, ln.size, ln.page, ln.height)
            if any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in boxes) and not (_prose(piece) or _is_caption(piece)):
                continue
            kept.extend(ch)
        ln.words = kept


def _drop_margins(pages: list[_Page]) -> None:
    """Drop running headers and footers (the same text, digits aside, in the top
    or bottom margin of several pages) and page numbers."""
    def key(ln: _Line) -> str:
        return re.sub(r"\d+", "#", ln.text.lower()).strip()

    def margin(p: _Page) -> list[_Line]:
        return [ln for ln in p.lines if ln.base < 0.085 * p.height or ln.top > 0.915 * p.height]

    seen: Counter[str] = Counter()
    for p in pages:
        seen.update({key(ln) for ln in margin(p)})
    need = 2 if len(pages) <= 4 else max(3, len(pages) // 4)
    for p in pages:
        drop = {id(ln) for ln in margin(p) if seen[key(ln)] >= need or _PAGENUM.match(key(ln))}
        p.lines = [ln for ln in p.lines if id(ln) not in drop]


# ------------------------------------------------------------------- layout


def _chunks(words: list[_Word], gap: float = 0.9) -> list[list[_Word]]:
    """Words grouped where the space between them is under ``gap`` em."""
    out: list[list[_Word]] = []
    for w in words:
        if out and w.x0 - out[-1][-1].x1 < gap * max(w.size, out[-1][-1].size):
            out[-1].append(w)
        else:
            out.append([w])
    return out


def _is_caption(ln: _Line) -> bool:
    """ "Table 3: ..." or "Figure 2 ..." with a bold label (not "Table 3 shows ...")."""
    m = _CAPTION.match(ln.text)
    if m is None:
        return False
    if m.group(3).strip() or len(ln.words) < 3:
        return True
    return ln.words[0].bold and not ln.words[2].bold


def _goes_on(text: str) -> bool:
    """A line that cannot open a sentence: lower case, an arrow, closing bracket or clause
    punctuation ("→ 67.64), which ..."), or a model's size ("70B on Chinese benchmarks"); it
    carries on the sentence before it (when that one has not ended)."""
    return text[:1].islower() or text[:1] in _GOES_ON or _SIZE_FIRST.match(text) is not None


def _dangles(text: str) -> bool:
    """A line ending on a comma or on a word no sentence ends with ("However, for"): the
    sentence goes on, whatever the case of the next line's first letter."""
    words = text.split()
    return bool(words) and (text.endswith(",") or words[-1] in _DANGLING)


def _prose(ln: _Line) -> bool:
    """Six or more words, most of them lower-case: a sentence, not a table row."""
    return len(ln.words) >= 6 and sum(bool(re.fullmatch(r"[a-z][a-z,.;:’'-]*", w.text)) for w in ln.words) >= 0.5 * len(ln.words)


def _is_numeric(text: str) -> bool:
    return bool(_NUMERIC.match(text.strip()))


def _numeric_row(ln: _Line) -> bool:
    if sum(w.text == "." for w in ln.words) >= 3:
        return False  # dot leaders: a table of contents
    ch = [" ".join(w.text for w in c) for c in _chunks(ln.words)]
    nums = sum(_is_numeric(t) for t in ch[1:])
    if len(ch) >= 3:
        return nums >= max(1, (len(ch) - 1) / 2)
    return len(ch) == 2 and nums == 1 and not _is_numeric(ch[0]) and not re.fullmatch(r"\(\d+\)", ch[1])


def _page_stream(page: _Page, body: float) -> list[_Line | _TableRegion]:
    """The page's lines and tables in reading order: ruled tables first, then the
    column layout (gutter), then unruled tables within each column."""
    regions = _ruled_tables(page)
    lines = [ln for ln in page.lines if ln.words]
    split = _gutter(lines, page.width)
    if split is not None:  # a wide table without rules would be cut in two by the gutter

        def across(ln: _Line) -> bool:
            ch = _chunks(ln.words)
            return ln.x0 < split < ln.x1 and len(ch) >= 3 and all(c[-1].x1 - c[0].x0 < 0.3 * page.width for c in ch)

        def wide(ln: _Line) -> bool:  # not two tables side by side: cells, not labels, right of the gutter
            after = next((" ".join(w.text for w in c) for c in _chunks(ln.words) if c[-1].x1 > split), "")
            return across(ln) and (_is_numeric(after) or any(w.x0 < split < w.x1 for w in ln.words))

        found = [e for e in _unruled_tables(list(lines), body, wide, across) if isinstance(e, _TableRegion)]
        regions += found
        taken = {id(r) for t in found for r in t.rows}
        lines = [ln for ln in lines if id(ln) not in taken]
    pieces: list[tuple[int, _Line | _TableRegion]] = []
    for ln in lines:
        if split is None or _spans(ln, split):
            pieces.append((0, ln))
            continue
        left = [w for w in ln.words if w.x1 <= split]
        right = [w for w in ln.words if w.x1 > split]
        for col, ws in ((1, left), (2, right)):
            if ws:
                pieces.append((col, _Line(ws, ln.base, _size(ws), ln.page, ln.height, col)))
    for r in regions:
        r.col = 0 if split is None or r.x0 < split < r.x1 else (1 if r.x1 <= split else 2)
        pieces.append((r.col, r))

    def top(e: _Line | _TableRegion) -> float:
        return e.top

    pieces.sort(key=lambda p: top(p[1]))
    zones: list[tuple[bool, list[tuple[int, _Line | _TableRegion]]]] = []
    for col, e in pieces:
        full = col == 0
        if zones and zones[-1][0] == full:
            zones[-1][1].append((col, e))
        else:
            zones.append((full, [(col, e)]))
    out: list[_Line | _TableRegion] = []
    for full, members in zones:
        cols = [[e for _, e in members]] if full else [[e for c, e in members if c == k] for k in (1, 2)]
        for seq in cols:
            out.extend(_unruled_tables(seq, body))
    return out


def _spans(ln: _Line, split: float) -> bool:
    if any(w.x0 < split < w.x1 for w in ln.words):
        return True
    left = [w.x1 for w in ln.words if w.x1 <= split]
    right = [w.x0 for w in ln.words if w.x1 > split]
    return bool(left and right) and min(right) - max(left) < 0.9 * ln.size


def _gutter(lines: list[_Line], width: float) -> float | None:
    """The x of an empty vertical strip near the middle that splits the page
    into two columns of prose, or None for a one-column page."""
    if len(lines) < 12:
        return None
    bins = 100
    lo, hi = 0.3 * width, 0.7 * width
    step = (hi - lo) / bins
    cover = [0] * (bins + 2)
    spans = []
    for ln in lines:
        for c in _chunks(ln.words, 0.8):
            a, b = int((c[0].x0 - lo) / step) + 1, int((c[-1].x1 - lo) / step)
            a, b = max(a, 0), min(b, bins)
            if a <= b:
                cover[a] += 1
                cover[b + 1] -= 1
            spans.append((c[0].x0, c[-1].x1))
    run, best = 0, []
    for i in range(bins + 1):
        run += cover[i]
        best.append(run)
    least = min(best)
    if least > 0.35 * len(lines):
        return None
    idx = [i for i, v in enumerate(best) if v == least]
    mid = min(idx, key=lambda i: abs(i - bins / 2))
    a = b = mid
    while a - 1 in idx:
        a -= 1
    while b + 1 in idx:
        b += 1
    split = lo + (a + b + 1) / 2 * step
    col_w = [x1 - x0 for x0, x1 in spans]
    left = sum(1 for (x0, x1), wd in zip(spans, col_w) if x1 <= split and wd > 0.2 * width)
    right = sum(1 for (x0, x1), wd in zip(spans, col_w) if x0 >= split and wd > 0.2 * width)
    return split if left >= 5 and right >= 5 else None


def _ruled_tables(page: _Page) -> list[_TableRegion]:
    """Tables framed by horizontal rules of one width (top, mid and bottom rule);
    their lines are taken out of ``page.lines``."""
    rules = sorted(page.rules, key=lambda r: (round(r[2]), r[0]))
    merged: list[list[float]] = []
    for x0, x1, y in rules:
        m = merged[-1] if merged else None
        if m and abs(m[2] - y) < 1.0 and x0 <= m[1] + 2:
            m[1] = max(m[1], x1)
        else:
            merged.append([x0, x1, y])
    wide = sorted((r for r in merged if r[1] - r[0] >= 60), key=lambda r: r[2])
    out_groups: list[list[list[float]]] = []
    groups: list[list[list[float]]] = []

    def apart(a: list[float], b: list[float]) -> bool:
        """A caption or a line of prose between two rules: two tables, not one."""
        for ln in page.lines:
            if a[2] < ln.base < b[2] and a[0] - 2 <= (ln.x0 + ln.x1) / 2 <= a[1] + 2:
                if _is_caption(ln) or (_prose(ln) and len(_chunks(ln.words)) == 1 and ln.x1 - ln.x0 > 0.5 * (a[1] - a[0])):
                    return True
        return False

    for r in wide:
        g = next((g for g in groups if abs(g[-1][0] - r[0]) < 5 and abs(g[-1][1] - r[1]) < 5 and r[2] - g[-1][2] < 0.7 * page.height), None)
        if g is not None and apart(g[-1], r):
            groups.remove(g)
            out_groups.append(g)
            g = None
        if g is None:
            groups.append([r])
        else:
            g.append(r)
    out = []
    for g in out_groups + groups:
        if len(g) < 2:
            continue
        x0, x1, top, bottom = g[0][0] - 2, g[0][1] + 2, g[0][2], g[-1][2]
        rows = []
        for ln in page.lines:
            if not top < ln.base < bottom:
                continue
            inside = [w for w in ln.words if x0 <= (w.x0 + w.x1) / 2 <= x1]
            if inside:
                rows.append(_Line(inside, ln.base, _size(inside), ln.page, ln.height))
        above = [ln for ln in page.lines if top - 5 * ln.size < ln.base < top]
        for ln in sorted(above, key=lambda ln: -ln.base)[:2]:  # header rows above a top rule (\hline style)
            inside = [w for w in ln.words if x0 <= (w.x0 + w.x1) / 2 <= x1]
            if not inside or len(_chunks(inside)) < 2 or _is_caption(ln) or (rows and rows[0].base - ln.base > 2.5 * ln.size):
                break
            rows.insert(0, _Line(inside, ln.base, _size(inside), ln.page, ln.height))
        multi = sum(len(_chunks(r.words)) >= 2 for r in rows)
        numeric = sum(any(_NUMBER_TOKEN.match(w.text) for c in _chunks(r.words)[1:] for w in c) for r in rows)
        if len(rows) < 2 or multi < max(2, 0.4 * len(rows)) or numeric < max(min(2, len(rows) - 1), 0.3 * len(rows)):
            continue
        taken = {id(w) for r in rows for w in r.words}
        for ln in page.lines:
            ln.words = [w for w in ln.words if id(w) not in taken]
        inner = g[1:-1] if rows[0].base > top else g[:-1]
        head = inner[0][2] if inner and any(ln.base < inner[0][2] for ln in rows) else None
        for a, b in zip(inner, inner[1:]):
            if head is None or a[2] != head or not _names_between(rows, a[2], b[2]):
                break
            head = b[2]
        top = min(top, rows[0].top)
        partial = [(a, b, y) for a, b, y in merged if x0 <= a and b <= x1 and top - 1 <= y <= bottom + 1]
        out.append(_TableRegion(rows, partial, x0, x1, top, bottom, head))
    page.lines = [ln for ln in page.lines if ln.words]
    return out


def _names_between(rows: list[_Line], y0: float, y1: float) -> bool:
    """Group labels ruled off above the column names ("Baselines (Prior Work)", a full rule,
    then "BM25 mDPR ...", a rule): the header ends at the second rule when only one line of
    names lies between the two (with a subscript line hanging off it), at least twice as
    many cells as the labels above, no number in it, and the body below."""
    between = [ln for ln in rows if y0 < ln.base < y1]
    names = [ln for ln in between if len(_atoms(ln.words)) >= 3 and not any(_NUMBER_TOKEN.match(w.text) for w in ln.words)]
    labels = [len(_atoms(ln.words)) for ln in rows if ln.base < y0]
    if len(names) != 1 or not labels or max(labels) * 2 > len(_atoms(names[0].words)) or not any(ln.base > y1 for ln in rows):
        return False
    return all(ln is names[0] or abs(ln.base - names[0].base) < 0.5 * names[0].size for ln in between)


def _unruled_tables(
    seq: list[_Line | _TableRegion], body: float, ok: Callable[[_Line], bool] = lambda ln: True, head_ok: Callable[[_Line], bool] = lambda ln: True
) -> list[_Line | _TableRegion]:
    """Runs of two or more numeric rows (row-group labels between them allowed,
    up to three multi-cell header lines above them) become table regions;
    everything else passes through in order."""

    def row(k: int) -> bool:
        e = seq[k] if k < len(seq) else None
        return isinstance(e, _Line) and ok(e) and _numeric_row(e)

    def near(k: int) -> bool:  # line k follows line k - 1 at a row's distance
        if not 0 < k < len(seq):
            return False
        a, b = seq[k - 1], seq[k]
        return isinstance(a, _Line) and isinstance(b, _Line) and 0 < b.base - a.base <= 2.5 * b.size

    out: list[_Line | _TableRegion] = []
    i = 0
    while i < len(seq):
        if not row(i):
            out.append(seq[i])
            i += 1
            continue
        j = i + 1
        while j < len(seq) and near(j):
            lone = isinstance(seq[j], _Line) and len(_chunks(seq[j].words)) == 1  # type: ignore[union-attr]
            if row(j) or (lone and near(j + 1) and row(j + 1)):
                j += 1
            else:
                break
        if j - i < 2:
            out.append(seq[i])
            i += 1
            continue
        start = i
        while start > 0 and i - start < 3 and out and out[-1] is seq[start - 1] and near(start):
            prev = seq[start - 1]
            assert isinstance(prev, _Line)
            if _is_caption(prev) or len(_chunks(prev.words)) < 2 or not head_ok(prev):
                break
            out.pop()
            start -= 1
        rows = [ln for ln in seq[start:j] if isinstance(ln, _Line)]
        out.append(_TableRegion(rows, [], min(r.x0 for r in rows), max(r.x1 for r in rows), rows[0].top, rows[-1].base))
        i = j
    return out


# ------------------------------------------------------------------- tables


@dataclass
class _Row:
    """One line of a table: a header row, a body row, a row-group label."""

    kind: str  # "header", "body", "group" (a label row above its rows), "label" (a side label)
    line: _Line
    cells: list[Cell]
    group: str = ""
    x1: float = 0.0
    sizes: bool = False  # a header line of model sizes ("Parameters | 2B | 7B"): joins the names above


@dataclass
class _Atom:
    """Words of one cell: joined across word spaces and around ±, / and
    bracketed intervals, never across two bare numbers."""

    words: list[_Word]

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", " ".join(w.text for w in self.words)).strip()


def _atoms(words: list[_Word], bars: bool = False) -> list[_Atom]:
    """The cells of a row: words closer than the cell padding. With ``bars``, a bar glyph
    is the boundary of two cells and no cell's text."""
    out: list[_Atom] = []
    cut = False
    for w in words:
        if bars and w.text in _BARS:
            cut = True
            continue
        if out and not cut:
            a = out[-1]
            p = a.words[-1]
            gap, em = w.x0 - p.x1, max(w.size, p.size)
            so_far = a.text
            open_br = so_far.count("[") + so_far.count("(") > so_far.count("]") + so_far.count(")")
            joiner = p.text.endswith(("±", "/")) or w.text.startswith(("±", "/", ")", "]")) or (open_br and p.text.endswith(","))
            bare = bool(_NUMBER_TOKEN.match(p.text) and _NUMBER_TOKEN.match(w.text))
            if (gap < 0.4 * em and not bare) or (joiner and gap < 1.5 * em):
                a.words.append(w)
                continue
        if cut and out:
            _unbracket(out[-1], w)
        cut = False
        out.append(_Atom([w]))
    return out


def _labelled_bars(lines: list[_Line]) -> bool:
    """A table whose header sets a bar between two labels ("(Score | TPF)" under a model's
    name): its bars are column boundaries, in the body too ("62.31 | 3.29"). Without such a
    header, values set "58.98 | 69.07 | 52.55" under one label stay one cell as before."""
    for ln in lines:
        ws = ln.words
        if any(_NUMBER_TOKEN.match(w.text) for w in ws):
            return False  # the header is the lines above the first number
        for i in range(1, len(ws) - 1):
            if ws[i].text in _BARS and not _is_numeric(ws[i - 1].text) and not _is_numeric(ws[i + 1].text):
                return True
    return False


def _unbracket(left: _Atom, right: _Word) -> None:
    """ "(Score | TPF)" cut at its bar: "Score" and "TPF", not "(Score" and "TPF)"."""
    first = left.words[0]
    if first.text.startswith("(") and left.text.count("(") > left.text.count(")") and right.text.endswith(")") and right.text.count(")") > right.text.count("("):
        first.text, right.text = first.text[1:], right.text[:-1]


def _per_column(
    atom: _Atom, cols: list[list[float]], bounds: list[tuple[float, float]], centred: bool = False
) -> list[_Atom]:
    """A header atom whose words sit each over one body column, three columns or more
    ("POPE↑ MME-P↑ MMB↑ SEED↑" set close together): one atom per column. On the header
    row right above the body, where labels name columns; a word that reaches into another
    column keeps the atom whole. With ``centred`` (a header row higher up, where a phrase may
    span columns: "R1-Distill-Qwen R1-Distill-Qwen Ling-Lite" over the first line of three
    two-line model names), each word must also be centred on its column."""
    if len(atom.words) < 3:
        return [atom]
    homes: list[int] = []
    for w in atom.words:
        mid = (w.x0 + w.x1) / 2
        home = next((k for k, (b0, b1) in enumerate(bounds) if b0 <= mid < b1), None)
        if home is None or any(k != home and w.x0 < c1 and c0 < w.x1 for k, (c0, c1) in enumerate(cols)):
            return [atom]
        if centred and abs(mid - (cols[home][0] + cols[home][1]) / 2) > max(0.5 * w.size, 0.1 * (w.x1 - w.x0)):
            return [atom]
        homes.append(home)
    if len(set(homes)) < 3 or homes != sorted(homes):
        return [atom]
    parts: list[_Atom] = []
    last = -1
    for w, k in zip(atom.words, homes):
        if parts and k == last:
            parts[-1].words.append(w)
        else:
            parts.append(_Atom([w]))
        last = k
    return parts


def _columns(rows: list[list[_Atom]]) -> list[list[float]]:
    """Column extents: x ranges covered by the cells of at least two body rows
    (one, for a short table), so a cell spanning two columns does not fuse them."""
    lo = min(a.x0 for r in rows for a in r)
    cover = [0] * (int(max(a.x1 for r in rows for a in r) - lo) + 3)
    for r in rows:
        for a in r:
            cover[int(a.x0 - lo)] += 1
            cover[int(a.x1 - lo) + 1] -= 1
    need = 2 if len(rows) >= 4 else 1
    cols: list[list[float]] = []
    run, inside = 0, False
    for i, d in enumerate(cover):
        run += d
        if run >= need and not inside:
            cols.append([lo + i, lo + i])
        if run >= need:
            cols[-1][1] = lo + i + 1
        inside = run >= need
    return cols or [[lo, lo + len(cover)]]


def _table_rows(region: _TableRegion, body: float) -> list[_Row]:
    """The rows of a table region, top to bottom."""
    rows = sorted(region.rows, key=lambda r: r.base)
    bars = _labelled_bars(rows)
    atom_rows = [_atoms(r.words, bars) for r in rows]
    if region.header_split is not None:
        n_head = sum(1 for r in rows if r.base < region.header_split)
    else:
        n_head = next((i for i, r in enumerate(rows) if _numeric_row(r) or (len(atom_rows[i]) > 1 and all(_is_numeric(a.text) for a in atom_rows[i][1:]))), 0)
    n_head = min(n_head, 4 if region.header_split is None else 8, len(rows) - 1)
    # "Parameters | 2B | 3B | 7B" right under the model names: the second line of the header.
    sizes = 0
    while 0 < n_head + sizes < len(rows) and region.header_split is None and _sizes_row(atom_rows[n_head + sizes]):
        sizes += 1
    if sizes and len(rows) - n_head - sizes >= 2:
        n_head += sizes
    else:
        sizes = 0
    body_rows = [ar for ar in atom_rows[n_head:] if len(ar) > 1] or atom_rows
    cols = _columns(body_rows)
    # each column owns the space up to the middle of the gaps beside it
    bounds = [(-1e9 if k == 0 else (cols[k - 1][1] + c[0]) / 2, 1e9 if k == len(cols) - 1 else (c[1] + cols[k + 1][0]) / 2) for k, c in enumerate(cols)]
    partial = [r for r in region.rules if r[1] - r[0] < region.x1 - region.x0 - 6]

    def place(atoms: list[_Atom], ln: _Line, head: bool, labels: bool = False) -> list[Cell]:
        slots: dict[int, tuple[list[_Atom], int]] = {}
        if head:
            atoms = [part for a in atoms for part in _per_column(a, cols, bounds, centred=not labels)]
        shared = _shared_rule_spans(atoms, ln, cols, partial) if head else {}
        for a in atoms:
            over = [k for k, (c0, c1) in enumerate(bounds) if min(a.x1, c1) - max(a.x0, c0) > 0.3 * min(a.x1 - a.x0, c1 - c0)]
            mid = (a.x0 + a.x1) / 2
            rule = next((r for r in partial if ln.base < r[2] < ln.base + 1.5 * ln.size and r[0] <= mid <= r[1]), None) if head else None
            if rule is not None and id(a) in shared:
                rule = None
                over = list(range(shared[id(a)][0], shared[id(a)][1] + 1))
            if rule is not None:
                over = [k for k, (c0, c1) in enumerate(cols) if rule[0] - 2 <= (c0 + c1) / 2 <= rule[1] + 2] or over
            if not over:
                over = [min(range(len(cols)), key=lambda k: abs((cols[k][0] + cols[k][1]) / 2 - mid))]
            first, last = over[0], over[-1]
            if head and rule is None and last > first:  # a spanning header is centred over its columns
                taken = {k for b in atoms if b is not a for k, (c0, c1) in enumerate(bounds) if c0 < (b.x0 + b.x1) / 2 < c1}

                def err(i: int, j: int, mid: float = mid) -> float:
                    return abs((cols[i][0] + cols[j][1]) / 2 - mid)

                # Of the runs of columns around it that no other label claims, the one it is
                # centred on; a wider run only when it is clearly better centred ("Baselines"
                # over six columns whose middle two are not centred under it).
                lo = first
                while lo > 1 and lo - 1 not in taken:  # the row labels' column is no group's
                    lo -= 1
                hi = last
                while hi < len(cols) - 1 and hi + 1 not in taken:
                    hi += 1
                runs = [(j - i, err(i, j), i, j) for i in range(lo, first + 1) for j in range(last, hi + 1)]
                least = min(r[1] for r in runs)
                if least < err(first, last) - 0.5:
                    _, _, first, last = min(r for r in runs if r[1] <= least + 1.0)
            span = last - first + 1
            have = slots.get(first)
            slots[first] = ((have[0] if have else []) + [a], max(span, have[1] if have else 1))
        cells: list[Cell] = []
        k = 0
        while k < len(cols):
            if k not in slots:
                cells.append(Cell(""))
                k += 1
                continue
            atoms_k, span = slots[k]
            span = next((s for s in range(1, span) if k + s in slots), span)
            words = [w for a in atoms_k for w in a.words]
            text = " ".join(a.text for a in atoms_k)
            alnum = [w for w in words if any(ch.isalnum() for ch in w.text)] or words
            x0, x1 = atoms_k[0].x0, atoms_k[-1].x1
            under = not head and any(
                ln.base - 0.1 * ln.size <= y <= ln.base + 0.45 * ln.size and min(b, x1) - max(a, x0) >= 0.7 * (x1 - x0) and b - a <= x1 - x0 + 1.2 * ln.size
                for a, b, y in region.rules
            )
            # A rule through the middle of the glyphs, as wide as the cell's text: struck through.
            struck = not head and any(
                ln.base - 0.5 * ln.size <= y <= ln.base - 0.15 * ln.size and min(b, x1) - max(a, x0) >= 0.8 * (x1 - x0) and b - a <= x1 - x0 + 1.2 * ln.size
                for a, b, y in region.rules
            )
            cells.append(Cell(text, bold=all(w.bold for w in alnum), italic=all(w.italic for w in alnum), underline=under, marks=marks_of(text), colspan=span, struck=struck))
            k += span
        return cells

    out: list[_Row] = []
    group = ""
    for i, (ln, ar) in enumerate(zip(rows, atom_rows)):
        if i < n_head:
            sized = i > 0 and (i >= n_head - sizes or _sizes_row(ar))
            out.append(_Row("header", ln, place(ar, ln, True, labels=i >= n_head - 1 - sizes), sizes=sized))
        elif len(ar) == 1 and len(cols) >= 3 and not _is_numeric(ar[0].text):
            group = ar[0].text
            out.append(_Row("group", ln, [Cell(group, bold=all(w.bold for w in ar[0].words), colspan=len(cols))], group, ar[0].x1))
        else:
            out.append(_Row("body", ln, place(ar, ln, False), group))
    if len(cols) >= 3:
        _side_labels(out, cols, region)
    if len(cols) >= 2:
        _centred_labels(out, cols)
    return _merge_headers(out, region)


def _centred_labels(rows: list[_Row], cols: list[list[float]]) -> None:
    r"""Row labels set with ``\multirow`` centred on their rows (DeepSeek-Prover Table 1: a
    model's name on a line of its own between the 3rd and 4th of its six budget rows, or on
    the middle one of three): the label names the rows above and below it, as many each way.

    Only in a table that shows the style (a label line between two unlabelled rows one row
    step apart); a run stops at a labelled row, a group row or a wider gap between rows."""
    body = [r for r in rows if r.kind == "body"]
    gaps = sorted(b.line.base - a.line.base for a, b in zip(body, body[1:]) if b.line.base > a.line.base)
    if len(gaps) < 2:
        return
    step = 1.3 * gaps[len(gaps) // 2]

    def empty(r: _Row) -> bool:
        return r.kind == "body" and bool(r.cells) and not r.cells[0].text

    def mid_label(i: int) -> bool:
        r = rows[i]
        if r.kind != "group" or not 0 < i < len(rows) - 1 or r.x1 > cols[1][0] + 1:
            return False
        a, b = rows[i - 1], rows[i + 1]
        return empty(a) and empty(b) and b.line.base - a.line.base <= step

    mids = [i for i in range(len(rows)) if mid_label(i)]
    if not mids:
        return

    def run(i: int, way: int) -> list[int]:
        out, k = [], i + way
        while 0 <= k < len(rows) and empty(rows[k]) and abs(rows[k].line.base - rows[k - way].line.base) <= step:
            out.append(k)
            k += way
        return out

    labelled = [i for i, r in enumerate(rows) if r.kind == "body" and r.cells and r.cells[0].text]
    for i in mids + labelled:
        up, down = run(i, -1), run(i, 1)
        if not up or len(up) != len(down):
            continue
        source = rows[i].cells[0]
        group = rows[up[-1]].group if i in mids else rows[i].group
        for k in up + down:
            rows[k].cells[0] = Cell(source.text, bold=source.bold, italic=source.italic, marks=source.marks)
            rows[k].group = group
        if i in mids:
            rows[i].kind = "label"
            for k in range(i + 1, len(rows)):  # rows below no longer fall under the label as a group
                if rows[k].kind == "group":
                    break
                if rows[k].group == source.text:
                    rows[k].group = group


#: A model size as a header prints it: "2B", "1.7B", "360M", "A800M" (active), "8x7B".
_SIZE = re.compile(r"^(?:\d+\s*[x×]\s*)?A?\d+(?:\.\d+)?\s*[BMKT]$")


def _sizes_row(atoms: list[_Atom]) -> bool:
    """A row of model sizes under a header ("Parameters", "2B", "3B", "7B", ...): no score,
    every cell after the first a size (or a dash), at least two of them; a count in billions,
    or a first cell that says it is one (not a context length: "Max Input | 200K | 1M")."""
    cells = [a.text for a in atoms[1:]]
    sized = [t for t in cells if _SIZE.match(t)]
    if len(sized) < 2 or not all(_SIZE.match(t) or t in ("-", "–", "—") for t in cells):
        return False
    return all(t.endswith("B") for t in sized) or bool(re.search(r"param|size|#\s*[AT]P\b", atoms[0].text, re.I))


def _shared_rule_spans(
    atoms: list[_Atom], ln: _Line, cols: list[list[float]], rules: list[tuple[float, float, float]]
) -> dict[int, tuple[int, int]]:
    """The columns of group labels that share one rule under them (by atom id).

    A single rule under "Coding  Math  Reasoning" spans all their columns; each
    label is then centred over its own run of them, taken left to right."""
    out: dict[int, tuple[int, int]] = {}
    for r in rules:
        if not ln.base < r[2] < ln.base + 1.5 * ln.size:
            continue
        under = [a for a in atoms if r[0] <= (a.x0 + a.x1) / 2 <= r[1]]
        ks = [k for k, (c0, c1) in enumerate(cols) if r[0] - 2 <= (c0 + c1) / 2 <= r[1] + 2]
        if len(under) < 2 or len(ks) < len(under):
            continue
        start, end = ks[0], ks[-1]
        for n, a in enumerate(under):
            mid = (a.x0 + a.x1) / 2
            room = end - (len(under) - n - 1)  # leave a column for each label still to place
            if n == len(under) - 1:
                last = end
            else:
                last = min(range(start, room + 1), key=lambda j: abs((cols[start][0] + cols[j][1]) / 2 - mid))
            out[id(a)] = (start, last)
            start = last + 1
    return out


def _side_labels(rows: list[_Row], cols: list[list[float]], region: _TableRegion) -> None:
    r"""A sparse first column of labels ("English", "Code", "Math" set with
    ``\multirow`` beside the benchmarks) names row groups: each body row gets
    the label in its block between full-width rules (or the nearest label),
    and the column is dropped so the row labels are the first column."""
    body = [r for r in rows if r.kind == "body"]
    first = [r.cells[0].text for r in body]
    second = [r.cells[1].text for r in body if len(r.cells) > 1]
    if not body or sum(bool(t) for t in first) > 0.5 * len(body) or any(_is_numeric(t) for t in first if t):
        return
    if sum(bool(t) and not _is_numeric(t) for t in second) < 0.8 * len(body):
        return
    def spans(r: _Row) -> bool:
        # "Average (11 tasks)" over both label columns: the row's own label. Not a row whose
        # values span several columns each ("Retention 95.7%" under FP and Ternary): its
        # cells do not line up with the header, so it stays unlabelled as before.
        return len(r.cells) > 1 and bool(r.cells[0].text) and not r.cells[1].text and all(c.colspan == 1 for c in r.cells)

    labels = [(r.line.base, r.cells[0].text) for r in body if r.cells[0].text and not spans(r)]
    for r in rows:
        if r.kind == "group" and r.x1 <= cols[1][0] + 1:
            r.kind = "label"
            labels.append((r.line.base, r.cells[0].text))
    if not labels:
        return
    inner = sorted(y for a, b, y in region.rules if b - a >= 0.8 * (region.x1 - region.x0))

    def block(y: float) -> int:
        return bisect_left(inner, y)

    for r in rows:
        if r.kind == "body" and spans(r):
            r.cells = [r.cells[0], *r.cells[2:]]
            continue
        if r.kind in ("header", "body"):
            c = r.cells[0]
            r.cells = ([Cell("", colspan=c.colspan - 1)] if c.colspan > 1 else []) + r.cells[1:]
        if r.kind == "body":
            same = [lb for lb in labels if block(lb[0]) == block(r.line.base)] if inner else labels
            r.group = min(same, key=lambda lb: abs(lb[0] - r.line.base))[1] if same else ""


def _repeats_header(row: list[Cell], header: list[Cell]) -> bool:
    """A body row that is a second header: a table printed as two stacked halves repeats its
    key columns ("#TP", "#AP") above the second half's own column names, and holds no number."""
    texts = [c.text.strip() for c in row]
    if not texts or texts[0] not in ("", header[0].text.strip() if header else ""):
        return False
    if any(t and _is_numeric(t) for t in texts) or sum(1 for t in texts if t) * 2 < len(texts):
        return False
    same = sum(
        1 for c, h in zip(texts[1:], header[1:]) if c and c == h.text.strip()
    )
    return same >= 2 and same < sum(1 for t in texts[1:] if t)


def _join_header(a: str, b: str) -> str:
    if a.endswith("-") and b[:1].isalnum():
        return a + b
    return " ".join(t for t in (a, b) if t)


def _merge_headers(rows: list[_Row], region: _TableRegion) -> list[_Row]:
    r"""Fold header lines that are one header row: a header wrapped onto two
    lines ("LiveCode" / "Bench"), or a ``\multirow`` label set between two
    lines. A spanning cell over text below it is a two-level header: kept."""

    def starts(cells: list[Cell]) -> dict[int, Cell]:
        out, k = {}, 0
        for c in cells:
            if c.text:
                out[k] = c
            k += c.colspan
        return out

    i = 0
    while i + 1 < len(rows) and rows[i + 1].kind == "header":
        a, b = rows[i], rows[i + 1]
        top, low = starts(a.cells), starts(b.cells)
        width = sum(c.colspan for c in b.cells)
        close = b.line.base - a.line.base <= 1.35 * max(a.line.size, b.line.size)
        ruled = any(a.line.base < y < b.line.base for _, _, y in region.rules)
        covered = {k for k0, c in low.items() for k in range(k0, k0 + c.colspan)}
        clash = any(
            (k0 in low and (c.colspan > 1 or low[k0].colspan > 1) and c.colspan != low[k0].colspan)
            or (c.colspan > 1 and k0 not in low and covered & set(range(k0, k0 + c.colspan)))
            or (k0 not in low and k0 in covered)
            for k0, c in top.items()
        )
        spanned = {k for k0, c in top.items() for k in range(k0, k0 + c.colspan)}
        if b.sizes and all(top[k0].colspan == c.colspan if k0 in top else k0 not in spanned for k0, c in low.items()):
            clash = False  # each size sits under its own model name, however wide both are
        if clash or not b.sizes and (not close or ruled):
            i += 1
            continue
        merged: list[Cell] = []
        k = 0
        while k < width:
            x, y = top.get(k), low.get(k)
            if x and y:
                cell = Cell(_join_header(x.text, y.text), bold=x.bold and y.bold, marks=marks_of(x.text + y.text), colspan=x.colspan)
            else:
                cell = x or y or Cell("")
            merged.append(cell)
            k += cell.colspan
        rows[i : i + 2] = [_Row("header", b.line, merged)]
    return rows


# ----------------------------------------------------------------- assembly


class _Assembler:
    """Turns the page streams into blocks, sections and tables, numbering the
    lines as it goes."""

    def __init__(self, display: str, body: float, pages: int) -> None:
        self.doc = Document(path=display, format="pdf", pages=pages)
        self.body = body
        self.section: Section | None = None
        self.block: Block | None = None
        self.prev: _Line | None = None
        self.resume: Block | None = None
        self.step = 1.2 * body
        self.margins: dict[tuple[int, int], float] = {}
        self.item_x0: dict[int, float] = {}
        self.notes: set[int] = set()
        #: Tables printed as stacked halves under one caption (the second half with its own
        #: header row): their caption, lead-in and notes are shared.
        self.halves: list[tuple[Table, Table]] = []
        self.joins: list[tuple[Block, int, str, str]] = []  # words joined over a line-end hyphen

    def build(self, streams: list[list[_Line | _TableRegion]]) -> Document:
        steps: Counter[float] = Counter()
        xs: dict[tuple[int, int], Counter[int]] = {}
        for st in streams:
            lines = [e for e in st if isinstance(e, _Line)]
            for a, b in zip(lines, lines[1:]):
                if abs(a.size - self.body) < 0.3 and abs(b.size - self.body) < 0.3 and 0.8 * self.body < b.base - a.base < 2.5 * self.body:
                    steps[round(b.base - a.base, 1)] += 1
            for ln in lines:
                if abs(ln.size - self.body) < 0.3:
                    xs.setdefault((ln.page, ln.col), Counter())[round(ln.x0)] += 1
        if steps:
            self.step = steps.most_common(1)[0][0]
        self.margins = {k: float(c.most_common(1)[0][0]) for k, c in xs.items()}
        for st in streams:
            foot, notes = self._footnotes(st), self._notes(st)
            for e in st:
                if isinstance(e, _TableRegion):
                    self._table(e)
                elif id(e) in notes:
                    self._note(e, notes[id(e)])
                else:
                    self._line(e, id(e) in foot)
        self._frame()
        for upper, lower in self.halves:
            for half, other in ((upper, lower), (lower, upper)):
                half.caption = half.caption or other.caption
                half.lead_in = half.lead_in or other.lead_in
                half.notes = half.notes or list(other.notes)
        self._rehyphenate()
        return self.doc

    def _rehyphenate(self) -> None:
        """Put back the hyphen of a joined word that the document writes with a
        hyphen elsewhere ("instruction-following"), never without."""
        words: set[str] = set()
        for text in self.doc.lines:
            words.update(w.strip(".,;:()[]\"'“”").lower() for w in text.split())
        for block, i, head, tail in self.joins:
            tail_w = tail.strip(".,;:()[]\"'“”")
            whole, dashed = (head + tail_w).lower(), (head + "-" + tail_w).lower()
            tl = block.lines[i]
            if dashed in words and whole not in words and tl.text.endswith(head + tail):
                text = tl.text[: len(tl.text) - len(tail)] + "-" + tail
                block.lines[i] = TextLine(tl.line, tl.column, text, tl.page)
                self.doc.lines[tl.line - 1] = text

    # -- numbering

    def _number(self, text: str) -> int:
        self.doc.lines.append(text)
        return len(self.doc.lines)

    def _textline(self, ln: _Line) -> TextLine:
        text = ln.text
        return TextLine(self._number(text), 1, text, ln.page)

    # -- classification

    def _footnotes(self, st: list[_Line | _TableRegion]) -> set[int]:
        """Small-font lines at the bottom of a column that start with a mark."""
        out: set[int] = set()
        for col in {e.col for e in st if isinstance(e, _Line)}:
            run: list[_Line] = []
            for e in reversed(st):
                if e.col != col:
                    continue
                if isinstance(e, _TableRegion):
                    break
                if e.size >= 0.92 * self.body:
                    break
                run.append(e)
            run.reverse()
            while run and not _FOOTMARK.match(run[0].text):
                run.pop(0)
            if run and run[0].base > 0.55 * run[0].height:
                out.update(id(e) for e in run)
        return out

    def _notes(self, st: list[_Line | _TableRegion]) -> dict[int, _TableRegion]:
        """Small-font lines right under a table: its notes."""
        out: dict[int, _TableRegion] = {}
        for i, e in enumerate(st):
            if not isinstance(e, _TableRegion):
                continue
            last = e.bottom
            for n in st[i + 1 :]:
                if not isinstance(n, _Line) or n.size >= 0.93 * self.body or _is_caption(n):
                    break
                if not 0 < n.base - last < 2.6 * n.size:
                    break
                out[id(n)] = e
                last = n.base
        return out

    def _heading_level(self, ln: _Line) -> int | None:
        text = ln.text
        if len(text) > 120 or len(ln.words) > 14 or not any(ch.isalpha() for ch in text) or ln.size < 0.9 * self.body:
            return None
        ws = ln.words
        if sum(w.text == "." for w in ws) >= 3 or (len(ws) > 1 and ws[-1].text.isdigit() and ws[-1].x0 - ws[-2].x1 > 2 * ln.size):
            return None  # a table-of-contents entry
        big = ln.size >= 1.12 * self.body
        if not (big or ln.bold) or _is_caption(ln) or text[0].islower():
            return None
        m = _NUMBERED.match(text)
        if m:
            return (m.group(1) or m.group(2)).count(".") + 1
        if big or text.lower().rstrip(".:") in _UNNUMBERED:
            return 1
        if text.endswith((".", ",", ";", "-")) or _dangles(text):
            # A bold run-in sentence cut at the line's end ("... the best overall performance
            # among", "... espe-"): a paragraph's first line, never a heading.
            return None
        return min((self.section.level if self.section else 0) + 1, 4)

    # -- items

    def _open(self, kind: str, ln: _Line, label: str = "") -> Block:
        self.block = Block(kind, [self._textline(ln)], self.section, label)  # type: ignore[arg-type]
        self.doc.items.append(self.block)
        self.prev = ln
        return self.block

    def _append(self, block: Block, ln: _Line) -> None:
        tl = self._textline(ln)
        last = block.lines[-1]
        head, _, rest = tl.text.partition(" ")
        joined = None
        if re.search(r"[A-Za-z]{2}[-\u00ad\u2010]$", last.text) and head[:1].islower() and head not in ("and", "or", "to", "vs."):
            word = last.text.split()[-1]
            keep = "-" if "-" in word[:-1] + head else ""
            if not keep:
                self.joins.append((block, len(block.lines) - 1, word[:-1], head))
            joined = last.text[:-1] + keep + head
        elif re.search(r"[A-Za-z0-9][A-Za-z0-9.]*[A-Za-z0-9]-$", last.text) and (head[:1].isupper() or head[:1].isdigit()):
            # A name broken at its own hyphen ("Megrez2-" / "Preview", "GPT-" / "4o"): one word.
            joined = last.text + head
        if joined is not None:
            block.lines[-1] = TextLine(last.line, last.column, joined, last.page)
            self.doc.lines[last.line - 1] = joined
            tl = TextLine(tl.line, 1, rest, tl.page)
            self.doc.lines[tl.line - 1] = rest
        block.lines.append(tl)
        self.block = block
        self.prev = ln

    def _line(self, ln: _Line, foot: bool) -> None:
        text, prev, cur = ln.text, self.prev, self.block
        if foot:
            m = _FOOTMARK.match(text)
            if m or cur is None or cur.kind != "footnote":
                label = m.group(1).translate(LOWERED) if m else ""
                b = self._open("footnote", ln, label)
                if label and label not in self.doc.footnotes:
                    self.doc.footnotes[label] = b
            else:
                self._append(cur, ln)
            return
        if _is_caption(ln):
            if cur is not None and cur.kind == "paragraph" and not cur.lines[-1].text.rstrip().endswith(_TERMINAL):
                self.resume = cur
            self._open("caption", ln)
            return
        level = self._heading_level(ln)
        if level is not None:
            if cur is not None and cur.kind == "heading" and prev is not None and prev.page == ln.page and 0 < ln.base - prev.base <= 1.6 * ln.size and abs(prev.size - ln.size) < 0.3 and not _NUMBERED.match(text):
                self._append(cur, ln)
                if cur.section is not None and cur.section.line == cur.lines[0].line:
                    cur.section.title = cur.text
                return
            self._heading(ln, level)
            return
        if cur is not None and cur.kind == "paragraph" and prev is not None and self._inline_math(prev, ln):
            # A fraction's numerator or denominator set between two lines of the paragraph:
            # its own piece, and the paragraph goes on after it.
            if not cur.lines[-1].text.rstrip().endswith(_TERMINAL):
                self.resume = cur
            self._open("paragraph", ln)
            return
        resume = self.resume
        caption_goes_on = cur is not None and cur.kind == "caption" and prev is not None and self._continues(cur, prev, ln)
        if resume is not None and (_goes_on(text) or _dangles(resume.lines[-1].text)) and not caption_goes_on:
            # The caption's own next line is the caption's; the paragraph cut by the
            # figure or table takes the first mid-sentence line after it.
            self.resume = None
            self._append(resume, ln)
            return
        if _BULLET.match(text):
            self.item_x0[id(self._open("item", ln))] = ln.x0
            return
        if cur is not None and prev is not None and self._continues(cur, prev, ln):
            self._append(cur, ln)
            return
        self.resume = None
        self._open("paragraph", ln)

    def _inline_math(self, prev: _Line, ln: _Line) -> bool:
        """A few symbols in a small font less than a line's step from the prose line
        before it: a stacked fraction's part, not a paragraph."""
        return (
            ln.size <= 0.85 * self.body
            and prev.page == ln.page
            and prev.col == ln.col
            and abs(prev.size - self.body) < 0.3
            and len(ln.words) <= 3
            and len(ln.text) <= 24
            and not re.search(r"[A-Za-z]{3}", ln.text)
            and 0 < abs(ln.base - prev.base) < 0.9 * self.step
        )

    def _continues(self, cur: Block, prev: _Line, ln: _Line) -> bool:
        if cur.kind == "heading" or abs(prev.size - ln.size) > 0.12 * max(prev.size, ln.size):
            return False
        margin = self.margins.get((ln.page, ln.col), ln.x0)
        same = prev.page == ln.page and prev.col == ln.col
        indent = same and cur.kind == "paragraph" and 0.6 * ln.size <= ln.x0 - margin <= 6 * ln.size and prev.x0 - margin < 0.4 * ln.size
        if indent:
            return False  # an indented first line opens a paragraph
        step, usual = ln.base - prev.base, self.step * ln.size / self.body
        last = cur.lines[-1].text
        mid = not last.rstrip().endswith(_TERMINAL) and (_goes_on(ln.text) or _dangles(last)) and cur.kind != "caption"
        if mid and (not same or step > 3 * usual):
            return True  # mid-sentence: across a column, a page or a dropped figure
        if not same or not 0 < step <= 1.35 * usual:
            return False
        if cur.kind == "item":
            return ln.x0 > self.item_x0.get(id(cur), prev.x0) + 0.3 * ln.size
        return True

    def _heading(self, ln: _Line, level: int) -> None:
        self.resume = None
        if ln.page == 1 and self.section is None and ln.size >= 1.4 * self.body and not _NUMBERED.match(ln.text):
            self._open("heading", ln)  # the paper's title: a heading, not a section
            return
        parent = self.section
        while parent is not None and parent.level >= level:
            parent = parent.parent
        tl = self._textline(ln)
        sec = Section(tl.text, level, tl.line, parent, ln.page)
        self.doc.sections.append(sec)
        self.section = sec
        self.block = Block("heading", [tl], sec)
        self.doc.items.append(self.block)
        self.prev = ln

    def _note(self, ln: _Line, region: _TableRegion) -> None:
        table = region.table
        cur = self.block
        if table is not None and cur is not None and cur in table.notes and not _FOOTMARK.match(ln.text) and not ln.text.lower().startswith("note"):
            self._append(cur, ln)
            return
        b = self._open("paragraph", ln)
        if table is not None:
            table.notes.append(b)
            self.notes.add(id(b))

    def _table(self, region: _TableRegion) -> None:
        cur = self.block
        if cur is not None and cur.kind == "paragraph" and not cur.lines[-1].text.rstrip().endswith(_TERMINAL):
            self.resume = cur
        header: list[list[Cell]] = []
        body: list[list[Cell]] = []
        groups: list[str] = []
        first: int | None = None
        page = region.rows[0].page
        for row in _table_rows(region, self.body):
            parts, col = [], 1
            for c in row.cells:
                c.column, c.page = col, page
                parts.append(c.text)
                col += len(c.text) + 3
            number = self._number(" | ".join(parts))
            first = first or number
            for c in row.cells:
                c.line = number
            if row.kind == "header":
                header.append(row.cells)
            elif row.kind == "body":
                body.append(row.cells)
                groups.append(row.group)
        cuts = [i for i, row in enumerate(body) if header and _repeats_header(row, header[-1])]
        starts = [0, *cuts]
        tables = []
        for a, b in zip(starts, [*cuts, len(body)]):
            head, rows = (header, body[a:b]) if a == 0 else ([body[a]], body[a + 1 : b])
            line = first if a == 0 else next((c.line for c in body[a] if c.line is not None), first)
            tables.append(Table(head, rows, "pdf", line=line, page=page, section=self.section, groups=groups[a + (a > 0) : b]))
        self.halves.extend(zip(tables, tables[1:]))
        region.table = tables[-1]
        self.doc.items.extend(tables)
        self.block = None
        self.prev = None

    def _frame(self) -> None:
        """Captions and lead-ins: the caption block next to each table (above
        first), and the paragraph before it in its section."""
        items = self.doc.items
        used: set[int] = set()

        def caption_at(j: int, t: Table) -> Block | None:
            c = items[j] if 0 <= j < len(items) else None
            ok = isinstance(c, Block) and c.kind == "caption" and c.text.startswith("Tab") and c.page == t.page
            return c if ok and id(c) not in used else None  # type: ignore[return-value]

        tables = [(k, t) for k, t in enumerate(items) if isinstance(t, Table)]
        sides = Counter(
            "above" if caption_at(k - 1, t) else "below"
            for k, t in tables
            if bool(caption_at(k - 1, t)) != bool(caption_at(k + 1 + len(t.notes), t))
        )
        above_first = sides["above"] >= sides["below"]  # the paper's own habit settles a caption between two tables
        for k, t in tables:
            order = (k - 1, k + 1 + len(t.notes)) if above_first else (k + 1 + len(t.notes), k - 1)
            c = next((c for c in (caption_at(j, t) for j in order) if c is not None), None)
            if c is not None:
                t.caption = c
                used.add(id(c))
            elif t.caption is None:
                t.caption = _beside_caption(items, k, t)
            for j in range(k - 1, -1, -1):
                b: Item = items[j]
                if isinstance(b, Block) and b.kind == "heading":
                    break
                if isinstance(b, Block) and b.kind in ("paragraph", "item") and id(b) not in self.notes:
                    t.lead_in = b
                    break



#: A second caption label in a caption's first line ("Table 5: ... . Table 6: ..."): two
#: tables set side by side, whose captions the line reading joins.
_SECOND_LABEL = re.compile(r"(?<=\S)\s+((?:Table|Tab\.)\s*(\d+)\s*[:.])")


def _beside_caption(items: list[Item], k: int, t: Table) -> Block | None:
    """The caption of a table set beside the one before it: the part of that table's caption
    line from the second label on ("Table 6: Average exact match ..." of "Table 5: Pass@1 on
    MBPP. Table 6: Average exact match ..."), when the label's number is the next one. Only
    the first line is taken: the lines after it interleave the two captions."""
    before = items[k - 1] if k >= 1 else None
    if not isinstance(before, Table) or before.caption is None or before.page != t.page:
        return None
    first = before.caption.lines[0]
    own = re.match(r"\s*(?:Table|Tab\.)\s*(\d+)", first.text, re.I)
    second = _SECOND_LABEL.search(first.text)
    if own is None or second is None or int(second.group(2)) != int(own.group(1)) + 1:
        return None
    at = second.start(1)
    line = TextLine(first.line, first.column + at, first.text[at:], first.page)
    return Block("caption", [line], before.caption.section)
