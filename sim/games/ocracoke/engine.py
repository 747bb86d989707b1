"""The Ocracoke batch simulator: one compiled call plays a whole batch of games.

The rules are written once, per game, as plain numba-compiled functions whose docstrings cite the
rule IDs of docs/rules/ocracoke.md; ``play_batch`` loops over the batch inside compiled code. Game
``i`` of the run ``seed`` draws only from ``stream(seed, i)``. The same compiled code writes a
trace when given a non-empty ``log`` buffer (one row per event: its kind and up to six numbers).

The table of one game is a single int64 array ``S`` (rows named below, 16 columns; kept in one
array so that calls between the compiled functions stay cheap):

    S[AT, loc]          card at each location (0..4 ship, 5..7 island, 8+2q+k hand card k of seat q;
                        -1 empty)
    S[KNOWN, q]         seat q's perfect memory: the cards whose place it knows (bit mask). The cards
                        move only in public, so a seat that knows where a card is follows it: a move
                        changes no one's mask, only looking, a reveal or the kraken's shuffle do
    S[MEM + q, loc]     seat q's naive memory: its own hand and the ship cards it looked at itself
    S[SHIP_ANY, q]      cards seat q knows are in the two ship slots S[PAIR, q] (after a kraken swap)
    S[PAIR, PAIR_LOOK + q]  after seat q, not the swapper, looked into a kraken pair: the card it saw
                        (bit c) and the one then in the other slot (bit 16 + c). Whether q also knows the
                        other slot depends on the card seen (the kraken or not): the search reads this to
                        give q in its sampled tables only what q's public looks imply (search.py)
    S[HAND_UP, q]       1 while the mermaid keeps seat q's hand face up
    S[GOLD, q], S[DIALS, q], S[PAID + r, q] (gold by rule A..E at the last declaration)
    S[PUB, ISLAND_UP | FACE_A | FACE_B | LOGN]  island cards face up (bit mask), the two action
                        cards' faces (0: 正面交鋒 / 刺探軍情 up; not side by side, and flipped by a
                        whole-word write, so that the next turn's view reads each straight from the
                        store just made instead of waiting for it to reach the cache), rows written to
                        the log
    S[PUB, SHIP_SET | HAND_SET]  the cards on the ship, the cards in hands (bit masks)
    S[INFO], S[CHOICE]  the view handed to a bot and its answer (see policies.py)

The rules are one int64 array ``R`` (rows PARAMS, VALUES: the card values and their subset sums
(policies.with_subset_sums), DIAL_LO, DIAL_HI, PAY, POLICY) and the
bots' decisions in every information state one uint16 array ``T`` (policies.decision_table).
"""

from __future__ import annotations

import numpy as np

from sim.core.bits import lowest_bit
from sim.core.jit import njit
from sim.core.rng import randbelow, seed_stream
from sim.games.ocracoke import policies as bots
from sim.games.ocracoke.policies import (
    ALL_CARDS,
    DECLARE,
    HAND0,
    ISLAND0,
    N_LOC,
    N_SHIP_MAX,
    PEEK,
    SPY,
    SWAP,
    _bit,
    cards_sum,
    hand_loc,
    popcount,
    rules_code,
    rules_leaf,
)
from sim.games.ocracoke.rules import GHOST, KRAKEN, MAX_ROUNDS, MERMAID, N_CARDS, N_ISLAND, N_NAVY
from sim.games.ocracoke.rules import PARAMS as RULE_PARAMS
from sim.games.ocracoke.rules import PAY as RULE_PAY

NAVY_CARDS = (1 << N_NAVY) - 1  # cards 0..3: blue, positive (OC-COMP-1)
PIRATE_CARDS = ((1 << GHOST) - 1) & ~NAVY_CARDS  # cards 4..7: red, negative

MAX_HANDS = 1000  # safety stop (OC-ASM-CAP); the column `capped` counts games that reach it

GAME_COLUMNS = ("hands", "gold_0", "gold_1", "gold_2", "gold_3", "win_0", "win_1", "win_2", "win_3",
                "declared", "forced", "capped")
SEAT_RULES = ("a", "b", "c", "d", "e")
EVENT_COLUMNS = (("game", "hand", "round", "declarer", "forced", "ship_sum")
                 + tuple(f"dial_{q}" for q in range(4))
                 + tuple(f"{r}_{q}" for r in SEAT_RULES for q in range(4))
                 + tuple(f"hand_{q}" for q in range(4)))  # bit mask of the seat's hand cards
