"""The search bot of The Wonderful Island: determinised Monte Carlo search at the venue choice and
at a turn plan.

Before each campaign turn, every seat whose role plays ``search`` and that can act takes one decision:
the candidate its venue (WI-ROUND-3), every other such seat its plan for this campaign turn (option
``plans``): play its cards as its scripted bot would, or hold them all (no support, obstruction or
strategy card, WI-TURN-3, WI-TURN-6). ``rollouts`` times, the part of the game the seat cannot see is drawn
anew, consistently with what it may know (``determinise``); from that one sample and one random
stream, each candidate (venue or plan) is played to the end of the game by the scripted bots
(``rollout``, the game's own compiled rules). The candidate whose rollouts the seat's side won most
often is taken (its camp's election for blue and green, its own win for a politician: S_WON of the
seat); on a tie the scripted choice stands. Inside a campaign turn every choice of the seat (cards,
targets, votes) is its role's default scripted bot's, held back as a whole under the hold plan (the
seat column S_PLAN, which the policies read).

What the seat may know and keeps: its own camp, character, hand, meeting cards and beliefs, the
camps it has seen (``S_KNOWN``), and everything public (votes, iron, subpoenas, jail, hospital,
characters, hand sizes, the discard pile, cards played, who has seen whose camp). What it cannot
see and is redrawn: the camps of the players it has not seen (the camp cards left, each of its own
side's cards given to an unseen player with weight the odds of its belief, the rest shuffled), what
the other players believe (rebuilt from their drawn camp: the setup prior, and the truth about the
players they have seen), the other players' hands and meeting cards (reshuffled with the draw and
meeting piles, hand sizes kept), and the game's random stream.

The search draws from its own stream, fixed by (seed, game, seat, campaign turn) through
sim.core.rng's SplitMix64 mixing, never from the game's (a seat takes one decision per campaign
turn): a run stays bit-identical for any chunking, job count and backend. It is compiled apart from
the ordinary batch (``search_batch`` is called only when a role plays search), and rollouts run
``rollout``, which has no search in it: no recursion.
"""

from __future__ import annotations

import numpy as np

from sim.core.game import Chunk, SearchBot, Trace
from sim.core.rng import _mix64, next_u64, randbelow, seed_stream, uniform
from sim.games.wonderful_island import analysis, engine
from sim.games.wonderful_island import policies as pol
from sim.games.wonderful_island.catalogue import CH_WIN, CH_WIN_AMT
from sim.games.wonderful_island.rules import VENUE_NAMES, VENUES
from sim.games.wonderful_island.state import (
    BOT_POLITICIAN,
    E_ROUND,
    G_DECK_N,
    G_ENDED,
    G_MDECK_N,
    G_N,
    G_POOL,
    G_ROUND,
    G_TURN,
    HAND,
    MHAND,
    PILE_DECK,
    PILE_MDECK,
    PILES,
    PLAN_SCRIPTED,
    POLITICIAN,
    R_BLUE,
    R_LOG0,
    R_ROUNDS,
    S_BELIEF,
    S_BOT,
    S_CAMP,
    S_HAND_N,
    S_HOSP,
    S_JAILED,
    S_KNOWN,
    S_MEET_N,
    S_PLAN,
    S_SIDE,
    S_WON,
    SEAT,
    TB,
    W_CAMP,
    WIDTH,
    character_row,
    compiled,
    new_state,
    state_at,
    stream,
)

SEARCH_BOT = SearchBot(options=(
    ("rollouts", 16, "hidden-state samples per decision; each plays every candidate to the end"),
    ("plans", 2, "turn plans weighed at every other player's campaign turn: 2 (play cards as scripted, or "
                 "hold them), 1 (the scripted play: the venue only is searched)"),
))
E_SEARCH = np.int64(90)  # trace event: (seat * 8 + venue, rollouts won, rollouts)
E_PLAN = np.int64(91)  # trace event: (seat * 8 + plan, rollouts won, rollouts)
PLANS = 2  # PLAN_SCRIPTED, PLAN_HOLD (state.py)
PLAN_NAMES = ("play cards as scripted", "hold cards")
KINDS = 64  # card and meeting kinds are below 63 (catalogue.MAX_CARD_KINDS)
# the search stream's tags (SHA-256 initial words): seat and campaign turn mixed into the game's key
SEARCH_SALT = np.uint64(0x6A09E667F3BCC909)
SEAT_SALT = np.uint64(0xBB67AE8584CAA73B)
TURN_SALT = np.uint64(0x3C6EF372FE94F82B)
# the work array: camp cards left, unseen seats, kind counts, a pool to shuffle, candidates' wins, plans
W_LEFT, W_SEATS, W_COUNT, W_POOL, W_WINS, W_PLAN = 0, 4, 16, 80, 216, 224
WORK = W_PLAN + 8


