"""The state of one game as arrays compiled code can hold, and the bitset helpers of the belief.

``State`` is one record (a numpy structured scalar, ``record``) of small fixed-shape arrays reused
from game to game within a batch; compiled code receives it as one pointer and reads its fields
as arrays (``st.g[ROUND]``, ``st.bel[0]``):

* ``g``: the frogman and the game (indices below), ``apos/ahp/abul/traitor``: one entry per
  artillery (an artillery with ``ahp == 0`` is dead and off the board, IN-DEATH-1),
* ``bel``: the public belief, two 64-bit words (bit p set = the frogman may be on point p),
* ``path``: the frogman's points this turn (where a mine may go, IN-MINE-2),
* ``sizes``: the public-set size at the end of each round (-1 for rounds not completed),
* ``hand[player, card type]``: items held (player 0 is the frogman, k + 1 artillery k),
* ``deck``: the shuffled deck (card types), drawn from ``g[DECK_TOP]`` on,
* ``ability[k]``: artillery k's ability (effect, amount, uses left),
* ``pending``: event cards drawn this turn, resolved at its end (IN-CARD-3),
* ``rng``: the game's random stream, ``scratch``: working space (the kernels allocate nothing, so
  they run without reference counting: ``JIT`` below),
* ``plan``: where the hunter on turn is heading and for what (``policies._hunter_plan``), made for
  the public set ``planned_for``; ``spread[i]``: road distance from the i-th numbered point to
  the nearest artillery placed so far (hunter placement, ``policies._farthest_point``);
  ``crowd[i]``: the points within 1 road step of at least i + 1 other artillery than the hunter
  choosing its goal (``policies._count_crowds``); ``threat[q]``: road distance from q to the
  nearest living loyal artillery during the frogman's turn (``policies.mark_threats``).
"""

from __future__ import annotations

import numpy as np

from sim.core.bits import lowest_bit, popcount
from sim.core.jit import njit

# indices into State.g
(ROUND, FPOS, FHP, FBUL, MINES_LEFT, MINE_AT, WINNER, REASON, END_ROUND, ESC_ROUND, ESC_EXIT, OVER, NLOG,
 DECK_TOP, DECK_N, CAN_AT, EXTRA_AP, N_PENDING) = range(18)
G_SIZE = 18
MAX_ART = 5
MAX_PATH = 16
MAX_CARD_TYPES = 16
MAX_DECK = 64
MAX_ABILITIES = 9
MAX_POINTS = 128  # two 64-bit words of belief

# effect primitives of cards and abilities (rules.EFFECTS order)
HEAL, BULLETS, EXTRA_AP_EFFECT, RADAR, TRAITOR, CAN = range(6)
ITEM, EVENT = 0, 1
# ability columns
AB_EFFECT, AB_AMOUNT, AB_USES = range(3)

# winners and end reasons
FROGMAN, ARTILLERY = 0, 1
ESCAPE, ALL_DEAD, CATCH, SHOT, TIME = range(5)
REASONS = ("escape", "all artillery dead", "catch", "shot", "time")
REASON_KEYS = ("escape", "all_dead", "catch", "shot", "time")

# artillery actions chosen by the bots
END, MOVE, SHOOT, CATCH_ACTION, DRAW = range(5)

ONE = np.uint64(1)

# compiled functions: cached, and without numba's reference counting (every array comes from Python)
JIT = {"cache": True, "_nrt": False}
# small hot helpers are inlined by LLVM (forceinline): numba's IR inlining (inline="always") re-typed every
# helper at each call site, a quarter of the engine's cold compile
INLINE = {"cache": True, "_nrt": False, "forceinline": True}
# the stages called from one place only (play_game, play_rounds, the turns) are inlined by numba (IR) into
# their caller: one library fewer each, whose whole call tree LLVM would otherwise optimise and emit again
ONCE = {"cache": True, "_nrt": False, "inline": "always"}


State = np.dtype([  # the byte maps first: 64-byte aligned, so their vector loads and stores never split a cache line
    ("threat", np.int8, (MAX_POINTS,)), ("spread", np.int8, (MAX_POINTS,)),
    ("bel", np.uint64, (2,)), ("planned_for", np.uint64, (2,)), ("rng", np.uint64, (4,)),
    ("g", np.int64, (G_SIZE,)), ("apos", np.int64, (MAX_ART,)), ("ahp", np.int64, (MAX_ART,)),
    ("abul", np.int64, (MAX_ART,)), ("traitor", np.int64, (MAX_ART,)), ("path", np.int64, (MAX_PATH,)),
    ("sizes", np.int64, (10,)), ("hand", np.int64, (MAX_ART + 1, MAX_CARD_TYPES)), ("deck", np.int64, (MAX_DECK,)),
    ("ability", np.int64, (MAX_ART, 3)), ("pending", np.int64, (8,)), ("scratch", np.int64, (16,)),
    ("plan", np.int64, (6,)), ("crowd", np.uint64, (MAX_ART - 1, 2)),
], align=True)


