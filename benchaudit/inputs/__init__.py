"""Readers: file -> :class:`~benchaudit.evidence.Source`. They never write.

A reader returns its sources with what it has to say about the file on them
(``Source.notes``, ``Source.detection``); the engine moves those into the report.

Each reader module in this package defines ``READER = Reader(...)``: a kind, a
``sniff`` that scores how well a file fits (0 = not at all, 1 = certainly),
and a ``read``. Detection picks the best-scoring reader; ``--kind`` forces one.
Reader modules import only the standard library at module level so that
detecting a markdown file never pulls in numpy or pandas.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError, UnknownKindError

if TYPE_CHECKING:
    from benchaudit.context import RunContext as Context
    from benchaudit.evidence import Source

#: The message for an empty input (skipped with a note in a directory walk).
EMPTY = "empty file"

#: How much of a file detection looks at.
PROBE_BYTES = 64 * 1024
#: The first bytes of a gzip stream.
GZIP_MAGIC = b"\x1f\x8b"

#: Extensions a directory walk picks up.
WALK_SUFFIXES = {
    ".md",
    ".markdown",
    ".txt",
    ".rst",
    ".html",
    ".htm",
    ".pdf",
    ".csv",
    ".tsv",
    ".jsonl",
    ".json",
    ".parquet",
    ".eval",
    ".csv.gz",
    ".tsv.gz",
    ".jsonl.gz",
    ".json.gz",
}

#: Field separators a delimited text file may use, tried in this order.
DELIMITERS = (",", "\t", ";", "|")


@dataclass
class Probe:
    """The first bytes of a file, and cheap views of them, for sniffing."""

    path: Path
    head: bytes
    size: int
    _text: str | None = field(default=None, repr=False)
    #: Column roles named by --column / ``columns = {...}``: honoured before any guess.
    columns: dict[str, str] = field(default_factory=dict)
    #: The kind forced by --kind: sniffs then score fit only and never refuse as ambiguous.
    forced: str | None = None
    #: Every kind's best sniff score on this head, best first (set by :func:`detect`).
    readings: list[Any] = field(default_factory=list)

    @property
    def suffix(self) -> str:
        s = self.path.name.lower()
        for double in (".jsonl.gz", ".jsonl.zst", ".json.gz"):
            if s.endswith(double):
                return double
        return self.path.suffix.lower()

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.head.decode("utf-8", errors="replace").lstrip("\ufeff")
        return self._text

    def first_line(self) -> str:
        return self.text.split("\n", 1)[0].strip("\r")

    def is_binary(self) -> bool:
        return b"\x00" in self.head[:8192]

    @property
    def delimiter(self) -> str:
        """The field separator of a delimited text file, from its content."""
        return delimiter_of(self.text, self.suffix)


def delimiter_of(text: str, suffix: str) -> str:
    """The separator that splits the first lines into the same number (two or more) of
    fields; the extension's own (tab for .tsv, else comma) when several or none do."""
    import csv
    import io

    default = "\t" if suffix == ".tsv" else ","
    lines = [ln for ln in text.split("\n")[:21] if ln.strip()]
    if len(lines) > 1 and len(text) >= PROBE_BYTES:
        lines = lines[:-1]  # the probe may have cut the last line
    best, best_width = default, 0
    for delim in (default, *(d for d in DELIMITERS if d != default)):
        try:
            widths = {len(r) for r in csv.reader(io.StringIO("\n".join(lines)), delimiter=delim)}
        except csv.Error:
            continue
        if len(widths) == 1 and (width := widths.pop()) >= 2:
            if delim == default:
                return delim
            if width > best_width:
                best, best_width = delim, width
    return best


def file_delimiter(path: Path) -> str:
    """:func:`delimiter_of` on the first bytes of a file."""
    with open(path, "rb") as fh:
        head = fh.read(PROBE_BYTES)
    return delimiter_of(head.decode("utf-8", errors="replace").lstrip("\ufeff"), _suffix(path))


def _suffix(path: Path) -> str:
    return path.suffix.lower()


@dataclass
class Reader:
    """One input kind's reader: how well a file fits it (``sniff``) and how to read it."""

    kind: str
    sniff: Callable[[Probe], float]
    read: Callable[[Path, str, Context], Source | list[Source]]
    description: str = ""
    #: Largest file this reader takes; ``None`` for readers that stream. A reader
    #: that holds a whole file in memory refuses larger ones up front, with a
    #: message, rather than failing halfway through with MemoryError.
    max_bytes: int | None = 1 << 30
    #: Extensions this reader parses: a kind forced with --kind goes to the reader of
    #: the file's format when no reader of that kind recognises the content.
    formats: tuple[str, ...] = ()
    #: The configuration key (in MB) that overrides ``max_bytes``, if the reader has one.
    max_mb_key: str = ""


