"""Shared helpers of the Ocracoke tests: fixed tables for unit tests, and a replay of a logged game
that follows every card independently of the engine and checks the log against the rules."""

from __future__ import annotations

import numpy as np

from sim.core.rng import game_stream
from sim.games.ocracoke import GAME, play_chunk, posterior_tables, rules_array
from sim.games.ocracoke import engine as E
from sim.games.ocracoke.policies import PEEK, SPY, SWAP, WAVE
from sim.games.ocracoke.rules import KRAKEN, OcracokeRules, card_values, pack

NO_LOG = np.zeros((0, E.LOG_WIDTH), np.int64)
BASE = dict(navy_values=[1, 2, 3, 4], pirate_values=[-1, -2, -3, -4], dial_ranges=[1, 3, 5],
            hand_match_per_card=True, navy_cards=4, pirate_cards=4, special_cards=3, special_value=0,
            purple_pays_hand=False)


def make_rules(**changes) -> OcracokeRules:
    return OcracokeRules(**{**BASE, **changes})


def seated(*bots: str) -> np.ndarray:
    """The policy array seating bots by name: one name for every seat (``seated("counter")``) or one
    per seat (``seated("random", "naive", "counter", "counter")``), never by their place in BOTS."""
    chosen = {"all": bots[0]} if len(bots) == 1 else {str(q): bot for q, bot in enumerate(bots)}
    return GAME.policy_array(make_rules(), chosen)


def hand(q: int, k: int = 0) -> int:
    return 8 + 2 * q + k


def known(S, q):
    """Seat q's perfect memory as {location: card}: the cards whose place it knows, where they are."""
    return {loc: int(c) for loc, c in enumerate(S[E.AT]) if c >= 0 and (S[E.KNOWN, q] >> c) & 1}


def known_row(S, q):
    """Seat q's perfect memory as one card per location, -1 where it does not know the card."""
    return np.array([S[E.AT, loc] if loc in known(S, q) else -1 for loc in range(16)], np.int64)


def learn(S, q, loc):
    """Seat q comes to know the card at loc."""
    S[E.KNOWN, q] |= 1 << int(S[E.AT, loc])


def fixed_table(rules, policy, ship, island, hands):
    """A table dealt as given (cards by number), each seat knowing only its own hand."""
    R = rules_array(rules, np.asarray(policy))
    T = posterior_tables(pack(rules))
    S = np.zeros((E.S_ROWS, 16), np.int64)
    rng = game_stream(7, 0)
    E._setup_hand(S, R, rng, NO_LOG)
    S[E.AT:E.KNOWN, :] = -1
    S[E.KNOWN, :] = 0
    for s, c in enumerate(ship):
        S[E.AT, s] = c
    for i, c in enumerate(island):
        S[E.AT, 5 + i] = c
    for q, cards in enumerate(hands):
        for k, c in enumerate(cards):
            S[E.AT, hand(q, k)] = c
            learn(S, q, hand(q, k))
            S[E.MEM + q, hand(q, k)] = c
    E._index_cards(S, R)
    assert sorted(S[E.AT][S[E.AT] >= 0]) == list(range(11))
    return S, R, T, rng


def logged_game(rules, policy, seed, index, rows=50_000):
    log = np.zeros((rows, E.LOG_WIDTH), np.int64)
    chunk, n = play_chunk(rules, np.asarray(policy), seed, index, 1, log)
    return chunk, log[:n]


