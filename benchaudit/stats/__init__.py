"""Pure statistics: no I/O, no rule knowledge. Heavy libraries are imported inside functions."""
