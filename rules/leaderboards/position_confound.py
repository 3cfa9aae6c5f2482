"""BA502 position-confound: a model that always sits in the same slot of its battles."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.options import Option
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: Fewer battles than this say little about a model's slot.
MIN_BATTLES = 5


class PositionConfound(Rule):
    """A model always sits in one slot (model_a or model_b): position and strength are confounded.

    **What.** In a battles file, a model with at least ``min-battles`` (default
    5) battles that appears only as ``model_a`` or only as ``model_b`` is
    flagged; one finding per file names the model with most battles and counts
    the others.

    **Why.** Pairwise judges, human or LLM, favour a position (often the first
    answer). If the baseline is always shown first, the judge's position
    preference is added to (or taken from) the baseline's strength and cannot
    be estimated: the Bradley–Terry fit has one parameter for two effects. The
    Arena-Hard battles of September 2024 have claude-3-haiku as model_a in all
    2,136 rows.

    Bad (battles.jsonl)::

        {"model_a": "base", "model_b": "x", "winner": "model_a"}
        {"model_a": "base", "model_b": "x", "winner": "model_b"}
        {"model_a": "base", "model_b": "y", "winner": "model_b"}
        {"model_a": "base", "model_b": "y", "winner": "model_b"}
        {"model_a": "base", "model_b": "x", "winner": "tie"}

    Better (battles.jsonl)::

        {"model_a": "base", "model_b": "x", "winner": "model_a"}
        {"model_a": "x", "model_b": "base", "winner": "model_a"}
        {"model_a": "base", "model_b": "y", "winner": "model_b"}
        {"model_a": "y", "model_b": "base", "winner": "model_b"}
        {"model_a": "x", "model_b": "y", "winner": "tie"}

    **Assumptions.** ``model_a`` is the slot the judge saw first. A file whose
    rows were already averaged over both orders should say so in its name or
    provenance; the rule cannot tell.
    """

    code = "BA502"
    name = "position-confound"
    option_types = {"min-battles": Option("int", 1, 10**9)}
    severity = Severity.WARNING
    reads = ("battles",)

    def on_battles(self, source: Source, ctx: Context) -> Iterable[Finding]:
        data = source.data
        minimum = int(self.options.get("min-battles", MIN_BATTLES))
        as_a, as_b = data.slots()
        total = as_a + as_b
        stuck = [
            k
            for k in range(len(data.models))
            if total[k] >= minimum and (as_a[k] == 0 or as_b[k] == 0)
        ]
        if not stuck:
            return
        stuck.sort(key=lambda k: (-int(total[k]), data.models[k]))
        k = stuck[0]
        slot = "model_a" if as_b[k] == 0 else "model_b"
        other = "model_b" if slot == "model_a" else "model_a"
        more = (
            f" (and {len(stuck) - 1} other model(s) always sit in one slot)"
            if len(stuck) > 1
            else ""
        )
        first_row = int((data.a if slot == "model_a" else data.b).tolist().index(k))
        yield self.finding(
            Location(source.path, data.line_of(first_row)),
            f"{data.models[k]} is {slot} in all {int(total[k])} of its battles{more}: the "
            "judge's position preference cannot be separated from its strength",
            claim=data.models[k],
            suggestion=(
                f"Judge each pair in both orders (swap {slot} and {other}) and keep both "
                f"verdicts, or randomise the slot per battle; then estimate a first-position "
                f"effect alongside the ratings."
            ),
            evidence={
                "model": data.models[k],
                "slot": slot,
                "battles": int(total[k]),
                "one_slot_models": {
                    data.models[j]: {"model_a": int(as_a[j]), "model_b": int(as_b[j])}
                    for j in stuck
                },
            },
            confidence=Confidence.MEDIUM,
        )
