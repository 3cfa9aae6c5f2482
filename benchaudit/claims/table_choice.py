"""Which table a prose claim about models is about: the table it names ("Table 4"), the one
it introduces or that follows it, the one whose cell value it quotes, the one the paragraphs
before it point at, or, far from any table, the one table that holds the models it names.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from benchaudit.claims.claimed_lines import _names_word, lines_claimed, stated_values
from benchaudit.claims.prose_names import Resolver, pair_of, resolve_loose
from benchaudit.documents.model import TABLE_REF

if TYPE_CHECKING:
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreTable
    from benchaudit.documents.model import Document


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
            chosen = _most_lines_named(comp, chosen) or _own_section(comp, chosen)
        chosen = chosen if len(chosen) == 1 else []
    return chosen


def _own_section(comp: ModelComparison, tables: list[ScoreTable]) -> list[ScoreTable]:
    """Of several tables that hold both models, the one in the claim's own section ("### Mar.4:
    Light-R1-32B", its table, then "we ... surpass Y on AIME24"), when exactly one is there: the
    section's table is the evaluation its prose reports."""
    section = comp.block.section
    if section is None:
        return []
    mine = [st for st in tables if st.table.section is section]
    return mine if len(mine) == 1 else []


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
