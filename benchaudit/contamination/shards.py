"""Training-corpus shards: finding them and streaming their documents.

A shard is one file: ``.jsonl``, ``.jsonl.gz``, ``.jsonl.zst`` (one JSON
object per line, text in the ``text`` field by default), ``.txt`` /
``.txt.gz`` (documents separated by blank lines) or ``.parquet`` (one row
per document). Documents come out in batches of about ``batch_bytes`` of
text, so memory is bounded per shard whatever its size.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchaudit.errors import InputError
from benchaudit.limits import DEFAULT, Limits, size

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


def _zstd_reader(path: str, raw: Any) -> Any:
    try:
        import zstandard
    except ImportError:
        raw.close()
        raise InputError(
            path,
            "reading .zst shards needs the zstandard package (pip install 'benchaudit-lint[zstd]')",
        ) from None
    return zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)


def _guard_expansion(path: str, out: int, consumed: int, limits: Limits) -> None:
    """A decompression bomb stops here: text compresses a few times, not a thousand."""
    if out > limits.expansion_slack and out > limits.max_expansion * max(consumed, 1):
        raise InputError(
            path,
            f"decompresses to more than {limits.max_expansion}x its compressed size "
            f"({size(out)} from {size(consumed)} so far), the cap (max-expansion); "
            "a decompression bomb, or raise --max-expansion",
        )


def _inflater() -> Any:
    """ISA-L's inflate when installed (two to three times zlib's speed), else zlib's."""
    try:
        from isal import isal_zlib
    except ImportError:
        return zlib
    return isal_zlib


