"""Vectorised tokenising of normalised bytes into 64-bit word keys.

After :func:`~benchaudit.contamination.normalize.normalize`, words are runs of
non-space bytes. Their boundaries come from one numpy comparison; each word
gets a 64-bit key: its bytes packed into an integer when it has at most 8
(exact, so no two short words share a key), else a hash of its first and last
8 bytes and its length. No Python code runs per word. Every match the scan
reports is still re-checked against the words themselves.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

_U64 = np.uint64
_SPACE = 0x20
_LONG = _U64(0x8000000000000000)
#: Trailing spaces that let an 8-byte read start at the last word.
PAD = b" " * 8


def _mix(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    h = h ^ (h >> _U64(30))
    h = h * _U64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> _U64(27))
    h = h * _U64(0x94D049BB133111EB)
    return h ^ (h >> _U64(31))


def spans(norm: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bytes as uint8, word starts, word ends) of normalised text."""
    buf = np.frombuffer(norm, dtype=np.uint8)
    word = np.zeros(len(buf) + 2, dtype=bool)
    np.not_equal(buf, _SPACE, out=word[1:-1])
    edges = np.flatnonzero(word[1:] ^ word[:-1])  # alternately a start and an end
    return buf, edges[0::2], edges[1::2]


#: MASKS[n] keeps the low n bytes of a packed word.
MASKS = np.array([(1 << (8 * n)) - 1 if n < 8 else (1 << 64) - 1 for n in range(9)], dtype=_U64)


def _unaligned(norm: bytes) -> np.ndarray:
    """The text as 8-byte strings starting at every byte offset (a view, no copy).

    Gathering 8-byte strings and reading them as uint64 afterwards costs a third less
    than gathering from an unaligned uint64 view, which numpy copies element by element.
    Text that already ends in 8 spaces (as a scan batch does) is used in place."""
    padded = norm if norm.endswith(PAD) else norm + PAD
    return np.ndarray((len(padded) - 7,), dtype="S8", buffer=padded, strides=(1,))


def _first8(u: np.ndarray, at: np.ndarray) -> npt.NDArray[np.uint64]:
    """The 8 bytes at each offset ``at`` as native-order uint64."""
    got: npt.NDArray[np.uint64] = u[at].view(_U64)
    return got


def keys(norm: bytes, starts: np.ndarray, ends: np.ndarray) -> npt.NDArray[np.uint64]:
    """64-bit key of each word ``norm[starts[i]:ends[i]]``.

    A word of at most 8 bytes is its bytes, packed (exact). A longer word is a
    hash of its first 8 bytes, its last 8 bytes and its length: exact up to 16
    bytes before hashing; the scan re-reads every match, so a longer word that
    shares a key cannot make a false match.
    """
    u = _unaligned(norm)
    lens = ends - starts
    first = _first8(u, starts)
    # ``take`` clips a length over 8 to the last mask (all bytes) in the same pass.
    out: npt.NDArray[np.uint64] = first & MASKS.take(lens, mode="clip")
    long_ = np.flatnonzero(lens > 8)
    if len(long_):
        last = _first8(u, ends[long_] - 8)
        h = first[long_]
        # In place, on the two fresh gathers: no temporary per step.
        with np.errstate(over="ignore"):
            h *= _U64(0x9E3779B97F4A7C15)
            last ^= lens[long_].astype(_U64)
            last *= _U64(0xC2B2AE3D27D4EB4F)
        h ^= last
        h |= _LONG
        out[long_] = h
    return out


def word_key(word: bytes) -> int:
    """The key of one word (the same as :func:`keys` gives inside a text)."""
    _, starts, ends = spans(word)
    return int(keys(word, starts, ends)[0])


def _slot(ks: np.ndarray, shift: int) -> np.ndarray:
    """Multiply-shift (Fibonacci) hashing of keys to table slots."""
    with np.errstate(over="ignore"):
        # The shifted value is below 2**bits: reading it as int64 is free and exact.
        return ((ks * _U64(0x9E3779B97F4A7C15)) >> _U64(shift)).view(np.int64)
