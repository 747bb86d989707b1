"""The Ocracoke search bot: determinised Monte Carlo search of a seat's turn, with counter rollouts.

On each of its turns (OC-ROUND-2, OC-ROUND-3: act, or from round 2 declare) the seat lists its
candidate moves (_candidates: the counter bot's own choice first, then declaring when allowed and
the two face-up actions, OC-ACT-FLIP, with every target that differs by what the seat knows). It
then samples ``rollouts`` hidden states consistent with everything it knows (_sample_world: the
counter bot's exact posterior: the cards whose place it does not know lie uniformly at random in the
places whose card it does not know, except that the cards it knows to be in the two slots of a kraken
swap, OC-ASM-KRAKEN, lie there), and in each state plays every candidate followed by the rest of the
game with the counter bot at every seat (_rollout). It takes the candidate of highest mean value,
the first one on a tie (so the counter's choice unless another is better). Its dial, kraken keep
and extra looks are the counter bot's (the dial is already the exact best under the posterior).

Value: the seat's share of the win at the end of the game (1 for a sole winner, 1/k for a k-way tie,
OC-END-2), i.e. its win probability, the quantity the bot is judged by. Not the gold of this hand:
gold that wins the game is worth more than gold that does not (a hand is ~40 % of a game), and a
declaration that ends the game for a rival is worth less than its gold. Shares are counted in
twelfths (12 is divisible by 1..4 winners) so that every sum is an integer: decisions are exact and
bit-identical on every machine.

Every candidate is played on the same sampled states with the same random streams (common random
numbers), so the comparison between candidates sees the move and not the luck. The search draws only
from its own stream (search_stream) of (seed, game, seat, decision number): the game's stream is not
shifted by it. Rollouts run the scripted path with the counter bot at every seat (R[POLICY] all
COUNTER): engine._play_rounds never stops there, so the search never calls itself.

Information (what the search reads of the true table): the seat's perfect memory (S[KNOWN, p],
S[SHIP_ANY, p], S[PAIR, p]), its own view (_view), the public state, and which places each other seat
knows (from the public moves: every look, reveal and move is made in sight of all; a rival's look into
a kraken pair tells it the other slot only if the card it saw was not the kraken, so that deduction is
made anew in each sampled table: _others_knowledge); never a card the seat does not know.
tests/ocracoke/test_oc_search.py checks two tables that differ only in such cards (also inside a
kraken pair a rival looked into) give the same decision.
"""

from __future__ import annotations

import numpy as np

from sim.core.bits import lowest_bit, popcount
from sim.core.jit import njit
from sim.core.rng import _mix64, next_u64, randbelow, seed_stream
from sim.games.ocracoke import engine as E
from sim.games.ocracoke import policies as bots
from sim.games.ocracoke.engine import (
    AT,
    CHOICE,
    INFO,
    KNOWN,
    MEM,
    PAIR,
    PARAMS,
    PLAYERS,
    POLICY,
    PUB,
    SHIP_ANY,
    VALUES,
)
from sim.games.ocracoke.policies import ALL_CARDS, COUNTER, DECLARE, N_LOC, N_SHIP_MAX, PEEK, SPY, SWAP, WAVE
from sim.games.ocracoke.rules import KRAKEN, N_ISLAND

MAX_CANDIDATES = 48  # counter's choice, declaring, A: <= 2 hand cards x 5 slots + 2, B: <= 2 x 5 x 3
WIN = 12  # a whole win, in twelfths (a k-way tie pays WIN // k)
SEARCH_SALT = np.uint64(0x5EA2C4B07C0FFEE1)
search_code = njit(cache=True)  # the search path's functions: compiled only when a seat plays search


# ---------------------------------------------------------------- the search's own random stream

@search_code
def search_stream(state, seed, index, seat, decision):
    """Fill ``state`` with the search's stream for decision ``decision`` of ``seat`` in game ``index``
    of the run ``seed``: sim.core.rng's stream of game ``index`` under a run key mixed (SplitMix64)
    from (seed, seat, decision), never the game's own stream."""
    word = SEARCH_SALT + np.uint64(seat) * np.uint64(1 << 32) + np.uint64(decision)
    seed_stream(state, _mix64(np.uint64(seed) ^ _mix64(word)), index)


