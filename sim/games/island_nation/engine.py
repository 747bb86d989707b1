"""The batch engine: setup and play of one Island Nation game, compiled, looped over a batch.

Every function cites the clauses of docs/rules/island-nation.md it implements. One compiled
``play_batch`` both plays batches (``log`` of size 0) and writes traces (a log of events, each
row ``(event, round, actor, a, b, c)``; actor 0 is the frogman, k + 1 is artillery k).

The order of play (``play_game`` .. ``artillery_acts``) is written here once. Its functions take the
``seats``, which decide: here the bot of each role (a policy array); the choices are asked of
``frogman_decides`` and ``artillery_decides`` and the opening and closing bots come from ``bots_of``.
The search (search.py) compiles these same functions again (``sim.core.jit.recompiled``) with its
own seats and deciders bound to those names; no copy of the order of play lives there.
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import njit
from sim.core.rng import below, seed_stream
from sim.games.island_nation.policies import (
    artillery_action,
    artillery_start,
    frogman_draws,
    frogman_mine,
    frogman_shot,
    frogman_start,
    frogman_step,
    mark_threats,
    use_effect,
)
from sim.games.island_nation.state import (
    AB_AMOUNT,
    AB_EFFECT,
    AB_USES,
    ALL_DEAD,
    ARTILLERY,
    BULLETS,
    CAN,
    CAN_AT,
    CATCH,
    DECK_N,
    DECK_TOP,
    DRAW,
    END,
    END_ROUND,
    ESC_EXIT,
    ESC_ROUND,
    ESCAPE,
    EXTRA_AP,
    EXTRA_AP_EFFECT,
    FBUL,
    FHP,
    FPOS,
    FROGMAN,
    HEAL,
    INLINE,
    ITEM,
    JIT,
    MINE_AT,
    MINES_LEFT,
    MOVE,
    N_PENDING,
    NLOG,
    ONCE,
    OVER,
    RADAR,
    REASON,
    ROUND,
    SHOOT,
    SHOT,
    TIME,
    TRAITOR,
    WINNER,
    artillery_mask,
    frogman_shot_victim,
    has,
    image_of,
    in_window,
    loyal_alive,
    must_leave,
    set_size,
    shot_keeps,
    union_of,
    with_point,
    without_point,
)

# log events
EV_START, EV_PLACE, EV_BOTTLE, EV_STEP, EV_HIDDEN_STEP, EV_FSHOT, EV_MINE, EV_PASS = range(8)
EV_AMOVE, EV_BOOM, EV_ASHOT, EV_CATCH, EV_DEATH, EV_TURN_END, EV_END = range(8, 15)
EV_DRAW, EV_EFFECT, EV_CAN = range(15, 18)
EV_SEARCH = 18  # a search bot's candidate: (code, wins, rollouts); see search.py
LOG_WIDTH = 6


@njit(**JIT)
def _log(st, log, event, actor, a, b, c):
    i = st.g[NLOG]
    if i < log.shape[0]:
        log[i, 0] = event
        log[i, 1] = st.g[ROUND]
        log[i, 2] = actor
        log[i, 3] = a
        log[i, 4] = b
        log[i, 5] = c
        st.g[NLOG] = i + 1


@njit(**JIT)
def _finish(st, log, winner, reason):
    """The game ends at once (IN-WIN-*)."""
    st.g[OVER] = 1
    st.g[WINNER] = winner
    st.g[REASON] = reason
    st.g[END_ROUND] = st.g[ROUND]
    _log(st, log, EV_END, 0, winner, reason, 0)


@njit(**JIT)
def _wound_artillery(P, st, log, k):
    """An artillery loses 1 HP; at 0 it dies and leaves the board (IN-DEATH-1); when no loyal
    artillery lives, the frogman wins (IN-WIN-F2)."""
    st.ahp[k] -= 1
    if st.ahp[k] == 0:
        _log(st, log, EV_DEATH, k + 1, st.apos[k], 0, 0)
        if loyal_alive(st, P.n_art) == 0:
            _finish(st, log, FROGMAN, ALL_DEAD)


# ---------------------------------------------------------------- the frogman's turn

@njit(**JIT)
def _frogman_shoots(T, P, st, log, d, hidden):
    """IN-SHOOT-1..6: 1 AP and 1 bullet; the nearest loyal artillery on the line is hit (any artillery
    where traitors can be shot, IN-CARD-5) and the frogman says who (the direction too in the other
    reading). The public set keeps the points the outcome allows (IN-BELIEF-5)."""
    f = st.g[FPOS]
    victim = frogman_shot_victim(T, P, st, f, d)
    st.g[FBUL] -= 1
    if not hidden:  # a frogman on p could have made this shot (on a shared point the shooter picks)
        target = st.apos[victim] if victim >= 0 else -1
        st.bel[0], st.bel[1] = shot_keeps(T, P, st, target, d)
    _log(st, log, EV_FSHOT, 0, d + 1, victim + 1, set_size(st.bel[0], st.bel[1]))
    if victim >= 0:
        _wound_artillery(P, st, log, victim)


@njit(**JIT)
def _stuck_points(T, st, m0, m1):
    """Points from which no road step avoids artillery (a frogman there with no bullet passes)."""
    s0, s1 = st.bel[0], st.bel[1]
    for p in range(T.n):
        if not has(s0, s1, p):
            continue
        for d in range(6):
            q = T.road_step[p, d]
            if q >= 0 and not has(m0, m1, q):
                s0, s1 = without_point(s0, s1, p)
                break
    return s0, s1


@njit(**JIT)
def _hidden_reach(T, P, st, start, max_steps, include_start, m0, m1):
    """The public set after a bottle turn (IN-BOTTLE-2): every point reachable from the bottle
    in 1..max_steps road steps avoiding artillery (and, in the window, not through an evac
    point, which would have ended the game), plus the bottle point itself if the frogman may
    have stayed."""
    window = in_window(P, st.g[ROUND])
    r0 = np.uint64(0)
    r1 = np.uint64(0)
    r0, r1 = with_point(r0, r1, start)
    u0 = np.uint64(0)
    u1 = np.uint64(0)
    for _ in range(max_steps):
        n0, n1 = union_of(T.roadmask, r0, r1)
        n0 &= ~m0
        n1 &= ~m1
        if window:
            n0 &= ~T.evac_mask[0]
            n1 &= ~T.evac_mask[1]
        r0, r1 = n0, n1
        u0 |= r0
        u1 |= r1
    if include_start or (u0 == np.uint64(0) and u1 == np.uint64(0)):
        u0, u1 = with_point(u0, u1, start)
    return u0, u1


@njit(**INLINE)
def bots_of(seats):
    """The scripted bot of each role (frogman, artillery): who opens and closes a turn (items,
    ability, shot, draws, mine). Here the seats are these bots."""
    return seats


@njit(**INLINE)
def frogman_decides(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1):
    """The frogman's next road step (0..5), or -1 to stop: its bot's choice."""
    return frogman_step(seats[0], T, P, st, rng, spent, ap, hidden, m0, m1)


@njit(**INLINE)
def artillery_decides(T, P, st, seats, k, rng, log, ap, spent, shot, can_draw):
    """Artillery k's next action and direction: its bot's choice."""
    return artillery_action(seats[1], T, P, k, st, rng, spent, ap, shot, can_draw)


@njit(**ONCE)
def frogman_turn(T, P, st, seats, rng, log):
    """IN-TURN-2/3, IN-MOVE-1..4, IN-BOTTLE-1/2, IN-MINE-1/2, IN-SHOOT-1, IN-CARD-1..4, IN-WIN-F1: the
    turn opens (bottle, items, shot, draws), the frogman walks, the turn closes (pass, mine, events).
    The three parts are separate so a search can take the walk's steps and resume the rest."""
    start, hidden, ap, spent, shots, draws, m0, m1 = frogman_opens(T, P, st, seats, rng, log)
    if st.g[OVER] == 1:
        return
    st.path[0] = start
    spent, n_path = frogman_walks(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, 1, m0, m1)
    if st.g[OVER] == 1:
        return
    frogman_closes(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1)


