"""The bots, weakest to strongest, as compiled functions of what their seat may see.

The frogman sees everything; the artillery see the board, each other, and the public set
``st.bel`` (never ``st.g[FPOS]``). Each function returns one choice; the engine checks nothing
a bot could get wrong except by contract (every returned action is legal).

Frogman: 0 ``random`` (random legal actions), 1 ``runner`` (heads for an unguarded evac point in
time, keeps up to SAFE road steps away from artillery), 2 ``ghost`` (a runner that also keeps the
public set large, moves the most it can in bottle turns, shoots only for a kill that leaks little,
mines where artillery will walk). Artillery: 0 ``random``, 1 ``patrol`` (guards the evac points
nearest the public set, shoots lines through it), 2 ``hunter`` (moves to cover the public set,
shoots the line with the most possible points, catches when the set is one point or the odds pay,
spreads out; it picks its goal once a turn and walks there, re-planning only when the public set
or its shot changes, and breaks ties from one random starting candidate).
"""

from __future__ import annotations

import numpy as np

from sim.core.game import SearchBot
from sim.core.jit import njit
from sim.core.rng import below, uniform
from sim.games.island_nation.state import (
    BULLETS,
    CAN,
    CAN_AT,
    CATCH_ACTION,
    DRAW,
    END,
    EXTRA_AP_EFFECT,
    FBUL,
    FHP,
    FPOS,
    HEAL,
    INLINE,
    JIT,
    MAX_POINTS,
    MOVE,
    ONE,
    RADAR,
    ROUND,
    SHOOT,
    TRAITOR,
    first_point,
    frogman_shot_victim,
    has,
    image_size,
    in_window,
    lowest_bit,
    loyal_alive,
    must_leave,
    set_size,
    shot_keeps,
    union_of,
    with_point,
    word_masks,
)

FROGMAN_BOTS = ("random", "runner", "ghost")
ARTILLERY_BOTS = ("random", "patrol", "hunter")
SEARCH = SearchBot(options=(("rollouts", 16, "rollouts (sampled worlds) per candidate action"),))  # search.py
# a bot's dispatch number in the compiled engine is its place in its role's list (GameSpec.policy_array)
RANDOM = FROGMAN_BOTS.index("random")
assert ARTILLERY_BOTS.index("random") == RANDOM  # one number for the random bot of either role
RUNNER, GHOST = (FROGMAN_BOTS.index(name) for name in ("runner", "ghost"))
PATROL, HUNTER = (ARTILLERY_BOTS.index(name) for name in ("patrol", "hunter"))
FAR = 6  # road distance beyond which an artillery is no threat this round
SAFE = 3  # road steps from the nearest artillery beyond which the runners value no more distance
WEIGHED_SET = 24  # public sets up to this size: the hunter scores only the candidates weighing them


# ---------------------------------------------------------------- placement (IN-SETUP-3/4)

@njit(**JIT)
def frogman_start(T, rng):
    """Every bot writes a uniformly random numbered point: the public learns nothing."""
    return T.numbered_points[below(rng, T.n_numbered)]


@njit(**JIT)
def artillery_start(bot, k, T, st, rng):
    """Where artillery k places (IN-SETUP-4: a strategic point, i.e. a numbered point, never an evac
    point A-F): the patrol beside the evac point it will guard, the hunter far from those placed
    before it, the random bot anywhere."""
    if bot == PATROL:
        return _nearest_numbered(T, T.evac_points[k % T.n_evac])
    if bot == HUNTER and k > 0:
        return _farthest_point(T, st, k, below(rng, T.n_numbered))
    return T.numbered_points[below(rng, T.n_numbered)]


@njit(**JIT)
def _nearest_numbered(T, e):
    """The numbered point nearest by road to point e (the first of them on ties)."""
    best = T.numbered_points[0]
    for i in range(T.n_numbered):
        q = T.numbered_points[i]
        if T.road_dist[e, q] < T.road_dist[e, best]:
            best = q
    return best


