"""The bots: compiled functions from what a seat may see to its choice.

``random``      uniform over legal choices (every optional play is a fair coin, every target uniform).
``partisan``    knows its own camp and keeps a belief per opponent (per mille, ``S_BELIEF + q``) that
                the opponent is on its side, updated from meeting results and from who supports or
                obstructs whom. Supports likely allies, obstructs likely rivals, votes in the
                legislature by belief, picks the venue with the best expected gain, and keeps its
                hand for the debate and poaching when they pay.
``politician``  the partisan's play aimed at its character's own win condition: a politician whose
                goal is a camp's election works for that camp; one who needs a full hand hoards
                cards and debates; one who needs jailed players aims subpoenas at the nearest to
                jail; one who needs iron votes campaigns in the grassroots.

Only what a seat may see is read: its own camp, character, hand and beliefs, and public
counts (votes, iron, subpoenas, hand sizes, cards on the venue).
"""

from __future__ import annotations

from sim.core.rng import randbelow
from sim.games.wonderful_island.catalogue import C_COPIES, C_P1, C_TYPE, C_VALUE, CH_WIN, CH_WIN_AMT
from sim.games.wonderful_island.state import (
    BOT_POLITICIAN,
    BOT_RANDOM,
    CARD0,
    DEBATE_WILLING,
    G_CAND,
    G_IRON_LEFT,
    G_N,
    G_THRESH,
    GRASSROOTS,
    HAND,
    LEGISLATURE,
    P_CLEAR,
    P_DISCARD,
    P_DRAW,
    P_HOSPITAL,
    P_IRON,
    P_MOVE,
    P_PEEK,
    P_SUBPOENA,
    P_VOTES,
    PLAN_HOLD,
    POACHING,
    R_DEB_WALK,
    R_DEB_WIN,
    R_DRAW,
    R_GRASS,
    R_LEG,
    R_RALLY,
    RALLY,
    S_BELIEF,
    S_BOT,
    S_DEBATER,
    S_HAND_N,
    S_HOSP,
    S_IRON,
    S_JAILED,
    S_KNOWN,
    S_PLAN,
    S_SIDE,
    S_SUBP,
    S_SUSPECTS,
    S_VOTES,
    SEAT,
    STREET_SWEEP,
    SUPPORT,
    TB,
    TG_SELF,
    TG_VENUE_OBSTRUCTION,
    TG_VENUE_SUPPORT,
    TV_DEBATE,
    W_HAND,
    W_IRON,
    W_JAILED,
    W_VOTES,
    character_row,
    compiled,
    inlined,
    state_at,
    stream,
)

ALLY = 600  # belief (per mille) from which a player counts as an ally
RIVAL = 400  # belief up to which a player counts as a rival
IRON_WORTH = 1.5  # an iron vote cannot be lost or poached (1.5: the paired venue values, docs/wonderful-island-balance.md)
SWEEP_TWO_DICE = 2.53  # expected street-sweep votes with 2 dice (exact: 91/36)
SWEEP_THREE_DICE = 3.68  # with 3 dice, best pair (exact: 795/216)
SWEEP_TAIL_2 = (1.0, 1.0, 25 / 36, 16 / 36, 9 / 36, 4 / 36, 1 / 36)  # P(best >= m), m = 0..6, two dice
SWEEP_TAIL_3 = (1.0, 1.0, 212 / 216, 175 / 216, 117 / 216, 59 / 216, 16 / 216)  # three dice, best pair
WIN_WORTH = 12.0  # a win the side can declare right after this settlement, in votes
CARD_WORTH = 1.0  # a card in hand, in votes (cards are votes later: support, obstruction, defence; 1.0: the paired venue values)
DEBATE_SUCCESS = 0.55  # a debater's chance to meet a single issue (15/36 identical, 15/36 same kind, 6/36 any)


@compiled
def coin(sp):
    st = state_at(sp)
    return randbelow(stream(st), 2) == 1


# is_ally and is_rival are asked in loops over players: written without short-circuits (no branch)
@compiled
def is_ally(sp, p, q):
    """q is p itself or believed on p's side (a suspected camp-stealer never is)."""
    st = state_at(sp)
    return (q == p) | ((st[SEAT + p, S_SIDE] >= 0) & (st[SEAT + p, S_BELIEF + q] >= ALLY) & (suspect(sp, p, q) == 0))


