"""The plain-Python references' results, kept between test runs: in the repository and in pytest's cache.

A reference cross-check plays thousands of games with a game's slow plain-Python reference and compares
them with as many engine games; the reference's side was about 40 % of the suite's CPU time. With its
seeds fixed, what a reference returns is a function of its code and its arguments alone, so the result is
kept under a digest of both: the bytes of the reference module and of every ``sim`` module it imports
(``sim.core.sources.imported_sources``), the test module that calls it (its seeds and helpers) and the
arguments' contents (rules, board arrays, catalogue, bots, games). A later run with the same digest reads
it back; the engine's side is always played, so a change to an engine is tested against the reference as
before. A change to the reference or anything it imports, or to the Python version (``random.Random``'s
methods may change between versions), plays the reference again.

Two stores: pytest's cache (``.pytest_cache``, this checkout's runs) and ``tests/reference_results.json``,
committed, so that a clean checkout (CI, ``make first-hour``'s fresh clones) does not play the references
whose sources have not changed since it was written (about 95 CPU-s of a cold ``make test``). An entry is
read back only under its digest, so a stale file costs time, never a wrong answer;
``scripts/keep_reference_results.py`` writes it again from a run of the cross-checks.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.sources import imported_sources

CHECKOUT = Path(__file__).resolve().parents[1]
COMMITTED = CHECKOUT / "tests" / "reference_results.json"


def fingerprint(value: Any) -> str:
    """Text fixed by ``value``'s contents: a pydantic model's JSON, an array's bytes, a path inside the
    checkout relative to it (so that every checkout reads the committed results), a dataclass's fields and
    containers' items, in turn; anything else by its ``repr``."""
    if isinstance(value, Path) and value.is_relative_to(CHECKOUT):
        return f"Path({value.relative_to(CHECKOUT).as_posix()})"
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
    ``caller`` that calls it (its seeds and helpers), the Python version and the arguments' contents."""
    h = hashlib.sha256(_sources_digest((*imported_sources(reference), caller)).encode())
    h.update(f"python {sys.version_info.major}.{sys.version_info.minor}".encode())
    for argument in arguments:
        h.update(fingerprint(argument).encode())
    return h.hexdigest()


@functools.cache
def committed_entries(path: Path = COMMITTED) -> dict[str, dict]:
    """The committed store: pytest-cache key -> entry (``{}`` when the file is absent)."""
    return json.loads(path.read_text()) if path.exists() else {}


def kept_reference(cache, test: str, reference: Path, arguments: tuple, play: Callable[[], Any],
                   committed: Mapping[str, dict] | None = None) -> Any:
    """``play()``'s result (JSON-able), read back when the test ``test`` kept it for the same reference
    sources, the same source of the module defining ``play`` and the same ``arguments``: from ``cache``
    (pytest's ``config.cache``), else from ``committed`` (default: ``tests/reference_results.json``), else
    played. Either of the last two is then kept in ``cache`` (one entry a test), which is what
    ``scripts/keep_reference_results.py`` collects."""
    key = f"reference/{hashlib.sha256(test.encode()).hexdigest()[:20]}"
    want = digest(reference, Path(play.__code__.co_filename), *arguments)
    entry = cache.get(key, None)
    if entry is not None and entry.get("digest") == want:
        return entry["result"]
    entry = (committed_entries() if committed is None else committed).get(key)
    if entry is None or entry.get("digest") != want:
        entry = {"test": test, "digest": want, "result": play()}
    cache.set(key, entry)
    return entry["result"]
