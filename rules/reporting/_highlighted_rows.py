"""BA601 misleading-emphasis on tables that bold the authors' rows throughout (a highlighted
row or column): part of :mod:`benchaudit.rules.reporting.misleading_emphasis`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from benchaudit.rules.reporting._emphasis import (
    OWN_BOLD_SAID,
    Emit,
    adjacent_highlights,
    names_bold,
    one_per_model,
    others,
)

from benchaudit.finding import Severity

if TYPE_CHECKING:
    from benchaudit.claims.scoretable import ScoreCell, ScoreLine, ScoreTable
    from benchaudit.finding import Finding


def highlighted_tie(
    emit: Emit, st: ScoreTable, line: ScoreLine, outside: set[str]
) -> Iterator[Finding]:
    """A row bold throughout, in a table whose bold also marks the best elsewhere, bold on a
    line's best value that plain cells share: the tie reads as the row's win."""
    cells = [c for c in line.cells if c.model not in outside]
    if not one_per_model(cells):
        return
    others = [c for c in cells if c.model not in st.highlighted]
    if any(c.bold or c.bold_under for c in others):
        return  # another cell of the line is bold: the line checks report its ties
    if not any(c.bold for ln in st.lines for c in ln.cells if c.model not in st.highlighted):
        return  # the bold marks only the rows: no best value is claimed by it
    sign = 1 if line.higher_is_better else -1
    top = max(sign * c.value for c in cells)
    said = bool(OWN_BOLD_SAID.search(st.table.framing_text()))
    for h in (c for c in cells if c.model in st.highlighted and sign * c.value == top):
        ties = [c for c in others if c.value == h.value]
        if not ties:
            continue
        names = " and ".join(t.model for t in ties[:3])
        yield emit(
            line,
            h,
            f"{h.text} for {h.model} on {line.label} is bold (the table bolds this model's row "
            f"throughout, and bold marks the best values elsewhere), but {names} "
            f"{'have' if len(ties) > 1 else 'has'} the same {h.text} and {'are' if len(ties) > 1 else 'is'} "
            "not: a tie is shown as a win",
            f"Mark every {h.text} on {line.label} alike",
            {"bold": h.value, "ties": [t.model for t in ties]},
            severity=Severity.INFO if said else None,
        )


def only_own_bold(emit: Emit, st: ScoreTable, outside: set[str]) -> Iterator[Finding]:
    """A table whose only bold is one model's cells in every line: each line where another
    model is ahead is flagged at the bold cell, for readers take the bold for the best."""
    if len(st.highlighted) > 1:
        yield from only_own_rows_bold(emit, st, outside)
        return
    if len(st.highlighted) != 1 or len(st.lines) < 5:
        return
    (own,) = st.highlighted
    if any(c.bold for line in st.lines for c in line.cells if c.model != own):
        return  # bold also marks other cells: the line checks report it cell by cell
    beaten = []
    # An average line bold in the same row is the same claim to be the best: checked too,
    # though only the benchmark lines say how often the bold row leads.
    for line in [*st.lines, *st.aggregates]:
        sign = 1 if line.higher_is_better else -1
        cells = [c for c in line.cells if c.model not in outside]
        mine = next((c for c in cells if c.model == own), None)
        if mine is None:
            continue
        top = max(cells, key=lambda c: sign * c.value)
        if sign * top.value > sign * mine.value:
            beaten.append((line, mine, top))
    said = bool(OWN_BOLD_SAID.search(st.table.framing_text()))
    # One finding per line where another model is ahead, each at its cell (a reader meets
    # the bold there). Mostly the best, the bold reads as a best mark; mostly not, it marks
    # the model's column, which readers still take for the best.
    behind = sum(1 for line, _, _ in beaten if not line.aggregate)
    mostly = behind * 2 <= len(st.lines)
    share = f"{len(st.lines) - behind} of {len(st.lines)}"
    for line, mine, top in beaten:
        why = (
            f"as in every line of the table, where it is the best in {share}"
            if mostly
            else f"as in every line of the table, though it is the best in only {share}"
        )
        yield emit(
            line,
            mine,
            f"{mine.text} for {own} on {line.label} is set in bold ({why}), but {top.model} has "
            f"{top.text} and is not; readers take bold for the best",
            f"Bold the best value on {line.label} ({top.model} {top.text}), or mark {own}'s "
            "column another way (a shaded column, an 'ours' label) and say so in the caption",
            {"bold": mine.value, "better": [(top.model, top.value)], "model": own},
            severity=Severity.INFO if said else None,
        )


def only_own_rows_bold(emit: Emit, st: ScoreTable, outside: set[str]) -> Iterator[Finding]:
    """Bold only on several rows, each bold throughout (the authors' models): a plain cell
    ahead of every bold one on a line shows that the bold there is no best of anything,
    whatever groups the rows fall in."""
    if any(c.bold for line in st.lines for c in line.cells if c.model not in st.highlighted):
        return
    # Rows whose names are bold too are visibly marked as rows (the authors' models), which
    # a reader sees before reading the bold as a best mark: information only.
    said = bool(OWN_BOLD_SAID.search(st.table.framing_text())) or names_bold(st)
    for line in [*st.lines, *st.aggregates]:
        sign = 1 if line.higher_is_better else -1
        cells = [c for c in line.cells if c.model not in outside]
        bold = [c for c in cells if c.model in st.highlighted]
        plain = [c for c in cells if c.model not in st.highlighted]
        if not bold or not plain:
            continue
        best = max(bold, key=lambda c: sign * c.value)
        ahead = [p for p in plain if sign * p.value > sign * best.value]
        if ahead:
            yield ahead_of_own_rows(emit, st, line, best, ahead, said)
        if not adjacent_highlights(st, line):
            continue
        # Two bold rows of one size side by side are no bests of separate (unlabelled) size
        # groups: the bold marks the rows, and each of their cells a plain one beats reads as a best it is not.
        for b in bold:
            better = [p for p in plain if sign * p.value > sign * b.value]
            if b is best or not better:
                continue
            top = max(better, key=lambda p: sign * p.value)
            yield emit(
                line,
                b,
                f"{b.text} for {b.model} on {line.label} is set in bold (the table bolds "
                f"{len(st.highlighted)} rows throughout, two of one size side by side, so the bold "
                f"marks rows, not the best of a size group), but {top.model} has {top.text}{others(better, top)}, "
                "plain: readers take bold for the best",
                f"Bold the best value on {line.label} ({top.model} {top.text}), or mark the authors' "
                "rows another way and say so in the caption",
                {"bold": b.value, "better": [(p.model, p.value) for p in better]},
                Severity.INFO if said else None,
            )


def ahead_of_own_rows(
    emit: Emit, st: ScoreTable, line: ScoreLine, best: ScoreCell, ahead: list[ScoreCell], said: bool
) -> Finding:
    sign = 1 if line.higher_is_better else -1
    top = max(ahead, key=lambda c: sign * c.value)
    message = (
        f"{best.text} for {best.model} on {line.label} is the best of the bold cells (the "
        f"table bolds {len(st.highlighted)} rows throughout), but {top.model} has "
        f"{top.text}{others(ahead, top)}, plain: readers take bold for the best"
    )
    fix = (
        f"Bold the best value on {line.label} ({top.model} {top.text}), or mark the authors' "
        "rows another way and say so in the caption"
    )
    evidence = {"bold": best.value, "better": [(p.model, p.value) for p in ahead]}
    return emit(line, best, message, fix, evidence, Severity.INFO if said else None)