# ----------------------------------------------------------------------------------------- the stream
@compiled
def seed_search(key, seed, index, seat, turn):
    """The search's stream for seat ``seat`` at campaign turn ``turn`` of game ``index`` of the run
    ``seed``: the game's key (sim.core.rng.seed_stream) with seat and turn mixed into each word."""
    seed_stream(key, seed, index)
    tag = _mix64(np.uint64(seat) * SEAT_SALT + np.uint64(turn) * TURN_SALT + SEARCH_SALT)
    for k in range(4):
        key[k] = _mix64(key[k] ^ tag)


# ----------------------------------------------------------------------------------------- determinising
@compiled
def odds(belief):
    """The odds of a per-mille belief, kept off 0 and infinity."""
    b = min(999, max(1, belief))
    return b / (1000.0 - b)


@compiled
def redraw_camps(wsp, s, key, work):
    """Camps of the players s has not seen, from the camp cards left (WI-SETUP-2): each card of s's
    side goes to an unseen player with weight the odds of s's belief about it (a side-less seat has
    no beliefs: every card is shuffled); the other cards are shuffled among the rest."""
    st = state_at(wsp)
    n = st[0, G_N]
    for camp in range(3):
        work[W_LEFT + camp] = st[TB, R_BLUE + camp]
    work[W_LEFT + st[SEAT + s, S_CAMP]] -= 1
    unseen = 0
    for q in range(n):
        if q == s:
            continue
        if (st[SEAT + s, S_KNOWN] >> q) & 1:
            work[W_LEFT + st[SEAT + q, S_CAMP]] -= 1
        else:
            work[W_SEATS + unseen] = q
            unseen += 1
    side = st[SEAT + s, S_SIDE]
    if side >= 0:
        for _ in range(work[W_LEFT + side]):
            total = 0.0
            for i in range(unseen):
                total += odds(st[SEAT + s, S_BELIEF + work[W_SEATS + i]])
            x = uniform(key) * total
            pick = unseen - 1
            for i in range(unseen - 1):
                x -= odds(st[SEAT + s, S_BELIEF + work[W_SEATS + i]])
                if x < 0.0:
                    pick = i
                    break
            st[SEAT + work[W_SEATS + pick], S_CAMP] = side
            unseen -= 1
            work[W_SEATS + pick] = work[W_SEATS + unseen]
        work[W_LEFT + side] = 0
    m = 0
    for camp in range(3):
        for _ in range(work[W_LEFT + camp]):
            work[W_POOL + m] = camp
            m += 1
    shuffle_work(key, work, W_POOL, m)
    for i in range(unseen):
        st[SEAT + work[W_SEATS + i], S_CAMP] = work[W_POOL + i]


@compiled
def shuffle_work(key, work, first, m):
    """Fisher-Yates shuffle of ``work[first:first + m]`` with the search's stream."""
    for i in range(m - 1, 0, -1):
        j = randbelow(key, i + 1)
        work[first + i], work[first + j] = work[first + j], work[first + i]


@compiled
def rebuild_minds(wsp, s, bots):
    """Each other player's bot, side and beliefs for its drawn camp, as setup makes them
    (WI-SETUP-2), then the truth about the players it has seen (engine.learn_camp)."""
    st = state_at(wsp)
    n = st[0, G_N]
    for q in range(n):
        if q == s:
            continue
        camp = st[SEAT + q, S_CAMP]
        bot = bots[camp]
        st[SEAT + q, S_BOT] = bot
        side = camp
        if camp == POLITICIAN:
            character = character_row(wsp, q)
            side = st[character, CH_WIN_AMT] if bot == BOT_POLITICIAN and st[character, CH_WIN] == W_CAMP else -1
        st[SEAT + q, S_SIDE] = side
        if side < 0:  # no side, no beliefs (setup leaves them zero)
            for r in range(n):
                st[SEAT + q, S_BELIEF + r] = 0
            continue
        same = st[TB, R_BLUE + side] - (1 if camp == side else 0)
        for r in range(n):
            st[SEAT + q, S_BELIEF + r] = 1000 * same // (n - 1)
            if (st[SEAT + q, S_KNOWN] >> r) & 1:
                st[SEAT + q, S_BELIEF + r] = 1000 if st[SEAT + r, S_CAMP] == side else 0
        st[SEAT + q, S_BELIEF + q] = 1000


