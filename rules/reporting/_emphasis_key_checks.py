"""BA601 misleading-emphasis against the key a document states for its marks ("Bold denotes
global SOTA, and underlined denotes open-source SOTA", "the best performance in each benchmark is
in bold"): part of :mod:`benchaudit.rules.reporting.misleading_emphasis`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from benchaudit.rules.reporting._emphasis import OPEN_SCOPE, Emit, best_cell, one_per_model, stem

if TYPE_CHECKING:
    from benchaudit.claims.emphasis_key import EmphasisKey
    from benchaudit.claims.scoretable import ScoreLine, ScoreTable
    from benchaudit.finding import Finding


def against_key(
    emit: Emit, st: ScoreTable, own: EmphasisKey, doc: EmphasisKey, outside: set[str]
) -> Iterator[Finding]:
    """The marks checked against the meaning the document gives them."""
    lines = [*st.lines, *st.aggregates]
    # Bold underlined cells are read as the underline's mark (the best open model), but when
    # the document says bold is the best overall, their bold states what the note denies.
    bold_said = own.bold_said if own.bold == "best" else doc.bold_said if doc.bold == "best" else ""
    if bold_said:
        for line in lines:
            sign = 1 if line.higher_is_better else -1
            cells = [c for c in line.cells if c.model not in outside]
            if not one_per_model(cells):
                continue
            top = max(cells, key=lambda c: sign * c.value)
            for c in cells:
                if c.bold_under and sign * c.value < sign * top.value:
                    yield emit(
                        line,
                        c,
                        f"{c.text} for {c.model} on {line.label} is set in bold (and underlined), and "
                        f'the document says "{bold_said}", but {top.model} has {top.text}',
                        f"Underline {c.text} on {line.label} without the bold, or bold only the best "
                        f"value ({top.model} {top.text})",
                        {"bold": c.value, "better": [(top.model, top.value)], "key": bold_said},
                    )
    under_said = (
        own.underline_said
        if own.underline == "scoped"
        else doc.underline_said
        if doc.underline == "scoped"
        else ""
    )
    # Only a scope of openness carries over to a model's variants; a size group does not.
    if OPEN_SCOPE.search(under_said):
        yield from scoped_underline(emit, lines, under_said, outside)
    if own.bold != "best":
        return
    # The table's own caption says each benchmark's best is bold: a benchmark with no bold
    # cell breaks it. Only where the table shows bold on several lines (the bold is read).
    marked = [ln for ln in lines if any(c.bold or c.bold_under for c in ln.cells)]
    bare = [
        ln
        for ln in lines
        if ln not in marked and len({c.value for c in ln.cells}) > 1 and one_per_model(ln.cells)
    ]
    if len(marked) < 2 or not bare:
        return
    first = bare[0]
    top = best_cell(first)
    named = ", ".join(
        f"{ln.label} ({b.model} {b.text})" for ln in bare[:4] for b in [best_cell(ln)]
    )
    more = f" and {len(bare) - 4} more" if len(bare) > 4 else ""
    yield emit(
        first,
        top,
        f'The table says "{own.bold_said}", but {len(bare)} of its {len(lines)} benchmarks have '
        f"no bold value: {named}{more}",
        "Bold the best value of every benchmark, as the caption says, or say which benchmarks "
        "the bold covers",
        {"key": own.bold_said, "unmarked": [ln.label for ln in bare], "marked": len(marked)},
    )


def scoped_underline(
    emit: Emit, lines: list[ScoreLine], said: str, outside: set[str]
) -> Iterator[Finding]:
    """The underline marks the best of some rows ("the best among open-source models"). Which
    rows those are is inferred from the table's own marks: a model underlined on some line is
    in the scope, and so is a variant of it ("X +Think"). An underlined cell that such a
    plain cell beats is not the best of its scope."""
    under = {c.model for ln in lines for c in ln.cells if c.underline}
    stems = {stem(m) for m in under}
    for line in lines:
        sign = 1 if line.higher_is_better else -1
        cells = [c for c in line.cells if c.model not in outside]
        if not one_per_model(cells):
            continue
        scope = [c for c in cells if stem(c.model) in stems and not c.underline and not c.bold]
        for u in (c for c in cells if c.underline):
            better = [c for c in scope if sign * c.value > sign * u.value]
            if not better:
                continue
            top = max(better, key=lambda c: sign * c.value)
            yield emit(
                line,
                u,
                f"{u.text} for {u.model} on {line.label} is underlined, and the document says "
                f'"{said}", but {top.model} has {top.text}, plain, though the table underlines '
                f"{'it' if top.model in under else 'a variant of it'} elsewhere (so it is in that scope)",
                f"Underline the best value of the scope on {line.label} ({top.model} {top.text})",
                {
                    "underlined": u.value,
                    "better": [(c.model, c.value) for c in better],
                    "key": said,
                },
            )
