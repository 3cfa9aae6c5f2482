"""BA902: an inline suppression comment that suppressed nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.evidence import KINDS, Source
from benchaudit.finding import Severity
from benchaudit.registry import AfterSuppressions, Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context


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

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Output]:
        # Whether a comment was used is known only once every rule has run, so
        # the findings are made where suppressions are applied.
        return [AfterSuppressions(s) for s in sources if s.kind in self.reads and s.lines]
