"""The Ocracoke batch simulator: one compiled call plays a whole batch of games.

The rules are written once, per game, as plain numba-compiled functions whose docstrings cite the
rule IDs of docs/rules/ocracoke.md; ``play_batch`` loops over the batch inside compiled code. Game
``i`` of the run ``seed`` draws only from ``game_stream(seed, i)``. The same compiled code writes a
trace when given a non-empty ``log`` buffer (one row per event: kind and up to six numbers).

Two tuples travel through the functions:

``st`` (the table)  ``at``  card at each location (0..4 ship, 5..7 island, 8+2q+k hand card k of
                    seat q; -1 empty); ``kn`` each seat's perfect memory of the same locations;
                    ``mem`` each seat's naive memory (own hand and own looks at the ship);
                    ``ship_any``/``pair`` cards a seat knows are in two ship slots without knowing
                    which (after a kraken swap); ``hand_up`` hands forced face up by the mermaid;
                    ``pub`` island cards face up (bit mask) and the two action cards' faces;
                    ``gold``; ``scratch`` (info and choice arrays of the bots); ``log``/``logn``.
``rk`` (the rules)  ``params`` (players, ship cards, hand cards, gold to win, rule D per card,
                    dial positions), card ``values``, ``dial_lo``/``dial_hi``, ``pay`` (A..E),
                    ``policy`` (bot per seat) and the bots' posterior tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import randbelow, seed_stream, shuffle
from sim.games.ocracoke import policies as bots
from sim.games.ocracoke.policies import (
    DECLARE, HAND0, INFO_LEN, ISLAND0, N_LOC, N_SHIP_MAX, PEEK, SPY, SWAP, WAVE, hand_loc)
from sim.games.ocracoke.rules import GHOST, KRAKEN, MAX_ROUNDS, MERMAID, N_CARDS, N_ISLAND

MAX_HANDS = 1000  # safety stop (OC-ASM-CAP); the column `capped` counts games that reach it

GAME_COLUMNS = ("hands", "gold_0", "gold_1", "gold_2", "gold_3", "win_0", "win_1", "win_2", "win_3",
                "declared", "forced", "capped")
SEAT_RULES = ("a", "b", "c", "d", "e")
EVENT_COLUMNS = (("game", "hand", "round", "declarer", "forced", "ship_sum")
                 + tuple(f"dial_{q}" for q in range(4))
                 + tuple(f"{r}_{q}" for r in SEAT_RULES for q in range(4)))

# log kinds: (kind, six numbers)
L_HAND, L_DEAL, L_TURN, L_SEE, L_GHOST, L_MERMAID, L_CANCEL, L_KRAKEN = 1, 2, 3, 4, 5, 6, 7, 8
L_REVEAL, L_DECLARE, L_PASS, L_DIAL, L_PAY, L_SUM, L_END, L_LOOK = 9, 10, 11, 12, 13, 14, 15, 16
LOG_WIDTH = 7

# pub[] layout
ISLAND_UP, FACE_A, FACE_B = 0, 1, 2


@njit(cache=True)
def _note(st, kind, a=0, b=0, c=0, d=0, e=0, f=0):
    log, logn = st[9], st[10]
    i = logn[0]
    if i < log.shape[0]:
        log[i, 0], log[i, 1], log[i, 2], log[i, 3], log[i, 4], log[i, 5], log[i, 6] = kind, a, b, c, d, e, f
        logn[0] = i + 1


# ---------------------------------------------------------------- what seats know

@njit(cache=True)
def _see(st, rk, p, loc):
    """Seat p looks at the card at loc and remembers it (naive memory: ship cards and own hand only)."""
    at, kn, mem, ship_any, pair = st[0], st[1], st[2], st[3], st[4]
    card = at[loc]
    kn[p, loc] = card
    if loc < N_SHIP_MAX or loc == hand_loc(p, 0) or loc == hand_loc(p, 1):
        mem[p, loc] = card
    if loc < N_SHIP_MAX and (pair[p] >> loc) & 1:
        # one of the two slots of a kraken swap: the other slot holds the other card
        pair[p] &= ~(1 << loc)
        ship_any[p] &= ~(1 << card)
        if ship_any[p] != 0 and (ship_any[p] & (ship_any[p] - 1)) == 0 and pair[p] != 0:
            other_slot, other = 0, 0
            while not (pair[p] >> other_slot) & 1:
                other_slot += 1
            while not (ship_any[p] >> other) & 1:
                other += 1
            kn[p, other_slot] = other
            ship_any[p], pair[p] = 0, 0
        if ship_any[p] == 0:
            pair[p] = 0
    _note(st, L_SEE, p, loc, card)
    return card


@njit(cache=True)
def _reveal_to_all(st, rk, loc):
    """A card turned face up: every seat's perfect memory records it."""
    at, kn = st[0], st[1]
    for q in range(rk[0][0]):
        kn[q, loc] = at[loc]


