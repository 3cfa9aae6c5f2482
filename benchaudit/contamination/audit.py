"""One contamination audit: read the benchmark, index it, scan, merge, compare scores."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from benchaudit.errors import BenchauditError
from benchaudit.limits import DEFAULT, Limits

if TYPE_CHECKING:
    from benchaudit.contamination.benchmark import Item
    from benchaudit.contamination.results import ScanSummary
    from benchaudit.finding import Section


@dataclass
class Settings:
    """What a contamination audit needs; the CLI and the ``check`` rule both fill it."""

    benchmark: str
    corpus: Sequence[str]
    ngram: int = 13
    minhash: bool = False
    engine: str = "local"
    address: str | None = None
    workers: int | None = None
    state_dir: str | None = None
    text_fields: tuple[str, ...] | None = None
    item_fields: tuple[str, ...] | None = None
    id_field: str | None = None
    max_docs: int = 10
    progress: bool | None = None
    scores: str | None = None
    seed: int = 0
    resamples: int = 10000
    alpha: float = 0.05
    limits: Limits = DEFAULT


@dataclass
class Outcome:
    """A finished audit: the merged statistics and the rows for ``results``."""

    settings: Settings
    summary: ScanSummary
    items: list[Item]
    results: dict[str, Section] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def run(settings: Settings) -> Outcome:
    from benchaudit.contamination.benchmark import read_items
    from benchaudit.contamination.engines import ENGINES
    from benchaudit.contamination.index import build_index
    from benchaudit.contamination.results import merge
    from benchaudit.contamination.scan import ScanOptions
    from benchaudit.contamination.shards import find_shards

    if settings.ngram < 1:
        raise BenchauditError("--ngram must be at least 1")
    if settings.engine not in ENGINES:
        raise BenchauditError(f"unknown engine {settings.engine!r} (use local or ray)")
    from benchaudit import fs

    fs.require_regular(settings.benchmark, settings.benchmark)
    if settings.scores:
        fs.require_regular(settings.scores, settings.scores)
    notes: list[str] = []
    items = read_items(
        settings.benchmark, settings.item_fields, settings.id_field, limits=settings.limits
    )
    shards = find_shards(list(settings.corpus), notes)
    own = os.path.realpath(settings.benchmark)
    skipped = [s for s in shards if os.path.realpath(s.path) == own]
    if skipped:  # a glob that also matches the benchmark would flag every item
        shards = [s for s in shards if os.path.realpath(s.path) != own]
        if not shards:
            raise BenchauditError("the corpus holds only the benchmark file itself")
        shards = [replace(s, ordinal=i) for i, s in enumerate(shards)]
    index = build_index(items, ngram=settings.ngram)
    if settings.minhash:
        from benchaudit.contamination.minhash import build_minhash

        build_minhash(index)
    opts = ScanOptions(
        text_fields=settings.text_fields, minhash=settings.minhash, limits=settings.limits
    )
    kwargs: dict[str, Any] = {
        "workers": settings.workers,
        "state_dir": settings.state_dir,
        "progress": settings.progress,
        "notes": notes,
    }
    if settings.engine == "ray":
        kwargs["address"] = settings.address
    shard_results = ENGINES[settings.engine](index, shards, opts, **kwargs)
    summary = merge(index, shard_results, max_docs=settings.max_docs, minhash=settings.minhash)
    out = Outcome(settings=settings, summary=summary, items=items, notes=notes)
    if skipped:
        out.notes.append(f"contamination: {skipped[0].path} is the benchmark itself; not scanned")
    out.results["contamination"] = [summary.row(settings.benchmark)]
    out.notes.append(
        f"contamination: scanned {summary.shards} shard(s), {summary.docs} document(s), "
        f"{summary.tokens} word(s); {summary.boilerplate_grams} boilerplate "
        f"{summary.unit}-gram(s) seen in more than {summary.max_docs} documents ignored"
    )
    if index.empty_items:
        out.notes.append(
            f"contamination: {len(index.empty_items)} item(s) have no words and cannot be checked"
        )
    if settings.scores:
        from benchaudit.contamination.scores import compare, read_scores

        rows = compare(
            read_scores(settings.scores),
            [s.id for s in summary.items],
            [s.contaminated for s in summary.items],
            settings.resamples,
            settings.seed,
            settings.alpha,
            settings.scores,
        )
        out.results["contamination_scores"] = rows
    return out
