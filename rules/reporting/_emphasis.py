"""Pieces BA601 misleading-emphasis shares between its checks
(:mod:`benchaudit.rules.reporting.misleading_emphasis`): how a finding is made, which model a
variant is, and the marks a table sets on its own rows."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from benchaudit.claims.scoretable import ScoreCell, ScoreLine, ScoreTable
    from benchaudit.finding import Finding, Severity


class Emit(Protocol):
    """The rule's finding at a cell of a line: message, suggested fix, evidence, severity."""

    def __call__(
        self,
        line: ScoreLine,
        cell: ScoreCell,
        message: str,
        fix: str,
        evidence: dict[str, Any],
        severity: Severity | None = None,
    ) -> Finding: ...


#: A caption or note saying the bold marks the authors' own model ("ours in bold").
OWN_BOLD_SAID = re.compile(
    r"\b(?:ours|our (?:models?|method|results?)|this work|proposed)\b[^.]{0,40}\b(?:bold|highlighted|shaded)"
    r"|\b(?:bold|highlighted|shaded)[^.]{0,40}\b(?:ours|our (?:models?|method|results?)|this work|proposed)\b",
    re.I,
)


#: A scope by openness ("open-source SOTA", "best among open-weight models").
OPEN_SCOPE = re.compile(r"\b(?:open|closed)[- ]?(?:source|weights?)\b|\bproprietary\b", re.I)

#: A variant's tail on a model name: "+Think", "(thinking)", "-Instruct (w/ tools)".
_VARIANT_TAIL = re.compile(r"\s*(?:\+\s*\w+|\([^()]*\))\s*$")


def stem(model: str) -> str:
    """A model's name without its variant tails ("MiMo-Audio-7B-Instruct +Think" -> "MiMo-Audio-7B-Instruct")."""
    stem = model
    while (cut := _VARIANT_TAIL.sub("", stem)) != stem and cut:
        stem = cut
    return stem.strip(" `*_").lower()


def best_cell(line: ScoreLine) -> ScoreCell:
    """The line's best cell in its metric's direction."""
    sign = 1 if line.higher_is_better else -1
    return max(line.cells, key=lambda c: sign * c.value)


def one_per_model(cells: list[ScoreCell]) -> bool:
    """Whether each model has one cell: a model twice in a line is several benchmarks read as one."""
    return len({c.model for c in cells}) == len(cells)


#: A model's parameter count in its name ("MetaMath-Mistral-7B", "Llama-2 (13B)").
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*[BM]\b")


def adjacent_highlights(st: ScoreTable, line: ScoreLine) -> bool:
    """Whether two highlighted models of the same size are next to each other in the line's
    order (the table's row order) with different values: then they are in one size group, and
    they cannot both be its best, so the bold marks the rows."""
    cells = line.cells
    for a, b in zip(cells, cells[1:]):
        if a.model in st.highlighted and b.model in st.highlighted and a.value != b.value:
            sa, sb = _SIZE.findall(a.model), _SIZE.findall(b.model)
            if sa and sa == sb:
                return True
    return False


def names_bold(st: ScoreTable) -> bool:
    """Whether the highlighted rows' name cells are bold and no other row's name is."""
    if st.transposed:
        return False
    bold_names = {r[0].text.strip() for r in st.table.rows if r and r[0].bold}
    return bool(bold_names) and bold_names <= st.highlighted and st.highlighted <= bold_names


def others(better: list[ScoreCell], top: ScoreCell) -> str:
    rest = [p for p in better if p is not top]
    if not rest:
        return ""
    names = ", ".join(f"{p.model} {p.text}" for p in rest[:3])
    return f" (also higher: {names})" if rest else ""
