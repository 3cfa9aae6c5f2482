"""The document's own model: the one its title names, as the rows of a table spell it.

A claim whose subject is "it", "our model" or the model's short name ("CodeGeeX2" beside a
table row "CodeGeeX2-6B") is about the model the document presents. Only the document's title
(its first heading) is taken as evidence of which model that is
(:func:`benchaudit.claims.model_claims.title_names`, beside the name reader it uses); a
subject read this way is an inference, and the rules that use it say so.
"""

from __future__ import annotations

import re


def own_row(names: tuple[str, ...], models: list[str]) -> str | None:
    """The one table row the document's own model names stand for: the row a name resolves to,
    else the one row whose label starts with the name ("CodeGeeX2" for "CodeGeeX2-6B"); None
    when no name or several rows fit (a family of sizes is no one model)."""
    from benchaudit.claims.model_claims import fold, label, resolve_label

    found = set()
    for name in names:
        row = resolve_label(name, models)
        if row is None:
            key = fold(name)
            family = [m for m in models if fold(label(m)).startswith(key)]
            row = family[0] if len(family) == 1 else None
        if row is not None:
            found.add(row)
    return found.pop() if len(found) == 1 else None


def names_own(text: str, names: tuple[str, ...]) -> bool:
    """Whether ``text`` spells one of the own model's names as a word (any case, spaced or
    hyphenated as the title has it)."""
    for name in names:
        parts = [re.escape(p) for p in re.split(r"[-\s_]+", name.strip()) if p]
        if parts and re.search(r"(?<![\w-])" + r"[-\s_]?".join(parts) + r"(?![\w-]|\.\w)", text, re.I):
            return True
    return False
