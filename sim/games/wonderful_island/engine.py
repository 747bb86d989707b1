"""The batch engine of The Wonderful Island: one game's rules compiled with numba, looped over a batch.

Game ``i`` of the run with seed ``s`` draws from ``game_stream(s, i)`` alone. The same compiled
``play_game`` plays batches (an empty log) and writes traces (a log buffer). Docstrings cite the
rule IDs of docs/rules/wonderful-island.md. The state layout is in :mod:`.state`, the bots'
choices in :mod:`.policies`, the catalogue tables in :mod:`.catalogue`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from sim.core.rng import below, randbelow, seed_stream
from sim.games.wonderful_island import policies as pol
from sim.games.wonderful_island.catalogue import (
    C_A1,
    C_P1,
    C_T1,
    C_TIMING,
    C_TYPE,
    CARD_COLS,
    CH_SCORE,
    CH_WIN,
    CH_WIN_AMT,
    CHAR_COLS,
    M_AMT,
    M_CAMP,
    M_PRIM,
    M_TGT,
    MEET_COLS,
    S_AMT,
    S_PRIM,
    S_TGT,
    S_TRIG,
    S_VENUE,
    SKILL_COLS,
    load_catalogue,
)
from sim.games.wonderful_island.rules import RULE_ROW
from sim.games.wonderful_island.state import (
    BLUE,
    BOT_POLITICIAN,
    BOT_RANDOM,
    CARD0,
    DEBATE_TURNED_OVER,
    DEBATE_WILLING,
    E_CAMPAIGN,
    E_CANCEL,
    E_DEBATE,
    E_DEBATE_ASK,
    E_DICE,
    E_DISCARD,
    E_DRAW,
    E_EFFECT,
    E_END,
    E_HOSP_OUT,
    E_HOSPITAL,
    E_ISSUE,
    E_JAIL,
    E_LEGISLATURE,
    E_MEETING,
    E_PLAY,
    E_POACH,
    E_REACT,
    E_RESOLVE,
    E_ROUND,
    E_SEAT,
    E_SETTLE,
    E_SKILL,
    E_SKIP,
    E_THRESHOLD,
    E_TRADE,
    E_TURN,
    E_VENUE,
    E_VOTE_SPLIT,
    E_WIN,
    END_FORCED,
    END_LAST_OUT,
    END_POLITICIAN,
    END_THRESHOLD,
    EVENTS_PER_ROW,
    FORCE_ACCEPT,
    FORCE_DECLINE,
    FORCE_OWN,
    G_CAND,
    G_DECK_N,
    G_DELTA,
    G_DISC_N,
    G_END_REASON,
    G_ENDED,
    G_EXTRA_SUP,
    G_FORCED_ANSWER,
    G_FORCED_CAND,
    G_FORCED_OWN,
    G_FORCED_SUPPORT,
    G_HOSPS,
    G_IRON_GONE,
    G_IRON_LEFT,
    G_JAILS,
    G_LOG_N,
    G_MDECK_N,
    G_MEET_USED,
    G_N,
    G_POOL,
    G_REMOVED,
    G_ROUND,
    G_SETTLING,
    G_SIZE,
    G_SLOT_N,
    G_SPARED_HOSPS,
    G_SPARED_JAILS,
    G_THRESH,
    G_THRESH_RAISED,
    G_TURN,
    G_VENUE,
    GRASSROOTS,
    GREEN,
    HAND,
    HMAX,
    LEGISLATURE,
    MAX_PLAYERS,
    MHAND,
    MHMAX,
    OBSTRUCTION,
    P_CLEAR,
    P_DISCARD,
    P_DRAW,
    P_HOSPITAL,
    P_IRON,
    P_MOVE,
    P_NONE,
    P_PEEK,
    P_SUBPOENA,
    P_SUPPORT,
    P_VOTES,
    PILE_DECK,
    PILE_DISC,
    PILE_MDECK,
    PILE_SLOT_CARD,
    PILE_SLOT_OWNER,
    PILES,
    POACHING,
    POLITICIAN,
    R_ACTION_KINDS,
    R_BLUE,
    R_CHAR0,
    R_CHARS_DEALT,
    R_DEB_WALK,
    R_DEB_WIN,
    R_DICE,
    R_DRAW,
    R_FORCE_ANSWER,
    R_FORCE_CHAR,
    R_FORCE_DEBATER,
    R_FORCE_SEAT,
    R_FORCE_TURN,
    R_FORCE_VENUE,
    R_GRASS,
    R_GREEN,
    R_HAND,
    R_HOSTILE_KINDS,
    R_IRON,
    R_JAIL,
    R_LEG,
    R_LIMIT,
    R_LOG0,
    R_LOG_END,
    R_MEET,
    R_MEET0,
    R_MEET_FEWER,
    R_MEET_REMOVE,
    R_PLAYERS,
    R_POOL,
    R_RALLY,
    R_REACTIVE_KINDS,
    R_RESPONSE_KINDS,
    R_ROUNDS,
    R_SLOT_KINDS,
    R_SLOTS,
    R_SPARE_HOSP,
    R_SPARE_JAIL,
    R_START,
    R_SUP_PER,
    R_THRESH,
    R_TRADE,
    RALLY,
    S_BELIEF,
    S_BOT,
    S_CAMP,
    S_CHAR,
    S_DEBATER,
    S_HAND_N,
    S_HOSP,
    S_HOSP_EVER,
    S_IRON,
    S_JAILED,
    S_KNOWN,
    S_MEET_N,
    S_PLAYED,
    S_SIDE,
    S_SIZE,
    S_SUBP,
    S_SUSPECTS,
    S_VOTES,
    S_WON,
    SEAT,
    SKIP_ACTION,
    SKIP_CAMPAIGN,
    SKIP_DEBATE,
    STRATEGY,
    STREET_SWEEP,
    SUPPORT,
    T_ACTION,
    T_REACTIVE,
    T_RESPONSE,
    T_WIDTH,
    TB,
    TG_CANDIDATE,
    TG_OTHERS,
    TG_SELF,
    TG_SENDER,
    TG_VENUE_OBSTRUCTION,
    TG_VENUE_SUPPORT,
    TMP,
    TMP_BOUGHT,
    TMP_CAMPS,
    TMP_DICE,
    TMP_ISSUE,
    TMP_LAID,
    TMP_ORDER,
    TMP_PICKS,
    TMP_USED,
    TMP_WILLING,
    TR_HOSPITALIZED,
    TR_OTHERS_CAMPAIGN,
    TR_OWN_CAMPAIGN,
    TR_SUBPOENAED,
    TR_TURN_START,
    TV_DEBATE,
    W_CAMP,
    W_HAND,
    W_IRON,
    W_JAILED,
    W_VOTES,
    character_row,
    compiled,
    inlined,
    new_state,
    state_at,
    stream,
)

# per-game output columns
(O_WIN_BLUE, O_WIN_GREEN, O_WIN_POL, O_END, O_ROUNDS, O_JAILS, O_HOSPS, O_RAISES, O_TURNS, O_POOL,
 O_REMOVED, O_IRON_GONE, O_IRON_LEFT) = range(13)
O_SEAT = 13
SEAT_FIELDS = ("camp", "char", "won", "played", "votes", "iron", "jailed", "subpoenas", "hospital")
O_SIZE = O_SEAT + MAX_PLAYERS * len(SEAT_FIELDS)
NSF = len(SEAT_FIELDS)


# ----------------------------------------------------------------------------------------- helpers
@compiled
def log_event(sp, code, a, b, c):
    """A trace event (code, a, b, c) in the log rows of ``st``; nothing when not tracing."""
    st = state_at(sp)
    log0, log_end = st[TB, R_LOG0], st[TB, R_LOG_END]
    if log_end == log0:
        return
    i = st[0, G_LOG_N]
    row, col = log0 + i // EVENTS_PER_ROW, 4 * (i % EVENTS_PER_ROW)
    if row < log_end:
        st[row, col] = code
        st[row, col + 1] = a
        st[row, col + 2] = b
        st[row, col + 3] = c
        st[0, G_LOG_N] = i + 1


@compiled
def shuffle_row(sp, row, n):
    """Fisher-Yates shuffle of ``st[row, :n]`` in place (the draws of sim.core.rng.shuffle)."""
    st = state_at(sp)
    for i in range(n - 1, 0, -1):
        j = randbelow(stream(st), i + 1)
        st[row, i], st[row, j] = st[row, j], st[row, i]


@compiled
def seat_after(c, j, n):
    """The seat j places after seat c (0 <= j <= n) in turn order, without a division."""
    q = c + j
    return q - n if q >= n else q


@compiled
def clear_row(sp, row, n, value):
    """``st[row, :n] = value``: a work row made ready for one step."""
    st = state_at(sp)
    for i in range(n):
        st[row, i] = value


@compiled
def active_count(sp):
    st = state_at(sp)
    count = 0
    for p in range(st[0, G_N]):
        if st[SEAT + p, S_JAILED] == 0:
            count += 1
    return count


@inlined
def draw_one(sp):
    """A card drawn from the draw pile (WI-SETUP-4, WI-SETTLE-4). The pile is kept unordered and each
    draw takes a uniformly random remaining card: the same distribution as the top card of a shuffled
    pile, with one random number per card drawn instead of a shuffle. An empty pile is rebuilt from
    the discards (WI-SETUP-8), which need no shuffle for the same reason."""
    st = state_at(sp)
    n = st[0, G_DECK_N]
    if n == 0:
        n = st[0, G_DISC_N]
        if n == 0:
            return -1
        for i in range(n):
            st[PILES + PILE_DECK, i] = st[PILES + PILE_DISC, i]
        st[0, G_DISC_N] = 0
    j = below(stream(st), n)
    k = st[PILES + PILE_DECK, j]
    st[PILES + PILE_DECK, j] = st[PILES + PILE_DECK, n - 1]
    st[0, G_DECK_N] = n - 1
    return k


@compiled
def to_discard(sp, k):
    st = state_at(sp)
    st[PILES + PILE_DISC, st[0, G_DISC_N]] = k
    st[0, G_DISC_N] += 1


@compiled
def draw_cards(sp, p, n):
    """Draw n cards into p's hand (WI-TURN-2); a hospitalised player draws nothing (WI-HOSP-3)."""
    st = state_at(sp)
    if st[SEAT + p, S_HOSP] >= 0 or st[SEAT + p, S_JAILED] != 0:
        return
    got = 0
    for _ in range(n):
        k = draw_one(sp)
        if k < 0:
            break
        if st[SEAT + p, S_HAND_N] < HMAX:
            st[HAND + p, st[SEAT + p, S_HAND_N]] = k
            st[SEAT + p, S_HAND_N] += 1
        else:
            to_discard(sp, k)
        got += 1
    log_event(sp, E_DRAW, p, got, 0)


