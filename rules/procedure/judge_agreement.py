"""BA405 judge-agreement: an LLM judge trusted on raw agreement with humans, without kappa or a swap test."""

from __future__ import annotations

from benchaudit.finding import Severity
from benchaudit.registry import Rule


class JudgeAgreement(Rule):
    """An LLM judge trusted on raw agreement with humans, without kappa or a swap test.

    **What.** Documents: "85% agreement with human annotators" for a judge with no
    chance-corrected statistic (Cohen's κ, Krippendorff's α) anywhere in the
    document; the message also says when no swap test (the two responses in
    both orders) is reported.

    Judge audit files (kind ``judgments``): with judge and human labels per
    item, Cohen's κ with its 95% interval (Fleiss–Cohen–Everitt standard error)
    is reported beside raw agreement; a warning when raw agreement is 80% or
    more but κ is below 0.8, since the raw figure flatters the judge; a note
    that the file has no swap test. With verdicts in both orders, the share of
    pairs where the judge kept the same slot (position-bias rate) and the
    consistency-required win rate; a warning when 10% or more of the pairs
    were decided by position.

    **Why.** Raw agreement counts the agreement two raters reach by chance: with
    label rates of 70% and 75%, chance alone agrees 60% of the time and 85%
    raw agreement is κ = 0.625 (table 65/20/5/10). A judge that prefers the
    first position can agree with humans often and still be biased.

    Bad::

        GPT-4 as a judge reaches 85% agreement with human annotators.

    Better::

        GPT-4 as a judge agrees with human annotators on 85% of pairs
        (Cohen's κ = 0.63); with the responses swapped, 83%.

    **Assumptions.** The kappa in the message is an example for the stated agreement at
    typical label rates; the real one needs the label rates.
    """

    code = "BA405"
    name = "judge-agreement"
    severity = Severity.WARNING
    branches = {
        "document": "benchaudit.rules._document:check_judge",
        "judgments": "benchaudit.rules._judgments:check_judgments",
    }
