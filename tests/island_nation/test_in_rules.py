"""One test (at least) per rule clause of docs/rules/island-nation.md, on hand-set states of the
default map. Each applies the engine's own rule function and checks the state and the public set."""

from __future__ import annotations

import numpy as np
import pytest
from in_helpers import frogman_seats, make_state, members, rules, setup_tables, words

from sim.core.errors import ScenarioError
from sim.core.rng import game_stream
from sim.core.scenario import load_scenario
from sim.games.island_nation import GAME
from sim.games.island_nation import engine as E
from sim.games.island_nation.state import (
    ALL_DEAD,
    ARTILLERY,
    CATCH,
    DECK_TOP,
    ESC_EXIT,
    ESC_ROUND,
    ESCAPE,
    FBUL,
    FHP,
    FPOS,
    FROGMAN,
    MINE_AT,
    MINES_LEFT,
    NLOG,
    OVER,
    REASON,
    SHOT,
    WINNER,
)

NOLOG = np.zeros((0, 6), dtype=np.int64)


@pytest.fixture(scope="module")
def world():
    return setup_tables()


def labels(board, points):
    return {board.labels[p] for p in points}


def test_in_setup_1_players_are_one_frogman_and_three_to_five_artillery():
    """IN-SETUP-1: 4–6 players; n_artillery = players − 1; 3 or 7 players are refused."""
    for p in (4, 5, 6):
        assert rules(players=p).n_artillery == p - 1
    for bad in (3, 7):
        with pytest.raises(ScenarioError):
            load_scenario("island-nation", GAME.rules_model, "base", [f"players={bad}"])


def test_in_setup_2_hp_and_bullets_follow_the_player_count():
    """IN-SETUP-2: the loadout is the table's column for the player count."""
    r = rules(players=6, frogman_hp=[3, 4, 5], frogman_bullets=[1, 2, 3], artillery_hp=[2, 3, 4],
              artillery_bullets=[0, 1, 2])
    assert r.loadout() == (5, 3, 4, 2)
    _, T, P = setup_tables(r)
    st = make_state(setup_tables(r)[0], P, "64", [])
    E.setup(T, P, st, GAME.bot_numbers({"frogman": "runner", "artillery": "patrol"}), game_stream(1, 0), NOLOG)
    assert st.g[FHP] == 5 and st.g[FBUL] == 3
    assert list(st.ahp[:5]) == [4] * 5 and list(st.abul[:5]) == [2] * 5


def test_in_setup_3_4_frogman_starts_on_a_numbered_point_and_belief_is_every_numbered_point(world):
    """IN-SETUP-3/4, IN-BELIEF-1: start on a numbered point; every bot places its artillery on a
    strategic (numbered) point, never on an evac point A-F; public set = numbered points."""
    board, T, P = world
    numbered = {p for p in range(T.n) if not board.is_evac[p]}
    for bot in (0, 1, 2):
        for i in range(30):
            st = make_state(board, P, "64", [])
            E.setup(T, P, st, np.array([bot, bot]), game_stream(3, i), NOLOG)
            assert st.g[FPOS] in numbered
            assert members(st.bel[0], st.bel[1], T.n) == numbered
            assert {int(st.apos[k]) for k in range(P.n_art)} <= numbered, GAME.bots["artillery"][bot]


def test_in_setup_4_the_patrol_places_beside_the_evac_point_it_guards(world):
    """IN-SETUP-4: the patrol's artillery k stands on the numbered point nearest evac point k (mod 6)."""
    board, T, P = world
    st = make_state(board, P, "64", [])
    E.setup(T, P, st, GAME.bot_numbers({"frogman": "runner", "artillery": "patrol"}), game_stream(3, 0), NOLOG)
    evac = [p for p in range(T.n) if board.is_evac[p]]
    for k in range(P.n_art):
        e = evac[k % len(evac)]
        nearest = min(T.road_dist[e, q] for q in range(T.n) if not board.is_evac[q])
        assert T.road_dist[e, st.apos[k]] == nearest


