"""The per-shard scan: a pure function (index, shard) -> :class:`ShardResult`.

A shard is read once, in batches of documents. Each batch is normalised and
split in C (``bytes.translate`` / ``bytes.split``), mapped to benchmark word
ids, hashed into n-gram keys with a few numpy passes, filtered through a
bitmap, looked up with ``np.searchsorted``, and every hit is re-checked id by
id. Verified unit-gram hits on one diagonal (same item, same document, same
offset) are chained into maximal exact matches ("runs"). Results of several
shards merge by concatenation, so any engine that maps this function over
shards gives the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from benchaudit.contamination.index import BITMAP_BITS, SEP, NgramIndex, gram_hashes
from benchaudit.contamination.normalize import normalize
from benchaudit.contamination.shards import Shard, batches

_MASK = np.uint64((1 << BITMAP_BITS) - 1)
_I64 = np.int64


@dataclass
class ScanOptions:
    """Settings that change a shard's result (they key the resume markers too)."""

    text_fields: tuple[str, ...] | None = None
    batch_bytes: int = 4 << 20
    minhash: bool = False

    def key(self) -> str:
        return f"{self.text_fields}|{self.minhash}"


@dataclass
class ShardResult:
    """What one shard contributed: exact-match runs, gram document counts, near-duplicates."""

    shard: str
    ordinal: int
    docs: int = 0
    tokens: int = 0
    nbytes: int = 0
    run_item: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    run_doc: np.ndarray = field(default_factory=lambda: np.zeros(0, _I64))
    run_line: np.ndarray = field(default_factory=lambda: np.zeros(0, _I64))
    run_p0: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    run_diag: np.ndarray = field(default_factory=lambda: np.zeros(0, _I64))
    run_len: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    df_key: np.ndarray = field(default_factory=lambda: np.zeros(0, _I64))
    df_count: np.ndarray = field(default_factory=lambda: np.zeros(0, _I64))
    near_item: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    near_doc: np.ndarray = field(default_factory=lambda: np.zeros(0, _I64))
    near_line: np.ndarray = field(default_factory=lambda: np.zeros(0, _I64))
    near_jaccard: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float64))