@compiled
def take_from_hand(sp, p, i):
    """Remove hand card i of p and return its kind."""
    st = state_at(sp)
    last = st[SEAT + p, S_HAND_N] - 1
    k = st[HAND + p, i]
    st[HAND + p, i] = st[HAND + p, last]
    st[SEAT + p, S_HAND_N] = last
    return k


@compiled
def discard_cards(sp, p, n):
    """p loses n cards of its choice to the discard pile (WI-SETTLE-4)."""
    st = state_at(sp)
    lost = 0
    for _ in range(n):
        if st[SEAT + p, S_HAND_N] == 0:
            break
        i = pol.discard_index(sp, p)
        to_discard(sp, take_from_hand(sp, p, i))
        lost += 1
    if lost:
        log_event(sp, E_DISCARD, p, lost, 0)


@compiled
def mark_played(sp, p, k):
    st = state_at(sp)
    st[SEAT + p, S_PLAYED] |= np.int64(1) << np.int64(k)


# ----------------------------------------------------------------------------------------- votes
@compiled
def gain_votes(sp, p, n):
    """p takes up to n votes from the pool (WI-SETTLE-3)."""
    st = state_at(sp)
    take = min(n, st[0, G_POOL])
    st[SEAT + p, S_VOTES] += take
    st[0, G_POOL] -= take
    return take


@compiled
def lose_votes(sp, p, n):
    """p returns up to n plain votes to the pool, never going below zero (WI-LOSS-1, WI-SETTLE-5)."""
    st = state_at(sp)
    take = min(n, st[SEAT + p, S_VOTES])
    st[SEAT + p, S_VOTES] -= take
    st[0, G_POOL] += take
    return take


@compiled
def gain_iron(sp, p, n):
    """p takes up to n iron votes; as many plain votes leave the pool and the game (WI-IRON-1)."""
    st = state_at(sp)
    take = min(n, st[0, G_IRON_LEFT], st[0, G_POOL])
    st[SEAT + p, S_IRON] += take
    st[0, G_IRON_LEFT] -= take
    st[0, G_POOL] -= take
    st[0, G_REMOVED] += take
    return take


@compiled
def move_votes(sp, frm, to, n):
    """A transfer between players, not a loss: nothing goes back to the pool (WI-LOSS-2)."""
    st = state_at(sp)
    take = min(n, st[SEAT + frm, S_VOTES])
    st[SEAT + frm, S_VOTES] -= take
    st[SEAT + to, S_VOTES] += take
    return take


@compiled
def change_votes(sp, p, amount):
    """Votes won or lost; during settlement the candidate's changes are summed first (WI-SETTLE-1)."""
    st = state_at(sp)
    if st[0, G_SETTLING] != 0 and p == st[0, G_CAND]:
        st[0, G_DELTA] += amount
    elif amount > 0:
        gain_votes(sp, p, amount)
    else:
        lose_votes(sp, p, -amount)


# ----------------------------------------------------------------------------------------- jail, hospital
@compiled
def jail(sp, p):
    """Third subpoena: jail at once; all votes leave the game (WI-SUBP-2, WI-JAIL-1)."""
    st = state_at(sp)
    st[SEAT + p, S_JAILED] = 1
    st[0, G_REMOVED] += st[SEAT + p, S_VOTES]
    st[0, G_IRON_GONE] += st[SEAT + p, S_IRON]
    st[SEAT + p, S_VOTES] = 0
    st[SEAT + p, S_IRON] = 0
    st[SEAT + p, S_HOSP] = -1  # S_DEBATER stays: a willing debater jailed mid-turn was willing (WI-V-DEBATE-3)
    for i in range(st[SEAT + p, S_HAND_N]):
        to_discard(sp, st[HAND + p, i])
    st[SEAT + p, S_HAND_N] = 0
    for i in range(st[SEAT + p, S_MEET_N]):
        st[PILES + PILE_MDECK, st[0, G_MDECK_N]] = st[MHAND + p, i]
        st[0, G_MDECK_N] += 1
    st[SEAT + p, S_MEET_N] = 0
    st[0, G_JAILS] += 1
    log_event(sp, E_JAIL, p, 0, 0)


@compiled
def add_subpoenas(sp, p, n):
    """WI-SUBP-1, WI-SUBP-2: subpoena tokens on p's character; the jail count sends p to jail."""
    st = state_at(sp)
    limit = st[TB, R_JAIL]
    st[SEAT + p, S_SUBP] = min(limit, st[SEAT + p, S_SUBP] + n)
    if st[SEAT + p, S_SUBP] >= limit:
        if st[0, G_SPARED_JAILS] < st[TB, R_SPARE_JAIL]:  # a paired re-run without this jailing (never
            st[0, G_SPARED_JAILS] += 1                   # in ordinary runs: R_SPARE_JAIL is 0)
            st[SEAT + p, S_SUBP] = limit - 1
            return
        jail(sp, p)


@compiled
def hospitalise(sp, p):
    """WI-HOSP-1: p's character is turned over until another player completes a campaign turn."""
    st = state_at(sp)
    if st[0, G_SPARED_HOSPS] < st[TB, R_SPARE_HOSP]:  # a paired re-run without this stay (never in ordinary runs)
        st[0, G_SPARED_HOSPS] += 1
        return
    st[SEAT + p, S_HOSP] = st[0, G_TURN]
    st[SEAT + p, S_HOSP_EVER] = 1
    st[0, G_HOSPS] += 1
    log_event(sp, E_HOSPITAL, p, 0, 0)


@compiled
def learn_camp(sp, o, q):
    """o sees q's camp card (a peek or a meeting's answer)."""
    st = state_at(sp)
    st[SEAT + o, S_KNOWN] |= np.int64(1) << np.int64(q)
    st[SEAT + o, S_SUSPECTS] &= ~(np.int64(1) << np.int64(q))
    if st[SEAT + o, S_SIDE] >= 0:
        st[SEAT + o, S_BELIEF + q] = 1000 if st[SEAT + q, S_CAMP] == st[SEAT + o, S_SIDE] else 0


@inlined
def observe(sp, actor, toward, friendly):
    """Everyone with a side revises its belief about ``actor`` after it helped or hurt ``toward``
    (not the actor itself, nor a player in jail or who knows the actor's camp). Written without
    branches in the loop: every belief is rewritten, unchanged where it is not revised."""
    st = state_at(sp)
    if actor == toward:
        return
    for o in range(st[0, G_N]):
        belief = st[SEAT + o, S_BELIEF + actor]
        ref = 1000 if o == toward else st[SEAT + o, S_BELIEF + toward]
        aim = ref if friendly else 1000 - ref
        revised = (2 * belief + aim) // 3
        keep = (o == actor) | (st[SEAT + o, S_SIDE] < 0) | (st[SEAT + o, S_JAILED] != 0) | (
            (st[SEAT + o, S_KNOWN] >> actor) & 1 != 0)
        st[SEAT + o, S_BELIEF + actor] = belief if keep else revised


# ----------------------------------------------------------------------------------------- effects
@compiled
def apply_primitive(sp, prim, amount, actor, target):
    """One effect primitive of a card, skill or meeting card (no skills triggered here). Inlined into
    its three callers: a card's effect takes one call (apply_effect) instead of two."""
    st = state_at(sp)
    if target < 0 or st[SEAT + target, S_JAILED] != 0 or prim == P_NONE:
        return
    log_event(sp, E_EFFECT, target, prim, amount)
    if prim == P_VOTES:
        change_votes(sp, target, amount)
    elif prim == P_IRON:
        gain_iron(sp, target, amount)
    elif prim == P_SUBPOENA:
        add_subpoenas(sp, target, amount)
    elif prim == P_CLEAR:
        st[SEAT + target, S_SUBP] = max(0, st[SEAT + target, S_SUBP] - amount)
    elif prim == P_HOSPITAL:
        hospitalise(sp, target)
    elif prim == P_DRAW:
        draw_cards(sp, target, amount)
    elif prim == P_DISCARD:
        discard_cards(sp, target, amount)
    elif prim == P_MOVE:
        if target != actor:
            move_votes(sp, target, actor, amount)
    elif prim == P_PEEK:
        learn_camp(sp, actor, target)
    elif prim == P_SUPPORT:
        st[0, G_EXTRA_SUP] += amount


@inlined
def has_skill(sp, p, trigger):
    """Whether p's character has a skill with this trigger (most have none for a given trigger)."""
    st = state_at(sp)
    row = character_row(sp, p)
    return (st[row, S_TRIG] == trigger or st[row, SKILL_COLS + S_TRIG] == trigger
            or st[row, 2 * SKILL_COLS + S_TRIG] == trigger)


