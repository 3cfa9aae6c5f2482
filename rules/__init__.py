"""benchaudit's rules, one module per rule, in one folder per family.

Installed as ``benchaudit.rules``. Every :class:`benchaudit.rulebase.Rule`
subclass defined in a module of a family folder (``reporting/``,
``comparisons/`` ...) is registered automatically; the folder's docstring
names the family in ``docs/rules.md``. Modules whose name starts with ``_``
hold what several rules share and define no rule.
"""
