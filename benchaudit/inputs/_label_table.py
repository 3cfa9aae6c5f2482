"""One persistent table of the labels a categorical column has met, for the block readers.

A file of 10 models x 1,000,000 items is parsed in blocks; each block's labels
must get the codes of the same labels in earlier blocks. ``pc.index_in`` against
every label seen so far builds its hash table anew at each call, so the cost of
a block grew with the labels already seen. Here each label is hashed once, when
its block is read: a 64-bit hash of its bytes computed with numpy over Arrow's
buffers, kept in an open-addressing table (numpy arrays, probed a round at a time for
a whole block) beside the label's code. A found code is confirmed by comparing the strings themselves,
so a hash collision can never merge two labels; on one the caller falls back to
the exact Arrow lookup.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: Labels hashed at a time (bounds the per-byte temporaries to a few MB).
_STEP = 1 << 16

#: Labels up to this many bytes are hashed a byte position at a time.
_SHORT = 48

_P = np.uint64(0x100000001B3)  # FNV-style multiplier
_MIX = np.uint64(0xBF58476D1CE4E5B9)  # splitmix64 finaliser constants
_MIX2 = np.uint64(0x94D049BB133111EB)


class Collision(Exception):
    """Two labels share a hash: use the exact lookup for this block."""


def label_hashes(labels: pa.Array[Any]) -> np.ndarray:
    """A 64-bit hash of each string (no nulls), from its UTF-8 bytes and length."""
    wide = pa.types.is_large_string(labels.type)
    offsets_buffer = labels.buffers()[1]
    if offsets_buffer is None:
        raise TypeError("a string array has an offsets buffer")
    offsets = np.frombuffer(memoryview(offsets_buffer), dtype=np.int64 if wide else np.int32)
    offsets = offsets[labels.offset : labels.offset + len(labels) + 1].astype(np.int64)
    data = labels.buffers()[2]
    raw = np.frombuffer(memoryview(data), dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    out = np.empty(len(labels), dtype=np.uint64)
    lengths = np.diff(offsets)
    with np.errstate(over="ignore"):
        width = int(lengths.max(initial=0))
        if lengths.size and width == int(lengths.min()) and 0 < width <= _SHORT:
            # Labels of one width (ids such as item-000123): a byte column at a time.
            start = int(offsets[0])
            grid = raw[start : start + width * len(labels)].reshape(len(labels), width)
            h = np.zeros(len(labels), dtype=np.uint64)
            for j in range(width):
                h *= _P
                h += grid[:, j]
                h += np.uint64(1)
            return _finish(h, lengths)
        if lengths.size and width <= _SHORT:
            # Short labels: one pass per byte position over all labels at once.
            h = np.zeros(len(labels), dtype=np.uint64)
            starts = offsets[:-1]
            for j in range(int(lengths.max())):
                more = lengths > j
                byte = raw[np.where(more, starts + j, 0)].astype(np.uint64) + np.uint64(1)
                h = np.where(more, h * _P + byte, h)
            return _finish(h, lengths)
        for s in range(0, len(labels), _STEP):
            off = offsets[s : s + _STEP + 1]
            lengths = np.diff(off)
            seg = raw[off[0] : off[-1]].astype(np.uint64) + np.uint64(1)
            width = int(lengths.max(initial=0))
            # P^k for k < width; the first byte gets the highest power, as in the
            # byte-position loop above (one hash whichever way a label is hashed).
            powers = np.ones(max(width, 1), dtype=np.uint64)
            powers[1:] = np.cumprod(np.full(powers.size - 1, _P, dtype=np.uint64))
            starts = off[:-1] - off[0]
            pos = np.arange(seg.size, dtype=np.int64) - np.repeat(starts, lengths)
            seg *= powers[np.repeat(lengths, lengths) - 1 - pos]
            # reduceat needs a valid start for empty strings: sum a trailing zero instead.
            seg = np.append(seg, np.uint64(0))
            h = np.add.reduceat(seg, np.minimum(starts, seg.size - 1))
            h[lengths == 0] = 0
            out[s : s + _STEP] = _finish(h, lengths)
    return out


def _finish(h: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Mix in the length and spread the bits (splitmix64's finaliser)."""
    with np.errstate(over="ignore"):
        h ^= lengths.astype(np.uint64) * _MIX
        h ^= h >> np.uint64(31)
        h *= _MIX2
        h ^= h >> np.uint64(29)
    return h