@njit(**INLINE)
def frogman_opens(T, P, st, seats, rng, log):
    """The turn up to its first step: the bottle (IN-BOTTLE-1), items (IN-CARD-2), a shot (IN-SHOOT-1)
    and draws (IN-CARD-1). Returns (start, hidden, ap, spent, shots, draws, m0, m1), m0/m1 the
    points holding artillery (the game may be over after the shot)."""
    bot = bots_of(seats)[0]
    r = st.g[ROUND]
    start = st.g[FPOS]
    hidden = P.bottle[r] == 1
    if P.escape_standing == 1 and in_window(P, r):
        _escape_standing(T, st, log, start)
        if st.g[OVER] == 1:
            return start, hidden, 0, 0, 0, 0, np.uint64(0), np.uint64(0)
    if hidden:
        st.bel[0], st.bel[1] = with_point(np.uint64(0), np.uint64(0), start)
        _log(st, log, EV_BOTTLE, 0, start, 0, 0)
    st.g[EXTRA_AP] = 0
    _use_items(T, P, st, log, bot, 0, rng)
    ap = P.ap + st.g[EXTRA_AP]
    m0, m1 = artillery_mask(st, P.n_art)
    mark_threats(T, P, st)
    spent = 0
    shots = 0
    draws = 0
    d = frogman_shot(bot, T, P, st, rng)
    if d >= 0:
        _frogman_shoots(T, P, st, log, d, hidden)
        spent += 1
        shots += 1
        if st.g[OVER] == 1:
            return start, hidden, ap, spent, shots, draws, m0, m1
        m0, m1 = artillery_mask(st, P.n_art)
        mark_threats(T, P, st)
    reserve = 1 if must_leave(P, st, m0, m1) and _free_step(T, st, m0, m1) else 0  # IN-MOVE-4, other reading
    while _can_draw(st, ap - spent - reserve) and frogman_draws(bot, T, P, st, rng):
        _draw(P, st, log, 0)
        spent += 2
        draws += 1
    return start, hidden, ap, spent, shots, draws, m0, m1


