"""Rules: the base class, automatic discovery and selection.

Every module in a family folder of ``benchaudit.rules`` (the top-level
``rules/`` folder: ``rules/reporting/``, ``rules/comparisons/`` ...) that
defines a :class:`Rule` subclass with a ``code`` is registered on import.
Third-party rule packs register through the ``benchaudit.rules`` entry-point
group, each entry point naming a module to import.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, TypeAlias

from benchaudit.errors import ConfigError
from benchaudit.finding import Finding, RuleDoc

# Re-exported: rule packs written against the registry import the rule kit from here.
from benchaudit.rulebase import Note, Output, Rows, Rule, hook

__all__ = [
    "Note",
    "Output",
    "Rows",
    "Rule",
    "all_rules",
    "catalogue",
    "hook",
    "load_entry",
    "lookup",
    "rule_docs",
    "select",
    "selected",
]

if TYPE_CHECKING:
    pass


_REGISTRY: dict[str, type[Rule]] | None = None


def _rule_classes(module: ModuleType) -> Iterator[type[Rule]]:
    for obj in vars(module).values():
        if (
            inspect.isclass(obj)
            and issubclass(obj, Rule)
            and obj is not Rule
            and obj.code
            and obj.__module__ == module.__name__
        ):
            yield obj


def all_rules() -> dict[str, type[Rule]]:
    """Every registered rule by name, in code order (every rule module imported)."""
    global _REGISTRY
    if _REGISTRY is not None:
        return _REGISTRY
    import benchaudit.rules as pkg

    found: dict[str, type[Rule]] = {}
    modules = [importlib.import_module(f"{pkg.__name__}.{name}") for name in _rule_module_names()]
    modules.extend(_entry_point_modules())
    codes: dict[str, str] = {}
    for module in modules:
        for cls in _rule_classes(module):
            if cls.name in found or cls.code in codes:
                raise RuntimeError(f"duplicate rule {cls.code} {cls.name} in {module.__name__}")
            found[cls.name] = cls
            codes[cls.code] = cls.name
    _REGISTRY = dict(sorted(found.items(), key=lambda kv: kv[1].code))
    return _REGISTRY


def _rule_module_names() -> list[str]:
    """``family.module`` of every rule module (the family folders, ``_`` helpers left out)."""
    return sorted(_rule_module_files())


def _rule_module_files() -> dict[str, str]:
    """``family.module`` -> path of every rule module in the family folders.

    The folders are listed with :func:`os.scandir` rather than :mod:`pkgutil`, whose
    import costs more than the rest of selecting the rules of a README check."""
    import benchaudit.rules as pkg

    out: dict[str, str] = {}
    seen: set[str] = set()
    for root in pkg.__path__:
        for family in _entries(root):
            folder = os.path.join(root, family)
            if family in seen or not os.path.isfile(os.path.join(folder, "__init__.py")):
                continue
            seen.add(family)  # the first folder of a name is the package, as for imports
            if family.startswith("_"):
                continue
            for name in _entries(folder):
                module, dot, ext = name.rpartition(".")
                if dot and ext == "py" and module and not module.startswith("_"):
                    out[f"{family}.{module}"] = os.path.join(folder, name)
    return out


def _entries(folder: str) -> list[str]:
    """The names in a folder, sorted; none when it cannot be listed."""
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


# --- the catalogue: names, codes and kinds without importing the rules -----------
#
# A run over one README needs the rules that read documents, not the per-item or
# battle rules (nor what they import). ``benchaudit/_rule_index.py`` lists every
# built-in rule's code, name, kinds and module with a checksum of the files that
# define them; while the checksums match, selection reads the index and imports
# only the modules of the rules that will run. When they do not (a rule edited or
# added without ``python -m benchaudit.registry``), every module is imported as
# before, so a stale index costs time, never a rule.


@dataclass(frozen=True)
class Entry:
    """What selection needs to know about a rule before importing it."""

    code: str
    name: str
    reads: tuple[str, ...]
    module: str


#: A rule in the catalogue: its index entry (not imported yet) or its class.
CatalogueEntry: TypeAlias = "Entry | type[Rule]"

_CATALOGUE: list[CatalogueEntry] | None = None
#: Files whose text decides the index besides the rule modules (``KINDS`` is read
#: by rules that apply to every kind of input).
_INDEX_INPUTS = ("evidence.py",)


def _index_files() -> dict[str, str]:
    """Module or file name -> path of every file the index is computed from."""
    out = _rule_module_files()
    here = os.path.dirname(__file__)
    for name in _INDEX_INPUTS:
        out[name] = os.path.join(here, name)
    return out


def _checksums() -> dict[str, int] | None:
    """crc32 of every file the index is computed from; None when one cannot be read.

    Run by the command (its cache folder in place), the sums are kept there beside the
    size and modification time (in nanoseconds) of each file, and read back while none of
    those has changed, as Python's own bytecode cache trusts a source's size and time:
    a card check then reads no rule's source. Elsewhere (the Python API, the index's
    writing) every file is read."""
    files = _index_files()
    cache = sys.modules.get("benchaudit.regex_cache")
    if cache is None or getattr(cache, "_INSTALLED", None) is None:
        return _read_checksums(files)
    stamps = []
    for name, path in sorted(files.items()):
        try:
            st = os.stat(path)
        except OSError:
            return None  # no source to check against: trust only an import
        stamps.append(f"{name}\0{path}\0{st.st_size}\0{st.st_mtime_ns}")
    kept: dict[str, int] | None = cache.remembered(
        "rule-index-sums", "\n".join(stamps), lambda _: _read_checksums(files)
    )
    return kept


def _read_checksums(files: dict[str, str]) -> dict[str, int] | None:
    import zlib

    sums: dict[str, int] = {}
    for name, path in files.items():
        try:
            with open(path, "rb") as fh:
                sums[name] = zlib.crc32(fh.read())
        except OSError:
            return None  # no source to check against: trust only an import
    return sums


def _indexed() -> list[Entry] | None:
    """The index's entries while every checksum matches, else None."""
    try:
        from benchaudit import _rule_index as index
    except ImportError:
        return None
    if _checksums() != index.FILES:
        return None
    return [Entry(code, name, tuple(reads), module) for code, name, reads, module in index.RULES]


