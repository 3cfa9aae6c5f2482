"""Compiled methods of the record classes, kept between runs of the ``benchaudit`` command.

``@dataclass`` writes the source of each class's ``__init__``, ``__repr__``, ``__eq__``
(and, frozen, ``__setattr__`` ...) as text and compiles it when the class is made. A
model-card check makes about sixty such classes (the claim reader's records, the
findings, the Markdown parser's tokens), and compiling those few hundred small functions
took about a fifth of the whole check. What the compiler makes of a text depends only on
the text and the interpreter, so the command keeps the code objects in its cache folder
(beside :mod:`benchaudit.regex_cache`'s programs) and hands them to ``exec`` in place of
the text. The decorator runs as it always does (fields, defaults, checks); only the
compiling of the text is skipped, and what runs is the code ``exec`` would have compiled
from that same text: keyed by the whole text, compiled as ``exec`` compiles it
(file name ``<string>``, no inherited ``__future__`` flags).

The file is named for the interpreter build and this release (code objects are not
portable between versions); a file that does not load, or an entry that is not a code
object, falls back to compiling. Like the ``__pycache__`` folders of an installed package,
the cache folder must be writable only by its user. Only the command line installs it
(:func:`install`); ``import benchaudit`` and the Python API leave :mod:`dataclasses` alone.
``BENCHAUDIT_NO_CACHE=1`` turns it off with the regex cache.
"""

from __future__ import annotations

import builtins
import os
import sys
from types import CodeType
from typing import Any

from benchaudit import __version__
from benchaudit.cache_files import cache_dir
from benchaudit.cache_files import read as _read
from benchaudit.cache_files import write as _write
from benchaudit.regex_cache import KEEP_SAVES

#: Beyond this many texts the file is started afresh.
MAX_ENTRIES = 4000
_exec = builtins.exec


def file_name() -> str:
    """The cache file's name: one per interpreter build and benchaudit release."""
    impl = sys.implementation.name
    return f"methods-v1-{impl}-{sys.hexversion:x}-{__version__}.marshal"


class MethodCache:
    """Code objects by the text they were compiled from; :meth:`exec` stands in for the
    ``exec`` that :mod:`dataclasses` calls."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.codes: dict[str, CodeType] = {}
        #: the save at which each text was last used
        self.last_used: dict[str, int] = {}
        self.generation = 0
        self.used: set[str] = set()
        self.added = 0
        if path:
            self._load(path)

    def _load(self, path: str) -> None:
        data = _read(path)
        if not (isinstance(data, tuple) and len(data) == 3 and isinstance(data[0], int)):
            return
        generation, codes, last_used = data
        if not (isinstance(codes, dict) and isinstance(last_used, dict)):
            return
        if len(codes) > MAX_ENTRIES:
            return
        self.generation, self.codes, self.last_used = generation, codes, last_used

    def code(self, source: str) -> CodeType:
        """What ``exec(source)`` compiles, from the cache when the text was seen before."""
        code = self.codes.get(source)
        if type(code) is not CodeType:
            # exec compiles a text as a module named "<string>", with the future flags
            # of its caller (dataclasses has none): the same call here.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            if len(self.codes) < MAX_ENTRIES:
                self.codes[source] = code
                self.added += 1
        self.used.add(source)
        return code

    def exec(self, source: Any, *args: Any, **kwargs: Any) -> None:
        if type(source) is str:
            source = self.code(source)
        _exec(source, *args, **kwargs)

    def save(self) -> None:
        """Write the code objects when this run added any (atomically; a failure is
        ignored). Texts unused for :data:`KEEP_SAVES` saves are left out."""
        if not self.added or not self.path:
            return
        generation = self.generation + 1
        last_used = {k: g for k, g in self.last_used.items() if k in self.codes}
        last_used.update(dict.fromkeys(self.used, generation))
        codes = {
            k: v for k, v in self.codes.items() if last_used.get(k, 0) > generation - KEEP_SAVES
        }
        last_used = {k: last_used[k] for k in codes}
        if _write(self.path, (generation, codes, last_used)):
            self.generation, self.codes, self.last_used = generation, codes, last_used
            self.added = 0


_INSTALLED: MethodCache | None = None


def install() -> MethodCache | None:
    """Serve the compiling of :mod:`dataclasses`' methods from the cache; saved when the
    process exits."""
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    folder = cache_dir()
    if folder is None:
        return None
    import dataclasses

    # dataclasses calls exec by its builtin name; a module global of that name comes first.
    if "exec" in vars(dataclasses):
        return None  # pragma: no cover - someone else's hook: leave it
    cache = MethodCache(os.path.join(folder, file_name()))
    setattr(dataclasses, "exec", cache.exec)  # noqa: B010 - an attribute mypy does not know
    import atexit

    atexit.register(cache.save)
    _INSTALLED = cache
    return cache


def uninstall() -> None:
    """Let :mod:`dataclasses` compile again (and save what was added)."""
    global _INSTALLED
    if _INSTALLED is None:
        return
    import dataclasses

    if vars(dataclasses).get("exec") == _INSTALLED.exec:
        delattr(dataclasses, "exec")
    _INSTALLED.save()
    _INSTALLED = None