@njit(**JIT)
def _escape_standing(T, st, log, start):
    """IN-WIN-F1, other reading (``evac_escape = "standing"``): a frogman standing on an evac point
    when its turn in the window opens escapes at once; otherwise the public learns it stands on none."""
    if T.is_evac[start] == 1:
        st.g[ESC_ROUND] = st.g[ROUND]
        st.g[ESC_EXIT] = start
        _finish(st, log, FROGMAN, ESCAPE)
    else:
        st.bel[0] &= ~T.evac_mask[0]
        st.bel[1] &= ~T.evac_mask[1]


@njit(**JIT)
def _free_step(T, st, m0, m1):
    """Whether some road step from the frogman's point avoids artillery (IN-MOVE-4)."""
    f = st.g[FPOS]
    for d in range(6):
        q = T.road_step[f, d]
        if q >= 0 and not has(m0, m1, q):
            return True
    return False


@njit(**ONCE)
def frogman_walks(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1):
    """Road steps chosen by the seat until it stops or the action points run out (IN-MOVE-1..4), from
    ``spent`` points spent and ``n_path`` points on this turn's path. Returns (spent, n_path)."""
    while spent < ap:
        d = frogman_decides(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1)
        if d < 0:
            break
        n_path = frogman_steps(T, P, st, log, d, hidden, n_path, m0, m1)
        spent += 1
        if st.g[OVER] == 1:
            break
    return spent, n_path


