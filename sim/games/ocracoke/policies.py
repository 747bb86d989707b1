"""Ocracoke bots: compiled functions from what a seat may see to its choice.

Every bot answers four questions with the same signature, reading only its own view ``info``:

``turn(bot, info, values, T, rng, choice)``
    its turn: write ``choice[0]`` = DECLARE, PEEK, SPY, SWAP or WAVE and the action's targets
    in ``choice[1..3]`` (PEEK: two ship slots; SWAP: ship slot, second ship slot for the kraken's
    swap or -1, hand card; WAVE: ship slot, island slot, hand card).
``extra_look(bot, info, exclude, rng)``
    a ship slot to look at (the ghost's extra look OC-GHOST, the look after a swap OC-ACT-SWAP),
    not in the slot mask ``exclude``; -1 if none is left.
``kraken_keep(bot, info, values, T, card_a, card_b, rng)``
    which of the two ship cards taken by the kraken's swap to keep (0 or 1) (OC-KRAKEN-2).
``dial(bot, info, values, T, rng)``
    the dial position at a declaration (0 = zero, 1..R blue ranges, R+1..2R red ranges).

``values`` are the card values followed by their subset sums (``with_subset_sums``) and ``T`` the
decision table (``decision_table`` below).

The view ``info`` (int64[INFO_LEN], indexed by the constants below) holds the public state (ship
slots, hand cards per seat, action cards' faces, island cards face up, may the seat declare, is its
declaration voluntary) and what the seat's memory knows, as bit masks: the cards it places on the
ship (ON_SHIP), the cards whose place it does not know (UNKNOWN), the ship slots whose card it knows
(SLOTS_KNOWN), the two slots holding the kraken after a kraken swap (PAIR), how many other hand cards
it does not know, the first face-down island card it does not know, and its own hand (OWN + k). The
engine fills it from the seat's perfect memory of everything it saw or that was revealed, tracked
through every public move, for ``counter`` and ``random``, and from its own hand and the ship cards it
looked at itself this hand for ``naive``.

To add a bot: write its four functions, add a branch to each dispatcher below and its name to
``BOTS`` (anywhere: bots are chosen, defaulted and stored by name; docs/extending.md). ``noswap`` is
``counter`` that never plays 輪番上陣 (what the swap action is worth: ``sim compare ocracoke
--variant-policy all=noswap``).

Posterior (used by naive and counter): the cards the view places on the ship (known slot or, after
a kraken swap, known to be in one of two slots) are fixed; the other ship slots hold a uniformly
random subset of the cards whose place is unknown. ``build_tables`` enumerates, once per rule set,
the sum distribution of every such subset (a bitmask ``U`` of unknown cards, ``m`` slots) and from
it the best dial and its expected gold.
``decision_table`` then keeps, per information state, only what the bots decide from those numbers
(one uint16; states that differ only in which purple cards are unknown share one: 258 KB with the base
rules instead of 12 MB of floats, so the lookups stay in the processor's caches).
"""

from __future__ import annotations

import numpy as np

from sim.core.bits import lowest_bit, popcount
from sim.core.jit import njit
from sim.core.rng import randbelow
from sim.games.ocracoke.rules import GHOST, KRAKEN, MERMAID, N_CARDS, SUM_LIMIT

# The rules and the bots are compiled without numba's reference counting: they never allocate, and
# calls between them then cost a few nanoseconds instead of tens. Only entry points allocate. Integer
# division follows numpy (no zero-divisor check): every divisor here is a positive count.
rules_code = njit(cache=True, _nrt=False, error_model="numpy")
# The functions on the hot path (a turn, an action, the bots' choices, the posterior lookup) are inlined
# by LLVM into the hand loop: a call passing S, R, T, rng and log costs ~40 machine words of arguments,
# more than most of these functions' own work. LLVM-level inlining (forceinline) compiles much faster
# than numba's inline="always". The game loop too is inlined into play_batch, where the state array is
# made: its shape is then a constant (no strides loaded for every access). A rare path (a card seen in a
# kraken-swapped pair) and the naive bot's memory stay ordinary calls.
rules_leaf = njit(cache=True, _nrt=False, error_model="numpy", forceinline=True)