@njit(cache=True)
def _forget_pair_if_touched(st, rk, loc):
    """A move out of a kraken-swapped slot breaks 'these two cards are in those two slots'."""
    ship_any, pair = st[3], st[4]
    if loc < N_SHIP_MAX:
        for q in range(rk[0][0]):
            if (pair[q] >> loc) & 1:
                ship_any[q], pair[q] = 0, 0


@njit(cache=True)
def _exchange(st, rk, a, b):
    """Cards at a and b change places in view of everyone: every memory moves with them."""
    at, kn = st[0], st[1]
    _forget_pair_if_touched(st, rk, a)
    _forget_pair_if_touched(st, rk, b)
    at[a], at[b] = at[b], at[a]
    for q in range(rk[0][0]):
        kn[q, a], kn[q, b] = kn[q, b], kn[q, a]


@njit(cache=True)
def _holds(st, rk, p, card):
    for k in range(rk[0][2]):
        if st[0][hand_loc(p, k)] == card:
            return True
    return False


# ---------------------------------------------------------------- setup (OC-SETUP-*)

@njit(cache=True)
def _setup_hand(st, rk, rng, deck):
    """OC-SETUP-1..4: shuffle the 11 cards; 3 island cards, 4 ship cards (5 with 3 players), the rest
    dealt 1 per player (2 with 2 players); each seat knows its own hand; both action cards show
    正面交鋒 and 刺探軍情."""
    at, kn, mem, ship_any, pair, hand_up, pub = st[0], st[1], st[2], st[3], st[4], st[5], st[6]
    n, n_ship, hpp = rk[0][0], rk[0][1], rk[0][2]
    for c in range(N_CARDS):
        deck[c] = c
    shuffle(rng, deck)
    at[:] = -1
    kn[:, :] = -1
    mem[:, :] = -1
    ship_any[:] = 0
    pair[:] = 0
    hand_up[:] = 0
    pub[ISLAND_UP], pub[FACE_A], pub[FACE_B] = 0, 0, 0
    j = 0
    for i in range(N_ISLAND):
        at[ISLAND0 + i] = deck[j]
        j += 1
    for s in range(n_ship):
        at[s] = deck[j]
        j += 1
    for q in range(n):
        for k in range(hpp):
            h = hand_loc(q, k)
            at[h] = deck[j]
            kn[q, h] = deck[j]
            mem[q, h] = deck[j]
            j += 1
    for loc in range(N_LOC):
        if at[loc] >= 0:
            _note(st, L_DEAL, loc, at[loc])


# ---------------------------------------------------------------- the bots' view

@njit(cache=True)
def _view(st, rk, p, rnd, may_declare, voluntary):
    """The memory row and info array the seat's bot reads (see policies.py)."""
    info = st[8]
    pub = st[6]
    info[bots.SEAT], info[bots.PLAYERS], info[bots.N_SHIP] = p, rk[0][0], rk[0][1]
    info[bots.HAND_CARDS], info[bots.ROUND], info[bots.MAY_DECLARE] = rk[0][2], rnd, may_declare
    info[bots.FACE_A], info[bots.FACE_B] = pub[FACE_A], pub[FACE_B]
    info[bots.ISLAND_UP], info[bots.VOLUNTARY], info[bots.N_DIALS] = pub[ISLAND_UP], voluntary, rk[0][5]
    if rk[5][p] == bots.NAIVE:
        info[bots.SHIP_ANY], info[bots.PAIR] = 0, 0
        return st[2][p], info
    info[bots.SHIP_ANY], info[bots.PAIR] = st[3][p], st[4][p]
    return st[1][p], info


