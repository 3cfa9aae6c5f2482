"""Which lines of a table a prose claim about models speaks of: the benchmarks its own
clause names, the groups or domains it names, the values it quotes, or every line for a
claim about results overall.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark, Registry
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreLine, ScoreTable


def benchmark_keys(text: str, registry: Registry) -> set[str]:
    """The benchmarks a text names: a variant as "name#variant" ("CRUXEval-I" is CRUXEval's
    input variant only), a bare name as itself (every variant)."""
    from benchaudit.inputs.sentences import find_benchmarks

    return {
        m.benchmark.name + (f"#{m.benchmark.variant}" if m.benchmark.variant else "")
        for m in find_benchmarks(text, registry)
    }


def names_benchmark(bench: Benchmark, named: set[str]) -> bool:
    """Whether a line's benchmark is one of ``named`` (see :func:`benchmark_keys`)."""
    return bench.name in named or (bool(bench.variant) and f"{bench.name}#{bench.variant}" in named)


#: A label that is a name ("MHPP", "HumanEval+", "GSM8K"), not an ordinary word.
_LABEL_NAME = re.compile(r"[A-Z].*[A-Z0-9]|\d")


_OVERALL = re.compile(r"\boverall\b|\bacross\b|\ball\s+(?:the\s+)?(?:benchmarks|tasks|metrics)\b", re.I)


def lines_claimed(
    comp: ModelComparison, st: ScoreTable, named: set[str], family: set[str] | None = None
) -> list[ScoreLine]:
    """The lines of a table a claim is about: those it names (a registry benchmark, or the
    line's own label when that is a name, not a word like "Other"), those where the subject's
    cell is a value the sentence quotes, else every line when it speaks of results overall."""
    from benchaudit.claims.model_claims import fold

    text = fold(comp.scope)

    def names_line(line: ScoreLine) -> bool:
        if line.benchmark is not None and names_benchmark(line.benchmark, named):
            return True
        label = line.label.split(" / ")[-1].strip()
        if _LABEL_NAME.search(label) and len(fold(label)) >= 3 and fold(label) in text and _spelled(label, comp.scope):
            return True
        # "outperforms Y on Aider" for a line labelled "Aider-Polyglot (Acc.)": the label's
        # leading name, as a word of the clause.
        head = re.match(r"[A-Z][A-Za-z]{3,}(?=[-\s(]|$)", label)
        # A word of the clause, not a piece of a hyphenated name ("Code" in "Granite-20B-Code").
        return head is not None and re.search(rf"(?<![\w-]){head.group(0)}(?![\w-])", comp.scope) is not None

    quoted = quoted_lines(comp, st, family or set(), named)
    if quoted:
        return quoted  # the cells the sentence quotes are the lines it speaks of
    # Two-level lines ("TypeScript / Code ES"): when the clause names some of the upper
    # labels ("on Python, Java and C#"), the lines under those are claimed, the rest are not.
    grouped = groups_named(comp, st)
    # The same for the domains a table of benchmark rows files them under ("across math and
    # code tasks" and a Category column "Math", "Code"): the lines of the domains named.
    sections = sections_named(comp, st)
    if grouped:
        picked = grouped
    elif sections:
        picked = sections
    else:
        picked = [line for line in st.lines if names_line(line)]
    if picked:
        return picked
    return list(st.lines) if comp.general or _OVERALL.search(comp.sentence) else []


def _spelled(label: str, text: str) -> bool:
    """Whether ``text`` spells ``label`` as whole words, however it is hyphenated or spaced
    ("Human-Eval+" for "HumanEval+"); never inside a longer word ("MATH" in "mathematical")."""
    from benchaudit.claims.model_claims import fold

    want = fold(label)
    words = [fold(w) for w in re.split(r"[\s,;:()/]+", text)]
    for i in range(len(words)):
        joined = ""
        for w in words[i : i + 4]:
            joined += w
            if joined == want:
                return True
            if len(joined) >= len(want):
                break
    return False


def sections_named(comp: ModelComparison, st: ScoreTable) -> list[ScoreLine]:
    """The lines filed under the domains the claim's clause names ("across math, code and
    reasoning tasks" and a Category column "Math", "Code"), or none."""
    named = {
        line.section for line in st.lines if len(line.section) >= 3 and _names_word(line.section, comp.scope, True)
    }
    return [line for line in st.lines if line.section in named]


