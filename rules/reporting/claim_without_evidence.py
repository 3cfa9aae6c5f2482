"""BA602 claim-without-evidence: a comparison with models the document gives no numbers for."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import CITATION

from benchaudit.claims.access import document_of, score_tables
from benchaudit.claims.evidence_index import evidence_index, spaced_names
from benchaudit.claims.model_claims import NameMention, comparisons, fold, mentioned
from benchaudit.claims.unrivalled import unrivalled
from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreTable
    from benchaudit.documents.model import Document
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

_NUMBER = re.compile(r"\d+(?:\.\d+)?\s*%|\b\d+\.\d+\b")
#: A name that starts with a family word ("Llama2-13B", "GPT-4"); "R1-7B" or "O1-Preview"
#: are too often a short form of a longer name, or the tail of one a line break cut.
_FAMILY = re.compile(r"[A-Za-z]{3,}")
#: "the existing Dense 8B model (Qwen3-8B, Llama3-8B)": a word that describes a kind of model,
#: with a size, names a class (its examples follow), not a model a table should hold.
_KIND = re.compile(r"(?:dense|sparse|moe|base|baseline|small|medium|large|tiny)\b[-\s]*(?:\d+x)?\d", re.I)
_IMAGE = re.compile(r"!\[|<img\b", re.I)
#: Images that decorate rather than report: badges, logos, banners, icons, QR codes.
_DECORATION = re.compile(
    r"shields\.io|badge|logo|banner|icon|avatar|qr[-_]?code|wechat|discord|twitter|star-history", re.I
)
#: "(76.8 vs. 72.6)", "76.8% versus [72.6 and 74.4]": the sentence gives both sides itself.
_NUMBERS_VS = re.compile(r"\d(?:\.\d+)?\s*%?\s*\)?\s*(?:vs\.?|versus)\s*\[?\s*\d", re.I)
_FIGURE = re.compile(r"\b(?:Figure|Fig\.|Figs\.|chart|plot)\s*\d*", re.I)


class ClaimWithoutEvidence(Rule):
    """A sentence compares the model with others that no table or number of the document contains.

    **What.** "X outperforms Y", "surpasses", "is comparable to", "on par
    with", "matches": when a model named in such a sentence appears in none of
    the document's tables and in no other sentence that gives a number, the
    claim has no evidence in the document. The finding names the missing
    models.

    **Why.** A reader cannot check a comparison against numbers that are not
    there; the claim may rest on another report, another version of the
    model, or nothing.

    Bad::

        Our 7B model outperforms Llama2-13B and Falcon-40B.
        | Model | MMLU |
        | Ours  | 61.2 |

    Better::

        Our 7B model outperforms Llama2-13B (54.8) on MMLU (table 2).

    Evidence is a table row or column that holds values, or a sentence that
    states a value beside the model; a table of download links, an API
    example in a code block, or a sentence that only names the model is none.
    A sized name whose family the document holds only at other sizes
    ("Qwen2.5-VL 72B" beside a Qwen2.5-VL-7B row) is another model.

    A claim to be the best ("X achieves state-of-the-art performance across
    11 benchmarks") whose model the tables hold, but only beside its own sizes
    and checkpoints, has nothing in the document to be best against: the
    finding names those tables. A claim limited to a class ("among open-source
    models of similar size") or naming its rivals is not read this way.

    **Assumptions.** Model names are words with a version or size number
    ("Llama2-13B", "GPT-3.5-Turbo", "Claude 3.7 Sonnet"), and Gemini's first
    release, which had none ("Gemini Pro"); other names without one are not
    checked. In a PDF, whose tables may be read in part, any block naming
    the model with a number counts as evidence. A
    section with an image, or a sentence that points at a figure, may show the
    numbers in a chart: there the finding is information.
    """

    code = "BA602"
    name = "claim-without-evidence"
    severity = Severity.WARNING
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        doc = document_of(source)
        if doc is None:
            return
        # A parity clause beside a superiority ("outperforms the state-of-the-art MLLMs, and
        # even achieves performance on par with LLaVA-13B") names rivals of its own that the
        # first verb's reading hides.
        found = comparisons(doc, clauses=True)
        if not found:
            return
        raw = source.lines or []
        index = None if doc.format == "pdf" else evidence_index(doc)
        tables = score_tables(source, ctx)
        said: set[tuple[int, int, str]] = set()
        for comp in found:
            if comp.kind == "best":
                yield from self._unrivalled(source, doc, comp, tables, raw)
                continue
            objects = [_with_size(comp.sentence, n) for n in (*comp.objects, *_spaced_objects(comp))]
            names = [n for n in (*comp.subjects, *objects) if not ctx.benchmarks.get(n.text)]
            if not objects or comp.kind == "best" or _NUMBERS_VS.search(comp.sentence):
                continue
            if CITATION.search(comp.sentence):
                continue
            haystack = _evidence(doc, comp.sentence) if index is None else ""
            missing = [
                n.text
                for n in names
                if _FAMILY.match(n.text)
                and not _KIND.match(n.text)
                and not (mentioned(n.text, haystack) if index is None else index.holds(n.text, comp.sentence))
                and not _number_after(comp.sentence, n.end)
            ]
            missing = list(dict.fromkeys(missing))
            # A name both clauses of one sentence hold is reported once.
            missing = [n for n in missing if (id(comp.block), comp.offset, fold(n)) not in said]
            said.update((id(comp.block), comp.offset, fold(n)) for n in missing)
            if not missing:
                continue
            # "Llama3-8B" beside a "LLaMA 3.1 8B" row: another release of the family at the same
            # size, perhaps the model meant. Not evidence-free for sure: say so, at info.
            near = {n: index.near(n, comp.sentence) for n in missing} if index is not None else {}
            versions = {n: r for n, r in near.items() if r}
            missing = [n for n in missing if n not in versions]
            chart = _section_has_image(doc, comp.block, raw) or bool(_FIGURE.search(comp.sentence))
            what = ", ".join(missing or list(versions))
            if missing:
                message = (
                    f"the sentence compares with {what}, but no table or number of the document "
                    f"contains {'it' if len(missing) == 1 else 'them'}"
                )
            else:
                message = f"the sentence compares with {what}, which no table or number of the document names as written"
            if versions:
                message += "; " + "; ".join(
                    f"the document gives numbers for {r}, another version of the family at the same "
                    f"size: if {n} means that model, write it as the table does"
                    for n, r in versions.items()
                )
            yield self.finding(
                Location(source.path, comp.line, None, comp.page),
                message + ("; a figure the text points to may show them" if chart else ""),
                claim=comp.sentence,
                suggestion=(
                    f"Give the scores of {what} that the comparison rests on (benchmark, value, "
                    "source), or cite where they are reported"
                ),
                evidence={"missing": missing, "other_version": versions, "verb": comp.verb},
                severity=Severity.INFO if chart or not missing else Severity.WARNING,
                confidence=Confidence.MEDIUM,
            )


    def _unrivalled(
        self, source: Source, doc: Document, comp: ModelComparison, tables: list[ScoreTable], raw: list[str]
    ) -> Iterable[Finding]:
        """A claim to be the best beside tables that hold no model but its own."""
        holding = unrivalled(comp, tables)
        if not holding or CITATION.search(comp.sentence):
            return
        chart = _section_has_image(doc, comp.block, raw) or bool(_FIGURE.search(comp.sentence))
        where = ", ".join(f"line {st.table.line}" if st.table.page is None else f"page {st.table.page}" for st in holding)
        yield self.finding(
            Location(source.path, comp.line, None, comp.page),
            f"'{comp.verb}' claims a lead over other models, but the tables that hold its model "
            f"({where}) hold no other model to compare with"
            + ("; a figure the text points to may show them" if chart else ""),
            claim=comp.sentence,
            suggestion="Give the scores of the models it is best against (benchmark, value, source), "
            "or cite where they are reported",
            evidence={"tables": [st.table.line for st in holding], "verb": comp.verb},
            severity=Severity.INFO if chart else Severity.WARNING,
            confidence=Confidence.MEDIUM,
        )


_SIZE_AFTER = re.compile(r"\s+(?:\d+x)?\d+(?:\.\d+)?[BM]\b")


def _with_size(sentence: str, n: NameMention) -> NameMention:
    """ "Qwen2.5-VL 72B": the size written after the name is part of it (another size of the
    family is another model)."""
    m = _SIZE_AFTER.match(sentence, n.end)
    return NameMention(n.start, m.end(), sentence[n.start : m.end()]) if m else n


def _spaced_objects(comp: ModelComparison) -> list[NameMention]:
    """Rivals written with spaces ("outperforms Claude 3.7 Sonnet", "on par with ChatGPT") in
    the verb's clause, that the comparison's own names do not already cover."""
    start = comp.verb_at + len(comp.verb)
    taken = [(n.start, n.end) for n in (*comp.subjects, *comp.objects)]
    return [
        NameMention(m.start(), m.end(), m.group(0))
        for m in spaced_names(comp.scope)
        if m.start() >= start and not any(a < m.end() and m.start() < b for a, b in taken)
    ]


def _evidence(doc: Document, claim_sentence: str) -> str:
    parts: list[str] = []
    for table in doc.tables():
        parts.extend(c.text for row in [*table.header_rows, *table.rows] for c in row)
    for block in doc.blocks():
        text = block.text
        if _NUMBER.search(text.replace(claim_sentence, "")):
            parts.append(text.replace(claim_sentence, ""))
    return fold(" ".join(parts))


def _section_has_image(doc: Document, block: Any, raw: list[str]) -> bool:
    section = block.section
    if not raw:
        return False
    lines = [b.line for b in doc.blocks() if b.section is section and b.line]
    start = section.line if section is not None else 1
    end = max(lines, default=start)
    # An <img> tag may spread its attributes over the lines after it.
    return any(
        _IMAGE.search(raw[i - 1]) and not _DECORATION.search(" ".join(raw[i - 1 : i + 3]))
        for i in range(max(1, start), min(len(raw), end + 5) + 1)
    )


def _number_after(sentence: str, end: int) -> bool:
    """ "Llama2-13B (54.8)", "Llama2-13B: 54.8%": the sentence gives the number itself."""
    return re.match(r"\s*[(:=]?\s*\(?\s*\d+(?:\.\d+)?", sentence[end:]) is not None