def catalogue() -> list[CatalogueEntry]:
    """Every rule in code order, as :class:`Entry` (from the index) or as its class."""
    global _CATALOGUE
    if _REGISTRY is not None:
        return list(_REGISTRY.values())
    if _CATALOGUE is None:
        indexed = _indexed()
        entries: list[CatalogueEntry]
        if indexed is None:
            entries = list(all_rules().values())
        else:
            packs = [cls for m in _entry_point_modules() for cls in _rule_classes(m)]
            entries = sorted([*indexed, *packs], key=lambda e: e.code)
        _CATALOGUE = entries
    return _CATALOGUE


def load_entry(entry: CatalogueEntry) -> type[Rule]:
    """The rule class of a catalogue entry, its module imported on first use."""
    if isinstance(entry, type):
        return entry
    module = importlib.import_module(entry.module)
    for cls in _rule_classes(module):
        if cls.code == entry.code:
            return cls
    raise RuntimeError(f"rule {entry.code} not found in {entry.module}")


def write_index(path: str | None = None) -> str:
    """Regenerate ``benchaudit/_rule_index.py`` from the rule modules; returns its text."""
    global _REGISTRY
    _REGISTRY = None
    import benchaudit.rules as pkg

    rules = [cls for cls in all_rules().values() if cls.__module__.startswith(pkg.__name__ + ".")]
    lines = [
        '"""Generated by ``python -m benchaudit.registry`` from the rule modules; do not edit."""',
        "",
        "# crc32 of each file the entries below are read from (see benchaudit.registry).",
        "FILES = {",
        *(f"    {k!r}: {v}," for k, v in sorted((_checksums() or {}).items())),
        "}",
        "",
        "# (code, name, kinds read, module)",
        "RULES = [",
        *(f"    {(c.code, c.name, tuple(c.reads), c.__module__)!r}," for c in rules),
        "]",
        "",
    ]
    text = "\n".join(lines)
    target = path or os.path.join(os.path.dirname(__file__), "_rule_index.py")
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(text)
    return text


