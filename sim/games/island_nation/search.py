"""The search bot: determinised Monte Carlo search, compiled, with the game's own engine for rollouts.

At each decision of a searching seat (a frogman's road step or stop, IN-MOVE-1..4, IN-TURN-3; an
artillery's action, IN-TURN-2/3) every candidate action is tried in ``rollouts`` sampled worlds, each
game finished by the strongest scripted bots (frogman ``ghost``, artillery ``hunter``; the engine's
own turns), and the candidate that wins most rollouts for the seat's side is taken: the scripted
bot's own choice unless another candidate wins strictly more. Worlds are shared by the candidates
(world j and its rollout stream are the same for each: a paired comparison), and so are the bots'
random choices in every later turn of a rollout: each turn draws from a stream fixed by (world, round,
seat) (``ROLLOUT``), not from whatever the turns before it drew, so two candidates' rollouts stay
paired after their first moves differ (common random numbers). Everything else a searching seat
decides (items, abilities, the frogman's shot, draws and mine) is the scripted bot's.

Candidates: the frogman's legal steps (onto a point without artillery, IN-MOVE-4) and, once a point
is spent, stopping; an artillery's legal moves, a draw (IN-CARD-1), ending once a point is spent
(IN-TURN-3), shots only along a line through the public set and a catch only on a point of it: a
shot elsewhere cannot hit the frogman and tells nothing (IN-BELIEF-4), a catch elsewhere is sure to
cost 1 HP (IN-CATCH-2). A step into an evac point in the window (IN-WIN-F1) and a catch of a one-point
set on one's own point (IN-CATCH-1) win at once and are taken without rollouts.

A world holds only what the seat may know; what it cannot see is drawn again from public facts in
a fixed order (so two states differing only in hidden things give the same decision):

* artillery: the frogman's point from the public set (IN-BELIEF-1..7, the set the hunter reads), each
  point equally likely, the worlds spread evenly over the set (systematic sampling, ``_spot``); a mine still on the board (its placing is announced, its point secret: IN-MINE-1/2) on a
  point of the public sets of the turn it was placed, a superset of that turn's path; the frogman's
  items (IN-CARD-2) from the unseen cards;
* frogman: the artillery's items from the unseen cards, and the abilities not yet used from those
  not yet shown (IN-ABILITY-1: shown when used);
* both: the order of the undrawn deck (IN-CARD-1).

Determinism: the search draws only from its own stream, fixed by (seed, game index, seat, decision
number) with ``sim.core.rng``'s mixing, never from the game's stream.

This module is imported, and compiled, only when some role plays search (``batch.play_rows``). The
order of play is the engine's, compiled again with the rollouts' bots (``SCRIPTED``) and with the search's
deciders (``SEARCHED``); the rollouts have no search branch, so nothing here calls itself.
"""

from __future__ import annotations

import numpy as np

from sim.core.bits import lowest_bit, popcount
from sim.core.jit import njit, recompiled
from sim.core.rng import _mix64, below, next_u64, seed_stream, uniform
from sim.games.island_nation import engine
from sim.games.island_nation.engine import EV_SEARCH, _log, _shuffle, write_row
from sim.games.island_nation.policies import (
    ARTILLERY_BOTS,
    FROGMAN_BOTS,
    GHOST,
    HUNTER,
    SEARCH,
    artillery_action,
    frogman_step,
)
from sim.games.island_nation.state import (
    AB_AMOUNT,
    AB_EFFECT,
    AB_USES,
    ARTILLERY,
    CATCH_ACTION,
    DECK_N,
    DECK_TOP,
    DRAW,
    END,
    FPOS,
    FROGMAN,
    ITEM,
    JIT,
    MAX_ABILITIES,
    MAX_ART,
    MAX_CARD_TYPES,
    MAX_DECK,
    MAX_POINTS,
    MINE_AT,
    MINES_LEFT,
    MOVE,
    ONCE,
    ONE,
    OVER,
    ROUND,
    SHOOT,
    WINNER,
    State,
    has,
    in_window,
    must_leave,
    set_size,
)

