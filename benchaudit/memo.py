"""The one cache: values derived from an evidence object, computed once per run.

Every evidence object that has analyses (a source, a result set, a battle set
...) holds a :class:`Memo`; an analysis asks it for a value by a key that names
the analysis and the settings it depends on (seed, resamples, alpha), so that
the engine's analysis and a rule reading the same value share one computation.
A memo belongs to its object: copying the object's ``meta`` never shares it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

T = TypeVar("T")


class Memo:
    """Computed values by key; a value is computed on first request only."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value under ``key``, computed by ``compute()`` the first time."""
        if key not in self._values:
            self._values[key] = compute()
        return cast(T, self._values[key])

    def __contains__(self, key: Hashable) -> bool:
        return key in self._values

    def __repr__(self) -> str:
        return f"Memo({len(self._values)} value(s))"

    # A memo is no part of the object's value: two equal result sets with different
    # caches are equal, and a memo is never compared.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)

    __hash__ = None  # type: ignore[assignment]


__all__ = ["Memo"]
