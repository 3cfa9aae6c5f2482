"""What rules and the configuration share: the options a rule declares, their bounds, and the
rule-name patterns that name a whole family. Stdlib only, so a rule can import it without
importing the configuration (which looks rules up in the registry).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MAX_DOCS", "MAX_WORKERS", "Option", "is_broad"]

#: Contamination: the document-frequency cap, and worker processes / Ray actors.
MAX_DOCS = 10**9
MAX_WORKERS = 256


@dataclass(frozen=True)
class Option:
    """A per-rule option a rule declares: its type and, for numbers, its bounds.

    ``kind`` is ``int``, ``number``, ``bool``, ``str``, ``ints`` (one or a list),
    ``table-of-int`` or ``table-of-number``; ``choices`` limits a ``str``.
    """

    kind: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()


def is_broad(name: str) -> bool:
    """``*`` or a code prefix naming a whole family (``BA``, ``BA1``), not one rule."""
    return name.strip() == "*" or bool(re.fullmatch(r"(?i)ba\d{0,2}", name.strip()))