_READERS: list[Reader] | None = None

#: Modules of this package that hold no reader, left out of detection: ``resultset``
#: imports numpy, and the claim reader's modules compile hundreds of patterns, which
#: detecting a CSV file must not pay for (``tests/core/test_startup.py`` checks that none of
#: them defines ``READER``).
NOT_READERS = {
    "blocks",
    "claims",
    "comparisons",
    "joining",
    "limits",
    "numbers",
    "premises",
    "protocols",
    "resultset",
    "scoping",
    "scores",
    "sentences",
    "tables",
}


#: Suffixes that only one reader ever claims. Detecting them imports that reader
#: alone, so a pre-commit run over README.md does not import every reader.
FAST_PATH = {".md": "text", ".markdown": "text", ".rst": "text"}


def _reader_of(module_name: str) -> Reader | None:
    module = importlib.import_module(f"{__name__}.{module_name}")
    spec = getattr(module, "READER", None)
    return spec if isinstance(spec, Reader) else None


def readers() -> list[Reader]:
    """All reader specs found in this package, in module-name order."""
    global _READERS
    if _READERS is None:
        import pkgutil  # here: a Markdown file is detected by its suffix, without the walk

        found = []
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
            if info.name.startswith("_") or info.name in NOT_READERS:
                continue
            spec = _reader_of(info.name)
            if spec is not None:
                found.append(spec)
        _READERS = found
    return _READERS


def probe(path: Path, display: str, named: bool = False) -> Probe:
    from benchaudit import fs

    if named and fs.escapes(path):
        raise InputError(display, "is a link to a file outside the working folder; not read")
    size = fs.require_regular(path, display).st_size
    try:
        with open(path, "rb") as fh:
            head = fh.read(PROBE_BYTES)
    except OSError as exc:
        raise fs.os_error(display, exc) from None
    return Probe(path=path, head=head, size=size)


def detect(p: Probe, display: str, forced: str | None = None) -> Reader:
    """The reader for a file: forced by kind, or the best sniff score."""
    if p.size == 0:
        raise InputError(display, EMPTY)
    fast = FAST_PATH.get(p.suffix)
    if fast and not forced:
        spec = _reader_of(fast)
        if spec is not None and spec.sniff(p) >= 0.5:
            return spec
    candidates = readers()
    if forced:
        matching = [r for r in candidates if r.kind == forced]
        if not matching:
            kinds = sorted({r.kind for r in candidates})
            raise InputError(display, f"unknown kind {forced!r} (known: {', '.join(kinds)})")
        p.forced = forced
        best_score, best = max(((_sniff(r, p), r) for r in matching), key=lambda t: t[0])
        if best_score <= 0:
            # Nothing of that kind recognises the content: the reader of the file's
            # format reads it (and says what it misses), never one of another format.
            by_format = [r for r in matching if p.suffix in r.formats]
            if by_format:
                return by_format[0]
        return best
    scored = [(_sniff(r, p), i, r) for i, r in enumerate(candidates)]
    top = max(scored, key=lambda t: (t[0], -t[1]), default=None)
    if top is None or top[0] <= 0:
        if p.is_binary():
            raise UnknownKindError(display, "binary file of unknown format")
        raise UnknownKindError(display, "cannot tell what kind of input this is " + _hint(p))
    from benchaudit.inputs._detection import check_margin, scored_readings

    p.readings = scored_readings([(s, r) for s, _, r in scored])
    check_margin(p.readings, display)  # two kinds within the margin: ask, never pick
    return top[2]


def _hint(p: Probe) -> str:
    """The flags that can read a file detection cannot place: ``--kind``, and for a table
    of per-item rows the ``--column`` roles (its columns may just be spelled unusually)."""
    table = p.suffix in (".csv", ".tsv", ".txt", ".jsonl", ".parquet") or (
        p.suffix == ".json" and p.text.lstrip().startswith("[")
    )
    if not table:
        return "(use --kind)"
    return (
        "(use --kind; for per-item results name the columns with --column model=NAME "
        "--column item=NAME --column score=NAME)"
    )