@njit(**INLINE)
def frogman_steps(T, P, st, log, d, hidden, n_path, m0, m1):
    """One road step in direction d (IN-MOVE-1..4): the public set follows an announced step
    (IN-BELIEF-2), an evac point in the window ends the game (IN-WIN-F1), the can may rattle
    (IN-ABILITY-3). Returns the points on the path."""
    r = st.g[ROUND]
    window = in_window(P, r)
    q = T.road_step[st.g[FPOS], d]
    st.g[FPOS] = q
    st.path[n_path] = q
    if not hidden:
        s0, s1 = image_of(T, d, st.bel[0], st.bel[1])
        s0 &= ~m0
        s1 &= ~m1
        if window:
            s0 &= ~T.evac_mask[0]
            s1 &= ~T.evac_mask[1]
        st.bel[0], st.bel[1] = s0, s1
    _log(st, log, EV_HIDDEN_STEP if hidden else EV_STEP, 0, d + 1, q, set_size(st.bel[0], st.bel[1]))
    if window and T.is_evac[q] == 1:
        st.g[ESC_ROUND] = r
        st.g[ESC_EXIT] = q
        _finish(st, log, FROGMAN, ESCAPE)
        return n_path + 1
    if not hidden and st.g[CAN_AT] >= 0:
        _can_check(st, log, q)
    return n_path + 1


@njit(**INLINE)
def frogman_closes(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1):
    """The turn after the walk: a frogman that spent nothing (it cannot step) shoots, else draws a card,
    else passes (IN-TURN-3: at least one point is spent when any action is possible), the mine
    (IN-MINE-1/2), the public set of a bottle turn (IN-BOTTLE-2), events (IN-CARD-3)."""
    bot = bots_of(seats)[0]
    if spent == 0:
        if st.g[FBUL] > 0:
            _frogman_shoots(T, P, st, log, below(rng, 6), hidden)
            shots += 1
            if st.g[OVER] == 1:
                return
            mark_threats(T, P, st)
        elif _can_draw(st, ap):
            _draw(P, st, log, 0)
            draws += 1
        else:
            if not hidden:
                st.bel[0], st.bel[1] = _stuck_points(T, st, m0, m1)
            _log(st, log, EV_PASS, 0, start, 0, set_size(st.bel[0], st.bel[1]))
    if st.g[MINES_LEFT] > 0:
        p = frogman_mine(bot, T, P, st, rng, n_path)
        if p >= 0:
            st.g[MINES_LEFT] -= 1
            st.g[MINE_AT] = p
            _log(st, log, EV_MINE, 0, p, 0, 0)
    if hidden:
        st.bel[0], st.bel[1] = _hidden_reach(T, P, st, start, ap - shots - 2 * draws, shots + draws > 0, m0, m1)
    _resolve_events(T, P, st, log, 0)


@njit(**JIT)
def _can_check(st, log, q):
    """IN-ABILITY-3: a step announced onto the can's point must be told; any other step rules the
    can's point out."""
    can = st.g[CAN_AT]
    if q == can:
        st.bel[0], st.bel[1] = with_point(np.uint64(0), np.uint64(0), can)
        _log(st, log, EV_CAN, 0, can, 1, 1)
    else:
        st.bel[0], st.bel[1] = without_point(st.bel[0], st.bel[1], can)


# ---------------------------------------------------------------- cards and abilities

@njit(**JIT)
def _can_draw(st, ap_left):
    """IN-CARD-1: a draw costs 2 AP and needs a card left."""
    return ap_left >= 2 and st.g[DECK_TOP] < st.g[DECK_N] and st.g[N_PENDING] < st.pending.shape[0]


@njit(**JIT)
def _draw(P, st, log, player):
    """IN-CARD-1/2/3: an item goes to the hand; an event is shown and waits for the turn's end."""
    card = st.deck[st.g[DECK_TOP]]
    st.g[DECK_TOP] += 1
    if P.card_kind[card] == ITEM:
        st.hand[player, card] += 1
    else:
        st.pending[st.g[N_PENDING]] = card
        st.g[N_PENDING] += 1
    _log(st, log, EV_DRAW, player, card, P.card_kind[card], 0)