# The declaration columns are written into three blocks, each value in the narrowest integer that holds
# it (less memory written per declaration): the game within the batch (int32); the hand number (at most
# MAX_HANDS) and the hand masks (11 bits) as int16; round, seats, ship sum (within +-SUM_LIMIT), dials
# and gold by rule as int8. EVENT_BLOCKS: each block's columns (in row order) and dtype.
EVENT_BLOCKS = ((("game",), np.int32),
                (("hand",) + tuple(f"hand_{q}" for q in range(4)), np.int16),
                (("round", "declarer", "forced", "ship_sum") + tuple(f"dial_{q}" for q in range(4))
                 + tuple(f"{r}_{q}" for r in SEAT_RULES for q in range(4)), np.int8))

# rows of S (the bots' view S[INFO] has policies.INFO_LEN <= 16 columns)
AT, MEM, KNOWN, SHIP_ANY, PAIR, HAND_UP, GOLD, DIALS, PAID, INFO, CHOICE, PUB = (
    0, 1, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18)
S_ROWS = 19
PAIR_LOOK = 4  # S[PAIR, PAIR_LOOK + q] (columns 4..7 of the PAIR row; cleared with it by _setup_hand)
ISLAND_UP, FACE_A, LOGN, FACE_B, SHIP_SET, HAND_SET = 0, 1, 2, 3, 4, 5  # columns of S[PUB]
WAITING, ROUND, TURN = 6, 7, 8  # columns of S[PUB]: the seat waiting for the search bot, where (_play_rounds)
# rows of R
PARAMS, VALUES, DIAL_LO, DIAL_HI, PAY, POLICY = 0, 1, 2, 3, 4, 5
R_ROWS = 6
# columns of R[PARAMS] and R[PAY], from their one declaration (rules.PARAMS, rules.PAY)
PLAYERS, N_SHIP, HAND_CARDS, WIN_GOLD, D_EACH, N_DIALS, KRAKEN_TOLL = RULE_PARAMS.index(
    "PLAYERS", "N_SHIP", "HAND_CARDS", "WIN_GOLD", "D_EACH", "N_DIALS", "KRAKEN_TOLL")
PAY_A, PAY_B, PAY_C, PAY_D, PAY_E, PAY_E_ZERO = RULE_PAY.index("PAY_A", "PAY_B", "PAY_C", "PAY_D", "PAY_E",
                                                              "PAY_E_ZERO")

# log kinds: (kind, six numbers)
L_HAND, L_DEAL, L_TURN, L_SEE, L_GHOST, L_MERMAID, L_CANCEL, L_KRAKEN = 1, 2, 3, 4, 5, 6, 7, 8
L_REVEAL, L_DECLARE, L_PASS, L_DIAL, L_PAY, L_SUM, L_END, L_LOOK = 9, 10, 11, 12, 13, 14, 15, 16
L_SEARCH = 17  # one candidate of a search decision (search.py)
L_TOLL = 18  # the kraken's toll (OC-VAR-TOLL): holder, declarer
LOG_WIDTH = 7


@rules_leaf
def _note(S, log, kind, a=0, b=0, c=0, d=0, e=0, f=0):
    if log.shape[0] == 0:
        return
    i = S[PUB, LOGN]
    if i < log.shape[0]:
        log[i, 0], log[i, 1], log[i, 2], log[i, 3], log[i, 4], log[i, 5], log[i, 6] = kind, a, b, c, d, e, f
        S[PUB, LOGN] = i + 1


# ---------------------------------------------------------------- what seats know

@rules_leaf
def _see(S, log, p, loc):
    """Seat p looks at the card at loc and remembers it (naive memory: ship cards and own hand only)."""
    card = S[AT, loc]
    S[KNOWN, p] |= 1 << card
    if loc < N_SHIP_MAX or loc == hand_loc(p, 0) or loc == hand_loc(p, 1):
        S[MEM + p, loc] = card
    if loc < N_SHIP_MAX and (S[PAIR, p] >> loc) & 1:
        _seen_in_pair(S, p, loc, card)
    _note(S, log, L_SEE, p, loc, card)
    return card


@rules_code
def _seen_in_pair(S, p, loc, card):
    """A card seen in one of the two slots of a kraken swap: the other slot holds the other card. A seat
    that knew only 'the kraken is in one of them' records the card seen and the other slot's card
    (S[PAIR, PAIR_LOOK + p], for the search)."""
    if S[SHIP_ANY, p] == 1 << KRAKEN:
        partner = S[PAIR, p] & ~(1 << loc)
        S[PAIR, PAIR_LOOK + p] = (1 << card) | (1 << (16 + S[AT, lowest_bit(partner)]))
    S[PAIR, p] &= ~(1 << loc)
    S[SHIP_ANY, p] &= ~(1 << card)
    left = S[SHIP_ANY, p]
    if left != 0 and (left & (left - 1)) == 0:
        S[KNOWN, p] |= left  # the one card left is in the other slot
        S[SHIP_ANY, p] = 0
    if S[SHIP_ANY, p] == 0:
        S[PAIR, p] = 0


