"""Documents → blocks → sentences, with a map from every sentence back to its lines.

:func:`read_blocks` walks text lines: front matter (``---`` / ``+++`` at the
top), fenced and indented code, HTML comments and RST directives are skipped;
markdown markup (emphasis, links, images, inline HTML, URLs, footnote
references) is blanked out in place so columns keep pointing at the original
text; pipe tables and ``<table>`` elements become
:class:`~benchaudit.inputs.tables.Table` objects; the rest is cut into blocks
(paragraphs, list items, headings) and each block into :class:`Sentence`
objects across wrapped lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from benchaudit.finding import Location
from benchaudit.inputs import numbers as nums
from benchaudit.inputs.numbers import Number
from benchaudit.inputs.protocols import Protocol, protocols_in

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark, Registry
    from benchaudit.inputs.tables import Table

from benchaudit.documents.markdown import INLINE_MARKUP
from benchaudit.documents.model import Document
from benchaudit.documents.model import Table as DocTable

# ---------------------------------------------------------------- sentences


@dataclass(frozen=True)
class Mention:
    """A benchmark named in a sentence: ``text[start:end]`` names ``benchmark``."""

    start: int
    end: int
    benchmark: Benchmark


@dataclass
class Block:
    """A paragraph, list item, heading or caption: the unit sentences are cut from."""

    kind: str  # "paragraph", "item", "heading"
    heading: str = ""  # the nearest heading above the block
    sentences: list[Sentence] = field(default_factory=list)
    #: A statement of the block's section that applies to it ("unless otherwise
    #: stated, greedy decoding"); see :mod:`benchaudit.inputs.scoping`.
    protocol_text: str = ""
    #: Averaging stated elsewhere in the document, which may apply (a possible reading).
    possible: list[Protocol] = field(default_factory=list)
    possible_where: str = ""
    repeated_unstated: bool = False
    document_single: str = ""
    pm_declared: str = ""
    document_single_where: str = ""
    _stating: list[Sentence] | None = field(default=None, repr=False, compare=False)

    def stating_protocols(self) -> list[Sentence]:
        """Its sentences that state a sampling protocol of their own (see :func:`states_protocol`).

        Computed once per block: every score of a long paragraph asks for them.
        """
        if self._stating is None:
            self._stating = [s for s in self.sentences if states_protocol(s)]
        return self._stating


@dataclass
class Sentence:
    """One sentence of prose with a map back to where each character came from.

    ``text`` is the sentence with markup removed and whitespace collapsed.
    ``anchors`` map offsets back to the document: one ``(offset, line,
    column)`` per word, in order (line and column 1-based), so ``text[i]``
    sits at the column of the last anchor at or before ``i`` plus the
    distance from it; :meth:`line_at`, :meth:`column_at` and
    :meth:`location_at` do the lookup. ``page_of`` maps a document line to
    its page (PDF) or is empty. ``mentions`` are the benchmarks named in it and
    ``numbers`` the numbers, with benchmark names masked out (the 2024 of
    "AIME 2024" is not a number of the sentence). ``block`` is the paragraph
    the sentence belongs to, for context from neighbouring sentences.
    """

    text: str
    path: str
    anchors: list[tuple[int, int, int]]
    page_of: dict[int, int] = field(default_factory=dict)
    mentions: list[Mention] = field(default_factory=list)
    numbers: list[Number] = field(default_factory=list)
    block: Block | None = None
    _protocols: list[Protocol] | None = field(default=None, repr=False)

    @property
    def line(self) -> int:
        """The document line the sentence starts on."""
        return self.anchors[0][1] if self.anchors else 0

    @property
    def column(self) -> int:
        """The column (1-based) the sentence starts at."""
        return self.anchors[0][2] if self.anchors else 0

    @property
    def page(self) -> int | None:
        return self.page_of.get(self.line)

    def _anchor(self, offset: int) -> tuple[int, int, int]:
        k = bisect_right(self.anchors, (offset, 1 << 62, 0)) - 1
        return self.anchors[max(k, 0)]

    def line_at(self, offset: int) -> int:
        return self._anchor(offset)[1]

    def column_at(self, offset: int) -> int:
        start, _, column = self._anchor(offset)
        return column + max(offset - start, 0)

    @property
    def location(self) -> Location:
        """Where the sentence starts."""
        return self.location_at(0)

    def location_at(self, offset: int) -> Location:
        """Where ``text[offset]`` sits in the document."""
        line = self.line_at(offset)
        return Location(self.path, line, self.column_at(offset), self.page_of.get(line))

    def protocols(self) -> list[Protocol]:
        """Sampling protocols stated in the sentence (computed once)."""
        if self._protocols is None:
            self._protocols = protocols_in(self.text)
        return self._protocols

    def context(self) -> list[Sentence]:
        """The other sentences of the same block, in order."""
        return [s for s in (self.block.sentences if self.block else []) if s is not self]


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


NOT_COUNTED = ("identifier", "citation")


def read_blocks(
    lines: list[str],
    numbers_of: list[int],
    path: str,
    page_of: dict[int, int],
    registry: Registry,
    markdown: bool,
) -> tuple[list[Block], list[Table]]:
    from benchaudit.inputs.tables import parse_pipe_table

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
            block.sentences = _sentences(segments, path, page_of, registry, block)
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
    from benchaudit.inputs.tables import Table

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


def states_protocol(sentence: Sentence) -> bool:
    """A sentence that states a sampling protocol and reports no score itself."""
    return bool(sentence.protocols()) and not any(n.kind == "percent" for n in sentence.numbers)


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


_WORD = re.compile(r"\S+")
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|vs|Fig|Figs|Tab|Eq|Sec|cf|approx|No|resp|Dr|Mr|Ms|etc|al|Ref|Refs|Ch|ca)"
    r"|\b[A-Z])\.$"
)
_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def _sentences(
    segments: list[tuple[int, int, str]],
    path: str,
    page_of: dict[int, int],
    registry: Registry,
    block: Block,
) -> list[Sentence]:
    # Join the block's lines word by word (whitespace collapsed), remembering
    # where each word came from.
    parts: list[str] = []
    anchors: list[tuple[int, int, int]] = []
    pos = 0
    for doc_line, start, line_text in segments:
        for w in _WORD.finditer(line_text):
            if parts:
                parts.append(" ")
                pos += 1
            anchors.append((pos, doc_line, start + w.start() + 1))
            parts.append(w.group())
            pos += len(w.group())
    text = "".join(parts)
    cuts = [0]
    for m in _BOUNDARY.finditer(text):
        if _ABBREV.search(text[max(0, m.start() - 8) : m.start() + 1]):
            continue
        cuts.append(m.end())
    cuts.append(len(text))
    cuts = _bounded(text, cuts)
    out = []
    for a, b in zip(cuts, cuts[1:]):
        piece = text[a:b].rstrip()
        if not piece:
            continue
        lo = bisect_right(anchors, (a, 1 << 62, 0)) - 1
        hi = bisect_right(anchors, (b, 0, 0))
        mine = [(o - a, ln, col) for o, ln, col in anchors[max(lo, 0) : hi]]
        s = Sentence(piece, path, mine, page_of, block=block)
        s.mentions = find_benchmarks(piece, registry)
        s.numbers = nums.scan(mask(piece, s.mentions))
        out.append(s)
    return out


#: Longest piece of text handled as one sentence. Longer runs without a full stop
#: (a pasted log, a list of a thousand scores) are cut at clause boundaries so that
#: the work per sentence stays bounded and the whole text is read in linear time.
MAX_SENTENCE = 400
_CLAUSE_BREAK = re.compile(r"[;,]\s+|\s+(?=and\s|while\s|whereas\s)")


def _bounded(text: str, cuts: list[int]) -> list[int]:
    out = [cuts[0]]
    for a, b in zip(cuts, cuts[1:]):
        start = a
        while b - start > MAX_SENTENCE:
            window = text[start + MAX_SENTENCE // 2 : start + MAX_SENTENCE]
            breaks = [b.end() for b in _CLAUSE_BREAK.finditer(window)]
            if breaks:
                cut = start + MAX_SENTENCE // 2 + breaks[-1]
            else:
                space = text.rfind(" ", start + 1, start + MAX_SENTENCE)
                cut = space + 1 if space > start else start + MAX_SENTENCE
            out.append(cut)
            start = cut
        out.append(b)
    return out


def mask(text: str, mentions: list[Mention]) -> str:
    for m in mentions:
        text = text[: m.start] + "\x00" * (m.end - m.start) + text[m.end :]
    return text


# ---------------------------------------------------------------- benchmarks

#: Registry names that are also ordinary words: matched only as written in the registry.
_CASE_SENSITIVE = {"math"}


def _name_pattern(name: str) -> str:
    parts = [re.escape(p) for p in re.split(r"[\s\-_]+", name) if p]
    return r"[\s\-_]*".join(parts)


_MATCHERS: dict[int, re.Pattern[str]] = {}


#: Mentions already found, per (registry, text): rules and readers ask again about the same
#: block, and a scan of a long block per comparison in it would be quadratic.
_FOUND: dict[tuple[int, str], tuple[Mention, ...]] = {}
_FOUND_MAX = 4096


def find_benchmarks(text: str, registry: Registry) -> list[Mention]:
    """Benchmarks named in ``text`` (longest name first, case-insensitive)."""
    key = (id(registry), text)
    hit = _FOUND.get(key)
    if hit is None:
        hit = tuple(_scan_benchmarks(text, registry))
        if len(_FOUND) >= _FOUND_MAX:
            _FOUND.clear()
        _FOUND[key] = hit
    return list(hit)


def _scan_benchmarks(text: str, registry: Registry) -> list[Mention]:
    pattern = _MATCHERS.get(id(registry))
    if pattern is None:
        alts = "|".join(_name_pattern(n) for n in registry.names())
        pattern = re.compile(rf"(?<![\w\-])(?:{alts})(?![\w+]|-\w)", re.I)
        _MATCHERS.clear()
        _FOUND.clear()
        _MATCHERS[id(registry)] = pattern
    out = []
    for m in pattern.finditer(text):
        found = m.group(0)
        b = registry.get(found)
        if b is None:
            continue
        from benchaudit.benchmarks import fold

        if fold(found) in _CASE_SENSITIVE and found != b.name:
            continue
        if _ANOTHER_BENCHMARK.match(text, m.end()):
            continue  # "SWE-bench Multilingual", "MMLU Redux": another benchmark, another n
        out.append(Mention(m.start(), m.end(), b))
    return out


#: A word after a benchmark's name that makes it another benchmark, with its own items, when
#: the registry does not hold the longer name.
_ANOTHER_BENCHMARK = re.compile(
    r"[\s-]+(?:multilingual|multimodal|multi|mul|redux|plus|pro|live|extended|translated|"
    r"chinese|cn|zh|mini|ml|x|v\d+(?:\.\d+)?)\b",
    re.I,
)


#: Words that name a part of a benchmark in a table label ("LongBench v2 / Hard", "MMLU STEM"):
#: the part has fewer items than the whole, and how many is not known here.
_PART = re.compile(
    r"\b(?:easy|medium|hard|short|long|stem|humanities|social(?:\s+sciences?)?|subset|"
    r"level\s*\d|lv\.?\s*\d|category|domain)\b",
    re.I,
)


def names_a_part(label: str, registry: Registry) -> bool:
    """Whether ``label`` names a part of the benchmark it mentions, not the whole benchmark."""
    rest = label
    for m in sorted(find_benchmarks(label, registry), key=lambda m: -m.start):
        rest = rest[: m.start] + " " + rest[m.end :]
    return bool(_PART.search(rest))


# ---------------------------------------------------------------- from the document model


def blocks_from_document(doc: Document, registry: Registry) -> tuple[list[Block], list[Table]]:
    """Sentences of the document's prose blocks and its tables, with their protocol scopes."""
    from benchaudit.claims.model_claims import in_claim_free_section
    from benchaudit.inputs.scoping import scopes, table_context
    from benchaudit.inputs.tables import from_document

    scope_of = scopes(doc)
    blocks: list[Block] = []
    tables: list[Table] = []
    for item in doc.items:
        scope = scope_of[id(item)]
        if isinstance(item, DocTable):
            tables.append(from_document(item, table_context(item, scope), scope))
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
            document_single=scope.document_single,
            document_single_where=scope.document_single_where,
            pm_declared=scope.pm_declared,
        )
        segments = [(t.line, t.column - 1, t.text) for t in item.lines]
        block.sentences = _sentences(segments, doc.path, page_of, registry, block)
        blocks.append(block)
    return blocks, tables
