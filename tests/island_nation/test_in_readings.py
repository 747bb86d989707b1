"""The assumed readings of the rule text and their other readings (docs/rules/island-nation.md,
"Readings"): each switch in the engine and in the plain-Python reference, on hand-set states."""

from __future__ import annotations

import random

import numpy as np
import pytest
from in_helpers import frogman_seats, make_state, members, rules, setup_tables
from sim_cli import run_sim

from sim.core.rng import game_stream
from sim.core.scenario import load_scenario
from sim.games.island_nation import GAME
from sim.games.island_nation import engine as E
from sim.games.island_nation.board import default_board
from sim.games.island_nation.reference import Artillery, Game
from sim.games.island_nation.state import ESC_ROUND, ESCAPE, FPOS, OVER, REASON

NOLOG = np.zeros((0, 6), dtype=np.int64)
READINGS = ("mines", "evac_escape", "frogman_shot_direction", "frogman_shoots_traitors",
            "frogman_may_stay_on_artillery")


def test_every_reading_is_an_assumed_value_of_the_base_scenario():
    """Each reading is a rule value marked assumed with its note (what `sim rules` lists)."""
    scen = load_scenario("island-nation", GAME.rules_model, "base", [])
    for key in READINGS:
        assert scen.sources[key].kind == "assumed" and scen.sources[key].note, key
    assert (scen.rules.mines, scen.rules.evac_escape, scen.rules.frogman_shot_direction,
            scen.rules.frogman_shoots_traitors, scen.rules.frogman_may_stay_on_artillery) == (
        1, "entering", "secret", False, True)
    variant = load_scenario("island-nation", GAME.rules_model, "escape-standing", [])
    assert variant.rules.evac_escape == "standing"


def _reference(r, frog: str, artillery: list[str], public: list[str], rnd: int, bullets: int = 0) -> Game:
    board = default_board()
    game = Game(board, r, "runner", "hunter", random.Random(5))
    game.frogman, game.frogman_bullets, game.round = board.index[frog], bullets, rnd
    game.arts = [Artillery(board.index[a], 2, 2) for a in artillery]
    game.public = {board.index[p] for p in public}
    return game


@pytest.mark.parametrize("reading", ["entering", "standing"])
def test_in_win_f1_standing_on_an_evac_point_as_the_window_opens(reading):
    """IN-WIN-F1: on evac point A (its one road held by artillery) when its round-7 turn opens, the
    frogman escapes at once in the 'standing' reading and, boxed in, passes in the 'entering' one
    (engine and reference)."""
    r = rules(players=4, evac_escape=reading)
    board, T, P = setup_tables(r)
    st = make_state(board, P, "A", ["3", "64", "11"], belief=["A", "25"], rnd=7, bullets=0)
    E.frogman_turn(T, P, st, frogman_seats(1), game_stream(1, 0), NOLOG)
    game = _reference(r, "A", ["3", "64", "11"], ["A", "25"], 7)
    game.frogman_turn()
    assert st.g[FPOS] == board.index["A"] and game.frogman == board.index["A"]
    if reading == "standing":
        assert st.g[OVER] == 1 and st.g[REASON] == ESCAPE and st.g[ESC_ROUND] == 7
        assert game.over is not None and game.over.reason == "escape" and game.over.escape_round == 7
    else:
        assert st.g[OVER] == 0 and game.over is None


def test_in_win_f1_standing_reading_rules_out_evac_points_when_no_escape_happens():
    """IN-WIN-F1 'standing', IN-BELIEF-2: a window turn that opens without an escape tells the public
    the frogman stands on no evac point (engine and reference)."""
    r = rules(players=4, evac_escape="standing")
    board, T, P = setup_tables(r)
    st = make_state(board, P, "40", ["64", "11", "103"], belief=["40", "A", "B"], rnd=8, bullets=0)
    E._escape_standing(T, st, NOLOG, st.g[FPOS])
    assert st.g[OVER] == 0 and members(st.bel[0], st.bel[1], T.n) == {board.index["40"]}
    game = _reference(r, "40", ["64", "11", "103"], ["40", "A", "B"], 8)
    game.frogman_turn()
    assert not {board.index["A"], board.index["B"]} & game.public


