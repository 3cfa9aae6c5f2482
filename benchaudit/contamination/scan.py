"""The per-shard scan: a pure function (index, shard) -> :class:`ShardResult`.

A shard is read once, in batches of about 1 MB of documents (the arrays of a
batch stay in cache). Each batch is normalised in C (``bytes.translate``) and
split into words with numpy (:mod:`benchaudit.contamination.tokens`). Only every
unit-th word is turned into a 64-bit key and asked of the index's word bitmap
at first (any gram long enough to look up holds one of those words), then the
neighbours of those that may be benchmark words; runs of possible benchmark
words are hashed into n-gram keys, filtered through a bitmap, looked up with
``np.searchsorted``, and every hit is re-checked word by word. Verified
unit-gram hits on one diagonal (same item, same document, same offset) are
chained into maximal exact matches ("runs"). Results of several shards merge
by concatenation, so any engine that maps this function over shards gives the
same answer. No Python code runs per document or per word unless it has a hit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from benchaudit.contamination.index import BITMAP_BITS, NgramIndex, gram_keys_at, sorted_distinct
from benchaudit.contamination.normalize import normalize
from benchaudit.contamination.prefetch import core_to_spare, read_ahead
from benchaudit.contamination.shards import Shard, batches
from benchaudit.contamination.tokens import PAD, keys, spans
from benchaudit.limits import DEFAULT, Limits

_MASK = np.uint64((1 << BITMAP_BITS) - 1)
_I64 = np.int64


@dataclass
class ScanOptions:
    """Settings that change a shard's result (they key the resume markers too)."""

    text_fields: tuple[str, ...] | None = None
    batch_bytes: int = 1 << 20  # arrays of a batch stay in cache
    minhash: bool = False
    #: Caps on reading a shard; they change no result, only whether a shard is refused.
    limits: Limits = DEFAULT
    #: Batches read and decompressed ahead in a second thread (0: read in the scanning
    #: thread; None: ahead when a core is to spare); the result is the same either way.
    read_ahead: int | None = None

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


#: Joins the documents of a batch: 0xFF never occurs in UTF-8, so the separator is never
#: a benchmark word and no n-gram can run across two documents.
JOIN = b" \xff "


