"""The document's own model: the one its title names, as the rows of a table spell it.

A claim whose subject is "it", "our model" or the model's short name ("CodeGeeX2" beside a
table row "CodeGeeX2-6B") is about the model the document presents. Only the document's title
(its first heading) is taken as evidence of which model that is; a subject read this way is
an inference, and the rules that use it say so.
"""

from __future__ import annotations

import re

from benchaudit.documents.model import Document

#: The name a title opens with before its subtitle ("Mango-MT: Advancing ...", "KIMI LINEAR: AN
#: EXPRESSIVE ...", "CodeGeeX2 - A More Powerful ..."): at most three words.
_LEAD = re.compile(r"^\W*(?P<name>[A-Za-z][\w.+-]*(?:\s+[A-Za-z0-9][\w.+-]*){0,2})\s*(?::|\s[-–—]\s)")


def title_names(doc: Document) -> tuple[str, ...]:
    """The model names the document's first heading gives: the name before its subtitle and
    every name shaped like a model's (a capitalised word with a digit)."""
    from benchaudit.claims.model_claims import model_names

    first = next((b for b in doc.blocks() if b.kind == "heading"), None)
    if first is None:
        return ()
    text = " ".join(first.text.split())
    names = []
    lead = _LEAD.match(text)
    if lead is not None:
        names.append(lead.group("name"))
    names.extend(n.text for n in model_names(text))
    return tuple(dict.fromkeys(n for n in names if len(re.sub(r"[^a-z0-9]", "", n.lower())) >= 4))


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
