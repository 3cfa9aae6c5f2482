"""The typed document evidence of a source, computed once and shared by the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchaudit.documents.model import Document

if TYPE_CHECKING:
    from benchaudit.claims.scoretable import ScoreTable
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


def document_of(source: Source) -> Document | None:
    return source.data if isinstance(source.data, Document) else None


def score_tables(source: Source, ctx: Context) -> list[ScoreTable]:
    """Every table of the source's document that reads as scores."""
    doc = document_of(source)
    if doc is None:
        return []

    def compute() -> list[ScoreTable]:
        from benchaudit.claims.scoretable import read_score_table
        from benchaudit.claims.stated_counts import stated_counts, stated_totals

        counts = stated_counts(doc)
        from benchaudit.claims.every_set_count import every_set_count
        from benchaudit.claims.subject_splits import document_families

        totals = stated_totals(doc)
        about = document_families(doc, ctx.benchmarks)
        every = every_set_count(doc)
        out = []
        for table in doc.tables():
            st = read_score_table(table, ctx.benchmarks, counts, totals, about, every)
            if st is not None:
                out.append(st)
        return out

    tables: list[ScoreTable] = source.cached("score_tables", compute)
    return tables


def full_text(source: Source) -> str:
    doc = document_of(source)
    if doc is None:
        return ""
    text: str = source.cached("full_text", lambda: " ".join(b.text for b in doc.blocks()))
    return text