@njit(**JIT)
def _farthest_point(T, st, k, offset):
    """The numbered point farthest by road from the k artillery placed so far, ties to the first
    going round the numbered points from the ``offset``-th. ``st.spread[i]`` keeps the distance
    from the i-th numbered point to the nearest of them, brought up to date with artillery k - 1.
    Whole 128-byte rows (padded with -1, which is never the farthest) in loops without an early exit,
    which the compiler vectorises: the farthest are marked in a bitset of indices, whose first member
    from ``offset`` on is taken, else its first."""
    row = T.numbered_dist[st.apos[k - 1]]
    spread = st.spread
    for i in range(MAX_POINTS):
        spread[i] = row[i] if k == 1 else min(row[i], spread[i])
    farthest = np.int8(0)
    for i in range(MAX_POINTS):
        farthest = max(farthest, spread[i])
    t0 = np.uint64(0)
    t1 = np.uint64(0)
    for i in range(64):
        t0 |= np.uint64(spread[i] == farthest) << np.uint64(i)
        t1 |= np.uint64(spread[64 + i] == farthest) << np.uint64(i)
    low = word_masks(offset)[0]  # all ones for an offset in the first word
    from_offset = ~np.uint64(0) << np.uint64(offset & 63)  # in the offset's word
    a0 = t0 & from_offset & low
    a1 = t1 & (from_offset | low)  # all of the second word if the offset is in the first
    if a0 | a1 != np.uint64(0):
        return T.numbered_points[first_point(a0, a1)]
    return T.numbered_points[first_point(t0, t1)]


# ---------------------------------------------------------------- frogman

@njit(**INLINE)
def mark_threats(T, P, st):
    """``st.threat[q]``: road distance from q to the nearest living loyal artillery, capped at FAR,
    for every point at once (a few vectorised minima of byte rows); made when the frogman's turn
    starts and again after its shot, since no artillery moves while the frogman does."""
    threat = st.threat
    threat[:] = FAR
    for k in range(P.n_art):
        if st.ahp[k] > 0 and st.traitor[k] == 0:
            row = T.road_dist[st.apos[k]]
            for q in range(threat.shape[0]):
                threat[q] = min(threat[q], row[q])


@njit(**INLINE)
def _threat(st, q):
    """Road distance from q to the nearest living loyal artillery, capped at FAR (``mark_threats``)."""
    return np.int64(st.threat[q])


@njit(**INLINE)
def _goal_distance(T, st, q, m0, m1):
    """Road distance from q to the nearest evac point no artillery stands on (any, if all are)."""
    if (m0 & T.evac_mask[0]) | (m1 & T.evac_mask[1]) == np.uint64(0):
        return T.evac_dist[q]
    best = T.n * 4
    free = T.n * 4
    for i in range(T.n_evac):
        e = T.evac_points[i]
        d = T.road_dist[q, e]
        best = min(best, d)
        if not has(m0, m1, e):
            free = min(free, d)
    return free if free < T.n * 4 else best


@njit(**INLINE)
def _place_score(T, P, st, q, steps_left, m0, m1):
    """How good it is for a runner to stand on q with ``steps_left`` steps of this turn to go. Before
    the window (IN-WIN-F1) distance from the artillery counts up to SAFE road steps only: an artillery
    reaches a catch (IN-CATCH-1) or a shot line (IN-SHOOT-3) within its 3 action points (IN-TURN-2),
    and the search's rollouts found no value in more (docs/search.md, Island Nation)."""
    r = st.g[ROUND]
    goal = _goal_distance(T, st, q, m0, m1)
    safety = _threat(st, q)
    if in_window(P, r):
        return -2.0 * goal + 0.5 * min(safety, 3)
    allowance = P.ap * (P.evac_from - r) + steps_left
    late = max(0, goal - allowance)
    return 1.0 * min(safety, SAFE) - 3.0 * late


@njit(**INLINE)
def _last_hp_points(P, st):
    """The points holding a living loyal artillery down to its last HP (one hit kills it, IN-DEATH-1)."""
    w0 = np.uint64(0)
    w1 = np.uint64(0)
    for k in range(P.n_art):
        if st.ahp[k] == 1 and st.traitor[k] == 0:
            w0, w1 = with_point(w0, w1, st.apos[k])
    return w0, w1


@njit(**INLINE)
def frogman_shot(bot, T, P, st, rng):
    """A direction to shoot before moving (IN-SHOOT-1), or -1."""
    if st.g[FBUL] <= 0:
        return -1
    if bot == RANDOM:
        return below(rng, 6) if uniform(rng) < 0.25 else -1
    if bot != GHOST:
        return -1
    f = st.g[FPOS]
    w0, w1 = _last_hp_points(P, st)
    if w0 | w1 == np.uint64(0):
        return -1
    for d in range(6):
        if (T.linemask[f, d, 0] & w0) | (T.linemask[f, d, 1] & w1) == np.uint64(0):
            continue  # the first loyal artillery on this line, if any, survives a hit
        v = frogman_shot_victim(T, P, st, f, d)
        if v >= 0 and st.ahp[v] == 1 and st.traitor[v] == 0:
            if loyal_alive(st, P.n_art) == 1:
                return d
            k0, k1 = shot_keeps(T, P, st, st.apos[v], d)  # IN-BELIEF-5, were v hit
            if 2 * set_size(k0, k1) >= set_size(st.bel[0], st.bel[1]):
                return d
    return -1