BOTS = ("random", "naive", "noswap", "counter")
# each bot's dispatch number in the compiled engine is its place in BOTS (GameSpec.policy_array)
RANDOM, NAIVE, NOSWAP, COUNTER = (BOTS.index(name) for name in ("random", "naive", "noswap", "counter"))
SEARCH = len(BOTS)  # the search bot (search.py): the index one past the scripted bots (GameSpec.policy_array)

DECLARE, PEEK, SPY, SWAP, WAVE = 0, 1, 2, 3, 4
ACTION_NAMES = ("declare", "正面交鋒 peek", "刺探軍情 spy", "輪番上陣 swap", "巨浪來襲 wave")

N_SHIP_MAX, ISLAND0, HAND0, N_LOC = 5, 5, 8, 16
ALL_CARDS = (1 << N_CARDS) - 1
SHIFT = SUM_LIMIT
N_SUMS = 2 * SUM_LIMIT + 1
N_M = N_SHIP_MAX + 1
NAIVE_DECLARE_AT = 1.5  # naive declares once its best dial is worth this much gold as declarer
# with 4 players counter waits while its best dial is worth less than this as declarer (rounds 2 and 3)
COUNTER_WAITS_BELOW = 1.0  # before two island cards are face up (round 2), with a ship slot it does not know
COUNTER_WAITS_LATE_BELOW = 1.5  # once two or more are face up (round 3, OC-ISLAND-1), whatever it knows
TOLERANCE = 1e-6  # expected-gold comparisons treat values this close as equal (float32 tables)
# the bots' ``values`` (with_subset_sums): the 11 card values, then subset sums of navy and pirate cards
NAVY_SUMS, PIRATE_SUMS, VALUES_LEN = 16, 32, 48

# the expected-gold tables: T[u, m, offset index, column]
BEST, BEST_DIAL, SIGN = 0, 2, 4  # BEST/BEST_DIAL + declarer (0/1)
N_COLUMNS = 5

# the bots' decisions: D[u, m, offset index], one uint16 of bits per information state
POSITIVE = 1  # a positive sum at least as likely as a negative one (T[SIGN] > 0)
NAIVE_DECLARES = 1 << 4  # the best dial is worth NAIVE_DECLARE_AT to a declarer
COUNTER_WAITS = 1 << 1  # the best dial is worth less than COUNTER_WAITS_BELOW to a declarer
COUNTER_WAITS_LATE = 1 << 2  # the best dial is worth less than COUNTER_WAITS_LATE_BELOW to a declarer
DIAL_BITS = 8  # bits 8 + 4 * declarer .. : the best dial (at most 9 dials)

# info[] layout (see the module docstring)
N_SHIP, HAND_CARDS, MAY_DECLARE, FACE_A, FACE_B, PAIR, ISLAND_UP, VOLUNTARY, N_DIALS = 0, 1, 2, 3, 4, 5, 6, 7, 8
ON_SHIP, UNKNOWN, SLOTS_KNOWN, HIDDEN_HANDS, HIDDEN_ISLAND, OWN = 9, 10, 11, 12, 13, 14  # OWN + k: hand card k
INFO_LEN = 16


# ---------------------------------------------------------------- exact posterior tables

@rules_code
def _count(cum, u, m, lo, hi):
    """Number of m-subsets of the cards in u whose sum lies in [lo, hi]."""
    a = min(max(lo + SHIFT, 0), N_SUMS)
    b = min(max(hi + SHIFT + 1, 0), N_SUMS)
    return cum[u, m, b] - cum[u, m, a] if b > a else 0


@rules_code
def _dial_value(cum, u, m, off, d, dial_lo, dial_hi, pay, declarer):
    """Expected gold from rules A, B, C, E of dial d when the ship sum is off + (m cards of u); pay holds rules
    A..E and, last, rule E's bonus for a right dial 0 (OC-ASM-ZERO-E: 0 unless that reading is on)."""
    total = cum[u, m, N_SUMS]
    if d == 0:
        return (pay[2] + declarer * pay[5]) * _count(cum, u, m, -off, -off) / total
    if dial_lo[d] > 0:
        colour = _count(cum, u, m, 1 - off, SUM_LIMIT - off)
    else:
        colour = _count(cum, u, m, -SUM_LIMIT - off, -1 - off)
    exact = _count(cum, u, m, dial_lo[d] - off, dial_hi[d] - off)
    return (pay[0] * colour + (pay[1] + declarer * pay[4]) * exact) / total


