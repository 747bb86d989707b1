"""Island Nation in plain Python, one game at a time: the cross-check and the speed baseline.

Written for clarity from docs/rules/island-nation.md and the bots' descriptions (cards and
abilities included), sharing nothing
with the batch engine but the scenario and the map loader: the public belief is a Python set of
points, randomness is a ``random.Random`` per game. Its outcome distributions must agree with the
engine's within sampling error (tests/island_nation/test_in_reference.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from sim.games.island_nation.board import Board

FAR = 6
SAFE = 3  # policies.SAFE: distance from artillery counts up to 3 road steps before the window
ROUNDS = 10
REASONS = ("escape", "all artillery dead", "catch", "shot", "time")
FROGMAN_BOTS = ("random", "runner", "ghost")
ARTILLERY_BOTS = ("random", "patrol", "hunter")


@dataclass
class Artillery:
    point: int
    hp: int
    bullets: int
    traitor: bool = False
    ability: tuple[str, int] | None = None  # (effect, amount)
    ability_uses: int = 0

    @property
    def alive(self) -> bool:
        return self.hp > 0


@dataclass
class Outcome:
    winner: str  # "frogman" or "artillery"
    reason: str  # one of REASONS
    end_round: int
    escape_round: int = 0
    public_sizes: list[int] = field(default_factory=list)


_LISTS: dict[tuple[int, int], tuple] = {}


def as_lists(board: Board, shot_range: int) -> tuple:
    """The board's arrays as Python lists (read once per board): road steps, road distances,
    shot lines up to the range, evac flags."""
    key = (id(board), shot_range)
    if key not in _LISTS:
        lines = [[[c for c in line[:shot_range] if c >= 0] for line in row] for row in board.line.tolist()]
        _LISTS[key] = (board.road_step.tolist(), board.road_dist.tolist(), lines, [bool(e) for e in board.is_evac])
    return _LISTS[key]


class Game:
    """One game: the board, the rules, the two bots, and a random source."""

    def __init__(self, board: Board, rules, frogman_bot: str, artillery_bot: str, rng: random.Random):
        self.b = board
        self.n = len(board.labels)
        self.rules = rules
        self.fbot = frogman_bot
        self.abot = artillery_bot
        self.rng = rng
        self.roads, self.distances, self.lines, self.is_evac = as_lists(board, rules.shot_range)
        self.evac = [p for p in range(self.n) if board.is_evac[p]]
        self.numbered = [p for p in range(self.n) if not board.is_evac[p]]
        fhp, fbul, ahp, abul = rules.loadout()
        self.frogman_hp, self.frogman_bullets = fhp, fbul
        self.artillery_hp, self.artillery_bullets = ahp, abul
        self.mines = rules.mines
        self.mine_at: int | None = None
        self.can_at: int | None = None
        self.extra_ap = 0
        self.deck = [i for i, card in enumerate(rules.deck) for _ in range(card.count)]
        self.hands: list[dict[int, int]] = [{} for _ in range(rules.players)]  # player 0 = frogman
        self.pending: list[int] = []
        self.round = 0
        self.over: Outcome | None = None
        self.sizes: list[int] = []
        self.plan: tuple | None = None  # the hunter's goal and what it was chosen for

    # ------------------------------------------------------------ board helpers

    def step(self, p: int, d: int) -> int:
        """Road step from p in direction d (0..5), or -1."""
        return self.roads[p][d]

    def dist(self, p: int, q: int) -> int:
        return self.distances[p][q]

    def shot_line(self, p: int, d: int) -> list[int]:
        return self.lines[p][d]

    def artillery_points(self) -> set[int]:
        return {a.point for a in self.arts if a.alive}

    def loyal(self) -> list[Artillery]:
        return [a for a in self.arts if a.alive and not a.traitor]

    def in_window(self) -> bool:
        return self.rules.evac_from <= self.round <= self.rules.evac_to

    def end(self, winner: str, reason: str) -> None:
        self.over = Outcome(winner, reason, self.round)

    # ------------------------------------------------------------ the game

    def play(self) -> Outcome:
        self.frogman = self.rng.choice(self.numbered)
        self.arts: list[Artillery] = []
        for k in range(self.rules.players - 1):
            self.arts.append(Artillery(self.place_artillery(k), self.artillery_hp, self.artillery_bullets))
        self.public = set(self.numbered)
        self.rng.shuffle(self.deck)
        characters = list(self.rules.abilities)
        self.rng.shuffle(characters)
        for art, character in zip(self.arts, characters, strict=False):
            art.ability, art.ability_uses = (character.effect, character.amount), character.uses
        for self.round in range(1, ROUNDS + 1):
            self.frogman_turn()
            if self.over:
                break
            for k, art in enumerate(self.arts):
                if art.alive:
                    self.artillery_turn(k, art)
                    if self.over:
                        break
            if self.over:
                break
            self.sizes.append(len(self.public))
        if not self.over:
            self.round = ROUNDS
            self.end("artillery", "time")
        self.over.public_sizes = self.sizes
        return self.over

    def place_artillery(self, k: int) -> int:
        """IN-SETUP-4: on a strategic (numbered) point; the patrol beside the evac point it guards."""
        if self.abot == "patrol":
            guarded = self.evac[k % len(self.evac)]
            return min(self.numbered, key=lambda q: (self.dist(guarded, q), self.numbered.index(q)))
        if self.abot == "hunter":
            if k == 0:
                return self.rng.choice(self.numbered)
            offset = self.rng.randrange(len(self.numbered))
            order = self.numbered[offset:] + self.numbered[:offset]
            placed = [a.point for a in self.arts]
            return max(order, key=lambda q: min(self.dist(p, q) for p in placed))
        return self.rng.choice(self.numbered)

    # ------------------------------------------------------------ the frogman

    def frogman_turn(self) -> None:
        start = self.frogman
        hidden = self.round in self.rules.bottle_rounds
        if self.rules.evac_escape == "standing" and self.in_window():
            # IN-WIN-F1, other reading: standing on an evac point as the turn opens escapes
            if self.is_evac[start]:
                self.end("frogman", "escape")
                self.over.escape_round = self.round
                return
            self.public = {p for p in self.public if not self.is_evac[p]}
        if hidden:
            self.public = {start}
        self.extra_ap = 0
        self.use_items(0, self.fbot)
        ap = self.rules.action_points + self.extra_ap
        spent = shots = draws = 0
        d = self.choose_frogman_shot()
        if d is not None:
            self.frogman_shoots(d, hidden)
            spent = shots = 1
            if self.over:
                return
        blocked = self.artillery_points()
        reserve = 1 if self.must_leave(blocked) and self.free_steps(self.frogman, blocked) else 0
        while self.can_draw(ap - spent - reserve) and self.frogman_draws():
            self.draw(0)
            spent += 2
            draws += 1
        path = [start]
        while spent < ap:
            d = self.choose_frogman_step(spent, ap, hidden, blocked)
            if d is None:
                break
            self.frogman = self.step(self.frogman, d)
            path.append(self.frogman)
            spent += 1
            if not hidden:
                self.public = self.announced_step(self.public, d, blocked)
            if self.in_window() and self.is_evac[self.frogman]:
                self.end("frogman", "escape")
                self.over.escape_round = self.round
                return
            if not hidden and self.can_at is not None:
                # IN-ABILITY-3: the can rattles, or its point is ruled out
                self.public = {self.can_at} if self.frogman == self.can_at else self.public - {self.can_at}
        if spent == 0:
            if self.frogman_bullets > 0:
                self.frogman_shoots(self.rng.randrange(6), hidden)
                shots += 1
                if self.over:
                    return
            elif self.can_draw(ap):  # IN-TURN-3: a card is an action too
                self.draw(0)
                draws += 1
            elif not hidden:
                self.public = {p for p in self.public if not self.free_steps(p, blocked)}
        if self.mines > 0:
            spot = self.choose_mine(path)
            if spot is not None:
                self.mines -= 1
                self.mine_at = spot
        if hidden:
            self.public = self.bottle_reach(start, ap - shots - 2 * draws, shots + draws > 0, blocked)
        self.resolve_events(0)

    # ------------------------------------------------------------ cards and abilities

    def can_draw(self, ap_left: int) -> bool:
        """IN-CARD-1: 2 AP and a card left."""
        return ap_left >= 2 and bool(self.deck) and len(self.pending) < 8

    def draw(self, player: int) -> None:
        """IN-CARD-2/3: items to the hand, events wait for the end of the turn."""
        card = self.deck.pop(0)
        if self.rules.deck[card].kind == "item":
            self.hands[player][card] = self.hands[player].get(card, 0) + 1
        else:
            self.pending.append(card)

    def resolve_events(self, player: int) -> None:
        for card in self.pending:
            if not self.over:
                self.apply(player, self.rules.deck[card].effect, self.rules.deck[card].amount)
        self.pending = []

    def use_items(self, player: int, bot: str) -> None:
        """IN-CARD-2, IN-ABILITY-2: at most one card of each kind and one ability use a turn."""
        for card in range(len(self.rules.deck)):
            effect = self.rules.deck[card].effect
            if self.hands[player].get(card, 0) > 0 and self.wants(player, bot, effect):
                self.hands[player][card] -= 1
                self.apply(player, effect, self.rules.deck[card].amount)
        if player > 0:
            art = self.arts[player - 1]
            if art.ability_uses > 0 and self.wants(player, bot, art.ability[0]):
                art.ability_uses -= 1
                self.apply(player, *art.ability)

    def apply(self, player: int, effect: str, amount: int) -> None:
        """IN-CARD-4/5, IN-ABILITY-3: one effect primitive."""
        art = self.arts[player - 1] if player > 0 else None
        if effect == "heal":
            if art is None:
                self.frogman_hp = min(self.rules.loadout()[0], self.frogman_hp + amount)
            else:
                art.hp = min(self.artillery_hp, art.hp + amount)
        elif effect == "bullets":
            if art is None:
                self.frogman_bullets += amount
            else:
                art.bullets += amount
        elif effect == "extra_ap":
            self.extra_ap += amount
        elif effect == "radar" and art is not None:
            ball = {q for q in range(self.n) if self.dist(art.point, q) <= min(amount, 3)}
            self.public = self.public & ball if self.frogman in ball else self.public - ball
        elif effect == "traitor" and art is not None:
            art.traitor = True
            if not self.loyal():
                self.end("frogman", "all artillery dead")
        elif effect == "can" and art is not None:
            self.can_at = art.point

    def wants(self, player: int, bot: str, effect: str) -> bool:
        """Whether a bot uses an item or ability with this effect now."""
        if effect == "traitor" or (player == 0 and effect in ("radar", "can")):
            return False
        if bot == "random":
            return self.rng.random() < 0.5
        art = self.arts[player - 1] if player > 0 else None
        if effect == "heal":
            return self.frogman_hp < self.rules.loadout()[0] if art is None else art.hp < self.artillery_hp
        if effect == "bullets":
            return self.frogman_bullets == 0 if art is None else art.bullets == 0
        if effect == "extra_ap":
            return True
        if effect == "radar":
            return len(self.public) > 1
        return self.round >= self.rules.evac_from - 2

    def frogman_draws(self) -> bool:
        if self.fbot == "random":
            return self.rng.random() < 0.25
        return self.round <= self.rules.evac_from - 3 and self.threat(self.frogman) >= 4

    def must_leave(self, blocked: set[int]) -> bool:
        """IN-MOVE-4, other reading: a frogman sharing its point with artillery must step off."""
        return not self.rules.frogman_may_stay_on_artillery and self.frogman in blocked

    def free_steps(self, p: int, blocked: set[int]) -> list[int]:
        return [d for d in range(6) if self.step(p, d) >= 0 and self.step(p, d) not in blocked]

    def announced_step(self, public: set[int], d: int, blocked: set[int]) -> set[int]:
        """IN-BELIEF-2: where a step in direction d can lead from each possible point."""
        after = {self.step(p, d) for p in public} - {-1} - blocked
        if self.in_window():
            after = {p for p in after if not self.is_evac[p]}
        return after

    def bottle_reach(self, start: int, max_steps: int, may_stay: bool, blocked: set[int]) -> set[int]:
        """IN-BELIEF-3: points reachable in 1..max_steps unannounced steps."""
        frontier, seen = {start}, set()
        for _ in range(max_steps):
            frontier = {self.step(p, d) for p in frontier for d in range(6)} - {-1} - blocked
            if self.in_window():
                frontier = {p for p in frontier if not self.is_evac[p]}
            seen |= frontier
        if may_stay or not seen:
            seen.add(start)
        return seen

    def targets(self) -> list[Artillery]:
        """IN-SHOOT-4, IN-CARD-5: who a frogman's shot can hit: the loyal artillery (every living one
        in the other reading, ``frogman_shoots_traitors``)."""
        if self.rules.frogman_shoots_traitors:
            return [a for a in self.arts if a.alive]
        return self.loyal()

    def shot_victim(self, p: int, d: int) -> Artillery | None:
        """IN-SHOOT-4/5/6: nearest target on the line; the weakest on a shared point."""
        for c in self.shot_line(p, d):
            there = [a for a in self.targets() if a.point == c]
            if there:
                return min(there, key=lambda a: a.hp)
        return None

    def first_target_point(self, p: int, d: int) -> int | None:
        for c in self.shot_line(p, d):
            if any(a.point == c for a in self.targets()):
                return c
        return None

    def shot_directions(self, d: int) -> range:
        """IN-BELIEF-5: the directions the public must consider: all six, or the announced one."""
        return range(d, d + 1) if self.rules.frogman_shot_direction == "announced" else range(6)

    def frogman_shoots(self, d: int, hidden: bool) -> None:
        victim = self.shot_victim(self.frogman, d)
        self.frogman_bullets -= 1
        if not hidden:
            seen = None if victim is None else victim.point
            self.public = {p for p in self.public
                           if any(self.first_target_point(p, e) == seen for e in self.shot_directions(d))}
        if victim is not None:
            self.wound(victim)

    def wound(self, art: Artillery) -> None:
        art.hp -= 1
        if art.hp == 0 and not self.loyal():
            self.end("frogman", "all artillery dead")

    # ------------------------------------------------------------ frogman bots

    def threat(self, q: int) -> int:
        return min([FAR] + [self.dist(a.point, q) for a in self.loyal()])

    def goal_distance(self, q: int, blocked: set[int]) -> int:
        free = [self.dist(q, e) for e in self.evac if e not in blocked]
        return min(free) if free else min(self.dist(q, e) for e in self.evac)

    def place_score(self, q: int, steps_left: int, blocked: set[int]) -> float:
        goal = self.goal_distance(q, blocked)
        safety = self.threat(q)
        if self.in_window():
            return -2.0 * goal + 0.5 * min(safety, 3)
        allowance = self.rules.action_points * (self.rules.evac_from - self.round) + steps_left
        return 1.0 * min(safety, SAFE) - 3.0 * max(0, goal - allowance)

    def choose_frogman_shot(self) -> int | None:
        if self.frogman_bullets <= 0:
            return None
        if self.fbot == "random":
            return self.rng.randrange(6) if self.rng.random() < 0.25 else None
        if self.fbot != "ghost":
            return None
        for d in range(6):
            v = self.shot_victim(self.frogman, d)
            if v is not None and v.hp == 1 and not v.traitor:
                if len(self.loyal()) == 1:
                    return d
                kept = [p for p in self.public if any(self.shot_victim(p, e) is v for e in self.shot_directions(d))]
                if 2 * len(kept) >= len(self.public):
                    return d
        return None

    def choose_frogman_step(self, spent: int, ap: int, hidden: bool, blocked: set[int]) -> int | None:
        legal = self.free_steps(self.frogman, blocked)
        if not legal:
            return None
        stay = spent > 0 and not self.must_leave(blocked)
        if self.fbot == "random":
            if stay and self.rng.random() < 0.25:
                return None
            return self.rng.choice(legal)
        steps_left = ap - spent - 1
        best, best_d = -math.inf, None
        if stay:
            best = self.place_score(self.frogman, steps_left + 1, blocked) + 0.3 * self.rng.random()
            if self.fbot == "ghost":
                best += math.log2(max(1, len(self.public))) - (1.0 if hidden else 0.0)
        for d in legal:
            q = self.step(self.frogman, d)
            if self.in_window() and self.is_evac[q]:
                return d
            score = self.place_score(q, steps_left, blocked) + 0.3 * self.rng.random()
            if q == self.can_at and not hidden:
                score -= 10.0
            if self.fbot == "ghost" and not hidden:
                score += math.log2(max(1, len(self.announced_step(self.public, d, blocked))))
            if score > best:
                best, best_d = score, d
        return best_d

    def choose_mine(self, path: list[int]) -> int | None:
        if self.fbot == "random":
            return self.rng.choice(path) if self.rng.random() < 0.2 else None
        near = [(self.threat(p), i, p) for i, p in enumerate(path) if self.threat(p) < 4]
        if not near:
            return None
        if self.fbot == "runner":
            return near[0][2]
        return min(near)[2]

    # ------------------------------------------------------------ the artillery

    def artillery_turn(self, k: int, art: Artillery) -> None:
        self.extra_ap = 0
        if not art.traitor:
            self.use_items(k + 1, self.abot)
        ap = self.rules.action_points + self.extra_ap
        spent, shot = 0, False
        while spent < ap and art.alive and not self.over:
            action, d = self.choose_artillery_action(k, art, spent, ap, shot, self.can_draw(ap - spent))
            if action == "end":
                break
            spent += 1
            if action == "move":
                self.artillery_moves(art, d)
            elif action == "shoot":
                shot = True
                self.artillery_shoots(art, d)
            elif action == "draw":
                spent += 1
                self.draw(k + 1)
            else:
                self.artillery_catches(art)
        if art.alive and not self.over:
            self.resolve_events(k + 1)
        self.pending = []

    def artillery_moves(self, art: Artillery, d: int) -> None:
        art.point = self.step(art.point, d)
        if self.mine_at == art.point:
            self.mine_at = None
            self.wound(art)

    def artillery_shoots(self, art: Artillery, d: int) -> None:
        """IN-SHOOT-7, IN-BELIEF-4: covered points up to the first traitor; hit or miss is told."""
        art.bullets -= 1
        covered, traitor = [], None
        for c in self.shot_line(art.point, d):
            covered.append(c)
            traitor = next((t for t in self.arts if t is not art and t.alive and t.traitor and t.point == c), None)
            if traitor:
                break
        if self.frogman in covered:
            self.public &= set(covered)
            self.frogman_hp -= 1
            if self.frogman_hp == 0:
                self.end("artillery", "shot")
        else:
            self.public -= set(covered)
            if traitor:
                self.wound(traitor)

    def artillery_catches(self, art: Artillery) -> None:
        if self.frogman == art.point:
            self.end("artillery", "catch")
            return
        self.public.discard(art.point)
        self.wound(art)

    # ------------------------------------------------------------ artillery bots

    def choose_artillery_action(self, k: int, art: Artillery, spent: int, ap: int, shot: bool,
                                can_draw: bool) -> tuple[str, int]:
        if art.traitor:
            return self.traitor_action(art, spent)
        if self.abot == "hunter":
            return self.hunter(k, art, spent, ap, shot, can_draw)
        if self.abot == "patrol":
            return self.patrol(k, art, spent, shot, can_draw)
        actions = [("move", d) for d in range(6) if self.step(art.point, d) >= 0]
        if art.bullets > 0 and not shot:
            actions += [("shoot", d) for d in range(6)]
        actions.append(("catch", 0))
        if can_draw:
            actions.append(("draw", 0))
        if spent > 0:
            actions.append(("end", 0))
        return self.rng.choice(actions)

    def covered(self, p: int, d: int) -> int:
        return len(self.public & set(self.shot_line(p, d)))

    def best_line(self, p: int) -> tuple[int, int]:
        counts = [self.covered(p, d) for d in range(6)]
        best = max(counts)
        return counts.index(best), best

    def in_range(self, p: int) -> set[int]:
        """The points of the public set on any of the six shot lines from p."""
        return {c for d in range(6) for c in self.shot_line(p, d)} & self.public

    def step_toward(self, a: int, target: int) -> int:
        for d in range(6):
            q = self.step(a, d)
            if q >= 0 and self.dist(q, target) < self.dist(a, target):
                return d
        raise AssertionError("no step toward the target")

    def near(self, p: int, radius: int) -> set[int]:
        return {q for q in self.public if self.dist(p, q) <= radius}

    def traitor_action(self, art: Artillery, spent: int) -> tuple[str, int]:
        """A traitor only wanders: one random road step a turn."""
        if spent > 0:
            return "end", 0
        pick = self.rng.randrange(6)
        return "move", next((pick + i) % 6 for i in range(6) if self.step(art.point, (pick + i) % 6) >= 0)

    def patrol(self, k: int, art: Artillery, spent: int, shot: bool, can_draw: bool) -> tuple[str, int]:
        a = art.point
        if self.public == {a}:
            return "catch", 0
        if art.bullets > 0 and not shot:
            d, c = self.best_line(a)
            if c > 0 and 4 * c >= len(self.public):
                return "shoot", d
        rank = sum(1 for j in range(k) if self.arts[j].alive and not self.arts[j].traitor) % len(self.evac)
        ranked = sorted(self.evac, key=lambda e: (-len(self.near(e, 3)), self.evac.index(e)))
        post = ranked[rank]
        if a != post:
            return "move", self.step_toward(a, post)
        if spent == 0:
            if can_draw:
                return "draw", 0
            return "move", next(d for d in range(6) if self.step(a, d) >= 0)
        return "end", 0

    def hunter(self, k: int, art: Artillery, spent: int, ap: int, shot: bool, can_draw: bool) -> tuple[str, int]:
        a = art.point
        size = len(self.public)
        left = ap - spent
        if spent == 0 and can_draw and size > 20:
            return "draw", 0
        can_shoot = art.bullets > 0 and not shot
        if a in self.public and (size == 1 or (size == 2 and art.hp > 1)):
            return "catch", 0
        if can_shoot:
            d, c = self.best_line(a)
            if c > 0 and 3 * c >= size:
                return "shoot", d
        if size == 1:
            (t,) = self.public
            if self.dist(a, t) <= left - 1:
                return "move", self.step_toward(a, t)
        best_q = self.hunter_plan(k, a, min(left, 3), can_shoot)
        if best_q != a:
            return "move", self.step_toward(a, best_q)
        if spent > 0:
            return "end", 0
        if can_shoot:
            d, c = self.best_line(a)
            if c > 0:
                return "shoot", d
        return "move", next(d for d in range(6) if self.step(a, d) >= 0)

    def hunter_plan(self, k: int, a: int, radius: int, can_shoot: bool) -> int:
        """The hunter's goal, chosen once and kept while the public set and the shot left are the
        same and its reach lies inside the reach it was chosen from (also once reached)."""
        key = (k, self.round, can_shoot, frozenset(self.public))
        if self.plan is not None and self.plan[0] == key:
            origin, reach, goal = self.plan[1:]
            if self.dist(origin, a) + radius <= reach:
                return goal
        goal = self.hunter_goal(k, a, radius, can_shoot)
        self.plan = (key, a, radius, goal)
        return goal

    def hunter_goal(self, k: int, a: int, radius: int, can_shoot: bool) -> int:
        """Best point within reach: (2 x set points in shot range + adjacent set points + late evac guard) / size
        - crowd / 2; ties to the first best going round the candidates (nearest first, then by
        number) from a random one."""
        size = len(self.public)
        late = self.round >= self.rules.evac_from - 1
        candidates = sorted((q for q in range(self.n) if self.dist(a, q) <= radius),
                            key=lambda q: (self.dist(a, q), q))
        start = self.rng.randrange(len(candidates))
        best_q, best = a, -math.inf
        for q in candidates[start:] + candidates[:start]:
            score = 2.0 * len(self.in_range(q)) if can_shoot else 0.0
            score += len(self.near(q, 1))
            if late and self.is_evac[q]:
                score += 2.0 * len(self.near(q, 3))
            crowd = sum(1 for j, o in enumerate(self.arts)
                        if j != k and o.alive and not o.traitor and self.dist(o.point, q) <= 1)
            score = 2 * score - size * crowd
            if score > best:
                best_q, best = q, score
        return best_q

def play_reference(board: Board, rules, frogman_bot: str, artillery_bot: str, seed: int) -> Outcome:
    """One game with its own ``random.Random(seed)``."""
    return Game(board, rules, frogman_bot, artillery_bot, random.Random(seed)).play()