def _gzip_chunks(path: str, block: int, limits: Limits) -> Iterator[bytes]:
    """Decompressed blocks of at most ``block`` bytes each, over every gzip member.

    The compressed input is read a quarter of ``block`` at a time: text inflates about
    three to four times, so one read mostly comes out whole below the cap, and the
    unconsumed rest of the input is not copied out again at every call (as a whole
    ``block`` of input, capped at ``block`` of output, would be three or four times)."""
    lib = _inflater()
    with open(path, "rb") as raw:
        d = lib.decompressobj(wbits=31)
        fed = out = 0
        while True:
            data = raw.read(max(block // 4, 1))
            if not data:
                break
            fed += len(data)
            while True:
                chunk = d.decompress(data, block)
                out += len(chunk)
                _guard_expansion(path, out, fed - len(d.unconsumed_tail), limits)
                if chunk:
                    yield chunk
                if d.eof:  # checked first: past the end, the rest is in both attributes
                    data = d.unused_data  # a further gzip member follows, or nothing
                    if not data:
                        break
                    d = lib.decompressobj(wbits=31)
                elif d.unconsumed_tail:
                    data = d.unconsumed_tail
                elif len(chunk) == block:
                    data = b""  # output may still be pending inside zlib: ask again
                else:
                    break
        if not d.eof:
            raise EOFError("compressed file ended before the end-of-stream marker")


def _stream_chunks(path: str, block: int, limits: Limits) -> Iterator[bytes]:
    raw = open(path, "rb", buffering=0)
    fh: Any = raw
    compressed = path.lower().endswith(".zst")
    if compressed:
        fh = _zstd_reader(path, raw)
    with fh:
        out = 0
        while True:
            data = fh.read(block)  # a stream reader returns at most ``block`` bytes
            if not data:
                break
            if compressed:
                out += len(data)
                _guard_expansion(path, out, raw.tell(), limits)
            yield data


def _lines(
    path: str, limits: Limits = DEFAULT, block: int = 1 << 20
) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, line) for every non-empty line of a (possibly compressed) file.

    Read in large blocks (iterating a GzipFile line by line costs more than the
    decompression itself). The newlines of a block are located with numpy, so runs of
    empty lines cost no Python step each; a line that spans blocks is collected in
    pieces. The work is linear in the bytes whatever the line lengths, and no line
    longer than ``max_line_bytes`` is held."""
    cap = limits.max_line_bytes
    chunks = _gzip_chunks if path.lower().endswith(".gz") else _stream_chunks
    lineno = 1
    pending: list[bytes] = []  # pieces of the line that the previous block ended inside
    held = 0

    def too_long() -> InputError:
        return InputError(path, f"a line longer than {size(cap)}, the cap (max-line-bytes)", lineno)

    for data in chunks(path, block, limits):
        nls = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
        if not nls.size:
            pending.append(data)
            held += len(data)
            if held > cap:
                raise too_long()
            continue
        first = data[: nls[0]]
        if pending or first:
            line = b"".join([*pending, first])
            if len(line) > cap:
                raise too_long()
            yield lineno, line
        starts, ends = nls[:-1] + 1, nls[1:]
        full = np.flatnonzero(ends > starts)  # segment j is line lineno + j + 1
        if full.size and int((ends[full] - starts[full]).max()) > cap:
            j = int(full[np.argmax(ends[full] - starts[full])])
            lineno += j + 1
            raise too_long()
        for j, s, e in zip(full.tolist(), starts[full].tolist(), ends[full].tolist()):
            yield lineno + j + 1, data[s:e]
        lineno += int(nls.size)
        tail = data[int(nls[-1]) + 1 :]
        pending, held = ([tail], len(tail)) if tail else ([], 0)
        if held > cap:
            raise too_long()
    if pending:
        yield lineno, b"".join(pending)


def _pick(rec: dict[str, Any], fields: Sequence[str] | None, path: str, lineno: int) -> bytes:
    if fields:
        parts = [rec[f] for f in fields if isinstance(rec.get(f), str)]
        if not parts and not any(f in rec for f in fields):
            raise InputError(path, f"no field {', '.join(fields)} in this record", lineno)
        text = "\n".join(parts)
    else:
        found = next((rec[f] for f in DEFAULT_TEXT_FIELDS if isinstance(rec.get(f), str)), None)
        if found is None:
            raise InputError(
                path,
                "no text field (tried "
                + ", ".join(DEFAULT_TEXT_FIELDS)
                + "; name one with --text-field)",
                lineno,
            )
        text = found
    return text.encode("utf-8", errors="replace")


def _record_text(line: bytes, fields: Sequence[str] | None, path: str, lineno: int) -> bytes:
    try:
        rec = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(path, f"invalid JSON ({getattr(exc, 'msg', exc)})", lineno) from None
    if not isinstance(rec, dict):
        raise InputError(path, "each line must be a JSON object", lineno)
    return _pick(rec, fields, path, lineno)


def _jsonl_docs(
    path: str, fields: Sequence[str] | None, limits: Limits
) -> Iterator[tuple[bytes, int]]:
    """One record at a time (the reference reader; the scan reads blocks: :func:`batches`)."""
    for lineno, line in _lines(path, limits):
        if line.strip():
            yield _record_text(line, fields, path, lineno), lineno


def _line_lists(path: str, limits: Limits, block: int) -> Iterator[tuple[int, list[bytes], bool]]:
    """(line number of the first line, the lines, whether the last one ended in a line
    break) of blocks of whole lines, about ``block`` bytes long.

    Each decompressed block is split once, in C, and the piece after its last line break
    starts the next block's first line: no block is copied whole or scanned again to
    count its lines. A line longer than ``max_line_bytes`` stops the read as
    :func:`_lines` does."""
    cap = limits.max_line_bytes
    chunks = _gzip_chunks if path.lower().endswith(".gz") else _stream_chunks
    lineno = 1
    pending: list[bytes] = []
    held = 0
    for data in chunks(path, block, limits):
        if b"\n" not in data:
            pending.append(data)
            held += len(data)
            if held > cap:
                raise InputError(
                    path, f"a line longer than {size(cap)}, the cap (max-line-bytes)", lineno
                )
            continue
        lines = data.split(b"\n")
        tail = lines.pop()
        if pending:
            lines[0] = b"".join([*pending, lines[0]])
        yield lineno, lines, True
        lineno += len(lines)
        pending, held = ([tail], len(tail)) if tail else ([], 0)
    if pending:
        yield lineno, [b"".join(pending)], False


#: ASCII whitespace, as ``bytes.strip`` removes it.
_SPACE = np.frombuffer(b" \t\n\r\x0b\x0c", dtype=np.uint8)


def _arrow_columns(block: bytes, names: list[str], rows: int) -> list[Any] | None:
    """The string columns ``names`` of a block of JSON lines, one row per line, or None."""
    import pyarrow as pa
    import pyarrow.json as pj

    schema = pa.schema([(f, pa.string()) for f in dict.fromkeys(names)])
    try:
        table = pj.read_json(
            pa.py_buffer(block),  # type: ignore[arg-type]  # the stubs omit buffers
            read_options=pj.ReadOptions(use_threads=False, block_size=len(block) + 1),
            parse_options=pj.ParseOptions(
                explicit_schema=schema, unexpected_field_behavior="ignore"
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != rows:  # two objects on one line, say
        return None
    return [table.column(f).combine_chunks() for f in names]


def _arrow_texts(
    block: bytes, fields: Sequence[str] | None, cap: int | None = None
) -> list[bytes] | None:
    """The texts of a block of JSON lines parsed in C by pyarrow, or None when the block
    needs the reference reader: a blank line, a line that is not one object, a text
    field that is missing, null or not a string, invalid UTF-8 or a lone surrogate,
    a repeated key. The reference reader then gives the same texts or the exact error.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    buf = np.frombuffer(block, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], ends + 1])
    starts = starts[starts < len(buf)]
    # Every line must start with a non-space byte: then none is blank, and one object
    # per line is exactly as many rows as lines (JSON strings hold no raw line break).
    if not len(starts) or np.isin(buf[starts], _SPACE).any():
        return None
    if cap is not None and len(block) > cap:
        # A line over the cap (max-line-bytes) is refused by the reference reader.
        if int(np.diff(np.concatenate([starts, [len(buf) + 1]])).max()) - 1 > cap:
            return None
    rows = len(starts)
    if fields:
        cols = _arrow_columns(block, list(fields), rows)
        # The reference reader joins the string fields; with none (null or absent) it
        # errs or gives "" depending on presence, which a table cannot tell apart.
        if cols is None or any(c.null_count for c in cols):
            return None
        text = cols[0] if len(cols) == 1 else pc.binary_join_element_wise(*cols, "\n")
    else:
        # Most shards name the text "text": parse that field alone first.
        cols = _arrow_columns(block, list(DEFAULT_TEXT_FIELDS[:1]), rows)
        if cols is not None and cols[0].null_count:
            cols = _arrow_columns(block, list(DEFAULT_TEXT_FIELDS), rows)
        if cols is None:
            return None
        text = cols[0] if len(cols) == 1 else pc.coalesce(*cols)
        if text.null_count:
            return None
    try:
        text.validate(full=True)  # UTF-8
    except pa.ArrowInvalid:
        return None
    texts: list[bytes] = text.cast(pa.binary()).to_pylist()
    return texts


