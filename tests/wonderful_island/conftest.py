import pytest
from wi_helpers import PARTISAN, RANDOM, rules

from sim.games.wonderful_island import GAME, engine


@pytest.fixture(scope="session")
def base_rules():
    return rules()


@pytest.fixture(scope="session")
def batches():
    """Rows of a few thousand games per player count and bot set, shared by the property tests."""
    out = {}
    for players in (3, 6, 8):
        r = rules(f"players={players}")
        for name, bots in (("partisan", PARTISAN), ("random", RANDOM)):
            out[players, name] = (r, engine.run_batch(r, bots, 11, 0, 1500)[0])
    return out


@pytest.fixture(scope="session")
def game():
    return GAME
