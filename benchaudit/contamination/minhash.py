"""Near-duplicates of item-sized units with MinHash LSH (datasketch >= 2).

Items and corpus units are sets of word 3-gram keys, with every number
replaced by one placeholder: exact matching keeps numbers, near-duplicate
search deliberately ignores them, so an item re-used with new numbers is
still found. An item that joins a question and its answer is indexed whole
and as its question alone. A short document is one
unit; a long one is cut into item-length windows (the median item length,
overlapping by three quarters), because the Jaccard similarity of an item and
a whole long document is tiny even when the item sits inside it. A window is
only sketched when enough of its shingles occur in some item to make the
threshold reachable (Jaccard >= t needs |I & U| >= t |U|), and every LSH
candidate is confirmed with the exact Jaccard similarity of the two sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

import numpy as np

from benchaudit.contamination.index import NgramIndex, gram_hashes

if TYPE_CHECKING:
    from datasketch import MinHash

SHINGLE = 3
NUM_PERM = 128
THRESHOLD = 0.5
SCHEME = "affine64"
SEED = 1


_Key = TypeVar("_Key")


def _identity(value: _Key) -> _Key:
    """Shingles are already 64-bit keys; MinHash permutes them as they are."""
    return value


def _sketch(keys: np.ndarray) -> MinHash:
    from datasketch import MinHash

    m = MinHash(num_perm=NUM_PERM, seed=SEED, hashfunc=_identity, scheme=SCHEME)
    m.update_batch(keys)
    return m


#: The word key every number is replaced by (no real word has it: top bit set, odd).
NUMBER = np.uint64(0x8000000000000001)


def _masked(ids: np.ndarray, isnum: np.ndarray) -> np.ndarray:
    x = ids.copy()
    x[isnum] = NUMBER
    return x


class _LSH(Protocol):
    """The part of datasketch's ``MinHashLSH`` the scan uses (datasketch ships no types)."""

    def query(self, minhash: MinHash) -> list[Sequence[int]]: ...  # the inserted keys


@dataclass
class MinHashIndex:
    lsh: _LSH
    item_sets: dict[tuple[int, int], np.ndarray]  # (item, part) -> sorted unique shingles
    all_keys: np.ndarray  # sorted union of every item's shingles
    windows: list[int]  # window lengths (in shingles) used over long documents
    threshold: float


def window_sizes(sizes: list[int]) -> list[int]:
    """A few window lengths covering the item sizes: the 10th, 50th and 90th percentile and
    the largest, rounded to steps of 25% so that similar sizes share one window."""
    sizes = [n for n in sizes if n >= 5]
    if not sizes:
        return [5]
    qs = np.quantile(np.array(sizes, dtype=float), [0.1, 0.5, 0.9, 1.0])
    steps = np.round(np.log(qs) / np.log(1.25))
    return sorted({max(5, int(round(1.25**k))) for k in steps})


def build_minhash(index: NgramIndex, threshold: float = THRESHOLD) -> MinHashIndex:
    """Sketch every item and put it in an LSH index; attach it to ``index``."""
    from datasketch import MinHashLSH

    lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)
    sets: dict[tuple[int, int], np.ndarray] = {}
    for i in range(index.n_items):
        ids = index.item_words(i)
        main = int(index.main_len[i]) if index.main_len is not None else len(ids)
        for part, part_ids in ((0, ids), (1, ids[:main])):
            if len(part_ids) < SHINGLE or (part == 1 and main >= len(ids)):
                continue
            isnum = np.array([index.vocab[int(k)].isdigit() for k in part_ids], dtype=bool)
            x = _masked(part_ids, isnum)
            keys = np.unique(gram_hashes(x, [SHINGLE])[SHINGLE])
            sets[(i, part)] = keys
            lsh.insert((i, part), _sketch(keys))
    windows = window_sizes([len(v) for v in sets.values()])
    all_keys = np.unique(np.concatenate(list(sets.values()))) if sets else np.zeros(0, np.uint64)
    mh = MinHashIndex(
        lsh=lsh, item_sets=sets, all_keys=all_keys, windows=windows, threshold=threshold
    )
    index.minhash = mh
    return mh


def _units(a: int, b: int, windows: list[int]) -> list[tuple[int, int]]:
    """The whole document when it is short, else overlapping windows of each length."""
    if b - a <= 2 * max(windows):
        return [(a, b)]
    out: list[tuple[int, int]] = []
    for w in windows:
        stride = max(1, w // 4)
        starts = list(range(a, b - w + 1, stride))
        if starts[-1] != b - w:
            starts.append(b - w)
        out.extend((s, s + w) for s in starts)
    return out


def near_duplicates(
    index: NgramIndex, ids: np.ndarray, doc: np.ndarray, isnum: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(item, batch document, Jaccard) for every confirmed near-duplicate in a batch."""
    mh: MinHashIndex = index.minhash  # type: ignore[assignment]
    n_tok = len(ids)
    if n_tok < SHINGLE or not len(mh.all_keys):
        return np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0)
    x = _masked(ids, isnum)
    keys = gram_hashes(x, [SHINGLE])[SHINGLE]
    m = len(keys)
    valid = doc[SHINGLE - 1 : SHINGLE - 1 + m] == doc[:m]  # shingles inside one document
    pos = np.searchsorted(mh.all_keys, keys)
    pos[pos >= len(mh.all_keys)] = 0
    member = (mh.all_keys[pos] == keys) & valid
    mcs = np.zeros(m + 1, np.int64)
    np.cumsum(member, out=mcs[1:])
    doc_start = np.searchsorted(doc, np.arange(doc[-1] + 2)) if n_tok else np.zeros(1, np.int64)
    found: dict[tuple[int, int], float] = {}  # (item, doc) -> best Jaccard
    for d in range(len(doc_start) - 1):
        a = int(doc_start[d])
        b = int(doc_start[d + 1]) - SHINGLE + 1  # shingles starting here stay in the doc
        if b - a <= 0:
            continue
        for s, e in _units(a, b, mh.windows):
            if mcs[e] - mcs[s] < mh.threshold * (e - s) * 0.5:
                continue  # even the most similar item could not reach the threshold
            unit = np.unique(keys[s:e][valid[s:e]])
            if not len(unit):
                continue
            for key in mh.lsh.query(_sketch(unit)):
                iset = mh.item_sets[(key[0], key[1])]
                inter = len(np.intersect1d(iset, unit, assume_unique=True))
                jac = inter / (len(iset) + len(unit) - inter)
                item = int(key[0])
                if jac >= mh.threshold and jac > found.get((item, d), 0.0):
                    found[(item, d)] = jac
    if not found:
        return np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0)
    pairs = sorted(found)
    return (
        np.array([p[0] for p in pairs], np.int32),
        np.array([p[1] for p in pairs], np.int64),
        np.array([found[p] for p in pairs]),
    )