@compiled
def is_rival(sp, p, q):
    """q is not p and p has no side, believes q is not on it, or suspects q of stealing its camp's election."""
    st = state_at(sp)
    return (q != p) & ((st[SEAT + p, S_SIDE] < 0) | (st[SEAT + p, S_BELIEF + q] <= RIVAL) | (suspect(sp, p, q) != 0))


@compiled
def suspect(sp, p, q):
    """1 when q holds a character that would take the election of p's camp (WI-END-6) and p has not learnt q's
    camp: q may be the politician who wins if p's camp is elected."""
    st = state_at(sp)
    return (st[SEAT + p, S_SUSPECTS] >> q) & 1


@compiled
def total_votes(sp, p):
    st = state_at(sp)
    return st[SEAT + p, S_VOTES] + st[SEAT + p, S_IRON]


@compiled
def goal(sp, p):
    """The politician bot's win condition kind (-1 for every other bot)."""
    st = state_at(sp)
    if st[SEAT + p, S_BOT] != BOT_POLITICIAN:
        return -1
    return st[character_row(sp, p), CH_WIN]


@compiled
def pick_character(bot, score_a, score_b, coin_drawn):
    """WI-SETUP-1: keep one of the two characters dealt (0 or 1), before the camps are dealt: nothing
    but the two characters is read (the random bot's coin was drawn before the camp cards)."""
    if bot == BOT_RANDOM:
        return coin_drawn
    return 0 if score_a >= score_b else 1


@compiled
def random_other(sp, p, n, need_votes):
    """A uniformly chosen player other than p who is not in jail (-1 if none)."""
    st = state_at(sp)
    count = 0
    for q in range(n):
        if q != p and st[SEAT + q, S_JAILED] == 0 and (not need_votes or st[SEAT + q, S_VOTES] > 0):
            count += 1
    if count == 0:
        return -1
    pick = randbelow(stream(st), count)
    for q in range(n):
        if q != p and st[SEAT + q, S_JAILED] == 0 and (not need_votes or st[SEAT + q, S_VOTES] > 0):
            if pick == 0:
                return q
            pick -= 1
    return -1


@inlined
def strongest_rival(sp, p, n, need_votes):
    """The believed rival with the most votes (plain votes only when ``need_votes``), the first of
    equals; not in jail. Without branches in the loop (selects): who qualifies is data."""
    st = state_at(sp)
    best, best_v = -1, -1
    for q in range(n):
        v = st[SEAT + q, S_VOTES] if need_votes else total_votes(sp, q)
        better = (st[SEAT + q, S_JAILED] == 0) & is_rival(sp, p, q) & (v > best_v) & (
            not need_votes or v > 0)
        best = q if better else best
        best_v = v if better else best_v
    return best


@compiled
def suspected_stealer(sp, p, n):
    """The suspected camp-stealer (suspect) out of jail with the most subpoenas (the first of equals), or -1."""
    st = state_at(sp)
    best, most = -1, -1
    for q in range(n):  # without branches (selects)
        better = (suspect(sp, p, q) != 0) & (st[SEAT + q, S_JAILED] == 0) & (st[SEAT + q, S_SUBP] > most)
        best = q if better else best
        most = st[SEAT + q, S_SUBP] if better else most
    return best


@compiled
def nearest_to_jail(sp, p, n):
    """The player (not p, not in jail) with the most subpoenas, ties to the most votes."""
    st = state_at(sp)
    best, key = -1, -1
    for q in range(n):  # without branches (selects)
        k = st[SEAT + q, S_SUBP] * 1000 + total_votes(sp, q)
        better = (q != p) & (st[SEAT + q, S_JAILED] == 0) & (k > key)
        best = q if better else best
        key = k if better else key
    return best


@inlined
def most_uncertain(sp, p, n):
    """The player p knows least about (belief nearest one half); -1 if p knows everyone."""
    st = state_at(sp)
    if st[SEAT + p, S_SIDE] < 0:
        return -1
    best, gap = -1, 1000
    for q in range(n):  # without branches (selects)
        d = abs(st[SEAT + p, S_BELIEF + q] - 500)
        better = (q != p) & (st[SEAT + q, S_JAILED] == 0) & ((st[SEAT + p, S_KNOWN] >> q) & 1 == 0) & (d < gap)
        best = q if better else best
        gap = d if better else gap
    return best if gap < 300 else -1


