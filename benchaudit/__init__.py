"""benchaudit: audit the numbers people publish about ML evaluations.

The public API is small: :func:`benchaudit.engine.audit` runs the rules over
paths and returns a :class:`benchaudit.finding.Report`; everything else is
reachable through the ``benchaudit`` command.
"""

import os as _os

__version__ = "0.1.0"

# rules/ and reports/ sit at the top of the repository and are installed as
# benchaudit.rules and benchaudit.reports. Run from a source checkout (python -m
# pytest in the repository, which puts the checkout first on sys.path), the
# package found is this folder, so let it look for those two next door as well.
_here = _os.path.dirname(__file__)
_root = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "rules")) and _os.path.isfile(
    _os.path.join(_root, "rules", "__init__.py")
):
    __path__.append(_root)  # type: ignore[name-defined]  # noqa: F821
del _here, _root

__all__ = ["__version__"]