def record(dtype: np.dtype) -> np.record:
    """One zeroed record of ``dtype`` starting on a 64-byte boundary (a cache line), whose fields read
    as arrays both in Python (``rec.g``, views into the record) and in compiled code."""
    raw = np.zeros(dtype.itemsize + 64, dtype=np.uint8)
    start = -raw.ctypes.data % 64
    return raw[start:start + dtype.itemsize].view(dtype).view(np.recarray)[0]


def new_state() -> np.record:
    """A zeroed ``State`` record for one game, reused game after game."""
    st = record(State)
    st.plan[:] = -1
    return st


@njit(**JIT)
def set_size(s0, s1):
    return np.int64(popcount(s0) + popcount(s1))


@njit(**JIT)
def word_masks(p):
    """(all ones, 0) for a point 0 <= p < 64 of the first word, (0, all ones) for 64 <= p < 128: a
    point's word chosen without a branch (which word a point is in is hard to predict)."""
    high = np.uint64(p >> 6)
    return high - ONE, np.uint64(0) - high


@njit(**JIT)
def has(s0, s1, p):
    low, high = word_masks(p)
    return ((s0 & low) | (s1 & high)) >> np.uint64(p & 63) & ONE == ONE


@njit(**JIT)
def with_point(s0, s1, p):
    low, high = word_masks(p)
    bit = ONE << np.uint64(p & 63)
    return s0 | (bit & low), s1 | (bit & high)


@njit(**JIT)
def without_point(s0, s1, p):
    low, high = word_masks(p)
    bit = ONE << np.uint64(p & 63)
    return s0 & ~(bit & low), s1 & ~(bit & high)


@njit(**JIT)
def image(trans, d, s0, s1):
    """The points one road step in direction ``d`` leads to from the points of the set (IN-BELIEF-2)."""
    r0 = np.uint64(0)
    r1 = np.uint64(0)
    for k in range(8):
        v = (s0 >> np.uint64(8 * k)) & np.uint64(255)
        if v != np.uint64(0):
            r0 |= trans[k, v, d, 0]
            r1 |= trans[k, v, d, 1]
        v = (s1 >> np.uint64(8 * k)) & np.uint64(255)
        if v != np.uint64(0):
            r0 |= trans[k + 8, v, d, 0]
            r1 |= trans[k + 8, v, d, 1]
    return r0, r1


SMALL_SET = 10  # up to this many points, ``image_of`` follows each point's road instead of the byte table


@njit(**JIT)
def stepped(step, d, s0, s1):
    """The points ``step[p, d]`` for the points p of the set (entries -1 left out, by a mask rather
    than a branch): one per point, for sets small enough that walking them beats a table of bytes."""
    r0 = np.uint64(0)
    r1 = np.uint64(0)
    for w in range(2):
        x = s0 if w == 0 else s1
        while x != np.uint64(0):
            q = step[64 * w + lowest_bit(x), d]
            x &= x - ONE
            low, high = word_masks(q)
            bit = (ONE << np.uint64(q & 63)) & (np.uint64(0) - np.uint64(q >= 0))
            r0 |= bit & low
            r1 |= bit & high
    return r0, r1


@njit(**INLINE)
def image_of(T, d, s0, s1):
    """``image`` of the set in direction ``d`` (IN-BELIEF-2): a small set (the usual case after the
    first round) follows the road step of each of its points, a large one reads ``T.trans``."""
    if set_size(s0, s1) > SMALL_SET:
        return image(T.trans, d, s0, s1)
    return stepped(T.road_step, d, s0, s1)


@njit(**JIT)
def image_size(T, d, s0, s1, x0, x1):
    """How many points the image of the set in direction ``d`` (IN-BELIEF-2) has outside the set
    (x0, x1): one popcount, since a road step in one direction never leads two points to the same
    one (the points leading into (x0, x1), ``T.road_from``, are left out first)."""
    f0, f1 = stepped(T.road_from, d, x0, x1)
    return set_size(s0 & T.steps_out[d, 0] & ~f0, s1 & T.steps_out[d, 1] & ~f1)


@njit(**INLINE)
def union_of(rows, s0, s1):
    """The union of the sets ``rows[p]`` (two words each) over the points p of the set (s0, s1)."""
    u0 = np.uint64(0)
    u1 = np.uint64(0)
    for w in range(2):
        x = s0 if w == 0 else s1
        while x != np.uint64(0):
            p = 64 * w + lowest_bit(x)
            x &= x - ONE
            u0 |= rows[p, 0]
            u1 |= rows[p, 1]
    return u0, u1


