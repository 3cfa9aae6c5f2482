"""A claim to be the best whose document compares its model with no other.

"X achieves state-of-the-art performance across 11 benchmarks" beside tables that hold X's
rows and nobody else's: the document gives nothing to be best against, so the claim rests on
numbers it does not print. Only the document's score tables are read; a table that holds no
row of X says nothing either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreTable


def unrivalled(comp: ModelComparison, tables: list[ScoreTable]) -> list[ScoreTable]:
    """The tables that hold the subject of a claim to be the best, when every one of them
    holds only the subject's own rows (its sizes and checkpoints); [] when any table holding
    it has another model, when none holds it, or when the claim names rivals or is limited
    to a class the tables may not hold ("among open-source models of similar size")."""
    from benchaudit.claims.model_claims import limited, resolve_family, subject_of

    subject = subject_of(comp)
    if comp.kind != "best" or subject is None or comp.objects or limited(comp):
        return []
    holding = []
    for st in tables:
        models = sorted({c.model for line in st.lines for c in line.cells})
        family = set(resolve_family(subject, models))
        if not family:
            continue
        if set(models) - family:
            return []  # a rival row: the claim can be checked, and is within-noise's
        holding.append(st)
    return holding
