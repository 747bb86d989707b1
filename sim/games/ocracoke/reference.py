"""Ocracoke in plain Python, one game at a time: the cross-check of the batch engine and its speed
baseline. It shares nothing with the engine but the scenario's rules model, and draws from its own
``random.Random``. Rule IDs refer to docs/rules/ocracoke.md.

The bots are the same three, written again for clarity: ``random`` (uniform legal choices),
``naive`` (its own hand and its own looks at the ship) and ``counter`` (remembers everything it saw
or that was revealed; exact posterior of the ship's sum by enumerating the unseen cards).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations

from sim.games.ocracoke.rules import OcracokeRules

GHOST, MERMAID, KRAKEN = 8, 9, 10
CARDS = range(11)
SHIP = "ship"
ISLAND = "island"
HAND = "hand"
LIMIT = 24  # largest possible |sum|
NAIVE_DECLARE_AT = 1.5
COUNTER_WAITS_BELOW = 1.0
COUNTER_WAITS_LATE_BELOW = 1.5
TOLERANCE = 1e-6


def dial_positions(rules: OcracokeRules) -> list[tuple[int, int]]:
    """Sum range of each dial position: 0, the blue ranges, then the red ranges (OC-DECL-1)."""
    starts = list(rules.dial_ranges)
    ends = [s - 1 for s in starts[1:]] + [LIMIT]
    blue = list(zip(starts, ends, strict=True))
    return [(0, 0)] + blue + [(-hi, -lo) for lo, hi in blue]


@cache
def sum_counts(values: tuple[int, ...], unknown: frozenset[int], m: int) -> dict[int, int]:
    """How many ways m of the unknown cards add up to each sum."""
    counts: dict[int, int] = {}
    for combo in combinations(sorted(unknown), m):
        s = sum(values[c] for c in combo)
        counts[s] = counts.get(s, 0) + 1
    return counts


@dataclass(eq=False)
class Evaluator:
    """Expected gold of dials under the posterior 'known ship cards add to off; m more from unknown'."""

    rules: OcracokeRules
    values: tuple[int, ...]
    dials: list[tuple[int, int]]

    def dial_value(self, unknown, m, off, dial, declarer):
        counts = sum_counts(self.values, unknown, m)
        total = sum(counts.values())
        r = self.rules
        lo, hi = self.dials[dial]
        gold = 0.0
        for s, ways in counts.items():
            ship = off + s
            if dial == 0:
                zero_bonus = r.pay_declarer if r.zero_declaration_bonus else 0  # OC-ASM-ZERO-E
                gold += ways * ((r.pay_zero + declarer * zero_bonus) if ship == 0 else 0)
            elif (lo > 0 and ship > 0) or (lo < 0 and ship < 0):
                gold += ways * (r.pay_colour + ((r.pay_range + declarer * r.pay_declarer) if lo <= ship <= hi else 0))
        return gold / total

    @cache  # noqa: B019 (one evaluator per rule set, kept for the run)
    def best(self, unknown, m, off, declarer):
        best_value, best_dial = -1.0, 0
        for dial in range(len(self.dials)):
            value = self.dial_value(unknown, m, off, dial, declarer)
            if value > best_value + 1e-9:
                best_value, best_dial = value, dial
        return best_value, best_dial

    @cache  # noqa: B019
    def sign_odds(self, unknown, m, off):
        counts = sum_counts(self.values, unknown, m)
        pos = sum(w for s, w in counts.items() if off + s > 0)
        neg = sum(w for s, w in counts.items() if off + s < 0)
        return pos, neg


@dataclass
class Memory:
    """What one seat knows: the card at some locations, and cards known to sit in a pair of ship slots."""

    cards: dict = field(default_factory=dict)  # location -> card
    ship_any: set = field(default_factory=set)
    pair: set = field(default_factory=set)


class Hand:
    """One hand (局): the table, the memories, and the rules of play."""

    def __init__(self, game: Game, start: int):
        self.g = game
        r = game.rules
        self.n, self.n_ship, self.hpp = r.players, r.ship_cards, r.hand_cards
        deck = list(CARDS)
        game.rng.shuffle(deck)  # OC-SETUP-1..3
        self.at: dict = {}
        for i in range(3):
            self.at[(ISLAND, i)] = deck.pop(0)
        for s in range(self.n_ship):
            self.at[(SHIP, s)] = deck.pop(0)
        for q in range(self.n):
            for k in range(self.hpp):
                self.at[(HAND, q, k)] = deck.pop(0)
        self.island_up: set[int] = set()
        self.faces = [0, 0]  # OC-SETUP-4: 正面交鋒 and 刺探軍情 up
        self.memory = [Memory() for _ in range(self.n)]
        self.naive = [dict() for _ in range(self.n)]
        for q in range(self.n):
            for k in range(self.hpp):
                self.memory[q].cards[(HAND, q, k)] = self.at[(HAND, q, k)]
                self.naive[q][(HAND, q, k)] = self.at[(HAND, q, k)]
        self.start = start

    # -------------------------------------------------------------- knowledge
    def see(self, p, loc):
        card = self.at[loc]
        mem = self.memory[p]
        mem.cards[loc] = card
        if loc[0] == SHIP or (loc[0] == HAND and loc[1] == p):
            self.naive[p][loc] = card
        if loc[0] == SHIP and loc[1] in mem.pair:
            mem.pair.discard(loc[1])
            mem.ship_any.discard(card)
            if len(mem.ship_any) == 1 and mem.pair:
                mem.cards[(SHIP, next(iter(mem.pair)))] = next(iter(mem.ship_any))
                mem.ship_any.clear()
            if not mem.ship_any:
                mem.pair.clear()
        return card

    def forget_pairs_at(self, loc):
        if loc[0] == SHIP:
            for mem in self.memory:
                if loc[1] in mem.pair:
                    mem.ship_any.clear()
                    mem.pair.clear()

    def move_public(self, cycle):
        """Cards move along cycle (loc0 -> loc1 -> ... -> loc0) in view of all: memories follow."""
        for loc in cycle:
            self.forget_pairs_at(loc)
        cards = [self.at[loc] for loc in cycle]
        for i, card in enumerate(cards):
            self.at[cycle[(i + 1) % len(cycle)]] = card
        for mem in self.memory:
            known = [mem.cards.pop(loc, None) for loc in cycle]
            for i, card in enumerate(known):
                if card is not None:
                    mem.cards[cycle[(i + 1) % len(cycle)]] = card

    def holds(self, p, card):
        return any(self.at[(HAND, p, k)] == card for k in range(self.hpp))

    def view(self, p):
        """The memory the seat's bot reads: perfect for random/counter, naive for naive."""
        if self.g.bots[p] == "naive":
            return Memory(cards=dict(self.naive[p]))
        return self.memory[p]

    def posterior(self, view):
        on_ship = set(view.ship_any)
        elsewhere = set()
        for loc, card in view.cards.items():
            (on_ship if loc[0] == SHIP else elsewhere).add(card)
        on_ship -= elsewhere
        unknown = frozenset(set(CARDS) - on_ship - elsewhere)
        return unknown, self.n_ship - len(on_ship), sum(self.g.values[c] for c in on_ship)

    # -------------------------------------------------------------- bots
    def unknown_slots(self, view, exclude=()):
        return [s for s in range(self.n_ship) if s not in exclude and (SHIP, s) not in view.cards
                and s not in view.pair]

    def first_unknown(self, view, exclude=()):
        slots = self.unknown_slots(view, exclude) or [s for s in range(self.n_ship) if s not in exclude]
        return slots[0] if slots else -1

    def likely_sign(self, view):
        pos, neg = self.g.ev.sign_odds(*self.posterior(view))
        return 1 if pos >= neg else -1

    def fit(self, card, sign):
        if card >= GHOST:
            return 0
        return 1 if (self.g.values[card] > 0) == (sign > 0) else -1

    def hand_to_give(self, p, view):
        sign = self.likely_sign(view)
        fits = [-2 if view.cards[(HAND, p, k)] == KRAKEN else self.fit(view.cards[(HAND, p, k)], sign)
                for k in range(self.hpp)]
        return fits.index(min(fits))

    def choose_turn(self, p, may_declare):
        bot, view, rng = self.g.bots[p], self.view(p), self.g.rng
        action_a = "peek" if self.faces[0] == 0 else "swap"
        action_b = "spy" if self.faces[1] == 0 else "wave"
        if bot == "random":
            options = [action_a, action_b] + (["declare"] if may_declare else [])
            act = rng.choice(options)
            a, b = rng.sample(range(self.n_ship), 2)
            k = rng.randrange(self.hpp)
            if act == "swap" and not (self.at[(HAND, p, k)] == KRAKEN and rng.random() < 0.5):
                b = -1
            return act, a, (rng.randrange(3) if act == "wave" else b), k
        if bot == "naive":
            unknown, m, off = self.posterior(view)
            if may_declare and self.g.ev.best(unknown, m, off, 1)[0] >= NAIVE_DECLARE_AT - TOLERANCE:
                return "declare", -1, -1, 0
            a = self.first_unknown(view)
            if action_a == "peek":
                return "peek", a, self.first_unknown(view, (a,)), 0
            k = next((k for k in range(self.hpp) if view.cards[(HAND, p, k)] == KRAKEN), 0)
            b = self.first_unknown(view, (a,)) if view.cards[(HAND, p, k)] == KRAKEN else -1
            return "swap", a, b, k
        return self.counter_turn(p, view, may_declare, action_a, action_b, swaps=bot != "noswap")

    def counter_waits(self, view):
        """4 players: best dial worth less than COUNTER_WAITS_BELOW as declarer with a ship slot unknown; once
        two island cards or more are face up (round 3 on, OC-ISLAND-1) less than COUNTER_WAITS_LATE_BELOW."""
        if self.n != 4:
            return False
        best = self.g.ev.best(*self.posterior(view), 1)[0]
        if len(self.island_up) >= 2:
            return best < COUNTER_WAITS_LATE_BELOW - TOLERANCE
        return len(self.unknown_slots(view)) >= 1 and best < COUNTER_WAITS_BELOW - TOLERANCE

    def counter_turn(self, p, view, may_declare, action_a, action_b, swaps=True):
        """Declare when allowed unless waiting pays (then look with action card A); else with peek and spy
        face up, spy; else the action that reveals the most (never swap without ``swaps``: the noswap bot,
        which declares rather than wait by a swap)."""
        if may_declare:
            if not self.counter_waits(view) or (action_a == "swap" and not swaps):
                return "declare", -1, -1, 0
            a = self.first_unknown(view)
            if action_a == "peek":
                return "peek", a, self.first_unknown(view, (a,)), 0
            return "swap", a, -1, self.hand_to_give(p, view)
        if (action_a, action_b) == ("peek", "spy"):
            return "spy", -1, -1, 0
        unknown_ship = len(self.unknown_slots(view))
        hidden_hands = sum((HAND, q, k) not in view.cards for q in range(self.n) if q != p for k in range(self.hpp))
        hidden_island = next((i for i in range(3) if i not in self.island_up and (ISLAND, i) not in view.cards), -1)
        mine = [view.cards[(HAND, p, k)] for k in range(self.hpp)]
        riddance = 3 * (KRAKEN in mine) + (GHOST in mine or MERMAID in mine)
        score_a = 2 * min(2, unknown_ship) + (riddance if action_a == "swap" else 0)
        if action_a == "swap" and not swaps:
            score_a = -1
        if action_b == "spy":
            score_b = hidden_hands
        else:
            score_b = 2 * min(1, unknown_ship) + (hidden_island >= 0) + riddance
        act = action_a if score_a >= score_b else action_b
        a = self.first_unknown(view)
        if act == "peek":
            return "peek", a, self.first_unknown(view, (a,)), 0
        if act == "spy":
            return "spy", -1, -1, 0
        k = self.hand_to_give(p, view)
        if act == "swap":
            b = self.first_unknown(view, (a,)) if mine[k] == KRAKEN else -1
            return "swap", a, b, k
        if hidden_island < 0:
            hidden_island = next((i for i in range(3) if i not in self.island_up), 0)
        return "wave", a, hidden_island, k

    def extra_look_slot(self, p, exclude):
        free = [s for s in range(self.n_ship) if s not in exclude]
        if not free:
            return -1
        if self.g.bots[p] == "random":
            return self.g.rng.choice(free)
        return self.first_unknown(self.view(p), exclude)

    def extra_look(self, p, exclude):
        s = self.extra_look_slot(p, exclude)
        if s >= 0:
            self.see(p, (SHIP, s))
        return s

    # -------------------------------------------------------------- actions (OC-ACT-*)
    def specials(self, p, seen, exclude):
        """OC-GHOST, OC-MERMAID, OC-COMBO."""
        if GHOST in seen and MERMAID in seen:
            return
        if GHOST in seen:
            self.extra_look(p, exclude)
        elif MERMAID in seen:
            for k in range(self.hpp):
                for mem in self.memory:
                    mem.cards[(HAND, p, k)] = self.at[(HAND, p, k)]

    def peek(self, p, a, b):
        seen = [self.see(p, (SHIP, a)), self.see(p, (SHIP, b))]
        self.specials(p, seen, {a, b})

    def spy(self, p):
        seen = [self.see(p, (HAND, q, k)) for q in range(self.n) if q != p for k in range(self.hpp)]
        self.specials(p, seen, set())

    def swap(self, p, a, b, k):
        hand = (HAND, p, k)
        if b >= 0 and self.at[hand] == KRAKEN:  # OC-KRAKEN-2
            ca, cb = self.see(p, (SHIP, a)), self.see(p, (SHIP, b))
            if self.g.bots[p] == "random":
                keep_b = self.g.rng.random() < 0.5
            else:
                sign = self.likely_sign(self.view(p))
                keep_b = self.fit(cb, sign) > self.fit(ca, sign)
            kept, other = (cb, ca) if keep_b else (ca, cb)
            self.forget_pairs_at((SHIP, a))
            self.forget_pairs_at((SHIP, b))
            self.at[hand] = kept
            pair = [other, KRAKEN]
            self.g.rng.shuffle(pair)
            self.at[(SHIP, a)], self.at[(SHIP, b)] = pair
            for mem in self.memory:
                for loc in ((SHIP, a), (SHIP, b), hand):
                    mem.cards.pop(loc, None)
                mem.ship_any, mem.pair = {KRAKEN}, {a, b}
            self.memory[p].cards[hand] = kept
            self.memory[p].ship_any.add(other)
            self.naive[p][hand], self.naive[p][(SHIP, a)], self.naive[p][(SHIP, b)] = kept, other, KRAKEN
            exclude = {a, b}
        else:
            given = self.at[hand]
            self.move_public([hand, (SHIP, a)])
            self.naive[p][(SHIP, a)] = given
            self.see(p, hand)  # OC-ACT-NEWHAND: no special effect
            exclude = {a}
        s = self.extra_look(p, exclude)
        if s >= 0 and self.at[(SHIP, s)] == GHOST:
            self.extra_look(p, exclude | {s})

    def wave(self, p, a, i, k):
        hand = (HAND, p, k)
        self.move_public([hand, (SHIP, a), (ISLAND, i)])
        self.naive[p][(SHIP, a)] = self.at[(SHIP, a)]
        self.island_up.discard(i)
        self.see(p, hand)

    # -------------------------------------------------------------- declaration (OC-DECL, OC-PAY)
    def declare(self, decl, forced, rnd):
        r, values = self.g.rules, self.g.values
        total = sum(values[self.at[(SHIP, s)]] for s in range(self.n_ship))
        record = {"round": rnd, "declarer": decl, "forced": int(forced), "ship_sum": total, "paid": []}
        for q in range(self.n):
            voluntary = int(q == decl and not forced)
            if self.g.bots[q] == "random":
                dial = self.g.rng.randrange(len(self.g.dials))
            else:
                dial = self.g.ev.best(*self.posterior(self.view(q)), voluntary)[1]
            lo, hi = self.g.dials[dial]
            colour = total != 0 and dial != 0 and (lo > 0) == (total > 0)
            in_range = colour and lo <= total <= hi
            matches = sum(1 for k in range(self.hpp) if self.at[(HAND, q, k)] < GHOST and total != 0
                          and (values[self.at[(HAND, q, k)]] > 0) == (total > 0))
            paid = (r.pay_colour * colour, r.pay_range * in_range, r.pay_zero * (dial == 0 and total == 0),
                    r.pay_hand * (matches if r.hand_match_per_card else min(matches, 1)),
                    r.pay_declarer * (voluntary and (in_range or (r.zero_declaration_bonus and dial == 0
                                                                  and total == 0))))  # OC-ASM-ZERO-E
            self.g.gold[q] += sum(paid)
            record["paid"].append(paid)
        if r.kraken_toll:  # OC-VAR-TOLL: the kraken's holder pays the declarer 1 gold, if it has any
            holder = [q for q in range(self.n) for k in range(self.hpp) if self.at[(HAND, q, k)] == KRAKEN]
            if holder and self.g.gold[holder[0]] > 0:
                self.g.gold[holder[0]] -= 1
                self.g.gold[decl] += 1
        return record

    def play(self):
        """OC-ROUND-1..3, OC-ISLAND-1..2, OC-DECL-2."""
        for rnd in range(1, 5):
            for t in range(self.n):
                p = (self.start + t) % self.n
                if rnd == 4:
                    while self.holds(p, KRAKEN):  # OC-ASM-FORCED
                        p = (p + 1) % self.n
                    return self.declare(p, True, rnd)
                may_declare = rnd >= 2 and not self.holds(p, KRAKEN)
                act, a, b, k = self.choose_turn(p, may_declare)
                if act == "declare" and may_declare:
                    return self.declare(p, False, rnd)
                getattr(self, act)(p, *((a, b) if act == "peek" else () if act == "spy" else (a, b, k)))
                self.faces[0 if act in ("peek", "swap") else 1] ^= 1  # OC-ACT-FLIP
            i = next(i for i in range(3) if i not in self.island_up)  # OC-ISLAND-1
            self.island_up.add(i)
            for mem in self.memory:
                mem.cards[(ISLAND, i)] = self.at[(ISLAND, i)]
        raise AssertionError("a hand always ends with a declaration")


