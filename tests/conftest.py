"""Shared by every test module: the engines are compiled once per session, before any test runs.

``make test`` runs the suite on every core (pytest-xdist, one worker per core, each test file in one
worker). The controller compiles the three engines first, two at a time, into numba's on-disk cache
(``sim.core.warm``); the workers then load the compiled code instead of each compiling it again. On a
warm cache this is a check of three marker files. Tests share nothing else across files, so their
results do not depend on the order or the worker they run in.

joblib keeps its loky worker processes alive between runs (and so between tests), and a worker reads
``SIM_SCENARIOS`` from the environment it was started with: a worker started while a workflow test
pointed ``SIM_SCENARIOS`` at the toy game's scenarios would later look for Island Nation's maps there
and raise ScenarioError in the next file of the same xdist worker. ``_workers_follow_sim_scenarios``
makes joblib pass the current value to its workers, so loky starts fresh workers whenever it changed.
"""

from __future__ import annotations

import os


def _workers_follow_sim_scenarios() -> None:
    """Add ``SIM_SCENARIOS`` (empty when unset: the repository's scenarios) to the environment joblib
    gives its loky workers; loky reuses its workers only while that environment is unchanged."""
    from joblib._parallel_backends import LokyBackend

    prepare = LokyBackend._prepare_worker_env

    def with_scenarios(self, n_jobs):
        return {**prepare(self, n_jobs), "SIM_SCENARIOS": os.environ.get("SIM_SCENARIOS", "")}

    LokyBackend._prepare_worker_env = with_scenarios


def pytest_configure(config):
    _workers_follow_sim_scenarios()
    if hasattr(config, "workerinput") or config.option.collectonly:
        return  # an xdist worker (the controller compiled already), or nothing will run
    import sim  # noqa: F401  (points NUMBA_CACHE_DIR at the cache of these sources)
    from sim.core.warm import warm_all

    warm_all()