@njit(**JIT)
def _apply_effect(T, P, st, log, player, effect, amount):
    """IN-CARD-4, IN-CARD-5, IN-ABILITY-2/3: one effect primitive for ``player`` (0 = frogman)."""
    k = player - 1
    result = 0
    if effect == HEAL:
        if player == 0:
            st.g[FHP] = min(P.frogman_hp, st.g[FHP] + amount)
        else:
            st.ahp[k] = min(P.artillery_hp, st.ahp[k] + amount)
    elif effect == BULLETS:
        if player == 0:
            st.g[FBUL] += amount
        else:
            st.abul[k] += amount
    elif effect == EXTRA_AP_EFFECT:
        st.g[EXTRA_AP] += amount
    elif effect == RADAR and player > 0:
        r = min(amount, 3)
        b0 = T.ballmask[st.apos[k], r, 0]
        b1 = T.ballmask[st.apos[k], r, 1]
        if has(b0, b1, st.g[FPOS]):
            result = 1
            st.bel[0] &= b0
            st.bel[1] &= b1
        else:
            st.bel[0] &= ~b0
            st.bel[1] &= ~b1
    elif effect == TRAITOR and player > 0:
        st.traitor[k] = 1
    elif effect == CAN and player > 0:
        st.g[CAN_AT] = st.apos[k]
    _log(st, log, EV_EFFECT, player, effect, amount, result)
    if effect == TRAITOR and player > 0 and loyal_alive(st, P.n_art) == 0:
        _finish(st, log, FROGMAN, ALL_DEAD)


@njit(**INLINE)
def _use_items(T, P, st, log, bot, player, rng):
    """IN-CARD-2, IN-ABILITY-1: at the start of its turn a player may use items and (artillery) its
    ability, at no action point; assumed: at most one card of each kind and one ability use a turn."""
    for card in range(P.n_cards):
        if st.hand[player, card] > 0 and use_effect(bot, T, P, st, player, P.card_effect[card], rng):
            st.hand[player, card] -= 1
            _apply_effect(T, P, st, log, player, P.card_effect[card], P.card_amount[card])
    if player > 0:
        k = player - 1
        if st.ability[k, AB_USES] > 0 and use_effect(bot, T, P, st, player, st.ability[k, AB_EFFECT], rng):
            st.ability[k, AB_USES] -= 1
            _apply_effect(T, P, st, log, player, st.ability[k, AB_EFFECT], st.ability[k, AB_AMOUNT])


@njit(**JIT)
def _resolve_events(T, P, st, log, player):
    """IN-CARD-3: events drawn this turn take effect at its end."""
    for i in range(st.g[N_PENDING]):
        if st.g[OVER] == 0:
            card = st.pending[i]
            _apply_effect(T, P, st, log, player, P.card_effect[card], P.card_amount[card])
    st.g[N_PENDING] = 0


# ---------------------------------------------------------------- an artillery's turn

@njit(**INLINE)
def _traitor_points(P, st, k):
    """The points holding a living traitor other than artillery k (IN-SHOOT-7)."""
    t0 = np.uint64(0)
    t1 = np.uint64(0)
    for t in range(P.n_art):
        if t != k and st.ahp[t] > 0 and st.traitor[t] == 1:
            t0, t1 = with_point(t0, t1, st.apos[t])
    return t0, t1


