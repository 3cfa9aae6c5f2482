"""Training-corpus shards: finding them and streaming their documents.

A shard is one file: ``.jsonl``, ``.jsonl.gz``, ``.jsonl.zst`` (one JSON
object per line, text in the ``text`` field by default), ``.txt`` /
``.txt.gz`` (documents separated by blank lines) or ``.parquet`` (one row
per document). Documents come out in batches of about ``batch_bytes`` of
text, so memory is bounded per shard whatever its size.
"""

from __future__ import annotations

import gzip
import io
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchaudit.errors import InputError

SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.zst", ".txt", ".txt.gz", ".parquet")

#: Fields tried, in order, when no text field is named.
DEFAULT_TEXT_FIELDS = ("text", "content", "input", "question", "prompt", "document", "body")


@dataclass(frozen=True)
class Shard:
    """One shard file; ``ordinal`` orders shards so merged results are stable."""

    path: str
    ordinal: int
    size: int


@dataclass
class Batch:
    """Documents of one batch: normalisation-ready bytes and their 1-based lines."""

    texts: list[bytes] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    nbytes: int = 0


def supported(name: str) -> bool:
    return name.lower().endswith(SUFFIXES)


def find_shards(patterns: Sequence[str], notes: list[str] | None = None) -> list[Shard]:
    """Expand files, directories and globs into a sorted, de-duplicated shard list.

    Walks and globs stay inside their folder and visit each real file once
    (:mod:`benchaudit.fs`); what they leave out is said in ``notes``.
    """
    from benchaudit import fs

    paths: list[str] = []
    for pattern in patterns:
        if os.path.isdir(pattern):
            paths.extend(
                f.as_posix() for f in fs.walk(pattern, notes, wanted=lambda f: supported(f.name))
            )
        elif any(ch in pattern for ch in "*?["):
            found = [p for p in fs.glob(pattern, notes) if supported(p)]
            if not found:
                raise InputError(pattern, "no corpus shards match this pattern")
            paths.extend(found)
        elif os.path.lexists(pattern):
            if not supported(pattern):
                raise InputError(
                    pattern, "unsupported shard format (use " + ", ".join(SUFFIXES) + ")"
                )
            fs.require_regular(pattern, pattern)
            paths.append(pattern)
        else:
            raise InputError(pattern, "no such file or directory")
    seen: set[str] = set()
    out: list[Shard] = []
    for p in paths:
        key = os.path.realpath(p)
        if key in seen:
            continue
        seen.add(key)
        out.append(Shard(path=p, ordinal=len(out), size=os.path.getsize(p)))
    if not out:
        raise InputError(", ".join(patterns) or "--corpus", "no corpus shards found")
    return out


def _open_binary(path: str) -> io.BufferedIOBase:
    low = path.lower()
    if low.endswith(".gz"):
        return gzip.open(path, "rb")
    if low.endswith(".zst"):
        try:
            import zstandard
        except ImportError:
            raise InputError(
                path,
                "reading .zst shards needs the zstandard package (pip install 'benchaudit-lint[zstd]')",
            ) from None
        raw = open(path, "rb")
        reader = zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
        return io.BufferedReader(reader, buffer_size=1 << 20)
    return open(path, "rb", buffering=1 << 20)


def _pick(rec: dict, fields: Sequence[str] | None, path: str, lineno: int) -> bytes:
    if fields:
        parts = [rec[f] for f in fields if isinstance(rec.get(f), str)]
        if not parts and not any(f in rec for f in fields):
            raise InputError(path, f"no field {', '.join(fields)} in this record", lineno)
        text = "\n".join(parts)
    else:
        text = next((rec[f] for f in DEFAULT_TEXT_FIELDS if isinstance(rec.get(f), str)), None)
        if text is None:
            raise InputError(
                path,
                "no text field (tried "
                + ", ".join(DEFAULT_TEXT_FIELDS)
                + "; name one with --text-field)",
                lineno,
            )
    return text.encode("utf-8", errors="replace")