@rules_leaf
def _reveal_to_all(S, R, loc):
    """A card turned face up: every seat's perfect memory records it."""
    for q in range(R[PARAMS, PLAYERS]):
        S[KNOWN, q] |= 1 << S[AT, loc]


@rules_leaf
def _forget_pair_if_touched(S, R, loc):
    """A move out of a kraken-swapped slot breaks 'these two cards are in those two slots'."""
    if loc < N_SHIP_MAX:
        for q in range(R[PARAMS, PLAYERS]):
            if (S[PAIR, q] >> loc) & 1:
                S[SHIP_ANY, q], S[PAIR, q] = 0, 0


@rules_leaf
def _hand_cards(S, p):
    """Seat p's hand cards (bit mask; the second hand location is empty, -1, unless it has 2 cards)."""
    return _bit(S[AT, hand_loc(p, 0)]) | _bit(S[AT, hand_loc(p, 1)])


@rules_leaf
def _holds(S, p, card):
    """Seat p holds the card (a seat's second hand location is empty, -1, unless it has 2 cards)."""
    return (S[AT, hand_loc(p, 0)] == card) | (S[AT, hand_loc(p, 1)] == card)


# ---------------------------------------------------------------- setup (OC-SETUP-*)

# The deck is one integer of 4-bit places (the card at place j: (deck >> 4j) & 15) while it is shuffled:
# no memory is written between the draws, so the random stream's state stays in registers.
DECK_IN_ORDER = sum(c << (4 * c) for c in range(N_CARDS))


@rules_leaf
def _swap_below(rng, deck, i):
    """One Fisher-Yates step: the card at place i changes places with the one at a uniform place 0..i."""
    j = randbelow(rng, i + 1)
    flip = ((deck >> (4 * i)) ^ (deck >> (4 * j))) & 15
    return deck ^ (flip << (4 * i)) ^ (flip << (4 * j))


@rules_leaf
def _shuffle_deck(rng):
    """sim.core.rng.shuffle of the 11 cards (the same draws, the same order), written out step by step
    so that every bound is a constant the compiler divides by cheaply; returns the deck (DECK_IN_ORDER)."""
    deck = _swap_below(rng, DECK_IN_ORDER, 10)
    deck = _swap_below(rng, deck, 9)
    deck = _swap_below(rng, deck, 8)
    deck = _swap_below(rng, deck, 7)
    deck = _swap_below(rng, deck, 6)
    deck = _swap_below(rng, deck, 5)
    deck = _swap_below(rng, deck, 4)
    deck = _swap_below(rng, deck, 3)
    deck = _swap_below(rng, deck, 2)
    return _swap_below(rng, deck, 1)


@rules_leaf
def _setup_hand(S, R, rng, log):
    """OC-SETUP-1..4: shuffle the 11 cards; 3 island cards, 4 ship cards (5 with 3 players), the rest
    dealt 1 per player (2 with 2 players); each seat knows its own hand; both action cards show
    正面交鋒 and 刺探軍情."""
    n, n_ship, hpp = R[PARAMS, PLAYERS], R[PARAMS, N_SHIP], R[PARAMS, HAND_CARDS]
    deck = _shuffle_deck(rng)  # dealt from place 0 up: the card dealt is deck & 15, then deck >>= 4
    S[AT:KNOWN, :] = -1
    S[KNOWN:HAND_UP + 1, :] = 0
    S[PUB, ISLAND_UP], S[PUB, FACE_A], S[PUB, FACE_B] = 0, 0, 0
    for i in range(N_ISLAND):
        S[AT, ISLAND0 + i] = deck & 15
        deck >>= 4
    for s in range(n_ship):
        S[AT, s] = deck & 15
        deck >>= 4
    for q in range(n):
        for k in range(hpp):
            h, card = hand_loc(q, k), deck & 15
            S[AT, h] = card
            S[KNOWN, q] |= 1 << card
            S[MEM + q, h] = card
            deck >>= 4
    _index_cards(S, R)
    info = S[INFO]
    info[bots.N_SHIP], info[bots.HAND_CARDS], info[bots.N_DIALS] = n_ship, hpp, R[PARAMS, N_DIALS]
    if log.shape[0] > 0:
        for loc in range(N_LOC):
            if S[AT, loc] >= 0:
                _note(S, log, L_DEAL, loc, S[AT, loc])


