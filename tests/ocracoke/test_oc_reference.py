"""The batch engine against the plain-Python reference (its own code), for every bot at every seat.

1. Replayed deals, for the scripted bots (naive, noswap, counter: each at every seat, and a mixed table;
   2, 3 and 4 players; and with each switchable rule switched). The reference is dealt the engine's cards
   (and, after a kraken swap, the engine's order of the pair: the only other draws these bots meet) and
   must then make the same choice at every turn, take the same extra looks, pay the same gold by rule A..E
   at every declaration and end each game with the same gold. Any difference is a rule or a bot written
   differently; the message names the game, hand, round, seat and what differs.
2. Sampling, for tables with the random bot (whose draws the two codes make from different generators):
   win rates, hands per game, payouts by rule and role, forced declarations and the ship's sum agree
   within sampling error. Each case tests its ~20 statistics with Holm's correction at ALPHA family-wise,
   ALPHA = 1 % / the number of cases, so a correct engine fails this file's sampling tests for at most
   1 % of seed choices (the seeds are fixed: a result changes only when the code does). The engine plays
   ENGINE_TIMES as many games as the slow reference, so the reference's n sets the error of a difference:
   with 5,000 reference games (4,000 in the smaller cases) a win rate near 25 % that differs by 3.2 points
   (3.6) is caught with 80 % power, a payout rate (over every seat of every declaration) by well under a
   point; 10,000 games a side caught 3.0 points at twice the reference's time.
"""

from pathlib import Path

import numpy as np
import pytest
from ocracoke_helpers import logged_game, make_rules, seated
from scipy.stats import chi2_contingency

from sim.core import stats
from sim.core.layout import switchable_rules, switched
from sim.games.ocracoke import engine as E
from sim.games.ocracoke import play, reference
from sim.games.ocracoke.policies import PEEK, SPY, SWAP, WAVE
from sim.games.ocracoke.reference import HAND, ISLAND, KRAKEN, SHIP, Game, Hand, play_games
from sim.games.ocracoke.rules import OcracokeRules

SCRIPTED = ("naive", "noswap", "counter")
MIXED = {2: ("naive", "counter"), 3: ("noswap", "naive", "counter"), 4: ("counter", "naive", "noswap", "counter")}
MIX = ("random", "naive", "noswap", "counter")  # every bot in play (the first n seats)


def engine_counts(rules, policy, n):
    """The statistics of n engine games; ``policy``: a bot name per seat."""
    chunk = play(rules, seated(*policy[:rules.players]), 99, 0, n)
    g, ev = chunk.games, chunk.events["declarations"]
    out = {"wins": [int(g[f"win_{q}"].sum()) for q in range(rules.players)],
           "hands": np.bincount(np.minimum(g["hands"], 9), minlength=10),
           "sums": np.bincount(ev["ship_sum"] + 24, minlength=49), "forced": int(ev["forced"].sum())}
    paid = np.zeros((2, 5), np.int64)
    seats = np.zeros(2, np.int64)
    for q in range(rules.players):
        role = (ev["declarer"] != q).astype(int)
        for i, r in enumerate("abcde"):
            np.add.at(paid[:, i], role, ev[f"{r}_{q}"] > 0)
        seats += np.bincount(role, minlength=2)
    out.update(paid=paid, seats=seats, declarations=ev["game"].size)
    return out


