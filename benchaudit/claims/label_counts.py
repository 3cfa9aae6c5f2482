"""The item count a table header states for its column: "AIME (30)", "MATH (n = 500)".

One reading for every table path. A small count of *tasks* ("Public (7 Tasks)") is a group of
tasks whose scores are averaged, not the number of scored items, so it gives no n; nor does any
count under :data:`MIN_TASK_ITEMS` ("HellaSwag (n = 5)" where a caption says "n stands for
n-shot"): a shot count, a task group or a version is far likelier than a test set that small.
"""

from __future__ import annotations

import re

_IN_LABEL = re.compile(
    r"\(\s*(?:n\s*=\s*)?(\d[\d,]*)\s*(items?|questions?|problems?|tasks?|prompts?)?\s*\)"
    r"|\bn\s*=\s*(\d[\d,]*)",
    re.I,
)
#: Fewer than this in a header are a task group or a shot count, not scored items.
MIN_TASK_ITEMS = 20


def items_in_label(label: str) -> int | None:
    """The item count a header states, or None."""
    m = _IN_LABEL.search(label)
    if not m:
        return None
    n = int((m.group(1) or m.group(3)).replace(",", ""))
    if n < MIN_TASK_ITEMS:
        return None
    return n