def test_in_turn_3_a_boxed_in_frogman_without_bullets_draws_a_card_rather_than_pass(world):
    """IN-TURN-3, IN-CARD-1: at least one point must be spent; boxed in with no bullet but a card
    left, the frogman draws (2 AP) instead of passing, and the public set is not cut to boxed-in points."""
    board, _, _ = world
    r = rules(deck=[{"name": "ammo box", "kind": "item", "effect": "bullets", "amount": 1, "count": 4}])
    _, T, P = setup_tables(r)
    f = board.index["64"]
    around = [board.labels[q] for q in T.road_step[f] if q >= 0]
    for bot in (0, 1, 2):
        st = make_state(board, P, "64", around, belief=["64", "11", "40"], bullets=0)
        E._deal_cards(P, st, game_stream(4, 2))
        log = np.zeros((64, 6), dtype=np.int64)
        E.frogman_turn(T, P, st, frogman_seats(bot), game_stream(4, 1), log)
        events = list(log[:st.g[NLOG], 0])
        assert E.EV_DRAW in events and E.EV_PASS not in events
        assert st.g[DECK_TOP] == 1 and st.hand[0].sum() == 1
        assert st.g[FPOS] == f
        assert members(st.bel[0], st.bel[1], T.n) == labels_to_points(board, ["64", "11", "40"])


def labels_to_points(board, names):
    return {board.index[n] for n in names}


def test_in_move_1_2_4_announced_steps_follow_roads_and_belief_maps_through_them(world):
    """IN-MOVE-1/2, IN-BELIEF-2, IN-MAP-EX1: from 64 the steps 6, 1, 6 end at 11; the public set,
    starting as {64, 11}, follows the same road steps."""
    board, T, P = world
    ix = board.index
    st = make_state(board, P, "64", [], belief=["64", "11"])
    s0, s1 = st.bel[0], st.bel[1]
    f = ix["64"]
    for d in (6, 1, 6):
        f = T.road_step[f, d - 1]
        s0, s1 = E.image_of(T, d - 1, s0, s1)
    assert board.labels[f] == "11"
    assert f in members(s0, s1, T.n)
    expected = set()
    g = ix["11"]
    ok = True
    for d in (6, 1, 6):
        g = T.road_step[g, d - 1]
        if g < 0:
            ok = False
            break
    if ok:
        expected.add(g)
    assert members(s0, s1, T.n) == {f} | expected


def test_in_move_4_the_frogman_never_steps_onto_artillery_and_belief_drops_artillery_points(world):
    """IN-MOVE-4: a bot never chooses a step onto artillery; the public set loses artillery points."""
    board, T, P = world
    ix = board.index
    f = ix["64"]
    blocked = [board.labels[q] for q in T.road_step[f] if q >= 0]
    free = blocked.pop()
    st = make_state(board, P, "64", blocked, belief=[board.labels[p] for p in range(T.n) if not board.is_evac[p]],
                    rnd=3)
    for bot in (0, 1, 2):
        for i in range(20):
            st.g[FPOS] = f
            m0, m1 = E.artillery_mask(st, P.n_art)
            E.mark_threats(T, P, st)
            d = E.frogman_step(bot, T, P, st, game_stream(9, i), 0, P.ap, False, m0, m1)
            assert board.labels[T.road_step[f, d]] == free
    st.g[FPOS] = f
    E.frogman_turn(T, P, st, frogman_seats(1), game_stream(4, 0), NOLOG)
    art = {ix[b] for b in blocked}
    assert st.g[FPOS] not in art and st.g[FPOS] != f
    assert not members(st.bel[0], st.bel[1], T.n) & art


def test_in_move_3_and_turn_3_a_frogman_that_cannot_step_and_has_no_bullet_passes(world):
    """IN-TURN-3, IN-MOVE-3, IN-BELIEF-6: boxed in with no bullet the frogman passes, staying put;
    the public set keeps only boxed-in points."""
    board, T, P = world
    f = board.index["64"]
    around = [board.labels[q] for q in T.road_step[f] if q >= 0]
    st = make_state(board, P, "64", around, belief=["64", "11", "40"], bullets=0)
    E.frogman_turn(T, P, st, frogman_seats(2), game_stream(4, 1), NOLOG)
    assert st.g[FPOS] == f
    assert members(st.bel[0], st.bel[1], T.n) == {f}