def _any_rule_pack_installed() -> bool:
    """Whether any installed distribution declares a ``benchaudit.rules`` entry point.

    A plain look at ``entry_points.txt`` files: importing ``importlib.metadata`` costs
    more than the rest of a pre-commit run over a README, so it is paid only when a
    rule pack is actually there.

    Run by the command (its cache folder in place), the answer is kept there beside each
    ``sys.path`` folder and its modification time, and read back while none has changed:
    installing or removing a distribution adds or removes its metadata folder, which
    changes the folder's time, and the command then no longer opens a file in each of a
    few hundred metadata folders that holds none.
    """
    cache = sys.modules.get("benchaudit.regex_cache")
    if cache is None or getattr(cache, "_INSTALLED", None) is None:
        return _look_for_rule_packs()
    stamps = []
    for entry in sys.path:
        folder = os.path.abspath(entry or ".")
        try:
            stamps.append(f"{folder}\0{os.stat(folder).st_mtime_ns}")
        except (OSError, ValueError):
            stamps.append(f"{folder}\0-")
    found: bool = cache.remembered(
        "rule-packs", "\n".join(stamps), lambda _: _look_for_rule_packs()
    )
    return found


def _look_for_rule_packs() -> bool:
    """:func:`_any_rule_pack_installed`, read from the metadata folders themselves."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"), "rb") as fh:
                    if b"[benchaudit.rules]" in fh.read():
                        return True
            except OSError:
                continue
    return False


def _entry_point_modules() -> list[ModuleType]:
    if not _any_rule_pack_installed():
        return []
    from importlib.metadata import entry_points

    mods = []
    for ep in entry_points(group="benchaudit.rules"):
        mods.append(importlib.import_module(ep.value.split(":")[0]))
    return mods


def lookup(key: str) -> type[Rule]:
    """A rule by name (``unreachable-score``) or code (``BA101``)."""
    k = key.strip()
    for entry in catalogue():
        if k == entry.name or entry.code.lower() == k.lower():
            return load_entry(entry)
    raise ConfigError(f"unknown rule {key!r} (see 'benchaudit rules')")


def _matches(cls: CatalogueEntry, keys: Iterable[str]) -> bool:
    for key in keys:
        k = key.strip().lower()
        if k in (cls.name.lower(), cls.code.lower()):
            return True
        # A code prefix selects a family: BA1 selects BA101..BA199.
        if k.startswith("ba") and cls.code.lower().startswith(k) and len(k) < len(cls.code):
            return True
    return False


def selected(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[CatalogueEntry]:
    """The catalogue entries ``--select`` / ``--ignore`` leave, none imported; an
    unknown name is a :class:`ConfigError`."""
    rules = catalogue()
    sel = [s for s in select if s.strip()]
    ign = [s for s in ignore if s.strip()]
    for key in [*sel, *ign]:
        k = key.strip().lower()
        if not any(_matches(cls, [k]) for cls in rules):
            raise ConfigError(f"unknown rule {key!r} (see 'benchaudit rules')")
    chosen = [cls for cls in rules if not sel or _matches(cls, sel)]
    return [cls for cls in chosen if not _matches(cls, ign)]


def rule_docs(findings: Iterable[Finding]) -> dict[str, RuleDoc]:
    """The documentation of the rules that gave ``findings``, by code (their classes are loaded
    already, having run; a code no rule has gets no entry)."""
    codes = {f.code for f in findings}
    out: dict[str, RuleDoc] = {}
    for entry in catalogue():
        if entry.code in codes:
            cls = load_entry(entry)
            out[cls.code] = RuleDoc(
                cls.code, cls.name, cls.severity, cls.summary(), cls.documentation()
            )
    return out


def select(
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    kinds: Iterable[str] | None = None,
) -> list[type[Rule]]:
    """The rules to run, given ``--select`` / ``--ignore`` names, codes or code prefixes.

    With ``kinds`` (the kinds of the sources read), only the rules that read one
    of them, or that read no source (a scan of their own), are imported and returned.
    """
    chosen = selected(select, ignore)
    if kinds is not None:
        present = set(kinds)
        chosen = [e for e in chosen if not e.reads or present.intersection(e.reads)]
    return [load_entry(e) for e in chosen]


if __name__ == "__main__":
    # Through the imported module: the rules subclass its Rule, not this script's copy.
    from benchaudit.registry import write_index as _write

    _write()
