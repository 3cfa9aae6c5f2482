"""The one benchmark a section's prose names: what "this benchmark" means in a sentence of it.

"The following figure shows that our model attains the second position in this benchmark,
surpassing A (73.2 vs. 67.0)" names no benchmark; the section it sits in ("There are two
HumanEval results of A ...") names one, and that one is the benchmark of its two scores. A
section whose prose names benchmarks of different sizes, or none, gives none: the sentence keeps
no n.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark
    from benchaudit.evidence import Claim
    from benchaudit.inputs.sentences import Block, Sentence

#: A sentence pointing at a benchmark it does not name.
_DEICTIC = re.compile(r"\b(?:this|that|the\s+same)\s+(?:benchmark|leaderboard|test\s+set)\b", re.I)


class SectionBenchmarks:
    """Reads a document's blocks in order; a run of blocks under one heading is a section."""

    def __init__(self) -> None:
        self._heading: str | None = None
        self._section = -1
        self._named: dict[int, dict[str, Benchmark]] = {}
        self._claims: list[tuple[int, Claim]] = []

    def enter(self, block: Block) -> None:
        if block.heading != self._heading or self._section < 0:
            self._heading = block.heading
            self._section += 1
            self._named[self._section] = {}

    def read(self, sentence: Sentence, new: list[Claim]) -> None:
        named = self._named[self._section]
        for m in sentence.mentions:
            named.setdefault(m.benchmark.name, m.benchmark)
        self._claims.extend((self._section, c) for c in new)

    def apply(self) -> None:
        """Give a two-score comparison that says "this benchmark" and has no benchmark or n of
        its own the item count of its section's one benchmark."""
        from benchaudit.finding import Confidence

        for section, c in self._claims:
            f = c.fields
            if c.kind != "comparison" or c.n is not None or c.benchmark is not None:
                continue
            if not (f.get("a_value") and f.get("b_value")) or not _DEICTIC.search(c.text):
                continue
            named = list(self._named.get(section, {}).values())
            counts = {b.n for b in named}
            if not named or len(counts) != 1 or not named[0].n:
                continue
            if len(named) == 1:
                c.benchmark, c.n_source = named[0].name, f"section's benchmark, {named[0].name}"
            else:
                # "HumanEval and HumanEval+": which one is meant is open, its count is not.
                c.n_source = f"section's benchmarks, {' or '.join(b.name for b in named)}, of one size"
            c.n = named[0].n
            # Read from the text around it, not from the sentence: at most a warning.
            c.confidence = min(c.confidence, Confidence.MEDIUM)