WORLD_KEY = 2  # cx.rollout_bots[WORLD_KEY]: the key of the world a rollout plays (``ROLLOUT``)
STOP = 6  # the frogman's candidate "stop walking" (its steps are directions 0..5)
CHOSEN = 64  # added to the code of the candidate taken, in the trace's EV_SEARCH rows
MAX_CANDIDATES = 16
_SEARCH_SALT = np.uint64(0x5EA2C4B07D15EA5E)

Context = np.dtype([
    ("srng", np.uint64, (4,)), ("mine_zone", np.uint64, (2,)),
    ("seed", np.int64), ("index", np.int64), ("n_search", np.int64),
    ("searching", np.int64, (2,)), ("rollouts", np.int64, (2,)), ("bots", np.int64, (2,)),
    ("rollout_bots", np.int64, (3,)), ("decisions", np.int64, (MAX_ART + 1,)),
    ("ability_of", np.int64, (MAX_ART,)), ("shown", np.int64, (MAX_ART,)),
    ("codes", np.int64, (MAX_CANDIDATES,)), ("wins", np.int64, (MAX_CANDIDATES,)),
    ("unseen", np.int64, (MAX_CARD_TYPES,)), ("pool", np.int64, (MAX_DECK,)), ("owed", np.int64, (MAX_ART + 1,)),
    ("ability_pool", np.int64, (MAX_ABILITIES,)), ("density", np.int64, (MAX_POINTS,)),
    ("zone", np.uint64, (2,)),
], align=True)
"""The search's working record for one game: its stream, the public facts it keeps (where the mine
may lie, ``zone`` the public sets of the frogman's turn so far, which ability each artillery holds and
whether it is shown), the candidates' codes and wins, and scratch for drawing worlds (``density``: the
rollouts' round ends, thrown away)."""


# ---------------------------------------------------------------- the search's own stream

@njit(**JIT)
def _search_stream(cx, actor):
    """Seed ``cx.srng`` for the next decision of ``actor`` (0 frogman, k + 1 artillery k): fixed by
    (seed, game index, seat, decision number), apart from the game's own stream."""
    z = _mix64(np.uint64(cx.seed) + _SEARCH_SALT)
    z = _mix64(z ^ np.uint64(actor))
    z = _mix64(z + np.uint64(cx.decisions[actor]))
    seed_stream(cx.srng, z, cx.index)
    cx.decisions[actor] += 1
    cx.n_search += 1


# ---------------------------------------------------------------- worlds

