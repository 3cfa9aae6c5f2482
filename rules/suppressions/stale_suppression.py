"""BA902: an inline suppression comment that suppressed nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.evidence import KINDS, Source
from benchaudit.finding import Finding, Location, Severity
from benchaudit.options import is_broad
from benchaudit.rulebase import Rule
from benchaudit.suppress import Suppression, honoured, suppressions

if TYPE_CHECKING:
    from benchaudit.context import RunContext


class StaleSuppression(Rule):
    """An inline suppression that suppressed no finding, or names no rule.

    **What**: a ``benchaudit: ignore[...]`` comment (with a reason) whose line
    had no finding of the rules it names in a run where those rules ran, or
    a comment naming a rule that does not exist (a misspelt name suppresses
    nothing). Comments naming a rule that was not selected are left alone.

    **Why**: the number under a suppression gets corrected, the comment
    stays, and months later it silently hides a new problem on that line.
    A misspelt rule name looks like a suppression and does nothing.

    Bad (not runnable)::

        <!-- benchaudit: ignore[unreachable-scores] mean over 10 samples -->
        We reach 87.3% on HumanEval.

    Better::

        <!-- benchaudit: ignore[unreachable-score] mean over 10 samples -->
        We reach 87.3% on HumanEval.

    The Bad example needs no other rule to run (the name is misspelt), but the
    finding is information only, so the documentation test cannot see it;
    ``tests/rules/cases/suppressions/stale-suppression.yaml`` checks it.

    **Assumptions**: the findings are counted after per-file ignores, so a
    comment made redundant by a per-file ignore is reported as stale too.
    """

    code = "BA902"
    name = "stale-suppression"
    severity = Severity.INFO
    reads = KINDS

    def audit_suppressions(self, sources: list[Source], ctx: RunContext) -> Iterable[Finding]:
        """The comments of every text source read that suppressed nothing (called by the
        engine once inline suppressions are applied: only then is it known)."""
        known, ran_keys, whole = ctx.known_rules, ctx.selected_rules, ctx.all_selected
        if not known:
            return  # a context built by hand, without the registry's names: nothing to judge by
        allow_broad = ctx.config.allow_broad_ignores
        for source in sources:
            if source.kind not in self.reads or not source.lines:
                continue
            for sup in suppressions(source):
                if not honoured(sup, allow_broad) or sup.used:
                    continue  # broad comments not honoured are broad-suppression's to report
                message = _stale_message(sup, known, ran_keys, whole)
                if message is None:
                    continue
                yield self.finding(
                    Location(source.path, sup.line, sup.column),
                    message,
                    claim=sup.text,
                    suggestion="delete the comment, or correct the rule name in it",
                    evidence={
                        "line": sup.line,
                        "target_line": sup.target,
                        "rules": list(sup.names),
                        "unknown_rules": [n for n in sup.names if _unknown(n, known)],
                    },
                )


def _unknown(name: str, known: frozenset[str]) -> bool:
    return not is_broad(name) and name.lower() not in known


def _stale_message(sup: Suppression, known: frozenset[str], ran: frozenset[str], whole: bool) -> str | None:
    """Why a comment that hid nothing is stale, or None when the run cannot tell."""
    unknown = [n for n in sup.names if _unknown(n, known)]
    if unknown:
        return (
            f"suppression names {', '.join(unknown)}, which is no rule "
            "(see 'benchaudit rules'), so it suppresses nothing"
        )
    if not sup.names:
        return "suppression names no rule, so it suppresses nothing"
    if not all(is_broad(n) or n.lower() in ran for n in sup.names):
        return None  # a rule it names did not run, so we cannot tell
    if sup.broad and not whole:
        return None  # only some rules ran: '*' may still be needed by the others
    return (
        f"suppression of {', '.join(sup.names)} on line {sup.target} "
        "suppressed nothing in this run; remove it"
    )