def _orjson_text_batch(orjson: Any, lines: list[bytes], cap: int, first: int) -> Batch | None:
    """The usual block, whole: every line one object whose ``text`` is a string, and no
    blank line or line over the cap. Three list passes in C replace the loop per record
    (about a third of the reading time after decompression); None for any other block,
    which :func:`_orjson_batch` then reads record by record to the same answer or error."""
    if max(map(len, lines)) > cap:
        return None
    try:
        # An empty or blank line raises here (orjson parses no empty document).
        records = list(map(orjson.loads, lines))
        # A record that is not an object has no __getitem__ taking a str (TypeError or
        # KeyError for a list, TypeError for a number or a string), one without "text"
        # raises KeyError, and a text that is not a string has no ``encode``: each of
        # them goes to the record-by-record reader, which answers as the reference does.
        texts: list[bytes] = [r["text"].encode() for r in records]
    except (orjson.JSONDecodeError, TypeError, KeyError, AttributeError, IndexError):
        return None
    if not all(type(r) is dict for r in records):
        return None
    return Batch(texts, list(range(first, first + len(texts))), sum(map(len, texts)))


def _orjson_batch(
    lines: list[bytes], fields: Sequence[str] | None, limits: Limits, first: int
) -> Batch | None:
    """The reference reader's batch of a block of lines, each parsed by orjson (two to
    three times the speed of Arrow's JSON reader on text-heavy records), or None when
    orjson is not installed or the block needs the reference reader for its exact answer
    or error. Where orjson parses a line at all it gives what ``json.loads`` gives, up to
    non-string values (integers beyond 64 bits), which no text field holds; what it
    refuses and ``json.loads`` takes (NaN, lone surrogates, a byte-order mark) goes
    back to the reference reader."""
    try:
        import orjson
    except ImportError:
        return None
    cap = limits.max_line_bytes
    if not fields:
        fast = _orjson_text_batch(orjson, lines, cap, first)
        if fast is not None:
            return fast
    batch = Batch()
    try:
        for k, line in enumerate(lines):
            if len(line) > cap:
                return None
            if line.strip():
                rec = orjson.loads(line)
                if not isinstance(rec, dict):
                    return None
                text = _pick(rec, fields, "", first + k)
                batch.texts.append(text)
                batch.lines.append(first + k)
                batch.nbytes += len(text)
    except (orjson.JSONDecodeError, InputError):
        return None
    return batch