def test_in_turn_2_the_frogman_takes_at_most_action_points_steps(world):
    """IN-TURN-2: with 3 AP at most 3 road steps (road distance of the end point <= 3)."""
    board, T, P = world
    for i in range(200):
        st = make_state(board, P, "64", ["1"], rnd=3, bullets=0)
        E.frogman_turn(T, P, st, frogman_seats(0), game_stream(11, i), NOLOG)
        assert T.road_dist[board.index["64"], st.g[FPOS]] <= P.ap


def test_in_move_5_6_artillery_share_points_and_stand_on_the_frogman(world):
    """IN-MOVE-5/6: two artillery may share a point, including the frogman's; nothing is revealed."""
    board, T, P = world
    ix = board.index
    f = ix["64"]
    d = int(np.flatnonzero(T.road_step[f] >= 0)[0])
    nb = board.labels[T.road_step[f, d]]
    back = int(np.flatnonzero(T.road_step[T.road_step[f, d]] == f)[0])
    st = make_state(board, P, "64", [nb, nb], belief=["64", "11"])
    before = (st.bel[0], st.bel[1])
    E._artillery_moves(T, P, st, NOLOG, 0, back)
    E._artillery_moves(T, P, st, NOLOG, 1, back)
    assert st.apos[0] == st.apos[1] == f
    assert (st.bel[0], st.bel[1]) == before and st.g[OVER] == 0


def test_in_shoot_1_2_3_artillery_shot_covers_the_line_and_costs_a_bullet(world):
    """IN-SHOOT-1/3, IN-MAP-EX3, IN-BELIEF-4: a shot from 103 in direction 3 covers 104, 105, 106;
    a miss drops them from the public set, a bullet is spent."""
    board, T, P = world
    st = make_state(board, P, "64", ["103"], belief=["64", "104", "105", "106", "11"])
    E._artillery_shoots(T, P, st, NOLOG, 0, 2)
    assert labels(board, members(st.bel[0], st.bel[1], T.n)) == {"64", "11"}
    assert st.abul[0] == P.artillery_bullets - 1 and st.g[FHP] == P.frogman_hp


def test_in_shoot_7_a_hit_keeps_only_the_covered_points_and_costs_the_frogman_1_hp(world):
    """IN-SHOOT-7, IN-BELIEF-4, IN-WIN-A2: the frogman on 105 is hit; the set keeps 104–106 only;
    at 0 HP the artillery win by shot."""
    board, T, P = world
    st = make_state(board, P, "105", ["103"], belief=["64", "104", "105", "106", "11"], hp=2)
    E._artillery_shoots(T, P, st, NOLOG, 0, 2)
    assert labels(board, members(st.bel[0], st.bel[1], T.n)) == {"104", "105", "106"}
    assert st.g[FHP] == 1 and st.g[OVER] == 0
    st.abul[0] = 1
    E._artillery_shoots(T, P, st, NOLOG, 0, 2)
    assert st.g[OVER] == 1 and st.g[WINNER] == ARTILLERY and st.g[REASON] == SHOT


def test_in_shoot_7_artillery_shots_pass_loyal_artillery_but_stop_at_a_traitor(world):
    """IN-SHOOT-7, IN-SHOOT-5: a loyal artillery on 104 does not stop the shot; a traitor on 104 is
    hit first and the frogman on 105 is not; the public drops 104 only."""
    board, T, P = world
    st = make_state(board, P, "105", ["103", "104"], belief=["104", "105", "106", "11"])
    E._artillery_shoots(T, P, st, NOLOG, 0, 2)
    assert st.g[FHP] == P.frogman_hp - 1
    st = make_state(board, P, "105", ["103", "104"], belief=["104", "105", "106", "11"])
    st.traitor[1] = 1
    E._artillery_shoots(T, P, st, NOLOG, 0, 2)
    assert st.g[FHP] == P.frogman_hp and st.ahp[1] == P.artillery_hp - 1
    assert labels(board, members(st.bel[0], st.bel[1], T.n)) == {"105", "106", "11"}


def test_in_shoot_4_5_6_frogman_shot_hits_the_nearest_and_public_learns_who(world):
    """IN-SHOOT-4/5/6, IN-BELIEF-5: from 103 in direction 3, artillery on 105 and 106: the one on 105
    is hit; of two on 105 the weaker; the public keeps only points where that is possible."""
    board, T, P = world
    st = make_state(board, P, "103", ["106", "105", "105"], belief=["103", "11", "64"])
    st.ahp[2] = 1
    E._frogman_shoots(T, P, st, NOLOG, 2, False)
    assert st.ahp[2] == 0 and st.ahp[1] == P.artillery_hp and st.ahp[0] == P.artillery_hp
    assert st.g[FBUL] == P.frogman_bullets - 1
    assert board.index["103"] in members(st.bel[0], st.bel[1], T.n)


