"""The session's warm-up (tests/conftest.py) leaves every engine, every search bot and every game's
analyses compiled, each recorded by its own marker file, so a second warm-up (or a test worker) compiles
none of them again."""

import os
from pathlib import Path

from sim.core.registry import all_games
from sim.core.warm import ensure_analyses_compiled, ensure_search_compiled, is_compiled, warm_all


def test_engines_search_bots_and_analyses_have_their_own_markers():
    folder = Path(os.environ["NUMBA_CACHE_DIR"])
    for name, spec in all_games().items():
        assert is_compiled(spec) and (folder / f"{name}.compiled").exists()
        assert (folder / f"{name}.search.compiled").exists() == (spec.search is not None)
        assert "warm_analyses" in spec.extras and (folder / f"{name}.analyses.compiled").exists()


def test_a_second_warm_up_compiles_nothing():
    assert set(warm_all(quiet=True, search=True).values()) == {0.0}
    assert all(ensure_search_compiled(spec) == 0.0 for spec in all_games().values())
    assert all(ensure_analyses_compiled(spec) == 0.0 for spec in all_games().values())

