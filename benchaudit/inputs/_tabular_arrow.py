"""The pyarrow side of the generic per-item reader (imported only inside ``read()``).

Parsing, type conversion and categorical coding all happen in Arrow / numpy;
Python only looks at individual rows to explain an error.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from benchaudit.errors import InputError
from benchaudit.inputs import file_delimiter
from benchaudit.inputs._columns import FALSE_WORDS as _FALSE
from benchaudit.inputs._columns import (
    MISSING_WORDS,
    OPTIONAL,
    decimal_comma,
    find_columns,
    model_labels,
    percent,
)
from benchaudit.inputs._columns import TRUE_WORDS as _TRUE
from benchaudit.inputs._columns import norm as _norm
from benchaudit.inputs._label_table import Collision, LabelTable
from benchaudit.inputs._plan import plan
from benchaudit.inputs._plan import scalar_text as _scalar_text
from benchaudit.inputs._tabular_small import CATEGORICAL, JUDGE_COLUMNS, RowLines
from benchaudit.inputs.limits import cap, exceeded
from benchaudit.inputs.resultset import Coded, GridResults, ResultSet, first_rows
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    import pyarrow.csv as pcsv

#: The line of each row: an array, or a first line and a count.
Lines = np.ndarray | RowLines

NUMERIC = ("score", "points", "max_points", "confidence")


def _releasing_pool(read: Any) -> Any:
    """After ``read``, Arrow's pool gives back the pages of the tables it no longer
    holds (the size of the parsed file), which it would keep for the rest of the run."""

    @functools.wraps(read)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return read(*args, **kwargs)
        finally:
            pa.default_memory_pool().release_unused()

    return wrapper


@_releasing_pool
def read_resultset(
    path: Path,
    display: str,
    overrides: dict[str, str],
    max_rows: int | None,
    ctx: Any = None,
    notes: list[str] | None = None,
) -> Any:
    """The per-item results of a file: a :class:`ResultSet`, or a
    :class:`~benchaudit.inputs._scaled.ScaledResults` for scores on a rating scale.
    What was left out is said in ``notes`` (the reader's, for its source)."""
    suffix = path.suffix.lower()
    delim = file_delimiter(path) if suffix in (".csv", ".tsv", ".txt") else None
    first = 2 if delim else 1  # CSV data starts below the header
    if delim and _size(path) > STREAM_BYTES:
        try:
            streamed = _stream_csv(path, display, overrides, max_rows, delim)
        except _Fallback:
            streamed = None
        if streamed is not None:
            _note_percent(_head_table(path, delim), _scored(streamed), display, notes)
            return _finish(streamed, streamed.columns, display, notes)
    table: _ParquetColumns | pa.Table
    lines: np.ndarray | None
    if suffix == ".parquet":
        table, lines = _read_parquet(path, display), None
        parquet_rows = cap(ctx, "max-parquet-rows")
        if table.num_rows > parquet_rows:
            raise exceeded(display, f"{table.num_rows:,} rows", "max-parquet-rows", parquet_rows)
    else:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(display, f"cannot read: {exc.strerror or exc}") from None
        if not data or data.isspace():  # (strip would copy the whole file)
            raise InputError(display, "empty file")
        _check_utf8(data, display)
        if max_rows is not None and data.count(b"\n") > max_rows + 1:
            raise InputError(display, f"more than {max_rows} rows (--max-rows)")
        if suffix == ".json":
            data = _json_array_as_lines(data, display)
        if delim is None:
            table, lines = _read_jsonl(data, display), _record_lines(data, skip_header=False)
            table = _flatten(table)
        else:
            table, lines = _read_csv(data, display, delim, overrides)
    if table.num_rows == 0:
        raise InputError(display, "no data rows")
    if max_rows is not None and table.num_rows > max_rows:
        raise InputError(display, f"{table.num_rows} rows, more than --max-rows {max_rows}")
    names = list(table.column_names)
    _check_overrides(names, overrides, display)
    forced = getattr(getattr(ctx, "config", None), "kind", None) is not None
    got = plan(names, _head_text(table, names), overrides, display, forced=forced)
    cols = got["columns"]
    line = lines if lines is not None else RowLines(first, table.num_rows)
    if got["left_out"] and notes is not None and got["layout"] == "wide":
        shown = ", ".join(f"{n} ({why})" for n, why in list(got["left_out"].items())[:6])
        notes.append(f"{display}: columns not read as models: {shown}")
    if got["layout"] == "long":
        found = _long(table, cols, line, display)
    elif got["layout"] == "wide":
        _wide_caps(display, len(got["models"]), table.num_rows, ctx)
        found = _wide(table, cols, got["models"], line, display)
    elif got["layout"] == "single":
        found = _long(table, dict(cols), line, display, single_model=_stem(display))
    else:
        missing = [r for r in ("model", "item", "score") if r not in cols]
        keyed = ""
        if "score" in missing and "chosen" in cols and "gold" in cols:
            # An answer and its key are not a score: never guess the comparison (case,
            # whitespace, option letters vs texts); say what would make one.
            keyed = (
                f"; columns {cols['chosen']!r} and {cols['gold']!r} hold an answer and its "
                "key, not a score: add a score column (1 where they agree)"
            )
        raise InputError(
            display,
            f"missing column(s) for {', '.join(missing)} (columns: {', '.join(names[:12])}); "
            f"name them with --column ROLE=NAME{keyed}",
        )
    found.meta["value_types"] = {c: got["value_types"].get(c) for c in cols.values()}
    _note_percent(table, [cols["score"]] if "score" in cols else got["models"], display, notes)
    if got["left_out"]:
        found.meta["left_out"] = dict(got["left_out"])
    if any(_norm(n) in JUDGE_COLUMNS for n in names) and not isinstance(found, GridResults):
        found = _drop_unjudged(found, display, notes)
    return _finish(found, cols, display, notes)


def _text_head(table: Any, name: str, n: int) -> list[Any] | None:
    """The first ``n`` values of a text column, or None when the column is not text. Only
    those are read: a Parquet file's column is not decoded whole, nor is a column of an
    Arrow table turned into Python strings whole."""
    def text(kind: pa.DataType) -> bool:
        return pa.types.is_string(kind) or pa.types.is_large_string(kind)

    if isinstance(table, _ParquetColumns):
        return table.head(name, n) if text(table.field_type(name)) else None
    col = table.column(name)
    if not text(col.type):
        return None
    head: list[Any] = col.slice(0, n).to_pylist()
    return head


def _note_percent(table: Any, columns: list[str], display: str, notes: list[str] | None) -> None:
    """Say that percentage cells were read as proportions (``_words_to_float`` reads them)."""
    if notes is None or table is None:
        return
    for name in columns:
        if name not in table.column_names:
            continue
        head = _text_head(table, name, 50)
        if head is None:
            continue
        first = next((v for v in head if v and v.strip()), None)
        if first is not None and percent(first) is not None:
            notes.append(
                f"{display}: score cells written as percentages ({first.strip()!r}) "
                "read as proportions (56% = 0.56)"
            )
            return


def _head_table(path: Path, delim: str) -> Any:
    """The first rows of a large CSV as a table (for what its cells look like)."""
    import pyarrow.csv as pcsv

    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    head = head[: head.rfind(b"\n") + 1]
    try:
        return pcsv.read_csv(
            io.BytesIO(head),
            parse_options=pcsv.ParseOptions(delimiter=delim),
            convert_options=pcsv.ConvertOptions(strings_can_be_null=False),
        )
    except (pa.ArrowInvalid, OSError):
        return None  # a header longer than the head: the note is left out, not the file


def _scored(rs: Any) -> list[str]:
    """The columns that held scores: the score column, or a wide file's model columns."""
    cols = getattr(rs, "columns", {}) or {}
    return [cols["score"]] if "score" in cols else list(rs.models)


def _drop_unjudged(rs: ResultSet, display: str, notes: list[str] | None) -> ResultSet:
    """A judge's rating of -1 is FastChat's mark for an answer it could not parse:
    a missing rating, counted, not a score below the scale."""
    failed = np.asarray(rs.score) == -1
    if not failed.any() or (np.asarray(rs.score)[~failed] < 0).any():
        return rs
    keep = ~failed
    fields = {
        name: _kept(getattr(rs, name), keep)
        for name in ("model", "item", "score", "max_points", *OPTIONAL_CATEGORIES, "confidence")
    }
    lines = np.asarray(rs.line)
    if notes is not None:
        notes.append(
            f"{display}: {int(failed.sum())} rating(s) of -1 (a judgment the judge's answer "
            f"gave no score for, first at line {int(lines[failed][0])}) left out as missing"
        )
    meta = dict(rs.meta)
    if meta.get("turn_questions") is not None:
        meta["turn_questions"] = meta["turn_questions"][keep]
    return dataclasses.replace(rs, line=lines[keep], meta=meta, **fields)


def _finish(rs: ResultSet, cols: dict[str, str], display: str, notes: list[str] | None) -> Any:
    """Missing cells reported, and the scale decided: proportions stay a ResultSet,
    a rating scale becomes a ScaledResults."""
    missing = int(rs.meta.get("missing_cells", 0))
    if missing and notes is not None:
        where = rs.meta.get("missing_lines", [])
        at = f" (line {', '.join(str(x) for x in where[:5])}{' ...' if missing > 5 else ''})"
        notes.append(
            f"{display}: {missing:,} missing score cell(s) left out{at if where else ''}"
        )
    if isinstance(rs, GridResults) or rs.max_points is not None:
        return rs
    from benchaudit.inputs._scaled import apply_scale

    return apply_scale(rs, cols.get("score"), display)


def _stem(display: str) -> str:
    """The model a one-model file is named after: ``run7.csv.gz`` -> ``run7``."""
    name = Path(display).name
    name = name[:-3] if name.lower().endswith(".gz") else name
    return Path(name).stem


def _wide_caps(display: str, models: int, rows: int, ctx: Any) -> None:
    most = cap(ctx, "max-wide-columns")
    if models > most:
        raise exceeded(display, f"{models:,} model columns", "max-wide-columns", most)
    cells = cap(ctx, "max-wide-cells")
    if models * rows > cells:
        raise exceeded(
            display, f"{models:,} model columns x {rows:,} rows", "max-wide-cells", cells
        )


def _head_text(table: Any, names: list[str], n: int = 1000) -> list[list[str]]:
    """The first rows as text cells, for the same plan detection made."""
    if isinstance(table, _ParquetColumns):
        # A thousand rows: one thread decodes them with a quarter of the CPU time of a pool.
        batch = next(table.file.iter_batches(batch_size=n, columns=names, use_threads=False), None)
        if batch is None:
            return []
        cols = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
    else:
        head = table.slice(0, n)
        cols = [head.column(name).to_pylist() for name in names]
    k = len(cols[0]) if cols else 0
    return [[_scalar_text(c[r]) for c in cols] for r in range(k)]


def _flatten(table: pa.Table) -> pa.Table:
    """Nested JSON objects as dotted columns (``result.correct``)."""
    while any(pa.types.is_struct(f.type) for f in table.schema):
        table = table.flatten()
    return table


def _json_array_as_lines(data: bytes, display: str) -> bytes:
    """A JSON array of records as JSON Lines (record k on line k)."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except ValueError as exc:
        raise InputError(display, f"invalid JSON: {str(exc).split(':')[0]}") from None
    if not isinstance(doc, list) or not all(isinstance(r, dict) for r in doc):
        raise InputError(display, "expected a JSON array of records (objects)")
    return "\n".join(json.dumps(r) for r in doc).encode()


# --- file formats ----------------------------------------------------------------------


def _check_utf8(data: bytes, display: str) -> None:
    """Validate UTF-8 in Arrow (fast); find the line in Python only when it fails."""
    offsets = pa.py_buffer(np.array([0, len(data)], dtype=np.int64).tobytes())
    arr = pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, pa.py_buffer(data)])
    try:
        arr.cast(pa.large_string())
    except pa.ArrowInvalid:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise InputError(display, f"not valid UTF-8 text (byte {exc.start})", line) from None


def _record_lines(data: bytes, skip_header: bool) -> np.ndarray | None:
    """1-based file line of each record when blank lines break the simple count."""
    if b"\n\n" not in data and b"\n\r\n" not in data and not data.startswith(b"\n"):
        return None
    lines = data.split(b"\n")
    keep = [i + 1 for i, ln in enumerate(lines) if ln.strip()]
    return np.asarray(keep[1:] if skip_header else keep, dtype=np.int64)


def _header(data: bytes, delim: str, display: str) -> list[str]:
    end = re.search(rb"[\r\n]", data)  # a line ends at \n, \r\n or \r
    first = (data[: end.start()] if end else data).decode("utf-8-sig")
    try:
        row = next(csv.reader([first], delimiter=delim))
    except (csv.Error, StopIteration):
        raise InputError(display, "cannot parse the header", 1) from None
    names = [c.strip() for c in row]
    if len(names) < 2:
        sep = "tab" if delim == "\t" else "comma"
        raise InputError(
            display,
            f"header has {len(names)} column(s); expected {sep}-separated "
            "model, item and score columns",
            1,
        )
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise InputError(display, f"column {dup!r} appears twice in the header", 1)
    return names


def _read_csv(
    data: bytes, display: str, delim: str, overrides: dict[str, str]
) -> tuple[pa.Table, np.ndarray | None]:
    import pyarrow.csv as pcsv

    names = _header(data, delim, display)
    cols = find_columns(names, overrides)
    types = {cols[r]: pa.string() for r in CATEGORICAL if r in cols}
    convert = pcsv.ConvertOptions(
        column_types=types,
        strings_can_be_null=True,
        true_values=["true", "True", "TRUE"],
        false_values=["false", "False", "FALSE"],
    )
    try:
        try:
            table = pcsv.read_csv(
                pa.BufferReader(data),  # type: ignore[arg-type]  # pyarrow-stubs leave out the NativeFile/Buffer inputs read_csv takes
                parse_options=pcsv.ParseOptions(delimiter=delim),
                convert_options=convert,
            )
        except pa.ArrowInvalid:
            # A quoted field holding a line break (a question's text): parse again with
            # line breaks allowed in values (slower, so not the first try).
            table = pcsv.read_csv(
                pa.BufferReader(data),  # type: ignore[arg-type]  # as above
                parse_options=pcsv.ParseOptions(delimiter=delim, newlines_in_values=True),
                convert_options=convert,
            )
    except pa.ArrowInvalid as exc:
        raise _csv_diagnosis(data, display, delim, len(names), exc) from None
    simple = _count_byte(data, 10) + (not data.endswith(b"\n")) - 1
    if table.num_rows == simple:
        # A record per line: no blank line (Arrow skips those) and no quoted line break, each
        # of which would leave fewer records than lines. Searching 28 MB for blank lines costs
        # five times this count.
        return table, None
    lines = _record_lines(data, skip_header=True)
    if table.num_rows != (simple if lines is None else len(lines)):
        lines = _quoted_record_lines(data, delim)  # a quoted field holds a line break
    return table, lines


def _quoted_record_lines(data: bytes, delim: str) -> np.ndarray:
    """The line each record starts on, when quoted line breaks make records span lines."""
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=delim)
    starts, end = [], 0
    for row in reader:
        if row:
            starts.append(end + 1)
        end = reader.line_num
    return np.asarray(starts[1:], dtype=np.int64)


def _csv_diagnosis(
    data: bytes, display: str, delim: str, width: int, exc: Exception
) -> InputError:
    """Name the first bad line of a CSV that Arrow refused."""
    text = data.decode("utf-8-sig")
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    try:
        for row in reader:
            if row and len(row) != width:
                return InputError(
                    display, f"ragged row: {len(row)} fields, expected {width}", reader.line_num
                )
    except csv.Error as err:
        return InputError(display, f"cannot parse: {err}", reader.line_num)
    first = str(exc).splitlines()[0]
    return InputError(display, f"cannot parse: {first}")


def _read_jsonl(data: bytes, display: str) -> pa.Table:
    import pyarrow.json as pjson

    try:
        return pjson.read_json(pa.BufferReader(data))  # type: ignore[arg-type]  # pyarrow-stubs leave out NativeFile inputs
    except pa.ArrowInvalid as exc:
        # Find the line in Python: invalid JSON, a non-object, or mixed types.
        for lineno, raw in enumerate(split_lines(data.decode("utf-8-sig")), start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except ValueError as err:
                raise InputError(
                    display, f"invalid JSON: {err.args[0].split(':')[0]}", lineno
                ) from None
            if not isinstance(obj, dict):
                raise InputError(display, "each line must be a JSON object", lineno) from None
        return _jsonl_python(data, display, exc)


def _jsonl_python(data: bytes, display: str, exc: Exception) -> pa.Table:
    """Mixed value types in a column (ids that are sometimes numbers): read as text."""
    records = [json.loads(r) for r in split_lines(data.decode("utf-8-sig")) if r.strip()]
    keys: list[str] = []
    for r in records:
        for k in r:
            if k not in keys:
                keys.append(k)
    columns: dict[str, pa.Array[Any]] = {}
    for k in keys:
        vals = [r.get(k) for r in records]
        if all(isinstance(v, (int, float, bool)) or v is None for v in vals):
            columns[k] = pa.array([None if v is None else float(v) for v in vals], pa.float64())
        else:
            columns[k] = pa.array([None if v is None else _text(v) for v in vals], pa.string())
    return pa.table(columns)


def _text(v: Any) -> str:
    if isinstance(v, (dict, list)):
        return json.dumps(v, sort_keys=True)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class _Columns(Protocol):
    """What the column readers need of a table: an Arrow table or a Parquet file."""

    @property
    def num_rows(self) -> int: ...

    def column(self, name: str) -> pa.ChunkedArray[Any]: ...


class _ParquetColumns:
    """A Parquet file read one column at a time, on first use.

    Coding a column into numpy and dropping its Arrow buffers before the next
    column is read keeps the peak memory near the size of the result arrays.
    """

    def __init__(self, path: Path, display: str) -> None:
        import pyarrow.parquet as pq

        self.display = display
        try:
            self.file = pq.ParquetFile(path)
            self.schema: pa.Schema = self.file.schema_arrow
        except (pa.ArrowException, OSError) as exc:
            raise _parquet_error(display, exc) from None
        self.num_rows = int(self.file.metadata.num_rows)
        self.column_names = list(self.schema.names)

    def column(self, name: str) -> pa.ChunkedArray[Any]:
        try:
            return self.file.read(columns=[name]).column(0)
        except (pa.ArrowException, OSError) as exc:
            raise _parquet_error(self.display, exc) from None

    def field_type(self, name: str) -> pa.DataType:
        t: pa.DataType = self.schema.field(name).type
        return t

    def head(self, name: str, n: int) -> list[Any]:
        """The first ``n`` values of one column, decoded from the first row group only."""
        try:
            batch = next(self.file.iter_batches(batch_size=n, columns=[name], use_threads=False), None)
        except (pa.ArrowException, OSError) as exc:
            raise _parquet_error(self.display, exc) from None
        return [] if batch is None else batch.column(0).to_pylist()

    def batches(
        self, names: list[str], cols: dict[str, str], plain: bool = False
    ) -> Iterator[pa.RecordBatch]:
        batches = self.file.iter_batches(batch_size=BATCH, columns=names)
        # Decoding (Arrow, no GIL) overlaps with coding the previous batch (numpy).
        return _prefetch(batches) if self.num_rows > BATCH else batches

    def wrap_error(self, exc: Exception) -> Exception:
        return _parquet_error(self.display, exc)


def _prefetch(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """Iterate ``batches`` one step ahead in a thread (at most one batch waiting)."""
    import queue
    import threading

    ready: queue.Queue[Any] = queue.Queue(maxsize=1)
    stop = threading.Event()
    end = object()

    def produce() -> None:
        try:
            for batch in batches:
                while not stop.is_set():
                    try:
                        ready.put(batch, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            item: Any = end
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer
            item = exc
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    worker = threading.Thread(target=produce, daemon=True)
    worker.start()
    try:
        while True:
            item = ready.get()
            if item is end:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
            del item
    finally:
        stop.set()
        worker.join()


def _parquet_error(display: str, exc: Exception) -> InputError:
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return InputError(display, f"cannot read Parquet: {first}")


def _read_parquet(path: Path, display: str) -> _ParquetColumns:
    return _ParquetColumns(path, display)


#: CSV files above this size are parsed in blocks instead of into one table.
STREAM_BYTES = 32 << 20


class _Fallback(Exception):
    """The streaming reader cannot handle this file; read it whole instead."""


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


#: Bytes of CSV text parsed at a time by the chunked reader.
CHUNK_BYTES = 16 << 20


class _CsvStream:
    """A large CSV parsed a piece at a time: only one piece of Arrow data is alive at once.

    The file is cut at line ends into chunks of about ``CHUNK_BYTES`` that Arrow
    parses on all cores (its streaming reader parses on one and reads far ahead of
    a slower consumer, holding most of the file). A cut is only made where the
    quotes before it are balanced, so a quoted line break never splits a row.
    """

    def __init__(
        self, path: Path, display: str, delim: str, names: list[str], n: int | None
    ) -> None:
        self.path, self.display, self.delim = path, display, delim
        self.column_names, self.num_rows = names, n
        self.data_lines = 0

    def _options(
        self, names: list[str], cols: dict[str, str], plain: bool
    ) -> tuple[pcsv.ParseOptions, pcsv.ConvertOptions]:
        import pyarrow.csv as pcsv

        # Categories as strings (plain) or dictionary-encoded while parsing.
        cat = {cols[r] for r in CATEGORICAL if r in cols}
        if plain:
            cat = set()
        types = {c: pa.dictionary(pa.int32(), pa.string()) for c in names if c in cat}
        parse = pcsv.ParseOptions(delimiter=self.delim)
        convert = pcsv.ConvertOptions(
            column_types=types,
            include_columns=names,
            strings_can_be_null=True,
            true_values=["true", "True", "TRUE"],
            false_values=["false", "False", "FALSE"],
        )
        return parse, convert

    def batches(
        self, names: list[str], cols: dict[str, str], plain: bool = False
    ) -> Iterator[pa.RecordBatch]:
        parse, convert = self._options(names, cols, plain)
        return self._chunks(parse, convert)

    def _chunks(
        self, parse: pcsv.ParseOptions, convert: pcsv.ConvertOptions
    ) -> Iterator[pa.RecordBatch]:
        import pyarrow.csv as pcsv

        read = pcsv.ReadOptions(
            column_names=self.column_names, block_size=max(CHUNK_BYTES // 4, 1 << 16)
        )
        self.data_lines = 0
        rest, header = b"", True
        with open(self.path, "rb") as fh:
            while True:
                block = fh.read(CHUNK_BYTES)
                eof = not block
                data = rest + block if rest else block
                del block
                cut = len(data) if eof else data.rfind(b"\n") + 1
                if not eof and (cut == 0 or _odd_quotes(data, cut)):
                    rest = data  # no safe cut in this chunk: take in the next one
                    continue
                lo, rest = 0, data[cut:]
                if header:
                    header = False
                    end = _LINE_END.search(data, 0, cut)
                    lo = end.end() if end else cut
                view = memoryview(data)[lo:cut]
                if len(view):
                    self.data_lines += _breaks(data, lo, cut) + int(view[-1] not in (10, 13))
                    table = pcsv.read_csv(
                        pa.py_buffer(view),  # type: ignore[arg-type]  # pyarrow-stubs leave out the NativeFile/Buffer inputs read_csv takes
                        read_options=read,
                        parse_options=parse,
                        convert_options=convert,
                    )
                    del view, data
                    # One batch per chunk: its dictionaries unified once, in Arrow.
                    yield from table.combine_chunks().to_batches()
                    del table
                if eof:
                    break

    def wrap_error(self, exc: Exception) -> Exception:
        return _Fallback(str(exc))  # the whole-file reader names the bad line


def _count_byte(data: Any, byte: int, stop: int | None = None, start: int = 0) -> int:
    """Occurrences of one byte value in ``data[start:stop]``, a slice at a time (no
    file-sized temporaries); numpy's compare-and-count runs several times faster than
    ``bytes.count`` of one byte."""
    end = len(data) if stop is None else stop
    if end <= start:
        return 0
    text = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
    step = 1 << 22
    return sum(int(np.count_nonzero(text[i : i + step] == byte)) for i in range(0, text.size, step))


def _odd_quotes(data: bytes, stop: int) -> bool:
    return bool(_count_byte(data, 34, stop) % 2)


#: Bytes read at a time when counting lines.
_READ = 16 << 20

_LINE_END = re.compile(rb"\r\n?|\n")


def _breaks(data: bytes, start: int = 0, stop: int | None = None) -> int:
    """Line breaks in ``data[start:stop]`` as :mod:`benchaudit.linebreaks` counts them:
    ``\n``, ``\r\n`` and a lone ``\r`` are one each."""
    stop = len(data) if stop is None else stop
    newlines = _count_byte(data, 10, stop, start)
    # (find is a memchr: a file without carriage returns costs one fast pass for them)
    if data.find(b"\r", start, stop) < 0:
        return newlines
    returns = _count_byte(data, 13, stop, start)
    return newlines + returns - data.count(b"\r\n", start, stop)


def _count_lines(path: Path) -> tuple[int, bool]:
    """Lines in a file (ended by ``\n``, ``\r\n`` or ``\r``) and whether any is blank,
    in 16 MB reads."""
    lines, blank, last = 0, False, b"\n"
    with open(path, "rb") as fh:
        while True:
            block = fh.read(_READ)
            if not block:
                break
            # With the byte before: a \r\n or a blank line across two reads.
            text = np.frombuffer(last + block, dtype=np.uint8)
            lines += _breaks(block) - int(last == b"\r" and block[:1] == b"\n")
            if not blank:
                a, b = text[:-1], text[1:]
                # A break right after a break (\r\n being one) leaves a line empty; the
                # first read starts after a virtual \n, so a leading empty line counts.
                ends_break = (a == 10) | (a == 13)
                blank = bool((ends_break & ((b == 13) | ((b == 10) & (a == 10)))).any())
            del text
            last = block[-1:]
    return lines + (last not in (b"\n", b"\r")), blank


def _stream_csv(
    path: Path, display: str, overrides: dict[str, str], max_rows: int | None, delim: str
) -> ResultSet | None:
    """A long-form CSV read in blocks, or None when the file needs the whole-file reader."""
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    names = _header(head, delim, display)
    _check_overrides(names, overrides, display)
    cols = find_columns(names, overrides)
    if not ("model" in cols and "item" in cols and "score" in cols):
        return None
    tried = max_rows is None and not any(r in cols for r in ROW_ROLES)
    if tried:
        # A clean 0/1 grid is read in one pass, its lines counted as it is parsed.
        stream = _CsvStream(path, display, delim, names, None)
        found = _grid(stream, cols, RowLines(2, np.iinfo(np.int64).max - 2), display)
        if found is not None:
            return found
    lines, blank = _count_lines(path)
    if blank or lines < 2:
        return None  # blank lines shift line numbers: the whole-file reader maps them
    n = lines - 1
    if max_rows is not None and n > max_rows:
        raise InputError(display, f"{n} rows, more than --max-rows {max_rows}")
    try:
        stream = _CsvStream(path, display, delim, names, n)
        return _long(stream, cols, RowLines(2, n), display, grid=not tried)
    except UnicodeDecodeError:
        raise _Fallback("encoding") from None


def _check_overrides(names: list[str], overrides: dict[str, str], display: str) -> None:
    lower = {n.lower() for n in names}
    for role, name in overrides.items():
        if role not in ("model", "item", "score", *OPTIONAL):
            raise InputError(display, f"unknown column role {role!r} in --column")
        if name.lower() not in lower:
            raise InputError(
                display, f"no column {name!r} (for {role}); columns: {', '.join(names[:12])}"
            )


# --- columns -------------------------------------------------------------------------


def _type_of(table: Any, name: str) -> pa.DataType:
    if isinstance(table, _ParquetColumns):
        return table.field_type(name)
    t: pa.DataType = table.column(name).type
    return t


def _np(arr: Any) -> np.ndarray:
    """An Arrow array as numpy, zero-copy when it can be (which also keeps pandas unloaded)."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    # (No fill_null with a Python value: making an Arrow scalar from one loads pandas.)
    if pa.types.is_boolean(arr.type):
        filled = pc.and_kleene(arr, arr.is_valid()) if arr.null_count else arr
        return _primitive(filled.cast(pa.uint8())).astype(bool)
    if pa.types.is_integer(arr.type) or pa.types.is_floating(arr.type):
        out = _primitive(arr)
        if arr.null_count:  # callers mask the nulls; zero them all the same
            out = np.where(_np(arr.is_valid()), out, out.dtype.type(0))
        return out
    values: np.ndarray = arr.to_numpy(zero_copy_only=False)
    return values


def _primitive(arr: pa.Array[Any]) -> np.ndarray:
    """A null-free numeric Arrow array viewed as numpy through its data buffer.

    (``Array.to_numpy`` loads pandas on first use, half a second for nothing.)
    """
    name = str(arr.type)
    dtype = np.dtype(
        {"halffloat": "float16", "float": "float32", "double": "float64"}.get(name, name)
    )
    data = arr.buffers()[1]
    assert data is not None  # a numeric array always has a data buffer
    return np.frombuffer(
        memoryview(data), dtype=dtype, count=len(arr), offset=arr.offset * dtype.itemsize
    )


def _is_score_type(t: pa.DataType) -> bool:
    return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)