def test_in_belief_5_the_frogman_shot_filter_is_exact(world):
    """IN-BELIEF-5: every point kept could have produced the outcome, every point dropped could not."""
    board, T, P = world
    everywhere = [board.labels[p] for p in range(T.n) if not board.is_evac[p]]
    st = make_state(board, P, "103", ["105", "40", "11"], belief=everywhere)
    victim = E.frogman_shot_victim(T, P, st, st.g[FPOS], 2)
    assert victim == 0
    before = members(st.bel[0], st.bel[1], T.n)
    possible = {p for p in before if 0 in {E.frogman_shot_victim(T, P, st, p, d) for d in range(6)}}
    assert 0 < len(possible) < len(before)
    E._frogman_shoots(T, P, st, NOLOG, 2, False)
    assert members(st.bel[0], st.bel[1], T.n) == possible


def test_in_catch_1_a_right_catch_wins_at_once(world):
    """IN-CATCH-1, IN-WIN-A1."""
    board, T, P = world
    st = make_state(board, P, "64", ["64"])
    E._artillery_catches(P, st, NOLOG, 0)
    assert st.g[OVER] == 1 and st.g[WINNER] == ARTILLERY and st.g[REASON] == CATCH


def test_in_catch_2_a_wrong_catch_costs_1_hp_and_drops_the_point(world):
    """IN-CATCH-2, IN-BELIEF-6."""
    board, T, P = world
    st = make_state(board, P, "64", ["11"], belief=["64", "11"])
    E._artillery_catches(P, st, NOLOG, 0)
    assert st.g[OVER] == 0 and st.ahp[0] == P.artillery_hp - 1
    assert labels(board, members(st.bel[0], st.bel[1], T.n)) == {"64"}


def test_in_death_1_and_win_f2_dead_artillery_leave_the_board_and_all_dead_frogman_wins(world):
    """IN-DEATH-1, IN-WIN-F2: at 0 HP an artillery no longer blocks; when the last loyal one dies
    the frogman wins."""
    board, T, P = world
    st = make_state(board, P, "64", ["11", "40"], belief=["64", "11", "40"], art_hp=1)
    E._artillery_catches(P, st, NOLOG, 0)
    m0, m1 = E.artillery_mask(st, P.n_art)
    assert members(m0, m1, T.n) == {board.index["40"]}
    assert st.g[OVER] == 0
    E._artillery_catches(P, st, NOLOG, 1)
    assert st.g[OVER] == 1 and st.g[WINNER] == FROGMAN and st.g[REASON] == ALL_DEAD


def test_in_mine_1_2_3_the_mine_is_on_the_path_and_hurts_the_first_artillery_only(world):
    """IN-MINE-1/2/3: the mine lies on a point of the placing turn's path; the first artillery to
    step on it loses 1 HP and the mine is gone."""
    board, T, P = world
    ix = board.index
    placed = 0
    for i in range(300):
        st = make_state(board, P, "64", ["11"], rnd=3, bullets=0)
        E.frogman_turn(T, P, st, frogman_seats(0), game_stream(21, i), NOLOG)
        if st.g[MINE_AT] >= 0:
            placed += 1
            assert st.g[MINES_LEFT] == 0 and T.road_dist[ix["64"], st.g[MINE_AT]] <= P.ap
            assert st.g[MINE_AT] in set(st.path[: P.ap + 1])
    assert placed > 0
    f = ix["64"]
    d = int(np.flatnonzero(T.road_step[f] >= 0)[0])
    nb = T.road_step[f, d]
    back = int(np.flatnonzero(T.road_step[nb] == f)[0])
    st = make_state(board, P, "11", [board.labels[nb], board.labels[nb]])
    st.g[MINE_AT] = f
    E._artillery_moves(T, P, st, NOLOG, 0, back)
    E._artillery_moves(T, P, st, NOLOG, 1, back)
    assert st.ahp[0] == P.artillery_hp - 1 and st.ahp[1] == P.artillery_hp and st.g[MINE_AT] == -1