@njit(cache=True)
def _extra_look(st, rk, rng, p, exclude):
    know, info = _view(st, rk, p, 0, 0, 0)
    s = bots.extra_look(rk[5][p], know, info, exclude, rng)
    if s >= 0:
        _note(st, L_LOOK, p, s)
        _see(st, rk, p, s)
    return s


@njit(cache=True)
def _special_cards_seen(st, rk, rng, p, ghost, mermaid, exclude):
    """OC-GHOST, OC-MERMAID, OC-COMBO: the ghost shows one more ship card; the mermaid forces the
    viewer's hand face up; seen together they do nothing. The extra look triggers nothing more."""
    if ghost and mermaid:
        _note(st, L_CANCEL, p)
    elif ghost:
        _note(st, L_GHOST, p)
        _extra_look(st, rk, rng, p, exclude)
    elif mermaid:
        _note(st, L_MERMAID, p)
        st[5][p] = 1
        for k in range(rk[0][2]):
            _reveal_to_all(st, rk, hand_loc(p, k))


# ---------------------------------------------------------------- the four actions (OC-ACT-*)

@njit(cache=True)
def _peek(st, rk, rng, p, a, b):
    """OC-ACT-PEEK 正面交鋒: look at two ship cards, then put them back in place."""
    ca = _see(st, rk, p, a)
    cb = _see(st, rk, p, b)
    _special_cards_seen(st, rk, rng, p, ca == GHOST or cb == GHOST, ca == MERMAID or cb == MERMAID,
                        (1 << a) | (1 << b))


@njit(cache=True)
def _spy(st, rk, rng, p):
    """OC-ACT-SPY 刺探軍情: look at every other player's hand (one's own never triggers: OC-ASM-OWN)."""
    ghost, mermaid = False, False
    for q in range(rk[0][0]):
        if q != p:
            for k in range(rk[0][2]):
                c = _see(st, rk, p, hand_loc(q, k))
                ghost |= c == GHOST
                mermaid |= c == MERMAID
    _special_cards_seen(st, rk, rng, p, ghost, mermaid, 0)


@njit(cache=True)
def _swap(st, rk, rng, p, a, b, k):
    """OC-ACT-SWAP 輪番上陣: swap the hand card with ship slot a unseen, look at the new hand card
    (OC-ACT-NEWHAND: no special effect), then look at another ship card (OC-GHOST applies to it).
    With the kraken in hand and b >= 0, OC-KRAKEN-2: take ship cards a and b, keep one, shuffle the
    other with the kraken back into the two slots. Either way the hand goes face down (OC-MERMAID)."""
    at, kn, mem, ship_any, pair = st[0], st[1], st[2], st[3], st[4]
    h = hand_loc(p, k)
    n = rk[0][0]
    if b >= 0 and at[h] == KRAKEN:
        ca, cb = _see(st, rk, p, a), _see(st, rk, p, b)
        know, info = _view(st, rk, p, 0, 0, 0)
        keep = bots.kraken_keep(rk[5][p], know, info, rk[1], rk[6], ca, cb, rng)
        kept, other = (cb, ca) if keep == 1 else (ca, cb)
        _forget_pair_if_touched(st, rk, a)
        _forget_pair_if_touched(st, rk, b)
        at[h] = kept
        if randbelow(rng, 2) == 0:
            at[a], at[b] = other, KRAKEN
        else:
            at[a], at[b] = KRAKEN, other
        for q in range(n):
            kn[q, a], kn[q, b], kn[q, h] = -1, -1, -1
            ship_any[q], pair[q] = 1 << KRAKEN, (1 << a) | (1 << b)
        kn[p, h] = kept
        ship_any[p] |= 1 << other
        mem[p, h], mem[p, a], mem[p, b] = kept, other, KRAKEN
        _note(st, L_KRAKEN, p, a, b, kept, at[a], at[b])
        exclude = (1 << a) | (1 << b)
    else:
        given = at[h]
        _exchange(st, rk, a, h)
        mem[p, a] = given
        _see(st, rk, p, h)
        exclude = 1 << a
    st[5][p] = 0
    s = _extra_look(st, rk, rng, p, exclude)
    if s >= 0 and at[s] == GHOST:
        _note(st, L_GHOST, p)
        _extra_look(st, rk, rng, p, exclude | (1 << s))