@njit(**INLINE)
def frogman_step(bot, T, P, st, rng, spent, ap, hidden, m0, m1):
    """The direction of the next step (0..5) or -1 to stop; never -1 while nothing is spent and a
    step is possible (IN-TURN-3), nor while the frogman must leave a point it shares with artillery
    (``must_leave``, the other reading of IN-MOVE-4), never onto artillery (IN-MOVE-4)."""
    f = st.g[FPOS]
    legal = np.uint64(0)  # bit d: a road leads that way to a point without artillery
    for d in range(6):
        q = T.road_step[f, d]
        legal |= np.uint64((q >= 0) & (not has(m0, m1, q))) << np.uint64(d)
    if legal == np.uint64(0):
        return -1
    stay = spent > 0 and not must_leave(P, st, m0, m1)  # stopping here is allowed
    if bot == RANDOM:
        if stay and uniform(rng) < 0.25:
            return -1
        pick = below(rng, set_size(legal, np.uint64(0)))
        for _ in range(pick):
            legal &= legal - ONE
        return lowest_bit(legal)
    window = in_window(P, st.g[ROUND])
    steps_left = ap - spent - 1
    can = st.g[CAN_AT]
    best_d = -1
    best = -1e18
    if stay:
        best = _place_score(T, P, st, f, steps_left + 1, m0, m1) + 0.3 * uniform(rng)
        if bot == GHOST:
            best += T.log2_size[set_size(st.bel[0], st.bel[1])] - (1.0 if hidden else 0.0)
    while legal != np.uint64(0):
        d = lowest_bit(legal)
        legal &= legal - ONE
        q = T.road_step[f, d]
        if window and T.is_evac[q] == 1:
            return d
        score = _place_score(T, P, st, q, steps_left, m0, m1) + 0.3 * uniform(rng)
        if q == can and not hidden:
            score -= 10.0
        if bot == GHOST and not hidden:  # the public set after this step (IN-BELIEF-2), counted
            s0, s1 = st.bel[0], st.bel[1]
            if window:
                s0 &= ~T.steps_into_evac[d, 0]
                s1 &= ~T.steps_into_evac[d, 1]
            score += T.log2_size[image_size(T, d, s0, s1, m0, m1)]
        if score > best:
            best, best_d = score, d
    return best_d


@njit(**JIT)
def frogman_mine(bot, T, P, st, rng, n_path):
    """A point of this turn's path for the mine (IN-MINE-2), or -1 to keep it."""
    if bot == RANDOM:
        return st.path[below(rng, n_path)] if uniform(rng) < 0.2 else -1
    best, best_d = -1, 4
    for i in range(n_path):
        p = st.path[i]
        d = _threat(st, p)
        if d < best_d or (bot == RUNNER and i == 0 and d <= 3):
            best, best_d = p, d
            if bot == RUNNER:
                break
    return best


# ---------------------------------------------------------------- artillery

@njit(**JIT)
def _step_toward(T, a, target):
    """A road direction from a that shortens the road distance to target (-1 if a == target):
    the first such direction, looked up in ``T.toward``."""
    return T.toward[a, target]


@njit(**INLINE)
def _best_line(T, p, s0, s1):
    """The shot direction from p covering most of the set, and how many points it covers
    (direction 0 and count 0 at once when no line from p reaches the set)."""
    if (s0 & T.starmask[p, 0]) | (s1 & T.starmask[p, 1]) == np.uint64(0):
        return 0, 0
    best_d, best_c = 0, -1
    for d in range(6):
        c = set_size(s0 & T.linemask[p, d, 0], s1 & T.linemask[p, d, 1])
        if c > best_c:
            best_d, best_c = d, c
    return best_d, best_c


