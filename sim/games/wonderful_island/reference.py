"""The Wonderful Island, one game at a time, in plain Python: the cross-check and the speed baseline.

Written for clarity from docs/rules/wonderful-island.md; it shares nothing with the batch engine
but the scenario and catalogue loaders, and draws from its own ``random.Random``. The bots are
the same in law as the engine's ``random``, ``partisan`` and ``politician`` (see policies.py):
every choice has the same probabilities, so outcome distributions agree within sampling error.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from sim.games.wonderful_island.catalogue import load_catalogue
from sim.games.wonderful_island.rules import WonderfulIslandRules

CAMPS = ("blue", "green", "politician")
BOTS = ("random", "partisan", "politician")
VENUES = ("rally", "grassroots", "street_sweep", "legislature", "poaching", "tv_debate")
# P(the street sweep's best pair >= m), m = 0..7, with 2 and 3 dice
SWEEP_TAIL = {2: (1.0, 1.0, 25 / 36, 16 / 36, 9 / 36, 4 / 36, 1 / 36, 0.0),
              3: (1.0, 1.0, 212 / 216, 175 / 216, 117 / 216, 59 / 216, 16 / 216, 0.0)}
HOSTILE = ("subpoena", "hospital", "discard", "move_votes")
WORTH = {"votes": 10, "iron": 14, "subpoena": 16, "clear_subpoena": 9, "hospital": 12, "draw": 8, "discard": 5,
         "move_votes": 12, "cancel": 11, "peek": 4, "support": 9, "none": 0}
ALLY, RIVAL = 600, 400
HAND_CAP = 40


@dataclass
class Card:
    kind: int
    name: str
    type: str
    timing: str
    effects: list[dict]
    copies: int
    worth: int


@dataclass
class Player:
    seat: int
    camp: str
    bot: str
    character: dict
    votes: int = 0
    iron: int = 0
    subpoenas: int = 0
    jailed: bool = False
    hospital_since: int = -1  # campaign turn at which the hospital stay began; -1: not in hospital
    debater: bool = False
    hand: list[Card] = field(default_factory=list)
    meetings: list[dict] = field(default_factory=list)
    side: int = -1  # the camp it works for (0 blue, 1 green) or -1
    belief: list[int] = field(default_factory=list)
    known: set[int] = field(default_factory=set)
    won: bool = False
    played: set[int] = field(default_factory=set)
    ever_hospital: bool = False
    stealers: set[int] = field(default_factory=set)  # seats whose character takes this camp's election

    @property
    def total(self) -> int:
        return self.votes + self.iron

    @property
    def in_hospital(self) -> bool:
        return self.hospital_since >= 0


@dataclass
class Outcome:
    """What one reference game ended with."""

    winners: list[int]
    camps: list[str]
    end: str
    rounds: int
    jails: int
    hospitals: int


class Game:
    """One game of The Wonderful Island under ``rules``, bots chosen per camp."""

    def __init__(self, rules: WonderfulIslandRules, bots: dict[str, str], rng: random.Random):
        self.r = rules
        self.rng = rng
        cat = load_catalogue(rules.catalogue)
        self.cards = []
        for i, c in enumerate(cat.raw["card"]):
            effects = [{"primitive": e["primitive"], "amount": e.get("amount", 1), "target": e["target"]}
                       for e in c["effects"]]
            worth = sum(WORTH[e["primitive"]] * max(1, abs(e["amount"])) for e in effects)
            self.cards.append(Card(i, c["name"], c["type"], c.get("timing", "slot"), effects, c["copies"], worth))
        self.characters = cat.raw["character"]
        self.meeting_kinds = cat.raw["meeting"]
        self.bots = bots
        self.pool = rules.pool()
        self.iron_left = rules.iron_tokens
        self.removed = 0
        self.threshold = rules.election_threshold()
        self.turn = 0
        self.round = 0
        self.candidate = -1
        self.venue = ""
        self.slots: list[tuple[Card | None, int]] = []
        self.settling = False
        self.delta = 0
        self.extra_support = 0
        self.ended = False
        self.end = ""
        self.jails = 0
        self.hospitals = 0
        self.deck: list[Card] = []
        self.discard: list[Card] = []
        self.meeting_pile: list[dict] = []
        self.players: list[Player] = []

    # ------------------------------------------------------------------ helpers
    def coin(self) -> bool:
        return self.rng.random() < 0.5

    def others(self, p: int, need_votes: bool = False) -> list[int]:
        return [q.seat for q in self.players if q.seat != p and not q.jailed and (not need_votes or q.votes > 0)]

    def is_ally(self, p: Player, q: int) -> bool:
        return q == p.seat or (p.side >= 0 and p.belief[q] >= ALLY and not self.suspect(p, q))

    def is_rival(self, p: Player, q: int) -> bool:
        return q != p.seat and (p.side < 0 or p.belief[q] <= RIVAL or self.suspect(p, q))

    def suspect(self, p: Player, q: int) -> bool:
        """q's character takes the election of p's camp and p has not learnt q's camp (WI-END-6)."""
        return q in p.stealers and q not in p.known

    def goal(self, p: Player) -> str:
        return p.character["win"]["condition"] if p.bot == "politician" else ""

    def log(self, *_args) -> None:
        """Hook for a tracing subclass."""

    # ------------------------------------------------------------------ cards and votes
    def draw_one(self) -> Card | None:
        """WI-SETUP-8: an empty draw pile is rebuilt from the shuffled discard pile."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def draw(self, p: Player, n: int) -> None:
        """WI-TURN-2; nobody draws in hospital (WI-HOSP-3)."""
        if p.in_hospital or p.jailed:
            return
        for _ in range(n):
            card = self.draw_one()
            if card is None:
                break
            if len(p.hand) < HAND_CAP:
                p.hand.append(card)
            else:
                self.discard.append(card)

    def take(self, p: Player, i: int) -> Card:
        card = p.hand[i]
        p.hand[i] = p.hand[-1]
        p.hand.pop()
        return card

    def lose_cards(self, p: Player, n: int) -> None:
        for _ in range(n):
            if not p.hand:
                return
            if p.bot == "random":
                i = self.rng.randrange(len(p.hand))
            else:
                i = min(range(len(p.hand)), key=lambda j: (p.hand[j].worth, j))
            self.discard.append(self.take(p, i))

    def gain(self, p: Player, n: int) -> int:
        take = min(n, self.pool)
        p.votes += take
        self.pool -= take
        return take

    def lose(self, p: Player, n: int) -> None:
        """WI-LOSS-1: never more than the votes held."""
        take = min(n, p.votes)
        p.votes -= take
        self.pool += take

    def gain_iron(self, p: Player, n: int) -> int:
        """WI-IRON-1."""
        take = min(n, self.iron_left, self.pool)
        p.iron += take
        self.iron_left -= take
        self.pool -= take
        self.removed += take
        return take

    def transfer(self, frm: Player, to: Player, n: int) -> int:
        """WI-LOSS-2: a transfer, not a loss."""
        take = min(n, frm.votes)
        frm.votes -= take
        to.votes += take
        return take

    def change(self, p: Player, n: int) -> None:
        if self.settling and p.seat == self.candidate:
            self.delta += n
        elif n > 0:
            self.gain(p, n)
        else:
            self.lose(p, -n)

    def send_to_jail(self, p: Player) -> None:
        """WI-SUBP-2, WI-JAIL-1."""
        p.jailed = True
        self.removed += p.votes
        p.votes = p.iron = 0
        p.hospital_since = -1  # p.debater stays: it was willing (WI-V-DEBATE-3)
        self.discard.extend(p.hand)
        p.hand = []
        self.meeting_pile.extend(p.meetings)
        p.meetings = []
        self.jails += 1

    def learn(self, o: Player, q: int) -> None:
        o.known.add(q)
        if o.side >= 0:
            o.belief[q] = 1000 if CAMPS.index(self.players[q].camp) == o.side else 0

    def observe(self, actor: int, toward: int, friendly: bool) -> None:
        if actor == toward:
            return
        for o in self.players:
            if o.seat == actor or o.side < 0 or o.jailed or actor in o.known:
                continue
            ref = 1000 if o.seat == toward else o.belief[toward]
            aim = ref if friendly else 1000 - ref
            o.belief[actor] = (2 * o.belief[actor] + aim) // 3

    # ------------------------------------------------------------------ effects
    def primitive(self, prim: str, amount: int, actor: Player, target: Player | None) -> None:
        if target is None or target.jailed or prim == "none":
            return
        if prim == "votes":
            self.change(target, amount)
        elif prim == "iron":
            self.gain_iron(target, amount)
        elif prim == "subpoena":
            target.subpoenas = min(self.r.jail_subpoenas, target.subpoenas + amount)
            if target.subpoenas >= self.r.jail_subpoenas:
                self.send_to_jail(target)
        elif prim == "clear_subpoena":
            target.subpoenas = max(0, target.subpoenas - amount)
        elif prim == "hospital":
            target.hospital_since = self.turn
            target.ever_hospital = True
            self.hospitals += 1
        elif prim == "draw":
            self.draw(target, amount)
        elif prim == "discard":
            self.lose_cards(target, amount)
        elif prim == "move_votes":
            if target is not actor:
                self.transfer(target, actor, amount)
        elif prim == "peek":
            self.learn(actor, target.seat)
        elif prim == "support":
            self.extra_support += amount

    def effect(self, prim: str, amount: int, actor: Player, target: Player | None) -> None:
        """An effect, then the target's skills triggered by a subpoena or a hospital stay (WI-SKILL-2)."""
        self.primitive(prim, amount, actor, target)
        if target is None or target.jailed:
            return
        if prim == "subpoena":
            self.reactions(target, "subpoenaed")
        elif prim == "hospital":
            self.reactions(target, "hospitalized")

    def reactions(self, p: Player, trigger: str) -> None:
        for s, skill in enumerate(self.skills(p)):
            if skill["trigger"] != trigger or (s < 2 and p.in_hospital):
                continue
            if skill["target"] == "self":
                if s < 2 and not self.self_benefit(p, skill["primitive"], skill.get("amount", 1)):
                    continue
                target = p
            else:
                target = self.hostile_target(p, skill["primitive"])
            if target is not None:
                self.primitive(skill["primitive"], skill.get("amount", 1), p, target)

    def skills(self, p: Player) -> list[dict]:
        return [*p.character["active"], p.character["forced"]]

    def fire_skills(self, p: Player, trigger: str) -> None:
        """WI-SKILL-2, WI-SKILL-3: active skills optional (not in hospital), the forced one always; not
        cancellable."""
        if p.jailed:
            return
        for s, skill in enumerate(self.skills(p)):
            if skill["trigger"] != trigger or skill.get("venue", "any") not in ("any", self.venue):
                continue
            prim, amount, kind = skill["primitive"], skill.get("amount", 1), skill["target"]
            if s < 2:
                if p.in_hospital:
                    continue
                target = self.skill_target(p, prim, amount, kind)
            elif kind == "self":
                target = p
            elif kind == "candidate":
                target = self.players[self.candidate]
            else:
                target = self.hostile_target(p, prim) or self.random_other(p.seat)
            if kind == "others":
                if s < 2 and target is None:
                    continue
                for q in self.players:
                    if q is not p:
                        self.effect(prim, amount, p, q)
                continue
            if target is not None:
                self.effect(prim, amount, p, target)

    def card_hostile(self, card: Card) -> bool:
        return any(e["primitive"] in HOSTILE or (e["primitive"] == "votes" and e["amount"] < 0)
                   for e in card.effects) or card.effects[0]["target"] == "venue_support"

    def try_cancel(self, victim: Player, actor: Player) -> bool:
        """WI-CARD-5: 沙盤推演 against a hostile card."""
        if victim is actor or victim.jailed or victim.in_hospital:
            return False
        for i, card in enumerate(victim.hand):
            if card.timing == "response":
                if not (self.coin() if victim.bot == "random" else not self.is_ally(victim, actor.seat)):
                    return False
                self.discard.append(self.take(victim, i))
                victim.played.add(card.kind)
                return True
        return False

    def card_effects(self, card: Card, actor: Player, target: Player) -> None:
        for e in card.effects:
            prim, amount, kind = e["primitive"], e["amount"], e["target"]
            if kind == "self":
                self.effect(prim, amount, actor, actor)
            elif kind == "others":
                for q in self.players:
                    if q is not actor:
                        self.effect(prim, amount, actor, q)
            elif kind in ("venue_support", "venue_obstruction"):
                self.remove_slot_card("support" if kind == "venue_support" else "obstruction")
            else:
                self.effect(prim, amount, actor, target)

    def remove_slot_card(self, card_type: str) -> None:
        for s, (card, owner) in enumerate(self.slots):
            if card is not None and card.type == card_type:
                self.discard.append(card)
                self.slots[s] = (None, owner)
                return

    def slot_has(self, card_type: str) -> bool:
        return any(card is not None and card.type == card_type for card, _ in self.slots)

    # ------------------------------------------------------------------ bots
    def random_other(self, p: int, need_votes: bool = False) -> Player | None:
        choices = self.others(p, need_votes)
        return self.players[self.rng.choice(choices)] if choices else None

    def strongest_rival(self, p: Player, need_votes: bool) -> Player | None:
        best, best_v = None, -1
        for q in self.players:
            if q is p or q.jailed or not self.is_rival(p, q.seat):
                continue
            v = q.votes if need_votes else q.total
            if need_votes and v == 0:
                continue
            if v > best_v:
                best, best_v = q, v
        return best

    def hostile_target(self, p: Player, prim: str) -> Player | None:
        if p.bot == "random":
            return self.random_other(p.seat, prim == "move_votes")
        if self.goal(p) == "jailed" and prim == "subpoena":
            options = [q for q in self.players if q is not p and not q.jailed]
            return max(options, key=lambda q: (q.subpoenas * 1000 + q.total, -q.seat)) if options else None
        if prim in ("subpoena", "hospital") and p.stealers:
            suspects = [q for q in self.players if self.suspect(p, q.seat) and not q.jailed]
            if suspects:
                return max(suspects, key=lambda q: (q.subpoenas, -q.seat))
        if prim == "subpoena":
            for q in self.players:
                if q is not p and not q.jailed and q.subpoenas == 2 and self.is_rival(p, q.seat):
                    return q
        return self.strongest_rival(p, prim == "move_votes")

    def most_uncertain(self, p: Player) -> Player | None:
        if p.side < 0:
            return None
        best, gap = None, 1000
        for q in self.players:
            if q is p or q.jailed or q.seat in p.known:
                continue
            d = abs(p.belief[q.seat] - 500)
            if d < gap:
                best, gap = q, d
        return best if gap < 300 else None

    def self_benefit(self, p: Player, prim: str, amount: int) -> bool:
        if prim in ("votes", "iron"):
            return amount > 0
        if prim == "draw":
            return True
        if prim == "clear_subpoena":
            return p.subpoenas > 0
        return False

    def skill_target(self, p: Player, prim: str, amount: int, kind: str) -> Player | None:
        if kind == "self":
            if p.bot == "random":
                return p if self.coin() else None
            return p if self.self_benefit(p, prim, amount) else None
        if p.bot == "random":
            return self.random_other(p.seat, prim == "move_votes") if self.coin() else None
        if prim == "peek":
            return self.most_uncertain(p)
        return self.hostile_target(p, prim)

    def action_target(self, p: Player, card: Card) -> Player | None:
        prim, kind = card.effects[0]["primitive"], card.effects[0]["target"]
        if p.bot == "random":
            if not self.coin():
                return None
            return p if kind == "self" else self.random_other(p.seat)
        if self.goal(p) == "hand" and prim != "draw":
            return None
        if kind == "self":
            return p if self.self_benefit(p, prim, card.effects[0]["amount"]) else None
        if prim == "peek":
            return self.most_uncertain(p)
        return self.hostile_target(p, prim)

    def wants_slot(self, p: Player, card: Card) -> bool:
        if p.bot == "random":
            return self.coin()
        if self.goal(p) == "hand":
            return False
        if card.type == "support":
            return self.is_ally(p, self.candidate)
        return self.is_rival(p, self.candidate)

    def meeting_target(self, p: Player) -> Player | None:
        if p.bot == "random":
            return self.random_other(p.seat) if self.coin() else None
        return self.most_uncertain(p)

    def pick_venue(self, c: Player) -> str:
        """WI-ROUND-3: the venue of the best value for the candidate's side (policies.pick_venue)."""
        if c.bot == "random":
            return VENUES[self.rng.randrange(6)]
        goal = self.goal(c)
        if goal == "hand":
            return "tv_debate"
        if goal == "iron":
            return "grassroots"
        bonus = sum(card.type == "support" for card in c.hand) // 2
        need = self.votes_needed(c)
        win, card = 12.0, 1.0
        value = {}
        gain = self.r.rally_votes + bonus
        value["rally"] = win * (gain >= need) + gain
        gain = min(self.r.grassroots_iron + bonus, self.iron_left)
        value["grassroots"] = win * (gain >= need) + 1.5 * gain
        dice = 2 if bonus == 0 else 3
        value["street_sweep"] = win * SWEEP_TAIL[dice][min(need, 7)] + (91 / 36 if dice == 2 else 795 / 216)
        voters = sum(not q.jailed for q in self.players)
        allies = sum(not q.jailed and q is not c and self.is_ally(c, q.seat) for q in self.players)
        to_buy = max(0, (voters + 1) // 2 - 1 - bonus - allies)
        own = self.r.legislature_votes - to_buy
        ally_need = min((self.threshold - q.total for q in self.players if q is not c and not q.jailed
                         and not q.in_hospital and self.is_ally(c, q.seat) and c.side >= 0), default=1 << 20)
        value["legislature"] = (win * (own >= min(need, max(1, ally_need))) + own - to_buy
                                if to_buy <= self.r.legislature_votes else 0.0)
        rival = self.strongest_rival(c, True)
        if rival is None:
            value["poaching"] = 0.0
        else:
            laid = len(c.hand) + bonus
            taken = min(rival.votes, max(0, laid - (len(rival.hand) + 1) // 2))
            value["poaching"] = win * (taken >= need) + 2.0 * taken - card * laid
        others = [q for q in self.players if q is not c and not q.jailed]
        willing = self.predicted_debaters(c)
        declined = len(others) - len(willing)
        if not willing:
            walk = self.r.debate_walkover_votes
            value["tv_debate"] = win * (walk >= need) + walk + card * declined
        else:
            s = 0.55
            side = sum((1 - s) + s * (2.0 if self.is_ally(c, q.seat) else -2.0) for q in willing)
            value["tv_debate"] = win * (1 - s) ** len(willing) * (len(willing) >= need) + side + card * declined
        return max(VENUES, key=lambda v: (value[v], -VENUES.index(v)))

    def asked_order(self, c: Player) -> list[Player]:
        """WI-V-DEBATE-1: the players out of jail, asked from the candidate's right."""
        n = self.r.players
        return [q for q in (self.players[(c.seat + j) % n] for j in range(1, n)) if not q.jailed]

    def debate_value(self, q: Player, c: Player, friend: bool, walkover: float) -> float:
        """WI-V-DEBATE-1, WI-V-DEBATE-2, WI-V-DEBATE-3, WI-V-DEBATE-5, WI-V-DEBATE-10: debating less declining
        for q's side (policies.debate_value)."""
        if q.in_hospital:
            return -1.0
        sign = 1.0 if friend else -1.0
        walk = self.r.debate_walkover_votes
        walk_value = walk + 12.0 * (walk >= self.votes_needed(c))
        decline = sign * (1.0 + walkover * walk_value) - 1.0 * self.r.draw_per_turn
        success = 0.55 * min(len(q.hand), 3) / 3.0
        debate = success * self.r.debate_success_votes + (1.0 - success) * (sign - 1.0 * (len(q.hand) > 0))
        return debate - decline

    def will_debate(self, q: Player, c: Player) -> bool:
        """WI-V-DEBATE-1: q weighs debating against what declining gives c (policies.will_debate)."""
        if q.bot == "random":
            return self.coin()
        order = self.asked_order(c)
        before, after = order[:order.index(q)], order[order.index(q) + 1:]
        chance = 0.0 if any(r.debater for r in before) else 0.5 ** sum(not r.in_hospital for r in after)
        return self.debate_value(q, c, q.side >= 0 and self.is_ally(q, c.seat), chance) >= 0.0

    def predicted_debaters(self, c: Player) -> list[Player]:
        """pick_venue's forecast: debate_value with the candidate's beliefs, in the asking order."""
        order = self.asked_order(c)
        willing: list[Player] = []
        for i, q in enumerate(order):
            if q.in_hospital:
                continue
            chance = 0.0 if willing else 0.5 ** sum(not r.in_hospital for r in order[i + 1:])
            if self.debate_value(q, c, c.side >= 0 and self.is_ally(c, q.seat), chance) >= 0.0:
                willing.append(q)
        return willing

    # ------------------------------------------------------------------ setup
    def set_up(self) -> None:
        """WI-SETUP-1, WI-SETUP-2, WI-SETUP-3, WI-SETUP-4, WI-SETUP-5, WI-SETUP-6, WI-SETUP-7."""
        r, rng = self.r, self.rng
        n = r.players
        order = list(range(len(self.characters)))
        rng.shuffle(order)
        coins = [self.coin() for _ in range(n * (r.characters_dealt - 1))]  # characters before camps
        camps = [c for c, k in zip(CAMPS, r.camps(), strict=True) for _ in range(k)]
        rng.shuffle(camps)
        for p in range(n):
            bot = self.bots[camps[p]]
            dealt = order[p * r.characters_dealt:(p + 1) * r.characters_dealt]
            best = dealt[0]
            for d, other in enumerate(dealt[1:]):
                if bot == "random":
                    best = other if coins[p * (r.characters_dealt - 1) + d] else best
                elif self.score(other) > self.score(best):
                    best = other
            self.players.append(Player(p, camps[p], bot, self.characters[best]))
        for pl in self.players:
            side = CAMPS.index(pl.camp)
            if pl.camp == "politician":
                win = pl.character["win"]
                side = CAMPS.index(win["camp"]) if pl.bot == "politician" and win["condition"] == "camp_elected" else -1
            pl.side = side
            if pl.bot != "random" and pl.camp != "politician":
                pl.stealers = {q.seat for q in self.players if q is not pl and q.character["win"]["condition"]
                               == "camp_elected" and q.character["win"]["camp"] == pl.camp}
            pl.belief = [0] * n
            if side >= 0:
                same = r.camps()[side] - (1 if CAMPS.index(pl.camp) == side else 0)
                pl.belief = [1000 * same // (n - 1)] * n
                pl.belief[pl.seat] = 1000
        self.deck = [self.cards[i] for i, c in enumerate(self.cards) for _ in range(c.copies)]
        rng.shuffle(self.deck)
        self.meeting_pile = [m for m in self.meeting_kinds for _ in range(m["copies"])]
        rng.shuffle(self.meeting_pile)
        for pl in self.players:
            for _ in range(r.hand_size):
                pl.hand.append(self.draw_one())
        if r.meeting_fewer:
            for k in range(r.bg_count() - 1):
                self.take_meeting(self.players[k % n])
        else:
            for pl in self.players:
                for _ in range(r.meeting_per_player):
                    self.take_meeting(pl)
        for pl in self.players:
            self.gain(pl, r.start_votes())

    def score(self, ch: int) -> int:
        """The bots' worth of a character: its active skills less its forced skill."""
        c = self.characters[ch]
        return sum(WORTH[s["primitive"]] * max(1, abs(s.get("amount", 1))) * sign
                   for s, sign in ((c["active"][0], 1), (c["active"][1], 1), (c["forced"], -1)))

    def take_meeting(self, p: Player) -> None:
        if self.meeting_pile:
            p.meetings.append(self.meeting_pile.pop())

    # ------------------------------------------------------------------ action turns
    def turn_over(self) -> bool:
        return self.ended or self.players[self.candidate].jailed

    def pass_meeting(self, s: Player, j: int, q: Player) -> None:
        """WI-CARD-4, WI-MEET-1, WI-MEET-3."""
        m = s.meetings[j]
        s.meetings[j] = s.meetings[-1]
        s.meetings.pop()
        asked = CAMPS.index(m["camp"])
        yes = q.camp == m["camp"]
        if yes:
            e = m["effect"]
            prim, amount = e["primitive"], e.get("amount", 1)
            if e["target"] == "sender":
                if prim == "move_votes":
                    self.transfer(q, s, amount)
                elif prim == "peek":
                    self.learn(s, q.seat)
                else:
                    self.primitive(prim, amount, q, s)
            else:
                self.primitive(prim, amount, s, q)
        if s.side >= 0 and q.seat not in s.known:
            if asked == s.side or yes:
                s.known.add(q.seat)
                s.belief[q.seat] = 1000 if yes and asked == s.side else 0
            else:
                others = self.r.camps()[asked] - (1 if s.camp == m["camp"] else 0)
                p_asked = 1000 * others // max(1, self.r.players - 1)
                if p_asked < 1000:
                    s.belief[q.seat] = min(999, s.belief[q.seat] * 1000 // (1000 - p_asked))
        if not self.r.meeting_removed_after_use:
            self.meeting_pile.append(m)
            self.rng.shuffle(self.meeting_pile)

    def play_strategy(self, p: Player, i: int, target: Player) -> None:
        """WI-CARD-3."""
        card = self.take(p, i)
        p.played.add(card.kind)
        if self.card_hostile(card) and target is not p:
            self.observe(p.seat, target.seat, False)
            if self.try_cancel(target, p):
                self.discard.append(card)
                return
        elif target is not p:
            self.observe(p.seat, target.seat, True)
        self.card_effects(card, p, target)
        self.discard.append(card)

    def play_step(self, p: Player) -> None:
        """WI-TURN-3, WI-CARD-1, WI-CARD-2, WI-CARD-3, WI-CARD-4."""
        for _ in range(2):
            played = False
            i = len(p.hand) - 1
            while i >= 0:
                if self.turn_over() or p.jailed or p.in_hospital:
                    return
                if i >= len(p.hand):
                    i = len(p.hand) - 1
                    continue
                card = p.hand[i]
                if card.type != "strategy":
                    if len(self.slots) < self.r.venue_slots and self.wants_slot(p, card):
                        self.take(p, i)
                        self.slots.append((card, p.seat))
                        p.played.add(card.kind)
                        self.observe(p.seat, self.candidate, card.type == "support")
                        played = True
                elif card.timing == "action":
                    target = self.action_target(p, card)
                    if target is not None:
                        self.play_strategy(p, i, target)
                        played = True
                elif card.timing == "reactive" and (p.bot == "random" or p.seat == self.candidate) and (
                        self.reactive_wanted(p, card)):  # WI-TURN-3, WI-TURN-6: the candidate has no step E
                    self.play_strategy(p, i, self.players[self.candidate])
                    played = True
                i -= 1
            for j in range(len(p.meetings) - 1, -1, -1):
                if self.turn_over():
                    return
                q = self.meeting_target(p)
                if q is not None:
                    self.pass_meeting(p, j, q)
            if not played:
                return

    def discard_step(self, p: Player) -> None:
        """WI-TURN-5, WI-MEET-2."""
        limit, trade = self.r.hand_limit, self.r.trade_for_meeting
        if len(p.hand) - limit >= trade and self.meeting_pile and (self.coin() if p.bot == "random" else p.side >= 0):
            self.lose_cards(p, trade)
            self.take_meeting(p)
        if len(p.hand) > limit:
            self.lose_cards(p, len(p.hand) - limit)

    def action_turn(self, p: Player, extra: int) -> None:
        """WI-TURN-1, WI-TURN-2, WI-TURN-3, WI-TURN-4, WI-TURN-5."""
        self.fire_skills(p, "turn_start")
        if self.turn_over():
            return
        self.draw(p, self.r.draw_per_turn + extra)
        self.play_step(p)
        if not p.jailed and not p.in_hospital:
            self.discard_step(p)

    def reactive_phase(self, c: Player) -> None:
        """WI-TURN-6."""
        n = self.r.players
        for j in range(1, n):
            p = self.players[(c.seat + j) % n]
            if p.jailed or p.in_hospital:
                continue
            for i in range(len(p.hand) - 1, -1, -1):
                if self.turn_over():
                    return
                if i >= len(p.hand):
                    continue
                card = p.hand[i]
                if card.type != "strategy" or card.timing != "reactive":
                    continue
                if self.reactive_wanted(p, card):
                    self.play_strategy(p, i, c)

    def reactive_wanted(self, p: Player, card: Card) -> bool:
        """WI-TURN-6: whether p plays a reactive card against (or for) the candidate now."""
        kind = card.effects[0]["target"]
        if kind == "venue_support" and not self.slot_has("support"):
            return False
        if kind == "venue_obstruction" and not self.slot_has("obstruction"):
            return False
        if p.bot == "random":
            return self.coin()
        if kind == "venue_obstruction":
            return self.is_ally(p, self.candidate)
        return self.is_rival(p, self.candidate)

    # ------------------------------------------------------------------ venues
    def sweep(self, c: Player, bonus: int) -> int:
        """WI-V-SWEEP-1, WI-V-SWEEP-2, WI-V-SWEEP-3."""
        dice = [self.rng.randint(1, 6) for _ in range(min(self.r.dice, 2 + bonus))]
        best = max((a if a == b else abs(a - b)) for i, a in enumerate(dice) for b in dice[i + 1:])
        self.change(c, best)
        return best

    def legislature(self, c: Player, bonus: int) -> int:
        """WI-V-LEG-1, WI-V-LEG-2, WI-V-LEG-4."""
        n, share = self.r.players, self.r.legislature_votes
        voters = sum(not q.jailed for q in self.players)
        yes = 1 + bonus
        ring = [self.players[(c.seat + j) % n] for j in range(1, n)]
        willing = set()
        for q in ring:
            if not q.jailed and (self.coin() if q.bot == "random" else self.is_ally(q, c.seat)):
                willing.add(q.seat)
                yes += 1
        bought = []
        for q in ring:
            if 2 * yes >= voters or len(bought) >= share or c.bot == "random":
                break
            if q.jailed or q.seat in willing:
                continue
            if q.bot == "random" or self.is_ally(q, c.seat) or c.total + share - len(bought) < self.threshold:
                bought.append(q)
                yes += 1
        if 2 * yes < voters:
            return 0
        own = share - len(bought)
        for q in bought:
            self.gain(q, 1)
        if c.bot == "random":
            kept = 0
            for _ in range(own):
                q = self.players[self.rng.randrange(n)]
                while q.jailed:
                    q = self.players[self.rng.randrange(n)]
                if q is c:
                    kept += 1
                else:
                    self.gain(q, 1)
            own = kept
        receiver = self.bill_receiver(c, own) if c.bot != "random" else c
        if receiver is not c:
            self.gain(receiver, own)
            return 0
        self.change(c, own)
        return own

    def bill_receiver(self, c: Player, own: int) -> Player:
        """WI-V-LEG-1: the candidate's share goes to a believed ally it elects when it cannot elect the
        candidate."""
        if own >= self.votes_needed(c) or c.side < 0:
            return c
        allies = [q for q in self.players if q is not c and not q.jailed and not q.in_hospital
                  and self.is_ally(c, q.seat) and self.threshold - q.total <= own]
        return min(allies, key=lambda q: (self.threshold - q.total, q.seat)) if allies else c

    def votes_needed(self, c: Player) -> int:
        goal = c.character["win"]["amount"] if self.goal(c) == "votes" else self.threshold
        return max(1, goal - c.total)

    def poaching(self, c: Player, bonus: int) -> int:
        """WI-V-POACH-1, WI-V-POACH-2, WI-V-POACH-3, WI-V-POACH-4."""
        self.draw(c, bonus)
        if c.bot == "random":
            target = self.random_other(c.seat, True)
        else:
            target = self.strongest_rival(c, True)
            if target is None:
                options = [q for q in self.players if q is not c and not q.jailed and q.votes > 0]
                target = max(options, key=lambda q: (q.votes, -q.seat)) if options else None
        if target is None:
            return 0
        laid = {"support": 0, "obstruction": 0, "strategy": 0}
        for i in range(len(c.hand) - 1, -1, -1) if not c.in_hospital else ():  # WI-HOSP-3
            if c.bot != "random" or self.coin():
                card = self.take(c, i)
                laid[card.type] += 1
                self.discard.append(card)
        matched = 0
        if not target.in_hospital and (self.coin() if target.bot == "random" else not self.is_ally(target, c.seat)):
            for kind in ("support", "obstruction", "strategy"):
                need = laid[kind]
                i = len(target.hand) - 1
                while i >= 0 and need > 0:
                    if target.hand[i].type == kind:
                        self.discard.append(self.take(target, i))
                        need -= 1
                        matched += 1
                    i -= 1
        return self.transfer(target, c, sum(laid.values()) - matched)

    def debate(self, c: Player, bonus: int) -> int:
        """WI-V-DEBATE-3, WI-V-DEBATE-4, WI-V-DEBATE-5, WI-V-DEBATE-6, WI-V-DEBATE-7, WI-V-DEBATE-8,
        WI-V-DEBATE-9."""
        debaters = [self.players[(c.seat + j) % self.r.players] for j in range(1, self.r.players)]
        debaters = [q for q in debaters if q.debater and not q.jailed]
        if not debaters:
            return 0  # nobody willing (the walkover comes after settlement) or every willing one jailed since
        issue: list[Card] = []
        if c.hand and not c.in_hospital:  # WI-HOSP-3
            first = self.issue_choice(c)
            if first >= 0:
                issue.append(self.take(c, first))
                if bonus >= 1 and c.hand and (self.coin() if c.bot == "random" else True):
                    issue.append(self.take(c, self.issue_choice(c) % max(1, len(c.hand))))
        d0 = self.rng.randint(1, 6) if issue else 0
        gained = 0
        for q in debaters:
            if not issue:
                self.gain(q, self.r.debate_success_votes)
                continue
            d = self.rng.randint(1, 6)
            combined = len(issue) == 2
            if d < d0:
                case, count = "identical", len(issue)
            elif d > d0:
                case, count = "kind", len(issue)
            else:
                case, count = "any", d0 if combined else math.ceil(d0 / 2)
            picks = None if q.in_hospital else self.meet_issue(q, case, count, issue)
            wants = self.coin() if q.bot == "random" else not (
                self.is_ally(q, c.seat) and q.side >= 0 and c.total + self.delta + 1 >= self.threshold)
            if picks is not None and wants:
                for i in sorted(picks, reverse=True):
                    self.discard.append(self.take(q, i))
                self.gain(q, self.r.debate_success_votes)
            else:
                self.lose_cards(q, 1)
                self.change(c, 1)
                gained += 1
        self.discard.extend(issue)
        return gained

    def issue_choice(self, c: Player) -> int:
        if not c.hand:
            return -1
        if c.bot == "random":
            return self.rng.randrange(len(c.hand) + 1) - 1
        return min(range(len(c.hand)), key=lambda i: (c.hand[i].copies, i))

    def meet_issue(self, q: Player, case: str, count: int, issue: list[Card]) -> list[int] | None:
        if case == "any":
            return list(range(count)) if len(q.hand) >= count else None
        used: list[int] = []
        for want in issue[:count]:
            found = next((i for i, card in enumerate(q.hand) if i not in used and (
                card.kind == want.kind if case == "identical" else card.type == want.type)), None)
            if found is None:
                return None
            used.append(found)
        return used

    def venue_effect(self, c: Player, bonus: int) -> int:
        if self.venue == "rally":
            self.change(c, self.r.rally_votes + bonus)
            return self.r.rally_votes + bonus
        if self.venue == "grassroots":
            return self.gain_iron(c, self.r.grassroots_iron + bonus)
        if self.venue == "street_sweep":
            return self.sweep(c, bonus)
        if self.venue == "legislature":
            return self.legislature(c, bonus)
        if self.venue == "poaching":
            return self.poaching(c, bonus)
        return self.debate(c, bonus)

    # ------------------------------------------------------------------ settlement and endings
    def settle(self, c: Player) -> None:
        """WI-SETTLE-1, WI-SETTLE-2, WI-SETTLE-3, WI-SETTLE-4, WI-SETTLE-5."""
        self.settling, self.delta, self.extra_support = True, 0, 0
        support = 0
        for card, owner in list(self.slots):
            if card is None:
                continue
            if card.type == "support":
                support += 1
            elif self.card_hostile(card) and self.try_cancel(c, self.players[owner]):
                continue
            self.card_effects(card, self.players[owner], c)
            if c.jailed:
                break
        if not c.jailed:
            self.fire_skills(c, "own_campaign")
            for q in self.players:
                if q is not c:
                    self.fire_skills(q, "others_campaign")
        support += self.extra_support
        if not c.jailed:
            self.venue_effect(c, support // self.r.support_per_bonus)
        self.settling = False
        delta, self.delta = self.delta, 0
        if not c.jailed:
            if delta > 0:
                self.gain(c, delta)
            elif delta < 0:
                self.lose(c, -delta)
            if self.venue == "tv_debate" and not any(q.debater for q in self.players):
                self.gain(c, self.r.debate_walkover_votes)

    def can_declare(self, p: Player) -> bool:
        return not p.jailed and not p.in_hospital

    def goal_met(self, p: Player, counting: bool = False) -> bool:
        """WI-END-3, WI-JAIL-4; hospital bars declaring, not the forced count (WI-END-4 A)."""
        win = p.character["win"]
        if win["condition"] == "jailed":
            return sum(q.jailed for q in self.players) >= win["amount"] and (p.jailed or counting or not p.in_hospital)
        if p.jailed or (p.in_hospital and not counting):
            return False
        if win["condition"] == "votes":
            return p.total >= win["amount"]
        if win["condition"] == "iron":
            return p.iron >= win["amount"]
        if win["condition"] == "hand":
            return len(p.hand) >= win["amount"]
        return False

    def ready(self, camp: str) -> bool:
        return any(p.camp == camp and self.can_declare(p) and p.total >= self.threshold for p in self.players)

    def finish(self, end: str) -> None:
        self.ended, self.end = True, end

    def camp_wins(self, camp: str) -> None:
        for p in self.players:
            if p.camp == camp:
                p.won = True

    def check_endings(self) -> None:
        """WI-END-1, WI-END-2, WI-END-3, WI-END-4, WI-END-5, WI-END-6, WI-V-LEG-3."""
        if self.ended:
            return
        free = [p for p in self.players if not p.jailed]
        if len(free) == 1:
            last = free[0]
            if last.camp == "politician":
                last.won = True
            else:
                self.camp_wins(last.camp)
            self.finish("last_out")
            return
        while self.ready("blue") and self.ready("green"):
            self.threshold += 1
        camp = "blue" if self.ready("blue") else ("green" if self.ready("green") else "")
        winners = 0
        for p in self.players:
            if p.camp != "politician":
                continue
            win = p.character["win"]
            depends = camp and win["condition"] == "camp_elected" and win["camp"] == camp
            if (depends and self.can_declare(p)) or self.goal_met(p):
                p.won = True
                winners += 1
        if winners:
            self.finish("politician")
        elif camp:
            self.camp_wins(camp)
            self.finish("threshold")

    def forced_count(self) -> None:
        """WI-END-4."""
        winners = [p for p in self.players if p.camp == "politician" and self.goal_met(p, counting=True)]
        if not winners:
            best_bg = max((p.total for p in self.players if p.camp != "politician"), default=-1)
            best_pol = max((p.total for p in self.players if p.camp == "politician" and not p.jailed), default=-1)
            if best_pol > best_bg:
                winners = [p for p in self.players if p.camp == "politician" and not p.jailed and p.total == best_pol]
        for p in winners:
            p.won = True
        if not winners:
            blue = sum(p.total for p in self.players if p.camp == "blue")
            green = sum(p.total for p in self.players if p.camp == "green")
            if blue >= green:
                self.camp_wins("blue")
            if green >= blue:
                self.camp_wins("green")
        self.finish("forced")

    def campaign_turn(self, c: Player) -> None:
        """WI-ROUND-3, WI-ROUND-4, WI-V-DEBATE-1, WI-V-DEBATE-2, WI-HOSP-2."""
        n = self.r.players
        self.turn += 1
        self.candidate = c.seat
        self.slots = []
        self.venue = self.pick_venue(c)
        unwilling = 0
        if self.venue == "tv_debate":  # WI-V-DEBATE-1: all out of jail asked; decliners turned over
            for q in self.asked_order(c):
                if self.will_debate(q, c):
                    q.debater = True
                else:
                    if not q.in_hospital:
                        q.hospital_since = self.turn - 1
                    unwilling += 1
        for j in range(1, n + 1):
            p = self.players[(c.seat + j) % n]
            if self.turn_over():
                break
            if p.jailed or p.in_hospital:
                continue
            self.action_turn(p, unwilling if p is c and self.venue == "tv_debate" else 0)
            self.check_endings()
        if not self.turn_over():
            self.reactive_phase(c)
        if not self.turn_over():
            self.settle(c)
        self.discard.extend(card for card, _ in self.slots if card is not None)
        self.slots = []
        for q in self.players:
            q.debater = False
            if q is not c and 0 <= q.hospital_since < self.turn:
                q.hospital_since = -1
        self.check_endings()

    def play(self) -> Outcome:
        """WI-ROUND-1, WI-ROUND-2: rounds of campaign turns from seat 0 until an ending."""
        self.set_up()
        for r in range(1, self.r.rounds() + 1):
            self.round = r
            for c in self.players:
                if self.ended:
                    break
                if c.jailed:
                    continue
                if c.in_hospital:  # WI-HOSP-2: skipped; WI-HOSP-6: when nobody out of jail is free, the others turn back
                    if all(q.jailed or q.in_hospital for q in self.players):
                        for q in self.players:
                            if q is not c and not q.jailed:
                                q.hospital_since = -1
                    continue
                self.campaign_turn(c)
                if not self.ended and self.pool == 0:
                    self.forced_count()
            if self.ended:
                break
        if not self.ended:
            self.forced_count()
        return Outcome([p.seat for p in self.players if p.won], [p.camp for p in self.players], self.end,
                       self.round, self.jails, self.hospitals)


def play_one(rules: WonderfulIslandRules, bots: dict[str, str], seed: int) -> Outcome:
    """One game with its own random stream."""
    return Game(rules, bots, random.Random(seed)).play()


def play_many(rules: WonderfulIslandRules, bots: dict[str, str], seed: int, n_games: int) -> dict[str, int]:
    """Counts of camp wins and endings over n games (game i seeded by (seed, i))."""
    counts = {"n": 0, "win_blue": 0, "win_green": 0, "win_politician": 0, "threshold": 0, "politician": 0,
              "forced": 0, "last_out": 0, "rounds": 0, "jails": 0}
    for i in range(n_games):
        out = play_one(rules, bots, seed * 1_000_003 + i)
        counts["n"] += 1
        won_camps = {out.camps[p] for p in out.winners}
        for camp in CAMPS:
            counts[f"win_{camp}"] += camp in won_camps
        counts[out.end] += 1
        counts["rounds"] += out.rounds
        counts["jails"] += out.jails
    return counts