@compiled
def redeal(wsp, s, key, work, hands, held, pile, pile_n):
    """The cards of the other players' hands (rows ``hands``, counts ``held``) and of a face-down
    pile, reshuffled and dealt back in the same numbers. The pool is sorted first (a count per
    kind), so where the unseen cards lie makes no difference to the draw."""
    st = state_at(wsp)
    n = st[0, G_N]
    for k in range(KINDS):
        work[W_COUNT + k] = 0
    for q in range(n):
        if q != s:
            for i in range(st[SEAT + q, held]):
                work[W_COUNT + st[hands + q, i]] += 1
    for i in range(st[0, pile_n]):
        work[W_COUNT + st[PILES + pile, i]] += 1
    m = 0
    for k in range(KINDS):
        for _ in range(work[W_COUNT + k]):
            work[W_POOL + m] = k
            m += 1
    shuffle_work(key, work, W_POOL, m)
    j = W_POOL
    for q in range(n):
        if q != s:
            for i in range(st[SEAT + q, held]):
                st[hands + q, i] = work[j]
                j += 1
    for i in range(st[0, pile_n]):
        st[PILES + pile, i] = work[j]
        j += 1


@compiled
def determinise(wsp, s, bots, key, work):
    """One sample of what s cannot see (see the module's docstring), and a fresh game stream."""
    redraw_camps(wsp, s, key, work)
    rebuild_minds(wsp, s, bots)
    redeal(wsp, s, key, work, HAND, S_HAND_N, PILE_DECK, G_DECK_N)
    redeal(wsp, s, key, work, MHAND, S_MEET_N, PILE_MDECK, G_MDECK_N)
    st = state_at(wsp)
    words = stream(st)
    for k in range(4):
        words[k] = next_u64(key)


# ----------------------------------------------------------------------------------------- playing on
@compiled
def copy_game(src, dst):
    """The game's rows of one state into another (not the rules table, not the trace log)."""
    a = state_at(src)
    b = state_at(dst)
    for row in range(TB):
        for col in range(WIDTH):
            b[row, col] = a[row, col]


@compiled
def campaign(sp, c, vstats, venue):
    """Seat c's campaign turn (at ``venue``, or its bot's pick for -1), then the forced count if the
    pool ran dry (WI-END-4): one step of engine.play_game's loop."""
    st = state_at(sp)
    engine.campaign_turn(sp, c, vstats, venue)
    if st[0, G_ENDED] == 0 and st[0, G_POOL] == 0:
        engine.forced_count(sp)


@compiled
def rollout(sp, r0, c0, vstats):
    """The rest of a game by the scripted bots, from round r0 at seat c0's campaign turn:
    engine.play_game's loop (WI-ROUND-1, WI-ROUND-2, WI-HOSP-2, WI-END-4) entered mid-round."""
    st = state_at(sp)
    n = st[0, G_N]
    first = c0
    for r in range(r0, st[TB, R_ROUNDS] + 1):
        st[0, G_ROUND] = r
        if first == 0:
            engine.log_event(sp, E_ROUND, r, 0, 0)
        for c in range(first, n):
            if st[0, G_ENDED] != 0:
                break
            if st[SEAT + c, S_JAILED] != 0:
                continue
            if st[SEAT + c, S_HOSP] >= 0:  # WI-HOSP-2, WI-HOSP-6
                engine.hospital_skip(sp, c)
                continue
            campaign(sp, c, vstats, -1)
        first = 0
        if st[0, G_ENDED] != 0:
            break
    if st[0, G_ENDED] == 0:
        engine.forced_count(sp)


@compiled
def searched_venue(sp, c, r, rollouts, bots, wsp, rsp, key, work, seed, index, rvstats):
    """Seat c's venue at round r's campaign turn: the most rollouts won by its side (S_WON of c: its
    camp's election, or a politician's own win), the scripted pick on ties. Writes one trace
    event per venue (E_SEARCH)."""
    st = state_at(sp)
    roll = state_at(rsp)
    seed_search(key, seed, index, c, st[0, G_TURN] + 1)
    for v in range(6):
        work[W_WINS + v] = 0
    for _ in range(rollouts):
        copy_game(sp, wsp)
        determinise(wsp, c, bots, key, work)
        for v in range(6):
            copy_game(wsp, rsp)
            campaign(rsp, c, rvstats, v)
            rollout(rsp, r, c + 1, rvstats)
            work[W_WINS + v] += roll[SEAT + c, S_WON]
    best = pol.pick_venue(sp, c)
    for v in range(6):
        if work[W_WINS + v] > work[W_WINS + best]:
            best = v
    for v in range(6):
        engine.log_event(sp, E_SEARCH, c * 8 + v, work[W_WINS + v], rollouts)
    return best


