"""PDF papers and reports: the ``document`` reader for ``.pdf`` files.

The page layout is read by :mod:`benchaudit.documents.pdf` into the document
model (blocks, sections, tables with emphasis, pages and line numbers); this
module normalises its text for the claim reader (NFKC, so TeX's mathematical
italic "𝑘" is a "k"; paragraphs that a ragged line end cut mid-sentence are
joined) and hands it to :func:`benchaudit.inputs.claims.extract_document`.

Line numbers count extracted lines from the start of the document, over all
pages; every claim's location also carries its page. A PDF without a text
layer (a scan) is an input error, not a clean report.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.evidence import Source
from benchaudit.inputs import Probe, Reader

if TYPE_CHECKING:
    from benchaudit.engine import Context


def sniff(p: Probe) -> float:
    if p.head.startswith(b"%PDF"):
        return 1.0
    return 0.6 if p.suffix == ".pdf" else 0.0


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
    _join_broken_sentences(doc)


def _join_broken_sentences(doc: Any) -> None:
    """A paragraph that ends mid-sentence ("... and B on 70,") and a next one that goes on in
    lower case on the next line are one paragraph: short lines in a ragged layout end early."""
    from benchaudit.documents.model import Block

    out: list[Any] = []
    for item in doc.items:
        prev = out[-1] if out else None
        if (
            isinstance(item, Block)
            and isinstance(prev, Block)
            and item.kind == prev.kind == "paragraph"
            and item.section is prev.section
            and prev.lines
            and item.lines
            and prev.page == item.page
            and item.lines[0].line == prev.lines[-1].line + 1
            and not prev.lines[-1].text.rstrip().endswith((".", "!", "?", ":"))
            and item.lines[0].text[:1].islower()
        ):
            prev.lines.extend(item.lines)
            continue
        out.append(item)
    doc.items = out


def read(path: Path, display: str, ctx: Context) -> Source:
    """A PDF through the document model (:mod:`benchaudit.documents.pdf`)."""
    from benchaudit import limits
    from benchaudit.documents.pdf import read_pdf as read_document
    from benchaudit.inputs.claims import extract_document

    caps = limits.of(ctx.config)
    doc = read_document(
        path,
        display,
        max_pages=caps.pdf_max_pages,
        max_chars_per_page=caps.pdf_max_chars_per_page,
        max_stream_bytes=caps.pdf_max_stream_bytes,
        max_content_bytes=caps.pdf_max_content_bytes,
    )
    _normalise(doc)
    notes: list[str] = []  # what was not read, on the source for the report
    claims, seen, tables = extract_document(doc, ctx, notes)
    return Source(
        path=display,
        kind="document",
        claims=claims,
        numbers_seen=seen,
        data=doc,
        lines=doc.lines,
        meta={"format": "pdf", "pages": doc.pages, "tables": tables},
        notes=notes,
    )


READER = Reader("document", sniff, read, "PDF (text layer via pdfminer.six)")
