"""Where a stated sampling protocol applies: scopes from the document model.

A protocol statement attaches to the scope it is stated for and to nothing
else. The two directions of error are not alike: a *single pass* wrongly
carried to a score turns a possible value into a false "unreachable" error,
while an *average over k samples* wrongly carried only hides a finding. So:

- a single-pass statement ("greedy", "one sample") applies to its own
  paragraph and to a table it frames (lead-in, caption, note after it), and
  to the rest of its section only when it says so ("unless otherwise
  stated", "all results", "throughout");
- an averaging statement anywhere in the document ("we generate 64
  responses per query and report pass@1", "averaged over 8 runs") makes
  averaging a *possible* reading for every score whose own scope states
  nothing, and the rules say so and lower their severity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchaudit.documents.model import Block, Document, Section, Table
from benchaudit.inputs.protocols import Protocol, protocols_in

#: Words that widen a statement from its paragraph to its section.
_SECTION_WIDE = re.compile(
    r"\bunless\s+(?:otherwise\s+)?(?:stated|noted|specified|mentioned|indicated)|\ball\s+"
    r"(?:the\s+)?(?:results|scores|numbers|evaluations|models|benchmarks|experiments)\b|"
    r"\bthroughout\b|\bin\s+(?:all|this|these)\s+(?:section|table|experiment|evaluation)s?\b|"
    r"\bfor\s+all\b|\bby\s+default\b|\bwe\s+(?:use|adopt|employ|apply)\b",
    re.I,
)
_MULTI_RUN = re.compile(
    r"\bgenerate\s+k\s+(?:\w+\s+)?(?:responses|samples|outputs|solutions|completions)\b|"
    r"\bover\s+k\s+(?:\w+\s+)?(?:responses|samples|runs)\b|\bk\s+sampled\s+responses\b|"
    r"\btested\s+(?:multiple|several|many)\s+times\b|\b(?:multiple|several|repeated)\s+"
    r"(?:runs|samples|trials|generations|evaluations)\b|\bmean\s+of\s+(?:multiple|several)\b|"
    r"\baverag\w*\s+(?:over|across)\s+(?:multiple|several|many)\b|"
    # "temperature sampling and multiple-run averaging", "multi-sample averages": the compound
    # adjective says runs were repeated as surely as "multiple runs" does, with no count.
    r"\b(?:multiple|several|repeated|multi)[- ](?:run|sample|trial|seed|generation)s?\s+averag",
    re.I,
)


@dataclass
class Scope:
    """The protocol context of one block or table."""

    #: Text whose protocols apply with certainty (its section's explicit statements).
    stated: str = ""
    #: Averaging statements elsewhere in the document that may apply.
    possible: list[Protocol] = field(default_factory=list)
    #: True when the document says results were repeated with an unstated count.
    repeated_unstated: bool = False
    #: The benchmarks those statements are restricted to ("For competitive mathematics
    #: benchmarks (e.g., AIME24)"), as folded name keys; empty when one speaks for all.
    repeated_for: tuple[str, ...] = ()
    #: Where ``possible`` was stated, for messages ("line 120").
    possible_where: str = ""
    #: A single-pass statement made for the whole evaluation elsewhere in the document
    #: ("we use greedy decoding for all benchmarks"), when the document states no averaging:
    #: an inferred protocol for scores whose own scope states none.
    document_single: str = ""
    document_single_where: str = ""
    #: What the document says its ``±`` denotes ("μ ± σ denotes the mean and the standard
    #: deviation", "mean ± std over 3 seeds"): "sd", "se", or "" when it says nothing.
    pm_declared: str = ""
    #: Protocols stated for named benchmarks in the item's section ("MATH500 and SuperGPQA are
    #: with a single run"): the names as written, the protocol, and where it is stated.
    named: list[tuple[str, Protocol, str]] = field(default_factory=list)


#: A statement of what ``±`` means, anywhere in the document (a caption, a footnote, a
#: methods paragraph): it governs every ``±`` whose own text says nothing.
_PM_DECLARATION = re.compile(
    r"(?:±|\+/?-|μ\s*±\s*σ|mean\s*±\s*(?:std|s\.?d\.?|standard deviation))"
    r"[^.;]{0,80}?\b(?P<kind>standard deviations?|std|s\.d\.|standard errors?|s\.e\.m?)"
    r"|\b(?P<kind2>standard deviations?|standard errors?)\b[^.;]{0,40}?(?:denoted|shown|given|reported)"
    r"\s+(?:by|as|with|after)\s+(?:the\s+)?(?:±|\+/?-)"
    r"|\bmean\s*±\s*(?P<kind3>std|sd|s\.d\.|standard deviation|se|sem|standard error)\b",
    re.I,
)


def pm_kinds(text: str) -> set[str]:
    """What ``text`` says the document's ``±`` denotes: {"sd"}, {"se"}, both or none."""
    kinds = set()
    for m in _PM_DECLARATION.finditer(text):
        word = (m.group("kind") or m.group("kind2") or m.group("kind3") or "").lower()
        kinds.add("se" if word.startswith(("standard err", "s.e", "se")) else "sd")
    return kinds