@compiled
def searched_plan(sp, c, s, r, rollouts, bots, wsp, rsp, key, work, seed, index, rvstats):
    """Seat s's plan for seat c's campaign turn at round r (s is not the candidate): play its cards as
    its scripted bot would (PLAN_SCRIPTED) or hold them all this turn (PLAN_HOLD); the plan whose
    rollouts its side won more often, the scripted play on ties. The decision is taken before the
    candidate's venue is known (the candidate picks from a hand s cannot see). Writes one trace event
    per plan (E_PLAN)."""
    roll = state_at(rsp)
    seed_search(key, seed, index, s, state_at(sp)[0, G_TURN] + 1)
    for plan in range(PLANS):
        work[W_WINS + plan] = 0
    for _ in range(rollouts):
        copy_game(sp, wsp)
        determinise(wsp, s, bots, key, work)
        for plan in range(PLANS):
            copy_game(wsp, rsp)
            roll[SEAT + s, S_PLAN] = plan
            campaign(rsp, c, rvstats, -1)
            roll[SEAT + s, S_PLAN] = PLAN_SCRIPTED
            rollout(rsp, r, c + 1, rvstats)
            work[W_WINS + plan] += roll[SEAT + s, S_WON]
    best = PLAN_SCRIPTED
    for plan in range(PLANS):
        if work[W_WINS + plan] > work[W_WINS + best]:
            best = plan
        engine.log_event(sp, E_PLAN, s * 8 + plan, work[W_WINS + plan], rollouts)
    return best


@compiled
def searched_turn(sp, c, r, bots, searching, budget, plans, wsp, rsp, key, work, seed, index, rvstats):
    """The searched decisions before seat c's campaign turn: c's venue if its camp searches (-1: the
    scripted pick), and the plan of every other searching seat that can act (written to its S_PLAN,
    after all of them are chosen: no seat's choice reads another's). Returns (venue, decisions)."""
    st = state_at(sp)
    n = st[0, G_N]
    venue, decisions = -1, 0
    if searching[st[SEAT + c, S_CAMP]] != 0:
        venue = searched_venue(sp, c, r, budget[st[SEAT + c, S_CAMP]], bots, wsp, rsp, key, work, seed, index,
                               rvstats)
        decisions += 1
    for s in range(n):
        work[W_PLAN + s] = PLAN_SCRIPTED
        camp = st[SEAT + s, S_CAMP]
        if s != c and searching[camp] != 0 and plans[camp] > 1 and st[SEAT + s, S_JAILED] == 0 and (
                st[SEAT + s, S_HOSP] < 0):
            work[W_PLAN + s] = searched_plan(sp, c, s, r, budget[camp], bots, wsp, rsp, key, work, seed, index,
                                             rvstats)
            decisions += 1
    for s in range(n):
        st[SEAT + s, S_PLAN] = work[W_PLAN + s]
    return venue, decisions


@compiled
def play_searched(sp, deck0, mdeck0, bots, searching, budget, plans, vstats, wsp, rsp, key, work, seed, index,
                  rvstats):
    """One whole game as engine.play_game, the decisions of seats whose camp searches taken by
    ``searched_turn``; returns how many decisions were searched."""
    st = state_at(sp)
    engine.setup(sp, deck0, mdeck0, bots)
    n = st[0, G_N]
    decisions = 0
    for r in range(1, st[TB, R_ROUNDS] + 1):
        st[0, G_ROUND] = r
        engine.log_event(sp, E_ROUND, r, 0, 0)
        for c in range(n):
            if st[0, G_ENDED] != 0:
                break
            if st[SEAT + c, S_JAILED] != 0:
                continue
            if st[SEAT + c, S_HOSP] >= 0:  # WI-HOSP-2, WI-HOSP-6
                engine.hospital_skip(sp, c)
                continue
            venue, searched = searched_turn(sp, c, r, bots, searching, budget, plans, wsp, rsp, key, work, seed,
                                            index, rvstats)
            decisions += searched
            campaign(sp, c, vstats, venue)
            for s in range(n):
                st[SEAT + s, S_PLAN] = PLAN_SCRIPTED
        if st[0, G_ENDED] != 0:
            break
    if st[0, G_ENDED] == 0:
        engine.forced_count(sp)
    return decisions


