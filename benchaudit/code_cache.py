"""The compiled modules a ``benchaudit`` command imports, kept together in one file.

A model-card check imports about two hundred and fifty modules (the standard library's,
the Markdown parser's, its own), and for each of them the import system looks along
``sys.path`` or the package's folder, checks several file names, opens the bytecode file
in ``__pycache__``, reads and checks its header: about a tenth of the check, before any
module runs. The command keeps the bytecode of every module it imported from a plain
source file in one file of its cache folder instead, and an import it has seen before
costs one ``stat`` of the source and one read of its code.

What runs is what the import system would run, exactly:

* an entry holds the bytes of the module's own ``__pycache__`` file (past its header),
  taken only while that file was valid for the source, and is served only while the
  source keeps the size and modification time (in nanoseconds) it had then: the check
  the bytecode file itself is trusted on, made stricter;
* the module is the one the import system would find: an entry is served only while the
  folder it was found in (on ``sys.path`` for a top-level module, on the package's
  ``__path__`` for the others) keeps its modification time, so no file was added to or
  removed from it, no folder before that one on the search path holds a name the module
  could be imported from, and the import finders (``sys.meta_path``) and path hooks are
  those of the run that stored it; it is stored only when the path finder finds the same
  file, from a folder named by an absolute path, and no finder before it claims the name;
* the module gets the loader the path finder gives (a ``SourceFileLoader``, here a
  subclass that knows the code), so ``__file__``, ``__cached__``, ``__spec__``, resources
  and ``get_source`` are the ordinary ones.

Anything else (an extension module, a namespace package, a module from a zip file or
another finder, a stale or missing entry, a file that does not load) is left to the
import system. Only the console script installs it (:func:`install`, before it imports
anything else); ``import benchaudit`` and the Python API leave imports alone.
``BENCHAUDIT_NO_CACHE=1`` turns it off with the other caches. It uses only modules every
interpreter has loaded before it starts, so that it serves the standard library's too.
"""

from __future__ import annotations

import _imp
import marshal
import os
import sys

from benchaudit import __version__, cache_files

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec, PathFinder, SourceFileLoader
    from types import CodeType, ModuleType
    from typing import Any
else:
    # The import system's own classes, loaded with the interpreter (importlib.machinery
    # is the same classes behind a module this one would rather serve than import).
    ModuleSpec = sys.modules["_frozen_importlib"].ModuleSpec
    PathFinder = sys.modules["_frozen_importlib_external"].PathFinder
    SourceFileLoader = sys.modules["_frozen_importlib_external"].SourceFileLoader

#: The file is started afresh beyond this many modules.
MAX_ENTRIES = 4000
#: The header of a ``__pycache__`` file: magic, flags, source time, source size.
_HEADER = 16
_MAGIC = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
#: types.CodeType, without importing types (a module this one serves)
_CODE_TYPE = type((lambda: None).__code__)

#: name -> (origin, cached, submodule search locations or None, the folder of the search
#: path it was found in, that folder's mtime_ns, the source's mtime_ns and size, and where
#: its code is in the file: offset and length past the index)
Entry = tuple[str, str, "tuple[str, ...] | None", str, "int | None", int, int, int, int]
#: The file: the index's length (8 bytes), the index (marshal of the entries and the
#: finders' signature), then the code of every entry. A run reads the index and then only
#: the code of the modules it imports (one pread each), so modules that only other kinds
#: of input import (a PDF's, a data file's) cost a card check nothing but their index line.
_LENGTH = 8


def file_name() -> str:
    """One file per interpreter build, optimisation level and benchaudit release."""
    impl = sys.implementation.name
    return f"code-v2-{impl}-{sys.hexversion:x}-O{sys.flags.optimize}-{__version__}.marshal"


