"""BA304 generations-as-items: several samples per item treated as independent items."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from benchaudit.finding import Finding, Severity
from benchaudit.registry import Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class GenerationsAsItems(Rule):
    """Several samples per item treated as independent items.

    **What.** Documents: "10 completions per problem ... standard error over all
    1,640 samples" or "n = 1,640" for 164 problems, or "treating each sample
    as an item".

    Per-item files with several rows per model and item (a sample column): the SE
    over generations is set against the SE over item means; a generation-level SE
    more than 5% too small is a warning.

    **Why.** Samples of one item share its difficulty: they are correlated, so
    counting them as items shrinks the standard error by up to √k. The unit of
    the interval is the item (or a clustered SE with items as clusters).

    Bad::

        We sample 10 completions per problem on HumanEval and report the
        standard error over all 1,640 samples.

    Better::

        We sample 10 completions per problem on HumanEval, average them within
        each problem, and report the standard error over the 164 problems.

    **Assumptions.** The stated count is items × samples per item.
    """

    code = "BA304"
    name = "generations-as-items"
    severity = Severity.WARNING
    reads = ("document", "results")

    def check(self, source: Source, ctx: Context) -> Iterable[Finding]:
        branch = _BRANCHES.get(source.kind)
        if branch is not None:
            yield from branch(self, source, ctx)


def _document(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._document import check_generations

    yield from check_generations(rule, source, ctx)


def _results(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._results import check_generations_as_items

    yield from check_generations_as_items(rule, source, ctx)


_BRANCHES = {"document": _document, "results": _results}
