"""Report templates (jinja2), installed as ``benchaudit.reports``."""
