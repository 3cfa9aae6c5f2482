"""Compiled regular expressions kept between runs of the ``benchaudit`` command.

A card check uses a few hundred patterns (the claim reader's families, the
Markdown parser's, the command line's), and turning their text into the
matcher's program costs more than everything else the check does. The program
depends only on the pattern, its flags and the interpreter, so the command
keeps the programs it made in the user's cache folder and hands them to the
matcher on later runs instead of compiling again.

The program format belongs to CPython (``re._compiler`` builds it, ``_sre.compile``
takes it), so everything here is guarded: the cache file is named for the
interpreter (implementation, exact version, the matcher's magic number and code
size) and for this release; a program is stored only when the pattern it gives
equals the one :func:`re.compile` gives (a ``re.Pattern`` compares equal only
with the same flags, groups and code); a file that does not load, an entry that
does not fit, or a Python without these internals falls back to the ordinary
compiler. Matching is therefore that of :mod:`re` exactly.

Only the command line installs it (:func:`install`); ``import benchaudit`` and the
Python API leave :mod:`re` alone. ``BENCHAUDIT_NO_CACHE=1`` turns it off;
``BENCHAUDIT_CACHE_DIR`` moves it (default: ``$XDG_CACHE_HOME/benchaudit`` or
``~/.cache/benchaudit``; ``~/Library/Caches/benchaudit`` on macOS,
``%LOCALAPPDATA%\\benchaudit\\Cache`` on Windows). The folder holds nothing else
and may be deleted at any time.
"""

from __future__ import annotations

import importlib
import os
import sys
from array import array
from collections.abc import Callable
from typing import Any

from benchaudit import __version__
from benchaudit.cache_files import cache_dir as cache_dir
from benchaudit.cache_files import read as _read
from benchaudit.cache_files import write as _write


def _internal(name: str, before_3_11: str) -> Any:
    """A module of :mod:`re`'s implementation (typed loosely: it is private)."""
    try:
        return importlib.import_module(name)
    except ImportError:  # pragma: no cover - Python 3.10
        return importlib.import_module(before_3_11)


_compiler = _internal("re._compiler", "sre_compile")
_parser = _internal("re._parser", "sre_parse")
#: CPython's matcher (the compiler above imported it); None on an interpreter without one.
_sre: Any = sys.modules.get("_sre")

#: Beyond this many programs the file is started afresh (patterns built from input
#: text would otherwise grow it without bound).
MAX_ENTRIES = 4000
_DEBUG = 128  # re.DEBUG: the compiler prints; never served from the cache

#: (final flags, code, groups - 1, group index, index group): ``_sre.compile``'s arguments,
#: the code as the bytes of an unsigned array (a tenth of the time to load of a list).
Entry = tuple[int, bytes, int, dict[str, int], tuple[Any, ...]]
_CODE = "I"
#: A program no run has used in this many saves is dropped: a pattern whose text
#: changes from run to run (one built from a set, in the Markdown parser) would
#: otherwise pile up.
KEEP_SAVES = 64


def file_name() -> str:
    """The cache file's name: one per interpreter build and benchaudit release."""
    impl = sys.implementation.name
    magic = getattr(_sre, "MAGIC", 0)
    size = getattr(_sre, "CODESIZE", 0)
    return f"regex-v1-{impl}-{sys.hexversion:x}-{magic}-{size}-{__version__}.marshal"


class ProgramCache:
    """Programs by (pattern, flags); :meth:`compile` stands in for ``re._compiler.compile``."""

    def __init__(self, path: str | None, original: Callable[..., Any]) -> None:
        self.path = path
        self.original = original
        self.programs: dict[tuple[str, int], Entry] = {}
        #: the save at which each program was last used
        self.last_used: dict[tuple[str, int], int] = {}
        self.generation = 0
        self.used: set[tuple[str, int]] = set()
        self.added = 0
        if path:
            self.generation, self.programs, self.last_used = _load(path)

    def compile(self, p: Any, flags: int = 0) -> Any:
        if not isinstance(p, str) or int(flags) & _DEBUG or one_class(p):
            return self.original(p, flags)
        key = (p, int(flags))
        entry = self.programs.get(key)
        if entry is not None:
            try:
                compiled = _sre.compile(p, entry[0], _code_list(entry[1]), *entry[2:])
            except Exception:  # noqa: BLE001 - an entry that does not fit: compile afresh
                del self.programs[key]
            else:
                self.used.add(key)
                return compiled
        compiled = self.original(p, flags)
        made = _program(p, int(flags))
        try:
            same = (
                made is not None
                and _sre.compile(p, made[0], _code_list(made[1]), *made[2:]) == compiled
            )
        except Exception:  # noqa: BLE001 - not storable: the compiled pattern still serves
            same = False
        if same and made is not None and len(self.programs) < MAX_ENTRIES:
            self.programs[key] = made
            self.used.add(key)
            self.added += 1
        return compiled

    def save(self) -> None:
        """Write the programs when this run added any (atomically; a failure is ignored).

        Programs unused for :data:`KEEP_SAVES` saves are left out."""
        if not self.added or not self.path:
            return
        generation = self.generation + 1
        last_used = {k: g for k, g in self.last_used.items() if k in self.programs}
        last_used.update(dict.fromkeys(self.used, generation))
        keep = {k for k, g in last_used.items() if g > generation - KEEP_SAVES}
        programs = {k: v for k, v in self.programs.items() if k in keep}
        last_used = {k: last_used[k] for k in programs}
        if _write(self.path, (generation, programs, last_used)):
            self.generation, self.programs, self.last_used = generation, programs, last_used
            self.added = 0


