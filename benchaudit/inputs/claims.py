"""Claims in prose: text lines → sentences → :class:`~benchaudit.evidence.Claim` objects.

The entry point is :func:`extract`. Any reader that can produce lines of text
(markdown and plain text here; PDF and HTML readers elsewhere) hands them in
with the document line number and page of each, and gets claims back::

    claims, numbers_seen = extract(lines, path, ctx,
                                   line_numbers=[...], page_of_line=[...])

What happens to the lines:

1. Front matter (``---`` / ``+++`` blocks at the top), fenced and indented
   code blocks, HTML comments and RST directives are skipped; markdown markup
   (emphasis, links, images, inline HTML, URLs, footnote references) is
   blanked out *in place*, so columns keep pointing at the original text.
2. Pipe tables go to :mod:`benchaudit.inputs.tables` (one claim per score cell).
3. The rest is cut into blocks (paragraphs, list items, headings), each block
   into :class:`Sentence` objects, across wrapped lines.
4. Every function in :data:`SENTENCE_EXTRACTORS` is called on every sentence
   and returns claims. Score claims are extracted here
   (:func:`score_claims`, :func:`change_claims`); comparison and
   significance claims come from ``benchaudit.inputs.comparisons`` when that
   module is installed (its ``extract_sentence(sentence, ctx)``; an optional
   ``extract_document(claims, tables, ctx)`` may add document-level claims).

A :class:`Sentence` carries its text (markdown removed, whitespace collapsed,
wrapped lines joined by one space), the benchmarks mentioned in it, the
numbers in it (:func:`benchaudit.inputs.numbers.scan`), and a map from every
character offset back to the document line, column and page, so a claim is
located at the line of its number rather than the line the sentence starts on.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchaudit.evidence import Claim
from benchaudit.finding import Confidence, Location
from benchaudit.inputs import numbers as nums
from benchaudit.inputs.numbers import Number

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark, Registry
    from benchaudit.engine import Context
    from benchaudit.inputs.tables import Table


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


@dataclass
class Sentence:
    """One sentence of prose with a map back to where each character came from.

    ``text`` is the sentence with markup removed and whitespace collapsed.
    ``where[i]`` is the ``(line, column)`` (both 1-based, in document
    coordinates) of ``text[i]``; ``page_of`` maps a document line to its page
    (PDF) or is empty. ``mentions`` are the benchmarks named in it and
    ``numbers`` the numbers, with benchmark names masked out (the 2024 of
    "AIME 2024" is not a number of the sentence). ``block`` is the paragraph
    the sentence belongs to, for context from neighbouring sentences.
    """

    text: str
    path: str
    where: list[tuple[int, int]]
    page_of: dict[int, int] = field(default_factory=dict)
    mentions: list[Mention] = field(default_factory=list)
    numbers: list[Number] = field(default_factory=list)
    block: Block | None = None

    @property
    def line(self) -> int:
        """The document line the sentence starts on."""
        return self.where[0][0] if self.where else 0

    @property
    def page(self) -> int | None:
        return self.page_of.get(self.line)

    def line_at(self, offset: int) -> int:
        return self.where[min(max(offset, 0), len(self.where) - 1)][0]

    def column_at(self, offset: int) -> int:
        return self.where[min(max(offset, 0), len(self.where) - 1)][1]

    @property
    def column(self) -> int:
        """The column (1-based) the sentence starts at."""
        return self.where[0][1] if self.where else 0

    @property
    def location(self) -> Location:
        """Where the sentence starts."""
        return self.location_at(0)

    def location_at(self, offset: int) -> Location:
        """Where ``text[offset]`` sits in the document."""
        line = self.line_at(offset)
        return Location(self.path, line, self.column_at(offset), self.page_of.get(line))

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
_INLINE = [
    re.compile(r"!\[[^\]]*\]\([^)]*\)"),  # images
    re.compile(r"\]\([^)]*\)"),  # the target of a link (the text stays)
    re.compile(r"\[\^[^\]]*\]"),  # footnote references
    re.compile(r"https?://\S+|www\.\S+"),
    re.compile(r"</?[A-Za-z][^>]*>"),  # inline HTML
    re.compile(r"\*\*|__|~~|`"),
    re.compile(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|(?<!\w)_(?=\w)|(?<=\w)_(?!\w)"),
]


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


# ---------------------------------------------------------------- extraction


Extractor = Callable[[Sentence, "Context"], list[Claim]]


def extract(
    lines: list[str],
    path: str,
    ctx: Context,
    *,
    line_numbers: list[int] | None = None,
    page_of_line: list[int] | None = None,
    tables: list[Table] | None = None,
    markdown: bool = True,
) -> tuple[list[Claim], int]:
    """Claims in ``lines`` and how many numbers they contain.

    ``line_numbers[i]`` is the document line of ``lines[i]`` (default
    ``i + 1``), ``page_of_line[i]`` its page. ``tables`` are tables the caller
    found itself (PDF, HTML); pipe tables in ``lines`` are found here.
    ``markdown=False`` keeps indented lines as prose (plain text, PDF).
    """
    from benchaudit.inputs import tables as tables_mod

    numbers_of = line_numbers or list(range(1, len(lines) + 1))
    page_of = {numbers_of[i]: p for i, p in enumerate(page_of_line or []) if i < len(numbers_of)}
    registry = ctx.benchmarks
    blocks, found_tables = _blocks(lines, numbers_of, path, page_of, registry, markdown)
    all_tables = [*found_tables, *(tables or [])]
    extractors = sentence_extractors()
    claims: list[Claim] = []
    seen = 0
    for block in blocks:
        for sentence in block.sentences:
            seen += sum(1 for n in sentence.numbers if n.kind not in _NOT_COUNTED)
            for fn in extractors:
                claims.extend(fn(sentence, ctx))
    claims.extend(tables_mod.tables_to_claims(all_tables, path, ctx))
    seen += tables_mod.numbers_in(all_tables)
    doc_fn = _comparisons_attr("extract_document")
    if doc_fn is not None:
        # The document pass may annotate the claims in place and return them, or return new ones.
        known = {id(c) for c in claims}
        claims.extend(c for c in doc_fn(claims, all_tables, ctx) or [] if id(c) not in known)
    claims.sort(key=lambda c: (c.location.line or 0, c.location.column or 0))
    return claims, seen


#: Numbers that are part of a name or a reference, not numbers the author reports.
_NOT_COUNTED = ("identifier", "citation")


def _blocks(
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

    def flush() -> None:
        nonlocal segments, kind, last_text
        if segments:
            last_text = " ".join(t.strip() for _, _, t in segments)
            block = Block(kind=kind, heading=heading)
            block.sentences = _sentences(segments, path, page_of, registry, block)
            blocks.append(block)
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
            fence = _FENCE.match(raw).group(1)
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
        if _is_table_row(raw) and i + 1 < total and _TABLE_SEP.match(lines[i + 1]):
            flush()
            j = i + 2
            while j < total and _is_table_row(lines[j]) and lines[j].strip():
                j += 1
            after = lines[j].strip() if j < total else ""
            table = parse_pipe_table(lines[i:j], numbers_of[i:j], context=f"{last_text} {after}")
            if table is not None:
                table.page = page_of.get(doc_line)
                tables.append(table)
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
    # Join the block's lines, collapsing whitespace, remembering each character's origin.
    chars: list[str] = []
    where: list[tuple[int, int]] = []
    for doc_line, start, text in segments:
        if chars and chars[-1] != " ":
            chars.append(" ")
            where.append(where[-1])
        for j, ch in enumerate(text):
            if ch.isspace():
                if not chars or chars[-1] == " ":
                    continue
                ch = " "
            chars.append(ch)
            where.append((doc_line, start + j + 1))
    while chars and chars[-1] == " ":
        chars.pop()
        where.pop()
    text = "".join(chars)
    cuts = [0]
    for m in _BOUNDARY.finditer(text):
        if _ABBREV.search(text[max(0, m.start() - 8) : m.start() + 1]):
            continue
        cuts.append(m.end())
    cuts.append(len(text))
    out = []
    for a, b in zip(cuts, cuts[1:]):
        piece = text[a:b].rstrip()
        if not piece:
            continue
        s = Sentence(piece, path, where[a : a + len(piece)], page_of, block=block)
        s.mentions = find_benchmarks(piece, registry)
        s.numbers = nums.scan(_mask(piece, s.mentions))
        out.append(s)
    return out


def _mask(text: str, mentions: list[Mention]) -> str:
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


def find_benchmarks(text: str, registry: Registry) -> list[Mention]:
    """Benchmarks named in ``text`` (longest name first, case-insensitive)."""
    pattern = _MATCHERS.get(id(registry))
    if pattern is None:
        alts = "|".join(_name_pattern(n) for n in registry.names())
        pattern = re.compile(rf"(?<![\w\-])(?:{alts})(?![\w+]|-\d)", re.I)
        _MATCHERS.clear()
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
        out.append(Mention(m.start(), m.end(), b))
    return out


# ---------------------------------------------------------------- score claims

_NUM = r"\d+(?:\.\d+)?"
_SEP = r"\s*(?:–|—|-|to|,)\s*"
_PM = re.compile(rf"\s*%?\s*\(?\s*(?:±|\+/-|\+-|\+/−)\s*({_NUM})\s*(%|pp|points?)?\s*\)?")
_LEVEL = r"(?:(?P<level>\d{2}(?:\.\d+)?)\s*%\s*)?"
_INTERVAL = re.compile(
    rf"\s*%?\s*[\[(,;]?\s*(?:with\s+(?:an?\s+|the\s+)?)?{_LEVEL}"
    rf"(?:(?:CI|C\.I\.|conf(?:idence)?\.?\s+int(?:erval)?\.?|confidence interval|interval)\s*"
    rf"(?:of\s+|is\s+|=\s*|:\s*)?)?"
    rf"[\[(]?\s*(?P<lo>-?{_NUM})\s*%?{_SEP}(?P<hi>-?{_NUM})\s*%?\s*[\])]?",
    re.I,
)
_LABELLED = re.compile(r"\d{2}(?:\.\d+)?\s*%\s*(?:CI|C\.I\.|conf|interval)|\bCI\b|interval", re.I)
_SE_WORDS = re.compile(r"\b(?:1\s*)?(?:SE|S\.E\.|SEM|standard errors?|std\.? err(?:or)?)\b", re.I)
_SD_WORDS = re.compile(
    r"\b(?:SD|S\.D\.|std|stdev|standard deviations?|across\s+\d+\s+(?:seeds|runs)"
    r"|over\s+\d+\s+(?:seeds|runs))\b",
    re.I,
)
_LEVEL_WORDS = re.compile(
    r"\b(\d{2}(?:\.\d+)?)\s*%\s*(?:CI|C\.I\.|confidence|credible|interval)", re.I
)

_SCORE_WORDS = re.compile(
    r"accura|\bscor|\bpass@|\bsolv|\bachiev|\breach|\bobtain|\battain|\bcorrect|success rate"
    r"|exact match|\bEM\b|resolve|\bgets?\b|\bperformance\b|\bresults?\b|\banswer|\bright\b",
    re.I,
)
_NOT_GRID = re.compile(
    r"\bF1\b|\bBLEU|\bROUGE|\bMETEOR|chrF|perplexity|\bElo\b|win[ -]rate|length[- ]controlled"
    r"|normali[sz]ed|macro|weighted|pass@(?:[2-9]|\d\d+)|\bAUC|correlation|\bkappa",
    re.I,
)
_SAMPLES_PATTERNS = [
    re.compile(r"\b(?:avg|mean|average)@(\d+)", re.I),
    re.compile(
        r"\b(?:averaged|average|mean|avg\.?)\s+(?:score\s+)?(?:over|across|of)\s+(\d+)\s+"
        rf"(?:[a-z\-]+\s+){{0,2}}?(?:{nums.SAMPLE_NOUNS})\b",
        re.I,
    ),
    re.compile(
        rf"\b(\d+)\s+(?:[a-z\-]+\s+)?(?:{nums.SAMPLE_NOUNS})\s+(?:per|for each|each)\s+"
        r"(?:problem|question|item|prompt|task|instance|example)",
        re.I,
    ),
    re.compile(rf"\b(\d+)\s+(?:{nums.SAMPLE_NOUNS})\b[^.;]*?\baverag", re.I),
]
_VOTE = re.compile(r"\b(?:maj|cons|majority|vote)@(\d+)|\bmajority vot", re.I)
_PASS_K = re.compile(r"\bpass@(\d+)", re.I)
_SINGLE = re.compile(
    r"\bgreedy\b|\bsingle[- ](?:pass|run|sample|attempt|generation|shot attempt)\b"
    r"|\bone (?:sample|pass|attempt|run|generation)\b|\btemperature\s*(?:=|of)?\s*0(?:\.0)?\b",
    re.I,
)


@dataclass
class Protocol:
    position: int
    protocol: str  # "single", "averaged", "pass@k"
    samples: int | None = None
    metric: str = ""


def protocols_in(text: str) -> list[Protocol]:
    """Sampling protocols stated in a text: averaged over s samples, single pass, pass@k."""
    out: list[Protocol] = []
    for pattern in _SAMPLES_PATTERNS:
        for m in pattern.finditer(text):
            s = int(m.group(1))
            if s >= 1:
                out.append(Protocol(m.start(), "averaged", s, m.group(0)))
    for m in _VOTE.finditer(text):
        out.append(Protocol(m.start(), "single", 1, m.group(0)))
    for m in _PASS_K.finditer(text):
        if int(m.group(1)) > 1:
            out.append(Protocol(m.start(), "pass@k", None, m.group(0)))
    for m in _SINGLE.finditer(text):
        out.append(Protocol(m.start(), "single", 1, m.group(0)))
    out.sort(key=lambda p: p.position)
    return out


def _nearest(items: list[Any], pos: int, key: Callable[[Any], int]) -> Any:
    return min(items, key=lambda x: abs(key(x) - pos)) if items else None


@dataclass
class _Interval:
    end: int
    lo: str | None = None
    hi: str | None = None
    pm: str | None = None
    level: float | None = None


def _interval_after(text: str, pos: int) -> _Interval | None:
    """A ``± h`` or ``[lo, hi]`` / ``(95% CI lo–hi)`` right after a score."""
    # "87.2% of HumanEval (95% CI ...)": the interval may follow the benchmark name
    # (masked as NUL characters in ``text``).
    skip = re.match(r"\s*%?\s*(?:on|of|in|for|at)\s+(?:the\s+)?\x00+", text[pos : pos + 80])
    if skip:
        pos += skip.end()
    window = text[pos : pos + 80]
    m = _PM.match(window)
    if m:
        return _Interval(pos + m.end(), pm=m.group(1))
    m = _INTERVAL.match(window)
    if m and (m.group(0).lstrip(" %")[:1] in "[(," or _LABELLED.search(m.group(0))):
        # A bare "70, 75" list is not an interval: require brackets or a label.
        bare = m.group(0).lstrip(" %")
        if bare[:1] == "," and not _LABELLED.search(m.group(0)):
            return None
        level = float(m.group("level")) / 100 if m.group("level") else None
        return _Interval(pos + m.end(), lo=m.group("lo"), hi=m.group("hi"), level=level)
    return None


def _adjacent_after(text: str, end: int, mentions: list[Mention]) -> Mention | None:
    for mn in mentions:
        gap = text[end : mn.start]
        if mn.start >= end and re.fullmatch(
            r"[\s%)]*(?:\(?[^()]{0,40}\)\s*)?"
            r"(?:(?:accuracy|score|pass@\d+|exact[- ]match|EM|success rate|solve rate)\s+)?"
            r"(?:on|in|for|at|across)?\s*(?:the\s+)?(?:full\s+|official\s+)?",
            gap,
            re.I,
        ):
            return mn
    return None


def _adjacent_before(text: str, start: int, mentions: list[Mention]) -> Mention | None:
    for mn in reversed(mentions):
        gap = text[mn.end : start]
        if mn.end <= start and re.fullmatch(
            r"\s*(?:\([^()]{0,40}\))?\s*(?:[:=,]|\||\bof\b|\bat\b|\bwith\b|\bis\b|\breaches\b|\bscores?\b"
            r"|\bscore of\b|\baccuracy of\b|\baccuracy\b|\bpass@1\b|\bpass@1 of\b|\b\(?[a-z]+@\d+\)?\s*(?:of|:)?)?"
            r"\s*(?:of\s+)?(?:a\s+score\s+of\s+|an\s+accuracy\s+of\s+)?(?:about\s+|~)?",
            gap,
            re.I,
        ):
            return mn
    return None


_SCORE_BEFORE = re.compile(
    r"(?:\bscores?|\baccuracy|\bpass@1|\bexact match|\bEM)\b"
    r"(?:\s*(?:of|:|=|is)|[^.;%]{0,30}?\b(?:is|was|of|reaches|reached|at)\s*)?\s*$",
    re.I,
)


def _is_plain_score(s: Sentence, num: Number, masked: str) -> str | None:
    """The unit of a bare number that reads as a score, or None."""
    if num.kind != "plain" or num.signed:
        return None
    v = num.value
    before = masked[max(0, num.start - 30) : num.start]
    if re.search(r"(?:\btop|\brank(?:ed)?|#|\bn\s*=|\bk\s*=|\d\s+(?:out\s+)?of)\s*$", before, re.I):
        return None
    if not (
        _adjacent_after(s.text, num.end, s.mentions)
        or _adjacent_before(s.text, num.start, s.mentions)
        or _SCORE_BEFORE.search(before)
    ):
        return None
    if 0 < v <= 1 and not num.is_integer:
        return "proportion"
    if 1 < v <= 100:
        return "points"
    return None


def score_claims(s: Sentence, ctx: Context) -> list[Claim]:
    """Score claims in one sentence: "87.3% on HumanEval", "MATH-500: 96.3 (pass@1)"."""
    text = s.text
    masked = _mask(text, s.mentions)
    consumed_until = -1
    found: list[tuple[Number, str, _Interval | None]] = []
    for num in s.numbers:
        if num.start < consumed_until:
            continue
        if num.kind == "percent":
            if num.signed or nums.percent_role(masked, num) != "score" or not 0 <= num.value <= 100:
                continue
            unit = "percent"
        else:
            unit = _is_plain_score(s, num, masked) or ""
            if not unit:
                continue
        interval = _interval_after(masked, num.end)
        if interval is not None:
            consumed_until = interval.end
        found.append((num, unit, interval))
    if not found:
        return []
    benchmarks = {m.benchmark.name for m in s.mentions}
    has_score_words = bool(_SCORE_WORDS.search(text))
    respectively = "respectively" in text.lower() and len(found) == len(s.mentions)
    items = [n for n in s.numbers if n.kind == "items"]
    fractions = [n for n in s.numbers if n.kind == "fraction"]
    protocols = protocols_in(text)
    # A protocol stated in a sentence of its own ("All scores are averaged over 64
    # samples.") covers the paragraph; one stated next to another score does not.
    block_protocols = [
        p
        for o in s.context()
        if not any(n.kind == "percent" for n in o.numbers)
        for p in protocols_in(o.text)
    ]
    sentence_level = _sentence_level(text)
    claims = []
    for idx, (num, unit, interval) in enumerate(found):
        end = interval.end if interval else num.end
        conf = Confidence.HIGH
        mention = _adjacent_after(text, end, s.mentions) or _adjacent_before(
            text, num.start, s.mentions
        )
        own = _own_set(masked, end, items)
        if own is not None:
            # "49.3% on our 500-question set": a set of its own, not a benchmark named nearby.
            mention, conf = None, Confidence.HIGH
        a, b = _clause(text, num.start)
        in_clause = {m.benchmark.name: m for m in s.mentions if a <= m.start < b}
        if mention is not None or own is not None:
            pass
        elif respectively:
            mention, conf = s.mentions[idx], Confidence.MEDIUM
        elif len(in_clause) == 1:
            mention, conf = next(iter(in_clause.values())), Confidence.MEDIUM
        elif len(benchmarks) == 1:
            mention, conf = s.mentions[0], Confidence.MEDIUM
        elif s.mentions:
            mention, conf = _nearest(s.mentions, num.start, lambda m: m.start), Confidence.LOW
        if mention is not None and len(found) > 1 and not respectively:
            # Two scores next to one benchmark name: which is the score is less sure.
            same = [
                f
                for f in found
                if f[0] is not num
                and (_adjacent_after(text, f[2].end if f[2] else f[0].end, s.mentions) is mention)
            ]
            if same and conf is Confidence.HIGH:
                conf = Confidence.MEDIUM
        if mention is None and not has_score_words:
            continue
        claim = Claim(
            kind="score",
            text=text,
            location=s.location_at(num.start),
            confidence=conf,
            value=num.text,
            unit=unit,
            benchmark=mention.benchmark.name if mention else None,
        )
        if mention is not None:
            claim.n = mention.benchmark.n
            claim.n_source = (
                "configuration" if mention.benchmark.source == "configuration" else "registry"
            )
        stated = _stated_n(
            text, num, items, fractions, mention, s.mentions, [f[0].start for f in found]
        )
        if stated is not None:
            claim.n, claim.n_source = stated, "text"
            if mention is None:
                claim.confidence = Confidence.MEDIUM
        elif mention is None:
            claim.confidence = Confidence.LOW
        k = _stated_k(text, num, fractions)
        if k is not None:
            claim.fields["k"] = k
        proto = _protocol_for(text, num.start, protocols) or (
            block_protocols[0] if block_protocols else None
        )
        if proto is not None:
            claim.protocol, claim.samples = proto.protocol, proto.samples
            claim.fields["protocol_text"] = proto.metric
        if _NOT_GRID.search(text):
            claim.fields["grid"] = False
        if interval is not None:
            if interval.pm is not None:
                claim.plus_minus = interval.pm
            else:
                claim.interval = (interval.lo, interval.hi)
            claim.fields["interval_text"] = text[num.start : interval.end].strip()
            level = interval.level or sentence_level.get("level")
            claim.fields["level"] = level
            claim.fields["pm_kind"] = _pm_kind(
                text[num.end : interval.end + 40]
            ) or sentence_level.get("pm_kind")
        claims.append(claim)
    return claims


_CLAUSE = re.compile(r";|,\s+(?:and|while|whereas|but)\b|\s(?:whereas|while)\s")


_OWN_SET = re.compile(
    r"\s*%?\s*(?:\([^()]*\)\s*)?(?:on|over|across|for)\s+(?:(?!on\b|of\b|and\b)[\w-]+\s+){0,3}$", re.I
)


def _own_set(masked: str, end: int, items: list[Number]) -> Number | None:
    """The item count of "on our 500 questions" / "on a 100-problem subset" after a score."""
    for it in items:
        if it.start >= end and "\x00" not in masked[end : it.start]:
            if _OWN_SET.fullmatch(masked[end : it.start]):
                return it
    return None


def _clause(text: str, pos: int) -> tuple[int, int]:
    """The span of the clause of ``text`` that holds ``pos``."""
    cuts = [0, *(m.start() for m in _CLAUSE.finditer(text)), len(text) + 1]
    for a, b in zip(cuts, cuts[1:]):
        if a <= pos < b:
            return a, b
    return 0, len(text) + 1


def _protocol_for(text: str, pos: int, protocols: list[Protocol]) -> Protocol | None:
    """The protocol stated in the same clause as ``pos``, else the sentence's only one."""
    a, b = _clause(text, pos)
    inside = [p for p in protocols if a <= p.position < b]
    if inside:
        return _nearest(inside, pos, lambda p: p.position)
    kinds = {(p.protocol, p.samples) for p in protocols}
    return protocols[0] if len(kinds) == 1 else None


