"""Merging shard results into per-item contamination statistics.

From the one table of exact-match runs this derives, per item:

* GPT-3's dirty flag: some run is at least ``n`` words long (``n`` = the
  scan's n-gram, the item's length for shorter items);
* PaLM's containment: the share of the item's 8-grams found in the corpus
  (70% or more counts);

(containment and coverage are taken for the whole item and for its question
alone when the item joins a reference answer, and the larger is kept: a
leaked question without its answer is still a leaked item);
* Llama 2's token coverage: the share of the item's words inside matches of
  at least 11 words (shorter for short items), where exact matches on one
  diagonal separated by at most 4 mismatching words are joined (Llama 2's
  skip budget) and a joined match must hold an exact 8-word match; buckets
  clean < 20%, not clean >= 20%, not dirty < 80%, dirty >= 80%. Items in the
  "not clean" bucket or worse count as contaminated (Llama 2 treats them as
  possibly contaminated), as do items with the dirty flag or containment;
* the longest exact match, the number of training documents hit, and one
  example (shard, line, matching text);
* near-duplicates from MinHash, when that search ran.

Boilerplate: unit-grams found in more than ``max_docs`` documents are
ignored; a run made only of such grams is dropped unless it covers at least
half the item (an item copied verbatim into many documents is still caught).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from benchaudit.contamination.index import NgramIndex
from benchaudit.contamination.scan import ShardResult

CONTAINMENT_THRESHOLD = 0.70
CONTAIN_N = 8
CLEAN_BELOW = 0.20
DIRTY_FROM = 0.80
COVERAGE_MIN_MATCH = 11
SKIP_BUDGET = 4


@dataclass
class ItemStat:
    """Per-item verdict and the numbers behind it."""

    index: int
    id: str
    line: int | None
    tokens: int
    ngram: int
    dirty_ngram: bool = False
    containment: float = 0.0
    coverage: float = 0.0
    longest_match: int = 0
    docs: int = 0
    near_duplicate: float | None = None
    part: str = "item"  # "question" when the question alone gave the larger coverage
    part_tokens: int = 0
    example: dict[str, Any] | None = None
    methods: list[str] = field(default_factory=list)

    @property
    def bucket(self) -> str:
        if self.coverage >= DIRTY_FROM:
            return "dirty"
        if self.coverage >= CLEAN_BELOW:
            return "not-clean"
        return "clean"

    @property
    def contaminated(self) -> bool:
        return bool(self.methods)


@dataclass
class ScanSummary:
    """Everything a report needs from a finished scan."""

    items: list[ItemStat]
    shards: int
    docs: int
    tokens: int
    nbytes: int
    ngram: int
    unit: int
    max_docs: int
    boilerplate_grams: int
    minhash: bool

    def contaminated(self) -> list[ItemStat]:
        return [s for s in self.items if s.contaminated]

    def row(self, benchmark: str) -> dict[str, Any]:
        items = self.items
        cov = np.array([s.coverage for s in items]) if items else np.zeros(0)
        return {
            "benchmark": benchmark,
            "items": len(items),
            "contaminated": sum(s.contaminated for s in items),
            "dirty_ngram": sum(s.dirty_ngram for s in items),
            "containment_70": sum(s.containment >= CONTAINMENT_THRESHOLD for s in items),
            "near_duplicates": sum(s.near_duplicate is not None for s in items),
            "clean": int((cov < CLEAN_BELOW).sum()),
            "not_clean": int((cov >= CLEAN_BELOW).sum()),
            "not_dirty": int((cov < DIRTY_FROM).sum()),
            "dirty": int((cov >= DIRTY_FROM).sum()),
            "ngram": self.ngram,
            "shards": self.shards,
            "documents": self.docs,
            "tokens": self.tokens,
        }


def _cat(results: Sequence[ShardResult], name: str, dtype: npt.DTypeLike) -> np.ndarray:
    arrays = [getattr(r, name) for r in results]
    return np.concatenate(arrays).astype(dtype) if arrays else np.zeros(0, dtype)


def merge(
    index: NgramIndex, results: Sequence[ShardResult], max_docs: int = 10, minhash: bool = False
) -> ScanSummary:
    """Per-item statistics from the results of every shard (order-independent)."""
    results = sorted(results, key=lambda r: r.ordinal)
    unit = index.unit
    n_keys = len(index.keys)
    df = np.zeros(n_keys, dtype=np.int64)
    for r in results:
        np.add.at(df, r.df_key, r.df_count)
    boiler = df > max_docs if max_docs > 0 else np.zeros(n_keys, dtype=bool)

    shard_no = (
        np.concatenate([np.full(len(r.run_item), r.ordinal, np.int64) for r in results])
        if results
        else np.zeros(0, np.int64)
    )
    item = _cat(results, "run_item", np.int64)
    doc = _cat(results, "run_doc", np.int64)
    line = _cat(results, "run_line", np.int64)
    p0 = _cat(results, "run_p0", np.int64)
    diag = _cat(results, "run_diag", np.int64)
    length = _cat(results, "run_len", np.int64)
    item_len = np.diff(index.offsets)

    # Boilerplate: a run whose every gram is boilerplate and that covers < half its item.
    if len(item):
        grams = np.where(length >= unit, length - unit + 1, 1)
        flags = boiler[index.gram_key].astype(np.int64)
        csum = np.zeros(len(flags) + 1, dtype=np.int64)
        np.cumsum(flags, out=csum[1:])
        a = index.gram_off[item] + p0
        n_boiler = csum[a + grams] - csum[a]
        drop = (n_boiler == grams) & ((length < unit) | (2 * length < item_len[item]))
        keep = ~drop
        shard_no, item, doc, line, p0, diag, length = (
            x[keep] for x in (shard_no, item, doc, line, p0, diag, length)
        )
    paths = {r.ordinal: r.shard for r in results}

    stats: list[ItemStat] = []
    order = np.lexsort((p0, diag, doc, shard_no, item))
    bounds = np.searchsorted(item[order], np.arange(index.n_items + 1)) if len(item) else None
    for i, it in enumerate(index.items):
        n_tok = int(item_len[i])
        s = ItemStat(index=i, id=it.id, line=it.line, tokens=n_tok, ngram=index.item_ngram(i))
        stats.append(s)
        if bounds is None or bounds[i] == bounds[i + 1] or n_tok == 0:
            continue
        sel = order[bounds[i] : bounds[i + 1]]
        _item_stats(
            index,
            s,
            i,
            n_tok,
            shard_no[sel],
            doc[sel],
            line[sel],
            p0[sel],
            diag[sel],
            length[sel],
            paths,
        )

    if minhash:
        near_item = _cat(results, "near_item", np.int64)
        near_j = _cat(results, "near_jaccard", np.float64)
        near_line = _cat(results, "near_line", np.int64)
        near_shard = (
            np.concatenate([np.full(len(r.near_item), r.ordinal, np.int64) for r in results])
            if results
            else np.zeros(0, np.int64)
        )
        near_doc = _cat(results, "near_doc", np.int64)
        for j in np.lexsort((near_line, near_shard, -near_j)):
            s = stats[int(near_item[j])]
            if s.near_duplicate is None:
                s.near_duplicate = round(float(near_j[j]), 4)
                if s.example is None:
                    s.example = {
                        "shard": paths[int(near_shard[j])],
                        "line": int(near_line[j]),
                        "text": index.text_of(s.index, 0, 40),
                        "kind": "near-duplicate",
                    }
        # Documents hit by near-duplicates count too.
        for i in np.unique(near_item):
            s = stats[int(i)]
            if s.docs == 0:
                m = near_item == i
                s.docs = len(set(zip(near_shard[m].tolist(), near_doc[m].tolist())))

    for s in stats:
        if s.dirty_ngram:
            s.methods.append("ngram")
        if s.containment >= CONTAINMENT_THRESHOLD:
            s.methods.append("containment")
        if s.coverage >= CLEAN_BELOW:
            s.methods.append("coverage")
        if s.near_duplicate is not None:
            s.methods.append("minhash")
    return ScanSummary(
        items=stats,
        shards=len(results),
        docs=sum(r.docs for r in results),
        tokens=sum(r.tokens for r in results),
        nbytes=sum(r.nbytes for r in results),
        ngram=index.ngram,
        unit=unit,
        max_docs=max_docs,
        boilerplate_grams=int(boiler.sum()),
        minhash=minhash,
    )


def _containment(p0: np.ndarray, length: np.ndarray, m: int) -> float:
    """Share of the 8-grams of tokens ``0:m`` inside some run (the whole part when shorter)."""
    if m <= 0:
        return 0.0
    c = min(CONTAIN_N, m)
    n_grams = m - c + 1
    ok = length >= c
    first = p0[ok]
    last = np.minimum(p0[ok] + length[ok] - c, n_grams - 1)
    valid = first <= last
    hit = np.zeros(n_grams + 1, dtype=np.int64)
    np.add.at(hit, first[valid], 1)
    np.add.at(hit, last[valid] + 1, -1)
    return float((np.cumsum(hit)[:n_grams] > 0).mean())


def _item_stats(
    index: NgramIndex,
    s: ItemStat,
    i: int,
    n_tok: int,
    shard_no: np.ndarray,
    doc: np.ndarray,
    line: np.ndarray,
    p0: np.ndarray,
    diag: np.ndarray,
    length: np.ndarray,
    paths: dict[int, str],
) -> None:
    s.dirty_ngram = bool((length >= s.ngram).any())
    s.longest_match = int(length.max())
    s.docs = len(set(zip(shard_no.tolist(), doc.tolist())))
    main = int(index.main_len[i]) if index.main_len is not None else n_tok
    main = min(max(main, 0), n_tok)
    # PaLM containment, of the whole item or of its question part alone.
    s.containment = max(_containment(p0, length, n_tok), _containment(p0, length, main))
    # Llama 2 coverage: join runs of one document on (nearly) one diagonal across a small gap.
    covered = np.zeros(n_tok + 1, dtype=np.int64)
    min_match = min(COVERAGE_MIN_MATCH, s.ngram)
    keys = list(zip(shard_no.tolist(), doc.tolist()))
    spans: list[tuple[int, int, int]] = []
    by_doc: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for k, a, d, n in zip(keys, p0.tolist(), diag.tolist(), length.tolist()):
        by_doc.setdefault(k, []).append((a, a + n, d))
    anchor = min(CONTAIN_N, s.ngram)
    for runs in by_doc.values():
        runs.sort()
        cur_a, cur_b, cur_d = runs[0]
        longest = cur_b - cur_a
        for a, b, d in runs[1:]:
            if a <= cur_b + SKIP_BUDGET and abs(d - cur_d) <= 2:
                cur_b = max(cur_b, b)
                cur_d = d
                longest = max(longest, b - a)
            else:
                spans.append((cur_a, cur_b, longest))
                cur_a, cur_b, cur_d, longest = a, b, d, b - a
        spans.append((cur_a, cur_b, longest))
    # A span counts when it is long enough and holds at least one exact 8-word match.
    for a, b, longest in spans:
        if b - a >= min_match and longest >= anchor:
            covered[a] += 1
            covered[b] -= 1
    mask = np.cumsum(covered)[:n_tok] > 0
    s.coverage = float(mask.mean())
    s.part_tokens = n_tok
    if 0 < main < n_tok and mask[:main].mean() > s.coverage:
        s.coverage, s.part, s.part_tokens = float(mask[:main].mean()), "question", main
    best = int(np.argmax(length))  # first of the longest, in (shard, doc, position) order
    s.example = {
        "shard": paths[int(shard_no[best])],
        "line": int(line[best]),
        "text": index.text_of(i, int(p0[best]), int(min(length[best], 60))),
        "kind": "exact",
    }