@njit(**JIT)
def _random_artillery(T, k, st, rng, spent, shot, can_draw):
    """Uniform over the legal actions: six moves at most, six shots, catch, draw, end."""
    a = st.apos[k]
    n_moves = 0
    for d in range(6):
        if T.road_step[a, d] >= 0:
            n_moves += 1
    can_shoot = st.abul[k] > 0 and not shot
    total = n_moves + (6 if can_shoot else 0) + 1 + (1 if can_draw else 0) + (1 if spent > 0 else 0)
    pick = below(rng, total)
    if pick < n_moves:
        for d in range(6):
            if T.road_step[a, d] >= 0:
                if pick == 0:
                    return MOVE, d
                pick -= 1
    pick -= n_moves
    if can_shoot:
        if pick < 6:
            return SHOOT, pick
        pick -= 6
    if pick == 0:
        return CATCH_ACTION, 0
    if can_draw and pick == 1:
        return DRAW, 0
    return END, 0


@njit(**JIT)
def _traitor(T, k, st, rng, spent):
    """A traitor (IN-CARD-3) only wanders: one random step a turn."""
    if spent > 0:
        return END, 0
    a = st.apos[k]
    pick = below(rng, 6)
    for i in range(6):
        d = (pick + i) % 6
        if T.road_step[a, d] >= 0:
            return MOVE, d
    return CATCH_ACTION, 0


@njit(**JIT)
def _guard_post(T, P, k, st):
    """The evac point artillery k guards: evac points ranked by how much of the public set lies
    within 3 road steps, the i-th living loyal artillery taking the i-th."""
    rank = 0
    for j in range(k):
        if st.ahp[j] > 0 and st.traitor[j] == 0:
            rank += 1
    n_evac = T.n_evac
    rank %= n_evac
    mass = st.scratch[:n_evac]
    for i in range(n_evac):
        e = T.evac_points[i]
        mass[i] = set_size(st.bel[0] & T.ballmask[e, 3, 0], st.bel[1] & T.ballmask[e, 3, 1])
    for i in range(n_evac):
        ahead = 0
        for j in range(n_evac):
            if mass[j] > mass[i] or (mass[j] == mass[i] and j < i):
                ahead += 1
        if ahead == rank:
            return T.evac_points[i]
    return T.evac_points[0]


@njit(**JIT)
def _patrol(T, P, k, st, spent, shot, can_draw):
    a = st.apos[k]
    s0, s1 = st.bel[0], st.bel[1]
    size = set_size(s0, s1)
    if size == 1 and has(s0, s1, a):
        return CATCH_ACTION, 0
    if st.abul[k] > 0 and not shot:
        d, c = _best_line(T, a, s0, s1)
        if c > 0 and 4 * c >= size:
            return SHOOT, d
    post = _guard_post(T, P, k, st)
    if a != post:
        return MOVE, _step_toward(T, a, post)
    if spent == 0:
        if can_draw:
            return DRAW, 0
        for d in range(6):
            if T.road_step[a, d] >= 0:
                return MOVE, d
    return END, 0


@njit(**INLINE)
def _count_crowds(T, P, k, st):
    """``st.crowd[i]``: the points within 1 road step of at least i + 1 other living loyal artillery
    than k (bit-sliced counts, one set per count: at least 1, 2, 3 and 4 of the MAX_ART - 1 others,
    counted in registers and stored once)."""
    one0 = one1 = two0 = two1 = three0 = three1 = four0 = four1 = np.uint64(0)
    for j in range(P.n_art):
        if j != k and st.ahp[j] > 0 and st.traitor[j] == 0:
            m0 = T.ballmask[st.apos[j], 1, 0]
            m1 = T.ballmask[st.apos[j], 1, 1]
            four0, four1 = four0 | (three0 & m0), four1 | (three1 & m1)
            three0, three1 = three0 | (two0 & m0), three1 | (two1 & m1)
            two0, two1 = two0 | (one0 & m0), two1 | (one1 & m1)
            one0, one1 = one0 | m0, one1 | m1
    st.crowd[0, 0], st.crowd[0, 1] = one0, one1
    st.crowd[1, 0], st.crowd[1, 1] = two0, two1
    st.crowd[2, 0], st.crowd[2, 1] = three0, three1
    st.crowd[3, 0], st.crowd[3, 1] = four0, four1


@njit(**INLINE)
def _crowd(st, q):
    """How many other living loyal artillery stand within 1 road step of q (``_count_crowds``)."""
    count = 0
    for i in range(st.crowd.shape[0]):
        count += has(st.crowd[i, 0], st.crowd[i, 1], q)
    return count


