"""The run context: what readers, analyses and rules may consult, and nothing they write.

A :class:`RunContext` is made once per run by the engine (or the Python API)
and is frozen: the configuration, the inputs named, the seed and alpha every
randomised method uses, and the benchmark registry (loaded on first use).
Readers return their sources (with their notes on them), analyses return the
rows of ``results`` and rules return findings and notes; the engine alone
gathers them into the report (:class:`Results` holds the sections while it
does). The context has nowhere to write: ``tests/core/test_no_shared_writes.py``
fails on a reader or rule that tries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

from benchaudit.config import Config

if TYPE_CHECKING:
    from benchaudit.benchmarks import Registry
    from benchaudit.finding import Section


class Results:
    """The sections of a report's ``results``, in the order they were first added.

    Rows added to a section extend it; a section whose first rows are columns
    (many pairs, an object with ``joined()``) keeps them as columns.
    """

    def __init__(self) -> None:
        self.sections: dict[str, Section] = {}

    def add(self, section: str, rows: Section) -> None:
        joined = getattr(rows, "joined", None)  # columns (many pairs) stay columns
        if section not in self.sections and callable(joined):
            self.sections[section] = joined()
        else:
            # Rows join a section of their own kind (row dicts, or detection entries);
            # a pair table's extend takes either.
            cast("list[Any]", self.sections.setdefault(section, [])).extend(rows)

    def update(self, sections: dict[str, Section]) -> None:
        for section, rows in sections.items():
            self.add(section, rows)


@dataclass(frozen=True)
class RunContext:
    """The settings of one run, read by readers, analyses and rules, written by none."""

    #: The resolved configuration (command-line flags over the configuration file).
    config: Config = field(default_factory=Config)
    #: The inputs as named on the command line (files or folders), in order.
    paths: tuple[str, ...] = ()
    #: Names and codes (lower case) of every rule there is, and of the rules the run selected,
    #: filled by the engine from the registry so that a rule never imports it; ``all_selected``
    #: when the selection left out none.
    known_rules: frozenset[str] = frozenset()
    selected_rules: frozenset[str] = frozenset()
    all_selected: bool = True

    @property
    def seed(self) -> int:
        """Seed of every bootstrap and permutation of the run."""
        return self.config.seed

    @property
    def alpha(self) -> float:
        """Significance level of every test and interval of the run."""
        return self.config.alpha

    @cached_property
    def benchmarks(self) -> Registry:
        """The benchmark registry (with ``n = {...}`` overrides), loaded on first use."""
        from benchaudit.benchmarks import Registry

        return Registry.load(overrides=self.config.n)


__all__ = ["Results", "RunContext"]
