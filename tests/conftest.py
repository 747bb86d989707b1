"""Shared by every test module: the engines are compiled once per session, before any test runs.

``make test`` runs the suite on every core (pytest-xdist, one worker per core, each test file in one
worker). Once the tests are collected, and before any runs, the engines, search bots and analyses'
own entry points (counterfactual batches) of the games those tests play (``games_of``) are compiled,
every game at once (each game's steps in one process of its own), into numba's on-disk cache
(``sim.core.warm``); the workers then load the compiled code instead of each compiling it again (and again
in each joblib worker). So ``pytest tests/ocracoke`` compiles Ocracoke only, and the game-agnostic tests
(tests/core, the toy games of tests/workflow) compile none. On a warm cache this is a check of up to nine marker
files. Tests share nothing else across files, so their results do not depend on the order or the worker
they run in.

The plain-Python references' results in the cross-checks are kept between runs in pytest's cache and,
for a clean checkout, in the committed tests/reference_results.json (``reference_memo``,
tests/reference_memo.py), keyed on the reference's sources and arguments: a run plays only the engine's
side unless a reference changed.

Scheduling (``--dist loadfile``, replaced by ``EachTestOfSplitFiles``): each test of ``SPLIT_FILES``
(long, independent tests: the reference cross-checks and the report of every game) is a unit of its
own and these units go first, the longest first; then every other file whole, the files with most
tests first (xdist's own order). So both workers stay busy to the end instead of one finishing a
40-second test alone.
"""

from __future__ import annotations

import functools
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


# The games a test plays, by where it lives (``games_of``): a game's own folder; else the games named in
# its parameters (e.g. test_games_api.py::test_x[ocracoke]); else none for the game-agnostic folders
# (tests/core, and tests/workflow's toy games) except EVERY_GAME; else, to be safe, every game. A
# test filed wrongly here is only slower (numba compiles what it plays when it first plays it).
GAME_FOLDERS = {"tests/ocracoke/": "ocracoke", "tests/island_nation/": "island-nation",
                "tests/wonderful_island/": "wonderful-island"}
NO_GAME = ("tests/core/", "tests/workflow/")
EVERY_GAME = ("tests/core/test_warm.py",)  # checks every game's marker files


@pytest.fixture
def reference_memo(request):
    """``reference_memo(reference_file, arguments, play)``: a plain-Python reference's result for this test,
    kept between runs for the same reference sources and arguments (tests/reference_memo.py); played every
    time without pytest's cache (``-p no:cacheprovider``)."""
    from reference_memo import kept_reference

    cache = getattr(request.config, "cache", None)
    if cache is None:
        return lambda reference, arguments, play: play()
    return functools.partial(kept_reference, cache, request.node.nodeid)


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def games_of(nodeid: str, registered: frozenset[str]) -> frozenset[str]:
    """The registered games whose engines the test ``nodeid`` plays (see GAME_FOLDERS above)."""
    file = _file(nodeid)
    for folder, game in GAME_FOLDERS.items():
        if file.startswith(folder):
            return frozenset({game})
    params = nodeid.partition("[")[2]
    named = frozenset(game for game in registered if game in params)
    if named:
        return named
    if file.startswith(NO_GAME) and file not in EVERY_GAME:
        return frozenset()
    return registered


def _warm(nodeids: list[str]) -> None:
    """Compile (engine, search bot, analyses) the games the collected tests ``nodeids`` play."""
    import sim  # noqa: F401  (points NUMBA_CACHE_DIR at the cache of these sources)
    from sim.core.registry import all_games
    from sim.core.warm import warm_all

    registered = frozenset(all_games())
    games = frozenset().union(*(games_of(nodeid, registered) for nodeid in nodeids))
    if games:
        warm_all(search=True, only=games)


def pytest_collection_finish(session):
    """Without xdist: warm up once collection is done."""
    config = session.config
    if hasattr(config, "workerinput") or config.option.collectonly:
        return  # an xdist worker (the controller warms up), or nothing will run
    _warm([item.nodeid for item in session.items])


_warmed_by_controller = False


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent without pytest-xdist
def pytest_xdist_node_collection_finished(node, ids):
    """With xdist: the controller warms up when the first worker has collected (every worker collects
    the same tests), before it hands out any test."""
    global _warmed_by_controller
    if not _warmed_by_controller:
        _warmed_by_controller = True
        _warm(list(ids))


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