def _signature() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The import finders (this one left out) and path hooks, by name: entries are served
    only under the same."""

    def name(obj: object) -> str:
        kind = obj if isinstance(obj, type) else type(obj)
        return f"{kind.__module__}.{getattr(obj, '__qualname__', kind.__qualname__)}"

    finders = [f for f in sys.meta_path if not isinstance(f, CodeCache)]
    return tuple(map(name, finders)), tuple(map(name, sys.path_hooks))


def _mtime(folder: str) -> int | None:
    try:
        return os.stat(folder or ".").st_mtime_ns
    except (OSError, ValueError):
        return None


def _stems(folder: str) -> frozenset[str] | None:
    """What the names in ``folder`` could import as (each name up to its first dot, in
    lower case): a module name not among them is not found there, whatever the suffix or
    the file system's case rules. Empty for a folder that does not exist; None for an
    entry that is there and cannot be listed (a zip file: anything may be in it)."""
    try:
        names = os.listdir(folder or ".")
    except FileNotFoundError:
        return frozenset()
    except (OSError, ValueError):
        return None
    return frozenset(n.partition(".")[0].lower() for n in names)


class _Loader(SourceFileLoader):
    """The path finder's loader, handed the module's code instead of reading it again."""

    def __init__(self, fullname: str, path: str, code: bytes | None) -> None:
        super().__init__(fullname, path)
        self._code = code

    def get_code(self, fullname: str) -> CodeType | None:
        data, self._code = self._code, None
        if data is not None and fullname == self.name:
            try:
                code = marshal.loads(data)
            except (EOFError, ValueError, TypeError):
                code = None
            if type(code) is _CODE_TYPE:
                # what the bytecode loader does to a code object read from __pycache__
                _imp._fix_co_filename(code, self.path)  # type: ignore[attr-defined]
                return code
        return super().get_code(fullname)


class CodeCache:
    """A finder that serves :data:`Entry` records; first in ``sys.meta_path``.

    An entry is served when the module would be found where it was found before: its
    folder (``found``) is on the search path (``sys.path`` or the package's ``__path__``)
    and unchanged since (same mtime: no file added or removed), no folder before it on
    that path holds a name the module could be imported from, and the source has the
    size and mtime its bytecode was taken for."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        #: name -> its :data:`Entry`, marshalled: a run unpacks only the entries it looks up
        self.entries: dict[str, bytes] = {}
        self.signature = _signature()
        self._fd: int | None = None  # the file, open for the code of the entries
        self._base = 0  # where the code starts in it
        self._mtimes: dict[str, int | None] = {}  # folder -> mtime_ns (this run)
        self._stems: dict[str, frozenset[str] | None] = {}  # folder -> _stems (this run)
        #: names looked up and not served: new ones, or entries that no longer hold
        self.missed: set[str] = set()
        if path:
            self._load(path)

    def _load(self, path: str) -> None:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return
        try:
            size = int.from_bytes(os.pread(fd, _LENGTH, 0), "little")
            if size > os.fstat(fd).st_size - _LENGTH:
                raise ValueError("not a file of this cache")
            data = marshal.loads(os.pread(fd, size, _LENGTH))
        except (OSError, EOFError, ValueError, TypeError, OverflowError):
            os.close(fd)
            return
        entries, signature = data if isinstance(data, tuple) and len(data) == 2 else ({}, None)
        if (
            not isinstance(entries, dict)
            or signature != self.signature
            or len(entries) > MAX_ENTRIES
        ):
            os.close(fd)
            return
        self.entries, self._fd, self._base = entries, fd, _LENGTH + size

    def _record(self, name: str) -> Entry | None:
        raw = self.entries.get(name)
        if raw is None:
            return None
        try:
            entry = marshal.loads(raw)
        except (EOFError, ValueError, TypeError):
            return None
        return entry if isinstance(entry, tuple) and len(entry) == 9 else None

    def _code(self, entry: Entry) -> bytes | None:
        """The code bytes of ``entry`` as the file holds them, or None."""
        offset, length = entry[7], entry[8]
        if self._fd is None:
            return None
        try:
            data = os.pread(self._fd, length, self._base + offset)
        except OSError:
            return None
        return data if len(data) == length else None

    def _folder_mtime(self, folder: str) -> int | None:
        if folder not in self._mtimes:
            self._mtimes[folder] = _mtime(folder)
        return self._mtimes[folder]

    def _holds(self, folder: str, name: str) -> bool:
        if folder not in self._stems:
            self._stems[folder] = _stems(folder)
        stems = self._stems[folder]
        return stems is None or name.lower() in stems

    def _fits(self, name: str, entry: Entry, path: Sequence[str] | None) -> bool:
        origin, _, _, found, found_mtime, mtime, size, _, _ = entry
        search = sys.path if path is None else path
        tail = name.rpartition(".")[2]
        for folder in search:
            if folder == found:
                break
            if self._holds(folder, tail):
                return False
        else:
            return False
        if found_mtime is None or self._folder_mtime(found) != found_mtime:
            return False
        try:
            st = os.stat(origin)
        except (OSError, ValueError):
            return False
        return st.st_mtime_ns == mtime and st.st_size == size

    # -- the finder protocol ---------------------------------------------------------
    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        entry = self._record(name)
        if entry is None or target is not None or not self._fits(name, entry, path):
            self.missed.add(name)
            return None
        origin, cached, locations = entry[0], entry[1], entry[2]
        spec = ModuleSpec(name, _Loader(name, origin, self._code(entry)), origin=origin)
        if locations is not None:
            spec.submodule_search_locations = list(locations)
        spec.has_location = True
        spec.cached = cached
        return spec

    def invalidate_caches(self) -> None:
        self._mtimes.clear()
        self._stems.clear()

    # -- storing ---------------------------------------------------------------------
    def save(self) -> None:
        """Store the modules this run imported past the cache (new ones, or entries that no
        longer held) and write the file when that changed it (atomically; a failure is
        ignored)."""
        if not self.path or not self.missed:
            return
        codes: dict[str, tuple[Entry, bytes]] = {}
        for name in sorted(self.missed):
            found = _entry(name)
            if found is not None:
                codes[name] = found
        gone = self.missed.intersection(self.entries).difference(codes)
        self.missed = set()
        if not codes and not gone:
            return
        keep = [n for n in self.entries if n not in codes and n not in gone]
        if len(keep) + len(codes) > MAX_ENTRIES:
            keep = []
        records: dict[str, tuple[Entry, bytes]] = {}
        for name in keep:
            entry = self._record(name)
            code = None if entry is None else self._code(entry)
            if entry is not None and code is not None:
                records[name] = (entry, code)
        records.update(codes)
        entries: dict[str, bytes] = {}
        blob: list[bytes] = []
        offset = 0
        for name, (entry, code) in records.items():
            entries[name] = marshal.dumps((*entry[:7], offset, len(code)))
            blob.append(code)
            offset += len(code)
        index = marshal.dumps((entries, _signature()))
        cache_files.write_bytes(self.path, [len(index).to_bytes(_LENGTH, "little"), index, *blob])


def _entry(name: str) -> tuple[Entry, bytes] | None:
    """The record of module ``name`` as this run imported it (its place in the file still
    to be given) and its code, or None when it is not one the path finder loads from a
    source file with valid bytecode beside it."""
    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None)
    if spec is None or type(spec.loader) is not SourceFileLoader or spec.name != name:
        return None
    origin, cached = spec.origin, spec.cached
    if not (isinstance(origin, str) and isinstance(cached, str) and origin.endswith(".py")):
        return None
    if _imp.is_builtin(name) or _imp.is_frozen(name):
        return None
    parent = name.rpartition(".")[0]
    search: Sequence[str] | None = None
    if parent:
        search = getattr(sys.modules.get(parent), "__path__", None)
        if search is None:
            return None
        search = list(search)
    locations = spec.submodule_search_locations
    where = os.path.dirname(os.path.dirname(origin) if locations is not None else origin)
    found = next((f for f in (sys.path if search is None else search) if _same(f, where)), None)
    # an entry relative to the working folder names another folder in another run
    if not found or not os.path.isabs(found) or not _found_by_path_finder(name, search, origin):
        return None
    try:
        folder_mtime = _mtime(found)
        st = os.stat(origin)
        with open(cached, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    # A valid timestamp bytecode file, as the loader checks it (a hash-based one is left alone).
    if (
        data[:4] != _MAGIC
        or int.from_bytes(data[4:8], "little") != 0
        or int.from_bytes(data[8:12], "little") != (int(st.st_mtime) & 0xFFFFFFFF)
        or int.from_bytes(data[12:16], "little") != (st.st_size & 0xFFFFFFFF)
    ):
        return None
    entry = (
        origin,
        cached,
        None if locations is None else tuple(locations),
        found,
        folder_mtime,
        st.st_mtime_ns,
        st.st_size,
        0,
        0,
    )
    return entry, data[_HEADER:]


def _same(folder: object, where: str) -> bool:
    """Whether the search-path entry ``folder`` is the folder ``where`` (the path finder
    joins an entry and a name with one separator, whatever the entry ends with)."""
    return isinstance(folder, str) and bool(folder) and folder.rstrip("/" + os.sep) == where


def _found_by_path_finder(name: str, search: Sequence[str] | None, origin: str) -> bool:
    """Whether a fresh import of ``name`` would be the path finder's, from ``origin``."""
    for finder in sys.meta_path:
        if finder is PathFinder:
            break
        if isinstance(finder, CodeCache) or finder in _ALWAYS_NONE:
            continue
        try:
            if finder.find_spec(name, search) is not None:
                return False
        except Exception:  # noqa: BLE001 - a finder that fails: not stored
            return False
    else:
        return False
    try:
        spec = PathFinder.find_spec(name, search)
    except Exception:  # noqa: BLE001 - as above
        return False
    return spec is not None and spec.origin == origin and type(spec.loader) is SourceFileLoader


#: Finders that claim only builtin or frozen names (checked with ``_imp`` above).
_ALWAYS_NONE: tuple[Any, ...] = (
    sys.modules["_frozen_importlib"].BuiltinImporter,
    sys.modules["_frozen_importlib"].FrozenImporter,
)

_INSTALLED: CodeCache | None = None


def install() -> CodeCache | None:
    """Serve this process's imports of source modules from the cache; saved at exit."""
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    folder = cache_files.cache_dir()
    if folder is None or sys.implementation.name != "cpython":
        return None
    cache = CodeCache(os.path.join(folder, file_name()))
    sys.meta_path.insert(0, cache)
    import atexit

    atexit.register(cache.save)
    _INSTALLED = cache
    return cache


def uninstall() -> None:
    """Take the finder out again (and save what was added)."""
    global _INSTALLED
    if _INSTALLED is None:
        return
    if _INSTALLED in sys.meta_path:
        sys.meta_path.remove(_INSTALLED)
    _INSTALLED.save()
    _INSTALLED = None
