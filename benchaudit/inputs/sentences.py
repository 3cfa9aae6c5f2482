"""Blocks → sentences, with a map from every sentence back to its lines.

:func:`sentences_of` cuts a block's lines (already cleaned of markup by the
document walk, :mod:`benchaudit.inputs.blocks`) into :class:`Sentence` objects
across wrapped lines, each with the benchmarks it names (:func:`find_benchmarks`)
and its numbers.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from benchaudit.finding import Location
from benchaudit.inputs import numbers as nums
from benchaudit.inputs.notation import normalise
from benchaudit.inputs.numbers import Number
from benchaudit.inputs.protocols import Protocol, protocols_in

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark, Registry

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
    #: The benchmarks the repetition is stated for (empty: the whole document).
    repeated_for: tuple[str, ...] = ()
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


NOT_COUNTED = ("identifier", "citation")


def states_protocol(sentence: Sentence) -> bool:
    """A sentence that states a sampling protocol and reports no score itself."""
    return bool(sentence.protocols()) and not any(n.kind == "percent" for n in sentence.numbers)


_WORD = re.compile(r"\S+")
#: A word ending in a full stop that ends no sentence ("e.g.", "vs.", "et al.", an initial).
ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|vs|Fig|Figs|Tab|Eq|Sec|cf|approx|No|resp|Dr|Mr|Ms|etc|al|Ref|Refs|Ch|ca)"
    r"|\b[A-Z])\.$"
)
_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def sentences_of(
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
    # LaTeX, decimal commas and spaced thousands read as the number grammar expects (same length).
    text = normalise("".join(parts))
    cuts = [0]
    for m in _BOUNDARY.finditer(text):
        if ABBREVIATION.search(text[max(0, m.start() - 8) : m.start() + 1]):
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


def _alternation(names: list[str]) -> str:
    """The names' patterns as one alternation (:func:`_factored`); the command keeps it
    between runs (building it for the whole registry costs about a millisecond)."""
    if any("\n" in n for n in names):
        return _factored([_name_pattern(n) for n in names])
    from benchaudit.regex_cache import remembered

    return str(
        remembered(
            "benchmark-alternation",
            "\n".join(names),
            lambda text: _factored([_name_pattern(n) for n in text.split("\n")]) if text else "",
        )
    )


def _factored(patterns: list[str], depth: int = 2) -> str:
    """``"|".join(patterns)`` for a pattern compiled with ``re.I``, the alternatives
    grouped by their first letters, to ``depth`` letters: ``m(?:ath|mlu|...)|g(?:sm8k|...)``.

    The matcher tries the alternatives of a branch one by one at every word start, and
    under ``re.I`` it has no quick test of a first letter, so the flat alternation of the
    registry's few hundred names read a model card at about 8 microseconds a character;
    grouped, a position is ruled out after a letter or two (ten times faster on the
    test corpus). The matches are those of
    the flat alternation: the groups keep the alternatives' order, and two groups never
    match at one position, since distinct ASCII letters or digits are distinct under
    ``re.I``. A list with any alternative that does not begin with an ASCII letter or
    digit (an escape, a class, an empty rest) is left flat."""
    if depth <= 0 or len(patterns) < 4 or not all(p[:1].isascii() and p[:1].isalnum() for p in patterns):
        return "|".join(patterns)
    groups: dict[str, list[str]] = {}
    for p in patterns:
        groups.setdefault(p[0].lower(), []).append(p[1:])
    return "|".join(f"{c}(?:{_factored(rest, depth - 1)})" for c, rest in groups.items())


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
        alts = _alternation(registry.names())
        pattern = re.compile(rf"(?<![\w\-])(?:{alts})(?![\w+]|-\w)", re.I)
        _MATCHERS.clear()
        _FOUND.clear()
        _MATCHERS[id(registry)] = pattern
    out = []
    # "AIME’25" is "AIME'25" typeset with a curly apostrophe (one character for one: offsets hold).
    for m in pattern.finditer(text.replace("\u2019", "'")):
        found = m.group(0)
        b = registry.get(found)
        if b is None:
            continue
        from benchaudit.benchmarks import fold

        if fold(found) in _CASE_SENSITIVE and found != b.name:
            continue
        if _ANOTHER_BENCHMARK.match(text, m.end()) or _ANOTHER_BEFORE.search(text, 0, m.start()):
            continue  # "SWE-bench Multilingual", "Chinese SimpleQA": another benchmark, another n
        out.append(Mention(m.start(), m.end(), b))
    return out


#: A word after a benchmark's name that makes it another benchmark, with its own items, when
#: the registry does not hold the longer name.
_ANOTHER_BENCHMARK = re.compile(
    r"[\s-]+(?:multilingual|multimodal|multi|mul|redux|plus|pro|live|extended|translated|"
    r"chinese|cn|zh|mini|ml|x|v\d+(?:\.\d+)?)\b",
    re.I,
)


#: The same before the name: a translated or regional remake with its own items.
_ANOTHER_BEFORE = re.compile(
    r"\b(?:chinese|korean|japanese|arabic|multilingual|translated|cn|zh|kor?|ja|global)[\s-]+$",
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
