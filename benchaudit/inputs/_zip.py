"""Zip members read with a size cap, including zstd members (method 93).

inspect_ai writes ``.eval`` archives whose members are compressed with zstd,
a method the standard library's ``zipfile`` does not know; those are read
from the archive's raw bytes and decompressed with ``zstandard``. Every
member, whatever its method, is decompressed a block at a time and refused
once it passes the cap, so a small archive cannot expand into gigabytes.
"""

from __future__ import annotations

import io
import struct
import zipfile
from typing import IO, BinaryIO

from benchaudit.errors import InputError
from benchaudit.inputs.limits import exceeded

#: The zip compression method number of Zstandard (APPNOTE 4.4.5).
ZSTD = 93
_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_BLOCK = 1 << 20
_KEY = "max-decompressed-mb"


def read_member(zf: zipfile.ZipFile, name: str, display: str, limit: int) -> bytes:
    """The decompressed bytes of member ``name``, at most ``limit`` of them."""
    info = zf.getinfo(name)
    what = f"archive member {name}"
    if info.compress_type == ZSTD:
        return _zstd_member(zf, info, display, limit)
    try:
        with zf.open(info) as fh:
            return _bounded(fh, display, what, limit)
    except NotImplementedError:
        raise InputError(
            display, f"{what}: compression method {info.compress_type} is not supported"
        ) from None


def _zstd_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, display: str, limit: int) -> bytes:
    import zstandard

    what = f"archive member {info.filename}"
    fp: BinaryIO | None = zf.fp  # type: ignore[assignment]
    if fp is None:
        raise InputError(display, f"{what}: archive is closed")
    fp.seek(info.header_offset)
    header = fp.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size or header[:4] != b"PK\x03\x04":
        raise InputError(display, f"{what}: damaged (bad local header)")
    fields = _LOCAL_HEADER.unpack(header)
    fp.seek(fields[9] + fields[10], 1)  # file name and extra field
    data = fp.read(info.compress_size)
    if len(data) != info.compress_size:
        raise InputError(display, f"{what}: damaged (truncated)")
    try:
        # A stream reader yields bounded blocks: a bomb stops at the cap, not in memory.
        with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)) as reader:
            return _bounded(reader, display, what, limit)
    except zstandard.ZstdError as exc:
        raise InputError(display, f"{what}: damaged zstd data ({exc})") from None


def _bounded(fh: IO[bytes], display: str, what: str, limit: int) -> bytes:
    """Everything ``fh`` yields, read a block at a time and refused past ``limit``."""
    parts: list[bytes] = []
    size = 0
    while True:
        block = fh.read(_BLOCK)
        if not block:
            return b"".join(parts)
        size += len(block)
        if size > limit:
            raise exceeded(display, f"{what} expands past the cap", _KEY, limit)
        parts.append(block)
