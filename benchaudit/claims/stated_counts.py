"""Item counts a document states for benchmarks its tables report ("USACO has 307 problems").

A table column of a benchmark the registry does not know has no item count, so neither a
reachability nor a noise check can run on it. Papers often say the count in the prose that
introduces the benchmark. Only counts of things scored pass/fail one by one (problems,
questions, tasks, bugs, exercises, issues) are taken, and a name given two different counts in
one document gets none: an unsure count is worse than none.
"""

from __future__ import annotations

import re

from benchaudit.claims.model_claims import fold
from benchaudit.documents.model import Document

_UNIT = r"(?:coding\s+|programming\s+|math\s+|competition\s+|multiple-choice\s+)?(?:problems|questions|tasks|bugs|exercises|issues)"
_COUNT = r"(?P<n>\d{1,3}(?:,\d{3})+|\d{2,6})"
_NAME = r"(?P<name>[A-Z][\w.+-]*[\w+](?:\s(?:[A-Z0-9][\w.+-]*|v\d[\w.]*)){0,2})"
_CITE = r"(?:\s*\[[\d,\s–-]+\])?(?:\s*\([^()]{0,40}\))?"

#: "USACO [12] consists of 307 problems", "Aider, which contains 133 tasks".
_NAME_FIRST = re.compile(
    _NAME + _CITE + r"(?:\s+(?:benchmark|dataset|suite|set|split))?" + _CITE
    + r",?\s+(?:which\s+|that\s+)?(?:consists\s+of|contains|comprises|includes|has|covers)\s+"
    r"(?:a\s+total\s+of\s+|exactly\s+|only\s+)?" + _COUNT + r"\s+(?:[a-z-]+\s+){0,2}?" + _UNIT + r"\b"
)
#: "307 problems from USACO", "the 238 bugs in Defects4J".
_COUNT_FIRST = re.compile(
    r"(?<![\d.,])" + _COUNT + r"\s+(?:[a-z-]+\s+){0,2}?" + _UNIT + r"\s+(?:from|in|of)\s+(?:the\s+)?" + _NAME
)


#: A benchmark's name, not an ordinary word ("USACO", "LeetCode", "Defects4J"; not "Python").
_BENCHMARK_LIKE = re.compile(r"^[A-Z](?=.*[A-Z0-9])")


def stated_counts(doc: Document) -> dict[str, int]:
    """Folded benchmark name -> the one item count the document's prose states for it."""
    seen: dict[str, set[int]] = {}
    for block in doc.blocks():
        if block.kind in ("code", "heading"):
            continue
        text = " ".join(block.text.split())
        for pattern in (_NAME_FIRST, _COUNT_FIRST):
            for m in pattern.finditer(text):
                n = int(m.group("n").replace(",", ""))
                # "USA Computing Olympiad (USACO) has 307 problems": the abbreviation names it too.
                abbrev = re.match(r"\s*\(([A-Z][\w.+-]{1,15})\)", text[m.end("name") :])
                for name in (m.group("name"), abbrev.group(1) if abbrev else ""):
                    key = fold(name)
                    if len(key) >= 3 and _BENCHMARK_LIKE.search(name):
                        seen.setdefault(key, set()).add(n)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def count_for(label: str, counts: dict[str, int]) -> int | None:
    """The stated count of a table label ("USACO", "Defects4J", "LiveCodeBench / USACO")."""
    if not counts:
        return None
    last = label.split(" / ")[-1]
    for text in (last, label):
        key = fold(re.sub(r"\s*[↑↓]|\s*\([^()]*\)\s*$", "", text))
        if key in counts:
            return counts[key]
    return None
