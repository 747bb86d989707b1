"""Scripted Wonderful Island states for rule tests: set a table up by hand, call one compiled step."""

from __future__ import annotations

import numpy as np

from sim.core.rng import game_stream
from sim.core.scenario import load_scenario
from sim.games.wonderful_island import GAME, engine
from sim.games.wonderful_island import state as S
from sim.games.wonderful_island.catalogue import load_catalogue
from sim.games.wonderful_island.rules import WonderfulIslandRules

PARTISAN = GAME.bot_numbers()  # the default bots: partisan camps, the politician bot
RANDOM = GAME.bot_numbers({"all": "random"})


def rules(*sets: str) -> WonderfulIslandRules:
    return load_scenario("wonderful-island", WonderfulIslandRules, "base", list(sets)).rules


def kind(name: str) -> int:
    return load_catalogue("base").card_kind(name)


class Table:
    """One game's arrays, set up by hand: camps, bots, votes, hands; nobody in hospital."""

    def __init__(self, r: WonderfulIslandRules, camps, bots=None, votes=None, seed: int = 0, log: int = 2000):
        self.rules = r
        tab, self.deck0, self.mdeck0 = engine.pack(r)
        self.st = S.new_state(tab, log)  # a copy of the packed table, which is shared
        self.tab = self.st[S.TB:S.TB + tab.shape[0]]  # views into the one state array: edits reach the engine
        first = self.tab[0, S.R_CHAR0]
        self.chars = self.tab[first:self.tab[0, S.R_MEET0]]
        for s in range(3):
            self.chars[0, s * 5] = -1  # character 0 without skills: no trigger matches
        self.sp = self.st.ctypes.data  # its address: what the compiled steps are passed (state.state_at)
        self.g = self.st[0]  # views into the one state array
        self.seat = self.st[S.SEAT:S.SEAT + S.MAX_PLAYERS]
        self.hand = self.st[S.HAND:S.HAND + S.MAX_PLAYERS]
        self.mhand = self.st[S.MHAND:S.MHAND + S.MAX_PLAYERS]
        self.piles = self.st[S.PILES:S.PILES + 5]
        self.log = self.st[self.tab[0, S.R_LOG0]:].reshape(-1)
        self.st[S.RNG, :4] = game_stream(seed, 0).view(np.int64)  # the game's random stream
        self.vstats = np.zeros((6, 3, 3), dtype=np.int64)
        n = len(camps)
        R = self.tab[0]
        self.g[S.G_N] = n
        self.g[S.G_POOL] = R[S.R_POOL]
        self.g[S.G_IRON_LEFT] = R[S.R_IRON]
        self.g[S.G_THRESH] = R[S.R_THRESH]
        self.g[S.G_TURN] = 1
        nd = self.deck0.shape[0]
        self.piles[S.PILE_DECK, :nd] = self.deck0
        self.g[S.G_DECK_N] = nd
        for p in range(n):
            self.seat[p, S.S_CAMP] = camps[p]
            self.seat[p, S.S_BOT] = S.BOT_PARTISAN if bots is None else bots[p]
            self.seat[p, S.S_SIDE] = camps[p] if camps[p] != S.POLITICIAN else -1
            self.seat[p, S.S_HOSP] = -1
            self.seat[p, S.S_CHAR] = 0
            for q in range(n):
                self.seat[p, S.S_BELIEF + q] = 1000 if camps[q] == camps[p] else 0
            if votes is not None:
                self.set_votes(p, votes[p])

    def set_votes(self, p: int, v: int) -> None:
        self.g[S.G_POOL] -= v - self.seat[p, S.S_VOTES]
        self.seat[p, S.S_VOTES] = v

    def give(self, p: int, *names: str) -> None:
        for name in names:
            self.hand[p, self.seat[p, S.S_HAND_N]] = kind(name)
            self.seat[p, S.S_HAND_N] += 1

    def slot(self, owner: int, name: str) -> None:
        i = self.g[S.G_SLOT_N]
        self.piles[S.PILE_SLOT_CARD, i] = kind(name)
        self.piles[S.PILE_SLOT_OWNER, i] = owner
        self.g[S.G_SLOT_N] = i + 1

    def candidate(self, c: int, venue: int) -> None:
        self.g[S.G_CAND] = c
        self.g[S.G_VENUE] = venue

    def settle(self, c: int, venue: int) -> None:
        self.candidate(c, venue)
        engine.settle(self.sp, c, self.vstats)

    def events(self, code: int) -> list[tuple[int, int, int]]:
        rows = self.log.reshape(-1, 4)
        return [tuple(int(x) for x in r[1:]) for r in rows if r[0] == code]

    def votes(self, p: int) -> int:
        return int(self.seat[p, S.S_VOTES])

    def tokens(self) -> int:
        """Vote tokens in the pool, held, and out of the game (constant)."""
        n = self.g[S.G_N]
        return int(self.g[S.G_POOL] + self.seat[:n, S.S_VOTES].sum() + self.g[S.G_REMOVED])
