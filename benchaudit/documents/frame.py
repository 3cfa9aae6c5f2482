"""The text that frames each table: its lead-in, caption and notes.

Authors state how a table's numbers were produced around it, not in it: in
the sentence that introduces it ("Results on AIME 2024, averaged over 16
samples:"), in the caption, and in notes right after it ("* tested multiple
times", "† reported by the model's authors"). Every reader calls
:func:`attach_frames` once its items are in reading order.
"""

from __future__ import annotations

import re

from benchaudit.documents.model import Block, Document, Item, Table

#: A block right after a table that reads as a note to it.
_NOTE_START = re.compile(
    r"^\s*(?:notes?\b|[*†‡§¶¹²³⁴⁵⁶⁷⁸⁹]|\(\s*[*†‡a-z]\s*\)|[a-z]\s*[:)]|table\s+\d|above|"
    r"results?\b|scores?\b|all\s|the\s+(?:above|results?|scores?|numbers?)|we\s|for\s|"
    r"where\s|here\s|these\s|each\s|values?\b|numbers?\b|bold|underlin|best)",
    re.I,
)
_MAX_NOTES = 3


def attach_frames(doc: Document) -> None:
    items = doc.items
    for idx, item in enumerate(items):
        if not isinstance(item, Table):
            continue
        _lead_in(item, items, idx)
        _notes(item, items, idx)


def _same_section(a: Block, table: Table) -> bool:
    return a.section is table.section


def _lead_in(table: Table, items: list[Item], idx: int) -> None:
    j = idx - 1
    while j >= 0:
        prev = items[j]
        if isinstance(prev, Table) or not _same_section(prev, table):
            return
        if prev.kind == "caption" and table.caption is None:
            table.caption = prev
            j -= 1
            continue
        if prev.kind in ("paragraph", "item", "quote", "footnote"):
            if table.lead_in is None:
                table.lead_in = prev
            return
        if prev.kind == "heading":
            return
        j -= 1


def _notes(table: Table, items: list[Item], idx: int) -> None:
    j = idx + 1
    taken = 0
    while j < len(items) and taken < _MAX_NOTES:
        nxt = items[j]
        if isinstance(nxt, Table) or nxt.kind in ("heading", "code"):
            return
        if nxt.kind == "caption":
            if table.caption is None:
                table.caption = nxt
                j += 1
                continue
            return
        # The first block after a table is read as its note (a protocol stated right
        # after a table is about it); later ones only when they read as notes.
        if taken == 0 or _NOTE_START.match(nxt.text) or nxt.kind == "footnote":
            table.notes.append(nxt)
            taken += 1
            j += 1
            continue
        return
