"""A count of all responses beside the count of the items they answer: "91.1% of its 3,600
responses (the 60 questions asked daily for 30 days), 95% CI 90.2-92.0%". When the responses are
a whole multiple of the items and the stated interval is the binomial one of the responses, not
of the items, the interval treats repeated answers to one question as independent items."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

_RESPONSES = re.compile(
    r"\b(\d{1,3}(?:,\d{3})+|\d+)\s+(?:\w+\s+)?(?:responses|answers|completions|generations|samples|attempts)\b",
    re.I,
)
_ITEMS = re.compile(r"\b(\d{1,3}(?:,\d{3})+|\d+)\s+(?:\w+\s+)?(?:questions|problems|items|prompts|tasks)\b", re.I)
_PCT = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d+)?)\s*%")


def _int(text: str) -> int:
    return int(text.replace(",", ""))


def _half_width(p: float, n: int) -> float:
    return 100 * 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)


def responses_over_items(text: str, intervals: Sequence[Mapping[str, Any]]) -> tuple[int, int, int] | None:
    """(responses per item, responses, items) when ``text`` counts both, the responses are at
    least two per item, and a stated 95% interval of a score is far nearer the binomial width on
    the responses than on the items; None otherwise."""
    rm, im = _RESPONSES.search(text), _ITEMS.search(text)
    if rm is None or im is None:
        return None
    total, items = _int(rm.group(1)), _int(im.group(1))
    if items < 2 or total < 2 * items or total % items:
        return None
    for iv in intervals:
        if "pm" in iv:
            score, half = float(iv["value"]), float(iv["pm"])
        elif "lo" in iv and "hi" in iv:
            lo, hi = float(iv["lo"]), float(iv["hi"])
            # The score is the last percentage before the interval that lies inside it ("95%" of
            # "95% CI" does not).
            inside = [float(v) for v in _PCT.findall(text[: iv["pos"]]) if lo <= float(v) <= hi]
            if not inside:
                continue
            score, half = inside[-1], (hi - lo) / 2
        else:
            continue
        if not 0 < score < 100 or half <= 0:
            continue
        on_total, on_items = _half_width(score / 100, total), _half_width(score / 100, items)
        # The stated width is that of the responses (to within a third) and under half the items'.
        if abs(half - on_total) <= on_total / 3 and half < on_items / 2:
            return total // items, total, items
    return None
