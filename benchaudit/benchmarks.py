"""The benchmark registry: names and aliases -> splits, item counts and metric type.

Each entry of ``benchmarks.toml`` states, with a primary source, the splits of a
benchmark and their item counts, which split its headline number is usually
reported on, and what kind of number that headline is (``metric``):

``binary``
    every item scores 0 or 1 and the score is k/n: reachability applies.
``composite``
    an average of several 0/1 levels or groups (IFEval: prompt- and
    instruction-level accuracy; a macro average over subjects): not k/n.
``continuous``
    per-item scores are not 0/1 (TruthfulQA mc2, F1, BLEU, win rates, judge
    scores, perplexity, bits per byte).
``rating``
    Elo, a Codeforces rating or percentile.
``versioned``
    no fixed item count: the problem set changes with the release or date
    window (LiveCodeBench). ``n`` is None.

An alias may name a *variant* of an entry instead of the entry itself: a split
("MBPP sanitized" is MBPP's 257-problem sanitized test split) or a metric
("TruthfulQA MC1" is binary where the headline mc2 is continuous).
:meth:`Registry.get` returns the variant as a :class:`Benchmark` of its own,
with the entry's ``name``, the variant's ``split``, ``n`` and ``metric``, and a
``label`` such as "MBPP (sanitized)".

A multiple-choice entry may state its answer ``options`` (chance is 1/options) and
the lm-evaluation-harness task names that run it (``harness_tasks``): :meth:`Registry.chance_level`
reads a harness task's chance level from them. Entries with ``harness_only = true`` are kept
for that alone. The table ``"metric names"`` sorts per-item metric names into
all-or-nothing, continuous lower- or higher-better, and perplexity
(:class:`MetricNames`), each group with its source.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

#: The allowed values of ``Benchmark.metric``.
METRICS = ("binary", "composite", "continuous", "rating", "versioned")
#: The allowed values of ``Benchmark.direction``.
DIRECTIONS = ("higher", "lower")

# Split names that mean the validation split, for :meth:`Benchmark.n_for`.
_VALIDATION = frozenset({"val", "valid", "validation"})


_FOLDED = re.compile(r"[\s\-_'’()]+")


def fold(name: str) -> str:
    """Compare names loosely: case, spaces, hyphens, underscores, quotes."""
    return _FOLDED.sub("", name.lower())


class Splits(Mapping[str, int]):
    """A read-only, hashable mapping of split name -> item count."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, int] | None = None) -> None:
        self._items = tuple((str(k), int(v)) for k, v in (items or {}).items())

    def __getitem__(self, key: str) -> int:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"Splits({dict(self._items)!r})"


@dataclass(frozen=True)
class Benchmark:
    """A benchmark (or one variant of it) with its item count and metric type.

    ``n`` is the item count of ``split`` (the split the headline number is
    reported on), or None when the benchmark has no fixed count. ``splits``
    maps the splits scores are reported on to their sourced counts;
    ``other_splits`` holds sourced counts of splits no score is reported on
    (training data, few-shot exemplars), for :meth:`n_for` only. ``variant`` is empty
    for the entry itself and names the variant for a view returned by an alias
    such as "MBPP sanitized"; ``label`` is the name to show ("MBPP (sanitized)").
    """

    name: str
    n: int | None
    split: str = ""
    source: str = ""
    aliases: tuple[str, ...] = ()
    metric: str = "binary"
    metric_source: str = ""
    direction: str = "higher"
    splits: Splits = field(default_factory=Splits)
    other_splits: Splits = field(default_factory=Splits)
    note: str = ""
    variant: str = ""
    label: str = ""
    case_sensitive: bool = False
    #: The headline split is a subset that some reports replace by the whole benchmark
    #: (OlympiadBench's 675 text-only math problems of 8,476): n is a guess for a bare name.
    headline_is_subset: bool = False
    #: Answer options per item of a multiple-choice benchmark, with their source.
    options: int | None = None
    options_source: str = ""
    #: lm-evaluation-harness task names of the benchmark (matched only against task names).
    harness_tasks: tuple[str, ...] = ()

    @property
    def chance(self) -> float | None:
        """The score of uniform guessing among the options, or None when unknown."""
        return None if self.options is None else 1 / self.options

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.name)
        for name in ("splits", "other_splits"):
            if not isinstance(getattr(self, name), Splits):
                object.__setattr__(self, name, Splits(getattr(self, name)))

    @property
    def reachability_applies(self) -> bool:
        """True when a score is k/n for whole k: a binary metric with a known n."""
        return self.metric == "binary" and self.n is not None and self.n > 0

    def n_for(self, split_name: str) -> int | None:
        """The item count of ``split_name`` (in ``splits`` or ``other_splits``), or
        None when the registry has none.

        Names compare loosely (:func:`fold`); "val", "valid" and "validation"
        find each other, and "dev" also finds a validation split (WinoGrande's
        dev set is its validation split), but a validation name never finds a
        split called "dev" (MMLU's dev split is its 285 few-shot examples)."""
        want = fold(split_name)
        by_fold = {fold(k): v for k, v in self.splits.items()}
        other = {fold(k): v for k, v in self.other_splits.items()}
        if want in by_fold:
            return by_fold[want]
        if want in other:
            return other[want]
        if want in _VALIDATION or want == "dev":
            found = [v for k, v in by_fold.items() if k in _VALIDATION]
            return found[0] if len(found) == 1 else None
        return None


