"""The benchmark n-gram index: small, built once, shipped to every worker.

Words are 64-bit word keys (:mod:`benchaudit.contamination.tokens`: exact for
words of up to 8 bytes); a bitmap over the benchmark's words tells the scan
which corpus words may be benchmark words, so only runs of those are hashed.
An n-gram's key is a 64-bit polynomial hash of its word keys, finished with
the splitmix64 mixer: deterministic in every process (no ``hash()`` of str), and
computed for all positions of a corpus batch with a few numpy passes. Keys
sit in a sorted array; each key points at the (item, position) entries that
carry it. Every corpus hit is re-checked word key by word key, and every match read back
from the document's bytes, so a hash collision can never produce a match.

The scan unit is the ``unit``-gram (5 words by default): every longer match
(PaLM's 8-grams, GPT-3's 13-grams, the longest match) is a chain of
unit-grams on one diagonal, and a short unit keeps the stretches between
edited words visible to the coverage measure. Items shorter than the unit
are indexed as one whole-item gram.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from benchaudit.contamination.benchmark import Item
from benchaudit.contamination.normalize import normalize, words
from benchaudit.contamination.tokens import _slot, spans
from benchaudit.contamination.tokens import keys as word_keys

MULT = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LEN = np.uint64(0xD6E8FEB86659FD93)
#: Bits of the prefilter bitmap (2^22 bytes = 4 MB).
BITMAP_BITS = 22
#: Most bits of the word bitmap (2^20 bytes = 1 MB).
WORD_BITS = 20


def word_bits(n_words: int) -> int:
    """Bits of the word bitmap for a vocabulary of ``n_words``: about 16 slots per word
    (a sixteenth of the corpus's other words pass the bitmap), between 2^12 and 2^20.
    Every corpus word is looked up there, so a table that stays in the core's own cache
    (128 KB for GSM8K's 5,800 words) costs two thirds of a 1 MB one per lookup."""
    return min(WORD_BITS, max(12, (16 * max(n_words, 1) - 1).bit_length()))


def mix(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64's finaliser, element-wise (uint64 arithmetic wraps mod 2^64)."""
    h = h ^ (h >> np.uint64(30))
    h = h * _MIX1
    h = h ^ (h >> np.uint64(27))
    h = h * _MIX2
    return h ^ (h >> np.uint64(31))


def _mix_in_place(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """:func:`mix`, overwriting ``h`` (the same values, without a temporary per step)."""
    h ^= h >> np.uint64(30)
    h *= _MIX1
    h ^= h >> np.uint64(27)
    h *= _MIX2
    h ^= h >> np.uint64(31)
    return h


def sorted_distinct(x: np.ndarray) -> np.ndarray:
    """The sorted distinct values of a 1-d array, as ``np.unique(x)`` gives them, without
    its check for a masked array, which imports ``numpy.ma`` (a tenth of a second of CPU
    in a fresh process, more than a small scan costs)."""
    out = np.sort(x, kind="stable")
    if len(out) > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


def gram_hashes(ids: np.ndarray, lengths: Sequence[int]) -> dict[int, np.ndarray]:
    """Keys of every n-gram of each length in ``lengths``, by start position.

    One Horner pass up to the longest length yields every shorter one on the
    way; the result for length n has ``len(ids) - n + 1`` entries.
    """
    want = set(lengths)
    longest = max(want)
    n_ids = len(ids)
    x = ids.astype(np.uint64)
    out: dict[int, np.ndarray] = {}
    if n_ids == 0:
        return {n: np.zeros(0, np.uint64) for n in want}
    with np.errstate(over="ignore"):
        h = np.zeros(max(n_ids, 0), dtype=np.uint64)
        for j in range(longest):
            m = n_ids - j
            if m <= 0:
                break
            h = h[:m] * MULT + x[j : j + m]
            if (j + 1) in want:
                out[j + 1] = mix(h ^ (_LEN * np.uint64(j + 1)))
    for n in want:
        out.setdefault(n, np.zeros(0, np.uint64))
    return out


def gram_keys_at(x: np.ndarray, starts: np.ndarray, n: int) -> np.ndarray:
    """Keys of the n-grams of word keys ``x`` starting at ``starts`` (as :func:`gram_hashes`)."""
    with np.errstate(over="ignore"):
        h = x[starts]  # a fresh array: updated in place, no temporaries
        for j in range(1, n):
            h *= MULT
            h += x[starts + j]
        h ^= _LEN * np.uint64(n)
        return _mix_in_place(h)


@dataclass
class NgramIndex:
    """Everything a worker needs to scan a shard for one benchmark."""

    items: list[Item]
    ngram: int
    unit: int
    vocab: dict[int, bytes]  # word key -> word
    flat: np.ndarray  # uint64 word keys of all items, concatenated
    offsets: np.ndarray  # int64, len(items)+1
    lengths: list[int]  # gram lengths hashed on the corpus side
    keys: np.ndarray  # sorted unique uint64 keys
    starts: np.ndarray  # int64, entries of key k are starts[k]:starts[k+1]
    entry_item: np.ndarray  # int32
    entry_pos: np.ndarray  # int32
    entry_len: np.ndarray  # int16
    gram_key: np.ndarray  # int64 key id of each item gram; positions at gram_off[item]
    gram_off: np.ndarray  # int64, len(items)+1
    bitmap: np.ndarray  # uint8 prefilter indexed by the low bits of a key
    #: Set by :attr:`fingerprint` the first time it is asked for.
    _fingerprint: str = ""
    minhash: object | None = None  # MinHashIndex when near-duplicate search is on
    empty_items: list[int] = field(default_factory=list)
    main_len: np.ndarray | None = None  # words of each item's question part
    word_bitmap: npt.NDArray[np.bool_] | None = None  # bool, indexed by _slot(word key, word_shift)
    word_shift: int = 64 - WORD_BITS
    #: Running count of the words of ``flat`` longer than 8 bytes (their keys are hashes).
    long_words: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.long_words is None:
            longer = [len(self.vocab.get(int(k), b"")) > 8 for k in self.flat.tolist()]
            self.long_words = np.zeros(len(self.flat) + 1, dtype=np.int64)
            np.cumsum(np.array(longer, dtype=bool), out=self.long_words[1:])
        if self.word_bitmap is None:
            self.word_shift = 64 - word_bits(len(self.vocab))
            self.word_bitmap = np.zeros(1 << (64 - self.word_shift), dtype=bool)
            ks = np.fromiter(self.vocab, dtype=np.uint64, count=len(self.vocab))
            self.word_bitmap[_slot(ks, self.word_shift)] = True

    def may_be_word(self, ks: np.ndarray) -> npt.NDArray[np.bool_]:
        """False for a word key that is certainly not a benchmark word."""
        bitmap = self.word_bitmap
        assert bitmap is not None  # built by __post_init__
        hits: npt.NDArray[np.bool_] = bitmap[_slot(ks, self.word_shift)]
        return hits

    @property
    def fingerprint(self) -> str:
        """What identifies the index for resume markers, computed only when one is used
        (hashing the keys and words costs a scan a fixed fiftieth of a second)."""
        if not self._fingerprint:
            digest = hashlib.sha256()
            digest.update(f"{self.ngram}/{self.unit}/{len(self.items)}".encode())
            digest.update(self.keys.tobytes())
            digest.update(self.flat.tobytes())
            self._fingerprint = digest.hexdigest()[:16]
        return self._fingerprint

    @property
    def n_items(self) -> int:
        return len(self.items)

    def item_len(self, i: int) -> int:
        return int(self.offsets[i + 1] - self.offsets[i])

    def item_ngram(self, i: int) -> int:
        """The n of GPT-3's dirty flag for item ``i``: ``ngram``, shorter for short items."""
        return min(self.ngram, self.item_len(i))

    def item_words(self, i: int) -> np.ndarray:
        return self.flat[self.offsets[i] : self.offsets[i + 1]]

    def words_of(self, i: int, start: int, length: int) -> list[bytes]:
        return [self.vocab[int(k)] for k in self.item_words(i)[start : start + length]]

    def text_of(self, i: int, start: int, length: int) -> str:
        """Normalised text of item ``i``'s words ``start:start+length``."""
        return b" ".join(self.words_of(i, start, length)).decode("utf-8", errors="replace")


def build_index(items: Sequence[Item], ngram: int = 13, unit: int = 5) -> NgramIndex:
    """Index the items' unit-grams (and whole short items)."""
    if ngram < 1:
        raise ValueError("ngram must be at least 1")
    unit = max(1, min(unit, ngram))
    # All items' words at once: normalised one by one, joined by a space (a word
    # boundary), split and keyed in one pass; no Python step per word.
    norms = [normalize(item.text) for item in items]
    joined = b" ".join(norms)
    _, starts_, ends_ = spans(joined)
    flat = word_keys(joined, starts_, ends_) if len(starts_) else np.zeros(0, np.uint64)
    item_at = np.zeros(len(items), dtype=np.int64)
    if len(norms) > 1:
        np.cumsum(np.fromiter(map(len, norms[:-1]), np.int64, len(norms) - 1) + 1, out=item_at[1:])
    lens = np.bincount(
        np.searchsorted(item_at, starts_, side="right") - 1, minlength=len(items)
    ).astype(np.int64)
    offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    # The first item to use a key names its word (keys of words over 16 bytes may be
    # shared: the scan re-reads every match, so that can only hide a match). Only the
    # distinct words become Python objects.
    distinct, first_use = np.unique(flat, return_index=True)
    vocab: dict[int, bytes] = {
        k: joined[a:b]
        for k, a, b in zip(
            distinct.tolist(), starts_[first_use].tolist(), ends_[first_use].tolist()
        )
    }
    main_len = lens.copy()
    for i, item in enumerate(items):
        if item.main:
            main_len[i] = len(words(item.main))

    # Each item's unit-grams (its whole text when shorter), from one hash pass per length.
    g_of = np.minimum(lens, unit)
    counts = np.where(lens >= unit, lens - unit + 1, np.minimum(lens, 1))
    lengths = {unit, *(int(g) for g in sorted_distinct(g_of[lens > 0]))}
    hashed = gram_hashes(flat, sorted(lengths)) if len(flat) else {}
    it = np.repeat(np.arange(len(items), dtype=np.int32), counts)
    gram_off = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(counts, out=gram_off[1:])
    pos = (np.arange(len(it), dtype=np.int64) - gram_off[it]).astype(np.int32)
    ln = g_of[it].astype(np.int16)
    k = np.zeros(len(it), dtype=np.uint64)
    at = offsets[it] + pos
    for g in lengths:
        sel = ln == g
        if sel.any():
            k[sel] = hashed[g][at[sel]]
    order = np.lexsort((pos, it, k))
    k, it, pos, ln = k[order], it[order], pos[order], ln[order]
    keys, first, inverse = np.unique(k, return_index=True, return_inverse=True)
    starts = np.append(first, len(k)).astype(np.int64)
    gram_key = np.empty(len(k), dtype=np.int64)
    gram_key[gram_off[it] + pos] = inverse.reshape(-1)
    bitmap = np.zeros(1 << BITMAP_BITS, dtype=np.uint8)
    bitmap[(keys & np.uint64((1 << BITMAP_BITS) - 1)).astype(np.int64)] = 1

    return NgramIndex(
        items=list(items),
        ngram=ngram,
        unit=unit,
        vocab=vocab,
        flat=flat,
        offsets=offsets,
        lengths=sorted(lengths),
        keys=keys,
        starts=starts,
        entry_item=it,
        entry_pos=pos,
        entry_len=ln,
        gram_key=gram_key,
        gram_off=gram_off,
        bitmap=bitmap,
        empty_items=np.flatnonzero(lens == 0).tolist(),
        main_len=main_len,
        long_words=np.concatenate([[0], np.cumsum((ends_ - starts_) > 8)]).astype(np.int64),
    )
