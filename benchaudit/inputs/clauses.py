"""The clause of a sentence that holds a word: a sentence may join a significant result and a null
("A was significantly longer (p < 0.001), whereas time was comparable (p = 0.29)"), and the
equivalence word belongs only to the clause it sits in."""

from __future__ import annotations

import re

#: Where one clause ends and a contrasting one begins.
_CONTRAST = re.compile(r",?\s*\b(?:whereas|while|but|although)\b|;\s*", re.I)


def contrast_clause(text: str, pos: int) -> str | None:
    """The clause around ``pos`` when a contrast word ("whereas", "while", "but", "although" or a
    semicolon) comes before it; None for a sentence of one clause, or when ``pos`` is in the first."""
    cuts = list(_CONTRAST.finditer(text))
    before = [m.end() for m in cuts if m.end() <= pos]
    if not before:
        return None
    after = [m.start() for m in cuts if m.start() > pos]
    return text[before[-1] : after[0] if after else len(text)]


def clause_of(text: str, pos: int) -> str | None:
    """The clause around ``pos``, the first one included, in a sentence of two or more clauses;
    None for a sentence of one clause."""
    cuts = list(_CONTRAST.finditer(text))
    if not cuts:
        return None
    before = [m.end() for m in cuts if m.end() <= pos]
    after = [m.start() for m in cuts if m.start() > pos]
    return text[before[-1] if before else 0 : after[0] if after else len(text)]
