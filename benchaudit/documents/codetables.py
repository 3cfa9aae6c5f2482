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
#: A cell of an aligned table: words separated by single spaces; two spaces end it.
_GAP = re.compile(r"\S(?:\S|\s(?=\S))*")
_NUMBER = re.compile(r"[-+−]?\d+(?:\.\d+)?")


_PROMPT = re.compile(r"^\s*(?:[>$%#]|>>>|In \[\d+\]:)\s+\S")


def _indexed(rows: list[tuple[TextLine, list[tuple[int, str]]]], width: int) -> bool:
    """Whether the rows of full width start with the row numbers 0, 1, 2 ... (or 1, 2, 3 ...)."""
    firsts = [cells[0][1] for _, cells in rows if len(cells) == width]
    if len(firsts) < 2 or not all(f.isdigit() for f in firsts):
        return False
    start = int(firsts[0])
    return start in (0, 1) and [int(f) for f in firsts] == list(range(start, start + len(firsts)))


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
    while body and _PROMPT.match(body[0].text):
        body = body[1:]  # "> python show_result.py": the command that printed the table
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
    if len(head_cells) == width - 1 and _indexed(rows[1:], width):
        # pandas' to_string(): an unnamed index column of row numbers before the named columns.
        rows = [rows[0], *((t, cells[1:]) for t, cells in rows[1:])]
        width -= 1
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
