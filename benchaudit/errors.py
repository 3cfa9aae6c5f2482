"""Errors that end a run with exit code 2 and a one-line message."""

from __future__ import annotations


class BenchauditError(Exception):
    """A problem the user can fix: bad input, bad configuration, bad usage."""

    exit_code = 2


class InputError(BenchauditError):
    """An input file cannot be read as what it claims to be.

    The message names the file and, where known, the line, so the CLI can print
    it as a single line: ``scores.csv:17: ragged row: 3 fields, expected 4``.
    """

    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.detail = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}")


class ConfigError(BenchauditError):
    """Configuration is invalid (unknown key, bad value, unknown rule)."""


class UnknownKindError(InputError):
    """No reader recognises the file. Named on the command line, that is an error;
    met while walking a directory, the file is skipped with a note."""
