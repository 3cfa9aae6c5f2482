"""Rules: the base class, automatic discovery and selection.

Every module in ``benchaudit.rules`` (the top-level ``rules/`` folder) that
defines a :class:`Rule` subclass with a ``code`` is registered on import.
Third-party rule packs register through the ``benchaudit.rules`` entry-point
group, each entry point naming a module to import.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from benchaudit.errors import ConfigError
from benchaudit.finding import Confidence, Finding, Location, Severity

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source


class Rule:
    """Base class of every rule.

    A subclass sets ``code`` (``BA101``), ``name`` (``unreachable-score``),
    ``severity`` (its default), ``reads`` (source kinds) and a docstring whose
    first line is the summary; the rest of the docstring is what
    ``benchaudit explain`` prints. It overrides :meth:`check` (one source at a
    time) or :meth:`check_run` (all sources of a run together).
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    reads: ClassVar[tuple[str, ...]] = ()
    #: For a rule that reads several kinds of source: kind -> "module:function"
    #: called as ``function(rule, source, ctx)``. The module is imported only when
    #: a source of that kind is checked, so a markdown run never imports the
    #: per-item branch (and numpy with it).
    branches: ClassVar[dict[str, str]] = {}
    #: Options the rule reads from ``[tool.benchaudit.rules.<name>]``, name ->
    #: :class:`benchaudit.config.Option`; the configuration refuses any other.
    #: ``None`` (a rule pack that declares nothing) accepts any.
    option_types: ClassVar[dict[str, Any] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.branches and not cls.reads:
            cls.reads = tuple(cls.branches)

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = options or {}

    @classmethod
    def summary(cls) -> str:
        doc = inspect.getdoc(cls) or ""
        return doc.strip().splitlines()[0] if doc.strip() else ""

    @classmethod
    def documentation(cls) -> str:
        return inspect.getdoc(cls) or ""

    def check(self, source: Source, ctx: Context) -> Iterable[Finding]:
        target = self.branches.get(source.kind)
        if target is None:
            return ()
        module, _, function = target.partition(":")
        return getattr(importlib.import_module(module), function)(self, source, ctx)

    def check_run(self, sources: list[Source], ctx: Context) -> Iterable[Finding]:
        for source in sources:
            if source.kind in self.reads:
                yield from self.check(source, ctx)

    def finding(
        self,
        location: Location,
        message: str,
        *,
        claim: str | Claim | None = None,
        suggestion: str | None = None,
        evidence: dict[str, Any] | None = None,
        severity: Severity | None = None,
        confidence: Confidence = Confidence.HIGH,
    ) -> Finding:
        """Build a finding for this rule; ``claim`` may be a Claim or its text."""
        text = getattr(claim, "text", claim)
        return Finding(
            code=self.code,
            name=self.name,
            severity=severity if severity is not None else self.severity,
            confidence=confidence,
            location=location,
            message=message,
            claim=text,
            suggestion=suggestion,
            evidence=dict(evidence or {}),
        )


_REGISTRY: dict[str, type[Rule]] | None = None


def _rule_classes(module: Any) -> Iterator[type[Rule]]:
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
    """Every registered rule by name, in code order."""
    global _REGISTRY
    if _REGISTRY is not None:
        return _REGISTRY
    import benchaudit.rules as pkg

    found: dict[str, type[Rule]] = {}
    modules = [
        importlib.import_module(f"{pkg.__name__}.{info.name}")
        for info in pkgutil.iter_modules(pkg.__path__)
        if not info.name.startswith("_")
    ]
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


def _any_rule_pack_installed() -> bool:
    """Whether any installed distribution declares a ``benchaudit.rules`` entry point.

    A plain look at ``entry_points.txt`` files: importing ``importlib.metadata`` costs
    more than the rest of a pre-commit run over a README, so it is paid only when a
    rule pack is actually there.
    """
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


def _entry_point_modules() -> list[Any]:
    if not _any_rule_pack_installed():
        return []
    from importlib.metadata import entry_points

    mods = []
    for ep in entry_points(group="benchaudit.rules"):
        mods.append(importlib.import_module(ep.value.split(":")[0]))
    return mods


def lookup(key: str) -> type[Rule]:
    """A rule by name (``unreachable-score``) or code (``BA101``)."""
    rules = all_rules()
    k = key.strip()
    if k in rules:
        return rules[k]
    for cls in rules.values():
        if cls.code.lower() == k.lower():
            return cls
    raise ConfigError(f"unknown rule {key!r} (see 'benchaudit rules')")


def _matches(cls: type[Rule], keys: Iterable[str]) -> bool:
    for key in keys:
        k = key.strip().lower()
        if k in (cls.name.lower(), cls.code.lower()):
            return True
        # A code prefix selects a family: BA1 selects BA101..BA199.
        if k.startswith("ba") and cls.code.lower().startswith(k) and len(k) < len(cls.code):
            return True
    return False


def select(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[type[Rule]]:
    """The rules to run, given ``--select`` / ``--ignore`` names, codes or code prefixes."""
    rules = all_rules()
    sel = [s for s in select if s.strip()]
    ign = [s for s in ignore if s.strip()]
    for key in [*sel, *ign]:
        k = key.strip().lower()
        if not any(_matches(cls, [k]) for cls in rules.values()):
            raise ConfigError(f"unknown rule {key!r} (see 'benchaudit rules')")
    chosen = [cls for cls in rules.values() if not sel or _matches(cls, sel)]
    return [cls for cls in chosen if not _matches(cls, ign)]
