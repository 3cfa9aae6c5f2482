"""Markdown, reStructuredText and plain text: the ``document`` reader.

Any UTF-8 text file can be read as a document; ``.md``, ``.markdown``,
``.txt`` and ``.rst`` are claimed outright, other text files only when no
other reader wants them. Claims come from :mod:`benchaudit.inputs.claims`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from benchaudit.errors import InputError
from benchaudit.evidence import Source
from benchaudit.inputs import Probe, Reader
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.engine import Context

SUFFIXES = {".md": True, ".markdown": True, ".rst": True, ".txt": False}


#: Data formats: never read as prose, whatever they contain.
STRUCTURED = {
    ".csv",
    ".tsv",
    ".json",
    ".jsonl",
    ".jsonl.gz",
    ".jsonl.zst",
    ".json.gz",
    ".parquet",
    ".eval",
}


def sniff(p: Probe) -> float:
    if p.is_binary():
        return 0.0
    if p.suffix in SUFFIXES:
        return 0.8
    if p.suffix in STRUCTURED:
        # A data file no data reader recognised is not prose: reading the numbers in
        # its records as claims would be a silent wrong answer.
        return 0.0
    try:
        p.head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A probe may cut a multi-byte character at its end; anything earlier is not UTF-8.
        if exc.start < len(p.head) - 3:
            return 0.0
    return 0.05


def decode(data: bytes, display: str) -> list[str]:
    """The lines of a UTF-8 text, or an InputError naming the file (and line)."""
    if b"\x00" in data[:8192]:
        raise InputError(display, "binary file, not text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = len(split_lines(data[: exc.start].decode("utf-8") + "x"))
        raise InputError(display, f"not valid UTF-8 text (byte {exc.start})", line) from None
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise InputError(display, "empty file")
    return split_lines(text)


def read(path: Path, display: str, ctx: Context) -> Source:
    from benchaudit.inputs.claims import extract

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(display, f"cannot read: {exc.strerror or exc}") from None
    lines = decode(data, display)
    suffix = path.suffix.lower()
    meta: dict[str, object] = {"format": suffix.lstrip(".") or "text"}
    notes: list[str] = []  # what was not read, on the source for the report
    if suffix in (".md", ".markdown"):
        from benchaudit.documents.markdown import read_markdown
        from benchaudit.inputs.claims import extract_document

        doc = read_markdown("\n".join(lines), display)
        claims, seen, tables = extract_document(doc, ctx, notes)
        lines = doc.lines
        meta["tables"] = tables
    else:
        doc = None
        claims, seen = extract(lines, display, ctx, markdown=SUFFIXES.get(suffix, False), notes=notes)
    return Source(
        path=display,
        kind="document",
        claims=claims,
        numbers_seen=seen,
        data=doc,
        lines=lines,
        meta=meta,
        notes=notes,
    )


#: A model card or README is kilobytes; a document this large is refused before it is read
#: (its claims could not be read in the seconds a pre-commit hook has).
DOCUMENT_MAX_BYTES = 16 << 20
READER = Reader("document", sniff, read, "markdown, reStructuredText or plain text", max_bytes=DOCUMENT_MAX_BYTES, max_mb_key="max-document-mb")
