"""The state of one Wonderful Island game as one int64 array that compiled code holds.

``st`` is a 2-d array of row blocks. It holds everything compiled code reads or writes (the rules
table and the random stream included), so the compiled rules and bots are passed its address ``sp``
alone and rebuild it with ``st = state_at(sp)``: one integer per call instead of a tuple of arrays or
an array's nine words, and constant strides when indexing.

``st[0, G_*]``             globals: pool, supplies, pile sizes, threshold, round, candidate, venue, ...
``st[SEAT + p, S_*]``      one row per player: camp, character, votes, iron, subpoenas, jail, hospital,
                           hand size, bot, the side it works for and its belief (per mille) that each
                           other player is on that side
``st[HAND + p, i]``        effect cards in hand (card kinds), ``i < st[SEAT + p, S_HAND_N]``
``st[MHAND + p, i]``       meeting cards in hand (meeting kinds)
``st[PILES + PILE_*, i]``  draw pile, discard pile, meeting pile, venue slots (card, owner)
``st[TMP + TMP_*, i]``     work rows for one step's short lists (dice, hands raised, debate picks, ...)
``st[RNG, :4]``            the game's random stream (a sim.core.rng state; stream(st) is its uint64 view)
``st[TB + r, c]``          the rules and catalogue table ``T`` below, copied in once per batch (new_state)
``st[st[TB, R_LOG0]:, :]`` trace events, four ints each (no rows when not tracing)

``T``: the rules and the catalogue as one int64 array (engine.table): ``T[0, R_*]`` rule values,
``T[CARD0 + k, C_*]`` card kinds, ``T[T[0, R_CHAR0] + ch, ...]`` characters, ``T[T[0, R_MEET0] + m, M_*]``
meeting cards (columns in :mod:`.catalogue`); compiled code reads it as ``st[TB, R_*]``,
``st[TB + CARD0 + k, C_*]``, ...
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core.extending import intrinsic
from numba.np.arrayobj import populate_array

from sim.core.jit import njit
from sim.games.wonderful_island.rules import RULE_ROW

# Compiled rules and bots: cached, numpy's error model (no zero-divisor checks: every divisor is a
# positive count), and without numba's reference counting. They never allocate (short lists live in
# the TMP rows of ``st``), so a call between them costs a few nanoseconds instead of tens.
compiled = njit(cache=True, _nrt=False, error_model="numpy")
# Inlined into each caller (numba IR inlining): ``stream``, which returns a view of ``st``; a few hot leaves
# whose call would cost more than their loads and compares; and the top of a game (``play_game``,
# ``campaign_turn``): each separately compiled function makes LLVM optimise and generate machine code
# again for itself and everything it calls, so these two cost two more passes over nearly the whole
# engine (about 4 s of a cold compile). Not the larger rules and bots: numba copies and retypes an
# inlined body at every call site, which cost more compile time than the calls cost run time.
inlined = njit(cache=True, _nrt=False, error_model="numpy", inline="always")

MAX_PLAYERS = 8
HMAX = 40  # hand capacity; a card drawn beyond it goes to the discard pile (never reached in play)
MHMAX = 16
PILE_W = 128

# camps and bots
BLUE, GREEN, POLITICIAN = 0, 1, 2
# a role's bots, weakest to strongest (GameSpec.bots); a bot's dispatch number in the engine is its place in
# POLITICIAN_BOTS, and the camps' bots are the first of them (same names, same numbers)
CAMP_BOTS = ("random", "partisan")
POLITICIAN_BOTS = ("random", "partisan", "politician")
assert POLITICIAN_BOTS[:len(CAMP_BOTS)] == CAMP_BOTS
BOT_RANDOM, BOT_PARTISAN, BOT_POLITICIAN = (POLITICIAN_BOTS.index(name) for name in POLITICIAN_BOTS)

# card types, timings, primitives, targets, triggers, conditions (the catalogue's order)
SUPPORT, OBSTRUCTION, STRATEGY = 0, 1, 2
T_SLOT, T_ACTION, T_REACTIVE, T_RESPONSE = 0, 1, 2, 3
(P_NONE, P_VOTES, P_IRON, P_SUBPOENA, P_CLEAR, P_HOSPITAL, P_DRAW, P_DISCARD, P_MOVE, P_CANCEL, P_PEEK,
 P_SUPPORT) = range(12)
TG_SELF, TG_CANDIDATE, TG_OTHER, TG_OTHERS, TG_VENUE_SUPPORT, TG_VENUE_OBSTRUCTION, TG_INCOMING, TG_SENDER = range(8)
# skill triggers are numpy ints, like the trace codes below: fire_skills compiles once, not once per trigger
TR_TURN_START, TR_OWN_CAMPAIGN, TR_OTHERS_CAMPAIGN, TR_SUBPOENAED, TR_HOSPITALIZED = np.arange(5)
W_VOTES, W_IRON, W_CAMP, W_JAILED, W_HAND = range(5)

# venues
RALLY, GRASSROOTS, STREET_SWEEP, LEGISLATURE, POACHING, TV_DEBATE = range(6)

# end reasons
END_NONE, END_THRESHOLD, END_POLITICIAN, END_FORCED, END_LAST_OUT = range(5)
END_NAMES = ("none", "threshold", "politician", "forced", "last_out")

# globals
(G_N, G_POOL, G_IRON_LEFT, G_REMOVED, G_DECK_N, G_DISC_N, G_MDECK_N, G_SLOT_N, G_THRESH, G_ROUND, G_TURN,
 G_CAND, G_VENUE, G_SETTLING, G_DELTA, G_EXTRA_SUP, G_ENDED, G_END_REASON, G_LOG_N, G_JAILS, G_HOSPS,
 G_THRESH_RAISED, G_VENUE_GAIN, G_SUPPORT, G_MEET_USED, G_IRON_GONE) = range(26)
# what a forced decision saw (engine.play_forced_batch): the candidate + 1 (0: no forced decision reached),
# its support cards in hand, the bot's own venue; jailings and hospital stays spared so far
G_FORCED_CAND, G_FORCED_SUPPORT, G_FORCED_OWN, G_SPARED_JAILS, G_SPARED_HOSPS = range(26, 31)
G_FORCED_ANSWER = 31  # the forced debater's own answer + 1 (0: not asked): FORCE_ACCEPT or FORCE_DECLINE, less 1
G_SIZE = 32

# seat columns
(S_CAMP, S_CHAR, S_VOTES, S_IRON, S_SUBP, S_JAILED, S_HOSP, S_HAND_N, S_MEET_N, S_PLAYED, S_WON,
 S_BOT, S_SIDE, S_DEBATER, S_KNOWN, S_HOSP_EVER, S_SUSPECTS) = range(17)
# S_SUSPECTS: bit q set when q's (face-up) character is a politician's who takes the election of this
# blue/green player's camp (WI-END-6) and this player has not learnt q's camp (S_KNOWN): q may be a
# camp-stealer, which the partisan bot counters. Set at setup, a bit cleared when the camp is learnt.
# S_DEBATER during a campaign turn at the TV debate (WI-V-DEBATE-1): 0 not asked, or declined from a hospital
# stay of its own; DEBATE_WILLING agreed to debate (kept if jailed afterwards: the walkover needs nobody
# *willing*, WI-V-DEBATE-3); DEBATE_TURNED_OVER declined and turned its character over (WI-V-DEBATE-10, not a
# hospital stay)
DEBATE_WILLING, DEBATE_TURNED_OVER = 1, 2
S_BELIEF = 17  # S_BELIEF + q: per-mille belief that q is on this player's side
S_SIZE = S_BELIEF + MAX_PLAYERS
# S_PLAN: a searching seat's plan for the campaign turn under way (search.py sets it before the turn and
# clears it after; 0, the scripted play, in every game without search). Past S_SIZE: setup leaves it alone.
S_PLAN = S_SIZE
PLAN_SCRIPTED, PLAN_HOLD = 0, 1  # PLAN_HOLD: play no support, obstruction or strategy card this turn

# piles
PILE_DECK, PILE_DISC, PILE_MDECK, PILE_SLOT_CARD, PILE_SLOT_OWNER = range(5)

# rule values R[0, ...]: the columns of rules.RULE_ROW (declared there once, with the value each holds)
(R_PLAYERS, R_BLUE, R_GREEN, R_POL, R_POOL, R_START, R_ROUNDS, R_THRESH, R_SLOTS, R_CHARS_DEALT, R_HAND,
 R_MEET, R_MEET_FEWER, R_MEET_REMOVE, R_DRAW, R_LIMIT, R_TRADE, R_JAIL, R_IRON, R_SUP_PER, R_RALLY, R_GRASS,
 R_LEG, R_DEB_WIN, R_DEB_WALK, R_DICE, R_CHAR0, R_MEET0) = RULE_ROW.index(
    "R_PLAYERS", "R_BLUE", "R_GREEN", "R_POL", "R_POOL", "R_START", "R_ROUNDS", "R_THRESH", "R_SLOTS",
    "R_CHARS_DEALT", "R_HAND", "R_MEET", "R_MEET_FEWER", "R_MEET_REMOVE", "R_DRAW", "R_LIMIT", "R_TRADE",
    "R_JAIL", "R_IRON", "R_SUP_PER", "R_RALLY", "R_GRASS", "R_LEG", "R_DEB_WIN", "R_DEB_WALK", "R_DICE",
    "R_CHAR0", "R_MEET0")
# card kinds by how they are played, as bit masks over kinds (bit k: kind k; kinds < 63 as for S_PLAYED):
# support/obstruction cards for the slots, action-step, reactive and response strategy cards; cards with a
# hostile effect (the ones a response card may cancel)
R_SLOT_KINDS, R_ACTION_KINDS, R_REACTIVE_KINDS, R_RESPONSE_KINDS, R_HOSTILE_KINDS = RULE_ROW.index(
    "R_SLOT_KINDS", "R_ACTION_KINDS", "R_REACTIVE_KINDS", "R_RESPONSE_KINDS", "R_HOSTILE_KINDS")
R_LOG0, R_LOG_END = RULE_ROW.index("R_LOG0", "R_LOG_END")  # the trace log rows of ``st``: the first and the end
# forced decisions for paired counterfactuals (engine.play_forced_batch sets them per game; an ordinary run
# never does): the campaign turn whose venue is forced and the venue, a seat and the character it is
# given, how many jailings and hospital stays (the first ones) are spared
R_FORCE_TURN, R_FORCE_VENUE, R_FORCE_SEAT, R_FORCE_CHAR, R_SPARE_JAIL, R_SPARE_HOSP = RULE_ROW.index(
    "R_FORCE_TURN", "R_FORCE_VENUE", "R_FORCE_SEAT", "R_FORCE_CHAR", "R_SPARE_JAIL", "R_SPARE_HOSP")
# and, at that campaign turn's TV debate, a seat whose answer is forced: FORCE_OWN (0, the bot's own),
# FORCE_DECLINE or FORCE_ACCEPT (WI-V-DEBATE-1)
R_FORCE_DEBATER, R_FORCE_ANSWER = RULE_ROW.index("R_FORCE_DEBATER", "R_FORCE_ANSWER")
FORCE_OWN, FORCE_DECLINE, FORCE_ACCEPT = 0, 1, 2
R_SIZE = RULE_ROW.end
T_WIDTH = R_SIZE  # the widest row of T (the catalogue's rows are narrower)
CARD0 = 1  # first card row of T

# trace events: code, a, b, c. The codes are numpy ints: numba types a Python int constant passed to
# a compiled function as a literal and compiles the function once per value (log_event dozens of
# times over); a numpy int is a plain int64, so log_event is compiled once (a fifth less compile time)
(E_SEAT, E_ROUND, E_CAMPAIGN, E_DRAW, E_PLAY, E_EFFECT, E_MEETING, E_DISCARD, E_REACT, E_CANCEL, E_DICE,
 E_VENUE, E_SETTLE, E_JAIL, E_HOSPITAL, E_LEGISLATURE, E_POACH, E_DEBATE, E_THRESHOLD, E_END, E_WIN,
 E_SKIP, E_SKILL, E_DEBATE_ASK, E_ISSUE, E_TRADE, E_HOSP_OUT, E_VOTE_SPLIT, E_RESOLVE, E_TURN) = np.arange(30)

# E_SKIP's b: why a turn is skipped (an action turn in hospital, a campaign turn in hospital, an action turn
# turned over after declining the TV debate, WI-V-DEBATE-10)
SKIP_ACTION, SKIP_CAMPAIGN, SKIP_DEBATE = 1, 2, 3

# row blocks of the state array ``st``: globals, seats, hands, meeting hands, piles, work rows, trace log
# one row is 17 cache lines, not a power of two: rows (and their hot first columns) fall into
# different cache sets instead of competing for the same few
WIDTH = PILE_W + 8
SEAT = 1
HAND = SEAT + MAX_PLAYERS
MHAND = HAND + MAX_PLAYERS
PILES = MHAND + MAX_PLAYERS
TMP = PILES + 5
# work rows: character order and camp cards at setup, street-sweep dice, legislature hands raised and
# bought, poaching cards laid by type, debate issue cards, a debater's picks and the hand cards used
TMP_ORDER, TMP_CAMPS, TMP_DICE, TMP_WILLING, TMP_BOUGHT, TMP_LAID, TMP_ISSUE, TMP_PICKS, TMP_USED = range(9)
RNG = TMP + 9  # the game's random stream: the four words of a sim.core.rng state (see stream)
TB = RNG + 1  # the rules and catalogue table T (engine.table): st[TB + r, c] is T[r, c]
EVENTS_PER_ROW = WIDTH // 4

# venue statistics buckets by support cards: 0-1, 2-3, 4+
SUPPORT_BUCKETS = ("0-1", "2-3", "4+")


STATE = types.Array(types.int64, 2, "C")
# state_at's row count: rows are never indexed from the end, so with 0 numba's wraparound of a
# negative row index (adding the row count) folds away; the log's end is T's R_LOG_END. Compiled code
# must therefore index st's rows one at a time (st[r, ...]) and never slice them (st[a:b] is empty)
STATE_ROWS = 0


@intrinsic
def state_at(typingctx, address):
    """The state array ``st`` at this address (``st.ctypes.data``) with a constant row width: compiled
    rules and bots pass one integer instead of an array's nine words, and index with constant strides."""
    if not isinstance(address, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        intp = context.get_value_type(types.intp)
        data = builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))
        st = context.make_array(STATE)(context, builder)
        populate_array(st, data=data, shape=[intp(STATE_ROWS), intp(WIDTH)], strides=[intp(8 * WIDTH), intp(8)],
                       itemsize=intp(8), meminfo=None)
        return st._getvalue()

    return STATE(address), codegen


@inlined
def stream(st):
    """The game's random stream for sim.core.rng's draws: row RNG of ``st`` seen as uint64 words (one
    array for compiled helpers to pass, not two)."""
    return st[RNG, :4].view(np.uint64)


@inlined
def character_row(sp, p):
    """The row of ``st`` holding player p's character (its skills, win condition and score in the
    table T inside the state)."""
    st = state_at(sp)
    return TB + st[TB, R_CHAR0] + st[SEAT + p, S_CHAR]


def new_state(T: np.ndarray, log_events: int = 0) -> np.ndarray:
    """The arrays of one game as row blocks of one int64 array (reused across the games of a batch),
    with the table T copied in from row TB and the trace log after it (its rows read -1 until written)."""
    log0 = TB + T.shape[0]
    st = np.zeros((log0 + -(-log_events // EVENTS_PER_ROW), WIDTH), dtype=np.int64)
    st[TB:log0, :T.shape[1]] = T
    st[TB, R_LOG0] = log0
    st[TB, R_LOG_END] = st.shape[0]
    st[log0:] = -1
    return st