@rules_leaf
def _index_cards(S, R):
    """The cards on the ship and in hands as bit masks (S[PUB, SHIP_SET | HAND_SET]), from S[AT]."""
    ship, hands = 0, 0
    for s in range(R[PARAMS, N_SHIP]):
        ship |= 1 << S[AT, s]
    for loc in range(HAND0, N_LOC):
        hands |= _bit(S[AT, loc])
    S[PUB, SHIP_SET], S[PUB, HAND_SET] = ship, hands


# ---------------------------------------------------------------- the bots' view

# S[INFO] is filled in parts: the rules' numbers once per hand (_setup_hand), on a turn everything
# (_view), for a dial or the kraken's choice what the memory places on the ship (_ship_view), for an
# extra look the ship slots it knows (_look_view).

@rules_leaf
def _view(S, R, p, may_declare):
    """Fill S[INFO] with what seat p knows on its turn (policies.py): the perfect memory, or the naive
    one for a naive bot."""
    info = S[INFO]
    info[bots.MAY_DECLARE] = may_declare
    info[bots.FACE_A], info[bots.FACE_B] = S[PUB, FACE_A], S[PUB, FACE_B]
    info[bots.ISLAND_UP] = S[PUB, ISLAND_UP]
    info[bots.OWN], info[bots.OWN + 1] = S[AT, hand_loc(p, 0)], S[AT, hand_loc(p, 1)]
    if R[POLICY, p] == bots.NAIVE:
        _naive_memory(S, R, p)
    else:
        _perfect_memory(S, R, p)


@rules_leaf
def _ship_view(S, R, p, voluntary):
    """S[INFO] for seat p's dial (voluntary: 1 for the seat declaring of its own accord) or its choice
    in the kraken's swap: what its memory places on the ship."""
    S[INFO, bots.VOLUNTARY] = voluntary
    if R[POLICY, p] == bots.NAIVE:
        _naive_memory(S, R, p)
    else:
        _ship_memory(S, p)


@rules_leaf
def _look_view(S, R, p):
    """S[INFO] for seat p's extra look: the ship slots its memory knows."""
    if R[POLICY, p] == bots.NAIVE:
        _naive_memory(S, R, p)
    else:
        _slot_memory(S, R, p)


@rules_leaf
def _ship_memory(S, p):
    """Seat p's perfect memory: the cards it knows on the ship (seen there, or after a kraken swap known
    to be in one of two slots) and the cards whose place it does not know."""
    info, known = S[INFO], S[KNOWN, p]
    info[bots.ON_SHIP] = (known & S[PUB, SHIP_SET]) | S[SHIP_ANY, p]
    info[bots.UNKNOWN] = ALL_CARDS & ~(known | S[SHIP_ANY, p])


@rules_leaf
def _slot_memory(S, R, p):
    """Seat p's perfect memory: the ship slots whose card it knows, the two slots of a kraken swap."""
    known, slots = S[KNOWN, p], 0
    for s in range(N_SHIP_MAX):  # a fixed count, unrolled; an empty slot (-1) reads bit 15, never set
        slots |= ((known >> (S[AT, s] & 15)) & 1) << s
    S[INFO, bots.SLOTS_KNOWN], S[INFO, bots.PAIR] = slots & ((1 << R[PARAMS, N_SHIP]) - 1), S[PAIR, p]


@rules_leaf
def _perfect_memory(S, R, p):
    """The whole view of seat p's perfect memory: _ship_memory, _slot_memory, how many other hand
    cards it does not know, the first face-down island card it does not know (-1 if none)."""
    info, known = S[INFO], S[KNOWN, p]
    _ship_memory(S, p)
    _slot_memory(S, R, p)
    info[bots.HIDDEN_HANDS] = popcount(S[PUB, HAND_SET] & ~known)
    hidden_island = -1
    for i in range(N_ISLAND - 1, -1, -1):
        if not (S[PUB, ISLAND_UP] >> i) & 1 and not (known >> S[AT, ISLAND0 + i]) & 1:
            hidden_island = i
    info[bots.HIDDEN_ISLAND] = hidden_island


@rules_code
def _naive_memory(S, R, p):
    """The view of seat p's naive memory S[MEM + p] (its own hand, the ship cards it looked at,
    wherever they went since): the same fields as _perfect_memory."""
    info, mem = S[INFO], S[MEM + p]
    info[bots.PAIR] = 0
    on_ship, elsewhere, slots = 0, 0, 0
    for loc in range(N_SHIP_MAX):
        on_ship |= _bit(mem[loc])
        if loc < R[PARAMS, N_SHIP] and mem[loc] >= 0:
            slots |= 1 << loc
    for loc in range(N_SHIP_MAX, N_LOC):
        elsewhere |= _bit(mem[loc])
    info[bots.ON_SHIP] = on_ship & ~elsewhere
    info[bots.UNKNOWN] = ALL_CARDS & ~on_ship & ~elsewhere
    info[bots.SLOTS_KNOWN] = slots
    info[bots.HIDDEN_HANDS], info[bots.HIDDEN_ISLAND] = 0, -1


