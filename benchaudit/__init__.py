"""benchaudit: audit the numbers people publish about ML evaluations.

The Python API is :func:`benchaudit.audit` (paths -> :class:`benchaudit.Report`)
and :func:`benchaudit.audit_results` (an in-memory table of per-item results ->
:class:`benchaudit.Report`); the ``benchaudit`` command is a thin layer over
the same engine.

The distribution on the package index is ``benchaudit-lint`` (the name
``benchaudit`` there belongs to an unrelated project); the import package and
the command are ``benchaudit``.
"""

import os as _os

# Not typing's: the command's module cache (benchaudit.code_cache) is installed after this
# package is imported, and serves typing and what typing imports only if nothing has yet.
TYPE_CHECKING = False
if TYPE_CHECKING:  # what the lazy names below resolve to, for type checkers
    from typing import Any as _Any

    from benchaudit.api import audit, audit_results, audit_text
    from benchaudit.errors import InputError
    from benchaudit.finding import Confidence, Finding, Report, Severity

__version__ = "0.2.0.dev0"

#: The name to give pip: ``pip install benchaudit-lint``.
DISTRIBUTION = "benchaudit-lint"

# rules/ and reports/ sit at the top of the repository and are installed as
# benchaudit.rules and benchaudit.reports. Run from a source checkout (python -m
# pytest in the repository, which puts the checkout first on sys.path), the
# package found is this folder, so let it look for those two next door as well.
_here = _os.path.dirname(__file__)
_root = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "rules")) and _os.path.isfile(
    _os.path.join(_root, "rules", "__init__.py")
):
    __path__.append(_root)  # noqa: F821
del _here, _root

# The API is imported on first use, so that ``import benchaudit`` (and the
# command's start-up, which imports this package) stays light.
_LAZY = {
    "audit": "benchaudit.api",
    "audit_results": "benchaudit.api",
    "audit_text": "benchaudit.api",
    "Report": "benchaudit.finding",
    "Finding": "benchaudit.finding",
    "Severity": "benchaudit.finding",
    "Confidence": "benchaudit.finding",
    "InputError": "benchaudit.errors",
}


def __getattr__(name: str) -> "_Any":
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benchaudit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "DISTRIBUTION",
    "Confidence",
    "Finding",
    "InputError",
    "Report",
    "Severity",
    "__version__",
    "audit",
    "audit_results",
    "audit_text",
]
