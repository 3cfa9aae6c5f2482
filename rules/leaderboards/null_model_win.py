"""BA504 null-model-win: one identical output on every item wins many judge comparisons."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: A constant answer to different instructions should win (almost) never.
MIN_WIN_RATE = 0.10
MIN_ITEMS = 20


class NullModelWin(Rule):
    """A model that gives the same output on every item still wins the judge's comparisons.

    **What.** In per-item judge preferences against a baseline (AlpacaEval
    annotations: ``model``, item, ``preference`` 1–2 or 0–1, and ``output`` /
    ``output_hash`` or ``output_len_chars``), a model whose output is identical
    on all of at least 20 items and whose win rate is 10% or more is flagged.
    With only lengths in the file, one length on every item stands in for one
    output (medium confidence).

    **Why.** One fixed string cannot answer hundreds of different
    instructions. If it wins, the judge is rewarding something other than the
    answer (format, length, an injected instruction): the "null model" attack
    on LLM-judge benchmarks. AlpacaEval 2.0's NullModel gives one 872-character
    string on all 805 items and wins 76.9% of comparisons against GPT-4 Turbo,
    ranking first by length-controlled win rate.

    Bad (preferences.csv)::

        model,item_idx,preference,output_len_chars
        null,0,1.9,40
        null,1,1.8,40
        null,2,1.7,40
        null,3,1.9,40
        null,4,1.2,40
        null,5,1.6,40
        null,6,1.9,40
        null,7,1.8,40
        null,8,1.7,40
        null,9,1.9,40
        null,10,1.2,40
        null,11,1.6,40
        null,12,1.9,40
        null,13,1.8,40
        null,14,1.7,40
        null,15,1.9,40
        null,16,1.2,40
        null,17,1.6,40
        null,18,1.9,40
        null,19,1.8,40

    Better (preferences.csv)::

        model,item_idx,preference,output_len_chars
        null,0,1.0,40
        null,1,1.0,40
        null,2,1.0,40
        null,3,1.0,40
        null,4,1.0,40
        null,5,1.0,40
        null,6,1.0,40
        null,7,1.0,40
        null,8,1.0,40
        null,9,1.0,40
        null,10,1.0,40
        null,11,1.0,40
        null,12,1.0,40
        null,13,1.0,40
        null,14,1.0,40
        null,15,1.0,40
        null,16,1.0,40
        null,17,1.0,40
        null,18,1.0,40
        null,19,1.0,40

    **Assumptions.** Preferences on the 1–2 scale have 2 = the model won (win
    rate = mean of preference − 1, AlpacaEval's definition); on 0–1, 1 = won.
    """

    code = "BA504"
    name = "null-model-win"
    severity = Severity.WARNING
    reads = ("judgments",)

    def on_judgments(self, source: Source, ctx: Context) -> Iterable[Finding]:
        data = source.data
        if getattr(data, "layout", None) != "preferences":
            return
        for r in data.preferences():
            by_text = r["distinct_outputs"] == 1
            by_len = r["distinct_outputs"] is None and r["distinct_lengths"] == 1
            if r["items"] < MIN_ITEMS or not (by_text or by_len) or r["win_rate"] < MIN_WIN_RATE:
                continue
            if by_text:
                same = "one identical output"
            else:
                length = data.output_len[data.lines.index(r["first_line"])]
                same = f"outputs of one length ({length} characters)"
            pct, se = 100 * r["win_rate"], 100 * r["se"]
            yield self.finding(
                Location(source.path, r["first_line"]),
                f"{r['model']} gives {same} on all {r['items']} items and still wins "
                f"{pct:.1f}% (SE {se:.1f}) of the judge's comparisons: the judge rewards "
                "something other than the answer",
                claim=f"{r['model']} win rate {pct:.1f}%",
                suggestion=(
                    f"Do not report {r['model']}'s {pct:.1f}% as a result; treat the judge as "
                    "gameable on this benchmark: add a constant-output control (it must score "
                    "near 0%), and check outputs for answer-independence before ranking."
                ),
                evidence={
                    "model": r["model"],
                    "items": r["items"],
                    "win_rate": r["win_rate"],
                    "se": r["se"],
                    "identical_by": "text" if by_text else "length",
                },
                confidence=Confidence.HIGH if by_text else Confidence.MEDIUM,
            )