def check_baseline_model(sources: list[Source], name: str | None) -> None:
    """``--baseline-model`` must name a model of the per-item inputs; a typo is an
    error listing the models, never a silent fall-back to the first one."""
    if not name:
        return
    models: list[str] = []
    for s in sources:
        if s.kind in ("results", "scaled-results"):
            models.extend(m for m in getattr(s.data, "models", ()) if m not in models)
    if models and name not in models:
        from benchaudit.errors import ConfigError

        shown = ", ".join(repr(m) for m in models[:20]) + (" ..." if len(models) > 20 else "")
        raise ConfigError(
            f"--baseline-model {name!r} is not a model of the inputs (models: {shown})"
        )


def _sniff(reader: Reader, p: Probe) -> float:
    """A reader's guess; one that trips over the head of a hostile file (a JSON nested
    2,000 deep, a lone carriage return in a CSV) does not recognise it."""
    try:
        return reader.sniff(p)
    except Exception:  # noqa: BLE001 - a sniff is a guess, and must not end the run
        if os.environ.get("BENCHAUDIT_DEBUG"):
            raise
        return 0.0


def expand(paths: list[str], notes: list[str] | None = None) -> list[tuple[Path, str, bool]]:
    """Files to read, each with whether it was named (rather than found by walking
    a directory, sorted, hidden entries skipped). A walk stays inside its folder
    (:func:`benchaudit.fs.walk`); what it leaves out is said in ``notes``."""
    from benchaudit import fs

    out: list[tuple[Path, str, bool]] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = list(fs.walk(p, notes, wanted=_walked_suffix))
            tail = "_results.jsonl"
            evaluated = {
                f.with_name(f.name[: -len(tail)])
                for f in found
                if f.name.endswith(tail) and len(f.name) > len(tail)
            }
            for f in found:
                if f in evaluated and f.name.endswith(".jsonl"):
                    # human-eval writes ``samples.jsonl_results.jsonl`` beside the samples
                    # it ran: the verdicts are there, the completions add nothing.
                    if notes is not None:
                        notes.append(
                            f"{f.as_posix()}: left out; its evaluated results "
                            f"{f.name}_results.jsonl are read"
                        )
                    continue
                out.append((f, f.as_posix(), False))
        else:
            out.append((p, raw, True))
    return out


def _walked_suffix(f: Path) -> bool:
    probe_name = f.name.lower()
    return any(probe_name.endswith(s) for s in WALK_SUFFIXES)


def load(
    path: Path, display: str, ctx: Context, forced: str | None = None, named: bool = False
) -> list[Source]:
    """Read one file into one or more sources."""
    p = probe(path, display, named)
    if p.head[:2] == GZIP_MAGIC:
        from benchaudit.inputs._gzip import gunzip

        path = gunzip(path, display, ctx)
        p = probe(path, display, named)
    p.columns = dict(getattr(getattr(ctx, "config", None), "columns", None) or {})
    reader = detect(p, display, forced)
    cap = reader.max_bytes
    if reader.max_mb_key:
        configured = getattr(getattr(ctx, "config", None), reader.max_mb_key.replace("-", "_"), None)
        cap = int(configured) << 20 if configured else cap
    if cap is not None and p.size > cap:
        key = f" ({reader.max_mb_key})" if reader.max_mb_key else ""
        raise InputError(
            display,
            f"{p.size / 2**20:,.0f} MB is more than the {cap / 2**20:,.0f} MB "
            f"benchaudit reads into memory for {reader.kind} input{key}; split the file "
            "(per-item CSV / TSV / JSONL / Parquet files are streamed at any size)",
        )
    try:
        got: Source | list[Source] = reader.read(path, display, ctx)
    except InputError:
        raise
    except UnicodeDecodeError as exc:
        raise InputError(display, f"not valid UTF-8 text (byte {exc.start})") from None
    except MemoryError:
        raise InputError(display, "too large to read into memory") from None
    except RecursionError:
        raise InputError(display, "nested too deeply to read") from None
    except Exception as exc:
        # A reader that trips over a malformed file must still answer in one line
        # naming the file; BENCHAUDIT_DEBUG keeps the traceback for developers.
        if os.environ.get("BENCHAUDIT_DEBUG"):
            raise
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(display, f"cannot read as {reader.kind}: {detail}") from None
    sources: list[Source] = got if isinstance(got, list) else [got]
    if all(s.kind == "document" for s in sources):
        return sources  # detection is recorded for per-item sources only (_detection.entries)
    from benchaudit.inputs._detection import entries

    for source, entry in entries(sources, p, reader, forced):
        source.detection = entry  # detection evidence, for the JSON report
    return sources
