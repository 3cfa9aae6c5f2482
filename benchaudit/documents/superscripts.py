"""Superscript digits, as readers write the text of ``<sup>`` and footnote labels.

A number set in superscript after a score is a footnote mark ("74.3<sup>1</sup>" is "74.3¹"),
never more digits of the score; a footnote's own label is read back in plain digits."""

from __future__ import annotations

#: Plain digits and signs to their superscript forms.
RAISED = str.maketrans("0123456789+-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻")
#: Superscript digits back to plain ones.
LOWERED = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