_SAMPLE_RANGE = re.compile(
    r"\b(?:k|samples?|responses?|generations?|runs?)\b[^.;]{0,60}?\bbetween\s+(\d+)\s+(?:and|to)\s+(\d+)\b",
    re.I,
)


def averaging_in(text: str) -> list[Protocol]:
    """Averages over several samples a text states, a range (\"between 4 and 64\") included."""
    found = [p for p in protocols_in(text) if p.protocol == "averaged" and (p.samples or 0) > 1]
    for m in _SAMPLE_RANGE.finditer(text):
        lo, hi = int(m.group(1)), int(m.group(2))
        if 1 < lo <= hi <= 1024:
            # "k responses (typically between 4 and 64)": every power of two in the range may apply.
            k = lo
            while k <= hi:
                found.append(Protocol(m.start(), "averaged", k, m.group(0)))
                k *= 2
            found.append(Protocol(m.start(), "averaged", hi, m.group(0)))
    return found


#: A sentence's subject that is a list of names and its verb, up to its protocol: "AIME24 and
#: AIME25 are with averaged score of 32 repetitions", "MATH500 and SuperGPQA are with a single run".
_NAMED_SUBJECT = re.compile(r"^\W*(?P<names>[A-Z][^.;:!?]{1,200}?)\s+(?:are|is|were|was)\b(?:\s+[a-z]+){0,3}\s*$")
_NAME_PIECE = re.compile(r"[A-Z][\w.+-]*(?:\s+[\w.+-]+){0,2}")


def named_protocols(text: str) -> list[tuple[str, Protocol]]:
    """The protocols a text states for benchmarks it names as a sentence's subject, with those
    names as written; a sentence whose subject is anything but a list of names gives none."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        protos = protocols_in(sentence)
        if not protos:
            continue
        m = _NAMED_SUBJECT.match(sentence[: protos[0].position])
        if m is None:
            continue
        names = re.sub(r"\s*\([^)]*\)", "", m.group("names"))
        pieces = [x.strip() for x in re.split(r",|\band\b", names) if x.strip()]
        if pieces and all(_NAME_PIECE.fullmatch(x) for x in pieces):
            out.append((names, protos[0]))
    return out


def _single(text: str) -> list[Protocol]:
    return [p for p in protocols_in(text) if p.protocol == "single"]


@dataclass
class _Statement:
    """A block's text with its section and position, for scoping."""

    section: Section | None
    index: int
    text: str


def scopes(doc: Document) -> dict[int, Scope]:
    """A :class:`Scope` for every block and table of ``doc``, keyed by ``id(item)``."""
    possible: list[Protocol] = []
    where = ""
    repeated = False
    restricted: list[tuple[str, ...]] = []
    wide: list[_Statement] = []
    pm: set[str] = set()
    named: list[tuple[Section | None, str, Protocol, str]] = []
    for idx, item in enumerate(doc.items):
        texts = [item.text] if isinstance(item, Block) else [item.framing_text(), *item.header()]
        if isinstance(item, Block) and item.kind != "code":
            # Blocks only: a table's framing text is made of blocks that are items themselves.
            at = f"page {item.page}" if item.page else f"line {item.line}"
            named.extend((item.section, names, p, at) for names, p in named_protocols(texts[0]))
        # What ± denotes is read from prose, captions and notes (a header's "mean ± std"
        # speaks for its own column only).
        pm |= pm_kinds(texts[0])
        for text in texts:
            if not text:
                continue
            found = averaging_in(text)
            if found and not possible:
                line = item.line
                where = f"line {line}" if line else ""
                if isinstance(item, Block) and item.page:
                    where = f"page {item.page}"
            possible.extend(found)
            multi = _MULTI_RUN.search(text)
            if multi:
                repeated = True
                restricted.append(restricted_to(text, multi.start()))
        if isinstance(item, Block) and item.kind != "code" and _single(item.text):
            # A paragraph that also states an average over samples ("greedy decoding ... results
            # in repetition; therefore we generate k responses per question") is no single-pass
            # statement for what follows: the reading under which the scores are possible wins.
            if _SECTION_WIDE.search(item.text) and not averaging_in(item.text) and not _MULTI_RUN.search(item.text):
                wide.append(_Statement(item.section, idx, item.text))
    declared = pm.pop() if len(pm) == 1 else ""  # said in exactly one way
    doc_single, doc_where = "", ""
    if wide and not possible and not repeated:
        first = doc.items[wide[0].index]
        doc_single = wide[0].text
        doc_where = f"page {first.page}" if first.page else f"line {first.line}"
    out: dict[int, Scope] = {}
    for idx, item in enumerate(doc.items):
        section = item.section
        stated = [
            s.text
            for s in wide
            if s.index < idx and (section is s.section or (section is not None and section.within(s.section)))
        ]
        out[id(item)] = Scope(
            stated=stated[-1] if stated else "",
            possible=list(possible),
            repeated_unstated=repeated,
            repeated_for=() if any(not r for r in restricted) else tuple(k for r in restricted for k in r),
            possible_where=where,
            document_single=doc_single,
            document_single_where=doc_where,
            pm_declared=declared,
            # A statement for named benchmarks speaks for their scores anywhere in its section
            # (a note after the last table of a results section covers the tables above it).
            named=[(names, p, at) for sec, names, p, at in named if sec is section
                   or (section is not None and sec is not None and section.within(sec))],
        )
    return out