@rules_leaf
def _extra_look(S, R, T, rng, log, p, exclude):
    _look_view(S, R, p)
    s = bots.extra_look(R[POLICY, p], S[INFO], exclude, rng)
    if s >= 0:
        _note(S, log, L_LOOK, p, s)
        _see(S, log, p, s)
    return s


@rules_leaf
def _special_cards_seen(S, R, T, rng, log, p, ghost, mermaid, exclude):
    """OC-GHOST, OC-MERMAID, OC-COMBO: the ghost shows one more ship card; the mermaid forces the
    viewer's hand face up; seen together they do nothing. The extra look triggers nothing more."""
    if ghost and mermaid:
        _note(S, log, L_CANCEL, p)
    elif ghost:
        _note(S, log, L_GHOST, p)
        _extra_look(S, R, T, rng, log, p, exclude)
    elif mermaid:
        _note(S, log, L_MERMAID, p)
        S[HAND_UP, p] = 1
        for k in range(R[PARAMS, HAND_CARDS]):
            _reveal_to_all(S, R, hand_loc(p, k))


# ---------------------------------------------------------------- the four actions (OC-ACT-*)

@rules_leaf
def _peek(S, R, T, rng, log, p, a, b):
    """OC-ACT-PEEK 正面交鋒: look at two ship cards, then put them back in place."""
    ca = _see(S, log, p, a)
    cb = _see(S, log, p, b)
    _special_cards_seen(S, R, T, rng, log, p, ca == GHOST or cb == GHOST, ca == MERMAID or cb == MERMAID,
                        (1 << a) | (1 << b))


@rules_leaf
def _spy(S, R, T, rng, log, p):
    """OC-ACT-SPY 刺探軍情: look at every other player's hand (one's own never triggers: OC-ASM-OWN)."""
    ghost, mermaid = False, False
    for q in range(R[PARAMS, PLAYERS]):
        if q != p:
            for k in range(R[PARAMS, HAND_CARDS]):
                c = _see(S, log, p, hand_loc(q, k))
                ghost |= c == GHOST
                mermaid |= c == MERMAID
    _special_cards_seen(S, R, T, rng, log, p, ghost, mermaid, 0)


@rules_leaf
def _kraken_swap(S, R, T, rng, log, p, a, b, h):
    """OC-KRAKEN-2: take ship cards a and b (looked at), keep one, shuffle the other with the kraken
    back into the two slots. Everyone sees it happen: all know the kraken is in one of them."""
    ca, cb = _see(S, log, p, a), _see(S, log, p, b)
    _ship_view(S, R, p, 0)
    keep = bots.kraken_keep(R[POLICY, p], S[INFO], R[VALUES], T, ca, cb, rng)
    kept, other = (cb, ca) if keep == 1 else (ca, cb)
    _forget_pair_if_touched(S, R, a)
    _forget_pair_if_touched(S, R, b)
    S[AT, h] = kept
    if randbelow(rng, 2) == 0:
        S[AT, a], S[AT, b] = other, KRAKEN
    else:
        S[AT, a], S[AT, b] = KRAKEN, other
    S[PUB, SHIP_SET] ^= (1 << kept) | (1 << KRAKEN)
    S[PUB, HAND_SET] ^= (1 << kept) | (1 << KRAKEN)
    for q in range(R[PARAMS, PLAYERS]):  # nobody knows the three cards' places any more
        S[KNOWN, q] &= ~((1 << ca) | (1 << cb) | (1 << KRAKEN))
        S[SHIP_ANY, q], S[PAIR, q], S[PAIR, PAIR_LOOK + q] = 1 << KRAKEN, (1 << a) | (1 << b), 0
    S[KNOWN, p] |= 1 << kept
    S[SHIP_ANY, p] |= 1 << other
    S[MEM + p, h], S[MEM + p, a], S[MEM + p, b] = kept, other, KRAKEN
    _note(S, log, L_KRAKEN, p, a, b, kept, S[AT, a], S[AT, b])