@njit(**INLINE)
def _artillery_shots_region(T, P, st, k, d):
    """The points a shot of artillery k in direction d would hit the frogman on: the line up to
    the range, cut after the first point holding a traitor (IN-SHOOT-3, IN-SHOOT-7); and that
    traitor (-1 if none). With no other living traitor on the line, that is the whole line
    (``T.linemask``)."""
    a = st.apos[k]
    t0, t1 = _traitor_points(P, st, k)
    if (T.linemask[a, d, 0] & t0) | (T.linemask[a, d, 1] & t1) == np.uint64(0):
        return T.linemask[a, d, 0], T.linemask[a, d, 1], -1
    c0 = np.uint64(0)
    c1 = np.uint64(0)
    for j in range(T.line.shape[2]):
        c = T.line[a, d, j]
        if c < 0:
            continue
        c0, c1 = with_point(c0, c1, c)
        for t in range(P.n_art):
            if t != k and st.ahp[t] > 0 and st.traitor[t] == 1 and st.apos[t] == c:
                return c0, c1, t
    return c0, c1, -1


@njit(**JIT)
def _artillery_shoots(T, P, st, log, k, d):
    """IN-SHOOT-1..3, IN-SHOOT-7: 1 AP and 1 bullet; the nearest frogman or traitor on the line
    is hit (the frogman, if both share the point); the frogman says whether it was hit. The
    public set keeps the covered points on a hit and loses them on a miss (IN-BELIEF-4)."""
    st.abul[k] -= 1
    c0, c1, traitor = _artillery_shots_region(T, P, st, k, d)
    hit = has(c0, c1, st.g[FPOS])
    if hit:
        st.bel[0] &= c0
        st.bel[1] &= c1
    else:
        st.bel[0] &= ~c0
        st.bel[1] &= ~c1
    _log(st, log, EV_ASHOT, k + 1, d + 1, 1 if hit else 0, set_size(st.bel[0], st.bel[1]))
    if hit:
        st.g[FHP] -= 1
        if st.g[FHP] == 0:
            _finish(st, log, ARTILLERY, SHOT)
    elif traitor >= 0:
        _wound_artillery(P, st, log, traitor)


@njit(**JIT)
def _artillery_catches(P, st, log, k):
    """IN-CATCH-1/2: right wins at once; wrong costs 1 HP and the point leaves the public set."""
    a = st.apos[k]
    right = st.g[FPOS] == a
    if not right:
        st.bel[0], st.bel[1] = without_point(st.bel[0], st.bel[1], a)
    _log(st, log, EV_CATCH, k + 1, a, 1 if right else 0, set_size(st.bel[0], st.bel[1]))
    if right:
        _finish(st, log, ARTILLERY, CATCH)
    else:
        _wound_artillery(P, st, log, k)


@njit(**INLINE)
def _artillery_moves(T, P, st, log, k, d):
    """IN-MOVE-5/6: one road step; artillery may share points and stand on the frogman. The first
    artillery to enter the mine's point loses 1 HP and the mine is gone (IN-MINE-3)."""
    a = st.apos[k]
    q = T.road_step[a, d]
    st.apos[k] = q
    _log(st, log, EV_AMOVE, k + 1, a, q, 0)
    if st.g[MINE_AT] == q:
        st.g[MINE_AT] = -1
        _log(st, log, EV_BOOM, k + 1, q, 0, 0)
        _wound_artillery(P, st, log, k)


@njit(**ONCE)
def artillery_turn(T, P, st, seats, k, rng, log):
    """IN-TURN-2/3: up to the action points, at least one spent, one shot a turn (IN-SHOOT-2);
    items and ability first (IN-CARD-2, IN-ABILITY-1), events at the end (IN-CARD-3)."""
    ap = artillery_opens(T, P, st, bots_of(seats)[1], k, rng, log)
    artillery_acts(T, P, st, seats, k, rng, log, ap, 0, False)
    artillery_closes(T, P, st, log, k)


@njit(**INLINE)
def artillery_opens(T, P, st, bot, k, rng, log):
    """Items and ability at the start of the turn (IN-CARD-2, IN-ABILITY-1; not a traitor's); the
    turn's action points."""
    st.g[EXTRA_AP] = 0
    if st.traitor[k] == 0:
        _use_items(T, P, st, log, bot, k + 1, rng)
    return P.ap + st.g[EXTRA_AP]