def _upper(label: str) -> str:
    """The upper level of a two-level line label ("TypeScript" of "TypeScript / Code ES")."""
    parts = label.split(" / ")
    return parts[0].strip() if len(parts) > 1 else ""


def groups_named(comp: ModelComparison, st: ScoreTable) -> list[ScoreLine]:
    """The lines under the upper labels of two-level lines that the claim's clause names
    ("on Python, Java and C#", "beats Y in reasoning"), or none."""
    groups = {g for line in st.lines if (g := _upper(line.label)) and len(g) >= 2 and _names_group(g, comp.scope)}
    return [line for line in st.lines if _upper(line.label) in groups]


def _names_group(word: str, text: str) -> bool:
    """Whether the clause names an upper label: as written ("on Python and Java"), or in any
    case right after a preposition ("beats Y in reasoning" for a group "Reasoning")."""
    if _names_word(word, text):
        return True
    return re.search(rf"\b(?:in|on|at)\s+(?:the\s+)?{re.escape(word)}(?![\w+#-])", text, re.I) is not None


def _names_word(word: str, text: str, fold_case: bool = False) -> bool:
    flags = re.I if fold_case else 0
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w+#-])", text, flags) is not None


#: Not a version inside a model name ("Granite-3.0-2B", "Qwen-2.5-7B"): no letter and hyphen
#: before it, no hyphen and word after it.
_NOT_IN_NAME = r"(?<![A-Za-z]-)(?![\d.]*-\w)"


_SCORE_IN_PROSE = re.compile(
    r"(?<!\bby\s)(?<![\w.])" + _NOT_IN_NAME
    + r"(\d{1,3}\.\d{1,2})\s*%?(?!\s*(?:points?|pp|pts|percentage|[×x]|times|B\b))(?!-\w)"
)


def quoted_lines(
    comp: ModelComparison, st: ScoreTable, family: set[str], named: set[str]
) -> list[ScoreLine]:
    """Lines where a cell of the subject is a value the sentence quotes; of those, the ones on
    a benchmark it names when there are any (75.2 on BBH, not the 75.2 on GSM8K)."""
    stated = stated_values(comp)
    found = [
        line
        for line in st.lines
        if any(c.model in family and c.text.strip().rstrip("%") in stated for c in line.cells)
    ]
    on_named = [line for line in found if line.benchmark is not None and names_benchmark(line.benchmark, named)]
    return on_named or found


def quotes_elsewhere(comp: ModelComparison, st: ScoreTable, family: set[str]) -> bool:
    """The sentence quotes a score of its subject before the verb ("X achieves 36.2%,
    surpassing Y") that none of the subject's cells in this table shows: the table is not the
    one the sentence is about."""
    quoted = {m.group(1) for m in _SCORE_IN_PROSE.finditer(comp.sentence[: comp.verb_at])}
    if not quoted:
        return False
    mine = {c.text.strip().rstrip("%") for line in st.lines for c in line.cells if c.model in family}
    return not (quoted & mine)


_VALUE_IN_PROSE = re.compile(r"(?<![\w.])" + _NOT_IN_NAME + r"(\d{1,3}\.\d{1,2})(?!-\w)(?![\d.]*\s?[BM]\b)\s*%?")


def stated_values(comp: ModelComparison) -> set[str]:
    """The scores a sentence states: never a parameter count ("only 4.1B parameters") nor the
    version inside a model's name as written ("MiniCPM-V 4.0")."""
    names = [(n.start, n.end) for n in (*comp.subjects, *comp.objects)]
    return {
        m.group(1)
        for m in _VALUE_IN_PROSE.finditer(comp.sentence)
        if not any(a <= m.start(1) < b for a, b in names)
    }


def clause_lines(comp: ModelComparison, st: ScoreTable, registry: Registry) -> list[ScoreLine]:
    """The lines the verb's own clause names: its benchmarks, the upper labels or the domains
    it names; never those only its paragraph names."""
    governed = benchmark_keys(comp.scope, registry)
    named = [line for line in st.lines if line.benchmark is not None and names_benchmark(line.benchmark, governed)]
    return named or groups_named(comp, st) or sections_named(comp, st)
