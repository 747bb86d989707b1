"""Cards and abilities as effect primitives (IN-CARD-1..5, IN-ABILITY-1..3), on hand-set states of
the default map with the base scenario's deck and abilities, plus the belief property over games
that use them."""

from __future__ import annotations

import numpy as np
import pytest
from in_helpers import make_state, members, setup_tables
from test_in_properties import check_game

from sim.core.rng import game_stream
from sim.core.scenario import load_scenario
from sim.games.island_nation import GAME
from sim.games.island_nation import engine as E
from sim.games.island_nation.state import (
    AB_USES,
    BULLETS,
    CAN,
    CAN_AT,
    DECK_N,
    DECK_TOP,
    EXTRA_AP,
    EXTRA_AP_EFFECT,
    FHP,
    HEAL,
    N_PENDING,
    OVER,
    RADAR,
    REASON,
    TRAITOR,
    WINNER,
)

NOLOG = np.zeros((0, 6), dtype=np.int64)


@pytest.fixture(scope="module")
def base():
    rules = load_scenario("island-nation", GAME.rules_model, "base").rules
    board, T, P = setup_tables(rules)
    return rules, board, T, P


def dealt(board, T, P, frog="64", artillery=("11", "40", "1", "99"), seed=0, **kw):
    st = make_state(board, P, frog, list(artillery), **kw)
    E._deal_cards(P, st, game_stream(seed, 0))
    return st


def card_index(rules, effect, kind):
    return next(i for i, c in enumerate(rules.deck) if c.effect == effect and c.kind == kind)


def test_in_card_1_the_deck_is_shuffled_and_a_draw_needs_2_ap_and_a_card(base):
    """IN-CARD-1: the dealt deck is a permutation of the scenario's cards; drawing needs 2 AP and a
    card left, and takes the top card."""
    rules, board, T, P = base
    st = dealt(board, T, P)
    n = sum(c.count for c in rules.deck)
    assert st.g[DECK_N] == n == 28
    assert sorted(st.deck[:n]) == sorted(P.deck[:P.deck_n])
    other = dealt(board, T, P, seed=1)
    assert list(other.deck[:n]) != list(st.deck[:n])
    assert E._can_draw(st, 2) and not E._can_draw(st, 1)
    top = st.deck[0]
    E._draw(P, st, NOLOG, 1)
    assert st.g[DECK_TOP] == 1 and (st.hand[1, top] == 1 or st.pending[0] == top)
    st.g[DECK_TOP] = n
    assert not E._can_draw(st, 3)


def test_in_card_2_items_are_kept_and_used_at_no_action_point(base):
    """IN-CARD-2: an item drawn goes to the hand; used, it leaves the hand and applies its effect."""
    rules, board, T, P = base
    heal = card_index(rules, "heal", "item")
    st = dealt(board, T, P, hp=1)
    st.deck[0] = heal
    E._draw(P, st, NOLOG, 0)
    assert st.hand[0, heal] == 1 and st.g[FHP] == 1
    E._use_items(T, P, st, NOLOG, 2, 0, game_stream(0, 1))
    assert st.hand[0, heal] == 0 and st.g[FHP] == 2


def test_in_card_3_events_are_shown_at_once_and_resolve_at_the_end_of_the_turn(base):
    """IN-CARD-3: an event waits in ``pending`` (not in the hand) until the turn's end."""
    rules, board, T, P = base
    supply = card_index(rules, "bullets", "event")
    st = dealt(board, T, P)
    st.deck[0] = supply
    before = st.abul[0]
    E._draw(P, st, NOLOG, 1)
    assert st.g[N_PENDING] == 1 and st.hand[1, supply] == 0 and st.abul[0] == before
    E._resolve_events(T, P, st, NOLOG, 1)
    assert st.abul[0] == before + rules.deck[supply].amount and st.g[N_PENDING] == 0


