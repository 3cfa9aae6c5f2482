"""Prose claims about models tied to the tables that hold them.

A sentence is tied to a table (:mod:`benchaudit.claims.table_choice`), its names to rows of
that table (:mod:`benchaudit.claims.prose_names`) and its clause to lines of it
(:mod:`benchaudit.claims.claimed_lines`); this module puts the three together for the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from benchaudit.claims.claimed_lines import (
    benchmark_keys,
    clause_lines,
    groups_named,
    lines_claimed,
    names_benchmark,
    quoted_lines,
    quotes_elsewhere,
    sections_named,
    stated_values,
)
from benchaudit.claims.prose_names import (
    Resolver,
    best_family,
    head_row,
    pair_of,
    resolve_loose,
    subject_mention,
    subject_reason,
)
from benchaudit.claims.table_choice import anchored, pairwise_tables, refers_to_table, table_about

if TYPE_CHECKING:
    from benchaudit.benchmarks import Registry
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreLine, ScoreTable
    from benchaudit.context import RunContext
    from benchaudit.evidence import Source

__all__ = [
    "Resolver",
    "anchored",
    "benchmark_keys",
    "best_family",
    "claimed_pair",
    "clause_lines",
    "groups_named",
    "head_row",
    "lines_claimed",
    "linked_pairs",
    "names_benchmark",
    "pair_of",
    "pairwise_tables",
    "quoted_lines",
    "refers_to_table",
    "resolve_loose",
    "sections_named",
    "stated_values",
    "subject_mention",
    "subject_reason",
    "table_about",
]


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