@inlined
def hostile_target(sp, p, prim):
    """Whom p aims a hostile effect at (-1: hold the card)."""
    st = state_at(sp)
    n = st[0, G_N]
    if st[SEAT + p, S_BOT] == BOT_RANDOM:
        return random_other(sp, p, n, prim == P_MOVE)
    if goal(sp, p) == W_JAILED and prim == P_SUBPOENA:
        return nearest_to_jail(sp, p, n)
    if (prim == P_SUBPOENA or prim == P_HOSPITAL) and st[SEAT + p, S_SUSPECTS] != 0:
        stealer = suspected_stealer(sp, p, n)  # a camp-stealer in jail or hospital cannot take the election
        if stealer >= 0:
            return stealer
    if prim == P_SUBPOENA:
        first = -1  # a rival one subpoena from jail goes first (the first such; a select per player)
        for q in range(n - 1, -1, -1):
            near = (st[SEAT + q, S_JAILED] == 0) & (st[SEAT + q, S_SUBP] == 2) & is_rival(sp, p, q)
            first = q if near else first
        if first >= 0:
            return first
    return strongest_rival(sp, p, n, prim == P_MOVE)


@compiled
def self_benefit(sp, p, prim, amount):
    """Whether an effect aimed at p itself helps p."""
    st = state_at(sp)
    if prim == P_VOTES or prim == P_IRON:
        return amount > 0
    if prim == P_DRAW:
        return True
    if prim == P_CLEAR:
        return st[SEAT + p, S_SUBP] > 0
    return False


@inlined
def action_card_target(sp, p, k, target_kind):
    """WI-TURN-3: whom p plays strategy card k on at its action step (-1: keep it)."""
    st = state_at(sp)
    prim = st[TB + CARD0 + k, C_P1]
    n = st[0, G_N]
    bot = st[SEAT + p, S_BOT]
    if bot == BOT_RANDOM:
        if not coin(sp):
            return -1
        if target_kind == TG_SELF:
            return p
        return random_other(sp, p, n, False)
    if goal(sp, p) == W_HAND and prim != P_DRAW or st[SEAT + p, S_PLAN] == PLAN_HOLD:
        return -1  # hoard, or the search's plan holds the cards this turn
    if target_kind == TG_SELF:
        return p if self_benefit(sp, p, prim, st[TB + CARD0 + k, C_P1 + 1]) else -1
    if prim == P_PEEK:
        return most_uncertain(sp, p, n)
    return hostile_target(sp, p, prim)


@inlined
def slot_card_wanted(sp, p, k):
    """WI-CARD-1, WI-CARD-2: whether p puts support/obstruction card k into the candidate's venue."""
    st = state_at(sp)
    c = st[0, G_CAND]
    if st[SEAT + p, S_BOT] == BOT_RANDOM:
        return coin(sp)
    if goal(sp, p) == W_HAND or st[SEAT + p, S_PLAN] == PLAN_HOLD:
        return False
    if st[TB + CARD0 + k, C_TYPE] == SUPPORT:
        return is_ally(sp, p, c)
    return is_rival(sp, p, c)


@inlined
def meeting_target(sp, p):
    """WI-CARD-4: to whom p passes a meeting card now (-1: keep it)."""
    st = state_at(sp)
    if st[SEAT + p, S_BOT] == BOT_RANDOM:
        if not coin(sp):
            return -1
        return random_other(sp, p, st[0, G_N], False)
    return most_uncertain(sp, p, st[0, G_N])


@inlined
def discard_index(sp, p):
    """WI-TURN-5: which card of p's hand goes to the discard pile (the least worth for bots)."""
    st = state_at(sp)
    n_hand = st[SEAT + p, S_HAND_N]
    if st[SEAT + p, S_BOT] == BOT_RANDOM:
        return randbelow(stream(st), n_hand)
    return hand_argmin(sp, p, C_VALUE)


@inlined
def hand_argmin(sp, p, column):
    """Index of the first card in p's hand with the smallest catalogue value in ``column``."""
    st = state_at(sp)
    best, smallest = 0, 1 << 30
    for i in range(st[SEAT + p, S_HAND_N]):  # without branches (selects)
        v = st[TB + CARD0 + st[HAND + p, i], column]
        best = i if v < smallest else best
        smallest = min(v, smallest)
    return best


