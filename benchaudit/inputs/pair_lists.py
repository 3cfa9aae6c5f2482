"""A list of bracketed pairs that share the claimed score: "surpassing A (73.2 vs. 67.0), B (73.2
vs. 72.5) and C (73.2 vs. 71.2)". Each pair is the subject's score against one rival's; the
claim holds only if it holds against the nearest rival, so that pair is the one to check."""

from __future__ import annotations

import re

_NUM = r"\d{1,3}(?:\.\d+)?"
#: "(73.2 vs. 67.0)", "(2023/03/15, 73.2 vs. 67.0)", "(73.2% vs 72.5%)": a pair closing its bracket.
_BRACKETED = re.compile(
    rf"\((?:[^()]*?[,;:]\s*)?(?<![\w.\-/])(?P<x>{_NUM})\s*%?\s*(?:vs\.?|versus)\s*(?P<y>{_NUM})(?![\d.])\s*%?\s*\)",
    re.I,
)


def nearest_of_pairs(text: str) -> tuple[str, str] | None:
    """The pair of a list of two or more bracketed pairs with one claimed score whose rival is
    nearest it, or None when the text holds no such list (pairs with different first scores
    may be different benchmarks, each with its own test set)."""
    pairs = [(m.group("x"), m.group("y")) for m in _BRACKETED.finditer(text)]
    if len(pairs) < 2 or len({x for x, _ in pairs}) != 1:
        return None
    x = float(pairs[0][0])
    if any(float(y) >= x for _, y in pairs):
        return None  # a rival level or ahead is no list of leads: read as written
    return min(pairs, key=lambda p: x - float(p[1]))