@njit(cache=True)
def build_tables(values, dial_lo, dial_hi, pay):
    """The exact posterior of every information state: u the unknown cards (bit mask), m the ship slots
    they may fill (a uniform m-subset of u), o - SHIFT the sum of the ship cards known. Columns:
    BEST + declarer, BEST_DIAL + declarer: best expected gold (rules A, B, C, E) and its dial;
    SIGN: +1 if a positive sum is at least as likely as a negative one, else -1."""
    n_u = 1 << N_CARDS
    dist = np.zeros((n_u, N_M, N_SUMS), dtype=np.int64)  # m-subsets of u by sum
    dist[0, 0, SHIFT] = 1
    for u in range(1, n_u):
        rest = u & (u - 1)
        c = 0
        while not (u >> c) & 1:
            c += 1
        v = values[c]
        for m in range(N_M):
            for s in range(N_SUMS):
                x = dist[rest, m, s]
                if m > 0 and 0 <= s - v < N_SUMS:
                    x += dist[rest, m - 1, s - v]
                dist[u, m, s] = x
    cum = np.zeros((n_u, N_M, N_SUMS + 1), dtype=np.int64)  # cum[u, m, k]: subsets with sum < k - SHIFT
    for u in range(n_u):  # element by element: a whole-slice assignment compiles numba's shape-error path (4 s)
        for m in range(N_M):
            for s in range(N_SUMS):
                cum[u, m, s + 1] = cum[u, m, s] + dist[u, m, s]
    T = np.zeros((n_u, N_M, N_SUMS, N_COLUMNS), dtype=np.float32)
    n_dials = dial_lo.shape[0]
    for u in range(n_u):
        for m in range(N_M):
            if cum[u, m, N_SUMS] == 0:
                continue
            for oi in range(N_SUMS):
                off = oi - SHIFT
                pos = _count(cum, u, m, 1 - off, SUM_LIMIT - off)
                neg = _count(cum, u, m, -SUM_LIMIT - off, -1 - off)
                T[u, m, oi, SIGN] = 1 if pos >= neg else -1
                for declarer in range(2):
                    best, arg = -1.0, 0
                    for d in range(n_dials):
                        ev = _dial_value(cum, u, m, off, d, dial_lo, dial_hi, pay, declarer)
                        if ev > best + 1e-9:
                            best, arg = ev, d
                    T[u, m, oi, BEST + declarer] = best
                    T[u, m, oi, BEST_DIAL + declarer] = arg
    return T