@compiled
def wants_trade(sp, p):
    """WI-MEET-2: trade cards that would be discarded anyway for a meeting card."""
    st = state_at(sp)
    if st[SEAT + p, S_BOT] == BOT_RANDOM:
        return coin(sp)
    return st[SEAT + p, S_SIDE] >= 0


@inlined
def reactive_wanted(sp, p, k, has_support, has_obstruction):
    """WI-TURN-6: whether p plays reactive card k after the candidate's action phase."""
    st = state_at(sp)
    c = st[0, G_CAND]
    tgt = st[TB + CARD0 + k, C_P1 + 2]
    if tgt == TG_VENUE_SUPPORT and not has_support or tgt == TG_VENUE_OBSTRUCTION and not has_obstruction:
        return False
    if st[SEAT + p, S_BOT] == BOT_RANDOM:
        return coin(sp)
    if st[SEAT + p, S_PLAN] == PLAN_HOLD:
        return False
    if tgt == TG_VENUE_OBSTRUCTION:  # remove an obstruction: helps the candidate
        return is_ally(sp, p, c)
    return is_rival(sp, p, c)


@compiled
def reacts_at_action_step(sp, p):
    """WI-TURN-3, WI-TURN-7: whether p considers its reactive cards at its own step C (then as
    reactive_wanted). The
    candidate (who has no step E) does; the others keep them for step E, when every card of the action
    phase is on the venue."""
    st = state_at(sp)
    return st[SEAT + p, S_BOT] == BOT_RANDOM or p == st[0, G_CAND]


@compiled
def wants_cancel(sp, victim, actor):
    """WI-CARD-5: whether the victim spends a cancel card on a hostile card."""
    st = state_at(sp)
    if st[SEAT + victim, S_BOT] == BOT_RANDOM:
        return coin(sp)
    return not is_ally(sp, victim, actor) or actor == victim


@compiled
def skill_target(sp, p, prim, amount, target_kind):
    """WI-SKILL-2: whom p aims an optional active skill at (-1: not now)."""
    st = state_at(sp)
    if target_kind == TG_SELF:
        if st[SEAT + p, S_BOT] == BOT_RANDOM:
            return p if coin(sp) else -1
        return p if self_benefit(sp, p, prim, amount) else -1
    if st[SEAT + p, S_BOT] == BOT_RANDOM:
        return random_other(sp, p, st[0, G_N], prim == P_MOVE) if coin(sp) else -1
    if prim == P_PEEK:
        return most_uncertain(sp, p, st[0, G_N])
    return hostile_target(sp, p, prim)


@compiled
def support_in_hand(sp, p):
    st = state_at(sp)
    count = 0
    for i in range(st[SEAT + p, S_HAND_N]):
        count += st[TB + CARD0 + st[HAND + p, i], C_TYPE] == SUPPORT
    return count


