"""Errors a user can fix. The CLI prints them as one message and exits with code 2."""

from __future__ import annotations


class UserError(Exception):
    """Bad input: a file, a key or a value the user gave. Printed without a traceback."""


class ScenarioError(UserError):
    """A scenario file (or a ``--set``) that does not validate.

    The message always names the file, the key, what was expected and what was found.
    """

    def __init__(self, file: str, key: str, expected: str, found: object | None = None):
        self.file, self.key, self.expected, self.found = file, key, expected, found
        found_text = "" if found is None else f"; found {found!r}"
        super().__init__(f"{file}: {key}: expected {expected}{found_text}")

    def __reduce__(self):
        """Rebuilt from its four fields, so an error raised in a worker process (joblib, dask) reaches
        the caller as itself rather than failing to unpickle (the default passes only the message)."""
        return type(self), (self.file, self.key, self.expected, self.found)