@njit(cache=True)
def decision_table(T, values):
    """What the bots decide in each information state of the expected-gold tables T, as bits of
    D[unknown_index(u), m, j] (same comparisons, same float32 numbers: the decisions are exactly those
    read from T). Only the ship sums the known cards can reach are kept: j = oi - SHIFT + reach,
    reach = D.shape[2] // 2."""
    reach = max(values[values > 0].sum(), -values[values < 0].sum())
    D = np.zeros((T.shape[0] // 2, T.shape[1], 2 * reach + 1), dtype=np.uint16)
    for i in range(D.shape[0]):
        u = first_unknown_of(i)
        for m in range(T.shape[1]):
            for j in range(D.shape[2]):
                t = T[u, m, j + SHIFT - reach]
                bits = POSITIVE if t[SIGN] > 0 else 0
                if t[BEST + 1] >= NAIVE_DECLARE_AT - TOLERANCE:
                    bits |= NAIVE_DECLARES
                if t[BEST + 1] < COUNTER_WAITS_BELOW - TOLERANCE:
                    bits |= COUNTER_WAITS
                if t[BEST + 1] < COUNTER_WAITS_LATE_BELOW - TOLERANCE:
                    bits |= COUNTER_WAITS_LATE
                for declarer in range(2):
                    bits |= np.int64(t[BEST_DIAL + declarer]) << (DIAL_BITS + 4 * declarer)
                D[i, m, j] = bits
    return D


@rules_leaf
def _bit(card):
    """1 << card, and 0 for an unknown card (-1)."""
    return (1 << (card + 1)) >> 1


def with_subset_sums(values: np.ndarray) -> np.ndarray:
    """The card values followed by the sums of every subset of the navy cards (NAVY_SUMS + mask of
    cards 0..3) and of the pirate cards (PIRATE_SUMS + mask of cards 4..7): the bots' ``values``."""
    out = np.zeros(VALUES_LEN, np.int64)
    out[:N_CARDS] = values
    for mask in range(16):
        for c in range(4):
            if (mask >> c) & 1:
                out[NAVY_SUMS + mask] += values[c]
                out[PIRATE_SUMS + mask] += values[4 + c]
    return out


@rules_leaf
def cards_sum(cards, values):
    """The sum of the values of the cards in the bit mask: navy and pirate subsets looked up in
    ``values``' subset sums (purple cards are worth 0)."""
    return values[NAVY_SUMS + (cards & 15)] + values[PIRATE_SUMS + ((cards >> 4) & 15)]


@rules_leaf
def posterior(info, values):
    """(u, m, offset): unknown cards, unknown ship slots, sum of the cards placed on the ship."""
    on_ship = info[ON_SHIP]
    return info[UNKNOWN], info[N_SHIP] - popcount(on_ship), SHIFT + cards_sum(on_ship, values)


@rules_leaf
def unknown_index(u):
    """The row of decision_table for the unknown cards u. The three purple cards are all worth 0, so
    which of them are unknown does not matter, only how many: the coloured cards and that count (a table
    half the size, more of it in the processor's caches)."""
    purple = u >> GHOST
    return ((u & ((1 << GHOST) - 1)) << 2) | ((purple & 1) + ((purple >> 1) & 1) + (purple >> 2))


@rules_leaf
def first_unknown_of(i):
    """The first set of unknown cards with ``unknown_index`` i: its coloured cards and the first
    purple ones (the row ``decision_table`` is built from)."""
    return (i >> 2) | (((1 << (i & 3)) - 1) << GHOST)


@rules_leaf
def decisions(info, values, T):
    """The decision bits (table T = decision_table) of the view's information state."""
    u, m, oi = posterior(info, values)
    return np.int64(T[unknown_index(u), m, oi - SHIFT + T.shape[2] // 2])


# ---------------------------------------------------------------- small helpers

@rules_leaf
def hand_loc(seat, k):
    return HAND0 + 2 * seat + k


@rules_leaf
def _unknown_ship_slots(info):
    return popcount(((1 << info[N_SHIP]) - 1) & ~info[SLOTS_KNOWN] & ~info[PAIR])


@rules_leaf
def _first_unknown_slot(info, exclude):
    """The first ship slot not in ``exclude`` whose card the seat does not know, else the first not in
    ``exclude``; -1 if every slot is excluded."""
    free = ((1 << info[N_SHIP]) - 1) & ~exclude
    unknown = free & ~info[SLOTS_KNOWN] & ~info[PAIR]
    if unknown:
        return lowest_bit(unknown)
    return lowest_bit(free) if free else -1


@rules_leaf
def _likely_sign(info, values, T):
    """+1 if the view finds a positive sum at least as likely as a negative one, else -1."""
    return _sign(decisions(info, values, T))


@rules_leaf
def _sign(bits):
    """+1 if the decision bits say a positive sum is at least as likely as a negative one, else -1."""
    return 1 if bits & POSITIVE else -1


@rules_leaf
def _card_fit(card, sign, values):
    """How well a hand card suits rule D: +1 its colour is the likely sign, 0 purple, -1 the other."""
    if card >= GHOST:
        return 0
    return 1 if (values[card] > 0) == (sign > 0) else -1


@rules_leaf
def _hand_to_give(info, values, sign):
    """The hand card to part with: the kraken, then a purple card, then the colour least likely to pay
    (sign: the likely sign of the sum)."""
    best_k, best_fit = 0, 9
    for k in range(info[HAND_CARDS]):
        c = info[OWN + k]
        fit = -2 if c == KRAKEN else _card_fit(c, sign, values)
        if fit < best_fit:
            best_k, best_fit = k, fit
    return best_k


@rules_leaf
def _holds(info, card):
    for k in range(info[HAND_CARDS]):
        if info[OWN + k] == card:
            return k
    return -1


# ---------------------------------------------------------------- random: uniform legal choices

@rules_leaf
def _random_turn(info, rng, choice):
    """Uniform over the face-up actions (and declaring when allowed); uniform targets."""
    options = 3 if info[MAY_DECLARE] else 2
    pick = randbelow(rng, options)
    n_ship = info[N_SHIP]
    a = randbelow(rng, n_ship)
    b = (a + 1 + randbelow(rng, n_ship - 1)) % n_ship
    k = randbelow(rng, info[HAND_CARDS])
    if pick == 2:
        choice[0] = DECLARE
    elif pick == 0:
        choice[0] = PEEK if info[FACE_A] == 0 else SWAP
        choice[1], choice[2], choice[3] = a, b, k
        if choice[0] == SWAP and (info[OWN + k] != KRAKEN or randbelow(rng, 2) == 0):
            choice[2] = -1
    else:
        choice[0] = SPY if info[FACE_B] == 0 else WAVE
        choice[1], choice[2], choice[3] = a, randbelow(rng, 3), k


# ---------------------------------------------------------------- naive: own hand and own looks

@rules_leaf
def _naive_turn(info, values, T, choice):
    """Declare once the best dial is worth NAIVE_DECLARE_AT to a declarer; else use action card A
    on the ship slots it has not looked at (swapping the kraken away when it holds it)."""
    if info[MAY_DECLARE] and decisions(info, values, T) & NAIVE_DECLARES:
        choice[0] = DECLARE
        return
    a = _first_unknown_slot(info, 0)
    if info[FACE_A] == 0:
        choice[0], choice[1], choice[2] = PEEK, a, _first_unknown_slot(info, 1 << a)
        return
    k = max(_holds(info, KRAKEN), 0)
    choice[0], choice[1], choice[3] = SWAP, a, k
    choice[2] = _first_unknown_slot(info, 1 << a) if info[OWN + k] == KRAKEN else -1


# ---------------------------------------------------------------- counter: exact posterior, information

@rules_leaf
def _counter_waits(info, values, T):
    """With 4 players (one hand card each, four ship slots) waiting pays (docs/search.md, "Waiting") while
    its best dial is worth less than COUNTER_WAITS_BELOW as declarer and a ship slot is unknown to it; once
    two island cards or more are face up (round 3 on, OC-ISLAND-1: all four seats waited in round 2) while
    it is worth less than COUNTER_WAITS_LATE_BELOW, whatever it knows."""
    if info[N_SHIP] != 4 or info[HAND_CARDS] != 1:
        return False
    if popcount(info[ISLAND_UP]) >= 2:
        return (decisions(info, values, T) & COUNTER_WAITS_LATE) != 0
    return _unknown_ship_slots(info) >= 1 and (decisions(info, values, T) & COUNTER_WAITS) != 0


@rules_leaf
def _counter_turn(info, values, T, choice, swaps):
    """When it may declare (OC-ROUND-3) declare, unless waiting pays (_counter_waits): then look with
    action card A (正面交鋒 on two slots it does not know, or 輪番上陣 into one). When it may not (round 1,
    OC-ROUND-2, or holding the kraken, OC-KRAKEN-1) and 正面交鋒 and 刺探軍情 are both face up, spy
    (OC-ACT-SPY); else take the face-up action that reveals the most. These rules are the counterfactual
    action values' (docs/search.md, "What each move is worth", "Waiting"): each replaced a choice that
    lost games. Without ``swaps`` (the noswap bot) it never plays 輪番上陣 (OC-ACT-SWAP): it declares
    rather than wait by a swap, and otherwise takes card B."""
    if info[MAY_DECLARE]:
        if not _counter_waits(info, values, T) or (info[FACE_A] != 0 and not swaps):
            choice[0] = DECLARE
            return
        a = _first_unknown_slot(info, 0)
        if info[FACE_A] == 0:
            choice[0], choice[1], choice[2] = PEEK, a, _first_unknown_slot(info, 1 << a)
        else:
            choice[0], choice[1], choice[2] = SWAP, a, -1
            choice[3] = _hand_to_give(info, values, _likely_sign(info, values, T))
        return
    peek_up, spy_up = info[FACE_A] == 0, info[FACE_B] == 0
    if peek_up and spy_up:
        choice[0] = SPY
        return
    unknown = _unknown_ship_slots(info)
    hidden_island = info[HIDDEN_ISLAND]
    kraken_k = _holds(info, KRAKEN)
    purple = _holds(info, GHOST) >= 0 or _holds(info, MERMAID) >= 0
    riddance = 3 * (kraken_k >= 0) + 1 * purple
    # the two face-up actions, scored by the ship cards they reveal (2 each) and other cards (1 each)
    if peek_up:
        act_a, score_a = PEEK, 2 * min(2, unknown)
    else:
        act_a, score_a = SWAP, (2 * min(2, unknown) + riddance) if swaps else -1
    if spy_up:
        act_b, score_b = SPY, info[HIDDEN_HANDS]
    else:
        act_b, score_b = WAVE, 2 * min(1, unknown) + (hidden_island >= 0) + riddance
    act = act_a if score_a >= score_b else act_b
    gives_hand = act == SWAP or act == WAVE
    choice[0] = act
    a = _first_unknown_slot(info, 0)
    k = _hand_to_give(info, values, _likely_sign(info, values, T)) if gives_hand else 0
    if act == PEEK:
        choice[1], choice[2] = a, _first_unknown_slot(info, 1 << a)
    elif act == SWAP:
        choice[1], choice[3] = a, k
        choice[2] = _first_unknown_slot(info, 1 << a) if info[OWN + k] == KRAKEN else -1
    elif act == WAVE:
        choice[1], choice[2], choice[3] = a, max(hidden_island, 0), k
        if hidden_island < 0:
            for i in range(3):
                if not (info[ISLAND_UP] >> i) & 1:
                    choice[2] = i
                    break


# ---------------------------------------------------------------- dispatchers

@rules_leaf
def turn(bot, info, values, T, rng, choice):
    """The seat's move on its turn (see the module docstring)."""
    choice[1], choice[2], choice[3] = -1, -1, 0
    if bot == COUNTER or bot == NOSWAP:
        _counter_turn(info, values, T, choice, bot == COUNTER)
    elif bot == NAIVE:
        _naive_turn(info, values, T, choice)
    else:
        _random_turn(info, rng, choice)


@rules_leaf
def extra_look(bot, info, exclude, rng):
    """A ship slot to look at, not in ``exclude``; -1 if none."""
    if bot == RANDOM:
        free = 0
        for s in range(info[N_SHIP]):
            if not (exclude >> s) & 1:
                free += 1
        if free == 0:
            return -1
        pick = randbelow(rng, free)
        for s in range(info[N_SHIP]):
            if not (exclude >> s) & 1:
                if pick == 0:
                    return s
                pick -= 1
    return _first_unknown_slot(info, exclude)


@rules_leaf
def kraken_keep(bot, info, values, T, card_a, card_b, rng):
    """0 to keep card_a, 1 to keep card_b (OC-KRAKEN-2)."""
    if bot == RANDOM:
        return randbelow(rng, 2)
    sign = _likely_sign(info, values, T)
    return 1 if _card_fit(card_b, sign, values) > _card_fit(card_a, sign, values) else 0


@rules_leaf
def dial(bot, info, values, T, rng):
    """The dial position this seat sets at a declaration (OC-DECL-1)."""
    if bot == RANDOM:
        return randbelow(rng, info[N_DIALS])
    return (decisions(info, values, T) >> (DIAL_BITS + 4 * info[VOLUNTARY])) & 15
