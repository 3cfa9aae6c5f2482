"""Splits of the benchmark a document is about, named by a heading word alone ("### Airline").

A benchmark's own README often heads each of its tables with a bare split name: "### Airline"
and "### Retail" under the tau-bench leaderboard, where the registry knows "TAU-bench Airline"
(50 tasks) and "TAU-bench Retail" (115). The word alone names nothing (an "Airline" heading in
another document is no benchmark's), so it is read as the split only when the document itself
is about the benchmark family: its first heading names the family, or the repository it tells
the reader to clone (its first ``git clone``, the document's own) is named for it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from benchaudit.benchmarks import fold

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark, Registry
    from benchaudit.documents.model import Document, Table

#: "git clone https://github.com/sierra-research/tau-bench": the repository's name.
_CLONE = re.compile(r"\bgit\s+clone\s+(?:-\S+\s+)*\S*?/([\w.-]+?)(?:\.git)?(?=[\s&;|]|$)", re.M)
#: Words a split's heading may carry beside the split's name ("Retail leaderboard").
_FILLER = frozenset(
    "results result leaderboard leaderboards domain domains split subset set benchmark performance "
    "scores on the of in for".split()
)
#: A short lead-in or caption speaks for the table; a longer one may name a word in passing.
_SHORT = 8


def _families(registry: Registry) -> set[str]:
    """Folded family names: each registry name of two or more words without its last word
    ("TAU-bench" of "TAU-bench Airline", "SWE-bench" of "SWE-bench Verified")."""
    out = set()
    for b in registry.entries:
        words = b.name.split()
        if len(words) > 1:
            out.add(fold(" ".join(words[:-1])))
    return {f for f in out if len(f) >= 4}


def _named(text: str, families: set[str]) -> set[str]:
    """The families a text names as one to three whole words ("tau-bench", "SWE bench")."""
    words = re.findall(r"[\w.+-]+", text)
    found = set()
    for i in range(len(words)):
        for j in range(i + 1, min(i + 3, len(words)) + 1):
            key = fold(" ".join(words[i:j]))
            if key in families:
                found.add(key)
    return found


def document_families(doc: Document, registry: Registry) -> frozenset[str]:
    """Folded names of the benchmark families the document is about: those its first heading
    or the name of the repository it first clones names."""
    families = _families(registry)
    texts = [doc.sections[0].title] if doc.sections else []
    for block in doc.blocks():
        m = _CLONE.search(block.text)
        if m:
            texts.append(m.group(1))
            break
    return frozenset(k for t in texts for k in _named(t, families))


def split_named(table: Table, about: frozenset[str], registry: Registry) -> Benchmark | None:
    """The split of a family the document is about that the table's heading, caption or short
    lead-in names by its bare name ("Airline" under a tau-bench README), else None. The text
    must be the split's name and nothing else but filler ("Retail leaderboard"); two families
    with such a split leave it unread."""
    if not about:
        return None
    texts = [table.section.title if table.section else ""]
    texts += [b.text for b in (table.caption, table.lead_in) if b is not None and len(b.text.split()) <= _SHORT]
    for text in texts:
        words = [w for w in re.findall(r"[\w.+-]+", text) if w.lower() not in _FILLER]
        if not words or len(words) > 3:
            continue
        found = {}
        for family in about:
            b = registry.get(f"{family} {' '.join(words)}")
            if b is not None and fold(b.name).startswith(family) and not b.variant:
                found[b.name] = b
        if len(found) == 1:
            return next(iter(found.values()))
    return None
