"""benchaudit's rules, one module per rule (or a small family).

Installed as ``benchaudit.rules``. Every :class:`benchaudit.registry.Rule`
subclass defined in a module here is registered automatically.
"""
