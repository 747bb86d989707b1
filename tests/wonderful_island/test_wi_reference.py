"""The plain-Python reference agrees with the batch engine in law: camp win rates and the ending mix.

The engine plays 50,000 games per bot set; the reference (about 300 games/s) plays
``WI_REFERENCE_GAMES`` (default 4,000; set 50000 for the full check, about 3 minutes per bot set).
Each rate must agree within 4 standard errors of the difference (deterministic seeds, so the test is
not flaky), with a Holm-corrected score test at 1 % as a second guard.
"""

import math
import os
from pathlib import Path

import pytest
from wi_helpers import rules

from sim.core import stats
from sim.core.layout import switchable_rules, switched
from sim.games.wonderful_island import GAME, engine, reference
from sim.games.wonderful_island.catalogue import load_catalogue
from sim.games.wonderful_island.rules import WonderfulIslandRules
from sim.games.wonderful_island.state import END_NAMES

ENGINE_GAMES = 50_000
REFERENCE_GAMES = int(os.environ.get("WI_REFERENCE_GAMES", "4000"))
# every bot of every role: random and partisan in each camp, random, partisan and politician for the
# politicians; "mixed" seats three different bots at one table
BOTS = {"random": {"blue": "random", "green": "random", "politician": "random"},
        "partisan": {"blue": "partisan", "green": "partisan", "politician": "politician"},
        "partisan politicians": {"blue": "partisan", "green": "partisan", "politician": "partisan"},
        "mixed": {"blue": "random", "green": "partisan", "politician": "partisan"}}


@pytest.mark.slow
@pytest.mark.parametrize("bot_set", list(BOTS))
def test_reference_agrees_with_the_engine(reference_memo, bot_set):
    """WI-END-1, WI-END-3, WI-END-4, WI-END-5: same camp win rates and endings from two independent codes."""
    extra = bot_set not in ("random", "partisan")  # the added tables: half the games (time)
    assert_agree(reference_memo, rules("players=6"), bot_set, ENGINE_GAMES // (2 if extra else 1),
                 REFERENCE_GAMES // (2 if extra else 1))


@pytest.mark.slow
@pytest.mark.parametrize("rule", switchable_rules(WonderfulIslandRules))
def test_reference_agrees_with_each_switchable_rule_switched(reference_memo, rule):
    """Every on/off rule of WonderfulIslandRules (sim.core.layout.switchable_rules: a new bool field is
    picked up here without a new test), switched from the base scenario's setting: same camp win rates
    and endings from engine and reference."""
    assert_agree(reference_memo, switched(rules("players=6"), rule), "partisan", 20_000, min(REFERENCE_GAMES, 2000))


def assert_agree(memo, r, bot_set, engine_games, reference_games):
    """Engine (``engine_games``) and reference (``reference_games``, kept between runs by ``memo``: the
    ``reference_memo`` fixture) agree in every camp's win rate, every ending's rate and the mean rounds."""
    names = BOTS[bot_set]
    rows, _, _ = engine.run_batch(r, GAME.bot_numbers(names), 2024, 0, engine_games)
    ref = memo(Path(reference.__file__), (r, load_catalogue(r.catalogue), names, reference_games),
               lambda: {k: int(v) for k, v in reference.play_many(r, names, 2024, reference_games).items()})
    eng = {"win_blue": rows[:, 0].sum(), "win_green": rows[:, 1].sum(), "win_politician": rows[:, 2].sum()}
    for i, name in enumerate(END_NAMES[1:], start=1):
        eng[name] = int((rows[:, 3] == i).sum())
    p_values, report = [], []
    for key, k_eng in eng.items():
        k_ref = ref[key]
        diff = stats.rate_difference(int(k_eng), engine_games, int(k_ref), reference_games)
        pe, pr = k_eng / engine_games, k_ref / reference_games
        se = math.sqrt(max(pe * (1 - pe), 1e-4) / engine_games + max(pr * (1 - pr), 1e-4) / reference_games)
        report.append(f"{key}: engine {pe:.4f} (n {engine_games}) reference {pr:.4f} (n {reference_games}) "
                      f"diff {diff.diff:+.4f} (se {se:.4f}, p {diff.p_value:.2g})")
        assert abs(pr - pe) <= 4 * se, f"{key} differs by more than 4 standard errors ({bot_set}):\n" + "\n".join(report)
        p_values.append(diff.p_value)
    rejected = [key for key, r in zip(eng, stats.holm(p_values, alpha=0.01), strict=True) if r]
    assert not rejected, f"{rejected}: score test rejected at 1 % after Holm ({bot_set}):\n" + "\n".join(report)
    rounds_eng, rounds_ref = rows[:, 4].mean(), ref["rounds"] / reference_games
    assert abs(rounds_ref - rounds_eng) < 0.15, (
        f"mean rounds a game ({bot_set}): engine {rounds_eng:.3f}, reference {rounds_ref:.3f}, differ by 0.15 or more")