@njit(**ONCE)
def artillery_acts(T, P, st, seats, k, rng, log, ap, spent, shot):
    """Actions chosen by the seat from ``spent`` points spent (and ``shot`` taken) until it ends the
    turn, the points run out, it dies or the game ends."""
    while spent < ap and st.ahp[k] > 0 and st.g[OVER] == 0:
        action, d = artillery_decides(T, P, st, seats, k, rng, log, ap, spent, shot, _can_draw(st, ap - spent))
        if action == END:
            break
        spent = artillery_does(T, P, st, log, k, action, d, spent)
        shot = shot or action == SHOOT


@njit(**INLINE)
def artillery_does(T, P, st, log, k, action, d, spent):
    """One action of artillery k (MOVE, SHOOT, CATCH_ACTION or DRAW): 1 action point, a draw 2
    (IN-CARD-1). Returns the points spent."""
    if action == MOVE:
        _artillery_moves(T, P, st, log, k, d)
    elif action == SHOOT:
        _artillery_shoots(T, P, st, log, k, d)
    elif action == DRAW:
        _draw(P, st, log, k + 1)
        return spent + 2
    else:
        _artillery_catches(P, st, log, k)
    return spent + 1


@njit(**INLINE)
def artillery_closes(T, P, st, log, k):
    """Events drawn this turn take effect at its end, if the artillery lives (IN-CARD-3)."""
    if st.ahp[k] > 0 and st.g[OVER] == 0:
        _resolve_events(T, P, st, log, k + 1)
    st.g[N_PENDING] = 0


# ---------------------------------------------------------------- one game, a batch

@njit(**INLINE)
def setup(T, P, st, seats, rng, log):
    """IN-SETUP-2..4: HP and bullets by player count; the frogman writes a numbered start point;
    the artillery place in turn. The public set starts as every numbered point (IN-BELIEF-1)."""
    st.g[:] = 0
    st.g[ROUND] = 0
    st.g[FHP] = P.frogman_hp
    st.g[FBUL] = P.frogman_bullets
    st.g[MINES_LEFT] = P.mines
    st.g[MINE_AT] = -1
    st.g[ESC_EXIT] = -1
    st.g[WINNER] = -1
    st.g[REASON] = -1
    st.sizes[:] = -1
    st.plan[:] = -1  # the hunter's plan (policies._hunter_plan) belongs to one game
    st.g[FPOS] = frogman_start(T, rng)
    _log(st, log, EV_START, 0, st.g[FPOS], 0, 0)
    for k in range(P.n_art):
        st.ahp[k] = P.artillery_hp
        st.abul[k] = P.artillery_bullets
        st.traitor[k] = 0
        st.apos[k] = artillery_start(bots_of(seats)[1], k, T, st, rng)
        _log(st, log, EV_PLACE, k + 1, st.apos[k], 0, 0)
    st.bel[0] = T.numbered_mask[0]
    st.bel[1] = T.numbered_mask[1]
    _deal_cards(P, st, rng)