class Game:
    def __init__(self, rules: OcracokeRules, bots: list[str], rng: random.Random):
        self.rules, self.bots, self.rng = rules, bots, rng
        self.values = tuple(rules.navy_values) + tuple(rules.pirate_values) + (0, 0, 0)
        self.dials = dial_positions(rules)
        self.ev = _evaluator(rules.model_dump_json(), self.values, tuple(self.dials))
        self.gold = [0] * rules.players


@lru_cache(maxsize=8)
def _evaluator(rules_json: str, values, dials):
    return Evaluator(OcracokeRules.model_validate_json(rules_json), values, list(dials))


def play_game(rules: OcracokeRules, bots: list[str], rng: random.Random, max_hands: int = 1000) -> dict:
    """OC-NEXT-1..2, OC-END-1..2: hands until someone has win_gold; most gold wins, ties share."""
    game = Game(rules, bots, rng)
    declarations = []
    start = 0
    while True:
        record = Hand(game, start).play()
        record["hand"] = len(declarations) + 1
        declarations.append(record)
        if max(game.gold) >= rules.win_gold or len(declarations) >= max_hands:
            break
        start = (start + 1) % rules.players
    best = max(game.gold)
    return {"hands": len(declarations), "gold": list(game.gold),
            "winners": [q for q in range(rules.players) if game.gold[q] == best], "declarations": declarations}


def play_games(rules: OcracokeRules, bots: list[str], n_games: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [play_game(rules, bots, rng) for _ in range(n_games)]