@compiled
def fire_skills(sp, p, trigger, venue):
    """WI-SKILL-2, WI-SKILL-3: p's skills with this trigger. Active ones are optional and need p out of
    hospital; the forced one always fires, in hospital too (WI-HOSP-4). Not cancellable."""
    st = state_at(sp)
    if st[SEAT + p, S_JAILED] != 0:
        return
    character = character_row(sp, p)
    for s in range(3):
        base = s * SKILL_COLS
        if st[character, base + S_TRIG] != trigger:
            continue
        want_venue = st[character, base + S_VENUE]
        if want_venue >= 0 and want_venue != venue:
            continue
        prim, amount, kind = st[character, base + S_PRIM], st[character, base + S_AMT], st[character, base + S_TGT]
        if s < 2:
            if st[SEAT + p, S_HOSP] >= 0:
                continue
            target = pol.skill_target(sp, p, prim, amount, kind)
        elif kind == TG_SELF:
            target = p
        elif kind == TG_CANDIDATE:
            target = st[0, G_CAND]
        else:
            target = pol.hostile_target(sp, p, prim)
            if target < 0:
                target = pol.random_other(sp, p, st[0, G_N], False)
        if kind == TG_OTHERS:
            if s < 2 and target < 0:
                continue
            log_event(sp, E_SKILL, p, s, prim)
            for q in range(st[0, G_N]):
                if q != p:
                    apply_effect(sp, prim, amount, p, q, True)
            continue
        if target < 0:
            continue
        log_event(sp, E_SKILL, p, s, prim)
        apply_effect(sp, prim, amount, p, target, True)


@compiled
def apply_effect(sp, prim, amount, actor, target, triggers):
    """An effect, then (when ``triggers``) the target's skills triggered by a subpoena or hospital."""
    st = state_at(sp)
    apply_primitive(sp, prim, amount, actor, target)
    if not triggers or target < 0 or st[SEAT + target, S_JAILED] != 0:
        return
    if prim == P_SUBPOENA and has_skill(sp, target, TR_SUBPOENAED):
        fire_reactions(sp, target, TR_SUBPOENAED)
    elif prim == P_HOSPITAL and has_skill(sp, target, TR_HOSPITALIZED):
        fire_reactions(sp, target, TR_HOSPITALIZED)


@compiled
def fire_reactions(sp, p, trigger):
    """Skills triggered by a subpoena or a hospital stay; their own effects trigger nothing more."""
    st = state_at(sp)
    character = character_row(sp, p)
    for s in range(3):
        base = s * SKILL_COLS
        if st[character, base + S_TRIG] != trigger:
            continue
        if s < 2 and st[SEAT + p, S_HOSP] >= 0:
            continue
        prim, amount, kind = st[character, base + S_PRIM], st[character, base + S_AMT], st[character, base + S_TGT]
        target = p if kind == TG_SELF else pol.hostile_target(sp, p, prim)
        if s < 2 and kind == TG_SELF and not pol.self_benefit(sp, p, prim, amount):
            continue
        if target >= 0:
            log_event(sp, E_SKILL, p, s, prim)
            apply_primitive(sp, prim, amount, p, target)


def card_is_hostile(row) -> bool:
    """Whether a catalogue card row has a hostile effect (WI-CARD-5: what a response card may cancel)."""
    return bool(pol.hostile_primitive(row[C_P1], row[C_A1]) or pol.hostile_primitive(row[C_P1 + 3], row[C_A1 + 3])
                or row[C_T1] == TG_VENUE_SUPPORT)


@inlined
def try_cancel(sp, victim, actor, k):
    """WI-CARD-5 (沙盤推演): the victim of a hostile card may cancel it with a response card."""
    st = state_at(sp)
    if victim == actor or st[SEAT + victim, S_JAILED] != 0 or st[SEAT + victim, S_HOSP] >= 0:
        return False
    for i in range(st[SEAT + victim, S_HAND_N]):
        r = st[HAND + victim, i]
        if (st[TB, R_RESPONSE_KINDS] >> r) & 1:
            if not pol.wants_cancel(sp, victim, actor):
                return False
            to_discard(sp, take_from_hand(sp, victim, i))
            mark_played(sp, victim, r)
            log_event(sp, E_CANCEL, victim, r, k)
            return True
    return False


@compiled
def card_effects(sp, k, actor, target):
    """Both effects of card k played by actor; ``target`` is the chosen/candidate player."""
    st = state_at(sp)
    for e in range(2):
        prim, amount, kind = st[TB + CARD0 + k, C_P1 + 3 * e], st[TB + CARD0 + k, C_A1 + 3 * e], st[TB + CARD0 + k, C_T1 + 3 * e]
        if prim == P_NONE:
            continue
        if kind == TG_SELF:
            apply_effect(sp, prim, amount, actor, actor, True)
        elif kind == TG_OTHERS:
            for q in range(st[0, G_N]):
                if q != actor:
                    apply_effect(sp, prim, amount, actor, q, True)
        elif kind == TG_VENUE_SUPPORT or kind == TG_VENUE_OBSTRUCTION:
            remove_slot_card(sp, SUPPORT if kind == TG_VENUE_SUPPORT else OBSTRUCTION)
        else:
            apply_effect(sp, prim, amount, actor, target, True)


@compiled
def remove_slot_card(sp, card_type):
    """離間 / 轉移焦點: the first card of this type on the venue goes to the discard pile."""
    st = state_at(sp)
    for s in range(st[0, G_SLOT_N]):
        k = st[PILES + PILE_SLOT_CARD, s]
        if k >= 0 and st[TB + CARD0 + k, C_TYPE] == card_type:
            to_discard(sp, k)
            st[PILES + PILE_SLOT_CARD, s] = -1
            return


@compiled
def slot_has(sp, card_type):
    """Whether a card of this type is on the venue (a removed card's slot reads -1): no branch per slot."""
    st = state_at(sp)
    found = False
    for s in range(st[0, G_SLOT_N]):
        k = st[PILES + PILE_SLOT_CARD, s]
        found |= (k >= 0) & (st[TB + CARD0 + max(k, 0), C_TYPE] == card_type)
    return found


