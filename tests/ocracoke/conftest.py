import numpy as np
import pytest
from ocracoke_helpers import make_rules

from sim.games.ocracoke import GAME, play


@pytest.fixture(scope="session")
def rules4():
    return make_rules(players=4)


@pytest.fixture(scope="session")
def warm(rules4):
    """Compile (or load) the engine once for the session."""
    play(rules4, np.array([2, 2, 2, 2]), 0, 0, 10)
    return GAME
