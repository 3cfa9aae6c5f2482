"""BA601 misleading-emphasis: a bold "best" cell that is not the best, or ties marked unalike."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from benchaudit.rules.reporting._emphasis import OWN_BOLD_SAID, others
from benchaudit.rules.reporting._emphasis_key_checks import against_key
from benchaudit.rules.reporting._highlighted_rows import highlighted_tie, only_own_bold

from benchaudit.claims.access import document_of, full_text, score_tables
from benchaudit.claims.emphasis_key import emphasis_key
from benchaudit.claims.scoretable import (
    ScoreCell,
    ScoreLine,
    ScoreTable,
    references,
    same_level_threshold,
)
from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Rule

#: A sentence saying what the underline marks.
_UNDERLINE_SAID = re.compile(r"[^.\n]{0,80}\bunderlin\w*[^.\n]{0,80}", re.I)
if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class MisleadingEmphasis(Rule):
    """Bold (or underline) that marks a cell as the best when it is not, or marks a tie unalike.

    **What.** In a score table, for every benchmark (a column, or a row when
    benchmarks run down the table), the rule compares the cells set in bold
    with the rest, in the metric's direction (lower is better for error
    rates, perplexity, latency): a bold cell that another, plain cell beats;
    two equal values of which only one is bold; and, when the document states
    its own rule ("gaps not exceeding 0.3 are considered the same level"), a
    plain cell within that gap of the best bold one, or a bold cell past it
    (a gap "smaller than 0.3" leaves out a gap of 0.3). Row groups are compared within
    themselves when the bold follows them. A model bold in every line is a
    highlighted row or column (the authors' model): where bold also marks the
    best values elsewhere, each of its cells that is not the best is flagged;
    where it is the only bold, each line where another model is ahead is
    flagged at its cell; where several such rows are the only bold, a line
    where a plain cell is ahead of every bold one is flagged, and, when two of
    those rows of one size ("-7B") sit side by side with different values (so
    no size group has them both as its best), so is each of their cells that a
    plain cell beats. Any of these is
    information when the table says its bold marks "ours"; with fewer than
    four lines such a row may be the best of an unlabelled group and is
    information. Within one labelled row group, two different bold values
    are flagged: only one of them is the group's best. A row bold throughout,
    in a table whose bold marks the best values elsewhere, is flagged where
    its value ties plain cells. Where the document states what its marks mean
    ("Bold denotes global SOTA, and underlined denotes open-source SOTA", "the
    best in each benchmark is in bold"), a cell drawn bold and underlined
    that is not the best overall breaks the stated key, and so does a
    benchmark left with no bold cell when the table's own caption promises
    one for each.

    **Why.** Readers take bold as "the best result" and read no further. A
    bold cell that is not the best, or a tie shown as a win, states a ranking
    the numbers do not have.

    Bad::

        | Model   | MMLU     |
        |---------|----------|
        | Ours    | **88.5** |
        | Rival   | 88.6     |

    Better::

        | Model   | MMLU     |
        |---------|----------|
        | Ours    | 88.5     |
        | Rival   | **88.6** |

    **Assumptions.** Bold marks the best value of its benchmark; tables that
    bold something else (the authors' rows, a group's best) are recognised
    when the bold follows that pattern consistently. Values are compared as
    written.
    """

    code = "BA601"
    name = "misleading-emphasis"
    severity = Severity.WARNING
    #: Whether the document being checked leaves the underline its usual meaning (second
    #: best); set for each document by on_document before its tables are read.
    _underline_second = True
    reads = ("document",)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Finding]:
        tables = score_tables(source, ctx)
        framed = [same_level_threshold(st.table.framing_text()) for st in tables]
        # A gap is in the units of the table whose caption or notes state it: it carries to
        # the tables that state none only when they are on the same scale (a 0.3 gap on 0-100
        # scores says nothing of 1-10 judge ratings). A rule in the body text governs all.
        body = None if any(framed) else same_level_threshold(full_text(source))
        stated_on = [(_scale(st.lines), r) for st, r in zip(tables, framed) if r is not None]
        # Underline read as the second best unless the document gives it another meaning
        # ("underlined denotes open-source SOTA").
        # The raw lines too: a note in an HTML block ("<sup>• … underlined denotes …</sup>")
        # is in no paragraph of the document model.
        raw = "\n".join(source.lines or []) if "underlin" in "".join(source.lines or []).lower() else ""
        said = [m.group(0) for m in _UNDERLINE_SAID.finditer(full_text(source) + "\n" + raw)]
        underline_second = not said or any("second" in t.lower() for t in said)
        # The key the document states for its marks ("Bold denotes global SOTA, and underlined
        # denotes open-source SOTA"): a table's own caption first, else a note of the document.
        doc_key = emphasis_key(full_text(source) + "\n" + raw)
        emit = partial(self._finding, source.path)
        for st, stated in zip(tables, framed):
            outside = references(st)
            # The caption first: a note or lead-in shared with a neighbouring table says less of this one.
            caption = st.table.caption.text if st.table.caption is not None else _page_caption(source, st)
            own_key = emphasis_key(caption + "\n" + st.table.framing_text())
            # A table's own caption says what its underline marks, whatever other tables' notes say.
            self._underline_second = (
                own_key.underline == "second" if own_key.underline else underline_second
            )
            yield from against_key(emit, st, own_key, doc_key, outside)
            for line in [*st.lines, *st.aggregates]:
                own_rule = stated or body
                carried = False
                if own_rule is None and len(stated_on) == 1 and stated_on[0][0] == _scale([line]):
                    own_rule, carried = stated_on[0][1], True
                for f in self._line(source.path, st, line, own_rule, outside, carried=carried):
                    if not st.bold_means_best and f.severity is not Severity.INFO:
                        # Most lines break "bold = best": the table bolds something else
                        # (the better of each pair, a chosen configuration). Say it, softly.
                        f.severity = Severity.INFO
                        f.message += (
                            f"; the bold marks the best of its line in only "
                            f"{st.bold_best_share:.0%} of the table's lines, so it may mark "
                            "something else (say what in the caption)"
                        )
                    yield f
                yield from highlighted_tie(emit, st, line, outside)
            yield from only_own_bold(emit, st, outside)

    def _line(
        self,
        path: str,
        st: ScoreTable,
        line: ScoreLine,
        own_rule: tuple[float, str] | None,
        outside: set[str],
        grouped: bool = False,
        carried: bool = False,
    ) -> Iterator[Finding]:
        cells = [c for c in line.cells if c.model not in outside]
        highlighted = [c for c in cells if c.model in st.highlighted]
        cells = [c for c in cells if c.model not in st.highlighted]
        bold = [c for c in cells if c.bold]
        plain = [c for c in cells if not c.bold]
        if not bold or not plain:
            return
        sign = 1 if line.higher_is_better else -1
        groups = set() if grouped else {c.group for c in cells}
        if len(groups) > 1 and not _consistent(cells, sign):
            # In a table with labelled row groups a bold cell competes with its own group only
            # ("~7B", "~70B", "Proprietary Models"): bold in one group beside a higher cell of
            # another (a block of closed models above the open ones) may mark that group's best.
            for g in sorted(groups):
                pool = [c for c in cells if c.group == g]
                sub = replace(line, cells=pool)
                yield from self._line(path, st, sub, own_rule, outside, grouped=True, carried=carried)
            return
        # Unless the table says its bold marks the authors' model, a reader takes a bold cell
        # for the best: two meanings of one mark in one table mislead.
        # On two or three lines a row bold throughout may as well be the best of its (unlabelled)
        # size group; only a longer run of bold is plainly the authors' highlight.
        said = bool(OWN_BOLD_SAID.search(st.table.framing_text())) or len(st.lines) < 4
        for h in highlighted:
            better = [p for p in plain if sign * p.value > sign * h.value]
            if bold and better:
                # The authors bold their own row throughout and the best value elsewhere:
                # a reader may take this cell for the best, but the convention is visible.
                top = max(better, key=lambda p: sign * p.value)
                yield self._finding(
                    path, line, h,
                    f"{h.text} for {h.model} on {line.label} is bold (the table bolds this model's "
                    f"row throughout) while bold also marks the best values, and {top.model} has "
                    f"{top.text}",
                    "Mark the authors' own row differently from the best values (e.g. a shaded row "
                    "or an 'ours' label)",
                    {"bold": h.value, "better": [(p.model, p.value) for p in better]},
                    severity=Severity.INFO if said else None,
                )
        yield from self._second_best(path, line, cells, sign)
        # Bold on several different values of one line, with no row groups seen: the bold may
        # mark the best of groups the table does not label (model sizes, settings). Only a plain
        # cell beating every bold one contradicts that reading.
        unlabelled_groups = len(groups) == 1 and len({c.value for c in bold}) > 1
        best_bold = max(sign * c.value for c in bold)
        for b in bold:
            better = [p for p in plain if sign * p.value > sign * b.value]
            if unlabelled_groups:
                better = [p for p in better if sign * p.value > best_bold]
            if better:
                top = max(better, key=lambda p: sign * p.value)
                message = (
                    f"{b.text} for {b.model} on {line.label} is set in bold as the best, but "
                    f"{top.model} has {top.text}{others(better, top)} and is not"
                )
                unsure = unlabelled_groups and not _next_to(cells, b, better)
                if unsure:
                    # Which cells compete with this bold one is a guess: a higher cell rows away
                    # may belong to another group (a reference block of closed models).
                    message += (
                        "; the bold marks several different values, so it may mark the best of "
                        "groups the table does not label"
                    )
                yield self._finding(
                    path, line, b,
                    message,
                    f"Bold the best value on {line.label} ({top.model} {top.text}), or say what the "
                    "bold marks",
                    {"bold": b.value, "better": [(p.model, p.value) for p in better]},
                    severity=Severity.INFO if unsure else None,
                )
                continue
            above = [o for o in bold if sign * o.value > sign * b.value] if grouped else []
            if above and len(cells) >= 3:
                # Within one labelled group two different values are both set as its best.
                top = max(above, key=lambda o: sign * o.value)
                yield self._finding(
                    path, line, b,
                    f"{b.text} for {b.model} on {line.label} is bold as the best of its group "
                    f"({b.group or 'the table'}), but {top.model}'s {top.text} in the same group is "
                    "bold too and is ahead: two different values are marked as the best",
                    f"Bold only the best value of the group on {line.label} ({top.model} {top.text})",
                    {"bold": b.value, "better": [(o.model, o.value) for o in above]},
                )
                continue
            ties = [p for p in plain if p.value == b.value]
            if ties:
                yield self._finding(
                    path, line, b,
                    f"{b.text} for {b.model} on {line.label} is bold but {ties[0].model} has the same "
                    f"{ties[0].text} and is not: a tie is shown as a win",
                    f"Mark every {b.text} on {line.label} alike",
                    {"bold": b.value, "ties": [p.model for p in ties]},
                )
                continue
            if own_rule is not None and not line.proportion:
                gap, rule_said = own_rule
                strict = bool(_STRICT_GAP.search(rule_said))
                # Only a rule stated for this table (or the whole document) says what its bold
                # marks; one carried from another table's caption may not apply to this one.
                below = [] if carried else [o for o in bold if _beyond(sign * (o.value - b.value), gap, strict)]
                if below and not unlabelled_groups or below and _near_rule(below, b, sign, gap):
                    # Two bold values further apart than the document's own "same level": the
                    # lower one is no longer at the best level by the document's rule. Only just
                    # past the gap (under twice it) when the bold marks several values and the
                    # table labels no groups, for a bold far below may be another group's best.
                    top = max(below, key=lambda o: sign * o.value)
                    diff = abs(top.value - b.value)
                    yield self._finding(
                        path, line, b,
                        f"{b.text} for {b.model} on {line.label} is bold as the best, but {top.model}'s "
                        f"{top.text}, bold too, is {diff:.3g} ahead, which is not "
                        f"{'smaller than' if strict else 'within'} the {gap:g} the document itself calls "
                        f"the same level (\"{rule_said}\")",
                        f"Leave {b.text} on {line.label} plain, as the document's own rule says, or state "
                        "the rule the bold follows",
                        {"bold": b.value, "gap": gap, "strict": strict, "ahead": [(o.model, o.value) for o in below]},
                    )
                    continue
                # The same level is the best value's: a plain cell near a lower bold one may be
                # past the gap from the best (84.0 beside a bold 84.1 under a best of 84.3).
                near = [p for p in plain if _within(sign * (b.value - p.value), gap, strict)]
                near = near if sign * b.value == best_bold else []
                if near:
                    yield self._finding(
                        path, line, b,
                        f"{b.text} for {b.model} on {line.label} is bold but {near[0].model}'s "
                        f"{near[0].text} is within {gap:g} of it, which the document itself "
                        f"calls the same level (\"{rule_said}\")",
                        f"Bold {near[0].model}'s {near[0].text} on {line.label} too, as the "
                        "document's own rule says",
                        {"bold": b.value, "gap": gap, "near": [(p.model, p.value) for p in near]},
                    )

    def _second_best(
        self, path: str, line: ScoreLine, cells: list[ScoreCell], sign: int
    ) -> Iterator[Finding]:
        """Beside bold for the best, underline marks the second best: an underlined cell that a
        plain one beats is not the runner-up it is shown as."""
        if not self._underline_second:
            return
        under = [c for c in cells if c.underline and not c.bold]
        plain = [c for c in cells if not c.underline and not c.bold]
        for u in under:
            better = [p for p in plain if sign * p.value > sign * u.value]
            ties = [p for p in plain if p.value == u.value]
            if ties and not better:
                # The runner-up shared: underlining one of the equal values ranks them.
                yield self._finding(
                    path, line, u,
                    f"{u.text} for {u.model} on {line.label} is underlined as the second best (bold "
                    f"marks the best), but {ties[0].model} has the same {ties[0].text} and is not: a "
                    "tie marked unalike",
                    f"Underline every {u.text} on {line.label}",
                    {"underlined": u.value, "ties": [p.model for p in ties]},
                )
            if not better:
                continue
            top = max(better, key=lambda p: sign * p.value)
            yield self._finding(
                path, line, u,
                f"{u.text} for {u.model} on {line.label} is underlined as the second best (bold "
                f"marks the best), but {top.model} has {top.text}{others(better, top)} and is not",
                f"Underline the second best value on {line.label} ({top.model} {top.text}), or say "
                "what the underline marks",
                {"underlined": u.value, "better": [(p.model, p.value) for p in better]},
            )

    def _finding(
        self,
        path: str,
        line: ScoreLine,
        cell: ScoreCell,
        message: str,
        fix: str,
        evidence: dict[str, Any],
        severity: Severity | None = None,
    ) -> Finding:
        where = Location(path, cell.line, cell.column, cell.page)
        return self.finding(
            where,
            message,
            claim=f"{cell.model} | {line.label}: {cell.text}",
            suggestion=fix,
            evidence={"benchmark": line.label, **evidence},
            severity=severity,
            confidence=Confidence.MEDIUM,
        )


#: A stated gap that is exclusive ("a gap smaller than 0.3"): a gap of exactly 0.3 is not the
#: same level. "Not exceeding", "at most", "within", "up to" include it.
_STRICT_GAP = re.compile(r"\b(?:less\s+than|smaller\s+than|below|under)\b|<(?!=)", re.I)


#: A caption block ("Table 4: ...") that the reader left beside its table rather than on it.
_CAPTION = re.compile(r"^\s*(?:Table|Tab\.)\s*\d+\b", re.I)


def _page_caption(source: Source, st: ScoreTable) -> str:
    """The caption of a PDF table left as a block of its page, when the page has one table."""
    page = st.table.page
    doc = document_of(source)
    if page is None or doc is None or st.table.caption is not None:
        return ""
    if sum(1 for t in doc.tables() if t.page == page) != 1:
        return ""
    return " ".join(b.text for b in doc.blocks() if b.page == page and _CAPTION.match(b.text))


def _within(diff: float, gap: float, strict: bool) -> bool:
    """Whether a positive difference is inside the document's same-level gap."""
    return 0 < diff < gap - 1e-9 if strict else 0 < diff <= gap + 1e-9


def _beyond(diff: float, gap: float, strict: bool) -> bool:
    """Whether a positive difference is past the document's same-level gap."""
    return diff >= gap - 1e-9 if strict else diff > gap + 1e-9


def _near_rule(below: list[ScoreCell], b: ScoreCell, sign: int, gap: float) -> bool:
    """Whether the closest bold value ahead of ``b`` is under twice the stated gap from it."""
    return min(sign * (o.value - b.value) for o in below) < 2 * gap


def _scale(lines: list[ScoreLine]) -> int:
    """The scale scores are on: 100 (percentages), 10 (judge ratings) or 1."""
    top = max((abs(c.value) for line in lines for c in line.cells), default=0.0)
    return 100 if top > 10 else 10 if top > 1 else 1


def _consistent(cells: list[ScoreCell], sign: int) -> bool:
    bold = [c for c in cells if c.bold]
    if not bold:
        return True
    top = max(sign * c.value for c in cells)
    return all(sign * c.value == top for c in bold)


def _next_to(cells: list[ScoreCell], cell: ScoreCell, better: list[ScoreCell]) -> bool:
    """Whether a higher cell is the bold cell's neighbour in the table's order (its own group)."""
    at = next(i for i, c in enumerate(cells) if c is cell)
    near = cells[max(0, at - 1) : at + 2]
    return any(p is c for p in better for c in near)