# ---------------------------------------------------------------- a hidden state the seat cannot rule out

@search_code
def _sample_world(S, W, R, p, srng, pool):
    """W := the table S with every card seat p does not know placed anew at random (see the module
    docstring): first the cards it knows to be in the two slots of a kraken swap (OC-ASM-KRAKEN), each
    into one of those slots at random; then the other unknown cards, listed by card number, shuffled
    into the other places whose card it does not know. The other seats know the same places as in S
    (whatever card is there now); the naive memories are cleared (rollouts play counter only)."""
    W[:, :] = S
    known, pinned = S[KNOWN, p], S[SHIP_ANY, p]
    open_pair = S[PAIR, p]
    left = pinned
    while left:
        card = lowest_bit(left)
        left &= left - 1
        pick = randbelow(srng, popcount(open_pair))
        slots = open_pair
        for _ in range(pick):
            slots &= slots - 1
        slot = lowest_bit(slots)
        W[AT, slot] = card
        open_pair &= ~(1 << slot)
    filled_pair = S[PAIR, p] & ~open_pair
    n = 0
    cards = ALL_CARDS & ~known & ~pinned
    while cards:
        pool[n] = lowest_bit(cards)
        cards &= cards - 1
        n += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = randbelow(srng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    i = 0
    for loc in range(N_LOC):
        card = S[AT, loc]
        if card >= 0 and not (known >> card) & 1 and not (loc < N_SHIP_MAX and (filled_pair >> loc) & 1):
            W[AT, loc] = pool[i]
            i += 1
    for q in range(R[PARAMS, PLAYERS]):
        W[MEM + q, :] = -1
        if q != p:
            _others_knowledge(S, W, q)
    E._index_cards(W, R)


@search_code
def _others_knowledge(S, W, q):
    """Seat q knows in W the places it knows in S by its public looks, and, after a kraken swap of its
    own (it knows both cards of the two slots), the two cards now there. Not the true table's deduction
    after q looked into a kraken pair (S[PAIR, PAIR_LOOK + q]): having seen a card other than the kraken,
    q knows the other slot holds the kraken, which depends on a card seat p may not know. In W, q knows
    the other slot's card (wherever it went since) when the card W has where q looked is not the kraken."""
    look = S[PAIR, E.PAIR_LOOK + q]
    known = S[KNOWN, q]
    seen, partner = -1, -1
    if look:
        seen, partner = lowest_bit(look & 0xFFFF), lowest_bit(look >> 16)
        known &= ~(1 << partner)
    places, seen_at, partner_at = 0, -1, -1
    for loc in range(N_LOC):
        card = S[AT, loc]
        if card >= 0 and (known >> card) & 1:
            places |= 1 << W[AT, loc]
        if card >= 0 and card == seen and (known >> card) & 1:
            seen_at = loc
        if card >= 0 and card == partner:
            partner_at = loc
    if seen_at >= 0 and partner_at >= 0 and W[AT, seen_at] != KRAKEN:
        places |= 1 << W[AT, partner_at]
    W[KNOWN, q] = places
    W[PAIR, E.PAIR_LOOK + q] = 0  # rollouts play counter, which never reads it
    pair = S[PAIR, q]
    if pair and popcount(S[SHIP_ANY, q]) == popcount(pair):
        cards = 0
        for s in range(N_SHIP_MAX):
            if (pair >> s) & 1:
                cards |= 1 << W[AT, s]
        W[SHIP_ANY, q] = cards


# ---------------------------------------------------------------- the candidate moves

@search_code
def _add(cand, n, act, x, y, z):
    """Append a move (in the choice format of policies.turn) unless already listed."""
    for c in range(n):
        if cand[c, 0] == act and cand[c, 1] == x and cand[c, 2] == y and cand[c, 3] == z:
            return n
    cand[n, 0], cand[n, 1], cand[n, 2], cand[n, 3] = act, x, y, z
    return n + 1


@search_code
def _candidates(S, R, T, p, may_declare, srng, cand):
    """Seat p's moves worth comparing, from its own view: the counter bot's choice first; declaring
    when allowed (OC-ROUND-3, OC-KRAKEN-1); the face-up actions (OC-ACT-FLIP): 正面交鋒 on two
    unknown slots, 刺探軍情, 輪番上陣 with each hand card into each ship slot that differs by what p
    knows (each known slot, one unknown slot, one kraken-swap slot) and, holding the kraken, its swap
    (OC-KRAKEN-2), 巨浪來襲 likewise onto each island slot. Returns how many."""
    E._view(S, R, p, may_declare)
    info = S[INFO]
    bots.turn(COUNTER, info, R[VALUES], T, srng, S[CHOICE])  # counter draws nothing
    n = _add(cand, 0, S[CHOICE, 0], S[CHOICE, 1], S[CHOICE, 2], S[CHOICE, 3])
    if may_declare:
        n = _add(cand, n, DECLARE, -1, -1, 0)
    n_ship = info[bots.N_SHIP]
    unknown = ((1 << n_ship) - 1) & ~info[bots.SLOTS_KNOWN] & ~info[bots.PAIR]
    slots = info[bots.SLOTS_KNOWN] | (unknown & -unknown) | (info[bots.PAIR] & -info[bots.PAIR])
    first = bots._first_unknown_slot(info, 0)
    second = bots._first_unknown_slot(info, 1 << first)
    if info[bots.FACE_A] == 0:
        n = _add(cand, n, PEEK, first, second, 0)
    else:
        for k in range(info[bots.HAND_CARDS]):
            if info[bots.OWN + k] == KRAKEN:
                n = _add(cand, n, SWAP, first, second, k)
            for a in range(n_ship):
                if (slots >> a) & 1:
                    n = _add(cand, n, SWAP, a, -1, k)
    if info[bots.FACE_B] == 0:
        n = _add(cand, n, SPY, -1, -1, 0)
    else:
        for k in range(info[bots.HAND_CARDS]):
            for a in range(n_ship):
                if (slots >> a) & 1:
                    for i in range(N_ISLAND):
                        n = _add(cand, n, WAVE, a, i, k)
    return n


# ---------------------------------------------------------------- one rollout

@search_code
def _win_share(W, R, p):
    """Seat p's share of the win in twelfths (OC-END-1, OC-END-2: the most gold wins, ties share)."""
    best, winners = E._best_gold(W, R), 0
    for q in range(R[PARAMS, PLAYERS]):
        winners += W[E.GOLD, q] == best
    return WIN // winners if W[E.GOLD, p] == best else 0


@search_code
def _rollout(W, R0, T, rng, log, ev, out, p, move, rnd, t, start, hand):
    """Seat p makes ``move`` on turn t of round rnd of the hand ``hand`` (started by ``start``) of the
    table W, then every seat plays counter (R0: engine._play_rounds never stops) to the end of the game;
    p's win share in twelfths.
    Nothing is written to ``ev`` (the count passed is its capacity) or ``log`` (empty)."""
    for j in range(4):
        W[CHOICE, j] = move[j]
    n_ev = ev[2].shape[1]
    n_ev, ended = E._take_turn(W, R0, T, rng, log, p, rnd, E._may_declare(W, p, rnd), ev, n_ev, 0, hand, out)
    if not ended:
        n_ev = E._play_rounds(W, R0, T, rng, log, start, rnd, t + 1, ev, n_ev, 0, hand, out, False)
    hands = hand
    while not E._game_over(W, R0, hands):
        hands += 1
        start = E._next_start(R0, start)
        n_ev = E._play_hand(W, R0, T, rng, log, start, ev, n_ev, 0, hands, out, False)
    return _win_share(W, R0, p)


# ---------------------------------------------------------------- one decision

@search_code
def workspace(R):
    """Scratch arrays of one searching thread: two tables, the rules with counter at every seat, the
    candidates and their value sums, three random streams, the card pool, a game row, an empty log.
    The game row is a column of a wider table, as play_batch's ``games[:, g]``: the engine's functions
    then see one array layout from every caller (also a test's, from Python: the column is not contiguous)
    and are compiled once, not once per layout."""
    R0 = R.copy()
    R0[POLICY, :4] = COUNTER
    return (np.empty((E.S_ROWS, N_LOC), np.int64), np.empty((E.S_ROWS, N_LOC), np.int64), R0,
            np.empty((MAX_CANDIDATES, 4), np.int64), np.zeros(MAX_CANDIDATES, np.int64),
            np.empty(4, np.uint64), np.empty(4, np.uint64), np.empty(4, np.uint64),
            np.empty(N_LOC, np.int64), np.zeros((len(E.GAME_COLUMNS), 2), np.int64)[:, 0],
            np.zeros((0, E.LOG_WIDTH), np.int64))


@search_code
def search_turn(S, R, T, ev, p, rnd, t, start, hand, rollouts, work):
    """Seat p's move on turn t of round rnd (S[CHOICE]), searched as the module docstring says, from
    the stream already in work[5] (search_stream). Leaves the candidates in work[3] and their value
    sums (twelfths over ``rollouts`` rollouts each) in work[4]; returns (candidates, chosen index)."""
    W, W2, R0, cand, total, srng, world_rng, rng, pool, out, no_log = work
    n = _candidates(S, R, T, p, E._may_declare(S, p, rnd), srng, cand)
    total[:n] = 0
    if n > 1:
        for _ in range(rollouts):
            _sample_world(S, W, R, p, srng, pool)
            seed_stream(world_rng, next_u64(srng), 0)
            for c in range(n):
                W2[:, :] = W
                rng[:] = world_rng
                total[c] += _rollout(W2, R0, T, rng, no_log, ev, out, p, cand[c], rnd, t, start, hand)
    best = 0
    for c in range(1, n):
        if total[c] > total[best]:
            best = c
    for j in range(4):
        S[CHOICE, j] = cand[best, j]
    return n, best


# ---------------------------------------------------------------- games with search seats

@search_code
def _play_game_searching(S, R, T, rng, log, ev, n_ev, game, out, seed, index, budget, made, work):
    """engine._play_game, with the turns of search seats (S[PUB, WAITING]) chosen by search_turn:
    the same rules (OC-END-1, OC-END-2, OC-NEXT-1, OC-NEXT-2). ``made`` counts each seat's searched
    decisions (the decision number of its stream)."""
    E._new_game(S, out)
    made[:] = 0
    start, hands = 0, 0
    while True:
        hands += 1
        S[PUB, E.WAITING] = -1
        n_ev = E._play_hand(S, R, T, rng, log, start, ev, n_ev, game, hands, out, True)
        while S[PUB, E.WAITING] >= 0:
            p, rnd, t = S[PUB, E.WAITING], S[PUB, E.ROUND], S[PUB, E.TURN]
            search_stream(work[5], seed, index, p, made[p])
            made[p] += 1
            n, best = search_turn(S, R, T, ev, p, rnd, t, start, hands, budget[p, 0], work)
            _log_candidates(S, log, p, work[3], work[4], n, best, budget[p, 0])
            S[PUB, E.WAITING] = -1
            n_ev, ended = E._take_turn(S, R, T, rng, log, p, rnd, E._may_declare(S, p, rnd), ev, n_ev, game,
                                       hands, out)
            if not ended:
                n_ev = E._play_rounds(S, R, T, rng, log, start, rnd, t + 1, ev, n_ev, game, hands, out, True)
        if E._game_over(S, R, hands):
            break
        start = E._next_start(R, start)
    E._score_game(S, R, log, hands, out)
    return n_ev


@search_code
def _log_candidates(S, log, p, cand, total, n, best, rollouts):
    """One L_SEARCH row per candidate: seat, move, targets (x+1) + 8 (y+1) + 64 z, value sum in
    twelfths, rollouts, chosen."""
    for c in range(n):
        E._note(S, log, E.L_SEARCH, p, cand[c, 0], (cand[c, 1] + 1) + 8 * (cand[c, 2] + 1) + 64 * cand[c, 3],
                total[c], rollouts if n > 1 else 0, c == best)


@search_code
def play_batch_search(seed, start, count, R, T, budget, games, events, log, searched):
    """engine.play_batch for a table where some seat plays search (R[POLICY] == SEARCH), with each
    seat's budget (budget[q, 0]: rollouts); ``searched[g]``: the decisions search bots took in game g."""
    S = np.zeros((E.S_ROWS, N_LOC), np.int64)
    rng = np.empty(4, np.uint64)
    work = workspace(R)
    made = np.zeros(4, np.int64)
    n_ev = 0
    for g in range(count):
        seed_stream(rng, seed, start + g)
        n_ev = _play_game_searching(S, R, T, rng, log, events, n_ev, g, games[:, g], seed, start + g, budget,
                                    made, work)
        searched[g] = made.sum()
    return n_ev, S[PUB, E.LOGN]


# ---------------------------------------------------------------- counterfactual action values (issue 14 §2)

MOVES = (DECLARE, PEEK, SPY, SWAP, WAVE)
CF_COLUMNS = ("seat", "round", "own") + tuple(f"{kind}_{m}" for m in range(5) for kind in ("share", "margin")) + (
    "own_share", "own_margin")
CF_SAMPLED_TURNS = 5  # the sampled decision: one of the seat's first 5 turns of the game, uniformly
CF_STREAM_SEAT = 4  # the counterfactual draws its seat and turn from the search stream of this (no) seat


@search_code
def _forced_move(S, R, T, p, act, choice):
    """Seat p's move when ``act`` is forced: the counter bot's targets for it (policies._counter_turn:
    the first unknown slots; the hand card to part with; the island card it does not know)."""
    info = S[INFO]
    bits = bots.decisions(info, R[VALUES], T)
    a = bots._first_unknown_slot(info, 0)
    k = bots._hand_to_give(info, R[VALUES], bots._sign(bits)) if act == SWAP or act == WAVE else 0
    choice[0], choice[1], choice[2], choice[3] = act, -1, -1, k
    if act == PEEK:
        choice[1], choice[2] = a, bots._first_unknown_slot(info, 1 << a)
    elif act == SWAP:
        choice[1] = a
        choice[2] = bots._first_unknown_slot(info, 1 << a) if info[bots.OWN + k] == KRAKEN else -1
    elif act == WAVE:
        island = info[bots.HIDDEN_ISLAND]
        if island < 0:
            for i in range(N_ISLAND):
                if not (info[bots.ISLAND_UP] >> i) & 1:
                    island = i
                    break
        choice[1], choice[2] = a, max(island, 0)


@search_code
def _legal(S, act, may_declare):
    """OC-ROUND-3, OC-KRAKEN-1: declaring when allowed; OC-ACT-FLIP: the two face-up actions."""
    if act == DECLARE:
        return may_declare == 1
    if act == PEEK or act == SWAP:
        return (S[PUB, E.FACE_A] == 0) == (act == PEEK)
    return (S[PUB, E.FACE_B] == 0) == (act == SPY)


@search_code
def _margin(W, R, p):
    """Seat p's gold minus the most gold of another seat."""
    rival = -1
    for q in range(R[PARAMS, PLAYERS]):
        if q != p:
            rival = max(rival, W[E.GOLD, q])
    return W[E.GOLD, p] - rival


@search_code
def play_batch_counterfactual(seed, start, count, R, T, events, rows):
    """For each game (all seats counter, R): a seat and one of its first CF_SAMPLED_TURNS turns are
    drawn from the game's search stream (seat CF_STREAM_SEAT, decision 0); at that turn every legal move (MOVES,
    with the counter's targets: _forced_move) and the counter's own choice are each played from the
    same table with the same copy of the game's stream, to the end of the game with counter at every
    seat. rows[g] (CF_COLUMNS): seat (-1 if the game ended before the turn), round, own move, per move
    the seat's win share (twelfths; -1 if not legal) and gold margin (_margin), then the own move's."""
    S = np.zeros((E.S_ROWS, N_LOC), np.int64)
    rng = np.empty(4, np.uint64)
    work = workspace(R)
    R0, srng, out, no_log = work[2], work[5], work[9], work[10]
    n = R[PARAMS, PLAYERS]
    RS = R.copy()  # the seats as search seats: the hand stops before each turn (_play_rounds)
    RS[POLICY, :4] = bots.SEARCH
    for g in range(count):
        seed_stream(rng, seed, start + g)
        search_stream(srng, seed, start + g, CF_STREAM_SEAT, 0)
        seat, turn = randbelow(srng, n), randbelow(srng, CF_SAMPLED_TURNS)
        rows[g, :] = -1
        E._new_game(S, out)
        taken, hands, first, done = 0, 0, 0, False
        while not done:
            hands += 1
            S[PUB, E.WAITING] = -1
            E._play_hand(S, RS, T, rng, no_log, first, events, events[2].shape[1], 0, hands, out, True)
            while S[PUB, E.WAITING] >= 0:
                p, rnd, t = S[PUB, E.WAITING], S[PUB, E.ROUND], S[PUB, E.TURN]
                S[PUB, E.WAITING] = -1
                may = E._may_declare(S, p, rnd)
                E._view(S, R, p, may)
                bots.turn(COUNTER, S[INFO], R[VALUES], T, rng, S[CHOICE])
                if p == seat and taken == turn:
                    _counterfactuals(S, R0, T, rng, rows[g], work, p, rnd, t, first, hands, may, events)
                    done = True
                    break
                if p == seat:
                    taken += 1
                _, ended = E._take_turn(S, R, T, rng, no_log, p, rnd, may, events, events[2].shape[1], 0, hands, out)
                if not ended:
                    E._play_rounds(S, RS, T, rng, no_log, first, rnd, t + 1, events, events[2].shape[1], 0, hands,
                                   out, True)
            if done or E._game_over(S, R, hands):
                break
            first = E._next_start(R, first)
    return 0


@search_code
def _counterfactuals(S, R0, T, rng, row, work, p, rnd, t, first, hand, may, events):
    """The row of play_batch_counterfactual at seat p's sampled turn (S[CHOICE]: counter's own move)."""
    W, cand, rng2, out, no_log = work[0], work[3], work[7], work[9], work[10]
    row[0], row[1], row[2] = p, rnd, S[CHOICE, 0]
    for j in range(4):
        cand[0, j] = S[CHOICE, j]
    for m in range(len(MOVES)):
        if _legal(S, MOVES[m], may):
            _forced_move(S, R0, T, p, MOVES[m], cand[1])
            W[:, :] = S
            rng2[:] = rng
            row[3 + 2 * m] = _rollout(W, R0, T, rng2, no_log, events, out, p, cand[1], rnd, t, first, hand)
            row[4 + 2 * m] = _margin(W, R0, p)
    W[:, :] = S
    rng2[:] = rng
    row[13] = _rollout(W, R0, T, rng2, no_log, events, out, p, cand[0], rnd, t, first, hand)
    row[14] = _margin(W, R0, p)


def counterfactual_rows(rules, seed: int, start: int, count: int) -> np.ndarray:
    """play_batch_counterfactual for games start..start+count-1 of the run ``seed``: (count, CF_COLUMNS)."""
    from sim.games.ocracoke import posterior_tables, rules_array
    from sim.games.ocracoke.rules import pack

    R = rules_array(rules, np.full(4, COUNTER, np.int64))
    T = posterior_tables(pack(rules))
    events = tuple(np.zeros((len(names), 1), dtype) for names, dtype in E.EVENT_BLOCKS)  # written: none (contiguous, as a run's)
    rows = np.empty((count, len(CF_COLUMNS)), np.int64)
    play_batch_counterfactual(seed, start, count, R, T, events, rows)
    return rows
