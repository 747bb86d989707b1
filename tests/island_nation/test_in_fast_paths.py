"""The engine's shortcuts give the same answers as the plain definitions they stand for: the
point-by-point image of a small public set (IN-BELIEF-2), the size of an image counted without
building it (the ghost's look-ahead), the points kept after a frogman's shot read off the shot lines
backwards (IN-BELIEF-5) and the hunter's goal scored only over the candidates that weigh a point of
the set (policies._hunter_goal)."""

from __future__ import annotations

import numpy as np
import pytest
from in_helpers import members, setup_tables, words

from sim.core.rng import below, game_stream
from sim.games.island_nation import policies
from sim.games.island_nation.state import ROUND, image, image_of, image_size, new_state, set_size, shot_keeps


@pytest.fixture(scope="module")
def world():
    return setup_tables()


def test_in_belief_2_image_of_small_and_large_sets_matches_the_byte_table(world):
    """IN-BELIEF-2: ``image_of`` (point by point for small sets) equals ``image`` (byte table)."""
    board, T, P = world
    gen = np.random.default_rng(5)
    for size in (1, 2, 3, 5, 8, 10, 11, 16, 40, T.n):
        for _ in range(8):
            s0, s1 = words(gen.choice(T.n, size=size, replace=False))
            for d in range(6):
                assert tuple(image_of(T, d, s0, s1)) == tuple(image(T.trans, d, s0, s1))


def test_in_belief_2_image_size_counts_the_image_outside_a_set(world):
    """IN-BELIEF-2: ``image_size`` equals the size of ``image_of`` less the points of another set."""
    board, T, P = world
    gen = np.random.default_rng(6)
    for size in (1, 3, 10, 11, 40, T.n):
        for _ in range(8):
            s0, s1 = words(gen.choice(T.n, size=size, replace=False))
            x0, x1 = words(gen.choice(T.n, size=int(gen.integers(0, 12)), replace=False))
            for d in range(6):
                i0, i1 = image_of(T, d, s0, s1)
                assert image_size(T, d, s0, s1, x0, x1) == set_size(i0 & ~x0, i1 & ~x1)


def _first_loyal_point(T, st, n_art, p, d):
    loyal = {int(st.apos[k]) for k in range(n_art) if st.ahp[k] > 0 and st.traitor[k] == 0}
    return next((int(c) for c in T.line[p, d] if c >= 0 and int(c) in loyal), -1)


def test_in_belief_5_shot_keeps_is_the_point_by_point_filter(world):
    """IN-BELIEF-5: the points kept after a frogman's shot, read off the shot lines backwards, are
    those from which some direction's nearest loyal artillery is the one hit (or, for a miss, from
    which some direction has none), tested point by point."""
    board, T, P = world
    gen = np.random.default_rng(8)
    st = new_state()
    for case in range(200):
        for k in range(P.n_art):
            st.apos[k] = gen.integers(T.n)
            st.ahp[k] = int(gen.integers(0, 3))
            st.traitor[k] = int(gen.integers(0, 4) == 0)
        S = gen.choice(T.n, size=int(gen.choice([1, 5, 20, T.n])), replace=False)
        st.bel[0], st.bel[1] = words(S)
        loyal = [int(st.apos[k]) for k in range(P.n_art) if st.ahp[k] > 0 and st.traitor[k] == 0]
        for target in [-1, *loyal]:
            kept = {int(p) for p in S
                    if any(_first_loyal_point(T, st, P.n_art, int(p), d) == target for d in range(6))}
            assert members(*shot_keeps(T, P, st, target, 0), T.n) == kept, (case, target)


def _brute_goal(T, P, st, k, start, radius, can_shoot, size):
    """Every candidate scored (2 x adjacent + 4 x evac reach late + 4 x in shot range - size x crowd),
    the first best going round from the ``start``-th."""
    a = int(st.apos[k])
    S = members(st.bel[0], st.bel[1], T.n)
    late = st.g[ROUND] >= P.evac_from - 1
    n = int(T.ball_count[a, radius])
    best, best_q = None, -1
    for turn in range(n):
        q = int(T.ball_points[a, (start + turn) % n])
        score = 2 * sum(1 for s in S if T.road_dist[q, s] <= 1)
        if late and T.is_evac[q] == 1:
            score += 4 * sum(1 for s in S if T.road_dist[q, s] <= 3)
        if can_shoot:
            score += 4 * len(S & {int(c) for d in range(6) for c in T.line[q, d] if c >= 0})
        score -= size * sum(1 for j in range(P.n_art) if j != k and st.ahp[j] > 0 and st.traitor[j] == 0
                            and T.road_dist[st.apos[j], q] <= 1)
        if best is None or score > best:
            best, best_q = score, q
    return best_q


def test_hunter_goal_scoring_only_weighing_candidates_is_the_full_scoring(world):
    """The hunter's goal with its small-set shortcut is the best of every candidate, same ties."""
    board, T, P = world
    gen = np.random.default_rng(11)
    st = new_state()
    checked = 0
    for case in range(400):
        around = int(gen.integers(T.n))
        near = np.flatnonzero(T.road_dist[around] <= 3)
        for j in range(P.n_art):
            st.apos[j] = gen.choice(near) if case % 2 else gen.integers(T.n)
            st.ahp[j] = int(gen.integers(0, 3))
            st.traitor[j] = 0
        k = int(gen.integers(P.n_art))
        st.ahp[k] = 2
        size = int(gen.choice([1, 2, 3, 5, 8, 13, 24, 30]))
        pool = near if case % 3 else np.arange(T.n)
        S = gen.choice(pool, size=min(size, pool.size), replace=False)
        st.bel[0], st.bel[1] = words(S)
        size = len(S)
        st.g[ROUND] = int(gen.integers(1, 11))
        radius = int(gen.integers(1, 4))
        can_shoot = bool(gen.integers(2))
        rng = game_stream(7, case)
        start = below(rng.copy(), T.ball_count[st.apos[k], radius])
        goal = policies._hunter_goal(T, P, k, st, rng, radius, can_shoot, size)
        assert goal == _brute_goal(T, P, st, k, start, radius, can_shoot, size), case
        checked += 1
    assert checked == 400
