"""The command's cache folder and the reading and writing of its files.

Shared by the start-up caches (:mod:`benchaudit.code_cache`, :mod:`benchaudit.regex_cache`,
:mod:`benchaudit.method_cache`). It imports only modules the interpreter has loaded before
it starts, so that the code cache can be installed before anything else is imported.
"""

from __future__ import annotations

import marshal
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def cache_dir() -> str | None:
    """The folder for the caches, or None when they are turned off."""
    if os.environ.get("BENCHAUDIT_NO_CACHE"):
        return None
    chosen = os.environ.get("BENCHAUDIT_CACHE_DIR")
    if chosen:
        return chosen
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "benchaudit", "Cache")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/benchaudit")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "benchaudit")


def read(path: str) -> Any:
    """What :func:`write` wrote to ``path``, or None."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        # loads of the bytes, not load of the file: load reads the file object by object,
        # which costs eight times the rest of loading a card's programs.
        return marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def write(path: str, value: Any) -> bool:
    """``value`` marshalled to ``path`` (see :func:`write_bytes`)."""
    try:
        data = marshal.dumps(value)
    except ValueError:
        return False  # not plain data: nothing kept
    return write_bytes(path, [data])


def write_bytes(path: str, pieces: list[bytes]) -> bool:
    """``pieces`` written to ``path`` through a file of this process's own, then renamed
    over it, so a concurrent run reads the old file or the new one, never half of one."""
    folder = os.path.dirname(path)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}")
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.writelines(pieces)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, ValueError):
        return False  # a read-only home or a full disk costs speed, never a run
    return True