@njit(**JIT)
def _shuffle(rng, arr):
    """Fisher-Yates shuffle in place, bounded draws by multiplication (``sim.core.rng.below``)."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        arr[i], arr[j] = arr[j], arr[i]


@njit(**JIT)
def _deal_cards(P, st, rng):
    """IN-CARD-1, IN-ABILITY-1: shuffle the deck; deal each artillery one character ability."""
    st.hand[:, :] = 0
    st.g[N_PENDING] = 0
    st.g[CAN_AT] = -1
    n = P.deck_n
    for i in range(n):
        st.deck[i] = P.deck[i]
    _shuffle(rng, st.deck[:n])
    st.g[DECK_TOP] = 0
    st.g[DECK_N] = n
    st.ability[:, :] = 0
    m = P.n_abilities
    if m > 0:
        order = st.scratch[:m]
        for i in range(m):
            order[i] = i
        _shuffle(rng, order)
        for k in range(P.n_art):
            st.ability[k, AB_EFFECT] = P.ab_effect[order[k]]
            st.ability[k, AB_AMOUNT] = P.ab_amount[order[k]]
            st.ability[k, AB_USES] = P.ab_uses[order[k]]


@njit(**ONCE)
def play_game(T, P, st, seats, rng, log, density):
    """IN-TURN-1: rounds of the frogman's turn, then each artillery's; IN-WIN-A3: the artillery
    win when the last round ends. ``density[p]`` counts rounds the frogman ended on p."""
    setup(T, P, st, seats, rng, log)
    play_rounds(T, P, st, seats, rng, log, density, 1)


@njit(**ONCE)
def play_rounds(T, P, st, seats, rng, log, density, first):
    """Rounds ``first`` .. the last (IN-TURN-1), then the artillery win on time (IN-WIN-A3)."""
    for r in range(first, P.last_round + 1):
        st.g[ROUND] = r
        frogman_turn(T, P, st, seats, rng, log)
        _log(st, log, EV_TURN_END, 0, st.g[FPOS], np.int64(st.bel[0]), np.int64(st.bel[1]))
        if st.g[OVER] == 1:
            return
        artillery_turns(T, P, st, seats, rng, log, density, 0)
        if st.g[OVER] == 1:
            return
    st.g[ROUND] = P.last_round
    _finish(st, log, ARTILLERY, TIME)


@njit(**ONCE)
def artillery_turns(T, P, st, seats, rng, log, density, first):
    """The turns of the living artillery ``first`` .. the last in order (IN-TURN-1), then the
    round's end: its public-set size and the frogman's point (``density``)."""
    for k in range(first, P.n_art):
        if st.ahp[k] > 0:
            artillery_turn(T, P, st, seats, k, rng, log)
            _log(st, log, EV_TURN_END, k + 1, st.g[FPOS], np.int64(st.bel[0]), np.int64(st.bel[1]))
            if st.g[OVER] == 1:
                return
    round_ends(st, density)


@njit(**INLINE)
def round_ends(st, density):
    """What a round leaves behind: the public-set size, and one more round ended on the frogman's point."""
    st.sizes[st.g[ROUND] - 1] = set_size(st.bel[0], st.bel[1])
    density[st.g[FPOS]] += 1


@njit(**JIT)
def play_batch(T, P, st, policy, seed, start, out, sizes, density, captures, escapes, log):
    """Games ``start .. start+count-1`` of the run ``seed``, game i on its own stream (seed, i).

    Column by column (each a contiguous row, returned as is): ``out[:, i]`` = winner, reason, end
    round, escape round, escape point, frogman HP, artillery alive, final public-set size;
    ``sizes[:, i]`` = public-set size at the end of rounds 1..10."""
    rng = st.rng
    for i in range(out.shape[1]):
        seed_stream(rng, seed, start + i)
        play_game(T, P, st, policy, rng, log, density)
        write_row(P, st, i, out, sizes, captures, escapes)


@njit(**INLINE)
def write_row(P, st, i, out, sizes, captures, escapes):
    """Game i's columns of ``play_batch`` from its final state."""
    alive = 0
    for k in range(P.n_art):
        if st.ahp[k] > 0:
            alive += 1
    out[0, i] = st.g[WINNER]
    out[1, i] = st.g[REASON]
    out[2, i] = st.g[END_ROUND]
    out[3, i] = st.g[ESC_ROUND]
    out[4, i] = st.g[ESC_EXIT]
    out[5, i] = st.g[FHP]
    out[6, i] = alive
    out[7, i] = set_size(st.bel[0], st.bel[1])
    for r in range(10):
        sizes[r, i] = st.sizes[r]
    if st.g[REASON] == CATCH or st.g[REASON] == SHOT:
        captures[st.g[FPOS]] += 1
    elif st.g[REASON] == ESCAPE:
        escapes[st.g[FPOS]] += 1