def _ids_and_docs(index: NgramIndex, texts: Sequence[bytes], numbers: bool = False
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Word ids of a batch, the document of each token (0-based within the batch) and,
    when asked, which tokens are numbers."""
    joined = normalize(b" \xff ".join(texts))
    toks = joined.split()
    get = index.lookup.get
    ids = np.fromiter(map(get, toks, repeat(0)), dtype=np.int32, count=len(toks)) \
        if toks else np.zeros(0, np.int32)
    is_sep = ids == index.sep_id
    doc = np.cumsum(is_sep, dtype=_I64)
    isnum = np.fromiter(map(bytes.isdigit, toks), dtype=bool, count=len(toks)) \
        if numbers else None
    return ids, doc, isnum


def _lookup(index: NgramIndex, ids: np.ndarray) -> tuple[np.ndarray, ...]:
    """Verified hits of a batch: (item, item pos, batch pos, gram length, key id)."""
    n_tok = len(ids)
    bad = (ids == 0) | (ids == index.sep_id)
    cs = np.zeros(n_tok + 1, dtype=np.int32)
    np.cumsum(bad, out=cs[1:])
    hashes = gram_hashes(ids, index.lengths)
    out_item, out_p, out_q, out_n, out_k = [], [], [], [], []
    for n in index.lengths:
        h = hashes[n]
        m = len(h)
        if m == 0:
            continue
        ok = (cs[n:n + m] == cs[:m]) & (index.bitmap[(h & _MASK).astype(_I64)] != 0)
        cand = np.flatnonzero(ok)
        if not len(cand):
            continue
        hc = h[cand]
        k = np.searchsorted(index.keys, hc)
        k[k >= len(index.keys)] = 0
        found = index.keys[k] == hc
        cand, k = cand[found], k[found]
        if not len(cand):
            continue
        lo = index.starts[k]
        counts = index.starts[k + 1] - lo
        rep = np.repeat(np.arange(len(k)), counts)
        within = np.arange(len(rep)) - np.repeat(np.cumsum(counts) - counts, counts)
        entry = lo[rep] + within
        keep = index.entry_len[entry] == n
        entry, rep = entry[keep], rep[keep]
        item = index.entry_item[entry]
        p = index.entry_pos[entry]
        q = cand[rep]
        # Re-check every hit word by word: a hash collision never becomes a match.
        base = index.offsets[item] + p
        good = np.ones(len(q), dtype=bool)
        for j in range(n):
            good &= ids[q + j] == index.flat[base + j]
        out_item.append(item[good])
        out_p.append(p[good])
        out_q.append(q[good].astype(_I64))
        out_n.append(np.full(int(good.sum()), n, np.int32))
        out_k.append(k[rep][good].astype(_I64))
    if not out_item:
        z = np.zeros(0, _I64)
        return np.zeros(0, np.int32), np.zeros(0, np.int32), z, np.zeros(0, np.int32), z
    return (np.concatenate(out_item), np.concatenate(out_p), np.concatenate(out_q),
            np.concatenate(out_n), np.concatenate(out_k))


def _runs(index: NgramIndex, item, p, q, n, doc) -> tuple[np.ndarray, ...]:
    """Chain unit-gram hits on one diagonal into maximal runs; whole short items stay as is."""
    unit = index.unit
    diag = q - p
    order = np.lexsort((p, diag, doc, item))
    item, p, q, n, doc, diag = item[order], p[order], q[order], n[order], doc[order], diag[order]
    is_unit = n == unit
    start = np.ones(len(item), dtype=bool)
    if len(item) > 1:
        same = ((item[1:] == item[:-1]) & (doc[1:] == doc[:-1]) & (diag[1:] == diag[:-1])
                & (p[1:] == p[:-1] + 1) & is_unit[1:] & is_unit[:-1])
        start[1:] = ~same
    run_id = np.cumsum(start) - 1
    grams = np.bincount(run_id)
    first = np.flatnonzero(start)
    length = np.where(is_unit[first], grams + unit - 1, n[first]).astype(np.int32)
    return item[first], doc[first], p[first], diag[first], length


def scan_shard(index: NgramIndex, shard: Shard, options: ScanOptions | None = None
               ) -> ShardResult:
    """Scan one shard against the index."""
    opts = options or ScanOptions()
    res = ShardResult(shard=shard.path, ordinal=shard.ordinal)
    runs: list[tuple[np.ndarray, ...]] = []
    df_pairs: list[np.ndarray] = []
    near: list[tuple[np.ndarray, ...]] = []
    doc_base = 0
    for batch in batches(shard.path, opts.text_fields, opts.batch_bytes):
        want_mh = opts.minhash and index.minhash is not None
        ids, doc, isnum = _ids_and_docs(index, batch.texts, numbers=want_mh)
        lines = np.asarray(batch.lines, dtype=_I64)
        item, p, q, n, k = _lookup(index, ids)
        if len(item):
            bdoc = doc[q]
            r_item, r_doc, r_p0, r_diag, r_len = _runs(index, item, p, q, n, bdoc)
            runs.append((r_item, r_doc + doc_base, lines[r_doc], r_p0, r_diag, r_len))
            df_pairs.append(np.unique(k * np.int64(1 << 31) + bdoc + doc_base))
        if want_mh:
            from benchaudit.contamination.minhash import near_duplicates

            ni, nd, nj = near_duplicates(index, ids, doc, isnum)
            if len(ni):
                near.append((ni, nd + doc_base, lines[nd], nj))
        res.docs += len(batch.texts)
        res.tokens += int(len(ids) - (len(batch.texts) - 1))
        res.nbytes += batch.nbytes
        doc_base += len(batch.texts)
    if runs:
        cols = [np.concatenate(c) for c in zip(*runs)]
        (res.run_item, res.run_doc, res.run_line, res.run_p0, res.run_diag, res.run_len) = cols
        pairs = np.concatenate(df_pairs)
        res.df_key, res.df_count = np.unique(pairs // np.int64(1 << 31), return_counts=True)
        res.df_count = res.df_count.astype(_I64)
    if near:
        cols = [np.concatenate(c) for c in zip(*near)]
        res.near_item, res.near_doc, res.near_line, res.near_jaccard = cols
    return res
