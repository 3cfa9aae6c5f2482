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
    ch.encode("utf-8") for ch in ("\u2018", "\u2019", "\u201c", "\u201d", "\u2013", "\u2014",
                                  "\u2026", "\u00a0", "\u00b4")
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


def normalize(data: bytes | str) -> bytes:
    """Lower-case, punctuation to spaces, keep numbers; bytes in, bytes out."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="replace")
    for sep in _UNICODE_SEPARATORS:
        if sep in data:
            data = data.replace(sep, b" ")
    return data.translate(TABLE)


def words(data: bytes | str) -> list[bytes]:
    """The normalised words of a text."""
    return normalize(data).split()
