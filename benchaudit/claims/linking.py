"""Which table, and which lines of it, a prose claim about models speaks of.

A sentence is tied to a table by the table it names ("Table 4"), the one it introduces or
that follows it, a cell value it quotes, or, far from any table, the one table that holds
the models it names; and to the lines of that table by the benchmarks its own clause names,
the values it quotes, or every line for a claim about results overall.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from benchaudit.documents.model import TABLE_REF

if TYPE_CHECKING:
    from benchaudit.benchmarks import Benchmark, Registry
    from benchaudit.claims.model_claims import ModelComparison, NameMention
    from benchaudit.claims.scoretable import ScoreLine, ScoreTable
    from benchaudit.context import RunContext
    from benchaudit.documents.model import Document
    from benchaudit.evidence import Source

#: The table model a prose name refers to (:func:`benchaudit.claims.model_claims.resolve`).
Resolver = Callable[[str, list[str]], "str | None"]


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


#: A label that is a name ("MHPP", "HumanEval+", "GSM8K"), not an ordinary word.
_LABEL_NAME = re.compile(r"[A-Z].*[A-Z0-9]|\d")
_OVERALL = re.compile(r"\boverall\b|\bacross\b|\ball\s+(?:the\s+)?(?:benchmarks|tasks|metrics)\b", re.I)
_FIGURE_REF = re.compile(r"\b(?:Figure|Fig\.)\s*\d+", re.I)


def refers_to_table(comp: ModelComparison) -> bool:
    """Whether the sentence, or its paragraph before it, points at a numbered table."""
    return bool(TABLE_REF.search(comp.sentence) or TABLE_REF.search(comp.block.text[: comp.offset]))


def table_about(comp: ModelComparison, tables: list[ScoreTable], doc: Document) -> list[ScoreTable]:
    """The table a comparison is about: the one it names, else the one right after it.

    A sentence that points at a figure is about the figure, not a table; with no reference,
    only a table that directly follows the sentence's paragraph (or that it introduces) counts.
    """
    from benchaudit.documents.model import Table

    ref = TABLE_REF.search(comp.sentence)
    if ref is None:
        # "As shown in Table 4, ... . X surpasses Y": the table the paragraph last pointed at.
        refs = list(TABLE_REF.finditer(comp.block.text[: comp.offset]))
        ref = refs[-1] if refs else None
    if ref:
        return [st for st in tables if st.table.numbered(ref.group(1))]
    if _FIGURE_REF.search(comp.sentence) or doc.format == "pdf":
        return []  # a figure's claim, or a PDF sentence naming no table: which table is meant is unsure
    items = doc.items
    try:
        at = next(i for i, item in enumerate(items) if item is comp.block)
    except StopIteration:
        return []
    following = []
    for item in items[at + 1 : at + 4]:
        if isinstance(item, Table):
            following.append(item)
            break
        if item.kind == "heading":
            break
    chosen = [st for st in tables if any(st.table is t for t in following) or st.table.lead_in is comp.block]
    return chosen


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


def anchored(
    comp: ModelComparison, tables: list[ScoreTable], named: set[str], resolve: Resolver | None
) -> list[ScoreTable]:
    """The one table where the subject's cell on a named benchmark is the value the sentence
    states ("X achieves 79.8% on AIME 2024, surpassing Y"): the sentence quotes that table.
    A pairwise claim also needs a rival in that table, found with ``resolve`` (which only a
    claim about the best model may leave out)."""
    from benchaudit.claims.model_claims import resolve_family, subject_of

    stated = stated_values(comp)
    subject = subject_of(comp)
    if not stated or subject is None:
        return []
    found = []
    for st in tables:
        models = sorted({c.model for line in st.lines for c in line.cells})
        family = set(resolve_family(subject, models))
        if comp.kind != "best":
            if resolve is None:
                raise ValueError("a pairwise claim needs a resolver")
            a = resolve(subject, models)
            family = {a} if a is not None else set()
            if not any(resolve(o.text, models) not in (None, a) for o in comp.objects):
                continue
        for line in lines_claimed(comp, st, named, family) if family else []:
            if any(c.model in family and c.text.strip().rstrip("%") in stated for c in line.cells):
                found.append(st)
                break
    return found if len(found) == 1 else []


def holds_claim(
    st: ScoreTable, comp: ModelComparison, named: set[str], resolve: Resolver, loose: bool = False
) -> bool:
    a, rivals = pair_of(comp, st, resolve, loose)
    benches = {line.benchmark.name for line in st.lines if line.benchmark is not None}
    return a is not None and bool(rivals) and (not named or bool(benches & named))


def pair_of(
    comp: ModelComparison, st: ScoreTable, resolve: Resolver, loose: bool = False
) -> tuple[str | None, list[str]]:
    """The subject's row and the rivals' rows of a pairwise claim in ``st``. ``loose`` also
    reads the table's own labels in the sentence (a name with no digit, "DeepSeekMoE") and a
    class of rivals ("all open-source models") where the name shapes found none."""
    from benchaudit.claims.rivals import rivals_in, subject_in

    models = sorted({c.model for line in st.lines for c in line.cells})
    base = resolve_loose if loose else resolve

    def find(mention: NameMention) -> str | None:
        return _resolve_spelled(comp.sentence, mention, models, base)

    mention = subject_mention(comp)
    a = find(mention) if mention is not None else None
    if a is not None and mention is not None and _variant_dropped(comp.sentence[mention.end :], a):
        return None, []  # "DeepSeek-V2 Chat (SFT)" said, the base row "DeepSeek-V2" found
    if a is None and loose and not _CONCESSIVE_START.match(comp.sentence):
        a = subject_in(comp, models)
    said = [comp.sentence[o.start : o.end + 12] for o in comp.objects]
    if a is not None and any(_tuning_clash(x, a) for x in said):
        return None, []  # "Ling-Plus ... comparable to DeepSeek-V2.5-Chat": not the base row
    rivals = [r for o, x in zip(comp.objects, said) if (r := find(o)) and r != a and not _tuning_clash(x, r)]
    if not rivals and loose and a is not None:
        rivals = rivals_in(comp, st, a)
    return a, rivals


def subject_mention(comp: ModelComparison) -> NameMention | None:
    """The name before the verb that is the claim's subject: the last one, unless it is the
    model the subject was built from ("X, based on Y-Base, surpassed ..."): then the one
    before that phrase."""
    names = [m for m in comp.subjects if not _BUILT_FROM.search(comp.sentence[max(0, m.start - 40) : m.start])]
    return names[-1] if names else None


#: The words that name what a model was built from, just before that model's name.
_BUILT_FROM = re.compile(
    r"\b(?:based|built|trained|fine-?tuned|initiali[sz]ed|distilled|derived|continued)\s+(?:on|from|upon)\s+"
    r"(?:the\s+|top\s+of\s+)?$",
    re.I,
)


def resolve_loose(name: str, models: list[str]) -> str | None:
    """:func:`benchaudit.claims.model_claims.resolve_label`, else the one row whose own name
    begins with the name as written and goes on with a word after a hyphen or a space
    ("Eurus-70B" for the table's only "Eurus-70b-NCA"): never a longer version or size
    ("DeepSeek-V2" is not "DeepSeek-V2.5", "Qwen2.5" not "Qwen2.5-7B"), never a variant that
    another row of the family also has."""
    from benchaudit.claims.model_claims import resolve_label

    found = resolve_label(name, models)
    return found if found is not None else head_row(name, models)


def head_row(name: str, models: list[str]) -> str | None:
    """The one row whose own name is ``name`` plus a word (see :func:`resolve_loose`)."""
    from benchaudit.claims.model_claims import fold, label

    said = name.strip()
    if len(fold(said)) < 4 or not re.search(r"\d", said):
        return None  # a bare family word ("Eurus") heads too many names to say one
    head = re.compile(r"[-\s_]?".join(re.escape(p) for p in re.split(r"[-\s_]+", said) if p) + r"[-\s_]+(?P<tail>.+)$", re.I)
    rows = []
    for m in models:
        own = label(m).strip()
        hit = head.match(own)
        if hit is not None and not _NOT_A_WORD_TAIL.search(hit.group("tail")):
            rows.append(m)
    return rows[0] if len(rows) == 1 else None


#: A tail that makes another model rather than a variant of the same one: any digit (a size,
#: a version, "-Distill-Qwen-32B"), a word of another model of the family ("mini", "Pro"), a
#: distilled or quantised copy.
_NOT_A_WORD_TAIL = re.compile(
    r"\d|^(?:mini|pro|flash|lite|plus|max|turbo|ultra|nano|air|vision|vl|coder|math)\b|distill|quant|int[48]|awq|gptq",
    re.I,
)


#: What prose writes after a model's name, spaced, that is still its name: a size ("Qwen2.5
#: 72B", "Mixtral 8x22B") and the variant words after it ("LLaMA3 70B Chat", "GPT-4o mini").
_SPACED_TAIL = re.compile(
    r"(?P<size>\s+(?:\d+x)?\d+(?:\.\d+)?[BM]\b)?"
    r"(?P<words>(?:\s+(?:chat|instruct|inst|base|mini|turbo|pro|flash|lite|plus|max|preview)\b)*)",
    re.I,
)


def _resolve_spelled(
    sentence: str, mention: NameMention, models: list[str], base: Resolver
) -> str | None:
    """The table model a prose name stands for, read with the size and variant words written
    after it ("Qwen2.5 72B", "GPT-4o mini"): the longest spelling that names one row. A size
    said that no row of the table carries with the name is another model, never the bare
    name's row ("Qwen2.5 72B" is not the table's only "Qwen2.5-7B")."""
    tail = _SPACED_TAIL.match(sentence, mention.end)
    said = tail.group(0) if tail else ""
    if not said.strip():
        return base(mention.text, models)
    words = said.split()
    for k in range(len(words), 0, -1):
        found = base(mention.text + " " + " ".join(words[:k]), models)
        if found is not None:
            return found
    if tail is not None and tail.group("size"):
        return None
    found = base(mention.text, models)
    # "GPT-4o mini" said, a "GPT-4o" row found: the words said are another model's.
    return None if found is not None and _variant_dropped(said, found, _OTHER_MODEL_WORDS) else found


def _tuning_clash(said: str, row: str) -> bool:
    """Whether a name as written says a chat or instruct model and the row is a base model, or
    the other way round: another model than the row, whatever the resolver folds away."""
    from benchaudit.claims.model_claims import label

    def kind(text: str) -> str:
        words = {w.lower() for w in re.findall(r"(?<![a-z])(base|chat|instruct|inst)(?![a-z])", text, re.I)}
        return "base" if words == {"base"} else "tuned" if words and "base" not in words else ""

    mine, theirs = kind(said), kind(label(row))
    return bool(mine and theirs and mine != theirs)


#: Variant words that make another model of a family ("mini", "Pro"), not another spelling.
_OTHER_MODEL_WORDS = re.compile(r"\s*(?:(?:mini|pro|flash|lite|plus|max|turbo)\b\s*)+", re.I)


#: The variant words that may follow a model's name in prose ("DeepSeek-V2 Chat (SFT)").
_VARIANT_AFTER = re.compile(r"\s*(?:(?:chat|instruct|base|sft|rl|dpo)\b[\s()]*)+", re.I)


def _variant_dropped(after: str, row: str, variants: re.Pattern[str] | None = None) -> bool:
    """Whether the words after a prose name give a variant ("Chat", "(SFT)") the row's label
    does not: the name as read was cut short, and the row found is another model."""
    from benchaudit.claims.model_claims import fold

    m = (variants or _VARIANT_AFTER).match(after)
    if m is None:
        return False
    words = re.findall(r"[a-z]+", m.group(0).lower())
    return any(w not in fold(row) for w in words)


_CONCESSIVE_START = re.compile(r"\W*(?:while|whereas|although|though|despite)\b", re.I)


def pairwise_tables(
    comp: ModelComparison, tables: list[ScoreTable], doc: Document, named: set[str], loose: bool = False
) -> list[ScoreTable]:
    """The table a claim about two models ("X outperforms Y", "X is on par with Y") is about:
    the one it names or introduces, the one whose cell it quotes, else, for a sentence far
    from its table ("X outperforms Y on AIME24" in a news list, "across benchmarks" in an
    overview), the one table that holds both models (and a benchmark it names, if any)."""
    from benchaudit.claims.model_claims import resolve

    chosen = table_about(comp, tables, doc) or anchored(comp, tables, named, resolve)
    if not chosen and not refers_to_table(comp):
        chosen = pointed_before(comp, tables, doc, named, loose)
    if not chosen and not refers_to_table(comp) and not (named or comp.general) and unqualified(comp):
        # "X achieves better performance than Y", far from its table and saying nowhere where:
        # a claim about results overall, in the one table that holds both names as written.
        # In a PDF, only a table on the claim's page or the next one: a table pages away that
        # happens to hold both names may be another evaluation of them.
        near = [st for st in tables if comp.page is None or st.table.page is None
                or 0 <= st.table.page - comp.page <= 1]
        chosen = [st for st in near if holds_claim(st, comp, named, resolve) and _all_rivals(comp, st)]
        if not chosen and loose:
            # The names as the tables spell them ("Eurus-70B" for a row "Eurus-70b-NCA").
            chosen = [st for st in near if holds_claim(st, comp, named, resolve, loose)
                      and _all_rivals(comp, st, resolve_loose)]
        chosen = chosen if len(chosen) == 1 else []
    if not chosen and (named or comp.general) and not refers_to_table(comp):
        chosen = [st for st in tables if holds_claim(st, comp, named, resolve)]
        if len(chosen) != 1 and loose:
            # The models as the tables spell them, when the name shapes found no one table.
            chosen = [st for st in tables if holds_claim(st, comp, named, resolve, loose)]
        if len(chosen) > 1 and loose:
            chosen = _most_lines_named(comp, chosen)
        chosen = chosen if len(chosen) == 1 else []
    return chosen


def unqualified(comp: ModelComparison) -> bool:
    """Whether a pairwise claim names both sides and says nothing after its rivals about where
    it holds ("X achieves better performance than Y." but not "... than Y in Chinese", "... on
    hard benchmarks", "... when trained longer"): a claim about results overall."""
    if not comp.subjects or not comp.objects:
        return False
    last = max(o.end for o in comp.objects)
    rest = comp.scope[last:]
    # A comment after a comma (", solidifying ...", ", which ...") says nothing of where.
    rest = re.split(r",\s*(?:which|and|[a-z]+ing)\b", rest, maxsplit=1)[0]
    return re.fullmatch(r"[\s()\w.-]*?[\s.;,]*", rest) is not None and not _WHERE.search(rest)


def _all_rivals(comp: ModelComparison, st: ScoreTable, by: Resolver | None = None) -> bool:
    """Whether every rival the sentence names is a row of ``st`` (read with ``by``)."""
    from benchaudit.claims.model_claims import resolve

    models = sorted({c.model for line in st.lines for c in line.cells})
    return all((by or resolve)(o.text, models) is not None for o in comp.objects)


#: Words after the rivals that bound where a claim holds.
_WHERE = re.compile(r"\b(?:on|in|at|for|across|when|with|under|regarding|by|if|after|before|while|during)\b", re.I)


def pointed_before(
    comp: ModelComparison, tables: list[ScoreTable], doc: Document, named: set[str], loose: bool = False
) -> list[ScoreTable]:
    """The table the paragraphs just before the claim's paragraph point at ("Table 8 shows
    the base models ..." and then "X outperforms Y and Z"), the last one named, when it
    holds both models (of several it names, the one that does); the search stops at a heading
    or a table, three paragraphs back."""
    from benchaudit.claims.model_claims import resolve
    from benchaudit.documents.model import Table

    if _FIGURE_REF.search(comp.block.text[: comp.offset + len(comp.sentence)]):
        return []  # "Figure 3 compares X with ... . X consistently outperforms": the figure's claim
    items = doc.items
    at = next((i for i, item in enumerate(items) if item is comp.block), None)
    if at is None:
        return []
    for item in reversed(items[max(0, at - 3) : at]):
        if isinstance(item, Table) or item.kind == "heading":
            return []
        refs = list(TABLE_REF.finditer(item.text)) if item.kind != "caption" else []
        figures = [m.start() for m in _FIGURE_REF.finditer(item.text)] if item.kind != "caption" else []
        if figures and (not refs or figures[-1] > refs[-1].start()):
            return []  # the paragraph before last pointed at a figure
        if refs:
            # "shown in Table 8 and Table 9": the one of them that holds both models.
            numbers = {m.group(1) for m in refs}
            hit = [st for st in tables if any(st.table.numbered(k) for k in numbers)]
            held = [st for st in hit if holds_claim(st, comp, named, resolve, loose)]
            return held if len(held) == 1 else []
    return []


def _most_lines_named(comp: ModelComparison, tables: list[ScoreTable]) -> list[ScoreTable]:
    """Of several tables that hold both models, the one whose line labels the verb's clause
    spells most often ("outperforms Y on HumanEval, MBPP and MultiPL-E"), when at least two
    of its labels are spelled there and no other table has as many."""
    after = comp.scope[comp.verb_at + len(comp.verb) :]

    def spelled(st: ScoreTable) -> int:
        labels = {line.label.strip() for line in st.lines}
        return sum(1 for w in labels if len(w) >= 4 and _names_word(w, after, fold_case=True))

    counts = [spelled(st) for st in tables]
    best = max(counts)
    top = [st for st, k in zip(tables, counts) if k == best]
    return top if best >= 2 and len(top) == 1 else []


def claimed_pair(
    comp: ModelComparison, st: ScoreTable, named: set[str], registry: Registry, loose: bool = False
) -> tuple[str, list[str], list[ScoreLine]] | None:
    """The subject's row, its rivals' rows and the lines a pairwise claim speaks of in ``st``
    (an empty list: every line), or None when the table does not hold the claim.

    The lines are those the verb's own clause names ("outperforms Y on Aider, but ... on SWE
    Verified": Aider only), else those its paragraph names, else those it quotes."""
    from benchaudit.claims.model_claims import resolve

    a, rivals = pair_of(comp, st, resolve, loose)
    if a is None or not rivals or quotes_elsewhere(comp, st, {a}):
        return None  # not both models, or the sentence quotes a score this table lacks
    governed = benchmark_keys(comp.scope, registry)
    spoken = (
        quoted_lines(comp, st, {a}, governed or named) or sections_named(comp, st) or groups_named(comp, st)
        if comp.general
        else lines_claimed(comp, st, governed, {a}) or lines_claimed(comp, st, named, {a})
    )
    if not spoken and named and not comp.general:
        return None  # it names benchmarks this table does not hold
    return a, rivals, spoken


def linked_pairs(
    source: Source,
    ctx: RunContext,
    kind: str,
    keep: Callable[[ModelComparison], bool] | None = None,
    loose: bool = False,
) -> Iterator[tuple[ModelComparison, ScoreTable, tuple[str, list[str], list[ScoreLine]]]]:
    """Each pairwise claim of ``kind`` ("superior", "equivalent") of a document with the table
    it is about and its pair (:func:`claimed_pair`): the subject's row, the rivals' rows and the
    lines it speaks of. ``keep`` skips a claim before any table is looked at; ``loose`` reads
    the models as :func:`pair_of` does."""
    from benchaudit.claims.access import document_of, score_tables
    from benchaudit.claims.model_claims import comparisons

    doc = document_of(source)
    tables = score_tables(source, ctx) if doc is not None else []
    if doc is None or not tables:
        return
    registry = ctx.benchmarks
    for comp in comparisons(doc, clauses=kind == "equivalent"):
        if comp.kind != kind or not loose and (not comp.subjects or not comp.objects):
            continue
        if keep is not None and not keep(comp):
            continue
        named = benchmark_keys(comp.block.text, registry)
        for st in pairwise_tables(comp, tables, doc, named, loose)[:1]:
            pair = claimed_pair(comp, st, named, registry, loose)
            if pair is not None:
                yield comp, st, pair


def subject_reason(comp: ModelComparison, st: ScoreTable, a: str) -> str:
    """Why the claim's subject was read as the row ``a`` when the sentence does not name that
    row as written ("it" for the model the sentence before names, a short name of the title's
    model): words for the message, so the reader sees the premise; "" when it is named."""
    from benchaudit.claims.model_claims import resolve
    from benchaudit.claims.rivals import subject_with_reason

    models = sorted({c.model for line in st.lines for c in line.cells})
    mention = subject_mention(comp)
    if mention is not None and _resolve_spelled(comp.sentence, mention, models, resolve) == a:
        return ""
    if mention is not None and _resolve_spelled(comp.sentence, mention, models, resolve_loose) == a:
        if head_row(mention.text, models) == a:
            return f"'{mention.text}' read as the row {a}, the one row of the table whose name begins with it"
        return ""
    row, why = subject_with_reason(comp, models)
    return why if row == a else ""


def best_family(comp: ModelComparison, st: ScoreTable) -> tuple[set[str], str]:
    """The rows a claim to be the best is about in ``st``, and why they were read so ("" when
    the sentence names them as written): the rows its subject's name covers, else, for a
    subject that names no model ("the model achieves SOTA ...", "It sets ..."), the one row
    :func:`benchaudit.claims.rivals.subject_with_reason` infers, with its reason."""
    from benchaudit.claims.model_claims import resolve_family, subject_of
    from benchaudit.claims.rivals import subject_with_reason

    models = sorted({c.model for line in st.lines for c in line.cells})
    subject = subject_of(comp)
    if subject is not None:
        return set(resolve_family(subject, models)), ""
    row, why = subject_with_reason(comp, models)
    return ({row}, why) if row is not None and why else (set(), "")


def clause_lines(comp: ModelComparison, st: ScoreTable, registry: Registry) -> list[ScoreLine]:
    """The lines the verb's own clause names: its benchmarks, the upper labels or the domains
    it names; never those only its paragraph names."""
    governed = benchmark_keys(comp.scope, registry)
    named = [line for line in st.lines if line.benchmark is not None and names_benchmark(line.benchmark, governed)]
    return named or groups_named(comp, st) or sections_named(comp, st)