class Replay:
    """Follows the cards of one logged game; every check is an assert naming its rule ID."""

    def __init__(self, rules: OcracokeRules):
        self.rules = rules
        self.values = card_values(rules)
        self.n, self.hpp, self.n_ship = rules.players, rules.hand_cards, rules.ship_cards
        self.gold = [0] * 4
        self.hands: list[dict] = []

    def accounted(self):
        cards = sorted(self.at.values())
        assert cards == list(range(11)), f"OC-SETUP-3: all 11 cards somewhere, found {cards}"

    def run(self, rows):
        for row in rows:
            kind, a, b, c, d, e, f = (int(x) for x in row)
            getattr(self, f"on_{kind}", lambda *args: None)(a, b, c, d, e, f)
            if kind not in (E.L_HAND, E.L_DEAL, E.L_END):
                self.accounted()
        return self

    def on_1(self, hand_no, start, *_):  # L_HAND
        if self.hands:
            prev = self.hands[-1]
            assert prev["declared"], "OC-DECL-2: a hand ends only with a declaration"
            assert max(self.gold) < self.rules.win_gold, "OC-END-1: the game ends once someone has 5 gold"
            assert start == (prev["start"] + 1) % self.n, "OC-NEXT-2: the start player moves left"
        else:
            assert start == 0, "OC-SETUP-5: seat 0 (the oldest player) starts"
        assert hand_no == len(self.hands) + 1
        self.at: dict[int, int] = {}
        self.faces = [0, 0]
        self.island_up: set[int] = set()
        self.expected = [(start + t) % self.n for t in range(self.n)]
        self.round, self.turn_in_round = 1, 0
        self.pending = None
        self.hands.append({"start": start, "declared": False, "turns": [], "reveals": 0})

    def on_2(self, loc, card, *_):  # L_DEAL
        self.at[loc] = card
        if len(self.at) == 11:
            self.accounted()
            locs = sorted(self.at)
            assert locs[:self.n_ship] == list(range(self.n_ship)), "OC-SETUP-2: ship cards"
            assert [x for x in locs if 5 <= x < 8] == [5, 6, 7], "OC-SETUP-1: 3 island cards"
            dealt = [x for x in locs if x >= 8]
            assert dealt == [8 + 2 * q + k for q in range(self.n) for k in range(self.hpp)], "OC-SETUP-3"

    def holds(self, p, card):
        return any(self.at[8 + 2 * p + k] == card for k in range(self.hpp))

    def on_3(self, p, rnd, act, x, y, z):  # L_TURN
        h = self.hands[-1]
        assert not h["declared"], "OC-DECL-2: nothing happens after the declaration"
        assert rnd == self.round and rnd <= 3, "OC-ROUND-1 / OC-ISLAND-2: actions only in rounds 1-3"
        assert p == self.expected[self.turn_in_round], "OC-ROUND-1: turns clockwise from the start player"
        allowed = (PEEK if self.faces[0] == 0 else SWAP, SPY if self.faces[1] == 0 else WAVE)
        assert act in allowed, "OC-ACT-FLIP: only the two face-up actions"
        self.faces[0 if act in (PEEK, SWAP) else 1] ^= 1
        hand_loc = 8 + 2 * p + z
        if act == SWAP and y >= 0 and self.at[hand_loc] == KRAKEN:
            self.pending = (p, hand_loc, self.at[x], self.at[y])
        elif act == SWAP:
            self.at[x], self.at[hand_loc] = self.at[hand_loc], self.at[x]
        elif act == WAVE:
            isl = 5 + y
            self.at[x], self.at[isl], self.at[hand_loc] = self.at[hand_loc], self.at[x], self.at[isl]
            self.island_up.discard(y)
        h["turns"].append((p, rnd, act))
        self.turn_in_round += 1
        if self.turn_in_round == self.n:
            self.turn_in_round = 0
            self.round += 1

    def on_4(self, p, loc, card, *_):  # L_SEE
        assert self.at[loc] == card, f"a seat sees the card that is there (loc {loc})"

    def on_8(self, p, a, b, kept, ca, cb):  # L_KRAKEN
        seat, hand_loc, was_a, was_b = self.pending
        assert seat == p and kept in (was_a, was_b), "OC-KRAKEN-2: keeps one of the two cards taken"
        other = was_b if kept == was_a else was_a
        assert sorted((ca, cb)) == sorted((other, KRAKEN)), "OC-KRAKEN-2: the other card and the kraken go back"
        self.at[hand_loc], self.at[a], self.at[b] = kept, ca, cb
        self.pending = None

    def on_9(self, i, card, *_):  # L_REVEAL
        assert self.at[5 + i] == card
        assert i == min(set(range(3)) - self.island_up), "OC-ASM-ISLAND: the first face-down island card"
        assert self.turn_in_round == 0, "OC-ISLAND-1: an island card turns up at the end of a round"
        self.island_up.add(i)
        self.hands[-1]["reveals"] += 1

    def on_10(self, decl, forced, rnd, *_):  # L_DECLARE
        h = self.hands[-1]
        assert rnd >= 2, "OC-ROUND-2: nobody declares in round 1"
        assert rnd == self.round
        assert h["reveals"] == rnd - 1, "OC-ISLAND-1: one island card up per finished round"
        if forced:
            assert rnd == 4 and self.turn_in_round == 0, "OC-ISLAND-2: round 4 opens with the declaration"
            p = h["start"]
            while self.holds(p, KRAKEN):
                p = (p + 1) % self.n
            assert decl == p, "OC-ASM-FORCED: the start player, or the next who may declare"
        else:
            assert rnd in (2, 3), "OC-ROUND-3: declaring of one's own accord from round 2"
            assert decl == self.expected[self.turn_in_round], "OC-ROUND-3: on one's own turn"
        assert not self.holds(decl, KRAKEN), "OC-KRAKEN-1: the kraken's holder never declares"
        h["declared"] = True
        h["forced"] = bool(forced)
        h["declarer"] = decl

    def on_14(self, total, *_):  # L_SUM
        assert total == sum(int(self.values[self.at[s]]) for s in range(self.n_ship)), "OC-DECL-1: the ship's sum"
        self.hands[-1]["sum"] = total

    def on_13(self, q, *paid):  # L_PAY
        assert min(paid) >= 0, "gold never decreases"
        self.gold[q] += sum(paid)

    def on_15(self, mask, hands, *_):  # L_END
        assert self.hands[-1]["declared"]
        assert hands == len(self.hands)
        best = max(self.gold[:self.n])
        assert best >= self.rules.win_gold, "OC-END-1: the game ends only when someone has 5 gold"
        winners = [q for q in range(self.n) if self.gold[q] == best]
        assert mask == sum(1 << q for q in winners), "OC-END-2: most gold wins, ties share"