def test_in_card_4_effect_primitives(base):
    """IN-CARD-4: heal (capped at the starting HP), bullets, extra action points, radar (the public
    set keeps the points within the radius on 'yes', loses them on 'no': IN-BELIEF-7)."""
    rules, board, T, P = base
    st = dealt(board, T, P, art_hp=1)
    E._apply_effect(T, P, st, NOLOG, 1, HEAL, 5)
    assert st.ahp[0] == P.artillery_hp
    E._apply_effect(T, P, st, NOLOG, 2, BULLETS, 2)
    assert st.abul[1] == P.artillery_bullets + 2
    E._apply_effect(T, P, st, NOLOG, 0, EXTRA_AP_EFFECT, 1)
    assert st.g[EXTRA_AP] == 1
    everywhere = [board.labels[p] for p in range(T.n) if not board.is_evac[p]]
    for frog in ("64", "12"):
        st = dealt(board, T, P, frog=frog, artillery=("63", "40", "1", "99"), belief=everywhere)
        ball = {q for q in range(T.n) if T.road_dist[board.index["63"], q] <= 2}
        inside = board.index[frog] in ball
        E._apply_effect(T, P, st, NOLOG, 1, RADAR, 2)
        got = members(st.bel[0], st.bel[1], T.n)
        expected = {board.index[x] for x in everywhere}
        assert got == (expected & ball if inside else expected - ball)


def test_in_card_5_the_traitor_is_hit_by_artillery_shots_and_the_last_loyal_turning_ends_the_game(base):
    """IN-CARD-5, IN-WIN-F2: the drawer turns traitor; when no loyal artillery is left, the frogman wins."""
    rules, board, T, P = base
    st = dealt(board, T, P, artillery=("11", "40"))
    for k in range(2, 5):
        st.ahp[k] = 0
    E._apply_effect(T, P, st, NOLOG, 1, TRAITOR, 0)
    assert st.traitor[0] == 1 and st.g[OVER] == 0
    E._apply_effect(T, P, st, NOLOG, 2, TRAITOR, 0)
    assert st.g[OVER] == 1 and st.g[WINNER] == 0 and st.g[REASON] == 1
    frog_first = dealt(board, T, P)
    E._apply_effect(T, P, frog_first, NOLOG, 0, TRAITOR, 0)
    assert frog_first.traitor.sum() == 0


def test_in_ability_1_2_each_artillery_gets_a_different_ability_with_limited_uses(base):
    """IN-ABILITY-1/2: dealt abilities are distinct characters; a use spends one of their uses."""
    rules, board, T, P = base
    seen = set()
    for seed in range(20):
        st = dealt(board, T, P, seed=seed)
        rows = {tuple(st.ability[k]) for k in range(P.n_art)}
        assert all(row[AB_USES] >= 1 for row in rows)
        seen |= rows
    assert len(seen) >= 6
    st = dealt(board, T, P)
    st.ability[0] = [EXTRA_AP_EFFECT, 2, 1]
    E._use_items(T, P, st, NOLOG, 2, 1, game_stream(0, 0))
    assert st.ability[0, AB_USES] == 0 and st.g[EXTRA_AP] == 2
    E._use_items(T, P, st, NOLOG, 2, 1, game_stream(0, 0))
    assert st.g[EXTRA_AP] == 2


def test_in_ability_3_the_can_token_tells_when_the_frogman_steps_on_it(base):
    """IN-ABILITY-3, IN-BELIEF-7: a step announced onto the can's point reveals it; any other step
    rules it out."""
    rules, board, T, P = base
    st = dealt(board, T, P, belief=["64", "11", "40"])
    E._apply_effect(T, P, st, NOLOG, 2, CAN, 0)
    assert st.g[CAN_AT] == board.index["40"]
    E._can_check(st, NOLOG, board.index["64"])
    assert members(st.bel[0], st.bel[1], T.n) == {board.index["64"], board.index["11"]}
    E._can_check(st, NOLOG, board.index["40"])
    assert members(st.bel[0], st.bel[1], T.n) == {board.index["40"]}


def test_in_belief_holds_with_cards_and_abilities(base):
    """IN-BELIEF-1..7 with the base deck and abilities (draws and extra AP in bottle turns), for
    every bot pairing."""
    rules = base[0]
    for fbot in range(3):
        for abot in range(3):
            for index in range(25):
                check_game(rules, [fbot, abot], 5, index)


def test_in_card_games_draw_use_and_turn_traitors():
    """IN-CARD-1..5 in play: over many base games cards are drawn and used and a traitor appears."""
    rules = load_scenario("island-nation", GAME.rules_model, "base").rules
    events = set()
    for index in range(60):
        trace = GAME.trace(rules, GAME.bot_numbers({"all": "random"}), 3, index)
        text = "\n".join(trace.lines)
        events |= {word for word in ("draws an item", "draws the event", "uses heal", "turns traitor", "radar")
                   if word in text}
    assert events >= {"draws an item", "draws the event", "radar"}
