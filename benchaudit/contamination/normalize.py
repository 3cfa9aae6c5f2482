"""Text normalisation shared by the benchmark index and the corpus scan.

Both sides go through the same byte-level function, so a word in a training
shard and a word in a benchmark item compare equal exactly when their
normalised bytes do. ASCII letters are lower-cased, ASCII punctuation and
whitespace (line breaks included, which joins wrapped lines) become word
separators, digits are kept, and bytes >= 0x80 (non-ASCII letters in UTF-8)
stay part of their word. Working on bytes avoids decoding every shard.
"""

from __future__ import annotations

#: A few common non-ASCII punctuation marks that should separate words.
_UNICODE_SEPARATORS = tuple(
    ch.encode("utf-8")
    for ch in (
        "\u2018",
        "\u2019",
        "\u201c",
        "\u201d",
        "\u2013",
        "\u2014",
        "\u2026",
        "\u00a0",
        "\u00b4",
    )
)


def _table() -> bytes:
    out = bytearray(range(256))
    for b in range(256):
        if ord("A") <= b <= ord("Z"):
            out[b] = b + 32
        elif ord("a") <= b <= ord("z") or ord("0") <= b <= ord("9") or b >= 0x80:
            continue
        else:
            out[b] = 0x20
    return bytes(out)


TABLE = _table()
#: (lead byte, second byte(s), last bytes) of the separators: 3-byte U+20xx, 2-byte U+00xx.
_SEPARATOR_BYTES = (
    (0xE2, 0x80, [s[2] for s in _UNICODE_SEPARATORS if len(s) == 3]),
    (0xC2, [s[1] for s in _UNICODE_SEPARATORS if len(s) == 2], []),
)
assert all(s[:2] == b"\xe2\x80" for s in _UNICODE_SEPARATORS if len(s) == 3)


def normalize(data: bytes | str) -> bytes:
    """Lower-case, punctuation to spaces, keep numbers; bytes in, bytes out."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="replace")
    out = data.translate(TABLE)
    if not out.isascii() and (b"\xe2\x80" in out or b"\xc2" in out):
        out = _unicode_separators(out)
    return out


def _unicode_separators(data: bytes) -> bytes:
    """Blank the separators of ``_UNICODE_SEPARATORS`` in place of the same length, so
    byte offsets stay valid (numpy: a regular expression is several times slower)."""
    import numpy as np

    arr = np.frombuffer(data, dtype=np.uint8)
    hits = []
    for lead, second, lasts in _SEPARATOR_BYTES:
        size = 3 if lasts else 2
        at = np.flatnonzero(arr[: len(arr) - size + 1] == lead)
        if not len(at):
            continue
        if lasts:
            at = at[(arr[at + 1] == second) & np.isin(arr[at + 2], lasts)]
        else:
            at = at[np.isin(arr[at + 1], second)]
        hits.extend(at + k for k in range(size))
    if not hits or not any(len(h) for h in hits):
        return data
    arr = arr.copy()
    for h in hits:
        arr[h] = 0x20
    return arr.tobytes()


def words(data: bytes | str) -> list[bytes]:
    """The normalised words of a text."""
    return normalize(data).split()
