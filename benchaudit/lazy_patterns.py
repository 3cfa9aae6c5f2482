"""Regular expressions compiled the first time they are used, then kept.

A module that holds a family of patterns (the comparison claims hold about ninety)
pays nothing for them at import: each is compiled by :mod:`re` on its first
``search`` / ``match`` / ... and never again, so a run compiles only the patterns
its input reaches. Behaviour is that of ``re.compile(pattern, flags)`` exactly:
the compiled pattern's own methods and attributes are what a caller gets.
"""

from __future__ import annotations

import re
from typing import Any, cast

#: What a caller may read from a pattern; after the first use each is the compiled
#: pattern's own attribute, set on the instance, so later calls cost no indirection.
_FORWARDED = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "flags",
    "groups",
    "groupindex",
)


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled on first use.

    ``pattern`` (the source text) is there before compiling, so patterns built
    from other patterns' text compile nothing at import either.
    """

    def __init__(self, pattern: str, flags: int | re.RegexFlag = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        found: re.Pattern[str] | None = self.__dict__.get("_compiled")
        if found is None:
            found = re.compile(self.pattern, self._flags)
            for name in _FORWARDED:
                setattr(self, name, getattr(found, name))
            self.__dict__["_compiled"] = found
        return found

    def __getattr__(self, name: str) -> Any:
        # Reached only for attributes the instance does not hold yet: the first use.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {int(self._flags)})"


def lazy(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """A pattern compiled on first use; typed as the compiled pattern it stands for."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))
