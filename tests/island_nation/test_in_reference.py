"""The plain-Python reference and the batch engine agree within sampling error: the distribution of
how games end (escape in round 7, 8, 9, 10; all artillery dead; catch; shot; time) is the same by a
chi-square test of homogeneity (engine: 100,000 games; reference: as many as a few seconds allow),
for every bot of each role in its own pairing (ghost/hunter, runner/patrol, random/random) and in mixed
tables (a scripted frogman against random artillery and the other way round), three player counts,
without cards (core rules, hand-set loadout) and with them (base scenario). Seeds are fixed, so the
test is deterministic."""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
import pytest
from in_helpers import rules
from scipy.stats import chi2_contingency

from sim.core.layout import switchable_rules, switched
from sim.core.scenario import load_scenario
from sim.games.island_nation import GAME, reference
from sim.games.island_nation.board import default_board
from sim.games.island_nation.reference import REASONS, play_reference
from sim.games.island_nation.rules import IslandNationRules

ENGINE_GAMES = 100_000
CASES = [("core", "ghost", "hunter", 5, 800), ("core", "runner", "patrol", 6, 1500),
         ("core", "random", "random", 4, 3000), ("base", "ghost", "hunter", 5, 800),
         ("base", "runner", "patrol", 4, 1500), ("base", "random", "random", 6, 3000)]
# mixed tables: every bot also meets the other role's bots it never meets above
MIXED = [("base", "ghost", "random", 4, 600), ("core", "random", "hunter", 5, 1000),
         ("base", "runner", "hunter", 6, 600), ("core", "ghost", "patrol", 4, 600)]


def outcome_counts(pairs) -> collections.Counter:
    return collections.Counter(pairs)


@pytest.mark.slow
@pytest.mark.parametrize("scenario,frogman,artillery,players,ref_games", CASES + MIXED)
def test_in_reference_agrees_with_the_engine(reference_memo, scenario, frogman, artillery, players, ref_games):
    """IN-WIN-F1/F2, IN-WIN-A1/A2/A3 (and with the base deck and abilities, IN-CARD-1..5,
    IN-ABILITY-1..3): engine and reference end games alike (p > 0.001)."""
    r = (rules(players=players) if scenario == "core" else
         load_scenario("island-nation", GAME.rules_model, "base", [f"players={players}"]).rules)
    assert_agree(reference_memo, r, frogman, artillery, ref_games)


@pytest.mark.slow
@pytest.mark.parametrize("rule", switchable_rules(IslandNationRules))
def test_in_reference_agrees_with_each_switchable_rule_switched(reference_memo, rule):
    """Every on/off rule of IslandNationRules (sim.core.layout.switchable_rules: a new bool field is
    picked up here without a new test), switched from the base scenario's setting: engine and
    reference end games alike."""
    base = load_scenario("island-nation", GAME.rules_model, "base", ["players=5"]).rules
    assert_agree(reference_memo, switched(base, rule), "ghost", "hunter", 800, engine_games=30_000)


def reference_outcomes(board, r, frogman, artillery, ref_games) -> list[list[int]]:
    """How the reference's games 10,000 .. 10,000 + ref_games - 1 end: [reason, escape round, games]."""
    ends = outcome_counts((REASONS.index(o.reason), o.escape_round)
                          for o in (play_reference(board, r, frogman, artillery, 10_000 + i) for i in range(ref_games)))
    return [[reason, escape, n] for (reason, escape), n in sorted(ends.items())]