def _coded(
    col: pa.ChunkedArray[Any],
    display: str,
    role: str,
    line: Any,
    required: bool,
    by_appearance: bool = True,
) -> Coded:
    """Category codes in order of first appearance; nulls and blanks are -1 (an error if required)."""
    coder = _Coder(display, role)
    codes = np.empty(len(col), dtype=np.int32)
    pos = 0
    for chunk in col.chunks:
        # runs: a long file lists each model's rows (or each item's) together.
        codes[pos : pos + len(chunk)] = coder.add(chunk, runs=True)
        pos += len(chunk)
    return coder.finish(codes, line, required, by_appearance)


class _Coder:
    """Codes a categorical column chunk by chunk (or batch by batch).

    Works on dictionary-encoded data: a chunk whose dictionary equals one seen
    before (Parquet row groups usually repeat it) reuses its mapping, so ten
    million rows cost a few array takes, not a hash per row.
    """

    def __init__(self, display: str, role: str) -> None:
        self.display, self.role = display, role
        self.seen: list[tuple[pa.Array[Any], np.ndarray]] = []
        # Every dictionary value met so far, by code: hashed once into one table, so
        # a block costs its own labels, not all the labels seen before it.
        self.table = LabelTable()
        self.exact: pa.Array[Any] | None = None  # after a hash collision: Arrow look-ups

    @property
    def known(self) -> pa.Array[Any] | None:
        return self.exact if self.exact is not None else self.table.labels

    @property
    def size(self) -> int:
        return 0 if self.known is None else len(self.known)

    def add(self, chunk: pa.Array[Any], runs: bool = False) -> np.ndarray:
        if runs and len(chunk) > 4096 and not pa.types.is_dictionary(chunk.type):
            # Long runs of one value (a model's rows together): code the runs only.
            ree = pc.run_end_encode(chunk)  # type: ignore[attr-defined]  # missing from pyarrow-stubs
            if len(ree.values) * 16 <= len(chunk):
                ends = _np(ree.run_ends).astype(np.int64)
                return np.repeat(self.add(ree.values), np.diff(ends, prepend=0))
        text = pa.types.is_string(chunk.type) or pa.types.is_large_string(chunk.type)
        if text and not chunk.null_count and self.exact is None:
            try:  # every row looked up in the one label table: no dictionary per block
                return self.table.codes(chunk)
            except Collision:
                pass
        known = self.known
        if known is not None and chunk.type == known.type and len(chunk) >= len(known):
            # Usually every value is known by now: one lookup per row, no re-encoding.
            found = pc.index_in(chunk, value_set=known)
            if not found.null_count:
                return _np(found).astype(np.int32, copy=False)
        if not pa.types.is_dictionary(chunk.type):
            if not text:
                try:
                    chunk = pc.cast(chunk, pa.string())
                except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
                    raise InputError(
                        self.display, f"{self.role} column holds nested values"
                    ) from None
            chunk = pc.dictionary_encode(chunk)
        coded = cast("pa.DictionaryArray[Any, Any]", chunk)  # dictionary-typed by now
        d = coded.dictionary
        if not (pa.types.is_string(d.type) or pa.types.is_large_string(d.type)):
            d = d.cast(pa.string())
        mapping = None
        for d0, m0 in reversed(self.seen[-4:]):
            if d0 is d or (len(d0) == len(d) and d0.equals(d)):
                mapping = m0
                break
        if mapping is None:
            mapping = self._mapping(d)
            self.seen.append((d, mapping))
        ind = coded.indices
        if ind.null_count:  # the last mapping slot codes a null
            return mapping[np.where(_np(ind.is_valid()), _primitive(ind), len(mapping) - 1)]
        out: np.ndarray = mapping[_np(ind)]
        return out

    def _mapping(self, d: pa.Array[Any]) -> np.ndarray:
        mapping = np.empty(len(d) + 1, dtype=np.int32)
        mapping[-1] = -1  # null index
        if self.exact is None and not d.null_count:
            try:
                mapping[:-1] = self.table.codes(d)
                return mapping
            except Collision:
                pass
        if self.exact is None:  # from now on: Arrow look-ups against every label
            self.exact = self.table.labels
        if self.exact is None:
            mapping[:-1] = np.arange(len(d))
            self.exact = d
            return mapping
        found = pc.index_in(d, value_set=self.exact)
        new = _np(found.is_null())
        vals = _primitive(found)  # the slots of new values are ignored
        mapping[:-1][~new] = vals[~new].astype(np.int32)
        mapping[:-1][new] = len(self.exact) + np.arange(int(new.sum()), dtype=np.int32)
        if new.any():
            self.exact = pa.concat_arrays([self.exact, d.filter(found.is_null())])
        return mapping

    def finish(
        self, codes: np.ndarray, line: Any, required: bool, by_appearance: bool = True
    ) -> Coded:
        known = self.known
        raw = known.to_pylist() if known is not None else []
        if known is not None and _clean_labels(known, distinct=self.exact is None):
            labels = cast("list[str]", raw)  # clean: no null label
        else:
            labels, codes = _merge_labels(raw, codes)
        self.seen.clear()
        return _ordered(
            codes, labels, len(codes), self.display, self.role, line, required, by_appearance
        )