@dataclass(frozen=True)
class MetricNames:
    """The kinds of per-item metric names, each a list of whole-name patterns with a source."""

    all_or_nothing: re.Pattern[str]
    lower_better: re.Pattern[str]
    higher_better: re.Pattern[str]
    perplexity: re.Pattern[str]
    sources: Mapping[str, str] = field(default_factory=dict)


_METRIC_GROUPS = {
    "all-or-nothing": "all_or_nothing",
    "continuous-lower": "lower_better",
    "continuous-higher": "higher_better",
    "perplexity": "perplexity",
}


def _parse_toml(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    return tomllib.loads(text)


class Registry:
    """Lookup of benchmarks by name or alias; config overrides win."""

    def __init__(
        self,
        entries: list[Benchmark],
        variants: list[Benchmark] | None = None,
        harness_only: list[Benchmark] | None = None,
        metric_names: MetricNames | None = None,
    ) -> None:
        self.entries = entries
        #: Every variant view (the targets of split and metric aliases).
        self.variant_views: list[Benchmark] = list(variants or [])
        #: Entries kept only for their harness tasks' chance level (never matched by name).
        self.harness_only: list[Benchmark] = list(harness_only or [])
        self.metric_names = metric_names
        # Task name -> chance, longest name first (mmlu_flan before mmlu).
        chances: dict[str, float | None] = {}
        for b in [*entries, *self.harness_only]:
            for task in b.harness_tasks:
                if task in chances:
                    raise ValueError(f"harness task {task!r} is listed by two benchmarks")
                chances[task] = b.chance
        self._chances = sorted(chances.items(), key=lambda kv: len(kv[0]), reverse=True)
        self._by_key: dict[str, Benchmark] = {}
        self._exact: dict[str, set[str]] = {}  # fold -> spellings, for case-sensitive names
        for b in [*entries, *self.variant_views]:
            for key in (b.name if not b.variant else None, *b.aliases):
                if key is None:
                    continue
                k = fold(key)
                other = self._by_key.get(k)
                if other is not None and other is not b:
                    raise ValueError(
                        f"benchmark alias {key!r} names both {other.label!r} and {b.label!r}"
                    )
                self._by_key[k] = b
                if b.case_sensitive:
                    self._exact.setdefault(k, set()).add(key)
        # A variant's label ("MBPP (sanitized)") names it too, so a claim that keeps
        # the label can be looked up again; it is not matched in prose unless an
        # alias spells it.
        for b in self.variant_views:
            self._by_key.setdefault(fold(b.label), b)

    @classmethod
    def load(cls, overrides: dict[str, int] | None = None) -> Registry:
        text = _packaged_text("benchmarks.toml")
        reg = cls.from_toml(text)
        for name, n in (overrides or {}).items():
            reg._override(name, int(n))
        return reg

    @classmethod
    def from_toml(cls, text: str) -> Registry:
        """Parse and check registry text (the format of ``benchmarks.toml``)."""
        from benchaudit.regex_cache import remembered

        data = remembered("benchmarks", text, _parse_toml)  # the command keeps the parse
        metric_names = _metric_names(data.pop("metric names", None))
        entries: list[Benchmark] = []
        views: list[Benchmark] = []
        harness_only: list[Benchmark] = []
        for name, v in data.items():
            if v.get("harness_only"):
                harness_only.append(_harness_only(name, v))
                continue
            b = _entry(name, v)
            entries.append(b)
            for key, var in (v.get("variants") or {}).items():
                views.append(_variant(b, key, var))
        return cls(entries, views, harness_only, metric_names)

    def _override(self, name: str, n: int) -> None:
        """Register ``--n NAME=N`` / configuration: N items for NAME."""
        known = self.resolve(name)
        if known is None:
            b = Benchmark(name=name, n=n, source="configuration")
            keys = [fold(name)]
        else:
            # A configured count fixes a versioned benchmark's problem set: its items
            # are scored 0/1, so it is checked like any binary benchmark.
            metric = "binary" if known.metric == "versioned" else known.metric
            split = known.split or "configuration"
            splits = dict(known.splits)
            splits[split] = n
            b = replace(
                known,
                n=n,
                split=split,
                splits=Splits(splits),
                metric=metric,
                source="configuration",
            )
            keys = [k for k, v in self._by_key.items() if v is known] + [fold(name)]
        self.entries.append(b)
        for k in keys:
            self._by_key[k] = b

    def get(self, name: str) -> Benchmark | None:
        """The benchmark (or variant) ``name`` names, as matched in prose: a
        case-sensitive name ("DROP") must be written as the registry spells it."""
        k = fold(name)
        b = self._by_key.get(k)
        if b is not None and k in self._exact and name.strip() not in self._exact[k]:
            return None
        return b

    def resolve(self, name: str) -> Benchmark | None:
        """Like :meth:`get`, ignoring case everywhere (for configuration and --n)."""
        return self._by_key.get(fold(name))

    def variants(self, name: str) -> list[Benchmark]:
        """The variant views of the entry ``name`` names (split and metric aliases)."""
        b = self.resolve(name)
        if b is None:
            return []
        return [v for v in self.variant_views if v.name == b.name]

    def chance_level(self, task: str) -> float | None:
        """The chance score of an lm-evaluation-harness task (``hendrycksTest-anatomy``,
        ``arc_challenge``), from the options of the benchmark it runs; None when unknown."""
        base = task.split(",")[0]
        for key, chance in self._chances:
            if base == key or base.startswith(key + "-") or base.startswith(key + "_"):
                return chance
        return None

    def names(self) -> list[str]:
        """Every name and alias (variants' too), longest first (for matching in prose)."""
        keys = {b.name for b in self.entries}
        for b in [*self.entries, *self.variant_views]:
            keys.update(b.aliases)
        return sorted(keys, key=lambda s: (-len(s), s))


# ---------------------------------------------------------------- parsing


def _check_metric(where: str, metric: Any, direction: Any) -> None:
    if metric not in METRICS:
        raise ValueError(f"{where}: metric {metric!r} is not one of {', '.join(METRICS)}")
    if direction not in DIRECTIONS:
        raise ValueError(f"{where}: direction {direction!r} is not one of {', '.join(DIRECTIONS)}")


def _count(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{where}: item count {value!r} is not a positive whole number")
    return value


def _options(name: str, v: dict[str, Any]) -> tuple[int | None, str, tuple[str, ...]]:
    """An entry's answer options, their source and its harness task names."""
    options = v.get("options")
    if options is not None and (isinstance(options, bool) or not isinstance(options, int) or options < 2):
        raise ValueError(f"{name}: options {options!r} is not a whole number of at least 2")
    source = str(v.get("options_source", "")).strip()
    if options is not None and not source:
        raise ValueError(f"{name}: options needs an options_source")
    tasks = v.get("harness_tasks", [])
    if not isinstance(tasks, list) or not all(isinstance(t, str) and t for t in tasks):
        raise ValueError(f"{name}: harness_tasks must be a list of task names")
    return options, source, tuple(tasks)


def _harness_only(name: str, v: dict[str, Any]) -> Benchmark:
    options, options_source, tasks = _options(name, v)
    source = str(v.get("source", "")).strip()
    if options is None or not tasks or not source:
        raise ValueError(f"{name}: a harness_only entry needs options, harness_tasks and a source")
    allowed = {"harness_only", "options", "options_source", "harness_tasks", "source"}
    if set(v) - allowed:
        raise ValueError(f"{name}: a harness_only entry has no {sorted(set(v) - allowed)}")
    # Not a benchmark a claim can name: no counts, so nothing may read it as one.
    return Benchmark(
        name=name,
        n=None,
        source=source,
        metric="versioned",
        options=options,
        options_source=options_source,
        harness_tasks=tasks,
    )


def _metric_names(groups: Any) -> MetricNames | None:
    if groups is None:
        return None
    if not isinstance(groups, dict) or set(groups) != set(_METRIC_GROUPS):
        raise ValueError(f"metric names: needs exactly the groups {', '.join(_METRIC_GROUPS)}")
    compiled: dict[str, re.Pattern[str]] = {}
    sources: dict[str, str] = {}
    for group, attr in _METRIC_GROUPS.items():
        spec = groups[group]
        patterns = spec.get("patterns") if isinstance(spec, dict) else None
        source = str(spec.get("source", "")).strip() if isinstance(spec, dict) else ""
        if not patterns or not all(isinstance(p, str) and p for p in patterns):
            raise ValueError(f"metric names.{group}: needs a list of patterns")
        if not source:
            raise ValueError(f"metric names.{group}: needs a source")
        compiled[attr] = re.compile("^(?:" + "|".join(patterns) + ")$", re.I)
        sources[group] = source
    return MetricNames(**compiled, sources=sources)


@lru_cache(maxsize=1)
def packaged() -> Registry:
    """The registry shipped with the package, without configuration overrides (chance
    levels and metric names, which configuration does not change)."""
    return Registry.load()


def _entry(name: str, v: dict[str, Any]) -> Benchmark:
    metric = str(v.get("metric", ""))
    direction = str(v.get("direction", "higher"))
    _check_metric(name, metric, direction)
    source = str(v.get("source", "")).strip()
    if not source:
        raise ValueError(f"{name}: every entry needs a source")
    splits = {str(k): _count(f"{name}.splits.{k}", c) for k, c in (v.get("splits") or {}).items()}
    other = {
        str(k): _count(f"{name}.other_splits.{k}", c)
        for k, c in (v.get("other_splits") or {}).items()
    }
    if set(other) & set(splits):
        raise ValueError(
            f"{name}: {sorted(set(other) & set(splits))} in both splits and other_splits"
        )
    split = str(v.get("split", ""))
    if "n" in v and "splits" not in v:  # the old form: one count for `split`
        splits[split or "test"] = _count(f"{name}.n", v["n"])
        split = split or "test"
    if split and split not in splits:
        raise ValueError(f"{name}: split {split!r} has no count in splits")
    n = splits[split] if split else None
    if "n" in v and v["n"] != n:
        raise ValueError(f"{name}: n = {v['n']!r} but splits.{split} = {n!r}")
    if metric == "binary" and n is None:
        raise ValueError(f"{name}: a binary benchmark needs a headline split with a count")
    if metric not in ("versioned", "rating") and not splits:
        raise ValueError(f"{name}: no splits with item counts")
    options, options_source, tasks = _options(name, v)
    return Benchmark(
        name=name,
        n=n,
        split=split,
        source=source,
        aliases=tuple(v.get("aliases", ())),
        metric=metric,
        metric_source=str(v.get("metric_source", "")),
        direction=direction,
        splits=Splits(splits),
        other_splits=Splits(other),
        note=str(v.get("note", "")),
        case_sensitive=bool(v.get("case_sensitive", False)),
        headline_is_subset=bool(v.get("headline_is_subset", False)),
        options=options,
        options_source=options_source,
        harness_tasks=tasks,
    )


def _variant(base: Benchmark, key: str, v: dict[str, Any]) -> Benchmark:
    where = f"{base.name}.variants.{key}"
    metric = str(v.get("metric", base.metric))
    direction = str(v.get("direction", base.direction))
    _check_metric(where, metric, direction)
    split = str(v.get("split", base.split))
    if split and split not in base.splits:
        raise ValueError(f"{where}: split {split!r} has no count in {base.name}.splits")
    n = base.splits[split] if split else None
    if metric == "binary" and n is None:
        raise ValueError(f"{where}: a binary variant needs a split with a count")
    aliases = tuple(v.get("aliases", ()))
    if not aliases:
        raise ValueError(f"{where}: a variant needs at least one alias")
    return replace(
        base,
        n=n,
        split=split,
        aliases=aliases,
        metric=metric,
        metric_source=str(v.get("metric_source", base.metric_source)),
        direction=direction,
        note=str(v.get("note", base.note)),
        variant=key,
        label=str(v.get("label", f"{base.name} ({key})")),
        case_sensitive=bool(v.get("case_sensitive", False)),
        harness_tasks=(),  # the entry's tasks are the entry's
    )


def _packaged_text(name: str) -> str:
    """A data file installed beside this module. Read as a plain file when it is one:
    importlib.resources imports tempfile, zipfile and more: several percent of a README check."""
    import os

    path = os.path.join(os.path.dirname(__file__), name)
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    from importlib import resources

    return resources.files("benchaudit").joinpath(name).read_text("utf-8")