def _jsonl_batches(
    path: str, fields: Sequence[str] | None, limits: Limits, block: int
) -> Iterator[Batch]:
    """A batch per block of lines: parsed by orjson or pyarrow, or line by line where it
    must be."""
    for first, lines, ended in _line_lists(path, limits, block):
        fast = _orjson_batch(lines, fields, limits, first)
        if fast is not None:
            if fast.texts:
                yield fast
            continue
        data = b"\n".join(lines) + b"\n" if ended else lines[0]
        texts = _arrow_texts(data, fields, limits.max_line_bytes)
        if texts is not None:
            yield Batch(texts, list(range(first, first + len(texts))), sum(map(len, texts)))
            continue
        batch = Batch()
        for k, line in enumerate(data.split(b"\n")):
            if len(line) > limits.max_line_bytes:
                raise InputError(
                    path,
                    f"a line longer than {size(limits.max_line_bytes)}, the cap (max-line-bytes)",
                    first + k,
                )
            if line.strip():
                text = _record_text(line, fields, path, first + k)
                batch.texts.append(text)
                batch.lines.append(first + k)
                batch.nbytes += len(text)
        if batch.texts:
            yield batch


def _txt_docs(path: str, limits: Limits) -> Iterator[tuple[bytes, int]]:
    """Documents separated by blank lines, each with the line it starts on."""
    buf: list[bytes] = []
    held = start = last = 0
    for lineno, line in _lines(path, limits):
        if buf and (lineno != last + 1 or not line.strip()):
            yield b"\n".join(buf) + b"\n", start
            buf, held = [], 0
        last = lineno
        if not line.strip():
            continue
        if b"\xff" in line:  # 0xff never occurs in UTF-8; the scan uses it as a separator
            line = line.replace(b"\xff", b"?")
        if not buf:
            start = lineno
        buf.append(line)
        held += len(line) + 1
        if held > limits.max_line_bytes:
            raise InputError(
                path,
                f"a document longer than {size(limits.max_line_bytes)} with no blank line, "
                "the cap (max-line-bytes)",
                start,
            )
    if buf:
        yield b"\n".join(buf) + b"\n", start


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


def _read_errors(path: str, gen: Iterator[Any]) -> Iterator[Any]:
    """Any failure while reading a shard as one InputError naming it."""
    try:
        yield from gen
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (OSError, EOFError) as exc:
        raise InputError(
            path, f"cannot read shard: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    except MemoryError:
        raise InputError(path, "cannot read shard: out of memory") from None
    except Exception as exc:  # noqa: BLE001 - decompressors raise their own error types
        raise InputError(path, f"cannot read shard: {type(exc).__name__}: {exc}") from None


def _documents(
    path: str, fields: Sequence[str] | None, limits: Limits
) -> Iterator[tuple[bytes, int]]:
    low = path.lower()
    if low.endswith(".parquet"):
        yield from _parquet_docs(path, fields)
    elif low.endswith((".txt", ".txt.gz")):
        yield from _txt_docs(path, limits)
    else:
        yield from _jsonl_docs(path, fields, limits)


def documents(
    path: str, fields: Sequence[str] | None = None, limits: Limits = DEFAULT
) -> Iterator[tuple[bytes, int]]:
    """Every document of a shard as (utf-8 bytes, 1-based line or row)."""
    return _read_errors(path, _documents(path, fields, limits))


def _batches(
    path: str, fields: Sequence[str] | None, batch_bytes: int, limits: Limits
) -> Iterator[Batch]:
    if path.lower().endswith((".jsonl", ".jsonl.gz", ".jsonl.zst")):
        yield from _jsonl_batches(path, fields, limits, batch_bytes)
        return
    batch = Batch()
    for text, line in _documents(path, fields, limits):
        batch.texts.append(text)
        batch.lines.append(line)
        batch.nbytes += len(text)
        if batch.nbytes >= batch_bytes:
            yield batch
            batch = Batch()
    if batch.texts:
        yield batch


def batches(
    path: str,
    fields: Sequence[str] | None = None,
    batch_bytes: int = 1 << 20,
    limits: Limits = DEFAULT,
) -> Iterator[Batch]:
    """Documents of a shard in batches of about ``batch_bytes`` (JSON lines: of input)."""
    return _read_errors(path, _batches(path, fields, batch_bytes, limits))


def shard_bytes(shards: Sequence[Shard]) -> int:
    return sum(s.size for s in shards)


def display_path(path: str) -> str:
    return Path(path).as_posix()