class LabelTable:
    """Labels by code, with an open-addressing hash table (numpy arrays) for look-up."""

    def __init__(self) -> None:
        self.labels: pa.Array[Any] | None = None
        self._keys = np.zeros(1 << 10, dtype=np.uint64)  # 0 marks an empty slot
        self._codes = np.zeros(1 << 10, dtype=np.int32)
        self._next: int | None = None  # the code after the last block's last label

    def __len__(self) -> int:
        return 0 if self.labels is None else len(self.labels)

    def _find(self, h: np.ndarray) -> np.ndarray:
        """The slot holding each hash, or the empty slot where its probe ended."""
        mask = np.uint64(self._keys.size - 1)
        slot = h & mask
        todo = np.arange(h.size)
        while todo.size:
            key = self._keys[slot[todo]]
            going = (key != h[todo]) & (key != 0)
            todo = todo[going]
            slot[todo] = (slot[todo] + np.uint64(1)) & mask
        return slot.astype(np.int64)

    def _insert(self, h: np.ndarray, codes: np.ndarray) -> None:
        """Place distinct new hashes, a round at a time (one winner per empty slot)."""
        if 2 * (len(self) + h.size) > self._keys.size:
            size = self._keys.size
            while 2 * (len(self) + h.size) > size:
                size *= 2
            old = self._keys != 0
            keys, old_codes = self._keys[old], self._codes[old]
            self._keys = np.zeros(size, dtype=np.uint64)
            self._codes = np.zeros(size, dtype=np.int32)
            h, codes = np.concatenate([keys, h]), np.concatenate([old_codes, codes])
        while h.size:
            slot = self._find(h.copy())
            first = np.unique(slot, return_index=True)[1]
            self._keys[slot[first]] = h[first]
            self._codes[slot[first]] = codes[first]
            rest = np.ones(h.size, dtype=bool)
            rest[first] = False
            h, codes = h[rest], codes[rest]

    def codes(self, values: pa.Array[Any]) -> np.ndarray:
        """The code of each value (strings, no nulls; repeats allowed), new labels coded
        in order of first appearance.

        Raises :class:`Collision`, the table unchanged, when two different labels
        share a hash.
        """
        n = len(self)
        if self._next is not None and n and len(values):
            # Files usually list the same items in the same order for every model: guess
            # that this block goes on where the last one stopped, and check every string.
            guess = ((self._next + np.arange(len(values), dtype=np.int64)) % n).astype(np.int32)
            if self.labels is not None and _equal(values, self.labels.take(_indices(guess))):
                self._next = (int(guess[-1]) + 1) % n
                return guess
        out = self._hashed(values)
        self._next = (int(out[-1]) + 1) % len(self) if out.size else None
        return out

    def _hashed(self, values: pa.Array[Any]) -> np.ndarray:
        h = label_hashes(values)
        h[h == 0] = 1  # 0 marks an empty slot
        slot = self._find(h.copy())
        hit = self._keys[slot] == h
        out = np.empty(len(values), dtype=np.int32)
        out[hit] = self._codes[slot[hit]]
        known = self.labels  # None until the first label: then nothing is hit
        if known is not None and hit.all():
            if not _equal(values, known.take(_indices(out))):
                raise Collision
        elif known is not None and hit.any() and not _same(values, np.flatnonzero(hit), known, out[hit]):
            raise Collision
        rows = np.flatnonzero(~hit)
        if not rows.size:
            return out
        distinct, first, inverse = np.unique(h[rows], return_index=True, return_inverse=True)
        if distinct.size < rows.size and not _same(values, rows, values, rows[first[inverse]]):
            raise Collision
        by_appearance = np.argsort(first, kind="stable")
        code = np.empty(distinct.size, dtype=np.int32)
        code[by_appearance] = len(self) + np.arange(distinct.size, dtype=np.int32)
        out[rows] = code[inverse]
        added = values.take(_indices(rows[first[by_appearance]]))
        if self.labels is None:
            self.labels = added
        else:
            self.labels = pa.concat_arrays([self.labels, added.cast(self.labels.type)])
        self._insert(distinct[by_appearance], code[by_appearance])
        return out


def _indices(ix: np.ndarray) -> pa.Array[Any]:
    """``ix`` as an Arrow int64 array over the same memory: ``pa.array`` would import pandas
    (pyarrow asks whether its argument is a pandas object), a second on a small file."""
    ix = np.ascontiguousarray(ix, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(ix), [None, pa.py_buffer(ix.data)])


def _same(a: pa.Array[Any], ia: np.ndarray, b: pa.Array[Any], ib: np.ndarray) -> bool:
    """Whether a[ia] and b[ib] are the same strings, position by position."""
    return _equal(a.take(_indices(ia)), b.take(_indices(ib)))


def _equal(left: pa.Array[Any], right: pa.Array[Any]) -> bool:
    return bool(pc.all(pc.equal(left, right.cast(left.type))).as_py())
