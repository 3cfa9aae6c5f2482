"""Shared pieces of the validation suite: the seed, levels, simulation budget and tables."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SEED = 20261129
#: Tolerance of a type-I error rate around its level, in points.
TOLERANCE_POINTS = 1.5
ALPHA = 0.05
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Budget:
    """Simulation counts; ``quick`` divides the expensive ones."""

    null_draws: int = 10_000
    vector_draws: int = 20_000
    permutation_datasets: int = 2_000
    permutation_resamples: int = 999
    bootstrap_datasets: int = 800
    bootstrap_resamples: int = 999
    bt_datasets: int = 400
    bt_resamples: int = 500
    cp_checks: int = 40
    e2e_binary: int = 1_000
    e2e_graded: int = 300

    @classmethod
    def quick(cls) -> Budget:
        return cls(
            null_draws=2_000,
            vector_draws=4_000,
            permutation_datasets=400,
            permutation_resamples=499,
            bootstrap_datasets=150,
            bootstrap_resamples=499,
            bt_datasets=60,
            bt_resamples=200,
            cp_checks=12,
            e2e_binary=150,
            e2e_graded=60,
        )


@dataclass
class Table:
    """A markdown table with a caption and an optional note under it."""

    caption: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""

    def markdown(self) -> str:
        out = [f"**{self.caption}**", ""]
        out.append("| " + " | ".join(self.columns) + " |")
        out.append(
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(self.columns))) + "|"
        )
        out.extend("| " + " | ".join(r) + " |" for r in self.rows)
        if self.note:
            out += ["", self.note]
        return "\n".join(out)


@dataclass
class Section:
    """One part of the report: prose, tables and the raw numbers tests assert on."""

    title: str
    intro: str
    tables: list[Table]
    data: dict[str, Any] = field(default_factory=dict)

    def markdown(self) -> str:
        parts = [f"## {self.title}", "", self.intro.strip()]
        parts += ["\n" + t.markdown() for t in self.tables]
        return "\n".join(parts) + "\n"


def stream_rng(stream: int) -> np.random.Generator:
    """The generator of one numbered stream; streams never share draws."""
    return np.random.default_rng((SEED, stream))


def pct(x: float, digits: int = 1) -> str:
    """A proportion as a percentage with fixed digits (0.9216 -> "92.2")."""
    return f"{100 * x:.{digits}f}"


def signed(x: float, digits: int = 1) -> str:
    """A signed number; rounding noise prints as 0.0, never -0.0."""
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def points(x: float) -> str:
    """A signed difference in points; rounding noise prints as 0.00, never -0.00."""
    text = f"{100 * x:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def mc_se(rate: float, draws: int) -> float:
    """Monte Carlo standard error of a rate estimated from ``draws`` independent data sets."""
    return math.sqrt(max(rate * (1 - rate), 1e-12) / draws)