@njit(**INLINE)
def _hunter_goal(T, P, k, st, rng, radius, can_shoot, size):
    """The point within ``radius`` road steps of artillery k that maximises 2 x the set's points in
    its shot range (with a shot left) + the set's points adjacent to it (+ 2 x the set's points within 3 steps of
    an evac point from the round before the window), minus half the set per other artillery
    within 1 step (``score / size - crowd / 2`` in integers). Ties go to the first best found going
    round the candidates (nearest first) from a random one: one random number a decision.

    Only candidates that weigh a point of the set (``T.weighers``) can score above 0: when the set
    is small those are scored alone, against the first uncrowded other candidate (score 0) going
    round (``_weighing_goal``); the same choice as scoring every candidate."""
    a = st.apos[k]
    late = st.g[ROUND] >= P.evac_from - 1
    _count_crowds(T, P, k, st)
    n = T.ball_count[a, radius]
    i = below(rng, n)
    s0, s1 = st.bel[0], st.bel[1]
    quiet = (s0 & T.zonemask[a, radius, 0]) | (s1 & T.zonemask[a, radius, 1]) == np.uint64(0)
    if not quiet and size <= WEIGHED_SET:
        q = _weighing_goal(T, P, k, st, i, radius, can_shoot, size, late)
        if q >= 0:
            return q
    best_q, best = a, -(1 << 62)
    for _ in range(n):
        q = T.ball_points[a, i]
        i = i + 1 if i + 1 < n else 0
        if quiet:  # no line, neighbour or guarded evac point of any candidate touches the set
            score = 0
        else:
            score = _hunter_value(T, s0, s1, q, can_shoot, late)
        score -= size * _crowd(st, q)
        if score > best:
            best_q, best = q, score
        if quiet and best == 0:
            break  # nothing beats an uncrowded candidate when no score can be positive
    return best_q


@njit(**INLINE)
def _weighing_goal(T, P, k, st, start, radius, can_shoot, size, late):
    """``_hunter_goal`` for a small public set: the candidates weighing a point of the set are
    scored (rank ``T.ball_rank`` from the ``start``-th candidate breaks ties), every other one
    scores 0, or less if crowded: the first uncrowded one going round stands for them. -1 when
    every other candidate is crowded and none weighing the set scores 0 or more (the caller then
    scores them all)."""
    a = st.apos[k]
    s0, s1 = st.bel[0], st.bel[1]
    w0, w1 = union_of(T.weighers, s0, s1)
    w0 &= T.ballmask[a, radius, 0]
    w1 &= T.ballmask[a, radius, 1]
    n = T.ball_count[a, radius]
    best_q, best_key = -1, -(1 << 62)  # key: the score, then the earlier turn (one comparison)
    for h in range(2):
        x = w0 if h == 0 else w1
        while x != np.uint64(0):
            q = 64 * h + lowest_bit(x)
            x &= x - ONE
            score = _hunter_value(T, s0, s1, q, can_shoot, late)
            score -= size * _crowd(st, q)
            turn = T.ball_rank[a, q] - start
            turn = turn + n if turn < 0 else turn
            key = score * 256 + (255 - turn)
            if key > best_key:
                best_q, best_key = q, key
    best, best_turn = best_key >> 8, 255 - (best_key & 255)
    if best > 0:
        return best_q
    i = start
    for turn in range(n):
        q = T.ball_points[a, i]
        i = i + 1 if i + 1 < n else 0
        if not has(w0 | st.crowd[0, 0], w1 | st.crowd[0, 1], q):  # neither weighing nor crowded
            return q if best < 0 or turn < best_turn else best_q
    return best_q if best == 0 else -1


@njit(**INLINE)
def _hunter_value(T, s0, s1, q, can_shoot, late):
    """2 x the points of the public set (s0, s1) adjacent to q (+ 4 x those within 3 steps of an
    evac point q late) (+ 4 x those in shot range of q, on any of its six lines, with a shot left:
    the line to shoot is chosen once there)."""
    view = T.hunter_view[q]
    score = 2 * set_size(s0 & view[0], s1 & view[1])
    if late and T.is_evac[q] == 1:
        score += 4 * set_size(s0 & T.ballmask[q, 3, 0], s1 & T.ballmask[q, 3, 1])
    if can_shoot:
        score += 4 * set_size(s0 & view[2], s1 & view[3])
    return score


