"""Other ways of writing numbers, rewritten to the one the number grammar reads.

Authors write ``61.3\\%`` and ``$82.4 \\pm 0.3$`` (LaTeX pasted into Markdown),
``87,3 %`` (a decimal comma) and ``12 032`` (a space between thousands).
:func:`normalise` rewrites these to ``61.3%``, ``82.4 ± 0.3``, ``87.3 %`` and
``12,032`` without changing the length of the text, so that every offset into it
(the line and column of a finding) still points at what the author wrote.
"""

from __future__ import annotations

import re

#: TeX commands that stand for a symbol the number grammar knows.
_TEX = {"\\pm": "±", "\\times": "×", "\\approx": "≈", "\\sim": "~", "\\leq": "≤", "\\geq": "≥",
        "\\le": "≤", "\\ge": "≥", "\\%": "%"}
_TEX_COMMAND = re.compile(r"\\(?:pm|times|approx|sim|leq|geq|le|ge)(?![A-Za-z])|\\%")
#: ``$…$`` around a formula with a TeX command (not a price: "$0.15 / 1M tokens").
_MATH = re.compile(r"\$([^$\n]{1,80}?\\[A-Za-z%][^$\n]{0,80}?)\$")
#: A decimal comma: one or two digits after the comma, then a percent or points
#: ("87,3 %", "0,8 point"); thousands groups always have three digits.
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])(\d{1,3}),(\d{1,2})(?=\s?(?:%|points?\b|pp\b))")
#: Thousands set apart by a (thin, no-break) space: "12 032", "1 319 problèmes". A plain
#: space counts only when what follows is not another digit group, a hyphen or a unit.
_SPACED = re.compile(
    r"(?<![\w.,])([1-9]\d{0,2})((?:[\u00a0\u202f\u2009 ]\d{3})+)(?![\w.,\-‑%])"
)
_REFERENCE_BEFORE = re.compile(
    r"(?:table|tab\.|figure|fig\.|section|sec\.|appendix|eq\.|equation|page|p\.|step|epoch|"
    r"steps|epochs|top|rank|#|no\.)\s*$",
    re.I,
)


def _tex(m: re.Match[str]) -> str:
    sym = _TEX[m.group(0)]
    return sym + " " * (len(m.group(0)) - len(sym))


def _spaced(text: str, m: re.Match[str]) -> str:
    if _REFERENCE_BEFORE.search(text[max(0, m.start() - 12) : m.start()]):
        return m.group(0)
    return m.group(1) + re.sub(r"[\u00a0\u202f\u2009 ]", ",", m.group(2))


def normalise(text: str) -> str:
    """``text`` with LaTeX number notation, decimal commas and spaced thousands rewritten,
    at the same length."""
    if "\\" in text:
        text = _MATH.sub(lambda m: " " + m.group(1) + " ", text)
        text = _TEX_COMMAND.sub(_tex, text)
    if "," in text:
        text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    if " " in text or "\u00a0" in text or "\u202f" in text or "\u2009" in text:
        text = _SPACED.sub(lambda m: _spaced(text, m), text)
    return text
