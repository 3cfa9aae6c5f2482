"""BA903: a suppression of every rule, or of a whole family, that was not allowed."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.evidence import KINDS, Source
from benchaudit.finding import Finding, Location, Severity
from benchaudit.rulebase import Rule
from benchaudit.suppress import suppressions

if TYPE_CHECKING:
    from benchaudit.engine import Context


class BroadSuppression(Rule):
    """A suppression of every rule or a whole family; not honoured unless allowed.

    **What**: an inline ``benchaudit: ignore[*]`` (or ``ignore[BA1]``, a whole
    family), or in the configuration file ``ignore = ["BA"]``, a per-file
    ignore of ``*`` or a family, or ``fail-on = "never"``. Without
    ``allow-broad-ignores = true`` in the configuration these are not
    honoured: the findings they would hide are reported, and so are they.

    **Why**: the configuration and the documents come with the pull request
    being checked. One line, invisible in the rendered page, would otherwise
    turn a document full of impossible numbers into grade A with nothing said.
    Naming the rules a finding does not apply to keeps the rest checked, and
    a maintainer who wants the wholesale switch says so in one visible key.

    Bad::

        <!-- benchaudit: ignore[*] ok fine -->
        We reach 87.3% on HumanEval.

    Better::

        <!-- benchaudit: ignore[unreachable-score] mean over 10 samples per problem -->
        We reach 87.3% on HumanEval.

    **Assumptions**: command-line flags (``--ignore BA``, ``--fail-on never``)
    are the choice of whoever runs the check and are honoured; only what the
    files under check ask for is refused.
    """

    code = "BA903"
    name = "broad-suppression"
    severity = Severity.WARNING
    reads = KINDS

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        """The comments of every source read, then the configuration's refused keys."""
        for source in sources:
            if source.kind in self.reads:
                yield from self._comments(source, ctx)
        for r in ctx.config.refused:
            what = (
                "fail-on = never would pass every finding"
                if r.key == "fail-on"
                else f"{r.key} names {r.value!r}, a whole family of rules or every rule"
            )
            yield self.finding(
                Location(_relative(r.where), r.line),
                f"{what}; not honoured without allow-broad-ignores = true",
                claim=f"{r.key} = {r.value}",
                suggestion="name the rules that do not apply (and why), or set "
                "allow-broad-ignores = true in the same file",
                evidence={"key": r.key, "value": r.value},
            )

    def _comments(self, source: Source, ctx: Context) -> Iterable[Finding]:
        if ctx.config.allow_broad_ignores:
            return
        for sup in suppressions(source):
            if not (sup.valid and sup.broad):
                continue
            names = ", ".join(sup.names)
            yield self.finding(
                Location(source.path, sup.line, sup.column),
                f"suppression of {names} covers whole families of rules, so it is not "
                f"honoured and line {sup.target} is still checked",
                claim=sup.text,
                suggestion="benchaudit: ignore[<rule-name>] <why this finding does not apply>",
                evidence={"line": sup.line, "target_line": sup.target, "rules": list(sup.names)},
            )


def _relative(path: str) -> str:
    """The configuration file as the other findings name files: relative when under the cwd."""
    rel = os.path.relpath(path) if os.path.isabs(path) else path
    return path if rel.startswith("..") else rel