@dataclass
class Tokens:
    """A batch of documents, tokenised: word keys and where each word sits."""

    norm: bytes
    ids: np.ndarray  # uint64 word key per word (0 where not needed: see ``maybe``)
    starts: np.ndarray  # byte offset of each word in ``norm``
    ends: np.ndarray
    doc_start: np.ndarray  # byte offset of each document in ``norm``
    maybe: np.ndarray  # sorted positions of possible benchmark words (all in gram-long runs)
    isnum: np.ndarray | None = None  # words made only of digits (for MinHash)

    def dense(self, index: NgramIndex) -> bool:
        """Possible benchmark words are so common that sampling them costs more than it saves
        (the test :func:`_word_keys` makes on its sample)."""
        s, reach = min(index.lengths), max(index.lengths) - 1
        return len(self.maybe) * (2 * reach + 1) >= s * (self.n_words // 2)

    @property
    def n_words(self) -> int:
        return len(self.starts)

    def doc_of(self, words: np.ndarray) -> npt.NDArray[np.intp]:
        """The document (0-based within the batch) of the words at these positions."""
        at: np.ndarray = self.starts[words]
        return np.searchsorted(self.doc_start, at, side="right") - 1


def _word_keys(
    index: NgramIndex, norm: bytes, starts: np.ndarray, ends: np.ndarray, dense: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Word keys where the scan needs them, and the positions of possible benchmark words.

    Every gram the scan looks up is a run of at least ``s = min(index.lengths)``
    possible benchmark words, and such a run holds a word at a multiple of ``s``. So
    only every ``s``-th word is keyed and asked of the word bitmap first; then the
    words within ``max(index.lengths) - 1`` of each one that passed. Any run of
    possible benchmark words long enough to be looked up is therefore keyed in full,
    exactly as if every word had been; most of the text's words are never keyed.

    With ``dense`` (the batch before was mostly benchmark words, as English text is for
    a benchmark written in English) every word is keyed at once: the sample would
    only say so again.
    """
    n_tok = len(starts)
    s, reach = min(index.lengths), max(index.lengths) - 1
    if s > 1 and not dense:
        hit = np.flatnonzero(index.may_be_word(keys(norm, starts[::s], ends[::s]))) * s
        # Dense hits (text full of benchmark words): keying every word costs less.
        if len(hit) * (2 * reach + 1) < n_tok // 2:
            mark = np.zeros(n_tok + 2 * reach, dtype=bool)  # shifted by reach: no clipping
            mark[(hit[:, None] + np.arange(2 * reach + 1)).ravel()] = True
            near = np.flatnonzero(mark[reach : reach + n_tok])
            kn = keys(norm, starts[near], ends[near])
            ids = np.zeros(n_tok, dtype=np.uint64)
            ids[near] = kn
            return ids, near[index.may_be_word(kn)]
    ids = keys(norm, starts, ends)
    return ids, np.flatnonzero(index.may_be_word(ids))


def tokenize(
    index: NgramIndex, texts: Sequence[bytes], numbers: bool = False, dense: bool = False
) -> Tokens:
    """Normalise and split a batch of documents without a loop per word.

    With ``numbers`` (for MinHash) every word is keyed; otherwise only the words
    the exact scan can need (:func:`_word_keys`; ``dense`` as there)."""
    # The padding rides on the last document: the batch's text is copied once, not twice.
    norm = normalize(JOIN.join([*texts[:-1], texts[-1] + PAD]) if texts else PAD)
    _, starts, ends = spans(norm)
    if numbers:
        ids = keys(norm, starts, ends)
        maybe = np.flatnonzero(index.may_be_word(ids))
    else:
        ids, maybe = _word_keys(index, norm, starts, ends, dense)
    lens = np.fromiter(map(len, texts), dtype=_I64, count=len(texts))
    doc_start = np.zeros(len(texts), dtype=_I64)
    np.cumsum(lens[:-1] + len(JOIN), out=doc_start[1:])
    isnum = None
    if numbers:
        buf = np.frombuffer(norm, dtype=np.uint8)
        digit = ((buf >= 0x30) & (buf <= 0x39)).astype(_I64)
        cs = np.zeros(len(buf) + 1, dtype=_I64)
        np.cumsum(digit, out=cs[1:])
        isnum = (cs[ends] - cs[starts]) == (ends - starts)
    return Tokens(
        norm=norm, ids=ids, starts=starts, ends=ends, doc_start=doc_start, maybe=maybe, isnum=isnum
    )


def _lookup(index: NgramIndex, ids: np.ndarray, maybe: np.ndarray) -> tuple[np.ndarray, ...]:
    """Verified hits of a batch: (item, item pos, batch pos, gram length, key id).

    ``maybe`` holds sorted positions of words that may be benchmark words (at least
    every one in a run of them as long as a looked-up gram); a gram is looked up
    only where all its words are such words."""
    out_item, out_p, out_q, out_n, out_k = [], [], [], [], []
    # Selections go through ``np.flatnonzero`` and ``take``: indexing with a boolean mask
    # costs about four times as much per element.
    for n in index.lengths:
        m = len(maybe) - n + 1
        if m <= 0:
            continue
        # Sorted distinct positions: n of them in a row are consecutive words.
        cand = maybe.take(np.flatnonzero(maybe[n - 1 :] - maybe[:m] == n - 1))
        if not len(cand):
            continue
        h = gram_keys_at(ids, cand, n)
        inmap = np.flatnonzero(index.bitmap.take((h & _MASK).astype(_I64)))
        cand, hc = cand.take(inmap), h.take(inmap)
        if not len(cand):
            continue
        k = np.searchsorted(index.keys, hc)
        k[k >= len(index.keys)] = 0
        found = np.flatnonzero(index.keys.take(k) == hc)
        cand, k = cand.take(found), k.take(found)
        if not len(cand):
            continue
        lo = index.starts[k]
        counts = index.starts[k + 1] - lo
        rep = np.repeat(np.arange(len(k)), counts)
        within = np.arange(len(rep)) - np.repeat(np.cumsum(counts) - counts, counts)
        entry = lo[rep] + within
        keep = np.flatnonzero(index.entry_len[entry] == n)
        entry, rep = entry.take(keep), rep.take(keep)
        item = index.entry_item[entry]
        p = index.entry_pos[entry]
        q = cand[rep]
        # Re-check every hit word by word: a hash collision never becomes a match.
        base = index.offsets[item] + p
        good = np.ones(len(q), dtype=bool)
        for j in range(n):
            good &= ids[q + j] == index.flat[base + j]
        ok = np.flatnonzero(good)
        out_item.append(item.take(ok))
        out_p.append(p.take(ok))
        out_q.append(q.take(ok).astype(_I64))
        out_n.append(np.full(len(ok), n, np.int32))
        out_k.append(k.take(rep.take(ok)).astype(_I64))
    if not out_item:
        z = np.zeros(0, _I64)
        return np.zeros(0, np.int32), np.zeros(0, np.int32), z, np.zeros(0, np.int32), z
    return (
        np.concatenate(out_item),
        np.concatenate(out_p),
        np.concatenate(out_q),
        np.concatenate(out_n),
        np.concatenate(out_k),
    )


def _runs(
    index: NgramIndex,
    item: np.ndarray,
    p: np.ndarray,
    q: np.ndarray,
    n: np.ndarray,
    doc: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """Chain unit-gram hits on one diagonal into maximal runs; whole short items stay as is."""
    unit = index.unit
    diag = q - p
    order = np.lexsort((p, diag, doc, item))
    item, p, q, n, doc, diag = item[order], p[order], q[order], n[order], doc[order], diag[order]
    is_unit = n == unit
    start = np.ones(len(item), dtype=bool)
    if len(item) > 1:
        same = (
            (item[1:] == item[:-1])
            & (doc[1:] == doc[:-1])
            & (diag[1:] == diag[:-1])
            & (p[1:] == p[:-1] + 1)
            & is_unit[1:]
            & is_unit[:-1]
        )
        start[1:] = ~same
    run_id = np.cumsum(start) - 1
    grams = np.bincount(run_id)
    first = np.flatnonzero(start)
    length = np.where(is_unit[first], grams + unit - 1, n[first]).astype(np.int32)
    return item[first], doc[first], p[first], diag[first], length


_HIGH = np.uint64(1 << 63)


def _any_high_key(ids: np.ndarray, q0: np.ndarray, length: np.ndarray) -> npt.NDArray[np.bool_]:
    """For each run of words ``q0[r] : q0[r] + length[r]``: does one of its keys have the top
    bit set? Every key of a word longer than 8 bytes does (a hash); so does an 8-byte word
    whose last byte is not ASCII, which is only read back for nothing. Only the runs' own
    words are looked at (every one of them was keyed: they are verified grams' words), not
    the whole batch."""
    lens = length.astype(_I64)
    run_of = np.repeat(np.arange(len(lens)), lens)
    first = np.cumsum(lens) - lens
    word = q0.astype(_I64)[run_of] + (np.arange(len(run_of)) - first[run_of])
    seen = np.zeros(len(run_of) + 1, dtype=_I64)
    np.cumsum(ids[word] >= _HIGH, out=seen[1:])
    high: npt.NDArray[np.bool_] = seen[first + lens] > seen[first]
    return high


def _verified(
    index: NgramIndex,
    tok: Tokens,
    item: np.ndarray,
    doc: np.ndarray,
    p0: np.ndarray,
    diag: np.ndarray,
    length: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """Keep the runs whose words, read back from the document's bytes, equal the item's.

    Word keys are exact for words of up to 8 bytes and hashed beyond; reading
    back every run that holds a longer word, in the text or in the item, makes a
    hash collision unable to produce a match. A run of short words on both sides
    was already compared word by word, key by key, and those keys are the words.
    """
    keep = np.ones(len(item), dtype=bool)
    q0 = p0 + diag
    if not len(item):
        return item, doc, p0, diag, length
    at = index.offsets[item] + p0
    long_cs = index.long_words
    assert long_cs is not None
    risky = _any_high_key(tok.ids, q0, length) | (long_cs[at + length] - long_cs[at] > 0)
    for r in np.flatnonzero(risky).tolist():
        a, n = int(q0[r]), int(length[r])
        seen = tok.norm[tok.starts[a] : tok.ends[a + n - 1]].split()
        keep[r] = seen == index.words_of(int(item[r]), int(p0[r]), n)
    return item[keep], doc[keep], p0[keep], diag[keep], length[keep]


class ShardScanner:
    """Accumulates the scan of one shard, batch by batch (a shard's whole state)."""

    def __init__(self, index: NgramIndex, shard: Shard, options: ScanOptions | None = None) -> None:
        self.index = index
        self.opts = options or ScanOptions()
        self.res = ShardResult(shard=shard.path, ordinal=shard.ordinal)
        self.runs: list[tuple[np.ndarray, ...]] = []
        self.df_pairs: list[np.ndarray] = []
        self.near: list[tuple[np.ndarray, ...]] = []
        self.dense = False  # the last batch was mostly possible benchmark words

    def add(self, texts: Sequence[bytes], line_numbers: Sequence[int], nbytes: int) -> None:
        """Scan one batch of documents (their text and 1-based lines)."""
        index, res = self.index, self.res
        doc_base = res.docs
        want_mh = self.opts.minhash and index.minhash is not None
        tok = tokenize(index, texts, numbers=want_mh, dense=self.dense)
        self.dense = tok.dense(index)
        ids = tok.ids
        lines = np.asarray(line_numbers, dtype=_I64)
        item, p, q, n, k = _lookup(index, ids, tok.maybe)
        if len(item):
            bdoc = tok.doc_of(q)
            r_item, r_doc, r_p0, r_diag, r_len = _verified(
                index, tok, *_runs(index, item, p, q, n, bdoc)
            )
            self.runs.append((r_item, r_doc + doc_base, lines[r_doc], r_p0, r_diag, r_len))
            self.df_pairs.append(sorted_distinct(k * np.int64(1 << 31) + bdoc + doc_base))
        if want_mh:
            from benchaudit.contamination.minhash import near_duplicates

            assert tok.isnum is not None  # tokenize(numbers=True) keys every word
            buf = np.frombuffer(tok.norm, dtype=np.uint8)
            real = np.flatnonzero(((tok.ends - tok.starts) != 1) | (buf[tok.starts] != 0xFF))
            ni, nd, nj = near_duplicates(index, ids[real], tok.doc_of(real), tok.isnum[real])
            if len(ni):
                self.near.append((ni, nd + doc_base, lines[nd], nj))
        res.docs += len(texts)
        res.tokens += tok.n_words - (len(texts) - 1)  # not the separators
        res.nbytes += nbytes

    def finish(self) -> ShardResult:
        res = self.res
        if self.runs:
            cols = [np.concatenate(c) for c in zip(*self.runs)]
            (res.run_item, res.run_doc, res.run_line, res.run_p0, res.run_diag, res.run_len) = cols
            pairs = np.concatenate(self.df_pairs)
            res.df_key, counts = np.unique(pairs // np.int64(1 << 31), return_counts=True)
            res.df_count = counts.astype(_I64)
        if self.near:
            cols = [np.concatenate(c) for c in zip(*self.near)]
            res.near_item, res.near_doc, res.near_line, res.near_jaccard = cols
        return res


def scan_shard(index: NgramIndex, shard: Shard, options: ScanOptions | None = None) -> ShardResult:
    """Scan one shard against the index."""
    scanner = ShardScanner(index, shard, options)
    opts = scanner.opts
    source = batches(shard.path, opts.text_fields, opts.batch_bytes, opts.limits)
    depth = opts.read_ahead if opts.read_ahead is not None else (2 if core_to_spare() else 0)
    for batch in read_ahead(source, depth):
        scanner.add(batch.texts, batch.lines, batch.nbytes)
    return scanner.finish()
