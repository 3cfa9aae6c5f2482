"""``python -m benchaudit.validation``: recompute docs/validation.md."""

from benchaudit.validation.report import main

raise SystemExit(main())