@njit(**JIT)
def _copy(dst, src):
    """A world starts as a copy of the game's state: its record's words, one by one."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(**JIT)
def _nth_point(s0, s1, i):
    """The i-th lowest point of a set."""
    n0 = popcount(s0)
    x, base = (s0, 0) if i < n0 else (s1, 64)
    if i >= n0:
        i -= n0
    for _ in range(i):
        x &= x - ONE
    return base + lowest_bit(x)


@njit(**JIT)
def _any_point(rng, s0, s1):
    """A point of a non-empty set, uniformly."""
    return _nth_point(s0, s1, below(rng, set_size(s0, s1)))


@njit(**JIT)
def _deal_unseen(P, rs, cx, rng, first, last):
    """The cards players ``first`` .. ``last`` hold (items, unseen by the seat, IN-CARD-2) and the
    undrawn deck (unseen by all, IN-CARD-1) dealt again: pooled in card-type order, shuffled, each
    player gets back as many items as it held, the rest is the deck in its new order."""
    unseen = cx.unseen
    unseen[:] = 0
    for i in range(rs.g[DECK_TOP], rs.g[DECK_N]):
        unseen[rs.deck[i]] += 1
    for p in range(first, last + 1):
        cx.owed[p] = 0
        for c in range(P.n_cards):
            unseen[c] += rs.hand[p, c]
            cx.owed[p] += rs.hand[p, c]
            rs.hand[p, c] = 0
    m = 0
    for c in range(P.n_cards):
        for _ in range(unseen[c]):
            cx.pool[m] = c
            m += 1
    _shuffle(rng, cx.pool[:m])
    p = first
    top = rs.g[DECK_TOP]
    for i in range(m):
        c = cx.pool[i]
        while p <= last and cx.owed[p] == 0:
            p += 1
        if p <= last and P.card_kind[c] == ITEM:
            rs.hand[p, c] += 1
            cx.owed[p] -= 1
        else:
            rs.deck[top] = c
            top += 1


@njit(**JIT)
def _deal_abilities(P, rs, cx, rng):
    """The abilities of the artillery that have not used theirs (shown only when used, IN-ABILITY-1)
    dealt again from the abilities not shown, unused."""
    m = 0
    for a in range(P.n_abilities):
        shown = False
        for k in range(P.n_art):
            shown = shown or (cx.shown[k] == 1 and cx.ability_of[k] == a)
        if not shown:
            cx.ability_pool[m] = a
            m += 1
    _shuffle(rng, cx.ability_pool[:m])
    j = 0
    for k in range(P.n_art):
        if cx.shown[k] == 0 and j < m:
            a = cx.ability_pool[j]
            j += 1
            rs.ability[k, AB_EFFECT] = P.ab_effect[a]
            rs.ability[k, AB_AMOUNT] = P.ab_amount[a]
            rs.ability[k, AB_USES] = P.ab_uses[a]


@njit(**JIT)
def sample_world(P, rs, cx, side, rng, spot):
    """Redraw in the copy ``rs`` what a seat of ``side`` cannot see (the module's docstring); an
    artillery's world puts the frogman on the ``spot``-th point of the public set (``_spot``)."""
    if side == ARTILLERY:
        _deal_unseen(P, rs, cx, rng, np.int64(0), np.int64(0))
        rs.g[FPOS] = _nth_point(rs.bel[0], rs.bel[1], spot)
        if rs.g[MINE_AT] >= 0:
            rs.g[MINE_AT] = _any_point(rng, cx.mine_zone[0], cx.mine_zone[1])
    else:
        _deal_unseen(P, rs, cx, rng, np.int64(1), P.n_art)
        if P.n_abilities > 0:
            _deal_abilities(P, rs, cx, rng)


@njit(**JIT)
def _spot(v, world, worlds, size):
    """Which point of a public set of ``size`` points world ``world`` of ``worlds`` puts the frogman
    on: systematic sampling, ``worlds`` points evenly spaced through the set from the uniform offset
    ``v`` (each point's expected share of the worlds is 1/size, as under uniform draws, but a shot's
    line or a catch's point gets its exact share of worlds up to one: IN-BELIEF-1..7, IN-SHOOT-3)."""
    return min(np.int64((v + world) * size / worlds), size - 1)


@njit(**JIT)
def _note_abilities(P, st, cx):
    """Which of the rule's abilities each artillery holds (by value: equal ones are interchangeable);
    none shown yet."""
    for k in range(P.n_art):
        cx.shown[k] = 0
        cx.ability_of[k] = -1
        for a in range(P.n_abilities):
            taken = False
            for j in range(k):
                taken = taken or cx.ability_of[j] == a
            if (not taken and cx.ability_of[k] < 0 and P.ab_effect[a] == st.ability[k, AB_EFFECT]
                    and P.ab_amount[a] == st.ability[k, AB_AMOUNT] and P.ab_uses[a] == st.ability[k, AB_USES]):
                cx.ability_of[k] = a


@njit(**JIT)
def _note_shown(P, st, cx, k):
    """An ability is shown once used (IN-ABILITY-1, IN-ABILITY-2): uses only fall, and only in the
    artillery's own turn, so noting it at the frogman's decisions is noting it after each turn."""
    a = cx.ability_of[k]
    if a >= 0 and st.ability[k, AB_USES] < P.ab_uses[a]:
        cx.shown[k] = 1


# ---------------------------------------------------------------- the engine's order of play, compiled apart

# The engine inlines its turns and the bots' choices into its one game function. The search needs them
# at many places (its own game, the decisions, both kinds of rollout); inlined at each they compiled for
# about 7 minutes. So the engine's own functions (``engine.play_rounds`` .. ``engine.artillery_acts``)
# are compiled again here, each on its own and called from each of those places: the same code and the
# same draws, compiled once (``sim.core.jit.recompiled``). The rollouts' seats are the strongest bots
# (``cx.rollout_bots``); a game with search seats binds its own deciders (below). Throughout this module
# a constant argument is passed typed (``np.int64(0)``, ``np.bool_(False)``, not ``0`` or ``False``, also
# as a variable's first value): numba compiles a function called with a literal again for that literal.

_PARTS = ("setup", "frogman_opens", "frogman_steps", "frogman_closes", "artillery_opens", "artillery_does",
          "artillery_closes")
_ORDER = ("play_rounds", "frogman_turn", "frogman_walks", "artillery_turns", "artillery_turn", "artillery_acts")
SCRIPTED = recompiled(engine, _PARTS + _ORDER, JIT, "scripted")
"""The engine's turns and rounds with scripted seats (a bot per role), each compiled on its own: the
rollouts, and the analyses that replay the default bots' games (counterfactual.py)."""


@njit(**JIT)
def _keyed_frogman_turn(T, P, st, seats, rng, log):
    """A rollout's frogman turn, its stream fixed by (world, round, seat) (``ROLLOUT``)."""
    seed_stream(rng, np.uint64(seats[WORLD_KEY]), st.g[ROUND] * (MAX_ART + 1))
    SCRIPTED.frogman_turn(T, P, st, seats, rng, log)


@njit(**JIT)
def _keyed_artillery_turn(T, P, st, seats, k, rng, log):
    """A rollout's turn of artillery k, its stream fixed by (world, round, seat) (``ROLLOUT``)."""
    seed_stream(rng, np.uint64(seats[WORLD_KEY]), st.g[ROUND] * (MAX_ART + 1) + k + 1)
    SCRIPTED.artillery_turn(T, P, st, seats, k, rng, log)


ROLLOUT = recompiled(engine, ("play_rounds", "artillery_turns"), JIT, "rollout", frogman_turn=_keyed_frogman_turn,
                     artillery_turn=_keyed_artillery_turn)
"""The rounds after a candidate's turn, as the rollouts play them: each later turn draws from a stream
fixed by (world, round, seat), not from what earlier turns drew, so the candidates' rollouts of a world
share the bots' random choices turn by turn (common random numbers) even after their first moves differ."""


@njit(**JIT)
def _play_on(T, P, rs, cx, quiet, first):
    """The rest of the game from artillery ``first``'s turn of this round, scripted (``ROLLOUT``)."""
    ROLLOUT.artillery_turns(T, P, rs, cx.rollout_bots, rs.rng, quiet, cx.density, first)
    if rs.g[OVER] == 0:
        ROLLOUT.play_rounds(T, P, rs, cx.rollout_bots, rs.rng, quiet, cx.density, rs.g[ROUND] + 1)


@njit(**JIT)
def _frogman_rollout(T, P, rs, cx, quiet, code, start, hidden, ap, spent, shots, draws, n_path, m0, m1):
    """The frogman takes candidate ``code`` (a step or STOP) in the world ``rs``, then the ghost walks
    on and the game is played out."""
    ghost = cx.rollout_bots
    if code != STOP:
        n_path = SCRIPTED.frogman_steps(T, P, rs, quiet, code, hidden, n_path, m0, m1)
        spent += 1
        if rs.g[OVER] == 1:
            return
        spent, n_path = SCRIPTED.frogman_walks(T, P, rs, ghost, rs.rng, quiet, start, hidden, ap, spent, shots, draws,
                                               n_path, m0, m1)
        if rs.g[OVER] == 1:
            return
    SCRIPTED.frogman_closes(T, P, rs, ghost, rs.rng, quiet, start, hidden, ap, spent, shots, draws, n_path, m0, m1)
    if rs.g[OVER] == 0:
        _play_on(T, P, rs, cx, quiet, np.int64(0))


@njit(**JIT)
def _artillery_rollout(T, P, rs, cx, quiet, k, code, ap, spent, shot):
    """Artillery k takes candidate ``code`` (action * 8 + direction) in the world ``rs``, then the
    hunter finishes its turn and the game is played out."""
    action = code // 8
    if action != END:
        spent = SCRIPTED.artillery_does(T, P, rs, quiet, k, action, code % 8, spent)
        SCRIPTED.artillery_acts(T, P, rs, cx.rollout_bots, k, rs.rng, quiet, ap, spent, shot or action == SHOOT)
    SCRIPTED.artillery_closes(T, P, rs, quiet, k)
    if rs.g[OVER] == 0:
        _play_on(T, P, rs, cx, quiet, k + 1)


@njit(**JIT)
def _choose(st, cx, log, actor, n, own, rollouts):
    """The candidate winning most rollouts; the scripted bot's own choice ``own`` unless another wins
    strictly more (then the first such). Each candidate goes to the trace: (code, wins, rollouts)."""
    best = 0
    for c in range(n):
        if cx.codes[c] == own:
            best = c
    for c in range(n):
        if cx.wins[c] > cx.wins[best]:
            best = c
    for c in range(n):
        _log(st, log, EV_SEARCH, actor, cx.codes[c] + (CHOSEN if c == best else 0), cx.wins[c], rollouts)
    return cx.codes[best]


# ---------------------------------------------------------------- the frogman's search

@njit(**JIT)
def _frogman_candidates(T, P, st, cx, spent, m0, m1):
    """The legal steps (IN-MOVE-4) and, once a point is spent, STOP (IN-TURN-3); a step into an evac
    point in the window alone, since it wins at once (IN-WIN-F1)."""
    f = st.g[FPOS]
    window = in_window(P, st.g[ROUND])
    n = 0
    for d in range(6):
        q = T.road_step[f, d]
        if q >= 0 and not has(m0, m1, q):
            if window and T.is_evac[q] == 1:
                cx.codes[0] = d
                return 1
            cx.codes[n] = d
            n += 1
    if spent > 0 and n > 0 and not must_leave(P, st, m0, m1):  # IN-MOVE-4, other reading
        cx.codes[n] = STOP
        n += 1
    return n


@njit(**JIT)
def frogman_search(T, P, st, rs, st_b, rs_b, cx, quiet, log, start, hidden, ap, spent, shots, draws, n_path,
                   m0, m1):
    """The searching frogman's next step (0..5) or -1 to stop."""
    n = _frogman_candidates(T, P, st, cx, spent, m0, m1)
    if n <= 1:
        return cx.codes[0] if n == 1 else -1
    _search_stream(cx, np.int64(0))
    for k in range(P.n_art):
        _note_shown(P, st, cx, k)
    _copy(rs_b, st_b)
    seed_stream(rs.rng, next_u64(cx.srng), 0)
    own = frogman_step(cx.rollout_bots[0], T, P, rs, rs.rng, spent, ap, hidden, m0, m1)
    rollouts = cx.rollouts[0]
    cx.wins[:n] = 0
    for _ in range(rollouts):
        world = next_u64(cx.srng)
        cx.rollout_bots[WORLD_KEY] = np.int64(world >> np.uint64(1))
        for c in range(n):
            _copy(rs_b, st_b)
            seed_stream(rs.rng, world, 0)
            sample_world(P, rs, cx, np.int64(FROGMAN), rs.rng, np.int64(0))
            _frogman_rollout(T, P, rs, cx, quiet, cx.codes[c], start, hidden, ap, spent, shots, draws, n_path, m0, m1)
            cx.wins[c] += rs.g[WINNER] == FROGMAN
    code = _choose(st, cx, log, np.int64(0), n, STOP if own < 0 else own, rollouts)
    return -1 if code == STOP else code


# ---------------------------------------------------------------- an artillery's search

@njit(**JIT)
def _artillery_candidates(T, st, cx, k, spent, shot, can_draw):
    """Artillery k's sensible legal actions as codes action * 8 + direction (the module's docstring);
    a catch of a one-point set on its own point alone, since it wins at once (IN-CATCH-1)."""
    a = st.apos[k]
    s0, s1 = st.bel[0], st.bel[1]
    n = 0
    if has(s0, s1, a):
        cx.codes[n] = CATCH_ACTION * 8
        n += 1
        if set_size(s0, s1) == 1:
            return n
    if st.abul[k] > 0 and not shot:
        for d in range(6):
            if (T.linemask[a, d, 0] & s0) | (T.linemask[a, d, 1] & s1) != np.uint64(0):
                cx.codes[n] = SHOOT * 8 + d
                n += 1
    for d in range(6):
        if T.road_step[a, d] >= 0:
            cx.codes[n] = MOVE * 8 + d
            n += 1
    if can_draw:
        cx.codes[n] = DRAW * 8
        n += 1
    if spent > 0:
        cx.codes[n] = END * 8
        n += 1
    return n


@njit(**JIT)
def artillery_search(T, P, st, rs, st_b, rs_b, cx, quiet, log, k, ap, spent, shot, can_draw):
    """Searching artillery k's next action and direction (``artillery_action``'s contract)."""
    n = _artillery_candidates(T, st, cx, k, spent, shot, can_draw)
    if n == 1:
        return cx.codes[0] // 8, cx.codes[0] % 8
    _search_stream(cx, k + 1)
    _copy(rs_b, st_b)
    seed_stream(rs.rng, next_u64(cx.srng), 0)
    action, d = artillery_action(cx.rollout_bots[1], T, P, k, rs, rs.rng, spent, ap, shot, can_draw)
    rollouts = cx.rollouts[1]
    cx.wins[:n] = 0
    v = uniform(cx.srng)
    size = set_size(st.bel[0], st.bel[1])
    for j in range(rollouts):
        world = next_u64(cx.srng)
        cx.rollout_bots[WORLD_KEY] = np.int64(world >> np.uint64(1))
        spot = _spot(v, j, rollouts, size)
        for c in range(n):
            _copy(rs_b, st_b)
            seed_stream(rs.rng, world, 0)
            sample_world(P, rs, cx, np.int64(ARTILLERY), rs.rng, spot)
            _artillery_rollout(T, P, rs, cx, quiet, k, cx.codes[c], ap, spent, shot)
            cx.wins[c] += rs.g[WINNER] == ARTILLERY
    code = _choose(st, cx, log, k + 1, n, action * 8 + (0 if action == END else d), rollouts)
    return code // 8, code % 8


# ---------------------------------------------------------------- a game with search seats

# The engine's order of play again, its seats the tuple (cx, rs, st_b, rs_b, quiet): the search record,
# a world and the words of both, and a log of size 0 for the rollouts. Only the deciders and the
# search's bookkeeping are its own: a searching seat's choices come from the search, every other
# choice from the scripted bots of ``cx.bots``; the public facts it keeps (which ability each artillery
# holds, where a mine may lie) are noted at the game's setup and around the frogman's walk.

@njit(**ONCE)
def _bots_of(seats):
    """The scripted bot of each role: the one a searching seat's turn opens and closes with."""
    return seats[0].bots


@njit(**ONCE)
def _setup(T, P, st, seats, rng, log):
    """``engine.setup`` with the scripted bots; which ability each artillery holds, none shown."""
    cx = seats[0]
    SCRIPTED.setup(T, P, st, cx.bots, rng, log)
    _note_abilities(P, st, cx)


@njit(**ONCE)
def _frogman_opens(T, P, st, seats, rng, log):
    """``engine.frogman_opens``; the walk's public sets are kept from here (where a mine placed in this
    turn may lie, IN-MINE-2)."""
    cx = seats[0]
    opened = SCRIPTED.frogman_opens(T, P, st, cx.bots, rng, log)
    cx.zone[0], cx.zone[1] = st.bel[0], st.bel[1]
    return opened


@njit(**ONCE)
def _frogman_decides(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1):
    """The frogman's next step: the search's when it searches, else its bot's."""
    cx, rs, st_b, rs_b, quiet = seats
    cx.zone[0] |= st.bel[0]
    cx.zone[1] |= st.bel[1]
    if cx.searching[0] == 1:
        return frogman_search(T, P, st, rs, st_b, rs_b, cx, quiet, log, start, hidden, ap, spent, shots, draws,
                              n_path, m0, m1)
    return frogman_step(cx.bots[0], T, P, st, rng, spent, ap, hidden, m0, m1)


@njit(**ONCE)
def _frogman_closes(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1):
    """``engine.frogman_closes``; a mine placed now lies on a point of this turn's public sets
    (IN-MINE-2): the sets from the walk's opening to its last step and after the turn closes."""
    cx = seats[0]
    mines = st.g[MINES_LEFT]
    cx.zone[0] |= st.bel[0]
    cx.zone[1] |= st.bel[1]
    SCRIPTED.frogman_closes(T, P, st, cx.bots, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1)
    if st.g[MINES_LEFT] < mines:
        cx.mine_zone[0] = cx.zone[0] | st.bel[0]
        cx.mine_zone[1] = cx.zone[1] | st.bel[1]


@njit(**ONCE)
def _artillery_decides(T, P, st, seats, k, rng, log, ap, spent, shot, can_draw):
    """Artillery k's next action: the search's when the artillery search, else (and for a traitor, who
    only wanders, IN-CARD-5) its bot's."""
    cx, rs, st_b, rs_b, quiet = seats
    if cx.searching[1] == 1 and st.traitor[k] == 0:
        return artillery_search(T, P, st, rs, st_b, rs_b, cx, quiet, log, k, ap, spent, shot, can_draw)
    return artillery_action(cx.bots[1], T, P, k, st, rng, spent, ap, shot, can_draw)


SEARCHED = recompiled(engine, ("play_game", *_ORDER), ONCE, "searched", bots_of=_bots_of, setup=_setup,
                      frogman_opens=_frogman_opens, frogman_decides=_frogman_decides,
                      frogman_closes=_frogman_closes, artillery_decides=_artillery_decides,
                      **{name: getattr(SCRIPTED, name) for name in _PARTS if name not in ("setup", "frogman_opens",
                                                                                          "frogman_closes")})
"""The engine's game with search seats (``engine.play_game``: the same order of play), inlined into
``_searched_batch`` as the engine's is into ``play_batch`` (each part is called from one place)."""


@njit(**JIT)
def _searched_batch(T, P, st, rs, st_b, rs_b, cx, quiet, seed, start, out, sizes, density, captures, escapes, log,
                    decisions):
    """``engine.play_batch`` with search seats; ``decisions[i]``: search decisions in game i."""
    seats = (cx, rs, st_b, rs_b, quiet)
    for i in range(out.shape[1]):
        seed_stream(st.rng, seed, start + i)
        cx.index = start + i
        cx.decisions[:] = 0
        cx.n_search = 0
        cx.mine_zone[:] = 0
        SEARCHED.play_game(T, P, st, seats, st.rng, log, density)
        write_row(P, st, i, out, sizes, captures, escapes)
        decisions[i] = cx.n_search


def _state() -> tuple[np.record, np.ndarray]:
    """A zeroed ``State`` record on a 64-byte boundary and the words it lives in (a world is a copy)."""
    raw = np.zeros(State.itemsize + 64, dtype=np.uint8)
    begin = -raw.ctypes.data % 64
    data = raw[begin:begin + State.itemsize]
    st = data.view(State).view(np.recarray)[0]
    st.plan[:] = -1
    return st, data.view(np.uint64)


def search_context(policy: np.ndarray, seed: int) -> np.record:
    """The search record for a policy array (bots per role, then each role's options, or just the bots:
    the default budget)."""
    from sim.games.island_nation.state import record

    cx = record(Context)
    cx.seed = seed
    width = len(SEARCH.options)
    scripted = (len(FROGMAN_BOTS), len(ARTILLERY_BOTS))
    for role, strongest in enumerate((GHOST, HUNTER)):
        searching = int(policy[role]) == scripted[role]
        cx.searching[role] = searching
        cx.bots[role] = strongest if searching else int(policy[role])
        cx.rollout_bots[role] = strongest
        options = policy[2 + role * width: 2 + (role + 1) * width] if len(policy) > 2 else ()
        cx.rollouts[role] = int(options[0]) if len(options) else SEARCH.defaults["rollouts"]
    return cx


def play_searched_batch(T, P, policy, seed, start, out, sizes, density, captures, escapes, log) -> np.ndarray:
    """``engine.play_batch``'s outputs for a policy with search seats; returns the search decisions per game."""
    st, st_b = _state()
    rs, rs_b = _state()
    cx = search_context(policy, seed)
    quiet = np.zeros((0, log.shape[1]), dtype=np.int64)
    decisions = np.zeros(out.shape[1], dtype=np.int64)
    _searched_batch(T, P, st, rs, st_b, rs_b, cx, quiet, np.int64(seed), np.int64(start), out, sizes, density,
                    captures, escapes, log, decisions)
    return decisions
