"""The plain-Python references' results, kept between test runs in pytest's cache (``.pytest_cache``).

A reference cross-check plays thousands of games with a game's slow plain-Python reference and compares
them with as many engine games; the reference's side was about 40 % of the suite's CPU time. With its
seeds fixed, what a reference returns is a function of its code and its arguments alone, so the result is
kept under a digest of both: the bytes of the reference module and of every ``sim`` module it imports
(``sim.core.sources.imported_sources``), the test module that calls it (its seeds and helpers) and the
arguments' contents (rules, board arrays, catalogue, bots, games). A later run with the same digest reads it back; the engine's side is always played, so a
change to an engine is tested against the reference as before. A change to the reference or anything it
imports, a clean checkout (CI) or ``pytest --cache-clear`` plays the reference again.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.sources import imported_sources


def fingerprint(value: Any) -> str:
    """Text fixed by ``value``'s contents: a pydantic model's JSON, an array's bytes, a dataclass's fields
    and containers' items, in turn; anything else by its ``repr``."""
    if hasattr(value, "model_dump_json"):
        return value.model_dump_json()
    if isinstance(value, np.ndarray):
        return f"array({value.dtype}, {value.shape}, {hashlib.sha256(value.tobytes()).hexdigest()})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = (f"{f.name}={fingerprint(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__name__}({', '.join(fields)})"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{fingerprint(k)}: {fingerprint(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fingerprint(v) for v in value) + "]"
    return repr(value)


@functools.cache
def _sources_digest(files: tuple[Path, ...]) -> str:
    """SHA-256 over the files' names and bytes: once a test process (finding a reference's imports parses
    every module of ``sim``, about 0.2 s, and no source changes while the tests run)."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def digest(reference: Path, caller: Path, *arguments: Any) -> str:
    """SHA-256 over the reference module's sources (with all it imports from ``sim``), the test module
    ``caller`` that calls it (its seeds and helpers) and the arguments' contents."""
    h = hashlib.sha256(_sources_digest((*imported_sources(reference), caller)).encode())
    for argument in arguments:
        h.update(fingerprint(argument).encode())
    return h.hexdigest()


def kept_reference(cache, test: str, reference: Path, arguments: tuple, play: Callable[[], Any]) -> Any:
    """``play()``'s result (JSON-able), read from ``cache`` (pytest's ``config.cache``) when the test ``test``
    kept it for the same reference sources, the same source of the module defining ``play`` and the same
    ``arguments``, else played and kept (one entry a test)."""
    key = f"reference/{hashlib.sha256(test.encode()).hexdigest()[:20]}"
    want = digest(reference, Path(play.__code__.co_filename), *arguments)
    entry = cache.get(key, None)
    if entry is not None and entry.get("digest") == want:
        return entry["result"]
    result = play()
    cache.set(key, {"test": test, "digest": want, "result": result})
    return result
