"""Claims in prose: text lines → sentences → :class:`~benchaudit.evidence.Claim` objects.

The entry point is :func:`extract`. Any reader that can produce lines of text
(markdown and plain text here; PDF and HTML readers elsewhere) hands them in
with the document line number and page of each, and gets claims back::

    claims, numbers_seen = extract(lines, path, ctx,
                                   line_numbers=[...], page_of_line=[...])

What happens to the lines:

1. :mod:`benchaudit.inputs.blocks` skips what is not prose (front matter,
   code, HTML comments, RST directives), blanks markdown markup in place so
   columns keep pointing at the original text, hands pipe tables and
   ``<table>`` elements to :mod:`benchaudit.inputs.tables` (one claim per
   score cell), and cuts the rest into blocks and (:mod:`benchaudit.inputs.sentences`)
   :class:`Sentence` objects across wrapped lines. A sentence carries its text, the benchmarks and
   numbers in it, and the map back to document lines, columns and pages.
2. Every function in :data:`SENTENCE_EXTRACTORS` is called on every sentence
   and returns claims: score claims and percentage changes
   (:mod:`benchaudit.inputs.scores`); comparison and significance claims come
   from ``benchaudit.inputs.comparisons`` when that module is installed (its
   ``extract_sentence(sentence, ctx)``). Its optional
   ``extract_document(claims, tables, ctx)`` runs last, over all claims and
   tables, and may annotate claims in place or return new ones.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from benchaudit.evidence import Claim
from benchaudit.inputs.blocks import blocks_from_document, read_blocks
from benchaudit.inputs.protocols import Protocol, protocols_in
from benchaudit.inputs.scores import change_claims, score_claims
from benchaudit.inputs.section_benchmark import SectionBenchmarks
from benchaudit.inputs.sentences import (
    NOT_COUNTED,
    Block,
    Mention,
    Sentence,
    find_benchmarks,
)

if TYPE_CHECKING:
    from benchaudit.documents.model import Document
    from benchaudit.engine import Context
    from benchaudit.inputs.tables import Table

__all__ = [
    "SENTENCE_EXTRACTORS",
    "Block",
    "Mention",
    "Protocol",
    "Sentence",
    "change_claims",
    "extract",
    "find_benchmarks",
    "protocols_in",
    "score_claims",
    "sentence_extractors",
]

# ---------------------------------------------------------------- extraction


Extractor = Callable[[Sentence, "Context"], list[Claim]]

#: Numbers read from one paragraph before the rest of it is left out with a note.
MAX_NUMBERS_PER_PARAGRAPH = 2000


def extract(
    lines: list[str],
    path: str,
    ctx: Context,
    *,
    line_numbers: list[int] | None = None,
    page_of_line: list[int] | None = None,
    tables: list[Table] | None = None,
    markdown: bool = True,
    notes: list[str] | None = None,
) -> tuple[list[Claim], int]:
    """Claims in ``lines`` and how many numbers they contain.

    ``line_numbers[i]`` is the document line of ``lines[i]`` (default
    ``i + 1``), ``page_of_line[i]`` its page. ``tables`` are tables the caller
    found itself (PDF, HTML); pipe tables in ``lines`` are found here.
    ``markdown=False`` keeps indented lines as prose (plain text, PDF). What was not
    read is said in ``notes`` (the reader's, for its source).
    """

    numbers_of = line_numbers or list(range(1, len(lines) + 1))
    page_of = {numbers_of[i]: p for i, p in enumerate(page_of_line or []) if i < len(numbers_of)}
    registry = ctx.benchmarks
    blocks, found_tables = read_blocks(lines, numbers_of, path, page_of, registry, markdown)
    return _claims_of(blocks, [*found_tables, *(tables or [])], path, ctx, notes=notes)


def extract_document(
    doc: Document, ctx: Context, notes: list[str] | None = None
) -> tuple[list[Claim], int, list[Table]]:
    """Claims of a :class:`~benchaudit.documents.model.Document`, how many numbers it holds,
    and its tables as the claim reader sees them."""
    from benchaudit.inputs.premises import own_names

    blocks, all_tables = blocks_from_document(doc, ctx.benchmarks)
    title = next((s.title for s in doc.sections if s.level == 1), "")
    title = title or (doc.sections[0].title if doc.sections else "")
    claims, seen = _claims_of(blocks, all_tables, doc.path, ctx, own_names(title), notes)
    return claims, seen, all_tables


def assign_roles(claims: list[Claim], own: list[str]) -> None:
    """Whose number each claim is: the document's own model, a baseline, or unknown."""
    from benchaudit.inputs.premises import role_of_row, role_of_sentence

    for c in claims:
        if "role" in c.fields:
            continue
        if c.fields.get("table"):
            c.fields["role"] = role_of_row(c.model or "", own)
        else:
            c.fields["role"] = role_of_sentence(c.text, own)


def _claims_of(
    blocks: list[Block],
    all_tables: list[Table],
    path: str,
    ctx: Context,
    own: list[str] | None = None,
    notes: list[str] | None = None,
) -> tuple[list[Claim], int]:
    from benchaudit.inputs import tables as tables_mod

    extractors = sentence_extractors()
    claims: list[Claim] = []
    seen = 0
    most = getattr(ctx.config, "max_paragraph_numbers", None) or MAX_NUMBERS_PER_PARAGRAPH
    document = _DocumentCount()
    sections = SectionBenchmarks()
    for block in blocks:
        sections.enter(block)
        in_block = 0
        paragraph = _ParagraphCount()
        for i, sentence in enumerate(block.sentences):
            seen += sum(1 for n in sentence.numbers if n.kind not in NOT_COUNTED)
            in_block += len(sentence.numbers)
            if in_block > most:
                seen += sum(
                    1 for s in block.sentences[i + 1 :] for n in s.numbers if n.kind not in NOT_COUNTED
                )
                # No paragraph of prose holds this many numbers; reading every one of them
                # would take minutes where a hook has seconds.
                if notes is not None:
                    notes.append(
                        f"{path}:{sentence.line_at(0)}: a paragraph with more than {most:,} "
                        f"numbers; claims were read from its first {most:,} only "
                        "(max-paragraph-numbers)"
                    )
                break
            before = len(claims)
            for fn in extractors:
                claims.extend(fn(sentence, ctx))
            paragraph.read(sentence, claims[before:])
            sections.read(sentence, claims[before:])
            document.read(sentence)
    claims.extend(tables_mod.tables_to_claims(all_tables, path, ctx))
    seen += tables_mod.numbers_in(all_tables)
    doc_fn = _comparisons_attr("extract_document")
    if doc_fn is not None:
        # The document pass may annotate the claims in place and return them, or return new ones.
        known = {id(c) for c in claims}
        claims.extend(c for c in doc_fn(claims, all_tables, ctx) or [] if id(c) not in known)
    sections.apply()
    document.apply(claims)
    _drop_implausible_counts(claims)
    claims.sort(key=lambda c: (c.location.line or 0, c.location.column or 0))
    assign_roles(claims, own or [])
    return claims, seen


_PER_UNIT = re.compile(r"^[^.;,]*?\b(?:for\s+each|for\s+every|per|each|in\s+each|within\s+each|from\s+each)\b", re.I)


class _ParagraphCount:
    """The one item count a paragraph states before its scores ("200 multiple-choice questions
    were entered into 5 LLMs. ... ChatGPT had the highest overall accuracy of 83.5%"): the n of
    the later scores of the paragraph that name no benchmark and state no count of their own.
    A paragraph that states two different counts gives none."""

    def __init__(self) -> None:
        self.n: int | None = None
        self.unsure = False

    def read(self, sentence: Sentence, new: list[Claim]) -> None:
        from benchaudit.finding import Confidence

        if self.n is not None and not self.unsure:
            for c in new:
                if c.kind == "score" and c.n is None and c.benchmark is None and not c.fields.get("table"):
                    c.n, c.n_source = self.n, "text"
                    c.fields["n_where"] = "paragraph"
                    # As a count stated in the score's own sentence with no benchmark named.
                    c.confidence = Confidence.MEDIUM
        counts = _item_counts(sentence)
        if any(n.kind == "items" for n in sentence.numbers) and not counts:
            self.unsure = True
        if len(counts) > 1 or (counts and self.n is not None and counts != {self.n}):
            self.unsure = True
        elif counts:
            self.n = next(iter(counts))


def _item_counts(sentence: Sentence) -> set[int]:
    """The item counts a sentence states, without counts per unit ("10 annotated pairs for each
    label within a given task" counts per label, not the set the scores are on)."""
    text = sentence.text
    return {
        int(n.digits)
        for n in sentence.numbers
        if n.kind == "items" and n.digits.isdigit() and not _PER_UNIT.search(text[n.end : n.end + 40])
    }


#: Nouns of a count that names a test set: "examples", "instances" and "samples" count training
#: data as often as test items, so they name no test set for a whole document.
_TEST_SET_NOUN = re.compile(r"(?:questions?|problems?|items?|prompts?|queries|test[ -]cases?|exercises?)", re.I)


class _DocumentCount:
    """The one test-set size a whole document states ("200 diverse prompts" in the method
    paragraph, "86% vs. 84%" in the results paragraph; "344 items" in Methods, "72.5%" in
    Results): the n of its scores and two-score comparisons that name no benchmark and found no
    count in their own sentence or paragraph. A document stating two different counts, or a
    count of an unnamed kind, gives none."""

    def __init__(self) -> None:
        self.counts: set[int] = set()
        self.unsure = False

    def read(self, sentence: Sentence) -> None:
        items = [n for n in sentence.numbers if n.kind == "items"]
        if not items:
            return
        counts = _item_counts(sentence)
        if not counts or any(not _TEST_SET_NOUN.fullmatch(n.noun or "") for n in items):
            self.unsure = True  # "n = 40" or "500 examples": not sure it is the test set
        self.counts |= counts

    def apply(self, claims: list[Claim]) -> None:
        from benchaudit.finding import Confidence

        if self.unsure or len(self.counts) != 1:
            return
        n = next(iter(self.counts))
        for c in claims:
            if c.n is not None or c.benchmark is not None or c.fields.get("table"):
                continue
            two_scores = c.kind == "comparison" and c.fields.get("a_value") and c.fields.get("b_value")
            if c.kind == "score" or two_scores:
                c.n, c.n_source = n, "document"
                c.fields["n_where"] = "document"
                # As a count from the paragraph: read, not guessed; the premise caps it at a warning.
                c.confidence = max(c.confidence, Confidence.MEDIUM)


#: Largest item count, sample count or k taken from a text. No benchmark has a billion
#: items, and beyond it every score is reachable: a larger "count" is a misread number
#: (an id, a seed), and the interval arithmetic would overflow a float on it.
MAX_COUNT = 10**9


def _drop_implausible_counts(claims: list[Claim]) -> None:
    for c in claims:
        if c.n is not None and not 0 < c.n <= MAX_COUNT:
            c.n, c.n_source = None, None
        if c.samples is not None and not 0 < c.samples <= MAX_COUNT:
            c.samples = None
        k = c.fields.get("k")
        if isinstance(k, int) and not 0 <= k <= MAX_COUNT:
            del c.fields["k"]


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
