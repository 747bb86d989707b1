import pytest
from ocracoke_helpers import make_rules, seated

from sim.games.ocracoke import GAME, play


@pytest.fixture(scope="session")
def rules4():
    return make_rules(players=4)


@pytest.fixture(scope="session")
def warm(rules4):
    """Compile (or load) the engine once for the session."""
    play(rules4, seated("counter"), 0, 0, 10)
    return GAME