def _lines(path: str, block: int = 4 << 20) -> Iterator[bytes]:
    """Lines of a (possibly compressed) file, read in large blocks: iterating a GzipFile
    line by line costs more than the decompression itself."""
    low = path.lower()
    if low.endswith(".gz"):
        import zlib

        def chunks() -> Iterator[bytes]:
            with open(path, "rb") as raw:
                d = zlib.decompressobj(wbits=31)
                while True:
                    data = raw.read(block)
                    if not data:
                        break
                    while data:
                        yield d.decompress(data)
                        data = d.unused_data  # a further gzip member follows
                        if data:
                            d = zlib.decompressobj(wbits=31)
                if not d.eof:
                    raise EOFError("compressed file ended before the end-of-stream marker")
    else:

        def chunks() -> Iterator[bytes]:
            with _open_binary(path) as fh:
                while True:
                    data = fh.read(block)
                    if not data:
                        break
                    yield data

    rest = b""
    for data in chunks():
        if not data:
            continue
        parts = (rest + data).split(b"\n")
        rest = parts.pop()
        yield from parts
    if rest:
        yield rest


def _jsonl_docs(path: str, fields: Sequence[str] | None) -> Iterator[tuple[bytes, int]]:
    for lineno, line in enumerate(_lines(path), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InputError(path, f"invalid JSON ({getattr(exc, 'msg', exc)})", lineno) from None
        if not isinstance(rec, dict):
            raise InputError(path, "each line must be a JSON object", lineno)
        yield _pick(rec, fields, path, lineno), lineno


def _txt_docs(path: str) -> Iterator[tuple[bytes, int]]:
    buf: list[bytes] = []
    start = 0
    with _open_binary(path) as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                if b"\xff" in line:  # 0xff never occurs in UTF-8; the scan uses it as a separator
                    line = line.replace(b"\xff", b"?")
                if not buf:
                    start = lineno
                buf.append(line)
            elif buf:
                yield b"".join(buf), start
                buf = []
    if buf:
        yield b"".join(buf), start


def _parquet_docs(path: str, fields: Sequence[str] | None) -> Iterator[tuple[bytes, int]]:
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for bad files
        raise InputError(path, f"not a readable Parquet file ({type(exc).__name__})") from None
    names = pf.schema_arrow.names
    cols = [f for f in (fields or ()) if f in names]
    if not cols:
        if fields:
            raise InputError(path, f"no column {', '.join(fields)} (columns: {', '.join(names)})")
        cols = [next((f for f in DEFAULT_TEXT_FIELDS if f in names), "")]
        if not cols[0]:
            raise InputError(path, "no text column (name one with --text-field)")
    row = 0
    for batch in pf.iter_batches(batch_size=2048, columns=cols):
        columns = [batch.column(c).to_pylist() for c in cols]
        for values in zip(*columns):
            row += 1
            text = "\n".join(v for v in values if isinstance(v, str))
            yield text.encode("utf-8", errors="replace"), row


def documents(path: str, fields: Sequence[str] | None = None) -> Iterator[tuple[bytes, int]]:
    """Every document of a shard as (utf-8 bytes, 1-based line or row)."""
    low = path.lower()
    try:
        if low.endswith(".parquet"):
            yield from _parquet_docs(path, fields)
        elif low.endswith((".txt", ".txt.gz")):
            yield from _txt_docs(path)
        else:
            yield from _jsonl_docs(path, fields)
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (OSError, EOFError) as exc:
        raise InputError(
            path, f"cannot read shard: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    except Exception as exc:  # noqa: BLE001 - decompressors raise their own error types
        raise InputError(path, f"cannot read shard: {type(exc).__name__}: {exc}") from None


def batches(
    path: str, fields: Sequence[str] | None = None, batch_bytes: int = 1 << 20
) -> Iterator[Batch]:
    """Documents of a shard grouped into batches of about ``batch_bytes``."""
    batch = Batch()
    for text, line in documents(path, fields):
        batch.texts.append(text)
        batch.lines.append(line)
        batch.nbytes += len(text)
        if batch.nbytes >= batch_bytes:
            yield batch
            batch = Batch()
    if batch.texts:
        yield batch


def shard_bytes(shards: Sequence[Shard]) -> int:
    return sum(s.size for s in shards)


def display_path(path: str) -> str:
    return Path(path).as_posix()
