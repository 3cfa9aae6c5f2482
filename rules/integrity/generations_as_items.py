"""BA304 generations-as-items: several samples per item treated as independent items."""

from __future__ import annotations

from benchaudit.finding import Severity
from benchaudit.registry import Rule


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
    branches = {
        "document": "benchaudit.rules._document:check_generations",
        "results": "benchaudit.rules._results:check_generations_as_items",
    }
