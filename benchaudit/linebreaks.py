"""The one rule for where a line ends: ``\\n``, ``\\r\\n`` or ``\\r``.

``str.splitlines()`` also ends a line at U+2028, U+2029, ``\\f``, ``\\v``, ``\\x1c``-``\\x1e``
and ``\\x85``; editors, Git and GitHub do not, so a finding located with it points at the
wrong line (and a JSON string holding U+2028 is cut in two). Every reader that numbers
lines splits with :func:`split_lines`.
"""

from __future__ import annotations

import re

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n``, ``\\r\\n`` and ``\\r`` only; a final line break ends the last line."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines
