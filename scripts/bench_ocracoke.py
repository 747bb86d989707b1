"""Ocracoke speed: full 4-player games per second on one core with `counter` bots at every seat, for the
batch engine (1M games in runner-sized chunks, after a warm-up call; the median of three passes, as
a single pass of about one second moves by +-10 % on a shared machine) and for the plain-Python
reference measured in the same process. Times are CPU seconds of this process (``time.process_time``), so other
work on a shared machine does not count (as for the other games).

    python scripts/bench_ocracoke.py
"""

from __future__ import annotations

import random
import statistics
import time

import numpy as np

ENGINE_GAMES = 1_048_576
ENGINE_PASSES = 3
CHUNK = 1 << 16  # the runner's default chunk
REFERENCE_GAMES = 3_000


def bench() -> dict:
    from sim.core.scenario import load_scenario
    from sim.games.ocracoke import GAME
    from sim.games.ocracoke.reference import play_game

    rules = load_scenario(GAME.name, GAME.rules_model, "base").rules
    policy = GAME.policy_array(rules, {"all": "counter"})
    GAME.play(rules, policy, 0, 0, 2_000)  # compile (or load the cache), build the posterior tables
    passes = []
    for _ in range(ENGINE_PASSES):
        began = time.process_time()
        hands = 0
        for start in range(0, ENGINE_GAMES, CHUNK):
            hands += int(GAME.play(rules, policy, 1, start, CHUNK).games["hands"].sum())
        passes.append(time.process_time() - began)
    engine_s = statistics.median(passes)

    rng = random.Random(1)
    bots = ["counter"] * rules.players
    for _ in range(200):  # fill the reference's posterior caches, as the engine's tables are built above
        play_game(rules, bots, rng)
    began = time.process_time()
    for _ in range(REFERENCE_GAMES):
        play_game(rules, bots, rng)
    reference_s = time.process_time() - began

    engine_rate = ENGINE_GAMES / engine_s
    reference_rate = REFERENCE_GAMES / reference_s
    return {"games_per_s_per_core": round(engine_rate, 1), "reference_games_per_s": round(reference_rate, 1),
            "ratio_vs_reference": round(engine_rate / reference_rate, 1), "engine_games": ENGINE_GAMES,
            "engine_passes": ENGINE_PASSES, "pass_games_per_s": [round(ENGINE_GAMES / s) for s in passes],
            "reference_games": REFERENCE_GAMES, "players": rules.players, "bots": "counter at every seat",
            "hands_per_game": round(hands / ENGINE_GAMES, 3),
            "seconds_for_1m_games_one_core": round(1e6 / engine_rate, 2), "numpy": np.__version__}


if __name__ == "__main__":
    for key, value in bench().items():
        print(f"{key:>30}: {value}")
