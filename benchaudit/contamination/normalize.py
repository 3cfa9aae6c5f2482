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


def normalize(data: bytes | str) -> bytes:
    """Lower-case, punctuation to spaces, keep numbers; bytes in, bytes out."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="replace")
    out = data.translate(TABLE)
    if not out.isascii():
        out = _unicode_separators(out)
    return out


_SEPARATOR_SET = frozenset(_UNICODE_SEPARATORS)


def _unicode_separators(data: bytes) -> bytes:
    """Blank the separators of ``_UNICODE_SEPARATORS`` with as many spaces, so byte
    offsets stay valid. They start with byte 0xE2 or 0xC2, which are rare in most text:
    find those with ``bytes.find`` (a memchr) and look at what follows."""
    hits: list[tuple[int, int]] = []
    for lead, size in ((b"\xe2", 3), (b"\xc2", 2)):
        at = data.find(lead)
        while at >= 0:
            if data[at : at + size] in _SEPARATOR_SET:
                hits.append((at, size))
            at = data.find(lead, at + 1)
    if not hits:
        return data
    # One copy: views of the pieces between the separators (which never overlap), joined
    # with as many spaces.
    hits.sort()
    view = memoryview(data)
    parts: list[bytes | memoryview] = []
    at = 0
    for start, size in hits:
        parts.append(view[at:start])
        parts.append(_BLANKS[size])
        at = start + size
    parts.append(view[at:])
    return b"".join(parts)


_BLANKS = {2: b"  ", 3: b"   "}


def words(data: bytes | str) -> list[bytes]:
    """The normalised words of a text."""
    return normalize(data).split()
