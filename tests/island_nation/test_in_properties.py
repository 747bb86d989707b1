"""Property tests over many random games and rule values (hypothesis): the true frogman point is
always inside the public set and the set is never empty (IN-BELIEF-1..6); HP and bullets never go
negative (IN-SHOOT-1); the frogman never ends a step on artillery (IN-MOVE-4); every game ends by
round 10 (IN-WIN-A3); at most one shot per turn (IN-SHOOT-2)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from in_helpers import members, rules, trace_log

from sim.games.island_nation import engine as E
from sim.games.island_nation.state import BULLETS

table = st.lists(st.integers(1, 4), min_size=3, max_size=3)
bullets = st.lists(st.integers(0, 3), min_size=3, max_size=3)


@st.composite
def rule_values(draw):
    lo = draw(st.integers(1, 10))
    hi = draw(st.integers(lo, 10))
    bottles = draw(st.lists(st.integers(1, 10), max_size=3, unique=True))
    return rules(players=draw(st.integers(4, 6)), frogman_hp=draw(table), frogman_bullets=draw(bullets),
                 artillery_hp=draw(table), artillery_bullets=draw(bullets), evac_from=lo, evac_to=hi,
                 bottle_rounds=bottles, mines=draw(st.integers(0, 1)))


def check_game(r, policy, seed, index):
    games, log = trace_log(r, policy, seed, index)
    end = int(np.flatnonzero(log[:, 0] == E.EV_END)[0])
    n = 120
    fpos = -1
    apos = {}
    alive = set()
    shots_by = {}
    shot_turns = set()
    frog_shots = 0
    gained = {}
    for event, rnd, actor, a, b, c in log[: end + 1].tolist():
        assert rnd <= 10
        if event == E.EV_START:
            fpos = a
        elif event == E.EV_PLACE:
            apos[actor] = a
            alive.add(actor)
        elif event in (E.EV_STEP, E.EV_HIDDEN_STEP):
            fpos = b
            assert all(apos[k] != fpos for k in alive), "frogman step ended on artillery (IN-MOVE-4)"
        elif event == E.EV_AMOVE:
            apos[actor] = b
        elif event == E.EV_DEATH:
            alive.discard(actor)
        elif event == E.EV_FSHOT:
            frog_shots += 1
            assert (rnd, 0) not in shot_turns
            shot_turns.add((rnd, 0))
        elif event == E.EV_ASHOT:
            shots_by[actor] = shots_by.get(actor, 0) + 1
            assert (rnd, actor) not in shot_turns, "two shots in one turn (IN-SHOOT-2)"
            shot_turns.add((rnd, actor))
        elif event == E.EV_EFFECT and a == BULLETS:
            gained[actor] = gained.get(actor, 0) + b
        elif event == E.EV_TURN_END:
            assert a == fpos
            public = members(np.uint64(b & (2**64 - 1)), np.uint64(c & (2**64 - 1)), n)
            assert public, "empty public set"
            assert fpos in public, f"true point {fpos} outside the public set in round {rnd}"
    fhp, fb, ahp, ab = r.loadout()
    assert frog_shots <= fb + gained.get(0, 0)
    assert all(v <= ab + gained.get(actor, 0) for actor, v in shots_by.items())
    assert 0 <= games["frogman_hp"][0] <= fhp
    assert 1 <= games["end_round"][0] <= 10
    return games


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(r=rule_values(), fbot=st.integers(0, 2), abot=st.integers(0, 2), seed=st.integers(0, 2**31))
def test_in_belief_truth_is_always_inside_a_nonempty_public_set(r, fbot, abot, seed):
    """IN-BELIEF-1..6, IN-MOVE-4, IN-SHOOT-1/2, IN-WIN-A3 over random rules, bots and seeds."""
    for index in range(8):
        check_game(r, [fbot, abot], seed, index)


def test_in_belief_holds_for_every_bot_pairing_over_many_games():
    """IN-BELIEF-1..6: 9 pairings x 40 games of the base rules."""
    r = rules()
    for fbot in range(3):
        for abot in range(3):
            for index in range(40):
                check_game(r, [fbot, abot], 77, index)
