"""gzip'd inputs (``scores.csv.gz``, ``samples.jsonl.gz``): decompressed, with a cap,
into a private temporary file that the readers then read like any other.

Readers may come back to their file later (a large result set re-reads rows
only when a finding needs them), so the copy lives until the process ends.
"""

from __future__ import annotations

import atexit
import gzip
import shutil
import tempfile
import zlib
from pathlib import Path
from typing import Any

from benchaudit.errors import InputError
from benchaudit.inputs.limits import decompressed_bytes, exceeded

_DIRS: list[str] = []


def _cleanup() -> None:
    for d in _DIRS:
        shutil.rmtree(d, ignore_errors=True)


def inner_name(path: Path) -> str:
    """``scores.csv.gz`` -> ``scores.csv``; a gzip'd file without ``.gz`` keeps its name."""
    name = path.name
    for ext in (".gz", ".gzip"):
        if name.lower().endswith(ext):
            return name[: -len(ext)] or "input"
    return name


def gunzip(path: Path, display: str, ctx: Any) -> Path:
    """The decompressed copy of ``path``; refused once it passes the configured cap."""
    limit = decompressed_bytes(ctx)
    if not _DIRS:
        atexit.register(_cleanup)
    tmp = tempfile.mkdtemp(prefix="benchaudit-")
    _DIRS.append(tmp)
    out = Path(tmp) / inner_name(path)
    size = 0
    try:
        with gzip.open(path, "rb") as src, open(out, "wb") as dst:
            while True:
                block = src.read(1 << 20)
                if not block:
                    break
                size += len(block)
                if size > limit:
                    raise exceeded(
                        display, "decompresses past the cap", "max-decompressed-mb", limit
                    )
                dst.write(block)
    except (OSError, EOFError, zlib.error) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise InputError(display, f"damaged gzip data ({exc.__class__.__name__})") from None
    except InputError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
