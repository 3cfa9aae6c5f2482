"""Sentences that compare models ("X outperforms Y", "comparable to Z") and the models they name.

A comparison in prose is a claim about rows of the document's tables. This
module finds the comparative verb, the model names before and after it, and
resolves those names against the models the tables contain, so that rules
can check the claim benchmark by benchmark, or say that the document holds no
evidence for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchaudit.documents.model import Block, Document

_SUPERIOR = re.compile(
    r"\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beat(?:s|ing)?|exceed(?:s|ed|ing)?|"
    r"(?:is|are|was|were)\s+(?:significantly\s+|substantially\s+|much\s+)?better\s+than|"
    r"superior\s+(?:performance\s+)?(?:to|compared\s+(?:to|with)|over))\b",
    re.I,
)
_EQUIVALENT = re.compile(
    r"\b(?:comparable\s+(?:performance\s+)?(?:to|with)|on\s+par\s+with|competitive\s+with|"
    r"perform(?:s|ed|ing)?\s+similarly\s+to|similar\s+performance\s+(?:to|with)|"
    r"match(?:es|ing)?\s+the\s+performance\s+of)\b",
    re.I,
)
#: Sections whose text cites or thanks rather than claims.
_NOT_CLAIMS = re.compile(r"^\W*(?:\d+(?:\.\d+)*\s*)?(?:references|bibliography|acknowledg\w*|citation)\b", re.I)


def in_claim_free_section(block: Block) -> bool:
    """A block under References, Bibliography or Acknowledgements."""
    section = block.section
    return section is not None and any(_NOT_CLAIMS.match(s.title) for s in section.path())
#: A model name: a capitalised word with a digit in it or after it ("Llama2-13B",
#: "GPT-3.5-Turbo-0125", "Phi-3.5-mini-instruct", "Qwen2.5 72B", "MPT-30B").
_MODEL = re.compile(
    r"(?<![\w.-])(?:[A-Z][A-Za-z]*|[a-z]+[A-Z][A-Za-z]*)(?:-[A-Z][A-Za-z]*)*(?:[-\s.]?[vo]?\d[\w.]*)"
    r"(?:-[A-Za-z0-9.]+)*(?![\w-])"
)
_GENERIC = re.compile(r"^(?:Our|The|This|These|Its|Their|An?|Each|All|Both|Only|Over|Top|Table|Figure|Fig|Section|Sec|Appendix|Step|Version|Top|Rank|Pass|Avg|Top-\d)\b", re.I)
_BENCHMARK_LIKE = re.compile(r"[A-Z]{2,}[-\s]?(?:'|20)?\d{2}")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
_ACROSS = re.compile(
    r"\b(?:across|all|every|most|various|multiple|many|several|a\s+(?:wide\s+)?range\s+of|majority)\b", re.I
)
_SUFFIXES = re.compile(r"(?:instruct|inst|chat|base|preview|it|sft|rl|hf)$")


@dataclass(frozen=True)
class NameMention:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class ModelComparison:
    """One comparative sentence: ``subject`` verb ``objects``."""

    block: Block
    sentence: str
    offset: int  # where the sentence starts in the block's text
    kind: str  # "superior" or "equivalent"
    verb: str
    verb_at: int
    subjects: tuple[NameMention, ...]
    objects: tuple[NameMention, ...]
    general: bool  # "across benchmarks", "on all tasks": a claim about every benchmark

    @property
    def line(self) -> int | None:
        return line_of(self.block, self.offset + self.verb_at)


def fold(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def core(name: str) -> str:
    """A model name folded, without "instruct", "chat" or a trailing date code."""
    folded = fold(name)
    folded = re.sub(r"(?:20\d\d)?\d{4}$", "", folded) if re.search(r"[a-z]\d*\d{4}$", folded) else folded
    return _SUFFIXES.sub("", folded) or folded


def model_names(text: str) -> list[NameMention]:
    out = []
    for m in _MODEL.finditer(text):
        name = m.group(0).strip().rstrip(".,;:")
        if _BENCHMARK_LIKE.fullmatch(name):
            continue  # "AIME24", "IOI24", "AMC23": a benchmark and its year, not a model
        if _GENERIC.match(name) or re.fullmatch(r"[A-Z]?\d[\w.]*", name) or len(fold(name)) < 4:
            continue
        if re.fullmatch(r"[A-Z][a-z]+\s\d+(?:\.\d+)?", name) and not re.search(r"\d[BbMmKk]\b", name):
            continue  # "Table 3", "Llama 3" stays; "Section 2" gone; ambiguous: keep only with a size
        out.append(NameMention(m.start(), m.end(), name))
    return out


def line_of(block: Block, offset: int) -> int | None:
    """The document line of a character offset in ``block.text``."""
    pos = 0
    for t in block.lines:
        text = " ".join(t.text.split())
        if not text:
            continue
        if offset <= pos + len(text):
            return t.line
        pos += len(text) + 1
    return block.line


def comparisons(doc: Document) -> list[ModelComparison]:
    out: list[ModelComparison] = []
    for block in doc.blocks():
        if block.kind in ("code", "heading", "caption") or in_claim_free_section(block):
            continue
        text = block.text
        pos = 0
        for sentence in _SPLIT.split(text):
            offset = text.find(sentence, pos)
            pos = offset + len(sentence)
            for kind, pattern in (("superior", _SUPERIOR), ("equivalent", _EQUIVALENT)):
                m = pattern.search(sentence)
                if not m:
                    continue
                names = model_names(sentence)
                subjects = tuple(n for n in names if n.end <= m.start())
                objects = tuple(n for n in names if n.start >= m.end())
                out.append(
                    ModelComparison(
                        block, sentence, offset, kind, m.group(0), m.start(), subjects, objects,
                        bool(_ACROSS.search(sentence[m.end():])),
                    )
                )
                break
    return out


def resolve(name: str, models: list[str]) -> str | None:
    """The table model a prose name refers to, when exactly one fits."""
    want = core(name)
    if len(want) < 4:
        return None
    exact = [m for m in models if core(m) == want]
    if len(exact) == 1:
        return exact[0]
    if exact:
        return None
    loose = [m for m in models if want in fold(m) or core(m) in fold(name)]
    loose = [m for m in loose if len(core(m)) >= 4]
    return loose[0] if len(loose) == 1 else None


def mentioned(name: str, haystack: str) -> bool:
    """Whether a model name occurs in folded text, with or without "instruct", "preview" ..."""
    keys = {k for k in (fold(name), core(name)) if len(k) >= 2}
    # A short core ("o1" of "O1-Preview") only counts as itself, never inside a longer word.
    if any(k in haystack for k in keys if len(k) >= 4) or fold(name) in haystack:
        return True
    # An abbreviated name ("GShard 2B" for a "GShard" column, "Qwen-235B" for
    # "Qwen3-235B-A22B"): its family word is enough, so a doubtful miss is not reported.
    stem = re.match(r"[A-Za-z]{4,}", name)
    return stem is not None and stem.group(0).lower() in haystack