def test_in_bottle_1_2_bottle_turn_resets_the_set_to_the_reach_of_the_bottle(world):
    """IN-BOTTLE-1/2, IN-BELIEF-3, IN-MAP-EX2: in round 2 the set becomes the points reachable from
    the bottle point in 1..3 steps avoiding artillery; the true point is among them."""
    board, T, P = world
    ix = board.index
    for i in range(50):
        st = make_state(board, P, "11", ["40"], belief=["11", "64", "1"], rnd=2, bullets=0)
        E.frogman_turn(T, P, st, frogman_seats(0), game_stream(5, i), NOLOG)
        got = members(st.bel[0], st.bel[1], T.n)
        reach = {q for q in range(T.n) if 1 <= T.road_dist[ix["11"], q] <= 3}
        assert st.g[FPOS] in got
        assert ix["40"] not in got and got <= reach | {ix["11"]}
        assert ix["64"] not in got or ix["64"] in reach


def test_in_win_f1_entering_an_evac_point_in_the_window_escapes(world):
    """IN-WIN-F1: a step onto an evac point in round 7 ends the game (escape); in round 6 it does not."""
    board, T, P = world
    e = int(T.evac_points[0])
    d = int(np.flatnonzero(T.road_step[:, :] == e)[0] % 6)
    p = int(np.flatnonzero(T.road_step[:, d] == e)[0])
    for rnd, escapes in ((6, False), (7, True)):
        st = make_state(board, P, board.labels[p], ["1"], rnd=rnd, bullets=0)
        E.frogman_turn(T, P, st, frogman_seats(1), game_stream(2, 0), NOLOG)
        if escapes:
            assert st.g[OVER] == 1 and st.g[REASON] == ESCAPE and st.g[WINNER] == FROGMAN
            assert st.g[ESC_ROUND] == 7 and T.is_evac[st.g[ESC_EXIT]] == 1
        else:
            assert st.g[OVER] == 0


def test_in_win_a3_and_turn_1_games_end_by_round_ten_with_time_as_the_last_resort():
    """IN-WIN-A3, IN-TURN-1: no game lasts past round 10; a game reaching its end is an artillery win."""
    r = rules()
    games = GAME.play(r, GAME.bot_numbers({"all": "random"}), 3, 0, 3000).games
    assert games["end_round"].max() <= 10 and games["end_round"].min() >= 1
    time_games = games["end_reason"] == 4
    assert time_games.any() and (games["end_round"][time_games] == 10).all()
    assert (games["winner"][time_games] == 1).all()


def test_strict_evac_scenario_moves_every_escape_into_rounds_8_and_9():
    """IN-WIN-F1 (variant strict-evac): escapes only in rounds 8 and 9."""
    scen = load_scenario("island-nation", GAME.rules_model, "strict-evac")
    games = GAME.play(scen.rules, GAME.bot_numbers(), 1, 0, 3000).games
    rounds = games["escape_round"][games["end_reason"] == 0]
    assert rounds.size > 0 and set(np.unique(rounds)) <= {8, 9}


def test_words_helper_roundtrip():
    s0, s1 = words([0, 63, 64, 119])
    assert members(s0, s1, 120) == {0, 63, 64, 119}


@pytest.mark.parametrize("sets,key", [
    (["evac_from=9", "evac_to=8"], "rules.evac_to"),
    (["frogman_hp=[1, 2]"], "rules.frogman_hp"),
    (["artillery_bullets=[2, -1, 2]"], "rules.artillery_bullets"),
    (["bottle_rounds=[2, 11]"], "rules.bottle_rounds"),
    (['abilities=[{name = "a", effect = "heal"}]'], "rules.abilities"),
    (['deck=[{name = "x", kind = "event", effect = "radar"}]'], "rules.deck"),
])
def test_in_setup_2_bad_rule_values_name_the_key(sets, key):
    """IN-SETUP-2, IN-WIN-F1, IN-BOTTLE-1, IN-CARD-4, IN-ABILITY-1: bad values raise a ScenarioError
    naming the key."""
    with pytest.raises(ScenarioError) as err:
        load_scenario("island-nation", GAME.rules_model, "base", sets)
    assert err.value.key.startswith(key)
