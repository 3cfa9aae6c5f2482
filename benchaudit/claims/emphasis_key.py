"""What a document says its table marks mean: "bold denotes the best", "second best underlined".

A caption, a note or a lead-in often states the key of a table's emphasis. Read clause by
clause, each clause naming one mark (bold or underline) gives it one meaning:

* ``best``: the best value of the benchmark, over every row ("Bold denotes global SOTA",
  "the best performance in each benchmark is in bold");
* ``second``: the runner-up ("the second best one is underlined");
* ``scoped``: the best within some rows only ("underlined denotes open-source SOTA", "the best
  among open-source models", "the best of each group").

A clause that names neither a rank nor a scope ("ours in bold") gives no meaning: the key says
nothing of that mark and the rule keeps reading it as it does without a key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Where one clause of a key ends: a sentence or list break, or "and"/"while" before the next mark.
_CLAUSE_END = re.compile(r"[.;\n•]|,?\s+\b(?:and|while|whereas)\b\s+(?=[^.;]*\b(?:bold|underlin))", re.I)
_BOLD = re.compile(r"\bbold(?:face|ed)?\b", re.I)
_UNDER = re.compile(r"\bunderlin\w*", re.I)
_SECOND = re.compile(r"\b(?:second|runner[- ]up|2nd)\b", re.I)
_RANK = re.compile(r"\b(?:best|sota|state[- ]of[- ]the[- ]art|highest|top)\b", re.I)
#: Words that limit the best to some rows: "open-source SOTA", "best among", "of each group".
_SCOPE = re.compile(
    r"\bopen[- ]?(?:source|weights?)\b|\bclosed[- ]?source\b|\bproprietary\b|\bamong\b|\bwithin\b"
    r"|\b(?:each|every|per|same)\s+(?:\w+\s+)?(?:group|size|scale|category|family|block)\b",
    re.I,
)


@dataclass(frozen=True)
class EmphasisKey:
    """The meaning a document gives its bold and its underline, with the clause saying so."""

    bold: str | None = None
    underline: str | None = None
    bold_said: str = ""
    underline_said: str = ""


def _meaning(clause: str) -> str | None:
    if _SECOND.search(clause):
        return "second"
    if not _RANK.search(clause):
        return None
    return "scoped" if _SCOPE.search(clause) else "best"


def emphasis_key(text: str) -> EmphasisKey:
    """The key stated in ``text`` (a table's caption and notes, or a document's note)."""
    bold = under = None
    bold_said = under_said = ""
    for clause in _CLAUSE_END.split(text):
        clause = " ".join(clause.split())
        has_bold, has_under = bool(_BOLD.search(clause)), bool(_UNDER.search(clause))
        if has_bold == has_under or len(clause) > 160:
            continue  # both marks or neither in one clause ("bold and underlined"): no key
        meaning = _meaning(clause)
        if meaning is None:
            continue
        if has_bold and bold is None:
            bold, bold_said = meaning, clause
        elif has_under and under is None:
            under, under_said = meaning, clause
    return EmphasisKey(bold, under, bold_said, under_said)
