"""Shared by every test module: the engines are compiled once per session, before any test runs.

``make test`` runs the suite on every core (pytest-xdist, one worker per core, each test file in one
worker). The controller compiles the three engines, their search bots and their analyses' own entry
points (counterfactual batches) first, two steps at a time, into numba's on-disk cache
(``sim.core.warm``); the workers then load the compiled code instead of each compiling it again (and
again in each joblib worker). On a warm cache this is a check of nine marker files. Tests share
nothing else across files, so their results do not depend on the order or the worker they run in.

Scheduling (``--dist loadfile``, replaced by ``EachTestOfSplitFiles``): each test of ``SPLIT_FILES``
(long, independent tests: the reference cross-checks and the report of every game) is a unit of its
own and these units go first, the longest first; then every other file whole, the files with most
tests first (xdist's own order). So both workers stay busy to the end instead of one finishing a
40-second test alone.
"""

from __future__ import annotations

import os

import pytest

# One test worker per core, so BLAS threads of their own only contend: OpenBLAS's idle threads spin, and
# beside another busy worker the Island Nation report test took 3x its CPU time (27 s against 9 s).
# Set before the workers start (they inherit it) and before numpy loads; a value already set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Files whose tests share no module fixture and take many seconds each, in order of their longest
# test (warm, 2 cores, quiet: 29, 10, 7, 6 s): each test is scheduled on its own, before everything else.
SPLIT_FILES = ("tests/ocracoke/test_oc_reference.py", "tests/workflow/test_wf_registered_games.py",
               "tests/wonderful_island/test_wi_reference.py", "tests/island_nation/test_in_reference.py")


def pytest_configure(config):
    if hasattr(config, "workerinput") or config.option.collectonly:
        return  # an xdist worker (the controller compiled already), or nothing will run
    import sim  # noqa: F401  (points NUMBA_CACHE_DIR at the cache of these sources)
    from sim.core.warm import warm_all

    warm_all(search=True)


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(config, items):
    """The order xdist hands out work (see the module docstring); run alone, the same tests in a
    different order, which no result depends on."""
    counts: dict[str, int] = {}
    for item in items:
        counts[_file(item.nodeid)] = counts.get(_file(item.nodeid), 0) + 1

    def rank(item):
        file = _file(item.nodeid)
        return (SPLIT_FILES.index(file), 0) if file in SPLIT_FILES else (len(SPLIT_FILES), -counts[file])

    items.sort(key=rank)  # stable: a file's tests keep their order


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent without pytest-xdist
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class EachTestOfSplitFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid if _file(nodeid) in SPLIT_FILES else _file(nodeid)

    config.option.loadscopereorder = False  # keep the order of pytest_collection_modifyitems
    return EachTestOfSplitFiles(config, log)