@njit(**JIT)
def first_point(s0, s1):
    """The lowest point of a non-empty set."""
    return lowest_bit(s0) if s0 != np.uint64(0) else 64 + lowest_bit(s1)


@njit(**INLINE)
def artillery_mask(st, n_art, loyal_only=False):
    """Points holding a living artillery (the frogman may not pass or stop there, IN-MOVE-4); with
    ``loyal_only``, a living loyal one (what a frogman's shot can hit, IN-SHOOT-4)."""
    m0 = np.uint64(0)
    m1 = np.uint64(0)
    for k in range(n_art):
        if st.ahp[k] > 0 and not (loyal_only and st.traitor[k] != 0):
            m0, m1 = with_point(m0, m1, st.apos[k])
    return m0, m1


@njit(**JIT)
def loyal_alive(st, n_art):
    count = 0
    for k in range(n_art):
        if st.ahp[k] > 0 and st.traitor[k] == 0:
            count += 1
    return count


@njit(**INLINE)
def shot_targets(P, st):
    """Points holding an artillery a frogman's shot can hit (IN-SHOOT-4, IN-CARD-5): a living loyal
    one, or any living one where ``P.frogman_shoots_traitors`` (the other reading)."""
    return artillery_mask(st, P.n_art, loyal_only=P.frogman_shoots_traitors == 0)


@njit(**INLINE)
def can_be_shot(P, st, k):
    """Whether a frogman's shot can hit artillery k (IN-SHOOT-4, IN-CARD-5)."""
    return st.ahp[k] > 0 and (st.traitor[k] == 0 or P.frogman_shoots_traitors == 1)


@njit(**JIT)
def shot_keeps(T, P, st, target, d):
    """The points of the public set from which a frogman's shot could have hit the artillery on
    point ``target`` first, or (``target`` = -1) could have hit none (IN-BELIEF-5): what the public
    set keeps after the frogman says the outcome of a shot. The direction ``d`` counts only where
    it is announced (``P.shot_direction_told``, the other reading of IN-SHOOT-4); otherwise any
    of the six does.

    Shot lines are straight, so p sees c j hexes away in direction d exactly when c sees p j hexes
    away in the opposite direction: the points that see ``target`` first are those on its own lines
    up to and including the first target point of each; the points that see a target on every one
    of their (announced) lines are, for each direction, on the opposite line of some target."""
    l0, l1 = shot_targets(P, st)
    s0, s1 = st.bel[0], st.bel[1]
    told = P.shot_direction_told == 1
    if target >= 0:
        k0 = np.uint64(0)
        k1 = np.uint64(0)
        for e in range(6):
            if told and e != (d + 3) % 6:
                continue
            for j in range(T.line.shape[2]):
                x = T.line[target, e, j]
                if x < 0:
                    continue
                k0, k1 = with_point(k0, k1, x)
                if has(l0, l1, x):
                    break
        return s0 & k0, s1 & k1
    every0 = ~np.uint64(0)
    every1 = ~np.uint64(0)
    for e in range(6):
        if told and e != d:
            continue
        c0 = np.uint64(0)
        c1 = np.uint64(0)
        back = (e + 3) % 6
        for k in range(P.n_art):
            if can_be_shot(P, st, k):
                c0 |= T.linemask[st.apos[k], back, 0]
                c1 |= T.linemask[st.apos[k], back, 1]
        every0 &= c0
        every1 &= c1
    return s0 & ~every0, s1 & ~every1


@njit(**JIT)
def frogman_shot_victim(T, P, st, p, d):
    """Who a frogman's shot from ``p`` in direction ``d`` hits (IN-SHOOT-4/5, IN-CARD-5): the
    artillery it can hit on the nearest occupied point of the line; on a shared point, the one with
    the fewest HP (the shooter's choice, IN-SHOOT-6). -1 if the line is empty."""
    l0, l1 = shot_targets(P, st)
    for j in range(T.line.shape[2]):
        c = T.line[p, d, j]
        if c < 0 or not has(l0, l1, c):
            continue
        victim = -1
        for k in range(P.n_art):
            if can_be_shot(P, st, k) and st.apos[k] == c:
                if victim < 0 or st.ahp[k] < st.ahp[victim]:
                    victim = k
        if victim >= 0:
            return victim
    return -1


@njit(**INLINE)
def must_leave(P, st, m0, m1):
    """Whether the frogman must step off its point this turn: it shares it with artillery (m0, m1)
    and the rules forbid staying there (``P.frogman_may_stay`` = 0, the other reading of IN-MOVE-4)."""
    return P.frogman_may_stay == 0 and has(m0, m1, st.g[FPOS])


@njit(**JIT)
def in_window(params, r):
    return params.evac_from <= r <= params.evac_to
