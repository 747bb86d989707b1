"""User errors cross process boundaries intact: a worker's error reaches the caller as itself."""

import pickle

import pytest

from sim.core.errors import ScenarioError, UserError


@pytest.mark.parametrize("error", [
    UserError("--games 0: expected a positive number of games"),
    ScenarioError("scenarios/island-nation/maps", "map", "a map file or one of kaoteng", "atlantis"),
    ScenarioError("base.toml", "rules.players", "an integer 3..6"),
])
def test_user_errors_survive_pickling(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error) and back.args == error.args
    assert vars(back) == vars(error)  # file, key, expected and found of a ScenarioError


def test_scenario_error_raised_in_a_worker_process_reaches_the_caller():
    from joblib import Parallel, delayed

    with pytest.raises(ScenarioError, match="maps: map: expected a map file") as caught:
        Parallel(n_jobs=2)(delayed(_raise)(i) for i in range(2))
    assert caught.value.key == "map" and caught.value.found == "atlantis"


def _raise(i):
    raise ScenarioError("maps", "map", "a map file", "atlantis")
