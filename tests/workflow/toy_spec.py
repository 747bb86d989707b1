"""A tiny dice duel that fulfils the GameSpec contract, so the balance workflow is tested on
a game whose answers are known (a fair game without bonus; seat 0 favoured by ``first_bonus``).

Each of ``players`` seats rolls a die with ``sides`` faces; the ``smart`` bot rerolls a roll in the
lower half once, the ``naive`` bot never does. Seat 0 adds ``first_bonus``, and +1 more with
probability ``bonus_chance``. The highest total wins; a shared top total is a win for each.

``SEARCHING`` is the same game with a search bot (a stand-in for stronger play, to test
``sim robust``): it rolls ``rollouts`` more times and keeps its best roll, one search decision per
game. Its per-game ``search_decisions`` column is there whenever a seat in play searches.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit
from pydantic import BaseModel, Field

from sim.core.game import Chunk, GameSpec, Metric, SearchBot, Trace
from sim.core.rng import randbelow, seed_stream, uniform

SEATS = 4
SEARCH = 2  # the search bot's index: one past naive and smart


class ToyRules(BaseModel):
    players: int = Field(3, ge=2, le=4, json_schema_extra={"rule": "T-1"})
    sides: int = Field(6, ge=2, le=12, json_schema_extra={"rule": "T-2"})
    first_bonus: int = Field(ge=0, le=3, json_schema_extra={"assumed": True})
    bonus_chance: float = Field(0.0, ge=0.0, le=1.0, json_schema_extra={"rule": "T-3", "step": 0.1})
    label: str = Field("dice", json_schema_extra={"rule": "T-4"})


@njit(cache=True)
def _play(players, sides, first_bonus, bonus_chance, smart, rollouts, seed, start, count, win, top, decisions,
          log):
    state = np.empty(4, dtype=np.uint64)
    totals = np.zeros(SEATS, dtype=np.int64)
    n_log = 0
    for g in range(count):
        seed_stream(state, seed, start + g)
        best = -1
        for s in range(players):
            roll = randbelow(state, sides) + 1
            if smart[s] == 1 and 2 * roll <= sides:
                roll = randbelow(state, sides) + 1
            elif smart[s] == SEARCH:
                for _ in range(rollouts[s]):
                    roll = max(roll, randbelow(state, sides) + 1)
                decisions[g] += 1
            total = roll
            if s == 0:
                total += first_bonus
                if uniform(state) < bonus_chance:
                    total += 1
            totals[s] = total
            if n_log < log.shape[0]:
                log[n_log] = total
                n_log += 1
            if total > best:
                best = total
        top[g] = best
        for s in range(players):
            win[g, s] = 1 if totals[s] == best else 0
    return n_log


def _smart(policy: np.ndarray) -> np.ndarray:
    return np.asarray(policy, dtype=np.int64)[:SEATS]


def _rollouts(policy: np.ndarray) -> np.ndarray:
    """The search option of each seat; none when the policy carries no options (a bot index per seat)."""
    options = np.asarray(policy, dtype=np.int64)[SEATS:]
    return options.reshape(SEATS, -1)[:, 0].copy() if options.size else np.zeros(SEATS, dtype=np.int64)


def play(rules: ToyRules, policy: np.ndarray, seed: int, start: int, count: int,
         log: np.ndarray | None = None) -> Chunk:
    win = np.zeros((count, SEATS), dtype=np.int64)
    top = np.zeros(count, dtype=np.int64)
    decisions = np.zeros(count, dtype=np.int64)
    log = np.zeros(0, dtype=np.int64) if log is None else log
    smart = _smart(policy)
    _play(rules.players, rules.sides, rules.first_bonus, float(rules.bonus_chance), smart, _rollouts(policy),
          seed, start, count, win, top, decisions, log)
    games = {f"win_{s}": win[:, s].copy() for s in range(SEATS)}
    games["top"] = top
    games["tie"] = (win.sum(axis=1) > 1).astype(np.int64)
    if (smart[:rules.players] == SEARCH).any():
        games["search_decisions"] = decisions
    return Chunk(games)


def metrics(rules: ToyRules) -> list[Metric]:
    return ([Metric(f"win_{s}", f"seat {s} wins", "rate", True) for s in range(SEATS)]
            + [Metric("tie", "shared win", "rate"), Metric("top", "winning total", "mean")])


def per_game(rules: ToyRules, chunk: Chunk) -> dict[str, np.ndarray]:
    return {m.name: chunk.games[m.name] for m in metrics(rules)}


def tally(rules: ToyRules, chunk: Chunk) -> dict[str, np.ndarray]:
    return {"top": np.bincount(chunk.games["top"], minlength=20)[:20].astype(np.int64)}


def tables(rules: ToyRules, summary) -> dict:
    return {}


def trace(rules: ToyRules, policy: np.ndarray, seed: int, index: int) -> Trace:
    log = np.zeros(SEATS, dtype=np.int64)
    chunk = play(rules, policy, seed, index, 1, log)
    lines = [f"seat {s} total {int(log[s])}" for s in range(rules.players)]
    lines.append("winners: " + " ".join(str(s) for s in range(SEATS) if chunk.games[f"win_{s}"][0]))
    return Trace(lines, chunk)


def report_figures(scenario, n_games: int, seed: int, jobs: int):
    import matplotlib.pyplot as plt

    from sim.core.runner import simulate

    result = simulate(GAME, scenario, n_games, seed, jobs, progress=False)
    counts = result.summary.tallies["top"]
    fig, ax = plt.subplots()
    ax.bar(np.arange(counts.size), counts / result.n_games, label="share of games")
    ax.set_title("Winning total")
    ax.set_xlabel("winning total (pips)")
    ax.set_ylabel("share of games")
    ax.legend()
    return [fig]


GAME = GameSpec(
    name="toy-dice", title="Toy dice duel", rules_model=ToyRules, player_counts=(2, 3, 4),
    roles=tuple(str(s) for s in range(SEATS)), bots={str(s): ("naive", "smart") for s in range(SEATS)},
    default_bots={str(s): "smart" for s in range(SEATS)},
    play=play, metrics=metrics, per_game=per_game, tally=tally, tables=tables, trace=trace,
    description="A dice duel for testing the workflow", extras={"report_figures": report_figures},
)


SEARCHING = dataclasses.replace(
    GAME, name="toy-search", title="Toy dice duel with a search bot",
    search=SearchBot(options=(("rollouts", 2, "extra rolls it keeps the best of"),)))