@njit(cache=True)
def _wave(st, rk, p, a, i, k):
    """OC-ACT-WAVE 巨浪來襲: hand card -> ship slot a, that ship card -> island slot i face down,
    that island card -> hand (looked at, no special effect: OC-ACT-NEWHAND); the hand goes face down."""
    at, kn, mem = st[0], st[1], st[2]
    h = hand_loc(p, k)
    isl = ISLAND0 + i
    _forget_pair_if_touched(st, rk, a)
    at[a], at[isl], at[h] = at[h], at[a], at[isl]
    for q in range(rk[0][0]):
        kn[q, a], kn[q, isl], kn[q, h] = kn[q, h], kn[q, a], kn[q, isl]
    mem[p, a] = at[a]
    st[6][ISLAND_UP] &= ~(1 << i)
    st[5][p] = 0
    _see(st, rk, p, h)


@njit(cache=True)
def _act(st, rk, rng, p, choice):
    """OC-ACT-FLIP: carry out the chosen face-up action, then flip its card."""
    pub = st[6]
    act = choice[0]
    if act == PEEK:
        _peek(st, rk, rng, p, choice[1], choice[2])
    elif act == SPY:
        _spy(st, rk, rng, p)
    elif act == SWAP:
        _swap(st, rk, rng, p, choice[1], choice[2], choice[3])
    else:
        _wave(st, rk, p, choice[1], choice[2], choice[3])
    if act == PEEK or act == SWAP:
        pub[FACE_A] ^= 1
    else:
        pub[FACE_B] ^= 1


# ---------------------------------------------------------------- declaration and payout (OC-DECL, OC-PAY)

@njit(cache=True)
def _declare(st, rk, rng, decl, forced, ev, n_ev, game, hand, rnd):
    """OC-DECL-1: every seat sets its dial at once; the ship is turned up and paid by OC-PAY-A..E."""
    at, gold, paid = st[0], st[7], st[11]
    params, values, dial_lo, dial_hi, pay = rk[0], rk[1], rk[2], rk[3], rk[4]
    n, n_ship, hpp = params[0], params[1], params[2]
    _note(st, L_DECLARE, decl, forced, rnd)
    total = 0
    for s in range(n_ship):
        total += values[at[s]]
    _note(st, L_SUM, total)
    dials = st[12]
    for q in range(n):
        know, info = _view(st, rk, q, rnd, 0, 1 if (q == decl and not forced) else 0)
        dials[q] = bots.dial(rk[5][q], know, info, values, rk[8], rng)
    paid[:, :] = 0
    for q in range(n):
        d = dials[q]
        colour = total != 0 and d != 0 and (dial_lo[d] > 0) == (total > 0)  # OC-PAY-A
        in_range = colour and dial_lo[d] <= total <= dial_hi[d]  # OC-PAY-B
        if colour:
            paid[0, q] = pay[0]
        if in_range:
            paid[1, q] = pay[1]
        if d == 0 and total == 0:  # OC-PAY-C
            paid[2, q] = pay[2]
        for k in range(hpp):  # OC-PAY-D (purple never matches; zero has no colour)
            c = at[hand_loc(q, k)]
            if c < GHOST and total != 0 and (values[c] > 0) == (total > 0):
                if params[4] == 1 or paid[3, q] == 0:
                    paid[3, q] += pay[3]
        if q == decl and not forced and in_range:  # OC-PAY-E
            paid[4, q] = pay[4]
        won = paid[0, q] + paid[1, q] + paid[2, q] + paid[3, q] + paid[4, q]
        gold[q] += won
        _note(st, L_DIAL, q, d)
        _note(st, L_PAY, q, paid[0, q], paid[1, q], paid[2, q], paid[3, q], paid[4, q])
    if n_ev < ev.shape[0]:
        row = ev[n_ev]
        row[:] = 0
        row[0], row[1], row[2], row[3], row[4], row[5] = game, hand, rnd, decl, forced, total
        for q in range(4):
            row[6 + q] = dials[q] if q < n else -1
            if q < n:
                for r in range(5):
                    row[10 + 4 * r + q] = paid[r, q]
    return n_ev + 1


# ---------------------------------------------------------------- one hand, one game