@compiled
def pick_venue(sp, c):
    """WI-ROUND-3: the candidate's venue; bots other than random take the venue of the best value for their
    side, all six weighed: WIN_WORTH times the chance that the side can declare right after this
    settlement, plus the expected vote swing between the side and its rivals (votes from the pool count
    once; votes taken from a rival, or a rival's gain, count on both sides). The rally's sure votes, the
    grassroots' iron, the sweep's chance of a big throw, the bill whose share may elect an ally, poaching's
    transfer paid with the hand, the debate's walkover or debaters."""
    st = state_at(sp)
    if st[SEAT + c, S_BOT] == BOT_RANDOM:
        return randbelow(stream(st), 6)
    g_kind = goal(sp, c)
    if g_kind == W_HAND:
        return TV_DEBATE
    if g_kind == W_IRON:
        return GRASSROOTS
    n = st[0, G_N]
    bonus = support_in_hand(sp, c) // 2
    need = votes_needed(sp, c)
    # one pass over the other players: what the six values read. Without branches (selects): every player
    # is read, one in jail or the candidate adds nothing; friend and foe are is_ally and is_rival written out
    voters, allies, debaters, declined, rival, rival_votes = 1, 0, 0, 0, -1, 0
    side_gain, ally_need = 0.0, 1 << 20
    has_side = st[SEAT + c, S_SIDE] >= 0
    suspects = st[SEAT + c, S_SUSPECTS]
    predicted = predicted_debaters(sp, c)
    for q in range(n):
        counted = (q != c) & (st[SEAT + q, S_JAILED] == 0)
        belief, suspected = st[SEAT + c, S_BELIEF + q], (suspects >> q) & 1
        friend = counted & has_side & (belief >= ALLY) & (suspected == 0)  # is_ally(sp, c, q)
        foe = counted & ((not has_side) | (belief <= RIVAL) | (suspected != 0))  # is_rival(sp, c, q)
        free = st[SEAT + q, S_HOSP] < 0
        willing = counted & free & ((predicted >> q) & 1 != 0)  # who would debate (will_debate)
        voters += counted
        allies += friend
        debaters += willing
        declined += counted & (not willing)
        need_q = st[0, G_THRESH] - total_votes(sp, q)
        ally_need = min(ally_need, need_q) if friend & free else ally_need
        side_gain += ((1.0 - DEBATE_SUCCESS) + DEBATE_SUCCESS * (2.0 if friend else -2.0)) if willing else 0.0
        stronger = foe & (st[SEAT + q, S_VOTES] > rival_votes)  # strongest_rival(need_votes)
        rival = q if stronger else rival
        rival_votes = st[SEAT + q, S_VOTES] if stronger else rival_votes
    # WI-V-RALLY-1, WI-V-RALLY-2
    gain = st[TB, R_RALLY] + bonus
    best, best_value = RALLY, WIN_WORTH * (gain >= need) + gain
    # WI-V-GRASS-1, WI-V-GRASS-2: iron votes, capped by the supply
    gain = min(st[TB, R_GRASS] + bonus, st[0, G_IRON_LEFT])
    value = WIN_WORTH * (gain >= need) + IRON_WORTH * gain
    if value > best_value:
        best, best_value = GRASSROOTS, value
    # WI-V-SWEEP-1, WI-V-SWEEP-2, WI-V-SWEEP-3
    dice = 2 if bonus == 0 else 3
    value = WIN_WORTH * sweep_at_least(dice, need) + (SWEEP_TWO_DICE if dice == 2 else SWEEP_THREE_DICE)
    if value > best_value:
        best, best_value = STREET_SWEEP, value
    # WI-V-LEG-1, WI-V-LEG-2, WI-V-LEG-4: a hand bought costs a vote given away; the share may elect the
    # candidate or an ally
    to_buy = max(0, (voters + 1) // 2 - 1 - bonus - allies)
    if to_buy <= st[TB, R_LEG]:
        own = st[TB, R_LEG] - to_buy
        value = WIN_WORTH * (own >= min(need, max(1, ally_need))) + own - to_buy
        if value > best_value:
            best, best_value = LEGISLATURE, value
    # WI-V-POACH-1, WI-V-POACH-2, WI-V-POACH-3, WI-V-POACH-4: a transfer from the strongest rival, paid with
    # the candidate's hand
    if rival >= 0:
        laid = st[SEAT + c, S_HAND_N] + bonus
        taken = min(rival_votes, max(0, laid - (st[SEAT + rival, S_HAND_N] + 1) // 2))
        value = WIN_WORTH * (taken >= need) + 2.0 * taken - CARD_WORTH * laid
        if value > best_value:
            best, best_value = POACHING, value
    # WI-V-DEBATE-1, WI-V-DEBATE-2, WI-V-DEBATE-3, WI-V-DEBATE-5: nobody willing gives the walkover; each
    # debater fails (a vote for the candidate)
    # or succeeds (two votes for the debater); every decliner is a card drawn
    if debaters == 0:
        walk = st[TB, R_DEB_WALK]
        value = WIN_WORTH * (walk >= need) + walk + CARD_WORTH * declined
    else:
        value = WIN_WORTH * (1.0 - DEBATE_SUCCESS) ** debaters * (debaters >= need) + side_gain + CARD_WORTH * declined
    if value > best_value:
        best = TV_DEBATE
    return best


@compiled
def predicted_debaters(sp, c):
    """pick_venue's forecast of who would debate (a bit mask over seats): will_debate's debate_value read with
    the candidate's own beliefs (q a friend when c believes it an ally), the players asked in order."""
    st = state_at(sp)
    n = st[0, G_N]
    to_ask = 0  # players to be asked who may debate (out of jail and hospital)
    for q in range(n):
        to_ask += (q != c) & (st[SEAT + q, S_JAILED] == 0) & (st[SEAT + q, S_HOSP] < 0)
    mask, accepted = 0, False
    for j in range(1, n):
        q = c + j - n if c + j >= n else c + j
        if st[SEAT + q, S_JAILED] != 0:
            continue
        free = st[SEAT + q, S_HOSP] < 0
        to_ask -= free
        friend = (st[SEAT + c, S_SIDE] >= 0) & is_ally(sp, c, q)
        yes = free and debate_value(sp, q, c, friend, 0.0 if accepted else 0.5 ** to_ask) >= 0.0
        mask |= (1 << q) if yes else 0
        accepted = accepted | yes
    return mask


@compiled
def votes_needed(sp, c):
    """Votes the candidate's side still needs for a win it can declare now: the threshold (or the
    politician's vote goal) less the candidate's votes, at least 1."""
    st = state_at(sp)
    target = st[0, G_THRESH]
    if goal(sp, c) == W_VOTES:
        target = st[character_row(sp, c), CH_WIN_AMT]
    return max(1, target - total_votes(sp, c))


@compiled
def sweep_at_least(dice, m):
    """P(the street sweep's best pair >= m) with 2 or 3 dice (exact, from the 36 or 216 throws)."""
    if m <= 1:
        return 1.0
    if m >= 7:
        return 0.0
    if dice == 2:
        return SWEEP_TAIL_2[m]
    return SWEEP_TAIL_3[m]


@compiled
def bill_receiver(sp, c, own):
    """WI-V-LEG-1 「玩家可自行決定如何將此3張選票分配給各玩家」: who gets the candidate's own share of a passed
    bill: itself, unless the share cannot elect it but elects a believed ally (the one nearest the threshold)."""
    st = state_at(sp)
    if own >= votes_needed(sp, c) or st[SEAT + c, S_SIDE] < 0:
        return c
    best, best_need = c, own + 1
    for q in range(st[0, G_N]):  # without branches (selects)
        need = st[0, G_THRESH] - total_votes(sp, q)
        better = (q != c) & (st[SEAT + q, S_JAILED] == 0) & (st[SEAT + q, S_HOSP] < 0) & is_ally(sp, c, q) & (
            need < best_need)
        best = q if better else best
        best_need = need if better else best_need
    return best


@compiled
def will_debate(sp, q, c):
    """WI-V-DEBATE-1: whether q takes part in candidate c's TV debate (debate_value)."""
    st = state_at(sp)
    if st[SEAT + q, S_BOT] == BOT_RANDOM:
        return coin(sp)
    friend = (st[SEAT + q, S_SIDE] >= 0) & is_ally(sp, q, c)
    return debate_value(sp, q, c, friend, walkover_chance(sp, q, c)) >= 0.0


@compiled
def walkover_chance(sp, q, c):
    """The chance, as q is asked, that nobody debates (WI-V-DEBATE-3): 0 once somebody has accepted; else
    each player still to be asked and out of hospital (who may debate) declines with chance 1/2."""
    st = state_at(sp)
    n = st[0, G_N]
    chance = 1.0
    later = False
    for j in range(1, n):  # the asking order, from the candidate's right (engine.ask_debaters)
        r = c + j - n if c + j >= n else c + j
        later = later | (r == q)
        asked_before = not later
        chance = 0.0 if asked_before & (st[SEAT + r, S_DEBATER] == DEBATE_WILLING) else chance
        may_debate = (r != q) & later & (st[SEAT + r, S_JAILED] == 0) & (st[SEAT + r, S_HOSP] < 0)
        chance = chance * 0.5 if may_debate else chance
    return chance


@compiled
def debate_value(sp, q, c, friend, walkover):
    """WI-V-DEBATE-1, WI-V-DEBATE-2, WI-V-DEBATE-3, WI-V-DEBATE-5, WI-V-DEBATE-10: debating less declining, in
    votes for q's side (``friend``: q counts c's gains
    as its side's). Declining gives c a card drawn (WI-V-DEBATE-2) and, with chance ``walkover``, the
    walkover's votes (WI-V-DEBATE-3: a win if they elect c), and costs q its action turn (its draws,
    WI-V-DEBATE-10). Debating: q meets the issue with DEBATE_SUCCESS scaled by its hand (up to 3 cards) and
    gains 2 votes; failing, q loses a card and c gains a vote (WI-V-DEBATE-5). From hospital no issue can be
    met: q declines (its own stay goes on either way)."""
    st = state_at(sp)
    if st[SEAT + q, S_HOSP] >= 0:
        return -1.0
    sign = 1.0 if friend else -1.0
    hand = st[SEAT + q, S_HAND_N]
    walk = st[TB, R_DEB_WALK] + WIN_WORTH * (st[TB, R_DEB_WALK] >= votes_needed(sp, c))
    decline = sign * (CARD_WORTH + walkover * walk) - CARD_WORTH * st[TB, R_DRAW]
    success = DEBATE_SUCCESS * min(hand, 3) / 3.0
    debate = success * st[TB, R_DEB_WIN] + (1.0 - success) * (sign - CARD_WORTH * (hand > 0))
    return debate - decline


@compiled
def legislature_yes(sp, q, c):
    """WI-V-LEG-1: q raises a hand for the candidate's bill without being offered anything."""
    st = state_at(sp)
    if st[SEAT + q, S_BOT] == BOT_RANDOM:
        return coin(sp)
    return is_ally(sp, q, c)


@compiled
def legislature_offers(sp, c):
    """WI-V-LEG-2: whether the candidate buys hands with votes (the random bot never bargains)."""
    st = state_at(sp)
    return st[SEAT + c, S_BOT] != BOT_RANDOM


@compiled
def accepts_offer(sp, q, c, votes_left):
    """WI-V-LEG-2: q takes one vote for a hand unless the bill would elect a rival."""
    st = state_at(sp)
    if st[SEAT + q, S_BOT] == BOT_RANDOM:
        return True
    return is_ally(sp, q, c) or total_votes(sp, c) + votes_left < st[0, G_THRESH]


@compiled
def poach_target(sp, c):
    """WI-V-POACH-1: the player the candidate poaches from (-1: nobody has votes)."""
    st = state_at(sp)
    if st[SEAT + c, S_BOT] == BOT_RANDOM:
        return random_other(sp, c, st[0, G_N], True)
    q = strongest_rival(sp, c, st[0, G_N], True)
    if q < 0:
        best = -1
        for r in range(st[0, G_N]):
            if r != c and st[SEAT + r, S_JAILED] == 0 and st[SEAT + r, S_VOTES] > 0:
                if best < 0 or st[SEAT + r, S_VOTES] > st[SEAT + best, S_VOTES]:
                    best = r
        q = best
    return q


@compiled
def poach_plays_card(sp, c):
    """WI-V-POACH-1: whether the candidate lays a given hand card in the poaching."""
    st = state_at(sp)
    if st[SEAT + c, S_BOT] == BOT_RANDOM:
        return coin(sp)
    return True


@compiled
def poach_resists(sp, q, c):
    """WI-V-POACH-2: whether q matches the candidate's cards (an ally may let the votes go)."""
    st = state_at(sp)
    if st[SEAT + q, S_BOT] == BOT_RANDOM:
        return coin(sp)
    return not is_ally(sp, q, c)


@compiled
def issue_choice(sp, c):
    """WI-V-DEBATE-4, WI-V-DEBATE-8: hand index of the issue card (-1: no issue, everybody succeeds)."""
    st = state_at(sp)
    n_hand = st[SEAT + c, S_HAND_N]
    if n_hand == 0:
        return -1
    if st[SEAT + c, S_BOT] == BOT_RANDOM:
        return randbelow(stream(st), n_hand + 1) - 1
    return hand_argmin(sp, c, C_COPIES)


@compiled
def wants_combined(sp, c):
    """WI-V-DEBATE-6: whether the candidate makes a combined issue when it may."""
    st = state_at(sp)
    if st[SEAT + c, S_BOT] == BOT_RANDOM:
        return coin(sp)
    return True


@compiled
def debates_to_win(sp, q, c, pending):
    """WI-V-DEBATE-7: whether q meets the issue when it can (an ally may lose on purpose)."""
    st = state_at(sp)
    if st[SEAT + q, S_BOT] == BOT_RANDOM:
        return coin(sp)
    if is_ally(sp, q, c) and st[SEAT + q, S_SIDE] >= 0 and total_votes(sp, c) + pending + 1 >= st[0, G_THRESH]:
        return False
    return True


@compiled
def hostile_primitive(prim, amount):
    return prim == P_SUBPOENA or prim == P_HOSPITAL or prim == P_DISCARD or prim == P_MOVE or (
        prim == P_VOTES and amount < 0)