@rules_leaf
def _swap(S, R, T, rng, log, p, a, b, k):
    """OC-ACT-SWAP 輪番上陣: swap the hand card with ship slot a unseen, look at the new hand card
    (OC-ACT-NEWHAND: no special effect), then look at another ship card (OC-GHOST applies to it).
    With the kraken in hand and b >= 0 the swap is the kraken's (OC-KRAKEN-2). Either way the hand
    goes face down again (OC-MERMAID)."""
    h = hand_loc(p, k)
    if b >= 0 and S[AT, h] == KRAKEN:
        _kraken_swap(S, R, T, rng, log, p, a, b, h)
        exclude = (1 << a) | (1 << b)
    else:
        given, taken = S[AT, h], S[AT, a]
        _forget_pair_if_touched(S, R, a)
        S[AT, a], S[AT, h] = given, taken
        S[PUB, SHIP_SET] ^= (1 << given) | (1 << taken)
        S[PUB, HAND_SET] ^= (1 << given) | (1 << taken)
        S[MEM + p, a] = given
        _see(S, log, p, h)
        exclude = 1 << a
    S[HAND_UP, p] = 0
    s = _extra_look(S, R, T, rng, log, p, exclude)
    if s >= 0 and S[AT, s] == GHOST:
        _note(S, log, L_GHOST, p)
        _extra_look(S, R, T, rng, log, p, exclude | (1 << s))


@rules_leaf
def _wave(S, R, log, p, a, i, k):
    """OC-ACT-WAVE 巨浪來襲: hand card -> ship slot a, that ship card -> island slot i face down,
    that island card -> hand (looked at, no special effect: OC-ACT-NEWHAND); the hand goes face down."""
    h = hand_loc(p, k)
    isl = ISLAND0 + i
    _forget_pair_if_touched(S, R, a)
    given, sunk, found = S[AT, h], S[AT, a], S[AT, isl]
    S[AT, a], S[AT, isl], S[AT, h] = given, sunk, found
    S[PUB, SHIP_SET] ^= (1 << given) | (1 << sunk)
    S[PUB, HAND_SET] ^= (1 << given) | (1 << found)
    S[MEM + p, a] = given
    S[PUB, ISLAND_UP] &= ~(1 << i)
    S[HAND_UP, p] = 0
    _see(S, log, p, h)


@rules_leaf
def _act(S, R, T, rng, log, p):
    """OC-ACT-FLIP: carry out the chosen face-up action (S[CHOICE]), then flip its card."""
    act, x, y, z = S[CHOICE, 0], S[CHOICE, 1], S[CHOICE, 2], S[CHOICE, 3]
    if act == PEEK:
        _peek(S, R, T, rng, log, p, x, y)
    elif act == SPY:
        _spy(S, R, T, rng, log, p)
    elif act == SWAP:
        _swap(S, R, T, rng, log, p, x, y, z)
    else:
        _wave(S, R, log, p, x, y, z)
    face = FACE_A if act == PEEK or act == SWAP else FACE_B
    S[PUB, face] = 1 - S[PUB, face]


# ---------------------------------------------------------------- declaration and payout (OC-DECL, OC-PAY)

@rules_leaf
def _declare(S, R, T, rng, log, decl, forced, ev, n_ev, game, hand, rnd):
    """OC-DECL-1: every seat sets its dial at once; the ship is turned up and paid by OC-PAY-A..E."""
    n = R[PARAMS, PLAYERS]
    values, dial_lo, dial_hi, pay = R[VALUES], R[DIAL_LO], R[DIAL_HI], R[PAY]
    _note(S, log, L_DECLARE, decl, forced, rnd)
    total = cards_sum(S[PUB, SHIP_SET], values)
    # OC-PAY-D: the hand cards of the sum's colour pay (purple never matches; zero has no colour)
    paying = NAVY_CARDS if total > 0 else (PIRATE_CARDS if total < 0 else 0)
    _note(S, log, L_SUM, total)
    for q in range(n):
        _ship_view(S, R, q, 1 if (q == decl and not forced) else 0)
        S[DIALS, q] = bots.dial(R[POLICY, q], S[INFO], values, T, rng)
    for q in range(n):
        d = S[DIALS, q]
        colour = total != 0 and d != 0 and (dial_lo[d] > 0) == (total > 0)  # OC-PAY-A
        in_range = colour and dial_lo[d] <= total <= dial_hi[d]  # OC-PAY-B
        S[PAID + 0, q] = pay[PAY_A] if colour else 0
        S[PAID + 1, q] = pay[PAY_B] if in_range else 0
        right_zero = d == 0 and total == 0
        S[PAID + 2, q] = pay[PAY_C] if right_zero else 0  # OC-PAY-C
        matches = popcount(_hand_cards(S, q) & paying)  # OC-PAY-D
        S[PAID + 3, q] = pay[PAY_D] * (matches if R[PARAMS, D_EACH] == 1 else min(matches, 1))
        voluntary = q == decl and not forced  # OC-PAY-E; a right 0 pays PAY_E_ZERO, 0 unless OC-ASM-ZERO-E is on
        S[PAID + 4, q] = (pay[PAY_E] if in_range else (pay[PAY_E_ZERO] if right_zero else 0)) if voluntary else 0
        for r in range(5):
            S[GOLD, q] += S[PAID + r, q]
        _note(S, log, L_DIAL, q, d)
        _note(S, log, L_PAY, q, S[PAID, q], S[PAID + 1, q], S[PAID + 2, q], S[PAID + 3, q], S[PAID + 4, q])
    if R[PARAMS, KRAKEN_TOLL] == 1:
        _kraken_toll(S, log, n, decl)
    ev32, ev16, ev8 = ev  # the EVENT_BLOCKS: one row per column, one column per declaration
    if n_ev < ev8.shape[1]:
        ev32[0, n_ev], ev16[0, n_ev] = game, hand  # game: numbered within the batch
        ev8[0, n_ev], ev8[1, n_ev], ev8[2, n_ev], ev8[3, n_ev] = rnd, decl, forced, total
        for q in range(4):
            ev8[4 + q, n_ev] = S[DIALS, q] if q < n else -1
            for r in range(5):
                ev8[8 + 4 * r + q, n_ev] = S[PAID + r, q] if q < n else 0
            ev16[1 + q, n_ev] = _hand_cards(S, q) if q < n else 0
    return n_ev + 1