def _clean_labels(known: pa.Array[Any], distinct: bool = False) -> bool:
    """True when no label is null, blank, padded with blanks, or repeated (``distinct``:
    known to hold no repeat, as the label table's labels are)."""
    if known.null_count:
        return False
    trimmed = pc.utf8_trim_whitespace(known)
    if not pc.all(pc.equal(trimmed, known)).as_py():
        return False
    # (pyarrow-stubs type utf8_length by concrete string array class, not by a string-typed Array)
    if len(known) and pc.min(pc.utf8_length(known)).as_py() == 0:  # type: ignore[call-overload]
        return False  # (no Python scalars here: converting one loads pandas)
    return distinct or pc.count_distinct(known).as_py() == len(known)


def _merge_labels(raw: list[Any], codes: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Labels that differ only in surrounding blanks are one label; blank is missing.

    Returns the labels and the recoded codes.
    """
    labels: list[str] = []
    index: dict[str, int] = {}
    merge = np.empty(len(raw) + 1, dtype=np.int32)
    merge[-1] = -1
    for j, v in enumerate(raw):
        key = v.strip() if isinstance(v, str) else None
        key = key if key else None
        if key is None:
            merge[j] = -1
            continue
        c = index.get(key)
        if c is None:
            c = index[key] = len(labels)
            labels.append(key)
        merge[j] = c
    return labels, merge[codes]


def _ordered(
    codes: np.ndarray,
    labels: list[str],
    n: int,
    display: str,
    role: str,
    line: Any,
    required: bool,
    by_appearance: bool,
) -> Coded:
    """Renumber by first appearance in the file (models, options ...); item ids keep the
    order of the file's dictionary, which is as deterministic and saves a pass."""
    if not by_appearance:
        if required and (codes < 0).any():
            row = int(np.flatnonzero(codes < 0)[0])
            raise InputError(display, f"empty {role}", int(line[row]))
        dtype = np.int16 if len(labels) < np.iinfo(np.int16).max else np.int32
        return Coded(codes=codes.astype(dtype, copy=False), labels=list(labels))
    first = first_rows(codes, len(labels))
    order = np.argsort(first, kind="stable")
    order = order[first[order] < n]
    kept = [labels[int(c)] for c in order]
    if not np.array_equal(order, np.arange(len(labels))):
        remap = np.full(len(labels) + 1, -1, dtype=codes.dtype)  # the extra slot maps -1
        remap[order] = np.arange(order.size, dtype=codes.dtype)
        codes = codes if codes.flags.writeable else codes.copy()
        for start in range(0, len(codes), BATCH):  # in place, a batch at a time
            codes[start : start + BATCH] = remap[codes[start : start + BATCH]]
    if required and (codes < 0).any():
        row = int(np.flatnonzero(codes < 0)[0])
        raise InputError(display, f"empty {role}", int(line[row]))
    dtype = np.int16 if len(kept) < np.iinfo(np.int16).max else np.int32
    return Coded(codes=codes.astype(dtype, copy=False), labels=kept)


def _numeric(
    col: pa.ChunkedArray[Any], display: str, role: str, line: Lines, missing_ok: bool = False
) -> np.ndarray:
    """Float values of a score-like column: numbers, booleans, or words like yes/no.

    With ``missing_ok`` an empty or ``NA`` cell is NaN (a missing result, left
    out and counted by the caller) instead of an error."""
    t = col.type
    if pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_floating(t):
        exact32 = pa.types.is_boolean(t) or pa.types.is_int8(t) or pa.types.is_uint8(t)
        arr = pc.cast(col, pa.float32() if exact32 else pa.float64()).combine_chunks()
        if arr.null_count and not missing_ok:
            row = int(np.flatnonzero(~_np(arr.is_valid()))[0])
            raise InputError(display, f"missing {role} value", int(line[row]))
        out = _np(arr)
        if arr.null_count:
            out = np.where(_np(arr.is_valid()), out, np.nan)
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        out = _words_to_float(col, display, role, line, missing_ok)
    elif pa.types.is_null(t) and missing_ok:
        out = np.full(len(col), np.nan)
    else:
        raise InputError(display, f"{role} column is not numeric ({t})")
    bad = np.isinf(out) if missing_ok else ~np.isfinite(out)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise InputError(display, f"{role} is NaN or infinite", int(line[row]))
    return out


#: inspect_ai's score letters and the values its ``value_to_float`` gives them.
_LETTERS = {"c": 1.0, "i": 0.0, "p": 0.5, "n": 0.0}


def _words_to_float(
    col: pa.ChunkedArray[Any], display: str, role: str, line: Lines, missing_ok: bool = False
) -> np.ndarray:
    enc = pc.utf8_lower(pc.utf8_trim_whitespace(col)).combine_chunks().dictionary_encode()
    values = []
    words = enc.dictionary.to_pylist()
    # inspect_ai's score letters, exported as they are: Correct, Incorrect, Partial, No
    # answer. Read only as a whole column of them, so that a lone "c" is never a verdict.
    scoreish = role == "score" or role.startswith("score for ")
    letters = scoreish and {"c", "i"} & set(words) and set(words) <= {*_LETTERS, *MISSING_WORDS}
    # "56%" as 0.56, only when every cell that holds a value is written as a percentage.
    held = [str(w) for w in words if not (missing_ok and w in MISSING_WORDS)]
    percents = scoreish and bool(held) and all(percent(w) is not None for w in held)
    for i, word in enumerate(words):
        as_percent = percent(str(word)) if percents else None
        if as_percent is not None:
            values.append(as_percent)
        elif letters and word in _LETTERS:
            values.append(_LETTERS[word])
        elif word in _TRUE:
            values.append(1.0)
        elif word in _FALSE:
            values.append(0.0)
        elif missing_ok and word in MISSING_WORDS:
            values.append(np.nan)
        else:
            assert word is not None  # nulls are in the indices, not the dictionary
            try:
                values.append(float(word))
            except ValueError:
                comma = decimal_comma(word)
                if comma is not None:
                    values.append(comma)
                    continue
                codes = _np(enc.indices)
                row = int(np.flatnonzero(codes == i)[0])
                shown = word if word else "(empty)"
                raise InputError(
                    display, f"{role} is not a number: {shown!r}", int(line[row])
                ) from None
    if enc.null_count:
        if not missing_ok:
            row = int(np.flatnonzero(~_np(enc.indices.is_valid()))[0])
            raise InputError(display, f"missing {role} value", int(line[row]))
        values.append(np.nan)
        codes = np.where(_np(enc.indices.is_valid()), _np(enc.indices), len(values) - 1)
        out: np.ndarray = np.asarray(values, dtype=np.float64)[codes]
        return out
    out = np.asarray(values, dtype=np.float64)[_np(enc.indices)]
    return out


OPTIONAL_CATEGORIES = ("cluster", "seed", "sample", "chosen", "gold", "variant")


def _columns_of(
    table: Any, cols: dict[str, str], line: Any, display: str, single_model: str | None
) -> tuple[Callable[[str, bool], Coded], Callable[[str], np.ndarray]]:
    """Two getters, (role -> Coded) and (role -> float array), over the file's columns."""
    n = table.num_rows
    if isinstance(table, _CsvStream) or (isinstance(table, _ParquetColumns) and n > BATCH):
        cat, num = _gather_batches(table, cols, line, display, single_model)
        return (lambda role, required: cat[role]), (lambda role: num[role])

    def coded(role: str, required: bool) -> Coded:
        return _coded(
            table.column(cols[role]),
            display,
            role,
            line,
            required=required,
            by_appearance=role != "item" or n < 1_000_000,
        )

    def numeric(role: str) -> np.ndarray:
        return _numeric(
            table.column(cols[role]), display, role.replace("_", " "), line, role == "score"
        )

    return coded, numeric


#: Rows per batch when a large Parquet file is streamed.
BATCH = 1 << 20
#: Label counts at or above this need int32 codes.
INT16_LABELS = int(np.iinfo(np.int16).max)


def _gather_batches(
    table: Any, cols: dict[str, str], line: Any, display: str, single_model: str | None
) -> tuple[dict[str, Coded], dict[str, np.ndarray]]:
    """Stream a large Parquet or CSV file batch by batch into numpy arrays.

    Only one batch of Arrow data is alive at a time, so the peak memory is the
    result arrays plus a batch, not the whole decoded table.
    """
    n = table.num_rows
    cat_roles = [
        r
        for r in ("model", "item", *OPTIONAL_CATEGORIES)
        if r in cols and not (r == "model" and single_model is not None)
    ]
    num_roles = [r for r in ("score", "max_points", "confidence") if r in cols]
    names = sorted({cols[r] for r in cat_roles + num_roles})
    coders = {r: _Coder(display, r) for r in cat_roles}
    # int16 until a column has too many labels for it (models, options: never).
    codes = {r: np.empty(n, dtype=np.int16) for r in cat_roles}
    nums: dict[str, np.ndarray] = {}
    pos = 0
    pool = pa.default_memory_pool()
    try:
        for batch in table.batches(names, cols):
            k = batch.num_rows
            index = {name: i for i, name in enumerate(batch.schema.names)}
            part_line = line[pos : pos + k]
            for r in cat_roles:
                part = coders[r].add(batch.column(index[cols[r]]))
                if codes[r].dtype == np.int16 and coders[r].size >= INT16_LABELS:
                    codes[r] = codes[r].astype(np.int32)
                codes[r][pos : pos + k] = part
            for r in num_roles:
                col = pa.chunked_array([batch.column(index[cols[r]])])
                v = _numeric(col, display, r.replace("_", " "), part_line, r == "score")
                if r not in nums:
                    nums[r] = np.empty(n, dtype=v.dtype)
                elif nums[r].dtype == np.float32 and v.dtype != np.float32:
                    nums[r] = nums[r].astype(np.float64)
                nums[r][pos : pos + k] = v
            pos += k
            del batch
            pool.release_unused()  # hand decoded pages back before the next batch
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise table.wrap_error(exc) from None
    if pos != n:
        raise _Fallback("row count")  # quoted line breaks: line numbers need the full reader
    cat = {
        r: coders[r].finish(
            codes.pop(r), line, required=r in ("model", "item"), by_appearance=r != "item"
        )
        for r in cat_roles
    }
    pa.default_memory_pool().release_unused()
    return cat, nums


def _optional(
    coded: Callable[[str, bool], Coded], numeric: Callable[[str], np.ndarray], cols: dict[str, str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for role in OPTIONAL_CATEGORIES:
        if role in cols:
            out[role] = coded(role, False)
    if "confidence" in cols:
        out["confidence"] = numeric("confidence")
    return out


#: Roles that keep a file off the grid path (they need per-row arrays).
ROW_ROLES = ("points", "max_points", "confidence", "turn", *OPTIONAL_CATEGORIES)


def _long(
    table: Any,
    cols: dict[str, str],
    line: Any,
    display: str,
    single_model: str | None = None,
    grid: bool = True,
) -> ResultSet:
    n = table.num_rows
    streamed = isinstance(table, _CsvStream) or (isinstance(table, _ParquetColumns) and n > BATCH)
    if grid and streamed and single_model is None and not any(r in cols for r in ROW_ROLES):
        found = _grid(table, cols, line, display)
        if found is not None:
            return found
    coded, numeric = _columns_of(table, cols, line, display, single_model)
    if single_model is not None:
        model = Coded(codes=np.zeros(n, dtype=np.int16), labels=[single_model])
    else:
        model = coded("model", True)
    item = coded("item", True)
    questions = None
    if "turn" in cols:  # turns of a conversation are items of their own, not repeats
        questions = item.codes  # ... of one question each: resampled together
        item = _with_turn(item, coded("turn", False))
    score = numeric("score")
    gone = np.isnan(score) if score.dtype.kind == "f" else None
    keep = None
    if gone is not None and gone.any():
        keep = ~gone
        score = score[keep]
    max_points = None
    if "max_points" in cols:
        max_points = numeric("max_points").astype(np.float64)
        if keep is not None:
            max_points = max_points[keep]
        bad = max_points <= 0
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise InputError(display, "max points must be positive", int(line[row]))
    if "points" in cols or max_points is not None:
        neg = score < 0
        if neg.any():
            row = int(np.flatnonzero(neg)[0])
            raise InputError(display, "negative points", int(line[row]))
        if max_points is not None:
            over = score > max_points + 1e-9
            if over.any():
                row = int(np.flatnonzero(over)[0])
                raise InputError(display, "points exceed max points", int(line[row]))
    binary = bool(np.all((score == 0.0) | (score == 1.0)))
    if max_points is None and binary and score.dtype != np.float32:
        score = score.astype(np.float32)  # exact for 0/1, half the memory
    elif not (max_points is None and binary) and score.dtype != np.float64:
        score = score.astype(np.float64)
    opt = _optional(coded, numeric, cols)
    meta: dict[str, Any] = {}
    if keep is not None and gone is not None:  # (keep is set only with gone)
        lines_all = np.asarray(line)
        meta["missing_cells"] = int(gone.sum())
        meta["missing_lines"] = [int(x) for x in lines_all[gone][:5]]
        model, item = _kept(model, keep), _kept(item, keep)
        opt = {k: _kept(v, keep) for k, v in opt.items()}
        line = lines_all[keep]
        questions = _kept(questions, keep)
    if questions is not None:
        meta["turn_questions"] = questions
    if opt.get("variant") is not None:
        model, meta["variants"] = _with_variant(model, opt["variant"])
    used = {r: c for r, c in cols.items() if r in ("model", "item", "score", *OPTIONAL)}
    if single_model is not None:
        used.pop("model", None)
    return ResultSet(
        path=display,
        model=model,
        item=item,
        score=score,
        line=line,
        max_points=max_points,
        columns=used,
        layout="long",
        meta=meta,
        **opt,
    )


def _kept(values: Any, keep: np.ndarray) -> Any:
    """Rows ``keep`` of a per-row column (coded or plain)."""
    if isinstance(values, Coded):
        return Coded(codes=values.codes[keep], labels=values.labels)
    return None if values is None else values[keep]


def _pairs_of(a: Coded, b: Coded) -> tuple[np.ndarray, list[tuple[str, str | None]]]:
    """Codes of the (a, b) combinations in first-appearance order, with their labels
    (``None`` for b where b is blank)."""
    k = max(len(b.labels), 1)
    combo = a.codes.astype(np.int64) * (k + 1) + (b.codes + 1)
    uniq, first, inverse = np.unique(combo, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # keep first-appearance order
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    labels: list[tuple[str, str | None]] = []
    for u in uniq[order]:
        i, j = divmod(int(u), k + 1)
        labels.append((a.labels[i], None if j == 0 else b.labels[j - 1]))
    return rank[inverse].astype(np.int32), labels


def _with_turn(item: Coded, turn: Coded) -> Coded:
    """Items ``id turn k``: each turn of a multi-turn item is scored on its own."""
    codes, pairs = _pairs_of(item, turn)
    return Coded(codes=codes, labels=[i if t is None else f"{i} turn {t}" for i, t in pairs])


def _with_variant(model: Coded, variant: Coded) -> tuple[Coded, dict[str, list[str]]]:
    """Versions of one model (prompt, template, checkpoint) become models ``name [variant]``."""
    codes, pairs = _pairs_of(model, variant)
    labels = [m if v is None else f"{m} [{v}]" for m, v in pairs]
    of = {label: [m, v or ""] for label, (m, v) in zip(labels, pairs)}
    return Coded(codes=codes, labels=labels), of


def _wide(
    table: _Columns,
    cols: dict[str, str],
    models: list[str],
    line: Lines,
    display: str,
) -> ResultSet:
    """One column per model: stack the columns into long form (model-major)."""
    n = table.num_rows
    m = len(models)
    item1 = _coded(table.column(cols["item"]), display, "item", line, required=True)
    scores = np.empty(m * n, dtype=np.float64)
    present = np.ones(m * n, dtype=bool)
    for j, name in enumerate(models):
        vals = _numeric(table.column(name), display, f"score for {name!r}", line, True)
        valid = ~np.isnan(vals)
        present[j * n : (j + 1) * n] = valid
        scores[j * n : (j + 1) * n] = np.where(valid, vals, 0.0)
    bad = ~np.isfinite(scores)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise InputError(
            display, f"score for {models[row // n]!r} is NaN or infinite", int(line[row % n])
        )
    model_codes = np.repeat(np.arange(m, dtype=np.int32), n)
    item_codes = np.tile(item1.codes, m)
    lines = np.tile(line, m)
    cluster = None
    if "cluster" in cols:
        c = _coded(table.column(cols["cluster"]), display, "cluster", line, required=False)
        cluster = Coded(codes=np.tile(c.codes, m)[present], labels=c.labels)
    # An empty cell is a missing (model, item) result, not a zero.
    return ResultSet(
        path=display,
        model=Coded(codes=model_codes[present], labels=model_labels(models)),
        item=Coded(codes=item_codes[present], labels=item1.labels),
        score=scores[present],
        line=lines[present],
        columns={
            "item": cols["item"],
            **({"cluster": cols["cluster"]} if "cluster" in cols else {}),
        },
        layout="wide",
        meta=_missing_meta(present, lines),
        cluster=cluster,
    )


def _missing_meta(present: np.ndarray, lines: np.ndarray) -> dict[str, Any]:
    gone = ~present
    if not gone.any():
        return {}
    return {"missing_cells": int(gone.sum()), "missing_lines": [int(x) for x in lines[gone][:5]]}


class _NotGrid(Exception):
    """The file is not a clean 0/1 grid; the per-row reader handles (and explains) it."""


def _grid(table: Any, cols: dict[str, str], line: Any, display: str) -> GridResults | None:
    """A complete, duplicate-free 0/1 long-form file, scattered batch by batch into its
    model x item matrix without keeping any per-row array.

    Every cell is marked when written: the file is a grid when the marked cells
    number exactly the rows and fill models x items. Anything else (a duplicate,
    a missing cell, a graded or bad value, a blank label) returns None, and the
    per-row reader reads the file again to name the rows involved.
    """
    try:
        return _grid_scatter(table, cols, line, display)
    except (_NotGrid, InputError, _Fallback, pa.ArrowException, OSError, UnicodeDecodeError):
        return None
    finally:
        pa.default_memory_pool().release_unused()


def _grid_scatter(table: Any, cols: dict[str, str], line: Any, display: str) -> GridResults:
    n = table.num_rows  # None for a CSV whose lines are counted while it is parsed
    unseen = np.iinfo(np.int64).max
    names = sorted({cols["model"], cols["item"], cols["score"]})
    models, items = _Coder(display, "model"), _Coder(display, "item")
    # cell[m, i] = score + 1, 0 while unwritten; the capacity grows by doubling.
    cell = np.zeros((0, 0), dtype=np.uint8)
    first = np.zeros(0, dtype=np.int64)  # first row of each model
    pos = 0
    pool = pa.default_memory_pool()
    for batch in table.batches(names, cols, plain=True):
        k = batch.num_rows
        if k == 0:
            continue
        index = {name: i for i, name in enumerate(batch.schema.names)}
        mc = models.add(batch.column(index[cols["model"]]), runs=True)
        ic = items.add(batch.column(index[cols["item"]]))
        plus1 = _grid_scores(batch.column(index[cols["score"]]), display, line, pos)
        del batch
        if mc.min() < 0 or ic.min() < 0:
            raise _NotGrid
        km, ki = models.size, items.size
        if km > cell.shape[0] or ki > cell.shape[1]:
            shape = (_grow(cell.shape[0], km), _grow(cell.shape[1], ki))
            cell = _enlarge(cell, shape)
            grown = np.full(shape[0] - first.size, unseen, dtype=np.int64)
            first = np.concatenate([first, grown])
        wide: type[np.signedinteger[Any]] = np.int64 if cell.size >= np.iinfo(np.int32).max else np.int32
        flat = mc.astype(wide, copy=False) * wide(cell.shape[1])
        flat += ic
        cell.reshape(-1)[flat] = plus1
        # A model's first row starts a run of equal codes: look only at run starts.
        starts = np.flatnonzero(mc[1:] != mc[:-1]) + 1
        np.minimum.at(first, mc[starts], starts + pos)
        first[mc[0]] = min(first[mc[0]], pos)
        pos += k
        del mc, ic, plus1, flat, starts
        pool.release_unused()
    if n is None:
        if pos != getattr(table, "data_lines", -1):
            raise _NotGrid  # blank lines or quoted line breaks: lines are not rows
        n = table.num_rows = pos
        line = RowLines(line.first, n)
    model_labels, item_labels = models.known, items.known
    if pos != n or model_labels is None or item_labels is None:
        raise _NotGrid
    if not (
        _clean_labels(model_labels, distinct=models.exact is None)
        and _clean_labels(item_labels, distinct=items.exact is None)
    ):
        raise _NotGrid  # blank or padded labels: the per-row reader merges them
    km, ki = models.size, items.size
    order = np.argsort(first[:km], kind="stable")
    order = order[first[order] < n]  # models by first appearance, as the per-row reader
    # Distinct cells written == rows: no duplicate; == models x items: none missing.
    if int(np.count_nonzero(cell)) != n or order.size * ki != n:
        raise _NotGrid
    pool.release_unused()  # the last batch's pages, before the matrix is allocated
    out = np.empty((order.size, ki), dtype=np.float32)
    for j, m in enumerate(order):
        np.subtract(cell[m, :ki], 1, out=out[j], dtype=np.float32)
    del cell
    raw = cast("list[str]", model_labels.to_pylist())  # clean: no null label
    used = {r: c for r, c in cols.items() if r in ("model", "item", "score", *OPTIONAL)}

    def per_row() -> ResultSet:
        return _long(table, cols, line, display, grid=False)

    return GridResults(
        path=display,
        models=[raw[int(m)] for m in order],
        items=cast("list[str]", item_labels.to_pylist()),
        value=out,
        first_rows=first[order],
        n_rows=n,
        line=line,
        reload=per_row,
        columns=used,
    )


def _grid_scores(arr: pa.Array[Any], display: str, line: Any, pos: int) -> np.ndarray:
    """Scores of one batch as uint8 score + 1; _NotGrid unless every score is 0 or 1."""
    t = arr.type
    if arr.null_count:
        raise _NotGrid
    if pa.types.is_boolean(t):
        v = _primitive(arr.cast(pa.uint8()))
    elif pa.types.is_int8(t) or pa.types.is_uint8(t):
        v = _primitive(arr).view(np.uint8)
    elif pa.types.is_integer(t) or pa.types.is_floating(t):
        v = _primitive(arr)
    else:  # words such as yes / no
        col = pa.chunked_array([arr])
        v = _numeric(col, display, "score", line[pos : pos + len(arr)])
    if v.dtype == np.uint8:
        if v.size and v.max() > 1:
            raise _NotGrid
    elif not np.all((v == 0) | (v == 1)):
        raise _NotGrid
    return v.astype(np.uint8) + np.uint8(1)


def _grow(have: int, need: int) -> int:
    return have if need <= have else max(need, 2 * have, 64)


def _enlarge(a: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    b = np.zeros(shape, dtype=a.dtype)
    b[: a.shape[0], : a.shape[1]] = a
    return b
