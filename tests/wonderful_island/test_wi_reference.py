"""The plain-Python reference agrees with the batch engine in law: camp win rates and the ending mix.

The engine plays 50,000 games per bot set; the reference (about 300 games/s) plays
``WI_REFERENCE_GAMES`` (default 4,000; set 50000 for the full check, about 3 minutes per bot set).
Each rate must agree within 4 standard errors of the difference (deterministic seeds, so the test is
not flaky), with a Holm-corrected score test at 1 % as a second guard.
"""

import math
import os

import pytest
from wi_helpers import rules

from sim.core import stats
from sim.core.layout import switchable_rules, switched
from sim.games.wonderful_island import GAME, engine, reference
from sim.games.wonderful_island.rules import WonderfulIslandRules
from sim.games.wonderful_island.state import END_NAMES

ENGINE_GAMES = 50_000
REFERENCE_GAMES = int(os.environ.get("WI_REFERENCE_GAMES", "4000"))
BOTS = {"random": {"blue": "random", "green": "random", "politician": "random"},
        "partisan": {"blue": "partisan", "green": "partisan", "politician": "politician"}}


@pytest.mark.slow
@pytest.mark.parametrize("bot_set", ["random", "partisan"])
def test_reference_agrees_with_the_engine(bot_set):
    """WI-END-1, WI-END-3, WI-END-4, WI-END-5: same camp win rates and endings from two independent codes."""
    assert_agree(rules("players=6"), bot_set, ENGINE_GAMES, REFERENCE_GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("rule", switchable_rules(WonderfulIslandRules))
def test_reference_agrees_with_each_switchable_rule_switched(rule):
    """Every on/off rule of WonderfulIslandRules (sim.core.layout.switchable_rules: a new bool field is
    picked up here without a new test), switched from the base scenario's setting: same camp win rates
    and endings from engine and reference."""
    assert_agree(switched(rules("players=6"), rule), "partisan", 20_000, min(REFERENCE_GAMES, 2000))


def assert_agree(r, bot_set, engine_games, reference_games):
    names = BOTS[bot_set]
    rows, _, _ = engine.run_batch(r, GAME.bot_numbers(names), 2024, 0, engine_games)
    ref = reference.play_many(r, names, 2024, reference_games)
    eng = {"win_blue": rows[:, 0].sum(), "win_green": rows[:, 1].sum(), "win_politician": rows[:, 2].sum()}
    for i, name in enumerate(END_NAMES[1:], start=1):
        eng[name] = int((rows[:, 3] == i).sum())
    p_values, report = [], []
    for key, k_eng in eng.items():
        k_ref = ref[key]
        diff = stats.rate_difference(int(k_eng), engine_games, int(k_ref), reference_games)
        pe, pr = k_eng / engine_games, k_ref / reference_games
        se = math.sqrt(max(pe * (1 - pe), 1e-4) / engine_games + max(pr * (1 - pr), 1e-4) / reference_games)
        report.append(f"{key}: engine {pe:.4f} reference {pr:.4f} diff {diff.diff:+.4f} (se {se:.4f})")
        assert abs(pr - pe) <= 4 * se, "\n".join(report)
        p_values.append(diff.p_value)
    assert not any(stats.holm(p_values, alpha=0.01)), "\n".join(report)
    assert abs(ref["rounds"] / reference_games - rows[:, 4].mean()) < 0.15
