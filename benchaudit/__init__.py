"""benchaudit: audit the numbers people publish about ML evaluations.

The public API is small: :func:`benchaudit.engine.audit` runs the rules over
paths and returns a :class:`benchaudit.finding.Report`; everything else is
reachable through the ``benchaudit`` command.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
