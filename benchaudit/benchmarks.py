"""The benchmark registry: names and aliases -> item counts, with sources."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Benchmark:
    name: str
    n: int
    split: str = ""
    source: str = ""
    aliases: tuple[str, ...] = ()


def fold(name: str) -> str:
    """Compare names loosely: case, spaces, hyphens, underscores, quotes."""
    return re.sub(r"[\s\-_'’()]+", "", name.lower())


class Registry:
    """Lookup of benchmarks by name or alias; config overrides win."""

    def __init__(self, entries: list[Benchmark]) -> None:
        self.entries = entries
        self._by_key: dict[str, Benchmark] = {}
        for b in entries:
            for key in (b.name, *b.aliases):
                self._by_key[fold(key)] = b

    @classmethod
    def load(cls, overrides: dict[str, int] | None = None) -> Registry:
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib
        text = resources.files("benchaudit").joinpath("benchmarks.toml").read_text("utf-8")
        data = tomllib.loads(text)
        entries = [
            Benchmark(
                name=name,
                n=int(v["n"]),
                split=v.get("split", ""),
                source=v.get("source", ""),
                aliases=tuple(v.get("aliases", ())),
            )
            for name, v in data.items()
        ]
        reg = cls(entries)
        for name, n in (overrides or {}).items():
            known = reg.get(name)
            b = Benchmark(
                name=known.name if known else name,
                n=int(n),
                split=known.split if known else "",
                source="configuration",
                aliases=known.aliases if known else (),
            )
            reg.entries.append(b)
            for key in (b.name, *b.aliases, name):
                reg._by_key[fold(key)] = b
        return reg

    def get(self, name: str) -> Benchmark | None:
        return self._by_key.get(fold(name))

    def names(self) -> list[str]:
        """Every name and alias, longest first (for matching in prose)."""
        keys = {b.name for b in self.entries}
        for b in self.entries:
            keys.update(b.aliases)
        return sorted(keys, key=lambda s: (-len(s), s))