def one_class(p: str) -> bool:
    """Whether ``p`` is a single class of ASCII characters (``[...]``) and nothing else.

    Such a pattern is compiled in a few tens of microseconds, and is not kept: the
    Markdown parser builds one from a set of characters, whose order (and so the
    pattern's text) changes from run to run, and keeping it would rewrite the cache file
    on every run. (A class with other characters is kept: its compiling builds a table
    of the whole range, ten times the work.)"""
    if len(p) < 3 or p[0] != "[" or p[-1] != "]" or not p.isascii():
        return False
    i = 1
    while i < len(p) - 1:
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if c in "[]":
            return False
        i += 1
    return i == len(p) - 1


def _program(p: str, flags: int) -> Entry | None:
    """What ``re._compiler.compile`` hands to ``_sre.compile`` for ``p``, as plain data."""
    try:
        parsed = _parser.parse(p, flags)
        code = array(_CODE, _compiler._code(parsed, flags)).tobytes()
        groupindex = {str(k): int(v) for k, v in parsed.state.groupdict.items()}
        indexgroup: list[Any] = [None] * parsed.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        return (
            int(flags | parsed.state.flags),
            code,
            parsed.state.groups - 1,
            groupindex,
            tuple(indexgroup),
        )
    except Exception:  # noqa: BLE001 - internals that changed: no entry, ordinary compiling
        return None


def _code_list(code: bytes) -> list[int]:
    values = array(_CODE)
    values.frombytes(code)
    return values.tolist()


def _load(path: str) -> tuple[int, dict[tuple[str, int], Entry], dict[tuple[str, int], int]]:
    data = _read(path)
    if not (isinstance(data, tuple) and len(data) == 3 and isinstance(data[0], int)):
        return 0, {}, {}
    generation, programs, last_used = data
    if (
        not isinstance(programs, dict)
        or not isinstance(last_used, dict)
        or len(programs) > MAX_ENTRIES
    ):
        return 0, {}, {}
    return generation, programs, last_used


def remembered(name: str, text: str, parse: Callable[[str], Any]) -> Any:
    """``parse(text)``, kept in the cache folder while ``text`` is unchanged.

    For the packaged data files a run reads whole (the benchmark registry): plain
    data only (what :mod:`marshal` writes); anything else is parsed every time. Without
    the command line's cache (the Python API, tests) this is ``parse(text)``.
    """
    cache = _INSTALLED
    if cache is None or not cache.path:
        return parse(text)
    # The text itself is kept beside its parse and compared: a few kilobytes to read, and no
    # hash module to import (hashlib's first import costs more than the comparison).
    path = os.path.join(os.path.dirname(cache.path), f"{name}-v2-{__version__}.marshal")
    kept = _read(path)
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == text:
        return kept[1]
    value = parse(text)
    _write(path, (text, value))
    return value


_INSTALLED: ProgramCache | None = None


def install() -> ProgramCache | None:
    """Serve this process's regex compiling from the cache; saved when the process exits."""
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    folder = cache_dir()
    if folder is None or _sre is None or not hasattr(_compiler, "_code"):
        return None
    if array(_CODE).itemsize != getattr(_sre, "CODESIZE", 0):
        return None  # pragma: no cover - a build whose code words are not C ints
    if not hasattr(_parser, "parse") or not callable(getattr(_compiler, "compile", None)):
        return None  # pragma: no cover - internals of another interpreter
    cache = ProgramCache(os.path.join(folder, file_name()), _compiler.compile)
    _compiler.compile = cache.compile
    import atexit

    atexit.register(cache.save)
    _INSTALLED = cache
    return cache


def uninstall() -> None:
    """Put the ordinary compiler back (and save what was added)."""
    global _INSTALLED
    if _INSTALLED is None:
        return
    _compiler.compile = _INSTALLED.original
    _INSTALLED.save()
    _INSTALLED = None
