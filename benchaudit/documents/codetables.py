"""Tables drawn inside code blocks: box characters, pipes, or aligned columns.

Leaderboards are often pasted as console output (``rich`` box tables, pandas
``to_string()``, a script's aligned print-out). They are tables like any
other, so rank ties and anchored rows in them can be checked.
"""

from __future__ import annotations

import re

from benchaudit.documents.model import Cell, Table, TextLine, marks_of

_RULE = re.compile(r"^[\s─━═\-–+┼╋╬┏┓┗┛┡┩└┘┌┐├┤┬┴╇╈┳┻╭╮╯╰|│┃║:=]*$")
_VERTICAL = re.compile(r"[│┃║|]")
_GAP = re.compile(r"\S(?:.*?\S)?(?=\s{2,}|\s*$)")
_NUMBER = re.compile(r"[-+−]?\d+(?:\.\d+)?")


def _split_vertical(text: str) -> list[tuple[int, str]]:
    cells: list[tuple[int, str]] = []
    start = 0
    for m in [*_VERTICAL.finditer(text), None]:
        end = m.start() if m else len(text)
        raw = text[start:end]
        if raw.strip():
            cells.append((start + len(raw) - len(raw.lstrip()), raw.strip()))
        elif m is not None and start > 0:
            cells.append((start, ""))
        start = end + 1 if m else end
    return cells


def _split_aligned(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0)) for m in _GAP.finditer(text)]


def code_table(lines: list[TextLine]) -> Table | None:
    """The table drawn by the lines of a code block, or None when they draw none."""
    body = [t for t in lines if t.text.strip() and not _RULE.match(t.text)]
    if len(body) < 3:
        return None
    vertical = sum(1 for t in body if len(_VERTICAL.findall(t.text)) >= 1) >= 0.8 * len(body)
    split = _split_vertical if vertical else _split_aligned
    rows = [(t, split(t.text)) for t in body]
    widths = [len(cells) for _, cells in rows]
    width = max(set(widths), key=widths.count)
    if width < 2 or sum(1 for w in widths if w == width) < 0.8 * len(rows):
        return None
    head_line, head_cells = rows[0]
    if any(_NUMBER.fullmatch(c.replace("%", "")) for _, c in head_cells):
        return None  # a table needs a header of labels
    numeric_rows = sum(
        1 for _, cells in rows[1:] if any(_NUMBER.match(c) for _, c in cells[1:])
    )
    if numeric_rows < max(2, len(rows[1:]) // 2):
        return None

    def to_cells(t: TextLine, cells: list[tuple[int, str]]) -> list[Cell]:
        return [Cell(c, t.line, t.column + col, t.page, marks=marks_of(c)) for col, c in cells]

    header = [to_cells(head_line, head_cells)]
    data = [to_cells(t, cells) for t, cells in rows[1:] if len(cells) == width]
    table = Table(header, data, "code", line=head_line.line, page=head_line.page)
    table.groups = [""] * len(data)
    return table