@njit(cache=True)
def _play_hand(st, rk, rng, deck, start, ev, n_ev, game, hand, out):
    """OC-ROUND-1..3, OC-ISLAND-1..2: up to 4 rounds from the start player clockwise. Round 1: everyone
    acts. From round 2: act or declare (not with the kraken, OC-KRAKEN-1). After rounds 1-3 an island
    card turns up; in round 4 the start player must declare (the next seat if it holds the kraken:
    OC-ASM-FORCED). A declaration ends the hand at once (OC-DECL-2)."""
    params = rk[0]
    n = params[0]
    _setup_hand(st, rk, rng, deck)
    _note(st, L_HAND, hand, start)
    choice = st[13]
    for rnd in range(1, MAX_ROUNDS + 1):
        for t in range(n):
            p = (start + t) % n
            if rnd == MAX_ROUNDS:
                while _holds(st, rk, p, KRAKEN):
                    _note(st, L_PASS, p)
                    p = (p + 1) % n
                out[10] += 1
                return _declare(st, rk, rng, p, 1, ev, n_ev, game, hand, rnd)
            may_declare = 1 if rnd >= 2 and not _holds(st, rk, p, KRAKEN) else 0
            know, info = _view(st, rk, p, rnd, may_declare, 0)
            bots.turn(rk[5][p], know, info, rk[1], rk[6], rk[7], rk[9], rng, choice)
            if choice[0] == DECLARE and may_declare == 1:
                out[9] += 1
                return _declare(st, rk, rng, p, 0, ev, n_ev, game, hand, rnd)
            _note(st, L_TURN, p, rnd, choice[0], choice[1], choice[2], choice[3])
            _act(st, rk, rng, p, choice)
        # OC-ISLAND-1 (OC-ASM-ISLAND: the first face-down card of the column)
        for i in range(N_ISLAND):
            if not (st[6][ISLAND_UP] >> i) & 1:
                st[6][ISLAND_UP] |= 1 << i
                _reveal_to_all(st, rk, ISLAND0 + i)
                _note(st, L_REVEAL, i, st[0][ISLAND0 + i])
                break
    return n_ev


@njit(cache=True)
def _play_game(st, rk, rng, deck, ev, n_ev, game, out):
    """OC-END-1, OC-END-2, OC-NEXT-1, OC-NEXT-2: hands until someone has 5 gold, the start player
    moving left each hand; the most gold wins, ties share."""
    params = rk[0]
    n, win_gold = params[0], params[3]
    gold = st[7]
    gold[:] = 0
    out[9], out[10] = 0, 0
    start, hands = 0, 0
    while True:
        hands += 1
        n_ev = _play_hand(st, rk, rng, deck, start, ev, n_ev, game, hands, out)
        if gold.max() >= win_gold or hands >= MAX_HANDS:
            break
        start = (start + 1) % n
    best = gold[:n].max()
    out[0] = hands
    mask = 0
    for q in range(4):
        out[1 + q] = gold[q] if q < n else 0
        out[5 + q] = 1 if q < n and gold[q] == best else 0
        mask |= out[5 + q] << q
    out[11] = 1 if gold.max() < win_gold else 0
    _note(st, L_END, mask, hands)
    return n_ev


@njit(cache=True)
def play_batch(seed, start, count, params, values, dial_lo, dial_hi, pay, policy,
               cum, best_val, best_dial, wait, games, events, log):
    """Play games start..start+count-1 of the run ``seed``; return the number of declarations
    (rows beyond ``events``' capacity are counted, not written) and the number of log rows."""
    st = (np.empty(N_LOC, np.int64), np.empty((4, N_LOC), np.int64), np.empty((4, N_LOC), np.int64),
          np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(3, np.int64),
          np.zeros(4, np.int64), np.zeros(INFO_LEN, np.int64), log, np.zeros(1, np.int64),
          np.zeros((5, 4), np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64))
    rk = (params, values, dial_lo, dial_hi, pay, policy, cum, best_val, best_dial, wait)
    deck = np.empty(N_CARDS, np.int64)
    rng = np.empty(4, np.uint64)
    n_ev = 0
    for g in range(count):
        seed_stream(rng, seed, start + g)
        n_ev = _play_game(st, rk, rng, deck, events, n_ev, start + g, games[g])
    return n_ev, st[10][0]
