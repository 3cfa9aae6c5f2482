"""Documents → blocks: the walk over a document that yields its prose blocks and tables.

:func:`read_blocks` walks text lines: front matter (``---`` / ``+++`` at the
top), fenced and indented code, HTML comments and RST directives are skipped;
markdown markup (emphasis, links, images, inline HTML, URLs, footnote
references) is blanked out in place so columns keep pointing at the original
text; pipe tables and ``<table>`` elements become
:class:`~benchaudit.inputs.tables.Table` objects; the rest is cut into blocks
(paragraphs, list items, headings) and each block into sentences
(:func:`benchaudit.inputs.sentences.sentences_of`). :func:`blocks_from_document`
does the same from the document model (:mod:`benchaudit.documents`).

It sits above both :mod:`~benchaudit.inputs.sentences` and
:mod:`~benchaudit.inputs.tables` (a table's cells name benchmarks the way a sentence
does), so neither of them imports the other back.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from benchaudit.documents.markdown import INLINE_MARKUP
from benchaudit.documents.model import Document
from benchaudit.documents.model import Table as DocTable
from benchaudit.inputs.sentences import Block, sentences_of, states_protocol
from benchaudit.inputs.tables import Table, from_document, parse_pipe_table

if TYPE_CHECKING:
    from benchaudit.benchmarks import Registry

# ---------------------------------------------------------------- markdown cleaning

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s")
_RST_UNDERLINE = re.compile(r"^\s*([=\-~^\"'`#*+])\1{2,}\s*$")
_LIST = re.compile(r"^(\s*)(?:[-*+•]|\d{1,3}[.)])\s+")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_INLINE = INLINE_MARKUP[1:]  # as in Markdown, less one-line comments (stripped earlier)


def _blank(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _clean(line: str) -> str:
    """Markdown markup replaced by spaces of the same length (columns survive)."""
    for pattern in _INLINE:
        line = _blank(line, pattern)
    # Link text keeps its words; the bracket that opened it goes.
    return line.replace("[", " ").replace("]", " ") if "](" not in line else line


def _is_table_row(line: str) -> bool:
    s = line.strip()
    return s.startswith("|") or (s.count("|") >= 2 and not s.startswith(("`", "    ")))


def read_blocks(
    lines: list[str],
    numbers_of: list[int],
    path: str,
    page_of: dict[int, int],
    registry: Registry,
    markdown: bool,
) -> tuple[list[Block], list[Table]]:
    blocks: list[Block] = []
    tables: list[Table] = []
    segments: list[tuple[int, int, str]] = []  # (doc line, start column 0-based, text)
    kind = "paragraph"
    heading = ""
    last_text = ""
    protocol_text = ""

    def flush() -> None:
        nonlocal segments, kind, last_text, protocol_text
        if segments:
            last_text = " ".join(t.strip() for _, _, t in segments if t.strip()) or last_text
            block = Block(kind=kind, heading=heading, protocol_text=protocol_text)
            block.sentences = sentences_of(segments, path, page_of, registry, block)
            blocks.append(block)
            for sentence in block.sentences:
                if states_protocol(sentence):
                    protocol_text = sentence.text
        segments = []
        kind = "paragraph"

    i, total = 0, len(lines)
    in_comment = False
    # Front matter: a --- (YAML) or +++ (TOML) block on the first line.
    if total and lines[0].strip() in ("---", "+++"):
        closing = lines[0].strip()
        for j in range(1, total):
            if lines[j].strip() == closing:
                i = j + 1
                break
    while i < total:
        raw = lines[i].rstrip("\r\n")
        doc_line = numbers_of[i]
        # HTML comments, possibly over several lines; text around them stays.
        if in_comment or "<!--" in raw:
            raw, in_comment = _strip_comments(raw, in_comment)
        if markdown and _FENCE.match(raw):
            flush()
            fence_m = _FENCE.match(raw)
            assert fence_m is not None  # matched just above
            fence = fence_m.group(1)
            i += 1
            while i < total and not lines[i].lstrip().startswith(fence):
                i += 1
            i += 1
            continue
        if markdown and raw.lstrip().startswith(".. "):  # RST directive and its body
            flush()
            i += 1
            while i < total and (not lines[i].strip() or lines[i][:1] in " \t"):
                i += 1
            continue
        if not raw.strip():
            flush()
            i += 1
            continue
        if markdown and (raw.startswith("    ") or raw.startswith("\t")) and not segments:
            if not _LIST.match(raw):  # an indented code block
                i += 1
                continue
        if markdown and raw.lstrip().lower().startswith("<table"):
            # An HTML table inside markdown (common in model cards).
            flush()
            j = i
            while j < total and "</table" not in lines[j].lower():
                j += 1
            j = min(j + 1, total)
            for table in _html_tables(lines[i:j], numbers_of[i:j], f"{last_text} {protocol_text}"):
                table.page = page_of.get(doc_line)
                tables.append(table)
            i = j
            continue
        if _is_table_row(raw) and i + 1 < total and _TABLE_SEP.match(lines[i + 1]):
            flush()
            j = i + 2
            while j < total and _is_table_row(lines[j]) and lines[j].strip():
                j += 1
            after = lines[j].strip() if j < total else ""
            context = f"{last_text} {after} {protocol_text}"
            pipe = parse_pipe_table(lines[i:j], numbers_of[i:j], context=context)
            if pipe is not None:
                pipe.page = page_of.get(doc_line)
                tables.append(pipe)
            i = j
            continue
        if markdown and _RST_UNDERLINE.match(raw) and segments:
            # The previous line was an RST heading.
            kind = "heading"
            heading = " ".join(t for _, _, t in segments)
            flush()
            i += 1
            continue
        h = _HEADING.match(raw) if markdown else None
        if h:
            flush()
            kind = "heading"
            heading = raw[h.end() :].strip().strip("#").strip()
            segments.append((doc_line, h.end(), _clean(raw[h.end() :])))
            flush()
            i += 1
            continue
        lst = _LIST.match(raw)
        start = 0
        if lst:
            flush()
            kind = "item"
            start = lst.end()
        q = _QUOTE.match(raw)
        if q and q.end() > start:
            start = q.end()
        cleaned = _clean(raw[start:])
        segments.append((doc_line, start, cleaned))
        i += 1
    flush()
    return blocks, tables


def _html_tables(lines: list[str], numbers_of: list[int], context: str) -> list[Table]:
    """``<table>`` elements in a markdown file, through the HTML reader's parser."""
    from benchaudit.inputs._html_page import parse

    _, _, raw = parse("\n".join(lines))
    out = []
    for t in raw:
        kept = [(r, ln) for r, ln in zip(t["rows"], t["lines"]) if any(c.strip() for c in r)]
        if len(kept) < 2:
            continue
        # Source lines of the fragment count from 1: map them back to the document.
        where = [numbers_of[min(ln - 1, len(numbers_of) - 1)] for _, ln in kept]
        rows = [r for r, _ in kept]
        out.append(Table(rows[0], rows[1:], where[0], where[1:], context=context))
    return out