# ----------------------------------------------------------------------------------------- meetings
@compiled
def pass_meeting(sp, s, j, q):
    """WI-CARD-4: s passes meeting card j face down to q; q carries it out if of the camp asked;
    the card goes back into the meeting pile, shuffled (WI-MEET-1), or out of the game (WI-MEET-3)."""
    st = state_at(sp)
    m = st[MHAND + s, j]
    last = st[SEAT + s, S_MEET_N] - 1
    st[MHAND + s, j] = st[MHAND + s, last]
    st[SEAT + s, S_MEET_N] = last
    meeting = TB + st[TB, R_MEET0] + m  # its row of the table
    asked = st[meeting, M_CAMP]
    yes = st[SEAT + q, S_CAMP] == asked
    log_event(sp, E_MEETING, s, q, m * 2 + (1 if yes else 0))
    if yes:
        prim, amount = st[meeting, M_PRIM], st[meeting, M_AMT]
        if st[meeting, M_TGT] == TG_SENDER:
            if prim == P_MOVE:
                move_votes(sp, q, s, amount)
            elif prim == P_PEEK:
                learn_camp(sp, s, q)
            else:
                apply_primitive(sp, prim, amount, q, s)
        else:
            apply_primitive(sp, prim, amount, s, q)
    side = st[SEAT + s, S_SIDE]
    if side >= 0 and not (st[SEAT + s, S_KNOWN] >> q) & 1:
        if asked == side or yes:
            st[SEAT + s, S_KNOWN] |= np.int64(1) << np.int64(q)
            st[SEAT + s, S_SUSPECTS] &= ~(np.int64(1) << np.int64(q))
            st[SEAT + s, S_BELIEF + q] = 1000 if yes and asked == side else 0
        else:
            others = st[TB, R_BLUE + asked] - (1 if st[SEAT + s, S_CAMP] == asked else 0)
            p_asked = 1000 * others // max(1, st[0, G_N] - 1)
            if p_asked < 1000:
                st[SEAT + s, S_BELIEF + q] = min(999, st[SEAT + s, S_BELIEF + q] * 1000 // (1000 - p_asked))
    st[0, G_MEET_USED] += 1
    if st[TB, R_MEET_REMOVE] == 0:
        st[PILES + PILE_MDECK, st[0, G_MDECK_N]] = m
        st[0, G_MDECK_N] += 1  # reshuffled: cards are taken at random (take_meeting_card)


@compiled
def take_meeting_card(sp, p):
    """p takes a meeting card: a uniformly random one of the pile (the pile is reshuffled after every
    use, WI-MEET-1, so any card of it is equally likely to be on top)."""
    st = state_at(sp)
    n = st[0, G_MDECK_N]
    if n == 0 or st[SEAT + p, S_MEET_N] >= MHMAX:
        return False
    j = below(stream(st), n)
    st[MHAND + p, st[SEAT + p, S_MEET_N]] = st[PILES + PILE_MDECK, j]
    st[PILES + PILE_MDECK, j] = st[PILES + PILE_MDECK, n - 1]
    st[0, G_MDECK_N] = n - 1
    st[SEAT + p, S_MEET_N] += 1
    return True


# ----------------------------------------------------------------------------------------- action turns
@compiled
def play_slot_card(sp, p, i):
    """WI-CARD-1, WI-CARD-2: a support or obstruction card goes into an empty venue slot."""
    st = state_at(sp)
    k = take_from_hand(sp, p, i)
    st[PILES + PILE_SLOT_CARD, st[0, G_SLOT_N]] = k
    st[PILES + PILE_SLOT_OWNER, st[0, G_SLOT_N]] = p
    st[0, G_SLOT_N] += 1
    mark_played(sp, p, k)
    log_event(sp, E_PLAY, p, k, st[0, G_CAND])
    observe(sp, p, st[0, G_CAND], st[TB + CARD0 + k, C_TYPE] == SUPPORT)


@compiled
def play_strategy_card(sp, p, i, target, code):
    """WI-CARD-3: a strategy card in front of the player, resolved at once, then discarded."""
    st = state_at(sp)
    k = take_from_hand(sp, p, i)
    mark_played(sp, p, k)
    log_event(sp, code, p, k, target)
    hostile = (st[TB, R_HOSTILE_KINDS] >> k) & 1 != 0
    if hostile and target != p:
        observe(sp, p, target, False)
        if try_cancel(sp, target, p, k):
            to_discard(sp, k)
            return
    elif target != p:
        observe(sp, p, target, True)
    card_effects(sp, k, p, target)
    to_discard(sp, k)


@inlined
def turn_over(sp):
    """The campaign turn stops: the game ended or the candidate went to jail (WI-JAIL-3)."""
    st = state_at(sp)
    return st[0, G_ENDED] != 0 or st[SEAT + st[0, G_CAND], S_JAILED] != 0


@compiled
def play_step(sp, p):
    """WI-TURN-3: play any number of cards: support/obstruction into slots, strategy in front,
    meeting cards passed face down; the reactive cards too (WI-TURN-6: they may 「仍可」 still be
    played at step E, so at step C as well). Only a card played changes the table, so whether the
    turn goes on is checked at the start and after each card played."""
    st = state_at(sp)
    slots = st[TB, R_SLOTS]
    slot_kinds, action_kinds, reactive_kinds = st[TB, R_SLOT_KINDS], st[TB, R_ACTION_KINDS], st[TB, R_REACTIVE_KINDS]
    for _ in range(2):
        played = False
        changed = True
        i = st[SEAT + p, S_HAND_N] - 1
        while i >= 0:
            if changed:
                if turn_over(sp) or st[SEAT + p, S_JAILED] != 0 or st[SEAT + p, S_HOSP] >= 0:
                    return
                if i >= st[SEAT + p, S_HAND_N]:
                    i = st[SEAT + p, S_HAND_N] - 1
                    continue
                changed = False
            k = st[HAND + p, i]
            bit = np.int64(1) << k
            if slot_kinds & bit:
                if st[0, G_SLOT_N] < slots and pol.slot_card_wanted(sp, p, k):
                    play_slot_card(sp, p, i)
                    played = changed = True
            elif action_kinds & bit:
                target = pol.action_card_target(sp, p, k, st[TB + CARD0 + k, C_T1])
                if target >= 0:
                    play_strategy_card(sp, p, i, target, E_PLAY)
                    played = changed = True
            elif reactive_kinds & bit and pol.reacts_at_action_step(sp, p):
                if pol.reactive_wanted(sp, p, k, slot_has(sp, SUPPORT), slot_has(sp, OBSTRUCTION)):
                    play_strategy_card(sp, p, i, st[0, G_CAND], E_PLAY)
                    played = changed = True
            i -= 1
        for j in range(st[SEAT + p, S_MEET_N] - 1, -1, -1):
            if turn_over(sp):
                return
            q = pol.meeting_target(sp, p)
            if q >= 0:
                pass_meeting(sp, p, j, q)
            elif st[SEAT + p, S_BOT] != BOT_RANDOM:
                break  # a bot without coins gives the same answer for its other cards
        if not played:
            return


@compiled
def discard_step(sp, p):
    """WI-TURN-5: down to the hand limit; WI-MEET-2: three of those cards may buy a meeting card."""
    st = state_at(sp)
    limit, trade = st[TB, R_LIMIT], st[TB, R_TRADE]
    if st[SEAT + p, S_HAND_N] - limit >= trade and st[0, G_MDECK_N] > 0 and pol.wants_trade(sp, p):
        discard_cards(sp, p, trade)
        take_meeting_card(sp, p)
        log_event(sp, E_TRADE, p, trade, 0)
    excess = st[SEAT + p, S_HAND_N] - limit
    if excess > 0:
        discard_cards(sp, p, excess)


@compiled
def action_turn(sp, p, extra_draw):
    """WI-TURN-1, WI-TURN-2, WI-TURN-3, WI-TURN-4, WI-TURN-5: turn start (skills), draw 2, play cards, discard
    to 5."""
    st = state_at(sp)
    log_event(sp, E_TURN, p, 0, 0)
    if has_skill(sp, p, TR_TURN_START):
        fire_skills(sp, p, TR_TURN_START, st[0, G_VENUE])
    if turn_over(sp):
        return
    draw_cards(sp, p, st[TB, R_DRAW] + extra_draw)
    play_step(sp, p)
    if st[SEAT + p, S_JAILED] == 0 and st[SEAT + p, S_HOSP] < 0:
        discard_step(sp, p)


@compiled
def reactive_phase(sp, c):
    """WI-TURN-6: after the candidate ends the action phase, the others may play reactive cards
    (only a card played can end the campaign turn or change the venue's slots, so those are
    checked again after each)."""
    st = state_at(sp)
    n = st[0, G_N]
    reactive = st[TB, R_REACTIVE_KINDS]
    has_support, has_obstruction = slot_has(sp, SUPPORT), slot_has(sp, OBSTRUCTION)
    for j in range(1, n):
        p = seat_after(c, j, n)
        if st[SEAT + p, S_JAILED] != 0 or st[SEAT + p, S_HOSP] >= 0:
            continue
        for i in range(st[SEAT + p, S_HAND_N] - 1, -1, -1):
            if i >= st[SEAT + p, S_HAND_N]:
                continue
            k = st[HAND + p, i]
            if not (reactive >> k) & 1:
                continue
            if pol.reactive_wanted(sp, p, k, has_support, has_obstruction):
                play_strategy_card(sp, p, i, c, E_REACT)
                if turn_over(sp):
                    return
                has_support, has_obstruction = slot_has(sp, SUPPORT), slot_has(sp, OBSTRUCTION)


# ----------------------------------------------------------------------------------------- venues
@compiled
def sweep_pair_value(a, b):
    """WI-V-SWEEP-1, WI-V-SWEEP-2: the difference of two dice; doubles give the single die's value."""
    return a if a == b else abs(a - b)


@compiled
def sweep_best(dice, k):
    """WI-V-SWEEP-3: the best pair among k dice."""
    best = 0
    for i in range(k):
        for j in range(i + 1, k):
            v = sweep_pair_value(dice[i], dice[j])
            if v > best:
                best = v
    return best


@compiled
def street_sweep(sp, c, bonus):
    """WI-V-SWEEP-1, WI-V-SWEEP-2, WI-V-SWEEP-3: two dice, one more per support step (up to the dice in the
    box)."""
    st = state_at(sp)
    k = min(st[TB, R_DICE], 2 + bonus)
    dice = st[TMP + TMP_DICE]
    clear_row(sp, TMP + TMP_DICE, 6, 0)
    for i in range(k):
        dice[i] = randbelow(stream(st), 6) + 1
    log_event(sp, E_DICE, dice[0], dice[1], dice[2] if k > 2 else 0)
    votes = sweep_best(dice, k)
    change_votes(sp, c, votes)
    return votes


@compiled
def legislature(sp, c, bonus):
    """WI-V-LEG-1, WI-V-LEG-2, WI-V-LEG-4: show of hands after coordination; at least half of the players in
    the game
    pass the bill and the candidate shares out 3 votes (one to each voter it bought)."""
    st = state_at(sp)
    n = st[0, G_N]
    share = st[TB, R_LEG]
    voters = active_count(sp)
    yes = 1 + bonus
    willing, bought = st[TMP + TMP_WILLING], st[TMP + TMP_BOUGHT]
    clear_row(sp, TMP + TMP_WILLING, n, 0)
    clear_row(sp, TMP + TMP_BOUGHT, n, 0)
    for j in range(1, n):  # coordination: ask everyone first ...
        q = seat_after(c, j, n)
        if st[SEAT + q, S_JAILED] == 0 and pol.legislature_yes(sp, q, c):
            willing[q] = 1
            yes += 1
    offers = 0
    for j in range(1, n):  # ... then buy the missing hands, one vote each
        q = seat_after(c, j, n)
        if 2 * yes >= voters or offers >= share or not pol.legislature_offers(sp, c):
            break
        if st[SEAT + q, S_JAILED] == 0 and willing[q] == 0 and pol.accepts_offer(sp, q, c, share - offers):
            bought[q] = 1
            offers += 1
            yes += 1
    passed = 2 * yes >= voters
    log_event(sp, E_LEGISLATURE, yes, voters, 1 if passed else 0)
    if not passed:
        return 0
    own = share - offers
    for q in range(n):
        if bought[q]:
            gain_votes(sp, q, 1)
            log_event(sp, E_VOTE_SPLIT, q, 1, 0)
    if st[SEAT + c, S_BOT] == BOT_RANDOM:  # the random bot splits its votes uniformly
        kept = 0
        for _ in range(own):
            q = randbelow(stream(st), n)
            while st[SEAT + q, S_JAILED] != 0:
                q = randbelow(stream(st), n)
            if q == c:
                kept += 1
            else:
                gain_votes(sp, q, 1)
                log_event(sp, E_VOTE_SPLIT, q, 1, 0)
        own = kept
    receiver = pol.bill_receiver(sp, c, own) if st[SEAT + c, S_BOT] != BOT_RANDOM else c
    if receiver != c:  # the share elects an ally
        gain_votes(sp, receiver, own)
        log_event(sp, E_VOTE_SPLIT, receiver, own, 0)
        return 0
    change_votes(sp, c, own)
    log_event(sp, E_VOTE_SPLIT, c, own, 0)
    return own


@compiled
def poaching(sp, c, bonus):
    """WI-V-POACH-1, WI-V-POACH-2, WI-V-POACH-3, WI-V-POACH-4: extra draws per support step; the candidate
    lays cards, the target matches
    kind for kind as far as it can; the candidate takes the difference in plain votes."""
    st = state_at(sp)
    draw_cards(sp, c, bonus)
    q = pol.poach_target(sp, c)
    if q < 0:
        log_event(sp, E_POACH, -1, 0, 0)
        return 0
    laid = st[TMP + TMP_LAID]
    clear_row(sp, TMP + TMP_LAID, 3, 0)
    i = st[SEAT + c, S_HAND_N] - 1 if st[SEAT + c, S_HOSP] < 0 else -1  # WI-HOSP-5: no cards from hospital
    while i >= 0:
        if pol.poach_plays_card(sp, c):
            k = take_from_hand(sp, c, i)
            laid[st[TB + CARD0 + k, C_TYPE]] += 1
            to_discard(sp, k)
        i -= 1
    matched = 0
    if st[SEAT + q, S_HOSP] < 0 and pol.poach_resists(sp, q, c):  # WI-HOSP-5
        for t in range(3):
            need = laid[t]
            i = st[SEAT + q, S_HAND_N] - 1
            while i >= 0 and need > 0:
                if st[TB + CARD0 + st[HAND + q, i], C_TYPE] == t:
                    to_discard(sp, take_from_hand(sp, q, i))
                    need -= 1
                    matched += 1
                i -= 1
    total = laid[SUPPORT] + laid[OBSTRUCTION] + laid[STRATEGY]
    taken = move_votes(sp, q, c, total - matched)
    log_event(sp, E_POACH, q, total, matched)
    return taken


@compiled
def debate_requirement(d0, d, combined):
    """WI-V-DEBATE-4, WI-V-DEBATE-6: (case, cards) a debater must play. Case 0: the issue card(s) exactly;
    1: the same kind(s); 2: any cards, half the candidate's die rounded up (single) or the die."""
    if d < d0:
        return 0, 2 if combined else 1
    if d > d0:
        return 1, 2 if combined else 1
    return 2, d0 if combined else (d0 + 1) // 2


@compiled
def find_debate_cards(sp, q, case, count, issue, picks):
    """Hand indices of q that meet the requirement (into ``picks``); False if q cannot."""
    st = state_at(sp)
    n_hand = st[SEAT + q, S_HAND_N]
    if case == 2:
        if n_hand < count:
            return False
        for i in range(count):
            picks[i] = i
        return True
    used = st[TMP + TMP_USED]
    clear_row(sp, TMP + TMP_USED, n_hand, 0)
    for need in range(count):
        want = issue[need]
        found = -1
        for i in range(n_hand):
            k = st[HAND + q, i]
            if used[i] != 0:
                continue
            if (case == 0 and k == want) or (case == 1 and st[TB + CARD0 + k, C_TYPE] == st[TB + CARD0 + want, C_TYPE]):
                found = i
                break
        if found < 0:
            return False
        used[found] = 1
        picks[need] = found
    return True


@compiled
def drop_indices(sp, q, picks, count):
    """Discard hand cards at the given indices (highest index first, so the others stay put)."""
    for _ in range(count):
        top, at = -1, -1
        for i in range(count):
            if picks[i] > top:
                top, at = picks[i], i
        to_discard(sp, take_from_hand(sp, q, top))
        picks[at] = -1


@compiled
def tv_debate(sp, c, bonus):
    """WI-V-DEBATE-3, WI-V-DEBATE-4, WI-V-DEBATE-5, WI-V-DEBATE-6, WI-V-DEBATE-7, WI-V-DEBATE-8,
    WI-V-DEBATE-9: issue card(s), the candidate's die, each debater's die and requirement. Only the
    willing debaters out of jail debate; if every willing one was jailed, nobody debates and there is no
    walkover either (WI-V-DEBATE-3: that needs nobody willing)."""
    st = state_at(sp)
    n = st[0, G_N]
    debaters = 0
    for q in range(n):
        debaters += (st[SEAT + q, S_DEBATER] == DEBATE_WILLING) & (st[SEAT + q, S_JAILED] == 0)
    if debaters == 0:
        return 0  # the walkover votes, if nobody was willing, come after settlement (WI-V-DEBATE-3)
    issue = st[TMP + TMP_ISSUE]
    clear_row(sp, TMP + TMP_ISSUE, 2, -1)
    n_issue = 0
    if st[SEAT + c, S_HAND_N] > 0 and st[SEAT + c, S_HOSP] < 0:  # WI-HOSP-5: no issue from hospital
        first = pol.issue_choice(sp, c)
        if first >= 0:
            issue[0] = take_from_hand(sp, c, first)
            n_issue = 1
            if bonus >= 1 and st[SEAT + c, S_HAND_N] > 0 and pol.wants_combined(sp, c):
                issue[1] = take_from_hand(sp, c, pol.issue_choice(sp, c) % max(
                    1, st[SEAT + c, S_HAND_N]))
                n_issue = 2
    log_event(sp, E_ISSUE, issue[0], issue[1], n_issue)
    d0 = randbelow(stream(st), 6) + 1 if n_issue > 0 else 0
    gained = 0
    picks = st[TMP + TMP_PICKS, :12]
    clear_row(sp, TMP + TMP_PICKS, 12, 0)
    for j in range(1, n):
        q = seat_after(c, j, n)
        if st[SEAT + q, S_DEBATER] != DEBATE_WILLING or st[SEAT + q, S_JAILED] != 0:
            continue
        if n_issue == 0:
            gain_votes(sp, q, st[TB, R_DEB_WIN])  # no issue or no cards: everyone succeeds
            log_event(sp, E_DEBATE, q, 0, 1)
            continue
        d = randbelow(stream(st), 6) + 1
        case, count = debate_requirement(d0, d, n_issue == 2)
        able = st[SEAT + q, S_HOSP] < 0 and count <= picks.shape[0] and find_debate_cards(
            sp, q, case, count, issue, picks)  # WI-HOSP-5: a debater in hospital plays no card
        if able and pol.debates_to_win(sp, q, c, st[0, G_DELTA]):
            drop_indices(sp, q, picks, count)
            gain_votes(sp, q, st[TB, R_DEB_WIN])
            log_event(sp, E_DEBATE, q, d0 * 10 + d, 1)
        else:
            discard_cards(sp, q, 1)
            change_votes(sp, c, 1)
            gained += 1
            log_event(sp, E_DEBATE, q, d0 * 10 + d, 0)
    for e in range(n_issue):
        to_discard(sp, issue[e])
    return gained


@compiled
def venue_effect(sp, c, venue, bonus):
    """The chosen venue's effect with its support bonus; returns the candidate's gain."""
    st = state_at(sp)
    if venue == RALLY:  # WI-V-RALLY-1, WI-V-RALLY-2
        votes = st[TB, R_RALLY] + bonus
        change_votes(sp, c, votes)
        return votes
    if venue == GRASSROOTS:  # WI-V-GRASS-1, WI-V-GRASS-2
        return gain_iron(sp, c, st[TB, R_GRASS] + bonus)
    if venue == STREET_SWEEP:
        return street_sweep(sp, c, bonus)
    if venue == LEGISLATURE:
        return legislature(sp, c, bonus)
    if venue == POACHING:
        return poaching(sp, c, bonus)
    return tv_debate(sp, c, bonus)


# ----------------------------------------------------------------------------------------- settlement
@compiled
def settle(sp, c, vstats):
    """WI-SETTLE-1, WI-SETTLE-2, WI-SETTLE-3, WI-SETTLE-4, WI-SETTLE-5: card effects, then (unless jailed)
    venue effect and support bonus; the
    candidate's vote changes are summed and applied once, never below zero."""
    st = state_at(sp)
    venue = st[0, G_VENUE]
    st[0, G_SETTLING] = 1
    st[0, G_DELTA] = 0
    st[0, G_EXTRA_SUP] = 0
    support = 0
    for s in range(st[0, G_SLOT_N]):
        k = st[PILES + PILE_SLOT_CARD, s]
        if k < 0:
            continue
        owner = st[PILES + PILE_SLOT_OWNER, s]
        if st[TB + CARD0 + k, C_TYPE] == SUPPORT:
            support += 1
        elif (st[TB, R_HOSTILE_KINDS] >> k) & 1 != 0 and try_cancel(sp, c, owner, k):
            continue
        log_event(sp, E_RESOLVE, owner, k, c)
        card_effects(sp, k, owner, c)
        if st[SEAT + c, S_JAILED] != 0:  # WI-SETTLE-2
            break
    if st[SEAT + c, S_JAILED] == 0:
        if has_skill(sp, c, TR_OWN_CAMPAIGN):
            fire_skills(sp, c, TR_OWN_CAMPAIGN, venue)
        for q in range(st[0, G_N]):
            if q != c and has_skill(sp, q, TR_OTHERS_CAMPAIGN):
                fire_skills(sp, q, TR_OTHERS_CAMPAIGN, venue)
    gain = 0
    support += st[0, G_EXTRA_SUP]
    if st[SEAT + c, S_JAILED] == 0:
        bonus = support // st[TB, R_SUP_PER]
        gain = venue_effect(sp, c, venue, bonus)
    st[0, G_SETTLING] = 0
    delta = st[0, G_DELTA]
    st[0, G_DELTA] = 0
    if st[SEAT + c, S_JAILED] == 0:
        if delta > 0:
            gain_votes(sp, c, delta)
        elif delta < 0:
            lose_votes(sp, c, -delta)
        if venue == TV_DEBATE:
            walkover = True  # WI-V-DEBATE-3 若無任何玩家願意參與辯論: nobody was willing, jailed since or not
            for q in range(st[0, G_N]):
                if st[SEAT + q, S_DEBATER] == DEBATE_WILLING:
                    walkover = False
            if walkover:
                gain += gain_votes(sp, c, st[TB, R_DEB_WALK])  # WI-V-DEBATE-3
        bucket = 0 if support < 2 else (1 if support < 4 else 2)
        vstats[venue, bucket, 0] += 1
        vstats[venue, bucket, 1] += gain
        vstats[venue, bucket, 2] += gain * gain
    log_event(sp, E_SETTLE, c, delta, st[SEAT + c, S_VOTES] + st[SEAT + c, S_IRON])
    log_event(sp, E_VENUE, venue, gain, support)


# ----------------------------------------------------------------------------------------- endings
@inlined
def can_declare(sp, p):
    """Not in jail, not in hospital (WI-HOSP-3)."""
    st = state_at(sp)
    return (st[SEAT + p, S_JAILED] == 0) & (st[SEAT + p, S_HOSP] < 0)


@inlined
def politician_goal_met(sp, p, counting):
    """WI-END-3: a politician's own condition (camp elections are handled by the caller). Hospital bars
    declaring (WI-HOSP-3), not the forced count's step A (``counting``, WI-END-4); jail bars both
    unless the condition is jail (WI-JAIL-4)."""
    st = state_at(sp)
    character = character_row(sp, p)
    cond, amount = st[character, CH_WIN], st[character, CH_WIN_AMT]
    if cond == W_JAILED:  # the one condition a jailed politician may still meet (WI-JAIL-4)
        jailed = 0
        for q in range(st[0, G_N]):
            jailed += st[SEAT + q, S_JAILED]
        return jailed >= amount and (st[SEAT + p, S_JAILED] != 0 or counting or st[SEAT + p, S_HOSP] < 0)
    if st[SEAT + p, S_JAILED] != 0 or not (counting or st[SEAT + p, S_HOSP] < 0):
        return False
    if cond == W_VOTES:
        return st[SEAT + p, S_VOTES] + st[SEAT + p, S_IRON] >= amount
    if cond == W_IRON:
        return st[SEAT + p, S_IRON] >= amount
    if cond == W_HAND:
        return st[SEAT + p, S_HAND_N] >= amount
    return False


@inlined
def camps_ready(sp):
    """Bit ``camp`` set when a blue/green player of that camp could declare now (WI-END-1)."""
    st = state_at(sp)
    ready = 0
    thresh = st[0, G_THRESH]
    for p in range(st[0, G_N]):  # without branches: a politician's bit (1 << POLITICIAN) is masked off
        camp = st[SEAT + p, S_CAMP]
        can = can_declare(sp, p) & (st[SEAT + p, S_VOTES] + st[SEAT + p, S_IRON] >= thresh)
        ready |= np.int64(can) << camp
    return ready & 3


@compiled
def finish(sp, reason):
    st = state_at(sp)
    st[0, G_ENDED] = 1
    st[0, G_END_REASON] = reason
    log_event(sp, E_END, reason, st[0, G_ROUND], 0)


@compiled
def camp_wins(sp, camp):
    st = state_at(sp)
    for p in range(st[0, G_N]):
        if st[SEAT + p, S_CAMP] == camp:
            st[SEAT + p, S_WON] = 1
            log_event(sp, E_WIN, p, camp, 0)


@compiled
def check_endings(sp):
    """WI-END-1, WI-END-2, WI-END-3, WI-END-4, WI-END-5 outside settlement: the last player out of jail; both
    camps at once raise the
    threshold (WI-V-LEG-3); politicians' own conditions; a camp's election (taken by a politician
    whose goal it is)."""
    st = state_at(sp)
    if st[0, G_ENDED] != 0:
        return
    n = st[0, G_N]
    if active_count(sp) == 1:  # WI-END-5
        for p in range(n):
            if st[SEAT + p, S_JAILED] == 0:
                if st[SEAT + p, S_CAMP] == POLITICIAN:
                    st[SEAT + p, S_WON] = 1
                    log_event(sp, E_WIN, p, POLITICIAN, 0)
                else:
                    camp_wins(sp, st[SEAT + p, S_CAMP])
        finish(sp, END_LAST_OUT)
        return
    ready = camps_ready(sp)
    while ready == 3:  # both camps at once
        st[0, G_THRESH] += 1
        st[0, G_THRESH_RAISED] += 1
        log_event(sp, E_THRESHOLD, st[0, G_THRESH], 0, 0)
        ready = camps_ready(sp)
    camp = BLUE if ready & 1 else (GREEN if ready & 2 else -1)
    winners = 0
    for p in range(n):
        if st[SEAT + p, S_CAMP] != POLITICIAN:
            continue
        character = character_row(sp, p)
        depends = camp >= 0 and st[character, CH_WIN] == W_CAMP and st[character, CH_WIN_AMT] == camp
        if (depends and can_declare(sp, p)) or politician_goal_met(sp, p, False):
            st[SEAT + p, S_WON] = 1
            log_event(sp, E_WIN, p, POLITICIAN, 0)
            winners += 1
    if winners > 0:
        finish(sp, END_POLITICIAN)
    elif camp >= 0:
        camp_wins(sp, camp)
        finish(sp, END_THRESHOLD)


@compiled
def forced_count(sp):
    """WI-END-4: after the last round or with the pool empty: (A) politicians meeting their
    condition; (B) a politician out of jail with the most votes; (C) the camp with more votes."""
    st = state_at(sp)
    n = st[0, G_N]
    winners = 0
    for p in range(n):
        if st[SEAT + p, S_CAMP] == POLITICIAN and politician_goal_met(sp, p, True):
            st[SEAT + p, S_WON] = 1
            winners += 1
    if winners == 0:
        best_bg, best_pol = -1, -1
        for p in range(n):
            v = st[SEAT + p, S_VOTES] + st[SEAT + p, S_IRON]
            if st[SEAT + p, S_CAMP] == POLITICIAN:
                if st[SEAT + p, S_JAILED] == 0 and v > best_pol:
                    best_pol = v
            elif v > best_bg:
                best_bg = v
        if best_pol > best_bg:
            for p in range(n):
                if st[SEAT + p, S_CAMP] == POLITICIAN and st[SEAT + p, S_JAILED] == 0 and (
                        st[SEAT + p, S_VOTES] + st[SEAT + p, S_IRON] == best_pol):
                    st[SEAT + p, S_WON] = 1
                    winners += 1
    if winners == 0:
        blue = 0
        green = 0
        for p in range(n):
            v = st[SEAT + p, S_VOTES] + st[SEAT + p, S_IRON]
            if st[SEAT + p, S_CAMP] == BLUE:
                blue += v
            elif st[SEAT + p, S_CAMP] == GREEN:
                green += v
        if blue >= green:
            camp_wins(sp, BLUE)
        if green >= blue:
            camp_wins(sp, GREEN)
    for p in range(n):
        if st[SEAT + p, S_WON] and st[SEAT + p, S_CAMP] == POLITICIAN:
            log_event(sp, E_WIN, p, POLITICIAN, 0)
    finish(sp, END_FORCED)


# ----------------------------------------------------------------------------------------- a game
@compiled
def setup(sp, deck0, mdeck0, bots):
    """WI-SETUP-1, WI-SETUP-2, WI-SETUP-3, WI-SETUP-4, WI-SETUP-5, WI-SETUP-6, WI-SETUP-7: characters, camps,
    pool, hands, meeting cards, starting votes."""
    st = state_at(sp)
    clear_row(sp, 0, G_SIZE, 0)  # the globals and the seats' columns of the last game
    for p in range(MAX_PLAYERS):
        clear_row(sp, SEAT + p, S_SIZE, 0)
    n = st[TB, R_PLAYERS]
    st[0, G_N] = n
    st[0, G_POOL] = st[TB, R_POOL]
    st[0, G_IRON_LEFT] = st[TB, R_IRON]
    st[0, G_THRESH] = st[TB, R_THRESH]
    # characters: deal some each from the shuffled pile, keep one (WI-SETUP-1)
    order = st[TMP + TMP_ORDER]
    n_chars = st[TB, R_MEET0] - st[TB, R_CHAR0]
    for ch in range(n_chars):
        order[ch] = ch
    shuffle_row(sp, TMP + TMP_ORDER, n_chars)
    dealt = st[TB, R_CHARS_DEALT]
    # each player keeps one before the camps are dealt: the choice reads no camp, and a random bot's
    # coins are drawn here, before the camp cards are shuffled (WI-SETUP-1 before WI-SETUP-2)
    coins = st[TMP + TMP_DICE]
    for i in range(n * (dealt - 1)):
        coins[i] = randbelow(stream(st), 2)
    # camps: the camp cards for this player count, shuffled, one each (WI-SETUP-2)
    camps = st[TMP + TMP_CAMPS]
    i = 0
    for camp in range(3):
        for _ in range(st[TB, R_BLUE + camp]):
            camps[i] = camp
            i += 1
    shuffle_row(sp, TMP + TMP_CAMPS, n)
    for p in range(n):
        st[SEAT + p, S_CAMP] = camps[p]
        st[SEAT + p, S_BOT] = bots[camps[p]]
        best = order[p * dealt]
        characters = TB + st[TB, R_CHAR0]  # the first character row of the table
        for d in range(1, dealt):
            other = order[p * dealt + d]
            if pol.pick_character(st[SEAT + p, S_BOT], st[characters + best, CH_SCORE], st[characters + other, CH_SCORE],
                                  coins[p * (dealt - 1) + d - 1]) == 1:
                best = other
        st[SEAT + p, S_CHAR] = best
        st[SEAT + p, S_HOSP] = -1
    if st[TB, R_FORCE_SEAT] >= 0:  # a forced character (play_forced_batch); -1 otherwise
        force_character(sp)
    # sides and beliefs (what each player works for, and its prior about the others)
    for p in range(n):
        side = camps[p]
        if side == POLITICIAN:
            character = character_row(sp, p)
            side = st[character, CH_WIN_AMT] if st[SEAT + p, S_BOT] == BOT_POLITICIAN and st[character, CH_WIN] == W_CAMP else -1
        st[SEAT + p, S_SIDE] = side
        if st[SEAT + p, S_BOT] != BOT_RANDOM and camps[p] != POLITICIAN:
            st[SEAT + p, S_SUSPECTS] = camp_stealers(sp, p, camps[p])  # nobody's camp is known yet
        if side >= 0:
            same = st[TB, R_BLUE + side] - (1 if camps[p] == side else 0)
            for q in range(n):
                st[SEAT + p, S_BELIEF + q] = 1000 * same // (n - 1)
            st[SEAT + p, S_BELIEF + p] = 1000
    # effect cards (WI-SETUP-4), meeting cards (WI-SETUP-5, WI-SETUP-6)
    nd = deck0.shape[0]
    for i in range(nd):
        st[PILES + PILE_DECK, i] = deck0[i]
    st[0, G_DECK_N] = nd  # unordered: draw_one takes a random card
    st[0, G_DISC_N] = 0
    nm = mdeck0.shape[0]
    for i in range(nm):
        st[PILES + PILE_MDECK, i] = mdeck0[i]
    st[0, G_MDECK_N] = nm  # unordered: take_meeting_card takes a random card
    for p in range(n):
        for _ in range(st[TB, R_HAND]):
            k = draw_one(sp)
            st[HAND + p, st[SEAT + p, S_HAND_N]] = k
            st[SEAT + p, S_HAND_N] += 1
    if st[TB, R_MEET_FEWER] != 0:  # (blue/green players - 1) cards, one each from seat 0
        for p in range(st[TB, R_BLUE] + st[TB, R_GREEN] - 1):
            take_meeting_card(sp, p % n)
    else:
        for p in range(n):
            for _ in range(st[TB, R_MEET]):
                take_meeting_card(sp, p)
    # starting votes from the pool (WI-SETUP-7)
    for p in range(n):
        gain_votes(sp, p, st[TB, R_START])
        log_event(sp, E_SEAT, p, st[SEAT + p, S_CAMP], st[SEAT + p, S_CHAR])


@compiled
def force_venue(sp, c, own):
    """The paired counterfactual's forced venue (R_FORCE_VENUE; -1: the bot's own), with what the decision saw."""
    st = state_at(sp)
    st[0, G_FORCED_CAND] = c + 1
    st[0, G_FORCED_SUPPORT] = pol.support_in_hand(sp, c)
    st[0, G_FORCED_OWN] = own
    return own if st[TB, R_FORCE_VENUE] < 0 else st[TB, R_FORCE_VENUE]


@compiled
def force_answer(sp, own):
    """The paired counterfactual's forced debate answer (R_FORCE_ANSWER; FORCE_OWN keeps the bot's), noting the own."""
    st = state_at(sp)
    st[0, G_FORCED_ANSWER] = FORCE_ACCEPT if own else FORCE_DECLINE
    answer = st[TB, R_FORCE_ANSWER]
    return own if answer == FORCE_OWN else answer == FORCE_ACCEPT


@compiled
def force_character(sp):
    """The paired counterfactual's forced character: seat R_FORCE_SEAT gets R_FORCE_CHAR; a seat that kept that
    character gets the forced seat's own instead (characters are unique)."""
    st = state_at(sp)
    s, ch = st[TB, R_FORCE_SEAT], st[TB, R_FORCE_CHAR]
    for q in range(st[0, G_N]):
        if st[SEAT + q, S_CHAR] == ch:
            st[SEAT + q, S_CHAR] = st[SEAT + s, S_CHAR]
    st[SEAT + s, S_CHAR] = ch


@compiled
def ask_debaters(sp, c):
    """WI-V-DEBATE-1: the candidate asks every other player out of jail (in hospital too); one who
    declines turns the character over (WI-HOSP-3, WI-HOSP-4 apply) until this campaign turn's settlement is
    over: its stay is dated one turn back, so the end of this campaign turn ends it (WI-HOSP-2). A
    player already in hospital keeps its stay. Returns how many declined (WI-V-DEBATE-2)."""
    st = state_at(sp)
    n = st[0, G_N]
    unwilling = 0
    for j in range(1, n):
        q = seat_after(c, j, n)
        if st[SEAT + q, S_JAILED] != 0:
            continue
        willing = pol.will_debate(sp, q, c)
        if st[0, G_TURN] == st[TB, R_FORCE_TURN] and q == st[TB, R_FORCE_DEBATER]:  # a forced answer (counterfactual)
            willing = force_answer(sp, willing)
        if willing:
            st[SEAT + q, S_DEBATER] = DEBATE_WILLING
        else:
            if st[SEAT + q, S_HOSP] < 0:  # WI-V-DEBATE-10: turned over, not a hospital stay
                st[SEAT + q, S_HOSP] = st[0, G_TURN] - 1
                st[SEAT + q, S_DEBATER] = DEBATE_TURNED_OVER
            unwilling += 1
        log_event(sp, E_DEBATE_ASK, q, st[SEAT + q, S_DEBATER], 0)
    return unwilling


@compiled
def camp_stealers(sp, p, camp):
    """The seats other than p whose character takes this camp's election (W_CAMP on it), as a bit mask:
    characters are face up, so every player sees them (WI-SETUP-1, WI-END-6)."""
    st = state_at(sp)
    mask = np.int64(0)
    for q in range(st[0, G_N]):
        character = character_row(sp, q)
        steals = (q != p) & (st[character, CH_WIN] == W_CAMP) & (st[character, CH_WIN_AMT] == camp)
        mask |= np.int64(steals) << np.int64(q)
    return mask


@inlined
def campaign_turn(sp, c, vstats, venue=-1):
    """WI-ROUND-3, WI-ROUND-4: venue, action turns from the candidate's right (candidate last), reactive
    cards, settlement; then the venue is cleared and hospital stays may end (WI-HOSP-2). A venue
    given (>= 0) replaces the bot's pick: the search bot's choice (search.py)."""
    st = state_at(sp)
    n = st[0, G_N]
    st[0, G_TURN] += 1
    st[0, G_CAND] = c
    st[0, G_SLOT_N] = 0
    if venue < 0:
        venue = pol.pick_venue(sp, c)
    if st[0, G_TURN] == st[TB, R_FORCE_TURN]:  # a forced decision (play_forced_batch); R_FORCE_TURN is 0 otherwise
        venue = force_venue(sp, c, venue)
    st[0, G_VENUE] = venue
    log_event(sp, E_CAMPAIGN, c, venue, st[0, G_TURN])
    unwilling = ask_debaters(sp, c) if venue == TV_DEBATE else 0
    for j in range(1, n + 1):
        p = seat_after(c, j, n)
        if turn_over(sp):
            break
        if st[SEAT + p, S_JAILED] != 0:
            continue
        if st[SEAT + p, S_HOSP] >= 0:  # WI-HOSP-3, WI-V-DEBATE-10: turned over, no action turn
            log_event(sp, E_SKIP, p, SKIP_DEBATE if st[SEAT + p, S_DEBATER] == DEBATE_TURNED_OVER else SKIP_ACTION, 0)
            continue
        action_turn(sp, p, unwilling if p == c and venue == TV_DEBATE else 0)
        check_endings(sp)
    if not turn_over(sp):
        reactive_phase(sp, c)
    if not turn_over(sp):
        settle(sp, c, vstats)
    for s in range(st[0, G_SLOT_N]):
        if st[PILES + PILE_SLOT_CARD, s] >= 0:
            to_discard(sp, st[PILES + PILE_SLOT_CARD, s])
    st[0, G_SLOT_N] = 0
    for q in range(n):
        st[SEAT + q, S_DEBATER] = 0
        if q != c and st[SEAT + q, S_HOSP] >= 0 and st[SEAT + q, S_HOSP] < st[0, G_TURN]:
            st[SEAT + q, S_HOSP] = -1
            log_event(sp, E_HOSP_OUT, q, 0, 0)
    check_endings(sp)


@compiled
def hospital_skip(sp, c):
    """WI-HOSP-2: c's campaign turn, not yet begun, is skipped: c is in hospital. WI-HOSP-6: when every
    player out of jail is in hospital, nobody can complete a campaign turn and no stay could end; the skipped
    turn then counts as c's campaign turn, so every other player's stay ends."""
    st = state_at(sp)
    log_event(sp, E_SKIP, c, SKIP_CAMPAIGN, 0)
    if free_count(sp) > 0:
        return
    for q in range(st[0, G_N]):
        if q != c and st[SEAT + q, S_JAILED] == 0 and st[SEAT + q, S_HOSP] >= 0:
            st[SEAT + q, S_HOSP] = -1
            log_event(sp, E_HOSP_OUT, q, 0, 0)


@compiled
def free_count(sp):
    """Players out of jail and out of hospital."""
    st = state_at(sp)
    count = 0
    for q in range(st[0, G_N]):
        count += (st[SEAT + q, S_JAILED] == 0) & (st[SEAT + q, S_HOSP] < 0)
    return count


@inlined
def play_game(sp, deck0, mdeck0, bots, vstats):
    """One whole game (WI-ROUND-1, WI-ROUND-2): rounds of campaign turns from seat 0 until an ending."""
    st = state_at(sp)
    setup(sp, deck0, mdeck0, bots)
    n = st[0, G_N]
    for r in range(1, st[TB, R_ROUNDS] + 1):
        st[0, G_ROUND] = r
        log_event(sp, E_ROUND, r, 0, 0)
        for c in range(n):
            if st[0, G_ENDED] != 0:
                break
            if st[SEAT + c, S_JAILED] != 0:
                continue
            if st[SEAT + c, S_HOSP] >= 0:  # WI-HOSP-2: the hospital skips the turn
                hospital_skip(sp, c)
                continue
            campaign_turn(sp, c, vstats)
            if st[0, G_ENDED] == 0 and st[0, G_POOL] == 0:
                forced_count(sp)  # WI-END-4: the pool ran dry
        if st[0, G_ENDED] != 0:
            break
    if st[0, G_ENDED] == 0:
        forced_count(sp)  # WI-END-4: the last round is over


@compiled
def record(sp, cols, i):
    """Game i's entries of the per-game columns ``cols[O_*, i]`` (see O_* and SEAT_FIELDS); every
    entry is written."""
    st = state_at(sp)
    cols[O_WIN_BLUE, i] = 0
    cols[O_WIN_GREEN, i] = 0
    cols[O_WIN_POL, i] = 0
    for p in range(MAX_PLAYERS):
        base = O_SEAT + p * NSF
        if p >= st[0, G_N]:
            for f in range(NSF):
                cols[base + f, i] = -1
            continue
        cols[base, i] = st[SEAT + p, S_CAMP]
        cols[base + 1, i] = st[SEAT + p, S_CHAR]
        cols[base + 2, i] = st[SEAT + p, S_WON]
        cols[base + 3, i] = st[SEAT + p, S_PLAYED]
        cols[base + 4, i] = st[SEAT + p, S_VOTES]
        cols[base + 5, i] = st[SEAT + p, S_IRON]
        cols[base + 6, i] = st[SEAT + p, S_JAILED]
        cols[base + 7, i] = st[SEAT + p, S_SUBP]
        cols[base + 8, i] = st[SEAT + p, S_HOSP_EVER]
        if st[SEAT + p, S_WON]:
            cols[O_WIN_BLUE + st[SEAT + p, S_CAMP], i] = 1
    cols[O_END, i] = st[0, G_END_REASON]
    cols[O_ROUNDS, i] = st[0, G_ROUND]
    cols[O_JAILS, i] = st[0, G_JAILS]
    cols[O_HOSPS, i] = st[0, G_HOSPS]
    cols[O_RAISES, i] = st[0, G_THRESH_RAISED]
    cols[O_TURNS, i] = st[0, G_TURN]
    cols[O_POOL, i] = st[0, G_POOL]
    cols[O_REMOVED, i] = st[0, G_REMOVED]
    cols[O_IRON_GONE, i] = st[0, G_IRON_GONE]
    cols[O_IRON_LEFT, i] = st[0, G_IRON_LEFT]  # tokens never taken: with held and gone, all of them (WI-COMP-1)


@compiled
def play_batch(seed, start, count, deck0, mdeck0, bots, cols, vstats, st):
    """Games start .. start+count-1 of the run ``seed``; game i uses game_stream(seed, i) alone (its
    state in st's row RNG). ``st`` is one game's arrays with the table (state.new_state), reused game
    after game, passed to the rules by its address (state.state_at); ``cols`` the per-game columns
    [O_SIZE, count]."""
    sp = np.int64(st.ctypes.data)
    for i in range(count):
        seed_stream(stream(st), seed, start + i)
        play_game(sp, deck0, mdeck0, bots, vstats)
        record(sp, cols, i)


FORCE_FIELDS = ("turn", "venue", "seat", "char", "spare_jail", "spare_hosp", "debater", "answer")  # force columns
FORCED_OUT = ("cand", "support", "own", "spared_jails", "spared_hosps", "answer")  # what each forced game reports


@compiled
def play_forced_batch(seed, start, count, deck0, mdeck0, bots, cols, vstats, st, force, out):
    """play_batch with a forced decision per game (``force[i]``: FORCE_FIELDS) for paired counterfactuals:
    game i still draws from game_stream(seed, start + i) alone, so it is the base game until the decision.
    A separate entry point: ordinary runs never compile or call it. ``out[i]``: FORCED_OUT."""
    sp = np.int64(st.ctypes.data)
    for i in range(count):
        st[TB, R_FORCE_TURN] = force[i, 0]
        st[TB, R_FORCE_VENUE] = force[i, 1]
        st[TB, R_FORCE_SEAT] = force[i, 2]
        st[TB, R_FORCE_CHAR] = force[i, 3]
        st[TB, R_SPARE_JAIL] = force[i, 4]
        st[TB, R_SPARE_HOSP] = force[i, 5]
        st[TB, R_FORCE_DEBATER] = force[i, 6]
        st[TB, R_FORCE_ANSWER] = force[i, 7]
        seed_stream(stream(st), seed, start + i)
        play_game(sp, deck0, mdeck0, bots, vstats)
        record(sp, cols, i)
        out[i, 0] = st[0, G_FORCED_CAND] - 1
        out[i, 1] = st[0, G_FORCED_SUPPORT]
        out[i, 2] = st[0, G_FORCED_OWN]
        out[i, 3] = st[0, G_SPARED_JAILS]
        out[i, 4] = st[0, G_SPARED_HOSPS]
        out[i, 5] = st[0, G_FORCED_ANSWER]  # FORCE_DECLINE or FORCE_ACCEPT: the bot's own answer; 0: not asked


# ----------------------------------------------------------------------------------------- packing
def table(cat, rules) -> np.ndarray:
    """Rules and catalogue as one int64 array T: row 0 the rule values (R_* columns), then the card
    rows from CARD0, the character rows from T[0, R_CHAR0], the meeting rows from T[0, R_MEET0]."""
    kinds, n_chars = cat.card_table.shape[0], cat.char_table.shape[0]
    T = np.zeros((CARD0 + kinds + n_chars + cat.meeting_table.shape[0], T_WIDTH), dtype=np.int64)
    T[CARD0:CARD0 + kinds, :CARD_COLS] = cat.card_table
    T[CARD0 + kinds:CARD0 + kinds + n_chars, :CHAR_COLS] = cat.char_table
    T[CARD0 + kinds + n_chars:, :MEET_COLS] = cat.meeting_table
    T[0, R_CHAR0] = CARD0 + kinds
    T[0, R_MEET0] = CARD0 + kinds + n_chars
    by_timing = {T_ACTION: R_ACTION_KINDS, T_REACTIVE: R_REACTIVE_KINDS, T_RESPONSE: R_RESPONSE_KINDS}
    for k, row in enumerate(cat.card_table):  # the kind masks (R_*_KINDS)
        if row[C_TYPE] != STRATEGY:
            T[0, R_SLOT_KINDS] |= 1 << k
        elif row[C_TIMING] in by_timing:
            T[0, by_timing[row[C_TIMING]]] |= 1 << k
        if card_is_hostile(row):
            T[0, R_HOSTILE_KINDS] |= 1 << k
    RULE_ROW.pack(rules, T[0])  # the rule values, by their one declaration (rules.RULE_ROW)
    T[0, R_FORCE_SEAT] = -1  # no forced character (R_FORCE_TURN 0: no forced venue; nothing spared)
    return T


@cache
def _packed(rules_json: str, catalogue_name: str):
    from sim.games.wonderful_island.rules import WonderfulIslandRules

    rules = WonderfulIslandRules.model_validate_json(rules_json)
    cat = load_catalogue(catalogue_name)
    return table(cat, rules), cat.deck.copy(), cat.meeting_deck.copy()


def pack(rules):
    """(T, deck, meeting deck) for the kernel, built once per rules value."""
    return _packed(rules.model_dump_json(), rules.catalogue)


def run_forced(rules, bots: np.ndarray, seed: int, start: int, force: np.ndarray, deck0=None, log_events: int = 0):
    """Games start .. start+len(force)-1, each with its forced decision (rows of FORCE_FIELDS; a venue of -1 keeps
    the bot's own, a seat of -1 forces no character); ``deck0`` replaces the catalogue's deck (a card removed).
    Returns (rows [count, O_SIZE], out [count, FORCED_OUT], log)."""
    T, deck_base, mdeck0 = pack(rules)
    force = np.ascontiguousarray(force, dtype=np.int64).reshape(-1, len(FORCE_FIELDS))
    count = force.shape[0]
    cols = np.empty((O_SIZE, count), dtype=np.int64)
    out = np.empty((count, len(FORCED_OUT)), dtype=np.int64)
    vstats = np.zeros((6, 3, 3), dtype=np.int64)
    st = new_state(T, log_events)
    play_forced_batch(np.uint64(seed), np.int64(start), np.int64(count),
                      np.asarray(deck_base if deck0 is None else deck0, dtype=np.int64), mdeck0,
                      np.asarray(bots, dtype=np.int64), cols, vstats, st, force, out)
    return cols.T, out, st[st[TB, R_LOG0]:].reshape(-1)


def run_batch(rules, bots: np.ndarray, seed: int, start: int, count: int, log_events: int = 0):
    """Play a batch; returns (rows [count, O_SIZE], venue stats [6, 3, 3], log). The rows are the
    transpose of the per-game columns the kernel writes (``rows.T`` is contiguous: no copy)."""
    T, deck0, mdeck0 = pack(rules)
    cols = np.empty((O_SIZE, count), dtype=np.int64)
    vstats = np.zeros((6, 3, 3), dtype=np.int64)
    st = new_state(T, log_events)  # the unused rest of a trace log reads as code -1
    play_batch(np.uint64(seed), np.int64(start), np.int64(count), deck0, mdeck0,
               np.asarray(bots, dtype=np.int64), cols, vstats, st)
    return cols.T, vstats, st[st[TB, R_LOG0]:].reshape(-1)