def reference_counts(rules, policy, n):
    bots = list(policy[:rules.players])
    # two halves of seeds 1 and 2, in this process: the test workers already use every core
    halves = [play_games(rules, bots, n // 2, seed) for seed in (1, 2)]
    games = [g for half in halves for g in half]
    decls = [d for g in games for d in g["declarations"]]
    out = {"wins": [sum(q in g["winners"] for g in games) for q in range(rules.players)],
           "hands": np.bincount(np.minimum([g["hands"] for g in games], 9), minlength=10),
           "sums": np.bincount(np.array([d["ship_sum"] for d in decls]) + 24, minlength=49),
           "forced": sum(d["forced"] for d in decls), "declarations": len(decls)}
    paid = np.zeros((2, 5), np.int64)
    seats = np.zeros(2, np.int64)
    for d in decls:
        for q, amounts in enumerate(d["paid"]):
            role = int(q != d["declarer"])
            paid[role] += [a > 0 for a in amounts]
            seats[role] += 1
    out.update(paid=paid, seats=seats)
    return out


def p_values(eng, ref) -> dict[str, float]:
    """Each statistic's two-sided p-value for 'engine and reference play the same distribution', by name."""
    players = len(eng["wins"])
    ps = {f"seat {q} wins": stats.rate_difference(eng["wins"][q], eng["n"], ref["wins"][q], ref["n"]).p_value
          for q in range(players)}
    ps["forced declarations"] = stats.rate_difference(eng["forced"], eng["declarations"], ref["forced"],
                                                      ref["declarations"]).p_value
    for role, who in enumerate(("declarer", "others")):
        for i, rule in enumerate("ABCDE"):
            if eng["paid"][role, i] + ref["paid"][role, i] > 0:
                ps[f"rule {rule} pays the {who}"] = stats.rate_difference(
                    eng["paid"][role, i], eng["seats"][role], ref["paid"][role, i], ref["seats"][role]).p_value
    for key, what in (("hands", "hands per game"), ("sums", "the ship's sum")):
        table = np.array([eng[key], ref[key]])
        ps[what] = chi2_contingency(table[:, table.sum(axis=0) > 0])[1]
    return ps


ENGINE_TIMES = 8  # engine games per reference game (the module docstring)


def kept_reference_counts(memo, rules, policy, n):
    """``reference_counts``, kept between runs by ``memo`` (the ``reference_memo`` fixture) as JSON."""
    kept = memo(Path(reference.__file__), (rules, policy, n),
                lambda: {k: np.asarray(v).tolist() for k, v in reference_counts(rules, policy, n).items()})
    return {k: np.array(v) if isinstance(v, list) else v for k, v in kept.items()}


def assert_agree(memo, rules, policy, n):
    """Engine (ENGINE_TIMES * n games) and reference (n games, kept between runs by ``memo``) agree in
    every statistic of p_values."""
    eng, ref = engine_counts(rules, policy, ENGINE_TIMES * n), kept_reference_counts(memo, rules, policy, n)
    eng["n"], ref["n"] = ENGINE_TIMES * n, n // 2 * 2
    ps = p_values(eng, ref)
    flagged = [name for name, rejected in zip(ps, stats.holm(list(ps.values()), alpha=ALPHA), strict=True)
               if rejected]
    assert not flagged, "engine and reference differ in " + "; ".join(f"{name} (p = {ps[name]:.2g})"
                                                                      for name in flagged)
    assert eng["declarations"] >= n and ref["declarations"] >= n


SAMPLED = [(4, ("random",) * 4, 5_000), (4, MIX, 5_000), (3, MIX, 4_000), (2, ("random", "counter"), 4_000)]
SWITCHABLE = switchable_rules(OcracokeRules)
ALPHA = 0.01 / (len(SAMPLED) + 2 * len(SWITCHABLE))  # see the module docstring


@pytest.mark.slow
@pytest.mark.parametrize("players, policy, n", SAMPLED)
def test_engine_agrees_with_reference_with_the_random_bot(warm, reference_memo, players, policy, n):
    """OC-PAY-A..E, OC-END-1, OC-END-2, OC-ISLAND-2 and the random bot: two independent implementations
    give the same distributions (Holm at ALPHA family-wise per case; fixed seeds)."""
    assert_agree(reference_memo, make_rules(players=players), policy, n)


@pytest.mark.slow
@pytest.mark.parametrize("rule", SWITCHABLE)
@pytest.mark.parametrize("players", [2, 4])
def test_engine_agrees_with_reference_with_each_switchable_rule_switched(warm, reference_memo, rule, players):
    """Every on/off rule of OcracokeRules (sim.core.layout.switchable_rules: a new bool field is picked
    up here without a new test), switched from the test rules' setting: engine and reference agree, in
    distribution with the random bot and game by game with the scripted ones."""
    rules = switched(make_rules(players=players), rule)
    assert_agree(reference_memo, rules, MIX, 4_000)
    assert replay_differences(rules, MIXED[players], 100) == []


# ---------------------------------------------------------------- replayed deals

ACTIONS = {PEEK: "peek", SPY: "spy", SWAP: "swap", WAVE: "wave"}


class EngineDraws:
    """Stands in for the reference's random.Random: each shuffle gives the order the engine drew (the
    deal of a hand, the kraken pair's order); scripted bots draw nothing else."""

    def __init__(self):
        self.orders: list[list[int]] = []

    def shuffle(self, cards):
        cards[:] = self.orders.pop(0)


class LookingHand(Hand):
    """The reference's hand, noting the ship slots of its extra looks (OC-GHOST, the swap's look)."""

    looks: list[int]

    def extra_look_slot(self, p, exclude):
        slot = super().extra_look_slot(p, exclude)
        self.looks.append(slot)
        return slot


def _until(rows, i, kinds):
    """Rows from i+1 up to (not including) the next row of one of ``kinds``."""
    j = i + 1
    while j < len(rows) and rows[j][0] not in kinds:
        j += 1
    return rows[i + 1:j]


def replay_game(rules, bots, chunk, rows, game_no) -> list[str]:
    """The differences between the engine's logged game and the reference dealt the same cards."""
    draws, out = EngineDraws(), []
    game = Game(rules, list(bots), draws)
    hand = None
    for i, row in enumerate(rows):
        kind, args = row[0], row[1:]
        where = f"game {game_no}, hand {hand.number if hand else 0}"
        if kind == E.L_HAND:
            deal = {r[1]: r[2] for r in _until(rows, i, (E.L_TURN,)) if r[0] == E.L_DEAL}
            draws.orders.append([deal[5 + j] for j in range(3)] + [deal[s] for s in range(rules.ship_cards)]
                                + [deal[8 + 2 * q + k] for q in range(rules.players) for k in range(rules.hand_cards)])
            hand = LookingHand(game, args[1])
            hand.number, hand.looks = args[0], []
        elif kind == E.L_TURN:
            p, rnd, act, x, y, z = args
            where += f", round {rnd}, seat {p} ({bots[p]})"
            want = hand.choose_turn(p, rnd >= 2 and not hand.holds(p, KRAKEN))
            got = (ACTIONS[act], x, y, z)
            if want[0] != got[0] or (act != SPY and tuple(want[1:]) != got[1:]):
                out.append(f"{where}: the engine plays {got}, the reference {tuple(want)}")
            after = _until(rows, i, (E.L_TURN, E.L_DECLARE, E.L_REVEAL))
            draws.orders += [[r[5], r[6]] for r in after if r[0] == E.L_KRAKEN]
            hand.looks = []
            getattr(hand, ACTIONS[act])(p, *((x, y) if act == PEEK else () if act == SPY else (x, y, z)))
            hand.faces[0 if act in (PEEK, SWAP) else 1] ^= 1
            looks = [r[2] for r in after if r[0] == E.L_LOOK]
            if looks != [s for s in hand.looks if s >= 0]:
                out.append(f"{where}: extra looks at ship slots {looks} in the engine, {hand.looks} in the reference")
            kept = [r[4] for r in after if r[0] == E.L_KRAKEN]
            if kept and hand.at[(HAND, p, z)] != kept[0]:
                out.append(f"{where}: the kraken's holder keeps card {kept[0]} in the engine, "
                           f"{hand.at[(HAND, p, z)]} in the reference")
        elif kind == E.L_REVEAL:
            hand.island_up.add(args[0])
            for memory in hand.memory:
                memory.cards[(ISLAND, args[0])] = hand.at[(ISLAND, args[0])]
        elif kind == E.L_DECLARE:
            decl, forced, rnd = args[:3]
            if forced:
                first = hand.start
                while hand.holds(first, KRAKEN):
                    first = (first + 1) % rules.players
                if first != decl:
                    out.append(f"{where}: forced declarer {decl} in the engine, {first} in the reference")
            elif hand.choose_turn(decl, True)[0] != "declare":
                out.append(f"{where}, round {rnd}: seat {decl} declares in the engine, not in the reference")
            record = hand.declare(decl, bool(forced), rnd)
            after = _until(rows, i, (E.L_HAND, E.L_END))
            paid = [tuple(r[2:7]) for r in after if r[0] == E.L_PAY]
            if paid != [tuple(x) for x in record["paid"]]:
                out.append(f"{where}: gold by rule A..E per seat {paid} in the engine, {record['paid']} in the "
                           f"reference (ship {[hand.at[(SHIP, s)] for s in range(rules.ship_cards)]})")
    gold = [int(chunk.games[f"gold_{q}"][0]) for q in range(rules.players)]
    if gold != game.gold:
        out.append(f"game {game_no}: final gold {gold} in the engine, {game.gold} in the reference")
    return out


def replay_differences(rules, bots, n_games, seed=5) -> list[str]:
    """Replay games 0..n_games-1 of the run ``seed`` in the reference; the first differences found."""
    out: list[str] = []
    for index in range(n_games):
        chunk, log = logged_game(rules, seated(*bots), seed, index)
        out += replay_game(rules, bots, chunk, [tuple(int(x) for x in row) for row in log], index)
        if len(out) >= 5:
            break
    return out


REPLAYED = [(players, (bot,) * players) for players in (2, 3, 4) for bot in SCRIPTED] + \
           [(players, MIXED[players]) for players in (2, 3, 4)]


@pytest.mark.parametrize("players, bots", REPLAYED, ids=[f"{p}p-{'-'.join(b)}" for p, b in REPLAYED])
def test_the_reference_dealt_the_engines_cards_plays_every_game_alike(warm, players, bots):
    """OC-ROUND-*, OC-ACT-*, OC-GHOST, OC-MERMAID, OC-KRAKEN-*, OC-DECL-*, OC-PAY-A..E, OC-END-*, and each
    scripted bot's choices: game by game, at every seat."""
    differences = replay_differences(make_rules(players=players), bots, 150)
    assert differences == [], "\n".join(differences)
