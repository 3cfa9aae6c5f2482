"""What a document gives numbers for: the names its tables and its prose hold a score beside.

A comparison in prose ("X outperforms Y") has evidence in the document when a
table has a row or column for Y that holds values, or a sentence states a
score next to Y. A table of download links or context lengths, a code example
that passes ``"model": "gpt-3.5-turbo"`` to an API, or another sentence that
merely names Y ("like GPT-4o-latest and Gemini 2.5") is no such evidence.

The index is built for text documents (Markdown, HTML), whose tables are read
whole. A PDF reading can lose a table's structure, so for PDFs every block that
names a model with a digit in it counts (the caller keeps that reading).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchaudit.claims.model_claims import fold
from benchaudit.documents.model import Document, Table

#: A value a table cell or a sentence gives as a result: a decimal, a percentage, a fraction
#: ("2/30"), a rating ("1250"); a size ("7B"), a context length ("128K") or a year is none.
_VALUE = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)?\s*%?(?![\w.]*[A-Za-z])")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
#: A word holding both letters and digits ("GPT-4o", "Qwen2.5-VL", "8B", "GSM8K", "v1.5"): a
#: name, size or version, not a value.
_NAMEISH = re.compile(r"[\w.+-]*[A-Za-z][\w.+-]*\d[\w.+-]*|[\w.+-]*\d[\w.+-]*[A-Za-z][\w.+-]*")
#: Families whose versions are written after a space ("Gemini 2.5", "Claude 3.7 Sonnet",
#: "Llama 3"): the version is part of the name, not a score.
_SPACED_VERSION = re.compile(
    r"\b(?:Gemini|Claude|Llama|LLaMA|Qwen|GPT|ChatGPT|Mistral|Gemma|Phi|Yi|Falcon|DeepSeek|"
    r"InternLM|InternVL|GLM|Grok|Kimi|MiniCPM|Baichuan|Mixtral|Command|Jamba|Nemotron)"
    r"\s+v?\d+(?:\.\d+)*\b",
    re.I,
)
#: A model written as family, version, size and variant with spaces ("Claude 3.7 Sonnet",
#: "Llama 3 8B Instruct", "Gemini 2.0 Pro"), or "ChatGPT": names the digit-bearing name
#: pattern of :mod:`benchaudit.claims.model_claims` leaves out.
_SPACED_NAME = re.compile(
    _SPACED_VERSION.pattern
    + r"(?:[-\s]+(?:\d+(?:\.\d+)?[BM]|Sonnet|Opus|Haiku|Pro|Flash|Ultra|Turbo|Instruct|Chat|Mini|Max|Plus)\b)*"
    + r"|\bChatGPT\b(?![-\s]*\d)"
    # Gemini's first release had no version number: "Gemini Pro", "Gemini Ultra", "Gemini Nano".
    + r"|\bGemini[-\s]+(?:Pro|Ultra|Nano)\b(?![-\s]*\d)",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
#: A size in a model's name ("-7B", " 72B", "8x7B"), folded ("7b", "8x7b").
_SIZE = re.compile(r"(?<![\w.])(?:\d+x)?\d+(?:\.\d+)?\s*[BbMm](?![A-Za-z])")


def spaced_names(text: str) -> list[re.Match[str]]:
    """The spaced model names of a text (see ``_SPACED_NAME``)."""
    return list(_SPACED_NAME.finditer(text))


def gives_value(text: str) -> bool:
    """Whether a text states a value once names, sizes, versions and years are taken out; a
    power of two from 512 up is a context length or a batch size, not a result."""
    masked = _NAMEISH.sub(" ", _SPACED_VERSION.sub(" ", text))
    for m in _VALUE.finditer(masked):
        digits = m.group(0).strip("+-% ")
        if _YEAR.match(digits):
            continue
        if digits.isdigit() and "%" not in m.group(0):
            if int(digits) >= 512 and int(digits) & (int(digits) - 1) == 0:
                continue
            if _COUNTED.match(masked, m.end()):
                continue  # "more than 30 languages", "on 16 benchmarks": a count of things
        return True
    return False


#: A lower-case word after an integer: what it counts ("30 languages"), unless it is a unit of
#: score ("67 points") or a joining word ("67 on MMLU").
_COUNTED = re.compile(r"\s+(?!(?:points?|pts|pp|on|in|at|and|or|vs|versus|to|for|with|over|than)\b)[a-z]{2,}")


@dataclass(frozen=True)
class EvidenceIndex:
    """The folded labels of table rows and columns that hold values (parts separated by
    ``|``), and the sentences that state a value, as written and folded."""

    tables: str
    prose: tuple[tuple[str, str], ...]
    #: The same table labels as written (folding glues "LLaMA 3.1 8B" into "llama318b", which
    #: reads as a family "llama3" at size 18B).
    labels: tuple[str, ...] = ()

    def holds(self, name: str, skip: str = "") -> bool:
        """Whether the document gives a number for the model ``name`` outside the sentence
        ``skip`` (the claim itself).

        A name with a size ("Qwen2.5-VL 72B", "Eurus-7B") whose family the document holds only
        at other sizes ("Qwen2.5-VL-7B", "Eurus-70B") is another model: no evidence. Otherwise
        a name counts as held when it, or its family word, occurs (a doubtful miss is no miss).
        """
        parts = [folded for raw, folded in self.prose if not skip or (raw not in skip and skip not in raw)]
        text = "|".join([self.tables, *parts])
        keys = {k for k in (fold(name), fold(_TAIL.sub("", name))) if len(k) >= 4}
        if any(k in text for k in keys):
            return True
        sized = family_sizes(name, text)
        if sized is not None:
            return sized
        return _family_held(name, text)


    def near(self, name: str, skip: str = "") -> str | None:
        """A label the document gives a number for that names the same family at the same size
        under a neighbouring version ("LLaMA 3.1 8B" for "Llama3-8B"): perhaps the model meant,
        perhaps not (3 and 3.1 are two releases). None when there is no such label, or when
        the name itself is held as written."""
        want = versioned(name)
        if want is None:
            return None
        family, version, size = want
        texts = [*self.labels, *(raw for raw, _ in self.prose if not skip or (raw not in skip and skip not in raw))]
        pattern = re.compile(
            rf"(?<![A-Za-z]){re.escape(family)}[-\s]?v?(\d+(?:\.\d+)*)[-\s_]+((?:\d+x)?\d+(?:\.\d+)?[BM])\b",
            re.I,
        )
        for text in texts:
            for m in pattern.finditer(text):
                other, at = m.group(1), m.group(2).upper()
                if at != size:
                    continue
                if other == version:
                    return None  # the same model, written with spaces: held
                if other.startswith(version + ".") or version.startswith(other + "."):
                    return m.group(0)
        return None


#: "Llama3-8B", "LLaMA 3.1 8B", "Qwen2.5-7B": a family word, a version and a size.
_VERSIONED = re.compile(
    r"^(?P<family>[A-Za-z]{3,}?)[-\s]?v?(?P<version>\d+(?:\.\d+)*)[-\s_]+(?P<size>(?:\d+x)?\d+(?:\.\d+)?[BbMm])$"
)


def versioned(name: str) -> tuple[str, str, str] | None:
    """(family, version, size) of a name written as family, version and size, else None."""
    m = _VERSIONED.match(name.strip())
    if m is None:
        return None
    return m.group("family"), m.group("version"), m.group("size").upper()


#: A tail some spellings of a model's name drop ("-Instruct", " Chat").
_TAIL = re.compile(r"[-\s](?:instruct|chat|it)$", re.I)


def family_sizes(name: str, text: str) -> bool | None:
    """For a sized name ("Eurus-7B"): False when every occurrence of its family ("eurus") in
    the folded ``text`` is followed by another size ("eurus70b"), True when one is followed by
    no size or by this one (perhaps the same model), None when the family does not occur."""
    m = _SIZE.search(name)
    if m is None:
        return None
    family, size = fold(name[: m.start()]), fold(m.group(0))
    if len(family) < 4:
        return None
    seen: bool | None = None
    for hit in re.finditer(re.escape(family), text):
        # A size right after the family ("eurus70b"); a longer run of digits is a version or
        # date code folded into the size ("openchat3501067b"): no telling which model it is.
        other = re.match(r"(?:\d{1,3}x)?\d{1,3}(?:b|m(?![a-z]))", text[hit.end() :])
        if other is None or other.group(0) == size:
            return True
        seen = False
    return seen


def _family_held(name: str, text: str) -> bool:
    """An abbreviated or re-spelled name ("GShard 2B" for a "GShard" column, "Qwen-235B" for
    "Qwen3-235B-A22B"): its family word is a label of its own, or is followed, within the same
    label, by the name's size. A family word inside other names ("llama" of "CodeLlama-34B") is
    no evidence for "Llama3.1-8B"."""
    stem = re.match(r"[A-Za-z]{4,}", name)
    if stem is None:
        return False
    word = stem.group(0).lower()
    size = _SIZE.search(name)
    parts = text.split("|")
    if word in parts:
        return True
    if size is None:
        return any(p.startswith(word) and not p[len(word) : len(word) + 1].isdigit() for p in parts)
    want = fold(size.group(0))
    return any(re.search(rf"{word}[a-z0-9]*?(?<![0-9]){re.escape(want)}", p) for p in parts)


def evidence_index(doc: Document) -> EvidenceIndex:
    """The evidence of a text document (see :class:`EvidenceIndex`)."""
    tables = [_table_labels(t) for t in doc.tables()]
    labels = tuple(label for t in doc.tables() for label in _table_labels(t, folded=False).split("|"))
    prose: list[tuple[str, str]] = []
    for block in doc.blocks():
        # In a code block only a line naming a model beside a value (a results listing)
        # counts; an API example ("model": "gpt-3.5-turbo") or a command line gives none.
        parts = [t.text for t in block.lines] if block.kind == "code" else _SENTENCE.split(block.text)
        prose.extend((p, fold(p)) for p in parts if gives_value(p))
    return EvidenceIndex("|".join(t for t in tables if t), tuple(prose), labels)


def _table_labels(table: Table, folded: bool = True) -> str:
    """The folded text (or, with ``folded`` False, the text) of a table's header and of its
    rows that hold a value, when any of its body cells holds one (a table of download links
    holds none)."""
    rows = [r for r in table.rows if any(gives_value(c.text) for c in r)]
    if not rows:
        return ""
    cells = [c.text for r in (*table.header_rows, *rows) for c in r]
    return "|".join(fold(c) if folded else c.strip() for c in cells if c.strip())