@njit(**INLINE)
def _hunter_plan(T, P, k, st, rng, radius, can_shoot, size):
    """Where the hunter is heading: ``_hunter_goal``, chosen once and kept while the public set,
    the shot left and the reach stay as they were (walking toward the goal only shrinks the
    candidates, and the goal stays the best of them, also once reached). ``st.plan`` =
    (artillery, round, shot left, origin, radius, goal) for the public set ``st.planned_for``."""
    a = st.apos[k]
    pl = st.plan
    if (pl[0] == k and pl[1] == st.g[ROUND] and pl[2] == can_shoot
            and st.planned_for[0] == st.bel[0] and st.planned_for[1] == st.bel[1]
            and T.road_dist[pl[3], a] + radius <= pl[4]):
        return pl[5]
    goal = _hunter_goal(T, P, k, st, rng, radius, can_shoot, size)
    pl[0], pl[1], pl[2], pl[3], pl[4], pl[5] = k, st.g[ROUND], can_shoot, a, radius, goal
    st.planned_for[0], st.planned_for[1] = st.bel[0], st.bel[1]
    return goal


@njit(**INLINE)
def _hunter(T, P, k, st, rng, spent, ap, shot, can_draw):
    a = st.apos[k]
    s0, s1 = st.bel[0], st.bel[1]
    size = set_size(s0, s1)
    left = ap - spent
    if spent == 0 and can_draw and size > 20:
        return DRAW, 0
    can_shoot = st.abul[k] > 0 and not shot
    if has(s0, s1, a) and (size == 1 or (size == 2 and st.ahp[k] > 1)):
        return CATCH_ACTION, 0
    line_d, line_c = _best_line(T, a, s0, s1) if can_shoot else (0, 0)
    if line_c > 0 and 3 * line_c >= size:
        return SHOOT, line_d
    if size == 1:
        t = first_point(s0, s1)
        if T.road_dist[a, t] <= left - 1:
            return MOVE, _step_toward(T, a, t)
    goal = _hunter_plan(T, P, k, st, rng, min(left, 3), can_shoot, size)
    if goal != a:
        return MOVE, _step_toward(T, a, goal)
    if spent > 0:
        return END, 0
    if line_c > 0:
        return SHOOT, line_d
    for d in range(6):
        if T.road_step[a, d] >= 0:
            return MOVE, d
    return CATCH_ACTION, 0


@njit(**INLINE)
def artillery_action(bot, T, P, k, st, rng, spent, ap, shot, can_draw):
    """The next action (END, MOVE, SHOOT, CATCH_ACTION or DRAW) and its direction; END only once
    an action point is spent (IN-TURN-3), DRAW only when ``can_draw`` (IN-CARD-1)."""
    if st.traitor[k] == 1:
        return _traitor(T, k, st, rng, spent)
    if bot == HUNTER:
        return _hunter(T, P, k, st, rng, spent, ap, shot, can_draw)
    if bot == PATROL:
        return _patrol(T, P, k, st, spent, shot, can_draw)
    return _random_artillery(T, k, st, rng, spent, shot, can_draw)


# ---------------------------------------------------------------- cards and abilities

@njit(**JIT)
def use_effect(bot, T, P, st, player, effect, rng):
    """Whether ``player`` (0 = frogman) uses an item or ability with this effect now (IN-CARD-2).
    Random bots toss a coin; the others heal when hurt, restock when out of bullets, always take
    extra action points, sweep the radar while the public set has more than one point, and put
    the can down from two rounds before the window."""
    if effect == TRAITOR or (player == 0 and (effect == RADAR or effect == CAN)):
        return False
    if bot == RANDOM:
        return uniform(rng) < 0.5
    k = player - 1
    if effect == HEAL:
        return st.g[FHP] < P.frogman_hp if player == 0 else st.ahp[k] < P.artillery_hp
    if effect == BULLETS:
        return st.g[FBUL] == 0 if player == 0 else st.abul[k] == 0
    if effect == EXTRA_AP_EFFECT:
        return True
    if effect == RADAR:
        return set_size(st.bel[0], st.bel[1]) > 1
    return st.g[ROUND] >= P.evac_from - 2


@njit(**JIT)
def frogman_draws(bot, T, P, st, rng):
    """Whether the frogman spends 2 AP on a card (IN-CARD-1): random one time in four; the others
    only early, with no artillery within 4 road steps."""
    if bot == RANDOM:
        return uniform(rng) < 0.25
    return st.g[ROUND] <= P.evac_from - 3 and _threat(st, st.g[FPOS]) >= 4
