"""Two scores each with whose they are: "84.8 for A vs 83.1 for B", "28.76 on Physics vs 28.3 for
B", "63.8 compared to humans' 60.3". The names sit between the numbers, so the plain "x vs y"
reading misses them."""

from __future__ import annotations

import re

_NUM = r"\d{1,3}(?:\.\d+)?"
#: A name of up to five words ("Qwen-2.5 72B Instruct", "dots.llm1.inst"), no clause punctuation.
_NAME = r"[A-Za-z][\w.\-]*(?:\s+[\w.\-]+){0,4}?"
_NAMED_VS = re.compile(
    rf"(?<![\w.\-/])(?P<x>{_NUM})\s*%?\s+(?:for|by|from|on)\s+{_NAME}\s*,?\s+"
    rf"(?:vs\.?|versus|against|compared\s+(?:to|with))\s+(?P<y>{_NUM})(?![\d.])\s*%?\s+(?:for|by|from)\s+\S",
    re.I,
)


#: Emphasis marks a text kept around a number ("**63.8**" where Markdown was not rendered: a PDF
#: or plain text made from it).
_EMPH = r"(?:\*{1,2}|_{1,2})?"
#: "scoring 63.8 compared to humans' 60.3", "72.1 vs. GPT-4's 70.4": the rival's score after its
#: possessive name.
_POSSESSIVE_VS = re.compile(
    rf"(?<![\w.,\-/])(?P<x>{_NUM}){_EMPH}\s*%?\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+"
    rf"(?:the\s+)?{_NAME}(?:'s|’s|'|’)\s+{_EMPH}(?P<y>{_NUM})(?![\d.,]|\s*[BM]\b)",
    re.I,
)


def named_pair(text: str) -> tuple[str, str] | None:
    """The two scores of "x for A vs y for B" or "x compared to B's y" in the order written,
    or None."""
    m = _NAMED_VS.search(text) or _POSSESSIVE_VS.search(text)
    return (m.group("x"), m.group("y")) if m else None