@compiled
def search_batch(seed, start, count, deck0, mdeck0, bots, searching, budget, plans, cols, vstats, decisions, st,
                 world, roll, work, key, rvstats):
    """engine.play_batch with search: games start .. start+count-1, game i from game_stream(seed, i);
    ``world`` and ``roll`` are two more states (without a trace log) for the samples and rollouts."""
    sp = np.int64(st.ctypes.data)
    wsp = np.int64(world.ctypes.data)
    rsp = np.int64(roll.ctypes.data)
    for i in range(count):
        seed_stream(stream(st), seed, start + i)
        decisions[i] = play_searched(sp, deck0, mdeck0, bots, searching, budget, plans, vstats, wsp, rsp, key,
                                     work, seed, start + i, rvstats)
        engine.record(sp, cols, i)


# ----------------------------------------------------------------------------------------- the game's hooks
def split_policy(policy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(scripted bot per camp, whether the camp searches, its rollouts, its turn plans): a
    searching role's choices inside a campaign turn (which card, whom to target, votes) are its default
    scripted bot's. A policy of the bot indexes alone takes the default options."""
    from sim.games.wonderful_island import GAME

    policy = np.asarray(policy, dtype=np.int64)
    roles = len(GAME.roles)
    counts = np.array([len(GAME.bots[role]) for role in GAME.roles], dtype=np.int64)
    searching = (policy[:roles] == counts).astype(np.int64)
    bots = np.where(searching == 1, counts - 1, policy[:roles])
    if policy.shape[0] > roles:
        options = GAME.search_options(policy)
    else:
        options = np.tile(np.array(list(SEARCH_BOT.defaults.values()), dtype=np.int64), (roles, 1))
    return bots, searching, options[:, 0].copy(), options[:, 1].copy()


def run_search(rules, policy: np.ndarray, seed: int, start: int, count: int, log_events: int = 0):
    """Play a batch with search; returns (rows [count, O_SIZE], venue stats, log, searched decisions per game)."""
    bots, searching, budget, plans = split_policy(policy)
    T, deck0, mdeck0 = engine.pack(rules)
    cols = np.empty((engine.O_SIZE, count), dtype=np.int64)
    vstats = np.zeros((6, 3, 3), dtype=np.int64)
    decisions = np.zeros(count, dtype=np.int64)
    st = new_state(T, log_events)
    world, roll = new_state(T), new_state(T)
    search_batch(np.uint64(seed), np.int64(start), np.int64(count), deck0, mdeck0, bots, searching, budget, plans,
                 cols, vstats, decisions, st, world, roll, np.zeros(WORK, dtype=np.int64), np.zeros(4, dtype=np.uint64),
                 np.zeros((6, 3, 3), dtype=np.int64))
    return cols.T, vstats, st[st[TB, R_LOG0]:].reshape(-1), decisions


def play(rules, policy: np.ndarray, seed: int, start: int, count: int) -> Chunk:
    """GameSpec.play: the ordinary batch unless a role plays search; then the search batch, with the
    int64 column ``search_decisions`` (decisions searched per game: venues and turn plans)."""
    searching = split_policy(policy)[1]
    if not searching.any():
        return analysis.play(rules, policy, seed, start, count)
    rows, vstats, _, decisions = run_search(rules, policy, seed, start, count)
    chunk = analysis.rows_to_chunk(rows, vstats, start)
    chunk.games["search_decisions"] = decisions
    return chunk


def describe(rules, log: np.ndarray) -> list[str]:
    """analysis.describe, with a line per candidate searched (a venue, or a turn plan of a seat that is
    not the candidate): its estimated value (rollouts won by the seat's side) and n."""
    events = log.reshape(-1, 4)
    lines: list[str] = []
    first = 0
    for i, (code, a, b, c) in enumerate(events.tolist()):
        if code < 0:
            break
        if code == E_SEARCH or code == E_PLAN:
            lines += analysis.describe(rules, events[first:i].ravel())
            first = i + 1
            what = f"{VENUES[a % 8]} {VENUE_NAMES[a % 8]}" if code == E_SEARCH else f"plan: {PLAN_NAMES[a % 8]}"
            lines.append(f"   search seat {a // 8}: {what} value {b / c:.3f} (won {b} of n={c})")
    return lines + analysis.describe(rules, events[first:].ravel())


def trace(rules, policy: np.ndarray, seed: int, index: int) -> Trace:
    """GameSpec.trace: one game, with each searched decision's candidates when a role plays search."""
    searching = split_policy(policy)[1]
    if not searching.any():
        return analysis.trace(rules, policy, seed, index)
    rows, vstats, log, decisions = run_search(rules, policy, seed, index, 1, log_events=30_000)
    chunk = analysis.rows_to_chunk(rows, vstats, index)
    chunk.games["search_decisions"] = decisions
    return Trace(describe(rules, log), chunk)
