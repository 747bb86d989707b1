"""A tiny dice duel used to test the runner and the workflow without a real game.

Two players roll a die each round; the higher roll scores a point (ties score nothing); the
first to ``target`` points wins, and after ``max_rounds`` the game is drawn. The ``cautious``
bot rerolls a roll below 4 once; the ``random`` bot rerolls half the time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from numba import njit
from pydantic import BaseModel, ConfigDict, Field

from sim.core import stats
from sim.core.game import Chunk, GameSpec, Metric, Trace
from sim.core.rng import game_stream, randbelow

SCENARIO = Path(__file__).parent / "toy" / "base.toml"


class ToyRules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(2, ge=2, le=2, description="players", json_schema_extra={"rule": "TOY-1"})
    target: int = Field(3, ge=1, le=10, description="points to win", json_schema_extra={"rule": "TOY-2"})
    max_rounds: int = Field(30, ge=1, le=200, description="rounds before a draw",
                            json_schema_extra={"rule": "TOY-3"})
    die_sides: int = Field(ge=2, le=20, description="faces of the die", json_schema_extra={"assumed": True})


@njit(cache=True)
def _roll(state, sides, bot):
    roll = randbelow(state, sides) + 1
    reroll = roll < 4 if bot == 1 else randbelow(state, 2) == 1
    if reroll:
        roll = randbelow(state, sides) + 1
    return roll


@njit(cache=True)
def _play_one(state, target, max_rounds, sides, policy, log):
    points = np.zeros(2, dtype=np.int64)
    rounds = 0
    n_log = 0
    while rounds < max_rounds and points.max() < target:
        rounds += 1
        a = _roll(state, sides, policy[0])
        b = _roll(state, sides, policy[1])
        if a > b:
            points[0] += 1
        elif b > a:
            points[1] += 1
        if n_log < log.shape[0]:
            log[n_log, 0] = rounds
            log[n_log, 1] = a
            log[n_log, 2] = b
            n_log += 1
    winner = 0 if points[0] >= target else (1 if points[1] >= target else -1)
    return winner, rounds, n_log


@njit(cache=True)
def _play_batch(seed, start, count, target, max_rounds, sides, policy, winner, rounds):
    log = np.zeros((0, 3), dtype=np.int64)
    for k in range(count):
        state = game_stream(seed, start + k)
        winner[k], rounds[k], _ = _play_one(state, target, max_rounds, sides, policy, log)


def play(rules: ToyRules, policy: np.ndarray, seed: int, start: int, count: int) -> Chunk:
    winner = np.empty(count, dtype=np.int64)
    rounds = np.empty(count, dtype=np.int64)
    _play_batch(seed, start, count, rules.target, rules.max_rounds, rules.die_sides, policy, winner, rounds)
    return Chunk({"game": np.arange(start, start + count, dtype=np.int64), "winner": winner, "rounds": rounds})


def metrics(rules: ToyRules) -> list[Metric]:
    return [Metric("win_0", "seat 0 wins", "rate", True), Metric("win_1", "seat 1 wins", "rate", True),
            Metric("rounds", "rounds per game", "mean")]


def per_game(rules: ToyRules, chunk: Chunk) -> dict[str, np.ndarray]:
    w = chunk.games["winner"]
    return {"win_0": (w == 0).astype(np.int64), "win_1": (w == 1).astype(np.int64), "rounds": chunk.games["rounds"]}


def tally(rules: ToyRules, chunk: Chunk) -> dict[str, np.ndarray]:
    return {"rounds_hist": np.bincount(chunk.games["rounds"], minlength=rules.max_rounds + 1)}


def tables(rules: ToyRules, summary) -> dict[str, pl.DataFrame]:
    hist = summary.tallies["rounds_hist"]
    ests = stats.rates(hist, summary.n_games)
    return {"rounds": pl.DataFrame({"rounds": np.arange(hist.size), "value": [e.value for e in ests],
                                    "lo": [e.lo for e in ests], "hi": [e.hi for e in ests],
                                    "n": [e.n for e in ests]}).filter(pl.col("value") > 0)}


def trace(rules: ToyRules, policy: np.ndarray, seed: int, index: int) -> Trace:
    log = np.zeros((rules.max_rounds, 3), dtype=np.int64)
    winner, rounds, n = _play_one(game_stream(seed, index), rules.target, rules.max_rounds, rules.die_sides,
                                  policy, log)
    lines = [f"round {r}: seat 0 rolls {a}, seat 1 rolls {b}" for r, a, b in log[:n]]
    lines.append(f"winner: {'draw' if winner < 0 else f'seat {winner}'} after {rounds} rounds")
    chunk = Chunk({"game": np.array([index]), "winner": np.array([winner]), "rounds": np.array([rounds])})
    return Trace(lines, chunk)


TOY = GameSpec(name="toy", title="Toy dice duel", rules_model=ToyRules, player_counts=(2,), roles=("0", "1"),
               bots={"0": ("random", "cautious"), "1": ("random", "cautious")},
               default_bots={"0": "cautious", "1": "cautious"}, play=play, metrics=metrics,
               per_game=per_game, tally=tally, tables=tables, trace=trace)
