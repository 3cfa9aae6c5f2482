"""BA901: an inline suppression comment that gives no reason."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.evidence import KINDS, Source
from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule
from benchaudit.suppress import suppressions

if TYPE_CHECKING:
    from benchaudit.engine import Context


class SuppressionWithoutReason(Rule):
    """An inline suppression comment without a reason; it suppresses nothing.

    **What**: a ``benchaudit: ignore[...]`` comment with nothing after the
    brackets (or only punctuation and digits). Such a comment is not honoured:
    the finding it was meant to hide is still reported, and this rule says why.

    **Why**: a suppression is a claim that a finding does not apply. Without
    the reason, the next reader cannot tell a checked exception from a number
    someone wanted to stop hearing about, and a baseline of silent
    suppressions hides exactly the errors the check exists to catch.

    Bad::

        <!-- benchaudit: ignore[unreachable-score] -->
        We reach 87.3% on HumanEval.

    Better::

        <!-- benchaudit: ignore[unreachable-score] mean over 10 samples per problem -->
        We reach 87.3% on HumanEval.

    **Assumptions**: the reason is free text after the closing bracket, ended
    by ``-->`` in markdown and HTML or by the end of the line after ``#`` in
    CSV, TSV and text files; it must contain at least two letters.
    """

    code = "BA901"
    name = "suppression-without-reason"
    severity = Severity.WARNING
    reads = KINDS

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        """The comments of every source read (they are the same in every kind)."""
        for source in sources:
            if source.kind in self.reads:
                yield from self._comments(source)

    def _comments(self, source: Source) -> Iterable[Finding]:
        for sup in suppressions(source):
            if sup.valid:
                continue
            names = ", ".join(sup.names) or "*"
            opener, closer = ("#", "") if sup.text.lstrip().startswith("#") else ("<!--", " -->")
            fixed = (
                f"{opener} benchaudit: ignore[{names}] <why this finding does not apply>{closer}"
            )
            yield self.finding(
                Location(source.path, sup.line, sup.column),
                f"suppression of {names} gives no reason, so line {sup.target} is still checked",
                claim=sup.text,
                suggestion=fixed,
                evidence={
                    "line": sup.line,
                    "target_line": sup.target,
                    "rules": list(sup.names),
                    "reason_chars": len(sup.reason),
                },
            )
