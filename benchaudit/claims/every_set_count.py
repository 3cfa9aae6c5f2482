"""One item count a document states for every one of its test sets ("We sample 200 instances
from every test set").

A benchmark's README may say once, far from its tables, how many items each of its evaluation
sets holds; its result tables then head their columns with the sets' own short names ("I1-Inst.",
"I2-Cate."), which no registry knows. Such a sentence gives the count of each column of a table
whose columns name no benchmark and carry no count of their own. The link is inferred, so the
count is used only to test bold leads for noise (never to check a score against a k/n grid), and
the finding says where the count came from.

Only an exact count of items is taken ("nearly 500 test cases from each test set" is not exact),
said of every test or evaluation set (not of a training set), and only when the document states
one such count: two different ones leave every table without.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchaudit.documents.model import Document

_N = r"(?P<n>\d{1,3}(?:,\d{3})+|\d{2,6})"
_UNIT = r"(?:instances|examples|samples|questions|problems|tasks|queries|items|prompts|cases)"
_SET = r"(?:test|evaluation|eval|benchmark)[\s-]*(?:sets?|subsets?|splits?|datasets?)"
#: "200 instances from every test set", "500 questions for each of the evaluation subsets".
_COUNT_FIRST = re.compile(
    r"(?<![\d.,])" + _N + r"\s+(?:[a-z-]+\s+){0,2}?" + _UNIT + r"\s+(?:from|in|of|for|per)\s+"
    r"(?:each|every|all)\s+(?:of\s+)?(?:the\s+|our\s+|these\s+)?(?:[a-z-]+\s+)?" + _SET + r"\b",
    re.I,
)
#: "each test set contains 200 instances", "every evaluation subset has 500 questions".
_SET_FIRST = re.compile(
    r"\b(?:each|every)\s+(?:[a-z-]+\s+)?" + _SET + r"\s+(?:contains|has|consists\s+of|includes|comprises|holds)\s+"
    r"(?:exactly\s+)?" + _N + r"\s+(?:[a-z-]+\s+){0,2}?" + _UNIT + r"\b",
    re.I,
)
#: A hedge before the count: the count is not the sets' own.
_HEDGE = re.compile(r"\b(?:nearly|about|around|approximately|roughly|up\s+to|at\s+most|at\s+least|over|under|~)\s*$", re.I)


@dataclass(frozen=True)
class EverySetCount:
    """The count, the sentence that states it and its line."""

    n: int
    sentence: str
    line: int | None

    def why(self) -> str:
        at = f" at line {self.line}" if self.line is not None else ""
        return (
            f"the count the document states for every test set{at}, \"{self.sentence}\"; taken for "
            "each column of this table, none of which names a benchmark or a count of its own"
        )


def every_set_count(doc: Document) -> EverySetCount | None:
    """The one exact count the document's prose states for each of its test sets, or None."""
    found: list[EverySetCount] = []
    for block in doc.blocks():
        if block.kind in ("code", "heading"):
            continue
        text = " ".join(block.text.split())
        for sentence in re.split(r"(?<=[a-z0-9)\]])\.\s+(?=[A-Z`])", text):
            for pattern in (_COUNT_FIRST, _SET_FIRST):
                for m in pattern.finditer(sentence):
                    if _HEDGE.search(sentence[: m.start("n")]):
                        continue
                    # The clause that states it: a list item's label before a colon is not.
                    head = sentence[: m.start()]
                    said = sentence[head.rfind(": ") + 2 if ": " in head else 0 :].strip().rstrip(".")
                    found.append(EverySetCount(int(m.group("n").replace(",", "")), said[:120], block.line))
    if len({f.n for f in found}) != 1:
        return None
    return found[0]