def _strip_comments(raw: str, in_comment: bool) -> tuple[str, bool]:
    out = []
    pos = 0
    while pos < len(raw):
        if in_comment:
            end = raw.find("-->", pos)
            if end < 0:
                out.append(" " * (len(raw) - pos))
                return "".join(out), True
            out.append(" " * (end + 3 - pos))
            pos = end + 3
            in_comment = False
        else:
            start = raw.find("<!--", pos)
            if start < 0:
                out.append(raw[pos:])
                break
            out.append(raw[pos:start])
            pos = start
            in_comment = True
    return "".join(out), in_comment


# ---------------------------------------------------------------- from the document model


def blocks_from_document(doc: Document, registry: Registry) -> tuple[list[Block], list[Table]]:
    """Sentences of the document's prose blocks and its tables, with their protocol scopes."""
    from benchaudit.claims.model_claims import in_claim_free_section
    from benchaudit.inputs.scoping import scopes, table_context

    scope_of = scopes(doc)
    blocks: list[Block] = []
    tables: list[Table] = []
    counts: dict[str, int] | None = None
    for item in doc.items:
        scope = scope_of[id(item)]
        if isinstance(item, DocTable):
            if counts is None:
                from benchaudit.claims.stated_counts import stated_counts

                counts = stated_counts(doc)
            tables.append(from_document(item, table_context(item, scope), scope))
            tables[-1].counts = counts
            continue
        if item.kind == "code" or not item.lines or in_claim_free_section(item):
            continue
        page_of = {t.line: t.page for t in item.lines if t.page is not None}
        block = Block(
            kind="heading" if item.kind == "heading" else "item" if item.kind == "item" else "paragraph",
            heading=item.section.title if item.section else "",
            protocol_text=scope.stated,
            possible=scope.possible,
            possible_where=scope.possible_where,
            repeated_unstated=scope.repeated_unstated,
            repeated_for=scope.repeated_for,
            document_single=scope.document_single,
            document_single_where=scope.document_single_where,
            pm_declared=scope.pm_declared,
        )
        segments = [(t.line, t.column - 1, t.text) for t in item.lines]
        block.sentences = sentences_of(segments, doc.path, page_of, registry, block)
        blocks.append(block)
    return blocks, tables
