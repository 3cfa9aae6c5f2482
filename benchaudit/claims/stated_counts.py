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
    for key, n in _label_counts(doc):
        seen.setdefault(key, set()).add(n)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


#: One count of scored things in a sentence: "210 human-curated problems", "133 distinct coding tasks".
_ONE_COUNT = re.compile(r"(?<![\d.,])" + _COUNT + r"\s+(?:[a-z-]+\s+){0,2}?" + _UNIT + r"\b")
#: A sentence that speaks of the benchmark the sentence before it named.
_ANAPHOR = re.compile(r"^\s*(?:this|the|that)\s+(?:benchmark|dataset|suite|test\s+set)\b", re.I)


#: A programming language labels a benchmark's subset, whose size depends on the benchmark.
_LANGUAGE = re.compile(
    r"(?:python|java|javascript|typescript|php|ruby|rust|swift|kotlin|scala|julia|racket|perl|"
    r"haskell|bash|shell|html|css|sql|lua|c\+\+|c#|cpp|go|golang)$",
    re.I,
)


def _label_name(label: str) -> str:
    """A label's leading capitalised words: "Aider tries=2" -> "Aider"; "SWE-Bench Lite" stays
    whole (it is not "SWE-Bench")."""
    words = re.sub(r"\s*\([^()]*\)", " ", label).split()
    end = next((i for i, w in enumerate(words) if not w[0].isupper() and not w[0].isdigit()), len(words))
    return " ".join(words[:end]).rstrip("'’:,")


def _label_counts(doc: Document) -> list[tuple[str, int]]:
    """Counts for the names the document's tables use as column or row labels.

    A sentence that names one such label (or begins "This benchmark ..." right after a
    sentence that named it) and holds exactly one count of problems, tasks or questions
    gives that label its count: "Aider's code editing benchmark ... completing 133 distinct
    coding tasks". A sentence naming two labels gives none: which one the count is of is a
    guess."""
    labels: dict[str, re.Pattern[str]] = {}
    for table in doc.tables():
        names = [p.strip() for h in table.header() for p in h.split(" / ")]
        names += [r[0].text.strip() for r in table.rows if r]
        for name in names:
            name = _label_name(name)
            if len(fold(name)) < 3 or not name[0].isupper() or _ONE_COUNT.search(name) or _LANGUAGE.match(name):
                continue
            # A name like a benchmark's ("USACO", "Defects4J") counts wherever it stands; a plain
            # word ("Aider", but also "Python", "Average") only as "Aider's code editing benchmark".
            tail = "" if _BENCHMARK_LIKE.search(name) else r"(?:['’]s)?\s+(?:[\w-]+\s+){0,2}?(?:benchmark|dataset|suite)(?![a-z])"
            labels.setdefault(fold(name), re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-]){tail}"))
    if not labels:
        return []
    out = []
    for block in doc.blocks():
        if block.kind in ("code", "heading", "caption"):
            continue
        named_before: list[str] = []
        for sentence in re.split(r"(?<=[a-z0-9)\]])\.\s+(?=[A-Z])", " ".join(block.text.split())):
            named = [k for k, pat in labels.items() if pat.search(sentence)]
            if not named and _ANAPHOR.match(sentence):
                named = named_before
            counts = _ONE_COUNT.findall(sentence)
            if len(named) == 1 and len(counts) == 1:
                out.append((named[0], int(counts[0].replace(",", ""))))
            named_before = named
    return out


def count_for(label: str, counts: dict[str, int]) -> int | None:
    """The stated count of a table label ("USACO", "Defects4J", "LiveCodeBench / USACO")."""
    if not counts:
        return None
    parts = label.split(" / ")
    for text in (parts[-1], label):
        key = fold(re.sub(r"\s*[↑↓]|\s*\([^()]*\)\s*$", "", text))
        if key in counts:
            return counts[key]
    # "Aider tries=2", "MHPP / pass@1": the name before a setting or a metric. Above a subset
    # ("NCB (en) / Python") the name's count is the whole benchmark's, not the column's.
    names = [parts[-1], *parts[:-1]] if _METRIC.match(parts[-1]) else [parts[-1]]
    for text in names:
        key = fold(_label_name(text))
        if len(key) >= 3 and key in counts:
            return counts[key]
    return None


_METRIC = re.compile(r"\s*(?:pass@\d+|acc(?:uracy)?|em|exact match|score|resolved|solved)\s*(?:\(%\))?\s*$", re.I)


# ------------------------------------------------------------ a set's total, named by its kind

#: "1781 objective questions", "1,000 multiple-choice questions": a count of one kind of item,
#: the kind named by the word before the unit. The word is kept: a table headed "Scoring Rate
#: of Objective Questions" is about those items, and each of its columns about a part of them.
_KIND_COUNT = re.compile(
    r"(?<![\d.,])(?P<n>\d{1,3}(?:,\d{3})+|\d{2,6})\s+(?P<kind>[a-z][a-z-]{3,})\s+"
    r"(?P<unit>questions|problems|items|exercises|tasks)\b",
    re.I,
)
#: Kinds of items graded on a scale (by hand or by a judge), not scored right or wrong: a
#: binomial interval would overstate their noise, so no bound is taken from their count.
_GRADED_KIND = re.compile(
    r"^(?:subjective|open-?ended|free-?form|essay|long-?form|writing|creative|generation|"
    r"generative|dialogue|conversational|multi-turn|graded)$",
    re.I,
)
#: Words before a unit that say which or how many, not what kind ("1781 more questions").
_NOT_KIND = frozenset(
    "more other new total different such these those test training train dev validation "
    "sampled selected additional remaining unique distinct".split()
)


def stated_totals(doc: Document) -> dict[str, int]:
    """"objective questions" -> 1781: the one count the document's prose states for a kind of
    item. A kind given two different counts gets none."""
    seen: dict[str, set[int]] = {}
    for block in doc.blocks():
        if block.kind in ("code", "heading"):
            continue
        for m in _KIND_COUNT.finditer(" ".join(block.text.split())):
            kind = m.group("kind")
            # A capitalised word names something ("164 Python tasks" of HumanEval), not a kind of
            # item a table could be framed by.
            if not kind.islower() or kind in _NOT_KIND or _GRADED_KIND.match(kind):
                continue
            key = f"{kind} {m.group('unit').lower()}"
            seen.setdefault(key, set()).add(int(m.group("n").replace(",", "")))
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}
