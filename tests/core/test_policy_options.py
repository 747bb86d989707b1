"""The bot choice syntax: scripted bots by name, the search bot with its budget (``search:k=v``)."""

import dataclasses

import numpy as np
import pytest
from toy_game import TOY

from sim.core.errors import UserError
from sim.core.game import SearchBot

SEARCHING = dataclasses.replace(TOY, search=SearchBot(options=(("rollouts", 32, "rollouts per action"),
                                                               ("worlds", 4, "hidden states sampled"))))


def test_default_is_the_strongest_scripted_bot_not_search():
    policy = SEARCHING.policy_array(None)
    assert SEARCHING.policy_names(policy) == {"0": "cautious", "1": "cautious"}
    assert SEARCHING.search_options(policy).tolist() == [[32, 4], [32, 4]]


def test_search_takes_its_budget_per_role():
    policy = SEARCHING.policy_array(None, {"0": "search:rollouts=64", "1": "random"})
    assert policy[0] == len(TOY.bots["0"])  # one past the scripted bots
    assert SEARCHING.search_options(policy).tolist() == [[64, 4], [32, 4]]
    assert SEARCHING.policy_names(policy) == {"0": "search:rollouts=64", "1": "random"}
    assert SEARCHING.policy_names(SEARCHING.policy_array(None, {"all": "search"}))["1"] == "search"


def test_names_round_trip():
    for text in ("search", "search:worlds=9", "search:rollouts=5,worlds=2", "random"):
        policy = SEARCHING.policy_array(None, {"0": text})
        again = SEARCHING.policy_array(None, {"0": SEARCHING.policy_names(policy)["0"]})
        assert np.array_equal(policy, again)


@pytest.mark.parametrize("text, says", [
    ("search:depth=3", "OPTION one of rollouts, worlds"),
    ("search:rollouts=0", "whole number from 1 to 65,536"),
    ("search:rollouts=x", "whole number from 1 to 65,536"),
    ("cautious:rollouts=3", "only the search bot takes options"),
    ("searcher", "expected one of random, cautious, search"),
])
def test_bad_budget_is_a_user_error(text, says):
    with pytest.raises(UserError, match=says):
        SEARCHING.policy_array(None, {"0": text})


def test_game_without_search_refuses_it():
    with pytest.raises(UserError, match="expected one of random, cautious$"):
        TOY.policy_array(None, {"0": "search"})
    assert TOY.policy_array(None).tolist() == [1, 1]