#: "For competitive mathematics benchmarks (e.g., AIME24), we employ ... multiple-run averaging":
#: a statement restricted to a class of benchmarks, named by a kind and by examples.
_FOR_BENCHMARKS = re.compile(
    r"^\W*for\s+(?P<what>[^,;]{2,120}?)\s*(?:benchmarks?|tasks?|datasets?|evaluations?)\b"
    r"(?:\s*\((?:e\.g\.,?|such as|including)?\s*(?P<examples>[^)]{1,120})\))?",
    re.I,
)
#: Words of a kind of benchmark, and the name keys of benchmarks of that kind.
_KINDS = {
    "math": ("aime", "hmmt", "cnmo", "amc", "math", "olympiad", "imo", "usamo", "brumo", "minerva", "gsm"),
    "cod": ("humaneval", "mbpp", "livecodebench", "codeforces", "swe", "aider", "cruxeval", "bigcodebench"),
    "program": ("humaneval", "mbpp", "livecodebench", "codeforces", "swe", "aider", "cruxeval", "bigcodebench"),
}


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def restricted_to(text: str, at: int) -> tuple[str, ...]:
    """The name keys of the benchmarks the statement at offset ``at`` of ``text`` is made
    for ("aime", "hmmt", ... for "For competitive mathematics benchmarks (e.g., AIME24)"), or
    () when its sentence restricts it to nothing the tool can name (it then speaks for all)."""
    start = text.rfind(". ", 0, at) + 1
    m = _FOR_BENCHMARKS.search(text[start:at])
    if m is None:
        return ()
    keys = [k for word, ks in _KINDS.items() if word in m.group("what").lower() for k in ks]
    for example in re.split(r",|\band\b|\bor\b", m.group("examples") or ""):
        letters = re.match(r"[A-Za-z]+", example.strip())
        if letters and len(letters.group(0)) >= 3:
            keys.append(letters.group(0).lower())  # "AIME24": the family of the example
    return tuple(dict.fromkeys(keys))


def covers(keys: tuple[str, ...], benchmark: str | None) -> bool:
    """Whether a statement restricted to ``keys`` (see :func:`restricted_to`; empty: none)
    may speak for a score on ``benchmark``; an unnamed benchmark may be one of them."""
    if not keys or not benchmark:
        return True
    folded = _key(benchmark)
    return any(k in folded for k in keys)


#: "For all LLaDA2.0 models, we use a temperature of 0.0": a statement restricted to a family.
_FOR_MODELS = re.compile(
    r"\b[Ff]or\s+(?:all\s+)?(?:the\s+|our\s+)?(?P<name>[A-Z][\w.+-]*(?:[ -][A-Z0-9][\w.+-]*){0,2}?)"
    r"\s+(?:models?|variants|checkpoints)\b"
)


def stated_for(text: str, at: int) -> str | None:
    """The model family that the protocol statement at offset ``at`` of ``text`` is made for.

    None when its sentence names no family: the statement then holds for every row of the
    scope it is made in."""
    start = text.rfind(". ", 0, at) + 1
    end = text.find(". ", at)
    m = _FOR_MODELS.search(text[start : len(text) if end < 0 else end])
    return m.group("name") if m else None


def of_family(model: str, family: str) -> bool:
    """Whether the row ``model`` belongs to ``family`` ("LLaDA2.0-flash" to "LLaDA2.0")."""
    def key(s: str) -> str:
        return re.sub(r"[^a-z0-9.]", "", s.lower())

    return key(family) in key(model)


def table_context(table: Table, scope: Scope) -> str:
    """The text whose protocol statements apply to every cell of ``table``."""
    return " ".join(p for p in (table.framing_text(), scope.stated) if p)