@rules_leaf
def _kraken_toll(S, log, n, decl):
    """OC-VAR-TOLL (house rule, ``kraken_toll``): after the payout the seat holding the kraken pays 1 gold,
    if it has any, to the declarer (who never holds it, OC-KRAKEN-1)."""
    for q in range(n):
        if _holds(S, q, KRAKEN) and S[GOLD, q] > 0:
            S[GOLD, q] -= 1
            S[GOLD, decl] += 1
            _note(S, log, L_TOLL, q, decl)


# ---------------------------------------------------------------- one hand, one game

@rules_leaf
def _play_hand(S, R, T, rng, log, start, ev, n_ev, game, hand, out, searching):
    """OC-SETUP-1..4 then the hand's rounds (_play_rounds) from the start player."""
    _note(S, log, L_HAND, hand, start)
    _setup_hand(S, R, rng, log)
    return _play_rounds(S, R, T, rng, log, start, 1, 0, ev, n_ev, game, hand, out, searching)


@rules_leaf
def _play_rounds(S, R, T, rng, log, start, first_round, first_turn, ev, n_ev, game, hand, out, searching):
    """OC-ROUND-1..3, OC-ISLAND-1..2: up to 4 rounds from the start player clockwise, from turn
    ``first_turn`` of round ``first_round`` on (1, 0 for a whole hand). Round 1: everyone acts. From round
    2: act or declare (not with the kraken, OC-KRAKEN-1). After rounds 1-3 an island card turns up; in
    round 4 the start player must declare (the next seat if it holds the kraken: OC-ASM-FORCED). A
    declaration ends the hand at once (OC-DECL-2).

    Before the turn of a seat played by the search bot the hand stops, with S[PUB, WAITING] = that seat
    and S[PUB, ROUND], S[PUB, TURN] where it stands (search.py chooses, _take_turn, and resumes the hand
    at the next turn). One loop for both paths: a rule of the turn order is written here once.
    ``searching``: whether a seat may search (False in play_batch and in the search's rollouts, where no
    seat does; inlined, the check then drops out of the compiled loop)."""
    n = R[PARAMS, PLAYERS]
    for rnd in range(first_round, MAX_ROUNDS + 1):
        for t in range(first_turn if rnd == first_round else 0, n):
            p = start + t - n if start + t >= n else start + t  # clockwise from the start player
            if rnd == MAX_ROUNDS:
                while _holds(S, p, KRAKEN):
                    _note(S, log, L_PASS, p)
                    p = (p + 1) % n
                out[10] += 1
                return _declare(S, R, T, rng, log, p, 1, ev, n_ev, game, hand, rnd)
            if searching and R[POLICY, p] == bots.SEARCH:
                S[PUB, WAITING], S[PUB, ROUND], S[PUB, TURN] = p, rnd, t
                return n_ev
            may_declare = _may_declare(S, p, rnd)
            _view(S, R, p, may_declare)
            bots.turn(R[POLICY, p], S[INFO], R[VALUES], T, rng, S[CHOICE])
            n_ev, ended = _take_turn(S, R, T, rng, log, p, rnd, may_declare, ev, n_ev, game, hand, out)
            if ended:
                return n_ev
        # OC-ISLAND-1 (OC-ASM-ISLAND: the first face-down card of the column)
        for i in range(N_ISLAND):
            if not (S[PUB, ISLAND_UP] >> i) & 1:
                S[PUB, ISLAND_UP] |= 1 << i
                _reveal_to_all(S, R, ISLAND0 + i)
                _note(S, log, L_REVEAL, i, S[AT, ISLAND0 + i])
                break
    return n_ev