def assert_agree(memo, r, frogman, artillery, ref_games, engine_games=ENGINE_GAMES):
    """Engine (``engine_games``) and reference (``ref_games``, kept between runs by ``memo``: the
    ``reference_memo`` fixture) end games alike."""
    board = default_board()
    policy = np.array([GAME.bots["frogman"].index(frogman), GAME.bots["artillery"].index(artillery)])
    games = GAME.play(r, policy, 2024, 0, engine_games).games
    engine = outcome_counts(zip(games["end_reason"].tolist(), games["escape_round"].tolist(), strict=True))
    ref = collections.Counter({(reason, escape): n for reason, escape, n in memo(
        Path(reference.__file__), (board, r, frogman, artillery, ref_games),
        lambda: reference_outcomes(board, r, frogman, artillery, ref_games))})
    keys = sorted(set(engine) | set(ref))
    # pool outcomes too rare for the chi-square approximation into one cell
    rare = [k for k in keys if engine[k] / engine_games * ref_games < 5]
    common = [k for k in keys if k not in rare]
    table = [[engine[k] for k in common] + [sum(engine[k] for k in rare)],
             [ref[k] for k in common] + [sum(ref[k] for k in rare)]]
    table = np.array(table)
    used = table.sum(axis=0) > 0
    table = table[:, used]
    cells = [REASONS[k[0]] + (f" in round {k[1]}" if k[0] == 0 else "") for k in common] + ["rare"]
    cells = ", ".join(c for c, u in zip(cells, used, strict=True) if u)
    assert table.shape[1] >= 3
    _, p, _, _ = chi2_contingency(table)
    assert p > 1e-3, (f"how games end (end reason, escape round), chi-square homogeneity p = {p:.2g} <= 0.001; "
                      f"cells {cells}: engine {table[0].tolist()} of {engine_games}, "
                      f"reference {table[1].tolist()} of {ref_games}")
    win_engine = (games["winner"] == 0).mean()
    win_ref = sum(v for k, v in ref.items() if k[0] <= 1) / ref_games
    se = np.sqrt(win_engine * (1 - win_engine) * (1 / ref_games + 1 / engine_games))
    assert abs(win_engine - win_ref) < 4 * se + 1e-9, (
        f"frogman win rate: engine {win_engine:.4f} (n {engine_games}), reference {win_ref:.4f} (n {ref_games}), "
        f"difference {win_ref - win_engine:+.4f} beyond 4 standard errors ({4 * se:.4f})")


def test_in_setup_4_the_reference_places_artillery_on_numbered_points_only():
    """IN-SETUP-4 in the reference: the patrol beside its evac point, the random bot anywhere, both
    on strategic (numbered) points, never on an evac point A-F."""
    import random

    from sim.games.island_nation.reference import Game

    board = default_board()
    for bot in ("random", "patrol"):
        game = Game(board, rules(players=6), "ghost", bot, random.Random(3))
        for k in range(5):
            for _ in range(40):
                assert not board.is_evac[game.place_artillery(k)]


def test_in_turn_3_the_reference_frogman_boxed_in_without_bullets_draws():
    """IN-TURN-3 in the reference: boxed in, no bullet, a card left: a draw, not a pass."""
    import random

    from sim.games.island_nation.reference import Artillery, Game

    board = default_board()
    r = rules(players=4, deck=[{"name": "ammo box", "kind": "item", "effect": "bullets", "amount": 1, "count": 3}])
    game = Game(board, r, "ghost", "hunter", random.Random(1))
    f = board.index["64"]
    around = [q for q in board.road_step[f] if q >= 0]
    game.frogman, game.frogman_bullets, game.round = f, 0, 3
    game.arts = [Artillery(int(q), 2, 2) for q in around]
    game.public = {f, board.index["11"]}
    game.frogman_turn()
    assert len(game.deck) == 2 and sum(game.hands[0].values()) == 1
    assert game.public == {f, board.index["11"]}


@pytest.mark.slow
@pytest.mark.parametrize("rule,other", [("evac_escape", "standing"), ("frogman_shot_direction", "announced")])
def test_in_reference_agrees_with_each_other_reading(reference_memo, rule, other):
    """IN-WIN-F1, IN-SHOOT-4: the readings that are not on/off switches, set to their other value
    (switchable_rules picks up the bool ones): engine and reference end games alike."""
    base = load_scenario("island-nation", GAME.rules_model, "base", ["players=5"]).rules
    assert_agree(reference_memo, IslandNationRules.model_validate({**base.model_dump(), rule: other}), "ghost",
                 "hunter", 800, engine_games=30_000)
