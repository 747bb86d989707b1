"""Shared by every test module: the engines are compiled once per session, before any test runs.

``make test`` runs the suite on every core (pytest-xdist, one worker per core, each test file in one
worker). The controller compiles the three engines first, two at a time, into numba's on-disk cache
(``sim.core.warm``); the workers then load the compiled code instead of each compiling it again. On a
warm cache this is a check of three marker files. Tests share nothing else across files, so their
results do not depend on the order or the worker they run in.
"""

from __future__ import annotations


def pytest_configure(config):
    if hasattr(config, "workerinput") or config.option.collectonly:
        return  # an xdist worker (the controller compiled already), or nothing will run
    import sim  # noqa: F401  (points NUMBA_CACHE_DIR at the cache of these sources)
    from sim.core.warm import warm_all

    warm_all()
