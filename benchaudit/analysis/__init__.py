"""Per-source analyses shared by several rules and by the report (numpy at module level)."""
