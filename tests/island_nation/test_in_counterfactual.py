"""Counterfactual item and mine values (counterfactual.py, issue 14 §2): the default arm is the engine's
own game, an alternative is played only where it differs from the default, and each game depends on
(seed, game index) alone. IN-CARD-2, IN-MINE-1, IN-MINE-2."""

from __future__ import annotations

import numpy as np

from sim.core.scenario import load_scenario
from sim.games.island_nation import GAME
from sim.games.island_nation.batch import play_rows
from sim.games.island_nation.board import board_for
from sim.games.island_nation.counterfactual import alternatives, play_values, value_table

RULES = load_scenario(GAME.name, GAME.rules_model, "base", ["players=5"]).rules


def test_default_arm_replays_the_engines_games():
    out = play_values(RULES, 7, 0, 300)
    games, _, _ = play_rows(RULES, board_for(RULES), GAME.policy_array(RULES), 7, 0, 300)
    reached = out[:, 0] > 0
    assert reached.sum() > 200  # most games reach their sampled round (1..6)
    np.testing.assert_array_equal(out[reached, 1], (games["winner"][reached] == 0).astype(np.int64))
    assert set(np.unique(out[:, 2:])) <= {-1, 0, 1}


def test_mine_now_and_later_are_never_both_played():
    """IN-MINE-1/2: 'now' only where the ghost keeps its mine this turn, 'later' only where it places it."""
    out = play_values(RULES, 3, 0, 400)
    names = [name for name, _ in alternatives(RULES)]
    now, later = 2 + names.index("mine now"), 2 + names.index("mine later")
    assert (out[:, now] >= 0).any() and (out[:, later] >= 0).any()
    assert not ((out[:, now] >= 0) & (out[:, later] >= 0)).any()


def test_a_game_depends_on_seed_and_index_alone():
    whole = play_values(RULES, 11, 0, 60)
    np.testing.assert_array_equal(play_values(RULES, 11, 40, 20), whole[40:])


def test_value_table_is_the_paired_difference():
    out = np.array([[3, 1, 0, -1, -1, -1, -1], [2, 0, 1, -1, -1, -1, -1], [1, 1, 1, -1, -1, -1, -1]])
    name, n, base, alt, diff, _ = value_table(RULES, out)[0]
    assert name.startswith("drop") and n == 3
    assert (base, alt, diff) == (2 / 3, 2 / 3, 0.0)
