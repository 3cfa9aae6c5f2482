"""Readers: file -> :class:`~benchaudit.evidence.Source`. They never write.

Each reader module in this package defines ``READER = Reader(...)``: a kind, a
``sniff`` that scores how well a file fits (0 = not at all, 1 = certainly),
and a ``read``. Detection picks the best-scoring reader; ``--kind`` forces one.
Reader modules import only the standard library at module level so that
detecting a markdown file never pulls in numpy or pandas.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError, UnknownKindError

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source

#: How much of a file detection looks at.
PROBE_BYTES = 64 * 1024

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
}


@dataclass
class Probe:
    """The first bytes of a file, and cheap views of them, for sniffing."""

    path: Path
    head: bytes
    size: int
    _text: str | None = field(default=None, repr=False)

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


@dataclass
class Reader:
    kind: str
    sniff: Callable[[Probe], float]
    read: Callable[[Path, str, Context], Source | list[Source]]
    description: str = ""
    #: Largest file this reader takes; ``None`` for readers that stream. A reader
    #: that holds a whole file in memory refuses larger ones up front, with a
    #: message, rather than failing halfway through with MemoryError.
    max_bytes: int | None = 1 << 30


_READERS: list[Reader] | None = None

#: Modules of this package that hold no reader; ``resultset`` imports numpy,
#: which detecting a markdown file must not pay for.
NOT_READERS = {"resultset"}


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
        found = []
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
            if info.name.startswith("_") or info.name in NOT_READERS:
                continue
            spec = _reader_of(info.name)
            if spec is not None:
                found.append(spec)
        _READERS = found
    return _READERS


def probe(path: Path, display: str) -> Probe:
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(PROBE_BYTES)
    except FileNotFoundError:
        raise InputError(display, "no such file") from None
    except IsADirectoryError:
        raise InputError(display, "is a directory") from None
    except PermissionError:
        raise InputError(display, "permission denied") from None
    except OSError as exc:
        raise InputError(display, f"cannot read: {exc.strerror or exc}") from None
    return Probe(path=path, head=head, size=size)


def detect(p: Probe, display: str, forced: str | None = None) -> Reader:
    """The reader for a file: forced by kind, or the best sniff score."""
    if p.size == 0:
        raise InputError(display, "empty file")
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
        return max(matching, key=lambda r: _sniff(r, p))
    scored = [(_sniff(r, p), i, r) for i, r in enumerate(candidates)]
    best_score, _, best = max(scored, key=lambda t: (t[0], -t[1]), default=(0.0, 0, None))
    if best is None or best_score <= 0:
        if p.is_binary():
            raise UnknownKindError(display, "binary file of unknown format")
        raise UnknownKindError(display, "cannot tell what kind of input this is (use --kind)")
    return best


def _sniff(reader: Reader, p: Probe) -> float:
    """A reader's guess; one that trips over the head of a hostile file (a JSON nested
    2,000 deep, a lone carriage return in a CSV) does not recognise it."""
    try:
        return reader.sniff(p)
    except Exception:  # noqa: BLE001 - a sniff is a guess, and must not end the run
        if os.environ.get("BENCHAUDIT_DEBUG"):
            raise
        return 0.0


def expand(paths: list[str]) -> list[tuple[Path, str, bool]]:
    """Files to read, each with whether it was named (rather than found by walking
    a directory, sorted, hidden entries skipped)."""
    out: list[tuple[Path, str, bool]] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    f = Path(root) / name
                    if name.startswith("."):
                        continue
                    probe_name = name.lower()
                    if any(probe_name.endswith(s) for s in WALK_SUFFIXES):
                        out.append((f, f.as_posix(), False))
        else:
            out.append((p, raw, True))
    return out


def load(path: Path, display: str, ctx: Context, forced: str | None = None) -> list[Source]:
    """Read one file into one or more sources."""
    p = probe(path, display)
    reader = detect(p, display, forced)
    if reader.max_bytes is not None and p.size > reader.max_bytes:
        raise InputError(
            display,
            f"{p.size / 2**20:,.0f} MB is more than the {reader.max_bytes / 2**20:,.0f} MB "
            f"benchaudit reads into memory for {reader.kind} input; split the file "
            "(per-item CSV / TSV / JSONL / Parquet files are streamed at any size)",
        )
    try:
        got: Any = reader.read(path, display, ctx)
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
    return got if isinstance(got, list) else [got]