def _sentence_level(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    m = _LEVEL_WORDS.search(text)
    if m:
        out["level"] = float(m.group(1)) / 100
    kind = _pm_kind(text)
    if kind:
        out["pm_kind"] = kind
    return out


def _pm_kind(text: str) -> str | None:
    if _SD_WORDS.search(text):
        return "sd"
    if _SE_WORDS.search(text):
        return "se"
    return None


def _stated_n(
    text: str,
    num: Number,
    items: list[Number],
    fractions: list[Number],
    mention: Mention | None,
    mentions: list[Mention],
    scores: list[int],
) -> int | None:
    """An item count stated in the sentence that belongs to this score.

    A count right after a benchmark name ("HumanEval (164 problems)") belongs
    to that benchmark's scores; a free-standing count ("on our 500
    questions") to the only score, to scores with no benchmark, or to the
    nearest score.
    """
    candidates: list[tuple[int, int]] = [
        (it.start, int(it.digits)) for it in items if it.digits.isdigit() and int(it.digits) > 0
    ]
    for fr in fractions:
        m = re.match(r"/\s*(\d+)", text[fr.end : fr.end + 12])
        if m and int(m.group(1)) > 0:
            candidates.append((fr.start, int(m.group(1))))
    for m in _K_OF_N.finditer(text):
        if int(m.group(2).replace(",", "")) > 0:
            candidates.append((m.start(2), int(m.group(2).replace(",", ""))))
    free = []
    for pos, n in candidates:
        owner = next((mn for mn in mentions if mn.end <= pos <= mn.end + 6), None)
        if owner is None:
            free.append((pos, n))
        elif mention is not None and owner.benchmark.name == mention.benchmark.name:
            return n
    if not free:
        return None
    if len(free) == 1 and (len(scores) == 1 or mention is None):
        return free[0][1]
    # Otherwise a free count belongs to the score nearest to it.
    for pos, n in free:
        if _nearest(scores, pos, lambda p: p) == num.start and abs(pos - num.start) < 60:
            return n
    return None


_K_OF_N = re.compile(r"(?<![\d.,])(\d+)\s+(?:out\s+)?of\s+(?:the\s+)?(\d[\d,]*)(?![\d.]|\s*%)")


def _stated_k(text: str, num: Number, fractions: list[Number]) -> int | None:
    for m in _K_OF_N.finditer(text):
        if 0 <= num.start - m.end() < 30 or 0 <= m.start() - num.end < 30:
            return int(m.group(1))
    for fr in fractions:
        if 0 <= fr.start - num.end < 30 or 0 <= num.start - fr.end < 30:
            return int(fr.digits) if fr.digits.isdigit() else None
    return None


# ---------------------------------------------------------------- change claims

_FROM_TO = re.compile(
    rf"\bfrom\s+(?P<a>{_NUM})\s*(?:%|percent)?\s*(?:\([^)]*\)\s*)?(?:to|→|->)\s+(?P<b>{_NUM})\s*(?:%|percent)?",
    re.I,
)
_RELATIVE = re.compile(r"\brelative(?:ly)?\b|\brel\.", re.I)
_ABSOLUTE = re.compile(r"\babsolute\b|\bpoints?\b|\bpp\b|percentage points?", re.I)


def change_claims(s: Sentence, ctx: Context) -> list[Claim]:
    """Changes stated as a percentage next to the two scores they compare.

    "improves from 70% to 75%, a 5% gain" gives a ``change`` claim with
    ``fields = {"before": "70", "after": "75", "delta": "5"}``.
    """
    text = s.text
    masked = _mask(text, s.mentions)
    deltas = [
        n for n in s.numbers if n.kind == "percent" and nums.percent_role(masked, n) == "change"
    ]
    if not deltas:
        return []
    m = _FROM_TO.search(masked)
    if m:
        before, after, conf = m.group("a"), m.group("b"), Confidence.HIGH
    else:
        scores = [
            n
            for n in s.numbers
            if n.kind == "percent" and not n.signed and nums.percent_role(masked, n) == "score"
        ]
        if len(scores) != 2:
            return []
        # "75% vs 70%": which is the base is read from the direction of the change.
        before, after, conf = scores[1].text, scores[0].text, Confidence.MEDIUM
        if float(before) > float(after) and _rises(masked):
            before, after = after, before
    claims = []
    for d in deltas:
        window = masked[max(0, d.start - 25) : d.end + 25]
        claims.append(
            Claim(
                kind="change",
                text=text,
                location=s.location_at(d.start),
                confidence=conf,
                value=d.text,
                unit="percent",
                benchmark=s.mentions[0].benchmark.name
                if len({m.benchmark.name for m in s.mentions}) == 1
                else None,
                fields={
                    "before": before,
                    "after": after,
                    "delta": d.text,
                    "relative_stated": bool(_RELATIVE.search(window)),
                    "absolute_stated": bool(_ABSOLUTE.search(window.replace(d.text, "", 1)[:40])),
                },
            )
        )
    return claims


def _rises(text: str) -> bool:
    return not re.search(
        r"\b(?:drop|decreas|declin|lower|worse|fall|fell|loses?|lost|reduc|degrad)", text, re.I
    )


# ---------------------------------------------------------------- extractor list

#: Called on every sentence, in order; each returns a list of claims.
SENTENCE_EXTRACTORS: list[Extractor] = [score_claims, change_claims]


def _comparisons_attr(name: str) -> Any:
    """An attribute of ``benchaudit.inputs.comparisons``, or None when that module is absent."""
    try:
        module = importlib.import_module("benchaudit.inputs.comparisons")
    except ModuleNotFoundError as exc:
        if exc.name != "benchaudit.inputs.comparisons":
            raise
        return None
    return getattr(module, name, None)


def sentence_extractors() -> list[Extractor]:
    """:data:`SENTENCE_EXTRACTORS` plus the comparison extractor when installed."""
    extra = _comparisons_attr("extract_sentence")
    return [*SENTENCE_EXTRACTORS, extra] if extra is not None else list(SENTENCE_EXTRACTORS)