@pytest.mark.parametrize("told", ["secret", "announced"])
def test_in_shoot_4_an_announced_direction_filters_the_public_set_by_that_line_only(told):
    """IN-SHOOT-4, IN-BELIEF-5: the public keeps the points from which the shot, in any direction
    (secret) or in the announced one, would have hit the artillery that was hit (engine and reference)."""
    r = rules(players=5, frogman_shot_direction=told)
    board, T, P = setup_tables(r)
    everywhere = [board.labels[p] for p in range(T.n) if not board.is_evac[p]]
    st = make_state(board, P, "103", ["105", "40", "11", "64"], belief=everywhere)
    directions = [2] if told == "announced" else range(6)
    before = members(st.bel[0], st.bel[1], T.n)
    possible = {p for p in before if 0 in {E.frogman_shot_victim(T, P, st, p, d) for d in directions}}
    E._frogman_shoots(T, P, st, NOLOG, 2, False)
    assert members(st.bel[0], st.bel[1], T.n) == possible
    game = _reference(r, "103", ["105", "40", "11", "64"], everywhere, 3, bullets=1)
    game.frogman_shoots(2, False)
    assert game.public == possible
    if told == "announced":  # strictly more is learnt than from the victim alone
        secret = {p for p in before if 0 in {E.frogman_shot_victim(T, P, make_state(
            board, P, "103", ["105", "40", "11", "64"]), p, d) for d in range(6)}}
        assert possible < secret


@pytest.mark.parametrize("shoots_traitors", [False, True])
def test_in_card_5_a_traitor_on_the_line_is_immune_or_hit(shoots_traitors):
    """IN-CARD-5, IN-SHOOT-4/5: a traitor on 105 before a loyal artillery on 106: the frogman's shot
    from 103 in direction 3 passes the traitor (immune) or hits it (the other reading)."""
    r = rules(players=4, frogman_shoots_traitors=shoots_traitors)
    board, T, P = setup_tables(r)
    st = make_state(board, P, "103", ["105", "106", "11"])
    st.traitor[0] = 1
    E._frogman_shoots(T, P, st, NOLOG, 2, False)
    hit = 0 if shoots_traitors else 1
    assert st.ahp[hit] == P.artillery_hp - 1 and st.ahp[1 - hit] == P.artillery_hp
    game = _reference(r, "103", ["105", "106", "11"], ["103"], 3, bullets=1)
    game.arts[0].traitor = True
    game.frogman_shoots(2, False)
    assert game.arts[hit].hp == 1 and game.arts[1 - hit].hp == 2


@pytest.mark.parametrize("may_stay", [True, False])
def test_in_move_4_a_frogman_sharing_its_point_with_artillery_may_stay_or_must_leave(may_stay):
    """IN-MOVE-4 (不能主動停留), IN-TURN-3: an artillery walked onto the frogman's point 40. Where it
    may not stay, no bot stops there once a point is spent (here by a shot), and every turn ends off
    the point, in the engine and the reference; where it may stay, some bot turns end on it."""
    r = rules(players=4, frogman_may_stay_on_artillery=may_stay,
              deck=[{"name": "ammo box", "kind": "item", "effect": "bullets", "amount": 1, "count": 8}])
    board, T, P = setup_tables(r)
    f = board.index["40"]
    stayed = 0
    for bot, name in enumerate(GAME.bots["frogman"]):
        for i in range(60):
            st = make_state(board, P, "40", ["40", "103", "11"], belief=["40", "64"], rnd=3, bullets=2)
            E._deal_cards(P, st, game_stream(8, i))
            m0, m1 = E.artillery_mask(st, P.n_art)
            E.mark_threats(T, P, st)
            d = E.frogman_step(bot, T, P, st, game_stream(9, i), 1, P.ap, False, m0, m1)
            assert d >= 0 or may_stay, name
            E.frogman_turn(T, P, st, frogman_seats(bot), game_stream(10, i), NOLOG)
            stayed += st.g[FPOS] == f
            game = _reference(r, "40", ["40", "103", "11"], ["40", "64"], 3, bullets=2)
            game.fbot = name
            game.rng = random.Random(i)
            game.frogman_turn()
            stayed += game.frogman == f
            assert may_stay or (st.g[FPOS] != f and game.frogman != f), name
    assert may_stay == (stayed > 0)


def test_sim_rules_lists_every_assumed_value_and_reading(monkeypatch):
    """`sim rules island-nation` marks each switched reading assumed and lists the fixed readings."""
    from sim.core.display import console
    from sim.games.island_nation.rules import READINGS as FIXED

    monkeypatch.setattr(console, "width", 400)  # one table row a line
    proc = run_sim("rules", "island-nation")
    assert proc.returncode == 0, proc.stderr
    rows = {line.split("│")[1].strip(): line for line in proc.stdout.splitlines() if line.count("│") >= 4}
    for key in (*READINGS, "evac_from", "evac_to"):
        assert "assumed" in rows[key], key
    for clause, _ in FIXED:
        assert clause in proc.stdout