@rules_leaf
def _may_declare(S, p, rnd):
    """OC-ROUND-2, OC-ROUND-3, OC-KRAKEN-1: from round 2 on, unless the seat holds the kraken."""
    return 0 if rnd < 2 or _holds(S, p, KRAKEN) else 1


@rules_leaf
def _take_turn(S, R, T, rng, log, p, rnd, may_declare, ev, n_ev, game, hand, out):
    """Seat p's choice S[CHOICE]: declare (OC-ROUND-3; only when allowed: may_declare, _may_declare) or
    carry out the action (OC-ACT-FLIP). Returns the declarations so far and whether the hand ended
    (OC-DECL-2)."""
    if S[CHOICE, 0] == DECLARE and may_declare == 1:
        out[9] += 1
        return _declare(S, R, T, rng, log, p, 0, ev, n_ev, game, hand, rnd), True
    _note(S, log, L_TURN, p, rnd, S[CHOICE, 0], S[CHOICE, 1], S[CHOICE, 2], S[CHOICE, 3])
    _act(S, R, T, rng, log, p)
    return n_ev, False


@rules_leaf
def _play_game(S, R, T, rng, log, ev, n_ev, game, out):
    """OC-END-1, OC-END-2, OC-NEXT-1, OC-NEXT-2: hands until someone has 5 gold, the start player
    moving left each hand; the most gold wins, ties share. (search.py plays its games from the same
    pieces: _new_game, _game_over, _next_start, _score_game.)"""
    _new_game(S, out)
    start, hands = 0, 0
    while True:
        hands += 1
        n_ev = _play_hand(S, R, T, rng, log, start, ev, n_ev, game, hands, out, False)
        if _game_over(S, R, hands):
            break
        start = _next_start(R, start)
    _score_game(S, R, log, hands, out)
    return n_ev


@rules_leaf
def _new_game(S, out):
    """Nobody has gold yet; no declarations counted."""
    S[GOLD, :] = 0
    out[9], out[10] = 0, 0


@rules_leaf
def _best_gold(S, R):
    best = 0
    for q in range(R[PARAMS, PLAYERS]):
        best = max(best, S[GOLD, q])
    return best


@rules_leaf
def _game_over(S, R, hands):
    """OC-END-1: someone has win_gold after a hand (or the safety stop, OC-ASM-CAP)."""
    return _best_gold(S, R) >= R[PARAMS, WIN_GOLD] or hands >= MAX_HANDS


@rules_leaf
def _next_start(R, start):
    """OC-NEXT-2: the seat left of the previous start player starts the next hand."""
    return start + 1 if start + 1 < R[PARAMS, PLAYERS] else 0  # (no division)


@rules_leaf
def _score_game(S, R, log, hands, out):
    """OC-END-1, OC-END-2: the seats with the most gold win (ties share); the game's row in ``out``."""
    n, best = R[PARAMS, PLAYERS], _best_gold(S, R)
    out[0] = hands
    mask = 0
    for q in range(4):
        out[1 + q] = S[GOLD, q] if q < n else 0
        out[5 + q] = 1 if q < n and S[GOLD, q] == best else 0
        mask |= out[5 + q] << q
    out[11] = 1 if best < R[PARAMS, WIN_GOLD] else 0
    _note(S, log, L_END, mask, hands)


@njit(cache=True)
def play_batch(seed, start, count, R, T, games, events, log):
    """Play games start..start+count-1 of the run ``seed`` into ``games`` (one row per GAME_COLUMNS entry,
    one column per game) and ``events`` (the three EVENT_BLOCKS: one row per column, one column per
    declaration, its game numbered within the batch: 0..count-1);
    return the number of declarations (those beyond the capacity of ``events`` are counted, not
    written) and the number of log rows written."""
    S = np.zeros((S_ROWS, N_LOC), np.int64)
    rng = np.empty(4, np.uint64)
    n_ev = 0
    for g in range(count):
        seed_stream(rng, seed, start + g)
        n_ev = _play_game(S, R, T, rng, log, events, n_ev, g, games[:, g])
    return n_ev, S[PUB, LOGN]
